"""The environment a real browser runs in during the tests.

Under the sanitizer build (``.ci/sanitize``) the test process carries
``LD_PRELOAD=libasan.so``: passed on to Chromium, the sanitizer's runtime hangs it
before it draws a page (the browser is not ours and is not built for it).  The
browser gets the environment without the sanitizer's variables.
"""

from __future__ import annotations

import os

_SANITIZER = ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")


def browser_env() -> dict[str, str]:
    """This process's environment without the sanitizer's preload and options."""
    return {k: v for k, v in os.environ.items() if k not in _SANITIZER}

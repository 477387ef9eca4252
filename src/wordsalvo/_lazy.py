"""Public names imported from their modules on first use (PEP 562), for a package's
``__init__``: ``__getattr__, __dir__ = lazy_names(__name__, exports, __all__)``."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def lazy_names(package: str, exports: dict[str, str],
               public: list[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``: ``exports`` maps a public
    name to the module (relative to ``package``) that defines it."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)  # the next look-up is a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(public))

    return __getattr__, __dir__

"""The user's cache folder, where lexicons built on the user's machine live.

Cache folder: ``$WORDSALVO_CACHE_DIR``, else ``$XDG_CACHE_HOME/wordsalvo``,
else ``~/.cache/wordsalvo``.  It holds ``<lang>.wsg`` (the graph),
``<lang>.txt.gz`` (the word list) and ``<lang>.json`` (the build report),
written by :mod:`wordsalvo.lexicon.fetch` and read by
:meth:`wordsalvo.lexicon.lexicon.Lexicon.default`; and ``verified/``: one empty
file per graph content that passed the word-level check of
:meth:`~wordsalvo.lexicon.lexicon.Lexicon.load`, named by the check's version and the
content's sha256 (a later load of the same bytes skips that check).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_dir", "cached_graph_path", "verified_graph_marker"]

CACHE_ENV = "WORDSALVO_CACHE_DIR"


def cache_dir() -> Path:
    """The user's wordsalvo cache folder (not created here)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg).expanduser() / "wordsalvo"
    return Path.home() / ".cache" / "wordsalvo"


def cached_graph_path(lang: str) -> Path | None:
    """The fetched graph of ``lang`` in the cache folder, or None if there is none."""
    p = cache_dir() / f"{lang}.wsg"
    return p if p.is_file() else None


def verified_graph_marker(check: str, sha256: str) -> Path:
    """The marker that graph content of hash ``sha256`` passed word-level check ``check``."""
    return cache_dir() / "verified" / f"{check}-{sha256}"

"""Imports deferred to first use: a package's public names (PEP 562, for its
``__init__``: ``__getattr__, __dir__ = lazy_names(__name__, exports, __all__)``) and
numpy (:data:`numpy`), which a process that only answers best moves never needs."""

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


class LazyModule:
    """A module imported on the first use of one of its attributes; each attribute is
    then kept on this object, so later look-ups cost what a module's do.  Unlike
    ``importlib.util.LazyLoader`` it puts nothing in ``sys.modules`` before the real
    import (which holds the import lock, so two threads cannot both run it)."""

    def __init__(self, name: str):
        self.__name = name

    def __getattr__(self, attr: str) -> Any:
        value = getattr(importlib.import_module(self.__name), attr)
        setattr(self, attr, value)
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self.__name!r}>"


#: ``from wordsalvo._lazy import numpy as np`` in the modules a best-move search
#: imports: numpy (16 MiB of resident memory) loads when an array is first made
numpy = LazyModule("numpy")

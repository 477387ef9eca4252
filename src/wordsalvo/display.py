"""Pictures of the core's objects in a notebook, without the core importing the pictures.

A :class:`Board`, :class:`Position`, :class:`Game` or :class:`MoveList` shows
itself in Jupyter (IPython's ``_repr_svg_`` and ``_repr_html_``, as python-chess
boards do).  The drawings live above the core, in :mod:`wordsalvo.render.notebook`
(on :mod:`wordsalvo.render.svg`); the core never imports them.  Instead this module
holds a registry that the upper layer fills: the package's facade (``wordsalvo``)
hands :func:`set_loader` a function that imports the render layer the first time a
picture is asked for, and the render layer :func:`register`\\ s one function per kind
and format.  Until then (or for a kind with no drawer) the methods return None and
the notebook shows the ``repr``.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["Displayable", "register", "set_loader", "drawer"]

#: (kind, "svg" or "html") -> the function that draws an object of that kind
_DRAWERS: dict[tuple[str, str], Callable[[Any], str]] = {}
#: imports the layer that registers the drawers (set by the package facade), called once
_LOADER: list[Callable[[], None]] = []


def register(kind: str, fmt: str, draw: Callable[[Any], str]) -> None:
    """``draw(obj)`` returns the ``fmt`` ("svg" or "html") text of an object of ``kind``."""
    _DRAWERS[(kind, fmt)] = draw


def set_loader(load: Callable[[], None]) -> None:
    """``load()`` registers the drawers; it runs the first time a picture is asked for."""
    _LOADER[:] = [load]


def drawer(kind: str, fmt: str) -> Callable[[Any], str] | None:
    if (kind, fmt) not in _DRAWERS and _LOADER:
        load = _LOADER.pop()
        load()
    return _DRAWERS.get((kind, fmt))


class Displayable:
    """Mixin: ``_repr_svg_`` and ``_repr_html_`` from the registered drawers of the class's
    ``_display_kind`` (None when there is none, so the notebook falls back on ``repr``)."""

    __slots__ = ()
    _display_kind = ""

    def _repr_svg_(self) -> str | None:
        draw = drawer(self._display_kind, "svg")
        return None if draw is None else draw(self)

    def _repr_html_(self) -> str | None:
        draw = drawer(self._display_kind, "html")
        return None if draw is None else draw(self)

"""The constants of the C core (``csrc/ws_defs.h``), once, for the Python side.

Every value here mirrors a ``#define`` of ``ws_defs.h``.  When the package is
imported, each is compared with the value the compiled core reports
(``wordsalvo._core._engine.CORE_CONSTANTS``): a mismatch raises ImportError, so
a Python side and a C side that disagree never run together.

The module imports nothing from the package except the compiled core for that
check, so the package build can load it by path (with ``alphabet.py`` and
``graphfile.py``) before the package is installed; the check runs only when it
is imported as ``wordsalvo.constants``.
"""

from __future__ import annotations

import enum

__all__ = [
    "DIM", "SQUARES", "COLUMNS", "CENTRE", "MAX_LETTERS", "RACK_MAX", "BLANK", "BLANK_BIT", "LETTER_MASK",
    "MIN_WORD", "MAX_WORD", "Direction", "ACROSS", "DOWN",
    "OK", "E_NOMEM", "E_CAPACITY", "E_FORMAT", "E_TOO_BIG", "E_ARGUMENT",
    "LINE_OK", "LINE_EMPTY", "LINE_DIGIT", "LINE_APOSTROPHE", "LINE_HYPHEN", "LINE_DOT", "LINE_SPACE",
    "LINE_OTHER_CHARACTER", "LINE_TOO_SHORT", "LINE_TOO_LONG", "LINE_DUPLICATE", "LINE_BAD_UTF8",
    "LINE_COMMENT", "NODE_INDEX_MASK", "NODE_END", "NODE_ACCEPTS", "NODE_TILE_SHIFT", "MAX_NODES",
    "MIRRORED",
]

# -- the board ------------------------------------------------------------------------
#: squares per side (WS_DIM)
DIM = 15
#: squares of the board, row-major ``row * DIM + col`` (WS_SQUARES)
SQUARES = DIM * DIM
#: column letters of the notation (``8H``: row 8, column H)
COLUMNS = "ABCDEFGHIJKLMNO"[:DIM]
#: the middle square, the default start square ``(row, col)``
CENTRE = (DIM // 2, DIM // 2)

# -- tiles and words ----------------------------------------------------------------
#: letters an alphabet may have; tile codes 1..MAX_LETTERS (WS_MAX_LETTERS)
MAX_LETTERS = 32
#: the most tiles a rack holds (WS_RACK_MAX); a rule set's ``rack_size`` is 1..RACK_MAX
RACK_MAX = 7
#: tile code of a blank on a rack (and of the separator inside a GADDAG)
BLANK = 0
#: set on a board square's code when a blank stands for the letter (WS_BLANK_BIT)
BLANK_BIT = 0x80
#: the letter part of a board code (WS_LETTER_MASK)
LETTER_MASK = 0x7F
#: shortest and longest word a lexicon holds (WS_MIN_WORD, WS_MAX_WORD)
MIN_WORD = 2
MAX_WORD = 15


class Direction(enum.IntEnum):
    """The direction of a move: across (along a row) or down (along a column).

    The values are the C core's (0 = across, lanes are rows; 1 = down, lanes
    are columns); a plain ``0`` or ``1`` compares equal.
    """

    ACROSS = 0
    DOWN = 1

    @property
    def step(self) -> tuple[int, int]:
        """``(row step, column step)`` along the direction."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> "Direction":
        """The perpendicular direction."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


ACROSS = Direction.ACROSS
DOWN = Direction.DOWN

# -- status codes of the C functions (0 = ok, negative = error) ------------------------
OK = 0
E_NOMEM = -1
E_CAPACITY = -2
E_FORMAT = -3
E_TOO_BIG = -4
E_ARGUMENT = -5

# -- why a word-list line is dropped (WS_LINE_*) --------------------------------------
LINE_OK = 0
LINE_EMPTY = 1
LINE_DIGIT = 2
LINE_APOSTROPHE = 3
LINE_HYPHEN = 4
LINE_DOT = 5
LINE_SPACE = 6
LINE_OTHER_CHARACTER = 7
LINE_TOO_SHORT = 8
LINE_TOO_LONG = 9
LINE_DUPLICATE = 10
LINE_BAD_UTF8 = 11
LINE_COMMENT = 12

# -- graph nodes: one uint32 per arc (WS_NODE_*) ---------------------------------------
NODE_INDEX_MASK = 0x00FFFFFF
NODE_END = 0x01000000
NODE_ACCEPTS = 0x02000000
NODE_TILE_SHIFT = 26
MAX_NODES = 0x01000000

#: name in ``CORE_CONSTANTS`` (the ``ws_defs.h`` name without ``WS_``) -> value here
MIRRORED: dict[str, int] = {
    "DIM": DIM, "SQUARES": SQUARES, "MAX_LETTERS": MAX_LETTERS, "RACK_MAX": RACK_MAX,
    "BLANK_BIT": BLANK_BIT, "LETTER_MASK": LETTER_MASK, "MIN_WORD": MIN_WORD, "MAX_WORD": MAX_WORD,
    "OK": OK, "E_NOMEM": E_NOMEM, "E_CAPACITY": E_CAPACITY, "E_FORMAT": E_FORMAT, "E_TOO_BIG": E_TOO_BIG,
    "E_ARGUMENT": E_ARGUMENT,
    "LINE_OK": LINE_OK, "LINE_EMPTY": LINE_EMPTY, "LINE_DIGIT": LINE_DIGIT, "LINE_APOSTROPHE": LINE_APOSTROPHE,
    "LINE_HYPHEN": LINE_HYPHEN, "LINE_DOT": LINE_DOT, "LINE_SPACE": LINE_SPACE,
    "LINE_OTHER_CHARACTER": LINE_OTHER_CHARACTER, "LINE_TOO_SHORT": LINE_TOO_SHORT,
    "LINE_TOO_LONG": LINE_TOO_LONG, "LINE_DUPLICATE": LINE_DUPLICATE, "LINE_BAD_UTF8": LINE_BAD_UTF8,
    "LINE_COMMENT": LINE_COMMENT,
    "NODE_INDEX_MASK": NODE_INDEX_MASK, "NODE_END": NODE_END, "NODE_ACCEPTS": NODE_ACCEPTS,
    "NODE_TILE_SHIFT": NODE_TILE_SHIFT, "MAX_NODES": MAX_NODES,
}


def mismatches(core: dict[str, int]) -> list[str]:
    """Every value of :data:`MIRRORED` that ``core`` (the compiled core's constants)
    lacks or holds differently, as ``'NAME: C core has X, Python has Y'``."""
    out = []
    for name, value in MIRRORED.items():
        if name not in core:
            out.append(f"{name}: missing from the C core, Python has {value}")
        elif core[name] != value:
            out.append(f"{name}: C core has {core[name]}, Python has {value}")
    return out


def _check_core() -> None:
    from ._core import _engine

    problems = mismatches(_engine.CORE_CONSTANTS)
    if problems:
        raise ImportError("wordsalvo.constants does not match the compiled core (csrc/ws_defs.h): "
                          + "; ".join(problems) + "; rebuild the extension or fix constants.py")


if __name__ == "wordsalvo.constants":  # the package build loads this file alone, before the core exists
    _check_core()

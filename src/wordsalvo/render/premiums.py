"""The premium layout of a rule set as text: plain symbols or an ANSI-coloured board.

:func:`board_symbols` gives the symbols of a rule set (layout plus star squares
``S``), :func:`render_plain` the text form (one line per row) and
:func:`render_ansi` a coloured board with coordinates and a legend.
:data:`STYLE` holds the labels and colours every terminal drawing shares.
"""

from __future__ import annotations

from ..constants import COLUMNS
from ..rules import Rules

__all__ = ["STYLE", "LEGEND", "board_symbols", "render_plain", "render_ansi"]


def board_symbols(rules: Rules) -> list[list[str]]:
    """The symbols of every square: the layout (W w T D * .) with ``S`` on the star squares."""
    rows = [list(row) for row in rules.layout]
    for r, c in rules.star_squares:
        rows[r][c] = "S"
    return rows


def render_plain(rules: Rules) -> str:
    """One line per row of space-separated symbols (no trailing newline).

    ``W`` 3W, ``w`` 2W, ``T`` 3L, ``D`` 2L, ``*`` centre without bonus (a
    centre with 2W prints ``w``), ``S`` star square, ``.`` plain.
    """
    return "\n".join(" ".join(row) for row in board_symbols(rules))



#: symbol -> (label, ANSI style).  The colours are the Okabe-Ito palette, which readers
#: with every common colour-vision deficiency tell apart (xterm 256-colour approximations),
#: and every premium also carries its label, so no square is told by its colour alone.
STYLE = {
    "W": ("3W", "1;30;48;5;166"),   # black on vermillion
    "w": ("2W", "1;30;48;5;175"),   # black on reddish purple
    "T": ("3L", "1;97;48;5;25"),    # bold white on blue
    "D": ("2L", "1;30;48;5;74"),    # black on sky blue
    "*": (" \u2605", "1;30;48;5;185"),  # black star on yellow
    "S": ("\u2605", "1;30;48;5;214"),   # star square: black on orange; label holds the bonus
    ".": (" \u00b7", "2;37;40"),        # dim dot
}
LEGEND = (
    ("W", "triple word"), ("w", "double word"), ("T", "triple letter"),
    ("D", "double letter"), ("*", "start, no bonus"), ("S", "star square"),
)


def _cell(sym: str, label: str, style: str) -> str:
    return f"\x1b[{style}m{label:>2} \x1b[0m"


def render_ansi(rules: Rules, *, title: str | None = None) -> str:
    """A coloured board for an ANSI terminal, with coordinates and a legend."""
    symbols = board_symbols(rules)
    centre = tuple(rules.centre)
    lines = []
    if title:
        lines.append(title)
    lines.append("    " + "".join(f"{c:>2} " for c in COLUMNS))
    for r, row in enumerate(symbols):
        cells = []
        for c, sym in enumerate(row):
            label, style = STYLE[sym]
            if sym == "S":
                label = f"{rules.star_bonus:>2}" if rules.star_bonus < 100 else "\u2605"
            elif (r, c) == centre and sym == "w":
                label = "\u2605w"  # the centre star that doubles the first word
            cells.append(_cell(sym, label, style))
        lines.append(f"{r + 1:>3} " + "".join(cells))
    present = {s for row in symbols for s in row}
    legend = []
    for sym, text in LEGEND:
        if sym in present:
            label, style = STYLE[sym]
            if sym == "S":
                label, text = f"{rules.star_bonus:>2}", f"star square (+{rules.star_bonus} once)"
            legend.append(f"{_cell(sym, label, style)} {text}")
    if centre and symbols[centre[0]][centre[1]] == "w":
        legend.append(f"{_cell('w', chr(0x2605) + 'w', STYLE['w'][1])} start, doubles the first word")
    lines.append("")
    lines.extend("  ".join(legend[i:i + 3]) for i in range(0, len(legend), 3))
    return "\n".join(lines)

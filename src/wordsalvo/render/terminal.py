"""Drawing a running game for a terminal: board with tiles, rack, turns, previews.

Every function returns text (no trailing newline) and never prints, so the
terminal game (:mod:`wordsalvo.tui.session`) and its tests decide where it
goes.  ``colour=True`` adds ANSI codes; ``colour=False`` gives plain text that
still tells everything apart:

* a square is 3 characters wide: ``3W`` ``2W`` ``3L`` ``2L`` premiums, `` * ``
  the start square, ``+25`` a star square's bonus, `` . `` plain;
* a tile is `` A ``, a blank `` a `` (lowercase, as in the notation), a tile
  of the last move ``[A]`` / ``[a]``;
* with ``values=True`` (when the screen has room) a square is 4 characters wide
  and a tile shows its value: ``A1``, ``Q10``, a blank ``a``; the last move's
  tiles are marked ``A1*``.

With colour a tile always shows its value as a subscript (``A₁``) in the 3
characters (a column holding a tile worth 10 or more, ``Q₁₀``, is 4 wide); the
last move's tiles are underlined on bluish green.  The
premium colours and labels are those of :func:`wordsalvo.render.premiums.render_ansi`
(the Okabe-Ito palette, and a label on every premium, so that no square is told
apart by its colour alone).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from ..alphabet import BLANK_BIT
from ..board import Board
from ..constants import COLUMNS, DIM
from ..errors import IllegalMoveReason
from ..wording import possessive, verb  # re-exported: the terminal game words its turns with them
from .premiums import STYLE, board_symbols

if TYPE_CHECKING:  # pragma: no cover
    from ..game import Turn
    from ..placement import PlacementResult
    from ..rules import Rules

__all__ = [
    "changed_squares",
    "render_board",
    "render_legend",
    "render_rack",
    "describe_turn",
    "render_preview",
    "render_scores",
    "side_by_side",
    "board_width",
    "placed_squares",
    "possessive",
    "verb",
    "visible_width",
    "wrap_lines",
]

_RESET = "\x1b[0m"
# Okabe-Ito colours (xterm 256-colour approximations); the last move is underlined as well
_TILE = "1;30;48;5;230"            # black on cream
_BLANK = "1;38;5;25;48;5;230"      # blue lowercase on cream
_LAST = "1;4;30;48;5;36"           # black, underlined, on bluish green: the last move
_LAST_BLANK = "1;4;38;5;231;48;5;36"  # white lowercase, underlined, on bluish green
_PLAIN_LABEL = {"W": "3W ", "w": "2W ", "T": "3L ", "D": "2L ", "*": " * ", ".": " . "}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _paint(style: str, text: str, colour: bool) -> str:
    return f"\x1b[{style}m{text}{_RESET}" if colour else text


def changed_squares(before: Board | bytes, after: Board | bytes) -> frozenset[tuple[int, int]]:
    """The squares whose tile differs between two boards (the tiles a play added)."""
    a = before.tiles if isinstance(before, Board) else before
    b = after.tiles if isinstance(after, Board) else after
    return frozenset(divmod(i, DIM) for i in range(DIM * DIM) if a[i] != b[i])


def _premium_cell(rules: "Rules", sym: str, *, centre: bool, colour: bool) -> str:
    """An empty square, 3 characters wide."""
    if sym == "S":
        return _paint(STYLE["S"][1], f"{'+' + str(rules.star_bonus):<3}"[:3], colour)
    if sym == "w" and centre:
        return _paint(STYLE["w"][1], "\u2605w ", True) if colour else "*2W"
    if not colour:
        return _PLAIN_LABEL[sym]
    label, style = STYLE[sym]
    return _paint(style, f"{label:>2} ", True)


def board_width(*, colour: bool = False, values: bool = False) -> int:
    """Columns :func:`render_board` takes with these options (with colour, at least: a
    column holding a tile worth 10 or more takes one more)."""
    return 4 + DIM * (4 if values and not colour else 3)


def render_board(rules: "Rules", board: Board, highlight: Collection[tuple[int, int]] = (), *,
                 colour: bool = False, values: bool = False) -> str:
    """The board with its tiles: column letters on top, row numbers on the left.

    ``highlight``: squares of the last move, drawn ``[A]`` (plain), ``A1*`` (plain
    with values) or underlined on bluish green (colour).  ``values``: plain squares
    4 characters wide with tile values (colour shows values in any case).
    """
    symbols = board_symbols(rules)
    centre = tuple(rules.centre)
    wide = values and not colour
    # with colour a column holding a tile worth 10 or more is a column wider, so that its
    # two-digit value does not run into the next square (J₁₀ 3L, not J₁₀3L)
    spacer = [" " if wide else "" for _ in range(DIM)]
    if colour:
        for i, code in enumerate(board.tiles):
            if code and not code & BLANK_BIT and rules.tile_values[code] >= 10:
                spacer[i % DIM] = " "
    lines = ["    " + "".join(f" {c} {spacer[i]}" for i, c in enumerate(COLUMNS))]
    for r in range(DIM):
        cells = []
        for c in range(DIM):
            code = board.tiles[r * DIM + c]
            if not code:
                cell = _premium_cell(rules, symbols[r][c], centre=(r, c) == centre, colour=colour)
                cells.append(cell + spacer[c])
                continue
            letter = board.alphabet.board_letter(code)
            blank = bool(code & BLANK_BIT)
            last = (r, c) in highlight
            value = "" if blank else str(rules.tile_values[code])
            if colour:
                style = (_LAST_BLANK if blank else _LAST) if last else (_BLANK if blank else _TILE)
                cells.append(_paint(style, f"{letter}{_subscript(value):<2}" if value else f" {letter} ", True)
                             + spacer[c])
            elif wide:
                cells.append(f"{letter}{value:<2}{'*' if last else ' '}")
            else:
                cells.append(f"[{letter}]" if last else f" {letter} ")
        lines.append(f"{r + 1:>3} " + "".join(cells))
    return "\n".join(lines)


def placed_squares(notation: str) -> frozenset[tuple[int, int]]:
    """The squares of the new tiles of a move in notation (``8H WO(R)D``: the letters
    outside brackets); empty when the notation cannot be read."""
    from ..errors import WordSalvoError
    from ..notation import parse_coordinate

    coord, _, word = notation.partition(" ")
    try:
        row, col, direction = parse_coordinate(coord)
    except WordSalvoError:
        return frozenset()
    dr, dc = (0, 1) if direction == 0 else (1, 0)
    out = set()
    k = 0
    inside = False
    for ch in word:
        if ch == "(":
            inside = True
        elif ch == ")":
            inside = False
        else:
            if not inside:
                out.add((row + k * dr, col + k * dc))
            k += 1
    return frozenset(out)


def render_legend(rules: "Rules", *, colour: bool = False, values: bool = False, width: int = 80) -> str:
    """Lines (at most ``width`` columns) naming the symbols of :func:`render_board` that
    this board uses."""
    symbols = board_symbols(rules)
    cr, cc = rules.centre
    elsewhere = {s for r, row in enumerate(symbols) for c, s in enumerate(row) if (r, c) != (cr, cc)}
    parts = []
    for sym, text in (("W", "triple word"), ("w", "double word"), ("T", "triple letter"),
                      ("D", "double letter"), ("S", f"star square (+{rules.star_bonus} once)")):
        if sym in elsewhere:
            parts.append(f"{_premium_cell(rules, sym, centre=False, colour=colour).strip()} {text}")
    doubles = symbols[cr][cc] == "w"
    start = _premium_cell(rules, symbols[cr][cc], centre=True, colour=colour) if doubles else \
        _premium_cell(rules, "*", centre=True, colour=colour)
    parts.append(f"{start.strip()} start" + (", doubles the first word" if doubles else ""))
    last = _paint(_LAST, "A\u2081 ", True) if colour else "A1*" if values else "[A]"
    parts.append(f"{last} last move")
    parts.append(f"{_paint(_BLANK, ' a ', True) if colour else 'a'} blank")
    lines: list[str] = []
    for part in parts:
        if lines and visible_width(lines[-1]) + 2 + visible_width(part) <= width:
            lines[-1] += "  " + part
        else:
            lines.append(part)
    return "\n".join(lines)


def render_rack(rules: "Rules", rack: str, *, colour: bool = False) -> str:
    """The rack with tile values: ``A1 D2 E1 ?0`` (a blank is ``?``, worth 0)."""
    tiles = []
    for ch in rack:
        value = 0 if ch == "?" else rules.value(ch)
        text = f"{ch}{_subscript(value) if colour else value}"
        tiles.append(_paint(_TILE, f" {text} ", True) if colour else text)
    return (" " if colour else "  ").join(tiles)


_SUBSCRIPT = str.maketrans("0123456789", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089")


def _subscript(n: int) -> str:
    return str(n).translate(_SUBSCRIPT)


def render_scores(names: Sequence[str], scores: Sequence[int], to_move: int | None = None,
                  out: Sequence[bool] = ()) -> list[str]:
    """One line per player, ``>`` marking the player on turn."""
    width = max(len(n) for n in names)
    lines = []
    for i, (name, score) in enumerate(zip(names, scores)):
        mark = ">" if i == to_move else " "
        note = "  (left the game)" if i < len(out) and out[i] else ""
        lines.append(f"{mark} {name:<{width}} {score:>4}{note}")
    return lines


def describe_turn(turn: "Turn", names: Sequence[str], *, show_swapped: bool = True, short: bool = False) -> str:
    """A turn in words: ``Engine played 8H WO(R)D for 24 (WORD, AB)``.

    ``show_swapped=False`` hides which tiles an opponent put back (only how many);
    ``short``: the few words of a side panel (``Engine 8H WO(R)D 24``).
    """
    who = names[turn.player]
    if short:
        what = {"play": f"{turn.notation} {turn.score}",
                "swap": f"swap {turn.tiles if show_swapped else len(turn.tiles)}",
                "pass": "lost turn (challenge)" if turn.challenge == "lost" else "pass",
                "refused-play": f"{turn.notation} off" if turn.challenge == "won" else f"{turn.notation} refused",
                "challenge-bonus": f"challenge bonus {turn.score:+d}", "timeout": "time-out",
                "resign": "resigned", "settle": f"({turn.tiles}) {turn.score:+d}"}.get(turn.kind, turn.kind)
        return f"{who} {what}"
    if turn.kind == "play":
        words = f" ({', '.join(turn.words)})" if len(turn.words) > 1 else ""
        return f"{who} played {turn.notation} for {turn.score}{words}"
    if turn.kind == "swap":
        what = turn.tiles if show_swapped else f"{len(turn.tiles)} tile{'s' * (len(turn.tiles) != 1)}"
        return f"{who} swapped {what}"
    if turn.kind == "pass":
        if turn.challenge == "lost":
            return (f"{who} challenged {turn.notation}: every word is in the dictionary, "
                    f"so {who} {verb(who, 'lose')} the turn")
        return f"{who} passed"
    if turn.kind == "challenge-bonus":
        if not turn.score:
            return f"The challenge of {possessive(who)} {turn.notation} failed: every word is in the dictionary"
        return (f"The challenge of {possessive(who)} {turn.notation} failed: every word is in the dictionary; "
                f"{who} {'get' if who == 'You' else 'gets'} {turn.score:+d}")
    if turn.kind == "refused-play" and turn.challenge == "won":
        return (f"{possessive(who).capitalize() if who == 'You' else possessive(who)} {turn.notation} is "
                f"challenged off: not every word is in the dictionary ({', '.join(turn.words)}); the turn is lost")
    if turn.kind == "refused-play":
        return (f"{who} tried {turn.notation}: refused, not every word is in the dictionary "
                f"({', '.join(turn.words)}); the turn is lost")
    if turn.kind == "timeout":
        return f"{who} ran out of time"
    if turn.kind == "resign":
        return f"{who} resigned"
    if turn.kind == "settle":
        owner = names[turn.rack_owner] if turn.rack_owner >= 0 else who
        if turn.score < 0:
            return f"{who} {turn.score:+d} for the tiles left on the rack ({turn.tiles})"
        return f"{who} {turn.score:+d} for {possessive(owner)} rack ({turn.tiles})"
    return f"{who}: {turn.kind}"  # pragma: no cover - every kind is handled


def render_preview(result: "PlacementResult", *, show_score: bool = True, strict: bool = False,
                   challenges: bool = False) -> list[str]:
    """What a tentative play would do, as lines: the words and the score, or every
    problem (a move of tiles the rack does not hold: that first, and no words or score).  ``show_score=False`` (rule sets without a score preview) leaves the
    scores out; ``strict=True`` does not tell whether the words are in the
    dictionary (in strict mode a phony costs the turn, so the preview must not
    give it away), nor does ``challenges=True`` (a phony stands until challenged)."""
    reasons = list(result.reasons)
    problems = list(result.problems)
    if (strict or challenges) and IllegalMoveReason.INVALID_WORDS in reasons:
        reasons.remove(IllegalMoveReason.INVALID_WORDS)
        problems = [p for p in problems if not p.startswith("phony word")]
    lines = []
    if IllegalMoveReason.TILE_NOT_ON_RACK in reasons:  # the rack first: tiles it lacks are not scored
        first = reasons.index(IllegalMoveReason.TILE_NOT_ON_RACK)
        if first < len(problems):
            problems.insert(0, problems.pop(first))
    elif result.words:
        if show_score:
            words = ", ".join(f"{w.word} {w.score}" for w in result.words)
        else:
            words = ", ".join(w.word for w in result.words)
        lines.append(f"words: {words}")
    if reasons:
        lines.append("illegal move:")
        lines.extend(f"  - {p}" for p in problems)
        return lines
    if show_score:
        extras = []
        if result.bingo_bonus:
            extras.append(f"all-tiles bonus +{result.bingo_bonus}")
        if result.star_bonus:
            extras.append(f"star square +{result.star_bonus}")
        lines.append(f"score: {result.score}" + (f" ({', '.join(extras)})" if extras else ""))
    else:
        lines.append("score: shown once played (this rule set has no score preview)")
    if strict:
        lines.append("strict mode: a word that is not in the dictionary costs your turn")
    if challenges:
        lines.append("challenges: a play with a word not in the dictionary can be challenged off")
    return lines


def visible_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (ANSI colour codes take none)."""
    return len(_ANSI.sub("", text))


def wrap_lines(lines: Iterable[str], width: int, indent: str = "  ", *, cut: bool = True) -> list[str]:
    """Plain ``lines`` wrapped to at most ``width`` columns (continuations indented);
    a word longer than the width is cut (``cut=False``: kept whole, e.g. a file name)."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, initial_indent="", subsequent_indent=lead + indent,
                                 break_long_words=cut, break_on_hyphens=False) or [""])
    return out


def side_by_side(left: Iterable[str], right: Iterable[str], width: int, gap: int = 3) -> list[str]:
    """Lines of ``left`` (each ``width`` visible characters wide) with ``right`` beside them."""
    left, right = list(left), list(right)
    out = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else " " * width
        b = right[i] if i < len(right) else ""
        out.append(a + " " * gap + b if b else a)
    return out

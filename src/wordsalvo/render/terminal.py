"""Drawing a running game for a terminal: board with tiles, rack, turns, previews.

Every function returns text (no trailing newline) and never prints, so the
terminal game (:mod:`wordsalvo.commands.play`) and its tests decide where it
goes.  ``colour=True`` adds ANSI codes; ``colour=False`` gives plain text that
still tells everything apart:

* a square is 3 characters wide: ``3W`` ``2W`` ``3L`` ``2L`` premiums, `` * ``
  the start square, ``+25`` a star square's bonus, `` . `` plain;
* a tile is `` A ``, a blank `` a `` (lowercase, as in the notation), a tile
  of the last move ``[A]`` / ``[a]``.

The premium colours and labels are those of :func:`wordsalvo.render.premiums.render_ansi`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from ..alphabet import BLANK_BIT
from ..board import Board
from ..constants import COLUMNS, DIM
from ..errors import IllegalMoveReason
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
]

_RESET = "\x1b[0m"
_TILE = "1;30;47"         # black on light grey
_BLANK = "1;31;47"        # red lowercase on light grey
_LAST = "1;30;42"         # black on green: the last move
_LAST_BLANK = "1;31;42"   # red lowercase on green
_PLAIN_LABEL = {"W": "3W ", "w": "2W ", "T": "3L ", "D": "2L ", "*": " * ", ".": " . "}


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


def render_board(rules: "Rules", board: Board, highlight: Collection[tuple[int, int]] = (), *,
                 colour: bool = False) -> str:
    """The board with its tiles: column letters on top, row numbers on the left.

    ``highlight``: squares of the last move, drawn ``[A]`` (plain) or on green.
    """
    symbols = board_symbols(rules)
    centre = tuple(rules.centre)
    lines = ["    " + "".join(f" {c} " for c in COLUMNS)]
    for r in range(DIM):
        cells = []
        for c in range(DIM):
            code = board.tiles[r * DIM + c]
            if not code:
                cells.append(_premium_cell(rules, symbols[r][c], centre=(r, c) == centre, colour=colour))
                continue
            letter = board.alphabet.board_letter(code)
            blank = bool(code & BLANK_BIT)
            last = (r, c) in highlight
            if colour:
                style = (_LAST_BLANK if blank else _LAST) if last else (_BLANK if blank else _TILE)
                cells.append(_paint(style, f" {letter} ", True))
            else:
                cells.append(f"[{letter}]" if last else f" {letter} ")
        lines.append(f"{r + 1:>3} " + "".join(cells))
    return "\n".join(lines)


def render_legend(rules: "Rules", *, colour: bool = False) -> str:
    """Lines naming the symbols of :func:`render_board` that this board uses."""
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
    parts.append(f"{_paint(_LAST, ' A ', True) if colour else '[A]'} last move")
    parts.append(f"{_paint(_BLANK, ' a ', True) if colour else 'a'} blank")
    return "\n".join("  ".join(parts[i:i + 4]) for i in range(0, len(parts), 4))


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


def describe_turn(turn: "Turn", names: Sequence[str], *, show_swapped: bool = True) -> str:
    """A turn in words: ``Engine played 8H WO(R)D for 24 (WORD, AB)``.

    ``show_swapped=False`` hides which tiles an opponent put back (only how many).
    """
    who = names[turn.player]
    if turn.kind == "play":
        words = f" ({', '.join(turn.words)})" if len(turn.words) > 1 else ""
        return f"{who} played {turn.notation} for {turn.score}{words}"
    if turn.kind == "swap":
        what = turn.tiles if show_swapped else f"{len(turn.tiles)} tile{'s' * (len(turn.tiles) != 1)}"
        return f"{who} swapped {what}"
    if turn.kind == "pass":
        return f"{who} passed"
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
        return f"{who} {turn.score:+d} for {owner}'s rack ({turn.tiles})"
    return f"{who}: {turn.kind}"  # pragma: no cover - every kind is handled


def render_preview(result: "PlacementResult", *, show_score: bool = True, strict: bool = False) -> list[str]:
    """What a tentative play would do, as lines: the words and the score, or every
    problem.  ``show_score=False`` (rule sets without a score preview) leaves the
    scores out; ``strict=True`` does not tell whether the words are in the
    dictionary (in strict mode a phony costs the turn, so the preview must not
    give it away)."""
    reasons = list(result.reasons)
    problems = list(result.problems)
    if strict and IllegalMoveReason.INVALID_WORDS in reasons:
        reasons.remove(IllegalMoveReason.INVALID_WORDS)
        problems = [p for p in problems if not p.startswith("phony word")]
    lines = []
    if result.words:
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
    return lines


def side_by_side(left: Iterable[str], right: Iterable[str], width: int, gap: int = 3) -> list[str]:
    """Lines of ``left`` (each ``width`` visible characters wide) with ``right`` beside them."""
    left, right = list(left), list(right)
    out = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else " " * width
        b = right[i] if i < len(right) else ""
        out.append(a + " " * gap + b if b else a)
    return out

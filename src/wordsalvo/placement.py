"""The rules of ONE move, in plain Python: legality, words formed, score.

This is the slow, readable statement of the rules (RULES.md, "Common to every
rule set"), used to validate a move a player enters, to show the score of a
tentative play, and as the oracle the fast generator is tested against.  It is
not on any hot path.

Input is a list of NEW tiles ``(row, col, code)``; ``code`` is a letter code
``1..n``, with :data:`~wordsalvo.alphabet.BLANK_BIT` set for a blank.
:func:`check_placement` reports EVERY problem of the move at once, and
:func:`placement_from_squares` / :func:`squares_from_placement` convert between
that list and the generator's placement tuple ``(row, col, direction, tiles)``
(see :mod:`wordsalvo.notation`).

Scoring, per word formed (the main word and every cross word of 2+ letters):
tile values summed, a letter premium multiplies only a NEW tile, then the word
premiums under NEW tiles of that word multiply the word (2W+2W = x4, 2W+3W = x6,
3W+3W = x9); blanks are worth 0; premiums under tiles from earlier turns count
for nothing.  Per play, once: the all-tiles bonus (``rules.bingo_bonus``) when
``rules.rack_size`` tiles are placed, and ``rules.square_bonus`` of every star
square a new tile covers.

Direction of a one-tile move (rule 3 of the positions README): across if the
tile has a tile directly left or right of it, else down.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from .alphabet import BLANK_BIT
from .board import Board, square_name
from .constants import ACROSS, COLUMNS, DIM, DOWN, LETTER_MASK
from .errors import IllegalMoveError, IllegalMoveReason
from .notation import format_coordinate
from .rules import Rules

__all__ = [
    "ACROSS",
    "check_move",
    "DOWN",
    "FormedWord",
    "PlacementResult",
    "check_placement",
    "placement_from_squares",
    "squares_from_placement",
]

R = IllegalMoveReason


@dataclass(frozen=True)
class FormedWord:
    """One word a move forms."""

    word: str  #: uppercase letters (blanks shown as the letter they stand for)
    row: int  #: square of the first letter
    col: int
    direction: int  #: ACROSS or DOWN
    score: int  #: this word's score (premiums under new tiles applied)
    is_main: bool  #: True for the main word (along the line of play)

    @property
    def where(self) -> str:
        """``8G across`` / ``G8 down``."""
        return f"{format_coordinate(self.row, self.col, self.direction)} {'across' if self.direction == ACROSS else 'down'}"


@dataclass(frozen=True)
class PlacementResult:
    """What :func:`check_placement` found.

    ``legal`` is True when ``reasons`` is empty.  ``words`` and the scores are
    filled whenever the tiles form a line without gaps on empty squares of the
    board, even if a word is invalid (a tentative play can show its score).
    """

    reasons: tuple[IllegalMoveReason, ...]
    problems: tuple[str, ...]  #: one message per problem, saying expected / got / where
    invalid_words: tuple[str, ...] = ()  #: every invalid word, in the order formed
    words: tuple[FormedWord, ...] = ()  #: main word first, then cross words in line order
    words_score: int = 0
    bingo_bonus: int = 0
    star_bonus: int = 0
    tiles_played: int = 0
    #: canonical placement ``(row, col, direction, tiles)`` or None when there is none
    placement: tuple[int, int, int, tuple[int, ...]] | None = field(default=None)

    @property
    def legal(self) -> bool:
        return not self.reasons

    @property
    def score(self) -> int:
        return self.words_score + self.bingo_bonus + self.star_bonus

    @property
    def is_bingo(self) -> bool:
        return self.bingo_bonus > 0

    def raise_if_illegal(self) -> None:
        """Raise :class:`IllegalMoveError` naming every problem (``.words`` = every invalid word)."""
        if self.reasons:
            raise IllegalMoveError(
                "illegal move: " + "; ".join(self.problems),
                self.reasons[0],
                words=self.invalid_words,
                reasons=list(self.reasons),
            )


class _Problems:
    """Every problem of one move: each reason once (in the order met), every message."""

    __slots__ = ("reasons", "problems")

    def __init__(self) -> None:
        self.reasons: list[IllegalMoveReason] = []
        self.problems: list[str] = []

    def add(self, reason: IllegalMoveReason, message: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)
        self.problems.append(message)


def _step(direction: int) -> tuple[int, int]:
    return (0, 1) if direction == ACROSS else (1, 0)


def _one_tile_direction(board: Board, r: int, c: int) -> int:
    """Rule 3: across if a tile lies directly left or right, else down."""
    t = board.tiles
    if (c > 0 and t[r * DIM + c - 1]) or (c < DIM - 1 and t[r * DIM + c + 1]):
        return ACROSS
    return DOWN


def _word_extent(occupied: Callable[[int, int], bool], r: int, c: int, direction: int) -> tuple[int, int, int]:
    """(start row, start col, length) of the maximal run through (r, c) along ``direction``."""
    dr, dc = _step(direction)
    sr, sc = r, c
    while sr - dr >= 0 and sc - dc >= 0 and occupied(sr - dr, sc - dc):
        sr, sc = sr - dr, sc - dc
    n = 0
    er, ec = sr, sc
    while er < DIM and ec < DIM and occupied(er, ec):
        n += 1
        er, ec = er + dr, ec + dc
    return sr, sc, n


def check_placement(
    board: Board,
    rules: Rules,
    rack_counts: Sequence[int],
    squares: Iterable[tuple[int, int, int]],
    is_word: Callable[[str], bool],
    *,
    first_move: bool | None = None,
) -> PlacementResult:
    """Check one move and score it.

    ``squares``: the NEW tiles as ``(row, col, code)``, any order; ``rack_counts``:
    tiles on the rack, indexed by tile code (index 0 = blanks); ``is_word``:
    the dictionary (called with uppercase words); ``first_move``: whether the
    centre rule applies instead of the connection rule (default: the board is
    empty).

    Returns a :class:`PlacementResult`; it never raises for an illegal move
    (call :meth:`PlacementResult.raise_if_illegal` for that).  Every applicable
    reason is collected, and every invalid word is listed.
    """
    squares = [(int(r), int(c), int(code)) for r, c, code in squares]
    alphabet = board.alphabet
    n_letters = alphabet.size
    tiles = board.tiles
    if first_move is None:
        first_move = board.is_empty()
    found = _Problems()
    reasons, problems, add = found.reasons, found.problems, found.add

    if not squares:
        add(R.NO_TILES, "expected at least one new tile, got none")
        return PlacementResult(tuple(reasons), tuple(problems))

    # -- squares: on the board, empty, distinct -------------------------------------
    on_board = []
    for r, c, code in squares:
        if not (0 <= r < DIM and 0 <= c < DIM):
            add(R.OFF_BOARD, f"tile at ({r}, {c}) is off the board: expected row and column 0..{DIM - 1}")
        else:
            on_board.append((r, c, code))
    seen: Counter[tuple[int, int]] = Counter((r, c) for r, c, _ in on_board)
    for (r, c), k in seen.items():
        if k > 1:
            add(R.SQUARE_OCCUPIED, f"square {square_name(r, c)} gets {k} new tiles, expected one")
    for r, c, code in on_board:
        if tiles[r * DIM + c]:
            add(R.SQUARE_OCCUPIED,
                f"{_letter(alphabet, code)} at {square_name(r, c)}: expected an empty square, "
                f"got {alphabet.board_letter(tiles[r * DIM + c])}")

    # -- rack ------------------------------------------------------------------------
    need: Counter[int] = Counter()
    for r, c, code in squares:
        letter = code & ~BLANK_BIT
        if not 1 <= letter <= n_letters or code & ~(BLANK_BIT | LETTER_MASK):
            add(R.TILE_NOT_ON_RACK,
                f"tile code {code} at {square_name(r, c)} is not a tile of alphabet {alphabet.name!r} "
                f"(expected 1..{n_letters}, bit 7 for a blank)")
            continue
        need[0 if code & BLANK_BIT else letter] += 1
    for code, k in sorted(need.items()):
        have = rack_counts[code] if code < len(rack_counts) else 0
        if k > have:
            name = "blank" if code == 0 else alphabet.letter(code)
            add(R.TILE_NOT_ON_RACK, f"{name} is not on the rack often enough: expected {k}, rack has {have}")

    # -- one line, no gap --------------------------------------------------------------
    rows = {r for r, _, _ in on_board}
    cols = {c for _, c, _ in on_board}
    in_line = len(rows) <= 1 or len(cols) <= 1
    if not in_line:
        add(R.NOT_IN_ONE_LINE,
            f"expected the new tiles in one row or one column, got rows {_rows(rows)} and columns {_cols(cols)}")
    new_at = {(r, c): code for r, c, code in on_board}
    direction = None
    gap = False
    if in_line and on_board:
        if len(new_at) == 1:
            (r0, c0), = new_at
            direction = _one_tile_direction(board, r0, c0)
        else:
            direction = ACROSS if len(rows) == 1 else DOWN
            if direction == ACROSS:
                r0 = next(iter(rows))
                empty = [c for c in range(min(cols), max(cols) + 1)
                         if (r0, c) not in new_at and not tiles[r0 * DIM + c]]
                gaps = [square_name(r0, c) for c in empty]
            else:
                c0 = next(iter(cols))
                empty = [r for r in range(min(rows), max(rows) + 1)
                         if (r, c0) not in new_at and not tiles[r * DIM + c0]]
                gaps = [square_name(r, c0) for r in empty]
            if gaps:
                gap = True
                add(R.GAP, f"expected no empty square between the new tiles, got empty {', '.join(gaps)}")

    # -- first move / connection ---------------------------------------------------------
    if first_move:
        sr, sc = divmod(rules.start_square, DIM)
        if (sr, sc) not in new_at:
            add(R.CENTRE_NOT_COVERED, f"the first move must cover the start square {square_name(sr, sc)}")
        if len(squares) == 1:
            add(R.FIRST_MOVE_ONE_TILE, "the first move must place at least 2 tiles, got 1")
    elif on_board:
        touches = any(
            0 <= r + dr < DIM and 0 <= c + dc < DIM and tiles[(r + dr) * DIM + c + dc]
            for r, c, _ in on_board
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )
        if not touches:
            add(R.NOT_CONNECTED, "expected the move to touch a tile already on the board, got none adjacent")

    # -- words and scores: only when the geometry is sound ---------------------------------
    if direction is None or gap or R.OFF_BOARD in reasons or R.SQUARE_OCCUPIED in reasons:
        return PlacementResult(tuple(reasons), tuple(problems), tiles_played=len(squares))
    if R.TILE_NOT_ON_RACK in reasons and any(
        not 1 <= (code & ~BLANK_BIT) <= n_letters or code & ~(BLANK_BIT | LETTER_MASK) for code in new_at.values()
    ):
        return PlacementResult(tuple(reasons), tuple(problems), tiles_played=len(squares))

    def occupied(r: int, c: int) -> bool:
        return (r, c) in new_at or bool(tiles[r * DIM + c])

    def code_at(r: int, c: int) -> int:
        return new_at.get((r, c)) or tiles[r * DIM + c]

    lm, wm, values = rules.letter_multipliers, rules.word_multipliers, rules.tile_values

    def make_word(sr: int, sc: int, length: int, d: int, is_main: bool) -> FormedWord:
        dr, dc = _step(d)
        letters = []
        total = 0
        multiplier = 1
        for i in range(length):
            r, c = sr + i * dr, sc + i * dc
            code = code_at(r, c)
            letters.append(alphabet.letter(code))
            value = 0 if code & BLANK_BIT else values[code]
            if (r, c) in new_at:
                idx = r * DIM + c
                total += value * lm[idx]
                multiplier *= wm[idx]
            else:
                total += value
        return FormedWord("".join(letters), sr, sc, d, total * multiplier, is_main)

    words: list[FormedWord] = []
    r0, c0 = min(new_at)  # first new tile along the line (rows/cols sort the same way within one line)
    sr, sc, length = _word_extent(occupied, r0, c0, direction)
    if length >= 2:
        words.append(make_word(sr, sc, length, direction, True))
    cross = DOWN if direction == ACROSS else ACROSS
    for r, c in sorted(new_at):
        wr, wc, wl = _word_extent(occupied, r, c, cross)
        if wl >= 2:
            words.append(make_word(wr, wc, wl, cross, False))
    if not words:
        add(R.WORD_TOO_SHORT, f"expected a word of 2+ letters, got a lone tile at {square_name(r0, c0)}")
    # The placement tuple of the main word (a lone tile: its own one-letter "word").
    dr, dc = _step(direction)
    main_tiles = tuple(
        new_at.get((sr + i * dr, sc + i * dc), 0) for i in range(length)
    )
    placement = (sr, sc, direction, main_tiles)

    invalid: list[str] = []
    bad_where: list[str] = []
    for w in words:
        if not is_word(w.word):
            if w.word not in invalid:
                invalid.append(w.word)
            bad_where.append(f"{w.word} at {w.where}")
    if invalid:
        add(R.INVALID_WORDS, "phony word" + ("s " if len(bad_where) > 1 else " ") + ", ".join(bad_where))

    n_new = len(squares)
    bingo = rules.bingo_bonus if n_new == rules.rack_size else 0
    star = sum(rules.square_bonus[r * DIM + c] for r, c in new_at)
    return PlacementResult(
        tuple(reasons), tuple(problems), tuple(invalid), tuple(words),
        sum(w.score for w in words), bingo, star, n_new, placement,
    )


def placement_from_squares(board: Board, squares: Iterable[tuple[int, int, int]]) -> tuple[int, int, int, tuple[int, ...]]:
    """The canonical placement ``(row, col, direction, tiles)`` of a list of new tiles.

    ``row, col`` is the first square of the whole main word (tiles already on
    the board included); a one-tile move is across when it has a tile directly
    left or right of it, else down.  Raises :class:`IllegalMoveError` when the
    tiles do not make one placement (off the board, on occupied squares, not in
    one line, a gap, none).  It does not look at words or the rack.
    """
    squares = [(int(r), int(c), int(code)) for r, c, code in squares]
    found = _Problems()
    reasons, problems, add = found.reasons, found.problems, found.add

    if not squares:
        add(R.NO_TILES, "expected at least one new tile, got none")
    new_at: dict[tuple[int, int], int] = {}
    for r, c, code in squares:
        if not (0 <= r < DIM and 0 <= c < DIM):
            add(R.OFF_BOARD, f"tile at ({r}, {c}) is off the board: expected row and column 0..{DIM - 1}")
        elif (r, c) in new_at:
            add(R.SQUARE_OCCUPIED, f"square {square_name(r, c)} gets more than one new tile")
        elif board.tiles[r * DIM + c]:
            add(R.SQUARE_OCCUPIED, f"square {square_name(r, c)} already holds {board.letter_at(r, c)}")
        else:
            new_at[(r, c)] = code
    rows = {r for r, _ in new_at}
    cols = {c for _, c in new_at}
    if len(rows) > 1 and len(cols) > 1:
        add(R.NOT_IN_ONE_LINE,
            f"expected the new tiles in one row or one column, got rows {_rows(rows)} and columns {_cols(cols)}")
    if reasons:
        raise IllegalMoveError("no placement: " + "; ".join(problems), reasons[0], reasons=reasons)
    if len(new_at) == 1:
        (r0, c0), = new_at
        direction = _one_tile_direction(board, r0, c0)
    else:
        direction = ACROSS if len(rows) == 1 else DOWN

    def occupied(r: int, c: int) -> bool:
        return (r, c) in new_at or bool(board.tiles[r * DIM + c])

    r0, c0 = min(new_at)
    sr, sc, length = _word_extent(occupied, r0, c0, direction)
    dr, dc = _step(direction)
    covered = {(sr + i * dr, sc + i * dc) for i in range(length)}
    missing = [sq for sq in new_at if sq not in covered]
    if missing:
        r1, c1 = max(new_at)
        empty = [
            square_name(r, c)
            for r, c in ((r0 + i * dr, c0 + i * dc) for i in range(max(r1 - r0, c1 - c0) + 1))
            if not occupied(r, c)
        ]
        raise IllegalMoveError(
            f"no placement: expected no empty square between the new tiles, got empty {', '.join(empty)}", R.GAP
        )
    return sr, sc, direction, tuple(new_at.get((sr + i * dr, sc + i * dc), 0) for i in range(length))


def _placement_squares(board: Board, row: int, col: int, direction: int, tiles: Sequence[int],
                       found: "_Problems") -> list[tuple[int, int, int]]:
    """The new tiles of a placement tuple; every problem goes to ``found``."""
    add = found.add
    if direction not in (ACROSS, DOWN):
        add(R.NOT_IN_ONE_LINE, f"expected direction 0 (across) or 1 (down), got {direction!r}")
        return []
    dr, dc = _step(direction)
    out: list[tuple[int, int, int]] = []
    room = (DIM - col) if direction == ACROSS else (DIM - row)
    if not (0 <= row < DIM and 0 <= col < DIM):
        add(R.OFF_BOARD, f"the placement starts off the board at ({row}, {col})")
        return []
    if len(tiles) > room:
        add(R.OFF_BOARD, f"the word runs off the board: expected at most {room} letters from "
                         f"{square_name(row, col)} {'across' if direction == ACROSS else 'down'}, "
                         f"got {len(tiles)}")
    alphabet = board.alphabet
    for i, code in enumerate(tiles[:room]):
        r, c = row + i * dr, col + i * dc
        there = board.tiles[r * DIM + c]
        if code:
            if there:
                add(R.SQUARE_OCCUPIED, f"{_letter(alphabet, code)} at {square_name(r, c)}: expected an empty "
                                       f"square, got {board.letter_at(r, c)}")
            out.append((r, c, int(code)))
        elif not there:
            add(R.GAP, f"played-through square {square_name(r, c)}: expected a tile on the board, got an empty square")
    if not any(tiles) and not found.reasons:
        add(R.NO_TILES, "expected at least one new tile, got only tiles already on the board")
    return out


def squares_from_placement(
    board: Board, row: int, col: int, direction: int, tiles: Sequence[int]
) -> list[tuple[int, int, int]]:
    """The new tiles ``[(row, col, code), ...]`` of a placement tuple (the inverse of
    :func:`placement_from_squares`).

    Checks the placement against the board and reports every problem at once
    (raising :class:`IllegalMoveError`): a word running off the board
    (``OFF_BOARD``), a new tile on an occupied square (``SQUARE_OCCUPIED``), a
    ``0`` (played through) on an empty square (``GAP``), no new tile at all
    (``NO_TILES``).
    """
    found = _Problems()
    out = _placement_squares(board, row, col, direction, tiles, found)
    if found.reasons:
        raise IllegalMoveError("bad placement: " + "; ".join(found.problems), found.reasons[0],
                               reasons=found.reasons)
    return out


def check_move(
    board: Board,
    rules: Rules,
    rack_counts: Sequence[int],
    placement: tuple[int, int, int, Sequence[int]],
    is_word: Callable[[str], bool],
) -> PlacementResult:
    """THE legality check of a move given as a placement tuple ``(row, col, direction,
    tiles)`` (what :func:`wordsalvo.notation.parse_notation` and the generator give):
    whether its squares can take it (on the board, empty where a tile is new, on a
    tile where it is played through, at least one new tile), then everything
    :func:`check_placement` checks.  Every problem is reported in the result; it
    never raises for an illegal move.  ``Game.preview``/``play``,
    ``MoveGenerator.validate``, :mod:`wordsalvo.validate` and the command line all
    come here."""
    row, col, direction, tiles = placement
    found = _Problems()
    squares = _placement_squares(board, row, col, direction, tiles, found)
    if found.reasons:
        return PlacementResult(tuple(found.reasons), tuple(found.problems), tiles_played=len(squares))
    return check_placement(board, rules, rack_counts, squares, is_word)


def _letter(alphabet, code: int) -> str:
    try:
        return alphabet.board_letter(code)
    except (IndexError, ValueError):
        return f"code {code}"


def _rows(rows: set[int]) -> str:
    return ",".join(str(r + 1) for r in sorted(rows))


def _cols(cols: set[int]) -> str:
    return ",".join(COLUMNS[c] for c in sorted(cols))

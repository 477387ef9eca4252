"""Move notation: ``8H WO(R)D`` <-> ``(row, col, direction, tiles)``.

The placement tuple is the one the move generator emits: ``row, col`` (0-based)
is the square of the FIRST letter of the whole main word, including tiles
already on the board; ``direction`` is :data:`ACROSS` (0) or :data:`DOWN` (1);
``tiles`` has one code per square of the main word: the newly placed tile
(letter code, with :data:`~wordsalvo.alphabet.BLANK_BIT` for a blank) or ``0``
for a square whose tile was already on the board.

The written form (as in the reference move lists):

* coordinate: across = row number then column letter (``8H``, ``10B``);
  down = column letter then row number (``H8``, ``B10``);
* word: the whole main word; a new real tile in uppercase, a new blank in
  lowercase; each maximal run of tiles already on the board wrapped in ONE pair
  of parentheses, showing the board letters (a played-through blank keeps its
  lowercase): ``AM(I)r``, ``(PEGMA)TOphYRE``, ``(I)n(T)``.

Parsing only reads
--------------------
:func:`parse_notation` raises :class:`~wordsalvo.errors.NotationError` when the
TEXT is wrong or does not describe this board, and nothing else:

* no coordinate or no word, a malformed coordinate, a row outside the board's
  rows or a column outside its columns (the start square itself is not on the
  board);
* a character that is not a letter of the alphabet;
* parentheses that do not pair up, are nested, or are empty;
* a letter in parentheses over an empty square, or over a tile with another
  letter;
* a word that is not the whole main word (a tile lies directly before its
  first or after its last letter).

Whether the placement it describes can be played (the word runs off the board,
a new letter on a square holding another letter, no new letter at all, the
rack, the words ...) is decided by :func:`wordsalvo.placement.check_move`
alone; every problem is reported at once there.
"""

from __future__ import annotations

import re

from .alphabet import BLANK_BIT, Alphabet
from .board import Board, square_name
from .constants import ACROSS, COLUMNS, DIM, DOWN
from .errors import AlphabetError, NotationError, NotationMismatchError
from .inputs import excerpt

__all__ = [
    "ACROSS",
    "DOWN",
    "format_coordinate",
    "format_word",
    "format_placement_word",
    "format_notation",
    "parse_coordinate",
    "parse_notation",
    "square_name",
]

# ASCII digits only (\d would take Arabic-Indic and other decimal digits)
_ACROSS_RE = re.compile(r"^([0-9]+)([A-Za-z])$")
_DOWN_RE = re.compile(r"^([A-Za-z])([0-9]+)$")
#: longer words cannot be a line of the board (15 letters and their parentheses)
_WORD_CHARS_MAX = 4 * DIM


# -- formatting -------------------------------------------------------------------
def format_coordinate(row: int, col: int, direction: int) -> str:
    """``(7, 7, ACROSS)`` -> ``'8H'``; ``(7, 7, DOWN)`` -> ``'H8'``."""
    if not (0 <= row < DIM and 0 <= col < DIM):
        raise NotationError(f"expected a square within 0..{DIM - 1}, got ({row}, {col})")
    if direction == ACROSS:
        return f"{row + 1}{COLUMNS[col]}"
    if direction == DOWN:
        return f"{COLUMNS[col]}{row + 1}"
    raise NotationError(f"expected direction 0 (across) or 1 (down), got {direction!r}")


def format_word(board: Board, row: int, col: int, direction: int, tiles) -> str:
    """The word column of a placement: ``WO(R)D``, ``AM(I)r``, ``(I)n(T)``."""
    return format_placement_word(board.tiles, board.alphabet, row, col, direction, tiles)


def format_placement_word(board_tiles, alphabet: Alphabet, row: int, col: int, direction: int, tiles) -> str:
    """:func:`format_word` on the raw 225 board codes (for moves that keep a board snapshot)."""
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)
    out: list[str] = []
    in_run = False
    for i, code in enumerate(tiles):
        r, c = row + i * dr, col + i * dc
        if code:
            if in_run:
                out.append(")")
                in_run = False
            out.append(alphabet.board_letter(code))
        else:
            if not (0 <= r < DIM and 0 <= c < DIM) or not board_tiles[r * DIM + c]:
                raise NotationError(
                    f"expected a board tile at square {square_name(r, c)} (tile 0 means played through), "
                    f"got an empty square in placement at {format_coordinate(row, col, direction)}"
                )
            if not in_run:
                out.append("(")
                in_run = True
            out.append(alphabet.board_letter(board_tiles[r * DIM + c]))
    if in_run:
        out.append(")")
    return "".join(out)


def format_notation(board: Board, row: int, col: int, direction: int, tiles) -> str:
    """``8H WO(R)D``: coordinate, one space, word (see :func:`format_word`)."""
    return f"{format_coordinate(row, col, direction)} {format_word(board, row, col, direction, tiles)}"


# -- parsing ----------------------------------------------------------------------
def parse_coordinate(text: str) -> tuple[int, int, int]:
    """``'8H'`` -> ``(7, 7, ACROSS)``; ``'h8'`` -> ``(7, 7, DOWN)``.  Column letters in either case."""
    t = text.strip()
    m = _ACROSS_RE.match(t)
    if m:
        number, letter, direction = m.group(1), m.group(2), ACROSS
    else:
        m = _DOWN_RE.match(t)
        if not m:
            raise NotationError(
                f"expected a coordinate like 8H (across) or H8 (down), got {excerpt(text)}"
            )
        letter, number, direction = m.group(1), m.group(2), DOWN
    problems = []
    row = int(number) - 1 if len(number) <= 3 else DIM  # int() of 4,300+ digits raises
    col = COLUMNS.find(letter.upper())
    if not 0 <= row < DIM:
        problems.append(f"row 1..{DIM}, got {number if len(number) <= 20 else excerpt(number)}")
    if col < 0:
        problems.append(f"column A..{COLUMNS[-1]}, got {letter}")
    if problems:
        raise NotationError(f"coordinate {excerpt(text)} is off the board: expected " + "; expected ".join(problems))
    return row, col, direction


def _split_word(word: str, alphabet: Alphabet, where: str) -> list[tuple[int, bool]]:
    """``'AM(I)r'`` -> ``[(code A, False), (code M, False), (code I, True), (code r, False)]``.

    The bool says "in parentheses".  Reports every syntax problem at once.
    """
    letters: list[tuple[int, bool]] = []
    problems: list[str] = []
    open_at: int | None = None
    letters_in_group = 0
    for pos, ch in enumerate(word):
        if ch == "(":
            if open_at is not None:
                problems.append(f"nested '(' at character {pos + 1} (the '(' at character {open_at + 1} is still open)")
            else:
                open_at = pos
                letters_in_group = 0
        elif ch == ")":
            if open_at is None:
                problems.append(f"')' at character {pos + 1} without an opening '('")
            else:
                if letters_in_group == 0:
                    problems.append(f"empty parentheses at character {open_at + 1}")
                open_at = None
        else:
            try:
                code = alphabet.board_code(ch)
            except AlphabetError:
                problems.append(
                    f"unknown letter {ch!r} at character {pos + 1} "
                    f"(expected a letter of alphabet {alphabet.name!r}: {''.join(alphabet.letters)}, "
                    f"lowercase for a blank)"
                )
                continue
            letters.append((code, open_at is not None))
            letters_in_group += 1
    if open_at is not None:
        problems.append(f"'(' at character {open_at + 1} is never closed")
    if problems:
        if len(problems) > 5:
            problems[5:] = [f"and {len(problems) - 5:,} more"]
        raise NotationError(f"bad word {excerpt(word)} in {excerpt(where)}: " + "; ".join(problems))
    return letters


def parse_notation(text: str, board: Board) -> tuple[int, int, int, tuple[int, ...]]:
    """Parse ``'8H WO(R)D'`` (or ``'H8 ...'``) against ``board`` into ``(row, col, direction, tiles)``.

    * Whitespace around and between coordinate and word is free (spaces, tabs);
      the column letter of the coordinate may be lowercase.
    * In the word, uppercase = real tile, lowercase = blank (Turkish-aware
      through the alphabet: ``i`` is a blank İ, ``ı`` a blank I).
    * Letters in parentheses are tiles already on the board; they must match the
      board letter there (upper/lower case is not compared: a played-through
      blank may be written either way, since the board already knows it is a
      blank).
    * Lenient: a letter written WITHOUT parentheses on a square that already
      holds a tile of the SAME letter is taken as played through (``8H WORD`` on
      a board with R at 8J is ``8H WO(R)D``).
    * The word must be the whole main word: a tile directly before its first
      or after its last letter is a :class:`NotationError`.
    * A one-tile move may be written in either direction; it is returned as
      written (use :func:`wordsalvo.placement.placement_from_squares` for the
      canonical form).

    Only the text is checked (see the module docstring): the placement may run
    off the board, put a new tile on an occupied square or place none; that is
    for :func:`wordsalvo.placement.check_move` to report.
    """
    if not isinstance(text, str):
        raise NotationError(f"expected a notation string like '8H WORD', got {type(text).__name__}")
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(
            f"expected a coordinate and a word separated by whitespace (e.g. '8H WO(R)D'), "
            f"got {len(parts)} part(s) in {excerpt(text)}"
        )
    coord_text, word = parts
    row, col, direction = parse_coordinate(coord_text)
    if len(word) > _WORD_CHARS_MAX:  # no board line holds it, with or without parentheses
        raise NotationError(f"expected a word of at most {DIM} letters, got {len(word):,} characters in "
                            f"{excerpt(text)}")
    letters = _split_word(word, board.alphabet, text)
    if not letters:
        raise NotationError(f"expected at least one letter in the word, got {excerpt(word)} in {excerpt(text)}")
    alphabet = board.alphabet
    dr, dc = direction.step
    last_r, last_c = row + (len(letters) - 1) * dr, col + (len(letters) - 1) * dc

    notation_problems: list[str] = []
    tiles: list[int] = []
    for i, (code, bracketed) in enumerate(letters):
        r, c = row + i * dr, col + i * dc
        on_board = board.tiles[r * DIM + c] if r < DIM and c < DIM else 0
        if bracketed:
            if not on_board:
                notation_problems.append(
                    f"({alphabet.board_letter(code)}) at {square_name(r, c)}: expected a tile on the board, "
                    f"got an empty square"
                )
            elif (on_board & ~BLANK_BIT) != (code & ~BLANK_BIT):
                notation_problems.append(
                    f"({alphabet.board_letter(code)}) at {square_name(r, c)}: expected the board letter "
                    f"{alphabet.board_letter(on_board)}, got {alphabet.board_letter(code)}"
                )
            tiles.append(0)
        elif on_board and (on_board & ~BLANK_BIT) == (code & ~BLANK_BIT):
            tiles.append(0)  # lenient: same letter already there = played through
        else:
            tiles.append(code)  # a new tile (on an occupied or off-board square: check_move says so)

    # The word must be the whole main word.
    br, bc = row - dr, col - dc
    if br >= 0 and bc >= 0 and board.tiles[br * DIM + bc]:
        notation_problems.append(
            f"expected the whole main word, got a tile {alphabet.board_letter(board.tiles[br * DIM + bc])} "
            f"at {square_name(br, bc)} directly before the first letter"
        )
    ar, ac = last_r + dr, last_c + dc
    if ar < DIM and ac < DIM and board.tiles[ar * DIM + ac]:
        notation_problems.append(
            f"expected the whole main word, got a tile {alphabet.board_letter(board.tiles[ar * DIM + ac])} "
            f"at {square_name(ar, ac)} directly after the last letter"
        )
    if notation_problems:
        if len(notation_problems) > 5:
            notation_problems[5:] = [f"and {len(notation_problems) - 5} more"]
        raise NotationMismatchError(f"notation {excerpt(text.strip())} does not fit the board: "
                                    + "; ".join(notation_problems), tuple(notation_problems))
    return row, col, direction, tuple(tiles)


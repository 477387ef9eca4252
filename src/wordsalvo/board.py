"""The board: 15 x 15 tile codes in one flat row-major array.

A square holds ``0`` (empty), a letter code ``1..n``, or a letter code with
:data:`~wordsalvo.alphabet.BLANK_BIT` set (a blank standing for that letter).
Coordinates inside the code are 0-based ``(row, col)``; the ``8H`` / ``H8``
notation lives only at the edges (formats, CLI, ``Move.notation``).
"""

from __future__ import annotations

from .alphabet import BLANK_BIT, Alphabet
from .constants import COLUMNS, DIM, SQUARES
from .display import Displayable
from .errors import PositionError


class Board(Displayable):
    """A mutable board of tile codes (``DIM`` x ``DIM``, row-major); it does not hash.
    In a notebook it shows itself as a picture (plain squares: a board does not know its
    rule set; a :class:`~wordsalvo.Position` shows the premiums)."""

    __slots__ = ("alphabet", "tiles")
    _display_kind = "Board"

    def __init__(self, alphabet: Alphabet, tiles: bytes | bytearray | None = None):
        self.alphabet = alphabet
        if tiles is None:
            self.tiles = bytearray(SQUARES)
        else:
            if len(tiles) != SQUARES:
                raise PositionError(f"expected {SQUARES} squares, got {len(tiles)}")
            n = alphabet.size
            for i, t in enumerate(tiles):
                if t and not 1 <= (t & ~BLANK_BIT) <= n:
                    raise PositionError(
                        f"expected a tile code 0..{n} (bit 7 = blank) at square {square_name(*divmod(i, DIM))}, got {t}"
                    )
            self.tiles = bytearray(tiles)

    # -- access -------------------------------------------------------------------
    def __getitem__(self, rc: tuple[int, int]) -> int:
        r, c = rc
        if not (0 <= r < DIM and 0 <= c < DIM):
            raise IndexError(f"square ({r}, {c}) is off the board")
        return self.tiles[r * DIM + c]

    def __setitem__(self, rc: tuple[int, int], code: int) -> None:
        r, c = rc
        if not (0 <= r < DIM and 0 <= c < DIM):
            raise IndexError(f"square ({r}, {c}) is off the board")
        self.tiles[r * DIM + c] = code

    def is_empty(self) -> bool:
        return not any(self.tiles)

    @property
    def tile_count(self) -> int:
        return sum(1 for t in self.tiles if t)

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b.alphabet = self.alphabet
        b.tiles = bytearray(self.tiles)
        return b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.tiles == other.tiles and self.alphabet == other.alphabet

    #: a board changes, so it does not hash (hash ``bytes(board.tiles)`` for a snapshot)
    __hash__ = None  # type: ignore[assignment]

    def letter_at(self, r: int, c: int) -> str:
        """The square as written in CGP: '' empty, uppercase tile, lowercase blank."""
        t = self.tiles[r * DIM + c]
        return self.alphabet.board_letter(t) if t else ""

    def rows(self) -> list[str]:
        """Each row as a string, '.' for an empty square."""
        return ["".join(self.letter_at(r, c) or "." for c in range(DIM)) for r in range(DIM)]

    def __str__(self) -> str:
        header = "   " + " ".join(COLUMNS)
        lines = [header]
        for r in range(DIM):
            lines.append(f"{r + 1:2d} " + " ".join(self.letter_at(r, c) or "." for c in range(DIM)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        """``<Board en, 7 tiles: 8 ...KAGOOL.....>``: the alphabet, the tile count and the
        rows that hold tiles (at most three, then the range of rows)."""
        rows = [(r + 1, row) for r, row in enumerate(self.rows()) if row.strip(".")]
        if not rows:
            return f"<Board {self.alphabet.name}, empty>"
        if len(rows) <= 3:
            held = ", ".join(f"{n} {row}" for n, row in rows)
        else:
            held = f"rows {rows[0][0]}-{rows[-1][0]}"
        return f"<Board {self.alphabet.name}, {self.tile_count} tiles: {held}>"


def square_name(row: int, col: int) -> str:
    """The one name of a square: row number then column letter (``(0, 7)`` -> ``'1H'``), as
    messages and the across notation write it; ``(row, col)`` for a square off the board."""
    if 0 <= row < DIM and 0 <= col < DIM:
        return f"{row + 1}{COLUMNS[col]}"
    return f"({row}, {col})"

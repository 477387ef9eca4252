"""Moves and move lists.

A :class:`MoveList` is a numpy structured array of 28-byte records (the C
generator's own output) plus a snapshot of the board, so notations can be
written later.  :class:`Move` objects are made lazily, only when indexed.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from ._core import _movegen
from .alphabet import BLANK_BIT, Alphabet
from .board import SIZE
from .notation import format_coordinate, format_placement_word

#: the 28-byte move record of the C generator (defined next to the C struct it mirrors)
MOVE_DTYPE = _movegen.MOVE_DTYPE
_RECORD = struct.Struct("<iHBBBBB15B2x")
#: byte offsets of the tie-order key in a record: row .. tiles[14] (ws_move_compare's memcmp)
_TIE_FIRST, _TIE_LAST = MOVE_DTYPE.fields["row"][1], MOVE_DTYPE.fields["tiles"][1] + 14
assert _RECORD.size == MOVE_DTYPE.itemsize

ACROSS = 0
DOWN = 1


class Move:
    """One tile-placement move.

    ``tiles`` has one entry per square of the whole main word from its first
    square: the code of a new tile (with :data:`~wordsalvo.alphabet.BLANK_BIT`
    for a blank) or 0 where the tile was already on the board.
    """

    __slots__ = ("row", "col", "direction", "tiles", "score", "words", "_board", "_alphabet")

    def __init__(
        self,
        row: int,
        col: int,
        direction: int,
        tiles: tuple[int, ...],
        score: int,
        board_tiles: bytes,
        alphabet: Alphabet,
        words: tuple[tuple[str, int], ...] | None = None,
    ):
        self.row = row
        self.col = col
        self.direction = direction
        self.tiles = tuple(tiles)
        self.score = score
        self.words = words
        self._board = bytes(board_tiles)
        self._alphabet = alphabet

    @classmethod
    def from_record(cls, rec: Any, board_tiles: bytes, alphabet: Alphabet) -> "Move":
        """A Move from one record of :data:`MOVE_DTYPE` (a numpy void scalar)."""
        score, mask, row, col, direction, n, _played, *raw = _RECORD.unpack(rec.tobytes())
        tiles = tuple(raw[i] | (BLANK_BIT if mask >> i & 1 else 0) for i in range(n))
        return cls(row, col, direction, tiles, score, board_tiles, alphabet)

    @property
    def tiles_played(self) -> int:
        return sum(1 for t in self.tiles if t)

    @property
    def is_bingo(self) -> bool:
        return self.tiles_played == 7

    @property
    def notation(self) -> str:
        coord = format_coordinate(self.row, self.col, self.direction)
        return f"{coord} {format_placement_word(self._board, self._alphabet, self.row, self.col, self.direction, self.tiles)}"

    @property
    def coordinate(self) -> str:
        return self.notation.split(" ", 1)[0]

    @property
    def word(self) -> str:
        """The whole main word in uppercase."""
        dr, dc = (0, 1) if self.direction == ACROSS else (1, 0)
        out = []
        for i, t in enumerate(self.tiles):
            code = t or self._board[(self.row + dr * i) * SIZE + self.col + dc * i]
            out.append(self._alphabet.letter(code))
        return "".join(out)

    def squares(self) -> list[tuple[int, int, int]]:
        """The new tiles as (row, col, code with blank bit)."""
        dr, dc = (0, 1) if self.direction == ACROSS else (1, 0)
        return [(self.row + dr * i, self.col + dc * i, t) for i, t in enumerate(self.tiles) if t]

    def key(self) -> frozenset[tuple[int, int, int, bool]]:
        """Identity of the move: the set of (row, col, letter code, is_blank) of new tiles."""
        return frozenset((r, c, t & ~BLANK_BIT, bool(t & BLANK_BIT)) for r, c, t in self.squares())

    def rack_letters(self) -> str:
        """The tiles taken from the rack, as rack letters ('?' for a blank)."""
        return "".join("?" if t & BLANK_BIT else self._alphabet.letter(t) for t in self.tiles if t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key() and self.score == other.score

    def __hash__(self) -> int:
        return hash((self.key(), self.score))

    def __str__(self) -> str:
        return f"{self.notation} {self.score}"

    def __repr__(self) -> str:
        return f"<Move {self.notation} score={self.score}>"


class MoveList(Sequence[Move]):
    """Moves as a numpy structured array; ``Move`` objects are made on indexing."""

    __slots__ = ("_records", "_board", "_alphabet")

    def __init__(self, records: np.ndarray, board_tiles: bytes, alphabet: Alphabet):
        if records.dtype != MOVE_DTYPE:
            raise TypeError(f"expected records of dtype {MOVE_DTYPE}, got {records.dtype}")
        self._records = records
        self._board = bytes(board_tiles)
        self._alphabet = alphabet

    def __len__(self) -> int:
        return int(self._records.shape[0])

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> "MoveList": ...

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return MoveList(self._records[i], self._board, self._alphabet)
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"move index {i} out of range for {n} moves")
        return Move.from_record(self._records[i], self._board, self._alphabet)

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield Move.from_record(self._records[i], self._board, self._alphabet)

    def to_numpy(self) -> np.ndarray:
        """The records: fields row, col, direction, length, tiles_played, score,
        blank_mask (bit i = tiles[i] is a blank) and tiles (uint8[15]: letter codes of
        new tiles, 0 where the word runs through a board tile); ``pad`` is two zero bytes."""
        return self._records

    @property
    def scores(self) -> np.ndarray:
        return self._records["score"]

    def order(self) -> np.ndarray:
        """Indices of the moves, best first: score descending, then a fixed tie order
        (across before down, row, col, length, tiles played, tiles, blank mask)."""
        r = self._records
        if len(r) == 0:
            return np.zeros(0, dtype=np.intp)
        raw = r.view(np.uint8).reshape(len(r), MOVE_DTYPE.itemsize)
        # tie order = direction, the bytes row .. tiles[14], blank mask, as in ws_move_compare
        keys = [r["blank_mask"]]
        keys += [raw[:, j] for j in range(_TIE_LAST, _TIE_FIRST - 1, -1)]
        keys.append(r["direction"])
        keys.append(-r["score"].astype(np.int64))
        return np.lexsort(keys)

    def sorted(self) -> "MoveList":
        """A copy sorted best first."""
        return MoveList(self._records[self.order()], self._board, self._alphabet)

    def best(self, n: int = 1) -> "MoveList":
        return MoveList(self._records[self.order()[:n]], self._board, self._alphabet)

    def notations(self) -> list[str]:
        return [m.notation for m in self]

    def keys(self) -> dict[frozenset[tuple[int, int, int, bool]], int]:
        """{move key: score} for set comparison with other generators."""
        out = {}
        for rec in self._records:
            n = int(rec["length"])
            mask = int(rec["blank_mask"])
            row, col, d = int(rec["row"]), int(rec["col"]), int(rec["direction"])
            dr, dc = (0, 1) if d == ACROSS else (1, 0)
            k = frozenset(
                (row + dr * i, col + dc * i, int(rec["tiles"][i]), bool(mask >> i & 1))
                for i in range(n) if rec["tiles"][i]
            )
            out[k] = int(rec["score"])
        return out

    def __repr__(self) -> str:
        return f"<MoveList of {len(self)} moves>"

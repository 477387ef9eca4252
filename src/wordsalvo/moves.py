"""Moves and move lists.

A :class:`MoveList` is a numpy structured array of 28-byte records (the C
generator's own output) plus a snapshot of the board, so notations can be
written later.  :class:`Move` objects are made lazily, only when indexed.
"""

from __future__ import annotations

from dataclasses import dataclass

import struct
from collections.abc import Iterator, Sequence
from typing import Any, overload

from ._core import _engine
from ._lazy import numpy as np  # loaded when a move list or record is made
from .alphabet import BLANK_BIT, Alphabet
from .constants import ACROSS, DIM, RACK_MAX, Direction
from .display import Displayable
from .notation import format_coordinate, format_placement_word

#: one move record of the C generator, 28 bytes (MOVE_DTYPE's layout, checked by the tests)
_RECORD = struct.Struct("<iHBBBBB15B2x")
#: byte offsets of the tie-order key in a record: row .. tiles[14] (ws_move_compare's memcmp)
_TIE_FIRST, _TIE_LAST = 6, 25


def __getattr__(name: str) -> Any:
    """``MOVE_DTYPE``: the numpy dtype of the 28-byte move record of the C generator
    (defined next to the C struct it mirrors); made on first use, so that importing this
    module does not load numpy."""
    if name == "MOVE_DTYPE":
        return _engine.MOVE_DTYPE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LeaveValues:
    """The value of keeping each sub-multiset of one rack (from the C generator):
    ``values[index]`` with ``index = sum(kept count of codes[i] * weights[i])``.
    Gives a move list its ``leave_value`` and ``equity`` columns."""

    __slots__ = ("codes", "weights", "values", "counts", "_full", "_weight")

    def __init__(self, codes: bytes, weights: tuple[int, ...], values: np.ndarray, rack_counts: bytes):
        self.codes = codes
        self.weights = weights
        self.values = values  # float32, one per sub-multiset
        self.counts = rack_counts
        self._weight = dict(zip(codes, weights))
        self._full = len(values) - 1  # the whole rack kept: every digit at its top

    def full_index(self) -> int:
        return self._full

    def indices(self, records: np.ndarray) -> np.ndarray:
        """The index of the leave of every move record."""
        idx = np.full(len(records), self.full_index(), dtype=np.int64)
        if not len(records):
            return idx
        tiles = records["tiles"]
        blanks = ((records["blank_mask"].astype(np.int64)[:, None] >> np.arange(tiles.shape[1])) & 1).astype(bool)
        for code, w in zip(self.codes, self.weights):
            used = blanks.sum(axis=1) if code == 0 else ((tiles == code) & ~blanks).sum(axis=1)
            idx -= used * w
        return idx

    def index_of(self, tiles: Sequence[int], blank_mask: int) -> int:
        """The index of the leave of one move (its letter codes and blank mask)."""
        idx = self._full
        weight = self._weight
        i = 0
        for t in tiles:
            if t:
                idx -= weight[0 if blank_mask >> i & 1 else t]
            i += 1
        return idx

    def leave(self, index: int, alphabet: Alphabet) -> str:
        """The tiles kept at an index: blank first, then letters in tile-code order."""
        letters = alphabet.letters
        counts = self.counts
        out = ""
        for code, w in zip(self.codes, self.weights):
            n = index // w % (counts[code] + 1)
            if n:
                out += ("?" if code == 0 else letters[code - 1]) * n
        return out

    def leave_values(self, records: np.ndarray) -> np.ndarray:
        return self.values[self.indices(records)]

    def equities(self, records: np.ndarray) -> np.ndarray:
        """score + leave value, as float32 (the same float32 sum the C search makes)."""
        return records["score"].astype(np.float32) + self.leave_values(records)


#: Direction(0), Direction(1) without the enum call on the hot path
_DIRECTIONS = (Direction(0), Direction(1))

#: every field of a Move, in the order Move.__init__ and Move._scored give their values
_MOVE_FIELDS = ("equity", "_leave", "_leave_values", "_leave_index", "row", "col", "direction", "tiles", "score",
                "words", "_board", "_alphabet", "_rack_size", "_token")


class Move:
    """One tile-placement move: an immutable value (it hashes, and nothing can change it).

    ``tiles`` has one entry per square of the whole main word from its first
    square: the code of a new tile (with :data:`~wordsalvo.alphabet.BLANK_BIT`
    for a blank) or 0 where the tile was already on the board.  The move keeps
    a snapshot of the board it was made for (for its notation and words) and the
    rack size of its rule set (for :attr:`is_bingo`).  Moves of a generator with a
    leave table also carry ``equity`` (score + the value of the tiles kept, see
    :mod:`wordsalvo.leaves`) and ``leave`` (the tiles kept); otherwise both are None.
    """

    __slots__ = ("row", "col", "direction", "tiles", "score", "words", "_board", "_alphabet", "_rack_size",
                 "_token", "equity", "_leave", "_leave_index", "_leave_values")

    def __init__(
        self,
        row: int,
        col: int,
        direction: int,
        tiles: tuple[int, ...],
        score: int,
        board_tiles: bytes,
        alphabet: Alphabet,
        words: tuple[Any, ...] | None = None,
        rack_size: int = RACK_MAX,
        _token: object = None,
        equity: float | None = None,
        leave: str | None = None,
    ):
        # one C call sets every field past __setattr__ (one object.__setattr__ a field
        # took as long as a best-move search of a small rack); _token: who made the move,
        # for what (a game marks the moves its generator made for its current position,
        # so playing them needs no second legality check)
        _engine.set_fields(self, _MOVE_FIELDS, (
            equity, leave, None, 0, row, col,
            _DIRECTIONS[direction] if direction in (0, 1) else Direction(direction),
            tuple(tiles), score, words, bytes(board_tiles), alphabet, rack_size, _token))

    @classmethod
    def _scored(cls, row: int, col: int, direction: int, tiles: tuple[int, ...], score: int, board_tiles: bytes,
                alphabet: Alphabet, rack_size: int) -> "Move":
        """Move(row, col, direction, tiles, score, board_tiles, alphabet, rack_size=rack_size)
        without __init__'s call: the generator's best move by score, whose fields are already
        of their types (direction 0 or 1, tiles a tuple, board_tiles bytes)."""
        return _engine.new_frozen(cls, _MOVE_FIELDS, (None, None, None, 0, row, col, _DIRECTIONS[direction], tiles,
                                                      score, None, board_tiles, alphabet, rack_size, None))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Move cannot be changed (tried to set {name!r}); make a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Move cannot be changed (tried to delete {name!r})")

    @classmethod
    def from_record(cls, rec: Any, board_tiles: bytes, alphabet: Alphabet, rack_size: int = RACK_MAX,
                    _token: object = None, leave_values: LeaveValues | None = None) -> "Move":
        """A Move from one record of :data:`MOVE_DTYPE` (a numpy void scalar)."""
        score, mask, row, col, direction, n, _played, *raw = _RECORD.unpack(rec.tobytes())
        tiles = tuple(raw[i] | (BLANK_BIT if mask >> i & 1 else 0) for i in range(n))
        if leave_values is None:
            return cls(row, col, direction, tiles, score, board_tiles, alphabet, rack_size=rack_size, _token=_token)
        index = leave_values.index_of(raw[:n], mask)
        # the exact sum fits a double whenever its float32 rounding could be a tie, so
        # rounding the double sum to float32 gives the float32 sum that C makes
        equity = float(np.float32(score + leave_values.values.item(index)))
        move = cls(row, col, direction, tiles, score, board_tiles, alphabet, rack_size=rack_size, _token=_token,
                   equity=equity)
        object.__setattr__(move, "_leave_values", leave_values)  # the leave string is made when asked for
        object.__setattr__(move, "_leave_index", index)
        return move

    def to_record(self) -> np.ndarray:
        """The move as one :data:`MOVE_DTYPE` record (the inverse of :meth:`from_record`)."""
        n = len(self.tiles)
        mask = sum(1 << i for i, t in enumerate(self.tiles) if t & BLANK_BIT)
        raw = [t & ~BLANK_BIT for t in self.tiles] + [0] * (15 - n)
        packed = _RECORD.pack(self.score, mask, self.row, self.col, int(self.direction), n, self.tiles_played, *raw)
        return np.frombuffer(packed, dtype=_engine.MOVE_DTYPE)[0]

    @property
    def leave(self) -> str | None:
        """The tiles kept on the rack (blank first, then letters in tile-code order), or
        None when the move has no equity."""
        if self._leave is None and self._leave_values is not None:
            object.__setattr__(self, "_leave", self._leave_values.leave(self._leave_index, self._alphabet))
        return self._leave

    @property
    def tiles_played(self) -> int:
        return sum(1 for t in self.tiles if t)

    @property
    def is_bingo(self) -> bool:
        """Whether the move places a whole rack (the rule set's ``rack_size`` tiles)."""
        return self.tiles_played == self._rack_size

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
        board, table = self._board, self._alphabet.letter_table
        at = self.row * DIM + self.col
        step = 1 if self.direction == ACROSS else DIM
        out = []
        for t in self.tiles:
            out.append(table[t or board[at]])
            at += step
        return "".join(out)

    def formed_words(self) -> tuple[str, ...]:
        """Every word the move forms, uppercase: the main word first, then each cross word
        of 2+ letters in line order (as :func:`wordsalvo.placement.check_placement` lists
        them).  A one-tile move's only word may be its cross word."""
        board, table = self._board, self._alphabet.letter_table
        across = self.direction == ACROSS
        step, cross = (1, DIM) if across else (DIM, 1)
        words = [self.word] if len(self.tiles) >= 2 else []
        at = self.row * DIM + self.col - step
        for t in self.tiles:
            at += step
            if not t:
                continue
            first = at % DIM if across else at - at % DIM  # the first square of the cross line
            a = at - cross
            while a >= first and board[a]:
                a -= cross
            a += cross
            b = at + cross
            last = first + DIM * cross
            while b < last and board[b]:
                b += cross
            if b - a > cross:
                out = []
                for k in range(a, b, cross):
                    out.append(table[t if k == at else board[k]])
                words.append("".join(out))
        return tuple(words)

    def squares(self) -> list[tuple[int, int, int]]:
        """The new tiles as (row, col, code with blank bit)."""
        dr, dc = self.direction.step
        return [(self.row + dr * i, self.col + dc * i, t) for i, t in enumerate(self.tiles) if t]

    def key(self) -> frozenset[tuple[int, int, int, bool]]:
        """Identity of the move: the set of (row, col, letter code, is_blank) of new tiles."""
        return frozenset((r, c, t & ~BLANK_BIT, bool(t & BLANK_BIT)) for r, c, t in self.squares())

    def rack_letters(self) -> str:
        """The tiles taken from the rack, as rack letters ('?' for a blank)."""
        return "".join("?" if t & BLANK_BIT else self._alphabet.letter(t) for t in self.tiles if t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key() and self.score == other.score

    def __reduce__(self):  # immutable: pickle through the constructor
        return (Move, (self.row, self.col, int(self.direction), self.tiles, self.score, self._board,
                       self._alphabet, self.words, self._rack_size, None, self.equity, self.leave))

    def __hash__(self) -> int:
        return hash((self.key(), self.score))

    def __str__(self) -> str:
        return f"{self.notation} {self.score}"

    def __repr__(self) -> str:
        if self.equity is not None:
            return f"<Move {self.notation} score={self.score} equity={self.equity:.2f} leave={self.leave!r}>"
        return f"<Move {self.notation} score={self.score}>"


@dataclass(frozen=True, eq=False)
class Swap:
    """Exchanging tiles, the one type for it: ``tiles`` (rack letters, ``?`` = blank) go back
    to the bag and as many are drawn, ``leave`` is what stays.  A swap scores 0, so its
    ``equity`` is the value of the leave (:meth:`MoveGenerator.best_swap
    <wordsalvo.MoveGenerator.best_swap>`; None when nothing valued it).  The generator
    returns it, engines choose it (:mod:`wordsalvo.actions`), :meth:`Game.apply
    <wordsalvo.game.Game.apply>` carries it out.  Swaps are equal when they put back and
    keep the same tiles, in any order, at the same equity."""

    tiles: str
    leave: str = ""
    equity: float | None = None

    @property
    def score(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swap) and (sorted(self.tiles), sorted(self.leave), self.equity) == (
            sorted(other.tiles), sorted(other.leave), other.equity)

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.tiles)), tuple(sorted(self.leave)), self.equity))

    def __str__(self) -> str:
        return f"swap {self.tiles}"




class MoveList(Sequence[Move], Displayable):
    """Moves as a numpy structured array; ``Move`` objects are made on indexing.  Its
    ``repr`` names the first moves; in a notebook it shows them as a table."""

    __slots__ = ("_records", "_board", "_alphabet", "_rack_size", "_token", "_leave_values")
    _display_kind = "MoveList"
    #: moves named by ``repr``
    REPR_MOVES = 5

    def __init__(self, records: np.ndarray, board_tiles: bytes, alphabet: Alphabet, rack_size: int = RACK_MAX,
                 _token: object = None, leave_values: LeaveValues | None = None):
        if records.dtype != _engine.MOVE_DTYPE:
            raise TypeError(f"expected records of dtype {_engine.MOVE_DTYPE}, got {records.dtype}")
        self._records = records
        self._board = bytes(board_tiles)
        self._alphabet = alphabet
        self._rack_size = rack_size
        self._token = _token
        self._leave_values = leave_values

    def _same(self, records: np.ndarray) -> "MoveList":
        return MoveList(records, self._board, self._alphabet, self._rack_size, self._token, self._leave_values)

    def _move(self, i: int) -> Move:
        return Move.from_record(self._records[i], self._board, self._alphabet, self._rack_size, self._token,
                                self._leave_values)

    def __len__(self) -> int:
        return int(self._records.shape[0])

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> "MoveList": ...

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return self._same(self._records[i])
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"move index {i} out of range for {n} moves")
        return self._move(i)

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield self._move(i)

    def to_numpy(self) -> np.ndarray:
        """The records: fields row, col, direction, length, tiles_played, score,
        blank_mask (bit i = tiles[i] is a blank) and tiles (uint8[15]: letter codes of
        new tiles, 0 where the word runs through a board tile); ``pad`` is two zero bytes.
        Moves of a generator with a leave table also have ``leave_value`` and ``equity``
        (float32), in a copy."""
        if self._leave_values is None:
            return self._records
        r = self._records
        out = np.empty(len(r), dtype=np.dtype(r.dtype.descr + [("leave_value", "<f4"), ("equity", "<f4")]))
        for name in r.dtype.names:
            out[name] = r[name]
        out["leave_value"] = self._leave_values.leave_values(r)
        out["equity"] = self._leave_values.equities(r)
        return out

    @property
    def scores(self) -> np.ndarray:
        return self._records["score"]

    @property
    def tiles_played(self) -> np.ndarray:
        """How many tiles each move takes from the rack."""
        return self._records["tiles_played"]

    @property
    def has_equity(self) -> bool:
        """Whether the moves carry leave values (the generator had a leave table)."""
        return self._leave_values is not None

    @property
    def equities(self) -> np.ndarray:
        """score + leave value of every move (float32); see :mod:`wordsalvo.leaves`."""
        return self._need_equity().equities(self._records)

    def _need_equity(self) -> LeaveValues:
        if self._leave_values is None:
            from .errors import WordSalvoError

            raise WordSalvoError(
                "these moves have no equity: expected a generator with a leave table, "
                "MoveGenerator(lexicon, rules, leaves=Leaves.default(rules))")
        return self._leave_values

    def order(self, by: str = "score") -> np.ndarray:
        """Indices of the moves, best first: score (or equity, then score) descending,
        then a fixed tie order (across before down, row, col, length, tiles played,
        tiles, blank mask)."""
        if by not in ("score", "equity"):
            from .errors import WordSalvoError

            raise WordSalvoError(f"by: expected 'score' or 'equity', got {by!r}")
        equity = self.equities if by == "equity" else None
        r = self._records
        if len(r) == 0:
            return np.zeros(0, dtype=np.intp)
        raw = r.view(np.uint8).reshape(len(r), _RECORD.size)
        # tie order = direction, the bytes row .. tiles[14], blank mask, as in ws_move_compare
        keys = [r["blank_mask"]]
        keys += [raw[:, j] for j in range(_TIE_LAST, _TIE_FIRST - 1, -1)]
        keys.append(r["direction"])
        keys.append(-r["score"].astype(np.int64))
        if equity is not None:
            keys.append(-equity)
        return np.lexsort(keys)

    def sorted(self, by: str = "score") -> "MoveList":
        """A copy sorted best first, by ``"score"`` or ``"equity"``."""
        return self._same(self._records[self.order(by)])

    def top(self, n: int, by: str = "score") -> "MoveList":
        """The ``n`` best moves (fewer when there are fewer), best first, by ``"score"`` or
        ``"equity"``: the first ``n`` of :meth:`sorted` (``MoveGenerator.top`` and
        ``Game.top`` find them without listing every move)."""
        return self._same(self._records[self.order(by)[:n]])

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
        n = len(self)
        if n == 0:
            return "<MoveList of 0 moves>"
        shown = ", ".join(str(m) for m in self[: self.REPR_MOVES])
        more = f", ... {n - self.REPR_MOVES} more" if n > self.REPR_MOVES else ""
        return f"<MoveList of {n} move{'s' if n != 1 else ''}: {shown}{more}>"

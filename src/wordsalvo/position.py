"""A position: board, racks (player on turn first), scores, scoreless-turn count."""

from __future__ import annotations

from collections import Counter

from .alphabet import BLANK_BIT
from .board import Board
from .constants import DIM
from .errors import AlphabetError, PositionError
from .rules import Rules


class Position:
    """Everything a move generator needs, and what a CGP line holds.

    ``racks[0]`` is the rack of the player on turn, written as letters with ``?``
    for a blank.  ``opcodes`` keeps the CGP opcodes (``lex CSW24;`` ...) in order.
    """

    __slots__ = ("rules", "board", "racks", "scores", "scoreless_turns", "opcodes")

    def __init__(
        self,
        rules: Rules,
        board: Board | None = None,
        racks: list[str] | tuple[str, ...] = ("",),
        scores: list[int] | tuple[int, ...] | None = None,
        scoreless_turns: int = 0,
        opcodes: dict[str, str] | None = None,
    ):
        self.rules = rules
        self.board = board if board is not None else Board(rules.alphabet)
        if self.board.alphabet != rules.alphabet:
            raise PositionError(
                f"board alphabet {self.board.alphabet.name!r} does not match the rules' {rules.alphabet.name!r}"
            )
        self.racks = list(racks) if racks else [""]
        for i, r in enumerate(self.racks):
            rack_counts(rules, r, where=f"rack {i + 1}")
        self.scores = list(scores) if scores is not None else [0] * len(self.racks)
        self.scoreless_turns = scoreless_turns
        self.opcodes = dict(opcodes or {})

    # -- constructors -------------------------------------------------------------
    @classmethod
    def empty(cls, rules: Rules, rack: str = "") -> "Position":
        return cls(rules, Board(rules.alphabet), [rack, ""], [0, 0])

    # -- racks ----------------------------------------------------------------------
    @property
    def rack(self) -> str:
        return self.racks[0]

    def rack_counts(self, rack: str | None = None) -> bytes:
        """33 counts indexed by tile code ([0] = blanks) of the rack on turn (or ``rack``)."""
        return rack_counts(self.rules, self.racks[0] if rack is None else rack)

    # -- tiles ----------------------------------------------------------------------
    def unseen(self) -> Counter[str]:
        """Tiles not on the board and not on the rack on turn (bag + opponents' racks)."""
        c = Counter(self.rules.distribution())
        c.subtract(self._board_tiles())
        c.subtract(self.racks[0])
        return +c

    def bag_count(self) -> int:
        return sum(self.unseen().values()) - sum(len(r) for r in self.racks[1:])

    def _board_tiles(self) -> Counter[str]:
        c: Counter[str] = Counter()
        for t in self.board.tiles:
            if t:
                c["?" if t & BLANK_BIT else self.rules.alphabet.letter(t)] += 1
        return c

    def check_tiles(self) -> None:
        """Raises PositionError listing EVERY letter used more often than the tile set has."""
        used = self._board_tiles()
        for r in self.racks:
            used.update(r)
        dist = self.rules.distribution()
        excess = [
            f"{k}: {n} used, {dist.get(k, 0)} in the set"
            for k, n in sorted(used.items()) if n > dist.get(k, 0)
        ]
        if excess:
            raise PositionError(
                f"more tiles than the {self.rules.name} tile set holds: " + "; ".join(excess)
            )

    def copy(self) -> "Position":
        return Position(self.rules, self.board.copy(), list(self.racks), list(self.scores),
                        self.scoreless_turns, dict(self.opcodes))

    def __repr__(self) -> str:
        return (f"<Position {self.rules.name} {self.board.tile_count} tiles, racks {'/'.join(self.racks)}, "
                f"scores {'/'.join(map(str, self.scores))}>")


def rack_counts(rules: Rules, rack: str, where: str = "rack") -> bytes:
    """Tile counts of a rack string ('?' = blank); checks letters and size."""
    counts = bytearray(33)
    alphabet = rules.alphabet
    if len(rack) > rules.rack_size:
        raise PositionError(f"{where}: expected at most {rules.rack_size} tiles, got {len(rack)} ({rack!r})")
    for i, ch in enumerate(rack):
        if ch == "?":
            counts[0] += 1
            continue
        try:
            counts[alphabet.code(ch)] += 1
        except AlphabetError:
            raise PositionError(
                f"{where}: expected a letter of alphabet {alphabet.name!r} or '?' at position {i + 1}, got {ch!r} in {rack!r}"
            ) from None
    return bytes(counts)


__all__ = ["Position", "rack_counts"]

"""A position: board, racks, scores, the player on turn, the scoreless-turn count.

A Position is a snapshot, what a CGP line holds: it is read (CGP in, the generator, the
analysis) and written out (CGP out), and it plays no turn.  Turns are the C game
state's (:mod:`wordsalvo.gamestate`): :func:`~wordsalvo.gamestate.state_from_position`
loads a position into one, the state plays, and :func:`~wordsalvo.gamestate.snapshot`
gives the new position (:func:`~wordsalvo.gamestate.after` is the two in one call).
"""

from __future__ import annotations

from collections import Counter

from .alphabet import BLANK_BIT
from .board import Board
from .display import Displayable
from .errors import PositionError
from .inputs import excerpt, is_whole, whole_arg
from .rules import Rules


class Position(Displayable):
    """Everything a move generator needs, and what a CGP line holds.

    ``racks`` and ``scores`` are in player order; ``racks[to_move]`` is the rack
    of the player on turn (0 unless given), written as letters with ``?`` for a
    blank.  ``opcodes`` keeps the CGP opcodes (``lex CSW24;`` ...) in order.

    Two positions are equal when they hold the same board, racks, scores, player on
    turn and scoreless-turn count under the same rule set (the same object, or one of
    the same name, board seed, layout, star squares, tiles and rack size); the CGP
    opcodes do not count.  A position plays no turn: the position after a move is a new
    one, made by the C game state (:func:`wordsalvo.gamestate.after`).  Its fields are
    plain lists, so it does not hash.  In a notebook it shows itself as its board with
    the rule set's premiums.
    """

    __slots__ = ("rules", "board", "racks", "scores", "scoreless_count", "opcodes", "to_move")
    _display_kind = "Position"

    def __init__(
        self,
        rules: Rules,
        board: Board | None = None,
        racks: list[str] | tuple[str, ...] = ("",),
        scores: list[int] | tuple[int, ...] | None = None,
        scoreless_count: int = 0,
        opcodes: dict[str, str] | None = None,
        to_move: int = 0,
    ):
        if not isinstance(rules, Rules):
            raise PositionError(f"rules: expected a Rules object, got {type(rules).__name__}")
        if board is not None and not isinstance(board, Board):
            raise PositionError(f"board: expected a Board or None, got {type(board).__name__}")
        if isinstance(racks, str) or not isinstance(racks, (list, tuple)):
            raise PositionError(f"racks: expected a list of rack strings, got {type(racks).__name__}")
        self.rules = rules
        self.board = board if board is not None else Board(rules.alphabet)
        if self.board.alphabet != rules.alphabet:
            raise PositionError(
                f"board alphabet {self.board.alphabet.name!r} does not match the rules' {rules.alphabet.name!r}"
            )
        self.racks = [normalize_rack(rules, r, where=f"rack {i + 1}") for i, r in enumerate(racks or [""])]
        for i, r in enumerate(self.racks):
            rack_counts(rules, r, where=f"rack {i + 1}")
        self.scores = list(scores) if scores is not None else [0] * len(self.racks)
        if not all(is_whole(x) for x in self.scores):
            raise PositionError(f"scores: expected whole numbers, got {excerpt(self.scores)}")
        self.scores = [int(x) for x in self.scores]
        scoreless_count = whole_arg(scoreless_count, "scoreless_count", PositionError, low=0)
        self.scoreless_count = scoreless_count
        self.opcodes = dict(opcodes or {})
        to_move = whole_arg(to_move, "to_move", PositionError, low=0, high=len(self.racks) - 1,
                            expected=f"a player index 0..{len(self.racks) - 1}")
        self.to_move = to_move

    # -- constructors -------------------------------------------------------------
    @classmethod
    def empty(cls, rules: Rules, rack: str = "") -> "Position":
        return cls(rules, Board(rules.alphabet), [rack, ""], [0, 0])

    @classmethod
    def _trusted(cls, rules: Rules, tiles: bytes, racks: list[str], scores: list[int], scoreless_count: int,
                 to_move: int) -> "Position":
        """A position from parts already checked (a game's C state), without checking them again."""
        pos = cls.__new__(cls)
        pos.rules = rules
        board = Board.__new__(Board)
        board.alphabet = rules.alphabet
        board.tiles = bytearray(tiles)
        pos.board = board
        pos.racks = racks
        pos.scores = scores
        pos.scoreless_count = scoreless_count
        pos.opcodes = {}
        pos.to_move = to_move
        return pos

    # -- racks ----------------------------------------------------------------------
    @property
    def rack(self) -> str:
        """The rack of the player on turn."""
        return self.racks[self.to_move]

    def rack_counts(self, rack: str | None = None) -> bytes:
        """33 counts indexed by tile code ([0] = blanks) of the rack on turn (or ``rack``)."""
        return rack_counts(self.rules, self.racks[self.to_move] if rack is None else rack)

    def sort_rack(self, letters: str | list[str]) -> str:
        """``letters`` in the order racks are written: the alphabet's order, blanks (``?``) last."""
        return sort_rack(self.rules, letters)

    # -- tiles ----------------------------------------------------------------------
    def unseen(self) -> Counter[str]:
        """Tiles not on the board and not on the rack on turn (bag + opponents' racks)."""
        c = Counter(self.rules.distribution())
        c.subtract(self._board_tiles())
        c.subtract(self.racks[self.to_move])
        return +c

    def bag_count(self) -> int:
        return sum(self.unseen().values()) - sum(len(r) for i, r in enumerate(self.racks) if i != self.to_move)

    def _board_tiles(self) -> Counter[str]:
        c: Counter[str] = Counter()
        letter = self.rules.alphabet.letter
        # count the codes in C, then name the few distinct ones
        for t, n in Counter(bytes(self.board.tiles)).items():
            if t:
                c["?" if t & BLANK_BIT else letter(t)] += n
        return c

    def with_rack(self, rack: str, where: str = "rack") -> "Position":
        """A copy with the rack on turn replaced by ``rack`` (checked against the
        alphabet, the rack size and the tile set; errors name ``where``)."""
        rack_counts(self.rules, rack, where=where)
        racks = list(self.racks) or [""]
        racks[self.to_move] = rack
        new = Position(self.rules, self.board.copy(), racks,
                       list(self.scores) + [0] * (len(racks) - len(self.scores)),
                       self.scoreless_count, dict(self.opcodes), to_move=self.to_move)
        new.check_tiles()
        return new

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
        """An independent copy (not checked again: this one was)."""
        pos = Position.__new__(Position)
        pos.rules = self.rules
        pos.board = self.board.copy()
        pos.racks = list(self.racks)
        pos.scores = list(self.scores)
        pos.scoreless_count = self.scoreless_count
        pos.opcodes = dict(self.opcodes)
        pos.to_move = self.to_move
        return pos

    def rotated(self) -> "Position":
        """A copy with the player on turn first (``to_move`` 0), as a CGP line writes it."""
        k = self.to_move
        return Position(self.rules, self.board.copy(), self.racks[k:] + self.racks[:k],
                        self.scores[k:] + self.scores[:k], self.scoreless_count, dict(self.opcodes))

    def __repr__(self) -> str:
        racks = "/".join(r or "-" for r in self.racks)
        return (f"<Position {self.rules.name}, {self.board.tile_count} tiles, racks {racks}, "
                f"scores {'/'.join(map(str, self.scores))}, player {self.to_move + 1} to move>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (same_rules(self.rules, other.rules) and self.board == other.board and self.racks == other.racks
                and self.scores == other.scores and self.to_move == other.to_move
                and self.scoreless_count == other.scoreless_count)

    __hash__ = None  # type: ignore[assignment]


def same_rules(a: Rules, b: Rules) -> bool:
    """Whether two rule sets play the same positions: the same object, or the same name,
    board seed, layout, star squares, tiles and rack size."""
    return a is b or (a.name, a.board_seed, a.layout, a.star_squares, a.tiles, a.rack_size) == (
        b.name, b.board_seed, b.layout, b.star_squares, b.tiles, b.rack_size)


def sort_rack(rules: Rules, letters: str | list[str]) -> str:
    """``letters`` in the alphabet's order, blanks (``?``) last."""
    return rules.alphabet.sort_rack(letters)


def normalize_rack(rules: Rules, rack: str, where: str = "rack") -> str:
    """``rack`` as racks are kept: uppercase letters of the alphabet and ``?`` for a blank.
    A lowercase letter is read as its tile (a rack has no designated blanks: ``aeinrst``
    is ``AEINRST``; Turkish ``i`` is İ).  PositionError names the first character that is
    neither."""
    if not isinstance(rack, str):
        raise PositionError(f"{where}: expected a string of letters ('?' = blank), got {type(rack).__name__}")
    code = rules.alphabet._code  # type: ignore[attr-defined]
    if all(ch in code or ch == "?" for ch in rack):
        return rack
    alphabet = rules.alphabet
    out = []
    for i, ch in enumerate(rack):
        up = ch if ch in code or ch == "?" else alphabet.rack_letter(ch)
        if up is None:
            raise PositionError(
                f"{where}: expected a letter of alphabet {alphabet.name!r} or '?' at position {i + 1}, got {ch!r} "
                f"in {excerpt(rack)}"
            )
        out.append(up)
    return "".join(out)


def rack_counts(rules: Rules, rack: str, where: str = "rack") -> bytes:
    """Tile counts of a rack string ('?' = blank, lowercase letters read as uppercase);
    checks letters and size."""
    counts = bytearray(33)
    if not isinstance(rack, str):
        raise PositionError(f"{where}: expected a string of letters ('?' = blank), got {type(rack).__name__}")
    if len(rack) > rules.rack_size:
        raise PositionError(f"{where}: expected at most {rules.rack_size} tiles, got {len(rack):,} ({excerpt(rack)})")
    code = rules.alphabet._code  # type: ignore[attr-defined]
    try:  # the usual rack: uppercase letters and '?' (anything else: checked and normalised)
        for ch in rack:
            counts[code[ch] if ch != "?" else 0] += 1
        return bytes(counts)
    except (KeyError, IndexError):
        counts = bytearray(33)
    for ch in normalize_rack(rules, rack, where):
        counts[code[ch] if ch != "?" else 0] += 1
    return bytes(counts)


__all__ = ["Position", "normalize_rack", "rack_counts", "sort_rack"]

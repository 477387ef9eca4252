"""Exact endgame solving: the bag is empty and both racks are known.

:func:`solve_endgame` takes a :class:`~wordsalvo.Position` (both racks known: a CGP
line ``RACK1/RACK2``, the player on turn first) or a :class:`~wordsalvo.Game` of two
players whose bag is empty, and solves the finite two-player game that is left, in C
(``csrc/ws_endgame.c``, the GIL released; see ``docs/endgame.md``): negamax with
alpha-beta, iterative deepening, a transposition table on the game state's Zobrist
hash, move ordering from the previous iteration and a static estimate, every tile
play and the pass.  The turns are the game state's own, so the game ends and is
settled by the rule set (going out, its pass and scoreless-turn limits).

The answer (:class:`EndgameResult`): ``value``, the final spread for the side to
move (its final score minus the opponent's, settlement included) under best play by
both; ``pv``, the moves of a best line (notations, ``"pass"``) to the end of the
game; ``exact``, True when proven (False: the time limit stopped it, and the value
and line are those of the last completed iteration); ``nodes``, ``seconds``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._core import _movegen
from ..errors import PositionError, WordSalvoError
from ..gamestate import state_from_position
from ..lexicon.lexicon import Lexicon
from ..movegen import MoveGenerator
from ..moves import Move
from ..position import Position

__all__ = ["solve_endgame", "EndgameResult", "TABLE_BITS"]

#: the transposition table: 2**TABLE_BITS entries of 24 bytes (48 MB)
TABLE_BITS = 21
#: the move stack at first (moves on the search path); grown when a position needs more
_CAPACITY = 1 << 18
_CAPACITY_MAX = 1 << 24


@dataclass(frozen=True)
class EndgameResult:
    """The solver's answer (see the module docstring)."""

    value: int  #: final spread for the side to move under best play, settlement included
    pv: tuple[str, ...]  #: the best line: notations and "pass"
    moves: tuple[Move | None, ...]  #: the same line: Moves, None for a pass
    exact: bool  #: proven (False: stopped by the time limit)
    nodes: int  #: turns made in the search
    seconds: float  #: wall clock
    spread: int  #: the spread now (side to move's score minus the other's)
    depth: int  #: plies of the last completed iteration
    stop: str  #: "exact", "limit" (the time or node limit) or "depth"

    @property
    def gain(self) -> int:
        """The spread won from now on: value - spread."""
        return self.value - self.spread

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``wordsalvo endgame --json``."""
        return {"value": self.value, "pv": list(self.pv), "exact": self.exact, "nodes": self.nodes,
                "seconds": round(self.seconds, 4)}

    def summary(self) -> str:
        proof = "exact" if self.exact else f"NOT proven (stopped: {self.stop}, depth {self.depth})"
        return (f"value {self.value:+d} (spread now {self.spread:+d}, {self.gain:+d} from here), {proof}; "
                f"{self.nodes:,} nodes in {self.seconds:.3f} s ({self.nodes_per_second:,.0f}/s)")


def _is_game(x: Any) -> bool:
    return all(callable(getattr(x, name, None)) for name in ("state", "position", "generator", "apply"))


def solve_endgame(position, lexicon: Lexicon | None = None, *, seconds: float | None = None, threads: int = 1,
                  nodes: int | None = None, table_bits: int = TABLE_BITS) -> EndgameResult:
    """Solve the endgame of ``position`` (a Position with both racks and the bag empty, or
    a two-player Game whose bag is empty) for the side to move.

    ``lexicon``: default the game's, or the rule set's embedded one; ``seconds``: a time
    limit (None: until proven; then the value is exact); ``threads``: accepted for the
    callers that pass their thread count, but the search runs on ONE thread (a parallel
    search is not written yet); ``nodes``: a limit on the turns searched (None: none), which
    unlike ``seconds`` gives the same result on every machine (the bots use it, so that a
    seeded game replays); ``table_bits``: the transposition table holds
    2**table_bits entries of 24 bytes.  Returns an :class:`EndgameResult`."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
        raise WordSalvoError(f"threads: expected a whole number 1..64, got {threads!r}")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
                math.isfinite(seconds) and 0 < seconds <= 1e7):
            raise WordSalvoError(f"seconds: expected a number of seconds > 0 or None, got {seconds!r}")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= 1 << 62):
        raise WordSalvoError(f"nodes: expected a whole number of turns >= 1 or None, got {nodes!r}")
    if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 10 <= table_bits <= 30:
        raise WordSalvoError(f"table_bits: expected a whole number 10..30, got {table_bits!r}")
    if _is_game(position):
        game = position
        if game.is_over:
            raise PositionError(f"endgame: the game is over ({game.end_reason})")
        lexicon = lexicon if lexicon is not None else game.lexicon
        pos = game.position()
    elif isinstance(position, Position):
        pos = position
    else:
        raise WordSalvoError(f"endgame: expected a Position or a Game, got {type(position).__name__}")
    rules = pos.rules
    if len(pos.racks) != 2:
        raise PositionError(f"endgame: expected a two-player position, got {len(pos.racks)} players")
    if lexicon is None:
        lexicon = Lexicon.default(rules.alphabet.name)
    elif not isinstance(lexicon, Lexicon):
        raise WordSalvoError(f"lexicon: expected a wordsalvo.Lexicon or None, got {type(lexicon).__name__}")
    if lexicon.alphabet.name != rules.alphabet.name:
        raise WordSalvoError(f"lexicon: expected one of the {rules.alphabet.name} alphabet, got "
                             f"{lexicon.alphabet.name}")
    state = state_from_position(pos)
    if state.bag_count:
        raise PositionError(f"endgame: expected the bag empty (both racks known, every tile on the board or a "
                            f"rack), got {state.bag_count} tiles unseen")
    if not pos.racks[0] or not pos.racks[1]:
        raise PositionError(f"endgame: expected a tile on both racks, got {'/'.join(pos.racks)} (with the bag "
                            f"empty an empty rack means the game is over)")
    return _solve_state(state, rules, lexicon, seconds, table_bits, nodes)


def _solve_state(state, rules, lexicon: Lexicon, seconds: float | None, table_bits: int = TABLE_BITS,
                 nodes: int | None = None) -> EndgameResult:
    """Solves a GameState of ``rules`` (two players, the bag empty): the analysis gives the
    state after a move, the tests states whose racks are not the tile set's whole rest."""
    gen = MoveGenerator(lexicon, rules)
    capacity = _CAPACITY
    while True:
        solver = _movegen.EndgameSolver(state, gen._gen, table_bits, capacity)
        try:
            raw = solver.solve(seconds or 0.0, max_nodes=nodes or 0)
            break
        except MemoryError:
            if capacity >= _CAPACITY_MAX:
                raise
            capacity *= 4
    alphabet, size = rules.alphabet, rules.rack_size
    moves: list[Move | None] = []
    pv: list[str] = []
    for kind, rec, board in raw["pv"]:
        if kind == "pass":
            moves.append(None)
            pv.append("pass")
        else:
            m = Move.from_record(rec, board, alphabet, size)
            moves.append(m)
            pv.append(m.notation)
    spread = state.spread(state.to_move)
    return EndgameResult(value=int(raw["value"]), pv=tuple(pv), moves=tuple(moves), exact=raw["exact"],
                         nodes=int(raw["nodes"]), seconds=float(raw["seconds"]), spread=spread,
                         depth=int(raw["depth"]), stop=raw["stop"])

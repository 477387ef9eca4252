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

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._core import _engine
from ..errors import PositionError, WordSalvoError
from ..inputs import number_arg, whole_arg
from ..gamestate import state_from_position
from ..lexicon.lexicon import Lexicon
from ..movegen import MoveGenerator
from ..moves import Move
from ..position import Position

__all__ = ["solve_endgame", "EndgameResult", "EndgameProgress", "TABLE_BITS", "MAX_THREADS"]

#: the most threads of one search (the C solver's WS_EG_MAX_THREADS)
MAX_THREADS: int = _engine.ENDGAME_MAX_THREADS

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


@dataclass(frozen=True)
class EndgameProgress:
    """What a running solve has found so far (given to ``solve_endgame``'s ``progress``)."""

    depth: int  #: plies of the last completed iteration (0: none yet)
    value: int  #: its value: final spread for the side to move
    exact: bool  #: that iteration proved it
    nodes: int  #: turns made so far, every thread
    seconds: float  #: since the solve started
    pv: tuple[str, ...]  #: its best line

    def line(self) -> str:
        """One line for a terminal: ``depth 7  1,234,567 nodes  2.1 s  value +12  8H WORD ; pass``."""
        best = " ; ".join(self.pv) if self.pv else "-"
        if self.depth == 0:
            return f"depth 0  {self.nodes:,} nodes  {self.seconds:.1f} s  (first iteration running)"
        return (f"depth {self.depth}  {self.nodes:,} nodes  {self.seconds:.1f} s  value {self.value:+d}"
                f"{' (proven)' if self.exact else ''}  {best}")


def _is_game(x: Any) -> bool:
    return all(callable(getattr(x, name, None)) for name in ("state", "position", "generator", "apply"))


def two_player_position(position, lexicon: Lexicon | None, what: str) -> tuple[Position, Lexicon]:
    """The position of a running two-player Game or a Position, and the lexicon to search
    it with (the game's, else the rule set's embedded one), checked; errors name ``what``
    (``endgame``, ``pre-endgame``)."""
    if _is_game(position):
        game = position
        if game.is_over:
            raise PositionError(f"{what}: the game is over ({game.end_reason})")
        lexicon = lexicon if lexicon is not None else game.lexicon
        pos = game.position()
    elif isinstance(position, Position):
        pos = position
    else:
        raise WordSalvoError(f"{what}: expected a Position or a Game, got {type(position).__name__}")
    rules = pos.rules
    if len(pos.racks) != 2:
        raise PositionError(f"{what}: expected a two-player position, got {len(pos.racks)} players")
    if lexicon is None:
        lexicon = Lexicon.default(rules.alphabet.name)
    elif not isinstance(lexicon, Lexicon):
        raise WordSalvoError(f"lexicon: expected a wordsalvo.Lexicon or None, got {type(lexicon).__name__}")
    if lexicon.alphabet.name != rules.alphabet.name:
        raise WordSalvoError(f"lexicon: expected one of the {rules.alphabet.name} alphabet, got "
                             f"{lexicon.alphabet.name}")
    return pos, lexicon


def solve_endgame(position, lexicon: Lexicon | None = None, *, seconds: float | None = None, threads: int = 1,
                  nodes: int | None = None, table_bits: int = TABLE_BITS,
                  progress: Callable[[EndgameProgress], Any] | None = None,
                  progress_every: float = 0.25) -> EndgameResult:
    """Solve the endgame of ``position`` (a Position with both racks and the bag empty, or
    a two-player Game whose bag is empty) for the side to move.

    ``lexicon``: default the game's, or the rule set's embedded one; ``seconds``: a time
    limit (None: until proven; then the value is exact); ``threads``: threads that search
    together over one shared table (lazy SMP; the value is the same for any number, the
    line may differ); ``nodes``: a limit on the turns searched (None: none), which
    unlike ``seconds`` gives the same result on every machine (the bots use it, so that a
    seeded game replays; with a node limit the search runs on one thread); ``table_bits``:
    the transposition table holds 2**table_bits entries of 24 bytes; ``progress``: called
    every ``progress_every`` seconds while the search runs (from the calling thread, the
    search on another) and once when it ends, with an :class:`EndgameProgress`.  Returns an :class:`EndgameResult`."""
    threads = whole_arg(threads, "threads", low=1, high=MAX_THREADS)
    if seconds is not None:
        number_arg(seconds, "seconds", above=0, high=1e7, expected="a number of seconds > 0 or None")
    if nodes is not None:
        nodes = whole_arg(nodes, "nodes", low=1, high=1 << 62, expected="a whole number of turns >= 1 or None")
    table_bits = whole_arg(table_bits, "table_bits", low=10, high=30)
    if progress is not None and not callable(progress):
        raise WordSalvoError(f"progress: expected a callable or None, got {type(progress).__name__}")
    number_arg(progress_every, "progress_every", low=0.01, high=3600, expected="seconds 0.01..3600")
    pos, lexicon = two_player_position(position, lexicon, "endgame")
    rules = pos.rules
    state = state_from_position(pos)
    if state.bag_count:
        raise PositionError(f"endgame: expected the bag empty (both racks known, every tile on the board or a "
                            f"rack), got {state.bag_count} tiles unseen")
    if not pos.racks[0] or not pos.racks[1]:
        raise PositionError(f"endgame: expected a tile on both racks, got {'/'.join(pos.racks)} (with the bag "
                            f"empty an empty rack means the game is over)")
    return _solve_state(state, rules, lexicon, seconds, table_bits, nodes, threads, progress, progress_every)


def _line(raw_pv, rules) -> tuple[list[Move | None], list[str]]:
    """The solver's steps as Moves (None: a pass) and notations."""
    alphabet, size = rules.alphabet, rules.rack_size
    moves: list[Move | None] = []
    pv: list[str] = []
    for kind, rec, board in raw_pv:
        if kind == "pass":
            moves.append(None)
            pv.append("pass")
        else:
            m = Move.from_record(rec, board, alphabet, size)
            moves.append(m)
            pv.append(m.notation)
    return moves, pv


def _run(solver, rules, seconds: float, nodes: int, progress, every: float) -> dict:
    """solver.solve, with ``progress`` called from this thread while it runs on another
    (the search releases the GIL and never calls Python)."""
    if progress is None:
        return solver.solve(seconds, max_nodes=nodes)
    box: dict[str, Any] = {}

    def work():
        try:
            box["raw"] = solver.solve(seconds, max_nodes=nodes)
        except BaseException as e:  # noqa: BLE001 - raised again in the calling thread
            box["error"] = e

    worker = threading.Thread(target=work, name="wordsalvo-endgame", daemon=True)
    worker.start()
    while True:
        worker.join(every)
        done = not worker.is_alive()
        if done and "error" in box:
            raise box["error"]
        # the last call: the last completed iteration (its value is the answer's)
        p = solver.progress()
        progress(EndgameProgress(depth=int(p["depth"]), value=int(p["value"]), exact=bool(p["exact"]),
                                 nodes=int(p["nodes"]), seconds=float(p["seconds"]),
                                 pv=tuple(_line(p["pv"], rules)[1])))
        if done:
            return box["raw"]


def _solve_state(state, rules, lexicon: Lexicon, seconds: float | None, table_bits: int = TABLE_BITS,
                 nodes: int | None = None, threads: int = 1, progress=None,
                 progress_every: float = 0.25) -> EndgameResult:
    """Solves a GameState of ``rules`` (two players, the bag empty): the analysis gives the
    state after a move, the tests states whose racks are not the tile set's whole rest."""
    gen = MoveGenerator(lexicon, rules)
    capacity = _CAPACITY
    # a move stack too small restarts the solve with a larger one, within the same time
    # limit (the searches' time; the table's allocation is not counted, as before)
    spent = 0.0
    while True:
        solver = _engine.EndgameSolver(state, gen._gen, table_bits, capacity, threads)
        left = max(seconds - spent, 1e-6) if seconds else 0.0
        t0 = time.monotonic()
        try:
            raw = _run(solver, rules, left, nodes or 0, progress, progress_every)
            break
        except MemoryError:
            if capacity >= _CAPACITY_MAX:
                raise
            spent += time.monotonic() - t0
            capacity *= 4
    moves, pv = _line(raw["pv"], rules)
    spread = state.spread(state.to_move)
    return EndgameResult(value=int(raw["value"]), pv=tuple(pv), moves=tuple(moves), exact=raw["exact"],
                         nodes=int(raw["nodes"]), seconds=float(raw["seconds"]), spread=spread,
                         depth=int(raw["depth"]), stop=raw["stop"])

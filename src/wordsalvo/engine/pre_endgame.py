"""The pre-endgame: 1 to 4 tiles in the bag, every draw valued, the endgames solved exactly.

:func:`solve_pre_endgame` takes a :class:`~wordsalvo.Position` (or a two-player
:class:`~wordsalvo.Game`) whose bag holds 1 to 4 tiles and values each candidate of the
player on turn over **every** way the unseen tiles can lie: the unseen tiles (the bag
and the opponent's rack pooled, from the mover's view; an opponent rack written in the
position is ignored) are split into what the mover draws after the candidate, what
stays in the bag and the opponent's rack, each distinct split weighted by its exact
probability (products of binomial coefficients).  See ``docs/pre-endgame.md``.

* A candidate that plays at least as many tiles as the bag holds **empties the bag**:
  both racks are then known and the endgame after it is solved exactly
  (:mod:`wordsalvo.engine.endgame`, ``csrc/ws_endgame.c``).
* A candidate that leaves tiles in the bag (fewer tiles played, or the pass): the
  players then play the **best static-equity play** (the ``equity`` player, leave table
  while the bag holds tiles; the pass when there is no play) in turn, each of their
  draws enumerated with its probability, until the bag is empty; that endgame is
  solved exactly.  This is the "rational opponent" of other pre-endgame solvers, with
  the endgame after the bag empties solved instead of played out greedily.

Each candidate gets the **win chance** (a draw counts half) and the **mean final
spread** of the mover over the draws.  The search is staged (:data:`SCHEDULE`): stage 1
values every candidate (the best ``candidates`` plays by static equity, then the pass)
with a greedy playout in place of each endgame (cheap: both sides play the best
static-equity play to the end); stage 2 values its 8 leaders with the endgames solved,
each searched for at most 50,000 turns (an endgame not proven by then is valued by the
playout); stage 3 re-solves, until proven, the endgames its 4 leaders left unproven.
Candidates are ranked by the last stage they finished, then win chance, mean spread
and static equity.  A time limit (``seconds``) or a node limit (``nodes``: turns
searched in all endgames; the same answer on every machine) stops it with the best
answer so far: the ranking of the last stage finished (a later stage cut short is
discarded; in the first, the candidates valued so far stand).  Exchanges: with 1-4 tiles in
the bag no shipped rule set allows one (``[swap] min_bag`` 7, or a whole-rack swap the
bag must cover); when a rule set would, exchanges are not valued (``exchanges_skipped``).
"""

from __future__ import annotations

import html
import math
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .._core import _engine
from ..errors import PositionError, WordSalvoError
from ..inputs import is_whole, number_arg, whole_arg
from ..gamestate import state_from_position
from ..lexicon.lexicon import Lexicon
from ..movegen import MoveGenerator
from ..moves import Move
from ..position import Position
from .endgame import MAX_THREADS

__all__ = ["solve_pre_endgame", "PreEndgameResult", "PegCandidate", "PEG_MIN_BAG", "PEG_MAX_BAG",
           "DEFAULT_CANDIDATES", "SCHEDULE", "GREEDY"]

PEG_MIN_BAG, PEG_MAX_BAG = 1, 4
#: the plays valued by default (the best by static equity), plus the pass, by the tiles in
#: the bag: with 1-2 the first stage (a greedy playout per draw) costs about 10 ms a
#: candidate, so it goes wide; with 3-4 about 0.3 s.  On 50 positions with 1-2 tiles in
#: the bag (benchmarks/pre_endgame.py, 20 s each), 16 candidates missed MAGPIE's best
#: move in 16, 64 in 7 (README, Pre-endgame).
DEFAULT_CANDIDATES = {1: 64, 2: 64, 3: 16, 4: 16}
#: the per-solve cap that stands for "no solve: the greedy playout" (stage 1)
GREEDY = -1
#: the stages: (how many of the leaders so far it values, None: all; the turns each endgame
#: may search, GREEDY: none, the greedy playout; None: until proven)
SCHEDULE = ((None, GREEDY), (8, 50_000), (4, None))
#: the transposition table of each endgame solve: 2**bits entries of 24 bytes (the
#: endgames after a pre-endgame are small; a smaller table is set up faster)
_TABLE_BITS = 17
_CAPACITY = 1 << 16
_CAPACITY_MAX = 1 << 24


@dataclass(frozen=True)
class PegCandidate:
    """One candidate's value over the draws (see the module docstring)."""

    action: str  #: the notation of the play, or "pass"
    move: Move | None  #: the play (None: the pass)
    equity: float | None  #: its static equity (None: the pass)
    win: float  #: win chance of the mover, 0..1 (a draw counts half)
    spread: float  #: mean final spread of the mover (its final score minus the opponent's)
    draws: int  #: distinct draws valued
    total_draws: int  #: distinct draws of the unseen tiles for this candidate
    exact: int  #: draws valued with every endgame proven
    empties_bag: bool  #: whether the candidate empties the bag (then every value is an exact endgame)
    stage: int  #: the stage its values come from (0: not valued)

    @property
    def complete(self) -> bool:
        """Valued over every draw."""
        return self.draws == self.total_draws and self.stage > 0

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "equity": None if self.equity is None else round(self.equity, 3),
                "win": round(self.win, 6), "spread": round(self.spread, 4), "draws": self.draws,
                "total_draws": self.total_draws, "exact": self.exact, "empties_bag": self.empties_bag,
                "stage": self.stage}


@dataclass(frozen=True)
class PreEndgameResult:
    """The pre-endgame's answer: ``candidates`` best first (complete ones by win chance,
    then mean spread, then static equity; incomplete ones after them)."""

    candidates: tuple[PegCandidate, ...]
    bag: int  #: tiles in the bag
    unseen: str  #: the unseen tiles (bag + opponent's rack), rack letters
    stage: int  #: the last stage finished (2: every stage)
    stop: str  #: "done", "time" or "nodes"
    nodes: int  #: turns searched in all endgames
    solves: int  #: endgames solved
    seconds: float
    exchanges_skipped: bool = False

    @property
    def best(self) -> PegCandidate:
        return self.candidates[0]

    @property
    def complete(self) -> bool:
        return self.stop == "done"

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``wordsalvo peg --json``."""
        return {"best": self.best.action, "win": round(self.best.win, 6), "spread": round(self.best.spread, 4),
                "bag": self.bag, "unseen": self.unseen, "stage": self.stage, "stop": self.stop,
                "nodes": self.nodes, "solves": self.solves, "seconds": round(self.seconds, 4),
                "candidates": [c.to_dict() for c in self.candidates]}

    def table(self, top: int | None = None) -> str:
        rows = self.candidates[:top] if top else self.candidates
        lines = [f"{'move':<22} {'win %':>7} {'spread':>8} {'equity':>7} {'draws':>9} {'exact':>6}"]
        for c in rows:
            eq = "" if c.equity is None else f"{c.equity:.1f}"
            draws = f"{c.draws}/{c.total_draws}"
            lines.append(f"{c.action:<22} {100 * c.win:7.2f} {c.spread:+8.2f} {eq:>7} {draws:>9} {c.exact:6d}")
        return "\n".join(lines)

    def summary(self) -> str:
        b = self.best
        return (f"best {b.action}: win {100 * b.win:.2f} %, mean spread {b.spread:+.2f} over {b.total_draws} draws; "
                f"{self.bag} in the bag, unseen {self.unseen}; stage {self.stage}, stop {self.stop}; "
                f"{self.solves:,} endgames, {self.nodes:,} nodes in {self.seconds:.3f} s")

    def __repr__(self) -> str:
        b = self.best
        return (f"<PreEndgameResult best={b.action!r} win={100 * b.win:.2f}% spread={b.spread:+.2f} "
                f"bag={self.bag} candidates={len(self.candidates)} stop={self.stop!r}>")

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("move", "win %", "mean spread", "equity", "draws", "exact"))
        rows = []
        for c in self.candidates:
            eq = "" if c.equity is None else f"{c.equity:.1f}"
            rows.append(f"<tr><td>{html.escape(c.action)}</td><td>{100 * c.win:.2f}</td><td>{c.spread:+.2f}</td>"
                        f"<td>{eq}</td><td>{c.draws}/{c.total_draws}</td><td>{c.exact}</td></tr>")
        return (f"<div><p>{html.escape(self.summary())}</p><table><tr>{head}</tr>{''.join(rows)}</table></div>")


# -- draws ------------------------------------------------------------------------------------
def _sub_multisets(pool: dict[int, int], size: int):
    """Every sub-multiset of ``pool`` (code -> count) with ``size`` tiles, as (dict, ways):
    ways = the product of C(pool[c], k[c]), the number of tile subsets it stands for."""
    codes = sorted(pool)
    out = []

    def rec(i: int, left: int, chosen: dict[int, int], ways: int) -> None:
        if left == 0:
            out.append((dict(chosen), ways))
            return
        if i == len(codes):
            return
        c = codes[i]
        for k in range(min(pool[c], left), -1, -1):
            if k:
                chosen[c] = k
            rec(i + 1, left - k, chosen, ways * math.comb(pool[c], k))
            chosen.pop(c, None)

    rec(0, size, {}, 1)
    return out


def _minus(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for c, k in b.items():
        out[c] -= k
        if not out[c]:
            del out[c]
    return out


def _counts(d: dict[int, int], base: bytes | None = None) -> bytes:
    arr = bytearray(base if base is not None else bytes(33))
    for c, k in d.items():
        arr[c] += k
    return bytes(arr)


def _codes(d: dict[int, int]) -> bytes:
    return bytes(c for c in sorted(d) for _ in range(d[c]))


def scenarios(unseen: dict[int, int], bag: int, draw: int):
    """The distinct ways the ``unseen`` tiles (code -> count) lie for a mover who draws
    ``draw`` tiles (<= ``bag``) from a bag of ``bag``: (drawn, left in the bag,
    opponent's rack, probability), the probabilities summing to 1."""
    total = sum(unseen.values())
    opp = total - bag
    denom = math.comb(total, draw) * math.comb(total - draw, bag - draw)
    out = []
    for drawn, w1 in _sub_multisets(unseen, draw):
        rest = _minus(unseen, drawn)
        for left, w2 in _sub_multisets(rest, bag - draw):
            out.append((drawn, left, _minus(rest, left), w1 * w2 / denom))
    assert opp >= 0
    return out


def _played_counts(rec) -> dict[int, int]:
    """The rack tiles a move record places (a blank as code 0)."""
    out: dict[int, int] = {}
    mask = int(rec["blank_mask"])
    tiles = rec["tiles"]
    for i in range(int(rec["length"])):
        t = int(tiles[i])
        if t:
            c = 0 if mask >> i & 1 else t
            out[c] = out.get(c, 0) + 1
    return out


def _rack_dict(counts: bytes) -> dict[int, int]:
    return {c: k for c, k in enumerate(counts) if k}


# -- the search -------------------------------------------------------------------------------
class _Budget:
    def __init__(self, seconds: float | None, nodes: int | None, cpu_time: bool = False):
        #: the clock of the time limit: the wall clock, or this process's CPU time
        self.clock = time.process_time if cpu_time else time.perf_counter
        self.start = self.clock()
        self.deadline = None if seconds is None else self.start + seconds
        self.nodes_left = nodes
        self.nodes = 0
        self.solves = 0
        self.stop: str | None = None

    def out(self) -> bool:
        if self.stop is not None:
            return True
        if self.deadline is not None and self.clock() >= self.deadline:
            self.stop = "time"
        elif self.nodes_left is not None and self.nodes_left <= 0:
            self.stop = "nodes"
        return self.stop is not None


class _Search:
    def __init__(self, rules, lexicon: Lexicon, leaves, budget: _Budget):
        self.rules = rules
        self.gen = MoveGenerator(lexicon, rules)._gen
        self.table = leaves._table if leaves is not None else None
        self.budget = budget
        self.capacity = _CAPACITY

    def endgame(self, state, cap: int | None) -> tuple[int, bool]:
        """(final spread of player 0 ... of the player on turn, exact) of an endgame state."""
        b = self.budget
        seconds = 0.0
        if b.deadline is not None:
            seconds = max(b.deadline - b.clock(), 1e-3)  # (the solver's own limit is wall clock: no later)
        nodes = cap or 0
        if b.nodes_left is not None:
            nodes = min(nodes, b.nodes_left) if nodes else b.nodes_left
            nodes = max(nodes, 1)
        while True:
            solver = _engine.EndgameSolver(state, self.gen, _TABLE_BITS, self.capacity)
            try:
                raw = solver.solve(seconds, max_nodes=nodes)
                break
            except MemoryError:
                if self.capacity >= _CAPACITY_MAX:
                    raise
                self.capacity *= 4
        b.solves += 1
        b.nodes += int(raw["nodes"])
        if b.nodes_left is not None:
            b.nodes_left -= int(raw["nodes"])
        return int(raw["value"]), bool(raw["exact"])

    def playout(self, state, me: int) -> int:
        """The mover's final spread when both play the best static-equity play (the rules'
        end-game terms: the bag is empty) to the end of the game."""
        while not state.is_over:
            state.load(self.gen, self.table, True)
            recs, _eq = self.gen.best_equity(1)
            if len(recs):
                state.play_record(recs[0])
            else:
                state.pass_turn()
        return state.spread(me)

    def value(self, state, me: int, cap: int | None, bag: dict[int, int]) -> tuple[float, float, float, bool]:
        """(win chance, mean final spread, weight of exact values, exact) of the mover ``me``
        from ``state`` (its tiles assigned; ``bag`` its bag as code -> count), the
        players on the static-equity play while the bag holds tiles."""
        if state.is_over:
            s = state.spread(me)
            return (1.0 if s > 0 else 0.5 if s == 0 else 0.0), float(s), 1.0, True
        if state.bag_count == 0 and cap == GREEDY:
            s = self.playout(state.copy(), me)
            return (1.0 if s > 0 else 0.5 if s == 0 else 0.0), float(s), 0.0, False
        if state.bag_count == 0:
            v, exact = self.endgame(state, cap)
            s = v if state.to_move == me else -v
            if not exact:  # stopped before a proof: its value counts cut-off lines as 0; the playout is better
                s = self.playout(state.copy(), me)
            return (1.0 if s > 0 else 0.5 if s == 0 else 0.0), float(s), 1.0 if exact else 0.0, exact
        p = state.to_move
        state.load(self.gen, self.table, True)
        recs, _eq = self.gen.best_equity(1)
        after = state.copy()
        if len(recs) == 0:
            after.pass_turn()
            return self.value(after, me, cap, bag)
        rec = recs[0]
        played = _played_counts(rec)
        kept = _minus(_rack_dict(state.rack(p)), played)
        after.play_record(rec)
        if after.is_over:
            return self.value(after, me, cap, bag)
        n = min(sum(played.values()), sum(bag.values()))
        other = state.rack(1 - p)
        total = math.comb(sum(bag.values()), n)
        win = spread = exact_w = 0.0
        all_exact = True
        for drawn, ways in _sub_multisets(bag, n):
            s = after.copy()
            left = _minus(bag, drawn)
            racks = [b""] * 2
            racks[p] = _counts(_minus(kept, {}), _counts(drawn))
            racks[1 - p] = other
            s.set_tiles(racks, _codes(left))
            w, sp, ex, exact = self.value(s, me, cap, left)
            q = ways / total
            win += q * w
            spread += q * sp
            exact_w += q * ex
            all_exact &= exact
        return win, spread, exact_w, all_exact


@dataclass
class _Cand:
    action: str
    move: Move | None
    record: Any
    equity: float | None
    played: dict[int, int]
    scen: list = field(default_factory=list)  # (drawn, left, opp, prob)
    values: dict = field(default_factory=dict)  # scenario index -> (win, spread, exact_w, exact)
    stage: int = 0

    def row(self) -> PegCandidate:
        n = len(self.values)
        win = sum(self.scen[i][3] * v[0] for i, v in self.values.items())
        spread = sum(self.scen[i][3] * v[1] for i, v in self.values.items())
        mass = sum(self.scen[i][3] for i in self.values)
        if mass > 0:
            win, spread = win / mass, spread / mass
        return PegCandidate(action=self.action, move=self.move, equity=self.equity, win=win, spread=spread, draws=n,
                            total_draws=len(self.scen), exact=sum(1 for v in self.values.values() if v[3]),
                            empties_bag=False, stage=self.stage if n == len(self.scen) else 0)


def _is_game(x: Any) -> bool:
    return all(callable(getattr(x, name, None)) for name in ("state", "position", "generator", "apply"))


def _rank_key(c: PegCandidate):
    return (not c.complete, -c.stage, -c.win, -c.spread, -(c.equity if c.equity is not None else -1e9))


def solve_pre_endgame(position, lexicon: Lexicon | None = None, *, seconds: float | None = None,
                      nodes: int | None = None, candidates=None, threads: int = 1, leaves=None,
                      schedule=None, progress: Callable[[dict], None] | None = None,
                      cpu_time: bool = False) -> PreEndgameResult:
    """Value the candidates of a pre-endgame (1-4 tiles in the bag) over every draw of the
    unseen tiles, the endgames solved exactly (see the module docstring).

    ``position``: a Position (the rack on turn; the opponent's rack, if written, is
    ignored: it is unseen) or a two-player Game.  ``seconds``: a time limit; ``nodes``: a
    limit on the turns searched in all endgames (the same answer on every machine; the
    bots use it); neither: until every stage is done.  ``candidates``: how many plays by
    static equity (plus the pass; None: :data:`DEFAULT_CANDIDATES` for the tiles in the
    bag), or a sequence of Moves (None for the pass).
    ``threads``: accepted for the callers that pass their thread count; the draws are
    solved on one thread.  ``leaves``: the leave table of the static-equity play (default
    the rule set's, zeros when none is shipped).  ``schedule``: the stages (default
    :data:`SCHEDULE`), pairs (how many leaders, None: all; turns per endgame, :data:`GREEDY`:
    the playout only, None: until proven).  ``progress``: called with a dict after each
    candidate of each stage.  ``cpu_time``: ``seconds`` counts this process's CPU time
    (a loaded machine does not shorten the search), not the wall clock."""
    whole_arg(threads, "threads", low=1, high=MAX_THREADS)
    if seconds is not None:
        number_arg(seconds, "seconds", above=0, high=1e7, expected="a number of seconds > 0 or None")
    if nodes is not None:
        nodes = whole_arg(nodes, "nodes", low=1, high=1 << 62, expected="a whole number of turns >= 1 or None")
    from .endgame import two_player_position

    pos, lexicon = two_player_position(position, lexicon, "pre-endgame")
    rules = pos.rules
    if not pos.rack:
        raise PositionError("pre-endgame: expected tiles on the rack on turn, got an empty rack")
    unseen_letters = pos.unseen()
    n_unseen = sum(unseen_letters.values())
    bag = n_unseen - rules.rack_size
    if not PEG_MIN_BAG <= bag <= PEG_MAX_BAG:
        raise PositionError(f"pre-endgame: expected {PEG_MIN_BAG}-{PEG_MAX_BAG} tiles in the bag ({rules.rack_size} "
                            f"on the opponent's rack, the rest of the {n_unseen} unseen tiles in the bag), got {bag}")
    if leaves is None:
        from ..leaves import Leaves, LeavesError

        try:
            leaves = Leaves.default(rules)
        except LeavesError:
            leaves = None
    me = pos.to_move
    racks = ["", ""]
    racks[me] = pos.rack
    view = Position(rules, pos.board.copy(), racks, list(pos.scores), pos.scoreless_count, to_move=me)
    state = state_from_position(view)  # the opponent's rack empty, every unseen tile in the bag
    code = rules.alphabet.code
    unseen = dict(Counter(0 if ch == "?" else code(ch) for ch in unseen_letters.elements()))
    if schedule is not None:
        schedule = tuple(schedule)
        if not schedule or any(not isinstance(st, tuple) or len(st) != 2 for st in schedule):
            raise WordSalvoError(f"schedule: expected (leaders, nodes) pairs, got {schedule!r}")
        for top, cap in schedule:
            if top is not None:
                whole_arg(top, "schedule", low=1, expected="a number of leaders >= 1 or None")
            if cap is not None and cap != GREEDY:
                whole_arg(cap, "schedule", low=1, expected="turns per endgame >= 1, GREEDY or None")
    if not isinstance(cpu_time, bool):
        raise WordSalvoError(f"cpu_time: expected True or False, got {cpu_time!r}")
    return _solve(state, rules, lexicon, leaves, unseen, bag, seconds=seconds, nodes=nodes,
                  candidates=candidates, progress=progress, schedule=schedule, cpu_time=cpu_time)


def _solve(state, rules, lexicon, leaves, unseen: dict[int, int], bag: int, *, seconds=None, nodes=None,
           candidates=None, progress=None, schedule=None, cpu_time: bool = False) -> PreEndgameResult:
    """The search on a GameState whose player on turn holds its rack and whose opponent's
    rack is empty (the tiles of ``state``'s bag are not used: ``unseen`` are the tiles the
    mover cannot see, ``bag`` of them in the bag).  The tests call it on tiny positions."""
    schedule = SCHEDULE if schedule is None else schedule
    if candidates is None:
        candidates = DEFAULT_CANDIDATES[bag]
    budget = _Budget(seconds, nodes, cpu_time)
    search = _Search(rules, lexicon, leaves, budget)
    me = state.to_move
    alphabet, size = rules.alphabet, rules.rack_size
    board = state.board
    rack = _rack_dict(state.rack(me))
    cands: list[_Cand] = []
    if not is_whole(candidates):
        seen = set()
        for m in candidates:
            if m is None or m == "pass":
                cands.append(_Cand("pass", None, None, None, {}))
                continue
            if not isinstance(m, Move):
                raise WordSalvoError(f"candidates: expected Moves or None (the pass), got {type(m).__name__}")
            rec = m.to_record()
            if m.notation in seen:
                continue
            seen.add(m.notation)
            cands.append(_Cand(m.notation, m, rec, None if m.equity is None else float(m.equity),
                               _played_counts(rec)))
        if not cands:
            raise WordSalvoError("candidates: expected at least one move or the pass, got none")
    else:
        if not 1 <= candidates <= 1000:
            raise WordSalvoError(f"candidates: expected a number 1..1000 or a sequence of moves, got {candidates!r}")
        table = leaves._table if leaves is not None else None
        state.load(search.gen, table, True)
        recs, eqs = search.gen.best_equity(candidates)
        for i in range(len(recs)):
            rec = recs[i].copy()
            m = Move.from_record(rec, board, alphabet, size)
            eq = float(eqs[i])
            cands.append(_Cand(m.notation, m, rec, eq, _played_counts(rec)))
        cands.append(_Cand("pass", None, None, None, {}))
    exchanges_skipped = any(state.swap_allowed(n) for n in range(1, sum(rack.values()) + 1))
    # the state after each candidate (tiles reassigned per draw): played with every unseen
    # tile in the bag, so that the candidate draws and the game goes on
    state = state.copy()
    racks0 = [b"", b""]
    racks0[me] = state.rack(me)
    racks0[1 - me] = bytes(33)
    state.set_tiles(racks0, _codes(unseen))
    afters = []
    for c in cands:
        k = sum(c.played.values())
        c.scen = scenarios(unseen, bag, min(k, bag))
        a = state.copy()
        if c.record is None:
            a.pass_turn()
        else:
            a.play_record(c.record)
        afters.append(a)

    def run_candidate(i: int, stage: int, cap: int | None, only_inexact: bool) -> bool:
        c = cands[i]
        kept = _minus(rack, c.played)
        for j, (drawn, left, opp, _p) in enumerate(c.scen):
            if only_inexact and j in c.values and c.values[j][3]:
                continue
            if budget.out():
                return False
            s = afters[i].copy()
            racks = [b"", b""]
            racks[me] = _counts(kept, _counts(drawn))
            racks[1 - me] = _counts(opp)
            s.set_tiles(racks, _codes(left))
            c.values[j] = search.value(s, me, cap, left)
        c.stage = stage
        return True

    finished = 0
    order = list(range(len(cands)))
    for stage, (top, cap) in enumerate(schedule):
        if stage:
            rows = sorted((cands[i].row() for i in order), key=_rank_key)
            keep = {r.action for r in rows[:top]} if top else {r.action for r in rows}
            order = [i for i in order if cands[i].action in keep]
        interrupted = False
        saved = [(dict(cands[i].values), cands[i].stage) for i in order]
        for n_done, i in enumerate(order):
            if not run_candidate(i, stage + 1, cap, True):
                # the ranking is that of the last stage finished: a later stage cut short is
                # discarded; of the first, the candidates valued so far stand (in equity order)
                for j, i2 in enumerate(order):
                    if stage or i2 == i:
                        cands[i2].values, cands[i2].stage = saved[j]
                interrupted = True
                break
            if progress is not None:
                progress({"stage": stage + 1, "candidate": n_done + 1, "of": len(order), "action": cands[i].action,
                          "row": cands[i].row(), "nodes": budget.nodes, "solves": budget.solves,
                          "seconds": budget.clock() - budget.start})
        if interrupted:
            break
        finished = stage + 1
        if all(v[3] for i in order for v in cands[i].values.values()) and stage + 1 < len(schedule):
            # every draw of the field proven: the later stages would change nothing
            for i in order:
                cands[i].stage = len(schedule)
            finished = len(schedule)
            break
    rows = []
    for c in cands:
        r = c.row()
        rows.append(replace(r, empties_bag=sum(c.played.values()) >= bag))
    rows.sort(key=_rank_key)
    letters = "".join("?" if c == 0 else alphabet.letters[c - 1] for c in sorted(unseen) for _ in range(unseen[c]))
    return PreEndgameResult(candidates=tuple(rows), bag=bag, unseen=letters, stage=finished,
                            stop=budget.stop or "done", nodes=budget.nodes, solves=budget.solves,
                            seconds=budget.clock() - budget.start, exchanges_skipped=exchanges_skipped)

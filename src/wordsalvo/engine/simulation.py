"""Monte Carlo simulation: which candidate does best when the game is played on?

:func:`simulate` takes a :class:`~wordsalvo.Game` or a :class:`~wordsalvo.Position`
of a two-player game and the candidates (the ``plays`` best placements by static
equity plus the best exchange, or the ``moves`` given) and plays each candidate on,
many times, in C (``csrc/ws_sim.c``, the GIL released):

* an **iteration** draws the tiles the player on turn cannot see: the opponent's
  rack and every later draw come from the unseen tiles (bag and the opponent's rack
  pooled) with the game's own random stream (Python's Mersenne Twister in C), seeded
  from ``(seed, iteration)`` alone;
* for each candidate it plays the candidate and then ``plies`` turns of the static
  equity player (:mod:`wordsalvo.engine.bot`'s ``equity``, the player of self-play);
* it values the end from the mover's side: **equity** = the spread change plus the
  leave of the mover's last action minus the leave of the opponent's last action
  (:mod:`wordsalvo.leaves`, the settlement terms with the bag empty; no leave terms
  once the game is over), and **win** = the game's result when it ended, else the
  win-probability model (:mod:`wordsalvo.engine.winprob`) at that spread plus leave
  terms and the tiles unseen, for the player on turn then.

Every candidate of an iteration sees the same random stream (common random
numbers): the same opponent rack, the same draws while the plays draw alike, so
the differences between candidates are far less noisy than the values.  Candidates
are compared by win chance (the equity breaking ties) when the rule set has a
win-probability model, else by equity.  With ``spread_weight`` w > 0 the utility of
a sample is the win chance blended with a logistic of the mover's spread after it
(the spread at the root plus its equity), ``(win + w * sigmoid(spread /
spread_scale)) / (1 + w)`` (the equity still breaking ties): where the win chance of
every candidate is all but 0 or 1 (a game far ahead or behind) it still prefers the
larger spread, and it stays within 0..1.  MAGPIE's simulation blends at w = 0.5 and
a scale of 100 points by default; ours compares the win chance alone unless asked
(master with that blend gained nothing: :data:`wordsalvo.engine.bot.MASTER_SPREAD_WEIGHT`).

Sampling rules: ``"rr"`` (round robin: every candidate gets every iteration) and
``"bai"`` (best-arm identification: in rounds, a candidate whose paired difference
to the leader is clearly negative is dropped, a likelihood-ratio test for a
Gaussian of unknown variance with an anytime threshold at error probability
:data:`DELTA`, after at least :data:`MIN_ITERATIONS` iterations; the simulation
stops when one is left).  With an iteration limit the result is the same for the
same seed whatever the number of threads; a time limit stops where the clock says.

The result (:class:`SimResult`) has one row per candidate, best first: move,
mean equity and its standard error, mean win chance, iterations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .._core import _engine
from ..actions import Action, Pass, Play, Swap
from ..display import Displayable
from ..errors import PositionError, WordSalvoError
from ..inputs import number_arg, whole_arg
from ..gamestate import letter_counts, rack_letters, state_from_position
from ..leaves import Leaves
from ..lexicon.lexicon import Lexicon
from ..movegen import MoveGenerator
from ..moves import Move
from ..position import Position, normalize_rack
from .winprob import WinModel

__all__ = ["simulate", "Simulator", "SimResult", "SimRow", "SAMPLINGS", "DEFAULT_ITERATIONS", "DELTA",
           "MIN_ITERATIONS", "MAX_PLIES", "MAX_THREADS"]

#: the most turns a candidate may be played on (the C simulator's WS_SIM_MAX_PLIES): the
#: library's limit, which the service (``[limits] plies``) and the CLI read
MAX_PLIES: int = _engine.SIM_MAX_PLIES
#: the most threads of one simulation (the C simulator's WS_SIM_MAX_THREADS)
MAX_THREADS: int = _engine.SIM_MAX_THREADS

#: the sampling rules: round robin, best-arm identification
SAMPLINGS = ("rr", "bai")
#: iterations when neither ``iterations`` nor ``seconds`` is given
DEFAULT_ITERATIONS = 1000
#: best-arm identification: the error probability of its elimination rule
DELTA = 0.05
#: best-arm identification: iterations before any candidate is dropped
MIN_ITERATIONS = 16
#: the win table's spreads: -WIN_SPREAD..WIN_SPREAD (beyond: clamped)
WIN_SPREAD = 500
#: the default scale of the spread's logistic in a blended utility, in points (at +-100 points
#: the logistic is 0.73 / 0.27)
SPREAD_SCALE = 100.0


@dataclass(frozen=True)
class SimRow:
    """One candidate of a simulation."""

    move: str  #: notation of a play, ``-TILES`` for an exchange, ``pass``
    action: Action  #: the Play, Swap or Pass
    equity: float | None  #: mean equity (spread change + leave terms), None without iterations
    stderr: float | None  #: standard error of ``equity`` (None below 2 iterations)
    win: float | None  #: mean win chance of the mover (None without a model or iterations)
    iterations: int
    static_equity: float  #: score + leave value
    win_stderr: float | None = None
    alive: bool = True  #: False: dropped by best-arm identification

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "equity": _round(self.equity, 3), "stderr": _round(self.stderr, 3),
                "win": _round(self.win, 5), "iterations": self.iterations}


@dataclass(frozen=True)
class SimResult(Displayable):
    """A simulation's result: ``rows`` best first (see the module docstring); in a notebook
    a table of them (:mod:`wordsalvo.render.notebook`)."""

    _display_kind = "SimResult"

    rows: tuple[SimRow, ...]
    iterations: int  #: iterations of the candidates still in
    seconds: float  #: wall-clock time
    nodes: int  #: turns played (candidates and rollout plies)
    stop: str  #: why it stopped: iterations, seconds, one-left, exact
    plies: int
    sampling: str
    threads: int
    seed: int
    cpu_seconds: float = 0.0  #: the process's CPU time in the simulation (every thread)

    @property
    def best(self) -> SimRow:
        return self.rows[0]

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``wordsalvo sim --json``."""
        return {"plays": [r.to_dict() for r in self.rows], "iterations": self.iterations,
                "seconds": round(self.seconds, 4)}

    def table(self, top: int | None = None) -> str:
        """The rows as a text table (the first ``top``)."""
        rows = self.rows if top is None else self.rows[:top]
        width = max([len("move")] + [len(r.move) for r in rows])
        out = [f"{'#':>3}  {'move':<{width}}  {'static':>7}  {'equity':>7}  {'± se':>6}  {'win':>6}  {'iters':>6}"]
        for i, r in enumerate(rows):
            eq = "" if r.equity is None else f"{r.equity:7.2f}"
            se = "" if r.stderr is None else f"{r.stderr:6.2f}"
            win = "" if r.win is None else f"{100 * r.win:5.1f}%"
            mark = "" if r.alive else "  (dropped)"
            out.append(f"{i + 1:>3}  {r.move:<{width}}  {r.static_equity:7.2f}  {eq:>7}  {se:>6}  {win:>6}  "
                       f"{r.iterations:>6}{mark}")
        return "\n".join(out)

    def summary(self) -> str:
        rate = f", {self.nodes_per_second:,.0f} plies/s" if self.seconds > 0 else ""
        return (f"{self.iterations} iterations, {self.plies} plies, {self.sampling}, {self.threads} "
                f"thread{'s' if self.threads != 1 else ''}, {self.seconds:.2f} s{rate} (stopped: {self.stop})")


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), digits)


@lru_cache(maxsize=8)
def win_table(model: WinModel, unseen_max: int) -> np.ndarray:
    """P(the player on turn wins) by [tiles unseen][spread + WIN_SPREAD] for unseen
    0..unseen_max: the model evaluated once, read by the C simulator (linear between
    whole points, clamped beyond the ends)."""
    spreads = np.arange(-WIN_SPREAD, WIN_SPREAD + 1, dtype=np.float64)
    unseen = np.arange(0, unseen_max + 1, dtype=np.float64)
    p = np.asarray(model.probability(spreads[None, :], unseen[:, None]), dtype=np.float32)
    table = np.ascontiguousarray(np.clip(p, 0.0, 1.0))
    table.setflags(write=False)
    return table


def _whole(value: Any, name: str, low: int, high: int | None = None) -> int:
    return whole_arg(value, name, WordSalvoError, low=low, high=high)


class Simulator:
    """A simulation set up and run in steps (:func:`simulate` runs one to the end).

    The arguments are :func:`simulate`'s; ``model`` is the win-probability model
    (default: the one shipped for the rule set, if any; False: none); ``cpu_time``:
    ``seconds`` counts the CPU time of the simulation's threads (``seconds`` each), not
    the wall clock, so other work on a loaded machine does not shorten it.  ``step(s)``
    works for about ``s`` seconds (whole rounds) and returns whether it is done;
    ``result()`` is the table so far.
    """

    def __init__(self, game_or_position, lexicon: Lexicon | None = None, leaves: Leaves | None = None, *,
                 plays: int = 15, moves=None, plies: int = 2, iterations: int | None = None,
                 seconds: float | None = None, threads: int = 1, sampling: str = "bai", seed: int = 0,
                 model: WinModel | bool | None = None, cpu_time: bool = False, infer=None,
                 spread_weight: float = 0.0, spread_scale: float = SPREAD_SCALE, _fresh_searches: bool = False):
        plays = _whole(plays, "plays", 1, _engine.SIM_MAX_CANDIDATES - 1)
        plies = _whole(plies, "plies", 0, MAX_PLIES)
        threads = _whole(threads, "threads", 1, MAX_THREADS)
        seed = _whole(seed, "seed", 0, (1 << 64) - 1)
        if iterations is not None:
            iterations = _whole(iterations, "iterations", 1, _engine.SIM_MAX_ITERATIONS)
        if seconds is not None:
            seconds = number_arg(seconds, "seconds", above=0, high=1e7, expected="a number of seconds > 0")
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if sampling not in SAMPLINGS:
            raise WordSalvoError(f"sampling: expected one of {', '.join(SAMPLINGS)}, got {sampling!r}")
        spread_weight = number_arg(spread_weight, "spread_weight", low=0, high=100,
                                   expected="a weight from 0 to 100")
        spread_scale = number_arg(spread_scale, "spread_scale", above=0, high=1e6,
                                  expected="points above 0, at most 1e6")
        game = None
        if _is_game(game_or_position):
            game = game_or_position
            if game.is_over:
                raise WordSalvoError(f"simulate: the game is over ({game.end_reason})")
            rules = game.rules
            lexicon = lexicon if lexicon is not None else game.lexicon
            pos = game._position()
            state = game.state()
        elif isinstance(game_or_position, Position):
            pos = game_or_position
            rules = pos.rules
            lexicon = lexicon if lexicon is not None else Lexicon.default(rules.alphabet.name)
            state = state_from_position(pos)
        else:
            raise WordSalvoError(f"simulate: expected a Game or a Position, got {type(game_or_position).__name__}")
        if len(pos.racks) != 2:
            raise WordSalvoError(f"simulate: expected a two-player game, got {len(pos.racks)} players")
        if not isinstance(lexicon, Lexicon):
            raise WordSalvoError(f"lexicon: expected a wordsalvo.Lexicon or None, got {type(lexicon).__name__}")
        if leaves is None:
            try:
                leaves = Leaves.default(rules)
            except WordSalvoError:  # no table shipped for the rule set: every leave is worth 0
                leaves = Leaves.zeros(rules)
        elif not isinstance(leaves, Leaves):
            raise WordSalvoError(f"leaves: expected a wordsalvo.Leaves or None, got {type(leaves).__name__}")
        if model is None:
            try:
                model = WinModel.default(rules)
            except WordSalvoError:
                model = None
        elif model is False:
            model = None
        elif not isinstance(model, WinModel):
            raise WordSalvoError(f"model: expected a WinModel, False or None, got {type(model).__name__}")
        else:
            model.check_rules(rules)
        self.rules, self.lexicon, self.leaves, self.model = rules, lexicon, leaves, model
        self.plies, self.threads, self.sampling, self.seed = plies, threads, sampling, seed
        me = pos.to_move
        opp = 1 - me
        if not pos.racks[me]:
            raise PositionError("simulate: expected a rack on turn, got an empty rack")
        # the mover's view: the opponent's rack is unknown (drawn in every iteration); a
        # probe with a rack of the right size for the opponent gives the real bag count
        probe = state.copy()
        probe.return_rack(opp)
        probe.draw(opp, min(rules.rack_size, probe.bag_count))
        self._probe = probe
        if game is not None and lexicon is game.lexicon:
            gen = game.generator(leaves)
            view = pos
        else:
            gen = MoveGenerator(lexicon, rules, leaves=leaves)
            racks = list(pos.racks)
            racks[opp] = rack_letters(rules, probe.rack_codes(opp))
            view = Position(rules, pos.board.copy(), racks, list(pos.scores), pos.scoreless_count, to_move=me)
        gen._prepare_best(wordmap=True)  # thousands of searches: the word map pays at once
        self._gen, self._view, self._game = gen, view, game
        actions = self._given(moves) if moves is not None else self._best(plays)
        self.actions = tuple(actions)
        self.notations = tuple(_notation(a) for a in actions)
        cands = []
        for a in actions:
            if isinstance(a, Play):
                cands.append(("play", a.move.to_record()))
            elif isinstance(a, Swap):
                cands.append(("swap", letter_counts(rules, a.tiles)))
            else:
                cands.append(("pass", None))
        table = win_table(model, rules.tile_count) if model is not None else None
        self.inference = self._inference(infer, game)
        self._sim = _engine.Simulation(state, gen._gen, leaves._table, leaves.best_value, cands, plies, sampling,
                                        threads, iterations or 0, seconds or 0.0, seed, table, DELTA,
                                        MIN_ITERATIONS, bool(cpu_time), _infer_arrays(rules, self.inference),
                                        bool(_fresh_searches), float(spread_weight), float(spread_scale))
        #: the spread's weight in the utility (0: the win chance alone), see the module docstring
        self.spread_weight, self.spread_scale = float(spread_weight), float(spread_scale)
        self.done = False

    def _inference(self, infer, game):
        """The Inference the opponent's rack is drawn from (None: uniformly)."""
        from .inference import Inference, infer_game

        if infer is None or infer is False:
            return None
        if infer is True:
            if game is None:
                raise WordSalvoError("infer=True: expected a Game (its last turn is what is inferred from); "
                                     "with a Position, give infer=wordsalvo.engine.inference.infer(...)")
            found = infer_game(game, self.lexicon, self.leaves)
            return found if found is not None and len(found) else None
        if not isinstance(infer, Inference):
            raise WordSalvoError(f"infer: expected an Inference, True, False or None, got {type(infer).__name__}")
        return infer if len(infer) else None

    # -- candidates ---------------------------------------------------------------------
    def _best(self, plays: int) -> list[Action]:
        """The ``plays`` best placements by static equity and the best exchange allowed now."""
        if self._game is not None and self._view is self._game._position():
            ml = self._game.top(plays, by="equity", leaves=self.leaves)
        else:
            ml = self._gen.top(self._view, plays, by="equity")
        actions: list[Action] = [Play(m, equity=float(m.equity)) for m in ml]
        swap = self._gen.best_swap(self._view) if self._view.rack else None
        if swap is not None and self._probe.swap_check(letter_counts(self.rules, swap.tiles)) is None:
            actions.append(swap)
        return actions or [Pass()]

    def _given(self, moves) -> list[Action]:
        if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
            raise WordSalvoError(f"moves: expected a list of moves, got {type(moves).__name__}")
        out: list[Action] = []
        for m in moves:
            out.append(self._action(m))
        if not 1 <= len(out) <= _engine.SIM_MAX_CANDIDATES:
            raise WordSalvoError(f"moves: expected 1..{_engine.SIM_MAX_CANDIDATES} moves, got {len(out)}")
        return out

    def _action(self, m) -> Action:
        view = self._view
        given = m
        if isinstance(m, Play):
            m = m.move
        if isinstance(m, Move):
            if self._game is not None and view is self._game._position() and m._token is self._game._token:
                return given if isinstance(given, Play) else Play(m, equity=m.equity)  # the game's own move
            m = m.notation
        if isinstance(m, Pass):
            return Pass()
        if isinstance(m, Swap):
            m = "-" + m.tiles
        if not isinstance(m, str):
            raise WordSalvoError(f"moves: expected notations, Moves or actions, got {type(m).__name__}")
        text = m.strip()
        low = text.lower()
        if low in ("pass", "-"):
            return Pass()
        tiles = None
        if text.startswith("-"):
            tiles = text[1:].strip()
        elif low.startswith(("exch ", "swap ")):
            tiles = text[5:].strip()
        if tiles is not None:
            tiles = normalize_rack(self.rules, tiles, where=f"exchange {text!r}")
            counts = letter_counts(self.rules, tiles)
            rack = letter_counts(self.rules, view.rack)
            if any(c > r for c, r in zip(counts, rack)):
                raise PositionError(f"exchange {text!r}: expected tiles of the rack {view.rack}, got {tiles}")
            problem = self._probe.swap_check(counts)
            if problem is not None:
                raise PositionError(f"exchange {text!r}: not allowed now ({problem})")
            return given if isinstance(given, Swap) else Swap(tiles, "", None)
        move = self._gen.validate(view, text)
        return Play(move)

    # -- running --------------------------------------------------------------------------
    def step(self, seconds: float = 0.0) -> bool:
        """Works for about ``seconds`` (whole rounds; 0: to the end); True when done."""
        if not self.done:
            self.done = self._sim.run(seconds) != "running"
        return self.done

    def run(self) -> SimResult:
        self.step(0.0)
        return self.result()

    def result(self) -> SimResult:
        sim = self._sim
        arms = sim.arms()
        with_win = self.model is not None
        rows, utilities = [], []  # the utilities: what the C sampling rule compares (ws_sim.c)
        for a, action, notation in zip(arms, self.actions, self.notations):
            utilities.append(a["utility"])
            n = a["iterations"]
            rows.append(SimRow(
                move=notation, action=action, equity=a["equity"] if n else None,
                stderr=a["stderr"] if n > 1 else None, win=a["win"] if n and with_win else None,
                iterations=n, static_equity=float(a["static_equity"]),
                win_stderr=a["win_stderr"] if n > 1 and with_win else None, alive=a["alive"]))

        def key(item):
            i, r = item
            if r.equity is None:
                return (1, 1, 0.0, -r.static_equity, i)
            return (0, 0 if r.alive else 1, -utilities[i], -r.static_equity, i)

        order = sorted(enumerate(rows), key=key)
        return SimResult(tuple(r for _i, r in order), sim.iterations, sim.seconds, sim.nodes, sim.stop,
                         self.plies, self.sampling, self.threads, self.seed, sim.cpu_seconds)


def _is_game(x: Any) -> bool:
    """A :class:`~wordsalvo.Game` (by its interface: the game module is above this one)."""
    return all(callable(getattr(x, name, None)) for name in ("state", "top", "generator", "apply"))


def _notation(a: Action) -> str:
    if isinstance(a, Play):
        return a.move.notation
    if isinstance(a, Swap):
        return "-" + a.tiles
    return "pass"


def simulate(game_or_position, lexicon: Lexicon | None = None, leaves: Leaves | None = None, *, plays: int = 15,
             moves=None, plies: int = 2, iterations: int | None = None, seconds: float | None = None,
             threads: int = 1, sampling: str = "bai", seed: int = 0, infer=None, spread_weight: float = 0.0,
             spread_scale: float = SPREAD_SCALE) -> SimResult:
    """Simulate the candidates of the player on turn (see the module docstring).

    ``game_or_position``: a :class:`~wordsalvo.Game` or a :class:`~wordsalvo.Position`
    of two players (the opponent's rack, known or not, is drawn from the unseen tiles);
    ``lexicon``: default the game's, or the rule set's embedded one; ``leaves``: the
    leave table of the candidates' equity and the rollouts (default: the shipped
    table, else zeros); ``plays``: the best placements by static equity simulated
    (plus the best exchange), or ``moves``: the candidates (notations such as
    ``"8H WORD"``, ``"-ABC"`` for an exchange, ``"pass"``, Moves or actions);
    ``plies``: turns played after the candidate; ``iterations`` and ``seconds``:
    the limits (whichever comes first; neither: :data:`DEFAULT_ITERATIONS`);
    ``threads``: C threads; ``sampling``: ``"rr"`` or ``"bai"``; ``seed``: the
    random draws (0..2**64-1); ``infer``: draw the opponent's kept tiles from an
    :class:`~wordsalvo.engine.inference.Inference` (``True`` with a Game: inferred from the
    opponent's last turn; None: the whole rack uniformly); ``spread_weight`` and
    ``spread_scale``: the utility compared, the win chance blended with a logistic of the
    spread (0: the win chance alone; see the module docstring).  Returns a
    :class:`SimResult`, best first.
    """
    return Simulator(game_or_position, lexicon, leaves, plays=plays, moves=moves, plies=plies,
                     iterations=iterations, seconds=seconds, threads=threads, sampling=sampling, seed=seed,
                     infer=infer, spread_weight=spread_weight, spread_scale=spread_scale).run()


def _infer_arrays(rules, inference) -> tuple[bytes, np.ndarray] | None:
    """The C form of an inference: RACK_MAX tile codes a leave (0xFF past its end) and the
    cumulative weights."""
    if inference is None:
        return None
    width = _engine.RACK_MAX
    codes = {"?": 0, **{c: i + 1 for i, c in enumerate(rules.alphabet.letters)}}
    raw = bytearray(b"\xff" * (width * len(inference.leaves)))
    for i, (tiles, _w) in enumerate(inference.leaves):
        if len(tiles) > width or any(ch not in codes for ch in tiles):
            raise WordSalvoError(f"infer: leave {tiles!r} is not of the {rules.name} tile set")
        for j, ch in enumerate(tiles):
            raw[i * width + j] = codes[ch]
    _tiles, cum = inference.draw_table()
    return bytes(raw), np.asarray(cum, dtype=np.float64)

"""Engine players: which action an engine takes on its turn.

A :class:`Bot` looks at the game on turn and returns an action
(:class:`~wordsalvo.actions.Play`, :class:`~wordsalvo.actions.Swap` or
:class:`~wordsalvo.actions.Pass`); :meth:`Game.apply` carries it out.  A bot
changes the CHOICE only, never the rules or the values: every play it makes is
a legal move of the game's lexicon, scored by the game's rules.

Kinds
-----
``score``
    The highest-scoring play (fixed tie order).  With no play: swap the whole
    rack when the rule set allows a swap now and its own last turn was not a
    swap, else pass.
``equity``
    The best play by equity (score + leave value, see :mod:`wordsalvo.leaves`),
    or the swap that keeps the best leave when that swap's equity is higher
    (:meth:`MoveGenerator.best_swap`).  It passes only when it can neither play
    nor swap.

``expert``
    The same choice as ``equity`` (the best the engine can do), except that it
    never plays an offensive word (below) and that with the bag empty (two
    players) it plays the endgame solver's first move, searched for at most
    :data:`EXPERT_ENDGAME_NODES` turns (:mod:`wordsalvo.engine.endgame`; a node budget,
    not a time, so that a seed replays the game on any machine); with 1-4 tiles in the
    bag it plays the pre-endgame solver's best candidate
    (:mod:`wordsalvo.engine.pre_endgame`: its :data:`EXPERT_PEG_PLAYS` best plays by equity
    and the pass over every draw, :data:`EXPERT_PEG_NODES` turns of endgame search).  It swaps when
    the best swap's equity beats the best play's and never passes while a play
    or a swap is possible.
``master``
    Looks ahead: it simulates (:mod:`wordsalvo.engine.simulation`) its best
    placements by static equity that form no offensive word (:data:`MASTER_PLAYS` at
    every budget: :func:`~wordsalvo.engine.clock.master_plays`),
    plus the best exchange, two plies deep with the static equity player, for
    ``seconds`` a move (default :data:`MASTER_SECONDS`; or a share of
    ``game_seconds`` for the whole game; or ``iterations``), with best-arm
    identification, and plays the one with the best win chance (equity breaking
    ties).  It plays as ``expert`` when the budget is 0, in games of more than two
    players, and when one candidate is all there is.  With the bag empty it asks
    the endgame solver (``wordsalvo.engine.endgame``, when that module exists) and
    simulates otherwise; with 1-4 tiles in the bag it plays the pre-endgame solver's
    best candidate, as expert but with :data:`MASTER_PEG_NODES_PER_SECOND` turns of
    endgame search per second of its budget (``pre_endgame=False``: it simulates those
    turns too).  Its choice depends on how many iterations the clock
    allows, so a seed replays it only as closely as the machine's speed does.
``hard``, ``medium``, ``easy``
    Weaker in the ways people are weaker; every level takes the same four
    steps with its own numbers (:data:`LEVEL_POLICIES`):

    1. *What it knows*: its vocabulary (:mod:`wordsalvo.lexicon.vocabulary`).  A
       person learns the frequent words of a language first: easy knows the 5,000
       most frequent words of the language that the lexicon has (of up to 6
       letters; English: 2,692 words), medium the 30,000 most frequent (up to 7
       letters; English: 15,704), hard every word of up to 7 letters (8 outside
       English), all from frequency-ranked lists shipped per language.  Every word
       it plays, cross-words included, is in its vocabulary.  The vocabularies of
       the embedded lexicons are built when the package is built, any other
       lexicon's on first use into the user's cache folder.
    2. *What it sees this turn*: plays of more than ``max_tiles`` tiles are seen
       only on a ``long_play_chance`` of turns (so it often misses the bingo,
       the way a person does not find the seven-letter anagram every time).
    3. *What it would not do*: the absurdity guards below.
    4. *What it picks*: each play it sees is worth its score plus
       ``leave_weight`` times the value of the tiles kept (a short look at the
       leave: 0 for easy, who thinks only of this turn's points); it picks
       among its ``choices`` best plays by that worth, at random with weights
       ``exp((worth - best worth) / temperature)``, so near misses are common
       and big misses rare.  It swaps when it sees no play or when the best
       swap (scaled by the same ``leave_weight``) beats its pick; so easy
       swaps only when it cannot play.

    ========  ============  ======  ============  =====  ====================================
    level     vocabulary    len     long plays    leave  feels like
    ========  ============  ======  ============  =====  ====================================
    easy      5,000 words   6       >3 tiles 5 %  0      a casual player: everyday words,
                                                         points now, a bingo almost never;
                                                         picks among its 12 best, loosely
    medium    30,000 words  7       >4 tiles 20 % 0.3    a regular: the words of newspapers
                                                         and talk, a bingo now and then, an
                                                         eye on the rack
    hard      all           7 (8)   >4 tiles 35 % 0.4    a club player: knows the odd words,
                                                         finds many bingos, minds the leave,
                                                         yet often misses the best play
    ========  ============  ======  ============  =====  ====================================

    (vocabulary: the most frequent words of the language that the lexicon has;
    len: the longest word, in brackets outside English.)  Measured (``benchmarks/levels.py``, round robins in the
    README): on wordsalvo-en easy 12.5 points a turn, medium 23.0, hard 30.6,
    expert 41.1, each level beating the one below in 93-100 % of games.

    The guards, at every level (a person who would do these is not weak but
    careless, and a weak opponent that does them is no fun to beat): a play
    that uses a blank must score ``blank_margin`` (20) points more than the best
    play without one, a play using a real S in English ``s_margin`` (8) more
    than the best play without one (a bingo always may); and of the plays left
    it never chooses one scoring less than half the best of them.  A level
    passes only when it can neither play nor swap.

    The policy changes only the CHOICE among the legal moves the game's
    generators make (a smaller lexicon is a filter on them, never new words);
    rules and values are the game's.  With no leave table shipped for the rule
    set, leaves count 0 (expert plays the best score; no level swaps while it
    can play).

A rating
    ``Bot(rating=1200, rules=rules)`` (or the level text ``"1200"``, as ``wordsalvo play
    --level 1200`` gives it): the *rated player* of :mod:`wordsalvo.engine.strength`, an
    opponent of that Glicko-2 rating anywhere from below easy to expert, on the scale of
    the named levels.  It picks among every legal play and the best swap at random with
    weights ``exp(beta * equity)``, ``beta`` read from the shipped calibration table;
    at the top (``beta = inf``) it is expert.  ``"beta=0.2"`` names the parameter
    directly (the calibration round robin's players).

Offensive words: every level (easy to expert) never plays a move that forms a
word of its language's offensive list (:mod:`wordsalvo.offensive`), as the main
word or as a cross word; people may.  Only the move a level is about to choose
is checked (a set lookup per word it forms, a few microseconds a turn); when it
forms one, the level takes its next choice (expert: the next best by equity).
The plain players ``score`` and ``equity`` are engine benchmarks and do not
filter: they play the best move whatever it spells.

Seeds: a bot's random choices come from its own ``random.Random``; the same
seed replays the same choices (:meth:`reset` re-seeds it between games).
"""

from __future__ import annotations

import math
import random
import time
import weakref
from dataclasses import dataclass

import numpy as np

from ..actions import Action, Pass, Play, Swap
from .clock import master_plays
from .._core import _engine
from ..errors import GameError
from ..inputs import number_arg, whole_arg
from ..lexicon.lexicon import Lexicon
from ..lexicon.vocabulary import level_vocabulary
from ..offensive import OffensiveWords
from ..rules import Rules

__all__ = ["Bot", "PLAYER_KINDS", "LEVELS", "LEVEL_POLICIES", "LevelPolicy", "swap_allowed", "MASTER_SECONDS",
           "MASTER_PLAYS", "MASTER_PLIES", "EXPERT_ENDGAME_NODES", "EXPERT_PEG_NODES", "MASTER_PEG_NODES_PER_SECOND",
           "PEG_PLAYS", "EXPERT_PEG_PLAYS", "EXPERT_PEG_SCHEDULE", "MASTER_PEG_SCHEDULE", "softmax_pick"]

#: the most threads of a bot's searches: the C simulator's and endgame solver's limit
MAX_THREADS: int = min(_engine.SIM_MAX_THREADS, _engine.ENDGAME_MAX_THREADS)

#: the difficulty levels, weakest first
LEVELS = ("easy", "medium", "hard", "expert", "master")
#: every kind of engine player
PLAYER_KINDS = ("score", "equity", *LEVELS)


@dataclass(frozen=True)
class LevelPolicy:
    """How a weaker level chooses (see the module docstring; the words it knows are in
    :data:`wordsalvo.lexicon.vocabulary.VOCABULARIES`)."""

    #: the fraction of a play's leave value the level counts
    leave_weight: float
    #: plays of more than this many tiles are seen only with probability ``long_play_chance``
    max_tiles: int
    long_play_chance: float
    #: the level picks among this many of its best plays ...
    choices: int
    #: ... weighted by exp((value - best value) / temperature), in points
    temperature: float
    #: a play with a blank must beat the best play without one by this many points (bingos excepted)
    blank_margin: int = 20
    #: the same for an S, in English
    s_margin: int = 8


#: master: the seconds it thinks per move by default, the placements it simulates (plus the
#: best exchange) and the plies of the rollouts
MASTER_SECONDS = 1.0
MASTER_PLAYS = 10
MASTER_PLIES = 2
#: master's utility: the win chance alone (0), or blended with a logistic of the spread at
#: this weight and scale in points (wordsalvo.engine.simulation; MAGPIE's simulation blends at
#: 0.5 and 100 by default).  0: master with the blend at 0.5 won 47.5 % (41.9-53.1) of 300
#: games against master without it, 0.25 s a move (classic-en, CSW24, 2026-12-07, see the
#: README), no gain; ``Bot("master", spread_weight=0.5)`` asks for it
MASTER_SPREAD_WEIGHT = 0.0
#: the blend's scale, in points, when a weight is asked for
MASTER_SPREAD_SCALE = 100.0
#: expert: the turns the endgame solver may search on a move once the bag is empty (the
#: best line of the last completed iteration when it is not proven by then; the same result
#: on every machine).  100,000 since killer plays are tried before generation (a turn about
#: 2.8x cheaper): on the 30 public CSW24 endgames it finds the exact first move 30 times (28
#: at 50,000 turns before) in less time than 50,000 turns took
EXPERT_ENDGAME_NODES = 100_000
#: master with ``infer=True``: the opponent's racks evaluated at most to infer what it kept
#: from its last turn (a sample of them beyond; see wordsalvo.engine.inference).  With the
#: rack loop in C, 600 draws (about 270 distinct racks) take about 18 ms a move on CSW24
#: (infer_game, a loaded 2-core machine; 400: 14 ms), under a tenth of master's 0.25 s
MASTER_INFER_RACKS = 600
#: the pre-endgame (1-4 tiles in the bag, :mod:`wordsalvo.engine.pre_endgame`): the plays
#: master and expert value (plus the pass); expert's stages (the greedy playout of every draw for every
#: candidate, then the endgames of the 2 leaders solved within 20,000 turns each) and
#: the turns its endgames may search on a move; master's stages (the playouts, then the
#: endgames of the 3 leaders within 50,000 turns each, then those of the 2 best until
#: proven) and turns per second of its budget.  Node budgets: the same choice on every
#: machine.  A stage the budget cuts is discarded (the ranking of the last one finished).
PEG_PLAYS = 8
EXPERT_PEG_PLAYS = 5
EXPERT_PEG_SCHEDULE = ((None, -1), (2, 20_000))
EXPERT_PEG_NODES = 50_000
MASTER_PEG_SCHEDULE = ((None, -1), (3, 50_000), (2, None))
MASTER_PEG_NODES_PER_SECOND = 500_000

#: what :meth:`Bot.choose` needs of the game it is given (a :class:`wordsalvo.Game`; this module
#: cannot import it: the game imports the engines)
_GAME_API = ("is_over", "legal_moves", "rack", "history", "to_move", "can_swap", "static_choice")

#: placements looked at beyond master's candidates, for those that spell offensive words
_CLEAN_SPARE = 5

#: the policy of each weaker level (expert plays the best equity move)
LEVEL_POLICIES: dict[str, LevelPolicy] = {
    "easy": LevelPolicy(0.0, 3, 0.05, 12, 12.0),
    "medium": LevelPolicy(0.3, 4, 0.2, 6, 6.0),
    "hard": LevelPolicy(0.4, 4, 0.35, 5, 6.0),
}


def swap_allowed(game, n: int) -> bool:
    """Whether the player on turn may swap ``n`` tiles now (the rule set's ``[swap]``,
    as the game state applies it: :meth:`Game.can_swap <wordsalvo.Game.can_swap>`)."""
    return game.can_swap(n)


def swap_run_endless(rules) -> bool:
    """Whether swaps alone can go on for ever under ``rules``: a swap resets the pass
    counter and no scoreless-turn limit counts swaps (wordfeud-de, wordsalvo-en and -nl)."""
    return bool(rules.swap.resets_pass_counter) and not (
        rules.end.scoreless_turns > 0 and "swap" in rules.end.scoreless_turn_kinds)


def swap_run(game) -> bool:
    """The last two turns of ``game`` (of two players) were swaps or passes where a run of
    swaps never ends the game: then no engine player swaps (it plays, or passes when it
    cannot), so two players that each prefer an exchange, or cannot play at all, reach the
    pass limit instead of exchanging for ever (the equity player; csrc/ws_action.h)."""
    history = game.history
    return (len(game.names) == 2 and len(history) >= 2 and history[-1].kind in ("swap", "pass")
            and history[-2].kind in ("swap", "pass") and history[-1].player != history[-2].player
            and swap_run_endless(game.rules))


class Bot:
    """An engine player of one kind or level (see the module docstring).

    ``lexicon`` defaults to the rule set's embedded lexicon and ``leaves`` to its
    shipped leave table (with none shipped, leaves count 0).  ``bot.choose(game)`` returns the action for the player
    on turn; the same ``seed`` replays the same choices.  ``seconds`` and ``threads``:
    ``master``'s thinking time per move (None: :data:`MASTER_SECONDS`; 0: it plays as
    expert) and its simulation threads; ``cpu_time``: ``seconds`` is CPU time per
    thread, not wall-clock time (measurements on a loaded machine); ``infer``: master
    draws the opponent's rack from what its last turn says it kept
    (:mod:`wordsalvo.engine.inference`); ``game_seconds``: master shares one budget
    out over a whole game (:class:`~wordsalvo.engine.clock.GameClock`: more on close
    and decisive turns, less on obvious ones) instead of ``seconds`` a move;
    ``iterations``: master simulates that many iterations a candidate instead of
    for a time (the same choice for a seed on any machine); the other kinds ignore
    these.
    """

    def __init__(self, level: str | None = None, rules: Rules | None = None, lexicon: Lexicon | None = None,
                 leaves=None, seed: int = 0, *, rating: float | None = None, seconds: float | None = None,
                 threads: int = 1, cpu_time: bool = False, infer: bool = False,
                 game_seconds: float | None = None, iterations: int | None = None, pre_endgame: bool = True,
                 spread_weight: float | None = None):
        from .clock import GameClock
        from .strength import RatedLevel, beta_for_rating, check_rating, parse_level, strength_table

        known = rules if isinstance(rules, Rules) else None  # checked below; None: the default table
        table = strength_table(known)  # the rule set's calibration
        if rating is not None:
            if level is not None:
                raise GameError(f"expected a level or a rating, got both (level {level!r}, rating {rating!r})")
            value = check_rating(rating, table)
            rated: RatedLevel | None = RatedLevel(beta_for_rating(value, table), value)
        elif level is None:
            raise GameError(f"expected a level ({', '.join(PLAYER_KINDS)}) or rating=R, got neither")
        else:
            rated = parse_level(level, PLAYER_KINDS, rules=known)
        #: the rated player's strength (None: a named kind)
        self.rated = rated
        if rated is not None:
            level = rated.name
        if not isinstance(rules, Rules):
            raise GameError(f"expected a Rules object, got {type(rules).__name__}")
        if seconds is None:
            seconds = MASTER_SECONDS
        self.seconds = number_arg(seconds, "seconds", GameError, low=0, high=1e6,
                                  expected="a number of seconds >= 0 (at most 1e6)")
        self.threads = whole_arg(threads, "threads", GameError, low=1, high=MAX_THREADS)
        self.cpu_time = bool(cpu_time)
        if not isinstance(infer, bool):
            raise GameError(f"infer: expected True or False, got {infer!r}")
        #: master: draw the opponent's rack in its simulations from what its last turn says
        #: it kept (wordsalvo.engine.inference) instead of uniformly
        self.infer = infer
        if game_seconds is not None:
            GameClock(game_seconds)  # checks it
        if iterations is not None:
            iterations = whole_arg(iterations, "iterations", GameError, low=1, high=10_000_000,
                                   expected="a whole number 1..10000000 or None")
        if iterations is not None and game_seconds is not None:
            raise GameError("expected game_seconds (a clock) or iterations (a fixed budget), got both")
        #: master: one budget for the whole game (seconds), shared out by a GameClock
        self.game_seconds = None if game_seconds is None else float(game_seconds)
        #: master: a budget in iterations per candidate instead of time (the same choice on any machine)
        self.iterations = iterations
        self._clocks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        #: expert and master solve the pre-endgame (1-4 tiles in the bag; False: they play
        #: those turns as on any other, a benchmark's control)
        self.pre_endgame = bool(pre_endgame)
        #: master: the spread's weight in the utility its simulation compares (0: the win chance
        #: alone; None: MASTER_SPREAD_WEIGHT)
        self.spread_weight = MASTER_SPREAD_WEIGHT if spread_weight is None else number_arg(
            spread_weight, "spread_weight", GameError, low=0, high=100, expected="a weight from 0 to 100 or None")
        self.level = level
        self.rules = rules
        self.lexicon = lexicon if lexicon is not None else Lexicon.default(rules.alphabet.name)
        #: the leave table given, or None: the shipped one, loaded at the first move (a game's
        #: start does not wait for it)
        self._leaves = leaves
        self._leaves_loaded = level == "score" or leaves is not None
        self.policy = LEVEL_POLICIES.get(level) if rated is None else None
        #: the words the level knows (None: all of the game's lexicon)
        self.vocabulary = None
        if self.policy is not None:
            self.vocabulary = level_vocabulary(level, self.lexicon)
        self._s_code = rules.alphabet.code("S") if rules.alphabet.name == "en" else -1
        #: the levels never play an offensive word; the plain players score and equity are
        #: engine benchmarks and do not filter
        self.avoid_offensive = level in LEVELS or rated is not None
        self.offensive = OffensiveWords.default(self.lexicon.alphabet.name)
        self.rng = random.Random()
        self.reset(seed)

    @property
    def leaves(self):
        """The leave table (None: leaves count 0; the ``score`` player has none)."""
        if not self._leaves_loaded:
            from ..leaves import Leaves, LeavesError

            try:
                self._leaves = Leaves.default(self.rules)
            except LeavesError:  # no table shipped for this rule set: leaves count 0
                self._leaves = None
            self._leaves_loaded = True
        return None if self.level == "score" else self._leaves

    @property
    def _swap_ceiling(self) -> float:
        """No swap can be worth more than the best leave of the table."""
        leaves = self.leaves
        return leaves.best_value if leaves is not None else 0.0

    def reset(self, seed: int) -> None:
        """Re-seed the bot's random choices (the same seed replays the same choices)."""
        self.seed = seed
        self.rng.seed(f"wordsalvo-bot-{self.level}-{seed}")

    def __repr__(self) -> str:
        if self.rated is not None and self.rated.rating is not None:
            return f"Bot(rating={self.rated.rating:g}, rules=Rules.preset({self.rules.name!r}), seed={self.seed})"
        return f"Bot({self.level!r}, Rules.preset({self.rules.name!r}), seed={self.seed})"

    def choose(self, game) -> Action:
        """The action to take for the player on turn in ``game``."""
        if not all(hasattr(type(game), name) for name in _GAME_API):  # the Game sits above the engines
            from ..inputs import excerpt

            raise GameError(f"choose: game: expected a Game, got {type(game).__name__} {excerpt(game)}")
        if game.is_over:
            raise GameError(f"the game is over ({game.end_reason}); expected a running game")
        if self.level == "score":
            return self._choose_score(game)
        if self.level == "master":
            clock = self._clock(game)
            if clock is None:
                return self._choose_master(game)
            started = self._now()
            try:
                return self._choose_master(game)
            finally:  # the whole move: candidates, inference, simulation, endgame
                clock.charge(self._now() - started)
        if self.level == "expert":
            return self._choose_expert(game)
        if self.rated is not None:
            return self._choose_rated(game)
        if self.policy is None:
            return self._choose_equity(game)
        return self._choose_level(game)

    # -- kinds -------------------------------------------------------------------------------
    def _choose_score(self, game) -> Action:
        """The static score player (csrc/ws_action.h, through Game.static_choice)."""
        last = _last_kind(game)
        action = game.static_choice("score", last_kind=last).action
        if self.avoid_offensive and isinstance(action, Play) and self.offensive.is_offensive(action.move):
            # the best play that spells no offensive word, or the score player's fallback
            action = game.static_choice("score", last_kind=last, given=game.best_move(avoid_offensive=True)).action
        return action

    def _best_swap(self, game):
        """The swap that keeps the best leave, when the rules allow one now (the static
        equity player's swap with no play to weigh it against)."""
        return game.static_choice("equity", leaves=self.leaves, given=None).swap

    def _choose_equity(self, game) -> Action:
        """The static equity player (csrc/ws_action.h, through Game.static_choice)."""
        leaves = self.leaves
        if leaves is None:  # no leave table: equity is the score
            return self._choose_score(game)
        last = "swap-run" if swap_run(game) else None
        ceiling = self._swap_ceiling
        action = game.static_choice("equity", leaves=leaves, last_kind=last, swap_ceiling=ceiling).action
        if self.avoid_offensive and isinstance(action, Play) and self.offensive.is_offensive(action.move):
            # the best play that spells no offensive word, weighed against the swap
            clean = game.best_move(by="equity", leaves=leaves, avoid_offensive=True)
            action = game.static_choice("equity", leaves=leaves, last_kind=last, swap_ceiling=ceiling,
                                        given=clean).action
        return action

    def _choose_expert(self, game) -> Action:
        """The endgame solver's move with the bag empty (two players), the pre-endgame
        solver's with 1-4 tiles in it, else by equity."""
        if game.bag_count == 0 and len(game.names) == 2 and len(game.players_left) == 2 and game.rack:
            action = self._endgame(game, nodes=EXPERT_ENDGAME_NODES)
            if action is not None:
                return action
        if self._in_pre_endgame(game):
            action = self._pre_endgame_move(game, EXPERT_PEG_NODES, EXPERT_PEG_SCHEDULE, EXPERT_PEG_PLAYS)
            if action is not None:
                return action
        return self._choose_equity(game)

    def _in_pre_endgame(self, game) -> bool:
        from .pre_endgame import PEG_MAX_BAG, PEG_MIN_BAG

        return (self.pre_endgame and PEG_MIN_BAG <= game.bag_count <= PEG_MAX_BAG and len(game.names) == 2
                and len(game.players_left) == 2 and bool(game.rack))

    def _pre_endgame_move(self, game, nodes: int, schedule, plays: int, seconds: float | None = None) -> Action | None:
        """The pre-endgame solver's best candidate (:mod:`wordsalvo.engine.pre_endgame`)
        among the best ``plays`` plays by equity that form no offensive word and
        the pass, within ``nodes`` turns of endgame search (and ``seconds``, when given,
        of CPU time for a bot that counts CPU time); None when the rule set is not one it
        solves or the search did not finish."""
        from ..errors import WordSalvoError
        from .pre_endgame import solve_pre_endgame

        leaves = self.leaves
        if leaves is not None:
            moves = game.top(plays + _CLEAN_SPARE, by="equity", leaves=leaves)
        else:
            moves = game.top(plays + _CLEAN_SPARE)
        clean = [m for m in moves if not self.offensive.is_offensive(m)][:plays]
        try:
            result = solve_pre_endgame(game.position(), self.lexicon, nodes=nodes, seconds=seconds,
                                       cpu_time=self.cpu_time, candidates=[*clean, None], leaves=leaves,
                                       schedule=schedule)
        except WordSalvoError:  # e.g. a rule set whose endgame the solver refuses
            return None
        best = result.best
        if not best.complete:
            return None
        if best.move is None:
            return Pass()
        move = next((m for m in clean if m.notation == best.action), None)
        if move is None:
            return None
        return Play(move, equity=None if move.equity is None else float(move.equity))

    def _choose_master(self, game) -> Action:
        """Simulation within the budget (see the module docstring)."""
        if self.seconds <= 0 or len(game.names) != 2 or len(game.players_left) != 2 or not game.rack:
            return self._choose_expert(game)
        clock = self._clock(game)
        started = self._now()
        # on a game clock the endgame and the pre-endgame get this move's share of it, as a
        # time limit (a clock is not reproducible anyway); else the move's own budget
        share = None if clock is None else clock.allot(game.bag_count, game.rules.rack_size, None)
        if game.bag_count == 0:
            action = self._endgame(game, seconds=share)
            if action is not None:
                return action
        if self._in_pre_endgame(game):
            budget = self.seconds if share is None else share
            # the node budget for the usual case, and the move's time as a cap: with 3-4 tiles
            # in the bag the draws' own work can take several times the nodes' time (a
            # "0.25 s" move had taken 2 s of CPU); with an iteration budget, nodes alone
            # (the same answer on every machine)
            cap = None if self.iterations is not None else budget
            action = self._pre_endgame_move(game, max(1, int(MASTER_PEG_NODES_PER_SECOND * budget)),
                                            MASTER_PEG_SCHEDULE, PEG_PLAYS, seconds=cap)
            if action is not None:
                return action
        leaves = self.leaves
        candidates: list[Action] = []
        # the placements to simulate, by the budget (master_plays: the same number at every
        # budget since growing them lost games; the clock's plan for this move before it
        # knows how close the candidates are: at most its largest share)
        if self.iterations is not None:
            plays = MASTER_PLAYS
        elif clock is not None:
            plays = master_plays(clock.allot(game.bag_count, game.rules.rack_size, 0.0))
        else:
            plays = master_plays(self.seconds)
        if leaves is not None:
            moves = game.top(plays + _CLEAN_SPARE, by="equity", leaves=leaves)
        else:
            moves = game.top(plays + _CLEAN_SPARE)
        for m in moves:
            if not self.offensive.is_offensive(m):
                candidates.append(Play(m, equity=None if m.equity is None else float(m.equity)))
                if len(candidates) == plays:
                    break
        if not candidates:  # every good play spells an offensive word: expert's search for a clean one
            return self._choose_equity(game)
        swap = self._best_swap(game) if leaves is not None else None
        if swap is not None:
            candidates.append(swap)
        if len(candidates) == 1:
            return candidates[0]
        # what the move has left: a pre-endgame search that did not finish used some of it
        seconds = max(self.seconds - (self._now() - started), 0.25 * self.seconds)
        if clock is not None:
            ranked = sorted((c.equity for c in candidates if c.equity is not None), reverse=True)
            gap = ranked[0] - ranked[1] if len(ranked) >= 2 else None
            seconds = clock.allot(game.bag_count, game.rules.rack_size, gap)
            keep = master_plays(seconds)
            if keep < plays:  # the share came out smaller than the plan: fewer candidates
                plays_kept = [c for c in candidates if isinstance(c, Play)][:keep]
                candidates = plays_kept + [c for c in candidates if not isinstance(c, Play)]
        from .simulation import Simulator

        seed = (self.seed * 1_000_003 + len(game.history)) % (1 << 64)
        inference = None
        if self.infer and leaves is not None:
            from .inference import infer_game

            inference = infer_game(game, self.lexicon, leaves, limit=MASTER_INFER_RACKS, seed=seed)
        limit = {"iterations": self.iterations} if self.iterations is not None else {"seconds": seconds}
        result = Simulator(game, self.lexicon, leaves, moves=candidates, plies=MASTER_PLIES, threads=self.threads,
                           sampling="bai", seed=seed, cpu_time=self.cpu_time, infer=inference,
                           spread_weight=self.spread_weight, spread_scale=MASTER_SPREAD_SCALE, **limit).run()
        return result.best.action

    def _now(self) -> float:
        """The clock of master's budgets: this process's CPU time with ``cpu_time``, else
        the wall clock."""
        return time.process_time() if self.cpu_time else time.perf_counter()

    def _clock(self, game):
        """The GameClock of ``game`` (master with ``game_seconds``), else None."""
        if self.game_seconds is None:
            return None
        from .clock import GameClock

        clock = self._clocks.get(game)
        if clock is None:
            clock = self._clocks[game] = GameClock(self.game_seconds)
        return clock

    def clock(self, game):
        """The GameClock master keeps for ``game`` (``game_seconds``), or None."""
        return self._clock(game)

    def _endgame(self, game, *, nodes: int | None = None, seconds: float | None = None) -> Action | None:
        """The endgame solver's move with the bag empty (``wordsalvo.engine.endgame``) within
        ``nodes`` turns searched, or ``seconds`` (None for both: the bot's time budget,
        ``self.seconds``), or None when there is no solver, the rule set
        is not one it solves, or its move spells an offensive word (then the master
        simulates, the expert plays by equity)."""
        try:
            from .endgame import solve_endgame  # type: ignore[import-not-found]
        except ImportError:  # the solver is not part of this build
            return None
        from ..errors import WordSalvoError

        try:
            if nodes is not None:
                result = solve_endgame(game.position(), self.lexicon, nodes=nodes, threads=self.threads)
            else:
                result = solve_endgame(game.position(), self.lexicon, seconds=seconds or self.seconds,
                                       threads=self.threads)
        except WordSalvoError:  # e.g. a rule set that lets a player swap with an empty bag
            return None
        first = result.moves[0] if result.moves else None
        if first is None:
            return Pass() if result.pv and result.pv[0] == "pass" else None
        move = next((m for m in game.legal_moves() if m == first), None)
        if move is None or self.offensive.is_offensive(move):
            return None
        return Play(move)

    def _choose_level(self, game) -> Action:
        pol = self.policy
        rng = self.rng
        moves = game.legal_moves(leaves=self.leaves, vocabulary=self.vocabulary)
        if len(moves) == 0 and self.vocabulary is not None:
            moves = game.legal_moves(leaves=self.leaves)  # nothing in its vocabulary: it tries harder
        pick = self._pick(moves, pol, rng)
        excluded: list[int] = []
        while pick is not None and self.offensive.is_offensive(moves[pick[0]]):
            excluded.append(pick[0])  # never an offensive word: the next choice
            pick = self._pick(moves, pol, rng, excluded)
        if self.leaves is None:  # no leave table: no swap is better than a play
            return Play(moves[pick[0]]) if pick is not None else self._fallback(game)
        swap = None
        if pick is None or pick[1] < self._swap_ceiling * pol.leave_weight:
            swap = self._best_swap(game)
        swap_value = swap.equity * pol.leave_weight if swap is not None else -math.inf
        if pick is not None and pick[1] >= swap_value:
            move = moves[pick[0]]
            return Play(move, equity=float(move.equity))
        if swap is not None:
            return swap
        return Pass()

    def _choose_rated(self, game) -> Action:
        """A softmax over equity with the rated player's ``beta`` (:mod:`wordsalvo.engine.strength`)."""
        beta = self.rated.beta
        if beta == math.inf:  # expert's choice (the endgame solver with the bag empty)
            return self._choose_expert(game)
        leaves = self.leaves
        moves = game.legal_moves(leaves=leaves)
        n = len(moves)
        if n:
            value = (moves.equities if leaves is not None else moves.scores).astype(np.float64)
        else:
            value = np.zeros(0)
        swap = self._best_swap(game) if leaves is not None else None
        if swap is not None:
            value = np.append(value, float(swap.equity))
        if len(value) == 0:
            return self._fallback(game) if leaves is None else Pass()
        rng = self.rng
        offensive = np.zeros(len(value), dtype=bool)
        for _ in range(len(value)):  # each round returns or rules out one offensive play drawn
            k = softmax_pick(value, beta, rng, excluded=offensive)
            if k is None:  # every play spells an offensive word and no swap is allowed
                break
            if k == n:
                return Swap(swap.tiles, swap.leave, float(swap.equity))
            move = moves[k]
            if not self.offensive.is_offensive(move):
                return Play(move, equity=float(move.equity)) if leaves is not None else Play(move)
            offensive[k] = True  # never an offensive word: that play is out, draw again
        return self._fallback(game) if leaves is None else Pass()  # every play was offensive

    def _pick(self, moves, pol: LevelPolicy, rng: random.Random, excluded=()) -> tuple[int, float] | None:
        """(index, value) of the play the level chooses from ``moves``, or None; never one
        of the indices ``excluded``.

        Only cheap columns are read for the whole list (score, tiles played, blank mask,
        tiles); leave values are looked up for the few plays that pass the guards."""
        n = len(moves)
        if n == len(excluded):
            return None
        rec = moves._records  # the raw records (to_numpy() would copy them to add the leave columns)
        score = rec["score"].astype(np.int64)
        played = rec["tiles_played"]
        keep = np.ones(n, dtype=bool)
        keep[list(excluded)] = False
        size = self.rules.rack_size
        # fewer long plays: on most turns the level does not see them (then it misses the bingo)
        long = played > pol.max_tiles
        if (long & keep).any() and (keep & ~long).any() and rng.random() >= pol.long_play_chance:
            keep &= ~long
        # never spend a blank (or an S in English) for a few points
        bingo = played >= size
        uses_blank = rec["blank_mask"] != 0
        for uses, margin in ((uses_blank, pol.blank_margin), (self._uses_s(rec), pol.s_margin)):
            if uses is None or not uses.any():
                continue
            without = keep & ~uses
            if without.any():
                keep &= ~uses | bingo | (score >= score[without].max() + margin)
        # never far down the list when a natural play scores double
        best_score = score[keep].max()
        keep &= score * 2 >= best_score
        idx = np.nonzero(keep)[0]
        value = score[idx].astype(np.float64)
        lv = moves._leave_values
        if lv is not None and pol.leave_weight:
            value += pol.leave_weight * lv.leave_values(rec[idx]).astype(np.float64)
        order = np.lexsort((idx, -value))[: pol.choices]
        top = value[order]
        weights = np.exp((top - top[0]) / pol.temperature)
        r = rng.random() * float(weights.sum())
        k = int(np.searchsorted(np.cumsum(weights), r, side="right"))
        k = min(k, len(order) - 1)
        return int(idx[order[k]]), float(top[k])

    def _uses_s(self, rec):
        """Which records place a real S (not a blank standing for one); None outside English."""
        if self._s_code < 0:
            return None
        hit = rec["tiles"] == self._s_code
        uses = hit.any(axis=1)
        mask = rec["blank_mask"]
        check = np.nonzero(uses & (mask != 0))[0]  # an S of a move with a blank may be the blank
        if len(check):
            bits = ((mask[check].astype(np.int64)[:, None] >> np.arange(hit.shape[1])[None, :]) & 1) != 0
            uses[check] = (hit[check] & ~bits).any(axis=1)
        return uses

    def _fallback(self, game) -> Action:
        """No play: swap the whole rack if allowed and the last own turn was not a swap, else
        pass (the static score player's choice without a play)."""
        return game.static_choice("score", last_kind=_last_kind(game), given=None).action


def _last_kind(game) -> str | None:
    """``"swap"`` when the last turn of the player on turn (settlements aside) was a swap,
    else None: the score player does not swap its whole rack twice in a row."""
    me = game.to_move
    for t in reversed(game.history):
        if t.player == me and t.kind != "settle":
            return "swap" if t.kind == "swap" else None
    return None


def softmax_pick(value, beta: float, rng: random.Random, excluded=None) -> int | None:
    """The index drawn from ``value`` with weights ``exp(beta * value)`` (one ``rng.random()``),
    never one marked in the boolean array ``excluded``; None when every index is excluded.

    Total and stable for any finite ``beta`` and finite values: the weights are
    ``exp(beta * (value - ref))`` with ``ref`` the value of the largest weight, so every
    exponent is <= 0, the best weight is exactly 1 and nothing overflows; an excluded or
    underflowed weight is 0 and is never drawn (a draw rounded to the top of the sum takes the
    last index of positive weight).  A non-finite ``beta`` or value is a GameError, never a NaN.

    The arithmetic is C's (``csrc/ws_rated.c`` ``ws_softmax_pick``: libm's ``exp``, sums in
    index order), the draw of the rated player in the C self-play loop too, so both pick
    the same index from the same random number (numpy's vectorised ``exp`` may differ from
    libm's in the last bit)."""
    value = np.ascontiguousarray(value, dtype=np.float64)
    if not math.isfinite(beta) or not np.isfinite(value).all():
        raise GameError(f"the rated player's draw: expected a finite strength parameter and finite "
                        f"equities, got beta {beta!r} and {int((~np.isfinite(value)).sum())} non-finite "
                        f"values of {len(value)}")
    if excluded is not None:
        excluded = np.asarray(excluded, dtype=bool)
        if excluded.shape != value.shape:
            raise GameError(f"the rated player's draw: expected {len(value)} exclusion flags, got shape "
                            f"{excluded.shape}")
    if not len(value) or (excluded is not None and excluded.all()):
        return None
    return int(_engine.softmax_pick(value, float(beta), excluded, rng.random()))

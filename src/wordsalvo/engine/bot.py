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
    not a time, so that a seed replays the game on any machine).  It swaps when
    the best swap's equity beats the best play's and never passes while a play
    or a swap is possible.
``master``
    Looks ahead: it simulates (:mod:`wordsalvo.engine.simulation`) its best
    :data:`MASTER_PLAYS` placements by static equity that form no offensive word,
    plus the best exchange, two plies deep with the static equity player, for
    ``seconds`` a move (default :data:`MASTER_SECONDS`), with best-arm
    identification, and plays the one with the best win chance (equity breaking
    ties).  It plays as ``expert`` when the budget is 0, in games of more than two
    players, and when one candidate is all there is.  With the bag empty it asks
    the endgame solver (``wordsalvo.engine.endgame``, when that module exists) and
    simulates otherwise.  Its choice depends on how many iterations the clock
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
from dataclasses import dataclass

import numpy as np

from ..actions import Action, Pass, Play, Swap
from ..errors import GameError
from ..lexicon.lexicon import Lexicon
from ..lexicon.vocabulary import level_vocabulary
from ..offensive import OffensiveWords
from ..rules import Rules

__all__ = ["Bot", "PLAYER_KINDS", "LEVELS", "LEVEL_POLICIES", "LevelPolicy", "swap_allowed", "MASTER_SECONDS",
           "MASTER_PLAYS", "MASTER_PLIES", "EXPERT_ENDGAME_NODES", "softmax_pick"]

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
#: expert: the turns the endgame solver may search on a move once the bag is empty (the
#: best line of the last completed iteration when it is not proven by then; about half a
#: second at the solver's node rate, and the same result on every machine)
EXPERT_ENDGAME_NODES = 50_000

#: what :meth:`Bot.choose` needs of the game it is given (a :class:`wordsalvo.Game`; this module
#: cannot import it: the game imports the engines)
_GAME_API = ("is_over", "legal_moves", "rack", "history", "to_move", "can_swap")

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


class Bot:
    """An engine player of one kind or level (see the module docstring).

    ``lexicon`` defaults to the rule set's embedded lexicon and ``leaves`` to its
    shipped leave table (with none shipped, leaves count 0).  ``bot.choose(game)`` returns the action for the player
    on turn; the same ``seed`` replays the same choices.  ``seconds`` and ``threads``:
    ``master``'s thinking time per move (None: :data:`MASTER_SECONDS`; 0: it plays as
    expert) and its simulation threads; ``cpu_time``: ``seconds`` is CPU time per
    thread, not wall-clock time (measurements on a loaded machine); the other kinds
    ignore these.
    """

    def __init__(self, level: str | None = None, rules: Rules | None = None, lexicon: Lexicon | None = None,
                 leaves=None, seed: int = 0, *, rating: float | None = None, seconds: float | None = None,
                 threads: int = 1, cpu_time: bool = False):
        from .strength import RatedLevel, beta_for_rating, check_rating, parse_level

        if rating is not None:
            if level is not None:
                raise GameError(f"expected a level or a rating, got both (level {level!r}, rating {rating!r})")
            value = check_rating(rating)
            rated: RatedLevel | None = RatedLevel(beta_for_rating(value), value)
        elif level is None:
            raise GameError(f"expected a level ({', '.join(PLAYER_KINDS)}) or rating=R, got neither")
        else:
            rated = parse_level(level, PLAYER_KINDS)
        #: the rated player's strength (None: a named kind)
        self.rated = rated
        if rated is not None:
            level = rated.name
        if not isinstance(rules, Rules):
            raise GameError(f"expected a Rules object, got {type(rules).__name__}")
        if seconds is None:
            seconds = MASTER_SECONDS
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= 1e6:
            raise GameError(f"seconds: expected a number of seconds >= 0, got {seconds!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise GameError(f"threads: expected a whole number 1..64, got {threads!r}")
        self.seconds = float(seconds)
        self.threads = threads
        self.cpu_time = bool(cpu_time)
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
            return self._choose_master(game)
        if self.level == "expert":
            return self._choose_expert(game)
        if self.rated is not None:
            return self._choose_rated(game)
        if self.policy is None:
            return self._choose_equity(game)
        return self._choose_level(game)

    # -- kinds -------------------------------------------------------------------------------
    def _choose_score(self, game) -> Action:
        move = game.best_move(avoid_offensive=self.avoid_offensive)
        if move is not None:
            return Play(move)
        return self._fallback(game)

    def _best_swap(self, game):
        if not game.rack or not swap_allowed(game, len(game.rack) if game.rules.swap.whole_rack else 1):
            return None
        swap = game.best_swap(self.leaves)
        if swap is not None and not swap_allowed(game, len(swap.tiles)):
            return None
        return swap

    def _choose_equity(self, game) -> Action:
        if self.leaves is None:  # no leave table: equity is the score
            return self._choose_score(game)
        move = game.best_move(by="equity", leaves=self.leaves, avoid_offensive=self.avoid_offensive)
        swap = None
        if move is None or move.equity < self._swap_ceiling:
            swap = self._best_swap(game)
        if move is not None and (swap is None or move.equity >= swap.equity):
            return Play(move, equity=float(move.equity))
        if swap is not None:
            return swap
        return Pass()

    def _choose_expert(self, game) -> Action:
        """The endgame solver's move with the bag empty (two players), else by equity."""
        if game.bag_count == 0 and len(game.names) == 2 and len(game.players_left) == 2 and game.rack:
            action = self._endgame(game, nodes=EXPERT_ENDGAME_NODES)
            if action is not None:
                return action
        return self._choose_equity(game)

    def _choose_master(self, game) -> Action:
        """Simulation within the budget (see the module docstring)."""
        if self.seconds <= 0 or len(game.names) != 2 or len(game.players_left) != 2 or not game.rack:
            return self._choose_expert(game)
        if game.bag_count == 0:
            action = self._endgame(game)
            if action is not None:
                return action
        leaves = self.leaves
        candidates: list[Action] = []
        if leaves is not None:
            moves = game.best_moves(MASTER_PLAYS + _CLEAN_SPARE, by="equity", leaves=leaves)
        else:
            moves = game.best_moves(MASTER_PLAYS + _CLEAN_SPARE)
        for m in moves:
            if not self.offensive.is_offensive(m):
                candidates.append(Play(m, equity=None if m.equity is None else float(m.equity)))
                if len(candidates) == MASTER_PLAYS:
                    break
        if not candidates:  # every good play spells an offensive word: expert's search for a clean one
            return self._choose_equity(game)
        swap = self._best_swap(game) if leaves is not None else None
        if swap is not None:
            candidates.append(swap)
        if len(candidates) == 1:
            return candidates[0]
        from .simulation import Simulator

        seed = (self.seed * 1_000_003 + len(game.history)) % (1 << 64)
        result = Simulator(game, self.lexicon, leaves, moves=candidates, plies=MASTER_PLIES, seconds=self.seconds,
                           threads=self.threads, sampling="bai", seed=seed, cpu_time=self.cpu_time).run()
        return result.best.action

    def _endgame(self, game, *, nodes: int | None = None) -> Action | None:
        """The endgame solver's move with the bag empty (``wordsalvo.engine.endgame``) within
        ``nodes`` turns searched (None: the bot's time budget, ``seconds``), or None when there is no solver, the rule set
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
                result = solve_endgame(game.position(), self.lexicon, seconds=self.seconds, threads=self.threads)
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
        """No play: swap the whole rack if allowed and the last own turn was not a swap, else pass."""
        me = game.to_move
        mine = [t for t in game.history if t.player == me and t.kind != "settle"]
        if game.rack and swap_allowed(game, len(game.rack)) and not (mine and mine[-1].kind == "swap"):
            return Swap(game.rack)
        return Pass()


def softmax_pick(value, beta: float, rng: random.Random, excluded=None) -> int | None:
    """The index drawn from ``value`` with weights ``exp(beta * value)`` (one ``rng.random()``),
    never one marked in the boolean array ``excluded``; None when every index is excluded.

    Total and stable for any finite ``beta`` and finite values: the weights are
    ``exp(beta * (value - ref))`` with ``ref`` the value of the largest weight, so every
    exponent is <= 0, the best weight is exactly 1 and nothing overflows; an excluded or
    underflowed weight is 0 and is never drawn (a draw rounded to the top of the sum takes the
    last index of positive weight).  A non-finite ``beta`` or value is a GameError, never a NaN."""
    value = np.asarray(value, dtype=np.float64)
    if not math.isfinite(beta) or not np.isfinite(value).all():
        raise GameError(f"the rated player's draw: expected a finite strength parameter and finite "
                        f"equities, got beta {beta!r} and {int((~np.isfinite(value)).sum())} non-finite "
                        f"values of {len(value)}")
    allowed = np.ones(len(value), dtype=bool) if excluded is None else ~np.asarray(excluded, dtype=bool)
    if not allowed.any():
        return None
    ref = value[allowed].max() if beta >= 0 else value[allowed].min()
    with np.errstate(under="ignore", over="ignore", invalid="ignore"):
        weights = np.exp(beta * (value - ref))
    weights[~allowed | ~np.isfinite(weights)] = 0.0
    cum = np.cumsum(weights)  # >= 1 (the reference weight is exp(0) = 1), finite (each weight <= 1)
    k = int(np.searchsorted(cum, rng.random() * float(cum[-1]), side="right"))
    if k >= len(value) or weights[k] <= 0:  # a draw rounded up to the sum: the last positive weight before
        k = int(np.flatnonzero(weights[:k] > 0)[-1])
    return k

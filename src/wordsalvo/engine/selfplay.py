"""Self-play at engine speed: whole games of the ``score``, ``equity`` and rated players in C.

A :class:`SelfPlay` plays two-player games between the engine players ``score``
(best score), ``equity`` (best equity, swapping when the best swap keeps a
leave worth more; :mod:`wordsalvo.engine.bot`) and the rated player (a rating such
as ``"1200"`` or ``"beta=0.2"`` with a finite strength parameter:
:mod:`wordsalvo.engine.strength`; ``csrc/ws_rated.c`` draws among every play and the
best swap as ``Bot._choose_rated`` does, from the Bot's own random stream, and never
plays a word of the language's offensive list) without a Python object per turn: the
C loop (``csrc/ws_selfplay.c``) asks the generator for the move or swap and
plays it on the C game state (:mod:`wordsalvo.gamestate`, ``csrc/ws_game.c``),
whose draws, end rules and settlement are the ones :class:`~wordsalvo.Game` plays
by: the rules of a turn are written once, in C.  The games are exactly the games
``Game`` and ``Bot`` play for the same seed, turn for turn
(``tests/test_selfplay.py`` compares them on every rule set); the loop itself adds
only the players' choices, mirroring :class:`~wordsalvo.engine.bot.Bot`.

Use it through :mod:`wordsalvo.engine.autoplay` (``wordsalvo autoplay``, leave
training, win-probability fitting), which falls back to ``Game`` for the
difficulty levels, expert and master (a rating at the top of the scale, ``beta=inf``, is
expert), for GCG records and for anything the C loop does not model (more than two
players, a random generator that does not match Python's).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from .._core import _engine
from ..errors import WordSalvoError
from ..inputs import whole_arg
from ..gamestate import game_rules, rack_letters
from ..leaves import Leaves
from ..lexicon.lexicon import Lexicon
from ..movegen import MoveGenerator
from ..offensive import OffensiveWords
from ..rules import Rules

__all__ = ["SelfPlay", "SelfPlayGame", "engine_supported", "rated_beta", "TURN_DTYPE", "turn_limit", "leave_after", "swap_leave"]

#: one turn record (``csrc/ws_selfplay.h``): move, equity, score, total, bag before,
#: player (seat), kind, rack before, tiles swapped, rack owner (settlement)
TURN_DTYPE = _engine.TURN_DTYPE
KIND_NAMES = _engine.TURN_KIND_NAMES
PLAY, SWAP, PASS, SETTLE = (next(k for k, v in KIND_NAMES.items() if v == name)
                            for name in ("play", "swap", "pass", "settle"))

_RNG_OK: bool | None = None
#: the most racks one game may force (:meth:`SelfPlay.play`)
FORCE_MAX = 64
#: the first turn a rack is forced on by default: after each player's opening turn
FORCE_FROM = 2


def _rng_matches_python() -> bool:
    """Whether the C twin of ``random.Random`` draws what this Python draws (checked once)."""
    global _RNG_OK
    if _RNG_OK is None:
        import random

        ok = True
        for seed in (0, 1, 2**40 + 3, 12345678901234567):
            bounds = [(i * 37) % 120 + 1 for i in range(200)]
            rng = random.Random(seed)
            ok = ok and _engine.rng_draws(seed, bounds) == [rng.randrange(b) for b in bounds]
        _RNG_OK = ok
    return _RNG_OK


def rated_beta(kind, rules=None) -> float | None:
    """The strength parameter of a rated player the C loop plays (a rating or ``beta=B`` with a
    finite beta, as :func:`~wordsalvo.engine.strength.parse_level` reads it on the calibration
    of ``rules``), else None (a named kind, expert's ``beta=inf``, or a text that is no level)."""
    from .strength import parse_level
    from .bot import PLAYER_KINDS

    try:
        rated = parse_level(kind, PLAYER_KINDS, rules=rules)
    except WordSalvoError:
        return None
    return rated.beta if rated is not None and math.isfinite(rated.beta) else None


def engine_supported(kinds, rules=None) -> bool:
    """Whether the C loop plays these two player kinds (``score``, ``equity`` and rated players
    of finite strength) with this Python's random numbers."""
    return (len(kinds) == 2 and all(k in ("score", "equity") or rated_beta(k, rules) is not None for k in kinds)
            and _rng_matches_python())


@dataclass(frozen=True)
class SelfPlayGame:
    """One finished game: ``records`` (a :data:`TURN_DTYPE` array, the history in
    order, settlement entries last), ``scores`` by seat (seat 0 moved first),
    ``end_reason`` (``out``, ``passes`` or ``scoreless``) and ``turns`` taken."""

    records: np.ndarray
    scores: tuple[int, int]
    end_reason: str
    turns: int
    #: the probe racks the game valued (:meth:`SelfPlay.play`), in the order given: (turn kind
    #: codes, float32 equities of the choice made with each); empty arrays without probes
    probes: tuple[np.ndarray, np.ndarray] = (np.zeros(0, np.uint8), np.zeros(0, np.float32))


class SelfPlay:
    """Plays games of one rule set and lexicon between two engine players.

    ``players``: the kinds by seat, ``"score"``, ``"equity"`` or a rated level (``"1200"``,
    ``"beta=0.1"``; see :func:`rated_beta`); ``leaves``: the leave table of each seat (an
    equity or rated player without a table plays by score, as
    :class:`~wordsalvo.engine.bot.Bot` does).  Not shared between threads.
    """

    def __init__(self, rules: Rules, lexicon: Lexicon, players=("score", "score"), leaves=(None, None)):
        if not rules.players.min <= 2 <= rules.players.max:
            raise WordSalvoError(f"self-play: rule set {rules.name!r} is not for two players "
                                 f"({rules.players.min}..{rules.players.max})")
        self.rules = rules
        self.lexicon = lexicon
        self._engine = MoveGenerator(lexicon, rules)
        self._engine._prepare_best(wordmap=True)  # thousands of searches: the word map pays at once
        self._sp = _engine.SelfPlay(self._engine._gen, game_rules(rules, 2), turn_limit(rules))
        self._words = None
        self.set_players(players, leaves)

    def set_players(self, players, leaves=(None, None)) -> None:
        """The engine of each seat (seat 0 moves first)."""
        betas = ([None if p in ("score", "equity") else rated_beta(p, self.rules) for p in players]
                 if len(players) == 2 else [])
        if len(players) != 2 or any(p not in ("score", "equity") and b is None for p, b in zip(players, betas)):
            raise WordSalvoError(f"self-play: expected two players 'score', 'equity' or a rating of finite "
                                 f"strength, got {players!r}")
        for seat, (kind, table, beta) in enumerate(zip(players, leaves, betas)):
            if table is not None and not isinstance(table, Leaves):
                raise WordSalvoError(f"leaves: expected a wordsalvo.Leaves or None, got {type(table).__name__}")
            if table is not None and kind != "score" and table.rules is not self.rules:
                self._engine._check_leaves(table)  # the same rules need no tile-set check (per game)
            if beta is not None:
                self._sp.set_rated(seat, beta, table._table if table is not None else None, self._offensive())
            elif kind == "equity" and table is not None:
                self._sp.set_player(seat, True, table._table, table.best_value)
            else:
                self._sp.set_player(seat, False)
        self.players = tuple(players)
        self.leaves = tuple(leaves)

    def _offensive(self):
        """The offensive words of the lexicon's language, as C reads them (made once)."""
        if self._words is None:
            words = OffensiveWords.default(self.lexicon.alphabet.name)
            self._words = _engine.WordList(sorted(words.words), self.rules.alphabet.letters)
        return self._words

    def play(self, seed: int, rngs=(None, None), force=None, force_from: int = FORCE_FROM, probe=None,
             probe_per_turn: int = 1) -> SelfPlayGame:
        """One game whose bag is seeded like ``Game(rules, seed=seed)``.  ``rngs``: the
        ``random.Random`` of each rated seat, whose draws its choices take (read, not
        advanced: the Bot's stream after ``Bot.reset``); None for a rated seat: a stream
        seeded ``"wordsalvo-bot-<level>-<seed * 2 + seat>"``, as a Bot reset to
        ``seed * 2 + seat`` has.

        ``force`` (leave training's rare racks): full racks as tile counts by code, shape
        (racks, letters + 1), at most :data:`FORCE_MAX`.  From turn ``force_from`` on, each
        turn whose mover holds a full rack while the bag holds a rack's worth of tiles
        takes the first of them not yet played that the mover's rack and the bag can
        supply: the mover's rack goes back into the bag and the forced tiles come out of
        it, and the game goes on from there (``csrc/ws_selfplay.h``).  Those turns'
        records have ``forced`` 1.  Without ``force`` the game is Game's and Bot's.

        ``probe`` (leave training's cover of the racks seldom seen; both seats ``equity``
        players): full racks as tile counts by code, each one the tile set can make.  At
        every turn whose mover holds a full rack while the bag holds a rack's worth of
        tiles, the next ``probe_per_turn`` of them (in order, until the list runs out) are
        valued in that position: the mover's rack is set to the probe rack, the mover
        chooses as on its own turn (swaps included), the choice's kind and equity are
        kept, and the real rack is put back.  The game is the same game with or without
        probes; :attr:`SelfPlayGame.probes` holds the values of the racks valued (the
        first ones of the list)."""
        states = []
        for seat, rng in enumerate(rngs):
            if rng is None:
                if self.players[seat] in ("score", "equity"):
                    states.append(None)
                    continue
                from .strength import parse_level
                from .bot import PLAYER_KINDS

                name = parse_level(self.players[seat], PLAYER_KINDS, rules=self.rules).name
                rng = random.Random(f"wordsalvo-bot-{name}-{seed * 2 + seat}")
            elif not isinstance(rng, random.Random):
                raise WordSalvoError(f"rngs: expected a random.Random or None per seat, got {type(rng).__name__}")
            states.append(rng.getstate())
        probe_per_turn = whole_arg(probe_per_turn, "probe_per_turn", low=1)
        records, scores, reason, turns = self._sp.play(seed, tuple(states), force, force_from, probe,
                                                       min(probe_per_turn, 1 << 20))
        return SelfPlayGame(records, scores, reason, turns, self._sp.last_probes())


def turn_limit(rules: Rules) -> int:
    """The most turns a game of ``rules`` may take (a game that has not ended by then is an
    engine or rules bug): the C loop's limit and :mod:`wordsalvo.engine.autoplay`'s."""
    return 4 * rules.tile_count + 100


# -- reading records (the C loop's, and the ones autoplay writes for Game and Bot) -----------
def _kept(record) -> list[int]:
    """The tile codes a play or swap kept, in rack order."""
    kept = list(record["rack"][: record["rack_len"]])
    if record["kind"] == PLAY:
        move = record["move"]
        for i in range(move["length"]):
            t = int(move["tiles"][i])
            if t:
                kept.remove(0 if move["blank_mask"] >> i & 1 else t)
    elif record["kind"] == SWAP:
        for t in record["tiles"][: record["tiles_len"]]:
            kept.remove(t)
    return kept


def leave_after(rules: Rules, record) -> str:
    """The tiles a play or swap kept, in rack order (letters, blanks last)."""
    return rack_letters(rules, _kept(record))


def swap_leave(rules: Rules, record) -> str:
    """The tiles a swap kept, blank first (the order of :attr:`Swap.leave <wordsalvo.actions.Swap>`)."""
    return rack_letters(rules, sorted(_kept(record)))

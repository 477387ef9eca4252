"""Player ratings: Glicko-2, rating periods, and a ladder of named tiers.

The algorithm is Glicko-2 exactly as Mark Glickman describes it in "Example of
the Glicko-2 system" (steps 1 to 8):

1. ratings go to the Glicko-2 scale: ``mu = (r - 1500) / 173.7178``,
   ``phi = RD / 173.7178``;
2. ``g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)``,
   ``E = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))``;
3. ``v = 1 / sum g(phi_j)^2 E (1 - E)``, the estimated variance;
4. ``Delta = v sum g(phi_j) (s_j - E)``, the estimated improvement;
5. the new volatility ``sigma'``: the root of ``f(x)`` found with the Illinois
   algorithm (regula falsi), convergence tolerance ``epsilon = 0.000001``;
6. ``phi* = sqrt(phi^2 + sigma'^2)``;
7. ``phi' = 1 / sqrt(1 / phi*^2 + 1 / v)``, ``mu' = mu + phi'^2 sum g (s - E)``;
8. back to the rating scale.

A player who does not compete in a rating period gets step 6 only, with the
volatility unchanged: ``phi' = sqrt(phi^2 + sigma^2)``, so the RD grows while
the player is idle.  Every RD that comes out of a period is capped at
:data:`MAX_RD` (350, the RD of a new player), as Glicko-1 does: an idle
player's rating never becomes less certain than a newcomer's.

Conventions of this module (decided here, used by ``wordsalvo ratings``):

* New players start at 1500 / RD 350 / volatility 0.06 (:data:`DEFAULT_RATING`).
* A game between two players is one result: 1 for a win, 0.5 for a draw,
  0 for a loss.
* A game of three or four players counts as one result between every pair of
  its players, by place: the better-placed player of a pair wins, players
  with the same place draw.  A four-player game is thus three results for
  each player in the period it was played.
* A player who leaves a game (resigns, abandons, loses on time or is
  eliminated) loses to every player still in the game at that moment, whatever
  the scores: an abandoned game is a loss for the player who left and a win
  for the one who stayed.  Of two players who both left, the one who stayed
  longer is placed better.  The players who are still in at the end are placed
  by final score.
* A rating period holds every game played in it; all its games are rated at
  once from the ratings at the start of the period (:meth:`RatingPool.update_period`).
  Between two periods with games, every period without games is an idle
  period for everyone (:meth:`RatingPool.idle_periods`); see :func:`rate_games`.

Tiers are data: ``wordsalvo/data/tiers.toml`` names the tiers from Novice up
to Laureate with their cut-offs (the file says why these); :attr:`Rating.tier`
is the tier of a rating.
"""

from __future__ import annotations

import datetime
import math
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from numbers import Real
from pathlib import Path
from typing import Iterable, Iterator, Mapping, NamedTuple, Sequence

from .errors import RatingError
from .wording import plural
from .inputs import excerpt, is_whole, read_bytes, whole_arg

__all__ = [
    "RatingError", "Rating", "Tier", "Glicko2Steps", "RatingPool", "RatedGame", "Standing",
    "glicko2_steps", "glicko2_update", "load_tiers", "tiers", "tier_of", "game_places", "rate_games",
    "period_key", "PERIODS", "SCALE", "EPSILON", "DEFAULT_RATING", "DEFAULT_RD", "DEFAULT_VOLATILITY",
    "DEFAULT_TAU", "MAX_RD",
]

#: the factor between the Glicko and the Glicko-2 scale (step 1)
SCALE = 173.7178
#: the convergence tolerance of the volatility iteration (step 5)
EPSILON = 0.000001
#: a new player's rating, RD and volatility
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: the system constant tau (constrains the change of volatility); Glickman suggests 0.3 to 1.2
DEFAULT_TAU = 0.5
#: no RD coming out of a rating period exceeds this (the RD of a new player)
MAX_RD = 350.0
#: the lengths of a rating period :func:`rate_games` understands
PERIODS = ("day", "week", "month", "game")


def _raise(what: str, problems: list[str]) -> None:
    if len(problems) == 1:
        raise RatingError(f"{what}: {problems[0]}", problems)
    raise RatingError(f"{what}: {plural(len(problems), 'problem')}:\n  " + "\n  ".join(problems), problems)


def _number(value) -> bool:
    t = type(value)
    return t is float or t is int or (isinstance(value, Real) and t is not bool)


# -- tiers ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tier:
    """A named rating band ``lower <= rating < upper`` (``-inf``/``inf`` at the ends)."""

    name: str
    lower: float
    upper: float

    def __contains__(self, rating: float) -> bool:
        return self.lower <= rating < self.upper

    def __str__(self) -> str:
        return self.name


def load_tiers(path: str | Path | None = None) -> tuple[Tier, ...]:
    """The tiers of a TOML file (``[[tier]]`` tables with ``name`` and, except the
    first, ``from``), lowest first; ``path`` None: the package's ``data/tiers.toml``.

    Checks every tier and reports every problem at once: names unique and not
    empty, the first tier without ``from``, the others with strictly rising
    finite cut-offs.
    """
    where = str(path) if path is not None else "wordsalvo/data/tiers.toml"
    try:
        if path is None:
            text = resources.files("wordsalvo").joinpath("data/tiers.toml").read_text("utf-8")
        else:
            text = read_bytes(path, RatingError, "tiers file").decode("utf-8")
        data = tomllib.loads(text)
    except RatingError:
        raise
    except OSError as e:
        raise RatingError(f"{where}: cannot read the tiers file: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise RatingError(f"{where}: expected a TOML file of [[tier]] tables, got: {e}") from None
    except (ValueError, RecursionError) as e:  # a number over 4,300 digits, tables nested too deep
        raise RatingError(f"{where}: expected a TOML file of [[tier]] tables, got: {excerpt(str(e), 200)}") from None
    entries = data.get("tier")
    if not isinstance(entries, list) or not entries or set(data) != {"tier"}:
        raise RatingError(f"{where}: expected only [[tier]] tables (at least one), got keys {sorted(data)}")
    problems: list[str] = []
    names: set[str] = set()
    lowers: list[float] = []
    for i, entry in enumerate(entries):
        at = f"tier {i + 1}"
        if not isinstance(entry, dict):
            problems.append(f"{at}: expected a [[tier]] table (name, from), got {excerpt(entry)}")
            lowers.append(lowers[-1] if lowers else -math.inf)
            continue
        extra = set(entry) - {"name", "from"}
        if extra:
            problems.append(f"{at}: expected only 'name' and 'from', got {sorted(extra)}")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{at}: expected a name (a non-empty string), got {name!r}")
        elif name in names:
            problems.append(f"{at}: expected a unique name, got {name!r} a second time")
        else:
            names.add(name)
        if i == 0:
            if "from" in entry:
                problems.append(f"{at} ({name}): expected no 'from' (the lowest tier has no lower bound), "
                                f"got {entry['from']!r}")
            lowers.append(-math.inf)
            continue
        lower = entry.get("from")
        if not _number(lower) or not (-1e9 <= lower <= 1e9):  # NaN and huge ints too
            problems.append(f"{at} ({name}): expected 'from', a finite number (within ±1e9), "
                            f"got {excerpt(lower)}")
            lowers.append(lowers[-1])
            continue
        if lower <= lowers[-1]:
            problems.append(f"{at} ({name}): expected a cut-off above {lowers[-1]:g}, got {lower:g}")
        lowers.append(float(lower))
    if problems:
        _raise(where, problems)
    uppers = lowers[1:] + [math.inf]
    return tuple(Tier(e["name"], lo, hi) for e, lo, hi in zip(entries, lowers, uppers))


@lru_cache(maxsize=1)
def tiers() -> tuple[Tier, ...]:
    """The package's tiers (``data/tiers.toml``), loaded and checked once."""
    return load_tiers()


def tier_of(rating: float, ladder: Sequence[Tier] | None = None) -> Tier:
    """The tier of ``rating`` in ``ladder`` (default: :func:`tiers`)."""
    if not _number(rating) or math.isnan(rating):
        raise RatingError(f"tier_of: expected a rating (a number), got {rating!r}")
    for t in ladder if ladder is not None else tiers():
        if rating in t:
            return t
    raise RatingError(f"tier_of: expected a ladder that covers every rating, got none for {rating!r}")


# -- ratings --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """A player's rating (Glicko scale): ``rating``, ``rd`` (rating deviation) and
    ``volatility``.  Defaults: a new player, 1500 / 350 / 0.06."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        problems = []
        if not _number(self.rating) or not math.isfinite(self.rating):
            problems.append(f"expected a finite rating, got {self.rating!r}")
        if not _number(self.rd) or not math.isfinite(self.rd) or self.rd <= 0:
            problems.append(f"expected an RD > 0, got {self.rd!r}")
        if not _number(self.volatility) or not math.isfinite(self.volatility) or self.volatility <= 0:
            problems.append(f"expected a volatility > 0, got {self.volatility!r}")
        if problems:
            _raise("Rating", problems)
        for name in ("rating", "rd", "volatility"):
            object.__setattr__(self, name, float(getattr(self, name)))

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The RD on the Glicko-2 scale."""
        return self.rd / SCALE

    @property
    def tier(self) -> Tier:
        """The tier of the rating (see :func:`tiers`)."""
        return tier_of(self.rating)

    def to_dict(self) -> dict:
        return {"rating": self.rating, "rd": self.rd, "volatility": self.volatility, "tier": self.tier.name}

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {self.rd:.0f}"


class Glicko2Steps(NamedTuple):
    """The quantities of Glickman's steps 2 to 8 for one player and one rating period."""

    mu: float          # step 2
    phi: float
    v: float           # step 3 (inf for an idle player)
    delta: float       # step 4 (0 for an idle player)
    volatility: float  # step 5: sigma'
    phi_star: float    # step 6 (before the RD cap)
    mu_new: float      # step 7: mu'
    phi_new: float     # step 7: phi' (after the RD cap)
    rating: Rating     # step 8


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _check_tau(tau, max_rd) -> None:
    problems = []
    if not _number(tau) or not math.isfinite(tau) or tau <= 0:
        problems.append(f"expected tau > 0 (Glickman suggests 0.3 to 1.2), got {tau!r}")
    if not _number(max_rd) or not math.isfinite(max_rd) or max_rd <= 0:
        problems.append(f"expected max_rd > 0, got {max_rd!r}")
    if problems:
        _raise("Glicko-2", problems)


def _check_games(games) -> list[tuple[Rating, float]]:
    try:
        games = list(games)
    except TypeError:
        raise RatingError(f"Glicko-2: expected a sequence of (opponent Rating, score) pairs, got {games!r}") from None
    problems = []
    for i, game in enumerate(games):
        if not isinstance(game, tuple) or len(game) != 2:
            problems.append(f"game {i + 1}: expected an (opponent Rating, score) pair, got {game!r}")
            continue
        opponent, score = game
        if not isinstance(opponent, Rating):
            problems.append(f"game {i + 1}: expected the opponent's Rating, got {opponent!r}")
        if not _number(score) or not 0 <= score <= 1:
            problems.append(f"game {i + 1}: expected a score from 0 to 1 (1 win, 0.5 draw, 0 loss), got {score!r}")
    if problems:
        _raise("Glicko-2", problems)
    return games


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as in Glickman's paper."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2_steps(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = DEFAULT_TAU,
                  max_rd: float = MAX_RD) -> Glicko2Steps:
    """Glickman's steps 2 to 8 for ``player`` and the ``games`` of one rating period:
    (opponent's :class:`Rating` at the start of the period, score 0..1) pairs.
    No games: step 6 only (the RD grows, the volatility stays).  The new RD is
    capped at ``max_rd``."""
    if not isinstance(player, Rating):
        raise RatingError(f"Glicko-2: expected the player's Rating, got {player!r}")
    _check_tau(tau, max_rd)
    games = _check_games(games)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        rd = min(SCALE * phi_star, max_rd)
        return Glicko2Steps(mu, phi, math.inf, 0.0, sigma, phi_star, mu, rd / SCALE,
                            Rating(player.rating, rd, sigma))
    try:
        return _steps(player, games, tau, max_rd)
    except (OverflowError, ZeroDivisionError):
        raise RatingError(f"Glicko-2: the update of {player} overflowed (ratings too far apart: "
                          f"{', '.join(str(o) for o, _ in games)})") from None


def _steps(player: Rating, games: list[tuple[Rating, float]], tau: float, max_rd: float) -> Glicko2Steps:
    mu, phi, sigma = player.mu, player.phi, player.volatility
    info = 0.0
    improvement = 0.0
    for opponent, score in games:
        g = _g(opponent.phi)
        e = 1.0 / (1.0 + math.exp(-g * (mu - opponent.mu)))
        info += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    if not info > 0 or not math.isfinite(info):
        raise OverflowError  # every expected score rounds to 0 or 1: the games carry no information
    v = 1.0 / info
    delta = v * improvement
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    rd = min(SCALE / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v), max_rd)  # the cap, in RD units
    phi_new = rd / SCALE
    mu_new = mu + phi_new * phi_new * improvement
    if not all(math.isfinite(x) for x in (v, delta, sigma_new, phi_star, mu_new, phi_new)):
        raise OverflowError
    rating = Rating(SCALE * mu_new + DEFAULT_RATING, rd, sigma_new)
    return Glicko2Steps(mu, phi, v, delta, sigma_new, phi_star, mu_new, phi_new, rating)


def _idle(player: Rating, max_rd: float) -> Rating:
    """Step 6 alone (the same as ``glicko2_update(player, [])``, without re-checking the inputs)."""
    if player.rd >= max_rd:
        return player
    phi = player.phi
    rd = min(SCALE * math.sqrt(phi * phi + player.volatility * player.volatility), max_rd)
    return Rating(player.rating, rd, player.volatility)


def glicko2_update(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = DEFAULT_TAU,
                   max_rd: float = MAX_RD) -> Rating:
    """The player's rating after one rating period (see :func:`glicko2_steps`)."""
    return glicko2_steps(player, games, tau, max_rd).rating


# -- a pool of players ----------------------------------------------------------------------
class RatingPool:
    """The ratings of a set of named players, updated one rating period at a time.

    ``pool.update_period(results)`` rates one period: ``results`` are
    ``(player, opponent, score)`` triples, one per game, ``score`` being the
    player's (1 win, 0.5 draw, 0 loss; the opponent scores ``1 - score``).
    Every game of the period is rated from the ratings at its start; players
    of the pool who did not play get step 6 (their RD grows).  A player not in
    the pool is refused unless ``new_players=True`` (then they start at
    ``default``).  ``pool.idle_periods(n)`` passes ``n`` periods without games.
    Bad input raises :class:`RatingError` listing every problem and changes nothing.
    """

    def __init__(self, ratings: Mapping[str, Rating] | None = None, *, tau: float = DEFAULT_TAU,
                 max_rd: float = MAX_RD, default: Rating | None = None):
        _check_tau(tau, max_rd)
        self.tau = float(tau)
        self.max_rd = float(max_rd)
        self.default = Rating(DEFAULT_RATING, min(DEFAULT_RD, self.max_rd)) if default is None else default
        self._check_new("RatingPool default", "default", self.default)
        self._ratings: dict[str, Rating] = {}
        #: rating periods passed (with or without games)
        self.periods = 0
        for name, rating in (ratings or {}).items():
            self.add(name, rating)

    def _check_new(self, what: str, name, rating) -> None:
        problems = []
        if not isinstance(name, str) or not name.strip():
            problems.append(f"expected a player name (a non-empty string), got {name!r}")
        if not isinstance(rating, Rating):
            problems.append(f"expected a Rating for {name!r}, got {rating!r}")
        elif rating.rd > self.max_rd:
            problems.append(f"expected an RD in (0, {self.max_rd:g}] for {name!r}, got {rating.rd:g}")
        if problems:
            _raise(what, problems)

    def add(self, name: str, rating: Rating | None = None) -> Rating:
        """Add a player (default: a new player's rating); refuses a name already in the pool."""
        rating = self.default if rating is None else rating
        self._check_new("RatingPool.add", name, rating)
        if name in self._ratings:
            raise RatingError(f"RatingPool.add: expected a new player, got {name!r}, already in the pool")
        self._ratings[name] = rating
        return rating

    def __getitem__(self, name: str) -> Rating:
        try:
            return self._ratings[name]
        except (KeyError, TypeError):
            raise RatingError(f"RatingPool: expected a player of the pool, got unknown player {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._ratings

    def __len__(self) -> int:
        return len(self._ratings)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ratings)

    @property
    def ratings(self) -> dict[str, Rating]:
        """A copy of every player's rating."""
        return dict(self._ratings)

    def standings(self) -> list[tuple[str, Rating]]:
        """Every player, best rating first (ties: lower RD, then name)."""
        return sorted(self._ratings.items(), key=lambda kv: (-kv[1].rating, kv[1].rd, kv[0]))

    def update_period(self, results: Iterable[tuple[str, str, float]], *,
                      new_players: bool = False) -> dict[str, Rating]:
        """Rate one rating period; returns the new ratings of the players who played."""
        try:
            results = list(results)
        except TypeError:
            raise RatingError(f"RatingPool.update_period: expected (player, opponent, score) triples, "
                              f"got {results!r}") from None
        problems = []
        if not results:
            problems.append("expected the results of at least one game, got an empty period "
                            "(use idle_periods() for a period without games)")
        unknown: dict[str, None] = {}
        for i, r in enumerate(results):
            at = f"result {i + 1}"
            if not isinstance(r, tuple) or len(r) != 3:
                problems.append(f"{at}: expected a (player, opponent, score) triple, got {r!r}")
                continue
            player, opponent, score = r
            for who in (player, opponent):
                if not isinstance(who, str) or not who.strip():
                    problems.append(f"{at}: expected a player name (a non-empty string), got {who!r}")
                elif who not in self._ratings and not new_players and who not in unknown:
                    unknown[who] = None
                    problems.append(f"{at}: expected a player of the pool, got unknown player {who!r} "
                                    "(add() them, or pass new_players=True)")
            if isinstance(player, str) and player == opponent:
                problems.append(f"{at}: expected two different players, got {player!r} against themselves")
            if not _number(score) or not 0 <= score <= 1:
                problems.append(f"{at}: expected a score from 0 to 1 (1 win, 0.5 draw, 0 loss), got {score!r}")
        if problems:
            _raise("RatingPool.update_period", problems)
        before = dict(self._ratings)
        games: dict[str, list[tuple[Rating, float]]] = {}
        for player, opponent, score in results:
            for who in (player, opponent):
                if who not in before:
                    before[who] = self.default
                    games[who] = []
            games.setdefault(player, []).append((before[opponent], float(score)))
            games.setdefault(opponent, []).append((before[player], 1.0 - float(score)))
        after = {name: _idle(before[name], self.max_rd) for name in before if name not in games}
        played = {name: glicko2_update(before[name], g, self.tau, self.max_rd) for name, g in games.items()}
        after.update(played)
        self._ratings = {name: after[name] for name in before}  # insertion order: first seen first
        self.periods += 1
        return played

    def idle_periods(self, count: int = 1) -> None:
        """Pass ``count`` rating periods without games: every RD grows (step 6), up to ``max_rd``."""
        count = whole_arg(count, "RatingPool.idle_periods", RatingError, low=0,
                          expected="a whole number of periods >= 0")
        for done in range(1, count + 1):
            self._ratings = {n: _idle(r, self.max_rd) for n, r in self._ratings.items()}
            if all(r.rd >= self.max_rd for r in self._ratings.values()):
                break  # every RD is at the cap: the remaining periods change nothing
        self.periods += count

    def __repr__(self) -> str:
        return f"<RatingPool {len(self)} players, {self.periods} periods, tau={self.tau:g}>"


# -- games and rating periods ---------------------------------------------------------------
@dataclass(frozen=True)
class RatedGame:
    """One finished game for the ratings: its date, its players and their places
    (1 = first; equal places for players who tied).  ``source`` says where it came
    from (a file and line), for messages.  ``date`` None: not known (such a game is
    rated only with ``period="game"``); ``time``: the clock time, which orders the
    games of one day."""

    date: datetime.date | None
    players: tuple[str, ...]
    places: tuple[int, ...]
    source: str = ""
    time: datetime.time | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "places", tuple(self.places))
        problems = []
        if self.date is not None and (not isinstance(self.date, datetime.date)
                                      or isinstance(self.date, datetime.datetime)):
            problems.append(f"expected a date (or None), got {self.date!r}")
        if self.time is not None and not isinstance(self.time, datetime.time):
            problems.append(f"expected a time (or None), got {self.time!r}")
        if len(self.players) < 2:
            problems.append(f"expected two or more players, got {len(self.players)}")
        for p in self.players:
            if not isinstance(p, str) or not p.strip():
                problems.append(f"expected a player name (a non-empty string), got {p!r}")
        if len(set(self.players)) != len(self.players):
            problems.append(f"expected different players, got {', '.join(self.players)}")
        if len(self.places) != len(self.players) or not all(
                is_whole(k, 1) for k in self.places):
            problems.append(f"expected one place (a whole number >= 1) per player, got {self.places!r}")
        if problems:
            _raise(f"RatedGame{' ' + self.source if self.source else ''}", problems)

    def results(self) -> list[tuple[str, str, float]]:
        """One (player, opponent, score) result for every pair of players, by place."""
        out = []
        n = len(self.players)
        for i in range(n):
            for j in range(i + 1, n):
                a, b = self.places[i], self.places[j]
                out.append((self.players[i], self.players[j], 1.0 if a < b else 0.5 if a == b else 0.0))
        return out

    def outcome(self, player: str) -> str:
        """``win`` (first alone), ``draw`` (first with others) or ``loss``."""
        place = self.places[self.players.index(player)]
        if place != 1:
            return "loss"
        return "draw" if self.places.count(1) > 1 else "win"


def game_places(game) -> tuple[int, ...]:
    """The places of the players of a finished :class:`~wordsalvo.Game` (1 = first).

    The players still in at the end are placed by final score (equal scores share a
    place) above every player who left (resigned, abandoned, lost on time or was
    eliminated); of those who left, the one who left later is placed better.
    """
    if not game.is_over:
        raise RatingError("expected a finished game, got one still running "
                          f"({len(game.history)} turns, {game.names[game.to_move]} to move)")
    left = set(game.players_left)
    last_turn = {p: -1 for p in range(len(game.names))}
    for i, turn in enumerate(game.history):
        last_turn[turn.player] = i
    keys = [(1, game.scores[p]) if p in left else (0, last_turn[p]) for p in range(len(game.names))]
    return tuple(1 + sum(k > key for k in keys) for key in keys)


def _clock(time: datetime.time | None) -> int:
    """Seconds since midnight on the game's own clock (-1 without a time: first)."""
    return -1 if time is None else time.hour * 3600 + time.minute * 60 + time.second


def period_key(date: datetime.date, period: str) -> int:
    """The number of the rating period holding ``date``: consecutive periods have
    consecutive numbers (days, ISO weeks from Monday, calendar months)."""
    if period == "day":
        return date.toordinal()
    if period == "week":
        return (date.toordinal() - 1) // 7  # ordinal 1 (0001-01-01) is a Monday
    if period == "month":
        return date.year * 12 + date.month - 1
    raise RatingError(f"expected a rating period of {', '.join(PERIODS[:3])}, got {period!r}")


@dataclass(frozen=True)
class Standing:
    """A player's line in the table of :func:`rate_games`."""

    player: str
    rating: Rating
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: the other spellings of the name in the games, counted as this player (see :func:`player_key`)
    also_written: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"player": self.player, **self.rating.to_dict(), "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses,
                **({"also_written": list(self.also_written)} if self.also_written else {})}


def player_key(name: str) -> str:
    """What makes two spellings of a name one player: the name in Unicode NFKC (composed
    and decomposed ``José`` agree, and full-width ``Ｂob`` is ``Bob``) and case-folded
    (``Ann`` and ``ann``), with runs of white space as one space."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _merge_spellings(games: list[RatedGame], known: Iterable[str]) -> tuple[list[RatedGame], dict[str, list[str]]]:
    """The games with every name written as the first spelling of its player (a pool's
    players first, then in game order), and each kept name's other spellings."""
    first: dict[str, str] = {}
    for name in known:
        first.setdefault(player_key(name), name)
    others: dict[str, list[str]] = {}
    out = []
    for g in games:
        names = []
        for p in g.players:
            kept = first.setdefault(player_key(p), unicodedata.normalize("NFC", p))
            if p != kept and p not in others.setdefault(kept, []):
                others[kept].append(p)
            names.append(kept)
        if len(set(names)) != len(names):
            _raise(f"RatedGame{' ' + g.source if g.source else ''}",
                   [f"expected different players, got {', '.join(map(repr, g.players))} (one player in "
                    f"Unicode NFKC and case)"])
        out.append(g if tuple(names) == g.players else
                   RatedGame(g.date, tuple(names), g.places, g.source, g.time))
    return out, {k: v for k, v in others.items() if v}


@dataclass
class _Count:
    games: int = 0
    outcomes: dict = field(default_factory=lambda: {"win": 0, "draw": 0, "loss": 0})


def rate_games(games: Iterable[RatedGame], *, period: str = "day", pool: RatingPool | None = None,
               tau: float = DEFAULT_TAU) -> list[Standing]:
    """Rate ``games`` in date order (games of one date by their time, games without a
    time first; otherwise they keep their given order) and return every player's
    standing, best rating first.  Spellings of one name (:func:`player_key`: ``José``
    composed or decomposed, ``Ann`` and ``ann``, ``Bob`` and ``Ｂob``) are one player,
    under the first spelling; :attr:`Standing.also_written` lists the others.

    ``period``: ``day``, ``week`` or ``month`` puts the games of one calendar
    period into one rating period, and every period without games between two
    periods with games is an idle period; ``game`` makes each game its own period,
    and when some game has no date (None) every game is rated in the order given.
    Ratings are those after the last period with games.  ``pool`` (default: a new
    pool with ``tau``) receives the results; its players keep their ratings.
    """
    if period not in PERIODS:
        raise RatingError(f"rate_games: expected a rating period of {', '.join(PERIODS)}, got {period!r}")
    games = list(games)
    bad = [f"item {i + 1}: expected a RatedGame, got {g!r}" for i, g in enumerate(games)
           if not isinstance(g, RatedGame)]
    if not bad:
        games, spellings = _merge_spellings(games, pool._ratings if pool is not None else ())
    if period != "game":
        bad += [f"{g.source or f'item {i + 1}'}: expected a date for rating periods of a {period}, got none "
                "(period='game' rates games without dates in the order given)"
                for i, g in enumerate(games) if isinstance(g, RatedGame) and g.date is None]
    if bad:
        _raise("rate_games", bad)
    if pool is None:
        pool = RatingPool(tau=tau)
    if any(g.date is None for g in games):
        order = list(range(len(games)))
    else:
        order = sorted(range(len(games)), key=lambda i: (games[i].date, _clock(games[i].time), i))
    groups: list[tuple[int, list[RatedGame]]] = []
    for k, i in enumerate(order):
        key = k if period == "game" else period_key(games[i].date, period)
        if groups and groups[-1][0] == key:
            groups[-1][1].append(games[i])
        else:
            groups.append((key, [games[i]]))
    counts: dict[str, _Count] = {}
    previous = None
    for key, group in groups:
        if previous is not None and key - previous > 1:
            pool.idle_periods(key - previous - 1)
        previous = key
        pool.update_period([r for g in group for r in g.results()], new_players=True)
        for g in group:
            for p in g.players:
                c = counts.setdefault(p, _Count())
                c.games += 1
                c.outcomes[g.outcome(p)] += 1
    out = []
    for name, rating in pool.standings():
        c = counts.get(name, _Count())
        out.append(Standing(name, rating, c.games, c.outcomes["win"], c.outcomes["draw"], c.outcomes["loss"],
                            tuple(spellings.get(name, ()))))
    return out

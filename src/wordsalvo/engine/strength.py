"""Opponents at every strength: the rated player and its calibration table.

The named levels (easy, medium, hard, expert) are far apart: each beats the one
below in 87-100 % of games.  The *rated player* fills the gaps with one
continuous strength parameter, ``beta`` (per point of equity): on its turn it
lists every legal play (and the best swap, when one is allowed) with its equity
(score + leave value, :mod:`wordsalvo.leaves`) and picks one at random with
weights ``exp(beta * equity)`` (a softmax over equity; never an offensive word,
as the levels).

* ``beta = inf``: always the best equity, which is expert's choice (expert IS
  the top of the scale);
* ``beta = 0``: a uniformly random legal play, whatever it scores;
* ``beta < 0``: weaker still, favouring the worst plays.

Why this parameter: in every position the expected equity of the pick is
monotone increasing in ``beta`` (its derivative is the variance of the equity
under the pick's distribution, never negative) and smooth (analytic in
``beta``), over the whole line, so one number moves the player from the worst
play to the best without jumps; no threshold (a top-k cut-off, a probability of
a blunder) makes steps in the strength.  It needs only what the C self-play
already has (the move list with equities and one random draw a turn): the C loop plays
it (``csrc/ws_rated.c``, the same games as ``Bot`` for the same seeds), so autoplay and
the calibration round robins run at engine speed for every finite ``beta``.

The calibration table (``wordsalvo/data/strength.toml``) maps ``beta`` to a
Glicko-2 rating measured in a round robin of rated players and the named levels
(``benchmarks/levels.py --calibrate``; the command and date are in the file):
each rating is the mean over 100 shuffled orders of the games within each pair
(Glicko-2 weighs recent rating periods more, so the ratings of one order move
with its last few hundred games, by up to about 100 points in that round robin).
Ratings are relative: the table's scale is shifted so that the named levels'
mean rating (medium, hard, expert) equals their mean in the README's round
robin of the static levels (easy is left out of the anchor: it loses nearly
every game, so its rating is poorly determined).  :func:`beta_for_rating`
interpolates the table between its points, linearly in ``atan(beta / 0.1)``
(a coordinate in which the measured curve is near-linear and ``inf`` is a
finite end).  A rule set with a calibration of its own (``wordsalvo/data/strength-NAME.toml``,
made the same way on its own named levels and anchored to its own round robin of them) uses
it: :func:`strength_table` of the preset's name or its Rules; any other rule set, and a rule
set read from a file, uses ``strength.toml`` (measured on ``wordsalvo-en``) as it is.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..errors import GameError
from ..inputs import excerpt, is_decimal_number, is_number, is_whole

__all__ = ["StrengthTable", "strength_table", "beta_for_rating", "check_rating", "parse_level", "RatedLevel",
           "BETA_LIMIT", "LEVEL_TEXT_MAX"]

#: a finite strength parameter is at most this large in size (``-BETA_LIMIT <= beta <= BETA_LIMIT``,
#: per point of equity): at 10 a play one point worse is 22,000 times less likely than the best,
#: the best play for any practical purpose (``inf`` names expert's own choice), and ``beta * equity``
#: stays far from overflowing a float whatever the rule set scores
BETA_LIMIT = 10.0
#: the longest level text read (``beta=`` and a number of 18 digits, or a rating)
LEVEL_TEXT_MAX = 40

#: the scale of the interpolation coordinate atan(beta / BETA_SCALE), per point
BETA_SCALE = 0.1


def _coordinate(beta: float) -> float:
    return math.atan(beta / BETA_SCALE)


def _beta(u: float) -> float:
    if u >= math.pi / 2 - 1e-12:
        return math.inf
    return BETA_SCALE * math.tan(u)


@dataclass(frozen=True)
class StrengthTable:
    """The calibration: ``points`` as (beta, rating), weakest first, ratings increasing;
    ``named``: the named levels' ratings on the same scale; ``rules``, ``command``,
    ``date``: how it was made."""

    rules: str
    command: str
    date: str
    points: tuple[tuple[float, float], ...]
    named: dict

    @property
    def low(self) -> float:
        """The weakest rating a rated player can be asked for."""
        return self.points[0][1]

    @property
    def high(self) -> float:
        """The strongest (expert's own choice, ``beta = inf``)."""
        return self.points[-1][1]


def strength_table(rules=None) -> StrengthTable:
    """The calibration table of a rule set: ``rules`` a preset's name, a Rules (a preset's own
    table when it has one; a rule set read from a file or changed after reading has none), or
    None; without a table of its own, the shipped default (``strength.toml``, wordsalvo-en).
    Each file is read once."""
    name = rules if isinstance(rules, str) else getattr(rules, "preset_name", None)
    if name is not None and name.replace("-", "").isalnum() and _has_table(f"strength-{name}.toml"):
        return _read_table(f"strength-{name}.toml", name)
    return _read_table("strength.toml", None)


@lru_cache(maxsize=None)
def _has_table(filename: str) -> bool:
    return resources.files("wordsalvo").joinpath("data", filename).is_file()


@lru_cache(maxsize=None)
def _read_table(filename: str, rules: str | None) -> StrengthTable:
    where = f"wordsalvo/data/{filename}"
    data = tomllib.loads(resources.files("wordsalvo").joinpath("data", filename).read_text("utf-8"))
    points = tuple((float(p["beta"]), float(p["rating"])) for p in data["points"])
    betas = [b for b, _ in points]
    ratings = [r for _, r in points]
    if betas != sorted(betas) or any(b >= a for a, b in zip(ratings[1:], ratings)) or len(points) < 2:
        raise GameError(f"{where}: expected points with beta and rating both increasing, got {points}")
    if rules is not None and data["rules"] != rules:
        raise GameError(f"{where}: expected the calibration of {rules}, got one of {data['rules']!r}")
    return StrengthTable(data["rules"], data["command"], str(data["date"]), points, dict(data["named"]))


def check_rating(rating, table: StrengthTable | None = None) -> float:
    """``rating`` as a float, or a GameError saying what was expected and got.  The one check of a
    rating: a number (not a bool) or a text of ASCII decimal digits (``1200``, ``-50``,
    ``1234.5``; no ``1_200``, Arabic-Indic or full-width digits, spaces, ``nan`` or ``inf``),
    within the calibrated range ``table.low .. table.high``."""
    table = table or strength_table()
    if isinstance(rating, str):
        if not is_decimal_number(rating):
            raise GameError(f"rating: expected a Glicko-2 rating, a number from {table.low:.0f} to "
                            f"{table.high:.0f} in ASCII digits, got {excerpt(rating)}")
        value = float(rating)
    elif not (is_whole(rating) or is_number(rating) or isinstance(rating, float)):  # nan, inf: the range says
        raise GameError(f"rating: expected a Glicko-2 rating, a number from {table.low:.0f} to "
                        f"{table.high:.0f}, got {type(rating).__name__} {excerpt(rating)}")
    else:
        try:
            value = float(rating)
        except OverflowError:  # an int past the float range
            value = math.inf
    if not math.isfinite(value) or not table.low <= value <= table.high:
        raise GameError(f"rating: expected a Glicko-2 rating from {table.low:.0f} (weakest) to {table.high:.0f} "
                        f"(expert), got {excerpt(rating)} (the calibrated range, {table.rules})")
    return value


def beta_for_rating(rating, table: StrengthTable | None = None) -> float:
    """The strength parameter whose measured rating is ``rating`` (interpolated in the table),
    at most :data:`BETA_LIMIT` below the top rating (the interpolation climbs to ``inf`` there:
    past 10 every pick is the best play for any practical purpose); ``inf`` at the top."""
    table = table or strength_table()
    value = check_rating(rating, table)
    pts = table.points
    for (b0, r0), (b1, r1) in zip(pts, pts[1:]):
        if value <= r1:
            u0, u1 = _coordinate(b0), _coordinate(b1)
            t = (value - r0) / (r1 - r0)
            beta = _beta(u0 + t * (u1 - u0))
            return beta if beta == math.inf or abs(beta) <= BETA_LIMIT else math.copysign(BETA_LIMIT, beta)
    return pts[-1][0]  # pragma: no cover - check_rating keeps value <= high


@dataclass(frozen=True)
class RatedLevel:
    """A rated player's level: the strength parameter, and the rating asked for (None when
    ``beta`` was given directly)."""

    beta: float
    rating: float | None

    @property
    def name(self) -> str:
        """The level as text (what :func:`parse_level` reads back as the same player: the
        shortest text of the number, ``1200`` rather than ``1200.0``)."""
        if self.rating is not None:
            return _number_text(self.rating)
        return "beta=inf" if self.beta == math.inf else f"beta={_number_text(self.beta)}"


def _number_text(x: float) -> str:
    """``x`` as the shortest text that reads back as ``x`` (``%g`` keeps 6 digits only)."""
    text = f"{x:g}"
    return text if float(text) == x else repr(x)


def parse_level(level: str, kinds=(), *, betas: bool = True, rules=None) -> RatedLevel | None:
    """The one reader of a level text (the library's Bot, the command line, the service, saved
    games): None for one of the named player ``kinds``; a RatedLevel for a rating (``"1200"``,
    see :func:`check_rating`, on the calibration of ``rules``: :func:`strength_table`) or, with
    ``betas``, a strength parameter (``"beta=0.2"``: an ASCII
    decimal number from ``-BETA_LIMIT`` to ``BETA_LIMIT``, or ``inf``, expert's choice); a
    GameError naming what was expected and what came for anything else (no spaces around it)."""
    if isinstance(level, str) and level in kinds:
        return None
    players = f"an engine player ({', '.join(kinds)})" if kinds else "an engine player"
    if not isinstance(level, str):
        raise GameError(f"level: expected {players} or a rating, got {type(level).__name__} {excerpt(level)}")
    if betas and level.startswith("beta="):
        text = level[5:]
        if text in ("inf", "+inf"):
            return RatedLevel(math.inf, None)
        beta = float(text) if len(level) <= LEVEL_TEXT_MAX and is_decimal_number(text) else math.nan
        if not -BETA_LIMIT <= beta <= BETA_LIMIT:  # NaN too
            raise GameError(f"level: expected beta=NUMBER (the rated player's strength parameter: an ASCII "
                            f"decimal number from {-BETA_LIMIT:g} to {BETA_LIMIT:g}, or inf for expert's "
                            f"choice), got {excerpt(level)}")
        return RatedLevel(beta + 0.0, None)  # -0.0 reads as 0
    if len(level) > LEVEL_TEXT_MAX or not is_decimal_number(level):
        raise GameError(f"level: expected {players} or a Glicko-2 rating (a number in ASCII digits, "
                        f"e.g. 1200), got {excerpt(level)}")
    table = strength_table(rules)
    rating = check_rating(level, table)
    return RatedLevel(beta_for_rating(rating, table), rating)

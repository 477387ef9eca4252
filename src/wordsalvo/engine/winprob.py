"""Win probability: P(the player on turn wins | spread, tiles unseen, ...), fitted from self-play.

The model
---------
For the player about to move, with ``spread`` = their score minus the best
opponent's and ``unseen`` = the tiles they cannot see (bag plus the opponents'
racks), the model is a logistic regression

    P(win) = 1 / (1 + exp(-(b0 + b1 * s + b2 * s / sqrt(u + 1) + b3 * s / (u + 1) + b4 / (u + 1))))

with ``s = spread / 100`` and ``u = unseen``.  The three spread terms let a lead
count for more as the game runs out of tiles (a 30-point lead with 80 tiles
unseen is a coin flip plus a little; with 7 unseen it is nearly a win); ``b0``
and ``b4`` carry the advantage of being on turn, which grows as the bag
empties.  A draw counts as half a win (it is fitted as one half-weighted win
and one half-weighted loss).

Fitting is iteratively reweighted least squares (Newton's method on the
log-likelihood) with a small ridge term, numpy only.  A model is fitted per
rule set from positions of seeded self-play games (``wordsalvo winprob fit``)
and shipped as a small JSON file with the command, game count and seed that
made it; :func:`calibration` reports the Brier score and a reliability table on
held-out games.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..errors import WordSalvoError
from ..inputs import excerpt, is_number, list_problems, read_bytes

__all__ = ["WinModel", "features", "fit", "calibration", "Calibration", "user_model_path"]

FORMAT = "wordsalvo-winprob"
VERSION = 1
N_FEATURES = 5


def features(spread, unseen) -> np.ndarray:
    """The model's feature matrix for arrays (or scalars) of spread and tiles unseen."""
    s = np.asarray(spread, dtype=np.float64) / 100.0
    u = np.asarray(unseen, dtype=np.float64)
    if np.any(u < 0):
        raise WordSalvoError("tiles unseen: expected numbers >= 0")
    s, u = np.broadcast_arrays(s, u)
    return np.stack([np.ones_like(s), s, s / np.sqrt(u + 1.0), s / (u + 1.0), 1.0 / (u + 1.0)], axis=-1)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


@dataclass(frozen=True)
class WinModel:
    """A fitted win-probability model of one rule set."""

    rules: str
    coef: tuple[float, ...]
    games: int = 0
    positions: int = 0
    command: str = ""
    seed: int | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        from ..rules import rule_set_name_problem

        if (not isinstance(self.coef, (tuple, list)) or len(self.coef) != N_FEATURES
                or not all(is_number(c) for c in self.coef)):
            raise WordSalvoError(f"win-probability model: expected {N_FEATURES} finite coefficients, "
                                 f"got {excerpt(self.coef, 200)}")
        object.__setattr__(self, "coef", tuple(float(c) for c in self.coef))
        problem = rule_set_name_problem(self.rules)
        if problem is not None:
            raise WordSalvoError(f"win-probability model: rules: {problem}")

    def check_rules(self, rules) -> None:
        """WordSalvoError unless the model was fitted for ``rules`` (a Rules object or a
        name): a model of one rule set says nothing of another's games."""
        name = rules if isinstance(rules, str) else getattr(rules, "name", None)
        if name != self.rules:
            raise WordSalvoError(f"win-probability model: made for rule set {self.rules!r}, expected one for "
                                 f"{excerpt(name)} (the game's rule set)")

    def probability(self, spread, unseen):
        """P(win) of the player on turn; scalars in, a float out; arrays in, an array out."""
        p = _sigmoid(features(spread, unseen) @ np.asarray(self.coef))
        return float(p) if np.ndim(p) == 0 else p

    # -- files -----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "rules": self.rules, "coef": list(self.coef),
                "games": self.games, "positions": self.positions, "command": self.command, "seed": self.seed,
                **({"extra": self.extra} if self.extra else {})}

    @classmethod
    def from_dict(cls, d: dict, where: str = "win-probability model") -> "WinModel":
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise WordSalvoError(f"{where}: expected a {FORMAT!r} JSON object, got {type(d).__name__} "
                                 f"with format {d.get('format') if isinstance(d, dict) else None!r}")
        problems = []
        if type(d.get("version")) is not int or d.get("version") != VERSION:
            problems.append(f"'version': expected {VERSION}, got {excerpt(d.get('version'))}")
        rules, coef = d.get("rules"), d.get("coef")
        if not isinstance(rules, str):
            problems.append(f"'rules': expected a rule set name, got {excerpt(rules)}")
        if not isinstance(coef, list) or len(coef) != N_FEATURES or not all(_is_number(c) for c in coef):
            problems.append(f"'coef': expected a list of {N_FEATURES} finite numbers, got {excerpt(coef, 200)}")
        counts = {k: d.get(k, 0) for k in ("games", "positions")}
        for k, v in counts.items():
            if type(v) is not int or not 0 <= v <= 10 ** 15:
                problems.append(f"{k!r}: expected a whole number 0..10**15, got {excerpt(v)}")
        seed = d.get("seed")
        if seed is not None and (type(seed) is not int or abs(seed) > 2 ** 64):
            problems.append(f"'seed': expected a whole number or null, got {excerpt(seed)}")
        if not isinstance(d.get("command", ""), str):
            problems.append(f"'command': expected a string, got {excerpt(d.get('command'))}")
        if not isinstance(d.get("extra") or {}, dict):
            problems.append(f"'extra': expected an object, got {excerpt(d.get('extra'))}")
        if problems:
            raise WordSalvoError(list_problems(where, problems))
        return cls(rules, tuple(float(c) for c in coef), counts["games"], counts["positions"],
                   d.get("command", ""), seed, d.get("extra") or {})

    def save(self, path: str | Path) -> None:
        from ..inputs import write_atomic

        write_atomic(path, (json.dumps(self.to_dict(), indent=1) + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: str | Path) -> "WinModel":
        try:
            text = read_bytes(path, WordSalvoError, "win-probability model").decode("utf-8")
        except UnicodeDecodeError as e:
            raise WordSalvoError(f"{path}: expected UTF-8 text, got a bad byte at offset {e.start}") from None
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise WordSalvoError(f"{path}: expected JSON, got a syntax error at line {e.lineno}: {e.msg}") from None
        except (ValueError, RecursionError) as e:  # a number over 4,300 digits, arrays nested too deep
            raise WordSalvoError(f"{path}: expected a win-probability model (JSON), got: "
                                 f"{excerpt(str(e) or type(e).__name__, 200)}") from None
        return cls.from_dict(d, where=str(path))

    @classmethod
    def default(cls, rules) -> "WinModel":
        """The model shipped for ``rules`` (a Rules object or a preset name); for a rule set
        without one (``wordfeud-de``, ``woodword-de``: their lexicon is built on the user's
        machine), the model ``wordsalvo winprob fit --rules NAME`` wrote to the user's cache
        folder (:func:`user_model_path`)."""
        from ..rules import rule_set_name_problem

        name = rules if isinstance(rules, str) else getattr(rules, "name", None)
        problem = rule_set_name_problem(name)
        if problem is not None:  # the name becomes part of a package path: an identifier only
            raise WordSalvoError(f"WinModel.default: {problem}")
        folder = resources.files("wordsalvo") / "data" / "winprob"
        ref = folder / f"{name}.json"
        if ref.is_file():
            return cls.from_dict(json.loads(ref.read_text("utf-8")), where=f"shipped model {name}")
        own = user_model_path(name)
        if own.is_file():
            model = cls.load(own)
            if model.rules != name:
                raise WordSalvoError(f"{own}: expected a model of rule set {name!r}, got one of {model.rules!r}")
            return model
        shipped = sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")) if folder.is_dir() else []
        raise WordSalvoError(f"no win-probability model is shipped for rule set {name!r} (shipped: "
                             f"{', '.join(shipped) or '(none)'}) and none is fitted in {own.parent}; fit one with "
                             f"`wordsalvo winprob fit --rules {name}`")


def user_model_path(rules_name: str) -> Path:
    """Where ``wordsalvo winprob fit`` writes a rule set's model by default, and where
    :meth:`WinModel.default` looks when none is shipped: ``<cache folder>/winprob/<name>.json``."""
    from ..cache import cache_dir

    return cache_dir() / "winprob" / f"{rules_name}.json"


def _is_number(x) -> bool:
    """A JSON number that is finite (not a bool, not a string of digits)."""
    return (type(x) is int and abs(x) < 10 ** 300) or (type(x) is float and math.isfinite(x))


def fit(spread: Sequence[float], unseen: Sequence[float], outcome: Sequence[float], ridge: float = 1e-3,
        iterations: int = 50) -> tuple[float, ...]:
    """Coefficients fitted by IRLS; ``outcome`` is 1 (win), 0 (loss) or 0.5 (draw)."""
    X = features(spread, unseen)
    y = np.asarray(outcome, dtype=np.float64)
    if X.shape[0] != y.shape[0] or X.shape[0] == 0:
        raise WordSalvoError(f"fit: expected as many outcomes as positions (> 0), got {y.shape[0]} and {X.shape[0]}")
    if np.any((y != 0) & (y != 1) & (y != 0.5)):
        raise WordSalvoError("fit: expected outcomes 0, 0.5 or 1")
    beta = np.zeros(X.shape[1])
    reg = ridge * np.eye(X.shape[1])
    reg[0, 0] = 0.0
    for _ in range(iterations):
        p = _sigmoid(X @ beta)
        w = np.maximum(p * (1 - p), 1e-9)
        grad = X.T @ (y - p) - reg @ beta
        hess = (X * w[:, None]).T @ X + reg
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return tuple(float(b) for b in beta)


@dataclass(frozen=True)
class Calibration:
    """How well predicted probabilities match outcomes on held-out positions."""

    positions: int
    brier: float                 #: mean squared error of the probability (0 = perfect; 0.25 = always 50 %)
    brier_baseline: float        #: Brier score of always predicting the base rate
    log_loss: float
    #: rows (low, high, positions, mean predicted, observed win rate, 95 % interval low, high)
    table: tuple[tuple[float, float, int, float, float, float, float], ...]
    #: the games the positions come from (0: not given, and the intervals count positions)
    games: int = 0

    def format(self) -> str:
        unit = "games as units" if self.games else "positions as units"
        lines = [f"{self.positions} held-out positions" + (f" of {self.games} games" if self.games else "")
                 + f"; Brier score {self.brier:.4f} "
                 f"(base rate alone {self.brier_baseline:.4f}); log loss {self.log_loss:.4f}",
                 f"| predicted | positions | mean predicted | observed (95 % CI, {unit}) |", "|---|---:|---:|---:|"]
        for lo, hi, n, mp, obs, olo, ohi in self.table:
            lines.append(f"| {100 * lo:.0f}-{100 * hi:.0f} % | {n} | {100 * mp:.1f} % | "
                         f"{100 * obs:.1f} % ({100 * olo:.1f}-{100 * ohi:.1f}) |")
        return "\n".join(lines)


def calibration(model: WinModel, spread, unseen, outcome, bins: int = 10, games=None) -> Calibration:
    """Brier score, log loss and a reliability table of ``model`` on the given positions.

    ``games``: the game each position comes from (any labels, one per position).  The
    positions of one game share its result, and a game puts many of them in the same
    bin, so with ``games`` a bin's interval counts games, not positions, as the
    independent units (:func:`wordsalvo.stats.clustered_interval`); without it every
    position counts as independent, and the intervals are too narrow for positions
    taken from whole games."""
    from ..stats import clustered_interval, wilson_interval

    p = np.asarray(model.probability(np.asarray(spread), np.asarray(unseen)), dtype=np.float64).reshape(-1)
    y = np.asarray(outcome, dtype=np.float64)
    if p.shape != y.shape or y.size == 0:
        raise WordSalvoError("calibration: expected as many outcomes as positions (> 0)")
    g = None
    if games is not None:
        g = np.asarray(games).reshape(-1)
        if g.shape != y.shape:
            raise WordSalvoError(f"calibration: expected one game label per position ({y.size}), got {g.size}")
    brier = float(np.mean((p - y) ** 2))
    base = float(np.mean(y))
    brier0 = float(np.mean((base - y) ** 2))
    eps = 1e-12
    ll = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    edges = np.linspace(0.0, 1.0, bins + 1)
    idx = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, bins - 1)
    rows = []
    for b in range(bins):
        m = idx == b
        n = int(m.sum())
        if n == 0:
            continue
        obs = float(y[m].mean())
        if g is None:
            lo, hi = wilson_interval(float(y[m].sum()), n)
        else:
            _, lo, hi = clustered_interval(y[m], g[m])
        rows.append((float(edges[b]), float(edges[b + 1]), n, float(p[m].mean()), obs, lo, hi))
    return Calibration(int(y.size), brier, brier0, ll, tuple(rows), 0 if g is None else int(np.unique(g).size))


def positions_from_results(states: Iterable[tuple[int, int, float]]):
    """Split ``(spread, unseen, outcome)`` triples into three arrays."""
    arr = np.asarray(list(states), dtype=np.float64).reshape(-1, 3)
    return arr[:, 0], arr[:, 1], arr[:, 2]

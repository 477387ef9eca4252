"""Leave tables trained by our own self-play.

The method
----------
Training runs in rounds.  Round 0 plays with an all-zero table (the equity
player is then a pure score player that still swaps a hopeless rack); each
later round plays with the table the round before produced.  In a round,
``games`` seeded games of ``equity`` against ``equity`` are played
(:mod:`wordsalvo.engine.autoplay`, on every core with ``jobs``) and every turn that
keeps a leave while the bag still holds tiles becomes one observation:

    (the leave kept, the points the same player scores on their next turn)

A swap is such a turn too (the leave is what it keeps; its own score is 0).
Turns after which the game ends, or the player has no next turn, give no
observation.  Then, for every leave ``L`` seen ``n`` times with mean next score
``m``, and ``M`` the mean next score of all observations of the round:

    raw(L)   = m - M                  what holding L was worth, in points of the next turn
    prior(L) = the additive model's value of L
    value(L) = (n * raw(L) + K * prior(L)) / (n + K)

The additive model values a leave by its parts: a term for the number of
tiles kept, a value per tile, a term per duplicated tile, a term for every
pair of different tiles (so Q without U, or ?S together, get their own
weight) and one for the balance of vowels and consonants; it is fitted by
weighted ridge regression on the leaves seen, each weighted by how often it
was seen.  So a leave seen rarely or never (most 5- and 6-tile leaves) is
valued from its tiles and their pairs, and a leave seen often by its own
record.  ``K`` (:data:`SHRINK`) is how many observations it takes for a
leave's own data to outweigh the model.  The observations are
exact integers, so a round's table is the same whatever ``jobs`` is; the same
seed gives the same table.

A run keeps its state next to the output (``OUT.state/``: the finished rounds'
tables, and the running sums of the current round written every chunk of
games) and ``resume=True`` continues where an interrupted run stopped.  Every
file is written atomically.
"""

from __future__ import annotations

import json
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import WordSalvoError
from ..inputs import checked_path

__all__ = ["TrainingConfig", "train_leaves", "smooth_values", "SHRINK"]

#: observations at which a leave's own mean and its prior weigh the same
SHRINK = 25.0


@dataclass(frozen=True)
class TrainingConfig:
    rules: str
    games: int                 #: games per round
    rounds: int = 3
    seed: int = 0
    lexicon: str | None = None
    jobs: int = 1
    chunk: int = 500           #: games between two state saves


class _Structure:
    """The tile counts of every leave, by rank (one row per leave, one column per tile code)."""

    def __init__(self, leaves):
        rules = leaves.rules
        letters = rules.alphabet.letters
        code = {"?": 0, **{ch: i + 1 for i, ch in enumerate(letters)}}
        del code
        self.tile_codes = len(letters) + 1
        counts = np.asarray(leaves._table.unrank_all(), dtype=np.int8)  # (leaves, tile codes), rank order
        assert counts.shape[1] == self.tile_codes
        self.counts = counts
        self.size = counts.sum(axis=1).astype(np.int64)
        self.max_size = int(self.size.max())
        vowels = set(getattr(rules.deal, "vowels", "") or "AEIOU")
        self.vowel = np.array([0] + [1 if ch in vowels else 0 for ch in letters], dtype=np.int8)
        self.consonant = np.array([0] + [0 if ch in vowels else 1 for ch in letters], dtype=np.int8)

    def features(self, ranks: np.ndarray) -> np.ndarray:
        """The additive model's features of some leaves (see :func:`smooth_values`)."""
        c = self.counts[ranks].astype(np.float32)
        k = self.tile_codes
        iu, ju = np.triu_indices(k, 1)
        v = c @ self.vowel.astype(np.float32)
        cons = c @ self.consonant.astype(np.float32)
        size = self.size[ranks]
        size_onehot = np.zeros((len(ranks), self.max_size), dtype=np.float32)
        size_onehot[np.arange(len(ranks)), size - 1] = 1.0
        balance = ((v - cons) ** 2)[:, None]
        return np.hstack([size_onehot, c, c * (c - 1) / 2, c[:, iu] * c[:, ju], balance])

    def predict(self, beta: np.ndarray) -> np.ndarray:
        """The additive model's value of every leave, without building the whole feature matrix."""
        k = self.tile_codes
        m = self.max_size
        s_coef, a, d = beta[:m], beta[m:m + k], beta[m + k:m + 2 * k]
        npairs = k * (k - 1) // 2
        p = beta[m + 2 * k:m + 2 * k + npairs]
        w_balance = beta[m + 2 * k + npairs]
        pair = np.zeros((k, k), dtype=np.float64)
        iu, ju = np.triu_indices(k, 1)
        pair[iu, ju] = p
        pair = pair + pair.T
        out = np.empty(len(self.counts), dtype=np.float64)
        step = 200_000
        for lo in range(0, len(self.counts), step):
            c = self.counts[lo:lo + step].astype(np.float64)
            v = c @ self.vowel
            cons = c @ self.consonant
            out[lo:lo + step] = (s_coef[self.size[lo:lo + step] - 1] + c @ a + (c * (c - 1) / 2) @ d
                                 + 0.5 * np.einsum("ij,ij->i", c @ pair, c) + w_balance * (v - cons) ** 2)
        return out


def smooth_values(structure: _Structure, sums: np.ndarray, counts: np.ndarray, shrink: float = SHRINK,
                  ridge: float = 50.0) -> np.ndarray:
    """Leave values from one round's sums and counts of next-turn scores (see the module docstring).

    The prior of every leave is an additive model fitted by weighted ridge regression on
    the leaves seen: a term per number of tiles kept, a value per tile, a duplicate term
    per tile, a term per pair of different tiles and a vowel/consonant balance term."""
    total = counts.sum()
    overall = sums.sum() / total if total else 0.0
    seen = np.nonzero(counts > 0)[0]
    values = np.zeros(len(sums), dtype=np.float64)
    if len(seen) == 0:
        return values
    mean = sums[seen] / counts[seen] - overall
    X = structure.features(seen).astype(np.float64)
    w = counts[seen].astype(np.float64)
    xtw = X.T * w
    A = xtw @ X + ridge * np.eye(X.shape[1])
    beta = np.linalg.solve(A, xtw @ mean)
    prior = structure.predict(beta)
    values[:] = prior
    n = counts[seen]
    values[seen] = (n * mean + shrink * prior[seen]) / (n + shrink)
    return values


def observations(results) -> tuple[list[str], list[int]]:
    """(leave, next score) of every game's trace."""
    leaves_kept: list[str] = []
    scores: list[int] = []
    for r in results:
        for leave, score in r.trace or ():
            leaves_kept.append(leave)
            scores.append(score)
    return leaves_kept, scores


def train_leaves(config: TrainingConfig, out: str | Path, resume: bool = False,
                 progress: Callable[[int, int, int], None] | None = None):
    """Train a leave table (see the module docstring) and write it to ``out``; returns the Leaves.

    ``progress(round, games_done, games_per_round)`` is called after every chunk.  Ctrl-C
    stops the workers at once; the state saved after the last whole chunk stays, and
    ``resume=True`` continues from it.
    """
    from .autoplay import AutoplaySpec, iter_games
    from ..inputs import write_atomic
    from ..parallel import interrupts_deferred
    from ..leaves import Leaves
    from ..rules import Rules

    if config.games < 1 or config.rounds < 1 or config.jobs < 1 or config.chunk < 1:
        raise WordSalvoError(f"training: expected games, rounds, jobs and chunk >= 1, got {config}")
    rules = Rules.preset(config.rules) if not config.rules.endswith(".toml") else Rules.load(config.rules)
    out = checked_path(out, WordSalvoError, "leave table")
    state_dir = checked_path(out.with_name(out.name + ".state"), WordSalvoError, "state folder")
    state_file = state_dir / "state.json"
    want = {"rules": config.rules, "games": config.games, "rounds": config.rounds, "seed": config.seed,
            "lexicon": config.lexicon}
    state = {"config": want, "round": 0, "games_done": 0}
    if resume and state_file.is_file():
        state = json.loads(state_file.read_text("utf-8"))
        if state.get("config") != want:
            raise WordSalvoError(f"{state_file}: expected a run with {want}, got one with {state.get('config')}; "
                                 "start without --resume or use the same settings")
    elif state_dir.exists() and any(state_dir.iterdir()) and not resume:
        for f in state_dir.iterdir():
            f.unlink()
    state_dir.mkdir(parents=True, exist_ok=True)

    table = Leaves.zeros(rules)
    structure = _Structure(table)
    n = len(table)
    for rnd in range(config.rounds):
        table_path = state_dir / f"round-{rnd}.wsl"
        if rnd < state["round"]:
            continue
        if rnd == 0:
            Leaves.zeros(rules).save(table_path) if not table_path.exists() else None
        sums_path = state_dir / "sums.npz"
        sums = np.zeros(n, dtype=np.int64)
        counts = np.zeros(n, dtype=np.int64)
        done = state["games_done"]
        if done and sums_path.is_file():
            data = np.load(sums_path)
            sums, counts = data["sums"].astype(np.int64), data["counts"].astype(np.int64)
        spec = AutoplaySpec(rules=config.rules, players=("equity", "equity"), seed=config.seed * 1000 + rnd,
                            lexicon=config.lexicon, leaves=str(table_path))
        while done < config.games:
            k = min(config.chunk, config.games - done)
            with closing(iter_games(spec, k, jobs=config.jobs, start=done, trace=True)) as games:
                results = list(games)
            kept, scores = observations(results)
            if kept:
                ranks = np.fromiter((table.rank(x) for x in kept), dtype=np.int64, count=len(kept))
                sums += np.bincount(ranks, weights=np.asarray(scores, dtype=np.float64), minlength=n).astype(np.int64)
                counts += np.bincount(ranks, minlength=n)
            done += k
            with interrupts_deferred():  # the sums and the count of games they hold, saved together
                tmp = state_dir / "sums.tmp.npz"
                np.savez(tmp, sums=sums, counts=counts)
                tmp.replace(sums_path)
                state = {"config": want, "round": rnd, "games_done": done}
                write_atomic(state_file, json.dumps(state).encode())
            if progress is not None:
                progress(rnd, done, config.games)
        values = smooth_values(structure, sums.astype(np.float64), counts.astype(np.float64))
        table = Leaves.from_values(rules, values)
        with interrupts_deferred():  # the round's table and the state that names it, together
            table.save(state_dir / f"round-{rnd + 1}.wsl")
            state = {"config": want, "round": rnd + 1, "games_done": 0}
            if sums_path.exists():
                sums_path.unlink()
            write_atomic(state_file, json.dumps(state).encode())
    final = Leaves.load(state_dir / f"round-{config.rounds}.wsl")
    # the shipped precision: 1/256 point in int16 (half the size of float32)
    Leaves.from_values(rules, np.clip(final.values, -127.0, 127.0)).save(out, precision="int16")
    return Leaves.load(out)

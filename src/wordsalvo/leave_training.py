"""Leave tables trained by our own self-play.

The method
----------
Training runs in rounds.  Round 0 plays with an all-zero table (the equity
player is then a pure score player that still swaps a hopeless rack); each
later round plays with the table the round before produced.  In a round,
``games`` seeded games of ``equity`` against ``equity`` are played
(:mod:`wordsalvo.autoplay`, on every core with ``jobs``) and every turn that
keeps a leave while the bag still holds tiles becomes one observation:

    (the leave kept, the points the same player scores on their next turn)

A swap is such a turn too (the leave is what it keeps; its own score is 0).
Turns after which the game ends, or the player has no next turn, give no
observation.  Then, for every leave ``L`` seen ``n`` times with mean next score
``m``, and ``M`` the mean next score of all observations of the round:

    raw(L)   = m - M                  what holding L was worth, in points of the next turn
    prior(L) = mean over the tiles t of L of ( value(L - t) + value({t}) )
    value(L) = (n * raw(L) + K * prior(L)) / (n + K)

computed size by size (1-tile leaves first, their prior is 0), so a leave seen
rarely or never is valued by its sub-leaves: additively, which keeps the
single-tile values and the pair effects (duplicates, vowel-consonant balance)
that the data did show.  ``K`` (:data:`SHRINK`) is how many observations it
takes for a leave's own data to outweigh its prior.  The observations are
exact integers, so a round's table is the same whatever ``jobs`` is; the same
seed gives the same table.

A run keeps its state next to the output (``OUT.state/``: the finished rounds'
tables, and the running sums of the current round written every chunk of
games) and ``resume=True`` continues where an interrupted run stopped.  Every
file is written atomically.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import WordSalvoError

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
    """For every leave rank: its size, and the ranks of its sub-leaves and single tiles."""

    def __init__(self, leaves):
        n = len(leaves)
        self.size = np.zeros(n, dtype=np.int8)
        subs: list[list[int]] = [[] for _ in range(n)]
        singles: list[list[int]] = [[] for _ in range(n)]
        single_rank: dict[str, int] = {}
        for r in range(1, n):
            tiles = leaves.leave(r)
            self.size[r] = len(tiles)
            if len(tiles) == 1:
                single_rank[tiles] = r
        for r in range(1, n):
            tiles = leaves.leave(r)
            if len(tiles) < 2:
                continue
            for i, t in enumerate(tiles):
                subs[r].append(leaves.rank(tiles[:i] + tiles[i + 1:]))
                singles[r].append(single_rank[t])
        self.by_size = []
        for k in range(2, int(self.size.max()) + 1):
            ranks = np.nonzero(self.size == k)[0]
            self.by_size.append((ranks, np.array([subs[r] for r in ranks], dtype=np.int64),
                                 np.array([singles[r] for r in ranks], dtype=np.int64)))
        self.singles = np.nonzero(self.size == 1)[0]


def smooth_values(structure: _Structure, sums: np.ndarray, counts: np.ndarray, shrink: float = SHRINK) -> np.ndarray:
    """Leave values from one round's sums and counts of next-turn scores (see the module docstring)."""
    total = counts.sum()
    overall = sums.sum() / total if total else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        raw = np.where(counts > 0, sums / np.maximum(counts, 1) - overall, 0.0)
    values = np.zeros(len(sums), dtype=np.float64)
    s = structure.singles
    values[s] = counts[s] * raw[s] / (counts[s] + shrink)
    for ranks, subs, singles in structure.by_size:
        prior = (values[subs] + values[singles]).mean(axis=1)
        n = counts[ranks]
        values[ranks] = (n * raw[ranks] + shrink * prior) / (n + shrink)
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

    ``progress(round, games_done, games_per_round)`` is called after every chunk.
    """
    from .autoplay import AutoplaySpec, iter_games
    from .graphfile import write_atomic
    from .leaves import Leaves
    from .rules import Rules

    if config.games < 1 or config.rounds < 1 or config.jobs < 1 or config.chunk < 1:
        raise WordSalvoError(f"training: expected games, rounds, jobs and chunk >= 1, got {config}")
    rules = Rules.preset(config.rules) if not config.rules.endswith(".toml") else Rules.load(config.rules)
    out = Path(out)
    state_dir = out.with_name(out.name + ".state")
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
            results = list(iter_games(spec, k, jobs=config.jobs, start=done, trace=True))
            kept, scores = observations(results)
            if kept:
                ranks = np.fromiter((table.rank(x) for x in kept), dtype=np.int64, count=len(kept))
                sums += np.bincount(ranks, weights=np.asarray(scores, dtype=np.float64), minlength=n).astype(np.int64)
                counts += np.bincount(ranks, minlength=n)
            done += k
            tmp = state_dir / "sums.tmp.npz"
            np.savez(tmp, sums=sums, counts=counts)
            tmp.replace(sums_path)
            state = {"config": want, "round": rnd, "games_done": done}
            write_atomic(state_file, json.dumps(state).encode())
            if progress is not None:
                progress(rnd, done, config.games)
        values = smooth_values(structure, sums.astype(np.float64), counts.astype(np.float64))
        table = Leaves.from_values(rules, values)
        table.save(state_dir / f"round-{rnd + 1}.wsl")
        state = {"config": want, "round": rnd + 1, "games_done": 0}
        if sums_path.exists():
            sums_path.unlink()
        write_atomic(state_file, json.dumps(state).encode())
    final = Leaves.load(state_dir / f"round-{config.rounds}.wsl")
    final.save(out)
    return Leaves.load(out)

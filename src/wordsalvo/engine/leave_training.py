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
file is written atomically, and ``state.json`` alone says which files are the
state: a crash at any write resumes to the same table as a run never stopped.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import WordSalvoError
from ..inputs import checked_path, excerpt, read_bytes, write_atomic

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


# -- the saved state -----------------------------------------------------------------------
# ``OUT.state/state.json`` is the one pointer: it names the round, the games done and the
# file of the running sums (``sums-<round>-<games>.npz``, a new name every chunk).  A commit
# writes the new data under new names first, then replaces state.json (atomically), then
# removes what it no longer names; a crash at any point leaves the old state or the new
# one whole, never a mix (sums counted twice, or a round rebuilt from zero).


def _remove(path: Path) -> None:
    """Removes a file the state no longer names (missing already: fine)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def _remove_stale(state_dir: Path, state: dict) -> None:
    """Removes the sums files that ``state`` does not name (left by a crash or a commit)."""
    for f in sorted(state_dir.glob("sums*.npz")):
        if f.name != state.get("sums"):
            _remove(f)


def _commit(state_dir: Path, state: dict) -> dict:
    """Makes ``state`` the run's state: one atomic replace of state.json (its files are
    written before), then removes the files it no longer names."""
    write_atomic(state_dir / "state.json", json.dumps(state).encode())
    _remove_stale(state_dir, state)
    return state


def _read_state(state_file: Path, want: dict) -> dict:
    """The saved state of a run with the settings ``want``; WordSalvoError for another
    run's state or one that cannot be read."""
    try:
        state = json.loads(read_bytes(state_file, WordSalvoError, "training state", 1 << 20).decode("utf-8"))
    except (WordSalvoError, ValueError, RecursionError) as e:
        raise WordSalvoError(f"{state_file}: expected the saved state of a training run, got an unreadable "
                             f"file ({type(e).__name__}); start again without --resume") from None
    if not isinstance(state, dict) or state.get("config") != want:
        got = state.get("config") if isinstance(state, dict) else state
        raise WordSalvoError(f"{state_file}: expected a run with {want}, got one with {excerpt(got, 300)}; "
                             "start without --resume or use the same settings")
    rnd, done = state.get("round"), state.get("games_done")
    if "sums" not in state and done:  # a state written before the pointer named its sums
        state["sums"] = "sums.npz"
    sums = state.get("sums")
    if (type(rnd) is not int or type(done) is not int or not 0 <= rnd <= want["rounds"]
            or not 0 <= done <= want["games"] or (done and not (isinstance(sums, str)
                                                              and _SUMS_NAME.fullmatch(sums)))):
        raise WordSalvoError(f"{state_file}: expected round 0..{want['rounds']}, games done 0..{want['games']} "
                             f"and the name of its sums file, got {excerpt(state, 300)}; start again without --resume")
    return state


#: the names of the sums files a state may name
_SUMS_NAME = re.compile(r"sums(-[0-9]{1,6}-[0-9]{1,18})?\.npz")


def _read_sums(path: Path, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The running sums and counts of a round the state names."""
    try:
        with np.load(path, allow_pickle=False) as data:
            sums, counts = data["sums"].astype(np.int64), data["counts"].astype(np.int64)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise WordSalvoError(f"{path}: expected the running sums the state names, got "
                             f"{'no file' if isinstance(e, FileNotFoundError) else type(e).__name__}; "
                             "start again without --resume") from None
    if sums.shape != (n,) or counts.shape != (n,):
        raise WordSalvoError(f"{path}: expected {n} sums and counts, got {sums.shape} and {counts.shape}; "
                             "start again without --resume")
    return sums, counts


def train_leaves(config: TrainingConfig, out: str | Path, resume: bool = False,
                 progress: Callable[[int, int, int], None] | None = None):
    """Train a leave table (see the module docstring) and write it to ``out``; returns the Leaves.

    ``progress(round, games_done, games_per_round)`` is called after every chunk.  Ctrl-C
    stops the workers at once; the state saved after the last whole chunk stays, and
    ``resume=True`` continues from it.
    """
    from .autoplay import AutoplaySpec, iter_games
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
    state = {"config": want, "round": 0, "games_done": 0, "sums": None}
    if resume and state_file.is_file():
        state = _read_state(state_file, want)
    elif state_dir.exists() and any(state_dir.iterdir()) and not resume:
        for f in state_dir.iterdir():
            f.unlink()
    state_dir.mkdir(parents=True, exist_ok=True)
    _remove_stale(state_dir, state)

    table = Leaves.zeros(rules)
    structure = _Structure(table)
    n = len(table)
    for rnd in range(config.rounds):
        table_path = state_dir / f"round-{rnd}.wsl"
        if rnd < state["round"]:
            continue
        if rnd == 0:
            Leaves.zeros(rules).save(table_path) if not table_path.exists() else None
        elif not table_path.is_file():
            raise WordSalvoError(f"{state_file}: the state is at round {rnd + 1}, but its table {table_path} "
                                 "is missing; start again without --resume")
        sums = np.zeros(n, dtype=np.int64)
        counts = np.zeros(n, dtype=np.int64)
        done = state["games_done"]
        if done:
            sums, counts = _read_sums(state_dir / state["sums"], n)
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
            with interrupts_deferred():  # the sums under a new name, then the one pointer that names them
                name = f"sums-{rnd}-{done}.npz"
                buf = io.BytesIO()
                np.savez(buf, sums=sums, counts=counts)
                write_atomic(state_dir / name, buf.getvalue())
                state = _commit(state_dir, {"config": want, "round": rnd, "games_done": done, "sums": name})
            if progress is not None:
                progress(rnd, done, config.games)
        values = smooth_values(structure, sums.astype(np.float64), counts.astype(np.float64))
        table = Leaves.from_values(rules, values)
        with interrupts_deferred():  # the round's table, then the pointer that names it
            table.save(state_dir / f"round-{rnd + 1}.wsl")
            state = _commit(state_dir, {"config": want, "round": rnd + 1, "games_done": 0, "sums": None})
    final = Leaves.load(state_dir / f"round-{config.rounds}.wsl")
    # the shipped precision: 1/256 point in int16 (half the size of float32)
    Leaves.from_values(rules, np.clip(final.values, -127.0, 127.0)).save(out, precision="int16")
    return Leaves.load(out)

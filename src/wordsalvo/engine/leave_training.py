"""Leave tables trained by our own self-play.

The method
----------
A leave is worth what the racks it can grow into are worth.  Training runs in
rounds; round 0 plays with an all-zero table (the equity player is then a pure
score player), each later round with the table the round before produced.  In a
round, ``games`` seeded games of ``equity`` against ``equity`` are played in the C
self-play loop (:mod:`wordsalvo.engine.autoplay`, on every core with ``jobs`` or on
a Dask cluster with ``scheduler``) and every turn that begins with a full rack
while the bag holds tiles becomes one observation of that rack:

    (the full rack R, its return: the equity of the action taken)

The return is the score of the play plus the value, under the round's table, of
the leave it kept (a swap: the value of what it keeps).  Valuing a rack by the
table's own value of what it keeps makes each round a step of a fixed-point
iteration: a tile whose worth shows only turns later (a blank, an S, a
balanced leave) enters its rack's return through the leave value the previous
round learnt, so the horizon grows by a turn each round.  The old method (the
points of the next turn alone, credited to the leave actually kept) saw one
turn ahead only, and so valued the blank, S and the bingo leaves at about half
of what strong engines value them.

Every observed rack R then credits its mean return ``m(R)`` (the mean of its
observations: each distinct rack counts once, whatever its frequency, so common
racks do not drown rare ones) to **every** leave ``L`` it could have kept, not
only the one it did keep, weighted by the chance of drawing the rest of R after
keeping L: ``w(R, L) = prod over tiles t of C(n_t - L_t, (R - L)_t)`` with ``n_t``
the tile set's count of ``t``.  So

    raw(L)   = sum_R w(R, L) m(R) / sum_R w(R, L)  -  A

where ``A`` is the chance-weighted mean return of all racks seen: raw(L) is
how much more than an average rack a rack grown from L is worth, which is the
expected value of keeping L, draws included.  This is the method of the
leave generator of MAGPIE (a strong open engine: ``rack_list.c``,
"leavegen") written anew for our engine and our C self-play; the weighting by
the inverse of a rack's frequency (its mean, not its sum) with the chance of
its draw is what lets rare racks count fairly.

A leave whose observed racks are few is noisy.  Its evidence is the effective
number of racks behind it (Kish: ``(sum w)^2 / sum w^2``), ``n``, and

    prior(L) = the additive model's value of L
    value(L) = (n * raw(L) + K * prior(L)) / (n + K)

The additive model values a leave by its parts: a term for the number of tiles
kept, a value per tile, a term per duplicated tile, a term for every pair of
different tiles and one for the balance of vowels and consonants, fitted by
weighted ridge regression (weights ``n``) on the leaves of 1 to 5 tiles.  ``K``
(:data:`SHRINK`, 16 racks) is how much evidence it takes for a leave's own data
to outweigh its prior.  A leave never seen (a rare 6-tile leave) is its prior.

Forced racks (``forced_games``, off by default)
-----------------------------------------------
A 6-tile leave grows into at most a few dozen racks, each counted once, so its
evidence ``n`` can never pass about 17 racks (AEINST: 16.6) and its value stays
half its prior however long the run: the bingo leaves stay low.  MAGPIE's leave
generator ends a generation only when every rack has been seen a minimum number
of times, forcing rare racks into play.  With ``forced_games`` every round but
the first (which plays by score and has no leave values to rank by) plays, after
its normal games, that many more games in which racks are forced onto the mover
(:meth:`~wordsalvo.engine.selfplay.SelfPlay.play`: from the third turn on, the
mover's rack goes back into the bag and the forced rack's tiles come out of it,
when the rack and the bag hold them; the game goes on from there).  What is
forced: the 6-tile leaves in order of their value under the round's table times
the ways of drawing them (AEIRST, AEINST, AEINRT, AEIRT? first), and for each
the racks that hold it, as often as each
falls short of ``min_count`` observations in the round so far, until the
games' :data:`FORCE_PER_GAME` slots are full; copies of a rack go to different
games.  Every turn of a forced game that begins with a full rack is an
observation, as in a normal game.  And since a rack seen ``c`` times has a mean
``c`` times surer than one seen once, the evidence of a leave is then counted in
observations, not racks: ``n`` is the Kish number times the ``w``-weighted
harmonic mean of its racks' counts, so a leave whose racks have all been seen
often trusts its own mean.  The plan of a round is kept with its sums, so a
resumed run forces the same racks.

The cover (``cover``, off by default)
------------------------------------
A round of 125,000 CSW24 games sees about 0.8 of the 3.2 million full racks the
tile set can make; the others (rare racks: consonant-heavy, duplicate-heavy, two
blanks) are simply missing from every leave's weighted sums, the sum of their
chances of being drawn is missing from its denominator, and the average ``A`` is
taken over the racks seen.  MAGPIE's leave generator ends a generation only
when every rack has been seen a minimum number of times, and it gets there
cheaply: at a turn it puts a rare rack on the mover, records the equity of the
best move with it in that position, and puts the real rack back.  With ``cover
= C`` every round but the first (which has no leave values yet) does the same
after its normal games: it plays *cover games*, ordinary games of the round
(game indices ``games`` on) at each turn of which (a full rack and at least a
rack's worth of tiles in the bag) the mover's player also values
``probes_per_turn`` racks from a list, each in that position, without changing
the game (:meth:`~wordsalvo.engine.selfplay.SelfPlay.play`, ``probe``): the
rack's return is the equity of the action the equity player would take with it
there (a play or a swap, valued under the round's table exactly as a turn's
return is), and an action that is a pass records nothing.  The list is planned
in passes (:func:`cover_plan`): every full rack with ``c < C`` observations in
the round so far gets ``C - c`` copies, the racks never seen first, shuffled
within a level so a game's racks are unrelated, ``probes_per_turn *``
:data:`COVER_TURNS` to a game; racks a game had no turn left for go into the
next pass, planned from the counts after the last one.  The cover ends when
every rack has ``C`` observations or after ``cover_games`` games (default: as
many as ``games``).  The cover games' own turns are observations too, as in any
game.

With a cover, a leave's evidence is counted in observations, as with forced
racks.  Every rack now has ``C`` or more observations, so counted in racks
every 6-tile leave would have the same evidence (the Kish number of all the
racks it grows into, under 17) and stay half its prior however often its racks
were seen; counted in observations, a leave whose racks are common (seen
hundreds of times) trusts its own mean, and one whose racks were seen once each
leans on its prior, which is what the evidence is for.

Returns are exact integers (1/256 points) and the per-rack sums are kept in
key order, so a round's table is the same whatever ``jobs`` or the scheduler
is; the same seed gives the same table.  A run keeps its state next to the
output (``OUT.state/``: the finished rounds' tables, and the running sums of
the current round written every chunk of games) and ``resume=True`` continues
where an interrupted run stopped (a cover's current pass is kept with the sums, so a
resumed run probes the same racks).  Every file is written atomically, and
``state.json`` alone says which files are the state: a crash at any write
resumes to the same table as a run never stopped.
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

__all__ = ["TrainingConfig", "train_leaves", "leave_values", "forced_plan", "cover_plan", "full_rack_keys",
           "RackStats", "SHRINK"]

#: effective racks at which a leave's own mean and its prior weigh the same
SHRINK = 16.0
#: racks a forced game may force (the slots of the plan; about 13 of them are played)
FORCE_PER_GAME = 16
#: the turns of a cover game whose probes a plan fills (probes_per_turn racks each): a game
#: of classic-en has about 17 turns that begin with a full rack and 7 tiles in the bag, so
#: nearly every game values all the racks it is given (the others wait for the next pass)
COVER_TURNS = 12


@dataclass(frozen=True)
class TrainingConfig:
    rules: str
    games: int                 #: games per round
    rounds: int = 3
    seed: int = 0
    lexicon: str | None = None
    jobs: int = 1
    chunk: int = 500           #: games between two state saves
    scheduler: str | None = None  #: a Dask distributed scheduler's address (instead of ``jobs``)
    forced_games: int = 0      #: games with forced racks per round after the first (0: none)
    min_count: int = 8         #: the observations a forced rack is topped up to in a round
    cover: int = 0             #: rounds after the first: the observations every full rack is probed up to (0: none)
    cover_games: int = 0       #: the most cover games a round plays (0: as many as ``games``)
    probes_per_turn: int = 16  #: probe racks a cover game values at each of its turns


class _Structure:
    """The tile counts of every leave, by rank (one row per leave, one column per tile code),
    and the keys that find a leave's rank from its sorted tile codes."""

    def __init__(self, leaves):
        rules = leaves.rules
        letters = rules.alphabet.letters
        self.rules = rules
        self.rack_size = rules.rack_size
        self.tile_codes = len(letters) + 1
        counts = np.asarray(leaves._table.unrank_all(), dtype=np.int8)  # (leaves, tile codes), rank order
        assert counts.shape[1] == self.tile_codes
        self.counts = counts
        self.size = counts.sum(axis=1).astype(np.int64)
        self.max_size = int(self.size.max())
        vowels = set(getattr(rules.deal, "vowels", "") or "AEIOU")
        self.vowel = np.array([0] + [1 if ch in vowels else 0 for ch in letters], dtype=np.int8)
        self.consonant = np.array([0] + [0 if ch in vowels else 1 for ch in letters], dtype=np.int8)
        dist = rules.distribution()
        #: the tile set's count of every tile code (0 = blank)
        self.tile_count = np.array([dist.get("?", 0)] + [dist.get(ch, 0) for ch in letters], dtype=np.float64)
        from .autoplay import rack_key_bits

        self.bits = rack_key_bits(self.tile_codes)
        keys = self._keys_of_counts(counts)
        self.key_order = np.argsort(keys, kind="stable")
        self.sorted_keys = keys[self.key_order]

    def _keys_of_counts(self, counts: np.ndarray) -> np.ndarray:
        """Rack keys (:func:`~wordsalvo.engine.autoplay.rack_records`) of tile-count rows."""
        from .autoplay import rack_keys

        return rack_keys(counts, self.tile_codes)

    def ranks_of_keys(self, keys: np.ndarray) -> np.ndarray:
        """The rank of every leave key (each must be a leave of the table)."""
        i = np.searchsorted(self.sorted_keys, keys)
        assert np.all(self.sorted_keys[np.minimum(i, len(self.sorted_keys) - 1)] == keys)
        return self.key_order[i]

    def codes_of_keys(self, keys: np.ndarray) -> np.ndarray:
        """The sorted tile codes of full-rack keys: (racks, rack size)."""
        mask = (1 << self.bits) - 1
        shifts = self.bits * np.arange(self.rack_size, dtype=np.int64)
        return ((keys[:, None] >> shifts) & mask) - 1

    def features(self, ranks: np.ndarray) -> np.ndarray:
        """The additive model's features of some leaves (see :func:`leave_values`)."""
        c = self.counts[ranks].astype(np.float64)
        k = self.tile_codes
        iu, ju = np.triu_indices(k, 1)
        v = c @ self.vowel.astype(np.float64)
        cons = c @ self.consonant.astype(np.float64)
        size = self.size[ranks]
        size_onehot = np.zeros((len(ranks), self.max_size), dtype=np.float64)
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


def _counts_of_keys(structure: _Structure, keys: np.ndarray) -> np.ndarray:
    """The tile counts (uint8, one row a rack) of full-rack keys."""
    codes = structure.codes_of_keys(np.asarray(keys, dtype=np.int64))
    counts = np.zeros((len(codes), structure.tile_codes), dtype=np.uint8)
    for j in range(codes.shape[1]):
        np.add.at(counts, (np.arange(len(codes)), codes[:, j]), 1)
    return counts


class RackStats:
    """The running sums of one round: per distinct full rack (by key, ascending), the sum of
    its returns (1/256 points) and the number of its observations.  Exact integers: the
    same observations give the same sums in any order."""

    def __init__(self, keys=None, sums=None, counts=None):
        self.plan = None  #: forced-rack training: the round's plan as rack keys (0: none), once made
        #: cover training: the plan of the current pass (rack keys, one row a game) and the
        #: index of the round's game its first row is played by
        self.plan_start = 0
        self.keys = np.zeros(0, dtype=np.int64) if keys is None else np.asarray(keys, dtype=np.int64)
        self.sums = np.zeros(0, dtype=np.int64) if sums is None else np.asarray(sums, dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)

    def add(self, keys: np.ndarray, returns: np.ndarray) -> None:
        """Adds observations (rack keys and their returns)."""
        uniq, inverse = np.unique(np.asarray(keys, dtype=np.int64), return_inverse=True)
        sums = np.zeros(len(uniq), dtype=np.int64)
        np.add.at(sums, inverse, np.asarray(returns, dtype=np.int64))
        counts = np.bincount(inverse, minlength=len(uniq)).astype(np.int64)
        at = np.searchsorted(self.keys, uniq)
        known = at < len(self.keys)
        known[known] = self.keys[at[known]] == uniq[known]
        self.sums[at[known]] += sums[known]
        self.counts[at[known]] += counts[known]
        new = ~known
        self.keys = np.insert(self.keys, at[new], uniq[new])
        self.sums = np.insert(self.sums, at[new], sums[new])
        self.counts = np.insert(self.counts, at[new], counts[new])

    @property
    def observations(self) -> int:
        return int(self.counts.sum())


def _comb_table(top: int, size: int) -> np.ndarray:
    """``C(n, k)`` for n in 0..top, k in 0..size (float64)."""
    from math import comb

    return np.array([[comb(n, k) for k in range(size + 1)] for n in range(top + 1)], dtype=np.float64)


def leave_values(structure: _Structure, stats: RackStats, leaves=None, shrink: float = SHRINK,
                 ridge: float = 50.0, by_count: bool = False) -> np.ndarray:
    """Leave values from one round's rack sums (see the module docstring).  ``leaves``: a
    table of the rule set (its ranking is used; default all-zero).  ``by_count``: a leave's
    evidence in observations (its Kish number of racks times the weighted harmonic mean of
    their counts; forced-rack training), not in racks."""
    from ..leaves import Leaves

    n_leaves = len(structure.counts)
    values = np.zeros(n_leaves, dtype=np.float64)
    if len(stats.keys) == 0:
        return values
    table = (leaves if leaves is not None else Leaves.zeros(structure.rules))._table
    codes = structure.codes_of_keys(stats.keys)
    racks = np.zeros((len(codes), structure.tile_codes), dtype=np.uint8)
    for j in range(codes.shape[1]):
        np.add.at(racks, (np.arange(len(codes)), codes[:, j]), 1)
    mean = stats.sums / stats.counts / 256.0
    # the chance-weighted mean return of the racks seen: ways of drawing each rack
    comb = _comb_table(int(structure.tile_count.max()), structure.rack_size)
    w_all = np.prod(comb[structure.tile_count.astype(np.int64)[None, :], racks], axis=1)
    average = float((w_all * mean).sum() / w_all.sum())
    S = np.zeros(n_leaves)
    W = np.zeros(n_leaves)
    W2 = np.zeros(n_leaves)
    table.credit_racks(racks, np.ascontiguousarray(mean, dtype=np.float64), structure.tile_count, S, W, W2)
    seen = np.flatnonzero(W > 0)
    raw = S[seen] / W[seen] - average
    n_eff = W[seen] ** 2 / W2[seen]
    n_obs = n_eff
    if by_count:  # sum w / c over sum w: the weighted mean of 1 / count
        inv = np.zeros(n_leaves)
        table.credit_racks(racks, np.ascontiguousarray(1.0 / stats.counts, dtype=np.float64), structure.tile_count,
                           inv, np.zeros(n_leaves), np.zeros(n_leaves))
        n_obs = n_eff * W[seen] / inv[seen]
    # the prior: the additive model, fitted on the leaves of up to 4 tiles and every
    # 8th leave of 5 (deterministic; enough rows for the pair terms, a few seconds)
    size = structure.size[seen]
    pick = (size <= 4) | ((size == 5) & (np.arange(len(seen)) % 8 == 0))
    X = structure.features(seen[pick])
    xtw = X.T * n_eff[pick]
    A = xtw @ X + ridge * np.eye(X.shape[1])
    beta = np.linalg.solve(A, xtw @ raw[pick])
    prior = structure.predict(beta)
    values[:] = prior
    values[seen] = (n_obs * raw + shrink * prior[seen]) / (n_obs + shrink)
    return values


def forced_plan(structure: _Structure, stats: RackStats, values: np.ndarray, games: int, min_count: int,
                per_game: int = FORCE_PER_GAME) -> np.ndarray:
    """The racks a round's forced games force (see the module docstring): tile counts of
    shape (games, per_game, tile codes), uint8; a row of zeros is an empty slot.

    The 6-tile leaves worth more than 0 by ``values``, in order of their value times the
    ways of drawing them (descending, ties by rank: the bingo leaves first, the common ones
    among them first), each leave's racks (the leave and one tile more the tile set still has), each rack once, as many copies as it
    falls short of ``min_count`` observations in ``stats``, copy k of every rack before copy
    k + 1 of any, until ``games * per_game`` copies; they are dealt to the games in a fixed
    shuffled order (so the copies of a rack play in different games)."""
    k = structure.tile_codes
    slots = games * per_game
    plan = np.zeros((games, per_game, k), dtype=np.uint8)
    if slots == 0 or min_count < 1:
        return plan
    six = np.flatnonzero(structure.size == structure.rack_size - 1)
    comb = _comb_table(int(structure.tile_count.max()), structure.rack_size)
    ways = np.prod(comb[structure.tile_count.astype(np.int64)[None, :], structure.counts[six].astype(np.int64)], axis=1)
    priority = ways * np.maximum(np.asarray(values, dtype=np.float64)[six], 0.0)
    six = six[priority > 0]
    order = six[np.lexsort((six, -priority[priority > 0]))]
    room = structure.tile_count.astype(np.int64)
    racks, deficits, seen_keys = [], [], set()
    total = 0
    step = 4096
    for lo in range(0, len(order), step):
        leaves = structure.counts[order[lo:lo + step]].astype(np.int64)
        # every leave plus every tile: (leaves, tiles) racks, kept where the tile set has the tile
        grown = leaves[:, None, :] + np.eye(k, dtype=np.int64)[None, :, :]
        ok = (grown <= room[None, None, :]).all(axis=2)
        grown = grown[ok]
        keys = structure._keys_of_counts(grown.astype(np.int8))
        _, first = np.unique(keys, return_index=True)
        first.sort()
        fresh = np.array([key not in seen_keys for key in keys[first].tolist()], dtype=bool)
        first = first[fresh]
        seen_keys.update(keys[first].tolist())
        at = np.searchsorted(stats.keys, keys[first])
        at_ok = at < len(stats.keys)
        count = np.zeros(len(first), dtype=np.int64)
        hit = at_ok.copy()
        hit[at_ok] = stats.keys[at[at_ok]] == keys[first][at_ok]
        count[hit] = stats.counts[at[hit]]
        short = np.maximum(0, min_count - count)
        keep = short > 0
        racks.append(grown[first][keep])
        deficits.append(short[keep])
        total += int(short[keep].sum())
        if total >= slots:
            break
    if not racks:
        return plan
    racks_all = np.concatenate(racks)
    short_all = np.concatenate(deficits)
    # copy c of every rack (in priority order) before copy c + 1 of any
    copy = np.concatenate([np.arange(d) for d in short_all.tolist()]) if len(short_all) else np.zeros(0, np.int64)
    which = np.repeat(np.arange(len(racks_all)), short_all)
    seq = which[np.lexsort((which, copy))][:slots]
    # dealt in a fixed shuffled order (the same every run): copies of a rack in different games
    seq = seq[np.random.default_rng(0).permutation(len(seq))]
    flat = np.zeros((slots, k), dtype=np.uint8)  # slot s: game s % games, place s // games
    flat[:len(seq)] = racks_all[seq]
    return np.ascontiguousarray(flat.reshape(per_game, games, k).transpose(1, 0, 2))


def full_rack_keys(structure: _Structure) -> np.ndarray:
    """The keys of every full rack the tile set can make, ascending (the rack keys of
    :func:`~wordsalvo.engine.autoplay.rack_records`): 3,199,724 racks of classic-en's 100 tiles."""
    cached = getattr(structure, "_full_rack_keys", None)
    if cached is not None:
        return cached
    have = structure.tile_count.astype(np.int64)
    keys = np.zeros(1, dtype=np.int64)
    last = np.full(1, -1, dtype=np.int64)  # the highest code so far (the rack is grown in code order)
    run = np.zeros(1, dtype=np.int64)      # how many of it
    for pos in range(structure.rack_size):
        parts_k, parts_l, parts_r = [], [], []
        for t in range(structure.tile_codes):
            if have[t] == 0:
                continue
            same = last == t
            ok = (last < t) | (same & (run < have[t]))
            parts_k.append(keys[ok] + ((t + 1) << (structure.bits * pos)))
            parts_l.append(np.full(int(ok.sum()), t, dtype=np.int64))
            parts_r.append(np.where(same[ok], run[ok] + 1, 1))
        keys, last, run = np.concatenate(parts_k), np.concatenate(parts_l), np.concatenate(parts_r)
    keys = np.sort(keys)
    structure._full_rack_keys = keys
    return keys


def cover_plan(structure: _Structure, stats: RackStats, cover: int, games: int, slots: int,
               seed) -> np.ndarray:
    """The racks the next pass of cover games probes (see the module docstring): rack keys of
    shape (at most ``games``, ``slots``), int64, 0 for an empty slot; no rows when every
    full rack has ``cover`` observations in ``stats``.

    Every full rack of the tile set (:func:`full_rack_keys`) with ``c < cover`` observations
    gets ``cover - c`` copies; copy ``k`` of a rack seen ``c`` times has the level
    ``c + k``, and the copies go lowest level first (the racks never seen before any seen
    once), in a shuffled order within a level (``numpy.random.default_rng(seed)``), so the
    racks a game probes are unrelated and the copies of a rack go to different games."""
    if cover < 1 or games < 1 or slots < 1:
        return np.zeros((0, max(slots, 0)), dtype=np.int64)
    every = full_rack_keys(structure)
    count = np.zeros(len(every), dtype=np.int64)
    if len(stats.keys):
        at = np.searchsorted(every, stats.keys)
        ok = at < len(every)
        ok[ok] = every[at[ok]] == stats.keys[ok]
        count[at[ok]] = stats.counts[ok]
    short = np.maximum(0, cover - count)
    which = np.repeat(np.arange(len(every)), short)
    if len(which) == 0:
        return np.zeros((0, slots), dtype=np.int64)
    copy = np.arange(len(which)) - np.repeat(np.cumsum(short) - short, short)
    level = (count[which] + copy).astype(np.int16 if cover <= 1 << 15 else np.int64)  # < cover
    shuffle = np.random.default_rng(seed).permutation(len(which))
    order = shuffle[np.argsort(level[shuffle], kind="stable")][:games * slots]  # a radix sort of levels
    rows = -(-len(order) // slots)
    plan = np.zeros(rows * slots, dtype=np.int64)
    plan[:len(order)] = every[which[order]]
    return plan.reshape(rows, slots)


# -- the saved state -----------------------------------------------------------------------
# ``OUT.state/state.json`` is the one pointer: it names the round, the games done and the
# file of the running sums (``racks-<round>-<games>.npz``, a new name every chunk).  A commit
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
    for f in sorted(state_dir.glob("racks*.npz")):
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
    sums = state.get("sums")
    most = want["games"] + want.get("forced_games", 0) + want.get("cover_games", 0)
    if (type(rnd) is not int or type(done) is not int or not 0 <= rnd <= want["rounds"]
            or not 0 <= done <= most or (done and not (isinstance(sums, str) and _SUMS_NAME.fullmatch(sums)))):
        raise WordSalvoError(f"{state_file}: expected round 0..{want['rounds']}, games done "
                             f"0..{most} "
                             f"and the name of its sums file, got {excerpt(state, 300)}; start again without --resume")
    return state


#: the names of the sums files a state may name
_SUMS_NAME = re.compile(r"racks-[0-9]{1,6}-[0-9]{1,18}\.npz")
#: the files a run writes in its state folder (the only ones --restart removes), atomic writes' leftovers too
_OWN_FILE = re.compile(r"(?:racks-[0-9]+-[0-9]+\.npz|round-[0-9]+\.wsl|state\.json)(?:\.[A-Za-z0-9_.-]*tmp[A-Za-z0-9_.-]*)?")


def _saved_run(state_file: Path) -> str:
    """The saved run ``state_file`` describes, in words (or that it cannot be read)."""
    try:
        state = json.loads(state_file.read_text("utf-8"))
        want = state["config"]
        return (f"a saved run of {want['rules']} ({want['rounds']} rounds x {want['games']:,} games, seed "
                f"{want['seed']}) at round {state['round'] + 1}, {state['games_done']:,} games done")
    except (OSError, ValueError, KeyError, TypeError):
        return "a saved run's state.json"


def _read_sums(path: Path) -> "RackStats":
    """The running sums of a round the state names."""
    try:
        with np.load(path, allow_pickle=False) as data:
            keys, sums, counts = (data[k].astype(np.int64) for k in ("keys", "sums", "counts"))
            plan = data["plan"].astype(np.int64) if "plan" in data.files else None
            plan_start = int(data["plan_start"]) if "plan_start" in data.files else 0
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise WordSalvoError(f"{path}: expected the running sums the state names, got "
                             f"{'no file' if isinstance(e, FileNotFoundError) else type(e).__name__}; "
                             "start again without --resume") from None
    if not (keys.ndim == 1 and keys.shape == sums.shape == counts.shape) or np.any(np.diff(keys) <= 0):
        raise WordSalvoError(f"{path}: expected keys in ascending order with one sum and count each, got "
                             f"shapes {keys.shape}, {sums.shape}, {counts.shape}; start again without --resume")
    stats = RackStats(keys, sums, counts)
    if plan is not None:
        if plan.ndim != 2 or np.any(plan < 0) or plan_start < 0:
            raise WordSalvoError(f"{path}: expected the plan of forced or probe racks as rack keys (games, racks) "
                                 f"from a game >= 0, got shape {plan.shape} from game {plan_start}; start again "
                                 "without --resume")
        stats.plan = plan
        stats.plan_start = plan_start
    return stats


def train_leaves(config: TrainingConfig, out: str | Path, resume: bool = False,
                 progress: Callable[..., None] | None = None, restart: bool = False):
    """Train a leave table (see the module docstring) and write it to ``out``; returns the Leaves.

    ``progress(round, games_done, games_per_round, change)`` is called after every chunk;
    ``change`` is the mean absolute change (points) of the table the last finished round
    made, None before the first.  Ctrl-C stops the workers at once; the state saved after
    the last whole chunk stays, and ``resume=True`` continues from it.  A saved run is
    never discarded unasked: without ``resume`` it is an error unless ``restart=True``.
    The scheduler (``config.scheduler``) is checked before anything is written.
    """
    from .autoplay import game_pool
    from contextlib import ExitStack

    if config.games < 1 or config.rounds < 1 or config.jobs < 1 or config.chunk < 1:
        raise WordSalvoError(f"training: expected games, rounds, jobs and chunk >= 1, got {config}")
    # one pool of workers, or one Dask client, for the whole run: one a chunk paid every
    # worker's start, or a connection to the scheduler, again
    with ExitStack() as stack:
        pool = stack.enter_context(game_pool(config.jobs)) if config.jobs > 1 and config.scheduler is None else None
        return _train(config, out, resume, progress, restart, pool, stack)


def _train(config: TrainingConfig, out, resume: bool, progress, restart: bool, pool, stack):
    """:func:`train_leaves` with ``pool`` (a game pool or None); with a scheduler, its client
    is made in ``stack`` (an ExitStack) once the scheduler has been checked."""
    from .autoplay import AutoplaySpec, iter_forced_games, iter_games, iter_probe_games
    from ..parallel import dask_client, interrupts_deferred
    from ..leaves import Leaves
    from ..rules import Rules

    if config.games < 1 or config.rounds < 1 or config.jobs < 1 or config.chunk < 1:
        raise WordSalvoError(f"training: expected games, rounds, jobs and chunk >= 1, got {config}")
    if config.forced_games < 0 or config.min_count < 1:
        raise WordSalvoError(f"training: expected forced games >= 0 and a minimum count >= 1, got "
                             f"{config.forced_games} and {config.min_count}")
    if config.cover < 0 or config.cover_games < 0 or config.probes_per_turn < 1:
        raise WordSalvoError(f"training: expected cover >= 0, cover games >= 0 and probes per turn >= 1, got "
                             f"{config.cover}, {config.cover_games} and {config.probes_per_turn}")
    if config.cover and config.forced_games:
        raise WordSalvoError(f"training: expected forced games or a cover, not both, got {config.forced_games} "
                             f"forced games and a cover of {config.cover}")
    if resume and restart:
        raise WordSalvoError("training: expected --resume (continue the saved run) or --restart (discard it), "
                             "got both")
    rules = Rules.from_spec(config.rules)
    out = checked_path(out, WordSalvoError, "leave table")
    state_dir = checked_path(out.with_name(out.name + ".state"), WordSalvoError, "state folder")
    state_file = state_dir / "state.json"
    if config.scheduler is not None:  # before the state is touched: a bad address changes nothing
        pool = stack.enter_context(dask_client(config.scheduler))
    want = {"method": "racks-1", "rules": config.rules, "games": config.games, "rounds": config.rounds,
            "seed": config.seed, "lexicon": config.lexicon}
    if config.forced_games:  # only then: a run without them keeps its old state's settings
        want.update(method="racks-forced-1", forced_games=config.forced_games, min_count=config.min_count)
    cover_cap = (config.cover_games or config.games) if config.cover else 0
    if config.cover:
        want.update(method="racks-cover-1", cover=config.cover, cover_games=cover_cap,
                    probes_per_turn=config.probes_per_turn)
    state = {"config": want, "round": 0, "games_done": 0, "sums": None}
    if resume and state_file.is_file():
        state = _read_state(state_file, want)
    elif state_file.is_file() and not restart:
        raise WordSalvoError(f"{state_dir}: expected no saved run (or --resume to continue it, --restart to "
                             f"discard it), got {_saved_run(state_file)}; nothing was changed")
    elif state_dir.is_dir():  # --restart, or the files of a run that saved no state: this run's own names only
        for f in state_dir.iterdir():
            if f.is_file() and (f.name == "state.json" or _OWN_FILE.fullmatch(f.name)):
                f.unlink()
    state_dir.mkdir(parents=True, exist_ok=True)
    _remove_stale(state_dir, state)

    table = Leaves.zeros(rules)
    structure = _Structure(table)
    change = state.get("change")
    for rnd in range(config.rounds):
        table_path = state_dir / f"round-{rnd}.wsl"
        if rnd < state["round"]:
            continue
        if rnd == 0:
            Leaves.zeros(rules).save(table_path) if not table_path.exists() else None
        elif not table_path.is_file():
            raise WordSalvoError(f"{state_file}: the state is at round {rnd + 1}, but its table {table_path} "
                                 "is missing; start again without --resume")
        stats = RackStats()
        done = state["games_done"]
        if done:
            stats = _read_sums(state_dir / state["sums"])
        spec = AutoplaySpec(rules=config.rules, players=("equity", "equity"), seed=config.seed * 1000 + rnd,
                            lexicon=config.lexicon, leaves=str(table_path))
        # the forced games (rounds after the first): game indices games .. games + forced - 1
        forced = config.forced_games if rnd > 0 else 0
        # the cover games (rounds after the first): game indices games .. games + cover_cap - 1 at most
        cover = config.cover if rnd > 0 else 0
        total = config.games + forced + (cover_cap if cover else 0)
        slots = config.probes_per_turn * COVER_TURNS
        while done < total:
            if done >= config.games and cover:
                if stats.plan is None or done >= stats.plan_start + len(stats.plan):
                    # a pass: the racks still short of the cover, from the counts so far
                    plan = cover_plan(structure, stats, cover, total - done, slots, [config.seed, rnd, done])
                    if len(plan) == 0:
                        break
                    stats.plan, stats.plan_start = plan, done
                k = min(config.chunk, stats.plan_start + len(stats.plan) - done)
                first = done - stats.plan_start
                items = [(done + g, _counts_of_keys(structure, stats.plan[first + g][stats.plan[first + g] > 0]))
                         for g in range(k)]
                with closing(iter_probe_games(spec, items, config.probes_per_turn, jobs=config.jobs,
                                              scheduler=config.scheduler, pool=pool)) as games:
                    results = list(games)
            elif done < config.games:
                k = min(config.chunk, config.games - done)
                with closing(iter_games(spec, k, jobs=config.jobs, scheduler=config.scheduler, start=done,
                                        trace="racks", pool=pool)) as games:
                    results = list(games)
            else:
                if stats.plan is None:  # the normal games are done: what to force, from their counts
                    plan = forced_plan(structure, stats, Leaves.load(table_path).values, forced, config.min_count)
                    stats.plan = structure._keys_of_counts(plan.reshape(-1, plan.shape[2])).reshape(plan.shape[:2])
                k = min(config.chunk, total - done)
                items = []
                for g in range(done - config.games, done - config.games + k):
                    keys = stats.plan[g][stats.plan[g] > 0]
                    if len(keys):  # a game with nothing to force is not played
                        items.append((config.games + g, _counts_of_keys(structure, keys)))
                with closing(iter_forced_games(spec, items, jobs=config.jobs, scheduler=config.scheduler,
                                               pool=pool)) as games:
                    results = list(games)
            keys = [r.racks[0] for r in results] + [r.probes[0] for r in results if r.probes is not None]
            returns = [r.racks[1] for r in results] + [r.probes[1] for r in results if r.probes is not None]
            if keys:
                stats.add(np.concatenate(keys), np.concatenate(returns))
            done += k
            with interrupts_deferred():  # the sums under a new name, then the one pointer that names them
                name = f"racks-{rnd}-{done}.npz"
                buf = io.BytesIO()
                extra = {"plan": stats.plan, "plan_start": np.int64(stats.plan_start)} if stats.plan is not None else {}
                np.savez(buf, keys=stats.keys, sums=stats.sums, counts=stats.counts, **extra)
                write_atomic(state_dir / name, buf.getvalue())
                state = _commit(state_dir, {"config": want, "round": rnd, "games_done": done, "sums": name,
                                            "change": change})
            if progress is not None:
                progress(rnd, done, total, change)
        values = leave_values(structure, stats, table, by_count=bool(config.forced_games or config.cover))
        before = Leaves.load(table_path).values
        change = float(np.mean(np.abs(values - before)))
        table = Leaves.from_values(rules, values)
        with interrupts_deferred():  # the round's table, then the pointer that names it
            table.save(state_dir / f"round-{rnd + 1}.wsl")
            state = _commit(state_dir, {"config": want, "round": rnd + 1, "games_done": 0, "sums": None,
                                        "change": change})
    final = Leaves.load(state_dir / f"round-{config.rounds}.wsl")
    # the shipped precision: 1/256 point in int16 (half the size of float32)
    Leaves.from_values(rules, np.clip(final.values, -127.0, 127.0)).save(out, precision="int16")
    return Leaves.load(out)

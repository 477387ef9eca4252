"""Leave training (wordsalvo.engine.leave_training): the rack crediting, determinism, resume."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from wordsalvo.engine.autoplay import AutoplaySpec, play_game, rack_key_bits
from wordsalvo.engine.leave_training import RackStats, TrainingConfig, _Structure, leave_values, train_leaves
from wordsalvo.errors import LeavesError, WordSalvoError
from wordsalvo.leaves import Leaves
from wordsalvo.rules import Rules

EN = Rules.preset("classic-en")


@pytest.fixture(scope="module")
def structure():
    return _Structure(Leaves.zeros(EN))


def codes(tiles: str) -> list[int]:
    return sorted(0 if t == "?" else EN.alphabet.letters.index(t) + 1 for t in tiles)


def key(tiles: str) -> int:
    bits = rack_key_bits(len(EN.alphabet.letters) + 1)
    return sum((c + 1) << (bits * j) for j, c in enumerate(codes(tiles)))


def test_rack_keys_find_the_table_ranks(structure):
    table = Leaves.zeros(EN)
    for leave in ("?", "??", "AB", "QU", "EEE", "?ERS", "AEINST"):
        assert structure.ranks_of_keys(np.array([key(leave)]))[0] == table.rank(leave)
    assert structure.codes_of_keys(np.array([key("SATIRE?")])).tolist() == [codes("SATIRE?")]


def test_a_rack_credits_every_leave_it_holds_weighted_by_the_ways_to_draw_the_rest(structure):
    table = Leaves.zeros(EN)
    n = len(table)
    racks = np.zeros((1, structure.tile_codes), dtype=np.uint8)
    for c in codes("AABCDEF"):
        racks[0, c] += 1
    S, W, W2 = np.zeros(n), np.zeros(n), np.zeros(n)
    table._table.credit_racks(racks, np.array([10.0]), structure.tile_count, S, W, W2)
    seen = np.flatnonzero(W)
    # sub-multisets of AABCDEF but the empty one and the whole: 3 * 2^5 - 2
    assert len(seen) == 3 * 32 - 2
    dist = EN.distribution()
    # keep "AB": the rest ACDEF is drawn from 9-1 A's, 2 C's, 4 D's, 12 E's, 2 F's
    w = comb(dist["A"] - 1, 1) * comb(dist["C"], 1) * comb(dist["D"], 1) * comb(dist["E"], 1) * comb(dist["F"], 1)
    assert W[table.rank("AB")] == pytest.approx(w) and S[table.rank("AB")] == pytest.approx(10 * w)
    # keep "AA": rest BCDEF, none of them an A
    w = comb(dist["B"], 1) * comb(dist["C"], 1) * comb(dist["D"], 1) * comb(dist["E"], 1) * comb(dist["F"], 1)
    assert W[table.rank("AA")] == pytest.approx(w) and W2[table.rank("AA")] == pytest.approx(w * w)
    with pytest.raises(LeavesError, match=f"expected {n} sums"):
        table._table.credit_racks(racks, np.array([10.0]), structure.tile_count, S[:5], W, W2)
    with pytest.raises(LeavesError, match="one mean per rack"):
        table._table.credit_racks(racks, np.array([1.0, 2.0]), structure.tile_count, S, W, W2)


def test_racks_holding_a_tile_worth_more_give_it_a_higher_value(structure):
    # every rack with an S returns 30, every other 20: S is worth about 10 more than its absence
    rng = np.random.default_rng(1)
    pool = "".join(t * c for t, c in EN.distribution().items())
    stats = RackStats()
    keys, returns = [], []
    for _ in range(3000):
        rack = "".join(rng.choice(list(pool), 7, replace=False))
        keys.append(key(rack))
        returns.append(256 * (30 if "S" in rack else 20))
    stats.add(np.array(keys), np.array(returns))
    stats.add(np.array(keys[:10]), np.array(returns[:10]))
    assert stats.observations == 3010
    values = Leaves.from_values(EN, leave_values(structure, stats))
    assert values.value("S") > 5 > abs(values.value("E"))
    assert values.value("ES") > values.value("EE")


def test_rack_records_are_the_full_racks_of_the_turns_with_tiles_in_the_bag():
    r = play_game(AutoplaySpec(rules="classic-en", players=("equity", "equity"), seed=3), 0, trace="racks")
    keys, returns = r.racks
    assert len(keys) == len(returns) > 5 and keys.dtype == np.int64
    assert np.all(returns % 1 == 0) and returns.max() > 256 * 10  # equity in 1/256 points


def test_training_gives_the_same_table_with_any_jobs_and_when_resumed(tmp_path):
    def config(jobs):
        return TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, jobs=jobs, chunk=6)

    one = train_leaves(config(1), tmp_path / "one.wsl")
    assert not one.is_zero
    calls = []

    def stop(rnd, done, total, change):
        calls.append((rnd, done, change))
        if rnd == 1 and done == 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_leaves(config(2), tmp_path / "two.wsl", progress=stop)
    assert calls[0] == (0, 6, None) and calls[-1][2] > 0  # the change of the round before
    two = train_leaves(config(2), tmp_path / "two.wsl", resume=True)
    assert (tmp_path / "one.wsl").read_bytes() == (tmp_path / "two.wsl").read_bytes()
    assert one == two


def counted(monkeypatch, owner, name: str) -> list:
    """Replaces the class ``owner.name`` by a subclass that counts what is made of it: the
    list it returns gets an item for each."""
    made = []
    base = getattr(owner, name)

    class Counted(base):
        def __init__(self, *args, **kw):
            made.append(1)
            super().__init__(*args, **kw)

    monkeypatch.setattr(owner, name, Counted)
    return made


def test_training_keeps_one_pool_of_workers_for_all_its_chunks(tmp_path, monkeypatch):
    """Issue 37, item 8: a new pool of workers a chunk made every chunk pay the workers'
    start (the fork server, imports, the lexicon) again; one pool serves the whole run."""
    import wordsalvo.parallel as parallel

    made = counted(monkeypatch, parallel, "ProcessPoolExecutor")
    config = TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, jobs=2, chunk=4)
    two = train_leaves(config, tmp_path / "two.wsl")
    assert len(made) == 1  # six chunks, one pool
    one = train_leaves(TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, jobs=1, chunk=4),
                       tmp_path / "one.wsl")
    assert one == two


@pytest.mark.slow  # a local Dask cluster of two processes
def test_training_on_dask_connects_once_and_gives_the_local_table(tmp_path, monkeypatch):
    """A client a chunk made every chunk connect to the scheduler again (its check and
    handshake included); one client serves the whole run, and the table is the local one."""
    distributed = pytest.importorskip("distributed")

    made = counted(monkeypatch, distributed, "Client")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        config = TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, chunk=4,
                                scheduler=cluster.scheduler_address)
        remote = train_leaves(config, tmp_path / "dask.wsl")
    assert len(made) == 1  # six chunks, one client
    local = train_leaves(TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, jobs=1, chunk=4),
                         tmp_path / "one.wsl")
    assert remote == local
    assert (tmp_path / "dask.wsl").read_bytes() == (tmp_path / "one.wsl").read_bytes()


# -- forced racks (issue 35, item 4: MAGPIE's rare racks forced into play) --------------------
def counts_of(tiles: str) -> np.ndarray:
    c = np.zeros(len(EN.alphabet.letters) + 1, dtype=np.uint8)
    for t in codes(tiles):
        c[t] += 1
    return c


def text_of(c) -> str:
    letters = EN.alphabet.letters
    return "".join(letters[t - 1] * int(c[t]) for t in range(1, len(c))) + "?" * int(c[0])


def test_the_plan_forces_the_racks_of_the_best_six_tile_leaves_short_of_the_minimum(structure):
    from wordsalvo.engine.leave_training import forced_plan

    values = np.asarray(Leaves.default(EN).values, dtype=np.float64)
    stats = RackStats()
    plan = forced_plan(structure, stats, values, 50, 3, per_game=4)
    assert plan.shape == (50, 4, 27) and plan.dtype == np.uint8
    racks = [text_of(c) for c in plan.reshape(-1, 27)]
    assert all(len(r) == 7 for r in racks)
    # AEIRST (the first by value times ways) with every tile it can take: copy 1 of every rack
    # of the leaves taken comes before copy 2 of any, so 200 slots hold each rack once
    dist = EN.distribution()
    grown = {text_of(counts_of("AEIRST" + t)) for t in "".join(EN.alphabet.letters) + "?"
             if ("AEIRST" + t).count(t) <= dist.get(t, 0)}
    assert len(grown) == 27 and grown <= set(racks)
    assert max(racks.count(r) for r in racks) == 1
    for g in range(50):  # copies of a rack in different games
        assert len({text_of(c) for c in plan[g]}) == 4
    # a rack seen often enough is not forced again; the same inputs give the same plan
    stats.add(np.array([key("AEIRSTT")] * 3), np.zeros(3, np.int64))
    again = forced_plan(structure, stats, values, 50, 3, per_game=4)
    assert "AEIRSTT" not in {text_of(c) for c in again.reshape(-1, 27)}
    assert np.array_equal(again, forced_plan(structure, stats, values, 50, 3, per_game=4))


def test_evidence_by_count_trusts_a_leave_whose_racks_were_seen_often(structure):
    stats = RackStats()
    racks = ["AEINST" + t for t in "BDGLMOR"]
    stats.add(np.array([key(r) for r in racks] * 10), np.array([256 * 60] * 70, np.int64))
    stats.add(np.array([key("CFHPWY?")] * 10), np.array([256 * 10] * 10, np.int64))
    rank = Leaves.zeros(EN).rank("AEINST")
    plain = leave_values(structure, stats)[rank]
    counted = leave_values(structure, stats, by_count=True)[rank]
    raw = leave_values(structure, stats, shrink=0.0)[rank]  # its own mean alone
    prior = leave_values(structure, stats, shrink=1e12)[rank]  # the additive model alone
    assert abs(raw - prior) > 1.0
    # seven racks, weighted by the tiles left to draw (B 2, D 4, G 3, L 4, M 2, O 8, R 6):
    # 29^2 / 149 effective racks; seen ten times each, ten times that many observations
    n = 29 ** 2 / 149
    assert plain == pytest.approx((n * raw + 16 * prior) / (n + 16), abs=1e-6)
    assert counted == pytest.approx((10 * n * raw + 16 * prior) / (10 * n + 16), abs=1e-6)


def resumed_like_one_run(tmp_path, config, stop_round: int, stop_done: int, plain: TrainingConfig):
    """Trains config(1) in one run, and config(2) stopped by Ctrl-C when round stop_round has
    stop_done games done, then resumed: the two tables must be the same bytes, and another
    than the plain run's (without the option under test).  Returns the stopped run's
    progress calls ((round, done, total) each)."""
    one = train_leaves(config(1), tmp_path / "one.wsl")
    assert one != train_leaves(plain, tmp_path / "plain.wsl")
    calls = []

    def stop(rnd, done, total, change):
        calls.append((rnd, done, total))
        if rnd == stop_round and done == stop_done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_leaves(config(2), tmp_path / "two.wsl", progress=stop)
    train_leaves(config(2), tmp_path / "two.wsl", resume=True)
    assert (tmp_path / "one.wsl").read_bytes() == (tmp_path / "two.wsl").read_bytes()
    return calls


def test_forced_training_gives_the_same_table_with_any_jobs_and_when_resumed(tmp_path):
    def config(jobs, **kw):
        return TrainingConfig(rules="classic-en", games=10, rounds=2, seed=5, jobs=jobs, chunk=6,
                              forced_games=8, min_count=2, **kw)

    plain = TrainingConfig(rules="classic-en", games=10, rounds=2, seed=5, chunk=6)
    calls = resumed_like_one_run(tmp_path, config, 1, 16, plain)  # in the forced games of the second round
    assert calls[:2] == [(0, 6, 10), (0, 10, 10)] and calls[-1] == (1, 16, 18)
    with pytest.raises(WordSalvoError, match="same settings"):  # another run's state is not resumed
        train_leaves(plain, tmp_path / "two.wsl", resume=True)


# -- the cover (issue 35: every full rack observed, its value probed where it is not drawn) ----
def test_the_full_racks_are_every_multiset_of_seven_the_tile_set_allows(structure):
    from wordsalvo.engine.leave_training import full_rack_keys, _counts_of_keys

    keys = full_rack_keys(structure)
    # the coefficient of x^7 in the product over tiles of 1 + x + ... + x^n
    poly = np.zeros(8, dtype=np.int64)
    poly[0] = 1
    for n in structure.tile_count.astype(int):
        new = np.zeros(8, dtype=np.int64)
        for j in range(min(n, 7) + 1):
            new[j:] += poly[:8 - j]
        poly = new
    assert len(keys) == poly[7] == 3_199_724
    assert np.all(np.diff(keys) > 0)
    sample = keys[::997]
    counts = _counts_of_keys(structure, sample)
    assert np.all(counts.sum(axis=1) == 7) and np.all(counts <= structure.tile_count)
    assert keys[np.searchsorted(keys, key("AEINST?"))] == key("AEINST?")
    assert keys[np.searchsorted(keys, key("EEEEEEE"))] == key("EEEEEEE")
    assert not np.isin([key("ZZAEIOU"), key("???AEIO")], keys).any()  # one Z, two blanks


def test_the_cover_plan_tops_every_rack_up_rarest_first(structure):
    from wordsalvo.engine.leave_training import cover_plan, full_rack_keys

    every = full_rack_keys(structure)
    stats = RackStats()
    seen = every[::3]
    stats.add(np.repeat(seen, 2), np.zeros(2 * len(seen), dtype=np.int64))        # seen twice
    stats.add(every[1::3][:1000], np.zeros(1000, dtype=np.int64))                  # seen once
    plan = cover_plan(structure, stats, 2, 10 ** 6, 96, [1, 2, 3])
    flat = plan.ravel()
    want = np.full(len(every), 2)  # the copies each rack should have
    want[::3] = 0
    want[1::3][:1000] = 1
    at = np.searchsorted(every, flat[flat > 0])
    assert np.array_equal(np.bincount(at, minlength=len(every)), want)
    assert plan.shape == (-(-int(want.sum()) // 96), 96)
    # a copy of each rack never seen comes first (level 0), then their second copies and
    # the racks seen once (level 1)
    n_zero = int((want == 2).sum())
    first = np.bincount(at[:n_zero], minlength=len(every))
    assert np.array_equal(first, (want == 2).astype(np.int64))
    assert np.array_equal(plan, cover_plan(structure, stats, 2, 10 ** 6, 96, [1, 2, 3]))
    capped = cover_plan(structure, stats, 2, 5, 96, [1, 2, 3])
    assert capped.shape == (5, 96) and np.array_equal(capped, plan[:5])
    assert cover_plan(structure, stats, 0, 5, 96, 0).shape == (0, 96)
    full = RackStats(every, np.zeros(len(every), np.int64), np.full(len(every), 2, np.int64))
    assert cover_plan(structure, full, 2, 5, 96, 0).shape == (0, 96)


@pytest.mark.slow  # 13-17 s: three runs, each pass of each round plans over all 3.2 million racks
def test_cover_training_gives_the_same_table_with_any_jobs_and_when_resumed(tmp_path):
    def config(jobs, **kw):
        kw = {"cover": 1, "cover_games": 6, "probes_per_turn": 4, **kw}
        return TrainingConfig(rules="classic-en", games=6, rounds=2, seed=5, jobs=jobs, chunk=4, **kw)

    plain = TrainingConfig(rules="classic-en", games=6, rounds=2, seed=5, chunk=4)
    calls = resumed_like_one_run(tmp_path, config, 1, 10, plain)  # in the cover games of the second round
    assert calls[:2] == [(0, 4, 6), (0, 6, 6)] and calls[-1] == (1, 10, 12)
    with pytest.raises(WordSalvoError, match="same settings"):  # another run's state is not resumed
        train_leaves(config(1, probes_per_turn=5), tmp_path / "two.wsl", resume=True)
    with pytest.raises(WordSalvoError, match="not both"):
        train_leaves(config(1, forced_games=2), tmp_path / "three.wsl")
    with pytest.raises(WordSalvoError, match="probes per turn"):
        train_leaves(config(1, probes_per_turn=0), tmp_path / "three.wsl")


def test_the_cover_stops_when_every_rack_has_its_count(tmp_path, monkeypatch, structure):
    """With the full racks cut to 300 (so a test can cover them all), the cover games end
    when each has been observed twice in the round, long before the cap, and the probes'
    returns are in the round's sums."""
    import wordsalvo.engine.leave_training as lt

    every = lt.full_rack_keys(structure)
    few = np.sort(every[np.random.default_rng(0).choice(len(every), 300, replace=False)])
    monkeypatch.setattr(lt, "full_rack_keys", lambda s: few)
    sums = []
    real = lt.leave_values

    def keep(structure, stats, *a, **kw):
        sums.append(stats)
        return real(structure, stats, *a, **kw)

    monkeypatch.setattr(lt, "leave_values", keep)
    calls = []
    config = TrainingConfig(rules="classic-en", games=4, rounds=2, seed=5, chunk=3, cover=2, cover_games=40,
                            probes_per_turn=8)
    train_leaves(config, tmp_path / "t.wsl", progress=lambda rnd, done, total, change: calls.append((rnd, done)))
    last = max(done for rnd, done in calls if rnd == 1)
    assert 4 + 600 // (8 * lt.COVER_TURNS) <= last < 4 + 40
    stats = sums[-1]
    at = np.searchsorted(stats.keys, few)
    assert np.all(stats.keys[at] == few) and np.all(stats.counts[at] >= 2)
    assert stats.observations > sums[0].observations  # the probes on top of the games' own turns

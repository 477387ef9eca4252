"""Leave training (wordsalvo.engine.leave_training): the rack crediting, determinism, resume."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from wordsalvo.engine.autoplay import AutoplaySpec, play_game, rack_key_bits
from wordsalvo.engine.leave_training import RackStats, TrainingConfig, _Structure, leave_values, train_leaves
from wordsalvo.errors import LeavesError
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


def test_training_keeps_one_pool_of_workers_for_all_its_chunks(tmp_path, monkeypatch):
    """Issue 37, item 8: a new pool of workers a chunk made every chunk pay the workers'
    start (the fork server, imports, the lexicon) again; one pool serves the whole run."""
    import wordsalvo.parallel as parallel

    made = []

    class Counted(parallel.ProcessPoolExecutor):
        def __init__(self, *args, **kw):
            made.append(1)
            super().__init__(*args, **kw)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Counted)
    config = TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, jobs=2, chunk=4)
    two = train_leaves(config, tmp_path / "two.wsl")
    assert len(made) == 1  # six chunks, one pool
    one = train_leaves(TrainingConfig(rules="classic-en", games=12, rounds=2, seed=5, jobs=1, chunk=4),
                       tmp_path / "one.wsl")
    assert one == two


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


def test_forced_training_gives_the_same_table_with_any_jobs_and_when_resumed(tmp_path):
    def config(jobs, **kw):
        return TrainingConfig(rules="classic-en", games=10, rounds=2, seed=5, jobs=jobs, chunk=6,
                              forced_games=8, min_count=2, **kw)

    one = train_leaves(config(1), tmp_path / "one.wsl")
    calls = []

    def stop(rnd, done, total, change):
        calls.append((rnd, done, total))
        if rnd == 1 and done == 16:  # in the forced games of the second round
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_leaves(config(2), tmp_path / "two.wsl", progress=stop)
    assert calls[:2] == [(0, 6, 10), (0, 10, 10)] and calls[-1] == (1, 16, 18)
    two = train_leaves(config(2), tmp_path / "two.wsl", resume=True)
    assert (tmp_path / "one.wsl").read_bytes() == (tmp_path / "two.wsl").read_bytes()
    plain = train_leaves(TrainingConfig(rules="classic-en", games=10, rounds=2, seed=5, chunk=6),
                         tmp_path / "plain.wsl")
    assert one != plain
    from wordsalvo.errors import WordSalvoError

    with pytest.raises(WordSalvoError, match="same settings"):  # another run's state is not resumed
        train_leaves(TrainingConfig(rules="classic-en", games=10, rounds=2, seed=5, chunk=6),
                     tmp_path / "two.wsl", resume=True)

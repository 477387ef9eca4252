"""benchmarks/levels.py: the round robin's tables agree with the games, and a cached run grows."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from wordsalvo.engine.autoplay import AutoplaySpec, iter_games

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def levels():
    spec = importlib.util.spec_from_file_location("levels_benchmark", ROOT / "benchmarks" / "levels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_round_robin_tables_and_cache(levels, tmp_path):
    players = ("easy", "expert", "score")
    report = levels.round_robin("wordsalvo-en", players, 3, 1, 5, cache=tmp_path)
    assert set(report["win_rates"]) == {"easy|expert", "easy|score", "expert|score"}
    # the table is the games': recount one pair by hand
    games = sorted(iter_games(AutoplaySpec("wordsalvo-en", ("expert", "score"), seed=5), 3), key=lambda r: r.index)
    wins = sum(r.outcome(0) for r in games)
    assert report["win_rates"]["expert|score"]["win_rate"] == pytest.approx(wins / 3)
    per_game = [r.points[0] / levels.turns_taken(r, 0) for r in games]
    other = sorted(iter_games(AutoplaySpec("wordsalvo-en", ("easy", "expert"), seed=5), 3), key=lambda r: r.index)
    per_game += [r.points[1] / levels.turns_taken(r, 1) for r in other]
    assert report["points_per_turn"]["expert"]["mean_of_games"] == pytest.approx(sum(per_game) / 6)
    assert report["points_per_turn"]["expert"]["games"] == 6
    ratings = report["glicko2"]
    assert set(ratings) == set(players) and all(r["rd"] < 350 for r in ratings.values())
    # a second run with more games plays only the new ones and reports what one run would
    grown = levels.round_robin("wordsalvo-en", players, 4, 1, 5, cache=tmp_path)
    fresh = levels.round_robin("wordsalvo-en", players, 4, 1, 5)
    for key in ("win_rates", "points_per_turn", "glicko2"):
        assert grown[key] == fresh[key]
    text = levels.markdown(grown)
    assert "| easy |" in text and "Glicko-2" in text and "4 games per pair" in text


def test_anchor_pooling_and_the_calibration_table(levels, tmp_path):
    """The scale is shifted so the anchor levels' mean is the reference's; the table's ratings are
    made increasing in beta by pooling adjacent violators, and it reads back as the shipped one does."""
    import tomllib

    from wordsalvo.engine.strength import StrengthTable

    assert levels.pooled_monotone([1, 3, 2, 4], [1, 1, 1, 1]) == [1, 2.5, 2.5, 4]
    assert levels.pooled_monotone([5, 1], [3, 1]) == [4, 4]
    reference = {"medium": {"rating": 1000}, "hard": {"rating": 1500}, "expert": {"rating": 2000}, "easy": {"rating": 0}}
    mine = {"medium": {"rating": 1100}, "hard": {"rating": 1600}, "expert": {"rating": 2090}, "easy": {"rating": 900}}
    assert levels.anchor_shift(mine, reference) == pytest.approx(-96.666, abs=0.01)
    g = {"easy": (300, 60), "medium": (1000, 50), "hard": (1500, 40), "expert": (2000, 40),
         "beta=0": (200, 60), "beta=0.1": (900, 50), "beta=0.2": (1700, 40), "beta=0.3": (1650, 40)}
    report = {"players": list(g), "games_per_pair": 10, "seed": 3, "machine": "m", "anchor_file": "ref.json",
              "anchor_shift": -5.0, "rules": "wordsalvo-en", "date": "2026-12-04",
              "glicko2": {n: {"anchored": r, "rd": rd} for n, (r, rd) in g.items()}}
    data = tomllib.loads(levels.calibration_toml(report, "python benchmarks/levels.py --x"))
    points = [(p["beta"], p["rating"]) for p in data["points"]]
    assert points == [(0.0, 200.0), (0.1, 900.0), (0.2, 1675.0), (0.3, 1676.0), (float("inf"), 2000.0)]
    assert data["named"] == {"easy": 300.0, "medium": 1000.0, "hard": 1500.0, "expert": 2000.0}
    table = StrengthTable(data["rules"], data["command"], data["date"], tuple(points), data["named"])
    assert table.low == 200 and table.high == 2000

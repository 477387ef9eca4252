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

"""Ratings (pytest-benchmark): a club's year of results rated period by period."""

from __future__ import annotations

import datetime
import random

from wordsalvo.ratings import Rating, RatedGame, glicko2_update, rate_games

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]


def _club_year(players: int = 200, games: int = 20_000, seed: int = 1) -> list[RatedGame]:
    """Random games between players of fixed hidden strengths, on the days of one year."""
    rng = random.Random(seed)
    strength = [rng.gauss(1500, 250) for _ in range(players)]
    start = datetime.date(2026, 1, 1)
    out = []
    for _ in range(games):
        a, b = rng.sample(range(players), 2)
        p_a = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
        places = (1, 2) if rng.random() < p_a else (2, 1)
        out.append(RatedGame(start + datetime.timedelta(days=rng.randrange(365)), (f"p{a}", f"p{b}"), places))
    return out


def test_glicko2_update_paper_example(benchmark):
    r = benchmark(glicko2_update, PLAYER, OPPONENTS)
    assert round(r.rd, 2) == 151.52


def test_rate_a_club_year(benchmark):
    games = _club_year()
    table = benchmark.pedantic(rate_games, args=(games,), rounds=3, iterations=1)
    assert len(table) == 200 and sum(s.games for s in table) == 2 * len(games)
    # the ratings find the hidden order: the best rated are stronger than the worst rated
    assert table[0].rating.rating > 1700 and table[-1].rating.rating < 1300

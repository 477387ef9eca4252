"""Random boards (pytest-benchmark): one board per game, meant to take well under 1 ms."""

from __future__ import annotations

import itertools

from wordsalvo.boards import board_problems, premium_counts, random_premium_layout, random_star_squares
from wordsalvo.rules import Rules

WORDSALVO = Rules.preset("wordsalvo-en")
WORDFEUD = Rules.preset("wordfeud-de")
TURKISH = Rules.preset("turkish")


def _bench_layout(benchmark, rules):
    seeds = itertools.count()
    layout = benchmark(lambda: random_premium_layout(rules.layout, next(seeds)))
    assert board_problems(layout, counts=premium_counts(rules.layout, (7, 7)), centre_symbol="*") == []


def test_random_wordsalvo_board(benchmark):
    _bench_layout(benchmark, WORDSALVO)


def test_random_wordfeud_board(benchmark):
    _bench_layout(benchmark, WORDFEUD)


def test_random_turkish_star(benchmark):
    seeds = itertools.count()
    (r, c), = benchmark(lambda: random_star_squares(TURKISH.layout, 1, next(seeds)))
    assert TURKISH.layout[r][c] == "."

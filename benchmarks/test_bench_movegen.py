"""Move generation speed (pytest-benchmark).

Each round generates every position of a set in sequence, so every call sees a
new board and recomputes its cross sets, as a service replaying games would.
Each benchmark asserts its result: a fast wrong answer fails.  Best move is timed
with the word map (built before the rounds, as a long-running service has it) and
by the graph alone (what the first searches of a process use).
Run: ``pytest benchmarks --benchmark-only``; the per-position medians of the
README come from ``python benchmarks/report.py``.
"""

from __future__ import annotations

import pytest

from wordsalvo.movegen import MoveGenerator


def _all_moves(gen, positions):
    return [len(gen.generate(p).to_numpy()) for p in positions]


def _best(gen, positions):
    return [gen.best(p).score for p in positions]


def test_all_moves_csw24(benchmark, csw24_set, classic):
    lex, positions, summary = csw24_set
    gen = MoveGenerator(lex, classic)
    counts = benchmark.pedantic(_all_moves, args=(gen, positions), rounds=5, warmup_rounds=1)
    assert counts == [int(s["move_count"]) for s in summary]
    benchmark.extra_info["moves"] = sum(counts)
    benchmark.extra_info["positions"] = len(positions)


@pytest.mark.parametrize("wordmap", [True, False], ids=["wordmap", "graph"])
def test_best_move_csw24(benchmark, csw24_set, classic, wordmap):
    lex, positions, summary = csw24_set
    gen = MoveGenerator(lex, classic, wordmap=wordmap)
    scores = benchmark.pedantic(_best, args=(gen, positions), rounds=5, warmup_rounds=1)
    assert scores == [int(s["best_score"]) for s in summary]


def test_all_moves_scowl(benchmark, scowl_set, classic):
    lex, positions, summary = scowl_set
    gen = MoveGenerator(lex, classic)
    counts = benchmark.pedantic(_all_moves, args=(gen, positions), rounds=5, warmup_rounds=1)
    assert counts == [int(s["move_count"]) for s in summary]


@pytest.mark.parametrize("wordmap", [True, False], ids=["wordmap", "graph"])
def test_best_move_scowl(benchmark, scowl_set, classic, wordmap):
    lex, positions, summary = scowl_set
    gen = MoveGenerator(lex, classic, wordmap=wordmap)
    scores = benchmark.pedantic(_best, args=(gen, positions), rounds=5, warmup_rounds=1)
    assert scores == [int(s["best_score"]) for s in summary]

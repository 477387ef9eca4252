"""Game analysis (pytest-benchmark): full analysis of a typical self-play game, the
replay alone, the instant statistics, and batch throughput.

A typical game: wordsalvo-en, two engine players (best by equity, seed 7), the
embedded English lexicon, the shipped leave table, a fitted win-probability model
(tests/data).  Targets: full analysis < 50 ms per game, instant stats < 1 ms.

Run: ``pytest benchmarks/test_bench_analysis.py --benchmark-only``; the batch figure
(games/s per core over 20 games, one process):
``python benchmarks/test_bench_analysis.py``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import pytest

from wordsalvo import Game, Rules
from wordsalvo.analysis import analyze_game
from wordsalvo.formats.gcg import parse_gcg, to_gcg
from wordsalvo.formats.replay import replay
from wordsalvo.instant import instant_stats
from wordsalvo.leaves import Leaves
from wordsalvo.engine.winprob import WinModel

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "tests" / "data" / "winprob-wordsalvo-en-test.json"


def typical_game(seed: int = 7) -> Game:
    rules = Rules.preset("wordsalvo-en")
    leaves = Leaves.default(rules)
    g = Game(rules, seed=seed)
    while not g.is_over:
        m = g.best_move(by="equity", leaves=leaves)
        g.pass_turn() if m is None else g.play(m)
    return g


@pytest.fixture(scope="module")
def game():
    g = typical_game()
    rec = parse_gcg(to_gcg(g))
    leaves = Leaves.default(g.rules)
    model = WinModel.load(MODEL)
    rp = replay(rec, lexicon=g.lexicon)
    return g, rec, rp, leaves, model


def test_bench_full_analysis(benchmark, game):
    g, rec, _rp, leaves, model = game
    a = benchmark(lambda: analyze_game(replay(rec, lexicon=g.lexicon), leaves=leaves, model=model))
    assert a.final_scores == tuple(g.scores)
    assert all(t.win_before is not None for t in a.turns if t.kind == "play")


def test_bench_replay(benchmark, game):
    g, rec, _rp, _leaves, _model = game
    rp = benchmark(lambda: replay(rec, lexicon=g.lexicon))
    assert rp.final_scores == tuple(g.scores)


def test_bench_instant_stats(benchmark, game):
    g, _rec, rp, _leaves, _model = game
    s = benchmark(lambda: instant_stats(rp))
    assert [p.score for p in s.players] == g.scores


def batch_rate(n: int = 20) -> float:
    """Games per second on one core: ``wordsalvo analyze DIR --out OUT --jobs 1``'s function."""
    from wordsalvo.commands.analyze import batch

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for seed in range(n):
            (d / f"g{seed}.gcg").write_text(to_gcg(typical_game(100 + seed)), "utf-8")
        paths = sorted(str(p) for p in d.glob("*.gcg"))
        batch(paths[:1], {"winprob": str(MODEL)}, d / "warm")
        t = time.perf_counter()
        counts = batch(paths, {"winprob": str(MODEL)}, d / "out")
        dt = time.perf_counter() - t
        assert counts["analysed"] == n
    return n / dt


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"batch: {batch_rate(n):.1f} games/s on one core ({n} games)")

"""Best move by equity against best by score (pytest-benchmark).

Three generators over the same positions: by score (no leave table), by equity
with ``Leaves.zeros`` (equity = score: the cost of the equity bookkeeping alone),
and by equity with a seeded random table (values ~ N(0, 8) points, so leaves
reorder the moves and the bounds carry real leave values).  Each benchmark
asserts its result against the sorted full list.

Run: ``pytest benchmarks/test_bench_equity.py --benchmark-only``; the per-position
medians and ratios: ``python benchmarks/test_bench_equity.py [scowl|csw24]``
(CSW24 needs the proprietary list, see conftest.py; its graph goes to /tmp).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import pytest

import wordsalvo as ws
from wordsalvo.leaves import Leaves
from wordsalvo.movegen import MoveGenerator


def random_leaves(rules: ws.Rules) -> Leaves:
    n = len(Leaves.zeros(rules))
    return Leaves.from_values(rules, np.random.default_rng(1).normal(0, 8, n))


def generators(lex, rules) -> dict[str, tuple[MoveGenerator, str]]:
    return {
        "score": (MoveGenerator(lex, rules, wordmap=True), "score"),
        "equity-zeros": (MoveGenerator(lex, rules, leaves=Leaves.zeros(rules), wordmap=True), "equity"),
        "equity-random": (MoveGenerator(lex, rules, leaves=random_leaves(rules), wordmap=True), "equity"),
    }


def _best(gen, positions, by):
    return [gen.best(p, by=by) for p in positions]


def _expected(gen, positions, by):
    out = []
    for p in positions:
        moves = gen.generate(p).sorted(by=by)
        out.append(moves[0].key() if len(moves) else None)
    return out


@pytest.mark.parametrize("kind", ["score", "equity-zeros", "equity-random"])
def test_best_by_kind_scowl(benchmark, scowl_set, classic, kind):
    lex, positions, _summary = scowl_set
    gen, by = generators(lex, classic)[kind]
    got = benchmark.pedantic(_best, args=(gen, positions, by), rounds=5, warmup_rounds=1)
    assert [m.key() if m else None for m in got] == _expected(gen, positions, by)


@pytest.mark.parametrize("kind", ["score", "equity-zeros", "equity-random"])
def test_best_by_kind_csw24(benchmark, csw24_set, classic, kind):
    lex, positions, _summary = csw24_set
    gen, by = generators(lex, classic)[kind]
    got = benchmark.pedantic(_best, args=(gen, positions, by), rounds=5, warmup_rounds=1)
    assert [m.key() if m else None for m in got] == _expected(gen, positions, by)


def per_position_report(lex, rules, positions, repeats: int = 7) -> dict[str, list[float]]:
    """The fastest of ``repeats`` calls per position and generator, interleaved so that
    a change in machine load hits every generator alike."""
    gens = generators(lex, rules)
    for gen, by in gens.values():
        _best(gen, positions, by)  # warm: alphagram keys, buffers
    times: dict[str, list[float]] = {k: [] for k in gens}
    for p in positions:
        for k, (gen, by) in gens.items():
            best = float("inf")
            for _ in range(repeats):
                t = time.perf_counter()
                gen.best(p, by=by)
                best = min(best, time.perf_counter() - t)
            times[k].append(best)
    return times


def main(which: str) -> None:
    from conftest import SCOWL_DATA, SHARED
    from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon
    from wordsalvo.formats.cgp import parse_cgp

    rules = ws.Rules.preset("classic-en")
    if which == "csw24":
        graph = "/tmp/csw24.wsg"
        try:
            lex = Lexicon.load(graph)
        except Exception:
            compile_lexicon(SHARED / "lexica" / "csw24.txt", graph, "en")
            lex = Lexicon.load(graph)
        cgp = SHARED / "positions" / "positions-public.cgp"
    else:
        lex = Lexicon.default("en")
        cgp = SCOWL_DATA / "positions.cgp"
    positions = [parse_cgp(line, rules=rules) for line in cgp.read_text("utf-8").splitlines()]
    times = per_position_report(lex, rules, positions)
    base = times["score"]
    print(f"{which}: {len(positions)} positions, best move, fastest of 7 calls per position")
    for k, ts in times.items():
        ratio = statistics.median(a / b for a, b in zip(ts, base))
        print(f"  {k:14s} median {1e6 * statistics.median(ts):7.1f} us  total {1e3 * sum(ts):6.1f} ms  "
              f"median ratio to score {ratio:.3f}  total ratio {sum(ts) / sum(base):.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "scowl")

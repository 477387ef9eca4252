"""Prints the speed figures of the README, measured in this process.

    python benchmarks/report.py [--shared ../shared] [--passes 7]

For each position set: every pass generates all positions in sequence (each call
sees a new board, so cross sets are recomputed); the time of a position is its
median over the passes.  Reported: median µs per position, aggregate moves/s
(all moves / sum of the per-position times), best-move median, two-blank racks.
Counts and best scores are checked against the summary files.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import wordsalvo as ws
from wordsalvo.lexicon import Lexicon, compile_lexicon
from wordsalvo.movegen import MoveGenerator
from wordsalvo.position import Position

ROOT = Path(__file__).resolve().parent.parent


def read_summary(path: Path) -> list[dict[str, str]]:
    lines = path.read_text("utf-8").splitlines()
    head = lines[0].lstrip("#").split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:] if ln.strip()]


def per_position(fn, positions, passes):
    times = [[] for _ in positions]
    for _ in range(passes):
        for i, p in enumerate(positions):
            t = time.perf_counter()
            fn(p)
            times[i].append(time.perf_counter() - t)
    return [statistics.median(t) for t in times]


def measure(name, lex, rules, cgp, summary_path, passes):
    positions = [Position.from_cgp(l, rules=rules) for l in cgp.read_text("utf-8").splitlines()]
    summary = read_summary(summary_path)
    gen = MoveGenerator(lex, rules)
    counts = [len(gen.generate(p).to_numpy()) for p in positions]
    assert counts == [int(s["move_count"]) for s in summary], f"{name}: move counts differ from the summary"
    best = [gen.best(p).score for p in positions]
    assert best == [int(s["best_score"]) for s in summary], f"{name}: best scores differ from the summary"
    t_all = per_position(lambda p: gen.generate(p).to_numpy(), positions, passes)
    t_best = per_position(lambda p: gen.best(p), positions, passes)
    two = [t for t, p in zip(t_all, positions) if p.rack.count("?") == 2]
    print(f"| {name} | {len(positions)} | {sum(counts):,} | {statistics.median(t_all) * 1e6:.0f} µs | "
          f"{sum(counts) / sum(t_all) / 1e6:.2f} M | {statistics.median(t_best) * 1e6:.0f} µs | "
          f"{statistics.median(two) * 1e3:.2f} ms |" if two else "| – |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--passes", type=int, default=7)
    args = ap.parse_args()
    rules = ws.Rules.preset("classic-en")
    print(f"python {platform.python_version()}, {platform.machine()}, {platform.processor() or platform.platform()}")
    print("| set | positions | moves | all moves, median per position | moves/s | best move, median | two-blank racks, median (all moves) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    scowl = ROOT / "tests" / "data" / "scowl-en"
    measure("SCOWL (embedded)", Lexicon.default("en"), rules, scowl / "positions.cgp", scowl / "summary.tsv", args.passes)
    csw = args.shared / "lexica" / "csw24.txt"
    if csw.exists():
        with tempfile.TemporaryDirectory() as d:
            dest = Path(d) / "csw24.wsg"
            builds = []
            for _ in range(3):
                t = time.perf_counter()
                stats = compile_lexicon(csw, dest, "en")
                builds.append(time.perf_counter() - t)
            loads = []
            for _ in range(20):
                t = time.perf_counter()
                lex = Lexicon.load(dest)
                loads.append(time.perf_counter() - t)
            measure("CSW24 public", lex, rules, args.shared / "positions" / "positions-public.cgp",
                    args.shared / "positions" / "summary-public.tsv", args.passes)
            print(f"\nCSW24 graph: {stats.node_count:,} nodes, {stats.file_size:,} bytes; "
                  f"build median {statistics.median(builds):.2f} s; load median {statistics.median(loads) * 1e3:.2f} ms")
    else:
        print(f"(CSW24 not found under {args.shared}: skipped)", file=sys.stderr)


if __name__ == "__main__":
    main()

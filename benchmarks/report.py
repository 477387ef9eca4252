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
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon
from wordsalvo.movegen import MoveGenerator

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
    positions = [parse_cgp(l, rules=rules) for l in cgp.read_text("utf-8").splitlines()]
    summary = read_summary(summary_path)
    gen = MoveGenerator(lex, rules, wordmap=True)  # best move with the word map, as a long-running service
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


def game_positions(rules, lex, games: int) -> list:
    """Every position before a move of seeded games played with best moves."""
    out = []
    for seed in range(games):
        g = ws.Game(rules, lexicon=lex, seed=seed)
        while not g.is_over:
            out.append(g.position())
            m = g.best_move()
            if m is None:
                g.pass_turn()
            else:
                g.play(m)
    return out


def measure_language(name, rules, lex, games, passes):
    loads = []
    path = lex.path
    for _ in range(10):
        t = time.perf_counter()
        Lexicon.load(path)
        loads.append(time.perf_counter() - t)
    positions = game_positions(rules, lex, games)
    gen = MoveGenerator(lex, rules, wordmap=True)  # best move with the word map, as a long-running service
    counts = [len(gen.generate(p).to_numpy()) for p in positions]
    t_all = per_position(lambda p: gen.generate(p).to_numpy(), positions, passes)
    t_best = per_position(lambda p: gen.best(p), positions, passes)
    print(f"| {name} | {len(lex):,} | {lex.file_size / 1e6:.2f} MB | {statistics.median(loads) * 1e3:.1f} ms | "
          f"{len(positions)} | {statistics.median(t_all) * 1e6:.0f} µs | {sum(counts) / sum(t_all) / 1e6:.2f} M | "
          f"{statistics.median(t_best) * 1e6:.0f} µs |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--games", type=int, default=10, help="self-play games per language for --languages")
    ap.add_argument("--languages", action="store_true", help="also measure every lexicon on self-play positions")
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
    if not args.languages:
        return
    print("\n| rule set (lexicon) | words | graph | load | positions | all moves, median | moves/s | best, median |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for rules_name, lang in (("wordsalvo-en", "en"), ("wordsalvo-nl", "nl"), ("turkish", "tr"), ("wordfeud-de", "de")):
        try:
            lex = Lexicon.default(lang)
        except ws.WordSalvoError:
            de = args.shared / "lexica" / "igerman98-frami-de.txt"
            if lang != "de" or not de.exists():
                print(f"| {rules_name} | (no {lang} lexicon: run `wordsalvo lexicon fetch {lang}`) |")
                continue
            tmp = Path(tempfile.mkdtemp()) / "de.wsg"
            compile_lexicon(de, tmp, "de")
            lex = Lexicon.load(tmp)
        measure_language(f"{rules_name} ({lang})", ws.Rules.preset(rules_name), lex, args.games, args.passes)


if __name__ == "__main__":
    main()

"""Times wordsalvo and MAGPIE on the same positions, in one run, on one core.

    python benchmarks/side_by_side.py --magpie /tmp/magpie-bench --graph csw24.wsg \\
        --positions ../shared/positions/positions-public.cgp [--rounds 3] [--passes 7]

``--magpie`` is a MAGPIE folder built beforehand with the driver of
``shared/bench/magpie`` (``DIR/magpie`` holds MAGPIE and its ``data/``,
``DIR/driver/magpie_bench`` the driver); this script never builds it.  MAGPIE
is not part of the project and none of its code is.

Rounds alternate A B A B: in each round, for each mode, wordsalvo (A, in this
process, through the public Python API) then MAGPIE's driver (B, a
subprocess), both pinned to the same core.  Modes:

* ``all``: every move; ours ``generate(pos).to_numpy()``, MAGPIE's
  ``MOVE_RECORD_ALL`` with its standard graph (KWG).
* ``best``: the best move by score; ours ``best(pos)``, MAGPIE's
  ``MOVE_RECORD_BEST`` with its standard graph, and (``--wmp``) with its
  word map as well.

Per position, each engine's time is the median of ``--passes`` timings, taken
the way MAGPIE's driver takes them: the position is loaded first (its cross
sets computed outside the timer), one call warms up, then ``--passes`` calls of
the same position are timed in a row.  Both engines are timed under that
protocol, so the ratio compares like with like: the graph nodes a position needs
are in the CPU caches for both.  Ours is also timed the way a game sees it
(``sequence``): every position of the set in turn, so each call sees a new board,
recomputes its cross sets and finds the graph cold in the caches; that figure has
its MAGPIE counterpart is the driver's ``seq`` mode (``--seq``: every pass visits
the positions in a new shuffled order, loading each), paired with it: MAGPIE's
generation time alone (its cross sets are computed when it loads a position,
outside that time; ours are inside) and generation + load.  With ``--cold`` the
driver instead invalidates MAGPIE's rack-keyed caches before every timed call.

Printed: the machine and date, per round and mode the median per position of
each engine and the ratio (MAGPIE's time / ours: above 1 means wordsalvo is
faster), then the range of the ratios over the rounds.  Every move count and
best score of the two engines is compared; a difference stops the run.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import wordsalvo as ws
from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo.movegen import MoveGenerator
from wordsalvo.formats.cgp import parse_cgp

CROSS_SET_NOTE = ("both engines timed as MAGPIE's driver times: position loaded and cross sets computed outside "
                  "the timer, then the same position timed repeatedly (warm caches)")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line() -> str:
    return (f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {cpu_model()}, "
            f"{os.cpu_count()} logical CPUs; {platform.platform()}; Python {platform.python_version()}")


def per_position(fn, positions, passes: int) -> list[float]:
    """Median µs per position over `passes` passes of the whole set in sequence."""
    times: list[list[float]] = [[] for _ in positions]
    for _ in range(passes):
        for i, p in enumerate(positions):
            t = time.perf_counter()
            fn(p)
            times[i].append(time.perf_counter() - t)
    return [statistics.median(t) * 1e6 for t in times]


def per_position_warm(fn, positions, passes: int) -> list[float]:
    """Median µs per position over `passes` calls of the same position in a row, after one
    warm-up call (which also loads the board and computes its cross sets): the protocol
    of MAGPIE's driver."""
    out = []
    for p in positions:
        fn(p)
        times = []
        for _ in range(passes):
            t = time.perf_counter()
            fn(p)
            times.append(time.perf_counter() - t)
        out.append(statistics.median(times) * 1e6)
    return out


def run_magpie(magpie: Path, lexicon: str, wmp: bool, cgp: Path, mode: str, passes: int,
               cpu: int | None, cold: bool, seq: bool = False) -> tuple[list[float], list[int], list[float]]:
    """(median µs per position, count or best score per position, median µs of loading
    the position) from the driver; ``seq``: its shuffled sequence of new positions."""
    driver = magpie / "driver" / "magpie_bench"
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "magpie.tsv"
        cmd = [str(driver), "bench", lexicon, "1" if wmp else "0", str(cgp.resolve()), mode, str(passes), str(out)]
        if seq:
            cmd.append("seq")
        elif cold:
            cmd.append("cold")
        if cpu is not None and shutil.which("taskset"):
            cmd = ["taskset", "-c", str(cpu)] + cmd
        done = subprocess.run(cmd, cwd=magpie / "magpie", capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"MAGPIE driver failed ({' '.join(cmd)}):\n{done.stderr}")
        rows = [ln.split("\t") for ln in out.read_text().splitlines() if ln and not ln.startswith("#")]
    return [float(r[1]) for r in rows], [int(r[4]) for r in rows], [float(r[3]) for r in rows]


def by_blanks(positions, seq_positions) -> str:
    """Where the new positions' ratio comes from: for each count of blanks on the rack on
    turn, the median over its positions of MAGPIE's generation over ours in sequence (each
    position's times the medians over the rounds), and the ratio of the sums."""
    blanks = [p.racks[p.to_move].count("?") for p in positions]
    lines = ["New positions by blanks on the rack (ratio = MAGPIE seq generation / wordsalvo in sequence, "
             "each position's time the median over the rounds):", "",
             "| mode | MAGPIE engine | blanks | positions | ratio, median over positions | ratio of sums |",
             "|---|---|---:|---:|---:|---:|"]
    for (mode, engine), rounds in seq_positions.items():
        ours = [statistics.median(r[0][i] for r in rounds) for i in range(len(positions))]
        theirs = [statistics.median(r[1][i] for r in rounds) for i in range(len(positions))]
        for b in sorted(set(blanks)):
            idx = [i for i, x in enumerate(blanks) if x == b]
            ratio = statistics.median(theirs[i] / ours[i] for i in idx)
            sums = sum(theirs[i] for i in idx) / sum(ours[i] for i in idx)
            lines.append(f"| {mode} | {engine} | {b} | {len(idx)} | {ratio:.2f} | {sums:.2f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--magpie", type=Path, required=True, help="folder with magpie/ (built) and driver/magpie_bench")
    ap.add_argument("--graph", type=Path, required=True, help="our graph of the same word list (.wsg)")
    ap.add_argument("--positions", type=Path, required=True, help="CGP file, one position a line")
    ap.add_argument("--lexicon-name", default="CSW24", help="MAGPIE's name of the lexicon (data/lexica/NAME.kwg)")
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--cpu", type=int, default=1, help="core both engines are pinned to (-1: no pinning)")
    ap.add_argument("--modes", default="all,best", help="comma-separated: all, best")
    ap.add_argument("--wmp", action="store_true", help="also time MAGPIE's best move with its word map")
    ap.add_argument("--cold", action="store_true", help="MAGPIE invalidates its rack caches before every timed call")
    ap.add_argument("--seq", action="store_true",
                    help="also time MAGPIE's driver in seq mode (new positions in a shuffled order), paired with "
                         "our calls in sequence")
    ap.add_argument("--wordmap", choices=("on", "off", "auto"), default="on",
                    help="our best-move search with the word map built before timing (on, the state of a "
                         "long-running service), without it (off), or built when it pays (auto, the default "
                         "of MoveGenerator)")
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in ("all", "best"):
            ap.error(f"--modes: expected 'all' or 'best', got {m!r}")
    if not (args.magpie / "driver" / "magpie_bench").exists():
        ap.error(f"--magpie: no driver/magpie_bench under {args.magpie} (build it with shared/bench/magpie/setup.sh)")

    cpu = None if args.cpu < 0 else args.cpu
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    rules = ws.Rules.preset(args.rules)
    lex = Lexicon.load(args.graph)
    positions = [parse_cgp(line, rules=rules)
                 for line in args.positions.read_text("utf-8").splitlines() if line.strip()]
    gen = MoveGenerator(lex, rules, wordmap={"on": True, "off": False, "auto": None}[args.wordmap])
    counts = [len(gen.generate(p).to_numpy()) for p in positions]
    best = [gen.best(p).score for p in positions]
    # on an empty board MAGPIE lists only the across openings (the board is symmetric),
    # we list both directions: its count is half of ours there
    empty = [i for i, p in enumerate(positions) if p.board.is_empty()]
    magpie_counts = [c // 2 if i in empty else c for i, c in enumerate(counts)]

    print(f"# wordsalvo vs MAGPIE, side by side: {args.positions.name} ({len(positions)} positions), "
          f"graph {args.graph.name}, one core ({'cpu ' + str(cpu) if cpu is not None else 'not pinned'}), "
          f"{args.rounds} rounds A B, {args.passes} passes{', MAGPIE cold caches' if args.cold else ''}, "
          f"our word map {args.wordmap}")
    print(f"# {machine_line()}")
    print(f"# load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"# {CROSS_SET_NOTE}")
    if empty:
        print(f"# {len(empty)} empty boards: MAGPIE lists only across openings there, we list both directions")
    print("| round | mode | wordsalvo, median per position | wordsalvo in sequence (new board each call) | "
          "MAGPIE engine | MAGPIE, median per position | ratio (MAGPIE / wordsalvo) | aggregate ratio (sums) |")
    print("|---:|---|---:|---:|---|---:|---:|---:|")
    ratios: dict[tuple[str, str], list[float]] = {}
    aggregates: dict[tuple[str, str], list[float]] = {}
    ours_medians: dict[str, list[float]] = {}
    seq_medians: dict[str, list[float]] = {}
    theirs_medians: dict[tuple[str, str], list[float]] = {}
    #: per round: (ours in sequence, ours repeated, MAGPIE seq generation, MAGPIE seq generation + load)
    seq_pairs: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    #: per round: (ours in sequence, MAGPIE seq generation), µs per position
    seq_positions: dict[tuple[str, str], list[tuple[list[float], list[float]]]] = {}
    for r in range(1, args.rounds + 1):
        for mode in modes:
            if mode == "all":
                fn = lambda p: gen.generate(p).to_numpy()  # noqa: E731
                engines = [("standard graph", False)]
            else:
                fn = lambda p: gen.best(p)  # noqa: E731
                engines = [("standard graph", False)] + ([("word map", True)] if args.wmp else [])
            ours = per_position_warm(fn, positions, args.passes)
            ours_med = statistics.median(ours)
            ours_medians.setdefault(mode, []).append(ours_med)
            seq_list = per_position(fn, positions, args.passes)
            seq_med = statistics.median(seq_list)
            seq_medians.setdefault(mode, []).append(seq_med)
            for engine, wmp in engines:
                theirs, check, _ = run_magpie(args.magpie, args.lexicon_name, wmp, args.positions, mode,
                                              args.passes, cpu, args.cold)
                expected = magpie_counts if mode == "all" else best
                if check != expected:
                    bad = [i for i, (a, b) in enumerate(zip(check, expected)) if a != b]
                    sys.exit(f"{mode} ({engine}): MAGPIE and wordsalvo differ at positions {bad[:10]} "
                             f"(MAGPIE {[check[i] for i in bad[:10]]}, ours {[expected[i] for i in bad[:10]]})")
                theirs_med = statistics.median(theirs)
                key = (mode, engine)
                theirs_medians.setdefault(key, []).append(theirs_med)
                ratio = theirs_med / ours_med
                agg = sum(theirs) / sum(ours)
                ratios.setdefault(key, []).append(ratio)
                aggregates.setdefault(key, []).append(agg)
                print(f"| {r} | {mode} | {ours_med:.0f} µs | {seq_med:.0f} µs | {engine} | {theirs_med:.0f} µs | "
                      f"{ratio:.2f} | {agg:.2f} |", flush=True)
                if args.seq:
                    s_gen, s_check, s_load = run_magpie(args.magpie, args.lexicon_name, wmp, args.positions, mode,
                                                        args.passes, cpu, False, seq=True)
                    if s_check != expected:
                        sys.exit(f"{mode} ({engine}, seq): MAGPIE and wordsalvo differ")
                    pair = (statistics.median(s_gen), statistics.median([a + b for a, b in zip(s_gen, s_load)]))
                    seq_pairs.setdefault(key, []).append((seq_med, ours_med) + pair)
                    seq_positions.setdefault(key, []).append((seq_list, s_gen))
    print()
    print(f"Summary over {args.rounds} rounds ({CROSS_SET_NOTE}; ratio above 1 = wordsalvo faster):")
    print()
    print("| mode | MAGPIE engine | wordsalvo, median per position | MAGPIE, median per position | "
          "ratio of medians | ratio of sums | wordsalvo in sequence |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (mode, engine), rs in ratios.items():
        om, tm, ag = ours_medians[mode], theirs_medians[(mode, engine)], aggregates[(mode, engine)]
        sm = seq_medians[mode]
        print(f"| {mode} | {engine} | {min(om):.0f}–{max(om):.0f} µs | {min(tm):.0f}–{max(tm):.0f} µs | "
              f"{min(rs):.2f}–{max(rs):.2f} | {min(ag):.2f}–{max(ag):.2f} | {min(sm):.0f}–{max(sm):.0f} µs |")

    if seq_pairs:
        print()
        print("New positions (--seq): our calls in sequence (cross sets inside) against MAGPIE's seq mode "
              "(generation alone: its cross sets are made at load, outside; and generation + load); "
              "cost of a new position = in sequence / repeated, for each engine:")
        print()
        print("| mode | MAGPIE engine | wordsalvo in sequence | MAGPIE seq, generation | MAGPIE seq, + load | "
              "ratio (generation) | ratio (+ load) | wordsalvo new / repeated | MAGPIE new / repeated |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for key, rows in seq_pairs.items():
            mode, engine = key
            def rng(xs, fmt="{:.0f}"):
                return f"{fmt.format(min(xs))}–{fmt.format(max(xs))}"
            ours_seq = [x[0] for x in rows]
            gen_r = [x[2] / x[0] for x in rows]
            load_r = [x[3] / x[0] for x in rows]
            ours_cost = [x[0] / x[1] for x in rows]
            theirs_cost = [x[2] / t for x, t in zip(rows, theirs_medians[key])]
            print(f"| {mode} | {engine} | {rng(ours_seq)} µs | {rng([x[2] for x in rows])} µs | "
                  f"{rng([x[3] for x in rows])} µs | {rng(gen_r, '{:.2f}')} | {rng(load_r, '{:.2f}')} | "
                  f"{rng(ours_cost, '{:.2f}')} | {rng(theirs_cost, '{:.2f}')} |")
        print()
        for key, rows in seq_pairs.items():
            mode, engine = key
            gen_r = ", ".join(f"{x[2] / x[0]:.2f}" for x in rows)
            load_r = ", ".join(f"{x[3] / x[0]:.2f}" for x in rows)
            print(f"{mode}, {engine}, by round: ratio (generation) {gen_r} (median "
                  f"{statistics.median(x[2] / x[0] for x in rows):.2f}); ratio (+ load) {load_r} (median "
                  f"{statistics.median(x[3] / x[0] for x in rows):.2f})")
        print()
        print(by_blanks(positions, seq_positions))


if __name__ == "__main__":
    main()

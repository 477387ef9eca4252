"""Inference speed: the rack loop in C (``infer``) against the Python loop it replaced
(``_infer_python``), in one run, on the same positions.

    python benchmarks/infer_speed.py --graph csw24.wsg --positions positions-public.cgp \\
        [--count 20] [--limit 400] [--rounds 3] [--exchanged 0] [--out results/infer-speed.json]

The workload: for each of the first ``--count`` positions, the position before the best
play by static equity of the player on turn (its rack hidden, the other rack known), and
that play (bingos skipped: nothing is left to infer); ``infer`` with ``--limit`` racks
(400 is master's MASTER_INFER_RACKS) and a fixed seed.  With ``--exchanged N`` an
exchange of N tiles from the same positions instead.  Rounds alternate Python, C,
Python, C ...; the figure is racks judged per second (Inference.racks over the wall
clock of the calls), the medians of the rounds and their ratio, with the machine, the
date and the load.  Each C result is compared with the Python one: a fast wrong answer
fails.  The graph is read from where it lies; nothing built from it is written.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from pathlib import Path

import wordsalvo as ws
from wordsalvo.engine.inference import _infer_python, infer
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.leaves import Leaves
from wordsalvo.movegen import MoveGenerator


def cases(lexicon, rules, leaves, lines, count):
    gen = MoveGenerator(lexicon, rules, leaves)
    out = []
    for line in lines:
        if len(out) == count:
            break
        pos = parse_cgp(line, rules=rules)
        move = gen.best(pos, by="equity")
        if move is None or len(move.rack_letters()) == rules.rack_size:
            continue
        racks = list(pos.racks)
        racks[pos.to_move] = ""
        before = ws.Position(rules, pos.board, racks, pos.scores, pos.scoreless_count, to_move=pos.to_move)
        out.append((before, move))
    return out


def run(fn, work, lexicon, leaves, limit, exchanged):
    racks = kept = 0
    results = []
    t = time.perf_counter()
    for before, move in work:
        if exchanged:
            r = fn(before, None, lexicon, leaves, exchanged=exchanged, limit=limit, seed=1)
        else:
            r = fn(before, move, lexicon, leaves, limit=limit, seed=1)
        racks += r.racks
        kept += r.kept
        results.append(r)
    return racks, time.perf_counter() - t, results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", required=True)
    ap.add_argument("--positions", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--exchanged", type=int, default=0)
    ap.add_argument("--out")
    a = ap.parse_args()
    rules = ws.Rules.preset("classic-en")
    lexicon = ws.Lexicon.load(a.graph)
    leaves = Leaves.default(rules)
    lines = Path(a.positions).read_text("utf-8").splitlines()
    work = cases(lexicon, rules, leaves, lines, a.count)
    run(infer, work[:1], lexicon, leaves, 10, a.exchanged)  # the word map, built once for the lexicon
    speed = {"python": [], "c": []}
    seconds = {"python": [], "c": []}
    racks = 0
    for _ in range(a.rounds):
        racks_py, dt_py, want = run(_infer_python, work, lexicon, leaves, a.limit, a.exchanged)
        racks_c, dt_c, got = run(infer, work, lexicon, leaves, a.limit, a.exchanged)
        if got != want:
            bad = next(i for i, (x, y) in enumerate(zip(got, want)) if x != y)
            raise SystemExit(f"the C loop's inference differs from the Python loop's at position {bad}")
        racks = racks_c
        speed["python"].append(racks_py / dt_py)
        speed["c"].append(racks_c / dt_c)
        seconds["python"].append(dt_py)
        seconds["c"].append(dt_c)
    py, c = statistics.median(speed["python"]), statistics.median(speed["c"])
    report = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cpus".strip(),
        "load": os.getloadavg(),
        "positions": len(work), "limit": a.limit, "exchanged": a.exchanged, "rounds": a.rounds,
        "racks_per_call": racks / len(work),
        "python_racks_per_second": py, "c_racks_per_second": c, "ratio": c / py,
        "c_ms_per_call": 1e3 * statistics.median(seconds["c"]) / len(work),
        "python_ms_per_call": 1e3 * statistics.median(seconds["python"]) / len(work),
    }
    print(f"{len(work)} positions, limit {a.limit}{f', exchange of {a.exchanged}' if a.exchanged else ''}, "
          f"{report['racks_per_call']:.0f} racks a call, {a.rounds} rounds")
    print(f"  Python loop {py:9.0f} racks/s  {report['python_ms_per_call']:7.1f} ms a call")
    print(f"  C loop      {c:9.0f} racks/s  {report['c_ms_per_call']:7.1f} ms a call")
    print(f"  ratio {c / py:.2f}   {report['date']}  load {' '.join(f'{x:.2f}' for x in report['load'])}  "
          f"{report['machine']}")
    if a.out:
        Path(a.out).write_text(json.dumps(report, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()

"""Instruction counts of a simulation's candidate samples (rollouts), reproducibly.

    valgrind --tool=callgrind --toggle-collect=ws_sim_run \\
        --callgrind-out-file=sim.out python benchmarks/sim_instructions.py GRAPH CGP \\
        [--leaves CSW24-magpie.csv] [--count 10] [--iterations 16]
    callgrind_annotate --inclusive=yes sim.out | head -60

The workload of ``benchmarks/sim_side_by_side.py`` without MAGPIE: the first
``--count`` positions of the CGP file with the opponent's rack unknown, our 15 best
placements by static equity and the best exchange as the candidates, 2 plies after
the candidate, round robin, ``--iterations`` iterations of every candidate, one
thread, seed 1.  The simulators are set up (candidates, word map, leaves) before
anything runs; only ``ws_sim_run`` (the C entry point that plays the samples) is
counted, so imports, loading and set-up are not.  Divide callgrind's total by the
number of samples printed (a sample: one candidate played and its rollout).  Instruction
counts do not drift with the load of the machine as times do.

The last line printed is a digest of every candidate's equity and win sums: the same
digest before and after a change means the simulation results are the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import wordsalvo as ws
from wordsalvo.engine.simulation import Simulator
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.leaves import Leaves


def _unknown_opponent(line: str) -> str:
    """The CGP line's first four fields with the opponent's rack removed."""
    board, racks, scores, zeros = line.split()[:4]
    return f"{board} {racks.split('/')[0]}/ {scores} {zeros}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", type=Path)
    ap.add_argument("positions", type=Path, help="CGP file, one position a line")
    ap.add_argument("--leaves", default=None, help="leave,value CSV (default: the shipped table)")
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=16)
    ap.add_argument("--plays", type=int, default=15)
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.load(str(args.graph))
    leaves = Leaves.from_csv(args.leaves, rules) if args.leaves else Leaves.default(rules)
    lines = [ln for ln in args.positions.read_text("utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    sims = [Simulator(parse_cgp(_unknown_opponent(ln), rules=rules), lex, leaves, plays=args.plays,
                      plies=args.plies, iterations=args.iterations, sampling="rr", threads=1, seed=args.seed)
            for ln in lines[: args.count]]
    t = time.perf_counter()
    results = [s.run() for s in sims]  # the counted part: ws_sim_run
    seconds = time.perf_counter() - t
    samples = sum(row.iterations for r in results for row in r.rows)
    nodes = sum(r.nodes for r in results)
    digest = hashlib.sha256(json.dumps(
        [[[row.move, row.iterations, round(row.equity, 6), round(row.win or 0.0, 9)] for row in r.rows]
         for r in results]).encode()).hexdigest()[:16]
    print(f"{len(sims)} positions, {samples} samples, {nodes} plies; {seconds / samples * 1e6:.1f} µs a sample "
          f"(meaningless under valgrind)")
    print(f"digest {digest}")


if __name__ == "__main__":
    main()

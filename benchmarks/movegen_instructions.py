"""Instruction counts of the all-moves call on new positions and on a repeated one.

    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=seq.out python benchmarks/movegen_instructions.py GRAPH CGP seq
    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=rep.out python benchmarks/movegen_instructions.py GRAPH CGP repeated
    callgrind_annotate --inclusive=yes seq.out | head -40

Only the timed calls run inside ``functools.reduce`` (the C function callgrind
collects in; nothing else of the process calls it), so imports, loading the graph
and parsing the positions are not counted.  ``seq``: every pass
visits the positions in a new shuffled order (each call meets a new board: the
cross sets and lanes are derived again); ``repeated``: each position is loaded
and generated once outside the count, then generated ``passes`` times in a row
(the board is unchanged, so nothing is derived again).  Instruction counts do not
drift with the load of the machine as times do; divide by the number of calls
printed.  Move counts are checked against ``--summary`` when given.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from pathlib import Path

import wordsalvo as ws
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo.movegen import MoveGenerator


def timed(gen, batch) -> int:
    """Moves of every position of batch; the calls callgrind counts."""
    return functools.reduce(lambda n, p: n + len(gen.generate(p).to_numpy()), batch, 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", type=Path)
    ap.add_argument("positions", type=Path, help="CGP file, one position a line")
    ap.add_argument("mode", choices=("seq", "repeated"))
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = ws.Rules.preset(args.rules)
    positions = [parse_cgp(l, rules=rules) for l in args.positions.read_text("utf-8").splitlines() if l.strip()]
    gen = MoveGenerator(Lexicon.load(args.graph), rules)
    moves = 0
    times: dict[int, list[float]] = {i: [] for i in range(len(positions))}
    calls = 0
    if args.mode == "seq":
        rng = random.Random(args.seed)
        for p in positions:  # outside the count: the output buffer grows to the largest move list
            gen.generate(p).to_numpy()
        for _ in range(args.passes):
            order = list(range(len(positions)))
            rng.shuffle(order)
            for i in order:
                t = time.perf_counter()
                moves += timed(gen, [positions[i]])
                times[i].append(time.perf_counter() - t)
            calls += len(order)
    else:
        for i, p in enumerate(positions):
            gen.generate(p).to_numpy()  # loads the board: cross sets and lanes derived here
            for _ in range(args.passes):
                t = time.perf_counter()
                moves += timed(gen, [p])
                times[i].append(time.perf_counter() - t)
            calls += args.passes
    # times are for runs without valgrind (under it they mean nothing); one reduce per call
    med = [statistics.median(t) * 1e6 for t in times.values()]
    print(f"{args.mode}: {calls} calls, {moves} moves; µs per position: median {statistics.median(med):.0f}, "
          f"mean {statistics.mean(med):.0f}")

if __name__ == "__main__":
    main()

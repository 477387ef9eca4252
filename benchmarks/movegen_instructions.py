"""Instruction counts of the all-moves call (or the best move by equity) on new positions
and on a repeated one.

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
printed.

``--call best`` counts ``best(pos)``, the best move by score, with the word map built
before the count (the call ``side_by_side.py --modes best`` times against MAGPIE's
best move).  ``--call best-equity`` counts ``best(pos, by="equity")`` instead (the shipped leave
table of the rules, or ``--leaves FILE``; the word map built before the count): the
search a rollout ply or a server request makes.  Split a run by function with
``callgrind_annotate --inclusive=yes``: ``ws_gen_set_board`` is the board set-up
(cross sets, lanes), ``ws_gen_set_rack`` the rack's leave values, ``best_search``
(``collect_anchor``: shadow; ``search_classes``: the word map and the walk) the
generation.
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
from wordsalvo.leaves import Leaves
from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo.movegen import MoveGenerator


def timed(gen, batch) -> int:
    """Moves of every position of batch; the calls callgrind counts."""
    return functools.reduce(lambda n, p: n + len(gen.generate(p).to_numpy()), batch, 0)


def timed_best_score(gen, batch) -> int:
    """Best moves by score found for batch (one a position with a placement)."""
    return functools.reduce(lambda n, p: n + (gen.best(p) is not None), batch, 0)


def timed_best(gen, batch) -> int:
    """Best moves by equity found for batch (one a position with a placement)."""
    return functools.reduce(lambda n, p: n + (gen.best(p, by="equity") is not None), batch, 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph", type=Path)
    ap.add_argument("positions", type=Path, help="CGP file, one position a line")
    ap.add_argument("mode", choices=("seq", "repeated"))
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--call", choices=("all", "best", "best-equity"), default="all")
    ap.add_argument("--leaves", type=Path, help="leave table (.wsl) for --call best-equity; default: the rules' own")
    args = ap.parse_args()
    rules = ws.Rules.preset(args.rules)
    positions = [parse_cgp(l, rules=rules) for l in args.positions.read_text("utf-8").splitlines() if l.strip()]
    if args.call == "all":
        gen = MoveGenerator(Lexicon.load(args.graph), rules)
        call = timed
        warm = lambda p: gen.generate(p).to_numpy()  # noqa: E731
    elif args.call == "best":
        gen = MoveGenerator(Lexicon.load(args.graph), rules, wordmap=True)
        call = timed_best_score
        warm = lambda p: gen.best(p)  # noqa: E731 (the first call builds the word map)
    else:
        leaves = Leaves.load(args.leaves, rules) if args.leaves else Leaves.default(rules)
        gen = MoveGenerator(Lexicon.load(args.graph), rules, leaves=leaves, wordmap=True)
        call = timed_best
        warm = lambda p: gen.best(p, by="equity")  # noqa: E731 (the first call builds the word map)
    moves = 0
    times: dict[int, list[float]] = {i: [] for i in range(len(positions))}
    calls = 0
    if args.mode == "seq":
        rng = random.Random(args.seed)
        for p in positions:  # outside the count: the output buffer grows to the largest move list
            warm(p)
        for _ in range(args.passes):
            order = list(range(len(positions)))
            rng.shuffle(order)
            for i in order:
                t = time.perf_counter()
                moves += call(gen, [positions[i]])
                times[i].append(time.perf_counter() - t)
            calls += len(order)
    else:
        for i, p in enumerate(positions):
            warm(p)  # loads the board: cross sets and lanes derived here
            for _ in range(args.passes):
                t = time.perf_counter()
                moves += call(gen, [p])
                times[i].append(time.perf_counter() - t)
            calls += args.passes
    # times are for runs without valgrind (under it they mean nothing); one reduce per call
    med = [statistics.median(t) * 1e6 for t in times.values()]
    print(f"{args.mode}: {calls} calls, {moves} moves; µs per position: median {statistics.median(med):.0f}, "
          f"mean {statistics.mean(med):.0f}")

if __name__ == "__main__":
    main()

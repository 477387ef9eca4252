"""Simulation speed of wordsalvo and MAGPIE's ``sim`` on the same positions, in one run.

    python benchmarks/sim_side_by_side.py --magpie /tmp/magpie-bench --graph csw24.wsg \\
        --leaves CSW24-magpie.csv --positions positions-public.cgp [--count 20] [--iterations 100] \\
        [--rounds 3] [--core 1] [--threads 1] [--wmp]

``--magpie`` is a MAGPIE folder built beforehand (``DIR/magpie/bin/magpie`` with its
``data/``, see the MAGPIE side-by-side notes); this script never builds it, and no
MAGPIE code is part of the project.  ``--leaves`` is MAGPIE's CSW24 leave table as
``leave,value`` lines, so both engines rank and play with the same leaves.

The workload, the same for both: the first ``--count`` positions of the file with
the opponent's rack unknown (both engines draw it from the unseen tiles), MAGPIE's
15 best candidates by static equity (``gsim`` with ``-numplays 15``; read from its
table once and given to ours as ``moves=``), 2 plies after the candidate, round
robin, ``--iterations`` iterations of every candidate, one thread, the static
players in the rollouts.  The figure is simulated plies per second: turns played
(the candidate and each rollout ply) over the simulation's wall-clock time, as
MAGPIE's ``Nps`` counts them.  Each engine runs in its own process pinned to the
same core (``taskset -c``), rounds alternate A B A B, and the medians of the rounds
and their ratio are printed with the machine, the date and the load.  Two figures:
per second of wall-clock time (MAGPIE's own ``Nps``, and ours), and per second of
CPU time (ours: the process's CPU time inside the simulation; MAGPIE's: its
process's CPU time less that of the same run with one iteration, which loads,
generates and sets up the same), which other work on a shared machine does not
distort.  With ``--threads 2`` ours also runs on two threads pinned to two cores
(wall-clock time: the speed-up a user sees).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

_OURS = r"""
import json, sys, time
import wordsalvo as ws
from wordsalvo.engine.simulation import simulate
from wordsalvo.leaves import Leaves
args = json.loads(sys.argv[1])
rules = ws.Rules.preset("classic-en")
lex = ws.Lexicon.load(args["graph"])
leaves = Leaves.from_csv(args["leaves"], rules)
out = []
for line, moves in args["positions"]:
    pos = ws.parse_cgp(line, rules=rules)
    r = simulate(pos, lex, leaves, moves=moves, plies=2, iterations=args["iterations"], sampling="rr",
                 threads=args["threads"], seed=args["seed"])
    out.append({"nodes": r.nodes, "seconds": r.seconds, "cpu": r.cpu_seconds, "iterations": r.iterations,
                "best": r.best.move,
                "rows": [[x.move, x.equity, x.win] for x in r.rows]})
print(json.dumps(out))
"""

_ROW = re.compile(r"(\d+):\s+(\S+)\s+(\S+)((?:\s+\S+)*?)\s+(-?\d+)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)")


def _notation(coord: str, word: str) -> str:
    """A row of MAGPIE's table as our notation: a pass, an exchange (``-TILES``) or a play."""
    if coord.lower() == "pass":
        return "pass"
    if coord.lower() in ("exch", "exchange", "xch"):
        return "-" + word
    return f"{coord} {word}"


def _unknown_opponent(line: str) -> str:
    """The CGP line's first four fields with the opponent's rack removed."""
    board, racks, scores, zeros = line.split()[:4]
    return f"{board} {racks.split('/')[0]}/ {scores} {zeros}"


def magpie_run(magpie: Path, lines: list[str], iterations: int, seed: int, core: str, wmp: bool,
               threads: int = 1, numplays: int = 15) -> list[dict]:
    """MAGPIE's gsim on each line: its candidates, Iters, Time and Nps."""
    cmds = "".join(f"cgp {line}\ngsim\n" for line in lines)
    cmd = ["taskset", "-c", core, str(magpie / "magpie" / "bin" / "magpie"), "set", "-mode", "sync", "-lex", "CSW24",
           "-ld", "english", "-leaves", "CSW24", "-wmp", "true" if wmp else "false", "-threads", str(threads),
           "-plies", "2", "-numplays", str(numplays), "-sr", "rr", "-scond", "none", "-minp", str(iterations),
           "-iter", str(iterations), "-seed", str(seed), "-savesettings", "false", "-hr", "true",
           "-pfrequency", "0", "-maxnumdplays", str(numplays)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = subprocess.run(cmd, input=cmds, capture_output=True, text=True, cwd=magpie / "magpie", check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    blocks = text.split("Nps:")
    out = []
    for i in range(len(lines)):
        block = blocks[i]
        tail = blocks[i + 1] if i + 1 < len(blocks) else ""
        rows = []
        for m in _ROW.finditer(block[block.rfind("Move") if "Move" in block else 0:]):
            rows.append((int(m.group(1)), m.group(2), m.group(3), float(m.group(6))))
        seen: dict[int, tuple] = {}
        for n, coord, word, wp in rows:
            seen.setdefault(n, (coord, word, wp))
        iters = int(re.findall(r"Iters:\s+(\d+)", block)[-1])
        secs = float(re.findall(r"Time:\s+([\d.]+)", block)[-1])
        nps = float(tail.split()[0]) if tail.split() else float("nan")
        out.append({"moves": [_notation(c, w) for _n, (c, w, _wp) in sorted(seen.items())],
                    "win": [wp / 100 for _n, (_c, _w, wp) in sorted(seen.items())],
                    "samples": iters, "seconds": secs, "nps": nps, "nodes": nps * secs,
                    "process_cpu": cpu})  # the whole process: set-up and every position
    return out


def magpie_figures(magpie: Path, lines: list[str], iterations: int, seed: int, core: str, wmp: bool):
    """(plies per second of wall-clock time as MAGPIE reports it, plies per second of CPU time):
    the CPU time of the run less that of the same run with 1 iteration (loading, move
    generation, set-up)."""
    base = magpie_run(magpie, lines, 1, seed, core, wmp)
    run = magpie_run(magpie, lines, iterations, seed, core, wmp)
    nodes = sum(p["nodes"] for p in run)
    wall = nodes / sum(p["seconds"] for p in run)
    cpu = (nodes - sum(p["nodes"] for p in base)) / (run[0]["process_cpu"] - base[0]["process_cpu"])
    return wall, cpu


def ours_run(graph: str, leaves: str, positions, iterations: int, seed: int, core: str, threads: int) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(HERE / "src"))
    payload = json.dumps({"graph": graph, "leaves": leaves, "positions": positions, "iterations": iterations,
                          "seed": seed, "threads": threads})
    text = subprocess.run(["taskset", "-c", core, sys.executable, "-c", _OURS, payload], capture_output=True,
                          text=True, env=env, check=True).stdout
    return json.loads(text.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--magpie", required=True, type=Path)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--leaves", required=True)
    ap.add_argument("--positions", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--core", default="1")
    ap.add_argument("--cores", default="0,1", help="the cores of the two-thread runs")
    ap.add_argument("--threads", type=int, default=1, help="2: also time ours on two threads")
    ap.add_argument("--wmp", action="store_true", help="MAGPIE with its word map too")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the figures to this file")
    args = ap.parse_args(argv)
    lines = [ln for ln in Path(args.positions).read_text("utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    lines = [_unknown_opponent(ln) for ln in lines[: args.count]]
    # MAGPIE's candidates, once
    first = magpie_run(args.magpie, lines, 1, args.seed, args.core, False)
    positions = [[ln, p["moves"]] for ln, p in zip(lines, first)]
    modes = [("magpie", False)] + ([("magpie-wmp", True)] if args.wmp else [])
    names = ["wordsalvo"] + [name for name, _w in modes]
    figures: dict[str, list[float]] = {n: [] for n in names}  # plies per second of wall-clock time
    cpu_figures: dict[str, list[float]] = {n: [] for n in names}  # plies per second of CPU time
    two = f"wordsalvo-{args.threads}t"
    if args.threads > 1:
        figures[two] = []
    loads = []
    for rnd in range(args.rounds):
        loads.append(os.getloadavg()[0])
        ours = ours_run(args.graph, args.leaves, positions, args.iterations, args.seed, args.core, 1)
        nodes = sum(p["nodes"] for p in ours)
        figures["wordsalvo"].append(nodes / sum(p["seconds"] for p in ours))
        cpu_figures["wordsalvo"].append(nodes / sum(p["cpu"] for p in ours))
        for name, wmp in modes:
            wall, cpu = magpie_figures(args.magpie, lines, args.iterations, args.seed, args.core, wmp)
            figures[name].append(wall)
            cpu_figures[name].append(cpu)
        if args.threads > 1:
            ours2 = ours_run(args.graph, args.leaves, positions, args.iterations, args.seed, args.cores, args.threads)
            figures[two].append(sum(p["nodes"] for p in ours2) / sum(p["seconds"] for p in ours2))
        print(f"round {rnd + 1} (load {loads[-1]:.1f}): wall " +
              ", ".join(f"{k} {v[-1]:,.0f}" for k, v in figures.items()) + "; cpu " +
              ", ".join(f"{k} {v[-1]:,.0f}" for k, v in cpu_figures.items()) + " plies/s",
              file=sys.stderr, flush=True)
    med = {k: statistics.median(v) for k, v in figures.items()}
    cmed = {k: statistics.median(v) for k, v in cpu_figures.items()}
    load = [round(x, 2) for x in os.getloadavg()]
    result = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores", "load": load,
              "positions": len(lines), "iterations": args.iterations, "candidates": 15, "plies": 2,
              "load_per_round": [round(x, 2) for x in loads],
              "plies_per_second": med, "rounds": figures,
              "ratio": {k: med["wordsalvo"] / med[k] for k in med if k.startswith("magpie")},
              "cpu_plies_per_second": cmed, "cpu_rounds": cpu_figures,
              "cpu_ratio": {k: cmed["wordsalvo"] / cmed[k] for k in cmed if k.startswith("magpie")}}
    if args.threads > 1:
        result["thread_speedup"] = med[two] / med["wordsalvo"]
        result["thread_speedup_rounds"] = [a / b for a, b in zip(figures[two], figures["wordsalvo"])]
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

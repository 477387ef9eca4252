"""Self-play games per second of ``wordsalvo autoplay`` and MAGPIE's autoplay, in one run, on one core.

    python benchmarks/autoplay_side_by_side.py --magpie /tmp/magpie-bench --graph csw24.wsg \\
        [--games 2000] [--rounds 3] [--cpu 1]

``--magpie`` is a MAGPIE folder built beforehand with ``shared/bench/magpie/setup.sh``
(``DIR/magpie`` holds MAGPIE and its ``data/``: the CSW24 graph and its all-zero
leave table); this script never builds it, and MAGPIE is not part of the project.

Both engines play ``--games`` games of static equity players (best equity with
all-zero leave tables, so equity is the score; no simulation) with the same
word list, one thread, pinned to the same core; rounds alternate A B A B.

* MAGPIE: ``magpie autoplay games N -lex CSW24 -leaves CSW24 -threads 1 -wmp false
  -r1 best -r2 best -s1 equity -s2 equity`` with its standard graph (its word map off);
  with ``--wmp`` also with ``-wmp true`` (its 179 MB word map, loaded in the process).
* wordsalvo: ``wordsalvo autoplay --rules classic-en --lexicon GRAPH --leaves ZEROS
  --p1 equity --p2 equity --games N --jobs 1`` (its compact word map, 8 MB for CSW24, built
  at the start of the process: self-play makes thousands of searches).

Each figure is games per second of the whole process (start-up and loading
included, wall time); for wordsalvo also the rate of its game loop alone (from
``--json``).  Printed: the machine and date, every round, the ratio of the whole
processes (wordsalvo / MAGPIE: above 1 means wordsalvo is faster) and its range.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import machine_line  # noqa: E402


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed ({' '.join(cmd)}):\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--magpie", type=Path, required=True, help="folder with magpie/ built by shared/bench/magpie")
    ap.add_argument("--graph", type=Path, required=True, help="our graph of the same word list (.wsg)")
    ap.add_argument("--lexicon-name", default="CSW24", help="MAGPIE's name of the lexicon and its leave table")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=1, help="core both are pinned to (-1: no pinning)")
    ap.add_argument("--wmp", action="store_true", help="also time MAGPIE with its word map (-wmp true)")
    args = ap.parse_args()
    magpie = args.magpie / "magpie" / "bin" / "magpie"
    if not magpie.exists():
        ap.error(f"--magpie: no magpie/bin/magpie under {args.magpie} (build it with shared/bench/magpie/setup.sh)")
    wordsalvo = shutil.which("wordsalvo") or sys.exit("no `wordsalvo` command on PATH (pip install .)")
    pin = ["taskset", "-c", str(args.cpu)] if args.cpu >= 0 and shutil.which("taskset") else []

    import wordsalvo as ws

    with tempfile.TemporaryDirectory() as tmp:
        zeros = Path(tmp) / "zeros.wsl"
        ws.Leaves.zeros(ws.Rules.preset("classic-en")).save(zeros)
        def magpie_cmd(wmp: bool) -> list[str]:
            return pin + [str(magpie), "autoplay", "games", str(args.games), "-lex", args.lexicon_name,
                          "-ld", "english", "-leaves", args.lexicon_name, "-threads", "1",
                          "-wmp", "true" if wmp else "false", "-seed", "1", "-hr", "true", "-savesettings", "false",
                          "-r1", "best", "-r2", "best", "-s1", "equity", "-s2", "equity"]
        ours = pin + [wordsalvo, "autoplay", "--rules", "classic-en", "--lexicon", str(args.graph),
                      "--leaves", str(zeros), "--p1", "equity", "--p2", "equity", "--games", str(args.games),
                      "--jobs", "1", "--seed", "1", "--json"]
        print(f"# self-play, wordsalvo vs MAGPIE: {args.games} games of static equity players (all-zero leaves), "
              f"{args.lexicon_name}, one thread, {'cpu ' + str(args.cpu) if pin else 'not pinned'}, "
              f"{args.rounds} rounds A B")
        print(f"# {machine_line()}")
        print(f"# load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        engines = [("standard graph", False)] + ([("word map", True)] if args.wmp else [])
        print("| round | MAGPIE engine | MAGPIE, games/s (process) | wordsalvo, games/s (process) | "
              "wordsalvo, games/s (game loop) | wordsalvo / MAGPIE (process) |")
        print("|---:|---|---:|---:|---:|---:|")
        ratios: dict[str, list[float]] = {}
        for r in range(1, args.rounds + 1):
            for engine, wmp in engines:
                t_theirs, _ = timed(magpie_cmd(wmp), cwd=args.magpie / "magpie")
                t_ours, out = timed(ours)
                summary = json.loads(out.strip().splitlines()[-1])
                if summary["games"] != args.games:
                    sys.exit(f"wordsalvo played {summary['games']} games, expected {args.games}")
                g_theirs, g_ours = args.games / t_theirs, args.games / t_ours
                ratios.setdefault(engine, []).append(g_ours / g_theirs)
                print(f"| {r} | {engine} | {g_theirs:.0f} | {g_ours:.0f} | {summary['games_per_second']:.0f} | "
                      f"{ratios[engine][-1]:.2f} |", flush=True)
        print()
        for engine, rs in ratios.items():
            print(f"wordsalvo / MAGPIE ({engine}), whole processes: {min(rs):.2f}–{max(rs):.2f} "
                  f"(above 1 = wordsalvo plays more games per second)")


if __name__ == "__main__":
    main()

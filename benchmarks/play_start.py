"""How long ``wordsalvo play`` takes to start: ``echo quit | wordsalvo play --rules R``.

    python benchmarks/play_start.py [--python OTHER/.venv/bin/python ...] [--rounds 7] [--rules R ...]

Runs the command with this interpreter (and every ``--python`` given, e.g. another
checkout's, in the same run: rounds alternate A B A B) for each rule set, the game
being saved to a temporary folder, and prints per interpreter and rule set the
median wall time from start to exit and the median CPU time (user + system) of the
process, with the machine's load average before the run.  Each run is a whole start:
the interpreter, the imports, the lexicon, the engine's vocabulary, the first screen,
the save.  ``PYTHONDONTWRITEBYTECODE`` is unset for the runs, so every module's byte
code is cached as in an installed package (with it set, each start of a source
checkout compiles every changed module again).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

RULES = ("classic-en", "wordsalvo-en", "wordsalvo-nl", "turkish", "wordfeud-de", "woodword-de")


def one_start(python: str, rules: str, games: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``echo quit | wordsalvo play --rules rules``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # byte code as installed
    r = subprocess.run([python, "-m", "wordsalvo", "play", "--rules", rules], input="quit\n", text=True,
                       capture_output=True, env={**env, "WORDSALVO_GAMES_DIR": games})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{python} play --rules {rules} failed:\n{r.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", action="append", default=[], help="another interpreter to time in the same run")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--rules", action="append", help=f"rule sets (default: {', '.join(RULES)})")
    args = ap.parse_args(argv)
    pythons = [sys.executable, *args.python]
    rules = args.rules or list(RULES)
    load = os.getloadavg()
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as games:
        for python in pythons:  # a first start of each: byte-code compiled, caches filled
            for r in rules:
                one_start(python, r, games)
        for _ in range(args.rounds):
            for r in rules:
                for python in pythons:
                    times.setdefault((python, r), []).append(one_start(python, r, games))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()} {os.cpu_count()} cores, "
          f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} before the run, "
          f"{args.rounds} rounds, medians")
    print("| interpreter | rule set | wall | CPU |")
    print("|---|---|---:|---:|")
    for (python, r), runs in times.items():
        wall = statistics.median(w for w, _c in runs)
        cpu = statistics.median(c for _w, c in runs)
        print(f"| {python} | {r} | {wall:.2f} s | {cpu:.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

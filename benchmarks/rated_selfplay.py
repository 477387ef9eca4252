"""The rated player's games in the C self-play loop against the same games on Game + Bot, in one run.

    python benchmarks/rated_selfplay.py [--rules wordsalvo-en] [--p1 1200] [--p2 900] [--games 20] [--rounds 5]

Each round plays games ``0 .. --games - 1`` of one autoplay spec (seed 1) on the Python
loop (``autoplay._python_game``: Game applies, Bot(rating=R) chooses) and then on the C
loop (``autoplay.play_game``), alternating A B A B so both see the same machine load,
and measures each side's CPU time (``time.process_time``).  Both sides must give the same
results, game for game, or the run fails.  Prints games per second of each side (the
median of the rounds), their ratio, the date and the load average.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from wordsalvo.engine.autoplay import AutoplaySpec, _python_game, play_game  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="wordsalvo-en")
    ap.add_argument("--p1", default="1200")
    ap.add_argument("--p2", default="900")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    spec = AutoplaySpec(args.rules, (args.p1, args.p2), seed=1)
    play_game(spec, 0)  # warm-up: lexicon, leave table, word map, offensive list
    _python_game(spec, 0)
    rates: dict[str, list[float]] = {"python": [], "c": []}
    started = datetime.datetime.now(datetime.timezone.utc)
    load = os.getloadavg()
    for _ in range(args.rounds):
        results = {}
        for name, fn in (("python", _python_game), ("c", play_game)):
            t = time.process_time()
            results[name] = [fn(spec, i) for i in range(args.games)]
            rates[name].append(args.games / (time.process_time() - t))
        if results["python"] != results["c"]:
            print("the two loops played different games", file=sys.stderr)
            return 1
    py, c = statistics.median(rates["python"]), statistics.median(rates["c"])
    print(f"{args.rules} {args.p1} vs {args.p2}, {args.games} games x {args.rounds} rounds, CPU time, "
          f"{started:%Y-%m-%d %H:%M} UTC, load average {load[0]:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end")
    print(f"  Game + Bot: {py:.1f} games/s   C loop: {c:.1f} games/s   ratio {c / py:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

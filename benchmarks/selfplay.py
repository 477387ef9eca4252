"""Best-move self-play speed of this checkout against another one, in one run.

    python benchmarks/selfplay.py --base /tmp/base [--rules classic-en] [--games 30] [--rounds 5]

Each side runs in its own interpreter (``PYTHONPATH=<tree>/src``): after one
warm-up game (the lexicon's anagram keys are built on the first best-move
search), it plays ``--games`` seeded games of ``Game.best_move()`` then
``Game.play()`` (a pass when there is no placement) with the embedded lexicon
and reports the time per turn.  The sides alternate A B A B for ``--rounds``
rounds, so both see the same machine load; the medians and their ratio are
printed with the machine and the date.  Both sides must play the same games
(same turns, same final scores), or the run fails: a fast wrong answer is no
answer.  The base tree must be built in place (``python setup.py build_ext
--inplace``), e.g. ``git worktree add /tmp/base <commit>``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

_WORKER = r"""
import json, sys, time
import wordsalvo as ws
rules = ws.Rules.preset(sys.argv[1])
lexicon = ws.Lexicon.default(rules.alphabet.name)
games = int(sys.argv[2])

def game(seed):
    g = ws.Game(rules, lexicon=lexicon, seed=seed)
    turns = 0
    while not g.is_over:
        move = g.best_move()
        if move is None:
            g.pass_turn()
        else:
            g.play(move)
        turns += 1
    return turns, list(g.scores)

game(0)  # warm-up: anagram keys, caches
t0 = time.perf_counter()
results = [game(seed) for seed in range(1, games + 1)]
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "turns": sum(t for t, _ in results), "scores": [s for _, s in results]}))
"""


def run(tree: Path, rules: str, games: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run([sys.executable, "-c", _WORKER, rules, str(games)], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (built in place)")
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    sides = {"this": HERE, "base": args.base.resolve()}
    per_turn: dict[str, list[float]] = {k: [] for k in sides}
    reference = None
    for _ in range(args.rounds):
        for name, tree in sides.items():  # A B A B ...
            r = run(tree, args.rules, args.games)
            if reference is None:
                reference = (r["turns"], r["scores"])
            elif (r["turns"], r["scores"]) != reference:
                raise SystemExit(f"{name} ({tree}) played different games: {r['turns']} turns, "
                                 f"scores {r['scores'][:3]}..., expected {reference[0]} turns, {reference[1][:3]}...")
            per_turn[name].append(r["seconds"] / r["turns"] * 1e6)
    this, base = statistics.median(per_turn["this"]), statistics.median(per_turn["base"])
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print(f"{datetime.date.today()} {platform.node()} {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"{args.rules}, embedded lexicon, {args.games} seeded games ({reference[0]} turns) x {args.rounds} rounds, "
          f"alternating")
    for name in sides:
        runs = ", ".join(f"{x:.0f}" for x in per_turn[name])
        print(f"  {name:5} {sides[name]}: median {statistics.median(per_turn[name]):.0f} us/turn ({runs})")
    print(f"speed-up (base / this): {base / this:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

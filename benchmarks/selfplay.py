"""Self-play speed of this checkout against another one, in one run.

    python benchmarks/selfplay.py --base /tmp/base [--rules classic-en] [--games 30] [--rounds 5]
                                  [--what game|engine|both]

Each side runs in its own interpreter (``PYTHONPATH=<tree>/src``).  ``game``:
after one warm-up game (the lexicon's anagram keys are built on the first
best-move search), it plays ``--games`` seeded games of ``Game.best_move()``
then ``Game.play()`` (a pass when there is no placement) with the embedded
lexicon and reports the time per turn (the lexicon's word map built first, so
both sides search with it from the first turn).  ``engine``: the C self-play loop
(``wordsalvo.engine.selfplay``), equity against equity with the shipped leave table,
``10 x --games`` seeded games, reported as games per second.  Times are the
process's CPU time (``time.process_time``): on a core shared with other work the
wall clock counts their time too.  The sides alternate A B A B for ``--rounds``
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
if sys.argv[3] == "engine":
    from wordsalvo.leaves import Leaves
    try:
        from wordsalvo.engine.selfplay import SelfPlay
    except ImportError:  # a checkout before the engine/ layout
        from wordsalvo.selfplay import SelfPlay
    engine = SelfPlay(rules, lexicon)
    table = Leaves.default(rules)
    engine.set_players(("equity", "equity"), (table, table))
    engine.play(0)  # warm-up
    t0 = time.process_time()
    results = [engine.play(seed) for seed in range(1, 10 * games + 1)]
    seconds = time.process_time() - t0
    print(json.dumps({"seconds": seconds, "turns": sum(r.turns for r in results),
                      "games": len(results), "scores": [list(r.scores) for r in results]}))
    sys.exit(0)

# the word map first, so that both sides search with it from the first turn (by default it
# is built once the searches have taken as long as the build would, by the wall clock: a
# loaded machine gets there sooner, and the runs would differ by when it did)
try:
    from wordsalvo._core import _engine
except ImportError:  # a checkout before the generator and the game state shared one extension
    from wordsalvo._core import _movegen as _engine
graph = lexicon._graph
if getattr(graph, "_wordmap", False) is None:
    graph._wordmap = _engine.WordMap(graph)

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
t0 = time.process_time()
results = [game(seed) for seed in range(1, games + 1)]
seconds = time.process_time() - t0
print(json.dumps({"seconds": seconds, "turns": sum(t for t, _ in results), "games": len(results),
                  "scores": [s for _, s in results]}))
"""


def run(tree: Path, rules: str, games: int, what: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run([sys.executable, "-c", _WORKER, rules, str(games), what], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (built in place)")
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--what", choices=("game", "engine", "both"), default="both",
                    help="Game.best_move/play turns, the C self-play loop, or both")
    args = ap.parse_args(argv)
    sides = {"this": HERE, "base": args.base.resolve()}
    kinds = ("game", "engine") if args.what == "both" else (args.what,)
    # per kind and side: us per turn (game) or games per second (engine)
    rate: dict[str, dict[str, list[float]]] = {k: {s: [] for s in sides} for k in kinds}
    reference: dict[str, tuple] = {}
    for _ in range(args.rounds):
        for kind in kinds:
            for name, tree in sides.items():  # A B A B ...
                r = run(tree, args.rules, args.games, kind)
                got = (r["turns"], r["scores"])
                if kind not in reference:
                    reference[kind] = got
                elif got != reference[kind]:
                    raise SystemExit(f"{name} ({tree}) played different {kind} games: {r['turns']} turns, "
                                     f"scores {r['scores'][:3]}..., expected {reference[kind][0]} turns")
                rate[kind][name].append(r["seconds"] / r["turns"] * 1e6 if kind == "game"
                                        else r["games"] / r["seconds"])
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{datetime.date.today()} {platform.node()} {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {load:.2f} at the end")
    for kind in kinds:
        games = args.games if kind == "game" else 10 * args.games
        unit = "us/turn" if kind == "game" else "games/s"
        print(f"{kind}: {args.rules}, embedded lexicon, {games} seeded games ({reference[kind][0]} turns) x "
              f"{args.rounds} rounds, alternating")
        for name in sides:
            runs = ", ".join(f"{x:.0f}" for x in rate[kind][name])
            print(f"  {name:5} {sides[name]}: median {statistics.median(rate[kind][name]):.1f} {unit} ({runs})")
        this, base = statistics.median(rate[kind]["this"]), statistics.median(rate[kind]["base"])
        speed = base / this if kind == "game" else this / base
        print(f"  speed of this against base: {speed:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Head-to-head of two leave tables in our own engine: static equity players, game pairs.

    python benchmarks/leaves_match.py --rules classic-en A.wsl B.csv [--lexicon GRAPH]
        [--pairs 5000] [--seed 7] [--jobs 2] [--json OUT]

Both players are the ``equity`` player of the C self-play loop
(:mod:`wordsalvo.engine.selfplay`) with the same lexicon; only the leave table
differs.  Each pair is two games with the same bag seed, seats swapped (A moves
first in one, B in the other), so the luck of the draw cancels out within a pair.
A table is a ``.wsl`` file or a ``leave,value`` CSV (``Leaves.from_csv``).

Printed: the machine and date, A's win rate (a tie is half a win) over all the
games with its 95 % interval from the spread of the pair results (pairs are the
independent units), the mean spread per game, and the games per second.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import machine_line  # noqa: E402

_STATE: dict = {}


def _load_table(path: str, rules):
    from wordsalvo.leaves import Leaves

    return Leaves.from_csv(path, rules) if path.endswith(".csv") else Leaves.load(path, rules)


def _setup(rules_name: str, lexicon: str | None, a: str, b: str):
    from wordsalvo.engine.selfplay import SelfPlay
    from wordsalvo.lexicon.lexicon import Lexicon
    from wordsalvo.rules import Rules

    key = (rules_name, lexicon, a, b)
    if _STATE.get("key") != key:
        rules = Rules.preset(rules_name)
        lex = Lexicon.load(lexicon) if lexicon else Lexicon.default(rules.alphabet.name)
        _STATE.update(key=key, sp=SelfPlay(rules, lex, ("equity", "equity")),
                      tables=(_load_table(a, rules), _load_table(b, rules)))
    return _STATE["sp"], _STATE["tables"]


def _pairs(rules_name: str, lexicon: str | None, a: str, b: str, seed: int, indices: list[int]):
    """(A's points in the pair: 0, 0.5 .. 2, A's spread summed over the pair) per pair."""
    from wordsalvo.engine.autoplay import game_seed

    sp, (ta, tb) = _setup(rules_name, lexicon, a, b)
    out = []
    for i in indices:
        s = game_seed(seed, i)
        points = 0.0
        spread = 0
        for a_seat in (0, 1):
            tables = (ta, tb) if a_seat == 0 else (tb, ta)
            sp.set_players(("equity", "equity"), tables)
            g = sp.play(s)
            d = g.scores[a_seat] - g.scores[1 - a_seat]
            points += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
            spread += d
        out.append((points, spread))
    return out


def match(rules: str, a: str, b: str, lexicon: str | None = None, pairs: int = 5000, seed: int = 7,
          jobs: int = 2) -> dict:
    start = time.perf_counter()
    size = 100
    chunks = [list(range(i, min(pairs, i + size))) for i in range(0, pairs, size)]
    results = []
    if jobs == 1:
        for c in chunks:
            results += _pairs(rules, lexicon, a, b, seed, c)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for r in pool.map(_pairs, *zip(*[(rules, lexicon, a, b, seed, c) for c in chunks])):
                results += r
    seconds = time.perf_counter() - start
    n = len(results)
    p = [r[0] / 2 for r in results]
    mean = sum(p) / n
    var = sum((x - mean) ** 2 for x in p) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return {"rules": rules, "a": os.path.basename(a), "b": os.path.basename(b), "pairs": n, "games": 2 * n,
            "seed": seed, "win_rate": mean, "low": mean - half, "high": mean + half,
            "spread_per_game": sum(r[1] for r in results) / (2 * n), "seconds": seconds,
            "games_per_second": 2 * n / seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--lexicon")
    ap.add_argument("--pairs", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    r = match(args.rules, args.a, args.b, args.lexicon, args.pairs, args.seed, args.jobs)
    print(machine_line())
    print(f"{r['rules']}: {r['a']} vs {r['b']}: {r['games']:,} games ({r['pairs']:,} pairs, seed {r['seed']}): "
          f"A wins {100 * r['win_rate']:.2f} % ({100 * r['low']:.2f}-{100 * r['high']:.2f}), "
          f"spread {r['spread_per_game']:+.1f}/game, {r['games_per_second']:.0f} games/s")
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()

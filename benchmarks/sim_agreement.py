"""Does our simulation pick the move MAGPIE's simulation picks?

    python benchmarks/sim_agreement.py --magpie /tmp/magpie-bench --graph csw24.wsg \\
        --leaves CSW24-magpie.csv --positions positions-public.cgp [--count 100] [--iterations 500] \\
        [--json OUT]

For each position (the opponent's rack unknown to both), MAGPIE's ``gsim`` simulates
its 15 best candidates by static equity, 2 plies, round robin, ``--iterations``
iterations each; ours simulates the same 15 moves the same way (``moves=``, its
own random draws and win model; MAGPIE's leave table in both).  Reported: how often
the two pick the same move (by each engine's own ranking: win chance, equity
breaking ties), how often our best by equity is MAGPIE's, and for every
disagreement what MAGPIE's pick is worth in our simulation: its mean equity and
win chance behind our best (with our standard error), so a "disagreement" between
two moves our own simulation cannot tell apart is seen as such.  Run it where the
MAGPIE build from the side-by-side notes is; ``--magpie`` is that folder.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE.parent / "src"))

from sim_side_by_side import _unknown_opponent, magpie_run  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--magpie", required=True, type=Path)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--leaves", required=True)
    ap.add_argument("--positions", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="the first position (0-based)")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--core", default="1")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    import wordsalvo as ws
    from wordsalvo.engine.simulation import Simulator
    from wordsalvo.leaves import Leaves

    rules = ws.Rules.preset("classic-en")
    lex = ws.Lexicon.load(args.graph)
    leaves = Leaves.from_csv(args.leaves, rules)
    lines = [ln for ln in Path(args.positions).read_text("utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    lines = [_unknown_opponent(ln) for ln in lines[: args.count]]
    rows = []
    for i, line in enumerate(lines):
        if i < args.start:
            continue
        mag = magpie_run(args.magpie, [line], args.iterations, args.seed, args.core, False)[0]
        if len(mag["moves"]) < 2:
            continue
        pos = ws.parse_cgp(line, rules=rules)
        sim = Simulator(pos, lex, leaves, moves=mag["moves"], plies=2, iterations=args.iterations, sampling="rr",
                        seed=args.seed)
        ours = sim.run()
        # MAGPIE lists its candidates best first (win chance, then equity): its pick is the first given
        mag_best = next(r for r in ours.rows if r.action is sim.actions[0])
        best = ours.rows[0]
        best_eq = max(ours.rows, key=lambda r: r.equity)
        rec = {"position": i, "magpie": mag["moves"][0], "ours": best.move, "ours_by_equity": best_eq.move,
               "agree": mag_best is best, "agree_equity": mag_best is best_eq,
               "magpie_pick_equity_behind": best_eq.equity - mag_best.equity,
               "magpie_pick_win_behind": (best.win - mag_best.win) if best.win is not None else None,
               "stderr": mag_best.stderr or 0.0, "exact": ours.stop == "exact"}
        rows.append(rec)
        print(f"{i}: magpie {rec['magpie']}, ours {rec['ours']} (by equity {rec['ours_by_equity']}); "
              f"magpie's pick {rec['magpie_pick_equity_behind']:.2f} equity behind (se {rec['stderr']:.2f})",
              file=sys.stderr, flush=True)
    n = len(rows)
    disagree = [r for r in rows if not r["agree"]]
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores", "load": [round(x, 2) for x in os.getloadavg()],
        "positions": n, "iterations": args.iterations, "candidates": 15, "plies": 2,
        "agree": sum(r["agree"] for r in rows) / n if n else None,
        "agree_equity": sum(r["agree_equity"] for r in rows) / n if n else None,
        "disagreements": len(disagree),
        "median_equity_behind_when_disagreeing": statistics.median(
            [r["magpie_pick_equity_behind"] for r in disagree]) if disagree else 0.0,
        "max_equity_behind": max((r["magpie_pick_equity_behind"] for r in rows), default=0.0),
        "within_two_stderr": sum(r["magpie_pick_equity_behind"] <= 2 * r["stderr"] for r in rows) / n if n else None,
        "rows": rows,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

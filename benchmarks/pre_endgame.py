"""Pre-endgame solver (1-4 tiles in the bag) side by side with MAGPIE's ``peg``.

    taskset -c 1 python benchmarks/pre_endgame.py --graph csw24.wsg --magpie MAGPIE_DIR \\
        --per-bag 25 --seconds 5 [--json OUT]

Positions: seeded games of the equity player (classic-en, the graph given; seeds from
``--seed``) stopped at the first turn with 1-4 tiles in the bag, ``--per-bag`` of each
bag count (the opponent's rack unseen: "RACK/" in the CGP line).  On each, ours
(``solve_pre_endgame``: the 16 best plays by equity and the pass, the default stages)
and MAGPIE's ``peg`` (its own candidates: every play greedily, then its halving
stages; ``-pegnested false``: its flat rational-opponent rollout, the model nearest to
ours; one thread) run with the same time limit, one right after the other, so both see
the same load.  Reported per position: each side's best move, win chance and seconds,
whether the best moves agree, and MAGPIE's win chance for OUR best move when it is in
its table (how much our choice loses by its valuation).  The word list is a local file
(never committed).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE.parent / "src"))

import wordsalvo as ws  # noqa: E402


def positions(rules, lexicon, per_bag: int, seed: int, close: int | None = None, bags=(1, 2, 3, 4)):
    """(seed, Position) pairs: per_bag of each bag count in ``bags``, the first such turn of a game."""
    want = {b: per_bag for b in bags}
    bot = ws.Bot("equity", rules, lexicon)
    out = []
    while any(want.values()):
        game = ws.Game(rules, lexicon, seed=seed)
        while game.bag_count > 4 and not game.is_over:
            game.apply(bot.choose(game))
        b = game.bag_count
        near = close is None or abs(game.scores[0] - game.scores[1]) <= close
        if not game.is_over and b in want and want[b] > 0 and near:
            pos = game.position()
            racks = ["", ""]
            racks[pos.to_move] = pos.rack
            out.append((seed, ws.Position(rules, pos.board.copy(), racks, list(pos.scores), pos.scoreless_count,
                                          to_move=pos.to_move)))
            want[b] -= 1
        seed += 1
    return out


def _ucgi(action: str) -> str:
    """Our notation as MAGPIE's -pegonly move: "M1 K(E)Y" -> "M1.KEY", "pass"."""
    if action == "pass":
        return action
    where, word = action.split()
    return f"{where}.{word.replace('(', '').replace(')', '')}"


def magpie_peg(magpie: Path, cgp: str, seconds: float, lex: str = "CSW24", only=None):
    """MAGPIE's peg: {best, win, spread, table {move: win}, stage, seconds (wall, start-up included),
    cpu (its user+system CPU seconds)}; ``only``: our candidates (-pegonly), valued exhaustively
    (-pegtopk all: every draw, the endgames to the end)."""
    import resource

    board, racks, scores, zeros = cgp.split()[:4]
    cmd = [str(magpie / "bin" / "magpie"), "cgp", board, racks, scores, zeros, "-lex", lex, "-mode", "sync",
           "-savesettings", "false"]
    extra = f" -pegtopk all -pegonly {','.join(_ucgi(a) for a in only)}" if only else ""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, input=f"peg -pegtlim {seconds:g} -threads 1 -pegnested false{extra}\n", text=True,
                         capture_output=True, cwd=magpie, timeout=3600).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    table, stages = {}, []
    best = None
    for line in out.splitlines():
        # a candidate row: "[depth] rank move wins ties losses win% spread [time outcomes]" (the depth
        # column and what follows the spread came with MAGPIE's 2026 output; older builds print neither)
        m = (re.match(r"\s*\S+\s+(\d+)\s+(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(-?[\d.]+)\s+([-+]?[\d.]+)\s+[\d.]+s\b",
                      line)
             or re.match(r"\s*(\d+)\s+(\S+ \S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(-?[\d.]+)\s+([-+]?[\d.]+)\s*$", line))
        if m:
            if float(m.group(6)) < 0:  # not valued within the time limit
                continue
            move, win, spread = m.group(2).strip(), float(m.group(6)) / 100, float(m.group(7))
            table[move] = win
            if best is None:
                best = {"best": move, "win": win, "spread": spread}
            continue
        m = re.match(r"(\d+)\s+(\S.*?)\s+(\d+)/(\d+)\s+([\d.]+)%\s+([\d.]+)s", line)
        if m:
            stages.append({"stage": int(m.group(1)), "done": int(m.group(3)), "of": int(m.group(4)),
                           "seconds": float(m.group(6))})
    if best is None:
        return {"error": out[-500:]}
    finished = [s for s in stages if s["done"] == s["of"]]
    return {**best, "table": table, "stage": finished[-1]["stage"] if finished else -1,
            "seconds": max((s["seconds"] for s in stages), default=wall), "wall": wall, "cpu": cpu}


def _cgp(pos) -> str:
    return ws.format_cgp(pos)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--magpie", type=Path)
    ap.add_argument("--per-bag", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--close", type=int, default=None, help="only positions whose spread is at most this")
    ap.add_argument("--exact", type=int, default=None, metavar="K",
                    help="both sides value the same K best plays by equity and the pass exhaustively (ours: every "
                         "endgame until proven; MAGPIE: -pegonly them, -pegtopk all), --seconds each")
    ap.add_argument("--bags", default="1,2,3,4")
    ap.add_argument("--candidates", type=int, default=None,
                    help="ours: how many plays by static equity (plus the pass); default the library's")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    rules = ws.Rules.preset("classic-en")
    lex = ws.Lexicon.load(args.graph)
    rows = []
    started = datetime.datetime.now(datetime.timezone.utc)
    for i, (seed, pos) in enumerate(positions(rules, lex, args.per_bag, args.seed, args.close,
                                                  tuple(int(b) for b in args.bags.split(",")))):
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        c0 = time.process_time()
        if args.exact:
            ours = ws.solve_pre_endgame(pos, lex, seconds=args.seconds, candidates=args.exact,
                                        schedule=((None, None),))
        else:
            ours = ws.solve_pre_endgame(pos, lex, seconds=args.seconds,
                                        **({"candidates": args.candidates} if args.candidates else {}))
        ours_cpu = time.process_time() - c0
        ours_s = time.perf_counter() - t0
        bag = ours.bag
        rec = {"i": i, "seed": seed, "bag": bag, "cgp": _cgp(pos), "load": load, "ours_best": ours.best.action,
               "ours_win": ours.best.win, "ours_spread": ours.best.spread, "ours_stage": ours.stage,
               "ours_stop": ours.stop, "ours_seconds": ours_s, "ours_cpu": ours_cpu,
               "ours_table": {c.action: round(c.win, 6) for c in ours.candidates if c.complete}, "ours_solves": ours.solves, "ours_nodes": ours.nodes}
        if args.magpie:
            only = [c.action for c in ours.candidates] if args.exact else None
            mp = magpie_peg(args.magpie, rec["cgp"], args.seconds, only=only)
            rec.update({f"magpie_{k}": v for k, v in mp.items()})
            if "table" in mp:
                rec["agree"] = mp["best"] == ours.best.action
                rec["magpie_win_of_ours"] = mp["table"].get(ours.best.action)
                rec["ours_win_of_magpies"] = rec["ours_table"].get(mp["best"])  # None: not our candidate
        rows.append(rec)
        print(json.dumps({k: v for k, v in rec.items() if k != "cgp"}), flush=True)
        if args.json:
            Path(args.json + ".rows").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    summary = {"date": started.isoformat(timespec="minutes"), "machine": platform.node(), "cpus": os.cpu_count(),
               "uptime_load": os.getloadavg(), "seconds": args.seconds, "positions": len(rows)}
    for b in (1, 2, 3, 4, None):
        sel = [r for r in rows if b is None or r["bag"] == b]
        got = [r for r in sel if "agree" in r]
        key = f"bag{b}" if b else "all"
        summary[key] = {
            "n": len(sel), "magpie_answered": len(got),
            "agree": sum(r["agree"] for r in got),
            "ours_median_s": statistics.median(r["ours_seconds"] for r in sel) if sel else None,
            "magpie_median_s": statistics.median(r["magpie_seconds"] for r in got) if got else None,
            "ours_finished_all_stages": sum(r["ours_stop"] == "done" for r in sel),
            "mean_abs_win_diff_of_best": (statistics.mean(abs(r["ours_win"] - r["magpie_win"]) for r in got)
                                          if got else None),
            "ours_choice_loses_by_magpie": [round(r["magpie_win"] - r["magpie_win_of_ours"], 4) for r in got
                                            if r.get("magpie_win_of_ours") is not None and not r["agree"]],
            "ours_choice_not_in_magpie_table": sum(1 for r in got if r.get("magpie_win_of_ours") is None),
        }
    print(json.dumps(summary, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

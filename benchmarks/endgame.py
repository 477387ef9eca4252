"""Endgame solver: values against another engine's exact solver, speed side by side,
and the share of self-play endgames proven within a time limit.

    python benchmarks/endgame.py --graph csw24.wsg --positions positions-public.tsv \\
        [--magpie MAGPIE_DIR] [--json OUT]
    python benchmarks/endgame.py --selfplay 40 [--graph G] [--rules classic-en] [--limits 1,10]
    python benchmarks/endgame.py --make 220 --out NEW.tsv --graph G [--first-seed 9000]
    python benchmarks/endgame.py --scaling 20 --positions NEW.tsv --graph G [--seconds 20] [--threads 2]

``--positions``: a TSV whose columns are CGP line, the other engine's final spread
(the value our solver must give: the spread for the side to move after settlement;
a file of CGP lines only takes MAGPIE's value where it proved one, with ``--magpie``),
its first move and its seconds (the oracle files are local, never committed: they
derive from a proprietary word list).  Every value must be equal; the script exits
1 otherwise.  With ``--magpie`` MAGPIE's solver (one thread) runs on each position
right after ours, so both times come from the same load (``--magpie-limit``: its
``-etlim``; ``--seconds``: our limit, a position not proven within it is not compared;
``--threads``: ours; each line and the summary also give process CPU seconds, ours
for the solve alone, MAGPIE's for its whole process with start-up and lexicon loading,
which a loaded machine disturbs less than the wall clock).  ``--selfplay N``: N seeded
games of the equity player (seeds 0..N-1) up to the empty bag, each endgame solved
once with the largest limit of ``--limits``: the share proven within each limit.
``--make N --out FILE``: N new endgames for ``--positions`` (CGP lines), each the position
of a seeded game of the equity player (seeds from ``--first-seed``) at the turn its bag
runs empty, blanks or not as the game dealt them; games that end before are skipped.
``--scaling N``: every position solved once on one thread within ``--seconds``, then
the N slowest of those proven solved again on one thread and on ``--threads`` (default
2 here), the two runs of each position back to back so that both see the same load:
the values must agree, and the ratio of the summed times is the parallel speed-up.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import resource
import subprocess
import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE.parent / "src"))

import wordsalvo as ws  # noqa: E402


def _p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def magpie_solve(magpie: Path, cgp: str, lex: str = "CSW24", limit: int = 60):
    """(final spread, seconds MAGPIE reports, depth, CPU seconds of the whole process with
    its start-up and lexicon loading) of MAGPIE's endgame solver (depth 25: exact for
    a+b <= 13; less: its time limit stopped it)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    board, racks, scores, zeros = cgp.split()[:4]
    cmd = [str(magpie / "bin" / "magpie"), "cgp", board, racks, scores, zeros, "-lex", lex, "-mode", "sync",
           "-savesettings", "false"]
    out = subprocess.run(cmd, input=f"endgame -eplies 25 -threads 1 -ttfraction 0.02 -etlim {limit}\n", text=True,
                         capture_output=True, cwd=magpie, timeout=300 + 2 * limit).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("Endgame (depth"))
    m = re.match(r"Endgame \(depth: (\d+), time: ([\d.]+)s", lines[i])
    hdr, row = lines[i + 1], lines[i + 2]
    starts, pos = [], 0
    for name in re.findall(r"Play|V|S|Turn \d+", hdr):
        j = hdr.index(name, pos)
        starts.append(j)
        pos = j + len(name)
    s_col = [n for n in re.findall(r"Play|V|S|Turn \d+", hdr)].index("S")
    cell = row[starts[s_col]:starts[s_col + 1] if s_col + 1 < len(starts) else None].strip()
    return int(cell), float(m.group(2)), int(m.group(1)), cpu


def oracle(args) -> int:
    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.load(args.graph)
    rows = [line.rstrip("\n").split("\t") for line in open(args.positions) if line.strip() and not line.startswith("#")]
    out, bad = [], 0
    for i, r in enumerate(rows[: args.count or None]):
        pos = ws.parse_cgp(r[0], rules)
        racks = r[0].split()[1]
        load0 = os.getloadavg()[0]
        cpu0 = time.process_time()
        res = ws.solve_endgame(pos, lex, seconds=args.seconds, threads=args.threads)
        cpu = time.process_time() - cpu0
        rec = {"i": i, "racks": "/".join(str(len(x)) for x in racks.split("/")), "blank": "?" in racks,
               "value": res.value, "want": int(r[1]) if len(r) > 1 and r[1].lstrip("-").isdigit() else None,
               "exact": res.exact, "seconds": res.seconds, "cpu": cpu, "nodes": res.nodes, "pv": list(res.pv),
               "oracle_first": r[2] if len(r) > 2 else "", "load": load0}
        if args.magpie:
            mv, ms, md, mc = magpie_solve(args.magpie, r[0], limit=args.magpie_limit)
            rec.update(magpie_value=mv, magpie_seconds=ms, magpie_depth=md, magpie_cpu=mc)
            if rec["want"] is None and md == 25:  # a proof (a+b <= 13): the value to reach
                rec["want"] = mv
        # compared where both are proven (ours exact, the oracle's value known)
        rec["checked"] = rec["want"] is not None and res.exact
        rec["equal"] = rec["checked"] and rec["value"] == rec["want"]
        bad += rec["checked"] and not rec["equal"]
        out.append(rec)
        verdict = "ok " if rec["equal"] else "BAD" if rec["checked"] else "-  "
        print(f"{i:3d} {rec['racks']:>4}{'?' if rec['blank'] else ' '} {verdict} {res.value:5d}"
              f"{'' if res.exact else '*'} {res.seconds:8.3f}s cpu {cpu:7.3f} {res.nodes:>11,} {res.nodes_per_second:>10,.0f}/s"
              + (f"  magpie {rec['magpie_value']:5d} {rec['magpie_seconds']:8.3f}s cpu {rec['magpie_cpu']:7.3f}"
                 f" d{rec['magpie_depth']}"
                 if args.magpie else "") + f"  load {load0:.1f}", flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps({"positions": out}, indent=1))
    ours = [r["seconds"] for r in out]
    summary = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
               "machine": f"{platform.machine()} {os.cpu_count()} cores", "positions": len(out),
               "checked": sum(r["checked"] for r in out), "equal": sum(r["equal"] for r in out),
               "ours_proven": sum(r["exact"] for r in out), "threads": args.threads,
               "median": statistics.median(ours), "p90": _p90(ours),
               "nodes_per_second": sum(r["nodes"] for r in out) / sum(ours),
               "mean_load": statistics.mean(r["load"] for r in out)}
    if args.magpie:
        theirs = [r["magpie_seconds"] for r in out]
        both = [r for r in out if r["exact"] and r["magpie_depth"] == 25]
        summary.update(magpie_median=statistics.median(theirs), magpie_p90=_p90(theirs),
                       magpie_equal=sum(r["magpie_value"] == r["want"] for r in out if r["want"] is not None),
                       both_proven=len(both), total_ours=sum(r["seconds"] for r in both),
                       total_magpie=sum(r["magpie_seconds"] for r in both),
                       total_ours_cpu=sum(r["cpu"] for r in both),
                       total_magpie_cpu=sum(r["magpie_cpu"] for r in both),
                       worst_ratio=max((r["seconds"] / max(r["magpie_seconds"], 1e-3) for r in both), default=0),
                       over_2x=sum(r["seconds"] > 2 * max(r["magpie_seconds"], 0.01) for r in both))
    print(json.dumps(summary))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "positions": out}, indent=1))
    return 1 if bad else 0


def selfplay(args) -> int:
    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.load(args.graph) if args.graph else ws.Lexicon.default(rules.alphabet.name)
    limits = [float(x) for x in args.limits.split(",")]
    proven = {lim: 0 for lim in limits}
    n = 0
    for seed in range(args.selfplay):
        game = ws.Game(rules, lex, seed=seed)
        bot = ws.Bot("equity", rules, lexicon=lex, seed=seed)
        while game.bag_count and not game.is_over:
            game.apply(bot.choose(game))
        if game.is_over:
            continue
        n += 1
        # one solve with the largest limit: the search is deterministic, so a proof within a
        # smaller limit is a proof whose time is below it
        res = ws.solve_endgame(game, seconds=max(limits))
        for lim in limits:
            proven[lim] += res.exact and res.seconds <= lim
        print(seed, "/".join(str(len(r)) for r in game.position().racks),
              f"{'exact' if res.exact else 'not proven'} {res.seconds:.2f}s {res.nodes:,} nodes", flush=True)
    print(json.dumps({"endgames": n, **{f"proven_within_{lim:g}s": proven[lim] / max(n, 1) for lim in limits},
                      "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
                      "load": os.getloadavg()[0]}))
    return 0


def scaling(args) -> int:
    """1 thread against ``--threads`` on the N slowest positions proven on one thread."""
    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.load(args.graph)
    threads = args.threads if args.threads > 1 else 2
    rows = [line.rstrip("\n").split("\t") for line in open(args.positions) if line.strip() and not line.startswith("#")]
    first = []
    for i, r in enumerate(rows[: args.count or None]):
        res = ws.solve_endgame(ws.parse_cgp(r[0], rules), lex, seconds=args.seconds, threads=1)
        if res.exact:
            first.append((res.seconds, i))
    slow = sorted(first, reverse=True)[: args.scaling]
    print(f"{len(first)} of {len(rows)} proven on one thread; the {len(slow)} slowest again:", flush=True)
    out, bad = [], 0
    for _, i in slow:
        pos = ws.parse_cgp(rows[i][0], rules)
        load0 = os.getloadavg()[0]
        one = ws.solve_endgame(pos, lex, threads=1)
        many = ws.solve_endgame(pos, lex, threads=threads)
        bad += one.value != many.value or not (one.exact and many.exact)
        out.append({"i": i, "value": one.value, "value_threads": many.value, "seconds_1": one.seconds,
                    "seconds_n": many.seconds, "nodes_1": one.nodes, "nodes_n": many.nodes, "load": load0})
        print(f"{i:3d} {one.value:5d} {many.value:5d} 1 thread {one.seconds:8.3f}s {one.nodes:>12,}"
              f"  {threads} threads {many.seconds:8.3f}s {many.nodes:>12,}  x{one.seconds / max(many.seconds, 1e-9):.2f}"
              f"  load {load0:.1f}", flush=True)
    t1, tn = sum(r["seconds_1"] for r in out), sum(r["seconds_n"] for r in out)
    summary = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
               "machine": f"{platform.machine()} {os.cpu_count()} cores", "positions": len(out),
               "threads": threads, "seconds_1": t1, "seconds_n": tn, "speedup": t1 / max(tn, 1e-9),
               "median_speedup": statistics.median(r["seconds_1"] / max(r["seconds_n"], 1e-9) for r in out)
               if out else 0, "values_equal": not bad, "mean_load": statistics.mean(r["load"] for r in out) if out else 0}
    print(json.dumps(summary))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "positions": out}, indent=1))
    return 1 if bad else 0


def make(args) -> int:
    """Writes N endgames drawn from self-play (the position when the bag runs empty)."""
    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.load(args.graph) if args.graph else ws.Lexicon.default(rules.alphabet.name)
    lines, seed = [], args.first_seed
    while len(lines) < args.make:
        game = ws.Game(rules, lex, seed=seed)
        bot = ws.Bot("equity", rules, lexicon=lex, seed=seed)
        while game.bag_count and not game.is_over:
            game.apply(bot.choose(game))
        if not game.is_over:
            lines.append(f"{ws.format_cgp(game.position())}\t\t\t\t# seed {seed}")
        seed += 1
    tmp = Path(args.out + ".tmp")
    tmp.write_text("".join(line + "\n" for line in lines))
    tmp.replace(args.out)
    print(f"{len(lines)} endgames from seeds {args.first_seed}..{seed - 1} in {args.out}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph")
    ap.add_argument("--positions")
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--magpie", type=Path)
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=None, help="our time limit per position (default: none)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--magpie-limit", type=int, default=60, help="MAGPIE's -etlim")
    ap.add_argument("--json")
    ap.add_argument("--selfplay", type=int, default=0)
    ap.add_argument("--limits", default="1,10")
    ap.add_argument("--make", type=int, default=0)
    ap.add_argument("--out")
    ap.add_argument("--first-seed", type=int, default=9000)
    ap.add_argument("--scaling", type=int, default=0, help="1 thread against --threads on the N slowest")
    args = ap.parse_args(argv)
    if args.make:
        if not args.out:
            ap.error("--make N needs --out FILE")
        return make(args)
    if args.selfplay:
        return selfplay(args)
    if not args.positions or not args.graph:
        ap.error("--positions and --graph (or --selfplay N)")
    return scaling(args) if args.scaling else oracle(args)


if __name__ == "__main__":
    sys.exit(main())

"""Resident memory of one process answering best moves on CSW24: ours and MAGPIE's, side by side.

    python benchmarks/best_memory.py --magpie /tmp/magpie-bench --graph csw24.wsg \\
        --positions positions-public.cgp [--passes 3]

Each engine runs in a process of its own that loads its lexicon and answers the best
move by score of every position of the file (``--passes`` times, positions in a new
order each pass): ours through the public API (``Lexicon.load``, ``MoveGenerator(...,
wordmap=True)``, ``best``), MAGPIE's through the driver of its side-by-side kit in
``seq`` mode with its word map (``bench CSW24 1 ... best``) and with its standard graph.
The figure is the peak resident set of the whole process (``ru_maxrss`` from
``wait4``): interpreter, libraries, lexicon, word map and working memory.  Ours also
runs once with ``--baseline``: the same process up to its imports, without a lexicon,
so the engine's own part can be read off.  numpy is not among them: a best-move search
makes no array, so our process never loads it (16 MiB; ``tests/test_lazy_numpy.py``).  MAGPIE is built
beforehand (``DIR/magpie`` with its ``data/``, ``DIR/driver/magpie_bench``); this
script never builds it and holds none of its code.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
from pathlib import Path


def _ours(graph: str, positions: str, passes: int, baseline: bool) -> None:
    """The measured process on our side (run as ``--child``)."""
    import wordsalvo as ws
    from wordsalvo.formats.cgp import parse_cgp
    from wordsalvo.movegen import MoveGenerator

    if baseline:
        return
    rules = ws.Rules.preset("classic-en")
    lex = ws.Lexicon.load(graph)
    gen = MoveGenerator(lex, rules, wordmap=True)
    lines = [ln for ln in Path(positions).read_text("utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    pos = [parse_cgp(ln, rules=rules) for ln in lines]
    rnd = random.Random(1)
    found = 0
    for _ in range(passes):
        order = list(range(len(pos)))
        rnd.shuffle(order)
        for i in order:
            found += gen.best(pos[i]) is not None
    print(found)


def _peak(cmd: list[str], cwd: str | None = None) -> int:
    """Peak resident set of a child process, in KiB (Linux ru_maxrss)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if status != 0:
        raise SystemExit(f"{' '.join(cmd)} failed (status {status}): {err[-500:]}")
    return usage.ru_maxrss


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--magpie", type=Path, help="MAGPIE folder built beforehand (DIR/magpie, DIR/driver)")
    ap.add_argument("--graph", required=True, help="our CSW24 graph (.wsg)")
    ap.add_argument("--positions", required=True, help="CGP file, one position a line")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--lexicon-name", default="CSW24", help="MAGPIE's name of the lexicon")
    ap.add_argument("--child", choices=["ours", "baseline"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _ours(args.graph, args.positions, args.passes, args.child == "baseline")
        return 0
    me = [sys.executable, str(Path(__file__).resolve()), "--graph", args.graph, "--positions", args.positions,
          "--passes", str(args.passes)]
    kib = {"wordsalvo": _peak(me + ["--child", "ours"]), "wordsalvo, no lexicon": _peak(me + ["--child", "baseline"])}
    if args.magpie:
        driver = args.magpie / "driver" / "magpie_bench"
        with tempfile.TemporaryDirectory() as tmp:
            for name, wmp in (("MAGPIE, word map", "1"), ("MAGPIE, standard graph", "0")):
                cmd = [str(driver), "bench", args.lexicon_name, wmp, str(Path(args.positions).resolve()), "best",
                       str(args.passes), str(Path(tmp) / "out.tsv"), "seq"]
                kib[name] = _peak(cmd, cwd=str(args.magpie / "magpie"))
    for name, k in kib.items():
        print(f"{name:<24} {k / 1024:8.1f} MiB")
    out = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "machine": f"{platform.machine()}, {os.cpu_count()} cores", "passes": args.passes,
           "peak_rss_mib": {k: round(v / 1024, 1) for k, v in kib.items()}}
    if "MAGPIE, word map" in kib:
        out["ours_over_magpie_wordmap"] = round(kib["wordsalvo"] / kib["MAGPIE, word map"], 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

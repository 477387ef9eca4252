"""Loading a graph read into memory (now) against mapping it (before issue 38), in one run.

    taskset -c 1 python benchmarks/graph_memory.py [--rounds 7]

For each embedded lexicon (en, nl, tr), each round starts one fresh process per way and
alternates them, so the machine's load falls on both alike:

* ``mapped``: the file memory-mapped read-only (``MAP_SHARED``), then the same checks
  (header, every arc, checksums): how ``Lexicon.load`` worked before; a file rewritten or
  truncated under it crashed the process;
* ``read``: :meth:`Lexicon._load`, the file read into the process's own memory, then the
  same checks.

Printed per way: the median load time, and what the load added to the process's resident
memory (``VmRSS``), split into anonymous memory (``RssAnon``: the process's own) and file
pages (``RssFile``: a mapped file's pages, shared with other processes mapping it).
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

_CHILD = r"""
import json, mmap, os, sys, time
from importlib import resources

def status():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(rest.split()[0])
    return out

from wordsalvo.lexicon.lexicon import Lexicon
lang, way = sys.argv[1], sys.argv[2]
with resources.as_file(resources.files("wordsalvo.data").joinpath(f"{lang}.wsg")) as p:
    before = status()
    t0 = time.perf_counter()
    if way == "mapped":
        with open(p, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        lex = Lexicon._from_buffer(mm, size, str(p), True)
    else:
        lex = Lexicon._load(p, checked=True)
    ms = (time.perf_counter() - t0) * 1000
    after = status()
print(json.dumps({"ms": ms, **{k: after[k] - before[k] for k in after}}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"{platform.node()} ({platform.machine()}, {os.cpu_count()} cores), Python {platform.python_version()}, "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load average {load[0]:.1f} before")
    print()
    print("| lexicon | way | load (median ms) | resident memory added (MB) | own (RssAnon, MB) | file pages (RssFile, MB) |")
    print("|---|---|---:|---:|---:|---:|")
    for lang in ("en", "nl", "tr"):
        got: dict[str, list[dict]] = {"mapped": [], "read": []}
        for r in range(args.rounds):
            for way in (("mapped", "read") if r % 2 == 0 else ("read", "mapped")):
                out = subprocess.run([sys.executable, "-c", _CHILD, lang, way], capture_output=True, text=True,
                                     check=True).stdout
                got[way].append(json.loads(out))
        for way, runs in got.items():
            med = {k: statistics.median(x[k] for x in runs) for k in runs[0]}
            print(f"| {lang} | {way} | {med['ms']:.1f} | {med['VmRSS'] / 1024:.1f} | {med['RssAnon'] / 1024:.1f} | "
                  f"{med['RssFile'] / 1024:.1f} |")


if __name__ == "__main__":
    main()

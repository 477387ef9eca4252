"""How long loading a graph takes, before and after the verified-content cache, in one run.

    python benchmarks/graph_load.py [--rounds 9]

For each embedded lexicon (en, nl, tr), the median over ``--rounds`` of:

* ``full check``: the load with every check, the word level included (both halves
  counted, the GADDAG against the DAWG): what every load of a user's graph cost
  before (and still costs the first time a content is seen);
* ``embedded``: :meth:`Lexicon.default`'s load of the packaged file (arcs and
  checksums; the package build checked its words);
* ``user, verified``: :meth:`Lexicon.load` of a copy of the file whose content passed
  the word-level check once (its sha256 in the cache folder's ``verified/``): the
  sha256 of the file, then arcs and checksums.

The rounds alternate the three, so the machine's load falls on each alike; each cell
is the median (the fastest round in parentheses, the least disturbed by other jobs);
the load average before the run is printed with the table.  The cache folder is a temporary one.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="graph-load-"))
    os.environ["WORDSALVO_CACHE_DIR"] = str(work / "cache")
    from wordsalvo.lexicon.lexicon import Lexicon

    load = os.getloadavg()
    print(f"{platform.node()} ({platform.machine()}, {os.cpu_count()} cores), Python {platform.python_version()}, "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load average {load[0]:.1f} before")
    print()
    print("| lexicon | words | file | full check (before) | embedded | user graph, verified (after) | first load of a user graph |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    try:
        for lang in ("en", "nl", "tr"):
            packaged = resources.files("wordsalvo.data").joinpath(f"{lang}.wsg")
            with resources.as_file(packaged) as src:
                user = work / f"user-{lang}.wsg"
                shutil.copy(src, user)
                t0 = time.perf_counter()
                first = Lexicon.load(user)  # checks the words and remembers the content
                first_ms = (time.perf_counter() - t0) * 1000
                assert first._graph.words_cross_checked > 0
                times: dict[str, list[float]] = {"full": [], "embedded": [], "verified": []}
                for _ in range(args.rounds):
                    for what, call in (("full", lambda: Lexicon._load(src, checked=False)),
                                       ("embedded", lambda: Lexicon._load(src, checked=True)),
                                       ("verified", lambda: Lexicon.load(user))):
                        t0 = time.perf_counter()
                        lex = call()
                        times[what].append((time.perf_counter() - t0) * 1000)
                        assert len(lex) == len(first)
                        assert (lex._graph.words_cross_checked > 0) == (what == "full")
                cell = {k: f"{statistics.median(v):.1f} ms ({min(v):.1f})" for k, v in times.items()}
                print(f"| {lang} | {len(first):,} | {user.stat().st_size / 1e6:.1f} MB | {cell['full']} | "
                      f"{cell['embedded']} | {cell['verified']} | {first_ms:.0f} ms |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

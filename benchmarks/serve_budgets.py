"""The service's budgets, queue and memory under load, against a real ``wordsalvo serve``
(one worker, the default limits: 2 engine threads, a 10 s budget, 5 s searches, a queue
of 32 waiting at most 5 s):

    python benchmarks/serve_budgets.py [--sims 200] [--bodies 300] [--ratings 120]

* ``--ratings`` ``/v1/bot`` requests one after the other, each with another rating (a
  cached bot each): the worker's resident memory before and after;
* ``--sims`` concurrent ``/v1/sim`` asking 5 s each: how many got 200, 503 and 504, and
  the slowest answer of each kind (every answer should come within the 10 s budget);
* ``--bodies`` concurrent ``/v1/analyze`` with 1 MB bodies: the worker's peak resident
  memory while they are answered, and the answers by status.

Prints one line per figure, with the machine, the date and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict

import httpx
import psutil

CGP = "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/AEINRST 0/0 0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss(pid: int) -> float:
    """Resident MiB of the server and its children."""
    p = psutil.Process(pid)
    return sum(q.memory_info().rss for q in [p, *p.children(recursive=True)]) / (1 << 20)


def record() -> str:
    import wordsalvo as ws

    g = ws.Game(ws.Rules.preset("wordsalvo-en"), seed=6)
    bot = ws.Bot("equity", g.rules)
    for _ in range(6):
        g.apply(bot.choose(g))
    return ws.to_gcg(g)


async def concurrent(url: str, path: str, bodies: list[bytes], pid: int | None = None):
    """Posts every body at once; (status, seconds) of each, and the peak RSS seen meanwhile."""
    peak = [0.0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], rss(pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True) if pid else None
    if watcher:
        watcher.start()
    limits = httpx.Limits(max_connections=len(bodies) + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as c:
        async def one(body):
            t = time.monotonic()
            try:
                r = await c.post(path, content=body, headers={"content-type": "application/json"})
                return r.status_code, time.monotonic() - t
            except httpx.HTTPError as e:
                return type(e).__name__, time.monotonic() - t
        got = await asyncio.gather(*(one(b) for b in bodies))
    stop.set()
    return got, peak[0]


def summary(got) -> str:
    by = defaultdict(list)
    for status, secs in got:
        by[status].append(secs)
    return ", ".join(f"{k}: {len(v)} (slowest {max(v):.2f} s)" for k, v in sorted(by.items(), key=str))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--bodies", type=int, default=300)
    ap.add_argument("--ratings", type=int, default=120)
    args = ap.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "wordsalvo", "serve", "--port", str(port), "--log-level",
                             "warning"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(600):
            try:
                if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        print(f"{platform.node()} {platform.machine()}, {os.cpu_count()} cores, "
              f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load {os.getloadavg()[0]:.1f}")
        gcg = record()
        with httpx.Client(base_url=url, timeout=120) as c:
            c.post("/v1/bot", json={"gcg": gcg, "level": "hard"})
            before = rss(proc.pid)
            statuses = Counter(c.post("/v1/bot", json={"gcg": gcg, "rating": 900 + 5 * k, "seed": k}).status_code
                               for k in range(args.ratings))
            print(f"{args.ratings} /v1/bot, distinct ratings: {dict(statuses)}; resident {before:.0f} MiB -> "
                  f"{rss(proc.pid):.0f} MiB")
        sim = ('{"cgp": "%s", "seconds": 5}' % CGP).encode()
        got, _ = asyncio.run(concurrent(url, "/v1/sim", [sim] * args.sims))
        print(f"{args.sims} concurrent /v1/sim of 5 s: {summary(got)}")
        import json

        padded = gcg + "#note " + "x" * (1_000_000 - len(gcg) - 100) + "\n"
        one_mb = json.dumps({"gcg": padded, "top": 1}).encode()
        base = rss(proc.pid)
        got, peak = asyncio.run(concurrent(url, "/v1/analyze", [one_mb] * args.bodies, proc.pid))
        print(f"{args.bodies} concurrent 1 MB /v1/analyze: {summary(got)}; resident {base:.0f} MiB, peak "
              f"{peak:.0f} MiB, after {rss(proc.pid):.0f} MiB")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if "Traceback" in text:
            print(text[-3000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())

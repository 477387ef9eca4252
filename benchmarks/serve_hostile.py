"""A hostile client against a real ``wordsalvo serve``: the service must keep answering
health checks and lose no worker.

    python benchmarks/serve_hostile.py [--workers 2] [--connections 10000] [--rounds 200]

Starts the service (``--workers`` processes), notes the worker pids, then, while a
second thread asks ``/healthz`` every 0.2 s and records every answer and its latency:

* ``--connections`` TCP connections opened at once and held open (idle: no request);
* oversized bodies (declared, and chunked without a length), slow bodies (a byte a
  second), malformed JSON (truncated, 100,000 nested brackets, invalid UTF-8), huge
  numbers (5,000 digits, 1e400), wrong types, headers of 200 KB, garbage bytes,
  ``--rounds`` of each kind, on many connections at once.

Then it checks: every health check answered 200 (their worst latency printed), the
worker pids are the same as at the start, every hostile request got a 4xx (or a closed
connection, for what is not HTTP), none a 500, and the log has no traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import platform
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

CGP = "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker_pids(pid: int) -> set[int]:
    import psutil

    return {p.pid for p in psutil.Process(pid).children(recursive=True)} | {pid}


def hostile_requests() -> list[tuple[str, bytes, float]]:
    """(kind, bytes to send, pause after the head in seconds)."""
    def post(body: bytes, extra: bytes = b"") -> bytes:
        return (b"POST /v1/best HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + extra +
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)

    good = b'{"cgp": "' + CGP.encode() + b'"'
    return [
        ("declared oversized", b"POST /v1/best HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n", 0),
        ("chunked oversized", b"POST /v1/best HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
         b"Content-Type: application/json\r\n\r\n" + (b"10000\r\n" + b" " * 65536 + b"\r\n") * 20 + b"0\r\n\r\n", 0),
        ("slow body", b"POST /v1/best HTTP/1.1\r\nHost: x\r\nContent-Length: 300\r\n\r\n{", 1.0),
        ("truncated JSON", post(good), 0),
        ("nested brackets", post(b"[" * 100_000), 0),
        ("invalid UTF-8", post(b'{"cgp": "\xff\xfe"}'), 0),
        ("5,000 digits", post(good + b', "limit": ' + b"9" * 5000 + b"}"), 0),
        ("1e400", post(good + b', "limit": 1e400}'), 0),
        ("wrong types", post(b'{"cgp": [1, 2, {"a": null}], "rack": 7}'), 0),
        ("200 KB header", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n", 0),
        ("garbage", os.urandom(4096), 0),
        ("unknown path", b"GET /" + b"x" * 8000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 0),
    ]


async def one(port: int, data: bytes, pause: float) -> str:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 30)
    except (OSError, asyncio.TimeoutError):
        return "connect failed"
    try:
        if pause:
            writer.write(data)
            await writer.drain()
            for _ in range(20):  # a byte a second
                await asyncio.sleep(pause)
                writer.write(b" ")
                await writer.drain()
        else:
            writer.write(data)
            await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 60)
        return line.split(b" ")[1].decode() if line.startswith(b"HTTP/") else "closed"
    except (OSError, asyncio.TimeoutError, IndexError):
        return "closed"
    finally:
        writer.close()


async def attack(port: int, connections: int, rounds: int) -> tuple[Counter, int]:
    held = []
    opened = 0
    for _ in range(connections):
        try:
            held.append(await asyncio.open_connection("127.0.0.1", port))
            opened += 1
        except OSError:
            break
    results: Counter = Counter()
    for kind, data, pause in hostile_requests():
        n = rounds if not pause else max(1, rounds // 20)
        got = await asyncio.gather(*(one(port, data, pause) for _ in range(n)))
        for g in got:
            results[(kind, g)] += 1
    for _, w in held:
        w.close()
    return results, opened


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--connections", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.connections + 2000)), hard))
    import httpx

    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="serve-hostile-"))
    cfg = work / "serve.toml"
    cfg.write_text("[limits]\nbody_seconds = 5\n")
    log = work / "serve.log"
    proc = subprocess.Popen([sys.executable, "-m", "wordsalvo", "serve", "--port", str(port), "--workers",
                             str(args.workers), "--config", str(cfg), "--log-level", "warning"],
                            stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    time.sleep(2)
    pids = worker_pids(proc.pid)
    started = datetime.datetime.now(datetime.timezone.utc)
    print(f"# {started:%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}; {args.workers} workers, pids {sorted(pids)}", flush=True)
    health: list[tuple[int, float]] = []
    stop = threading.Event()

    def check() -> None:
        with httpx.Client(timeout=60) as c:
            while not stop.is_set():
                t = time.perf_counter()
                try:
                    status = c.get(url + "/healthz").status_code
                except httpx.HTTPError:
                    status = 0
                health.append((status, time.perf_counter() - t))
                stop.wait(0.2)

    checker = threading.Thread(target=check)
    checker.start()
    t0 = time.perf_counter()
    results, opened = asyncio.run(attack(port, args.connections, args.rounds))
    elapsed = time.perf_counter() - t0
    time.sleep(1)
    stop.set()
    checker.join()
    after = worker_pids(proc.pid)
    ok = httpx.post(url + "/v1/best", json={"cgp": CGP}, timeout=60).status_code
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(30)
    text = log.read_text()
    print(f"{opened:,} connections held open at once; hostile requests for {elapsed:.0f} s")
    for (kind, got), n in sorted(results.items()):
        print(f"  {kind:20} -> {got:14} x {n}")
    bad_health = [h for h in health if h[0] != 200]
    print(f"health checks: {len(health)}, all 200: {not bad_health}, worst latency "
          f"{max(h[1] for h in health) * 1000:.0f} ms, median {sorted(h[1] for h in health)[len(health) // 2] * 1000:.1f} ms")
    print(f"workers the same: {after == pids} ({sorted(after)}); a real request after: {ok}; "
          f"tracebacks in the log: {text.count('Traceback')}")
    fails = sum(n for (kind, got), n in results.items() if got.startswith("5"))
    if bad_health or after != pids or ok != 200 or "Traceback" in text or fails:
        raise SystemExit(f"FAILED ({fails} answers 5xx)")


if __name__ == "__main__":
    main()

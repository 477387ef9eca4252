"""The HTTP service under load: requests/s and p50/p99 latency of /v1/best and
/v1/validate, against the same calls in process, in one run.

    python benchmarks/serve_load.py [--positions tests/data/scowl-en/positions.cgp]
        [--clients 1,8,64] [--workers 1,2] [--seconds 10] [--memory-requests 0]

For each number of worker processes, a real ``wordsalvo serve`` is started on a free
port; for each endpoint and number of concurrent connections, ``wrk`` (a C load
generator, Debian's package ``wrk``) sends POST requests for ``--seconds``, cycling
through the positions (a Lua script holds one body per position: /v1/best by score,
/v1/validate of each position's best move, found in process beforehand). Every
answer is counted: a status other than 200 is an error, and the run says how many.

The in-process figure is the same work without HTTP: ``parse_cgp`` and
``MoveGenerator.best`` (or ``preview_move``) on the same positions in a loop, one
thread, in this process: the ratio service / in process shows what HTTP, JSON and the
framework cost per request (on 2 cores the load generator shares the machine with
the service, as it would with a second copy of it).

``--memory-requests N`` then sends N more /v1/best requests to the last server and
samples the resident memory of its worker processes every N/10 requests: flat memory
is the check that nothing accumulates per request.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(workers: int, threads: int, log: Path, http: str = "h11") -> tuple[subprocess.Popen, str]:
    import httpx

    port = free_port()
    cfg = log.with_suffix(".toml")
    # a queue long enough for every client: the figure is throughput, not load shedding
    cfg.write_text(f"[limits]\nthreads = {threads}\nqueue_seconds = 30\nseconds = 30\nqueue_length = 10000\n")
    proc = subprocess.Popen([sys.executable, "-m", "wordsalvo", "serve", "--port", str(port), "--workers",
                             str(workers), "--config", str(cfg), "--log-level", "warning", "--http", http],
                            stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit(f"the service did not start: {log.read_text()}")


def stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def lua_script(bodies: list[str], path: Path, endpoint: str) -> Path:
    """A wrk script: one body per position, in turn; counts non-200 answers."""
    quoted = ",\n".join("[==[" + b + "]==]" for b in bodies)
    path.write_text(f"""
local bodies = {{
{quoted}
}}
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  i = i % #bodies + 1
  return wrk.format(nil, "{endpoint}", nil, bodies[i])
end
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %.1f %.1f %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), summary.errors.status + summary.errors.connect +
    summary.errors.read + summary.errors.write + summary.errors.timeout, bad))
end
""")
    return path


def run_wrk(url: str, script: Path, clients: int, seconds: float) -> dict:
    threads = min(2, clients)
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(clients), "-d", f"{max(1, round(seconds))}s", "--timeout", "30s",
                          "-s", str(script), url], capture_output=True, text=True, check=True).stdout
    m = re.search(r"RESULT (\d+) (\d+) ([\d.]+) ([\d.]+) (\d+) (\d+)", out)
    if m is None:
        raise SystemExit(f"wrk printed no result:\n{out}")
    n, duration_us, p50, p99, errors, bad = m.groups()
    return {"requests": int(n), "rps": int(n) / (int(duration_us) / 1e6), "p50_ms": float(p50) / 1000,
            "p99_ms": float(p99) / 1000, "errors": int(errors) + int(bad)}


def in_process(lines: list[str], moves: list[str], seconds: float) -> dict[str, float]:
    import wordsalvo as ws
    from wordsalvo.validate import preview_move

    rules = ws.Rules.preset("classic-en")
    lex = ws.Lexicon.default("en")
    gen = ws.MoveGenerator(lex, rules)
    out = {}
    for name in ("best", "validate"):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for line, move in zip(lines, moves):
                pos = ws.parse_cgp(line, rules=rules)
                if name == "best":
                    gen.best(pos)
                else:
                    preview_move(pos, move, lex)
                n += 1
        out[name] = n / (time.perf_counter() - t0)
    return out


def worker_rss(proc: subprocess.Popen) -> int:
    import psutil

    parent = psutil.Process(proc.pid)
    return sum(p.memory_info().rss for p in [parent] + parent.children(recursive=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", default=str(ROOT / "tests/data/scowl-en/positions.cgp"))
    ap.add_argument("--clients", default="1,8,64")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--threads", type=int, default=2, help="engine threads of each worker")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--http", default="h11", help="the server's HTTP parsers to measure, comma-separated "
                    "(h11, httptools)")
    ap.add_argument("--memory-requests", type=int, default=0)
    ap.add_argument("--json", help="write the results there")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("needs wrk (apt-get install wrk)")
    import wordsalvo as ws

    lines = [ln.split(" lex ")[0].rstrip(" ;") for ln in Path(args.positions).read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    rules = ws.Rules.preset("classic-en")
    gen = ws.MoveGenerator(ws.Lexicon.default("en"), rules)
    usable, moves = [], []
    for line in lines:
        best = gen.best(ws.parse_cgp(line, rules=rules))
        if best is not None:
            usable.append(line)
            moves.append(best.notation)
    work = Path(tempfile.mkdtemp(prefix="serve-load-"))
    scripts = {
        "/v1/best": lua_script([json.dumps({"rules": "classic-en", "cgp": ln}) for ln in usable],
                               work / "best.lua", "/v1/best"),
        "/v1/validate": lua_script([json.dumps({"rules": "classic-en", "cgp": ln, "move": mv})
                                    for ln, mv in zip(usable, moves)], work / "validate.lua", "/v1/validate"),
    }
    started = datetime.datetime.now(datetime.timezone.utc)
    print(f"# {started:%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}, {len(usable)} positions of {args.positions}", flush=True)
    base = in_process(usable, moves, min(args.seconds, 5))
    print(f"in process, one thread: best {base['best']:.0f}/s, validate {base['validate']:.0f}/s", flush=True)
    rows = []
    try:
        measure(args, base, scripts, rows, work)
    finally:
        if _SERVER:
            stop(_SERVER[-1])


_SERVER: list = []


def measure(args, base, scripts, rows, work) -> None:
    """The table's cells, then the memory run; the server is stopped even on an error."""
    proc = None
    started = datetime.datetime.now(datetime.timezone.utc)  # of the measurements, for --json
    # each number of workers, each parser in turn, in the same run
    for workers, http in itertools.product([int(w) for w in args.workers.split(",")], args.http.split(",")):
        if proc is not None:
            stop(proc)
        proc, url = start(workers, args.threads, work / f"serve-{workers}-{http}.log", http)
        _SERVER[:] = [proc]
        for endpoint, script in scripts.items():
            run_wrk(url, script, 8, 2)  # warm-up: every position seen, the word map built
            for clients in [int(c) for c in args.clients.split(",")]:
                r = run_wrk(url, script, clients, args.seconds)
                r.update(workers=workers, http=http, endpoint=endpoint, clients=clients,
                         ratio=r["rps"] / base[endpoint.rsplit("/", 1)[1]])
                rows.append(r)
                print(f"{workers} worker(s) {http:9} {endpoint:13} {clients:3} clients: {r['rps']:7.0f}/s  p50 "
                      f"{r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  errors {r['errors']}  "
                      f"service/in process {r['ratio']:.2f}", flush=True)
    memory = []
    if args.memory_requests and proc is not None:
        step = max(1, args.memory_requests // 10)
        done = 0
        memory.append((0, worker_rss(proc)))
        while done < args.memory_requests:
            r = run_wrk(url, scripts["/v1/best"], 8, max(1.0, step / max(rows[-1]["rps"], 1)))
            done += r["requests"]
            memory.append((done, worker_rss(proc)))
            print(f"after {done:,} more requests: {memory[-1][1] / 2**20:.1f} MiB resident, errors "
                  f"{r['errors']}", flush=True)
    if proc is not None:
        stop(proc)
        _SERVER.clear()
    if args.json:
        Path(args.json).write_text(json.dumps({"started": started.isoformat(), "in_process": base, "rows": rows,
                                               "memory": memory}, indent=1))


if __name__ == "__main__":
    main()

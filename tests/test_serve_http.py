"""``wordsalvo serve`` as a user runs it: a real uvicorn process on a port, reached over
TCP (raw sockets for what an HTTP client library would not send), and in a slow check
the page /play driven in a real headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

CGP = "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, tmp_path: Path, config: str, workers: int = 1):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cfg = tmp_path / "serve.toml"
        cfg.write_text(config)
        self.log = open(tmp_path / "serve.log", "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wordsalvo", "serve", "--port", str(self.port), "--workers", str(workers),
             "--config", str(cfg), "--log-level", "warning"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120  # a generous start-up wait, not a timing check
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                raise AssertionError(f"the service did not start:\n{self.log.read()}")
            time.sleep(0.2)

    def stop(self) -> str:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.seek(0)
        return self.log.read()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("serve"), "[limits]\nbody_seconds = 0.5\nbody_bytes = 65536\n", workers=2)
    yield s
    log = s.stop()
    assert "Traceback" not in log, log


def raw(server: Server, data: bytes, pause: float = 0.0, rest: bytes = b"") -> bytes:
    """Send bytes on a fresh connection (then, after ``pause``, ``rest``) and read the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as s:
        s.sendall(data)
        if pause:
            time.sleep(pause)
        if rest:
            try:
                s.sendall(rest)
            except OSError:
                pass
        chunks = []
        while True:
            try:
                got = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not got:
                break
            chunks.append(got)
            if b"\r\n\r\n" in b"".join(chunks) and b'"status"' in b"".join(chunks):
                break
        return b"".join(chunks)


def test_two_workers_answer_over_tcp(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        pids = set()
        for _ in range(20):
            r = c.post("/v1/best", json={"cgp": CGP})
            assert r.status_code == 200 and r.json()["move"]["notation"] == "8H WO(R)DIEST"
            pids.add(c.get("/healthz").json()["pid"])
        assert pids  # one or both workers answered; either may take any request
        assert "wordsalvo_requests_total" in c.get("/metrics").text


def test_a_slow_body_is_cut_with_408(server):
    head = ("POST /v1/best HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 200\r\n\r\n").encode()
    answer = raw(server, head + b'{"cgp": ', pause=2.0)  # the rest never comes
    assert b" 408 " in answer.split(b"\r\n", 1)[0], answer[:300]
    assert b"urn:wordsalvo:problem:slow-body" in answer


def test_a_declared_oversized_body_is_refused_before_it_is_sent(server):
    head = (b"POST /v1/best HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 999999999\r\n\r\n")
    answer = raw(server, head)
    assert b" 413 " in answer.split(b"\r\n", 1)[0], answer[:300]


def test_garbage_and_broken_requests_leave_the_workers_up(server):
    for junk in (b"\x00\xff" * 100 + b"\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"POST /v1/best HTTP/1.1\r\n" +
                 b"X: " + b"a" * 200_000 + b"\r\n\r\n"):
        raw(server, junk)
    with httpx.Client(base_url=server.url, timeout=60) as c:
        assert c.get("/healthz").status_code == 200
        r = c.post("/v1/validate", content=b"{" * 1000, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["type"] == "urn:wordsalvo:problem:malformed-json"


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.slow
def test_play_in_a_real_browser(tmp_path):
    """The page /play in headless Chromium under its Content-Security-Policy: a new game, tile
    values on the rack, a hint played, undo, resign, and the analysis report shown at the end
    with its turn stepping working in the sandboxed frame (no page error, no CSP violation)."""
    playwright = pytest.importorskip("playwright.sync_api")
    exe = chromium()
    if exe is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium; .ci/run installs it)")
    import re

    from browser_helpers import browser_env
    expect = playwright.expect
    server = Server(tmp_path, "", workers=1)
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"], env=browser_env())
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
            page.goto(server.url + "/play")
            page.wait_for_selector("#board svg", timeout=60_000)
            # (the page's policy forbids eval: waits go through locators, not wait_for_function)
            assert page.locator("#rack .tile").count() == 7
            values = page.locator("#rack .tile .value").all_text_contents()
            assert values and all(v.isdigit() for v in values)
            page.click("#hint")
            expect(page.locator("#message")).to_have_text(re.compile("^Hint:"), timeout=60_000)
            typed = page.input_value("#move")
            if not typed:  # a rack with no play: pass instead
                page.click("#pass")
            else:
                page.click("#play")
            page.locator("#turns li").nth(1).wait_for(timeout=60_000)
            first = page.locator("#turns li").first.text_content()
            if typed:
                assert typed.split()[1].replace("(", "").replace(")", "")[:2] in first.replace("(", "").replace(
                    ")", "")
            # a click on square 8H, then on it again, writes the coordinate across, then down
            box = page.locator("#board svg").bounding_box()
            x = box["x"] + box["width"] * (20 + 7 * 40 + 20) / 640
            y = box["y"] + box["height"] * (20 + 7 * 40 + 20) / 640
            page.mouse.click(x, y)
            assert page.input_value("#move").startswith("8H")
            page.mouse.click(x, y)
            assert page.input_value("#move").startswith("H8")
            page.click("#undo")
            expect(page.locator("#turns li")).to_have_count(0, timeout=60_000)
            page.click("#pass")  # turns for the report to step through
            page.locator("#turns li").nth(1).wait_for(timeout=60_000)
            page.on("dialog", lambda d: d.accept())
            page.click("#resign")
            page.wait_for_selector("#end", state="visible", timeout=60_000)
            assert "Game over" in page.text_content("#result")
            assert page.is_disabled("#play") and page.is_disabled("#move")
            page.click("#analyze")
            expect(page.locator("#report")).to_be_visible(timeout=120_000)
            srcdoc = page.get_attribute("#report", "srcdoc")
            assert srcdoc and "<svg" in srcdoc
            frame = page.frame_locator("#report")
            position = frame.locator("#position")
            expect(position).to_have_text(re.compile(r"Turn (\d+) of \1$"), timeout=60_000)
            frame.locator("button[data-go=first]").click()  # the report's own script steps the turns
            expect(position).to_have_text(re.compile("^Turn 1 of"), timeout=60_000)
            assert not errors, errors
            browser.close()
    finally:
        log = server.stop()
    assert "Traceback" not in log, log


def test_a_served_game_goes_on_across_workers_and_replays_in_the_library(server):
    """Two workers: each opens the other's tokens (one secret from the serve command); the
    record shown at the end replays in the library."""
    import wordsalvo as ws

    with httpx.Client(base_url=server.url, timeout=60) as c:
        state = c.post("/v1/game", json={"rules": "wordsalvo-en", "level": "easy"}).json()
        pids = set()
        for _ in range(6):
            hint = c.post("/v1/game/turn", json={"token": state["token"], "action": "hint"})
            assert hint.status_code == 200, hint.text
            h = hint.json()["hint"]
            state = c.post("/v1/game/turn", json={"token": state["token"],
                                                  "action": h["notation"] if h["kind"] == "play" else "pass"}).json()
            assert "gcg" not in state and state["cgp"].split(" ")[1] == state["rack"] + "/"
            pids.add(c.get("/healthz").json()["pid"])
        over = c.post("/v1/game/turn", json={"token": state["token"], "action": "resign"}).json()
    game = ws.from_gcg(over["gcg"])
    assert game.is_over and list(game.scores) == over["scores"]
    assert [t.notation or t.kind for t in game.history] == [t["what"] for t in over["turns"]
                                                             ] or game.history[0].kind == "swap"


def test_headers_over_the_limit_are_refused_by_the_parser(server):
    """Issue 37 item 5: the server's HTTP parser takes at most header_bytes (16 KiB by
    default) of request line and headers: a 200 KB header is refused (before: httptools
    read it all and answered 200), a 20 KB one too, an ordinary one is served."""
    for size in (200_000, 20_000):
        answer = raw(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
        status = answer.split(b"\r\n", 1)[0]
        assert b" 400 " in status or b" 431 " in status, answer[:300]
    with httpx.Client(base_url=server.url, timeout=60) as c:
        assert c.get("/healthz", headers={"x-some": "a" * 4000}).status_code == 200


def test_metrics_add_up_every_worker(server):
    """Issue 37 item 5: /metrics of a 2-worker server counts the requests of both workers
    (before: each worker answered with its own counters)."""
    def healthz_count(text: str) -> float:
        for line in text.splitlines():
            if line.startswith('wordsalvo_requests_total{endpoint="/healthz",status="200"}'):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    before = healthz_count(httpx.get(server.url + "/metrics", timeout=60).text)
    pids, sent = set(), 0
    while (len(pids) < 2 or sent < 20) and sent < 2000:  # new connections: the kernel spreads them
        pids.add(httpx.get(server.url + "/healthz", timeout=60).json()["pid"])
        sent += 1
    assert len(pids) == 2, "one worker answered every connection"
    for _ in range(4):  # whichever worker answers, it answers for both
        assert healthz_count(httpx.get(server.url + "/metrics", timeout=60).text) - before == sent

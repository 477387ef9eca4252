"""A bad ``--scheduler`` (issue 38, items 6, 7, 11 and 12): a listener that never speaks,
another service (an HTTP server), nothing listening, or an address Dask cannot use is one
clear line and exit status 2 from every command that takes one, and ``leaves train`` never
deletes a saved run (it checks the scheduler first and refuses to discard a run unasked).

Every listener here is local (127.0.0.1) and made by the test; the check's time is cut to
1 s so the tests stay quick; each command runs in a thread that a test waits for (the old
code hung there for ever), with a guard against a hang far longer than any loaded machine needs."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest

from wordsalvo import parallel
from wordsalvo.cli import main
from wordsalvo.errors import WordSalvoError
from wordsalvo.parallel import scheduler_address

pytest.importorskip("distributed")

HANG_GUARD = 600  # seconds: only a hung command ever comes near this


@pytest.fixture(autouse=True)
def quick_check(monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 1)


@pytest.fixture
def silent_port():
    """A local listener that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for c in accepted:
        c.close()
    server.close()


@pytest.fixture
def http_port():
    """A local web server that answers whatever comes with an HTTP error, as a dashboard's
    (Tornado's) does to bytes that are not a request."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn = server.accept()[0]
            except OSError:
                continue
            with conn:
                conn.settimeout(30)
                try:
                    if conn.recv(65536):
                        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


@pytest.fixture
def closed_port():
    """A local port nothing listens on."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(argv: list[str], capsys) -> tuple[int, str]:
    """``wordsalvo ARGV`` in a thread: (exit status, stderr); a hang fails the test."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["code"] = main(argv)
        except SystemExit as e:  # argparse
            outcome["code"] = e.code
        except BaseException as e:  # noqa: BLE001 - reported below
            outcome["error"] = e

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(HANG_GUARD)
    assert not thread.is_alive(), f"wordsalvo {' '.join(argv)} hung"
    assert "error" not in outcome, repr(outcome.get("error"))
    return outcome["code"], capsys.readouterr().err


def commands(tmp_path: Path, address: str) -> list[list[str]]:
    (tmp_path / "games").mkdir(exist_ok=True)
    (tmp_path / "games" / "a.gcg").write_text("#player1 a A\n#player2 b B\n", "utf-8")
    return [["autoplay", "--rules", "classic-en", "--games", "2", "--p1", "score", "--p2", "score",
             "--scheduler", address],
            ["leaves", "train", "--rules", "classic-en", "--games", "2", "--rounds", "1",
             "--out", str(tmp_path / "t.wsl"), "--scheduler", address],
            ["analyze", str(tmp_path / "games"), "--out", str(tmp_path / "res"), "--scheduler", address]]


def one_clear_line(err: str, wanted: str) -> None:
    assert wanted in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_listener_that_never_speaks_is_a_clear_error(tmp_path, silent_port, capsys):
    for argv in commands(tmp_path, f"tcp://127.0.0.1:{silent_port}"):
        code, err = run(argv, capsys)
        assert code == 2, (argv, err)
        one_clear_line(err, f"--scheduler tcp://127.0.0.1:{silent_port}: expected a Dask scheduler there, "
                            "got a connection that did not answer Dask's handshake within 1 s")


def test_another_service_is_one_clear_line(tmp_path, http_port, capsys):
    for argv in commands(tmp_path, f"tcp://127.0.0.1:{http_port}"):
        code, err = run(argv, capsys)
        assert code == 2, (argv, err)
        one_clear_line(err, "got an answer that is not Dask's protocol")


def test_nothing_listening_is_said_at_once(tmp_path, closed_port, capsys):
    for argv in commands(tmp_path, f"127.0.0.1:{closed_port}"):  # HOST:PORT is taken as tcp://
        code, err = run(argv, capsys)
        assert code == 2, (argv, err)
        one_clear_line(err, f"--scheduler tcp://127.0.0.1:{closed_port}: expected a Dask scheduler there, "
                            "got nothing listening (ConnectionRefusedError")


BAD_ADDRESSES = ["", " ", "tls://127.0.0.1:1", "inproc://x", "ucx://127.0.0.1:8786", "tcp://", "tcp://127.0.0.1",
                 "tcp://127.0.0.1:0", "tcp://127.0.0.1:65536", "tcp://127.0.0.1:٣", "tcp://127.0.0.1:+1",
                 "tcp://:8786", "tcp://-x:8786", "tcp://a b:8786", "tcp://[::1:8786", "tcp://127.0.0.1:8786\n",
                 "tcp://" + "a" * 400 + ":1", "tcp://é.example:8786", "://x:1", "tcp://x:1:2:3"]


@pytest.mark.parametrize("address", BAD_ADDRESSES)
def test_an_address_dask_cannot_use_is_one_clear_line(tmp_path, address, capsys):
    with pytest.raises(WordSalvoError, match="expected a Dask scheduler address tcp://HOST:PORT"):
        scheduler_address(address)
    code, err = run(commands(tmp_path, address)[0], capsys)
    assert code == 2, err
    one_clear_line(err, "expected a Dask scheduler address tcp://HOST:PORT")


def test_the_address_forms_taken():
    assert scheduler_address("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert scheduler_address("localhost:8786") == "tcp://localhost:8786"
    assert scheduler_address("tcp://[::1]:08786") == "tcp://[::1]:8786"
    for bad in (None, 8786, b"tcp://x:1"):
        with pytest.raises(WordSalvoError, match="expected a Dask scheduler address"):
            scheduler_address(bad)


def test_the_library_checks_the_address_too(closed_port):
    from wordsalvo.engine.autoplay import AutoplaySpec, iter_games

    spec = AutoplaySpec("classic-en", ("score", "score"))
    for address in ("inproc://x", "", f"tcp://127.0.0.1:{closed_port}"):
        with pytest.raises(WordSalvoError, match="expected a Dask scheduler"):
            next(iter_games(spec, 2, scheduler=address))


# -- item 11: a saved run is never deleted unasked --------------------------------------------
def saved_run(tmp_path: Path) -> Path:
    """The state folder of an interrupted run (as train_leaves writes it)."""
    state = tmp_path / "t.wsl.state"
    state.mkdir()
    (state / "round-0.wsl").write_bytes(b"table")
    (state / "racks-0-500.npz").write_bytes(b"sums")
    (state / "state.json").write_text(json.dumps({
        "config": {"method": "racks-1", "rules": "classic-en", "games": 2, "rounds": 1, "seed": 0, "lexicon": None},
        "round": 0, "games_done": 1, "sums": "racks-0-500.npz", "change": None}), "utf-8")
    return state


def snapshot(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(folder.iterdir())}


def test_a_bad_scheduler_leaves_a_saved_run_alone(tmp_path, closed_port, capsys):
    state = saved_run(tmp_path)
    before = snapshot(state)
    for address in (f"tcp://127.0.0.1:{closed_port}", "tls://127.0.0.1:1", "inproc://x", ""):
        for extra in ([], ["--restart"]):
            code, err = run(commands(tmp_path, address)[1] + extra, capsys)
            assert code == 2 and "Traceback" not in err, err
            assert snapshot(state) == before, (address, extra)
    other = tmp_path / "other"
    other.mkdir()
    code, err = run(["leaves", "train", "--rules", "classic-en", "--games", "2", "--rounds", "1",
                     "--out", str(other / "n.wsl"), "--scheduler", f"tcp://127.0.0.1:{closed_port}"], capsys)
    assert code == 2 and list(other.iterdir()) == []  # no empty state folder left behind


def test_a_saved_run_is_kept_unless_restart_is_asked_for(tmp_path, capsys):
    state = saved_run(tmp_path)
    before = snapshot(state)
    argv = ["leaves", "train", "--rules", "classic-en", "--games", "2", "--rounds", "1", "--out", str(tmp_path / "t.wsl")]
    code, err = run(argv, capsys)
    assert code == 2, err
    one_clear_line(err, "expected no saved run (or --resume to continue it, --restart to discard it), got a saved "
                        "run of classic-en (1 rounds x 2 games, seed 0) at round 1, 1 games done; nothing was changed")
    assert snapshot(state) == before
    (state / "notes.txt").write_text("mine", "utf-8")  # not the run's own: never removed
    code, err = run(argv + ["--restart"], capsys)
    assert code == 0, err
    assert (tmp_path / "t.wsl").is_file() and (state / "notes.txt").read_text("utf-8") == "mine"
    assert "racks-0-500.npz" not in snapshot(state)

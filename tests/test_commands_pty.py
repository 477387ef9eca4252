"""The long commands in a real pseudo-terminal of 80 x 24, as a user runs them: what
they print fits the terminal (no line wider than 80 columns, a note never on the
progress bar's line) and says where it wrote."""

from __future__ import annotations

import re

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")
wcwidth = pytest.importorskip("wcwidth")

from pty_helpers import COLS, CSI, Terminal  # noqa: E402 - after the skips

from wordsalvo.cli import main  # noqa: E402


def segments(raw: str) -> list[str]:
    """Every piece of text between line ends and carriage returns (a progress bar redraws
    its line after a carriage return), colour and cursor codes left out."""
    return re.split(r"[\r\n]", CSI.sub("", raw))


def assert_fits(raw: str, folder) -> None:
    """No line is wider than the terminal, but for the test's own long folder names (a file
    name is never split)."""
    for seg in segments(raw.replace(str(folder), "/tmp/x")):
        assert wcwidth.wcswidth(seg) <= COLS, f"{wcwidth.wcswidth(seg)} columns: {seg!r}"


def autoplay(tmp_path, *args: str) -> Terminal:
    return Terminal(["--rules", "classic-en", "--p1", "equity", "--p2", "score", *args], tmp_path,
                    command="autoplay")


def test_the_autoplay_summary_fits_80_columns_and_the_folder_note_has_a_line_of_its_own(tmp_path):
    term = autoplay(tmp_path, "--games", "6", "--gcg", str(tmp_path / "new"))
    assert term.finish() == 0
    assert_fits(term.raw, tmp_path)
    shown = term.display()
    note = next(ln for ln in shown if "created the folder" in ln)
    assert note.startswith("created the folder ") and "%|" not in note, shown
    assert any(ln.startswith("classic-en: 6 games in ") for ln in shown)
    assert any(ln.startswith("player ") and "win rate (95 % CI)" in ln for ln in shown)
    assert len(list((tmp_path / "new").glob("*.gcg"))) == 6


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("records")
    assert main(["autoplay", "--rules", "classic-en", "--games", "1", "--p1", "equity", "--p2", "score",
                 "--gcg", str(folder / "g")]) == 0
    return str(next((folder / "g").glob("*.gcg")))


def test_the_analysis_of_one_game_fits_80_columns(tmp_path, record):
    term = Terminal([record], tmp_path, command="analyze")
    assert term.finish() == 0
    assert_fits(term.raw, record)
    lines = [CSI.sub("", ln) for ln in term.raw.replace("\r", "").split("\n")]
    head = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("#  player"))
    first = lines[head + 1]
    assert first.split()[:2] == ["1", "p1-equity"]
    assert lines[head + 2].startswith("     ") and "1  " not in lines[head + 2][:6]  # its note, below it
    assert any(ln.startswith("Word Book") for ln in lines)


def test_analyze_html_says_where_it_wrote(tmp_path, record, capsys):
    page = tmp_path / "report.html"
    assert main(["analyze", record, "--html", str(page)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote the report to {page}"
    assert page.read_text("utf-8").startswith("<!DOCTYPE html>")
    book = tmp_path / "words.csv"
    assert main(["analyze", record, "--json", "--wordbook", str(book)]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == f"wrote the Word Book to {book}"  # stdout stays the JSON
    assert captured.out.startswith("{")


# -- Ctrl-C: one stops the work at once, the summary of what finished follows ----------------
def wait_for(condition, what: str, timeout: float = 300) -> None:
    """Poll ``condition`` until it holds (generous: a loaded machine is slow, never wrong)."""
    import time

    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:  # pragma: no cover
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.2)


def group_gone(term: Terminal) -> bool:
    """No process is left in the command's process group (workers, a fork server)."""
    import os

    try:
        os.killpg(term.child.pid, 0)
    except ProcessLookupError:
        return True
    return False


def interrupted(term: Terminal) -> str:
    """Ctrl-C; the command's whole output once it has ended by itself (exit status 130)."""
    term.interrupt()
    assert term.finish() == 130
    wait_for(lambda: group_gone(term), "the workers to end", 60)
    text = CSI.sub("", term.raw)
    assert "Traceback" not in text and "Exception ignored" not in text, text[-3000:]
    return " ".join(text.split())


def finished_games(text: str) -> int:
    m = re.search(r"Interrupted after ([\d,]+) of 100,000 games", text)
    assert m, text[-2000:]
    return int(m.group(1).replace(",", ""))


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_ctrl_c_stops_autoplay_at_once_with_the_summary_of_the_games_finished(tmp_path, jobs):
    records = tmp_path / "games"
    term = autoplay(tmp_path, "--games", "100000", "--jobs", jobs, "--gcg", str(records))
    wait_for(lambda: records.is_dir() and len(list(records.glob("*.gcg"))) >= 20, "20 games")
    text = interrupted(term)
    n = finished_games(text)
    assert 20 <= n < 100000
    assert len(list(records.glob("*.gcg"))) == n  # every game counted has its record, and no other
    assert f"classic-en: {n:,} games in" in text and "p1-equity" in text and "points/turn" in text


@pytest.mark.slow
def test_ctrl_c_stops_leave_training_and_resume_continues_to_the_same_table(tmp_path):
    args = ["--rules", "classic-en", "--games", "40", "--rounds", "2", "--save-every", "10"]
    out = tmp_path / "en.wsl"
    state = tmp_path / "en.wsl.state" / "state.json"
    term = Terminal(["train", *args, "--jobs", "2", "--out", str(out)], tmp_path, command="leaves")

    def saved() -> bool:
        import json

        try:
            return json.loads(state.read_text("utf-8"))["games_done"] >= 10
        except (OSError, ValueError, KeyError):
            return False

    wait_for(saved, "the first saved state")
    text = interrupted(term)
    assert "Interrupted: the state is saved in " in text and not out.exists()
    command = re.search(r"This continues it: (wordsalvo leaves train .* --resume)", text).group(1)
    assert command.endswith("--jobs 2 --save-every 10 --resume")
    import shlex
    import subprocess
    import sys

    resumed = subprocess.run([sys.executable, "-m", *shlex.split(command)], capture_output=True, text=True,
                             timeout=600, cwd=str(tmp_path))
    assert resumed.returncode == 0, resumed.stderr
    whole = tmp_path / "whole.wsl"
    straight = subprocess.run([sys.executable, "-m", "wordsalvo", "leaves", "train", *args, "--out", str(whole)],  # one job
                              capture_output=True, text=True, timeout=600, cwd=str(tmp_path))
    assert straight.returncode == 0, straight.stderr
    assert out.read_bytes() == whole.read_bytes()  # an interrupted run resumed is the same run


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("many") / "g"
    assert main(["autoplay", "--rules", "classic-en", "--games", "120", "--p1", "equity", "--p2", "score",
                 "--gcg", str(folder)]) == 0
    return folder


def test_ctrl_c_stops_a_batch_analysis_and_keeps_what_finished(tmp_path, records):
    out = tmp_path / "results"
    # --no-endgame, --no-pre-endgame: the endgame and pre-endgame solves (a second or more each) would make
    # the second run long
    term = Terminal([str(records), "--out", str(out), "--jobs", "2", "--no-endgame", "--no-pre-endgame"], tmp_path,
                    command="analyze")
    wait_for(lambda: out.is_dir() and len(list(out.glob("*.json"))) >= 5, "5 analyses")
    text = interrupted(term)
    done = len(list(out.glob("*.json")))
    assert f"Interrupted: {done} analysed, 0 already done, 0 failed, {120 - done} not yet" in text
    rows = (out / "summary.csv").read_text("utf-8").splitlines()
    assert len(rows) == 1 + 2 * done  # a row per player of every game kept
    again = Terminal([str(records), "--out", str(out), "--jobs", "2", "--no-endgame", "--no-pre-endgame"], tmp_path,
                     command="analyze")
    assert again.finish() == 0
    assert f"{120 - done} analysed, {done} already done, 0 failed" in " ".join(again.raw.split())


@pytest.mark.slow
def test_ctrl_c_stops_autoplay_and_analyze_on_a_dask_cluster(tmp_path, records):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster:
        games = tmp_path / "games"
        term = autoplay(tmp_path, "--games", "100000", "--scheduler", cluster.scheduler_address,
                        "--gcg", str(games))
        wait_for(lambda: games.is_dir() and len(list(games.glob("*.gcg"))) >= 20, "20 games")
        n = finished_games(interrupted(term))
        assert 20 <= n < 100000 and len(list(games.glob("*.gcg"))) == n

        out = tmp_path / "results"
        term = Terminal([str(records), "--out", str(out), "--scheduler", cluster.scheduler_address, "--no-endgame",
                         "--no-pre-endgame"],
                        tmp_path, command="analyze")
        wait_for(lambda: out.is_dir() and len(list(out.glob("*.json"))) >= 3, "3 analyses")
        text = interrupted(term)
        done = len(list(out.glob("*.json")))
        assert f"Interrupted: {done} analysed" in text and done < 120

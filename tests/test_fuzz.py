"""The fuzz harness (tests/fuzz/fuzz_inputs.py) in CI: a seeded run of 50,000 inputs
over all twelve formats (level texts among them) finds nothing, and the harness itself counts a crash and a hang
it is made to meet, with the input that caused each saved (slow: about 40 s on 2 cores)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).parent / "fuzz" / "fuzz_inputs.py"


def run(tmp_path: Path, *args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    figures = tmp_path / "figures.json"
    # no tight limit: the harness stops stalled workers itself; this only keeps a broken harness
    # from holding CI for ever (the 50,000-input run takes about 40 s on 2 idle cores, a few
    # minutes under the sanitizer build or on a loaded machine)
    r = subprocess.run([sys.executable, str(HARNESS), "--out", str(tmp_path / "out"), "--json", str(figures), *args],
                       capture_output=True, text=True, timeout=3600, env={**os.environ, **(env or {})})
    return r, json.loads(figures.read_text()) if figures.exists() else {}


@pytest.mark.slow
def test_a_seeded_run_over_every_format_finds_nothing(tmp_path):
    r, figures = run(tmp_path, "--seed", "20261201", "--count", "50000", "--jobs", "2", "--batch", "5000")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    total = figures["total"]
    assert total["tried"] == 50000
    assert all(total[k] == 0 for k in ("crash", "hang", "bare exception", "long message", "wrong result"))
    for name, f in figures["formats"].items():  # every format reaches both outcomes
        assert f["accepted"] > 0 and f["rejected"] > 0, (name, f)


@pytest.mark.slow
def test_the_harness_counts_crashes_and_hangs(tmp_path):
    r, figures = run(tmp_path, "--seed", "5", "--count", "600", "--formats", "cgp,notation", "--jobs", "2",
                     "--batch", "100", "--timeout", "5",
                     env={"WORDSALVO_FUZZ_CRASH_AT": "cgp:37", "WORDSALVO_FUZZ_HANG_AT": "notation:150"})
    assert r.returncode == 1, r.stdout + r.stderr
    total = figures["total"]
    assert total["crash"] == 1 and total["hang"] == 1 and total["tried"] == 600, total
    out = tmp_path / "out"
    assert (out / "cgp-37.input").exists() and (out / "notation-150.input").exists()
    kinds = [json.loads(line)["kind"] for line in (out / "findings.jsonl").read_text().splitlines()]
    assert sorted(kinds) == ["crash", "hang"]
    assert "running it again alone" in r.stdout  # a hang is counted only after a second, lone run


@pytest.mark.slow
def test_a_slow_input_is_run_again_alone_and_not_counted_as_a_hang(tmp_path):
    """An input that stalls its batch longer than --timeout but finishes within twice that
    (a loaded machine, a long garbage collection) is run again alone and counted as what it
    is: the false hangs that turned CI red came from the parent misreading progress."""
    r, figures = run(tmp_path, "--seed", "5", "--count", "300", "--formats", "cgp", "--jobs", "2",
                     "--batch", "100", "--timeout", "2", env={"WORDSALVO_FUZZ_SLOW_AT": "cgp:42:3"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert figures["total"]["tried"] == 300 and figures["total"]["hang"] == 0, figures["total"]
    assert "cgp:42 made no progress" in r.stdout


def test_progress_records_are_read_whole_while_the_worker_writes_them(tmp_path):
    """The parent's view of a worker's progress: records arrive whole and in order however the
    reads fall (the old shared file was zero-filled by struct.pack_into before each write, so
    the parent could read a time stamp of 0 and call a 6 ms input a hang)."""
    sys.path.insert(0, str(HARNESS.parent))
    import fuzz_inputs as fz

    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    writer = subprocess.Popen([sys.executable, "-c", (
        "import os, struct, sys\n"
        f"s = struct.Struct({fz._PROGRESS.format!r}); fd = int(sys.argv[1])\n"
        "for i in range(200000): os.write(fd, s.pack(i, i, i + 1, 2 * i, 0, 0, 0))\n"), str(write_fd)],
        pass_fds=(write_fd,))
    os.close(write_fd)
    batch = fz.Batch.__new__(fz.Batch)  # the reading half alone
    batch.start, batch.index, batch._buffer, batch.read_fd = 0, -1, b"", read_fd
    seen = []
    while writer.poll() is None or not seen or seen[-1] < 199999:
        batch.drain()
        if batch.index >= 0 and (not seen or batch.index != seen[-1]):
            seen.append(batch.index)
            c = batch.counted
            assert (c["tried"], c["accepted"], c["rejected"]) == (batch.index, batch.index + 1, 2 * batch.index)
    writer.wait()
    os.close(read_fd)
    assert seen == sorted(seen) and seen[-1] == 199999

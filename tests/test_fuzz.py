"""The fuzz harness (tests/fuzz/fuzz_inputs.py) in CI: a seeded run of 50,000 inputs
over all five formats finds nothing, and the harness itself counts a crash and a hang
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
    r = subprocess.run([sys.executable, str(HARNESS), "--out", str(tmp_path / "out"), "--json", str(figures), *args],
                       capture_output=True, text=True, timeout=900, env={**os.environ, **(env or {})})
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

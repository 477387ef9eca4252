"""A script that runs parallel work at its top level (the README's run_autoplay line
pasted into a file) gets a clear error naming its line and the fix, not BrokenProcessPool."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import wordsalvo

CALL = 'run_autoplay(AutoplaySpec("wordsalvo-en", ("equity", "score"), seed=1), 2, jobs=2)'


def _run(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    script = tmp_path / "selfplay.py"
    script.write_text("from wordsalvo.engine.autoplay import AutoplaySpec, run_autoplay\n" + body, "utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(wordsalvo.__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=600)


def test_top_level_parallel_work_says_it_needs_the_main_guard(tmp_path):
    r = _run(tmp_path, f"summary, results = {CALL}\nprint('games', summary.games)\n")
    assert r.returncode != 0
    assert "WorkerStartError" in r.stderr and "selfplay.py line 2" in r.stderr
    assert 'if __name__ == "__main__":' in r.stderr and "BrokenProcessPool" not in r.stderr


def test_the_same_call_under_the_main_guard_runs(tmp_path):
    r = _run(tmp_path, f'if __name__ == "__main__":\n    summary, results = {CALL}\n    print("games", summary.games)\n')
    assert r.returncode == 0, r.stderr
    assert "games 2" in r.stdout


def test_python_dash_m_wordsalvo_runs_parallel_work(tmp_path):
    """`python -m wordsalvo` runs its package's __main__, which multiprocessing never imports
    again in a worker: no guard is needed there (nor asked for)."""
    env = dict(os.environ, PYTHONPATH=str(Path(wordsalvo.__file__).resolve().parents[1]))
    r = subprocess.run([sys.executable, "-m", "wordsalvo", "autoplay", "--rules", "wordsalvo-en", "--games", "2",
                        "--jobs", "2", "--p1", "equity", "--p2", "score"], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "p1-equity" in r.stdout and "WorkerStartError" not in r.stderr

"""The README's Python blocks run top to bottom, as a new user would paste them, in one session.

The files they name are made in a temporary folder first: a small word list (words.txt), the
shipped leave table under the name the README uses (wordsalvo-en.wsl) and a leaves CSV.
"""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(first line number, code) of every ```python block."""
    return [(text[: m.start()].count("\n") + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```", text, re.M | re.S)]


def test_readme_has_python_blocks():
    blocks = python_blocks(README.read_text("utf-8"))
    assert len(blocks) >= 6 and "gen.validate(pos" in blocks[0][1]


def test_every_readme_python_block_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("words.txt").write_text("qi\nword\nwords\ncat\n", "utf-8")
    shipped = resources.files("wordsalvo") / "data" / "leaves" / "wordsalvo-en.wsl"
    with resources.as_file(shipped) as path:
        shutil.copy(path, "wordsalvo-en.wsl")
    Path("leaves.csv").write_text("leave,value\n?,25.5\nS,8.0\nQ,-7\n", "utf-8")
    namespace: dict = {"__name__": "__main__"}  # as in a script: the README guards its parallel work
    for line, code in python_blocks(README.read_text("utf-8")):
        try:
            exec(compile(code, f"README.md:{line}", "exec"), namespace)
        except Exception as e:  # noqa: BLE001 - name the block that failed
            pytest.fail(f"README.md block at line {line}: {type(e).__name__}: {e}")
    ws = namespace["ws"]
    assert namespace["m"].score == 16 and [w.word for w in namespace["m"].words] == ["WORD"]
    assert namespace["game"].preview("8H WO(R)D").reasons == (ws.IllegalMoveReason.NOTATION_MISMATCH,)
    assert Path("game.html").is_file() and Path("words.wsg").is_file()
    assert ws.GameAnalysis is type(ws.analyze_game(namespace["game"]))


def test_readme_shell_lines_run_the_installed_package():
    """A fresh clone installed with `pip install .` has no extensions in src/: a command line
    that puts src/ first (PYTHONPATH=src) fails with `cannot import name '_engine'`."""
    text = README.read_text("utf-8")
    shell = "\n".join(m.group(1) for m in re.finditer(r"^```sh\n(.*?)^```", text, re.M | re.S))
    assert "python -m pytest" in shell and "PYTHONPATH=src" not in shell

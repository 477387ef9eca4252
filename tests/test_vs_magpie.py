"""benchmarks/vs_magpie.py with a stand-in for MAGPIE's console.

The stand-in reads the commands the harness pipes to MAGPIE in sync mode and answers as
the real console does: ``gen`` lists the moves (here the best by score of our own
generator, in its table's row format), and ``sim`` refuses to run unless a ``gen`` came
before it ("cannot simulate without any moves", which MAGPIE prints; the harness once
sent ``sim`` alone and no game could start).  So the protocol, the table parsing, the
validation of MAGPIE's moves and the report are tested without MAGPIE."""

from __future__ import annotations

import importlib.util
import json
import stat
import sys
from pathlib import Path

import pytest

import wordsalvo

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_ROOT = Path(wordsalvo.__file__).resolve().parents[1]

CONSOLE = '''#!{python}
import sys
sys.path.insert(0, {src!r})
lines = sys.stdin.read().splitlines()
if not lines:
    sys.exit(0)
import wordsalvo as ws
from wordsalvo.formats.cgp import parse_cgp
rules = ws.Rules.preset("classic-en")
gen = ws.MoveGenerator(ws.Lexicon.default("en"), rules)
listed = False
for line in lines:
    if line.startswith("cgp "):
        board, rack, scores, zeros = line[4:].split()[:4]
        pos = parse_cgp(f"{{board}} {{rack}} {{scores}} {{zeros}}", rules=rules)
    elif line == "gen":
        listed = True
        move = gen.best(pos)
        print("Move          Lv    Sc Ig Wp    Eq")
        print(f" 1:  {{move.notation if move else '(Pass)'}}   {{move.score if move else 0}}")
    elif line.startswith("sim "):
        if not listed:
            print("(error 122) cannot simulate without any moves")
            continue
        move = gen.best(pos)
        print("Move          Lv    Sc Ig Wp    Eq    StEq  It")
        print(f" 1:  {{move.notation if move else '(Pass)'}}   {{move.score if move else 0}} 40.0 40.0 10")
        print(" 11: A1 XX 0")
'''


def load_harness():
    spec = importlib.util.spec_from_file_location("vs_magpie", ROOT / "benchmarks" / "vs_magpie.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_magpie(root: Path) -> Path:
    binary = root / "magpie" / "bin" / "magpie"
    binary.parent.mkdir(parents=True)
    binary.write_text(CONSOLE.format(python=sys.executable, src=str(PACKAGE_ROOT)), "utf-8")
    binary.chmod(binary.stat().st_mode | stat.S_IEXEC)
    return root


@pytest.mark.slow
@pytest.mark.parametrize("theirs", ["static", "sim"])
def test_a_match_against_the_stand_in(tmp_path, capsys, theirs):
    harness = load_harness()
    out = tmp_path / "report.json"
    graph = PACKAGE_ROOT / "wordsalvo" / "data" / "en.wsg"
    assert harness.main(["--magpie", str(fake_magpie(tmp_path / "kit")), "--graph", str(graph), "--ours", "rating=1500",
                         "--theirs", theirs, "--magpie-seconds", "0.05", "--pairs", "1", "--seed", "4",
                         "--json", str(out)]) == 0
    report = json.loads(out.read_text("utf-8"))
    assert report["games"] == 2 and report["counted"] == 2 and report["refusals"] == []
    lo, hi = report["interval"]
    assert 0.0 <= lo <= report["win_rate"] <= hi <= 1.0
    assert f"against MAGPIE {theirs}" in capsys.readouterr().out


def test_no_build_skips(tmp_path, capsys):
    harness = load_harness()
    assert harness.main(["--magpie", str(tmp_path), "--graph", "x.wsg"]) == 0
    assert "skipped: no MAGPIE build" in capsys.readouterr().out

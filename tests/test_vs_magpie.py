"""benchmarks/vs_magpie.py with a stand-in for MAGPIE's console.

The stand-in reads the commands the harness pipes to MAGPIE in sync mode and answers as
the real console does: ``gen`` lists the moves (here the best by score of our own
generator, in its table's row format), ``sim`` refuses to run unless a ``gen`` came
before it ("cannot simulate without any moves", which MAGPIE prints; the harness once
sent ``sim`` alone and no game could start), ``peg`` prints its ranking and ``endgame``
its line, and both refuse a bag they do not solve.  So the protocol, the table parsing,
the validation of MAGPIE's moves and the report are tested without MAGPIE; the solvers'
tables are also parsed as the real console printed them (2026-12-08)."""

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
    elif line.startswith("peg "):
        if not 1 <= pos.bag_count() - 7 <= 4:  # the hidden rack's 7 tiles are counted in the bag
            print("(error) peg needs 1 to 4 tiles in the bag")
            continue
        move = gen.best(pos)
        print("PEG (last completed stage 0): 32 candidates, 0.10s")
        print("rank  move           wins  ties  loss   win%  spread")
        print(f"   1  {{(move.notation if move else 'pass'):<13}}  72     0     0  100.0   +32.5")
    elif line.startswith("endgame "):
        if pos.bag_count() != 0 or "/ " in line:
            print("(error) the endgame needs an empty bag and both racks")
            continue
        move = gen.best(pos)
        print("Endgame (depth: 2, time: 0.010s, status: finished)")
        play = f"{{move.notation}} {{move.score}} (V +8)" if move else "pass 0"
        print(f"{{'Play':<{{len(play)}}}} V  S  ")  # its columns as wide as their widest cell
        print(f"{{play}} 20 29 ")
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
@pytest.mark.parametrize("theirs", ["static", "sim", "sim-only"])
def test_a_match_against_the_stand_in(tmp_path, capsys, theirs):
    harness = load_harness()
    out = tmp_path / "report.json"
    graph = PACKAGE_ROOT / "wordsalvo" / "data" / "en.wsg"
    games = tmp_path / "games.jsonl"
    argv = ["--magpie", str(fake_magpie(tmp_path / "kit")), "--graph", str(graph), "--ours", "rating=1500",
            "--theirs", theirs, "--magpie-seconds", "0.05", "--pairs", "1", "--seed", "4",
            "--json", str(out), "--out", str(games)]
    assert harness.main(argv) == 0
    report = json.loads(out.read_text("utf-8"))
    assert report["games"] == 2 and report["counted"] == 2 and report["refusals"] == []
    phases = report["magpie_moves_by_phase"]
    if theirs == "static":
        assert phases["gen"] > 0 and phases["sim"] == phases["peg"] == phases["endgame"] == 0
    elif theirs == "sim-only":
        assert phases["sim"] > 0 and phases["gen"] == phases["peg"] == phases["endgame"] == 0
    else:  # the games of this seed pass through every phase
        assert phases["sim"] > 0 and phases["peg"] > 0 and phases["endgame"] > 0
    lines = games.read_text("utf-8").splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["settings"]["theirs"] == theirs  # the settings, two games
    # run again after an interruption that cut the second game's line: the first game is
    # read back, not played again; the second is played again and appended on a line of its own
    games.write_text("\n".join(lines[:2]) + "\n" + lines[2][: len(lines[2]) // 2], "utf-8")
    assert harness.main(argv) == 0
    after = games.read_text("utf-8").splitlines()
    assert len(after) == 4 and after[:2] == lines[:2] and json.loads(after[3])["ours_first"] is False
    again = json.loads(out.read_text("utf-8"))
    assert again["games"] == 2 and again["counted"] == 2
    lo, hi = report["interval"]
    assert 0.0 <= lo <= report["win_rate"] <= hi <= 1.0
    assert f"against MAGPIE {theirs}" in capsys.readouterr().out


def test_a_log_of_other_settings_is_refused_and_left_as_it_was(tmp_path):
    """Going on from a log resumed by seed alone, whatever the settings: games of two
    runs (here MAGPIE static, then its simulating player) were counted in one report."""
    harness = load_harness()
    games = tmp_path / "games.jsonl"
    argv = ["--magpie", str(fake_magpie(tmp_path / "kit")), "--graph", "en.wsg", "--pairs", "1", "--seed", "4",
            "--out", str(games)]
    first = json.dumps({"settings": {"graph": "en.wsg", "leaves": None, "ours": "expert", "seconds": None,
                                     "game_seconds": None, "infer": False, "theirs": "static",
                                     "magpie_seconds": 0.5, "wmp": False, "seed": 4}})
    game = json.dumps({"seed": 4000012, "ours_first": True})
    games.write_text(first + "\n" + game + "\n", "utf-8")
    with pytest.raises(SystemExit, match=r"other settings \(theirs: 'static' there, 'sim' here\)"):
        harness.main([*argv, "--theirs", "sim"])
    games.write_text(game + "\n", "utf-8")  # a log from before settings were recorded
    with pytest.raises(SystemExit, match="written before settings were recorded"):
        harness.main(argv)
    assert games.read_text("utf-8") == game + "\n"


def test_no_build_skips(tmp_path, capsys):
    harness = load_harness()
    assert harness.main(["--magpie", str(tmp_path), "--graph", "x.wsg"]) == 0
    assert "skipped: no MAGPIE build" in capsys.readouterr().out


ENDGAME_OUT = """Endgame (depth: 6, time: 0.039s, status: finished)
Play                   V  S  
E8 (IDE)N(T) 12 (V +8) 20 29 
"""

PEG_GRADED = """PEG (last completed stage 0): 32 candidates, 2.06s
stage  fidelity  cands    best win%  time  
0      greedy    228/228  100.0%     0.6s  

72 weighted bag orderings (29 unique)
rank  move         wins  ties  loss   win%  spread  
   1  4A Q(U)IPS     72     0     0  100.0   +32.5  
   2  4G SPR(UG)     72     0     0  100.0   +24.6  
"""

PEG_DEPTH = """depth   rank  move      wins  ties  loss   win%  spread  total
------------------------------------------------------------
2-ply   1     pass        40     2    30   56.9    +3.1   1.2s
"""


def test_the_solvers_tables_are_read_as_magpie_prints_them():
    harness = load_harness()
    assert harness._endgame_move(ENDGAME_OUT) == "E8 (IDE)N(T)"
    assert harness._endgame_move(ENDGAME_OUT.replace("E8 (IDE)N(T) 12 (V +8)", "pass 0 (6 zeros)       ")) == "pass"
    assert harness._peg_move(PEG_GRADED) == "4A Q(U)IPS"
    assert harness._peg_move(PEG_DEPTH) == "pass"
    assert harness._our_notation("4A", "Q(U)IPS") == "4A Q(U)IPS"
    assert harness._our_notation("(exch", "ENNQ)") == "-ENNQ"
    with pytest.raises(ValueError, match="'move' column"):
        harness._peg_move("PEG: no candidates\n")


def test_magpie_phase_follows_the_bag():
    harness = load_harness()
    sim = harness.Magpie.__new__(harness.Magpie)
    sim.kind = "sim"
    assert [sim.phase(b) for b in (0, 1, 4, 5, 86)] == ["endgame", "peg", "peg", "sim", "sim"]
    sim.kind = "sim-only"
    assert {sim.phase(b) for b in (0, 1, 4, 5, 86)} == {"sim"}
    sim.kind = "static"
    assert {sim.phase(b) for b in (0, 3, 86)} == {"gen"}

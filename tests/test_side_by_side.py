"""benchmarks/side_by_side.py with a stand-in for MAGPIE's driver.

The stand-in writes the driver's TSV (index, median µs, min µs, load µs, count)
from our own generator, optionally with one wrong count, so the harness's
parsing, its count and best-score checks, the empty-board rule and its report
are tested without MAGPIE.
"""

from __future__ import annotations

import importlib.util
import stat
import sys
from pathlib import Path

import pytest

import wordsalvo

ROOT = Path(__file__).resolve().parent.parent
#: the package the tests import: an install, or src/ with the extensions built in place
PACKAGE_ROOT = Path(wordsalvo.__file__).resolve().parents[1]
SCOWL = ROOT / "tests" / "data" / "scowl-en" / "positions.cgp"

DRIVER = '''#!{python}
import sys
sys.path.insert(0, {src!r})
import wordsalvo as ws
from wordsalvo.formats.cgp import parse_cgp
_, cmd, lexicon, wmp, cgp, mode, passes, out = sys.argv[:8]
rules = ws.Rules.preset("classic-en")
gen = ws.MoveGenerator(ws.Lexicon.default("en"), rules)
rows = ["#index\\tmedian_us\\tmin_us\\tload_median_us\\tcount"]
for i, line in enumerate(open(cgp, encoding="utf-8").read().splitlines()):
    pos = parse_cgp(line, rules=rules)
    if mode == "all":
        count = len(gen.generate(pos).to_numpy())
        if pos.board.is_empty():
            count //= 2  # across openings only
    else:
        count = gen.best(pos).score
    if i == {wrong}:
        count += 1
    base = 200.0 if sys.argv[8:] == ["seq"] else 100.0  # seq: new positions in a shuffled order
    rows.append(f"{{i}}\\t{{base + i}}\\t{{90.0 + i}}\\t5.0\\t{{count}}")
open(out, "w").write("\\n".join(rows) + "\\n")
'''


def load_harness():
    spec = importlib.util.spec_from_file_location("side_by_side", ROOT / "benchmarks" / "side_by_side.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_magpie(tmp_path: Path, wrong: int = -1) -> Path:
    (tmp_path / "magpie").mkdir(parents=True)
    (tmp_path / "driver").mkdir()
    driver = tmp_path / "driver" / "magpie_bench"
    driver.write_text(DRIVER.format(python=sys.executable, src=str(PACKAGE_ROOT), wrong=wrong))
    driver.chmod(driver.stat().st_mode | stat.S_IEXEC)
    return tmp_path


@pytest.fixture
def positions(tmp_path):
    lines = SCOWL.read_text("utf-8").splitlines()
    empty = next(l for l in lines if l.startswith("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 "))
    p = tmp_path / "positions.cgp"
    p.write_text("\n".join(lines[:3] + [empty]) + "\n", "utf-8")
    return p


def run(monkeypatch, capsys, magpie, positions, *extra):
    harness = load_harness()
    graph = PACKAGE_ROOT / "wordsalvo" / "data" / "en.wsg"
    monkeypatch.setattr(sys, "argv", ["side_by_side.py", "--magpie", str(magpie), "--graph", str(graph),
                                      "--positions", str(positions), "--lexicon-name", "CEL_SCOWL",
                                      "--rounds", "2", "--passes", "1", "--cpu", "-1", *extra])
    harness.main()
    return capsys.readouterr().out


@pytest.mark.slow
def test_report_with_ratios_and_the_protocol_note(tmp_path, positions, monkeypatch, capsys):
    out = run(monkeypatch, capsys, fake_magpie(tmp_path / "m"), positions, "--wmp")
    assert "both engines timed as MAGPIE's driver times" in out
    assert "wordsalvo in sequence" in out
    assert "1 empty boards" in out
    assert "UTC" in out and "model name" not in out
    rows = [l for l in out.splitlines() if l.startswith("| 1 |") or l.startswith("| 2 |")]
    assert len(rows) == 2 * 3  # two rounds: all, best (standard graph), best (word map)
    summary = [l for l in out.splitlines() if l.startswith("| all |") or l.startswith("| best |")]
    assert len(summary) == 3
    # the stand-in reports 100.0 + i µs: the median of 4 positions is 101.5 µs
    assert all(l.split("|")[6].strip() == "102 µs" for l in rows)
    assert all(l.split("|")[4].strip() == "102–102 µs" for l in summary)
    # ratio = MAGPIE / ours, from the two medians (ours is printed rounded to 1 µs, the
    # ratio to 0.01)
    for l in rows:
        ours = float(l.split("|")[3].strip().removesuffix(" µs"))
        assert 101.5 / (ours + 0.5) - 0.006 <= float(l.split("|")[7]) <= 101.5 / max(ours - 0.5, 0.5) + 0.006


@pytest.mark.slow
def test_seq_pairs_our_sequence_with_magpies_new_positions(tmp_path, positions, monkeypatch, capsys):
    out = run(monkeypatch, capsys, fake_magpie(tmp_path / "m"), positions, "--seq", "--modes", "all")
    lines = out.splitlines()
    head = lines.index(next(l for l in lines if l.startswith("New positions (--seq)")))
    table = [l for l in lines[head:] if l.startswith("| all |") and l.count("|") == 10]
    assert len(table) == 1
    cells = [c.strip() for c in table[0].split("|")[1:-1]]
    # the stand-in's seq mode reports 200.0 + i µs and 5 µs of load: medians 201.5 and 206.5
    assert cells[3] == "202–202 µs" and cells[4] == "206–206 µs"
    lo, hi = (float(x) for x in cells[2].removesuffix(" µs").split("–"))
    glo, ghi = (float(x) for x in cells[5].split("–"))
    assert 201.5 / (hi + 0.5) - 0.006 <= glo <= ghi <= 201.5 / max(lo - 0.5, 0.5) + 0.006
    # its own cost of a new position: 201.5 / 101.5
    assert cells[8] == "1.99–1.99"
    # by blanks on the rack: every position in one row of its count
    rows = [l for l in lines if l.startswith("| all | standard graph | ") and l.count("|") == 7]
    assert rows and sum(int(r.split("|")[4]) for r in rows) == 4


def test_new_positions_by_blanks_on_the_rack():
    from types import SimpleNamespace

    harness = load_harness()
    racks = ["AB?", "CD", "??E", "F?G"]
    positions = [SimpleNamespace(racks=["X", r], to_move=1) for r in racks]
    # two rounds: ours 10, 20, 30, 40 µs then 30, 20, 10, 40; MAGPIE twice ours in the first
    rounds = [([10.0, 20.0, 30.0, 40.0], [20.0, 40.0, 60.0, 80.0]), ([30.0, 20.0, 10.0, 40.0], [20.0, 40.0, 60.0, 80.0])]
    out = harness.by_blanks(positions, {("best", "word map"): rounds})
    lines = out.splitlines()
    assert lines[2].startswith("| mode | MAGPIE engine | blanks |")
    # medians over the rounds: ours 20, 20, 20, 40; MAGPIE 20, 40, 60, 80
    assert "| best | word map | 0 | 1 | 2.00 | 2.00 |" in lines
    assert "| best | word map | 1 | 2 | 1.50 | 1.67 |" in lines  # positions 0 and 3: 1.0 and 2.0
    assert "| best | word map | 2 | 1 | 3.00 | 3.00 |" in lines


def test_a_count_that_differs_stops_the_run(tmp_path, positions, monkeypatch, capsys):
    with pytest.raises(SystemExit, match=r"all \(standard graph\): MAGPIE and wordsalvo differ at positions \[1\]"):
        run(monkeypatch, capsys, fake_magpie(tmp_path / "m", wrong=1), positions)


def test_missing_driver_is_refused(tmp_path, positions, monkeypatch, capsys):
    with pytest.raises(SystemExit):
        run(monkeypatch, capsys, tmp_path, positions)
    assert "no driver/magpie_bench" in capsys.readouterr().err

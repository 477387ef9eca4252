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

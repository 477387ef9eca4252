"""A table's house list: `lexicon build --add FILE --remove FILE` and compile_lexicon(add=, remove=)."""

from __future__ import annotations

import pytest

import wordsalvo as ws
from wordsalvo.cli import main


@pytest.fixture
def files(tmp_path):
    (tmp_path / "words.txt").write_text("cat\ndog\nqi\nfoo bar\n", "utf-8")
    (tmp_path / "add.txt").write_text("# our table's words\nzax\nQI\n\n", "utf-8")
    (tmp_path / "remove.txt").write_text("dog\nxyzzy\n", "utf-8")
    return tmp_path


def test_added_and_removed_words_and_the_report(files):
    out = files / "words.wsg"
    stats = ws.compile_lexicon(files / "words.txt", out, add=files / "add.txt", remove=files / "remove.txt")
    lex = ws.Lexicon.load(out)
    assert sorted(lex) == ["CAT", "QI", "ZAX"]
    assert (stats.words, stats.added, stats.added_present, stats.removed, stats.removed_absent) == (3, 1, 1, 1, ["XYZZY"])
    # line numbers and drops stay those of the word list
    assert stats.lines == 4 and stats.examples["contains a space"] == [(4, "foo bar")]
    report = stats.report()
    assert "3 words from 4 lines" in report
    assert "added 1 word of " in report and "(1 already in the list)" in report
    assert "removed 1 word of " in report and "not in the list: XYZZY" in report
    assert "dropped 1 line:" in report
    # the same words as a list that has them: the same graph
    (files / "same.txt").write_text("cat\nqi\nzax\n", "utf-8")
    ws.compile_lexicon(files / "same.txt", files / "same.wsg")
    assert (files / "same.wsg").read_bytes() == out.read_bytes()


def test_every_bad_line_of_a_house_list_is_named(files):
    (files / "bad.txt").write_text("ok\nq1\n\nx\nfine\n", "utf-8")
    with pytest.raises(ws.LexiconBuildError) as e:
        ws.compile_lexicon(files / "words.txt", files / "out.wsg", add=files / "bad.txt")
    msg = str(e.value)
    assert "bad.txt, line 2" in msg and "'q1'" in msg and "bad.txt, line 4" in msg and "'x'" in msg
    assert "2 lines not a word of alphabet 'en'" in msg and "line 5" not in msg
    assert not (files / "out.wsg").exists()


def test_cli_add_remove(files, capsys):
    out = files / "g.wsg"
    rc = main(["lexicon", "build", str(files / "words.txt"), "-o", str(out), "-q",
               "--add", str(files / "add.txt"), "--remove", str(files / "remove.txt")])
    assert rc == 0 and "added 1 word" in capsys.readouterr().out
    assert sorted(ws.Lexicon.load(out)) == ["CAT", "QI", "ZAX"]


@pytest.mark.parametrize("flag", ["--add", "--remove"])
def test_cli_missing_house_list(files, capsys, flag):
    rc = main(["lexicon", "build", str(files / "words.txt"), "-o", str(files / "g.wsg"), flag,
               str(files / "nofile.txt")])
    err = capsys.readouterr().err
    assert rc == 2 and "no such file" in err and "nofile.txt" in err and flag in err


def test_cli_output_folder_must_exist(files, capsys):
    rc = main(["lexicon", "build", str(files / "words.txt"), "-o", str(files / "new" / "g.wsg")])
    err = capsys.readouterr().err
    assert rc == 2 and "expected an existing folder" in err and not (files / "new").exists()

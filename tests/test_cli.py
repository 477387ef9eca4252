"""The command line, run in-process through ``wordsalvo.cli.main``.

Oracles: the SCOWL reference lists (byte for byte, after sorting), their summary
file (best moves), and ``Move.notation`` for the vectorised line formatter on
boards with non-ASCII letters.
"""

from __future__ import annotations

import gzip
import io
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import wordsalvo
import wordsalvo as ws
from wordsalvo.cli import main
from wordsalvo.render.lines import LineFormatter
from wordsalvo.lexicon.lexicon import compile_lexicon
from wordsalvo.movegen import MoveGenerator
from wordsalvo.notation import format_coordinate, format_placement_word
from wordsalvo.position import Position

from reference_movegen import random_positions

DATA = Path(__file__).parent / "data" / "scowl-en"
POSITIONS = DATA / "positions.cgp"
EMPTY_BOARD = "/".join(["15"] * 15)


def summary() -> dict[int, tuple[int, int, str, str]]:
    """index -> (move count, best score, best coord, best word)."""
    out = {}
    for line in (DATA / "summary.tsv").read_text("utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        out[int(f[0])] = (int(f[1]), int(f[2]), f[3], f[4])
    return out


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def position_line(i: int) -> str:
    return POSITIONS.read_text("utf-8").splitlines()[i]


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("lex")
    words = d / "words.txt"
    words.write_text("\n".join(["AB", "BA", "CAB", "TAB", "BAT", "AT", "TA", "RETAINS", "NASTIER", "ZA"]) + "\n")
    out = d / "small.wsg"
    compile_lexicon(words, out, "en")
    return out


# -- moves ------------------------------------------------------------------------------
def test_moves_equal_the_reference_lists(capsys):
    code, out, err = run(capsys, "moves", "--rules", "classic-en", str(POSITIONS))
    assert code == 0 and err == ""
    with gzip.open(DATA / "reference.tsv.gz", "rt", encoding="utf-8") as f:
        want = sorted(f.read().splitlines())
    got = out.splitlines()
    assert len(got) == 374_955
    assert sorted(got) == want


def test_moves_sorted_best_first(capsys):
    code, out, _ = run(capsys, "moves", "--sort", str(POSITIONS))
    assert code == 0
    by_index: dict[int, list[tuple[str, str, int]]] = {}
    for line in out.splitlines():
        i, coord, word, score = line.split("\t")
        by_index.setdefault(int(i), []).append((coord, word, int(score)))
    for i, (count, best, _coord, _word) in summary().items():
        moves = by_index.get(i, [])
        assert len(moves) == count
        if count:
            scores = [s for _c, _w, s in moves]
            assert scores[0] == best
            assert scores == sorted(scores, reverse=True)


def test_moves_from_stdin_keep_line_numbers(capsys, monkeypatch):
    lines = POSITIONS.read_text("utf-8").splitlines()
    text = "# a comment\n\n" + lines[0] + "\n" + lines[1] + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    code, out, err = run(capsys, "moves", "-")
    assert code == 0 and err == ""
    indices = {int(line.split("\t", 1)[0]) for line in out.splitlines()}
    assert indices == {2, 3}
    s = summary()
    assert sum(1 for line in out.splitlines() if line.startswith("2\t")) == s[0][0]
    assert sum(1 for line in out.splitlines() if line.startswith("3\t")) == s[1][0]


def test_moves_reports_every_bad_line_and_prints_nothing(capsys, tmp_path):
    good = position_line(0)
    bad_rows = "/".join(["15"] * 14) + " ABC/ 0/0 0"
    bad_rack = EMPTY_BOARD + " ABCDEFGHI/ 0/0 0"
    f = tmp_path / "p.cgp"
    f.write_text("\n".join([good, bad_rows, good, bad_rack]) + "\n")
    code, out, err = run(capsys, "moves", str(f))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("wordsalvo moves: error:")
    assert "2 bad position lines" in err
    assert "line 2 (index 1)" in err and "expected 15 rows" in err
    assert "line 4 (index 3)" in err and "at most 7 tiles" in err


def test_moves_with_a_lexicon_file(capsys, tmp_path, small_lexicon):
    f = tmp_path / "p.cgp"
    f.write_text(EMPTY_BOARD + " AEINRST/ 0/0 0 lex SMALL;\n")
    code, out, _ = run(capsys, "moves", "--lexicon", str(small_lexicon), str(f))
    assert code == 0
    lines = out.splitlines()
    # RETAINS and NASTIER in both directions, every placement that covers 8H
    assert lines and all(line.split("\t")[2] in {"RETAINS", "NASTIER", "AT", "TA"} for line in lines)
    assert {line.split("\t")[3] for line in lines if len(line.split("\t")[2]) == 7} <= {"64", "66", "68"}


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["moves", "--lexicon", "/nonexistent/x.wsg", str(POSITIONS)], "/nonexistent/x.wsg"),
        (["moves", "/nonexistent/p.cgp"], "/nonexistent/p.cgp"),
        (["moves", "--rules", "no-such-rules", str(POSITIONS)], "no-such-rules"),
        (["moves", "--rules", "/nonexistent/rules.toml", str(POSITIONS)], "/nonexistent/rules.toml"),
    ],
)
def test_moves_bad_files_exit_2_with_one_line(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_moves_refuses_a_lexicon_of_another_alphabet(capsys, tmp_path):
    words = tmp_path / "de.txt"
    words.write_text("ÄB\nBÄ\nAB\n", encoding="utf-8")
    compile_lexicon(words, tmp_path / "de.wsg", "de")
    code, out, err = run(capsys, "moves", "--lexicon", str(tmp_path / "de.wsg"), str(POSITIONS))
    assert code == 2 and out == "" and "alphabet" in err


def test_moves_binary_junk_file(capsys, tmp_path):
    f = tmp_path / "junk.cgp"
    f.write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = run(capsys, "moves", str(f))
    assert code == 2 and out == "" and "UTF-8" in err


@pytest.mark.parametrize("rules_name, lang, letters", [
    ("wordfeud-de", "de", "AEIOUÄÖÜRSTLNDHGMBKZ"),
    ("turkish", "tr", "AEIİOÖUÜKLMNRTSYDIŞÇĞ"),
    ("classic-en", "en", "AEIOURSTLNDCMPBGHKWY"),
])
def test_line_formatter_matches_move_notation(rules_name, lang, letters):
    """The vectorised formatter against Move.notation, with blanks on the board and
    on the rack and non-ASCII letters."""
    from wordsalvo.lexicon import graphfile
    from wordsalvo._core import _graph
    from wordsalvo.alphabet import get_alphabet
    from wordsalvo.lexicon.lexicon import Lexicon

    rng = random.Random(7)
    rules = ws.Rules.preset(rules_name)
    words = sorted({"".join(rng.choice(letters[:12]) for _ in range(rng.choice((2, 3, 3, 4, 5)))) for _ in range(300)})
    data, _ = graphfile.compile_bytes(("\n".join(words) + "\n").encode("utf-8"), get_alphabet(lang), _graph)
    gen = MoveGenerator(Lexicon.from_bytes(data), rules)
    fmt = LineFormatter(rules.alphabet)
    checked = 0
    for seed in range(4):
        game = random.Random(seed)
        for board, _counts in random_positions(rules, words, game, max_moves=8, extra_blanks=2):
            # racks from the word list's letters, with blanks, so that many moves exist
            rack = "".join(game.choice(letters[:12]) for _ in range(game.choice((3, 5)))) + "??"[: game.randrange(3)]
            pos = Position(rules, board, [rack, ""], [0, 0])
            ml = gen.generate(pos)
            text = fmt.format(ml.to_numpy(), bytes(board.tiles), "9\t")
            want = "".join(f"9\t{m.notation.replace(' ', chr(9))}\t{m.score}\n" for m in ml)
            assert text == want
            checked += len(ml)
    assert checked > 100


def test_line_formatter_negative_and_large_scores():
    rules = ws.Rules.preset("classic-en")
    from wordsalvo.moves import MOVE_DTYPE

    rec = np.zeros(3, dtype=MOVE_DTYPE)
    rec["row"], rec["col"], rec["direction"], rec["length"] = 7, 7, 0, 2
    rec["tiles"][:, 0] = 1
    rec["tiles"][:, 1] = 2
    rec["blank_mask"] = [0, 2, 3]
    rec["score"] = [-5, 0, 1234]
    out = LineFormatter(rules.alphabet).format(rec, bytes(225), "0\t")
    assert out == "0\t8H\tAB\t-5\n0\t8H\tAb\t0\n0\t8H\tab\t1234\n"
    alph = rules.alphabet
    assert format_coordinate(7, 7, 0) + " " + format_placement_word(bytes(225), alph, 7, 7, 0, (1, 2 | 0x80)) == "8H Ab"


# -- best -------------------------------------------------------------------------------
def test_best_opening_bingo(capsys):
    code, out, err = run(capsys, "best", "--rules", "classic-en", "--rack", "AEINRST")
    assert code == 0 and err == ""
    notation, score = out.rsplit(" ", 1)
    coord, word = notation.split()
    assert len(word) == 7 and sorted(word) == sorted("AEINRST")
    assert int(score) == 66
    assert coord in {"8B", "8C", "8D", "8E", "8F", "8G", "8H", "H2", "H3", "H4", "H5", "H6", "H7", "H8"}


def test_best_lowercase_rack_is_the_same_rack(capsys):
    """A rack has no designated blanks: --rack aeinrst is AEINRST."""
    assert run(capsys, "best", "--rules", "classic-en", "--rack", "aeinrst") == \
        run(capsys, "best", "--rules", "classic-en", "--rack", "AEINRST")


def test_best_n_is_best_first(capsys):
    code, out, _ = run(capsys, "best", "--rack", "AEINRST", "-n", "12")
    assert code == 0
    scores = [int(line.rsplit(" ", 1)[1]) for line in out.splitlines()]
    assert len(scores) == 12 and scores == sorted(scores, reverse=True) and scores[0] == 66


@pytest.mark.parametrize("index", [0, 1, 5, 42, 99])
def test_best_of_reference_positions(capsys, index):
    count, best, coord, word = summary()[index]
    code, out, _ = run(capsys, "best", position_line(index))
    assert code == 0
    notation, score = out.strip().rsplit(" ", 1)
    assert int(score) == best
    # from a file with --line, the same answer
    code, out2, _ = run(capsys, "best", "--line", str(index), str(POSITIONS))
    assert out2 == out


def test_best_rack_overrides_the_cgp_rack(capsys):
    line = EMPTY_BOARD + " AB/ 0/0 0"
    code, out, _ = run(capsys, "best", line, "--rack", "AEINRST")
    assert code == 0 and out.strip().endswith(" 66")


def test_best_without_a_legal_move(capsys):
    code, out, err = run(capsys, "best", "--rack", "Q")
    assert code == 0 and out == "" and "no legal tile placement" in err


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["best", "--rack", "AEINRSTX"], "at most 7 tiles"),
        (["best", "--rack", "AE1"], "'1'"),
        (["best", "--rack", "QQ"], "Q: 2 used, 1 in the set"),
        (["best"], "expected a rack"),
        (["best", "--rack", "AB", "not a cgp"], "CGP"),
        (["best", "--rack", "AB", "nonexistent-file.cgp"], "nonexistent-file.cgp"),
        (["best", "--line", "500", str(POSITIONS)], "0..104"),
        (["best", "--rules", "nope", "--rack", "AB"], "nope"),
    ],
)
def test_best_bad_input(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err, err


def test_best_bad_n_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["best", "--rack", "AB", "-n", "0"])
    assert e.value.code == 2
    assert "expected a whole number >= 1" in capsys.readouterr().err


# -- validate ---------------------------------------------------------------------------
def test_validate_legal_move(capsys):
    _count, best, coord, word = summary()[1]
    code, out, err = run(capsys, "validate", position_line(1), f"{coord} {word}")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"legal: {coord} {word} {best}"
    assert len(lines) >= 2  # the words formed


def test_validate_notation_in_two_arguments(capsys):
    code, out, _ = run(capsys, "validate", EMPTY_BOARD + " AEINRST/ 0/0 0", "8D", "RETAINS")
    assert code == 0
    assert out.splitlines()[0] == "legal: 8D RETAINS 66"
    assert "bingo bonus 50" in out


def test_validate_illegal_move_lists_reasons(capsys):
    code, out, err = run(capsys, "validate", EMPTY_BOARD + " AEINRST/ 0/0 0", "8D RETAINX", "--rack", "AEINRTX")
    assert code == 1 and err == ""
    assert out.startswith("illegal: ")
    assert "INVALID_WORDS" in out and "RETAINX" in out


def test_validate_first_move_off_centre(capsys):
    code, out, _ = run(capsys, "validate", EMPTY_BOARD + " AEINRST/ 0/0 0", "1A RETAINS")
    assert code == 1 and "CENTRE_NOT_COVERED" in out


@pytest.mark.parametrize("notation", ["junk", "99Z AB", "8H A(B", "8H 12"])
def test_validate_bad_notation_exit_2(capsys, notation):
    code, out, err = run(capsys, "validate", EMPTY_BOARD + " AEINRST/ 0/0 0", notation)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("wordsalvo validate: error:")


def test_validate_bad_position_exit_2(capsys):
    code, out, err = run(capsys, "validate", "15/15 AB/ 0/0 0", "8H AB")
    assert code == 2 and "15 rows" in err


# -- help -------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["moves", "best", "validate"])
def test_help(capsys, command):
    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: wordsalvo {command}") and "--rules" in out and "--lexicon" in out


def test_python_m_wordsalvo_help():
    env = dict(os.environ)
    src = str(Path(wordsalvo.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "wordsalvo", "--help"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    for command in ("moves", "best", "validate"):
        assert command in proc.stdout


def test_validate_and_best_follow_the_position_rules_and_stars(capsys):
    line = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEİLNRT/ 0/0 0 rs turkish; stars 7,8;"
    assert main(["validate", line, "8H EL"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "legal: 8H EL 29" and "star bonus 25" in out
    assert main(["best", line]) == 0
    assert capsys.readouterr().out.endswith(" 49\n")
    assert main(["best", "--rules", "classic-en", line]) == 2
    assert "rule set 'turkish'" in capsys.readouterr().err


def test_output_files_need_their_folder_and_new_folders_are_announced(capsys, tmp_path):
    """-o/--out/--csv FILE refuse a folder that does not exist (a typo must not make folders);
    a folder a command fills (--gcg DIR, analyze --out DIR) is made and the command says so."""
    table = Path(wordsalvo.__file__).parent / "data" / "leaves" / "classic-en.wsl"
    code, _out, err = run(capsys, "leaves", "export", str(table), "--csv", str(tmp_path / "no" / "t.csv"))
    assert code == 2 and "expected an existing folder" in err and not (tmp_path / "no").exists()
    code, _out, err = run(capsys, "autoplay", "--rules", "classic-en", "--games", "1", "--p1", "score",
                          "--p2", "score", "--gcg", str(tmp_path / "games"))
    assert code == 0 and f"created the folder {tmp_path / 'games'} (--gcg)" in err
    assert len(list((tmp_path / "games").glob("*.gcg"))) == 1
    code, _out, err = run(capsys, "autoplay", "--rules", "classic-en", "--games", "1", "--p1", "score",
                          "--p2", "score", "--gcg", str(tmp_path / "x" / "y"))
    assert code == 2 and "create it first" in err


def test_moves_of_a_file_without_positions_says_so(capsys, tmp_path):
    path = tmp_path / "empty.cgp"
    path.write_text("# only a comment\n\n", "utf-8")
    code, out, err = run(capsys, "moves", "--rules", "classic-en", str(path))
    assert code == 2 and out == "" and "expected CGP position lines, got none" in err and str(path) in err


def test_analyze_of_a_cgp_file_says_what_it_expected(capsys, tmp_path):
    path = tmp_path / "positions.cgp"
    path.write_text("\n".join(position_line(i) for i in range(3)) + "\n", "utf-8")
    code, out, err = run(capsys, "analyze", str(path))
    assert code == 2 and err.count("\n") == 1
    assert "expected a GCG game record" in err and "CGP file of positions (3 position lines)" in err
    assert "`wordsalvo moves`" in err

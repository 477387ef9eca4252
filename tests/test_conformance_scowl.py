"""Conformance with the SCOWL reference move lists (tests/data/scowl-en, see its README).

* Every sampled line is parsed with ``parse_notation``, re-scored with
  ``check_placement`` (rack, geometry, connection or centre rule), put back in
  canonical form with ``placement_from_squares`` (rule 3: one-tile direction)
  and re-formatted with ``format_notation`` to exactly the same text.
* The reference generator regenerates whole lists exactly.  It needs no word
  list: the words formed by a position's listed moves are all in the lexicon,
  and any move whose words all lie in that set is legal, so generating with
  that set must give back exactly the listed moves.
* With the SCOWL list from ``lexicon_build/en/`` (when present), every word of
  the sampled lines is in the lexicon.

The default run samples lines and regenerates the small lists and two
openings (a few seconds); ``-m slow`` re-scores all 374,955 lines and
regenerates all 105 lists (about 3.5 minutes on one core).
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

import pytest
from refdata import group_by_position, line_squares, read_lines, reference_keys
from reference_movegen import reference_moves

from wordsalvo import Board, Rules
from wordsalvo.notation import format_notation, parse_notation
from wordsalvo.placement import check_placement, placement_from_squares

HERE = Path(__file__).parent
DATA = HERE / "data" / "scowl-en"
LEXICON_DIR = HERE.parent / "lexicon_build" / "en"
SCOWL_SHA256 = "50c38bab31e00abc460a202e9d0d6bad240c9f349a68df23447472f915940273"

RULES = Rules.preset("classic-en")
EN = RULES.alphabet


# -- a minimal CGP reader (board and racks only) -------------------------------------------------


def parse_cgp(line: str) -> tuple[Board, list[int]]:
    """Board and rack counts (index 0 = blanks) of the player on turn."""
    fields = line.split()
    rows = fields[0].split("/")
    assert len(rows) == 15, f"expected 15 board rows, got {len(rows)}"
    board = Board(EN)
    for r, row in enumerate(rows):
        c = 0
        number = ""
        for ch in row + "\0":
            if ch.isdigit():
                number += ch
                continue
            if number:
                c += int(number)
                number = ""
            if ch == "\0":
                break
            board[r, c] = EN.board_code(ch)
            c += 1
        assert c == 15, f"row {r + 1}: expected 15 squares, got {c}"
    rack = [0] * (EN.size + 1)
    for ch in fields[1].split("/")[0]:
        rack[0 if ch == "?" else EN.code(ch)] += 1
    return board, rack


try:  # the package's CGP reader, once it exists; the minimal one above cross-checks it
    from wordsalvo.formats.cgp import parse_cgp as package_parse_cgp
except ImportError:  # pragma: no cover - depends on the state of the package
    package_parse_cgp = None


def cgp_lines() -> list[str]:
    return [line for line in (DATA / "positions.cgp").read_text("utf-8").splitlines() if line.strip()]


@lru_cache(maxsize=1)
def positions() -> list[tuple[Board, list[int]]]:
    out = []
    for line in cgp_lines():
        board, rack = parse_cgp(line)
        if package_parse_cgp is not None:
            pos = package_parse_cgp(line, RULES)
            board = pos.board
            rack = [0] * (EN.size + 1)
            for ch in pos.racks[0]:
                rack[0 if ch == "?" else EN.code(ch)] += 1
        out.append((board, rack))
    return out


@pytest.mark.skipif(package_parse_cgp is None, reason="wordsalvo.formats.cgp is not there yet")
def test_package_cgp_reader_agrees_with_minimal_reader():
    for n, line in enumerate(cgp_lines()):
        board, rack = parse_cgp(line)
        pos = package_parse_cgp(line, RULES)
        assert bytes(pos.board.tiles) == bytes(board.tiles), n
        assert sorted(pos.racks[0]) == sorted(line.split()[1].split("/")[0]), n


@lru_cache(maxsize=1)
def reference() -> dict[int, list[tuple[str, str, int]]]:
    return group_by_position(read_lines(DATA / "reference.tsv.gz"))


@lru_cache(maxsize=1)
def summary() -> dict[int, dict[str, str]]:
    lines = (DATA / "summary.tsv").read_text("utf-8").splitlines()
    header = lines[0].lstrip("#").split("\t")
    return {int(f[0]): dict(zip(header, f)) for f in (line.split("\t") for line in lines[1:] if line.strip())}


def always(_word: str) -> bool:
    return True


def test_data_is_complete():
    assert len(positions()) == 105
    ref = reference()
    assert sorted(ref) == list(range(105))
    for index, row in summary().items():
        entries = ref[index]
        assert len(entries) == int(row["move_count"]), index
        assert max(score for *_, score in entries) == int(row["best_score"]), index


def rescore(index: int, entries) -> None:
    board, rack = positions()[index]
    first_move = board.is_empty()
    for coord, word, score in entries:
        text = f"{coord} {word}"
        placement = parse_notation(text, board)
        assert format_notation(board, *placement) == text, (index, text)
        squares = line_squares(board, coord, word)
        res = check_placement(board, RULES, rack, squares, always, first_move=first_move)
        assert res.legal, (index, text, res.problems)
        assert res.score == score, (index, text, res.score, score, res.words)
        assert res.placement == placement, (index, text, res.placement)
        if not first_move or len(squares) > 1:
            assert placement_from_squares(board, squares) == placement, (index, text)


def test_rescore_sample_of_every_position():
    """Every 25th line of every position, plus each position's best move."""
    ref = reference()
    for index in range(len(positions())):
        entries = ref[index][::25]
        best = summary()[index]
        entries = entries + [(best["best_coord"], best["best_word"], int(best["best_score"]))]
        rescore(index, entries)


@pytest.mark.slow
def test_rescore_every_line():
    for index, entries in reference().items():
        rescore(index, entries)


def words_of(index: int) -> set[str]:
    """Every word (main and cross) formed by the listed moves of one position."""
    board, rack = positions()[index]
    out: set[str] = set()
    for coord, word, _score in reference()[index]:
        res = check_placement(board, RULES, rack, line_squares(board, coord, word), always)
        out.update(w.word for w in res.words)
    return out


SMALL_POSITIONS = sorted(i for i, row in summary().items() if int(row["move_count"]) <= 160)


@pytest.mark.parametrize("index", SMALL_POSITIONS + [101, 102])  # 101, 102: openings, 102 with a blank
def test_reference_generator_reproduces_list(index):
    board, rack = positions()[index]
    expected = reference_keys(board, reference()[index])
    got = reference_moves(board, RULES, rack, words_of(index))
    missing = set(expected) - set(got)
    extra = set(got) - set(expected)
    assert not missing and not extra, (index, len(missing), len(extra))
    wrong = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
    assert not wrong, (index, list(wrong.items())[:5])


@pytest.mark.slow
@pytest.mark.parametrize("index", [i for i, row in summary().items()
                                   if 160 < int(row["move_count"]) and i not in (101, 102)])
def test_reference_generator_reproduces_larger_lists(index):
    test_reference_generator_reproduces_list(index)


# -- with the real word list, when the English lexicon sources are there ---------------------------


@lru_cache(maxsize=1)
def scowl_words() -> set[str] | None:
    if not LEXICON_DIR.is_dir():
        return None
    for path in sorted(LEXICON_DIR.glob("*.gz")):
        raw = gzip.decompress(path.read_bytes())
        if hashlib.sha256(raw).hexdigest() == SCOWL_SHA256:
            return set(raw.decode("utf-8").split())
    return None


def test_sampled_words_are_in_scowl():
    words = scowl_words()
    if words is None:
        pytest.skip(f"no gzip'd scowl-en.txt (sha256 {SCOWL_SHA256[:12]}...) in {LEXICON_DIR}")
    ref = reference()
    for index in range(len(positions())):
        board, rack = positions()[index]
        for coord, word, score in ref[index][::25]:
            res = check_placement(board, RULES, rack, line_squares(board, coord, word), words.__contains__)
            assert res.legal and res.score == score, (index, coord, word, res.problems)

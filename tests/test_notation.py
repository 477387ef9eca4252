"""Move notation: 8H WO(R)D <-> (row, col, direction, tiles)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsalvo import Board, IllegalMoveError, IllegalMoveReason as R, NotationError, WordSalvoError
from wordsalvo import Rules
from wordsalvo.alphabet import BLANK_BIT, get_alphabet
from wordsalvo.notation import (
    ACROSS,
    DOWN,
    format_coordinate,
    format_notation,
    format_word,
    parse_coordinate,
    parse_notation,
)
from wordsalvo.placement import check_move

EN = get_alphabet("en")
TR = get_alphabet("tr")


def c(ch: str, alphabet=EN) -> int:
    return alphabet.board_code(ch)


def board_with(alphabet=EN, **squares: str) -> Board:
    """``board_with(H8="R", I8="e")``: column letter + row number -> board letter."""
    b = Board(alphabet)
    for name, letter in squares.items():
        b[int(name[1:]) - 1, ord(name[0]) - ord("A")] = alphabet.board_code(letter)
    return b


# -- coordinates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [("8H", (7, 7, ACROSS)), ("H8", (7, 7, DOWN)), ("10B", (9, 1, ACROSS)), ("B10", (9, 1, DOWN)),
     ("1A", (0, 0, ACROSS)), ("O15", (14, 14, DOWN)), ("8h", (7, 7, ACROSS)), ("h8", (7, 7, DOWN))],
)
def test_parse_coordinate(text, expected):
    assert parse_coordinate(text) == expected


@pytest.mark.parametrize("row, col, direction, text", [(7, 7, ACROSS, "8H"), (7, 7, DOWN, "H8"),
                                                        (9, 1, ACROSS, "10B"), (9, 1, DOWN, "B10")])
def test_format_coordinate(row, col, direction, text):
    assert format_coordinate(row, col, direction) == text


@pytest.mark.parametrize("text", ["", "8", "H", "88", "HH", "8H8", "P8", "8P", "0A", "16A", "A16", "A0", "8-H"])
def test_bad_coordinate(text):
    with pytest.raises(NotationError):
        parse_coordinate(text)


def test_bad_coordinate_message_says_expected_and_got():
    with pytest.raises(NotationError, match=r"expected row 1\.\.15, got 16"):
        parse_notation("16A AB", Board(EN))
    with pytest.raises(NotationError, match=r"expected column A\.\.O, got P"):
        parse_notation("P3 AB", Board(EN))


# -- formatting -----------------------------------------------------------------------------


def test_format_played_through_runs_and_blanks():
    b = board_with(I10="I")
    assert format_notation(b, 9, 6, ACROSS, (c("A"), c("M"), 0, c("r"))) == "10G AM(I)r"


def test_format_one_pair_of_parentheses_per_run():
    b = board_with(A1="P", B1="E", C1="G", D1="M", E1="a")
    tiles = (0, 0, 0, 0, 0, c("T"), c("O"), c("p"), c("h"), c("Y"), c("R"), c("E"))
    assert format_word(b, 0, 0, ACROSS, tiles) == "(PEGMa)TOphYRE"


def test_format_down_and_alternating_runs():
    b = board_with(C3="I", C5="T")
    assert format_notation(b, 2, 2, DOWN, (0, c("n"), 0)) == "C3 (I)n(T)"


def test_format_rejects_played_through_empty_square():
    with pytest.raises(NotationError, match="empty square"):
        format_word(Board(EN), 7, 7, ACROSS, (0, c("A")))


def test_format_turkish_dotted_and_dotless():
    b = board_with(TR)
    tiles = (c("K", TR), c("i", TR), c("T", TR), c("A", TR), c("P", TR), c("Ç", TR), c("ı", TR))
    assert tiles[1] == TR.code("İ") | BLANK_BIT and tiles[6] == TR.code("I") | BLANK_BIT
    assert format_notation(b, 7, 4, ACROSS, tiles) == "8E KiTAPÇı"
    assert parse_notation("8E KiTAPÇı", b) == (7, 4, ACROSS, tiles)


# -- parsing ----------------------------------------------------------------------------------


def test_parse_simple_and_through():
    b = board_with(J8="R")
    assert parse_notation("8H WO(R)D", b) == (7, 7, ACROSS, (c("W"), c("O"), 0, c("D")))
    assert parse_notation("H6 WORD", Board(EN)) == (5, 7, DOWN, (c("W"), c("O"), c("R"), c("D")))


def test_parse_lenient_whitespace_and_lowercase_column():
    b = board_with(J8="R")
    expected = (7, 7, ACROSS, (c("W"), c("O"), 0, c("D")))
    for text in ["8H WO(R)D", "  8H   WO(R)D  ", "8h\tWO(R)D", "\n8H WO(R)D\n"]:
        assert parse_notation(text, b) == expected


def test_parse_blank_is_lowercase():
    assert parse_notation("8H wOrD", Board(EN)) == (7, 7, ACROSS, (c("W") | BLANK_BIT, c("O"), c("R") | BLANK_BIT, c("D")))


def test_parse_same_letter_without_parentheses_is_played_through():
    b = board_with(J8="R")
    assert parse_notation("8H WORD", b) == parse_notation("8H WO(R)D", b)
    # a blank on the board, written either way
    b = board_with(J8="r")
    assert parse_notation("8H WO(r)D", b) == parse_notation("8H WO(R)D", b) == parse_notation("8H WORD", b)


def test_parse_played_through_blank_round_trip():
    b = board_with(J8="r")
    p = parse_notation("8H WO(R)D", b)
    assert format_notation(b, *p) == "8H WO(r)D"


def test_parse_errors_are_word_salvo_errors():
    assert issubclass(NotationError, WordSalvoError) and issubclass(NotationError, ValueError)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "coordinate and a word"),
        ("8H", "coordinate and a word"),
        ("8H WO RD", "coordinate and a word"),
        ("8H W1RD", "unknown letter '1' at character 2"),
        ("8H WÖRD", "unknown letter 'Ö'"),
        ("8H WO(RD", "never closed"),
        ("8H WOR)D", "without an opening"),
        ("8H W((O)RD", "nested"),
        ("8H WO()RD", "empty parentheses"),
        ("8H ()", "empty parentheses"),
        ("8-H WORD", "expected a coordinate like"),
        ("X8 WORD", "expected column A..O, got X"),
    ],
)
def test_parse_syntax_errors(text, fragment):
    with pytest.raises(NotationError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_notation(text, Board(EN))


def test_parse_reports_every_syntax_problem():
    with pytest.raises(NotationError) as e:
        parse_notation("8H W1(R2", Board(EN))
    msg = str(e.value)
    assert "'1'" in msg and "'2'" in msg and "never closed" in msg


def test_parenthesised_letter_over_empty_square():
    with pytest.raises(NotationError, match=r"\(R\) at 8J: expected a tile on the board, got an empty square"):
        parse_notation("8H WO(R)D", Board(EN))


def test_parenthesised_letter_not_matching_board():
    with pytest.raises(NotationError, match=r"expected the board letter S, got R"):
        parse_notation("8H WO(R)D", board_with(J8="S"))


def test_notation_must_be_the_whole_main_word():
    b = board_with(G8="S", L8="S")
    with pytest.raises(NotationError, match=r"directly before") as e:
        parse_notation("8H WORD", b)
    assert "directly after" in str(e.value)  # both ends reported
    assert parse_notation("8G (S)WORD(S)", b)[:3] == (7, 6, ACROSS)


def _judge(text: str, board: Board):
    """The one validation path: parse, then check_move (a rack holding every letter twice)."""
    rules = Rules.preset("classic-en")
    return check_move(board, rules, [2] * 33, parse_notation(text, board), lambda w: True)


def test_off_board_is_parsed_and_judged_illegal_by_placement():
    assert parse_notation("8L WORDS", Board(EN)) == (7, 11, ACROSS, tuple(c(ch) for ch in "WORDS"))
    result = _judge("8L WORDS", Board(EN))
    assert result.reasons == (R.OFF_BOARD,)
    assert "expected at most 4 letters from 8L across, got 5" in result.problems[0]
    assert _judge("H12 WORDS", Board(EN)).reasons == (R.OFF_BOARD,)
    with pytest.raises(IllegalMoveError) as e:
        result.raise_if_illegal()
    assert e.value.reason is R.OFF_BOARD


def test_new_letter_on_other_letter_is_square_occupied():
    board = board_with(J8="S", K8="T")
    assert parse_notation("8H WORD", board) == (7, 7, ACROSS, tuple(c(ch) for ch in "WORD"))
    result = _judge("8H WORD", board)
    assert result.reasons == (R.SQUARE_OCCUPIED,)
    assert result.problems == ("R at 8J: expected an empty square, got S", "D at 8K: expected an empty square, got T")


def test_notation_error_wins_over_illegal_move():
    with pytest.raises(NotationError):
        parse_notation("8H (X)ORD", board_with(J8="S"))


def test_all_letters_on_board_places_no_tile():
    board = board_with(H8="A", I8="T")
    assert parse_notation("8H (AT)", board) == (7, 7, ACROSS, (0, 0))
    assert _judge("8H (AT)", board).reasons == (R.NO_TILES,)


# -- round trip ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    direction=st.sampled_from([ACROSS, DOWN]),
    line=st.integers(0, 14),
    start=st.integers(0, 13),
    data=st.data(),
)
def test_format_parse_round_trip(direction, line, start, data):
    length = data.draw(st.integers(2, 15 - start))
    kinds = data.draw(st.lists(st.sampled_from("nbo"), min_size=length, max_size=length))
    letters = data.draw(st.lists(st.integers(1, EN.size), min_size=length, max_size=length))
    if set(kinds) == {"o"}:
        kinds[0] = "n"  # at least one new tile
    b = Board(EN)
    tiles = []
    for i, (kind, code) in enumerate(zip(kinds, letters)):
        r, col = (line, start + i) if direction == ACROSS else (start + i, line)
        if kind == "o":
            b[r, col] = code | (BLANK_BIT if i % 2 else 0)
            tiles.append(0)
        else:
            tiles.append(code | (BLANK_BIT if kind == "b" else 0))
    text = format_notation(b, *((line, start) if direction == ACROSS else (start, line)), direction, tuple(tiles))
    assert parse_notation(text, b) == ((line, start) if direction == ACROSS else (start, line)) + (direction, tuple(tiles))

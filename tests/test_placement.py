"""Rules of one move: hand-worked scores for every premium combination, and every illegal reason."""

from __future__ import annotations

import pytest

from wordsalvo import Board, IllegalMoveError, IllegalMoveReason as R, Rules
from wordsalvo.alphabet import BLANK_BIT, get_alphabet
from wordsalvo.notation import parse_notation
from wordsalvo.placement import (
    ACROSS,
    DOWN,
    check_placement,
    placement_from_squares,
    squares_from_placement,
)

CLASSIC = Rules.preset("classic-en")
EN = CLASSIC.alphabet
SIZE = 15


def layout(**marks: str) -> tuple[str, ...]:
    """A plain 15x15 layout with premium symbols at the given squares, e.g. ``layout(H8="w")``."""
    rows = [["."] * SIZE for _ in range(SIZE)]
    for name, sym in marks.items():
        col = ord(name[0]) - ord("A")
        row = int(name[1:]) - 1
        rows[row][col] = sym
    return tuple("".join(r) for r in rows)


def plain_rules(**marks: str) -> Rules:
    return CLASSIC.with_layout(layout(**marks))


def rack(alphabet, letters: str) -> list[int]:
    """Rack counts from letters; '?' is a blank."""
    counts = [0] * (alphabet.size + 1)
    for ch in letters:
        counts[0 if ch == "?" else alphabet.code(ch)] += 1
    return counts


FULL_RACK = [9] * 27  # enough of everything, blanks included


def put(board: Board, notation: str) -> None:
    """Put the new letters of a notation on the board (an earlier turn)."""
    row, col, direction, tiles = parse_notation(notation, board)
    for r, c, code in squares_from_placement(board, row, col, direction, tiles):
        board[r, c] = code


def new_tiles(board: Board, notation: str) -> list[tuple[int, int, int]]:
    return squares_from_placement(board, *parse_notation(notation, board))


def words(*ws: str):
    s = set(ws)
    return s.__contains__


def check(board, rules, notation, lexicon, rack_counts=FULL_RACK, **kw):
    return check_placement(board, rules, rack_counts, new_tiles(board, notation), lexicon, **kw)


# -- word premiums ------------------------------------------------------------------------
# CRATE = C3 R1 A1 T1 E1 = 7 on plain squares.


def test_plain_word_no_premium():
    res = check(Board(EN), plain_rules(), "8D CRATE", words("CRATE"))
    assert res.legal and res.score == 7


def test_2w_plus_2w_multiplies_by_4():
    res = check(Board(EN), plain_rules(D8="w", H8="w"), "8D CRATE", words("CRATE"))
    assert res.legal
    assert res.score == 7 * 4 == 28


def test_2w_plus_3w_multiplies_by_6():
    res = check(Board(EN), plain_rules(D8="w", H8="W"), "8D CRATE", words("CRATE"))
    assert res.score == 7 * 6 == 42


def test_3w_plus_3w_multiplies_by_9():
    res = check(Board(EN), plain_rules(D8="W", H8="W"), "8D CRATE", words("CRATE"))
    assert res.score == 7 * 9 == 63


def test_letter_premium_before_word_premium():
    # C on 3L (9), then x2 for the word: (9 + 4) * 2 = 26
    res = check(Board(EN), plain_rules(D8="T", H8="w"), "8D CRATE", words("CRATE"))
    assert res.score == (3 * 3 + 4) * 2 == 26


def test_blank_on_3l_is_worth_0():
    rules = plain_rules(D8="T")
    real = check(Board(EN), rules, "8D CRATE", words("CRATE"))
    blank = check(Board(EN), rules, "8D cRATE", words("CRATE"))
    assert real.score == 9 + 4 == 13
    assert blank.score == 0 + 4 == 4
    assert blank.words[0].word == "CRATE"  # the blank stands for C in the word


def test_blank_on_2w_still_doubles_the_word():
    res = check(Board(EN), plain_rules(D8="w"), "8D cRATE", words("CRATE"))
    assert res.score == (0 + 4) * 2 == 8


def test_blank_on_board_is_worth_0_when_played_through():
    board = Board(EN)
    put(board, "8D cRATE")
    res = check(board, plain_rules(), "8D (cRATE)S", words("CRATES"), first_move=False)
    assert res.legal and res.score == 0 + 4 + 1 == 5


# -- premiums under old tiles, cross words ---------------------------------------------------


def test_premiums_under_old_tiles_count_for_nothing():
    # CRATE was played on 3W/3L; extending it to CRATES pays no premium again.
    rules = plain_rules(D8="W", E8="T", I8="D")
    board = Board(EN)
    put(board, "8D CRATE")
    res = check(board, rules, "8D (CRATE)S", words("CRATES"))
    assert res.legal
    assert res.score == 7 + 2 * 1  # S on 2L (I8) doubles only the S


def test_cross_word_through_old_premium():
    # Old CRATE at 8D (R on the 3W at E8).  New across word AT at 9D..9E: A under C,
    # T under R, forming cross words CA (D8-D9) and RT?  Use real words: board CRATE,
    # new "AX" -- keep it simple with a tiny lexicon.
    rules = plain_rules(E8="W", E9="w", D9="T")
    board = Board(EN)
    put(board, "8D CRATE")
    lex = words("CRATE", "AX", "CA", "RX")
    res = check(board, rules, "9D AX", lex)
    assert res.legal
    by_word = {w.word: w.score for w in res.words}
    # main AX: A on 3L (3) + X on 2W (8) = 11, x2 = 22
    assert by_word["AX"] == (1 * 3 + 8) * 2 == 22
    # CA: old C (3, its 3W/none ignored) + A on 3L (3) = 6; no word premium
    assert by_word["CA"] == 3 + 1 * 3 == 6
    # RX: old R on the 3W at E8 counts nothing, X on 2W: (1 + 8) * 2 = 18
    assert by_word["RX"] == (1 + 8) * 2 == 18
    assert res.score == 22 + 6 + 18 == 46
    assert [w.is_main for w in res.words] == [True, False, False]


def test_tile_forming_two_words_counts_in_both_with_its_premium():
    # one tile on a 3L square forming an across and a down word
    rules = plain_rules(I9="T")
    board = Board(EN)
    board[7, 8] = EN.code("A")  # 8I
    board[8, 7] = EN.code("O")  # 9H
    # X at 9I forms OX across (9H-9I) and AX down (8I-9I)
    res = check_placement(board, rules, FULL_RACK, [(8, 8, EN.code("X"))], words("OX", "AX"))
    assert res.legal
    assert res.placement == (8, 7, ACROSS, (0, EN.code("X")))  # across: has a left neighbour
    assert {(w.word, w.score) for w in res.words} == {("OX", 1 + 24), ("AX", 1 + 24)}
    assert res.score == 50


def test_one_tile_move_without_across_neighbour_is_down():
    board = Board(EN)
    board[7, 7] = EN.code("A")
    res = check_placement(board, CLASSIC, FULL_RACK, [(8, 7, EN.code("X"))], words("AX"))
    assert res.legal
    assert res.placement == (7, 7, DOWN, (0, EN.code("X")))
    assert [w.word for w in res.words] == ["AX"]


# -- classic board and RULES.md statements -------------------------------------------------


def test_classic_centre_doubles_first_word():
    # classic-en: the centre is 2W.  CAT at 8H: (3 + 1 + 1) * 2 = 10
    res = check(Board(EN), CLASSIC, "8H CAT", words("CAT"), rack_counts=rack(EN, "CAT"))
    assert res.legal and res.score == 10
    assert res.placement == (7, 7, ACROSS, (EN.code("C"), EN.code("A"), EN.code("T")))


def test_wordsalvo_centre_is_only_a_placement_requirement():
    # WordSalvo: the centre star does NOT double the first word
    rules = plain_rules(H8="*")
    res = check(Board(EN), rules, "8H CAT", words("CAT"), rack_counts=rack(EN, "CAT"))
    assert res.legal and res.score == 5


def test_bingo_bonus_for_seven_new_tiles():
    # classic-en, 8B RETAINS: 8D is 2L (A? no: 8D is D -> 2L), 8H centre 2W
    # squares 8B..8H: B . C . D=2L E . F . G . H=2W(centre)
    res = check(Board(EN), CLASSIC, "8B RETAINS", words("RETAINS"), rack_counts=rack(EN, "RETAINS"))
    # R1 E1 T1*2 A1 I1 N1 S1 (S on 8H, 2W): (1+1+2+1+1+1+1) * 2 = 16, + 50
    assert res.legal and res.tiles_played == 7 and res.is_bingo
    assert res.words_score == 16 and res.score == 66


def test_seven_letter_word_through_board_tile_is_not_a_bingo():
    rules = plain_rules()
    board = Board(EN)
    board[7, 7] = EN.code("A")
    res = check(board, rules, "8E RET(A)INS", words("RETAINS"))
    # RETAINS through the board A: 6 new tiles -> no bonus
    assert res.legal and res.tiles_played == 6 and not res.is_bingo and res.score == 7
    board2 = Board(EN)
    put(board2, "7H AT")
    res7 = check(board2, rules, "8E RETAINS", words("RETAINS", "AA", "TI"), rack_counts=rack(EN, "RETAINS"))
    assert res7.legal and res7.tiles_played == 7 and res7.bingo_bonus == 50
    assert res7.score == 7 + 2 + 2 + 50


def test_rack_smaller_than_seven_gives_no_bingo():
    rules = plain_rules()
    res = check(Board(EN), rules, "8E RETAIN", words("RETAIN"), rack_counts=rack(EN, "RETAIN"))
    assert res.legal and not res.is_bingo and res.score == 6


# -- Turkish: star square, +30, dotted / dotless I -----------------------------------------------

from rules_layouts import TURKISH as TR_LAYOUT  # noqa: E402

TR_TILES = (
    "A12x1 B2x3 C2x4 Ç2x4 D2x3 E8x1 F1x7 G1x5 Ğ1x8 H1x5 I4x2 İ7x1 J1x10 K7x1 L7x1 M4x2 N5x1 "
    "O3x2 Ö1x7 P1x5 R6x1 S3x2 Ş2x4 T5x1 U3x2 Ü2x3 V1x7 Y2x3 Z2x4 ?2x0"
)


def turkish_rules(star=(7, 5)) -> Rules:
    tiles = {}
    for item in TR_TILES.split():
        letter, rest = item[0], item[1:]
        count, value = rest.split("x")
        tiles[letter] = [int(count), int(value)]
    return Rules.from_dict({
        "name": "turkish-test", "alphabet": "tr", "rack_size": 7, "bingo_bonus": 30,
        "board": {"layout": TR_LAYOUT, "centre": [7, 7], "star_squares": [list(star)], "star_bonus": 25},
        "tiles": tiles,
    })


TR = get_alphabet("tr")


def test_turkish_seven_tiles_with_star_square():
    rules = turkish_rules(star=(7, 5))  # 8F, a plain square
    assert rules.tile_values[TR.code("İ")] == 1 and rules.tile_values[TR.code("I")] == 2
    # KİTAPÇI at 8E: K1 İ1 T1(star 8F) A1 P5(8H, centre 2W) Ç4 I2 = 15, x2 = 30; +30 all tiles; +25 star
    res = check(Board(TR), rules, "8E KİTAPÇI", words("KİTAPÇI"), rack_counts=rack(TR, "KİTAPÇI"))
    assert res.legal, res.problems
    assert res.words_score == 30 and res.bingo_bonus == 30 and res.star_bonus == 25
    assert res.score == 85


def test_turkish_blank_dotted_and_dotless_i():
    rules = turkish_rules(star=(0, 0))
    # blank İ written 'i', blank I written 'ı': both score 0
    res = check(Board(TR), rules, "8E KiTAPÇı", words("KİTAPÇI"), rack_counts=rack(TR, "KTAPÇ??"))
    assert res.legal, res.problems
    assert res.words[0].word == "KİTAPÇI"
    assert res.score == (1 + 0 + 1 + 1 + 5 + 4 + 0) * 2 + 30 == 54


def test_star_pays_once_even_when_its_tile_forms_two_words():
    rules = turkish_rules(star=(8, 9))  # 9J, a plain square
    board = Board(TR)
    board[7, 9] = TR.code("A")  # 8J, above the star
    board[8, 8] = TR.code("O")  # 9I (a 2L, but an old tile: no premium)
    res = check_placement(board, rules, [9] * 30, [(8, 9, TR.code("L"))], words("OL", "AL"))
    assert res.legal
    assert res.words_score == (2 + 1) + (1 + 1)  # OL: O2 + L1; AL: A1 + L1
    assert res.star_bonus == 25 and res.score == 5 + 25


def test_star_under_an_old_tile_pays_nothing():
    rules = turkish_rules(star=(7, 8))  # 8I, a plain square
    board = Board(TR)
    put(board, "8H AT")  # the T lies on the star: that play got the bonus
    res = check(board, rules, "8H (AT)A", words("ATA"))
    assert res.legal and res.star_bonus == 0 and res.score == 3


# -- illegal moves: every reason ----------------------------------------------------------------


def reasons_of(res):
    return set(res.reasons)


def test_no_tiles():
    res = check_placement(Board(EN), CLASSIC, FULL_RACK, [], words())
    assert res.reasons == (R.NO_TILES,)
    with pytest.raises(IllegalMoveError) as e:
        res.raise_if_illegal()
    assert e.value.reason is R.NO_TILES


def test_not_in_one_line():
    board = Board(EN)
    put(board, "8H AT")
    sq = [(8, 7, EN.code("X")), (9, 8, EN.code("Y"))]
    res = check_placement(board, CLASSIC, FULL_RACK, sq, words())
    assert R.NOT_IN_ONE_LINE in res.reasons
    assert "rows 9,10 and columns H,I" in " ".join(res.problems)


def test_gap():
    board = Board(EN)
    put(board, "8H AT")
    sq = [(8, 7, EN.code("X")), (8, 9, EN.code("Y"))]
    res = check_placement(board, CLASSIC, FULL_RACK, sq, words())
    assert reasons_of(res) == {R.GAP}
    assert "9I" in res.problems[0]


def test_gap_filled_by_board_tile_is_fine():
    board = Board(EN)
    put(board, "8H AT")
    sq = [(7, 6, EN.code("C")), (7, 9, EN.code("S"))]
    res = check_placement(board, CLASSIC, FULL_RACK, sq, words("CATS"))
    assert res.legal and res.placement == (7, 6, ACROSS, (EN.code("C"), 0, 0, EN.code("S")))


def test_not_connected():
    board = Board(EN)
    put(board, "8H AT")
    res = check(board, CLASSIC, "2B AT", words("AT"))
    assert reasons_of(res) == {R.NOT_CONNECTED}


def test_centre_not_covered_and_first_move_one_tile():
    res = check(Board(EN), CLASSIC, "2B AT", words("AT"))
    assert reasons_of(res) == {R.CENTRE_NOT_COVERED}
    res = check_placement(Board(EN), CLASSIC, FULL_RACK, [(7, 7, EN.code("A"))], words())
    assert reasons_of(res) == {R.FIRST_MOVE_ONE_TILE, R.WORD_TOO_SHORT}


def test_square_occupied():
    board = Board(EN)
    put(board, "8H AT")
    res = check_placement(board, CLASSIC, FULL_RACK, [(7, 7, EN.code("B")), (7, 9, EN.code("S"))], words())
    assert R.SQUARE_OCCUPIED in res.reasons
    assert "8H" in " ".join(res.problems)


def test_same_square_twice_is_occupied():
    res = check_placement(Board(EN), CLASSIC, FULL_RACK, [(7, 7, 1), (7, 7, 2)], words())
    assert R.SQUARE_OCCUPIED in res.reasons


def test_tile_not_on_rack_real_and_blank():
    res = check(Board(EN), CLASSIC, "8H CAt", words("CAT"), rack_counts=rack(EN, "CAT"))
    assert reasons_of(res) == {R.TILE_NOT_ON_RACK}
    assert "blank" in res.problems[0]
    res = check(Board(EN), CLASSIC, "8H TATT", words("TATT"), rack_counts=rack(EN, "TAT"))
    assert reasons_of(res) == {R.TILE_NOT_ON_RACK}
    assert "expected 3, rack has 2" in res.problems[0]
    assert res.score == 8  # scored anyway: (1+1+1+1) * 2, T on the centre 2W at 8H
    res = check(Board(EN), CLASSIC, "8H CAT", words("CAT"), rack_counts=rack(EN, "C?T"))
    assert reasons_of(res) == {R.TILE_NOT_ON_RACK}  # a real A must not be taken from a blank


def test_off_board():
    res = check_placement(Board(EN), CLASSIC, FULL_RACK, [(7, 14, 1), (7, 15, 2)], words())
    assert R.OFF_BOARD in res.reasons


def test_word_too_short():
    board = Board(EN)
    put(board, "8H AT")
    # a lone tile not touching anything: not connected and forms no word
    res = check_placement(board, CLASSIC, FULL_RACK, [(0, 0, 1)], words())
    assert reasons_of(res) == {R.NOT_CONNECTED, R.WORD_TOO_SHORT}


def test_invalid_words_lists_every_word():
    board = Board(EN)
    board[7, 8] = EN.code("A")  # 8I
    board[8, 7] = EN.code("O")  # 9H
    res = check_placement(board, CLASSIC, FULL_RACK, [(8, 8, EN.code("Q"))], words())
    assert res.reasons == (R.INVALID_WORDS,)
    assert res.invalid_words == ("OQ", "AQ")
    assert "OQ at 9H across" in res.problems[0] and "AQ at I8 down" in res.problems[0]
    with pytest.raises(IllegalMoveError) as e:
        res.raise_if_illegal()
    assert e.value.words == ("OQ", "AQ")
    assert e.value.reasons == [R.INVALID_WORDS]


def test_phony_message_names_word_and_square():
    res = check(Board(EN), CLASSIC, "8G RETINAX", words(), rack_counts=rack(EN, "RETINAX"))
    assert "phony word RETINAX at 8G across" in res.problems[0]


def test_many_reasons_at_once():
    board = Board(EN)
    put(board, "8H AT")
    sq = [(0, 0, EN.code("Q")), (1, 1, EN.code("Q")), (7, 7, EN.code("Z"))]
    res = check_placement(board, CLASSIC, rack(EN, "Q"), sq, words())
    assert {R.NOT_IN_ONE_LINE, R.SQUARE_OCCUPIED, R.TILE_NOT_ON_RACK} <= set(res.reasons)
    with pytest.raises(IllegalMoveError) as e:
        res.raise_if_illegal()
    assert set(e.value.reasons) == set(res.reasons)


# -- placement tuple <-> squares ------------------------------------------------------------------


def test_placement_round_trip_through_board_tiles():
    board = Board(EN)
    put(board, "8H AT")
    sq = [(7, 9, EN.code("S")), (7, 6, EN.code("C") | BLANK_BIT)]
    p = placement_from_squares(board, sq)
    assert p == (7, 6, ACROSS, (EN.code("C") | BLANK_BIT, 0, 0, EN.code("S")))
    assert sorted(squares_from_placement(board, *p)) == sorted(sq)


def test_placement_extends_over_board_tiles_on_both_ends():
    board = Board(EN)
    board[5, 7] = EN.code("A")
    board[8, 7] = EN.code("E")
    p = placement_from_squares(board, [(6, 7, 1), (7, 7, 2)])
    assert p == (5, 7, DOWN, (0, 1, 2, 0))


def test_placement_from_squares_rejects_gap_and_line():
    with pytest.raises(IllegalMoveError) as e:
        placement_from_squares(Board(EN), [(7, 7, 1), (7, 9, 1)])
    assert e.value.reason is R.GAP
    with pytest.raises(IllegalMoveError) as e:
        placement_from_squares(Board(EN), [(7, 7, 1), (8, 8, 1)])
    assert e.value.reason is R.NOT_IN_ONE_LINE


def test_squares_from_placement_reports_every_problem():
    board = Board(EN)
    board[7, 7] = 1
    with pytest.raises(IllegalMoveError) as e:
        squares_from_placement(board, 7, 6, ACROSS, (0, 2, 3))
    assert set(e.value.reasons) == {R.GAP, R.SQUARE_OCCUPIED}
    with pytest.raises(IllegalMoveError) as e:
        squares_from_placement(board, 7, 13, ACROSS, (1, 2, 3))
    assert e.value.reason is R.OFF_BOARD

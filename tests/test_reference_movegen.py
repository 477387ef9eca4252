"""The test helpers themselves: the slow reference generator and the reference-list reader."""

from __future__ import annotations

import pytest
from refdata import group_by_position, line_key, reference_keys, split_line
from reference_movegen import move_key, reference_moves

from wordsalvo import Board, Rules
from wordsalvo.alphabet import BLANK_BIT

CLASSIC = Rules.preset("classic-en")
EN = CLASSIC.alphabet


def rack(letters: str) -> list[int]:
    counts = [0] * (EN.size + 1)
    for ch in letters:
        counts[0 if ch == "?" else EN.code(ch)] += 1
    return counts


def key(*tiles: tuple[int, int, str]):
    """key((7, 7, 'A'), (7, 8, 't')): lowercase = blank."""
    return frozenset((r, c, EN.code(ch.upper()), ch.islower()) for r, c, ch in tiles)


def test_opening_two_letters_both_directions():
    moves = reference_moves(Board(EN), CLASSIC, rack("AT"), {"AT", "TA"})
    expected = {}
    for word in ("AT", "TA"):
        for start in (6, 7):  # the word covers 8H (7, 7)
            expected[key((7, start, word[0]), (7, start + 1, word[1]))] = 4  # (1 + 1) x2 centre
            expected[key((start, 7, word[0]), (start + 1, 7, word[1]))] = 4
    assert moves == expected


def test_opening_with_blank():
    moves = reference_moves(Board(EN), CLASSIC, rack("A?"), {"AT"})
    assert set(moves) == {
        key((7, 6, "A"), (7, 7, "t")), key((7, 7, "A"), (7, 8, "t")),
        key((6, 7, "A"), (7, 7, "t")), key((7, 7, "A"), (8, 7, "t")),
    }
    assert set(moves.values()) == {2}


def test_opening_needs_two_tiles_and_the_centre():
    assert reference_moves(Board(EN), CLASSIC, rack("A"), {"AT"}) == {}


def test_blank_and_real_tile_are_different_moves():
    board = Board(EN)
    board[7, 7] = EN.code("A")
    moves = reference_moves(board, CLASSIC, rack("T?"), {"AT"})
    # T real or blank, right of A (across) or below A (down); and two-tile moves where
    # the blank is an A beside the T, making a second AT through the board A
    assert set(moves) == {
        key((7, 8, "T")), key((7, 8, "t")), key((8, 7, "T")), key((8, 7, "t")),
        key((6, 8, "a"), (7, 8, "T")), key((8, 6, "a"), (8, 7, "T")),
    }
    assert moves[key((7, 8, "T"))] == 2 and moves[key((7, 8, "t"))] == 1
    # a on 7I (2L, blank: 0) + T: AT down = 1, AT across through the board A = 2
    assert moves[key((6, 8, "a"), (7, 8, "T"))] == 3


def test_one_tile_forming_two_words_is_listed_once():
    board = Board(EN)
    board[7, 7] = EN.code("A")  # 8H
    board[8, 8] = EN.code("B")  # 9I
    moves = reference_moves(board, CLASSIC, rack("T"), {"AT", "TB"})
    # T at 9H: AT down + TB across; T at 8I: AT across + TB down
    assert moves == {key((8, 7, "T")): 2 + 4, key((7, 8, "T")): 2 + 4}


def test_cross_words_must_be_words():
    board = Board(EN)
    board[7, 7] = EN.code("A")
    board[6, 8] = EN.code("X")  # 7I, above 8I
    # AT at 8H across would form XT down: not a word, so only the down AT (H8) is legal
    moves = reference_moves(board, CLASSIC, rack("T"), {"AT"})
    assert moves == {key((8, 7, "T")): 2}


def test_two_blanks_are_interchangeable():
    moves = reference_moves(Board(EN), CLASSIC, rack("??"), {"AT"})
    assert len(moves) == 4  # 2 across + 2 down, each with both tiles blank
    assert all(all(is_blank for *_, is_blank in k) for k in moves)


def test_move_key_strips_blank_bit():
    assert move_key([(7, 7, EN.code("E") | BLANK_BIT)]) == frozenset({(7, 7, EN.code("E"), True)})


# -- refdata -------------------------------------------------------------------------------------

HAND_LINES = """\
3\t8G\tAM(I)r\t99
3\tG8\tAM\t5
3\t9H\t(I)T\t2
4\tH8\tAT\t4
"""


def test_split_and_group():
    assert split_line("1\t10L\tAM(I)r\t22") == (1, "10L", "AM(I)r", 22)
    groups = group_by_position(HAND_LINES.splitlines())
    assert sorted(groups) == [3, 4]
    assert groups[3][0] == ("8G", "AM(I)r", 99)
    with pytest.raises(ValueError, match="4 tab-separated fields"):
        split_line("1 10L AM(I)r 22")


def test_line_keys_against_board():
    board = Board(EN)
    board[7, 8] = EN.code("I")  # 8I
    assert line_key(board, "8G", "AM(I)r") == key((7, 6, "A"), (7, 7, "M"), (7, 9, "r"))
    # down and with nothing played through
    assert line_key(board, "G8", "AM") == key((7, 6, "A"), (8, 6, "M"))
    keys = reference_keys(board, group_by_position(HAND_LINES.splitlines())[3][:2])
    assert keys == {key((7, 6, "A"), (7, 7, "M"), (7, 9, "r")): 99, key((7, 6, "A"), (8, 6, "M")): 5}


def test_same_move_listed_twice_is_an_error():
    board = Board(EN)
    board[7, 7] = EN.code("A")
    board[8, 8] = EN.code("B")
    # one tile at 9H written both ways: across (T)(B) and down (A)T
    with pytest.raises(ValueError, match="listed twice"):
        reference_keys(board, [("9H", "T(B)", 6), ("H8", "(A)T", 6)])


# -- random games: every generated move survives the notation round trip ------------------------

SMALL_WORDS = set("""
AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DA DE DO ED EF EH EL EM EN ER
ES EX FA FE GO HA HE HI HM HO ID IF IN IS IT JO KA KI LA LI LO MA ME MI MO MU MY NA NE NO NU OD
OE OF OH OI OM ON OP OR OS OW OX OY PA PE PI QI RE SH SI SO TA TI TO UH UM UN UP US UT WE WO XI
XU YA YE YO ZA ACE ACT ADD AGE AGO AID AIM AIR ALE ALL AND ANT ANY APE ARE ARM ART ASH ATE AXE
BAD BAG BAN BAR BAT BED BEE BET BIG BIN BIT BOA BOX BOY BUD BUG BUS BUT BUY CAB CAN CAP CAR CAT
COT COW CRY CUB CUP CUT DAY DEN DIE DIG DIM DIN DOE DOG DOT DRY DUE EAR EAT EEL EGG ELF END ERA
EVE EYE FAN FAR FAT FEW FIG FIN FIT FLY FOE FOR FOX FUN GAS GEL GET GOD GUM GUN GUT HAT HEN HER
HID HIM HIP HIS HIT HOT HOW HUT ICE INK ION IRE ITS JAM JAR JAW JET JOB JOY KEY KID KIN LAD LAP
LAW LAY LED LEG LET LID LIE LIP LIT LOG LOT LOW MAD MAN MAP MAT MEN MET MID MIX MOB MOP MUD NAP
NET NEW NIT NOD NOR NOT NOW NUT OAK OAR OAT ODD OFF OFT OIL OLD ONE ORE OUR OUT OWE OWL OWN PAN
PAT PAW PAY PEA PEN PET PIE PIG PIN PIT POT PRO PUT RAG RAN RAT RAW RAY RED RID RIM RIP ROD ROE
ROT ROW RUB RUG RUN RUT SAD SAT SAW SAY SEA SEE SET SEW SHE SIN SIR SIT SIX SKI SKY SON SOT SOW
SUN TAN TAR TEA TEN THE TIE TIN TIP TOE TON TOO TOP TOT TOW TOY TUB TWO USE VAN VAT WAR WAS WAX
WAY WEB WET WHO WIN WIT WON YES YET ZOO ANTS ARTS CATS DOGS EAST NEST NOTE RATE REST SEAT SENT
STAR TEAR TIES TONE RAIN SNOW STONE TONES NOTES STARE RATES TEARS ONSET
""".split())


@pytest.mark.parametrize("seed", range(6))
def test_random_games_round_trip_through_notation(seed):
    import random

    from wordsalvo.notation import format_notation, parse_notation
    from wordsalvo.placement import check_placement, placement_from_squares, squares_from_placement
    from reference_movegen import random_positions

    boards = 0
    blanks_seen = 0
    for board, counts in random_positions(CLASSIC, SMALL_WORDS, random.Random(seed), max_moves=10,
                                           extra_blanks=12 * (seed % 2)):
        boards += 1
        blanks_seen += sum(1 for t in board.tiles if t & BLANK_BIT)
        moves = reference_moves(board, CLASSIC, counts, SMALL_WORDS)
        for k, score in moves.items():
            squares = [(r, c, letter | (BLANK_BIT if blank else 0)) for r, c, letter, blank in k]
            placement = placement_from_squares(board, squares)
            text = format_notation(board, *placement)
            assert parse_notation(text, board) == placement, text
            assert move_key(squares_from_placement(board, *placement)) == k
            res = check_placement(board, CLASSIC, counts, squares, SMALL_WORDS.__contains__)
            assert res.legal and res.score == score and res.placement == placement
    assert boards >= 2
    if seed % 2:
        assert blanks_seen  # the blank-rich games do put blanks on the board

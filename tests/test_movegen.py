"""The C move generator against its oracles.

* the SCOWL reference lists (MAGPIE, cross-checked by an independent checker and
  a brute-force generator): every move and score, set for set, in all 105
  positions, openings included;
* the slow pure-Python reference generator (tests/reference_movegen.py) on
  generated boards and word lists, for several rule sets and alphabets
  (blanks, two-blank racks, one-tile plays, play-through, edges, Ä Ö Ü, I/İ,
  star squares);
* best-move search: exactly the first moves of the sorted full list.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo.lexicon import graphfile
from wordsalvo._core import _engine, _graph
from wordsalvo.alphabet import BLANK_BIT, get_alphabet
from wordsalvo.board import Board
from wordsalvo.errors import WordSalvoError
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo.movegen import MoveGenerator
from wordsalvo.moves import Move
from wordsalvo.position import Position

from reference_movegen import random_positions, reference_moves
from refdata import group_by_position, read_lines, reference_keys

DATA = Path(__file__).parent / "data" / "scowl-en"


@pytest.fixture(scope="module")
def scowl():
    rules = ws.Rules.preset("classic-en")
    lex = Lexicon.default("en")
    assert len(lex) == 247_518
    gen = MoveGenerator(lex, rules)
    lines = (DATA / "positions.cgp").read_text("utf-8").splitlines()
    positions = [parse_cgp(line, rules=rules) for line in lines]
    reference = group_by_position(read_lines(DATA / "reference.tsv.gz"))
    return gen, positions, reference


def test_scowl_reference_lists_set_for_set(scowl):
    gen, positions, reference = scowl
    assert len(positions) == 105
    total = 0
    for i, pos in enumerate(positions):
        expected = reference_keys(pos.board, reference[i])
        moves = gen.generate(pos)
        got = moves.keys()
        assert len(got) == len(moves), f"position {i}: duplicate moves"
        missing = set(expected) - set(got)
        extra = set(got) - set(expected)
        wrong = {k: (expected[k], got[k]) for k in set(expected) & set(got) if expected[k] != got[k]}
        assert not missing and not extra and not wrong, (
            f"position {i}: {len(missing)} missing, {len(extra)} extra, {len(wrong)} wrong scores"
        )
        total += len(moves)
    assert total == 374_955


@pytest.mark.parametrize("wordmap", [False, True])
def test_scowl_best_move_and_top_n(scowl, wordmap):
    """Best move and top 7 on every reference position, by the graph alone and with the
    word map (span classes read from it)."""
    gen0, positions, reference = scowl
    gen = MoveGenerator(gen0.lexicon, gen0.rules, wordmap=wordmap)
    for i, pos in enumerate(positions):
        best_score = max(s for _c, _w, s in reference[i])
        best = gen.best(pos)
        assert best is not None and best.score == best_score, f"position {i}"
        full = gen.generate(pos).sorted().to_numpy()
        top = gen.top(pos, 7).to_numpy()
        assert len(top) == min(7, len(full))
        assert top.tobytes() == full[: len(top)].tobytes(), f"position {i}: top-7 differs from the sorted list"


def test_opening_lists_both_directions(scowl):
    gen, positions, _ = scowl
    pos = positions[100]
    moves = gen.generate(pos)
    recs = moves.to_numpy()
    across = {(int(r["col"]), bytes(r["tiles"]), int(r["blank_mask"]), int(r["score"])) for r in recs if r["direction"] == 0}
    down = {(int(r["row"]), bytes(r["tiles"]), int(r["blank_mask"]), int(r["score"])) for r in recs if r["direction"] == 1}
    assert across == down and len(across) * 2 == len(recs)
    assert all(r["tiles_played"] >= 2 for r in recs)


def test_records_are_clean(scowl):
    gen, positions, _ = scowl
    recs = gen.generate(positions[3]).to_numpy()
    for r in recs[:500]:
        n = int(r["length"])
        assert not r["tiles"][n:].any(), "bytes past the word must be zero"
        assert int(r["blank_mask"]) >> n == 0
        assert int(np.count_nonzero(r["tiles"][:n])) == r["tiles_played"]


def test_buffer_reuse_does_not_clobber_a_kept_result(scowl):
    gen, positions, _ = scowl
    first = gen.generate(positions[1])
    snapshot = first.to_numpy().copy()
    gen.generate(positions[2])
    assert first.to_numpy().tobytes() == snapshot.tobytes()


def test_notation_round_trip(scowl):
    gen, positions, reference = scowl
    pos = positions[1]
    lines = {f"{c} {w}": s for c, w, s in reference[1]}
    moves = gen.generate(pos)
    assert {m.notation: m.score for m in moves} == lines


# -- generated boards against the slow reference generator ------------------------

_LETTERS = {
    "en": "AEIOURSTLNDCMPBGHKWY",
    "de": "AEIOUÄÖÜRSTLNDHGMBKZ",
    "tr": "AEIİOÖUÜKLMNRTSYDIŞÇĞ",
}


def _word_list(rng: random.Random, lang: str, n: int) -> list[str]:
    letters = _LETTERS[lang]
    words = set()
    while len(words) < n:
        k = rng.choice((2, 2, 2, 3, 3, 3, 4, 4, 5, 6))
        words.add("".join(rng.choice(letters[: 8 + rng.randrange(len(letters) - 7)]) for _ in range(k)))
    return sorted(words)


def _lexicon(words: list[str], lang: str) -> Lexicon:
    data, _stats = graphfile.compile_bytes(
        ("\n".join(words) + "\n").encode("utf-8"), get_alphabet(lang), _graph
    )
    return Lexicon.from_bytes(data, name=f"<{lang} test words>")


_RULE_SETS = [("classic-en", "en"), ("wordsalvo-en", "en"), ("wordfeud-de", "de"), ("turkish", "tr")]


def _rules(name: str, rng: random.Random) -> ws.Rules:
    rules = ws.Rules.preset(name)
    if name == "turkish":
        # a star square somewhere central so that moves cover it often
        plain = [(r, c) for r in range(5, 10) for c in range(5, 10) if rules.layout[r][c] == "."]
        rules = rules.with_layout(rules.layout, star_squares=(rng.choice(plain),))
    return rules


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(_RULE_SETS) - 1))
def test_generator_matches_reference_generator(seed, which):
    rng = random.Random(seed)
    name, lang = _RULE_SETS[which]
    rules = _rules(name, rng)
    words = _word_list(rng, lang, rng.randrange(40, 160))
    lex = _lexicon(words, lang)
    gen = MoveGenerator(lex, rules)
    mapped = MoveGenerator(lex, rules, wordmap=True)
    for board, counts in random_positions(rules, words, rng, max_moves=6, extra_blanks=rng.choice((0, 0, 2))):
        # random racks, sometimes with two blanks, sometimes short
        rack = "".join("?" if c == 0 else rules.alphabet.letter(c) for c, n in enumerate(counts) for _ in range(n))
        if rng.random() < 0.3:
            rack = rack[: rng.randrange(1, 8)]
        if rng.random() < 0.2:
            rack = (rack[:5] + "??")[:7]
        pos = Position(rules, board, [rack, ""], [0, 0])
        want = reference_moves(board, rules, list(pos.rack_counts()), set(words))
        moves = gen.generate(pos)
        got = moves.keys()
        assert len(got) == len(moves), "duplicate moves"
        assert got == want, f"seed {seed} {name}: rack {rack!r}\n{board}"
        best = gen.best(pos)
        assert (best.score if best else None) == (max(want.values()) if want else None)
        full = moves.sorted().to_numpy()
        assert mapped.top(pos, 5).to_numpy().tobytes() == full[:5].tobytes(), f"seed {seed} {name}: rack {rack!r}"


def test_blank_on_board_played_through_scores_zero():
    rules = ws.Rules.preset("classic-en")
    lex = _lexicon(["AT", "CAT", "CATS", "TA"], "en")
    gen = MoveGenerator(lex, rules)
    board = ws.Board(rules.alphabet)
    board[7, 7] = rules.alphabet.code("A") | BLANK_BIT
    board[7, 8] = rules.alphabet.code("T")
    pos = Position(rules, board, ["CS", ""], [0, 0])
    moves = {m.notation: m.score for m in gen.generate(pos)}
    # C (3) on 8G (plain) + a (0) + T (1) = 4; CATS adds S on 8J (plain): 3+0+1+1 = 5
    assert moves["8G C(aT)"] == 4
    assert moves["8G C(aT)S"] == 5


def test_empty_rack_and_no_moves():
    rules = ws.Rules.preset("classic-en")
    gen = MoveGenerator(Lexicon.default("en"), rules)
    pos = Position.empty(rules, "")
    assert len(gen.generate(pos)) == 0
    assert gen.best(pos) is None
    assert len(gen.top(pos, 3)) == 0
    pos = Position.empty(rules, "Q")
    assert len(gen.generate(pos)) == 0


def test_alphabet_mismatch_is_refused():
    with pytest.raises(ws.WordSalvoError, match="alphabet"):
        MoveGenerator(Lexicon.default("en"), ws.Rules.preset("wordfeud-de"))


def test_generators_in_threads_agree(scowl):
    """The search runs with the GIL released; one generator per thread, one shared lexicon."""
    import threading

    gen0, positions, _ = scowl
    expected = [gen0.generate(p).to_numpy().tobytes() for p in positions[:20]]
    results: dict[int, list[bytes]] = {}

    def work(k: int) -> None:
        gen = MoveGenerator(gen0.lexicon, gen0.rules)
        results[k] = [gen.generate(p).to_numpy().tobytes() for p in positions[:20]]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(4))


def test_incremental_cross_sets_equal_a_fresh_generator(scowl):
    """Consecutive boards of one game reuse the cross sets of unchanged lanes: the result
    must equal a generator that sees each board for the first time."""
    gen0, _, _ = scowl
    rules, lex = gen0.rules, gen0.lexicon
    game = ws.Game(rules, lexicon=lex, seed=7)
    steady = MoveGenerator(lex, rules)
    for _ in range(12):
        if game.is_over:
            break
        pos = game.position()
        fresh = MoveGenerator(lex, rules)
        assert steady.generate(pos).keys() == fresh.generate(pos).keys()
        move = game.best_move()
        if move is None:
            game.pass_turn()
        else:
            game.play(move)


def test_boards_that_change_a_few_squares_either_way_equal_a_fresh_generator(scowl):
    """A board that differs from the last one in a few squares makes again only the cross
    sets next to the tiles around them (csrc/ws_movegen.c, set_board_squares): tiles put
    down and taken away (an undo, a board jumping back and forth through a game, a tile
    taken out of a word or a run split in two), and more changes than that path takes."""
    gen0, _, _ = scowl
    rules, lex = gen0.rules, gen0.lexicon
    game = ws.Game(rules, lexicon=lex, seed=11)
    boards = []
    while not game.is_over and len(boards) < 18:
        boards.append(game.position())
        move = game.best_move()
        game.play(move) if move is not None else game.pass_turn()
    rnd = random.Random(5)
    leaves = ws.Leaves.default(rules)
    steady = MoveGenerator(lex, rules, leaves=leaves, wordmap=True)
    for step in range(60):
        pos = boards[rnd.randrange(len(boards))]
        pos = Position(rules, pos.board.copy(), pos.racks, pos.scores, 0, to_move=pos.to_move)
        tiles = pos.board.tiles
        occupied = [i for i in range(225) if tiles[i]]
        for i in rnd.sample(occupied, min(len(occupied), rnd.randrange(4))):
            tiles[i] = 0  # a tile taken away: its word split, or shortened
        if step % 3 == 0:  # a tile or two put down next to others
            for _ in range(rnd.randrange(1, 3)):
                i = rnd.randrange(225)
                if not tiles[i]:
                    tiles[i] = rnd.randrange(1, 27)
        fresh = MoveGenerator(lex, rules, leaves=leaves, wordmap=True)
        assert steady.generate(pos).keys() == fresh.generate(pos).keys(), step
        assert steady.best(pos, by="equity") == fresh.best(pos, by="equity"), step


def test_cross_sets_remembered_across_boards_equal_a_fresh_generator(scowl):
    """A generator remembers cross sets by the perpendicular word around a square over
    every board it sees (csrc/ws_movegen.c, cross_from_line): boards of the reference
    positions in a shuffled order, some with tiles taken away, give the board data and
    the moves of a generator that sees each board first."""
    gen0, positions, _ = scowl
    rules, lex = gen0.rules, gen0.lexicon
    rnd = random.Random(9)
    steady = MoveGenerator(lex, rules)
    for step in range(300):
        pos = positions[rnd.randrange(len(positions))]
        if step % 2:
            pos = Position(rules, pos.board.copy(), pos.racks, pos.scores, 0, to_move=pos.to_move)
            occupied = [i for i in range(225) if pos.board.tiles[i]]
            for i in rnd.sample(occupied, min(len(occupied), rnd.randrange(1, 6))):
                pos.board.tiles[i] = 0
        fresh = MoveGenerator(lex, rules)
        assert steady.generate(pos).to_numpy().tobytes() == fresh.generate(pos).to_numpy().tobytes(), step
        assert steady._gen.board_data() == fresh._gen.board_data(), step


def test_best_by_score_is_the_move_its_fields_make(scowl):
    """best(pos) by score takes its move from Generator.best_one_move (the codes with
    their blank bits, made in C) and fills the Move in one call (Move._scored): the same
    move, field for field, as best_one_at's fields give through Move()."""
    gen, positions, _ = scowl
    alphabet, blanks = gen.rules.alphabet, 0
    for i, pos in enumerate(positions):
        tiles, counts = bytes(pos.board.tiles), pos.rack_counts()
        fields = gen._gen.best_one_at(tiles, counts)
        quick = gen._gen.best_one_move(tiles, counts)
        assert gen._gen.best_one_move(bytearray(tiles), bytearray(counts)) == quick, i  # the buffer path
        best = gen.best(pos)
        if fields is None:
            assert quick is None and best is None, i
            continue
        score, mask, row, col, direction, length, _played, raw = fields
        codes = tuple(raw[k] | (BLANK_BIT if mask >> k & 1 else 0) for k in range(length))
        blanks += mask != 0
        assert quick == (score, row, col, direction, codes), i
        made = Move(row, col, direction, codes, score, tiles, alphabet, rack_size=gen.rules.rack_size)
        assert best == made and hash(best) == hash(made), i
        for name in Move.__slots__:
            assert getattr(best, name) == getattr(made, name), (i, name)
        assert best.notation == made.notation and best.leave is None and best.equity is None
        with pytest.raises(AttributeError):
            best.score = 0
    assert blanks > 0  # blank bits made in C were checked
    with pytest.raises(ws.PositionError, match="board"):
        gen._gen.best_one_move(b"\0" * 224, bytes(33))
    with pytest.raises(ws.PositionError, match="rack"):
        gen._gen.best_one_move(bytes(225), "AB")
    with pytest.raises(WordSalvoError, match="as many values"):
        _engine.set_fields(best, ("row",), ())


def test_board_edited_with_a_bad_code_is_a_position_error():
    rules = ws.Rules.preset("classic-en")
    gen = MoveGenerator(Lexicon.default("en"), rules)
    pos = Position.empty(rules, "AEINRST")
    pos.board.tiles[112] = 60  # no such letter
    with pytest.raises(ws.PositionError, match="outside the alphabet"):
        gen.generate(pos)
    pos.board.tiles[112] = 0
    assert len(gen.generate(pos)) > 0  # the generator is still usable


@pytest.mark.parametrize("wordmap", [False, True])
def test_best_with_a_large_n_equals_the_sorted_list(scowl, wordmap):
    gen0, positions, _ = scowl
    gen = MoveGenerator(gen0.lexicon, gen0.rules, wordmap=wordmap)
    pos = positions[2]
    full = gen.generate(pos).sorted().to_numpy()
    for n in (200, 256, 300, len(full) + 10):
        got = gen.top(pos, n).to_numpy()
        assert got.tobytes() == full[:n].tobytes()
    # the bounded search itself with many moves wanted (best() sorts the list above 256)
    gen._prepare_best()
    gen._load(pos, None)
    assert gen._gen.best(len(full) + 10).tobytes() == full.tobytes()


def test_cgp_board_opcodes_apply_to_given_rules_and_the_generator_checks_them():
    """A position's stars/bseed opcodes are part of its board, also when rules are given;
    a generator refuses a position whose rules score differently."""
    turkish = ws.Rules.preset("turkish")
    line = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEİLNRT/ 0/0 0 rs turkish; stars 7,8;"
    pos = parse_cgp(line, rules=turkish)
    assert pos.rules.star_squares == ((7, 8),)
    gen = MoveGenerator(Lexicon.default("tr"), pos.rules)
    moves = {m.notation: m.score for m in gen.generate(pos)}
    assert moves["8H EL"] == 4 + 25  # E1 L1 on plain squares, doubled by the 2W centre, plus the star
    with pytest.raises(ws.WordSalvoError, match="score differently"):
        MoveGenerator(Lexicon.default("tr"), turkish).generate(pos)
    with pytest.raises(ws.PositionError, match="rule set 'turkish'"):
        parse_cgp(line, rules=ws.Rules.preset("classic-en"))


def test_heaviest_play_the_rule_limits_allow_does_not_wrap():
    """Every rule value at the largest Rules accepts (tile values 100, every square 3W,
    bingo bonus 1000): a 15-letter bingo through 8 board tiles, each new tile also
    forming a 15-letter cross word, scores 1500 * 3**7 + 7 * 4500 + 1000, far past
    int16.  The C record holds it exactly, and the Python scorer agrees."""
    from wordsalvo.board import Board
    from wordsalvo.placement import check_placement

    classic = ws.Rules.preset("classic-en")
    alphabet = classic.alphabet
    tiles = {x: (0, 1) for x in alphabet.letters}
    tiles.update({"A": (100, 100), "B": (100, 100), "C": (100, 100), "?": (2, 0)})
    rules = ws.Rules(name="heaviest", alphabet=alphabet, layout=("W" * 15,) * 15, tiles=tiles,
                     bingo_bonus=1000, star_bonus=1000)

    def letter(r: int, c: int) -> str:
        return "ABC"[(r + c) % 3]

    # the board is full but for the 7 odd squares of row 7 (at most 75 tiles of a letter)
    new = [(7, c) for c in range(1, 15, 2)]
    board = Board(alphabet)
    for r in range(15):
        for c in range(15):
            if (r, c) not in new:
                board[r, c] = alphabet.code(letter(r, c))
    words = {"".join(letter(7, c) for c in range(15))}
    words |= {"".join(letter(r, c) for r in range(15)) for _r, c in new}
    lex = _lexicon(sorted(words), "en")
    rack = "".join(letter(r, c) for r, c in new)
    pos = Position(rules, board, [rack, ""], [0, 0])
    gen = MoveGenerator(lex, rules)

    want = 1500 * 3**7 + 7 * 4500 + 1000
    assert want == 3_313_000 > 2**15
    best = gen.best(pos)
    assert best is not None and best.score == want
    assert sorted(best.squares()) == [(r, c, alphabet.code(letter(r, c))) for r, c in new]
    oracle = check_placement(pos.board, rules, list(pos.rack_counts()), best.squares(), lambda w: w in words,
                             first_move=False)
    assert oracle.legal and oracle.score == want
    moves = gen.generate(pos)
    assert int(moves.scores.max()) == want and moves.scores.dtype == np.int32
    # the C best-first order and MoveList.order() agree on this list too
    assert gen.top(pos, 20).to_numpy().tobytes() == moves.top(20).to_numpy().tobytes()


def test_core_constants_are_the_header_values():
    """CORE_CONSTANTS (compiled values) equals the #defines of csrc/ws_defs.h read as
    text, and the word-list line codes agree with alphabet.LINE_*."""
    import re

    from wordsalvo import alphabet
    from wordsalvo._core._engine import CORE_CONSTANTS

    header = (Path(__file__).parent.parent / "csrc" / "ws_defs.h").read_text("utf-8")
    defines: dict[str, int] = {}
    for name, expr in re.findall(r"^#define WS_(\w+) (.+)$", header, re.M):
        expr = re.sub(r"\b(0x[0-9A-Fa-f]+|\d+)u\b", r"\1", expr.split("/*")[0])
        defines[name] = eval(re.sub(r"\bWS_(\w+)", lambda m: str(defines[m.group(1)]), expr))  # noqa: S307
    assert set(CORE_CONSTANTS) <= set(defines)
    assert CORE_CONSTANTS == {name: defines[name] for name in CORE_CONSTANTS}
    expected = {"DIM", "SQUARES", "MAX_LETTERS", "RACK_MAX", "BLANK_BIT", "LETTER_MASK", "MIN_WORD", "MAX_WORD",
                "OK", "E_NOMEM", "E_CAPACITY", "E_FORMAT", "E_TOO_BIG", "E_ARGUMENT", "MAX_NODES"}
    expected |= {n for n in defines if n.startswith(("LINE_", "NODE_"))}
    assert set(CORE_CONSTANTS) == expected
    for name in (n for n in CORE_CONSTANTS if n.startswith("LINE_")):
        assert getattr(alphabet, name) == CORE_CONSTANTS[name], name


def test_word_map_is_built_when_it_pays():
    """wordmap=None builds the lexicon's word map once its searches without it took as long
    as the build would, then every generator of the lexicon uses it; True builds it on
    the first search, False never; a map of another graph is refused."""
    rng = random.Random(5)
    words = _word_list(rng, "en", 120)
    rules = ws.Rules.preset("classic-en")
    pos = Position(rules, Board(rules.alphabet), ["AEINRST", ""], [0, 0])
    lex = _lexicon(words, "en")
    graph = lex._graph
    auto, never = MoveGenerator(lex, rules), MoveGenerator(lex, rules, wordmap=False)
    first = auto.best(pos)
    assert graph._wordmap is None and not auto._gen.has_wordmap and graph._wordmap_rent > 0
    graph._wordmap_rent = auto._wordmap_price()  # as if the searches had taken that long
    assert auto.best(pos).key() == first.key()
    assert graph._wordmap is not None and auto._gen.has_wordmap
    assert never.best(pos).key() == first.key() and not never._gen.has_wordmap
    other = MoveGenerator(lex, rules)  # the lexicon's map is shared at once
    other.best(pos)
    assert other._gen.has_wordmap
    eager_lex = _lexicon(words, "en")
    eager = MoveGenerator(eager_lex, rules, wordmap=True)
    assert eager.best(pos).key() == first.key() and eager._gen.has_wordmap
    with pytest.raises(WordSalvoError, match="another graph"):
        never._gen.use_wordmap(eager_lex._graph._wordmap)
    with pytest.raises(WordSalvoError, match="wordmap"):
        MoveGenerator(lex, rules, wordmap="yes")

"""Hostile input and long runs (issue 13): each reproducer of the outside probe, tried
again, gets a clear WordSalvoError or the right answer.

1. the heaviest rules the loader accepts score without wrapping (generate, best,
   validate and analyze_game agree);
2. file names the OS refuses and missing files, in the loaders and every command;
3. numbers over 4,300 digits; 4. superscript and other non-ASCII digits;
5. CGP fields read strictly, every accepted line round-trips;
6. a word list too large for the graph format; 7. absurd player counts;
8. a graph header's word count against the graph, halves that disagree;
9. orphan temporary files of killed writes, pickling by reference;
10. endless rule files, message lengths, argument types, cross_set bounds,
    duplicate star squares.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

import wordsalvo as ws
from wordsalvo import Game, Lexicon, MoveGenerator, Position, Rules
from wordsalvo.lexicon import graphfile
from wordsalvo._core import _graph
from wordsalvo.alphabet import get_alphabet
from wordsalvo.analysis import analyze_game
from wordsalvo.errors import (GameError, LexiconBuildError, LexiconFormatError, NotationError, PositionError,
                              RulesError, WordSalvoError)
from wordsalvo.formats.cgp import format_cgp, parse_cgp
from wordsalvo.formats.gcg import from_gcg, parse_gcg, to_gcg
from wordsalvo.inputs import checked_path, excerpt, is_file, whole_number
from wordsalvo.lexicon.lexicon import compile_lexicon

PRESETS = Path(ws.__file__).parent / "rulesets"
EMPTY = "/".join(["15"] * 15)
CLASSIC = Rules.preset("classic-en")
LONG_NAME = "x" * 300
HEADER = graphfile.HEADER_SIZE


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wordsalvo", *args], capture_output=True, text=True,
                          input=stdin, timeout=120)


def small_lexicon_bytes(words: list[str], lang: str = "en") -> bytes:
    data, _stats = graphfile.compile_bytes(("\n".join(words) + "\n").encode(), get_alphabet(lang), _graph)
    return data


# -- 1. the heaviest rules -------------------------------------------------------------------
def heaviest_rules_text() -> str:
    """classic-en with every rule value at the most the loader accepts: every square 3W,
    every tile worth 100, bingo bonus 1000."""
    text = (PRESETS / "classic-en.toml").read_text("utf-8")
    head, _, rest = text.partition('layout = """')
    _layout, _, rest = rest.partition('"""')
    text = head + 'layout = """\n' + "\n".join([" ".join("W" * 15)] * 15) + '\n"""' + rest
    lines = []
    for line in text.splitlines():
        key = line.split("=")[0].strip().strip('"')
        if line.startswith("name ="):
            line = 'name = "heaviest"'
        elif line.startswith("bingo_bonus ="):
            line = "bingo_bonus = 1000"
        elif (len(key) == 1 and key.isalpha()) and "= [" in line:
            count = line.split("[")[1].split(",")[0]
            line = f"{key} = [{count}, 100]"
        lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def heaviest(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "heaviest.toml"
    path.write_text(heaviest_rules_text(), "utf-8")
    rules = Rules.load(path)
    assert rules.bingo_bonus == 1000 and set(rules.letter_multipliers) == {1}
    assert set(rules.word_multipliers) == {3} and rules.value("Q") == rules.value("A") == 100
    return rules


def test_heaviest_loaded_rules_score_without_wrapping(heaviest):
    """JUKEBOX on an empty board of 3W squares: 7 * 100 * 3**7 + 1000 = 1,531,900 (the
    old int16 record listed it at a negative score and best() chose another move)."""
    gen = MoveGenerator(Lexicon.default("en"), heaviest)
    pos = Position.empty(heaviest, rack="JUKEBOX")
    want = 7 * 100 * 3**7 + 1000
    assert want > 2**16
    move = gen.validate(pos, "8H JUKEBOX")
    assert move.score == want
    moves = gen.generate(pos)
    listed = {m.notation: m.score for m in moves}
    assert listed["8H JUKEBOX"] == want
    assert min(listed.values()) > 0
    best = gen.best(pos)
    assert best.score == max(listed.values()) == want
    # a 15-letter play across a full row of 3W squares: 15 * 100 * 3**15 is the format's
    # largest main word; every generated move validates to the score it was listed with
    for m in list(moves)[:200]:
        assert gen.validate(pos, m.notation).score == m.score


def test_heaviest_rules_seeded_game_analyses(heaviest):
    """A seeded game on those rules, best move each turn, recorded as GCG, replayed and
    analysed: every played move is among the generator's moves at its score."""
    lex = Lexicon.default("en")
    game = Game(heaviest, lex, seed=13)
    for _turn in range(14):  # the best move each turn: scores climb fast on 3W squares
        if game.is_over:
            break
        move = game.best_move()
        game.play(move) if move is not None else game.pass_turn()
    assert max(game.scores) > 2**15
    text = to_gcg(game)
    replayed = from_gcg(text, rules=heaviest, lexicon=lex)
    assert replayed.scores == game.scores
    analysis = analyze_game(text, lexicon=lex, rules=heaviest, win=False)
    plays = [t for t in analysis.to_dict()["turns"] if t["kind"] == "play"]
    assert plays and all(t["score"] > 0 for t in plays)


# -- 2. file names -----------------------------------------------------------------------------
@pytest.mark.parametrize("name, problem", [
    (LONG_NAME, "255"), ("a\x00b.wsg", "NUL"), ("", "empty"), (f"{'d' * 10}/{'y' * 256}", "255"),
])
def test_names_the_os_refuses_are_wordsalvo_errors(name, problem, tmp_path):
    with pytest.raises(LexiconFormatError, match=problem):
        Lexicon.load(name)
    with pytest.raises(RulesError, match=problem):
        Rules.load(name)
    src = tmp_path / "w.txt"
    src.write_text("AB\nBA\n")
    with pytest.raises(LexiconBuildError, match=problem):
        compile_lexicon(name, tmp_path / "out.wsg")
    with pytest.raises(LexiconBuildError, match=problem):
        compile_lexicon(src, name)
    with pytest.raises(WordSalvoError, match=problem):
        graphfile.write_atomic(name, b"x")
    assert not is_file(name)
    with pytest.raises(WordSalvoError):
        checked_path(name)


def test_missing_files_say_no_such_file(tmp_path):
    missing = tmp_path / "nope"
    for call in (lambda: Lexicon.load(missing), lambda: Rules.load(missing),
                 lambda: compile_lexicon(missing, tmp_path / "o.wsg")):
        with pytest.raises(WordSalvoError, match=f"^no such file: {missing}$"):
            call()


def test_every_command_names_a_bad_file_name(tmp_path):
    """No traceback: each ends with exit status 2 and one 'error:' line."""
    words = tmp_path / "w.txt"
    words.write_text("AB\nBA\n")
    cases = [
        (["lexicon", "build", LONG_NAME, "-o", str(tmp_path / "o.wsg")], "255"),
        (["lexicon", "build", str(words), "-o", ""], "empty"),
        (["lexicon", "build", str(words), "-o", LONG_NAME], "255"),
        (["lexicon", "info", LONG_NAME], "255"),
        (["lexicon", "info", str(tmp_path / "missing.wsg")], "no such file"),
        (["best", LONG_NAME], "255"),
        (["validate", LONG_NAME, "8H AB"], "255"),
        (["best", "--rules", LONG_NAME], "expected a rule set name"),
        (["best", "--rules", LONG_NAME + ".toml"], "255"),
        (["best", "--rules", str(tmp_path / "missing.toml")], "no such file"),
        (["best", "--rack", "AB", "--lexicon", LONG_NAME], "255"),
        (["best", "--rack", "AB", "--lexicon", str(tmp_path / "missing.wsg")], "no such file"),
        (["moves", str(tmp_path / "missing.cgp")], "no such file"),
        (["board", "--rules", LONG_NAME + ".toml"], "255"),
        (["analyze", LONG_NAME], "255"),
    ]
    for args, fragment in cases:
        r = run_cli(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert "Traceback" not in r.stderr and fragment in r.stderr, (args, r.stderr)
        assert r.stderr.count("\n") == 1, (args, r.stderr)


# -- 3, 4. numbers ---------------------------------------------------------------------------
HUGE = "9" * 4400


def test_huge_numbers_are_clear_errors():
    gen = MoveGenerator(Lexicon.default("en"), CLASSIC)
    with pytest.raises(NotationError, match="row 1..15"):
        gen.validate(Position.empty(CLASSIC, rack="AB"), HUGE + "H AB")
    game = Game(CLASSIC, seed=1)
    with pytest.raises(NotationError):
        game.preview(HUGE + "H AB")
    with pytest.raises(NotationError):
        game.play(HUGE + "H AB")
    assert not game.history
    for tail, fragment in ((f"0/0 0 rs turkish; stars {HUGE},5;", "stars"), (f"0/0 0 bb {HUGE};", "bb"),
                           (f"0/0 0 rs wordsalvo-en; bseed {HUGE};", "bseed"), (f"{HUGE}/0 0", "scores"),
                           (f"0/0 {HUGE}", "scoreless")):
        with pytest.raises(PositionError, match=fragment):
            parse_cgp(f"{EMPTY} ABC/DEF {tail}")
    gcg = to_gcg(Game(CLASSIC, seed=2))
    with pytest.raises(WordSalvoError, match="seed"):
        from_gcg(gcg.replace("#seed 2", f"#seed {HUGE}"))
    game = Game(CLASSIC, seed=2)
    game.play(game.best_move())
    line = [ln for ln in to_gcg(game).splitlines() if ln.startswith(">")][0]
    total = line.split()[-1]
    with pytest.raises(WordSalvoError, match="score"):
        from_gcg(to_gcg(game).replace(line, line[: -len(total)] + HUGE))
    with pytest.raises(WordSalvoError):
        parse_gcg(to_gcg(game).replace(line, line[: -len(total)] + HUGE)).events  # noqa: B018


@pytest.mark.parametrize("digit", ["\u00b2", "\u0663", "\u2167", "\uff15"])
def test_non_ascii_digits_are_clear_errors(digit):
    with pytest.raises(PositionError, match="stars"):
        parse_cgp(f"{EMPTY} ABC/DEF 0/0 0 rs turkish; stars 3,5{digit};")
    text = to_gcg(Game(Rules.preset("turkish"), seed=3))
    with pytest.raises(WordSalvoError, match="stars"):
        from_gcg(text.replace("#stars ", f"#stars 3,5{digit} ", 1) if "#stars" in text
                 else text + f"#stars 3,5{digit}\n")
    with pytest.raises(WordSalvoError):
        MoveGenerator(Lexicon.default("en"), CLASSIC).validate(Position.empty(CLASSIC, rack="AB"), f"{digit}H AB")
    with pytest.raises(PositionError):
        parse_cgp(f"{EMPTY} ABC/DEF 0/{digit} 0")


def test_whole_number_helper():
    assert whole_number("-12", "x", signed=True) == -12
    for bad in ("", "+", "1" * 19, "1²", "١", " 1", "1.0"):
        with pytest.raises(WordSalvoError, match="ASCII digits"):
            whole_number(bad, "x")
    with pytest.raises(WordSalvoError, match="0..9"):
        whole_number("10", "x", low=0, high=9)


# -- 5. CGP fields -----------------------------------------------------------------------------
def test_cgp_fields_are_read_strictly():
    pos = parse_cgp(f"{EMPTY} AEINRST 57 3 lex x;")
    assert pos.scores == [57] and pos.scoreless_count == 3 and pos.opcodes == {"lex": "x"}
    for tail, fragment in (("ABC DEF GHI/JKL 10/20 0 lex x;", "scores.*'DEF'"),
                           ("ABC/DEF 10/20 3x lex x;", "scoreless turns"), ("ABC/DEF 10/20 0 57 3;", "opcode name"),
                           ("ABC/DEF 10/20 0 lex a; lex b;", "one lex opcode"), ("ABC/DEF 10 0", "2 scores")):
        with pytest.raises(PositionError, match=fragment):
            parse_cgp(f"{EMPTY} {tail}")


@pytest.mark.parametrize("line", [
    f"{EMPTY} AEINRST",
    f"{EMPTY} AEINRST 57 3 lex x;",
    f"{EMPTY} ABC/DEF",
    f"{EMPTY} /",
    f"{EMPTY} ABC/ 10/-20",
    f"{EMPTY} ABC/DEF/G?H 1/2/3 4 lex CSW24; note a b c;",
    f"{EMPTY}\tABC/DEF\t+5/6\t1\tbb 50;",
])
def test_every_accepted_cgp_line_round_trips(line):
    pos = parse_cgp(line)
    again = parse_cgp(format_cgp(pos))
    assert (again.racks, again.scores, again.scoreless_count, bytes(again.board.tiles)) == \
        (pos.racks, pos.scores, pos.scoreless_count, bytes(pos.board.tiles))
    assert format_cgp(again) == format_cgp(pos)


# -- 6. a word list too large ------------------------------------------------------------------
@pytest.mark.slow
def test_word_list_too_large_for_the_graph_stops_early(tmp_path):
    """1.3 million random 15-letter words need more graph nodes than a 24-bit index
    addresses: the build says so, in seconds (it stops when the states cannot fit)."""
    rng = random.Random(1)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    src = tmp_path / "big.txt"
    src.write_text("\n".join("".join(rng.choices(letters, k=15)) for _ in range(1_300_000)) + "\n")
    t0 = time.perf_counter()
    with pytest.raises(LexiconBuildError, match="more than 16,777,216 nodes"):
        compile_lexicon(src, tmp_path / "big.wsg")
    assert not (tmp_path / "big.wsg").exists()
    assert time.perf_counter() - t0 < 120  # generous: the old build needed minutes and 4 GB


# -- 7. player counts --------------------------------------------------------------------------
@pytest.mark.parametrize("players, got", [(10**9, "got 1000000000"), (-1, "got -1"), (0, "got 0"), (1, "got 1")])
def test_player_count_is_checked_before_anything_is_made(players, got):
    t0 = time.perf_counter()
    with pytest.raises(GameError, match=f"expected 2..4 players, {got}$"):
        Game(CLASSIC, players=players)
    assert time.perf_counter() - t0 < 5


# -- 8. graph headers and halves ---------------------------------------------------------------
def _refix(b: bytearray) -> bytes:
    nodes = memoryview(bytes(b[HEADER:])).cast("I")
    s, wsum = _graph.checksum(nodes)
    struct.pack_into("<QQ", b, 40, s, wsum)
    struct.pack_into("<I", b, 252, graphfile.fnv1a32(bytes(b[:252])))
    return bytes(b)


WORDS = ["AB", "ABA", "BA", "BAA", "CAB", "CABS", "SCAB", "TAB", "TABS", "BAT", "BATS", "STAB"]


def test_header_word_count_is_checked_against_the_graph():
    data = bytearray(small_lexicon_bytes(WORDS))
    assert len(Lexicon.from_bytes(bytes(data))) == len(WORDS)
    struct.pack_into("<I", data, graphfile.WORD_COUNT_OFFSET, 2**32 - 1)
    with pytest.raises(LexiconFormatError, match="promises 4,294,967,295 words, the graph holds 12") as e:
        Lexicon.from_bytes(_refix(data), name="<claims>")
    assert e.value.offset == graphfile.WORD_COUNT_OFFSET
    data = bytearray(small_lexicon_bytes(WORDS))
    struct.pack_into("<I", data, graphfile.LONGEST_OFFSET, 15)
    with pytest.raises(LexiconFormatError, match="longest word"):
        Lexicon.from_bytes(_refix(data))


def test_halves_that_disagree_are_refused():
    """Every accepting GADDAG arc whose 'accepts' bit is flipped off (checksums repaired)
    is caught: the path counts or a word's splits no longer agree."""
    data = small_lexicon_bytes(WORDS)
    nodes = memoryview(data[HEADER:]).cast("I")
    gaddag_root = nodes[1] & 0xFFFFFF
    flipped = 0
    for j in range(2, len(nodes)):
        if not nodes[j] & (1 << 25) or j < gaddag_root:
            continue
        b = bytearray(data)
        struct.pack_into("<I", b, HEADER + 4 * j, nodes[j] ^ (1 << 25))
        try:
            lex = Lexicon.from_bytes(_refix(b), name="<halves>")
        except LexiconFormatError as e:
            assert "<halves>" in str(e)
            flipped += 1
            continue
        gen = MoveGenerator(lex, CLASSIC)  # loaded: then the generator must agree with itself
        pos = Position.empty(CLASSIC, rack="ABCST")
        best, every = gen.best(pos), gen.generate(pos)
        assert (best.score if best else None) == (max(m.score for m in every) if len(every) else None)
    assert flipped > 5


def test_a_cycle_in_the_graph_is_refused():
    data = bytearray(small_lexicon_bytes(WORDS))
    nodes = memoryview(bytes(data[HEADER:])).cast("I")
    root = nodes[0] & 0xFFFFFF
    # the first DAWG arc with a child points back to its own list
    j = next(i for i in range(root, len(nodes)) if nodes[i] & 0xFFFFFF)
    struct.pack_into("<I", data, HEADER + 4 * j, (nodes[j] & ~0xFFFFFF) | root)
    with pytest.raises(LexiconFormatError, match="cycle|longer than|disagree|promises"):
        Lexicon.from_bytes(_refix(data))


def test_a_graph_file_is_checked_word_by_word_once_per_content(tmp_path, monkeypatch):
    """Lexicon.load remembers a content that passed the word-level check by its sha256 (in
    the cache folder); the same bytes load again with the arc and checksum checks alone,
    any other bytes (a crafted cycle that passes those) are checked in full and refused."""
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path / "cache"))
    good = small_lexicon_bytes(WORDS)
    path = tmp_path / "words.wsg"
    path.write_bytes(good)
    assert Lexicon.load(path)._graph.words_cross_checked == len(WORDS)
    assert [m.name.split("-")[0] for m in (tmp_path / "cache" / "verified").iterdir()] == ["words1"]
    again = Lexicon.load(path)
    assert again._graph.words_cross_checked == 0 and len(again) == len(WORDS) and "CABS" in again
    copy = tmp_path / "copy.wsg"  # the same content elsewhere
    copy.write_bytes(good)
    assert Lexicon.load(copy)._graph.words_cross_checked == 0
    # the cycle of test_a_cycle_in_the_graph_is_refused, with its checksums repaired
    data = bytearray(good)
    nodes = memoryview(bytes(data[HEADER:])).cast("I")
    root = nodes[0] & 0xFFFFFF
    j = next(i for i in range(root, len(nodes)) if nodes[i] & 0xFFFFFF)
    struct.pack_into("<I", data, HEADER + 4 * j, (nodes[j] & ~0xFFFFFF) | root)
    path.write_bytes(_refix(data))
    for _ in range(2):  # refused, and never remembered
        with pytest.raises(LexiconFormatError, match="cycle|longer than|disagree|promises"):
            Lexicon.load(path)
    assert len(list((tmp_path / "cache" / "verified").iterdir())) == 1
    # a cache folder that cannot be written costs the check again, never the load
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path / "file-not-folder"))
    (tmp_path / "file-not-folder").write_text("x")
    path.write_bytes(good)
    assert Lexicon.load(path)._graph.words_cross_checked == len(WORDS)
    assert Lexicon.load(path)._graph.words_cross_checked == len(WORDS)


# -- 9. interrupted writes, pickling -----------------------------------------------------------
def test_orphans_of_killed_writers_are_removed(tmp_path):
    target = tmp_path / "out.wsg"
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    live = tmp_path / f"out.wsg.{child.pid}-abcd1234.tmp"
    live.write_bytes(b"live")
    child.kill()
    child.wait()
    dead_pid = child.pid  # now gone
    dead = tmp_path / f"out.wsg.{dead_pid}-zzzz9999.tmp"
    dead.write_bytes(b"orphan")
    old = tmp_path / "out.wsg.k3j4h5g6.tmp"  # an older writer's name, without a pid
    old.write_bytes(b"old")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    fresh = tmp_path / "out.wsg.a1b2c3d4.tmp"
    fresh.write_bytes(b"fresh")
    other = tmp_path / "other.wsg.1-x.tmp"
    other.write_bytes(b"someone else's")
    graphfile.write_atomic(target, b"data")
    assert target.read_bytes() == b"data"
    assert not dead.exists() and not live.exists() and not old.exists()
    assert fresh.exists() and other.exists()
    # a running writer's temporary file stays
    mine = tmp_path / f"out.wsg.{os.getpid()}-qqqq.tmp"
    mine.write_bytes(b"mine")
    graphfile.write_atomic(target, b"data2")
    assert mine.exists()


def test_kill_during_a_build_leaves_nothing_after_the_next_one(tmp_path):
    """kill -9 in the middle of compile_lexicon's write, then a second build: no
    temporary file is left beside the graph."""
    src = tmp_path / "w.txt"
    src.write_text("\n".join(f"A{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676 % 26)}"
                             for i in range(60000)) + "\n")
    dest = tmp_path / "g.wsg"
    code = ("import os, signal, sys\n"
            "from wordsalvo.lexicon import graphfile\n"
            "real = os.replace\n"
            "def die(a, b):\n"
            "    os.kill(os.getpid(), signal.SIGKILL)\n"
            "os.replace = die\n"
            "from wordsalvo.lexicon.lexicon import compile_lexicon\n"
            f"compile_lexicon({str(src)!r}, {str(dest)!r})\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert r.returncode == -signal.SIGKILL
    assert list(tmp_path.glob("g.wsg.*.tmp")) and not dest.exists()
    compile_lexicon(src, dest)
    assert dest.exists() and not list(tmp_path.glob("g.wsg.*.tmp"))


def test_lexicon_generator_and_game_pickle_by_reference(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("\n".join(WORDS) + "\n")
    path = tmp_path / "small.wsg"
    compile_lexicon(src, path)
    from_file = Lexicon.load(path)
    assert list(pickle.loads(pickle.dumps(from_file))) == list(from_file)
    assert len(pickle.dumps(from_file)) < 1000  # the path, not the graph
    embedded = Lexicon.default("en")
    assert pickle.loads(pickle.dumps(embedded)) is embedded
    raw = Lexicon.from_bytes(path.read_bytes())
    assert list(pickle.loads(pickle.dumps(raw))) == sorted(WORDS)
    gen = MoveGenerator(embedded, CLASSIC)
    pos = Position.empty(CLASSIC, rack="AEINRST")
    assert pickle.loads(pickle.dumps(gen)).best(pos).notation == gen.best(pos).notation
    game = Game(CLASSIC, seed=5)
    game.play(game.best_move())
    copy = pickle.loads(pickle.dumps(game))
    assert (copy.scores, copy.racks, copy.bag) == (game.scores, game.racks, game.bag)
    assert copy.play(copy.best_move()).score == game.play(game.best_move()).score
    assert to_gcg(copy) == to_gcg(game)
    # the file changed under the pickle: refused, not silently another lexicon
    blob = pickle.dumps(from_file)
    src.write_text("\n".join(WORDS + ["ZA"]) + "\n")
    compile_lexicon(src, path)
    with pytest.raises(LexiconFormatError, match="another word list"):
        pickle.loads(blob)


# -- 10. smaller -------------------------------------------------------------------------------
def test_rule_file_in_which_passing_never_ends_is_refused():
    text = (PRESETS / "classic-en.toml").read_text("utf-8").replace("scoreless_turns = 6", "scoreless_turns = 0")
    with pytest.raises(RulesError, match="players who pass would play forever"):
        Rules.from_toml(text)
    for name in ws.rules.preset_names():
        Rules.preset(name)


def test_messages_quote_excerpts_of_huge_inputs():
    big = "A" * 10_000_000
    for call in (lambda: parse_cgp(big), lambda: parse_cgp(f"{EMPTY} {big}"),
                 lambda: parse_cgp(f"{EMPTY} AB/CD 0/0 0 {big}"),
                 lambda: MoveGenerator(Lexicon.default("en"), CLASSIC).validate(Position.empty(CLASSIC), big),
                 lambda: MoveGenerator(Lexicon.default("en"), CLASSIC).validate(Position.empty(CLASSIC), "8H " + big),
                 lambda: from_gcg(big), lambda: Rules.from_toml(f'name = "{big}"'), lambda: Rules.preset(big)):
        with pytest.raises(WordSalvoError) as e:
            call()
        assert len(str(e.value)) < 2000, str(e.value)[:300]
    assert excerpt("x" * 1000).endswith("(1,000 characters)")


def test_build_report_cuts_long_example_lines(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("AB\n" + "Q" * 10_000 + "\nB-A\n")
    stats = compile_lexicon(src, tmp_path / "o.wsg")
    report = stats.report()
    assert max(len(line) for line in report.splitlines()) < 400, report


def test_argument_types_give_clear_errors():
    gen = MoveGenerator(Lexicon.default("en"), CLASSIC)
    pos = Position.empty(CLASSIC, rack="ABC")
    with pytest.raises(WordSalvoError, match="n: expected a whole number >= 1 or None, got '3'"):
        gen.top(pos, "3")
    with pytest.raises(PositionError, match="rack 1: expected a string"):
        Position(CLASSIC, racks=[5])
    with pytest.raises(PositionError, match="racks: expected a list"):
        Position(CLASSIC, racks="ABC")
    with pytest.raises(PositionError, match="scores"):
        Position(CLASSIC, racks=["A", "B"], scores=["1", 2])
    with pytest.raises(LexiconBuildError, match="alphabet: expected a language name"):
        compile_lexicon("w.txt", "o.wsg", alphabet=["en"])
    with pytest.raises(PositionError, match="expected a Position"):
        gen.generate("not a position")
    with pytest.raises(WordSalvoError, match=r"MoveGenerator\(Lexicon, Rules\)"):
        MoveGenerator("en", CLASSIC)


def test_cross_set_checks_its_square():
    gen = MoveGenerator(Lexicon.default("en"), CLASSIC)
    pos = Position.empty(CLASSIC)
    for row, col in ((0, 15), (15, 0), (-1, 0), (0, -1), (0, 1.0)):
        with pytest.raises(WordSalvoError, match="expected a whole number 0..14"):
            gen.cross_set(pos, 0, row, col)
    assert gen.cross_set(pos, 0, 1, 0)[1] == 0


def test_duplicate_star_squares_are_refused_as_in_rule_files():
    with pytest.raises(PositionError, match="3,5 more than once"):
        parse_cgp(f"{EMPTY} ABC/DEF 0/0 0 rs turkish; stars 3,5 3,5;")
    text = to_gcg(Game(Rules.preset("turkish"), seed=3))
    star_line = next(ln for ln in text.splitlines() if ln.startswith("#stars"))
    with pytest.raises(WordSalvoError, match="more than once"):
        from_gcg(text.replace(star_line, "#stars 3,5 3,5"))


def test_generator_guard_is_one_thread_at_a_time():
    import threading

    gen = MoveGenerator(Lexicon.default("en"), CLASSIC)
    pos = parse_cgp(f"{EMPTY} AEINRS?/ 0/0 0")
    errors: list[BaseException] = []

    def work():
        for _ in range(20):
            try:
                gen.generate(pos)
            except RuntimeError as e:
                errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all("one generator per thread" in str(e) for e in errors)
    assert len(gen.generate(pos)) == len(MoveGenerator(Lexicon.default("en"), CLASSIC).generate(pos))

"""parse_gcg: GCG records as other programs write them, read without a board or a lexicon.

The records in tests/data/gcg were written for these tests from the public GCG
specification (the plays come from games this package played, then written in the
styles of other programs: '.' or parentheses for played-through tiles, challenges,
phonies, time penalties, both end-of-game conventions, notes, encodings).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from game_helpers import RULE_SETS, lexicon_for, random_turn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordsalvo import Game, GameError, IllegalMoveError, Rules, WordSalvoError
from wordsalvo.formats.gcg import (
    DEFAULT_RULES,
    ChallengeBonusEvent,
    EndRackEvent,
    ExchangeEvent,
    GCGError,
    PassEvent,
    PhonyRemovedEvent,
    PlayEvent,
    TimePenaltyEvent,
    parse_gcg,
    rules_for_lexicon,
    to_gcg,
)

DATA = Path(__file__).parent / "data" / "gcg"


def read(name: str):
    return parse_gcg((DATA / name).read_bytes(), path=name)


def problems_of(name_or_text, path=None) -> list[str]:
    data = (DATA / name_or_text).read_bytes() if path is None else name_or_text
    with pytest.raises(GCGError) as info:
        parse_gcg(data, path=path or name_or_text)
    assert isinstance(info.value, WordSalvoError)
    return info.value.problems


def lines_of(problems: list[str]) -> list[int]:
    return [int(re.search(r" line (\d+): ", p).group(1)) for p in problems]


def kinds(record) -> list[str]:
    return [e.kind for e in record.events]


# -- a tournament record: UTF-8, '.' for played-through tiles, challenges, phonies ---------
def test_tournament_headers_players_and_rules():
    r = read("tournament.gcg")
    assert [(p.number, p.nick, p.name) for p in r.players] == [(1, "zoë", "Zoë Ångström"),
                                                              (2, "björn", "Björn Nüßlein")]
    assert (r.title, r.description, r.id_authority, r.id) == ("Round 7, board 3", "Club championship, final round",
                                                              "example.org", "7-3")
    assert (r.lexicon, r.rules, r.encoding, r.path) == ("CSW21", None, "UTF-8", "tournament.gcg")
    assert r.rules_name() == "classic-en"
    assert r.assumed_rules == "no #rules line: assumed classic-en from #lexicon CSW21"
    assert not r.unfinished and r.end_convention == "double"
    assert r.totals == (362, 492)


def test_tournament_events():
    r = read("tournament.gcg")
    counts = Counter(kinds(r))
    assert counts == {"play": 25, "swap": 1, "phony-removed": 1, "challenge-bonus": 1, "end-rack": 1,
                      "time-penalty": 1}
    # every event knows its line and raw text
    text = (DATA / "tournament.gcg").read_text(encoding="utf-8").split("\n")
    for e in r.events:
        assert text[e.line - 1] == e.text and e.text.startswith(f">{e.player}:")

    removal = next(e for e in r.events if isinstance(e, PhonyRemovedEvent))
    play = r.events[r.events.index(removal) - 1]
    assert (removal.line, removal.play_line, play.line) == (15, 14, 14)
    assert (play.word, play.score, removal.score, removal.total) == (".TROR", 31, -31, 26)
    assert play.tiles_played == "TROR" and play.letters == (".", "T", "R", "O", "R")

    bonus = next(e for e in r.events if isinstance(e, ChallengeBonusEvent))
    assert (bonus.line, bonus.player, bonus.score, bonus.total) == (23, "zoë", 5, 54)
    penalty = r.events[-1]
    assert isinstance(penalty, TimePenaltyEvent) and (penalty.player, penalty.score, penalty.total) == ("zoë", -10, 362)
    end = r.events[-2]
    assert isinstance(end, EndRackEvent) and (end.player, end.tiles, end.owner, end.score) == ("björn", "IOR", "zoë", 6)
    exchange = next(e for e in r.events if isinstance(e, ExchangeEvent))
    assert (exchange.rack, exchange.tiles, exchange.count) == ("EFQRRUZ", "EFQ", 3)


def test_played_through_tiles_and_blanks():
    r = read("tournament.gcg")
    regis = next(e for e in r.events if isinstance(e, PlayEvent) and e.word == "REGi.TRY")
    assert (regis.row, regis.col, regis.direction, regis.coordinate) == (3, 7, 1, "H4")
    assert regis.tiles_played == "REG?TRY"
    assert regis.through == (False, False, False, False, True, False, False, False)
    assert regis.notation == "H4 REGi(.)TRY"
    board = {(7, 7): "S"}  # the S of FOLDS (8D) is on H8
    assert regis.notation_with(lambda row, col: board.get((row, col))) == "H4 REGi(S)TRY"
    assert regis.squares[4] == (7, 7, ".", False) and regis.squares[3] == (6, 7, "i", True)
    pin = next(e for e in r.events if isinstance(e, PlayEvent) and e.word == "PIN.....")
    assert pin.notation_with(lambda row, col: "FOLDS"[col - 3]) == "8A PIN(FOLDS)"


def test_notes_continue_on_the_following_lines_and_attach_to_the_event_before():
    r = read("tournament.gcg")
    by_line = {e.line: e for e in r.events}
    assert by_line[8].note == "Opening with FOLDS keeps the Q.\nFOLDS is fine; QOPH was not possible."
    assert by_line[15].note == "Challenged off: FTROR is not a word."
    assert by_line[18].note == ("björn challenged LUTZ and lost the challenge;\nthe bonus follows.\n\n"
                                "A five-point bonus rule.")
    iwa = next(e for e in r.events if isinstance(e, PlayEvent) and e.word == "IWA")
    assert iwa.note == "IWA stood unchallenged: it is a phony."  # the phony stays in the record
    assert sum(1 for e in r.events if e.note) == 4


# -- a club record: ISO-8859-1, CRLF, parentheses, the other end convention ---------------
def test_latin1_crlf_record():
    raw = (DATA / "club-latin1.gcg").read_bytes()
    assert b"\r\n" in raw and "Jürgen".encode("latin-1") in raw
    r = read("club-latin1.gcg")
    assert r.encoding == "ISO-8859-1"
    assert [(p.nick, p.name) for p in r.players] == [("josé", "José Peña"), ("jürgen", "Jürgen Müller")]
    assert r.notes == ("Friendly game at the club, written down by hand.",)
    assert r.assumed_rules == "no #rules or #lexicon line: assumed classic-en"
    assert r.rules_name("wordsalvo-en") == "wordsalvo-en"
    assert r.end_convention == "add-and-subtract" and r.totals == (544, 331)
    ends = [e for e in r.events if isinstance(e, EndRackEvent)]
    assert [(e.player, e.tiles, e.owner, e.score) for e in ends] == [("jürgen", "I", "jürgen", -1),
                                                                   ("josé", "I", "jürgen", 1)]
    # the older bonus form '>nick: RACK +5 total' and a count-only exchange '-3'
    assert (r.events[6].kind, r.events[6].line, r.events[6].score) == ("challenge-bonus", 11, 5)
    swap = r.events[3]
    assert isinstance(swap, ExchangeEvent) and (swap.tiles, swap.count, swap.line) == ("", 3, 8)
    word = next(e for e in r.events if isinstance(e, PlayEvent) and e.word == "(R)E(V)")
    assert word.tiles_played == "E" and word.notation == "10L (R)E(V)"
    # the same record as text, with LF or lone CR line ends, reads the same
    text = raw.decode("latin-1")
    for variant in (text, text.replace("\r\n", "\n"), text.replace("\r\n", "\r")):
        again = parse_gcg(variant, path="club-latin1.gcg")
        assert again.events == r.events and again.players == r.players


def test_encodings():
    text = (DATA / "tournament.gcg").read_text(encoding="utf-8")
    base = parse_gcg(text)
    # a BOM, and no #character-encoding line (UTF-8 is recognised)
    no_header = text.replace("#character-encoding UTF-8\n", "")
    bom = parse_gcg(b"\xef\xbb\xbf" + no_header.encode("utf-8"))
    assert bom.players == base.players and [e.line + 1 for e in bom.events] == [e.line for e in base.events]
    assert parse_gcg("\ufeff" + no_header).players == base.players
    # ISO-8859-1 bytes without a header: the specification's default
    latin = parse_gcg(no_header.replace("ß", "ss").encode("latin-1"))
    assert latin.encoding == "ISO-8859-1" and latin.players[0].name == "Zoë Ångström"
    # declared UTF-8 but written in ISO-8859-1: the line of the first bad byte
    bad = text.replace("ß", "ss").encode("latin-1")
    problems = problems_of(bad, path="x.gcg")
    assert problems == ["x.gcg line 6: expected UTF-8 text (as #character-encoding on line 1 says), got byte 0xEB"]
    assert problems_of(b"#character-encoding KLINGON-8\n#player1 a A\n>a: AB 8H AB +8 8\n", path="y.gcg") == [
        "y.gcg line 1: expected a known #character-encoding (UTF-8, ISO-8859-1 ...), got 'KLINGON-8'"]
    assert problems_of(b"\xef\xbb\xbf#player1 a A\n#player2 b B\xff\n>a: AB 8H AB +8 8\n", path="z.gcg") == [
        "z.gcg line 2: expected UTF-8 text (the file starts with a UTF-8 byte-order mark), got byte 0xFF"]
    with pytest.raises(GCGError, match="expected GCG text"):
        parse_gcg(12)


def test_a_wrong_encoding_header_over_utf8_text_reads_as_utf8_with_a_warning(tmp_path):
    # a program that wrote the header wrong: '#character-encoding ISO-8859-1' over UTF-8 text
    text = (DATA / "tournament.gcg").read_text(encoding="utf-8")
    wrong = text.replace("#character-encoding UTF-8", "#character-encoding ISO-8859-1").encode("utf-8")
    r = parse_gcg(wrong, path="w.gcg")
    assert r.encoding == "UTF-8" and r.players == parse_gcg(text).players
    assert r.players[0].name == "Zoë Ångström"
    assert r.warnings == ("w.gcg line 1: #character-encoding says 'ISO-8859-1', but the text is valid UTF-8; "
                          "read as UTF-8",)
    assert parse_gcg(text.encode("utf-8")).warnings == ()
    # and through the command, as a user meets it: analysed, the warning on stderr
    import os
    import subprocess
    import sys
    import wordsalvo
    path = tmp_path / "wrong-header.gcg"
    path.write_bytes(wrong)
    env = dict(os.environ, PYTHONPATH=str(Path(wordsalvo.__file__).resolve().parents[1]))
    run = subprocess.run([sys.executable, "-m", "wordsalvo", "analyze", str(path)], capture_output=True,
                         text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "but the text is valid UTF-8; read as UTF-8" in run.stderr


# -- unfinished games, six scoreless turns, rule sets -----------------------------------
def test_unfinished_record_with_final_racks_and_rules():
    r = read("unfinished.gcg")
    assert r.unfinished and r.end_convention is None
    assert r.final_racks == {"ann": "DEGILQT", "bob": "ACIRRRU"}
    assert (r.rules, r.rules_name(), r.assumed_rules) == ("classic-en", "classic-en", None)
    assert r.totals == (155, 201) and len(r.events) == 10
    assert parse_gcg("#player1 a A\n#player2 b B\n>a: AB 8H AB +8 8\n#incomplete\n").unfinished


def test_six_scoreless_turns_each_player_subtracts_own_rack():
    r = read("six-passes.gcg")
    assert r.lexicon == "NWL2023" and r.rules_name() == "classic-en"
    assert r.end_convention == "subtract" and not r.unfinished
    ends = [e for e in r.events if isinstance(e, EndRackEvent)]
    assert [(e.player, e.rack, e.tiles, e.owner, e.score) for e in ends] == [
        ("ann", "CEHIIRV", "CEHIIRV", "ann", -15), ("bob", "CEEINSY", "CEEINSY", "bob", -12)]
    assert sum(isinstance(e, PassEvent) for e in r.events) == 6
    assert isinstance(r.events[-1], TimePenaltyEvent) and r.events[-1].rack == "CEEINSY"  # after the end: allowed
    assert r.totals == (186, 151)


@pytest.mark.parametrize("lexicon, rules", [
    ("CSW21", "classic-en"), ("csw24", "classic-en"), ("NWL2023", "classic-en"), ("TWL06", "classic-en"),
    ("SOWPODS", "classic-en"), ("ENABLE2K", "classic-en"), ("ECWL", "classic-en"), ("America", "classic-en"), ("RD28", "woodword-de"),
    ("Deutsch", "woodword-de"), ("OpenTaal", "wordsalvo-nl"), ("NL-2020", "wordsalvo-nl"), ("TDK", "turkish"),
    ("Türkçe", "turkish"), ("FRA20", None), ("OSPS49", None), ("", None), ("1234", None),
])
def test_rule_set_of_a_lexicon(lexicon, rules):
    assert rules_for_lexicon(lexicon) == rules


def test_rules_assumed_for_a_lexicon_of_another_language():
    r = parse_gcg("#lexicon FRA20\n#player1 a A\n>a: AB 8H AB +8 8\n")
    assert r.rules_name() == DEFAULT_RULES == "classic-en"
    assert r.rules_name("wordsalvo-en") == "wordsalvo-en"
    assert r.assumed_rules == ("no #rules line and #lexicon FRA20 is of no language with a rule set here: "
                               "assumed classic-en")
    r = parse_gcg("#rules turkish\n#lexicon CSW21\n#player1 a A\n>a: AB 8H AB +8 8\n")
    assert r.rules_name() == "turkish" and r.assumed_rules is None


# -- broken records: every problem, each with its line ---------------------------------
def test_bad_total_names_the_line_once():
    assert problems_of("bad-total.gcg") == ["bad-total.gcg line 5: expected total 82 for ann (64 +18), got 83"]


def test_rack_that_cannot_hold_the_tiles():
    assert problems_of("bad-rack.gcg") == [
        "bad-rack.gcg line 4: expected the rack EEFOOTT to hold the tiles played (POOF), but P is not on it",
        "bad-rack.gcg line 6: expected the rack AEEFNOS to hold the tiles exchanged (AEX), but X is not on it"]


def test_garbage_lines():
    problems = problems_of("garbage.gcg")
    assert lines_of(problems) == [5, 6]
    assert "got 'this line is not part of any record'" in problems[0]
    assert "expected a line ending in a score and a total (e.g. '+14 270'), got 'eighteen 82'" in problems[1]


def test_every_problem_is_reported_in_line_order():
    problems = problems_of("many-problems.gcg")
    assert lines_of(problems) == [6, 6, 8, 9, 10, 11, 12]
    assert problems[0].endswith("expected a '--' line right after a play by ann, got it after the play of bob "
                                "on line 5")
    assert problems[1].endswith("expected total 46 for ann (64 -18), got 64")
    assert problems[2].endswith("expected total 59 for bob (30 +29), got 60")
    assert problems[3].endswith("expected a nickname of the #player lines (ann, bob), got 'cat'")
    assert "AMAINS from E11 to stay on the 15x15 board" in problems[4]
    assert problems[5].endswith("expected the rack AAEIMNQ to hold the tiles played (QAT), but T is not on it")
    assert problems[6].endswith("got 'what is this'")


HEAD = "#player1 ann Ann\n#player2 bob Bob\n"


@pytest.mark.parametrize("body, line, message", [
    (">ann: AB 8H AB +8 8\n>ann: AB -- -7 1\n", 4, "expected -8 (taking back the +8 of line 3), got -7"),
    (">ann: AB -- -8 -8\n", 3, "expected a '--' line right after a play by ann, got it after the start"),
    (">ann: AB 8H AB +8 8\n>bob: CD -- -8 -8\n", 4, "expected a '--' line right after a play by bob"),
    (">ann: ABC - +3 3\n", 3, "expected +0 for a pass, got +3"),
    (">ann: ABC -AB +1 1\n", 3, "expected +0 for a swap, got +1"),
    (">ann: ABC -9 +0 0\n", 3, "expected at most 3 tiles exchanged from the rack ABC, got 9"),
    (">ann: ABC -0 +0 0\n", 3, "expected at least one tile exchanged, got '-0'"),
    (">ann: ABC -A1 +0 0\n", 3, "expected '-TILES' (letters, '?' = blank) or '-N' (how many), got '-A1'"),
    (">ann: AB 8H A((B)) +8 8\n", 3, "a '(' inside the group opened at character 2"),
    (">ann: AB 8H A(B +8 8\n", 3, "the '(' at character 2 is never closed"),
    (">ann: AB 8H AB) +8 8\n", 3, "a ')' at character 3 with no '(' before it"),
    (">ann: AB 8H A() +8 8\n", 3, "an empty '()' at character 2"),
    (">ann: AB 8H (A). +8 8\n", 3, "no new tile"),
    (">ann: AB 8H A(.)B +8 8\n", 3, "a '.' inside parentheses at character 3"),
    (">ann: AB 8H A-B +8 8\n", 3, "'-' at character 2 (expected letters, '.' or '(LETTERS)')"),
    (">ann: AB 16H AB +8 8\n", 3, "coordinate '16H' is off the board"),
    (">ann: AB P1 AB +8 8\n", 3, "coordinate 'P1' is off the board"),
    (">ann: AB O15 AB +8 8\n", 3, "expected the 2 squares of AB from O15 to stay on the 15x15 board"),
    (">ann: AB 8H AB +8 8\n>bob:  (CD) +6 6\n>ann: C 9H C +3 11\n", 5,
     "expected no turn after the end-of-game rack points on line 4"),
    (">ann: AB 8H AB +8 8\n>bob: CD (DC) -6 -6\n>bob: CD (CE) -6 -12\n", 5,
     "expected the rack CD again in parentheses, got '(CE)'"),
    (">ann: AB 8H AB +8 8\n>bob:  (C1) +6 6\n", 4, "expected '(RACK)' with the letters left on a rack, got '(C1)'"),
    (">ann: X Y AB 8H AB +8 8\n", 3, "expected '>nick: RACK COORD WORD +score total'"),
    (">ann: X Y (challenge) +5 5\n", 3, "expected '>nick: RACK (challenge) +N total'"),
    (">ann: AB 8H AB +8\n", 3, "expected a line ending in a score and a total"),
    (">ann: AB 8H AB 8 x\n", 3, "expected a line ending in a score and a total"),
    (">ann AB 8H AB +8 8\n", 3, "expected '>nick: ...' with the nickname and a colon"),
    (">ann: AB hello world +8 8\n", 3, "expected one of '>nick: RACK 8D WORD +score total' (a play)"),
    ("#player1 cat Cat\n", 3, "expected one #player1 line, got a second one (the first is on line 1)"),
    ("#rack3 ABC\n", 3, "expected #rack1..#rack2 (one per player), got #rack3"),
    ("#rack1 A-C\n", 3, "expected '#rack1 RACK' (letters, '?' = blank)"),
    ("#lexicon CSW21\n#lexicon NWL2023\n", 4, "expected one #lexicon line, got a second one saying 'NWL2023'"),
    ("# nothing\n", 3, "expected '#keyword value' (a pragma)"),
])
def test_inconsistent_lines(body, line, message):
    problems = problems_of(HEAD + body, path="t.gcg")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"t.gcg line {line}: ") and message in problems[0], problems[0]


def test_player_lines():
    problems = problems_of("#player1 a A\n#player2 c C\n#player1 d D\n>a: AB 8H AB +8 8\n#player3 b B\n", path="p")
    assert problems == [
        "p line 3: expected one #player1 line, got a second one (the first is on line 1)",
        "p line 5: expected #player lines before the first event (line 4), got #player3 after it"]
    assert problems_of("#player1 a A\n#player3 c C\n>a: AB 8H AB +8 8\n", path="g") == [
        "g line 2: expected #player lines numbered 1..2, got #player1, #player3"]
    assert problems_of("#player1 a A\n#player2 a B\n", path="q") == [
        "q line 2: expected a nickname unlike #player1's, got 'a' again"]
    # no #player lines: the players in the order they first play, the nickname as the name
    r = parse_gcg(">bob: AB 8H AB +8 8\n>ann: CD 9H CD +9 9\n>bob: E 7H E +1 9\n")
    assert [(p.number, p.nick, p.name) for p in r.players] == [(1, "bob", "bob"), (2, "ann", "ann")]
    assert [e.player_index for e in r.events] == [0, 1, 0] and r.totals == (9, 9)


def test_other_pragmas_are_kept_and_blank_lines_skipped():
    r = parse_gcg("#pragma something\n\n#board-layout CrosswordGame\n#player1 a A B  C\n\n>a: AB 8H AB +8 8\n"
                  "#note one\n#note two\n  \n#tile-distribution english\n")
    assert [(p.keyword, p.value, p.line) for p in r.pragmas] == [
        ("pragma", "something", 1), ("board-layout", "CrosswordGame", 3), ("tile-distribution", "english", 10)]
    assert r.pragma("board-layout") == "CrosswordGame" and r.pragma("seed") is None
    assert r.players[0].name == "A B  C"
    assert r.events[0].note == "one\ntwo"
    assert r.description is None and r.notes == ()


def test_notes_before_the_first_event_and_ids():
    r = parse_gcg("#note Variant: classic\n#note Board: standard\n  indented more\n\n#id io.example AbC\n"
                  "#description two\nlines\n#player1 a A\n>a: AB 8H AB +8 8\n")
    assert r.notes == ("Variant: classic", "Board: standard\n  indented more")
    assert (r.id_authority, r.id, r.description) == ("io.example", "AbC", "two\nlines")
    assert parse_gcg("#id 12345\n#player1 a A\n").id_authority is None


def test_nicknames_with_colons_and_missing_racks():
    r = parse_gcg("#player1 a:b A\n#player2 c C\n>a:b: 8H AB +8 8\n>c: - +0 0\n>c:  (challenge) +5 5\n>a:b: +5 13\n")
    assert [e.kind for e in r.events] == ["play", "pass", "challenge-bonus", "challenge-bonus"]
    assert r.events[0].player == "a:b" and r.events[0].rack == ""


# -- the package's own records parse, and their totals are the game's -------------------
EVENT_OF_TURN = {"play": ["play"], "swap": ["swap"], "pass": ["pass"], "refused-play": ["play", "phony-removed"],
                 "timeout": ["timeout"], "resign": ["resign"], "settle": ["end-rack"]}


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lexicons")
    return {name: lexicon_for(Rules.preset(name), tmp) for name in RULE_SETS}


def phony_attempt(game: Game, rng: random.Random) -> bool:
    """Try a play whose only fault is a word not in the lexicon (strict mode: it costs the turn)."""
    moves = game.legal_moves()
    if not len(moves):
        return False
    coordinate, word = moves[rng.randrange(len(moves))].notation.split()
    spots, depth = [], 0  # new tiles: letters outside parentheses
    for i, ch in enumerate(word):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch.isupper():
            spots.append(i)
    others = sorted(set(game.rack) - {"?"})
    if not spots or not others:
        return False
    i = rng.choice(spots)
    try:
        game.play(f"{coordinate} {word[:i]}{rng.choice(others)}{word[i + 1:]}")
    except (IllegalMoveError, GameError):
        return False
    return True


def play_game(name: str, lexicon, seed: int, players: int, strict: bool, resign_at: int | None) -> Game:
    rules = Rules.preset(name, board_seed=seed) if Rules.preset(name).random_mode != "none" else Rules.preset(name)
    game = Game(rules, lexicon=lexicon, players=players, seed=seed, strict=strict)
    rng = random.Random(seed)
    turn = 0
    while not game.is_over and turn < 300:
        if resign_at is not None and turn == resign_at and rules.resign.allowed:
            game.resign(rng.randrange(players) if players > 2 else None)
        elif not (strict and rng.random() < 0.15 and phony_attempt(game, rng)):
            random_turn(game, rng)
        turn += 1
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(RULE_SETS), seed=st.integers(0, 10_000), players=st.integers(2, 4),
       strict=st.booleans(), resign_at=st.one_of(st.none(), st.integers(0, 40)))
def test_own_records_parse_and_add_up(lexicons, name, seed, players, strict, resign_at):
    base = Rules.preset(name)
    players = max(base.players.min, min(players, base.players.max))
    strict = strict and (base.strict.enabled or base.strict.table_may_choose)
    game = play_game(name, lexicons[name], seed, players, strict, resign_at)
    text = to_gcg(game)
    record = parse_gcg(text)
    assert record.totals == tuple(game.scores)
    assert [p.nick for p in record.players] == list(game.names)
    assert kinds(record) == [k for t in game.history for k in EVENT_OF_TURN[t.kind]]
    assert record.rules == base.name and record.rules_name() == base.name and record.assumed_rules is None
    assert record.pragma("seed") == str(seed)
    assert record.unfinished == (not any(t.kind in ("settle", "resign") for t in game.history))
    plays = [t for t in game.history if t.kind in ("play", "refused-play")]
    assert [e.notation for e in record.events if isinstance(e, PlayEvent)] == [t.notation for t in plays]
    assert [e.rack for e in record.events if e.kind != "end-rack"] == [
        t.rack for t in game.history for _ in EVENT_OF_TURN[t.kind] if t.kind != "settle"]
    assert parse_gcg(text.encode("utf-8")).events == record.events


# -- any input: a record or a GCGError, never another exception -----------------------
_LINE_END_TEXT = re.compile(r"\r\n|\r|\n")


def parse_or_problems(data) -> list[str]:
    try:
        record = parse_gcg(data)
    except GCGError as e:
        assert e.problems and all(re.match(r"GCG line \d+: ", p) for p in e.problems), e.problems
        return e.problems
    if isinstance(data, bytes):
        data = data.decode("utf-8-sig" if record.encoding == "UTF-8" else record.encoding, errors="replace")
    lines = _LINE_END_TEXT.split(data.removeprefix("\ufeff"))
    assert all(e.text.startswith('>') and e.text in lines[e.line - 1] for e in record.events)
    return []


@settings(max_examples=200, deadline=None)
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300)))
def test_any_input_gives_a_record_or_problems(data):
    parse_or_problems(data)


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(["tournament.gcg", "club-latin1.gcg", "six-passes.gcg"]), seed=st.integers(0, 2**32))
def test_mutated_records_give_a_record_or_problems_with_lines(name, seed):
    rng = random.Random(seed)
    data = bytearray((DATA / name).read_bytes())
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(data))
        what = rng.random()
        if what < 0.4:
            data[at] = rng.choice(b"#>:()-+.?0123456789 \r\nAZaz\xe9\xff")
        elif what < 0.7:
            del data[at:at + rng.randint(1, 12)]
        else:
            data[at:at] = bytes(rng.choice(b"#>:()-+.? 0123456789\nAZ") for _ in range(rng.randint(1, 6)))
    problems = parse_or_problems(bytes(data))
    lines = len(re.split(rb"\r\n|\r|\n", bytes(data)))
    assert all(1 <= n <= lines for n in lines_of(problems))


def test_a_record_without_rules_names_the_rule_set_it_assumed(tmp_path, capsys):
    """A wordsalvo-en game with #seed but no #rules: read as classic-en, the replay fails, and the
    error says classic-en was assumed and how to name another (not just a rack mismatch)."""
    import wordsalvo as ws
    from wordsalvo.engine.bot import Bot
    from wordsalvo.cli import main

    rules = Rules.preset("wordsalvo-en")
    game = Game(rules, seed=5)
    bot = Bot("expert", rules)
    for _ in range(4):
        game.apply(bot.choose(game))
    text = "\n".join(line for line in ws.to_gcg(game).splitlines() if not line.startswith("#rules")) + "\n"
    with pytest.raises(ws.WordSalvoError) as e:
        ws.from_gcg(text)
    assert "drawn from the bag with the #seed" in str(e.value)
    assert "no #rules or #lexicon line: assumed classic-en" in str(e.value) and "#rules NAME" in str(e.value)
    assert ws.from_gcg(text, rules=rules).scores == game.scores
    path = tmp_path / "norules.gcg"
    path.write_text(text, "utf-8")
    assert main(["analyze", str(path)]) == 2
    assert "assumed classic-en" in capsys.readouterr().err
    assert main(["analyze", str(path), "--rules", "wordsalvo-en"]) == 0


def test_an_unmarked_word_may_run_through_squares_earlier_plays_covered():
    # some programs list only the tiles played and do not mark the letters already on the board
    r = read("unmarked-through.gcg")
    play = r.events[1]
    assert play.word == "BEAST" and not play.marks_through and play.rack == "BEST"
    assert play.tiles_played == "BEAST"  # as written; the replay infers BE(A)ST from the board
    # a tile neither on the rack nor on a square an earlier play covered is still refused here
    text = (DATA / "unmarked-through.gcg").read_text(encoding="utf-8").replace("H6 BEAST", "I6 BEAST")
    with pytest.raises(GCGError) as e:
        parse_gcg(text)
    assert e.value.problems == [
        "GCG line 7: expected the rack BEST to hold the tiles played (BEAST), but A is not on it",
        # and OTTER then finds no T at 10H, where BEAST no longer runs
        "GCG line 8: expected the rack EORT to hold the tiles played (OTTER), but T is not on it"]

"""One GCG reader with visitors: ``read_gcg(source, visitor)`` walks a record once and the
builders make a Game, a Replay, the header or a rated game of it.

Oracles: hand-written records (their turns and lines counted by hand), :func:`parse_gcg`
of :func:`to_gcg`'s text for the record :func:`game_record` makes without text, and the
results of ``from_gcg`` / ``read_game`` the other tests pin down.
"""

from __future__ import annotations

import pytest

from wordsalvo import Game, Rules
from wordsalvo.errors import GCGError, RatingError, WordSalvoError
from wordsalvo.formats import (SKIP, GameBuilder, GCGHeader, GCGTurn, GCGVisitor, HeaderBuilder, RecordBuilder,
                               ReplayBuilder, from_gcg, game_record, parse_gcg, read_game, read_gcg, read_header,
                               record_bytes, to_gcg)
from wordsalvo.formats import gcg_record
from wordsalvo.formats.results import gcg_date, gcg_time, rated_game_from_gcg

# eight event lines: a play, a pass, a play taken back by its '--' line, a swap, a play,
# a time penalty and the end-of-game rack points: 7 turns (the '--' line is part of its play)
RECORD = """\
#character-encoding UTF-8
#lexicon CSW21
#date 2026-11-01
#time 20:15
#player1 ann Ann Smith
#player2 bob Bob
#note before the game
>ann: AWERTYU 8G AW +10 10
>bob: EIOSTRN - +0 0
>ann: EORTUYZ 9G ZO +12 22
>ann: EORTUYZ -- -12 10
#note challenged off
>bob: EIOSTRN -EIO +0 0
>ann: EORTUYZ H8 .E +5 15
>bob: (time) -10 -10
>ann: (STRN) +8 23
"""


class Counter(GCGVisitor):
    """A custom visitor: counts the turns by kind, keeps the lines it saw."""

    def __init__(self) -> None:
        self.header: GCGHeader | None = None
        self.kinds: dict[str, int] = {}
        self.lines: list[int] = []
        self.removals: list[int] = []
        self.ended = False

    def visit_header(self, header: GCGHeader) -> None:
        self.header = header

    def visit_turn(self, turn: GCGTurn) -> None:
        self.kinds[turn.kind] = self.kinds.get(turn.kind, 0) + 1
        self.lines.append(turn.line)
        if turn.removal is not None:
            self.removals.append(turn.removal.line)

    def visit_end(self, record) -> None:
        self.ended = True

    def result(self) -> int:
        return len(self.lines)


def test_a_custom_visitor_counts_the_turns():
    counter = Counter()
    assert read_gcg(RECORD, counter, path="r.gcg") == 7
    assert counter.kinds == {"play": 3, "pass": 1, "swap": 1, "time-penalty": 1, "end-rack": 1}
    assert counter.lines == [8, 9, 10, 13, 14, 15, 16] and counter.removals == [11] and counter.ended
    assert [p.nick for p in counter.header.players] == ["ann", "bob"] and counter.header.path == "r.gcg"
    # a class is instantiated; bytes and a record already read are walked the same way
    assert read_gcg(RECORD.encode("utf-8"), Counter) == 7
    assert read_gcg(parse_gcg(RECORD), Counter) == 7


def test_a_turn_carries_its_removal_notes_and_the_end_that_follows():
    turns: list[GCGTurn] = []

    class Keep(GCGVisitor):
        def visit_turn(self, turn):
            turns.append(turn)

    read_gcg(RECORD, Keep())
    taken_back = turns[2]
    assert taken_back.kind == "play" and taken_back.removal.play_line == 10
    assert taken_back.notes == ("challenged off",)
    # the time penalty is the last line before the rack points: they come with it, and alone after
    assert turns[-2].kind == "time-penalty" and [e.line for e in turns[-2].ending] == [16]
    assert turns[-1].kind == "end-rack" and turns[-1].ending == ()
    assert all(t.ending == () for t in turns[:-2])


def test_reading_only_the_header_stops_before_the_event_lines():
    # the event lines do not add up: a full reading refuses the record, the header reading does not read them
    broken = RECORD.replace("+10 10", "+10 11")
    with pytest.raises(GCGError, match="line 8: expected total 10"):
        parse_gcg(broken)
    header = read_header(broken, path="b.gcg")
    assert isinstance(header, GCGHeader) and header.lexicon == "CSW21" and header.notes == ("before the game",)
    assert header.one("date").value == "2026-11-01" and header.one("date").line == 3
    assert read_gcg(broken, HeaderBuilder, path="b.gcg") == header

    class Stop(Counter):
        def visit_header(self, header):
            super().visit_header(header)
            return SKIP

    stop = Stop()
    assert read_gcg(broken, stop) == 0 and stop.header is not None and not stop.ended
    # the event lines are not even tokenized
    calls = []
    real = gcg_record._event
    gcg_record._event = lambda *a: calls.append(a) or real(*a)
    try:
        read_header(RECORD)
        assert calls == []
        parse_gcg(RECORD)
        assert len(calls) == 8
    finally:
        gcg_record._event = real
    # a header of a record already read is its header
    assert parse_gcg(RECORD).header == read_header(RECORD)
    # the ratings' date and time come from the header: the broken events do not matter to them
    assert str(gcg_date(broken, "b.gcg")) == "2026-11-01" and str(gcg_time(broken, "b.gcg")) == "20:15:00"


def test_a_header_line_read_once_is_refused_twice_naming_the_line():
    two = RECORD.replace("#time 20:15\n", "#time 20:15\n#date 2026-11-02\n")
    with pytest.raises(GCGError, match=r"^t.gcg line 5: expected one #date line, got a second one$"):
        read_header(two, path="t.gcg").one("date")
    with pytest.raises(RatingError, match=r"t.gcg line 5: expected one #date line"):
        gcg_date(two, "t.gcg")


def test_the_reading_problems_come_before_any_visit():
    seen = Counter()
    with pytest.raises(GCGError, match="g.gcg line 3: expected a '#' pragma line"):
        read_gcg("#player1 ann Ann\n>ann: A 8H A +1 1\nnonsense\n", seen, path="g.gcg")
    assert seen.header is None and seen.lines == []
    with pytest.raises(GCGError, match="expected GCG text, bytes or a GCGRecord, got int"):
        read_gcg(5, Counter())
    with pytest.raises(GCGError, match="expected a GCGVisitor, got str"):
        read_gcg(RECORD, "visitor")


def test_an_error_of_a_visitor_names_the_line():
    class Picky(GCGVisitor):
        def visit_turn(self, turn):
            if turn.kind == "swap":
                raise WordSalvoError("expected no swap")

    with pytest.raises(GCGError, match=r"^p.gcg line 13: expected no swap$"):
        read_gcg(RECORD, Picky(), path="p.gcg")

    class Buggy(GCGVisitor):
        def visit_turn(self, turn):
            if turn.kind == "pass":
                raise KeyError("oops")

    with pytest.raises(KeyError) as info:
        read_gcg(RECORD, Buggy())
    assert info.value.__notes__ == ["while visiting GCG line 9: >bob: EIOSTRN - +0 0"]
    # the builders name their own lines: a replay that does not fit
    real = "#player1 ann Ann\n#player2 bob Bob\n>ann: AWERTYU 8G AW +10 10\n>bob: EIOSTRN H8 .E +6 6\n"
    with pytest.raises(GCGError, match="r.gcg line 4: expected the recorded score"):
        read_gcg(real, ReplayBuilder(), path="r.gcg")


def _challenged_game() -> Game:
    g = Game(Rules.preset("classic-en"), players=["Ann", "Bob"], seed=1, challenges=True)
    g.add_note("first note")
    g.play("8D ZEDRA")
    g.challenge()  # a phony taken back
    g.add_note("after the challenge")
    g.play(g.best_move())
    g.play(g.best_move())
    g.challenge()  # a valid play challenged
    while not g.is_over:
        move = g.best_move()
        if move is None:
            g.pass_turn()
        else:
            g.play(move)
    return g


def test_the_record_of_a_game_is_made_without_text_and_equals_the_text_read_back():
    g = _challenged_game()
    kinds = {t.kind for t in g.history}
    assert {"refused-play", "settle"} <= kinds and kinds & {"pass", "challenge-bonus"}
    pragmas = [("date", "2026-12-05"), ("engine", "bot")]
    record = game_record(g, pragmas)
    assert record == parse_gcg(to_gcg(g, pragmas))
    # a resignation, a time-out, swaps
    g2 = Game(Rules.preset("wordsalvo-en"), players=["A", "B", "C"], seed=4)
    g2.swap(g2.rack[:3])
    g2.play(g2.best_move())
    g2.timeout()
    g2.resign(1)
    assert game_record(g2) == parse_gcg(to_gcg(g2))
    assert [e.kind for e in game_record(g2).events] == ["swap", "play", "timeout", "resign"]


def test_the_builders_give_what_from_gcg_and_read_game_give():
    g = _challenged_game()
    text = to_gcg(g)
    a = read_gcg(text, GameBuilder())
    assert a.history == g.history and a.notes == g.notes == from_gcg(text).notes
    rp = read_gcg(text, ReplayBuilder(lexicon=g.lexicon))
    again = read_game(text, lexicon=g.lexicon)
    assert rp.turns == again.turns and rp.final_scores == again.final_scores == tuple(g.scores)
    assert read_gcg(text, RecordBuilder) == parse_gcg(text)
    # the replay of the record made without text is the replay of the text
    direct = read_gcg(game_record(g), ReplayBuilder(lexicon=g.lexicon))
    assert direct.turns == rp.turns


def test_analysis_of_a_game_writes_no_text_to_read_back(monkeypatch):
    from wordsalvo.analysis import analyze_game

    g = Game(Rules.preset("wordsalvo-en"), players=["A", "B"], seed=2)
    for _ in range(3):
        g.play(g.best_move())
    expected = analyze_game(to_gcg(g), lexicon=g.lexicon, win=False, endgame=None, pre_endgame=None, top=2)

    def no_text(*args):
        raise AssertionError("a GCG event line was read")

    monkeypatch.setattr(gcg_record, "_event", no_text)
    got = analyze_game(g, win=False, endgame=None, pre_endgame=None, top=2)
    assert [t.best_equity for t in got.turns] == [t.best_equity for t in expected.turns]
    assert [t.equity for t in got.turns] == [t.equity for t in expected.turns]


def test_ratings_read_a_record_in_one_walk_with_its_header():
    text = to_gcg(_challenged_game(), [("date", "2026-12-05"), ("time", "21:40:03+01:00")])
    walks = []
    real = ReplayBuilder.visit_turn

    def counted(self, turn):
        walks.append(turn.line)
        return real(self, turn)

    ReplayBuilder.visit_turn = counted
    try:
        rated = rated_game_from_gcg(text, "g.gcg")
    finally:
        ReplayBuilder.visit_turn = real
    assert len(walks) == len(set(walks)) == len([e for e in parse_gcg(text).events if e.kind != "phony-removed"])
    assert str(rated.date) == "2026-12-05" and str(rated.time) == "21:40:03" and rated.players == ("Ann", "Bob")


def test_one_function_opens_a_record_file(tmp_path):
    latin = "#character-encoding ISO-8859-1\n#player1 jos\u00e9 Jos\u00e9\n#player2 b B\n>jos\u00e9: A 8H A +1 1\n"
    path = tmp_path / "r.gcg"
    path.write_bytes(latin.encode("latin-1"))
    data = record_bytes(str(path))
    assert read_header(data).players[0].nick == "jos\u00e9"
    with pytest.raises(RatingError, match="no-such.gcg"):
        record_bytes(str(tmp_path / "no-such.gcg"), RatingError)

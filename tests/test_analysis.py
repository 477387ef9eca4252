"""Replay of real GCG records, analysis by equity and win probability, instant stats,
the Word Book and ``wordsalvo analyze`` (one record, --html, batches).

Oracles: the records of tests/data/gcg (written by hand from the GCG specification,
with their known phonies, challenges and end conventions), the generator's full move
list and leave table for the equity figures, hand-built records for the flags.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import wordsalvo
from wordsalvo import Game, Lexicon, Rules
from wordsalvo.analysis import (MISSED_EQUITY, TURNING_MIN, TURNING_POINTS, AnalysisError, analyze_game)
from wordsalvo.formats.gcg import GCGError, parse_gcg, to_gcg
from wordsalvo.formats.replay import read_game
from wordsalvo.instant import instant_stats
from wordsalvo.leaves import Leaves
from wordsalvo.movegen import MoveGenerator
from wordsalvo.render import report
from wordsalvo.engine.winprob import WinModel
from wordsalvo.wordbook import WordBook

DATA = Path(__file__).parent / "data"
GCG = DATA / "gcg"
MODEL_PATH = DATA / "winprob-classic-en-test.json"  # the records of tests/data/gcg are classic-en
EN_MODEL_PATH = DATA / "winprob-wordsalvo-en-test.json"  # games of Game(Rules.preset("wordsalvo-en"))
GOOD = ["tournament.gcg", "club-latin1.gcg", "six-passes.gcg", "unfinished.gcg"]
BAD = {"bad-rack.gcg": 4, "bad-total.gcg": 5, "garbage.gcg": 5, "many-problems.gcg": 6}


@pytest.fixture(scope="module")
def model() -> WinModel:
    return WinModel.load(MODEL_PATH)


@pytest.fixture(scope="module")
def en_model() -> WinModel:
    return WinModel.load(EN_MODEL_PATH)


#: the embedded English list as a file: given with --lexicon / lexicon=, it judges the words of
#: tournament.gcg (#lexicon CSW21), which are not judged on a list the record did not use
EN_WSG = Path(wordsalvo.__file__).parent / "data" / "en.wsg"


@pytest.fixture(scope="module")
def tournament(model):
    return analyze_game((GCG / "tournament.gcg").read_bytes(), model=model, path="tournament.gcg",
                        lexicon=Lexicon.default("en"))


def test_a_record_of_another_word_list_is_not_judged_and_says_how_to_give_it(model):
    """#lexicon CSW21 with only the embedded SCOWL list here: no word is a phony (IWA and
    FTROR stay unflagged), and the analysis says which list judged what and how to give
    the record's own."""
    a = analyze_game((GCG / "tournament.gcg").read_bytes(), model=model, path="tournament.gcg")
    assert not any(t.phony for t in a.turns) and not any("phony" in t.badges for t in a.turns)
    assert not any("not a word" in t.note for t in a.turns)
    assert "CSW21 is not here" in a.words_note and "--lexicon CSW21.wsg" in a.words_note
    assert a.words_note in a.text() and a.report()["game"]["words_note"] == a.words_note
    rp = read_game((GCG / "tournament.gcg").read_bytes(), path="tournament.gcg")
    assert not any(t.invalid_words for t in rp.turns) and rp.words_note == a.words_note
    # a record naming no word list at all is not judged either; one of this package's (#rules) is
    bare = b"#player1 a A\n#player2 b B\n>a: AWERTYU 8G AW +10 10\n"
    assert "names no word list" in read_game(bare).words_note and not read_game(bare).turns[0].phony
    own = read_game(b"#rules classic-en\n" + bare)
    assert own.words_note is None and own.turns[0].invalid_words == ("AW",)
    assert "words judged by en.wsg" in analyze_game(own, win=False).text()
    # the engine's replay into a Game cannot stand a phony: it says the list is not the record's
    with pytest.raises(GCGError, match="CSW21 is not here"):
        from wordsalvo import from_gcg
        from_gcg((GCG / "tournament.gcg").read_bytes())


def self_play(seed: int) -> Game:
    g = Game(Rules.preset("wordsalvo-en"), seed=seed)
    while not g.is_over:
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    return g


@pytest.mark.parametrize("name", GOOD)
def test_real_records_replay_to_their_totals(name):
    rp = read_game((GCG / name).read_bytes(), path=name)
    assert rp.final_scores == parse_gcg((GCG / name).read_bytes()).totals
    assert len(rp.turns) == len(rp.record.events)


@pytest.mark.parametrize("name,line", sorted(BAD.items()))
def test_broken_records_name_the_line(name, line):
    with pytest.raises(GCGError) as e:
        read_game((GCG / name).read_bytes(), path=name)
    assert f"line {line}:" in str(e.value)


def test_a_phony_that_stood_is_replayed_and_flagged_and_one_challenged_off_is_taken_back(tournament):
    by_line = {t.line: t for t in tournament.turns}
    assert by_line[26].phony == ("IWA",) and not by_line[26].challenged_off
    assert "phony" in by_line[26].badges and "not a word" in by_line[26].note
    assert "FTROR" in by_line[14].phony and by_line[14].challenged_off
    assert by_line[15].kind == "phony-removed" and by_line[15].score == -31
    # the board after the removal is the board before the phony
    assert by_line[15].board == by_line[13].board
    assert by_line[23].kind == "challenge-bonus" and by_line[23].score == 5


def test_a_record_without_rules_says_what_it_assumed_and_rules_override():
    a = analyze_game((GCG / "club-latin1.gcg").read_bytes(), win=False)
    assert a.assumed_rules and "classic-en" in a.assumed_rules
    b = analyze_game((GCG / "club-latin1.gcg").read_bytes(), win=False, rules="classic-en")
    assert b.rules == "classic-en" and b.assumed_rules is None
    # another rule set has another board: the first play no longer scores what the record says
    with pytest.raises(GCGError, match=r"line 5: expected the recorded score \+64"):
        analyze_game((GCG / "club-latin1.gcg").read_bytes(), win=False, rules="wordsalvo-en")


def test_a_score_the_board_does_not_give_is_refused_with_its_line():
    text = "#rules wordsalvo-en\n#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +99 99\n"
    with pytest.raises(GCGError, match=r"line 4: expected the recorded score \+99"):
        read_game(text)


def test_equity_figures_match_the_generator(en_model):
    model = en_model  # a wordsalvo-en game
    g = self_play(3)
    a = analyze_game(g, model=model)
    rules = g.rules
    gen = MoveGenerator(g.lexicon, rules, leaves=Leaves.default(rules))
    rp = read_game(to_gcg(g), lexicon=g.lexicon)
    checked = 0
    for t, rt in zip(a.turns, rp.turns):
        if t.kind != "play" or rt.position.bag_count() == 0:
            continue
        moves = gen.generate(rt.position)
        eq = moves.equities
        swap = gen.best_swap(rt.position)
        everything = np.concatenate([eq, [swap.equity] if swap is not None else []])
        assert t.best_equity == pytest.approx(max(float(everything.max()), t.equity), abs=0.01)
        assert t.rank == int((everything > t.equity + 1e-4).sum()) + 1
        assert t.candidates == len(everything)
        best = t.alternatives[0]
        assert best.equity == pytest.approx(t.best_equity, abs=0.01)
        assert t.equity_lost == pytest.approx(t.best_equity - t.equity, abs=0.02)
        assert 0 <= t.win_before <= 1 and 0 <= t.win_after <= 1
        checked += 1
    assert checked > 5


def _one_turn(rack: str, action: str, model) -> object:
    text = f"#rules wordsalvo-en\n#player1 a A\n#player2 b B\n>a: {rack} {action} +0 0\n"
    return analyze_game(text, model=model).turns[0]


def test_a_fishing_swap_that_keeps_a_great_leave_is_not_a_miss(en_model):
    model = en_model  # a wordsalvo-en game
    # by score alone this swap "missed" 30 points (8D VoWERS); by equity it is nearly the best
    keep = _one_turn("?ERSQVW", "-QVW", model)
    assert keep.leave == "?ERS" and not keep.missed
    # (with the tables trained by full racks the best by equity is another swap keeping ?ERS)
    assert keep.equity_lost < MISSED_EQUITY and keep.alternatives[0].notation.startswith("-")
    throw = _one_turn("?ERSQVW", "-?ERS", model)
    assert throw.missed and throw.equity_lost > keep.equity_lost + 20


def test_a_top_scoring_bingo_is_not_a_brilliancy_and_brilliancies_are_never_the_top_score(en_model):
    model = en_model  # a wordsalvo-en game
    g = Game(Rules.preset("wordsalvo-en"), seed=1)
    g.set_rack(0, "AEINRST")
    top = g.legal_moves().sorted()[0]
    assert top.tiles_played == 7
    g.play(top)
    t = analyze_game(g, model=model).turns[0]
    assert t.bingo and not t.brilliancy
    for seed in (2, 4):
        g = self_play(seed)
        a = analyze_game(g, model=model)
        rp = read_game(to_gcg(g), lexicon=g.lexicon)
        gen = MoveGenerator(g.lexicon, g.rules)
        for t, rt in zip(a.turns, rp.turns):
            if t.brilliancy:
                assert t.kind == "play" and t.equity_lost < 0.01 and t.rank == 1
                assert int(gen.generate(rt.position).scores.max()) > t.score


def test_turning_points_are_the_few_largest_swings(tournament):
    swings = {t.index: abs(t.win_after - t.win_before) for t in tournament.turns if t.win_after is not None}
    tp = tournament.turning_points
    assert 0 < len(tp) <= TURNING_POINTS
    assert all(swings[i] >= TURNING_MIN for i in tp)
    assert min(swings[i] for i in tp) >= max(s for i, s in swings.items() if i not in tp)
    lead_changes = sum(1 for a, b in zip(tournament.turns, tournament.turns[1:])
                       if (a.totals[0] > a.totals[1]) != (b.totals[0] > b.totals[1]))
    assert len(tp) <= TURNING_POINTS and lead_changes >= 1
    assert tournament.decisive is not None and tournament.turns[tournament.decisive].decisive


def test_every_analysed_turn_has_a_note_and_the_report_dict_checks(tournament):
    assert all(t.note for t in tournament.turns if t.kind != "resign")
    data = tournament.report()
    assert report.check(data, Rules.preset(tournament.rules)) == []
    json.dumps(tournament.to_dict())


def test_instant_stats_and_word_book():
    rp = read_game((GCG / "tournament.gcg").read_bytes(), path="tournament.gcg", lexicon=Lexicon.default("en"))
    s = instant_stats(rp)
    bjorn = s.players[1]
    assert bjorn.highest_move == (82, "O6 AdENOID") and bjorn.bingos == 2 and bjorn.best_word == "ADENOID"
    assert s.players[0].highest_move[0] == 62 and s.winners == (1,)
    # Björn leads alone from the entry after which he never trails again
    d = s.decisive
    assert all(t.totals_after[1] > t.totals_after[0] for t in rp.turns[d:])
    assert not rp.turns[d - 1].totals_after[1] > rp.turns[d - 1].totals_after[0]
    book = WordBook()
    added = book.add(rp)
    assert "FTROR" not in book.words("Zoë Ångström")  # challenged off
    assert [e for e in added if e.word == "IWA"][0].phony
    assert book.add(rp) == []  # nothing new the second time
    rows = list(csv.DictReader(io.StringIO(book.to_csv())))
    assert len(rows) == len(book) == len(json.loads(book.to_json()))
    assert rows[0] == {"player": "Zoë Ångström", "word": "FOLDS", "game": "tournament.gcg", "turn": "1",
                       "line": "8", "score": "26", "phony": "0"}


def test_bad_arguments_raise_analysis_errors():
    with pytest.raises(AnalysisError):
        analyze_game(42)
    with pytest.raises(AnalysisError):
        analyze_game((GCG / "unfinished.gcg").read_text(), top=0)


def _cli(*args, cwd=None):
    import os
    # the package the tests import (an install, or src/ with extensions built in place)
    env = dict(os.environ, PYTHONPATH=str(Path(wordsalvo.__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "wordsalvo", "analyze", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def test_cli_one_record_json_word_book_and_a_broken_one(tmp_path):
    book = tmp_path / "book.csv"
    r = _cli(str(GCG / "tournament.gcg"), "--winprob", str(MODEL_PATH), "--json", "--wordbook", str(book),
             "--lexicon", str(EN_WSG))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["final_scores"] == [362, 492]
    rows = list(csv.DictReader(book.open(encoding="utf-8")))
    assert ("björn" not in {r["player"] for r in rows}) and {"Zoë Ångström", "Björn Nüßlein"} == \
        {r["player"] for r in rows}
    assert [r["phony"] for r in rows if r["word"] == "IWA"] == ["1"]
    r = _cli(str(GCG / "tournament.gcg"), "--winprob", str(MODEL_PATH), "--lexicon", str(EN_WSG))
    assert "Instant stats:" in r.stdout and "Word Book" in r.stdout and "IWA*" in r.stdout
    r = _cli(str(GCG / "bad-total.gcg"))
    assert r.returncode != 0 and "line 5" in r.stderr


@pytest.mark.slow
def test_cli_batch_resumes_and_skips_broken_records(tmp_path):
    out = tmp_path / "out"
    r = _cli(str(GCG), "--out", str(out), "--winprob", str(MODEL_PATH), "--jobs", "2")
    assert r.returncode == 0, r.stderr
    # the five good records of tests/data/gcg (unmarked-through.gcg among them) and the four broken ones
    assert "5 analysed, 0 already done, 4 failed" in r.stdout and "line 5" in r.stderr
    from wordsalvo.commands.analyze import output_name
    result = out / f"{output_name(str(GCG / 'tournament.gcg'), out)}.json"
    first = result.stat().st_mtime_ns
    rows = list(csv.DictReader((out / "summary.csv").open(encoding="utf-8")))
    assert len(rows) == 10  # a row per player of every game
    r = _cli(str(GCG), "--out", str(out), "--winprob", str(MODEL_PATH), "--wordbook", str(tmp_path / "b.json"))
    assert "0 analysed, 5 already done" in r.stdout
    entries = json.loads((tmp_path / "b.json").read_text("utf-8"))
    assert len({(e["player"], e["word"]) for e in entries}) == len(entries) > 100
    assert result.stat().st_mtime_ns == first


@pytest.mark.slow
def test_dask_local_cluster_gives_the_local_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    from wordsalvo.commands.analyze import batch, output_name

    paths = [str(GCG / n) for n in GOOD]
    opts = {"winprob": str(MODEL_PATH), "top": 3}
    batch(paths, opts, tmp_path / "local")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster:
        batch(paths, opts, tmp_path / "dask", scheduler=cluster.scheduler_address)
    for n in GOOD:
        stem = output_name(str(GCG / n), tmp_path / "local")
        assert json.loads((tmp_path / "local" / f"{stem}.json").read_text()) == \
            json.loads((tmp_path / "dask" / f"{stem}.json").read_text())


@pytest.mark.slow
def test_cli_html_of_a_real_record_renders_in_chromium(tmp_path):
    import shutil

    from browser_helpers import browser_env
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)),
                   None)
    if browser is None:
        pytest.skip("no chromium on PATH")
    page = tmp_path / "game.html"
    r = _cli(str(GCG / "tournament.gcg"), "--winprob", str(MODEL_PATH), "--html", str(page))
    assert r.returncode == 0, r.stderr
    text = page.read_text("utf-8")
    assert "AdENOID" in text or "ADENOID" in text
    shot = tmp_path / "game.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=0.5", "--window-size=1400,1000", f"--screenshot={shot}",
                    page.resolve().as_uri()], check=True, timeout=120, capture_output=True, env=browser_env())
    from test_render_report import decode_png

    width, height, rows = decode_png(shot.read_bytes())
    bpp = len(rows[0]) // width
    colours = {row[i:i + 3] for row in rows[::2] for i in range(0, len(row), bpp * 2)}
    assert (width, height) == (700, 500) and len(colours) > 50
    # the page the browser built holds the board, both charts and the coach's note of turn 24
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                          page.resolve().as_uri() + "#turn-24"], check=True, timeout=120, capture_output=True,
                         text=True, env=browser_env()).stdout
    assert dom.count("<svg") >= 3
    note = json.loads(_cli(str(GCG / "tournament.gcg"), "--winprob", str(MODEL_PATH), "--json").stdout)["turns"][23]
    assert note["notation"] == "O6 AdENOID"
    from html import escape
    # a browser writes the note's no-break space (kept inside "99 %") back as &nbsp;
    text = escape(note["note"], quote=False)
    assert text in dom or text.replace("\xa0", "&nbsp;") in dom


def test_dots_crlf_and_parentheses_replay_to_the_same_boards():
    import re

    g = self_play(11)
    text = to_gcg(g)
    lines = []
    for line in text.splitlines():
        tokens = line.split(" ")
        if line.startswith(">") and len(tokens) == 6:  # >nick: RACK 8D WORD +score total
            tokens[3] = re.sub(r"\(([^()]*)\)", lambda m: "." * len(m.group(1)), tokens[3])
        lines.append(" ".join(tokens))
    dotted = "\n".join(lines) + "\n"
    assert dotted != text and "." in dotted
    a = read_game(text, lexicon=g.lexicon)
    b = read_game(dotted.replace("\n", "\r\n").encode("utf-8"), lexicon=g.lexicon)
    assert a.final_scores == b.final_scores == tuple(g.scores)
    assert [t.board_after for t in a.turns] == [t.board_after for t in b.turns]
    assert [t.notation for t in a.turns] == [t.notation for t in b.turns]


def test_an_unfinished_game_has_no_winner_and_no_decisive_moment(model):
    a = analyze_game((GCG / "unfinished.gcg").read_bytes(), model=model)
    assert a.unfinished and a.winners == () and a.decisive is None
    assert instant_stats(read_game((GCG / "unfinished.gcg").read_bytes())).decisive is None


def test_a_random_board_record_replays_on_its_board():
    g = Game(Rules.preset("wordsalvo-en", board_seed=5), seed=3)
    for _ in range(6):
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    text = to_gcg(g)
    assert "#board_seed 5" in text
    a = analyze_game(text, win=False)
    assert a.final_scores == tuple(g.scores)
    rp = read_game(text)
    assert rp.rules.board_seed == 5 and rp.turns[-1].board_after == bytes(g.board.tiles)


def test_the_command_analyses_a_random_board_record_and_the_report_draws_its_board(tmp_path):
    # the command hands replay() a Rules object: the record's #board_seed must still apply
    # (it was refused: "expected the recorded score +40 ..., the board scores it +24")
    rules = Rules.preset("wordsalvo-en", board_seed=5)
    assert rules.layout != Rules.preset("wordsalvo-en").layout
    g = Game(rules, seed=3)
    for _ in range(8):
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    path = tmp_path / "random.gcg"
    path.write_text(to_gcg(g), encoding="utf-8")
    r = _cli(str(path), "--json")
    assert r.returncode == 0, r.stderr
    assert str(g.scores[0]) in r.stdout and str(g.scores[1]) in r.stdout
    html = tmp_path / "a.html"
    r = _cli(str(path), "--html", str(html))
    assert r.returncode == 0, r.stderr
    rep = analyze_game(path.read_text(encoding="utf-8"), rules=Rules.preset("wordsalvo-en"), win=False).report()
    assert rep["game"]["board_seed"] == 5
    # the report's board is the random one, square by square
    assert report._resolve_rules(rep, None).layout == rules.layout
    assert html.stat().st_size > 0


@pytest.mark.parametrize("rules", ["classic-en", "wordsalvo-nl", "turkish"])
def test_self_play_records_of_every_language_replay_and_analyse(rules):
    g = Game(Rules.preset(rules), seed=2)
    while not g.is_over and len(g.history) < 12:
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    a = analyze_game(to_gcg(g), lexicon=g.lexicon, win=False)
    assert a.rules == rules and a.final_scores == tuple(g.scores)
    plays = [t for t in a.turns if t.kind == "play"]
    assert plays and all(t.rank == 1 or t.equity_lost > 0 for t in plays)
    assert [t.notation for t in plays] == [h.notation for h in g.history if h.kind == "play"]


def test_an_exchange_of_unnamed_tiles_is_not_judged(model):
    a = analyze_game((GCG / "club-latin1.gcg").read_bytes(), model=model)
    t = [t for t in a.turns if t.kind == "swap"][0]
    assert t.notation == "-3" and t.equity_lost is None and t.win_after is None and not t.missed
    assert t.alternatives and "3 tiles" in t.note and t.win_before is not None
    assert report.check(a.report(), Rules.preset(a.rules)) == []


def _resigned_leader_record(tmp_path) -> Path:
    """A game of "You" against an engine in which You lead and then resign."""
    g = Game(Rules.preset("wordsalvo-en"), players=["You", "medium"], seed=3)
    while True:
        m = g.best_move()
        g.play(m) if m is not None else g.pass_turn()
        if len(g.history) >= 6 and g.to_move == 0 and g.scores[0] > g.scores[1]:
            break
    g.resign(0)
    assert g.winners == (1,)
    path = tmp_path / "resigned.gcg"
    path.write_text(to_gcg(g), encoding="utf-8")
    return path


def test_a_resigned_game_is_won_by_the_player_still_in_it(tmp_path, en_model):
    model = en_model  # a wordsalvo-en game
    """The player who resigned loses whatever the score (as in the game and the ratings):
    in the analysis, its report page and a batch's summary.csv; the coach speaks of the
    engine by its name, and "You" agrees with its verb."""
    path = _resigned_leader_record(tmp_path)
    a = analyze_game(path.read_bytes(), model=model)
    assert a.final_scores[0] > a.final_scores[1] and a.winners == (1,) and a.left == (0,)
    assert a.report()["game"]["end_reason"] == "You resigned"
    engine_notes = [t.note for t in a.turns if t.player == 1 and t.note]
    assert engine_notes and all(n.startswith("medium ") for n in engine_notes), engine_notes
    assert all(not t.note.startswith("medium") for t in a.turns if t.player == 0)
    # the command line: one record with --html, and a batch
    page = tmp_path / "resigned.html"
    r = _cli(str(path), "--winprob", str(EN_MODEL_PATH), "--html", str(page))
    assert r.returncode == 0, r.stderr
    html = page.read_text("utf-8")
    assert "medium wins" in html and "You wins" not in html and "You resigned" in html
    r = _cli(str(path), "--winprob", str(EN_MODEL_PATH))
    assert "You resigned; medium wins" in r.stdout
    out = tmp_path / "out"
    r = _cli(str(path), "--out", str(out), "--winprob", str(EN_MODEL_PATH))
    assert r.returncode == 0, r.stderr
    rows = {row["player"]: row for row in csv.DictReader((out / "summary.csv").open(encoding="utf-8"))}
    assert rows["You"]["won"] == "0" and rows["medium"]["won"] == "1"
    assert int(rows["You"]["score"]) > int(rows["medium"]["score"])


def test_you_win_agrees_with_its_verb(tmp_path, en_model):
    model = en_model  # a wordsalvo-en game
    g = Game(Rules.preset("wordsalvo-en"), players=["You", "medium"], seed=3)
    g.play(g.best_move())
    g.resign(1)
    a = analyze_game(g, model=model)
    assert a.winners == (0,) and "You win" in str(a).splitlines()[0]
    page = tmp_path / "you.html"
    report.write(a.report(), page, g.rules)
    text = page.read_text("utf-8")
    assert "You win" in text and "You wins" not in text


def test_the_analysis_shows_what_a_player_can_act_on(tmp_path):
    """Item: the win chance after the best move beside the one after the move played (the
    best move loses nothing, a mistake shows its cost), a poor rack said separately, and a
    brilliancy only for a clear gain in win chance over every alternative."""
    from wordsalvo.analysis import BRILLIANCY_WIN, POOR_RACK
    from wordsalvo.engine.bot import Bot

    rules = Rules.preset("wordsalvo-en")
    g = Game(rules, players=["Ann", "Bob"], seed=0)
    bots = [Bot("expert", rules, seed=1), Bot("medium", rules, seed=2)]
    while not g.is_over:
        g.apply(bots[g.to_move].choose(g))
    path = tmp_path / "game.gcg"
    path.write_text(to_gcg(g), encoding="utf-8")
    r = _cli(str(path), "--winprob", str(EN_MODEL_PATH), "--json")
    assert r.returncode == 0, r.stderr
    turns = [t for t in json.loads(r.stdout)["turns"] if t["win_after"] is not None]
    assert len(turns) > 10
    best_moves = [t for t in turns if t["equity_lost"] < 0.01]
    mistakes = [t for t in turns if t["missed"]]
    assert best_moves and mistakes
    for t in turns:
        assert t["win_best"] >= t["win_after"] - 1e-9
        assert t["win_lost"] == pytest.approx(t["win_best"] - t["win_after"], abs=1e-3)
        assert t["poor_rack"] == (t["win_best"] <= t["win_before"] - POOR_RACK)
        assert "→" not in t["note"]  # no "before → after" that reads a poor rack as a loss
        assert ("The rack itself was poor" in t["note"]) == t["poor_rack"]
    for t in best_moves:
        assert t["win_lost"] == 0 and "after the best move" not in t["note"]
        assert f"win chance {round(t['win_after'] * 100)}\u00a0%" in t["note"]
    for t in mistakes:
        if t["win_lost"] >= 0.005:
            assert f"{round(t['win_best'] * 100)}\u00a0% after the best move" in t["note"]
    for t in turns:
        if t["brilliancy"]:
            others = [a[3] for a in t["alternatives"] if a[0] != t["notation"]]
            assert t["win_after"] - max(others) >= BRILLIANCY_WIN - 1e-9
    # the table shows the move played beside the best move
    table = _cli(str(path), "--winprob", str(EN_MODEL_PATH)).stdout
    assert "win/best" in table.splitlines()[2] and table.splitlines()[1].startswith("words judged by")
    # the report's panel: the chance after this move beside the chance after the best move
    page = tmp_path / "game.html"
    assert _cli(str(path), "--winprob", str(EN_MODEL_PATH), "--html", str(page)).returncode == 0
    assert "after this move" in page.read_text("utf-8") and "after the best move" in page.read_text("utf-8")


def test_games_of_more_than_two_players_have_no_win_chances_and_say_why(tmp_path):
    g = Game(Rules.preset("wordsalvo-en"), players=["Ann", "Bob", "Cid", "Dee"], seed=4)
    for _ in range(8):
        m = g.best_move()
        g.play(m) if m is not None else g.pass_turn()
    path = tmp_path / "four.gcg"
    path.write_text(to_gcg(g), encoding="utf-8")
    r = _cli(str(path), "--winprob", str(EN_MODEL_PATH), "--json")
    assert r.returncode == 0, r.stderr
    a = json.loads(r.stdout)
    assert "4 players" in a["win_note"] and "two-player" in a["win_note"]
    judged = [t for t in a["turns"] if t["equity_lost"] is not None]
    assert len(judged) == 8
    assert all(t["win_before"] is None and t["win_after"] is None and t["win_best"] is None for t in judged)
    assert all("win chance" not in t["note"] for t in judged)
    table = _cli(str(path), "--winprob", str(EN_MODEL_PATH)).stdout
    assert "No win chances in a game of 4 players" in table
    page = tmp_path / "four.html"
    assert _cli(str(path), "--html", str(page)).returncode == 0
    assert "No win chances in a game of 4 players" in page.read_text("utf-8")
    two = analyze_game(self_play(1), model=WinModel.load(EN_MODEL_PATH))
    assert two.win_note is None and any(t.win_after is not None for t in two.turns)


# -- records that list only the tiles played and do not mark played-through letters ---------
def test_unmarked_played_through_letters_are_read_from_the_board_with_a_warning():
    unmarked = (GCG / "unmarked-through.gcg").read_bytes()
    marked = unmarked.replace(b"H6 BEAST", b"H6 BE(A)ST").replace(b"10F OTTER", b"10F OT(T)ER")
    a, b = read_game(unmarked, path="u.gcg"), read_game(marked)
    assert [t.notation for t in a.turns] == ["8G CAT", "H6 BE(A)ST", "10F OT(T)ER"]
    assert [t.board_after for t in a.turns] == [t.board_after for t in b.turns]
    assert a.final_scores == b.final_scores == (19, 7)
    assert a.warnings == (
        "u.gcg line 7: H6 'BEAST' does not mark the letter already on the board (A at H8); read as H6 BE(A)ST",
        "u.gcg line 8: 10F 'OTTER' does not mark the letter already on the board (T at 10H); read as 10F OT(T)ER")
    assert b.warnings == ()
    # the analysis sees the rack the record gives (the tiles played) and the move as placed
    assert a.turns[1].position.rack == "BEST" and a.turns[1].move.tiles_played == 4


def test_an_unmarked_word_whose_rack_lacks_a_tile_the_board_does_not_hold_is_refused():
    from dataclasses import replace

    text = (GCG / "unmarked-through.gcg").read_text(encoding="utf-8")
    # line 8: OTTER two squares left, no T under its second T: the rack EORT lacks it (the
    # reader finds it from the squares earlier plays covered) ...
    moved = text.replace(">Player_1: EORT 10F OTTER +9 19", ">Player_1: EORT 10D OTTER +9 19")
    with pytest.raises(GCGError, match=r"line 8: expected the rack EORT to hold the tiles played \(OTTER\)"):
        read_game(moved)
    # ... and so does the replay, from the board, for a record made by hand
    record = parse_gcg(text)
    shifted = replace(record.events[2], col=3, coordinate="10D")
    record = replace(record, events=record.events[:2] + (shifted,))
    with pytest.raises(GCGError, match=r"line 8: expected the rack EORT to hold the tiles played "
                                       r"\(OTTER of 10D OTTER\), but T is not on it"):
        read_game(record)


def test_cli_analyses_a_record_with_unmarked_played_through_letters():
    r = _cli(str(GCG / "unmarked-through.gcg"), "--winprob", str(MODEL_PATH))
    assert r.returncode == 0, r.stderr
    assert "warning: " in r.stderr and "read as H6 BE(A)ST" in r.stderr and "read as 10F OT(T)ER" in r.stderr
    assert "H6 BE(A)ST" in r.stdout and "10F OT(T)ER" in r.stdout
    assert "final 19/7" in r.stdout


def test_a_records_rules_board_and_stars_are_resolved_in_one_place():
    """replay, from_gcg, the analysis and its report take a record's rule set, #board_seed
    and #stars from resolve_record / resolve_rules: a game with star squares of its own
    replays and is drawn on them, whether the rules come from the record or by name."""
    from wordsalvo.commands.analyze import _report_rules
    from wordsalvo.formats.gcg import from_gcg
    from wordsalvo.formats.gcg_record import resolve_record
    from wordsalvo.formats.opcodes import resolve_rules

    rules = Rules.preset("turkish").with_layout(Rules.preset("turkish").layout, star_squares=((3, 5), (11, 9)))
    g = Game(rules, seed=4)
    for _ in range(4):
        g.play(g.best_move())
    text = to_gcg(g)
    assert "#stars 3,5 11,9" in text
    record = parse_gcg(text)
    resolved, lexicon, assumed = resolve_record(record)
    assert resolved.star_squares == rules.star_squares and assumed is None and lexicon is wordsalvo.Lexicon.default("tr")
    assert resolve_record(record, "turkish")[0].star_squares == rules.star_squares  # by name: the record's stars
    assert read_game(text, rules="turkish").rules.star_squares == rules.star_squares
    assert from_gcg(text).rules.star_squares == rules.star_squares
    a = analyze_game(text, top=1, win=False)
    assert a.stars == "3,5 11,9"
    assert _report_rules(a.to_dict()).star_squares == rules.star_squares
    assert resolve_rules("turkish", stars="3,5 11,9").star_squares == rules.star_squares
    with pytest.raises(GCGError, match="header rs/bseed"):
        resolve_record(parse_gcg(text.replace("#rules turkish", "#rules nosuch")))


def test_the_report_of_a_game_with_its_own_star_squares_draws_them():
    """GameAnalysis.report() carries the record's #stars and html() without rules draws
    them (it rebuilt the preset from the name and drew the default star squares)."""
    base = Rules.preset("turkish")
    rules = base.with_layout(base.layout, star_squares=((3, 5), (11, 9)))
    assert rules.star_squares != base.star_squares
    g = Game(rules, seed=4)
    for _ in range(4):
        g.play(g.best_move())
    rep = analyze_game(to_gcg(g), top=1, win=False).report()
    assert rep["game"]["stars"] == "3,5 11,9"
    assert report._resolve_rules(rep, None).star_squares == rules.star_squares
    page = report.html(rep)
    assert page == report.html(rep, rules) and page != report.html(rep, base)
    bad = {**rep, "game": {**rep["game"], "stars": [[3, 5]]}}
    with pytest.raises(report.RenderError, match="game.stars: expected star squares as text"):
        report.html(bad)


def test_a_rack_of_only_the_tiles_played_is_judged_by_score_and_says_so(model):
    """Some programs list only the tiles played as the rack: with tiles in the bag that is
    not the whole rack, so neither its leave nor its worth ("the rack itself was poor") is
    judged, only the move's score among the plays of those tiles."""
    text = ("#rules classic-en\n#player1 ann Ann\n#player2 bob Bob\n"
            ">ann: DFLOQRS 8D FOLDS +26 26\n>bob: G E7 G. +3 3\n>ann: AEIRTZ? - +0 26\n>bob: AX H8 .AX +10 13\n")
    a = analyze_game(text.encode(), model=model)
    bob = a.turns[1]
    assert bob.partial_rack and bob.leave is None and bob.win_after is None and not bob.poor_rack
    assert "only the tiles played (G)" in bob.note and "judged by its score" in bob.note
    assert "poor" not in bob.note and "kept" not in bob.note
    assert not a.turns[0].partial_rack and not a.turns[2].partial_rack  # full racks
    # a better score with the same tiles is what the note names
    assert bob.equity_lost == 0 and all(c.score <= 3 for c in bob.alternatives)
    ax = a.turns[3]
    assert ax.partial_rack and ax.equity_lost == 19 and "6E AX scored 29 with them" in ax.note


def test_a_wrapped_note_keeps_each_figure_with_its_percent_sign(model):
    """"win chance 55" at the end of one line and "%" on the next: the figure and its sign
    are joined by a no-break space, which a wrap never breaks."""
    a = analyze_game((GCG / "tournament.gcg").read_bytes(), model=model, path="tournament.gcg")
    for width in range(40, 90, 7):
        lines = a.table(width).split("\n")
        assert not any(line.strip().startswith("%") for line in lines)
        assert not any(re.search(r"\d$", line) and nxt.strip().startswith("%") for line, nxt in zip(lines, lines[1:]))
    assert any("\u00a0%" in t.note for t in a.turns) and not any(re.search(r"\d %", t.note) for t in a.turns)

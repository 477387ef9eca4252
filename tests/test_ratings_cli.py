"""``wordsalvo ratings`` and the readers of :mod:`wordsalvo.formats.results`.

Oracles: the same games rated through :func:`wordsalvo.ratings.rate_games`
(itself checked against Glickman's example in test_ratings.py), the places of
games replayed here, and every bad line named by its number.
"""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path

import pytest

import wordsalvo as ws
from wordsalvo.cli import main
from wordsalvo.commands._common import progress_bar
from wordsalvo.commands.ratings import format_table
from wordsalvo.formats.results import (
    gcg_date,
    rated_game_from_gcg,
    read_rated_games,
    read_results_csv,
)
from wordsalvo.ratings import RatedGame, RatingError, rate_games


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


CLUB = """\
date,player1,player2,score1,score2
# a comment line, and a blank one

2026-03-01,Ann,Bob,412,388
2026-03-01,Cid,Ann,350,350
2026-03-03,Bob,Cid,400,-12
"""


def game_record(players, seed, date="2026-03-04", resign=None, finish=True) -> str:
    """A GCG record of a game played here by the engine: ``resign`` = (after turns, player)."""
    game = ws.Game(ws.Rules.preset("wordsalvo-en"), players=list(players), seed=seed)
    turns = 0
    while not game.is_over and (finish or turns < 2):
        if resign is not None and turns == resign[0]:
            game.resign(resign[1])
            resign = None
            continue
        move = game.best_move()
        game.play(move) if move is not None else game.pass_turn()
        turns += 1
    text = ws.to_gcg(game)
    return (f"#date {date}\n" if date else "") + text


# -- CSV ------------------------------------------------------------------------------------
def test_read_results_csv_both_forms():
    games = read_results_csv(CLUB, "club.csv")
    d = datetime.date(2026, 3, 1)
    assert games == [
        RatedGame(d, ("Ann", "Bob"), (1, 2), "club.csv line 4"),
        RatedGame(d, ("Cid", "Ann"), (1, 1), "club.csv line 5"),
        RatedGame(datetime.date(2026, 3, 3), ("Bob", "Cid"), (1, 2), "club.csv line 6"),
    ]
    results = read_results_csv('2026-03-01,"Smith, Ann",Bob,0-1\n2026-03-02,Bob,Cid,1/2-1/2\n'
                               "2026-03-02,Cid,Ann,1-0\n2026-03-02,Cid,Bob,0.5-0.5\n")
    assert [(g.players, g.places) for g in results] == [
        (("Smith, Ann", "Bob"), (2, 1)), (("Bob", "Cid"), (1, 1)), (("Cid", "Ann"), (1, 2)),
        (("Cid", "Bob"), (1, 1))]
    with_header = read_results_csv("Date,Player1,Player2,Result\n2026-03-01,Ann,Bob,1-0\n")
    assert with_header[0].places == (1, 2)


def test_read_results_csv_reports_every_bad_line():
    text = ("date,player1,player2,score1,score2\n"
            "2026-03-01,Ann,Bob,412,388\n"
            "2026-02-30,Ann,Bob,1,0\n"
            "2026-03-01,Ann,Ann,1,0\n"
            "2026-03-01,Ann,Bob,12.5,3\n"
            "2026-03-01,Ann,Bob,1\n"
            "01/03/2026,,Bob,x,0\n")
    with pytest.raises(RatingError) as e:
        read_results_csv(text, "r.csv")
    assert e.value.problems == [
        "r.csv line 3: expected a date YYYY-MM-DD, got '2026-02-30'",
        "r.csv line 4: expected two different players, got 'Ann' twice",
        "r.csv line 5: expected two whole-number scores, got '12.5' and '3'",
        "r.csv line 6: expected 5 fields (date,player1,player2,score1,score2), got 4 in '2026-03-01,Ann,Bob,1'",
        "r.csv line 7: expected a date YYYY-MM-DD, got '01/03/2026'",
        "r.csv line 7: expected two player names, got '' and 'Bob'",
        "r.csv line 7: expected two whole-number scores, got 'x' and '0'",
    ]
    assert str(e.value).startswith("r.csv: 7 problems:")


@pytest.mark.parametrize("text, words", [
    ("date,a,b,c\n", "line 1: expected the header 'date,player1,player2,score1,score2' or"),
    ("2026-03-01,Ann,Bob\n", "line 1: expected 5 fields (date,player1,player2,score1,score2) or 4 fields"),
    ("2026-03-01,Ann,Bob,2-0\n", "line 1: expected a result 1-0, 0-1 or 1/2-1/2, got '2-0'"),
    ('2026-03-01,"Ann,Bob,1-0\n', "line 1: expected comma-separated fields"),
])
def test_read_results_csv_bad(text, words):
    with pytest.raises(RatingError, match=words.replace("(", r"\(").replace(")", r"\)")):
        read_results_csv(text, "x.csv")


# -- GCG ------------------------------------------------------------------------------------
def test_rated_game_from_gcg_takes_names_places_and_date():
    text = game_record(["Ann", "Bob", "Cid"], seed=3, resign=(4, 1))
    g = rated_game_from_gcg(text, "g.gcg")
    game = ws.from_gcg(text)
    assert g.date == datetime.date(2026, 3, 4) and g.players == ("Ann", "Bob", "Cid") and g.source == "g.gcg"
    assert g.places[1] == 3  # Bob left
    a, c = game.scores[0], game.scores[2]
    assert g.places[0] == (1 if a >= c else 2) and g.places[2] == (1 if c >= a else 2)


@pytest.mark.parametrize("date, words", [
    (None, "g.gcg: expected a '#date YYYY-MM-DD' header line, got none"),
    ("4 March 2026", "g.gcg line 1: expected '#date YYYY-MM-DD', got '4 March 2026'"),
])
def test_gcg_date_errors(date, words):
    text = ("" if date is None else f"#date {date}\n") + "#player1 Ann Ann\n"
    with pytest.raises(RatingError, match=words):
        gcg_date(text, "g.gcg")
    with pytest.raises(RatingError, match="line 2: expected one #date line"):
        gcg_date("#date 2026-01-01\n#date 2026-01-02\n", "g.gcg")


def test_unfinished_or_broken_gcg_is_an_error():
    with pytest.raises(RatingError, match="g.gcg: expected a finished game"):
        rated_game_from_gcg(game_record(["Ann", "Bob"], seed=1, finish=False), "g.gcg")
    with pytest.raises(RatingError, match=r"g.gcg line 3: expected"):
        rated_game_from_gcg("#date 2026-01-01\n#player1 Ann Ann\nnonsense\n", "g.gcg")


# -- the command ------------------------------------------------------------------------------
def test_cli_csv_table(tmp_path, capsys):
    path = tmp_path / "club.csv"
    path.write_text(CLUB)
    code, out, err = run(capsys, "ratings", str(path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["#", "player", "rating", "RD", "volatility", "tier", "games", "wins", "draws",
                                "losses"]
    want = rate_games(read_results_csv(CLUB, str(path)))
    assert len(lines) == 1 + len(want)
    for k, (line, s) in enumerate(zip(lines[1:], want), 1):
        assert line.split() == [str(k), s.player, f"{s.rating.rating:.1f}", f"{s.rating.rd:.1f}",
                                f"{s.rating.volatility:.5f}", s.rating.tier.name, str(s.games), str(s.wins),
                                str(s.draws), str(s.losses)]
    assert [line.split()[1] for line in lines[1:]] == ["Ann", "Bob", "Cid"]
    assert out.rstrip("\n") == format_table(want)


def test_cli_json_and_periods(tmp_path, capsys):
    path = tmp_path / "club.csv"
    path.write_text(CLUB)
    for period in ("day", "week", "game"):
        code, out, _ = run(capsys, "ratings", "--json", "--period", period, "--tau", "0.3", str(path))
        assert code == 0
        doc = json.loads(out)
        want = rate_games(read_results_csv(CLUB, str(path)), period=period, tau=0.3)
        assert doc["period"] == period and doc["tau"] == 0.3 and doc["games"] == 3
        assert doc["players"] == [{"rank": k, **s.to_dict()} for k, s in enumerate(want, 1)]
    assert json.loads(out)["players"][0]["rating"] != json.loads(run(capsys, "ratings", "--json", str(path))[1])[
        "players"][0]["rating"]


def test_cli_gcg_and_csv_together(tmp_path, capsys):
    files = []
    for k, (players, seed, resign) in enumerate([(["Ann", "Bob"], 1, None), (["Bob", "Cid", "Ann"], 3, (4, 0)),
                                                   (["Cid", "Ann"], 2, (1, 1))]):
        p = tmp_path / f"g{k}.gcg"
        p.write_text(game_record(players, seed, date=f"2026-03-0{k + 2}", resign=resign))
        files.append(str(p))
    csv_path = tmp_path / "more.csv"
    csv_path.write_text("2026-03-01,Dee,Ann,1-0\n")
    files.append(str(csv_path))
    code, out, err = run(capsys, "ratings", "--json", *files)
    assert code == 0, err
    doc = json.loads(out)
    games = read_rated_games(files)
    assert doc["games"] == 4 == len(games)
    assert doc["players"] == [{"rank": k, **s.to_dict()} for k, s in enumerate(rate_games(games), 1)]
    counts = {p["player"]: p["games"] for p in doc["players"]}
    assert counts == {"Ann": 4, "Bob": 2, "Cid": 2, "Dee": 1}
    ann = next(p for p in doc["players"] if p["player"] == "Ann")
    assert ann["losses"] >= 2  # lost to Dee, resigned the three-player game


def test_cli_reports_every_problem_of_every_file(tmp_path, capsys):
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("2026-03-01,Ann,Bob,1-0\n2026-03-01,Ann,Bob,1:0\n2026-3-1,Ann,Bob,0-1\n")
    undated = tmp_path / "undated.gcg"
    undated.write_text(game_record(["Ann", "Bob"], seed=1, date=None))
    code, out, err = run(capsys, "ratings", str(bad_csv), str(undated), str(tmp_path / "missing.gcg"))
    assert code == 2 and out == ""
    assert err.startswith("wordsalvo ratings: error: 3 file(s): 4 problems:")
    assert f"{bad_csv} line 2: expected a result 1-0, 0-1 or 1/2-1/2, got '1:0'" in err
    assert f"{bad_csv} line 3: expected a date YYYY-MM-DD, got '2026-3-1'" in err
    assert f"{undated}: expected a '#date YYYY-MM-DD' header line, got none" in err
    assert "no such file: " in err and "missing.gcg" in err


def test_cli_empty_input_and_bad_options(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_text("date,player1,player2,result\n")
    code, _, err = run(capsys, "ratings", str(empty))
    assert code == 2 and "expected at least one game" in err
    with pytest.raises(SystemExit):
        main(["ratings", "--tau", "-1", str(empty)])
    assert "expected a number > 0, got '-1'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["ratings", "--period", "year", str(empty)])


def test_no_progress_bar_when_standard_error_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert progress_bar(10, "file") is None


def test_help_lists_the_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "ratings" in capsys.readouterr().out
    assert Path(ws.__file__).parent.joinpath("data", "tiers.toml").is_file()


def _wordsalvo(*args, env=None, stdin=None, cwd=None):
    """The installed command as a user runs it (the package the tests import)."""
    import os
    import subprocess
    import sys

    full = dict(os.environ, PYTHONPATH=str(Path(ws.__file__).resolve().parents[1]), **(env or {}))
    return subprocess.run([sys.executable, "-m", "wordsalvo", *args], capture_output=True, text=True, env=full,
                          input=stdin, cwd=cwd, timeout=600)


def test_ratings_of_autoplay_games_by_folder_by_files_and_without_dates(tmp_path):
    """autoplay --gcg writes #date and #time; ratings takes its folder and its files;
    records without dates are refused per day but rated in file order with --period game."""
    games = tmp_path / "auto"
    r = _wordsalvo("autoplay", "--rules", "wordsalvo-en", "--games", "4", "--p1", "easy", "--p2", "medium",
                   "--gcg", str(games), "--seed", "3")
    assert r.returncode == 0, r.stderr
    files = sorted(games.glob("*.gcg"))
    assert len(files) == 4
    for f in files:
        head = f.read_text("utf-8").splitlines()
        dates = [line for line in head if line.startswith("#date ")]
        times = [line for line in head if line.startswith("#time ")]
        assert len(dates) == 1 and datetime.date.fromisoformat(dates[0].split()[1])
        assert len(times) == 1 and len(times[0].split()[1]) == len("21:40:03+00:00")
    by_folder = _wordsalvo("ratings", str(games), "--json")
    assert by_folder.returncode == 0, by_folder.stderr
    doc = json.loads(by_folder.stdout)
    assert doc["games"] == 4 and {p["player"] for p in doc["players"]} == {"p1-easy", "p2-medium"}
    by_files = _wordsalvo("ratings", *map(str, files), "--json", "--period", "game")
    assert by_files.returncode == 0 and json.loads(by_files.stdout)["games"] == 4
    # the same games without their dates: a day needs one, a game does not
    bare = tmp_path / "bare"
    bare.mkdir()
    for f in files:
        text = "".join(line for line in f.read_text("utf-8").splitlines(True)
                       if not line.startswith(("#date", "#time")))
        (bare / f.name).write_text(text, "utf-8")
    refused = _wordsalvo("ratings", str(bare))
    assert refused.returncode == 2 and "expected a '#date YYYY-MM-DD' header line, got none" in refused.stderr
    assert "--period game" in refused.stderr
    in_order = _wordsalvo("ratings", str(bare), "--period", "game", "--json")
    assert in_order.returncode == 0, in_order.stderr
    assert "4 games of 4 without a #date line: every game rated in the order given" in in_order.stderr
    expected = rate_games([rated_game_from_gcg(f.read_text("utf-8"), str(f), dates=False)
                           for f in sorted(bare.glob("*.gcg"))], period="game")
    got = json.loads(in_order.stdout)["players"]
    assert [(p["player"], round(p["rating"], 6)) for p in got] == \
        [(s.player, round(s.rating.rating, 6)) for s in expected]
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _wordsalvo("ratings", str(empty))
    assert r.returncode == 2 and "expected a folder with GCG records" in r.stderr


def test_games_of_one_day_are_rated_in_the_order_of_their_time():
    early = RatedGame(datetime.date(2026, 3, 1), ("Ann", "Bob"), (1, 2), "a", time=datetime.time(9, 0))
    late = RatedGame(datetime.date(2026, 3, 1), ("Ann", "Bob"), (2, 1), "b", time=datetime.time(21, 0))
    assert [s.to_dict() for s in rate_games([late, early], period="game")] == \
        [s.to_dict() for s in rate_games([early, late], period="game")]
    assert [s.to_dict() for s in rate_games([late, early], period="game")] != \
        [s.to_dict() for s in rate_games([late, RatedGame(early.date, early.players, early.places, "a2",
                                                           time=datetime.time(22, 0))], period="game")]
    with pytest.raises(RatingError, match="expected a date for rating periods of a day"):
        rate_games([RatedGame(None, ("Ann", "Bob"), (1, 2), "x.gcg")])


def test_play_writes_the_date_and_time_and_a_resumed_game_keeps_them(tmp_path):
    saves = tmp_path / "saves"
    r = _wordsalvo("play", "--rules", "wordsalvo-en", "--game-seed", "5", stdin="quit\n",
                   env={"WORDSALVO_GAMES_DIR": str(saves)})
    assert r.returncode == 0, r.stderr
    (saved,) = saves.glob("*.gcg")
    text = saved.read_text("utf-8")
    date = [line for line in text.splitlines() if line.startswith(("#date ", "#time "))]
    assert [line.split()[0] for line in date] == ["#date", "#time"]
    assert datetime.date.fromisoformat(date[0].split()[1])
    r = _wordsalvo("play", "--resume", str(saved), stdin="pass\nquit\n", env={"WORDSALVO_GAMES_DIR": str(saves)})
    assert r.returncode == 0, r.stderr
    again = saved.read_text("utf-8")
    assert again != text and [line for line in again.splitlines() if line.startswith(("#date ", "#time "))] == date


# a tournament record (no #rules, #lexicon CSW21) with AW, a word of CSW but not of the
# embedded SCOWL list: the ratings need its result, not a judgement of its words
TOURNAMENT_CSW = """\
#character-encoding UTF-8
#lexicon CSW21
#date 2026-11-01
#player1 ann Ann
#player2 bob Bob
>ann: AWERTYU 8G AW +10 10
>bob: EIOSTRN H8 .E +5 5
>ann: ERTYU?? (resign) +0 10
"""


def test_ratings_read_a_result_without_judging_its_words(tmp_path, capsys):
    (tmp_path / "csw.gcg").write_text(TOURNAMENT_CSW, encoding="utf-8")
    g = rated_game_from_gcg(TOURNAMENT_CSW, "csw.gcg")
    assert g.players == ("ann", "bob") and g.places == (2, 1)
    code, out, err = run(capsys, "ratings", str(tmp_path / "csw.gcg"))
    assert code == 0 and "phony" not in err and out.splitlines()[1].split()[1] == "bob"
    # the board and the scores are still checked
    bad = TOURNAMENT_CSW.replace("8G AW +10 10", "8G AW +11 11").replace("+0 10", "+0 11")
    with pytest.raises(RatingError, match="csw.gcg line 6: expected the recorded score"):
        rated_game_from_gcg(bad, "csw.gcg")


def test_ratings_read_an_iso_8859_1_record_as_analyze_does(tmp_path, capsys):
    data = (Path(__file__).parent / "data" / "gcg" / "club-latin1.gcg").read_bytes() + b"#date 2026-11-02\r\n"
    (tmp_path / "club.gcg").write_bytes(data)
    code, out, err = run(capsys, "ratings", str(tmp_path / "club.gcg"))
    assert code == 0, err
    assert [line.split()[1] for line in out.splitlines()[1:]] == ["jos\u00e9", "j\u00fcrgen"]
    code, out, err = run(capsys, "analyze", str(tmp_path / "club.gcg"))
    assert code == 0 and "Jos\u00e9" in out

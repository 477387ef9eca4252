"""Replay analysis (wordsalvo.analysis) and ``wordsalvo analyze``.

Oracles: the generator's full move list and ``best(pos, n)`` on positions
rebuilt by an independent replay of the same game, ``gen.validate`` for the
words formed, the game's own scores and history for the totals.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import wordsalvo as ws
from wordsalvo import Game, MoveGenerator, Rules
from wordsalvo.formats.gcg import to_gcg
from wordsalvo.analysis import (BRILLIANCY_MARGIN, MISSED_THRESHOLD, AnalysisError, GameAnalysis, analyze_game)
from wordsalvo.cli import main

RULES = "wordsalvo-en"
WEAK_TURN = 4  # 0-based history index of the deliberately weak play


def best_move_game(seed: int, weak_turn: int | None = None) -> Game:
    """A seeded game, the best move everywhere (pass when none); at ``weak_turn`` the
    lowest-scoring legal move instead."""
    g = Game(Rules.preset(RULES), seed=seed)
    while not g.is_over:
        if len(g.history) == weak_turn:
            moves = g.legal_moves().sorted()
            g.play(moves[len(moves) - 1])
            continue
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    return g


@pytest.fixture(scope="module")
def best_game() -> Game:
    return best_move_game(5)


@pytest.fixture(scope="module")
def weak_game() -> Game:
    return best_move_game(5, weak_turn=WEAK_TURN)


def positions_before(game: Game):
    """(turn, position before it) for every play/pass/swap, from a fresh replay of the game."""
    replay = Game(game.rules, lexicon=game.lexicon, players=list(game.names), seed=game.seed)
    for turn in game.history:
        if turn.kind == "settle":
            continue
        yield turn, replay.position()
        if turn.kind == "play":
            replay.play(turn.notation)
        elif turn.kind == "pass":
            replay.pass_turn()
        elif turn.kind == "swap":
            replay.swap(turn.tiles)
        else:  # pragma: no cover - the policies here make no other turns
            raise AssertionError(turn.kind)


def test_best_moves_everywhere_are_best_with_rank_one(best_game):
    a = analyze_game(best_game)
    plays = [t for t in a.turns if t.kind == "play"]
    assert len(plays) > 10 and len(a.turns) == len(best_game.history)
    for t in plays:
        assert t.is_best and t.points_missed == 0 and t.rank == 1 and not t.missed, t
    for t in a.turns:
        if t.analysed:
            assert t.points_missed == 0, t  # a pass here means no legal placement
    for p in a.players:
        assert p.points_missed == 0 and p.best_moves == p.plays


def test_a_weak_move_misses_best_minus_played_and_ranks_below_one(weak_game):
    a = analyze_game(weak_game)
    t = a.turns[WEAK_TURN]
    pos = dict(enumerate(positions_before(weak_game)))[WEAK_TURN][1]
    moves = MoveGenerator(weak_game.lexicon, weak_game.rules).generate(pos)
    best = int(moves.scores.max())
    assert t.kind == "play" and t.score == int(moves.scores.min()) < best
    assert t.best_score == best and t.points_missed == best - t.score
    assert t.rank == 1 + int((moves.scores > t.score).sum()) and t.rank > 1
    assert not t.is_best and t.missed == (best - t.score >= MISSED_THRESHOLD)
    assert t.legal_moves == len(moves)


def test_best_list_and_flags_match_the_generator(weak_game):
    a = analyze_game(weak_game, top=4)
    gen = MoveGenerator(weak_game.lexicon, weak_game.rules)
    leader = None
    for (turn, pos), t in zip(positions_before(weak_game), a.turns):
        assert (t.kind, t.score) == (turn.kind, turn.score)
        want = gen.best(pos, n=4)
        assert [(m.notation, m.score) for m in t.best] == [(m.notation, m.score) for m in want]
        scores = np.sort(gen.generate(pos).scores)[::-1]
        if t.kind == "play":
            margin = int(scores[0] - scores[1]) if len(scores) > 1 else -1
            assert t.brilliancy == (t.is_best and (t.is_bingo or margin >= BRILLIANCY_MARGIN))
        assert t.missed == (t.points_missed >= MISSED_THRESHOLD)
    for t in a.turns:  # turning points from the scores after each entry
        top = max(t.scores_after)
        ahead = [i for i, s in enumerate(t.scores_after) if s == top]
        sole = ahead[0] if len(ahead) == 1 else None
        assert t.turning_point == (sole is not None and leader is not None and sole != leader), t
        leader = sole if sole is not None else leader
    assert any(t.turning_point for t in a.turns)


def test_totals_add_up(weak_game):
    a = analyze_game(weak_game)
    assert a.final_scores == tuple(weak_game.scores) and a.winners == weak_game.winners
    for p in a.players:
        mine = [t for t in weak_game.history if t.player == p.player]
        assert p.points_scored == sum(t.score for t in mine if t.kind == "play")
        assert p.points_scored + sum(t.score for t in mine if t.kind == "settle") == p.final_score
        turns = [t for t in a.turns if t.player == p.player]
        assert p.points_missed == sum(t.points_missed for t in turns if t.analysed)
        assert p.plays == sum(1 for t in mine if t.kind == "play")
        assert p.bingos_played == sum(1 for t in turns if t.is_bingo)
    assert sum(p.points_missed for p in a.players) > 0


def test_word_book_holds_exactly_the_words_formed(weak_game):
    a = analyze_game(weak_game)
    gen = MoveGenerator(weak_game.lexicon, weak_game.rules)
    want: dict[str, list[str]] = {n: [] for n in weak_game.names}
    for turn, pos in positions_before(weak_game):
        if turn.kind == "play":
            words = [w.word for w in gen.validate(pos, turn.notation).words]
            assert tuple(words) == turn.words
            want[weak_game.names[turn.player]] += words
    assert a.word_book == {n: tuple(w) for n, w in want.items()}
    assert all(a.word_book.values())


GCG_HEAD = "#rules wordsalvo-en\n#player1 Ann Ann\n#player2 Bob Bob\n"


def test_a_bingo_available_and_not_played_is_a_missed_bingo():
    # no #seed: the racks of the record are the truth; AEINRST has bingos on the empty board
    a = analyze_game(GCG_HEAD + ">Ann: AEINRST 8G AT +2 2\n")
    t = a.turns[0]
    assert t.bingo_available and t.bingo_missed and not t.is_bingo
    assert t.best[0].is_bingo and t.best[0].tiles_played == 7 and t.missed
    assert (a.players[0].bingos_missed, a.players[0].bingos_played) == (1, 0)
    bingo = t.best[0]
    b = analyze_game(GCG_HEAD + f">Ann: AEINRST {bingo.notation} +{bingo.score} {bingo.score}\n")
    t = b.turns[0]
    assert t.is_bingo and t.is_best and not t.bingo_missed and t.brilliancy
    assert (b.players[0].bingos_missed, b.players[0].bingos_played) == (0, 1)


def test_swaps_and_passes_report_the_play_they_gave_up():
    a = analyze_game(GCG_HEAD + ">Ann: AEINRST -AE +0 0\n>Bob: AEGINST - +0 0\n")
    swap, pas = a.turns
    assert (swap.kind, swap.tiles, pas.kind) == ("swap", "AE", "pass")
    for t in (swap, pas):
        assert t.scoring_play_available and t.best_score > 0 and t.points_missed == t.best_score
        assert t.rank is None and t.is_best is None and t.bingo_missed and t.words == ()
    assert a.players[0].plays == 0 and a.players[0].points_missed == swap.best_score


def test_gcg_text_gives_the_same_analysis_as_the_game(weak_game):
    assert analyze_game(to_gcg(weak_game), top=2) == analyze_game(weak_game, top=2)
    assert ws.analyze_game is analyze_game


def test_json_round_trip(weak_game):
    a = analyze_game(weak_game)
    d = a.to_dict()
    again = json.loads(json.dumps(d))
    assert again == d
    assert GameAnalysis.from_dict(again) == a
    assert d["word_book"] == {n: list(w) for n, w in a.word_book.items()}
    with pytest.raises(AnalysisError, match="expected a dict written by GameAnalysis.to_dict"):
        GameAnalysis.from_dict({"turns": []})


def test_bad_input_raises_analysis_errors():
    with pytest.raises(AnalysisError, match="expected a Game or GCG text, got int"):
        analyze_game(3)
    with pytest.raises(AnalysisError, match="top: expected a whole number >= 1, got 0"):
        analyze_game(GCG_HEAD, top=0)
    assert issubclass(AnalysisError, ws.WordSalvoError)


def test_str_and_summary_are_readable(weak_game):
    a = analyze_game(weak_game)
    text = str(a)
    assert text.startswith("analysis of a wordsalvo-en game (Player1, Player2)")
    assert f"{WEAK_TURN + 1}. " in a.summary() or not a.turns[WEAK_TURN].flags
    assert str(a.players[0]).startswith(f"Player1: {weak_game.scores[0]} ")
    assert str(a.turns[0]).startswith("1. Player1: ")


def test_cli_table_and_json(weak_game, tmp_path, capsys):
    path = tmp_path / "game.gcg"
    path.write_text(to_gcg(weak_game), encoding="utf-8")
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].split()[:4] == ["#", "player", "rack", "move"]
    weak = analyze_game(weak_game).turns[WEAK_TURN]
    row = lines[2 + WEAK_TURN]
    assert row.split()[0] == str(WEAK_TURN + 1) and weak.notation in row and f" {weak.points_missed} " in row
    assert "Word Book:" in out and "Player1: " + " ".join(analyze_game(weak_game).word_book["Player1"]) in out
    assert main(["analyze", "--json", "--top", "2", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == analyze_game(weak_game, top=2).to_dict()
    assert main(["analyze", str(tmp_path / "missing.gcg")]) == 2
    assert "cannot read the game record" in capsys.readouterr().err

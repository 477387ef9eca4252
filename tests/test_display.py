"""Notebook pictures and reprs of the core's objects (wordsalvo.display, render/notebook.py),
``Position`` equality and ``ws.read_game``, as a Python developer meets them."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import wordsalvo as ws

SRC = str(Path(ws.__file__).resolve().parents[1])


def _game():
    g = ws.Game(ws.Rules.preset("wordsalvo-en"), players=["Ann", "Bob"], seed=1)
    g.play(g.best_move())
    return g


def test_reprs_say_what_they_hold():
    g = _game()
    assert repr(g) == "<Game wordsalvo-en seed=1: Ann 26, Bob 0; 1 turn, last Ann 8D DOWAR 26; Bob to move>"
    assert repr(g.board) == "<Board en, 5 tiles: 8 ...DOWAR.......>"
    assert repr(ws.Board(ws.get_alphabet("nl"))) == "<Board nl, empty>"
    assert repr(g.position()).startswith("<Position wordsalvo-en, 5 tiles, racks ")
    moves = g.legal_moves().sorted()
    text = repr(moves)
    first = [str(m) for m in moves[:5]]
    assert text.startswith(f"<MoveList of {len(moves)} moves: {', '.join(first)}, ... {len(moves) - 5} more>")
    assert repr(moves[:1]) == f"<MoveList of 1 move: {first[0]}>" and repr(moves[:0]) == "<MoveList of 0 moves>"


def test_notebook_pictures():
    g = _game()
    board = ET.fromstring(g.board._repr_svg_())  # plain squares, no values: a board has no rule set
    assert board.get("class") == "ws-board" and not board.findall(".//*[@data-premium='3W']")
    position = ET.fromstring(g.position()._repr_svg_())
    assert position.findall(".//*[@data-premium='3W']") and position.findall(".//*[@data-letter='D']")
    html = g._repr_html_()
    assert "<svg" in html and "Ann" in html and "Bob to move" in html and "8D DOWAR" in html
    assert html.count('class="tile highlight"') == 5  # the last play
    table = g.legal_moves().sorted()._repr_html_()
    assert table.count("<tr>") == 11 and "more</p>" in table
    assert g.position()._repr_html_() is None and g.board._repr_html_() is None  # one picture each


def test_pictures_load_the_render_layer_only_when_asked_for():
    code = ("import sys, wordsalvo as ws\n"
            "g = ws.Game(ws.Rules.preset('classic-en'), seed=2)\n"
            "assert 'wordsalvo.render.notebook' not in sys.modules\n"
            "svg = g.position()._repr_svg_()\n"
            "assert svg.startswith('<svg') and 'wordsalvo.render.notebook' in sys.modules\n"
            "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=SRC))  # LD_PRELOAD of a sanitizer run too
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr


def test_position_equality():
    g = _game()
    a, b = g.position(), g.position()
    assert a == b and a is not b and a.copy() == a
    assert ws.parse_cgp(ws.format_cgp(a), rules=ws.Rules.preset("wordsalvo-en")) == a
    b.racks[0] = "Q"
    assert a != b
    c = g.position()
    c.scores[0] += 1
    assert a != c
    assert a != ws.Position(ws.Rules.preset("classic-en"), a.board.copy(), a.racks, a.scores)
    assert a == ws.Position(ws.Rules.preset("wordsalvo-en"), a.board.copy(), a.racks, a.scores)
    assert a != "not a position"
    try:
        hash(a)
    except TypeError:
        pass
    else:
        raise AssertionError("a position changes, so it must not hash")


def test_read_game_is_one_call_from_gcg_text_to_a_replay():
    g = _game()
    g.play(g.best_move())
    replay = ws.read_game(ws.to_gcg(g))
    assert [t.kind for t in replay.turns] == ["play", "play"] and replay.final_scores == tuple(g.scores)
    assert repr(replay) == f"<Replay wordsalvo-en: Ann {g.scores[0]}, Bob {g.scores[1]}; 2 entries (unfinished)>"
    assert replay.turns[1].position == ws.read_game(ws.to_gcg(g)).turns[1].position


def test_a_move_list_table_is_best_first_whatever_its_order():
    """The table was in the list's order (generation order for legal_moves())."""
    g = _game()
    moves = g.legal_moves()
    assert list(moves.scores) != sorted(moves.scores, reverse=True)  # generation order
    table = moves._repr_html_()
    best = moves.sorted()
    assert "best first by score" in table
    rows = table.split("<tr>")[2:]
    assert [f"<code>{m.notation}</code>" in row for m, row in zip(best[:10], rows)] == [True] * 10


def test_game_analysis_and_sim_result_show_as_tables_in_a_notebook():
    from wordsalvo.analysis import analyze_game
    from wordsalvo.engine.simulation import simulate

    g = _game()
    g.play(g.best_move())
    a = analyze_game(g, win=False)
    html = a._repr_html_()
    assert html.startswith("<div class='wordsalvo-analysis'>") and html.count("<tr>") == 1 + len(a.turns)
    assert "8D DOWAR" in html and "words judged by" in html and "Ann" in html
    result = simulate(g, plays=5, plies=1, iterations=4, seed=3)
    html = result._repr_html_()
    assert html.startswith("<div class='wordsalvo-sim'>") and html.count("<tr>") == 1 + len(result.rows)
    assert f"<code>{result.best.move}</code>" in html.split("<tr>")[2] and "iterations" in html

"""How the core's objects show themselves in a notebook (Jupyter, IPython).

Registered with :mod:`wordsalvo.display` when this module is imported (the package
facade imports it the first time a notebook asks for a picture):

* ``Board``: its tiles as an SVG picture (:func:`wordsalvo.render.svg.board`) on plain
  squares, without tile values: a board does not know its rule set;
* ``Position``: the board with the rule set's premiums and values;
* ``Game``: HTML, the board with the last play highlighted, then every player's score
  and rack size and who is on turn (or how the game ended);
* ``MoveList``: HTML, a table of its :data:`TABLE_MOVES` best moves, best first (by
  equity when the moves carry it, else by score; notation, score, equity and leave
  when known, words), whatever order the list is in;
* ``SimResult``: HTML, the simulated candidates best first (static equity, mean
  equity ± its standard error, win chance, iterations) and how the simulation ran;
* ``GameAnalysis``: HTML, the heading (players, result, which list judged the words)
  and one row per turn (move, score, equity lost, win chance after it and after the
  best move, badges, the coach's note).

Every function takes the object and reads only its public attributes.
"""

from __future__ import annotations

from html import escape
from types import SimpleNamespace
from typing import Any

from ..constants import DIM, SQUARES
from ..display import register
from . import svg
from .terminal import placed_squares

__all__ = ["board_svg", "position_svg", "game_html", "move_list_html", "sim_result_html", "game_analysis_html",
           "TABLE_MOVES", "SIZE"]

#: width and height of a notebook board, pixels
SIZE = 420
#: rows of a move list's table
TABLE_MOVES = 10


def _plain_rules(alphabet) -> Any:
    """What :func:`svg.board` reads of a rule set, for a board without one: plain squares."""
    return SimpleNamespace(name=f"{alphabet.name} board", alphabet=alphabet, layout=("." * DIM,) * DIM,
                           letter_multipliers=(1,) * SQUARES, word_multipliers=(1,) * SQUARES,
                           square_bonus=(0,) * SQUARES, tile_values=None, centre=(DIM // 2, DIM // 2))


def board_svg(board) -> str:
    return str(svg.board(_plain_rules(board.alphabet), bytes(board.tiles), size=SIZE, values=False,
                         title=f"board, {board.tile_count} tiles"))


def position_svg(position) -> str:
    return str(svg.board(position.rules, bytes(position.board.tiles), size=SIZE))


def game_html(game) -> str:
    plays = [t for t in game.history if t.kind == "play"]
    highlight = sorted(placed_squares(plays[-1].notation)) if plays else ()
    picture = svg.board(game.rules, bytes(game.board.tiles), highlight=highlight, size=SIZE)
    rows = []
    for i, (name, score) in enumerate(zip(game.names, game.scores)):
        mark = "\u25b6 " if not game.is_over and i == game.to_move else ""
        rows.append(f"<tr><td>{mark}{escape(name)}</td><td style='text-align:right'>{score}</td>"
                    f"<td style='text-align:right'>{len(game.racks[i])} tiles</td></tr>")
    if game.is_over:
        won = " and ".join(game.names[w] for w in game.winners)
        state = f"Over ({escape(game.end_reason or '')}){': ' + escape(won) + ' won' if won else ''}"
    else:
        state = f"{escape(game.names[game.to_move])} to move; {game.bag_count} tiles in the bag"
    last = ""
    if plays:
        t = plays[-1]
        last = f"<p>Last play: {escape(game.names[t.player])} {escape(t.notation)} for {t.score}</p>"
    return (f"<div class='wordsalvo-game'>{picture}<p><b>{escape(game.rules.name)}</b>, "
            f"{len(game.history)} turns. {state}</p>{last}<table>{''.join(rows)}</table></div>")


def move_list_html(moves) -> str:
    n = len(moves)
    head = "<tr><th>#</th><th>move</th><th>score</th><th>equity</th><th>leave</th><th>words</th></tr>"
    rows = []
    best = moves.order("equity" if moves.has_equity else "score")[:TABLE_MOVES]
    for k, m in enumerate((moves[int(i)] for i in best), 1):
        equity = "" if m.equity is None else f"{m.equity:.1f}"
        leave = "" if m.leave is None else escape(m.leave)
        rows.append(f"<tr><td>{k}</td><td><code>{escape(m.notation)}</code></td><td>{m.score}</td>"
                    f"<td>{equity}</td><td>{leave}</td><td>{escape(', '.join(m.formed_words()))}</td></tr>")
    more = f"<p>... and {n - TABLE_MOVES} more</p>" if n > TABLE_MOVES else ""
    by = "equity" if moves.has_equity else "score"
    return (f"<div class='wordsalvo-moves'><p>{n} move{'s' if n != 1 else ''}, best first by {by}</p>"
            f"<table>{head}{''.join(rows)}</table>{more}</div>")


def _num(value, fmt: str) -> str:
    return "" if value is None else format(value, fmt)


def sim_result_html(result) -> str:
    head = ("<tr><th>#</th><th>move</th><th>static</th><th>equity</th><th>\u00b1 se</th><th>win</th>"
            "<th>iterations</th></tr>")
    rows = []
    for k, r in enumerate(result.rows, 1):
        dropped = "" if r.alive else " <i>(dropped)</i>"
        win = "" if r.win is None else f"{100 * r.win:.1f}\u00a0%"
        rows.append(f"<tr><td>{k}</td><td><code>{escape(r.move)}</code>{dropped}</td>"
                    f"<td>{r.static_equity:.2f}</td><td>{_num(r.equity, '.2f')}</td><td>{_num(r.stderr, '.2f')}</td>"
                    f"<td>{win}</td><td>{r.iterations}</td></tr>")
    return (f"<div class='wordsalvo-sim'><p>{escape(result.summary())}</p><table>{head}{''.join(rows)}</table>"
            "</div>")


def game_analysis_html(analysis) -> str:
    heading = analysis.text().split("\n")[:-len(analysis.turns) - 1]  # the heading's lines, not the table
    head = ("<tr><th>#</th><th>player</th><th>rack</th><th>move</th><th>score</th><th>eq. lost</th>"
            "<th>win / best</th><th>badges</th><th>note</th></tr>")
    rows = []
    for t in analysis.turns:
        win = "" if t.win_after is None else f"{t.win_after:.0%}\u00a0/\u00a0{t.win_best:.0%}"
        rows.append(f"<tr><td>{t.index + 1}</td><td>{escape(t.name)}</td><td><code>{escape(t.rack or '')}</code></td>"
                    f"<td><code>{escape(t.notation or t.kind)}</code></td><td>{t.score:+d}</td>"
                    f"<td>{_num(t.equity_lost, '.1f')}</td><td>{win}</td><td>{escape(', '.join(t.badges))}</td>"
                    f"<td>{escape(t.note)}</td></tr>")
    return (f"<div class='wordsalvo-analysis'>{''.join(f'<p>{escape(line)}</p>' for line in heading)}"
            f"<table>{head}{''.join(rows)}</table></div>")


register("Board", "svg", board_svg)
register("Position", "svg", position_svg)
register("Game", "html", game_html)
register("MoveList", "html", move_list_html)
register("SimResult", "html", sim_result_html)
register("GameAnalysis", "html", game_analysis_html)

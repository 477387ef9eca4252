"""How the core's objects show themselves in a notebook (Jupyter, IPython).

Registered with :mod:`wordsalvo.display` when this module is imported (the package
facade imports it the first time a notebook asks for a picture):

* ``Board``: its tiles as an SVG picture (:func:`wordsalvo.render.svg.board`) on plain
  squares, without tile values: a board does not know its rule set;
* ``Position``: the board with the rule set's premiums and values;
* ``Game``: HTML, the board with the last play highlighted, then every player's score
  and rack size and who is on turn (or how the game ended);
* ``MoveList``: HTML, a table of its first :data:`TABLE_MOVES` moves (notation, score,
  equity and leave when known, words).

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

__all__ = ["board_svg", "position_svg", "game_html", "move_list_html", "TABLE_MOVES", "SIZE"]

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
    for k, m in enumerate(moves[:TABLE_MOVES], 1):
        equity = "" if m.equity is None else f"{m.equity:.1f}"
        leave = "" if m.leave is None else escape(m.leave)
        rows.append(f"<tr><td>{k}</td><td><code>{escape(m.notation)}</code></td><td>{m.score}</td>"
                    f"<td>{equity}</td><td>{leave}</td><td>{escape(', '.join(m.formed_words()))}</td></tr>")
    more = f"<p>... and {n - TABLE_MOVES} more</p>" if n > TABLE_MOVES else ""
    return (f"<div class='wordsalvo-moves'><p>{n} move{'s' if n != 1 else ''}</p><table>{head}{''.join(rows)}"
            f"</table>{more}</div>")


register("Board", "svg", board_svg)
register("Position", "svg", position_svg)
register("Game", "html", game_html)
register("MoveList", "html", move_list_html)

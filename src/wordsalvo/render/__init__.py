"""Every text drawing of the package: boards, racks, turns and panels for a terminal,
and the plain forms the command line prints.

It sits above the core (it imports the board, the rules and the game), never
below: nothing in the core imports it.

* :mod:`wordsalvo.render.premiums`: a rule set's premium layout (plain, ANSI);
* :mod:`wordsalvo.render.terminal`: a running game (board with tiles, rack,
  scores, turns, previews);
* :mod:`wordsalvo.render.lines`: move lists as the lines of the reference move
  lists (``wordsalvo moves``);
* :mod:`wordsalvo.render.svg`: the board as an SVG picture (premiums, ★
  squares, tiles, blanks, a highlighted move; a miniature size);
* :mod:`wordsalvo.render.charts`: the score race and the win-probability line
  as SVG;
* :mod:`wordsalvo.render.report`: the self-contained HTML game report.

Square and move names are not drawings but notation, used by the core too
(``Move.notation``): :func:`wordsalvo.board.square_name` and
:func:`wordsalvo.notation.format_coordinate` / ``format_notation``, one
function each.
"""

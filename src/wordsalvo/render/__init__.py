"""Every text drawing of the package: boards, racks, turns and panels for a terminal,
and the plain forms the command line prints.

It sits above the core (it imports the board, the rules and the game), never
below: nothing in the core imports it.

* :mod:`wordsalvo.render.premiums`: a rule set's premium layout (plain, ANSI);
* :mod:`wordsalvo.render.terminal`: a running game (board with tiles, rack,
  scores, turns, previews).
"""

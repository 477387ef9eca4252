"""Validation of one move given in notation: legal or not (with every reason), words, score.

Slow path (plain Python, one move): used by ``MoveGenerator.validate``, the
game's ``preview``/``play`` and the CLI.  Its rules and scoring live in
:mod:`wordsalvo.placement`; the notation in :mod:`wordsalvo.notation`.
"""

from __future__ import annotations

from .lexicon import Lexicon
from .moves import Move
from .notation import parse_notation
from .placement import PlacementResult, check_placement, squares_from_placement
from .position import Position


def preview_move(pos: Position, notation: str, lexicon: Lexicon, rack: str | None = None) -> PlacementResult:
    """The words formed and the score of a tentative move, or every reason it is illegal.

    Raises :class:`~wordsalvo.NotationError` when the notation cannot be read, and
    :class:`~wordsalvo.IllegalMoveError` when it cannot be placed at all (off the
    board, on an occupied square, no new tile); every other illegal move comes back
    as a result with ``legal == False`` listing all its reasons."""
    row, col, direction, tiles = parse_notation(notation, pos.board)
    squares = squares_from_placement(pos.board, row, col, direction, tiles)
    return check_placement(pos.board, pos.rules, pos.rack_counts(rack), squares, lexicon.__contains__)


def validate_move(pos: Position, notation: str, lexicon: Lexicon, rack: str | None = None) -> Move:
    """The legal move a notation describes, with ``.score`` and ``.words``; raises
    :class:`~wordsalvo.IllegalMoveError` (``.reason``, ``.reasons``, ``.words``)."""
    result = preview_move(pos, notation, lexicon, rack)
    result.raise_if_illegal()
    row, col, direction, tiles = result.placement
    return Move(row, col, direction, tiles, result.score, bytes(pos.board.tiles), pos.rules.alphabet,
                words=tuple(result.words), rack_size=pos.rules.rack_size)

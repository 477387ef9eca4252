"""Validation of one move given in notation: legal or not (with every reason), words, score.

The notation is read by :func:`wordsalvo.notation.parse_notation` (which only
parses) and judged by :func:`wordsalvo.placement.check_move` (which alone
decides legality), as ``Game.preview``/``Game.play``, ``MoveGenerator.validate``
and the ``wordsalvo validate`` command do.
"""

from __future__ import annotations

from .lexicon import Lexicon
from .moves import Move
from .notation import parse_notation
from .placement import PlacementResult, check_move
from .position import Position


def preview_move(pos: Position, notation: str, lexicon: Lexicon, rack: str | None = None) -> PlacementResult:
    """The words formed and the score of a tentative move, or every reason it is illegal
    (``legal == False``, ``.reasons``, ``.problems``).  Raises
    :class:`~wordsalvo.NotationError` only when the notation cannot be read."""
    placement = parse_notation(notation, pos.board)
    return check_move(pos.board, pos.rules, pos.rack_counts(rack), placement, lexicon.__contains__)


def validate_move(pos: Position, notation: str, lexicon: Lexicon, rack: str | None = None) -> Move:
    """The legal move a notation describes, with ``.score`` and ``.words``; raises
    :class:`~wordsalvo.IllegalMoveError` (``.reason``, ``.reasons``, ``.words``)."""
    result = preview_move(pos, notation, lexicon, rack)
    result.raise_if_illegal()
    row, col, direction, tiles = result.placement
    return Move(row, col, direction, tiles, result.score, bytes(pos.board.tiles), pos.rules.alphabet,
                words=tuple(result.words), rack_size=pos.rules.rack_size)

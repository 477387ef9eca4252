"""Validation of one move given in notation: legal or not (with every reason), words, score.

The notation is read by :func:`wordsalvo.notation.parse_notation` (which only
parses) and judged by :func:`wordsalvo.placement.check_move` (which alone
decides legality), as ``Game.preview``/``Game.play``, ``MoveGenerator.validate``
and the ``wordsalvo validate`` command do.
"""

from __future__ import annotations

from typing import Callable

from .board import Board
from .errors import IllegalMoveReason, NotationMismatchError
from .lexicon.lexicon import Lexicon
from .moves import Move
from .notation import parse_notation
from .placement import PlacementResult, check_move
from .position import Position
from .rules import Rules


def check_notation(board: Board, rules: Rules, rack_counts: bytes, notation: str,
                   contains: Callable[[str], bool]) -> PlacementResult:
    """Judge a move in notation: parse it, then :func:`check_move`.  A notation that reads
    but does not fit the board is an illegal result (``NOTATION_MISMATCH``, one problem per
    misfit); :class:`~wordsalvo.NotationError` only when it cannot be read."""
    try:
        placement = parse_notation(notation, board)
    except NotationMismatchError as e:
        return PlacementResult((IllegalMoveReason.NOTATION_MISMATCH,), e.problems)
    return check_move(board, rules, rack_counts, placement, contains)


def preview_move(pos: Position, notation: str, lexicon: Lexicon, rack: str | None = None) -> PlacementResult:
    """The words formed and the score of a tentative move, or every reason it is illegal
    (``legal == False``, ``.reasons``, ``.problems``; a notation that does not fit the board
    is one such reason).  Raises :class:`~wordsalvo.NotationError` only when the notation
    cannot be read."""
    return check_notation(pos.board, pos.rules, pos.rack_counts(rack), notation, lexicon.__contains__)


def validate_move(pos: Position, notation: str, lexicon: Lexicon, rack: str | None = None) -> Move:
    """The legal move a notation describes, with ``.score`` and ``.words``; raises
    :class:`~wordsalvo.IllegalMoveError` (``.reason``, ``.reasons``, ``.words``)."""
    result = preview_move(pos, notation, lexicon, rack)
    result.raise_if_illegal()
    row, col, direction, tiles = result.placement
    return Move(row, col, direction, tiles, result.score, bytes(pos.board.tiles), pos.rules.alphabet,
                words=tuple(result.words), rack_size=pos.rules.rack_size)

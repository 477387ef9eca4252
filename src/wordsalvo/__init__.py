"""wordsalvo: move generation, validation, scoring and games for crossword-style tile games."""

from .alphabet import ALPHABETS, Alphabet, get_alphabet
from .board import Board
from .errors import (
    AlphabetError,
    GameError,
    IllegalMoveError,
    IllegalMoveReason,
    LexiconBuildError,
    LexiconFormatError,
    NotationError,
    PositionError,
    RulesError,
    WordSalvoError,
)
from .game import Game
from .rules import Rules

__version__ = "0.1.0"

__all__ = [
    "ALPHABETS", "Alphabet", "get_alphabet", "Board", "Game", "Rules",
    "AlphabetError", "GameError", "IllegalMoveError", "IllegalMoveReason", "LexiconBuildError",
    "LexiconFormatError", "NotationError", "PositionError", "RulesError", "WordSalvoError",
]

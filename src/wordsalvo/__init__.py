"""wordsalvo: move generation, validation, scoring and games for crossword-style tile games."""

from .alphabet import ALPHABETS, Alphabet, get_alphabet
from .analysis import AnalysisError, GameAnalysis, TurnAnalysis, analyze_game
from .board import Board
from .engine.bot import Bot
from .engine.simulation import SimResult, simulate
from .constants import Direction
from .errors import (
    AlphabetError,
    GameError,
    IllegalMoveError,
    IllegalMoveReason,
    LeavesError,
    LexiconBuildError,
    LexiconFormatError,
    NotationError,
    NotationMismatchError,
    PositionError,
    RulesError,
    WordSalvoError,
)
from .formats.cgp import format_cgp, parse_cgp
from .formats.gcg import from_gcg, to_gcg
from .game import Game
from .leaves import Leaves
from .lexicon import BuildStats, Lexicon, compile_lexicon
from .movegen import MoveGenerator
from .moves import MOVE_DTYPE, Move, MoveList
from .position import Position
from .ratings import Rating, RatingError, RatingPool
from .rules import Rules

__version__ = "0.1.0"

__all__ = [
    "ALPHABETS", "Alphabet", "get_alphabet", "Board", "Bot", "Game", "Rules", "Lexicon", "compile_lexicon",
    "BuildStats", "MoveGenerator", "Move", "MoveList", "MOVE_DTYPE", "Position", "analyze_game",
    "GameAnalysis", "TurnAnalysis", "AnalysisError",
    "parse_cgp", "format_cgp", "from_gcg", "to_gcg", "Direction", "Leaves",
    "AlphabetError", "GameError", "LeavesError", "IllegalMoveError", "IllegalMoveReason", "LexiconBuildError",
    "LexiconFormatError", "NotationError", "NotationMismatchError", "PositionError", "RulesError", "WordSalvoError",
    "Rating", "RatingPool", "RatingError", "simulate", "SimResult",
]

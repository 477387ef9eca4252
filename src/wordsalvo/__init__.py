"""wordsalvo: move generation, validation, scoring and games for crossword-style tile games.

The public names below are imported from their modules on first use (PEP 562), so
``import wordsalvo`` and a command such as ``wordsalvo play`` load only the modules
they need (the analysis, ratings and autoplay modules stay unloaded until asked for).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_names as _lazy_names

__version__ = "0.1.0"

#: public name -> the module that defines it
_EXPORTS = {
    "ALPHABETS": "alphabet", "Alphabet": "alphabet", "get_alphabet": "alphabet",
    "AnalysisError": "analysis", "GameAnalysis": "analysis", "TurnAnalysis": "analysis",
    "analyze_game": "analysis",
    "Board": "board",
    "Bot": "engine.bot",
    "Direction": "constants",
    "AlphabetError": "errors", "GameError": "errors", "IllegalMoveError": "errors", "IllegalMoveReason": "errors",
    "LeavesError": "errors", "LexiconBuildError": "errors", "LexiconFormatError": "errors",
    "NotationError": "errors", "NotationMismatchError": "errors", "PositionError": "errors", "RulesError": "errors",
    "WordSalvoError": "errors",
    "format_cgp": "formats.cgp", "parse_cgp": "formats.cgp",
    "from_gcg": "formats.gcg", "to_gcg": "formats.gcg",
    "read_game": "formats.replay",
    "Game": "game",
    "Leaves": "leaves",
    "BuildStats": "lexicon", "Lexicon": "lexicon", "compile_lexicon": "lexicon",
    "MoveGenerator": "movegen",
    "MOVE_DTYPE": "moves", "Move": "moves", "MoveList": "moves",
    "Position": "position",
    "Rating": "ratings", "RatingError": "ratings", "RatingPool": "ratings",
    "Rules": "rules",
    "SimResult": "engine.simulation", "simulate": "engine.simulation",
    "EndgameResult": "engine.endgame", "EndgameProgress": "engine.endgame", "solve_endgame": "engine.endgame",
    "Inference": "engine.inference", "infer": "engine.inference",
    "PreEndgameResult": "engine.pre_endgame", "solve_pre_endgame": "engine.pre_endgame",
}

__all__ = [
    "ALPHABETS", "Alphabet", "get_alphabet", "Board", "Bot", "Game", "Rules", "Lexicon", "compile_lexicon",
    "BuildStats", "MoveGenerator", "Move", "MoveList", "MOVE_DTYPE", "Position", "analyze_game",
    "GameAnalysis", "TurnAnalysis", "AnalysisError", "read_game",
    "parse_cgp", "format_cgp", "from_gcg", "to_gcg", "Direction", "Leaves",
    "AlphabetError", "GameError", "LeavesError", "IllegalMoveError", "IllegalMoveReason", "LexiconBuildError",
    "LexiconFormatError", "NotationError", "NotationMismatchError", "PositionError", "RulesError", "WordSalvoError",
    "Rating", "RatingPool", "RatingError", "simulate", "SimResult", "solve_endgame", "EndgameResult",
    "EndgameProgress", "solve_pre_endgame", "PreEndgameResult", "infer", "Inference",
]


def _load_pictures() -> None:
    """Registers the notebook pictures of the core's objects (:mod:`wordsalvo.display`)."""
    from .render import notebook  # noqa: F401  (registers on import)


from . import display as _display  # noqa: E402  (stdlib only)

_display.set_loader(_load_pictures)


__getattr__, __dir__ = _lazy_names(__name__, _EXPORTS, __all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from .alphabet import ALPHABETS, Alphabet, get_alphabet
    from .analysis import AnalysisError, GameAnalysis, TurnAnalysis, analyze_game
    from .board import Board
    from .constants import Direction
    from .engine.bot import Bot
    from .engine.endgame import EndgameProgress, EndgameResult, solve_endgame
    from .engine.inference import Inference, infer
    from .engine.pre_endgame import PreEndgameResult, solve_pre_endgame
    from .engine.simulation import SimResult, simulate
    from .errors import (AlphabetError, GameError, IllegalMoveError, IllegalMoveReason, LeavesError,
                         LexiconBuildError, LexiconFormatError, NotationError, NotationMismatchError, PositionError,
                         RulesError, WordSalvoError)
    from .formats.cgp import format_cgp, parse_cgp
    from .formats.gcg import from_gcg, to_gcg
    from .formats.replay import read_game
    from .game import Game
    from .leaves import Leaves
    from .lexicon import BuildStats, Lexicon, compile_lexicon
    from .movegen import MoveGenerator
    from .moves import MOVE_DTYPE, Move, MoveList
    from .position import Position
    from .ratings import Rating, RatingError, RatingPool
    from .rules import Rules

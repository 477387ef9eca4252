"""The terminal game: the session at the keyboard (``session.py``: the screen, the
commands, the hand-over between people, the engines' turns) and its saved games
(``saved_games.py``: where games are saved, the record written, the record
``--resume`` reads).  ``wordsalvo play`` (:mod:`wordsalvo.commands.play`) is the
command over them."""

from .saved_games import SavedGame, default_save_dir, read_saved_game
from .session import DEFAULT_HINTS, HELP, TerminalGame, engine_seed

__all__ = ["TerminalGame", "HELP", "DEFAULT_HINTS", "engine_seed", "default_save_dir", "read_saved_game",
           "SavedGame"]

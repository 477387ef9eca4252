"""The terminal game: the session at the keyboard (``session.py``: the turns in order,
the hand-over between people, leaving and the end), its screen (``screen.py``), its
clock (``clock.py``: the time per move), its commands (``commands.py``: what a typed
line does, the help, hints), its saving (``saving.py``: ``save``, the save on leaving)
and its saved games (``saved_games.py``: where games are saved, the record written,
the record ``--resume`` reads).  The seats, the
engines' turns and seeds and the command vocabulary are the table's
(:mod:`wordsalvo.table`), shared with the browser page.  ``wordsalvo play``
(:mod:`wordsalvo.commands.play`) is the command over them."""

from .saved_games import SavedGame, default_save_dir, read_saved_game
from .session import DEFAULT_HINTS, HELP, TerminalGame, engine_seed

__all__ = ["TerminalGame", "HELP", "DEFAULT_HINTS", "engine_seed", "default_save_dir", "read_saved_game",
           "SavedGame"]

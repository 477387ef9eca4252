"""The terminal game's saving: ``save [FILE]``, the save without asking when the session
ends before the game (``quit``, the end of the input, Ctrl-C, a closed terminal) and
the offer of a file at the end of a game not saved yet.

The record is :func:`~wordsalvo.tui.saved_games.game_record`'s (GCG with the bag's
seed and this front end's seats, hint limit and clock), written atomically by
:func:`~wordsalvo.tui.saved_games.write_record`; a folder is made only when it is the
default one or the person agrees.
"""

from __future__ import annotations

from pathlib import Path

from .commands import Quit
from .saved_games import fallback_save_path, game_record, new_save_path, typed_path, write_record

__all__ = ["Saving"]


class Saving:
    """Where the game of ``session`` (a :class:`~wordsalvo.tui.session.TerminalGame`) is
    saved: ``save_path`` (None: a new file in the default folder at the first save)."""

    def __init__(self, session, save_path: Path | None):
        self.session = session
        self.save_path = Path(save_path) if save_path is not None else None

    @property
    def game(self):
        return self.session.game

    def record(self) -> str:
        """The game as GCG, with when it started and this front end's seats, hint limit and
        clock as pragmas."""
        s = self.session
        return game_record(self.game, s.levels, s.hints, s.move_time, s.dated, s.rules_file)

    def default_path(self) -> Path:
        return new_save_path(self.game.rules.name)

    def write(self, path: Path, *, create: bool) -> str | None:
        """Write the record to ``path``; None when written, else why not.  A missing
        folder is made only with ``create``."""
        return write_record(path, self.record(), create=create)

    def do_save(self, name: str) -> Path | None:
        """``save [FILE]``: write the game now; later saves go to the same file."""
        if name:
            path = typed_path(name)
            if path is None:
                self.session.screen.say(f"cannot save to {name!r}: not a file name; nothing saved")
                return None
            create = False
            try:
                missing = not path.parent.is_dir()
            except (OSError, ValueError):
                missing = False
            if missing:
                if not self.session.yes(f"The folder {path.parent} does not exist; make it?"):
                    self.session.screen.say("Not saved.")
                    return None
                create = True
        else:
            path = self.save_path or self.default_path()
            create = True
        made = not path.parent.exists()
        problem = self.write(path, create=create)
        if problem:
            self.session.screen.say(f"Not saved: {problem}. Try `save` with another name, or `save` alone for {self.default_path()}.")
            return None
        self.save_path = path
        self.session.screen.say_command(f"Saved to {path}" + (f" (made the folder {path.parent})" if made else "") +
                                        "; resume it with:", "wordsalvo", "play", "--resume", path)
        return path

    def autosave(self) -> tuple[Path | None, str]:
        """Save without asking (leaving the game): the game's file, else the default folder,
        else the temporary folder.  (path or None, a note on the folder made)."""
        candidates = [p for p in (self.save_path, self.default_path()) if p is not None]
        candidates.append(fallback_save_path(self.game.rules.name))
        for path in candidates:
            made = not path.parent.exists()
            if self.write(path, create=True) is None:
                self.save_path = path
                return path, (f" (made the folder {path.parent})" if made else "")
        return None, ""

    def offer_save(self) -> None:
        """At the end of a game not saved yet: ask for a file name (Enter: none)."""
        try:
            self._offer_save()
        except Quit:  # the end of the input: nothing more to save
            return

    def _offer_save(self) -> None:
        session = self.session
        while True:
            name = session.ask("Save the game record (GCG)? File name, or Enter to skip: ").strip()
            if not name:
                return
            path = typed_path(name)
            if path is None:
                self.session.screen.say(f"cannot save to {name!r}: not a file name; try another name")
                continue
            try:
                exists, missing = path.exists(), not path.parent.is_dir()
            except (OSError, ValueError):
                exists, missing = False, False
            if exists and not session.yes(f"{path} exists; overwrite it?"):
                continue
            if missing and not session.yes(f"The folder {path.parent} does not exist; make it?"):
                continue
            problem = self.write(path, create=missing)
            if problem:
                self.session.screen.say(f"{problem}; try another name")
                continue
            self.save_path = path
            self.session.screen.say(f"Saved the record to {path}.")
            return

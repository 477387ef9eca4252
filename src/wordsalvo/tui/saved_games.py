"""The terminal game's saved games: where they go, the record written, the record read back.

A saved game is a GCG record (:func:`wordsalvo.formats.gcg.to_gcg`, bag seed
and all) with the front end's own pragmas: ``#engine NICK LEVEL`` for each seat
an engine plays, ``#hints N`` for the hints each person may ask for and
``#move-time SECONDS`` for the per-move clock.  Every
write is atomic (:func:`wordsalvo.inputs.write_atomic`): a game is never half
saved.  Unless a file is named, games go to :func:`default_save_dir`, one file
per game named after the rule set and the time it was first saved.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..engine.bot import LEVELS
from ..errors import WordSalvoError
from ..formats.gcg import date_pragmas, from_gcg, to_gcg
from ..formats.gcg_record import parse_gcg
from ..game import Game
from ..inputs import excerpt, is_whole_number, read_bytes, write_atomic
from ..lexicon.lexicon import Lexicon

__all__ = ["default_save_dir", "new_save_path", "fallback_save_path", "game_record", "write_record",
           "typed_path", "SavedGame", "read_saved_game"]


def _is_level(text: str, rules=None) -> bool:
    """A level a saved game may name: a difficulty level or a rating in the calibrated range of
    its rule set (read as every level text is: :func:`wordsalvo.engine.strength.parse_level`)."""
    from ..engine.strength import parse_level

    try:
        rated = parse_level(text, LEVELS, betas=False, rules=rules)
    except WordSalvoError:
        return False
    return rated is None or rated.rating is not None


def default_save_dir() -> Path:
    """Where games are saved unless a file is named: ``$WORDSALVO_GAMES_DIR``, else
    ``$XDG_DATA_HOME/wordsalvo/games`` (``~/.local/share/wordsalvo/games``; on Windows
    ``%LOCALAPPDATA%\\wordsalvo\\games``)."""
    if os.environ.get("WORDSALVO_GAMES_DIR"):
        return Path(os.environ["WORDSALVO_GAMES_DIR"]).expanduser()
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "wordsalvo" / "games"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "wordsalvo" / "games"


def new_save_path(rules_name: str) -> Path:
    """A file in :func:`default_save_dir` that does not exist yet, named after the rule set and the time."""
    from ..rules import rule_set_name_problem

    if rule_set_name_problem(rules_name) is not None:  # part of a file name: an identifier only
        rules_name = "game"
    folder = default_save_dir()
    stem = f"{rules_name}-{time.strftime('%Y%m%d-%H%M%S')}"
    path = folder / f"{stem}.gcg"
    k = 2
    while path.exists():
        path = folder / f"{stem}-{k}.gcg"
        k += 1
    return path


def fallback_save_path(rules_name: str) -> Path:
    """The last resort when neither the game's file nor the default folder can be written:
    the system's temporary folder."""
    return Path(tempfile.gettempdir()) / new_save_path(rules_name).name


def game_record(game: Game, levels: Sequence[str | None], hints: int | None, move_time: int | None = None,
                dated: Sequence[tuple[str, str]] = (), rules_file: str | None = None) -> str:
    """The game as GCG, with when it started (``dated``: the ``#date`` and ``#time``
    pragmas, default now), the seats the engines play (``levels[i]``, None for a person),
    the hint limit (None: unlimited) and the time per move (None: no clock; ``#move-time 0``
    when the rule set has a clock of its own, so a resumed game stays without one) as pragmas."""
    pragmas = list(dated) or date_pragmas()
    if rules_file is not None:  # a rule set from a file: which file, and its SHA-256, for --resume
        pragmas.append(("rules-file", rules_file_pragma(rules_file)))
    pragmas += [("engine", f"{n} {lv}") for n, lv in zip(game.names, levels) if lv is not None]
    if hints is not None:
        pragmas.append(("hints", str(hints)))
    if move_time is not None:
        pragmas.append(("move-time", str(move_time)))
    elif game.rules.timer.per_move_seconds:
        pragmas.append(("move-time", "0"))
    return to_gcg(game, pragmas)


def rules_file_pragma(path: str | os.PathLike) -> str:
    """``#rules-file`` of a game played under the rule set file ``path``: the SHA-256 of its
    bytes and its absolute path (a resumed game is read with that file, its bytes checked)."""
    full = Path(path).expanduser().resolve()
    digest = hashlib.sha256(read_bytes(full, WordSalvoError, "rule set file")).hexdigest()
    return f"{digest} {full}"


def _rules_from_file_pragma(value: str, record_path: Path):
    """The Rules a record's ``#rules-file SHA256 PATH`` names, and the file read: the file at
    PATH, or of that name beside the record (a folder moved with its games), whose bytes
    have that SHA-256."""
    from ..rules import Rules

    digest, _, named = value.partition(" ")
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) or not named.strip():
        raise WordSalvoError(f"{record_path}: expected '#rules-file SHA256 PATH' (64 hex digits, the file's "
                             f"path), got {excerpt('#rules-file ' + value)}")
    seen = []
    for candidate in (Path(named), record_path.parent / Path(named).name):
        try:
            data = read_bytes(candidate, WordSalvoError, "rule set file")
        except WordSalvoError:
            seen.append(f"{candidate}: no file")
            continue
        if hashlib.sha256(data).hexdigest() == digest:
            return Rules.load(candidate), str(candidate)
        seen.append(f"{candidate}: changed since (another SHA-256)")
    raise WordSalvoError(f"{record_path}: expected the rule set file the game was played with ({named}, SHA-256 "
                         f"{digest[:12]}...), got {'; '.join(seen)}; put that file back (or beside the record)")


def write_record(path: Path, text: str, *, create: bool) -> str | None:
    """Write ``text`` to ``path`` atomically; None when written, else why not.  A missing
    folder is made only with ``create``."""
    try:
        if path.is_dir():
            return f"{path} is a folder"
        if not path.parent.is_dir():
            if not create:
                return f"the folder {path.parent} does not exist"
            path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("utf-8"))
    except (OSError, ValueError) as e:  # a name the system refuses: too long, a NUL byte ...
        return f"cannot write {path}: {getattr(e, 'strerror', None) or e}"
    return None


def typed_path(name: str) -> Path | None:
    """A file name typed in the game as a path (``.gcg`` added when it has no suffix);
    None when it cannot be one."""
    try:
        path = Path(name).expanduser()
    except (RuntimeError, ValueError):
        return None
    return path.with_suffix(".gcg") if path.suffix == "" else path


@dataclass
class SavedGame:
    """A saved game read back: the game, each seat's engine level (None for a person), the
    hint limit and the time per move its record names (None when it names none)."""

    game: Game
    levels: list[str | None]
    hints: int | None
    move_time: int | None = None
    #: the record's ``#date`` and ``#time`` pragmas, as read (written back unchanged)
    dated: list[tuple[str, str]] | None = None
    #: the rule set file the game was played under (``#rules-file``), None for a preset
    rules_file: str | None = None


def read_saved_game(path: Path, lexicon_path: str | None = None) -> SavedGame:
    """Read a saved game (``lexicon_path``: the lexicon to replay it with, else its rule
    set's).  WordSalvoError on a file that is missing, not UTF-8, not a record, or whose
    front-end pragmas are malformed."""
    data = read_bytes(path, WordSalvoError, "saved game")  # no such file, a name the OS refuses, a folder
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WordSalvoError(f"expected a GCG record (UTF-8 text), got {path} with a byte that is not "
                             f"UTF-8 at offset {e.start}") from None
    # the game checks that the lexicon's alphabet is its rule set's
    lexicon = Lexicon.load(lexicon_path) if lexicon_path else None
    record = parse_gcg(text)  # the one GCG reader: the game and the front end's pragmas
    named = [pr.value for pr in record.pragmas if pr.keyword == "rules-file"]
    rules, rules_file = _rules_from_file_pragma(named[0], Path(path)) if named else (None, None)
    game = from_gcg(record, rules=rules, lexicon=lexicon)
    engines: dict[str, str] = {}
    hints = move_time = None
    dated: list[tuple[str, str]] = []
    for pragma in record.pragmas:
        key, value = pragma.keyword, pragma.value
        line = f"#{key} {value}"
        if key in ("date", "time") and value:
            dated.append((key, value))
        elif key == "engine":
            nick, _, level = value.partition(" ")
            if not _is_level(level.strip(), game.rules) or nick not in game.names:
                raise WordSalvoError(f"{path}: expected '#engine NICK LEVEL' with a player of the game "
                                     f"and a level ({', '.join(LEVELS)}, or a rating such as 1200), "
                                     f"got {excerpt(line)}")
            engines[nick] = level.strip()
        elif key == "hints":
            if not is_whole_number(value, digits=4):
                raise WordSalvoError(f"{path}: expected '#hints N' with N a whole number (the hints "
                                     f"each player may ask for), got {excerpt(line)}")
            hints = int(value)
        elif key == "move-time":
            if not is_whole_number(value, digits=7):
                raise WordSalvoError(f"{path}: expected '#move-time SECONDS' with a whole number of seconds, "
                                     f"got {excerpt(line)}")
            try:  # 0: played without a clock
                move_time = game.rules.check_move_time(int(value)) if int(value) else None
            except WordSalvoError as e:
                raise WordSalvoError(f"{path}: {line}: {e}") from None
    return SavedGame(game, [engines.get(name) for name in game.names], hints, move_time, dated or None,
                     rules_file)

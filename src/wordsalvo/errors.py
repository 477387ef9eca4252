"""Exceptions raised by wordsalvo.

Every exception caused by bad input is a :class:`WordSalvoError`, which is a
:class:`ValueError`.  Messages say what was expected, what came, and where.
"""

from __future__ import annotations

import enum

__all__ = [
    "WordSalvoError",
    "AlphabetError",
    "LexiconFormatError",
    "LexiconBuildError",
    "PositionError",
    "NotationError",
    "NotationMismatchError",
    "IllegalMoveError",
    "IllegalMoveReason",
    "UnplaceableMoveError",
    "RulesError",
    "GameError",
    "CommandError",
    "LeavesError",
    "RenderError",
    "GCGError",
    "RatingError",
    "HunspellUnavailableError",
    "AnalysisError",
    "ServeConfigError",
    "ServeRequestError",
    "GameTokenError",
    "WorkerStartError",
]


#: the longest message an error keeps (a message quoting a huge input is cut to this)
MESSAGE_MAX = 3000


class WordSalvoError(ValueError):
    """Base class of every error caused by bad input.  A message over
    :data:`MESSAGE_MAX` characters is cut (the parsers quote excerpts; this is the
    last guard, so that no error repeats a 10 MB input whole)."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str) and len(args[0]) > MESSAGE_MAX:
            text = args[0]
            args = (f"{text[: MESSAGE_MAX - 200]} ... [{len(text) - MESSAGE_MAX + 200:,} more characters] ... "
                    f"{text[-100:]}", *args[1:])
        super().__init__(*args)


class AlphabetError(WordSalvoError):
    """A letter or word that does not fit the alphabet."""


class LexiconFormatError(WordSalvoError):
    """A graph file that cannot be used: truncated, corrupt, wrong magic or version.

    ``path`` names the file and ``offset`` the byte offset of the problem (or None).
    """

    def __init__(self, message: str, path: str | None = None, offset: int | None = None):
        self.path = path
        self.offset = offset
        where = []
        if path is not None:
            where.append(str(path))
        if offset is not None:
            where.append(f"byte offset {offset}")
        full = f"{', '.join(where)}: {message}" if where else message
        super().__init__(full)
        self.problem = message


class LexiconBuildError(WordSalvoError):
    """A word list that cannot be compiled."""


class PositionError(WordSalvoError):
    """A malformed or impossible position (CGP line, board, rack)."""


class NotationError(WordSalvoError):
    """A move notation that cannot be parsed or does not fit the board."""


class NotationMismatchError(NotationError):
    """A notation that reads well but does not fit the board: a played-through letter over an
    empty square or another letter, or a word that is not the whole main word.  ``problems``
    has one message per misfit.  Previews turn it into an illegal result
    (:attr:`IllegalMoveReason.NOTATION_MISMATCH`) instead of raising."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()):
        super().__init__(message)
        self.problems = tuple(problems) or (message,)


class RulesError(WordSalvoError):
    """A rule set file with problems; ``problems`` lists every one of them."""

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = list(problems or [])
        super().__init__(message)


class LeavesError(WordSalvoError):
    """A leave table that cannot be used (a bad file, CSV lines, values, or a table
    made for other rules); ``path`` names the file and ``problems`` lists every
    problem found (a CSV file reports all its bad lines at once)."""

    def __init__(self, message: str, path: str | None = None, problems: list[str] | None = None):
        self.path = None if path is None else str(path)
        self.problems = list(problems or [message])
        super().__init__(f"{path}: {message}" if path is not None else message)


class GameError(WordSalvoError):
    """An action that the game does not allow now (e.g. a swap with too few tiles in the bag)."""


class CommandError(GameError):
    """A typed command that cannot be read, or that this front end of the game does not offer
    (:func:`wordsalvo.table.parse_command`)."""


class IllegalMoveReason(enum.Enum):
    """Why a move is not legal."""

    NOT_IN_ONE_LINE = "tiles are not in one row or one column"
    GAP = "there is an empty square between the new tiles"
    NOT_CONNECTED = "the move does not touch any tile on the board"
    CENTRE_NOT_COVERED = "the first move does not cover the centre square"
    FIRST_MOVE_ONE_TILE = "the first move places only one tile"
    SQUARE_OCCUPIED = "a square is already occupied"
    TILE_NOT_ON_RACK = "a tile is not on the rack"
    OFF_BOARD = "a tile lies off the board"
    NO_TILES = "the move places no tile"
    WORD_TOO_SHORT = "the move forms no word of two or more letters"
    INVALID_WORDS = "the move forms words that are not in the lexicon"
    NOTATION_MISMATCH = "the notation does not match the board"


class IllegalMoveError(WordSalvoError):
    """An illegal move.

    ``reason`` is the first :class:`IllegalMoveReason`; ``reasons`` lists all of
    them; ``words`` lists EVERY invalid word the move forms (empty unless a
    reason is INVALID_WORDS).
    """

    def __init__(
        self,
        message: str,
        reason: IllegalMoveReason,
        words: list[str] | tuple[str, ...] = (),
        reasons: list[IllegalMoveReason] | None = None,
    ):
        self.reason = reason
        self.reasons = list(reasons) if reasons else [reason]
        self.words = tuple(words)
        super().__init__(message)


class UnplaceableMoveError(IllegalMoveError, PositionError):
    """A move the C game state cannot place on its position (``reason``: a new tile off the
    board, on a square that holds one, not on the rack, or no new tile); the state is
    unchanged.  Both an :class:`IllegalMoveError` (a move's fault) and a
    :class:`PositionError` (what the state's turns raise)."""


class RenderError(WordSalvoError):
    """Input that cannot be drawn (a malformed board, a square off the board, a bad report dict)."""


class GCGError(WordSalvoError):
    """A GCG record that cannot be read or replayed; ``problems`` lists every problem found."""

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = list(problems or [message])
        super().__init__(message)


class RatingError(WordSalvoError):
    """Bad input to the ratings: a rating out of range, an unknown player, an empty
    period, a bad results line.  ``problems`` lists every problem found."""

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = list(problems or [message])
        super().__init__(message)


class HunspellUnavailableError(LexiconBuildError):
    """No way to run Hunspell, or no dictionary where one was looked for."""


class AnalysisError(WordSalvoError):
    """A game that cannot be analysed (wrong input type, a bad argument)."""


class ServeConfigError(WordSalvoError):
    """A ``wordsalvo serve`` configuration file or option that cannot be used;
    ``problems`` lists every one of them."""

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = list(problems or [])
        super().__init__(message)


class ServeRequestError(WordSalvoError):
    """A request to ``wordsalvo serve`` that names something the service does not have
    (a lexicon key, a rule set) or asks for more than its limits allow."""


class GameTokenError(ServeRequestError):
    """A game token of the browser game that this service did not issue, or that was
    changed, cut or sealed with another secret: the service refuses to replay it."""


class WorkerStartError(WordSalvoError, RuntimeError):
    """Worker processes could not start: a script that runs parallel work (``jobs`` > 1) at
    its top level, without ``if __name__ == "__main__":``, which each worker would run
    again when it imports the script."""

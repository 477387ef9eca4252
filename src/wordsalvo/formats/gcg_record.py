"""Reading GCG records written by any program: a pure parser (no lexicon, no board, no Game).

:func:`parse_gcg` reads GCG as its public specification defines it and as game servers and
other engines write it, into a :class:`GCGRecord`: the headers and the events in order, each
event with its 1-based line number and raw text.  It checks everything that needs no
board and no lexicon and reports every problem at once (GCGError.problems, each naming
its line).  What each event means for a replay on a board is in GCGRecord's docstring.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import dataclass, field, fields, make_dataclass, replace
from typing import Callable, ClassVar

from .._core._engine import GAME_MAX_PLAYERS
from ..constants import DIM
from ..errors import GCGError, NotationError
from ..inputs import excerpt, is_whole_number, list_problems
from ..notation import parse_coordinate
from ..wording import plural
from .opcodes import resolve_rules

__all__ = [
    "DEFAULT_RULES", "GCGRecord", "GCGHeader", "GCGPlayer", "GCGPragma", "GCGEvent", "PlayEvent", "ExchangeEvent",
    "SwapEvent", "PassEvent", "PhonyRemovedEvent", "ChallengeBonusEvent", "TimePenaltyEvent", "TimeoutEvent",
    "ResignEvent", "EndRackEvent", "parse_gcg", "rules_for_lexicon", "assumption_note", "resolve_record",
]

#: a CGP position line: 15 board rows separated by '/', then the racks
_CGP_LINE = re.compile(r"^[^\s/]+(?:/[^\s/]+){14}\s+\S")
#: the rule set a record is read with when it names neither ``#rules`` nor a known ``#lexicon``
DEFAULT_RULES = "classic-en"


@dataclass(frozen=True, slots=True)
class GCGPlayer:
    """A ``#playerN nick Full Name`` line."""

    number: int  # N of #playerN (1-based)
    nick: str  # the nickname the event lines use
    name: str  # the full name (the nickname when the line gives none)


@dataclass(frozen=True, slots=True)
class GCGPragma:
    """A ``#keyword value`` line this reader has no field for (kept as written)."""

    keyword: str
    value: str
    line: int


@dataclass(frozen=True, kw_only=True, slots=True)
class GCGEvent:
    """One event line ``>nick: ...``.  ``score`` is what the line adds to the player's
    score (negative when it subtracts), ``total`` the player's score after it."""

    kind: ClassVar[str] = ""
    line: int  # 1-based line number in the record
    text: str  # the line as written
    player: str  # the nickname
    player_index: int  # 0-based: #player1 is 0
    rack: str  # the rack as written, '?' = blank ('' when the line gives none)
    score: int
    total: int
    note: str = ""  # the #note text that follows the event (lines joined by '\n')


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayEvent(GCGEvent):
    """``>nick: RACK 8D WO.D +14 14``: tiles placed.

    ``letters`` has one entry per square of the word: the letter (lowercase = a blank
    standing for that letter; ``'.'`` = a tile already on the board whose letter the
    record does not say); ``through[i]`` says the square already held a tile.
    """

    kind: ClassVar[str] = "play"
    coordinate: str  # as written: 8D (across) or D8 (down)
    row: int  # 0-based
    col: int  # 0-based
    direction: int  # 0 across, 1 down (as wordsalvo.notation.ACROSS / DOWN)
    word: str  # as written: WO.D, WO(R)D, ..NVIRILE, lowercase = blank
    letters: tuple[str, ...]
    through: tuple[bool, ...]

    @property
    def marks_through(self) -> bool:
        """Whether the word marks a played-through square ('.' or parentheses).  A word
        that marks none may still run through tiles of the board (records by some
        programs): a replay infers those from the board."""
        return any(self.through)

    @property
    def tiles_played(self) -> str:
        """The tiles taken from the rack, as rack letters ('?' for a blank)."""
        return "".join("?" if ch.islower() else ch for ch, old in zip(self.letters, self.through) if not old)

    @property
    def squares(self) -> tuple[tuple[int, int, str, bool], ...]:
        """``(row, col, letter, is_new)`` per square of the word (letter '.' when unknown)."""
        dr, dc = (0, 1) if self.direction == 0 else (1, 0)
        return tuple((self.row + k * dr, self.col + k * dc, ch, not old)
                     for k, (ch, old) in enumerate(zip(self.letters, self.through)))

    @property
    def notation(self) -> str:
        """The play in the package's notation (``8D WO(R)D``); a played-through tile the
        record wrote as '.' stays '.' (see :meth:`notation_with`)."""
        return self.notation_with(lambda _row, _col: None)

    def notation_on(self, board) -> str:
        """The notation with every '.' filled in from ``board`` (a :class:`~wordsalvo.Board`:
        the letter on that square, lowercase for a blank; an empty square leaves the '.')."""
        return self.notation_with(board.letter_at)

    def notation_with(self, letter_at: Callable[[int, int], str | None]) -> str:
        """The notation with every '.' filled in by ``letter_at(row, col)`` (the letter
        on the board there; None or '' leaves the '.')."""
        out: list[str] = []
        group: list[str] = []
        for row, col, ch, new in self.squares:
            if new:
                if group:
                    out.append(f"({''.join(group)})")
                    group = []
                out.append(ch)
            else:
                got = letter_at(row, col) if ch == "." else ch
                group.append(got or ".")
        if group:
            out.append(f"({''.join(group)})")
        return f"{self.coordinate} {''.join(out)}"


@dataclass(frozen=True, kw_only=True, slots=True)
class SwapEvent(GCGEvent):
    """``>nick: RACK -ABC +0 total`` (``tiles``) or ``-3`` (only ``count`` known): a swap
    (the specification's 'exchange'; the package says swap everywhere: the turn kind, the
    :class:`~wordsalvo.moves.Swap` action, the analysis)."""

    kind: ClassVar[str] = "swap"
    tiles: str  # '' when the record gives only the count
    count: int


#: the old name of :class:`SwapEvent` (its kind was "exchange")
ExchangeEvent = SwapEvent


@dataclass(frozen=True, kw_only=True, slots=True)
class PassEvent(GCGEvent):
    """``>nick: RACK - +0 total``."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, kw_only=True, slots=True)
class PhonyRemovedEvent(GCGEvent):
    """``>nick: RACK -- -14 total``: the play on ``play_line`` was challenged off."""

    kind: ClassVar[str] = "phony-removed"
    play_line: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ChallengeBonusEvent(GCGEvent):
    """``>nick: RACK (challenge) +5 total`` (or the older ``>nick: RACK +5 total``): a
    challenge of nick's play failed and nick gets the bonus."""

    kind: ClassVar[str] = "challenge-bonus"


@dataclass(frozen=True, kw_only=True, slots=True)
class TimePenaltyEvent(GCGEvent):
    """``>nick: RACK (time) -10 total``: points lost for overtime (no turn)."""

    kind: ClassVar[str] = "time-penalty"


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeoutEvent(GCGEvent):
    """``>nick: RACK (time) +0 total``: this package's own record of a turn lost to the clock."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, kw_only=True, slots=True)
class ResignEvent(GCGEvent):
    """``>nick: RACK (resign) +0 total``: nick resigned (this package's own records)."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, kw_only=True, slots=True)
class EndRackEvent(GCGEvent):
    """End-of-game rack points: ``>nick: (TILES) +14 total`` (nick went out and gets the
    value of ``tiles``, another player's rack: once or twice, per convention) or
    ``>nick: (TILES) -7 total`` / ``>nick: TILES (TILES) -7 total`` (nick's own rack is
    subtracted).  ``owner`` is the nickname whose rack ``tiles`` is, when the record
    tells (None when it does not)."""

    kind: ClassVar[str] = "end-rack"
    tiles: str
    owner: str | None


_EVENT_FORMS = ("'>nick: RACK 8D WORD +score total' (a play), '>nick: RACK -TILES +0 total' or "
                "'-N +0 total' (an exchange), '>nick: RACK - +0 total' (a pass), '>nick: RACK -- -score total' "
                "(a phony taken back), '>nick: RACK (challenge) +N total', '>nick: RACK (time) -N total' or "
                "'>nick: (RACK) +/-N total' (end-of-game rack points)")
_EVENT_HEAD = re.compile(r"^>(\S+?):(?=\s|$)(.*)$")
_COORDINATE = re.compile(r"^(?:[0-9]{1,2}[A-Za-z]|[A-Za-z][0-9]{1,2})$")
_SIGNED = re.compile(r"^[+-]?[0-9]{1,9}$")
_WHOLE = re.compile(r"^-?[0-9]{1,9}$")
_IN_PARENS = re.compile(r"^\(([^()]*)\)$")
_PRAGMA = re.compile(r"^#(\S*)\s*(.*)$")
_LINE_END = re.compile(r"\r\n|\r|\n")
_ENCODING_LINE = re.compile(rb"^\s*#character-encoding\s+(\S+)", re.IGNORECASE)
_TURNS = ("play", "swap", "pass", "timeout")

#: lexicon names (upper case, the part before any digits or separator) -> the rule set
#: their games are played with
_LEXICON_RULES = (
    (("CSW", "NWL", "TWL", "OWL", "OTCWL", "SOWPODS", "ENABLE", "ECWL", "CEL", "NSWL", "COLLINS", "WOW",
      "AMERICA", "EN", "ENGLISH", "SCOWL"), "classic-en"),
    (("NL", "DUTCH", "NEDERLANDS", "OPENTAAL", "OTL"), "wordsalvo-nl"),
    (("DE", "RD", "GERMAN", "DEUTSCH"), "woodword-de"),
    (("TR", "TDK", "TURKISH", "TÜRKÇE", "TURKCE"), "turkish"),
)


def rules_for_lexicon(lexicon: str) -> str | None:
    """The rule set a game played with lexicon ``lexicon`` (a ``#lexicon`` value such as
    CSW21, NWL2023, RD28, OpenTaal) is read with; None for a language without one here.

    English lists (CSW, NWL, TWL, SOWPODS, ENABLE ...) -> classic-en; a Dutch list ->
    wordsalvo-nl; a German one -> woodword-de (the classic German game); Turkish -> turkish.
    """
    m = re.match(r"[^\W\d_]+", lexicon.strip().upper())
    if not m:
        return None
    stem = m.group(0)
    for stems, rules in _LEXICON_RULES:
        if stem in stems:
            return rules
    return None


class _HeaderLines:
    """What a record's header lines say, shared by :class:`GCGHeader` (the header alone)
    and :class:`GCGRecord` (the whole record): the pragma values and the rule set it is
    read with."""

    __slots__ = ()

    def pragma(self, keyword: str) -> str | None:
        """The value of the last ``#keyword`` line among :attr:`pragmas` (None if none)."""
        for p in reversed(self.pragmas):
            if p.keyword == keyword:
                return p.value
        return None

    def one(self, keyword: str, error: type[GCGError] = GCGError) -> GCGPragma | None:
        """The one ``#keyword`` line among :attr:`pragmas` (None without one); a second one
        raises ``error`` naming its line (the rule for every header a reader takes once:
        ``#seed``, ``#strict``, ``#date``, ``#time`` ...)."""
        found = [p for p in self.pragmas if p.keyword == keyword]
        if len(found) > 1:
            raise error(f"{self.path or 'GCG'} line {found[1].line}: expected one #{keyword} line, got a second one")
        return found[0] if found else None

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's score after the last event (0 for a player without one)."""
        out = [0] * len(self.players)
        for e in self.events:
            out[e.player_index] = e.total
        return tuple(out)

    def rules_name(self, default: str = DEFAULT_RULES) -> str:
        """The rule set the record is read with: ``#rules``; else the one of its
        ``#lexicon`` (:func:`rules_for_lexicon`); else ``default``."""
        if self.rules:
            return self.rules
        if self.lexicon and rules_for_lexicon(self.lexicon):
            return rules_for_lexicon(self.lexicon)
        return default

    def rules_assumption(self, default: str = DEFAULT_RULES) -> str | None:
        """None when the record names its rule set (``#rules``); else a sentence saying
        which rule set :meth:`rules_name` assumed and why."""
        if self.rules:
            return None
        name = self.rules_name(default)
        if self.lexicon:
            if rules_for_lexicon(self.lexicon):
                return f"no #rules line: assumed {name} from #lexicon {self.lexicon}"
            return (f"no #rules line and #lexicon {self.lexicon} is of no language with a rule set here: "
                    f"assumed {name}")
        return f"no #rules or #lexicon line: assumed {name}"

    def word_list_note(self, lexicon_given: bool) -> str | None:
        """None when the record's words are judged by the lexicon it is read with: one the
        caller gave (``--lexicon``, ``lexicon=``; taken as the record's), or the rule set's
        own list for a record that names a rule set and no word list (as this package writes
        them).  Else why they are not, and how to give the list: a
        record of another word list (``#lexicon CSW21``) or of none named is never judged
        on a list it did not use (no word of it is called a phony)."""
        if lexicon_given or (self.rules and not self.lexicon):
            return None
        if self.lexicon:
            stem = re.sub(r"[^\w.-]", "", self.lexicon)[:40] or "LIST"
            why = f"the record's word list {self.lexicon[:40]} is not here"
        else:
            stem = "LIST"
            why = "the record names no word list (no #lexicon or #rules line)"
        return f"{why}; give it: --lexicon {stem}.wsg, built by 'wordsalvo lexicon build {stem}.txt -o {stem}.wsg'"

    @property
    def assumed_rules(self) -> str | None:
        """:meth:`rules_assumption` with the package default (None when ``#rules`` is given)."""
        return self.rules_assumption()




@dataclass(frozen=True)
class GCGRecord(_HeaderLines):
    """A GCG record as written: headers and events in order (see :func:`parse_gcg`).

    Replaying the events on a board is a loop over ``events``; per kind:

    * ``play`` (:class:`PlayEvent`): place ``letters`` at ``row``/``col``/``direction``
      (fill the '.' squares from the board: :meth:`PlayEvent.notation_with`), take
      ``tiles_played`` from the rack, add ``score``.  Words not in the lexicon are NOT
      a reason to refuse the record: when no ``phony-removed`` event follows, the phony
      stood unchallenged; replay it and flag it.
    * ``phony-removed``: take the play of ``play_line`` (the event just before) back:
      its tiles return to the rack, its score is subtracted; the turn is used.
    * ``swap``: ``tiles`` (or ``count`` unknown tiles) back to the bag; ``pass``:
      nothing; ``timeout`` (this package's records): the turn is lost.  Each ends the turn.
    * ``challenge-bonus``, ``time-penalty``: add ``score`` to the player; no turn.
    * ``resign``: the player leaves the game (this package's records).
    * ``end-rack``: the game is over; add ``score`` to the player (``end_convention``
      says how the lines share the racks' values; ``tiles`` is the rack counted).

    ``score``/``total`` of every event are already checked to add up per player, so a
    replay compares its own scores with them to find a misread play.
    """

    players: tuple[GCGPlayer, ...]
    events: tuple[GCGEvent, ...]
    title: str | None = None
    description: str | None = None
    id_authority: str | None = None
    id: str | None = None
    lexicon: str | None = None
    rules: str | None = None  # the #rules line (this package's rule-set name), None when absent
    encoding: str = "UTF-8"  # how the bytes were decoded ('str' input: as declared, else UTF-8)
    notes: tuple[str, ...] = ()  # the #note texts before the first event, each with its continuation lines
    final_racks: dict[str, str] = field(default_factory=dict, hash=False)  # the last #rack1/#rack2, by nickname
    pragmas: tuple[GCGPragma, ...] = ()  # every other #keyword line, in order
    unfinished: bool = False  # no end-of-game line (rack points, resignation), or #incomplete
    end_convention: str | None = None  # 'double', 'add-and-subtract', 'subtract' or None
    path: str | None = None
    warnings: tuple[str, ...] = ()  # what was read other than written (e.g. a wrong #character-encoding)

    @property
    def header(self) -> GCGHeader:
        """The record's header alone (what a visitor's ``visit_header`` is given)."""
        return GCGHeader(**{f.name: getattr(self, f.name) for f in fields(GCGHeader)})


#: the fields of a :class:`GCGRecord` that the event lines make (the others are its header's)
_EVENT_FIELDS = ("events", "unfinished", "end_convention")

#: The header of a GCG record: every ``#`` line and the players, without the events (what
#: :class:`~wordsalvo.formats.gcg_visitor.HeaderBuilder` reads, stopping before the event
#: lines are read).  Its fields are :class:`GCGRecord`'s, but for ``events``,
#: ``unfinished`` and ``end_convention``; its methods too (``pragma``, ``one``, ``rules_name`` ...).
GCGHeader = make_dataclass(
    "GCGHeader",
    [(f.name, f.type, field(default=f.default, default_factory=f.default_factory, hash=f.hash))
     for f in fields(GCGRecord) if f.name not in _EVENT_FIELDS],
    bases=(_HeaderLines,), frozen=True)
GCGHeader.__module__ = __name__
GCGHeader.__doc__ = """The header of a GCG record: :class:`GCGRecord`'s fields and methods without its
    events (``events``, ``unfinished``, ``end_convention``)."""


def _decode(data: bytes, problem: Callable[[int, str], None],
            warn: Callable[[str], None] = lambda message: None) -> tuple[str, str]:
    """The text of ``data`` and the name of its encoding: a BOM, else ``#character-encoding``
    (but valid UTF-8 beyond ASCII is read as UTF-8 whatever the header says, with a ``warn``),
    else UTF-8 if the bytes are UTF-8, else ISO-8859-1 (the specification's default)."""
    for bom, name in ((codecs.BOM_UTF8, "UTF-8"), (codecs.BOM_UTF16_LE, "UTF-16"),
                      (codecs.BOM_UTF16_BE, "UTF-16")):
        if data.startswith(bom):
            body = data[len(bom):]
            codec = "utf-8" if name == "UTF-8" else ("utf-16-le" if bom == codecs.BOM_UTF16_LE else "utf-16-be")
            try:
                return body.decode(codec), name
            except UnicodeDecodeError as e:
                problem(_byte_line(body, e.start), f"expected {name} text (the file starts with a {name} "
                                                   f"byte-order mark), got byte 0x{body[e.start]:02X}")
                return body.decode(codec, errors="replace"), name
    declared = None
    lines = _LINE_END.split(data.decode("latin-1"))
    for number, raw in enumerate(lines, 1):
        m = _ENCODING_LINE.match(raw.encode("latin-1"))
        if m:
            declared = (m.group(1).decode("latin-1"), number)
            break
    if declared is not None:
        name, number = declared
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            problem(number, f"expected a known #character-encoding (UTF-8, ISO-8859-1 ...), got {excerpt(name)}")
        else:
            if codec != "utf-8" and any(b > 0x7F for b in data):
                # a program that wrote the header wrong: text that is valid UTF-8 (with letters
                # beyond ASCII) is almost never meant as another encoding; read it as UTF-8, say so
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    pass
                else:
                    warn(f"line {number}: #character-encoding says {excerpt(name)}, but the text is valid UTF-8; "
                         "read as UTF-8")
                    return text, "UTF-8"
            try:
                return data.decode(codec), name
            except UnicodeDecodeError as e:
                problem(_byte_line(data, e.start), f"expected {name} text (as #character-encoding on line {number} "
                                                   f"says), got byte 0x{data[e.start]:02X}")
                return data.decode(codec, errors="replace"), name
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1"


def _byte_line(data: bytes, offset: int) -> int:
    return len(_LINE_END.findall(data[:offset].decode("latin-1"))) + 1


def _split_word(word: str) -> tuple[tuple[str, ...], tuple[bool, ...], str | None]:
    """``WO(R)D`` / ``WO.D`` -> letters, through flags, or a problem."""
    letters: list[str] = []
    through: list[bool] = []
    depth_at = None
    for pos, ch in enumerate(word, 1):
        if ch == "(":
            if depth_at is not None:
                return (), (), f"a '(' inside the group opened at character {depth_at}"
            depth_at = pos
            group_start = len(letters)
        elif ch == ")":
            if depth_at is None:
                return (), (), f"a ')' at character {pos} with no '(' before it"
            if len(letters) == group_start:
                return (), (), f"an empty '()' at character {depth_at}"
            depth_at = None
        elif ch == ".":
            if depth_at is not None:
                return (), (), f"a '.' inside parentheses at character {pos}"
            letters.append(".")
            through.append(True)
        elif ch.isalpha():
            letters.append(ch)
            through.append(depth_at is not None)
        else:
            return (), (), f"{excerpt(ch)} at character {pos} (expected letters, '.' or '(LETTERS)')"
    if depth_at is not None:
        return (), (), f"the '(' at character {depth_at} is never closed"
    if all(through):
        return (), (), "no new tile (every square is already on the board)"
    return tuple(letters), tuple(through), None


def _check_unmarked_rack(event: PlayEvent, covered: dict[tuple[int, int], str],
                         problem: Callable[[int, str], None]) -> None:
    """The rack check of a word that marks no played-through square: the squares earlier
    plays covered with the word's letter there may be played through (only a replay on the
    board tells for sure), so only tiles that neither the rack nor such a square holds are
    reported."""
    need = "".join("?" if ch.islower() else ch for row, col, ch, _new in event.squares
                   if covered.get((row, col), "").upper() != ch.upper())
    if _missing(need, event.rack):
        problem(event.line, f"expected the rack {event.rack} to hold the tiles played ({need}), but "
                            f"{_missing(need, event.rack)} is not on it")


def _is_rack(token: str) -> bool:
    return bool(token) and all(ch == "?" or ch.isalpha() for ch in token)


def _missing(need: str, rack: str) -> str:
    return "".join(sorted((Counter(need) - Counter(rack)).elements()))


#: the most '>' event lines a record may have: a real game has a few dozen (four players
#: with every scoreless turn the rules allow, a few hundred); past that it is not a game
EVENTS_MAX = 1000


def parse_gcg(data: str | bytes, *, path: str | None = None) -> GCGRecord:
    """Read a GCG record (text, or bytes decoded per BOM / ``#character-encoding`` /
    UTF-8 / ISO-8859-1) into a :class:`GCGRecord`, without a board or a lexicon.

    Reads: ``#player1 nick Full Name``, ``#title``, ``#description``, ``#id AUTHORITY
    ID``, ``#lexicon``, ``#rules``, ``#character-encoding``, ``#note`` (continued on the
    following lines up to the next ``#`` or ``>`` line; attached to the event it
    follows), ``#rack1``/``#rack2`` (final racks), ``#incomplete``, any other ``#``
    line (kept in ``pragmas``), blank lines, CR, LF and CRLF line ends, and every event
    line form of :class:`GCGRecord`.  Played-through tiles as '.' or in parentheses.

    Checks, each problem naming its line with what was expected and what came: every
    line has a known form; scores and totals are numbers; each player's totals add up;
    the rack holds the tiles a play or exchange uses (for a word that marks no
    played-through square, the tiles on squares no earlier play covered with that
    letter; a replay infers the rest from the board); a play stays on the 15x15 board;
    a ``--`` line follows a play of the same player and takes back its score; passes
    and exchanges score 0; no turn follows the end-of-game rack points; nicknames are
    declared.  Raises :class:`GCGError` with ``.problems`` listing all of them.
    """
    return _parse(data, path)


def _parse(data: str | bytes, path: str | None,
           on_header: Callable[[GCGHeader], bool] | None = None) -> GCGRecord | GCGHeader:
    """:func:`parse_gcg`, the one reader of GCG text.  ``on_header(header)`` is called once
    the header lines are read (when they hold no problem); when it returns False the event
    lines are not read and the header is returned (a header-only reading)."""
    where = path or "GCG"
    numbered: list[tuple[int, str]] = []

    def problem(number: int, message: str) -> None:
        numbered.append((number, f"{where} line {number}: {message}"))

    warnings: list[str] = []
    if isinstance(data, (bytes, bytearray, memoryview)):
        text, encoding = _decode(bytes(data), problem, lambda message: warnings.append(f"{where} {message}"))
    elif isinstance(data, str):
        text, encoding = data, "UTF-8"
        m = re.search(r"^[ \t]*#character-encoding[ \t]+(\S+)", text, re.MULTILINE)
        if m:
            encoding = m.group(1)
    else:
        raise GCGError(f"{where}: expected GCG text (str or bytes), got {type(data).__name__}")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        empty = [f"{where} line 1: expected a GCG game record ('#player1 nick Name' and '>nick: ...' lines), "
                 f"got {'an empty file' if not text else 'only white space'}"]
        raise GCGError(list_problems(where, empty), empty)
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()

    players: dict[int, GCGPlayer] = {}
    player_lines: dict[int, int] = {}
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    pragmas: list[GCGPragma] = []
    rack_lines: dict[int, tuple[str, int]] = {}
    notes_before: list[list[str]] = []
    raw_events: list[tuple[int, str, str, list[str]]] = []  # line, text, nick, tokens
    notes: dict[int, list[str]] = {}  # index into raw_events -> note parts
    continuing: list[str] | None = None  # the text being continued (a note or description)
    description_parts: list[str] = []
    incomplete = False
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith(">"):
            continuing = None
            m = _EVENT_HEAD.match(line)
            if not m:
                problem(number, f"expected '>nick: ...' with the nickname and a colon, got {excerpt(line)}")
                continue
            raw_events.append((number, line, m.group(1), m.group(2).split()))
            continue
        if line.startswith("#"):
            continuing = None
            m = _PRAGMA.match(line)
            keyword, value = m.group(1), m.group(2).strip()
            pm = re.fullmatch(r"player([0-9]{1,3})", keyword)
            if pm:
                n = int(pm.group(1))
                parts = value.split(None, 1)
                if not 1 <= n <= GAME_MAX_PLAYERS:
                    problem(number, f"expected #player1..#player{GAME_MAX_PLAYERS} (a game has at most "
                                    f"{GAME_MAX_PLAYERS} players), got #player{n}")
                elif not parts:
                    problem(number, f"expected '#player{n} nick Full Name', got {excerpt(line)}")
                elif n in players:
                    problem(number, f"expected one #player{n} line, got a second one (the first is on line "
                                    f"{player_lines[n]})")
                else:
                    if raw_events:
                        problem(number, f"expected #player lines before the first event (line {raw_events[0][0]}), "
                                        f"got #player{n} after it")
                    players[n] = GCGPlayer(n, parts[0], parts[1].strip() if len(parts) > 1 else parts[0])
                    player_lines[n] = number
            elif keyword == "note":
                if raw_events:  # one note per event: its #note lines joined
                    continuing = notes.setdefault(len(raw_events) - 1, [])
                    continuing.append(value)
                else:  # before the first event: each #note on its own
                    continuing = [value]
                    notes_before.append(continuing)
            elif keyword in ("title", "description", "lexicon", "rules", "id", "character-encoding"):
                if keyword in headers and headers[keyword] != value:
                    problem(number, f"expected one #{keyword} line, got a second one saying {excerpt(value)} (line "
                                    f"{header_lines[keyword]} says {excerpt(headers[keyword])})")
                headers[keyword] = value
                header_lines[keyword] = number
                if keyword == "description":
                    description_parts = continuing = [value]
            elif re.fullmatch(r"rack([0-9]{1,3})", keyword):
                n = int(keyword[4:])
                if not _is_rack(value):
                    problem(number, f"expected '#{keyword} RACK' (letters, '?' = blank), got {excerpt(line)}")
                else:
                    rack_lines[n] = (value, number)
            elif keyword == "incomplete":
                incomplete = True
                pragmas.append(GCGPragma(keyword, value, number))
            elif not keyword:
                problem(number, f"expected '#keyword value' (a pragma), got {excerpt(line)}")
            else:
                pragmas.append(GCGPragma(keyword, value, number))
            continue
        if continuing is not None:
            continuing.append(raw.rstrip())
            continue
        if line:
            problem(number, f"expected a '#' pragma line or a '>nick:' event line, got {excerpt(line)}")
    if len(raw_events) > EVENTS_MAX:
        problem(raw_events[EVENTS_MAX][0], f"expected at most {EVENTS_MAX:,} event lines in a record (a game of "
                                            f"tiles has a few dozen), got {len(raw_events):,}")
    if not raw_events and not players and numbered:
        positions = sum(1 for raw in lines if _CGP_LINE.match(raw.strip()))
        if positions:
            message = (f"{where}: expected a GCG game record ('#player1 nick Name' and '>nick: ...' lines), got "
                       f"what looks like a CGP file of positions ({plural(positions, 'position line')}); "
                       f"`wordsalvo analyze` reads games, `wordsalvo moves` and `wordsalvo best` read positions")
            raise GCGError(message)

    def joined(parts: list[str]) -> str:
        return "\n".join(parts).strip("\n")

    description = joined(description_parts) if description_parts else None

    # players: declared, else in the order they first appear
    if players:
        numbers = sorted(players)
        if numbers != list(range(1, len(numbers) + 1)):
            problem(player_lines[numbers[-1]], f"expected #player lines numbered 1..{len(numbers)}, got "
                                               f"{', '.join(f'#player{n}' for n in numbers)}")
        seen_nicks: dict[str, int] = {}
        for n in numbers:
            nick = players[n].nick
            if nick in seen_nicks:
                problem(player_lines[n], f"expected a nickname unlike #player{seen_nicks[nick]}'s, got {excerpt(nick)} again")
            seen_nicks.setdefault(nick, n)
        roster = [players[n] for n in numbers]
    else:
        order: list[str] = []
        for _n, _t, nick, _tok in raw_events:
            if nick not in order:
                order.append(nick)
        roster = [GCGPlayer(k + 1, nick, nick) for k, nick in enumerate(order)]
    index = {}
    for k, p in enumerate(roster):
        index.setdefault(p.nick, k)

    final_racks: dict[str, str] = {}
    by_number = {p.number: p.nick for p in roster}
    for n, (rack, number) in sorted(rack_lines.items()):
        if n not in by_number:
            problem(number, f"expected #rack1..#rack{len(roster)} (one per player), got #rack{n}")
        else:
            final_racks[by_number[n]] = rack

    id_parts = headers.get("id", "").split(None, 1)
    header = GCGHeader(
        players=tuple(roster), title=headers.get("title"), description=description,
        id_authority=id_parts[0] if len(id_parts) > 1 else None, id=id_parts[-1] if id_parts else None,
        lexicon=headers.get("lexicon") or None, rules=headers.get("rules") or None, encoding=encoding,
        notes=tuple(text for text in map(joined, notes_before) if text), final_racks=final_racks,
        pragmas=tuple(pragmas), path=path, warnings=tuple(warnings))
    if on_header is not None and not numbered and not on_header(header):
        return header  # the event lines are not read

    events: list[GCGEvent] = []
    # per player: the totals the next line may build on (after a wrong total, both the
    # sum and the total as written, so that one typo is reported once); None = unknown
    # (after a line that could not be read)
    totals: dict[int, tuple[int, ...] | None] = {}
    end_line: int | None = None
    # the squares the plays so far covered (letter by square; a play's own squares by line,
    # for a '--' that takes it back); None once a line could not be read (unknown board)
    covered: dict[tuple[int, int], str] | None = {}
    placed: dict[int, list[tuple[int, int]]] = {}
    for k, (number, line, nick, tokens) in enumerate(raw_events):
        if nick not in index:
            problem(number, f"expected a nickname of the #player lines ({', '.join(p.nick for p in roster)}), "
                            f"got {excerpt(nick)}")
            covered = None
            continue
        event = _event(number, line, nick, index[nick], tokens, problem)
        if event is None:
            totals[index[nick]] = None
            covered = None
            continue
        if isinstance(event, PlayEvent) and covered is not None:
            if event.rack and not event.marks_through:
                _check_unmarked_rack(event, covered, problem)
            placed[event.line] = [(r, c) for r, c, _ch, new in event.squares
                                  if new and (r, c) not in covered]
            for r, c in placed[event.line]:
                covered[(r, c)] = event.letters[(c - event.col) if event.direction == 0 else (r - event.row)]
        if notes.get(k):
            event = replace(event, note=joined(notes[k]))
        # checks that need the events before
        prev = events[-1] if events else None
        if isinstance(event, PhonyRemovedEvent):
            if not isinstance(prev, PlayEvent) or prev.player != nick:
                got = f"the {prev.kind} of {prev.player} on line {prev.line}" if prev else "the start of the record"
                problem(number, f"expected a '--' line right after a play by {nick}, got it after {got}")
            else:
                event = replace(event, play_line=prev.line)
                if covered is not None:
                    for square in placed.get(prev.line, ()):
                        covered.pop(square, None)
                if event.score != -prev.score:
                    problem(number, f"expected {-prev.score:+d} (taking back the {prev.score:+d} of line {prev.line}), "
                                    f"got {event.score:+d}")
        if end_line is not None and event.kind in _TURNS + ("phony-removed",):
            problem(number, f"expected no turn after the end-of-game rack points on line {end_line}, got {excerpt(line)}")
        if isinstance(event, EndRackEvent) and end_line is None:
            end_line = number
        before = totals.get(event.player_index, (0,))
        if before is not None and all(event.total != b + event.score for b in before):
            problem(number, f"expected total {before[0] + event.score} for {nick} ({before[0]} {event.score:+d}), "
                            f"got {event.total}")
            totals[event.player_index] = (before[0] + event.score, event.total)
        else:
            totals[event.player_index] = (event.total,)
        events.append(event)

    # end-of-game lines: whose rack, which convention
    ends = [e for e in events if isinstance(e, EndRackEvent)]
    convention = None
    if ends:
        plus = [e for e in ends if e.score > 0]
        minus = [e for e in ends if e.score < 0]
        convention = "add-and-subtract" if plus and minus else "subtract" if minus else "double"
        owners = {"".join(sorted(e.tiles)): e.player for e in minus}
        fixed = []
        for e in events:
            if isinstance(e, EndRackEvent) and e.score >= 0:
                others = [p.nick for p in roster if p.nick != e.player]
                owner = owners.get("".join(sorted(e.tiles)))
                if owner is None and len(others) == 1:
                    owner = others[0]
                e = replace(e, owner=owner)
            fixed.append(e)
        events = fixed

    problems = [message for _number, message in sorted(numbered, key=lambda p: p[0])]
    if problems:
        raise GCGError(list_problems(where, problems, "GCGError.problems lists every one"), problems)
    return GCGRecord(
        **{f.name: getattr(header, f.name) for f in fields(header)}, events=tuple(events),
        unfinished=incomplete or not any(isinstance(e, (EndRackEvent, ResignEvent)) for e in events),
        end_convention=convention)


def _event(number: int, line: str, nick: str, player_index: int, tokens: list[str],
           problem: Callable[[int, str], None]) -> GCGEvent | None:
    """One event line's tokens (after ``>nick:``) -> an event, or None after reporting."""
    if len(tokens) < 2 or not _SIGNED.match(tokens[-2]) or not _WHOLE.match(tokens[-1]):
        tail = " ".join(tokens[-2:]) if tokens else "nothing"
        problem(number, f"expected a line ending in a score and a total (e.g. '+14 270'), got {excerpt(tail)} in {excerpt(line)}; "
                        f"the forms are {_EVENT_FORMS}")
        return None
    score, total = int(tokens[-2]), int(tokens[-1])
    middle = tokens[:-2]
    common = dict(line=number, text=line, player=nick, player_index=player_index, score=score, total=total)

    def rack_before(count: int, what: str) -> str | None:
        """The rack token before the ``count`` tokens of the action (optional)."""
        if len(middle) == count:
            return ""
        if len(middle) == count + 1 and _is_rack(middle[0]):
            return middle[0]
        problem(number, f"expected '>nick: RACK {what}', got {excerpt(line)}")
        return None

    def zero(kind: str) -> bool:
        """Reports a pass, exchange or resignation that scores; the event is kept."""
        if score != 0:
            problem(number, f"expected +0 for a {kind}, got {score:+d}")
        return True

    if not middle:  # the older challenge-bonus form without a rack: '>nick: +5 total'
        return ChallengeBonusEvent(rack="", **common)
    last = middle[-1]
    if len(middle) >= 2 and _COORDINATE.match(middle[-2]):
        return _play(number, line, middle, common, problem)
    if last == "(challenge)":
        rack = rack_before(1, "(challenge) +N total")
        return None if rack is None else ChallengeBonusEvent(rack=rack, **common)
    if last == "(time)":
        rack = rack_before(1, "(time) -N total")
        if rack is None:
            return None
        return TimeoutEvent(rack=rack, **common) if score == 0 else TimePenaltyEvent(rack=rack, **common)
    if last == "(resign)":
        rack = rack_before(1, "(resign) +0 total")
        return None if rack is None or not zero("resignation") else ResignEvent(rack=rack, **common)
    m = _IN_PARENS.match(last)
    if m:
        tiles = m.group(1)
        if not _is_rack(tiles):
            problem(number, f"expected '(RACK)' with the letters left on a rack, got {excerpt(last)} in {excerpt(line)}")
            return None
        rack = rack_before(1, "(RACK) -N total")
        if rack is None:
            return None
        if rack and Counter(rack) != Counter(tiles):
            problem(number, f"expected the rack {rack} again in parentheses, got {excerpt(last)}")
        return EndRackEvent(rack=rack, tiles=tiles, owner=nick if score < 0 else None, **common)
    if last == "--":
        rack = rack_before(1, "-- -score total")
        return None if rack is None else PhonyRemovedEvent(rack=rack, play_line=0, **common)
    if last == "-":
        rack = rack_before(1, "- +0 total")
        return None if rack is None or not zero("pass") else PassEvent(rack=rack, **common)
    if last.startswith("-"):
        rack = rack_before(1, "-TILES +0 total")
        if rack is None or not zero("swap"):
            return None
        body = last[1:]
        if is_whole_number(body, digits=9):
            count, tiles = int(body), ""
            if count < 1:
                problem(number, f"expected at least one tile exchanged, got {excerpt(last)}")
                return None
        elif _is_rack(body):
            count, tiles = len(body), body
        else:
            problem(number, f"expected '-TILES' (letters, '?' = blank) or '-N' (how many), got {excerpt(last)}")
            return None
        if rack and tiles and _missing(tiles, rack):
            problem(number, f"expected the rack {rack} to hold the tiles exchanged ({tiles}), but "
                            f"{_missing(tiles, rack)} is not on it")
        elif rack and count > len(rack):
            problem(number, f"expected at most {len(rack)} tiles exchanged from the rack {rack}, got {count}")
        return SwapEvent(rack=rack, tiles=tiles, count=count, **common)
    if len(middle) == 1 and _is_rack(last):  # the older challenge-bonus form: '>nick: RACK +5 total'
        return ChallengeBonusEvent(rack=last, **common)
    problem(number, f"expected one of {_EVENT_FORMS}; got {excerpt(line)}")
    return None


def _play(number: int, line: str, middle: list[str], common: dict,
          problem: Callable[[int, str], None]) -> PlayEvent | None:
    """``[RACK] COORD WORD`` (the tokens before the score) -> a play, or None after reporting."""
    if len(middle) == 2:
        rack = ""
    elif len(middle) == 3 and _is_rack(middle[0]):
        rack = middle[0]
    else:
        problem(number, f"expected '>nick: RACK COORD WORD +score total', got {excerpt(line)}")
        return None
    coordinate, word = middle[-2], middle[-1]
    try:
        row, col, direction = parse_coordinate(coordinate)
    except NotationError as e:
        problem(number, f"{e} in {excerpt(line)}")
        return None
    letters, through, bad = _split_word(word)
    if bad:
        problem(number, f"expected a word such as WO(R)D or WO.D, got {excerpt(word)}: {bad}")
        return None
    end = (col if direction == 0 else row) + len(letters) - 1
    if end >= DIM:
        problem(number, f"expected the {len(letters)} squares of {word} from {coordinate} to stay on the "
                        f"{DIM}x{DIM} board, got a word running {end - DIM + 1} square(s) off it")
        return None
    event = PlayEvent(rack=rack, coordinate=coordinate.upper(), row=row, col=col, direction=direction,
                      word=word, letters=letters, through=through, **common)
    # a word that marks no played-through square may still run through tiles on the board (some
    # programs write MALTHA for MALTH(A) and list only the tiles played): only the board can
    # tell, so a replay checks that rack (replay.py); a word with marks is checked here
    if rack and any(through) and _missing(event.tiles_played, rack):
        problem(number, f"expected the rack {rack} to hold the tiles played ({event.tiles_played}), but "
                        f"{_missing(event.tiles_played, rack)} is not on it")
    return event


def assumption_note(message: str, assumption: str) -> str:
    """``message`` of a record that failed to replay, with the rule set it assumed and how to
    name another (a record without ``#rules``)."""
    return (f"{message} [the record has {assumption}; if the game used another rule set, add a "
            f"'#rules NAME' line or pass it (--rules NAME, rules=...)]")


def resolve_record(record: GCGRecord, rules=None, lexicon=None):
    """The rules and the lexicon a record is read with, and the note of what was assumed:
    ``(Rules, Lexicon, assumed)``.  ``rules``: a Rules object or a preset name (default: the
    record's :meth:`~GCGRecord.rules_name`, from ``#rules`` or ``#lexicon``), with the
    record's ``#board_seed`` and ``#stars`` (:func:`~wordsalvo.formats.opcodes.resolve_rules`,
    the one place for it); ``lexicon``: a Lexicon, a graph file's path, or None for the rule
    set's language's default; ``assumed``: :meth:`~GCGRecord.rules_assumption` when the rules
    came from the record without ``#rules`` (else None)."""
    from ..lexicon.lexicon import Lexicon

    assumed = None
    if rules is None:
        assumed = record.assumed_rules
        rules = record.rules_name()
    resolved = resolve_rules(rules, board_seed=record.pragma("board_seed"), stars=record.pragma("stars"),
                             default=DEFAULT_RULES, error=GCGError, where=f"{record.path or 'GCG'} header")
    if lexicon is None:
        lexicon = Lexicon.default(resolved.alphabet.name)
    elif not isinstance(lexicon, Lexicon):
        lexicon = Lexicon.load(lexicon)
    return resolved, lexicon, assumed

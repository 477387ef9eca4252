"""One GCG reader, many builders: :func:`read_gcg` walks a record and calls a visitor.

:func:`~wordsalvo.formats.gcg_record.parse_gcg` is the one reader of GCG text (its
encodings, its line forms, its checks); :func:`read_gcg` is that reader with a
*visitor*, as ``chess.pgn.read_game(handle, Visitor=...)`` is for PGN.  The visitor is
called for:

* ``visit_header(header)``: the :class:`~wordsalvo.formats.gcg_record.GCGHeader` (every
  ``#`` line and the players).  Returning :data:`SKIP` stops the reading there: the
  event lines are not read, nor checked, and ``visit_turn`` is never called;
* ``visit_turn(turn)``: each :class:`GCGTurn` in record order: an event line with the
  ``--`` line that takes a play back (:attr:`GCGTurn.removal`), its notes and the
  end-of-game rack lines that follow the turn that ended the game
  (:attr:`GCGTurn.ending`; they come as turns of their own too);
* ``visit_end(record)``: after the last turn, with the whole
  :class:`~wordsalvo.formats.gcg_record.GCGRecord`;

and :meth:`GCGVisitor.result` is what :func:`read_gcg` returns.  An error a visitor
raises while it visits a turn names the record's line: a
:class:`~wordsalvo.errors.WordSalvoError` becomes a :class:`GCGError` starting
``"<path> line N:"`` (a GCGError is passed on as it is: the builders name their
lines), any other exception gets a note naming it.

The builders: :class:`HeaderBuilder` (the header only), :class:`RecordBuilder` (the
:class:`GCGRecord`), :class:`wordsalvo.formats.gcg.GameBuilder` (a
:class:`~wordsalvo.Game`, every rule of the game checked: what
:func:`~wordsalvo.formats.gcg.from_gcg` returns) and
:class:`wordsalvo.formats.replay.ReplayBuilder` (a
:class:`~wordsalvo.formats.replay.Replay`: the position before every turn, for an
analysis: what :func:`~wordsalvo.formats.replay.read_game` returns).

A record file is opened by :func:`record_bytes` (its bytes; the reader decodes them by
its one encoding rule: a byte-order mark, ``#character-encoding``, UTF-8, else
ISO-8859-1).
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

from ..errors import GCGError, WordSalvoError
from ..inputs import read_bytes, read_stream
from .gcg_record import EndRackEvent, GCGEvent, GCGHeader, GCGRecord, PhonyRemovedEvent, _parse

__all__ = ["SKIP", "GCGTurn", "GCGVisitor", "HeaderBuilder", "RecordBuilder", "read_gcg", "read_header",
           "record_bytes"]


class _Skip:
    __slots__ = ()

    def __repr__(self) -> str:
        return "SKIP"


#: returned by :meth:`GCGVisitor.visit_header`: read no further than the header
SKIP = _Skip()


class GCGTurn(NamedTuple):
    """One step of the walk over a record's events (see the module docstring); a named
    tuple (one is made per event line: it costs what a tuple costs)."""

    event: GCGEvent
    #: the ``--`` line right after a play that takes it back (None for any other turn)
    removal: PhonyRemovedEvent | None = None
    #: the end-of-game rack lines right after this turn when it is the last before them
    #: (the racks left when the game ended); () otherwise
    ending: tuple[EndRackEvent, ...] = ()

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def player(self) -> int:
        """The 0-based index of the player the line is about (``#player1`` is 0)."""
        return self.event.player_index

    @property
    def line(self) -> int:
        return self.event.line

    @property
    def notes(self) -> tuple[str, ...]:
        """The ``#note`` lines after the event (and after its ``--`` line), one by one."""
        out: list[str] = []
        for e in (self.event, self.removal):
            if e is not None and e.note:
                out += e.note.split("\n")
        return tuple(out)


class GCGVisitor:
    """The base of every visitor: each method does nothing (override what you need)."""

    def visit_header(self, header: GCGHeader) -> Any:
        """The record's header; return :data:`SKIP` to read no further."""
        return None

    def visit_turn(self, turn: GCGTurn) -> None:
        """One turn (see :class:`GCGTurn`)."""

    def visit_end(self, record: GCGRecord) -> None:
        """After the last turn: the whole record."""

    def result(self) -> Any:
        """What :func:`read_gcg` returns (None here)."""
        return None


class HeaderBuilder(GCGVisitor):
    """The :class:`GCGHeader` alone: the reading stops before the event lines."""

    def __init__(self) -> None:
        self.header: GCGHeader | None = None

    def visit_header(self, header: GCGHeader) -> Any:
        self.header = header
        return SKIP

    def result(self) -> GCGHeader | None:
        return self.header


class RecordBuilder(GCGVisitor):
    """The :class:`GCGRecord` (what :func:`parse_gcg` returns)."""

    def __init__(self) -> None:
        self.record: GCGRecord | None = None

    def visit_end(self, record: GCGRecord) -> None:
        self.record = record

    def result(self) -> GCGRecord | None:
        return self.record


def read_gcg(source: "str | bytes | GCGRecord", visitor: GCGVisitor | type[GCGVisitor] = RecordBuilder, *,
             path: str | None = None) -> Any:
    """Read ``source`` (GCG text, bytes, or a :class:`GCGRecord` already read) with
    ``visitor`` (an instance, or a class called without arguments) and return
    ``visitor.result()``.  ``path`` names the record in every message.  The reading
    problems raise :class:`GCGError` listing each with its line (see
    :func:`~wordsalvo.formats.gcg_record.parse_gcg`): ``visit_header`` is called only
    with a header whose lines have none, ``visit_turn`` only for a record without any."""
    if isinstance(visitor, type):
        visitor = visitor()
    if not callable(getattr(visitor, "visit_header", None)):
        raise GCGError(f"read_gcg: visitor: expected a GCGVisitor, got {type(visitor).__name__}")
    if isinstance(source, GCGRecord):
        record = source
        if visitor.visit_header(record.header) is SKIP:
            return visitor.result()
    elif isinstance(source, (str, bytes, bytearray, memoryview)):
        read = _parse(source, path, lambda header: visitor.visit_header(header) is not SKIP)
        if not isinstance(read, GCGRecord):  # the visitor stopped at the header
            return visitor.result()
        record = read
    else:
        raise GCGError(f"read_gcg: expected GCG text, bytes or a GCGRecord, got {type(source).__name__}")
    walk(record, visitor)
    visitor.visit_end(record)
    return visitor.result()


def read_header(source: "str | bytes | GCGRecord", *, path: str | None = None) -> GCGHeader:
    """The header of a record (:class:`HeaderBuilder`; text is read only to its header)."""
    return read_gcg(source, HeaderBuilder(), path=path)


def walk(record: GCGRecord, visitor: GCGVisitor) -> None:
    """Call ``visitor.visit_turn`` for each turn of ``record`` (the one walk over the
    events: a play and the ``--`` line after it are one turn)."""
    events = record.events
    where = record.path or "GCG"
    i = 0
    while i < len(events):
        event = events[i]
        nxt = events[i + 1] if i + 1 < len(events) else None
        removal = nxt if event.kind == "play" and isinstance(nxt, PhonyRemovedEvent) else None
        i += 2 if removal is not None else 1
        ending: tuple[EndRackEvent, ...] = ()
        if event.kind != "end-rack":
            k = i
            while k < len(events) and isinstance(events[k], EndRackEvent):
                k += 1
            ending = tuple(events[i:k])  # type: ignore[arg-type]
        try:
            visitor.visit_turn(GCGTurn(event, removal, ending))
        except GCGError:
            raise
        except WordSalvoError as e:
            raise GCGError(f"{where} line {event.line}: {e}") from None
        except Exception as e:
            e.add_note(f"while visiting {where} line {event.line}: {event.text}")
            raise


def record_bytes(path: str, error: type[WordSalvoError] = GCGError) -> bytes:
    """The bytes of the record file ``path`` ('-': standard input), for :func:`read_gcg`
    to decode (the one way a command opens a game record: the reader's one encoding rule
    then applies to every file, UTF-8 or ISO-8859-1).  Raises ``error``."""
    if path == "-":
        return read_stream(sys.stdin.buffer, error, "game record")
    return read_bytes(path, error, "game record")

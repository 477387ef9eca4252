"""Game results for the ratings: a CSV of results, or GCG game records.

A CSV of results holds one game between two players per line::

    date,player1,player2,score1,score2
    2026-03-01,Ann,Bob,412,388
    2026-03-01,Cid,Ann,350,350

or, with the result instead of the scores::

    date,player1,player2,result
    2026-03-02,Bob,Cid,1-0

* ``date`` is ``YYYY-MM-DD``; players are names (not empty, two different ones);
* ``score1``/``score2`` are whole numbers (negative too): the higher wins,
  equal scores draw;
* ``result`` is ``1-0`` (player1 wins), ``0-1`` (player2 wins) or ``1/2-1/2``
  (a draw; ``0.5-0.5`` too);
* the header line is optional: without one, the first line's number of fields
  (5 or 4) chooses the form, and every line must have that form;
* blank lines and lines starting with ``#`` are ignored; fields may be quoted
  (a name with a comma), but a field may not span lines.

A game of three or four players goes in as its pairs (see
:mod:`wordsalvo.ratings`); a GCG record of such a game does that by itself.

A GCG record (see :mod:`wordsalvo.formats.gcg`) is read by the one GCG reader
(bytes decoded by its one rule; a file opened by
:func:`~wordsalvo.formats.gcg_visitor.record_bytes`, as ``analyze`` opens it) and, in the
same walk (:class:`RatedGameBuilder`), its header gives the date and its turns are replayed
on a board (scores checked, words not: :func:`rated_game_from_gcg`); its places come
from the replay (:func:`replay_places`): the player who left loses, the others are placed by
final score.  Its date is a
``#date YYYY-MM-DD`` header line, and a ``#time HH:MM[:SS]`` line (an offset from
UTC may follow, as ``wordsalvo play`` and ``autoplay --gcg`` write it) orders the
games of one day.  The date is required unless the caller rates every game as its
own period (``dates=False``: undated records are rated in the order given); players
are the nicknames of the ``#player`` lines.

A folder given to :func:`read_rated_games` stands for every ``*.gcg`` and ``*.csv``
file in it and its subfolders, in the order of their paths.

Every reader collects all the problems of its input (each with file and line)
and raises one :class:`~wordsalvo.ratings.RatingError` listing them.
"""

from __future__ import annotations

import csv
import datetime
import re
from pathlib import Path
from typing import Callable, Iterable

from ..errors import WordSalvoError
from ..inputs import path_problem, read_bytes, text_lines
from ..ratings import RatedGame, RatingError
from .gcg_record import GCGHeader, GCGRecord
from .gcg_visitor import read_gcg, read_header, record_bytes
from .replay import Replay, ReplayBuilder
from ..wording import plural

__all__ = ["read_results_csv", "rated_game_from_gcg", "RatedGameBuilder", "replay_places", "read_rated_games", "game_files", "CSV_HEADERS"]

#: the two header lines a results CSV may start with
CSV_HEADERS = (("date", "player1", "player2", "score1", "score2"), ("date", "player1", "player2", "result"))

_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_WHOLE = re.compile(r"^[+-]?[0-9]{1,9}$")  # ASCII digits, bounded
_RESULTS = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1), "0.5-0.5": (1, 1)}


def _problems_error(where: str, problems: list[str]) -> RatingError:
    if len(problems) == 1:
        return RatingError(problems[0], problems)
    return RatingError(f"{where}: {plural(len(problems), 'problem')}:\n  " + "\n  ".join(problems), problems)


def parse_date(text: str) -> datetime.date | None:
    """A ``YYYY-MM-DD`` date, or None when ``text`` is not one."""
    if not _DATE.match(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def read_results_csv(text: str, source: str = "<csv>") -> list[RatedGame]:
    """The games of a results CSV (see the module docstring), in file order."""
    problems: list[str] = []
    games: list[RatedGame] = []
    form: tuple[str, ...] | None = None
    for number, line in enumerate(text_lines(text), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        at = f"{source} line {number}"
        try:
            fields = [f.strip() for f in next(csv.reader([line], strict=True))]
        except csv.Error as e:
            problems.append(f"{at}: expected comma-separated fields, got {line!r} ({e})")
            continue
        if form is None:
            if fields and fields[0].lower() == "date":
                header = tuple(f.lower() for f in fields)
                if header not in CSV_HEADERS:
                    problems.append(f"{at}: expected the header {','.join(CSV_HEADERS[0])!r} or "
                                    f"{','.join(CSV_HEADERS[1])!r}, got {line!r}")
                    raise _problems_error(source, problems)
                form = header
                continue
            form = next((h for h in CSV_HEADERS if len(h) == len(fields)), None)
            if form is None:
                problems.append(f"{at}: expected 5 fields ({','.join(CSV_HEADERS[0])}) or 4 fields "
                                f"({','.join(CSV_HEADERS[1])}), got {len(fields)} in {line!r}")
                raise _problems_error(source, problems)
        if len(fields) != len(form):
            problems.append(f"{at}: expected {len(form)} fields ({','.join(form)}), got {len(fields)} in {line!r}")
            continue
        bad = []
        date = parse_date(fields[0])
        if date is None:
            bad.append(f"expected a date YYYY-MM-DD, got {fields[0]!r}")
        one, two = fields[1], fields[2]
        if not one or not two:
            bad.append(f"expected two player names, got {one!r} and {two!r}")
        elif one == two:
            bad.append(f"expected two different players, got {one!r} twice")
        places = None
        if len(form) == 5:
            if not _WHOLE.match(fields[3]) or not _WHOLE.match(fields[4]):
                bad.append(f"expected two whole-number scores, got {fields[3]!r} and {fields[4]!r}")
            else:
                a, b = int(fields[3]), int(fields[4])
                places = (1, 2) if a > b else (2, 1) if b > a else (1, 1)
        else:
            places = _RESULTS.get(fields[3].replace(" ", ""))
            if places is None:
                bad.append(f"expected a result 1-0, 0-1 or 1/2-1/2, got {fields[3]!r}")
        if bad:
            problems.extend(f"{at}: {b}" for b in bad)
            continue
        games.append(RatedGame(date, (one, two), places, at))
    if problems:
        raise _problems_error(source, problems)
    return games


_TIME = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9]))?(?:Z|[+-][0-9]{2}:?[0-9]{2})?$")


def _header_line(source: "str | bytes | GCGRecord | GCGHeader", keyword: str, where: str) -> tuple[int, str] | None:
    """(line number, value) of the one ``#keyword`` header line of a record (its text, read
    only to its header, or the :class:`GCGRecord` or :class:`GCGHeader` read from it), None
    without one."""
    try:
        header = source if isinstance(source, GCGHeader) else read_header(source, path=where)
        found = header.one(keyword, RatingError)
    except RatingError:
        raise
    except WordSalvoError as e:
        raise RatingError(str(e), getattr(e, "problems", None)) from None
    return None if found is None else (found.line, found.value.strip())


def gcg_date(text: "str | bytes | GCGRecord | GCGHeader", source: str = "<gcg>",
             required: bool = True) -> datetime.date | None:
    """The date of a GCG record: its one ``#date YYYY-MM-DD`` header line (None without
    one when not ``required``)."""
    found = _header_line(text, "date", source)
    if found is None:
        if not required:
            return None
        raise RatingError(f"{source}: expected a '#date YYYY-MM-DD' header line, got none "
                          "(or --period game, which rates records without dates in the order given)")
    number, value = found
    date = parse_date(value)
    if date is None:
        raise RatingError(f"{source} line {number}: expected '#date YYYY-MM-DD', got {value!r}")
    return date


def gcg_time(text: "str | bytes | GCGRecord | GCGHeader", source: str = "<gcg>") -> datetime.time | None:
    """The clock time of a GCG record's one ``#time HH:MM[:SS]`` line (any offset from UTC
    that follows is read and dropped: games of one day are ordered by their local time);
    None without one."""
    found = _header_line(text, "time", source)
    if found is None:
        return None
    number, value = found
    m = _TIME.match(value)
    if m is None:
        raise RatingError(f"{source} line {number}: expected '#time HH:MM[:SS]' (and an offset such as "
                          f"+01:00), got {value!r}")
    return datetime.time(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


class RatedGameBuilder(ReplayBuilder):
    """The visitor that makes the :class:`~wordsalvo.ratings.RatedGame` of a record in one
    reading: the date and the time from its header, the places from its replay (see
    :func:`rated_game_from_gcg`)."""

    def __init__(self, source: str = "<gcg>", lexicon=None, dates: bool = True) -> None:
        super().__init__(lexicon=lexicon)
        self.source, self.dates = source, dates

    def visit_header(self, header: GCGHeader) -> None:
        self.date = gcg_date(header, self.source, required=self.dates)
        self.time = gcg_time(header, self.source)
        super().visit_header(header)

    def result(self) -> RatedGame:
        rp = super().result()
        return RatedGame(self.date, tuple(p.nick for p in rp.record.players), replay_places(rp), self.source,
                         time=self.time)


def rated_game_from_gcg(text: str | bytes, source: str = "<gcg>", lexicon=None, dates: bool = True) -> RatedGame:
    """The game of a GCG record (text, or bytes decoded as :func:`parse_gcg` decodes every
    record: the one reader and its one encoding rule), replayed for its result: the board
    and every score are checked, the words are not (a rating needs who won, and a record
    of a tournament is judged on its own word list, which may not be here; ``lexicon``
    only says which words a replay flags).  This is the one place the ratings read GCG.
    ``dates``: the record must have a ``#date`` line (else its date may be None)."""
    try:
        return read_gcg(text, RatedGameBuilder(source, lexicon, dates), path=source)
    except RatingError:
        raise
    except WordSalvoError as e:
        problems = [p if p.startswith(source) else f"{source}: {p}"
                    for p in getattr(e, "problems", None) or [str(e)]]
        raise _problems_error(source, problems) from None


def replay_places(rp: Replay) -> tuple[int, ...]:
    """The places of the players of a replayed record (1 = first), as
    :func:`~wordsalvo.ratings.game_places` places a finished game's: the players still in
    by final score (equal scores share a place) above every player who left
    (:meth:`Replay.players_left`), the one who left later placed better.  A record
    without an end (no rack points or resignation, or ``#incomplete``) with more than
    one player still in raises :class:`RatingError`."""
    n = len(rp.record.players)
    left = rp.players_left()
    if rp.record.unfinished and n - len(left) > 1:
        raise RatingError(f"{rp.record.path or 'GCG'}: expected a finished game, got one without an end "
                          f"(no rack points or resignation after its {len(rp.turns)} lines)")
    final = rp.final_scores[:n]
    keys = [(0, left.index(p)) if p in left else (1, final[p]) for p in range(n)]
    return tuple(1 + sum(k > key for k in keys) for key in keys)


def _read(path: str) -> str:
    """A results CSV's text (UTF-8)."""
    data = read_bytes(path, RatingError, "results file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RatingError(f"{path}: expected UTF-8 text, got a bad byte at offset {e.start}") from None


def game_files(paths: Iterable[str]) -> list[str]:
    """``paths`` with every folder replaced by the ``*.gcg`` and ``*.csv`` files in it and its
    subfolders, sorted by path."""
    out: list[str] = []
    for path in paths:
        p = Path(path)
        if not path_problem(str(path)) and p.is_dir():
            found = sorted(str(q) for q in p.rglob("*") if q.suffix.lower() in (".gcg", ".csv") and q.is_file())
            if not found:
                raise RatingError(f"{path}: expected a folder with GCG records (*.gcg) or results (*.csv), "
                                  "got none in it")
            out += found
        else:
            out.append(str(path))
    return out


def read_rated_games(paths: Iterable[str], lexicon=None,
                     progress: Callable[[int, int], None] | None = None, dates: bool = True) -> list[RatedGame]:
    """The games of every file (a folder: its ``*.gcg`` and ``*.csv`` files, see
    :func:`game_files`): ``*.csv`` files are results CSVs, anything else a GCG record.
    Reads every file and raises one :class:`RatingError` with every problem of every
    file.  ``progress(done, total)`` is called after each file.  ``dates=False``: a GCG
    record may lack its ``#date`` line (its game's date is then None)."""
    paths = game_files(paths)
    games: list[RatedGame] = []
    problems: list[str] = []
    for k, path in enumerate(paths, 1):
        try:
            if str(path).lower().endswith(".csv"):
                games.extend(read_results_csv(_read(path), str(path)))
            else:  # the bytes: the GCG reader decodes them (BOM, #character-encoding, UTF-8, ISO-8859-1)
                data = record_bytes(str(path), RatingError)
                games.append(rated_game_from_gcg(data, str(path), lexicon, dates))
        except RatingError as e:
            problems.extend(e.problems if len(e.problems) > 1 else [str(e)])
        if progress is not None:
            progress(k, len(paths))
    if problems:
        raise _problems_error(f"{len(paths)} file(s)", problems)
    return games

"""GCG: a whole game as text, one turn per line.

Header lines (``#`` first)::

    #character-encoding UTF-8
    #rules wordsalvo-en            rule set (a preset name)
    #board_seed 5                  random board / star squares of that seed (if any)
    #stars 3,5                     star squares, 0-based row,col (if any)
    #seed 17                       the bag's seed: the game replays exactly
    #strict on                     strict mode (a refused word costs the turn)
    #challenge on                  the table plays with challenges (a phony stands until challenged)
    #player1 Ann Ann Smith         nickname, then the full name
    #player2 Bob Bob

Turn lines (``>nickname:`` then the rack before the turn)::

    >Ann: ADDFORW 8D FORWARD +36 36         a play (notation as in 8H WO(R)D; '.' for a
                                            played-through tile is read too)
    >Bob: AEIIOUU -IIOUU +0 0               a swap (the tiles put back)
    >Bob: AEIIOUU - +0 0                    a pass
    >Ann: EGLNRTY 9C GLENTRY +70 106        a play refused in strict mode: the attempt ...
    >Ann: EGLNRTY -- -70 36                 ... and its removal (the turn is lost); with
                                            challenges: a play challenged off
    >Ann: EGLNRTY (challenge) +5 111        a failed challenge of Ann's play: the bonus
                                            (+0 when it costs nothing)
    >Bob: AEIIOUU - +0 0                    a turn lost by a failed challenge is a pass,
    #note lost challenge: ...               with a note that says so
    >Ann: EGLNRTY (time) +0 36              a time-out
    >Ann: EGLNRTY (resign) +0 36            a resignation
    >Bob:  (BLNTV) -11 473                  settlement: a rack's value subtracted ...
    >Ann:  (BLNTV) +11 544                  ... or credited to the player who went out

The records ``wordsalvo play`` and ``autoplay --gcg`` write carry the day and the
time the game was played (:func:`date_pragmas`; the ratings read them)::

    #date 2026-12-01
    #time 21:40:03+01:00             local time with its offset from UTC

``#note`` lines are the game's notes (:meth:`Game.add_note`: hints asked for,
moves taken back), each after the turn it follows.  Other ``#`` lines
(``#title`` ...) and blank lines are ignored.
With ``#seed`` the bag replays exactly and every rack is checked; without it
the racks of the file are taken as they are (the tiles are fetched from the bag).

Records written by other programs (the public GCG specification, game servers,
other engines) are read by :func:`.gcg_record.parse_gcg` into a :class:`GCGRecord`: headers
and typed events with their line numbers, checked without a board or a lexicon.
What each event means for a replay is in :class:`GCGRecord`'s docstring.  A record
becomes a Game through :class:`GameBuilder`, a visitor of the one walk over its turns
(:func:`~wordsalvo.formats.gcg_visitor.read_gcg`); a Game becomes a record without text
through :func:`game_record` (the record :func:`to_gcg`'s text reads back as).
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from typing import Sequence

from ..errors import GCGError, WordSalvoError
from ..inputs import excerpt, instance_arg, is_whole_number, list_problems
from ..game import SEED_DIGITS, Game
from ..lexicon.lexicon import Lexicon
from ..rules import Rules
from .opcodes import format_stars

__all__ = ["GCGError", "to_gcg", "from_gcg", "date_pragmas", "GameBuilder", "game_record"]

# the reader of any program's records lives in gcg_record; its names stay importable from here
from .gcg_record import (  # noqa: E402,F401
    DEFAULT_RULES, ChallengeBonusEvent, EndRackEvent, ExchangeEvent, SwapEvent, GCGEvent, GCGPlayer, GCGPragma,
    GCGRecord, PassEvent, PhonyRemovedEvent, PlayEvent, ResignEvent, TimeoutEvent, TimePenaltyEvent,
    assumption_note, parse_gcg, resolve_record, rules_for_lexicon,
)
from . import gcg_record as _gcg_record  # noqa: E402
from .gcg_record import GCGHeader, _split_word  # noqa: E402
from ..notation import parse_coordinate  # noqa: E402
from .gcg_visitor import GCGTurn, GCGVisitor, read_gcg  # noqa: E402

__all__ += _gcg_record.__all__


def to_gcg(game: Game, pragmas: "Sequence[tuple[str, str]]" = ()) -> str:
    """The game as GCG text (see the module docstring).  ``pragmas``: more
    ``#keyword value`` lines for the header (a front end's own, e.g. which seats
    are engines), written after the ``#player`` lines: a sequence of (keyword, value) pairs
    of strings."""
    return "\n".join(_written(game, pragmas)[1]) + "\n"


def game_record(game: Game, pragmas: "Sequence[tuple[str, str]]" = ()) -> GCGRecord:
    """The :class:`GCGRecord` of a game, made directly (no text written and read back):
    the record :func:`parse_gcg` reads from :func:`to_gcg`'s text, with the same line
    numbers, for any builder (:func:`~wordsalvo.formats.gcg_visitor.read_gcg`)."""
    return _written(game, pragmas)[0]


def _written(game: Game, pragmas: "Sequence[tuple[str, str]]") -> tuple[GCGRecord, list[str]]:
    """The record of ``game`` and its lines of text, made together (one place for the line
    of each kind of turn)."""
    instance_arg(game, Game, "to_gcg: game", GCGError)
    if isinstance(pragmas, (str, bytes)) or not isinstance(pragmas, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pragmas):
        raise GCGError(f"to_gcg: pragmas: expected a list of (keyword, value) pairs of strings, got "
                       f"{type(pragmas).__name__} {excerpt(pragmas)}")
    rules = game.rules
    lines = ["#character-encoding UTF-8", f"#rules {rules.name}"]
    kept: list[GCGPragma] = []

    def pragma(keyword: str, value: str) -> None:
        lines.append(f"#{keyword} {value}")
        kept.append(GCGPragma(keyword, value, len(lines)))

    if rules.board_seed is not None:
        pragma("board_seed", str(rules.board_seed))
    if rules.star_squares:
        pragma("stars", format_stars(rules.star_squares))
    if game.is_seeded:  # else the racks of the record are the truth
        pragma("seed", str(game.seed))
    if game.strict:
        pragma("strict", "on")
    if game.challenges:
        pragma("challenge", "on")
    players = []
    for i, name in enumerate(game.names):
        lines.append(f"#player{i + 1} {name} {name}")
        players.append(GCGPlayer(i + 1, name, name))
    for keyword, value in pragmas:
        if not re.fullmatch(r"[A-Za-z][\w-]*", keyword) or "\n" in value or "\r" in value:
            raise WordSalvoError(f"GCG pragma: expected a keyword of letters and a one-line value, got "
                                 f"{keyword!r} {value!r}")
        pragma(keyword, value)
    names = game.names
    notes: dict[int, list[str]] = {}
    for index, text in game.notes:
        notes.setdefault(index, []).append(text)
    before = tuple(text for text in notes.get(0, ()) if text)
    lines.extend(f"#note {text}" for text in notes.get(0, ()))
    events: list[GCGEvent] = []

    def event(cls, text: str, t, score: int, total: int, **fields) -> None:
        lines.append(text)
        events.append(cls(line=len(lines), text=text, player=names[t.player], player_index=t.player,
                          rack=t.rack if cls is not EndRackEvent else "", score=score, total=total, **fields))

    for k, t in enumerate(game.history, 1):
        who = f">{names[t.player]}:"
        note_lines = list(notes.get(k, ()))
        if t.kind in ("play", "refused-play"):
            score = t.score if t.kind == "play" else t.attempt_score
            total = t.total if t.kind == "play" else t.total + t.attempt_score
            event(PlayEvent, f"{who} {t.rack} {t.notation} {score:+d} {total}", t, score, total,
                  **_play_fields(t.notation))
            if t.kind == "refused-play":
                event(PhonyRemovedEvent, f"{who} {t.rack} -- {-t.attempt_score:+d} {t.total}", t,
                      -t.attempt_score, t.total, play_line=events[-1].line)
        elif t.kind == "swap":
            event(SwapEvent, f"{who} {t.rack} -{t.tiles} +0 {t.total}", t, 0, t.total, tiles=t.tiles,
                  count=len(t.tiles))
        elif t.kind == "pass":
            event(PassEvent, f"{who} {t.rack} - +0 {t.total}", t, 0, t.total)
            if t.challenge == "lost":
                note_lines.insert(0, f"{_LOST_CHALLENGE} {names[t.player]} challenged {t.notation}, every word "
                                     f"is in the dictionary: the turn is lost")
        elif t.kind == "challenge-bonus":
            event(ChallengeBonusEvent, f"{who} {t.rack} (challenge) {t.score:+d} {t.total}", t, t.score, t.total)
        elif t.kind in ("timeout", "resign"):
            cls = TimeoutEvent if t.kind == "timeout" else ResignEvent
            event(cls, f"{who} {t.rack} ({'time' if t.kind == 'timeout' else 'resign'}) +0 {t.total}", t, 0,
                  t.total)
        elif t.kind == "settle":
            event(EndRackEvent, f"{who}  ({t.tiles}) {t.score:+d} {t.total}", t, t.score, t.total, tiles=t.tiles,
                  owner=names[t.rack_owner] if t.rack_owner >= 0 else None)
        else:  # pragma: no cover - every kind is handled
            raise WordSalvoError(f"GCG: no line form for a turn of kind {excerpt(t.kind)}")
        lines.extend(f"#note {text}" for text in note_lines)
        note = "\n".join(note_lines).strip("\n")
        if note:
            events[-1] = dataclasses.replace(events[-1], note=note)
    ends = [e for e in events if isinstance(e, EndRackEvent)]
    plus, minus = any(e.score > 0 for e in ends), any(e.score < 0 for e in ends)
    record = GCGRecord(
        players=tuple(players), events=tuple(events), rules=rules.name, encoding="UTF-8", notes=before,
        pragmas=tuple(kept), unfinished=not any(isinstance(e, (EndRackEvent, ResignEvent)) for e in events),
        end_convention=("add-and-subtract" if plus and minus else "subtract" if minus else "double") if ends
        else None)
    return record, lines


def _play_fields(notation: str) -> dict:
    """The fields of a :class:`PlayEvent` for a play in notation (``8D WO(R)D``)."""
    coordinate, word = notation.split(" ", 1)
    row, col, direction = parse_coordinate(coordinate)
    letters, through, _bad = _split_word(word)
    return dict(coordinate=coordinate.upper(), row=row, col=col, direction=direction, word=word, letters=letters,
                through=through)


def date_pragmas(when: datetime.datetime | None = None) -> list[tuple[str, str]]:
    """The ``#date YYYY-MM-DD`` and ``#time HH:MM:SS+HH:MM`` header lines of a game played
    at ``when`` (default: now, local time with its UTC offset), as :func:`to_gcg`'s
    ``pragmas``.  A naive ``when`` is taken as local time."""
    when = (when or datetime.datetime.now()).astimezone()
    return [("date", when.date().isoformat()), ("time", when.timetz().isoformat("seconds"))]


#: how the note of a turn lost by a failed challenge starts (the reader replays it as one)
_LOST_CHALLENGE = "lost challenge:"

#: the header pragmas from_gcg reads (beyond #rules and #playerN), each at most once
_GAME_PRAGMAS = ("board_seed", "stars", "seed", "strict", "challenge")


def from_gcg(text: "str | bytes | GCGRecord", rules: Rules | None = None, lexicon: Lexicon | None = None) -> Game:
    """Replay a GCG record into a :class:`~wordsalvo.Game`.

    ``text``: the record (read by :func:`~wordsalvo.formats.gcg_visitor.read_gcg`, the one
    GCG reader, with a :class:`GameBuilder`) or a :class:`GCGRecord` already read.  ``rules``
    overrides ``#rules``/``#board_seed``/``#stars``; ``lexicon`` defaults to the language's
    default lexicon.  Raises :class:`GCGError` naming the line and what was expected: first
    every problem of the file that needs no board at once, then the first turn that does not
    replay (an illegal move, a score, total or rack that differs).
    """
    if not isinstance(text, (GCGRecord, str, bytes)):
        raise GCGError(f"GCG: expected text, got {type(text).__name__}")
    return read_gcg(text, GameBuilder(rules=rules, lexicon=lexicon))


class GameBuilder(GCGVisitor):
    """The visitor that makes a :class:`~wordsalvo.Game` of a record (see :func:`from_gcg`):
    with ``#seed`` the bag replays exactly and every rack is checked; without it the
    racks of the record are taken as they are."""

    def __init__(self, rules: Rules | None = None, lexicon: Lexicon | None = None) -> None:
        self.rules, self.lexicon = rules, lexicon
        self.game: Game | None = None
        self.exact = False
        self.words_note: str | None = None
        self.assumed: str | None = None
        self.settle_lines: list[GCGEvent] = []

    def visit_header(self, header: GCGHeader) -> None:
        rules, lexicon = self.rules, self.lexicon
        problems: list[str] = []
        where = f"{header.path or 'GCG'} header"
        values: dict[str, str] = {}
        for keyword in _GAME_PRAGMAS:
            try:
                found = header.one(keyword)
            except GCGError as e:
                problems.append(str(e))
                found = [p for p in header.pragmas if p.keyword == keyword][-1]
            if found is not None:
                values[keyword] = found.value
        if not header.players:
            problems.append(f"{where}: expected #player1, #player2 ... lines numbered from 1, got none")
        seed = None
        if "seed" in values:  # any whole number a Game takes (autoplay's are 63-bit), bounded for int()
            if is_whole_number(values["seed"], signed=True, digits=SEED_DIGITS):
                seed = int(values["seed"])
            else:
                problems.append(f"{where} #seed: expected a whole number (at most {SEED_DIGITS} digits), "
                                f"got {excerpt(values['seed'])}")
        strict = None
        if "strict" in values:
            if values["strict"] not in ("on", "off"):
                problems.append(f"{where} #strict: expected 'on' or 'off', got {excerpt(values['strict'])}")
            strict = values["strict"] == "on"
        challenges = False
        if "challenge" in values:
            if values["challenge"] not in ("on", "off"):
                problems.append(f"{where} #challenge: expected 'on' or 'off', got {excerpt(values['challenge'])}")
            challenges = values["challenge"] == "on"
        self.words_note = header.word_list_note(lexicon_given=lexicon is not None)
        if rules is None and not problems:  # the one place a record's rule set, board and stars are resolved
            try:
                rules, lexicon, self.assumed = resolve_record(header, lexicon=lexicon)
            except GCGError as e:
                problems.append(str(e))
        if problems:
            raise GCGError(list_problems(header.path or "GCG", problems, "GCGError.problems lists every one"),
                           problems)
        try:
            self.game = Game(rules, lexicon=lexicon, players=[p.nick for p in header.players],
                             seed=seed if seed is not None else 0, strict=strict, challenges=challenges)
        except WordSalvoError as e:
            raise GCGError(f"{where}: {e}") from None
        self.exact = seed is not None
        for note in header.notes:
            for text in note.split("\n"):
                self.game.add_note(text)

    def visit_turn(self, turn: GCGTurn) -> None:
        try:
            self._turn(turn)
        except GCGError as e:
            raise self._explained(e) from None

    def visit_end(self, record: GCGRecord) -> None:
        try:
            self._settlement()
        except GCGError as e:
            raise self._explained(e) from None

    def result(self) -> Game | None:
        return self.game

    def _explained(self, e: GCGError) -> GCGError:
        """``e`` with what the reading assumed: the word list and the rule set."""
        message = str(e)
        if self.words_note and "phony word" in message:  # a list the record did not use refused a word
            message = (f"{message} [judged by the rule set's own list: {self.words_note}; "
                       "wordsalvo.formats.replay.replay reads the record without judging its words]")
        if self.assumed:  # the failure may come from the assumed rule set
            message = assumption_note(message, self.assumed)
        return e if message == str(e) else GCGError(message)

    def _turn(self, t: GCGTurn) -> None:
        game, event, player = self.game, t.event, t.player
        if event.kind == "end-rack":
            self.settle_lines.append(event)
            return
        if self.settle_lines:
            raise _fail(event, "expected only settlement lines after the first one")
        if event.kind == "challenge-bonus":
            _challenge_bonus(game, event, player)
            return
        if event.kind == "time-penalty":
            raise _fail(event, "expected a turn this package plays: a game has no time penalties "
                               "(a turn lost to the clock is '(time) +0')")
        if game.is_over:
            raise _fail(event, f"expected no more turns: the game is over ({game.end_reason})")
        if event.kind == "phony-removed":
            raise _fail(event, "expected a '--' line only right after the play it removes")
        if event.kind != "resign" and player != game.to_move:
            raise _fail(event, f"expected {game.names[game.to_move]} on turn, got {event.player}")
        rack = game.sort_rack(event.rack)
        actual = game.racks[player]
        if self.exact and rack != actual:
            raise _fail(event, f"expected rack {actual} (drawn from the bag with the #seed), got {event.rack}")
        try:
            if not self.exact:
                game.set_rack(player, rack)
                if t.ending and event.kind == "play":
                    # the last play: the racks the settlement lines show are the ones left at the end
                    for later in t.ending:
                        if later.score < 0 and later.player_index != player:
                            game.set_rack(later.player_index, game.sort_rack(later.tiles))
            if event.kind == "play":
                notation = event.notation_on(game.board)  # a '.' is the tile on that square
                removal = t.removal
                turn = game.play(notation)
                if removal is not None and turn.kind == "play" and game.can_challenge:  # challenged off
                    result = game.challenge()
                    if not result.phony:
                        raise _fail(removal, f"expected no removal: every word of {notation} is in the lexicon, "
                                             "so a challenge fails")
                    turn = result.turn
                if removal is not None:
                    if turn.kind != "refused-play":
                        raise _fail(removal, f"expected no removal: {notation} is a valid play")
                    if event.score != turn.attempt_score or removal.score != -turn.attempt_score:
                        raise _fail(event, f"expected the refused play to score {turn.attempt_score}, "
                                           f"got {event.score}")
                    if removal.total != turn.total:
                        raise _fail(removal, f"expected total {turn.total}, got {removal.total}")
                    for note in t.notes:
                        game.add_note(note)
                    return
                if turn.kind == "refused-play":
                    raise _fail(event, f"expected a '--' line after the refused play {notation} "
                                       f"(strict mode: words {', '.join(turn.words)} are not all in the lexicon)")
                if event.score != turn.score:
                    raise _fail(event, f"expected score {turn.score:+d} for {turn.notation}, got {event.score:+d}")
            elif event.kind == "swap":
                if not event.tiles:
                    raise _fail(event, f"expected the tiles exchanged, got only their number ({event.count})")
                turn = game.swap(event.tiles)
            elif event.kind == "pass" and any(n.startswith(_LOST_CHALLENGE) for n in t.notes):
                if not game.can_challenge:
                    raise _fail(event, "expected a turn lost by a failed challenge only right after another "
                                       "player's play, in a game with challenges (#challenge on)")
                result = game.challenge()
                if result.phony or result.turn is None or result.turn.kind != "pass":
                    raise _fail(event, f"expected a failed challenge that costs the turn, got one that "
                                       f"{'takes the play back' if result.phony else 'costs ' + result.penalty}")
                turn = result.turn
            elif event.kind == "pass":
                turn = game.pass_turn()
            elif event.kind == "timeout":
                turn = game.timeout()
            elif event.kind == "resign":
                turn = game.resign(player)
            # the total before any settlement the turn triggers
            if event.total != turn.total:
                raise _fail(event, f"expected total {turn.total}, got {event.total}")
        except GCGError:
            raise
        except WordSalvoError as e:
            raise _fail(event, str(e)) from None
        for note in t.notes:
            if not note.startswith(_LOST_CHALLENGE):
                game.add_note(note)

    def _settlement(self) -> None:
        game = self.game
        settles = [t for t in game.history if t.kind == "settle"]
        lines = self.settle_lines
        for k, event in enumerate(lines):
            if k >= len(settles):
                raise _fail(event, "expected no settlement line: the game "
                                   f"{'ended without settlement' if game.is_over else 'is not over'}")
            t = settles[k]
            got = (event.player_index, game.sort_rack(event.tiles), event.score, event.total)
            want = (t.player, t.tiles, t.score, t.total)
            if got != want:
                raise _fail(event, f"expected '>{game.names[t.player]}:  ({t.tiles}) {t.score:+d} {t.total}'")
        if len(settles) > len(lines):
            t = settles[len(lines)]
            raise GCGError(f"GCG: expected a settlement line '>{game.names[t.player]}:  ({t.tiles}) {t.score:+d} "
                           f"{t.total}' after the last turn, got the end of the record")


def _fail(event: GCGEvent, message: str) -> GCGError:
    return GCGError(f"GCG line {event.line}: {message} (in {excerpt(event.text)})")


def _challenge_bonus(game: Game, event: GCGEvent, player: int) -> None:
    """Replay ``>Name: RACK (challenge) +N total``: a failed challenge of Name's play."""
    if not game.can_challenge or game.history[game.last_turn_of(player)].kind != "play" \
            or game.last_turn_of(player) != max(game.last_turn_of(p) for p in range(len(game.names))):
        raise _fail(event, f"expected a '(challenge)' line only right after a play by {event.player}, in a game "
                           "with challenges (#challenge on)")
    result = game.challenge()
    if result.phony:
        raise _fail(event, f"expected '--': the play has words not in the lexicon "
                           f"({', '.join(result.invalid_words)}), so a challenge takes it back")
    turn = result.turn
    if turn is None or turn.kind != "challenge-bonus":
        raise _fail(event, f"expected no '(challenge)' line: in rule set {game.rules.name!r} a failed challenge "
                           f"costs {result.penalty} (a pass line with a 'lost challenge' note)")
    if event.score != turn.score or event.total != turn.total:
        raise _fail(event, f"expected '(challenge) {turn.score:+d} {turn.total}'")
    if event.note:
        for note in event.note.split("\n"):
            game.add_note(note)

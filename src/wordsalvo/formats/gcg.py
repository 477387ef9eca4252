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
other engines) are read by :func:`parse_gcg` into a :class:`GCGRecord`: headers
and typed events with their line numbers, checked without a board or a lexicon.
What each event means for a replay is in :class:`GCGRecord`'s docstring.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Sequence

from ..constants import DIM
from ..errors import GCGError, WordSalvoError
from ..inputs import excerpt, is_whole_number, list_problems
from ..game import Game
from ..lexicon.lexicon import Lexicon
from ..rules import Rules
from .opcodes import format_stars, rules_from_opcodes
from ..wording import plural

__all__ = ["GCGError", "to_gcg", "from_gcg", "date_pragmas"]


_NUMBER = re.compile(r"^[+-][0-9]{1,9}$")  # ASCII digits, bounded (int() refuses 4,300+)
#: a CGP position line: 15 board rows separated by '/', then the racks
_CGP_LINE = re.compile(r"^[^\s/]+(?:/[^\s/]+){14}\s+\S")
_TOTAL = re.compile(r"^-?[0-9]{1,9}$")
_SETTLE = re.compile(r"^\((\S*)\)$")


def to_gcg(game: Game, pragmas: "Sequence[tuple[str, str]]" = ()) -> str:
    """The game as GCG text (see the module docstring).  ``pragmas``: more
    ``#keyword value`` lines for the header (a front end's own, e.g. which seats
    are engines), written after the ``#player`` lines."""
    rules = game.rules
    lines = ["#character-encoding UTF-8", f"#rules {rules.name}"]
    if rules.board_seed is not None:
        lines.append(f"#board_seed {rules.board_seed}")
    if rules.star_squares:
        lines.append(f"#stars {format_stars(rules.star_squares)}")
    if game.is_seeded:  # else the racks of the record are the truth
        lines.append(f"#seed {game.seed}")
    if game.strict:
        lines.append("#strict on")
    if game.challenges:
        lines.append("#challenge on")
    for i, name in enumerate(game.names):
        lines.append(f"#player{i + 1} {name} {name}")
    for keyword, value in pragmas:
        if not re.fullmatch(r"[A-Za-z][\w-]*", keyword) or "\n" in value or "\r" in value:
            raise WordSalvoError(f"GCG pragma: expected a keyword of letters and a one-line value, got "
                                 f"{keyword!r} {value!r}")
        lines.append(f"#{keyword} {value}")
    names = game.names
    notes: dict[int, list[str]] = {}
    for index, text in game.notes:
        notes.setdefault(index, []).append(text)
    lines.extend(f"#note {text}" for text in notes.get(0, ()))
    for k, t in enumerate(game.history, 1):
        who = f">{names[t.player]}:"
        if t.kind == "play":
            lines.append(f"{who} {t.rack} {t.notation} {t.score:+d} {t.total}")
        elif t.kind == "swap":
            lines.append(f"{who} {t.rack} -{t.tiles} +0 {t.total}")
        elif t.kind == "pass":
            lines.append(f"{who} {t.rack} - +0 {t.total}")
            if t.challenge == "lost":
                lines.append(f"#note {_LOST_CHALLENGE} {names[t.player]} challenged {t.notation}, every word is "
                             f"in the dictionary: the turn is lost")
        elif t.kind == "challenge-bonus":
            lines.append(f"{who} {t.rack} (challenge) {t.score:+d} {t.total}")
        elif t.kind == "refused-play":
            lines.append(f"{who} {t.rack} {t.notation} {t.attempt_score:+d} {t.total + t.attempt_score}")
            lines.append(f"{who} {t.rack} -- {-t.attempt_score:+d} {t.total}")
        elif t.kind in ("timeout", "resign"):
            lines.append(f"{who} {t.rack} ({'time' if t.kind == 'timeout' else 'resign'}) +0 {t.total}")
        elif t.kind == "settle":
            lines.append(f"{who}  ({t.tiles}) {t.score:+d} {t.total}")
        else:  # pragma: no cover - every kind is handled
            raise WordSalvoError(f"GCG: no line form for a turn of kind {excerpt(t.kind)}")
        lines.extend(f"#note {text}" for text in notes.get(k, ()))
    return "\n".join(lines) + "\n"


def date_pragmas(when: datetime.datetime | None = None) -> list[tuple[str, str]]:
    """The ``#date YYYY-MM-DD`` and ``#time HH:MM:SS+HH:MM`` header lines of a game played
    at ``when`` (default: now, local time with its UTC offset), as :func:`to_gcg`'s
    ``pragmas``.  A naive ``when`` is taken as local time."""
    when = (when or datetime.datetime.now()).astimezone()
    return [("date", when.date().isoformat()), ("time", when.timetz().isoformat("seconds"))]


#: how the note of a turn lost by a failed challenge starts (the reader replays it as one)
_LOST_CHALLENGE = "lost challenge:"


@dataclass
class _Line:
    number: int
    name: str
    kind: str  # play, swap, pass, removal, timeout, resign, settle, challenge-bonus
    rack: str
    score: int
    total: int
    notation: str = ""
    tiles: str = ""
    text: str = ""
    #: the #note lines after this line
    notes: list[str] = field(default_factory=list)


def _parse_line(number: int, text: str, problems: list[str]) -> _Line | None:
    expected = ("expected '>Name: RACK COORD WORD +score total', '>Name: RACK -TILES +0 total', "
                "'>Name: RACK - +0 total', '>Name: RACK -- -score total', '>Name: RACK (time)|(resign) +0 total', "
                "'>Name: RACK (challenge) +N total' "
                "or '>Name: (RACK) +/-N total'")
    head, sep, rest = text[1:].partition(":")
    name = head.strip()
    tokens = rest.split()
    if not sep or not name or " " in name or not tokens:
        problems.append(f"GCG line {number}: {expected}, got {excerpt(text)}")
        return None

    def numbers(score: str, total: str) -> tuple[int, int] | None:
        if not _NUMBER.match(score) or not _TOTAL.match(total):
            problems.append(f"GCG line {number}: expected a signed score and a total (e.g. '+36 136'), "
                            f"got {excerpt(score)} {excerpt(total)} in {excerpt(text)}")
            return None
        return int(score), int(total)

    m = _SETTLE.match(tokens[0])
    if m and tokens[0] not in ("(time)", "(resign)"):
        if len(tokens) != 3:
            problems.append(f"GCG line {number}: expected '>Name: (RACK) +/-N total', got {excerpt(text)}")
            return None
        st = numbers(tokens[1], tokens[2])
        return _Line(number, name, "settle", "", *st, tiles=m.group(1), text=text) if st else None
    rack = tokens[0]
    if len(tokens) < 4:
        problems.append(f"GCG line {number}: {expected}, got {excerpt(text)}")
        return None
    action = tokens[1]
    if len(tokens) == 5:
        st = numbers(tokens[3], tokens[4])
        return _Line(number, name, "play", rack, *st, notation=f"{tokens[1]} {tokens[2]}", text=text) if st else None
    if len(tokens) != 4:
        problems.append(f"GCG line {number}: {expected}, got {excerpt(text)}")
        return None
    st = numbers(tokens[2], tokens[3])
    if st is None:
        return None
    if action == "-":
        kind, tiles = "pass", ""
    elif action == "--":
        kind, tiles = "removal", ""
    elif action == "(time)":
        kind, tiles = "timeout", ""
    elif action == "(resign)":
        kind, tiles = "resign", ""
    elif action == "(challenge)":
        kind, tiles = "challenge-bonus", ""
    elif action.startswith("-") and not is_whole_number(action[1:]):
        kind, tiles = "swap", action[1:]
    else:
        problems.append(f"GCG line {number}: {expected}, got {excerpt(action)} in {excerpt(text)}"
                        + (" (a swap must list the tiles, not their number)" if is_whole_number(action[1:]) else ""))
        return None
    return _Line(number, name, kind, rack, *st, tiles=tiles, text=text)


def from_gcg(text: str, rules: Rules | None = None, lexicon: Lexicon | None = None) -> Game:
    """Replay a GCG record into a :class:`~wordsalvo.Game`.

    ``rules`` overrides ``#rules``/``#board_seed``/``#stars``; ``lexicon`` defaults to
    the language's default lexicon.  Raises :class:`GCGError` naming the line and what
    was expected: first every syntax problem of the file at once, then the first turn
    that does not replay (an illegal move, a score, total or rack that differs).
    """
    if not isinstance(text, str):
        raise GCGError(f"GCG: expected text, got {type(text).__name__}")
    given = rules
    problems: list[str] = []
    headers: dict[str, str] = {}
    players: dict[int, str] = {}
    turns: list[_Line] = []
    first_notes: list[str] = []
    for number, raw in enumerate(_LINE_END.split(text), 1):  # \x0b or U+2028 end no line of a record
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            value = value.strip()
            m = re.fullmatch(r"player([0-9]{1,3})", key)  # #player10 is a player line (refused below)
            if m:
                nick = value.split()[0] if value else ""
                if not nick:
                    problems.append(f"GCG line {number}: expected '#{key} nickname full name', got {excerpt(line)}")
                else:
                    players[int(m.group(1))] = nick
            elif key == "note":
                (turns[-1].notes if turns else first_notes).append(value)
            elif key in ("rules", "board_seed", "stars", "seed", "strict", "challenge"):
                if key in headers:
                    problems.append(f"GCG line {number}: expected one #{key} line, got a second one")
                headers[key] = value
            continue
        if line.startswith(">"):
            parsed = _parse_line(number, line, problems)
            if parsed is not None:
                turns.append(parsed)
            continue
        problems.append(f"GCG line {number}: expected a '#' header or a '>Name:' turn line, got {excerpt(line)}")
    if sorted(players) != list(range(1, len(players) + 1)) or not 1 <= len(players) <= GAME_MAX_PLAYERS:
        problems.append(f"GCG header: expected #player1, #player2 ... lines numbered from 1, got "
                        f"{', '.join(f'#player{k}' for k in sorted(players)) or 'none'}")
    seed = None
    if "seed" in headers:  # any whole number a Game takes (autoplay's are 63-bit), bounded for int()
        if is_whole_number(headers["seed"], signed=True, digits=40):
            seed = int(headers["seed"])
        else:
            problems.append(f"GCG header #seed: expected a whole number (at most 40 digits), "
                            f"got {excerpt(headers['seed'])}")
    strict = None
    if "strict" in headers:
        if headers["strict"] not in ("on", "off"):
            problems.append(f"GCG header #strict: expected 'on' or 'off', got {excerpt(headers['strict'])}")
        strict = headers["strict"] == "on"
    challenges = False
    if "challenge" in headers:
        if headers["challenge"] not in ("on", "off"):
            problems.append(f"GCG header #challenge: expected 'on' or 'off', got {headers['challenge']!r}")
        challenges = headers["challenge"] == "on"
    if rules is None and not problems:
        ops = {}
        if "rules" in headers:
            ops["rs"] = headers["rules"]
        if "board_seed" in headers:
            ops["bseed"] = headers["board_seed"]
        if "stars" in headers:
            ops["stars"] = headers["stars"]
        try:
            rules = rules_from_opcodes(ops, default="classic-en", error=GCGError, where="GCG header")
        except GCGError as e:
            problems.append(str(e))
    if problems:
        raise GCGError(list_problems("GCG", problems, "GCGError.problems lists every one"), problems)

    names = [players[k] for k in sorted(players)]
    try:
        game = Game(rules, lexicon=lexicon, players=names, seed=seed if seed is not None else 0, strict=strict,
                    challenges=challenges)
    except WordSalvoError as e:
        raise GCGError(f"GCG header: {e}") from None
    for note in first_notes:
        game.add_note(note)
    try:
        _replay(game, turns, exact=seed is not None)
    except GCGError as e:
        if given is None and "rules" not in headers:  # the failure may come from the assumed rule set
            raise GCGError(assumption_note(str(e), f"no #rules line: assumed {rules.name}")) from None
        raise
    return game


def assumption_note(message: str, assumption: str) -> str:
    """``message`` of a record that failed to replay, with the rule set it assumed and how to
    name another (a record without ``#rules``)."""
    return (f"{message} [the record has {assumption}; if the game used another rule set, add a "
            f"'#rules NAME' line or pass it (--rules NAME, rules=...)]")


def _fail(line: _Line, message: str) -> GCGError:
    return GCGError(f"GCG line {line.number}: {message} (in {excerpt(line.text)})")


def _replay(game: Game, turns: list[_Line], exact: bool) -> None:
    index = {n: i for i, n in enumerate(game.names)}
    settle_from = None
    i = 0
    while i < len(turns):
        line = turns[i]
        if line.name not in index:
            raise _fail(line, f"expected a player nickname ({', '.join(game.names)}), got {excerpt(line.name)}")
        player = index[line.name]
        if line.kind == "settle":
            if settle_from is None:
                settle_from = i
            i += 1
            continue
        if settle_from is not None:
            raise _fail(line, "expected only settlement lines after the first one")
        if line.kind == "challenge-bonus":
            _challenge_bonus(game, line, player)
            i += 1
            continue
        if game.is_over:
            raise _fail(line, f"expected no more turns: the game is over ({game.end_reason})")
        if line.kind == "removal":
            raise _fail(line, "expected a '--' line only right after the play it removes")
        if line.kind != "resign" and player != game.to_move:
            raise _fail(line, f"expected {game.names[game.to_move]} on turn, got {line.name}")
        rack = game.sort_rack(line.rack)
        actual = game.racks[player]
        if exact and rack != actual:
            raise _fail(line, f"expected rack {actual} (drawn from the bag with the #seed), got {line.rack}")
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        try:
            if not exact:
                game.set_rack(player, rack)
                if nxt is not None and nxt.kind == "settle" and line.kind == "play":
                    # the last play: the racks the settlement lines show are the ones left at the end
                    for later in turns[i + 1:]:
                        if later.score < 0 and later.name in index and later.name != line.name:
                            game.set_rack(index[later.name], game.sort_rack(later.tiles))
            if line.kind == "play":
                removal = nxt is not None and nxt.kind == "removal" and nxt.name == line.name
                turn = game.play(_dots(game, line.notation) if "." in line.notation else line.notation)
                if removal and turn.kind == "play" and game.can_challenge:  # challenged off
                    result = game.challenge()
                    if not result.phony:
                        raise _fail(nxt, f"expected no removal: every word of {line.notation} is in the lexicon, "
                                         "so a challenge fails")
                    turn = result.turn
                if removal:
                    if turn.kind != "refused-play":
                        raise _fail(nxt, f"expected no removal: {line.notation} is a valid play")
                    if line.score != turn.attempt_score or nxt.score != -turn.attempt_score:
                        raise _fail(line, f"expected the refused play to score {turn.attempt_score}, got {line.score}")
                    if nxt.total != turn.total:
                        raise _fail(nxt, f"expected total {turn.total}, got {nxt.total}")
                    for note in line.notes + nxt.notes:
                        game.add_note(note)
                    i += 2
                    continue
                if turn.kind == "refused-play":
                    raise _fail(line, f"expected a '--' line after the refused play {line.notation} "
                                      f"(strict mode: words {', '.join(turn.words)} are not all in the lexicon)")
                if line.score != turn.score:
                    raise _fail(line, f"expected score {turn.score:+d} for {turn.notation}, got {line.score:+d}")
            elif line.kind == "swap":
                turn = game.swap(line.tiles)
            elif line.kind == "pass" and any(n.startswith(_LOST_CHALLENGE) for n in line.notes):
                if not game.can_challenge:
                    raise _fail(line, "expected a turn lost by a failed challenge only right after another "
                                      "player's play, in a game with challenges (#challenge on)")
                result = game.challenge()
                if result.phony or result.turn is None or result.turn.kind != "pass":
                    raise _fail(line, f"expected a failed challenge that costs the turn, got one that "
                                      f"{'takes the play back' if result.phony else 'costs ' + result.penalty}")
                turn = result.turn
            elif line.kind == "pass":
                turn = game.pass_turn()
            elif line.kind == "timeout":
                turn = game.timeout()
            elif line.kind == "resign":
                turn = game.resign(player)
            if line.kind != "play" and line.score != 0:
                raise _fail(line, f"expected +0 for a {line.kind}, got {line.score:+d}")
            # the total before any settlement the turn triggers
            total = turn.total
            if line.total != total:
                raise _fail(line, f"expected total {total}, got {line.total}")
        except GCGError:
            raise
        except WordSalvoError as e:
            raise _fail(line, str(e)) from None
        for note in line.notes:
            if not note.startswith(_LOST_CHALLENGE):
                game.add_note(note)
        i += 1
    settles = [t for t in game.history if t.kind == "settle"]
    lines = turns[settle_from:] if settle_from is not None else []
    for k, line in enumerate(lines):
        if k >= len(settles):
            raise _fail(line, f"expected no settlement line: the game {'ended without settlement' if game.is_over else 'is not over'}")
        t = settles[k]
        got = (index[line.name], game.sort_rack(line.tiles), line.score, line.total)
        want = (t.player, t.tiles, t.score, t.total)
        if got != want:
            raise _fail(line, f"expected '>{game.names[t.player]}:  ({t.tiles}) {t.score:+d} {t.total}'")
    if len(settles) > len(lines):
        t = settles[len(lines)]
        raise GCGError(f"GCG: expected a settlement line '>{game.names[t.player]}:  ({t.tiles}) {t.score:+d} "
                       f"{t.total}' after the last turn, got the end of the record")


def _challenge_bonus(game: Game, line: _Line, player: int) -> None:
    """Replay ``>Name: RACK (challenge) +N total``: a failed challenge of Name's play."""
    if not game.can_challenge or game.history[game.last_turn_of(player)].kind != "play" \
            or game.last_turn_of(player) != max(game.last_turn_of(p) for p in range(len(game.names))):
        raise _fail(line, f"expected a '(challenge)' line only right after a play by {line.name}, in a game with "
                          "challenges (#challenge on)")
    result = game.challenge()
    if result.phony:
        raise _fail(line, f"expected '--': the play has words not in the lexicon "
                          f"({', '.join(result.invalid_words)}), so a challenge takes it back")
    turn = result.turn
    if turn is None or turn.kind != "challenge-bonus":
        raise _fail(line, f"expected no '(challenge)' line: in rule set {game.rules.name!r} a failed challenge "
                          f"costs {result.penalty} (a pass line with a 'lost challenge' note)")
    if line.score != turn.score or line.total != turn.total:
        raise _fail(line, f"expected '(challenge) {turn.score:+d} {turn.total}'")
    for note in line.notes:
        game.add_note(note)


def _dots(game: Game, notation: str) -> str:
    """``8H WO.D`` -> ``8H WO(R)D``: a '.' stands for the tile already on that square."""
    from ..notation import parse_coordinate

    coord, word = notation.split()
    row, col, direction = parse_coordinate(coord)
    dr, dc = (0, 1) if direction == 0 else (1, 0)
    board = game.board
    out = []
    for k, ch in enumerate(word):
        r, c = row + k * dr, col + k * dc
        if ch == "." and 0 <= r < DIM and 0 <= c < DIM and board.tiles[r * DIM + c]:
            out.append(f"({board.letter_at(r, c)})")
        else:
            out.append(ch)
    return f"{coord} {''.join(out)}"


# ======================================================================================
# Reading records written by other programs: a pure parser (no lexicon, no board, no Game)
# ======================================================================================
#
# parse_gcg() reads GCG as its public specification defines it and as game servers and
# other engines write it, into a GCGRecord: the headers and the events in order, each
# event with its 1-based line number and raw text.  It checks everything that needs no
# board and no lexicon and reports every problem at once (GCGError.problems, each naming
# its line).  What each event means for a replay on a board is in GCGRecord's docstring.

import codecs  # noqa: E402 - the reader's imports stay with the reader (some repeat the writer's)
import re  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field, replace  # noqa: E402
from typing import Callable, ClassVar  # noqa: E402

from ..constants import DIM  # noqa: E402
from .._core._movegen import GAME_MAX_PLAYERS  # noqa: E402
from ..errors import NotationError  # noqa: E402
from ..notation import parse_coordinate  # noqa: E402

__all__ += [  # noqa: PLE0605
    "DEFAULT_RULES", "GCGRecord", "GCGPlayer", "GCGPragma", "GCGEvent", "PlayEvent", "ExchangeEvent",
    "PassEvent", "PhonyRemovedEvent", "ChallengeBonusEvent", "TimePenaltyEvent", "TimeoutEvent",
    "ResignEvent", "EndRackEvent", "parse_gcg", "rules_for_lexicon",
]

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

    def notation_with(self, letter_at: Callable[[int, int], str | None]) -> str:
        """The notation with every '.' filled in by ``letter_at(row, col)`` (the letter
        on the board there; None leaves the '.')."""
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
class ExchangeEvent(GCGEvent):
    """``>nick: RACK -ABC +0 total`` (``tiles``) or ``-3`` (only ``count`` known)."""

    kind: ClassVar[str] = "exchange"
    tiles: str  # '' when the record gives only the count
    count: int


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
_TURNS = ("play", "exchange", "pass", "timeout")

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


@dataclass(frozen=True)
class GCGRecord:
    """A GCG record as written: headers and events in order (see :func:`parse_gcg`).

    Replaying the events on a board is a loop over ``events``; per kind:

    * ``play`` (:class:`PlayEvent`): place ``letters`` at ``row``/``col``/``direction``
      (fill the '.' squares from the board: :meth:`PlayEvent.notation_with`), take
      ``tiles_played`` from the rack, add ``score``.  Words not in the lexicon are NOT
      a reason to refuse the record: when no ``phony-removed`` event follows, the phony
      stood unchallenged; replay it and flag it.
    * ``phony-removed``: take the play of ``play_line`` (the event just before) back:
      its tiles return to the rack, its score is subtracted; the turn is used.
    * ``exchange``: ``tiles`` (or ``count`` unknown tiles) back to the bag; ``pass``:
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

    def pragma(self, keyword: str) -> str | None:
        """The value of the last ``#keyword`` line among :attr:`pragmas` (None if none)."""
        for p in reversed(self.pragmas):
            if p.keyword == keyword:
                return p.value
        return None

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

    @property
    def assumed_rules(self) -> str | None:
        """:meth:`rules_assumption` with the package default (None when ``#rules`` is given)."""
        return self.rules_assumption()


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
    the rack holds the tiles a play or exchange uses; a play stays on the 15x15 board;
    a ``--`` line follows a play of the same player and takes back its score; passes
    and exchanges score 0; no turn follows the end-of-game rack points; nicknames are
    declared.  Raises :class:`GCGError` with ``.problems`` listing all of them.
    """
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

    events: list[GCGEvent] = []
    # per player: the totals the next line may build on (after a wrong total, both the
    # sum and the total as written, so that one typo is reported once); None = unknown
    # (after a line that could not be read)
    totals: dict[int, tuple[int, ...] | None] = {}
    end_line: int | None = None
    for k, (number, line, nick, tokens) in enumerate(raw_events):
        if nick not in index:
            problem(number, f"expected a nickname of the #player lines ({', '.join(p.nick for p in roster)}), "
                            f"got {excerpt(nick)}")
            continue
        event = _event(number, line, nick, index[nick], tokens, problem)
        if event is None:
            totals[index[nick]] = None
            continue
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

    final_racks: dict[str, str] = {}
    by_number = {p.number: p.nick for p in roster}
    for n, (rack, number) in sorted(rack_lines.items()):
        if n not in by_number:
            problem(number, f"expected #rack1..#rack{len(roster)} (one per player), got #rack{n}")
        else:
            final_racks[by_number[n]] = rack

    problems = [message for _number, message in sorted(numbered, key=lambda p: p[0])]
    id_parts = headers.get("id", "").split(None, 1)
    if problems:
        raise GCGError(list_problems(where, problems, "GCGError.problems lists every one"), problems)
    return GCGRecord(
        players=tuple(roster), events=tuple(events), title=headers.get("title"), description=description,
        id_authority=id_parts[0] if len(id_parts) > 1 else None, id=id_parts[-1] if id_parts else None,
        lexicon=headers.get("lexicon") or None, rules=headers.get("rules") or None, encoding=encoding,
        notes=tuple(text for text in map(joined, notes_before) if text),
        final_racks=final_racks, pragmas=tuple(pragmas),
        unfinished=incomplete or not any(isinstance(e, (EndRackEvent, ResignEvent)) for e in events),
        end_convention=convention, path=path, warnings=tuple(warnings),
    )


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
        if rack is None or not zero("exchange"):
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
        return ExchangeEvent(rack=rack, tiles=tiles, count=count, **common)
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
    if rack and _missing(event.tiles_played, rack):
        problem(number, f"expected the rack {rack} to hold the tiles played ({event.tiles_played}), but "
                        f"{_missing(event.tiles_played, rack)} is not on it")
    return event

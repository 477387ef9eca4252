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

__all__ = ["GCGError", "to_gcg", "from_gcg", "date_pragmas"]

# the reader of any program's records lives in gcg_record; its names stay importable from here
from .gcg_record import (  # noqa: E402,F401
    DEFAULT_RULES, ChallengeBonusEvent, EndRackEvent, ExchangeEvent, GCGEvent, GCGPlayer, GCGPragma,
    GCGRecord, PassEvent, PhonyRemovedEvent, PlayEvent, ResignEvent, TimeoutEvent, TimePenaltyEvent,
    assumption_note, parse_gcg, rules_for_lexicon,
)
from . import gcg_record as _gcg_record  # noqa: E402

__all__ += _gcg_record.__all__


_NUMBER = re.compile(r"^[+-][0-9]{1,9}$")  # ASCII digits, bounded (int() refuses 4,300+)
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
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            value = value.strip()
            m = re.fullmatch(r"player([0-9])", key)
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
    if sorted(players) != list(range(1, len(players) + 1)) or len(players) < 1:
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

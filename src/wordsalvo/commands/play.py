"""``wordsalvo play``: a game in the terminal, against the engine or between people.

    wordsalvo play                                        # classic-en: you against a medium engine
    wordsalvo play --rules wordsalvo-en --random          # a random premium board
    wordsalvo play --player Ann --player Bob --bot hard   # pass-and-play: two people and an engine
    wordsalvo play --resume ~/.local/share/wordsalvo/games/classic-en-20250101-120000.gcg

This module is only the front end: every rule (legality, scores, swaps,
challenges, undo, the end of the game and its settlement) is
:class:`wordsalvo.Game`'s, the engine's move choice per level is
:class:`wordsalvo.engine.bot.Bot`'s (the same engines as ``wordsalvo autoplay``) and
the drawing is :mod:`wordsalvo.render.terminal`'s.  :class:`TerminalGame`
reads lines with an injectable ``input_fn`` and writes to an injectable
``output`` stream, so a whole game can be scripted.

Choices of the front end:

* seats are taken in the order of ``--player NAME`` and ``--bot LEVEL`` on the
  command line (2 to 4, any mix); without them, you sit first against
  ``--players - 1`` engines of ``--level``;
* between two people's turns a hand-over screen hides the rack until the next
  player presses Enter; an opponent's swap shows how many tiles, not which;
* the screen is redrawn in place on a terminal (plain lines otherwise) and fits
  80 x 24: the side panel shrinks to what is left beside the board;
* a rule set whose ``[display] tentative_score`` is false (classic-en) previews
  the words but not the score; in strict mode and with challenges the preview
  does not tell whether the words are in the dictionary;
* with ``--challenge`` the next player may challenge a play before moving; an
  engine challenges every phony and never a valid play;
* ``hint`` (the expert engine's choice, by equity) and ``moves`` are limited to
  ``--hints`` per player per game; each is written to the record as a note;
* ``undo`` takes back the last turn a person made (and the engines' turns
  after it); between people every other person must agree;
* the game is saved (atomically, as GCG with the bag's seed) on ``save``,
  ``quit``, the end of the input, Ctrl-C and a closed terminal; the exit
  message names the file and ``--resume FILE`` continues it, bag and all.

There is no clock: the terminal game does not time moves.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence, TextIO

from ..actions import Play, Swap
from ..engine.bot import LEVELS, Bot
from ..errors import IllegalMoveReason, LexiconFormatError, NotationError, WordSalvoError
from ..formats.gcg import date_pragmas, from_gcg, to_gcg
from ..game import Game
from ..inputs import write_atomic
from ..inputs import excerpt, is_whole_number, read_bytes
from ..lexicon.lexicon import Lexicon
from ..render.terminal import (
    board_width,
    describe_turn,
    placed_squares,
    possessive,
    render_board,
    render_legend,
    render_preview,
    render_rack,
    render_scores,
    side_by_side,
    verb,
    wrap_lines,
)
from ._common import add_lexicon_argument, add_rules_argument, load_lexicon, load_rules, whole_number

__all__ = ["register", "run", "TerminalGame", "HELP", "default_save_dir", "engine_seed"]

HELP = """\
Moves
  8H WORD      across, starting at row 8, column H
  H8 WORD      down, starting at column H, row 8
  8H WO(R)D    letters in brackets are tiles already on the board
  8H WOrD      a lowercase letter is a blank standing for that letter
  You first see the words and the score; Enter plays the move, n cancels,
  and another move or command typed there replaces it.
Commands
  swap AEI     put A, E and I back and draw new tiles (? = a blank); `swap` alone: the whole rack
  pass         pass your turn
  hint         the expert engine's move for your rack (counts against --hints)
  moves [N]    the N best moves for your rack, default 10 (counts as a hint)
  challenge    challenge the play before yours (games with --challenge)
  undo         take back the last move a person made (the other people must agree)
  unseen       the tiles you have not seen: the bag and the other racks
  shuffle      shuffle your rack
  board        draw the screen again
  save [FILE]  save the game (GCG) to resume it later with `wordsalvo play --resume FILE`
  help         this text
  resign       give up the game
  quit         save the game and leave (Ctrl-D and Ctrl-C do the same)"""

_END_REASONS = {
    "out": "{finisher} went out",
    "passes": "every player passed in a row",
    "scoreless": "too many scoreless turns in a row",
    "resign": "{resigner} resigned",
    "timeout": "a player ran out of time",
    "elimination": "time-outs eliminated the other players",
}

#: hints per player per game when --hints is not given
DEFAULT_HINTS = 3
_CLEAR = "\x1b[H\x1b[2J"
_HINT_NOTE = re.compile(r"^hint for (\S+) ")


class _Quit(Exception):
    """The player left (``quit`` or the end of the input)."""


class _Hangup(Exception):
    """The terminal was closed (SIGHUP) or the process was asked to stop (SIGTERM)."""


class _SeatAction(argparse.Action):
    """``--player NAME`` / ``--bot LEVEL``: one seat, in command-line order."""

    def __call__(self, parser, namespace, value, option_string=None):
        seats = list(getattr(namespace, "seats", None) or [])
        seats.append(("bot", value) if option_string == "--bot" else ("person", value))
        namespace.seats = seats


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play",
        help="play a game in the terminal: against the engine, or pass-and-play for 2-4",
        description="Play a game in the terminal: type a move such as '8H WORD' (across) or\n"
                    "'H8 WORD' (down), see its words and score, press Enter to play it.\n"
                    "Type 'help' in the game for every command (swap, pass, hint, challenge,\n"
                    "undo, save, quit ...).  The game is saved when you leave in any way\n"
                    "(quit, Ctrl-D, Ctrl-C, a closed terminal); --resume FILE continues it.",
        epilog="seats (2 to 4, in the order given; any mix of people and engines):\n"
               "  --player Ann --player Bob             two people on one device (pass-and-play)\n"
               "  --player Ann --bot hard --bot easy    one person, two engines\n"
               "  (without --player/--bot: you against --players - 1 engines of --level)\n"
               "levels (difficulty changes the engine's move choice only, never the rules):\n"
               "  easy    the 5,000 most frequent words (up to 6 letters), few long plays, no\n"
               "          thought for the tiles kept\n"
               "  medium  the 30,000 most frequent words, sometimes a bingo, a little thought for\n"
               "          the tiles kept\n"
               "  hard    most words, often the bingo, part of the value of the tiles kept\n"
               "  expert  the best move by equity (score + value of the tiles kept)\n"
               "  (no level spends a blank or an S for a few points; see wordsalvo.engine.bot)\n"
               "saved games: in $WORDSALVO_GAMES_DIR, else $XDG_DATA_HOME/wordsalvo/games\n"
               "  (~/.local/share/wordsalvo/games; the folder is made the first time, and the\n"
               "  message says so); `save FILE` in the game saves elsewhere.\n"
               "examples:\n"
               "  wordsalvo play --rules wordsalvo-en --random\n"
               "  wordsalvo play --rules classic-en --challenge --player Ann --bot medium\n"
               "  wordsalvo play --resume ~/.local/share/wordsalvo/games/classic-en-2025.gcg",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_argument(p)
    p.add_argument("--random", action="store_true",
                   help="a random board (rule sets that have one: a new premium layout, or Turkish star squares)")
    p.add_argument("--seed", type=whole_number(0), metavar="N", help="the random board of seed N (implies --random)")
    add_lexicon_argument(p)
    p.add_argument("--player", action=_SeatAction, dest="seats", metavar="NAME",
                   help="a seat for a person (repeat for pass-and-play; names without spaces)")
    p.add_argument("--bot", action=_SeatAction, dest="seats", metavar="LEVEL", choices=LEVELS,
                   help=f"a seat for an engine of LEVEL ({', '.join(LEVELS)}); repeat for more")
    p.add_argument("--players", type=int, default=2, metavar="N",
                   help="without --player/--bot: you and N-1 engine opponents (default: 2)")
    p.add_argument("--name", default="You", help="without --player: your name in the game and its record "
                                                  "(default: You)")
    p.add_argument("--level", choices=LEVELS, default="medium",
                   help="without --bot: the engines' strength (default: medium)")
    p.add_argument("--strict", action="store_true",
                   help="a word not in the dictionary costs the turn (rule sets whose table may choose it)")
    p.add_argument("--challenge", action="store_true",
                   help="play with challenges: a phony stands until the next player challenges it "
                        "(classic-en, woodword-de; a failed challenge costs the challenger the turn)")
    p.add_argument("--hints", type=whole_number(0), metavar="N",
                   help=f"hints (and `moves` lists) per player per game (default: {DEFAULT_HINTS}; 0 = none)")
    p.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", dest="color",
                   help="colours: auto = when the output is a terminal (default)")
    p.add_argument("--game-seed", type=whole_number(0), metavar="N",
                   help="seed of the bag (and of the engine's choices): the same seed and the same moves "
                        "give the same game (default: a random seed, printed)")
    p.add_argument("--resume", metavar="FILE.gcg",
                   help="continue a saved game (its rule set, seats, bag and options come from the file)")
    p.add_argument("--autoplay", action="store_true", help=argparse.SUPPRESS)  # every seat played by the engine
    p.set_defaults(func=run, seats=None)


def _load_lexicon(path: str | None, rules):
    try:
        return load_lexicon(path, rules)
    except LexiconFormatError:
        if path is not None:
            raise
        lang = rules.alphabet.name
        raise WordSalvoError(
            f"rule set {rules.name!r} needs a {lang!r} lexicon and none is installed: "
            f"run `wordsalvo lexicon fetch {lang}` first, or give --lexicon FILE"
        ) from None


def _presets(keep: Callable[[object], bool]) -> list[str]:
    """The preset names whose rules ``keep`` accepts."""
    from ..rules import Rules, preset_names

    return [n for n in preset_names() if keep(Rules.preset(n))]


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


def engine_seed(game_seed: int, turn: int, seat: int) -> int:
    """The seed an engine seat's choices use on the turn after ``turn`` history entries:
    the same game replays the same choices, after a resume and after an undo too."""
    return (game_seed * 1024 + turn) * 8 + seat


def _seats(args) -> list[tuple[str, str]]:
    """[(kind, name or level)] from --player/--bot, else from --players/--name/--level."""
    if args.seats:
        seats = list(args.seats)
        if all(kind == "bot" for kind, _ in seats) and not args.autoplay:
            seats.insert(0, ("person", args.name))
        return seats
    if args.autoplay:
        return [("bot", args.level)] * args.players
    return [("person", args.name)] + [("bot", args.level)] * (args.players - 1)


def _engine_names(seats: list[tuple[str, str]]) -> list[str]:
    people = {value for kind, value in seats if kind == "person"}
    bots = sum(kind == "bot" for kind, _ in seats)
    names, k = [], 0
    for kind, value in seats:
        if kind == "person":
            names.append(value)
            continue
        k += 1
        name = "Engine" if bots == 1 else f"Engine{k}"
        while name in people:
            name += "_"
        names.append(name)
    return names


def setup(args) -> tuple[Game, list[str | None], dict]:
    """The game, each seat's engine level (None for a person), and notes for the intro."""
    if args.resume:
        return _resume(args)
    board_seed = args.seed
    if board_seed is not None or args.random:
        if load_rules(args.rules).random_mode == "none":
            option = "--random" if args.seed is None else f"--seed {args.seed}"
            raise WordSalvoError(f"rule set {args.rules!r} has a fixed board: expected no --random or --seed, "
                                 f"got {option} (random boards: {', '.join(_presets(lambda r: r.random_mode != 'none'))})")
        if board_seed is None:
            board_seed = random.SystemRandom().randrange(2**31)
    rules = load_rules(args.rules, board_seed)
    seats = _seats(args)
    option = "--player/--bot" if args.seats else "--players"
    if not rules.players.min <= len(seats) <= rules.players.max:
        raise WordSalvoError(f"{option}: rule set {rules.name!r} is for {rules.players.min}..{rules.players.max} "
                             f"players, got {len(seats)}")
    names = _engine_names(seats)
    bad = [n for n in names if not n or any(ch.isspace() for ch in n) or ":" in n or n.startswith("#")]
    if bad or len(set(names)) != len(names):
        raise WordSalvoError(f"player names: expected distinct names without spaces or ':', got "
                             f"{', '.join(repr(n) for n in names)}")
    if args.challenge and not rules.challenge.table_may_choose:
        may = _presets(lambda r: r.challenge.table_may_choose)
        raise WordSalvoError(f"--challenge: rule set {rules.name!r} checks every word when it is played, so there "
                             f"is nothing to challenge (challenges: {', '.join(may)})")
    if args.challenge and args.strict:
        raise WordSalvoError("--challenge and --strict exclude each other: with challenges a phony stands until "
                             "it is challenged; expected one of them")
    lexicon = _load_lexicon(args.lexicon, rules)
    game_seed = args.game_seed if args.game_seed is not None else random.SystemRandom().randrange(2**31)
    game = Game(rules, lexicon, players=names, seed=game_seed, strict=True if args.strict else None,
                challenges=args.challenge)
    levels = [value if kind == "bot" else None for kind, value in seats]
    hints = DEFAULT_HINTS if args.hints is None else args.hints
    return game, levels, {"board_seed": board_seed, "game_seed": game_seed, "hints": hints, "path": None}


def _resume(args) -> tuple[Game, list[str | None], dict]:
    given = [opt for opt, on in (("--player/--bot", args.seats), ("--random", args.random),
                                 ("--seed", args.seed is not None), ("--game-seed", args.game_seed is not None),
                                 ("--strict", args.strict), ("--challenge", args.challenge)) if on]
    if given:
        raise WordSalvoError(f"--resume continues the game as it was saved (its rule set, seats, seed and "
                             f"options are in the file): expected none of {', '.join(given)}")
    path = Path(args.resume).expanduser()
    try:  # no such file, a name the OS refuses, a folder
        data = read_bytes(path, WordSalvoError, "saved game")
    except WordSalvoError as e:
        raise WordSalvoError(f"--resume: {e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WordSalvoError(f"--resume: expected a GCG record (UTF-8 text), got {path} with a byte that is not "
                             f"UTF-8 at offset {e.start}") from None
    # the game checks that the lexicon's alphabet is its rule set's
    lexicon = Lexicon.load(args.lexicon) if args.lexicon else None
    game = from_gcg(text, lexicon=lexicon)
    engines: dict[str, str] = {}
    hints = DEFAULT_HINTS
    dated = []
    for line in text.splitlines():
        key, _, value = line.strip().partition(" ")
        if key in ("#date", "#time") and value.strip():
            dated.append((key[1:], value.strip()))  # written back as read
        elif key == "#engine":
            nick, _, level = value.partition(" ")
            if level.strip() not in LEVELS or nick not in game.names:
                raise WordSalvoError(f"--resume {path}: expected '#engine NICK LEVEL' with a player of the game "
                                     f"and a level ({', '.join(LEVELS)}), got {line.strip()!r}")
            engines[nick] = level.strip()
        elif key == "#hints":
            if not is_whole_number(value.strip(), digits=4):
                raise WordSalvoError(f"--resume {path}: expected '#hints N' with N a whole number (the hints "
                                     f"each player may ask for), got {excerpt(line.strip())}")
            hints = int(value)
    if args.hints is not None:
        hints = args.hints
    if game.is_over:
        raise WordSalvoError(f"--resume: the game in {path} is over ({game.end_reason}); "
                             f"`wordsalvo analyze {path}` replays it with the engine's judgement")
    levels = [engines.get(name) for name in game.names]
    return game, levels, {"board_seed": game.rules.board_seed, "game_seed": game.seed, "hints": hints,
                          "path": path, "dated": dated}


def run(args, input_fn: Callable[[str], str] = input, output: TextIO | None = None) -> int:
    from .board import use_colour

    output = output if output is not None else sys.stdout
    game, levels, info = setup(args)
    tg = TerminalGame(game, [lv is None for lv in levels], args.level, levels=levels,
                      colour=use_colour(args.color, output), input_fn=input_fn, output=output,
                      seed=info["game_seed"], hints=info["hints"], save_path=info["path"],
                      dated=info.get("dated"))
    rules = game.rules
    if info["path"] is not None:
        tg.notify(f"Resumed {info['path']}: {rules.name}, {len(game.history)} turns so far "
                  f"({', '.join(f'{n} {s}' for n, s in zip(game.names, game.scores))}).")
    else:
        board = "standard board" if info["board_seed"] is None else f"board seed {info['board_seed']}"
        tg.notify(f"{rules.name}: {rules.description or rules.name}")
        tg.notify(f"{board}, game seed {info['game_seed']} (the same game again: --game-seed {info['game_seed']}"
                  + (f" --seed {info['board_seed']})" if info["board_seed"] is not None else ")"))
    people = [n for n, lv in zip(game.names, levels) if lv is None]
    engines = [f"{n} ({lv})" for n, lv in zip(game.names, levels) if lv is not None]
    if people:
        who = (f"{people[0]} against " + ", ".join(engines)) if len(people) == 1 else \
            "Pass-and-play: " + ", ".join(people) + (" and " + ", ".join(engines) if engines else "")
        tg.notify(f"{who}. Type `help` for the commands.")
    return tg.run()


class TerminalGame:
    """The terminal front end of one :class:`Game`.

    ``humans[i]``: seat ``i`` is typed in; the others are played by a
    :class:`~wordsalvo.engine.bot.Bot` of ``levels[i]`` (default: ``level``).
    ``input_fn(prompt)`` returns one line (EOFError ends the session like
    ``quit``); everything else goes to ``output``.  ``hints``: hints per person
    per game (None: unlimited).  ``save_path``: the file the game is saved to
    (default: a new file in :func:`default_save_dir`).  ``width`` and ``redraw``
    default to what the output is: a terminal's width and redrawing in place, or
    80 columns appended.  ``dated``: the record's ``#date`` and ``#time`` pragmas
    (default: when this front end starts; a resumed game keeps its own).
    """

    def __init__(self, game: Game, humans: Sequence[bool], level: str = "medium", *, colour: bool = False,
                 input_fn: Callable[[str], str] = input, output: TextIO | None = None, seed: int = 0,
                 levels: Sequence[str | None] | None = None, hints: int | None = DEFAULT_HINTS,
                 save_path: Path | None = None, width: int | None = None, redraw: bool | None = None,
                 dated: Sequence[tuple[str, str]] | None = None):
        if len(humans) != len(game.names):
            raise WordSalvoError(f"expected one human/engine flag per player ({len(game.names)}), got {len(humans)}")
        self.game = game
        self.humans = list(humans)
        self.level = level
        self.levels = [None if h else (levels[i] if levels is not None and levels[i] else level)
                       for i, h in enumerate(humans)]
        self.colour = colour
        self.input_fn = input_fn
        self.output = output if output is not None else sys.stdout
        self.seed = seed
        self.hints = hints
        self.save_path = Path(save_path) if save_path is not None else None
        self.dated = list(dated) if dated else date_pragmas()
        tty = bool(getattr(self.output, "isatty", lambda: False)())
        self.redraw = tty if redraw is None else redraw
        self._fixed_width = width
        self._tty = tty
        self.opponents = {i: Bot(self.levels[i], game.rules, lexicon=game.lexicon, seed=seed * 8 + i)
                          for i, h in enumerate(humans) if not h}
        self._hint_bot: Bot | None = None
        self._shuffle_rng = random.Random(f"wordsalvo-shuffle-{seed}")
        self._rack_view = ""
        #: the person whose rack the screen showed last (the hand-over screen hides it from the next)
        self._viewer: int | None = None
        #: messages for the next screen (redrawing clears the lines before it)
        self.news: list[str] = []
        #: squares of the last placement, highlighted on the board
        self.last_squares: frozenset[tuple[int, int]] = self._last_play_squares()

    # -- I/O ----------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        """Write lines; a plain line wider than the screen is wrapped at its spaces."""
        width = self.width - 1
        lines = [ln if "\x1b" in ln or len(ln) <= width else "\n".join(wrap_lines([ln], width, cut=False))
                 for ln in text.split("\n")]
        try:
            self.output.write("\n".join(lines) + "\n")
            self.output.flush()
        except (OSError, ValueError):  # the terminal is gone (closed window): the game is still saved
            pass

    def notify(self, text: str) -> None:
        """A message that must survive the next redraw: kept for the next screen when
        redrawing, written at once otherwise."""
        if self.redraw:
            self.news.append(text)
        else:
            self.say(text)

    def ask(self, prompt: str) -> str:
        width = self.width - 1
        if len(prompt) > width:  # a long question on lines of its own, the answer after the last
            prompt = "\n".join(wrap_lines([prompt.rstrip()], width, cut=False)) + " "
        try:
            return self.input_fn(prompt)
        except EOFError:
            self.say()
            raise _Quit from None

    @property
    def width(self) -> int:
        """Columns of the screen: the terminal's (re-read on every screen), else 80."""
        if self._fixed_width:
            return self._fixed_width
        if self._tty:
            try:
                return os.get_terminal_size(self.output.fileno()).columns or 80
            except (OSError, ValueError, AttributeError):
                return shutil.get_terminal_size((80, 24)).columns
        return 80

    def people(self) -> list[int]:
        return [i for i, h in enumerate(self.humans) if h]

    # -- the game loop ------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the player leaves (the game is then saved); 0 either way."""
        game = self.game
        try:
            with self._signals():
                asked = False  # the next person was asked whether to challenge the game's last play
                while True:
                    self._engine_challenge()
                    if game.is_over:
                        if game.can_challenge and self.humans[game.challenger] and not asked:
                            asked = True
                            self._final_challenge()
                            continue
                        break
                    asked = False
                    if self.humans[game.to_move]:
                        self.human_turn()
                    else:
                        self.engine_turn()
        except (_Quit, _Hangup, KeyboardInterrupt) as e:
            self.leave(e)
            return 0
        self.end_of_game()
        return 0

    @contextmanager
    def _signals(self) -> Iterator[None]:
        """SIGHUP (the terminal was closed) and SIGTERM end the session like quit: saved."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def hangup(signum, frame):
            raise _Hangup(signum)

        old = {}
        for name in ("SIGHUP", "SIGTERM"):
            sig = getattr(signal, name, None)
            if sig is not None:
                old[sig] = signal.signal(sig, hangup)
        try:
            yield
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)

    def _bot_for(self, player: int) -> Bot:
        bot = self.opponents[player]
        bot.reset(engine_seed(self.game.seed, len(self.game.history), player))
        return bot

    def engine_turn(self) -> None:
        player = self.game.to_move
        turn = self._make(lambda: self.game.apply(self._bot_for(player).choose(self.game)))
        if not any(self.humans):  # autoplay: narrate every turn
            self.say(describe_turn(turn, self.game.names))

    def _make(self, action: Callable[[], object]):
        turn = action()
        if getattr(turn, "kind", "") == "play":
            self.last_squares = placed_squares(turn.notation)
        return turn

    def _last_play_squares(self) -> frozenset[tuple[int, int]]:
        last = next((t for t in reversed(self.game.history) if t.kind == "play"), None)
        return placed_squares(last.notation) if last is not None else frozenset()

    def _engine_challenge(self) -> None:
        """An engine on turn to challenge challenges exactly the phonies (it knows every word)."""
        game = self.game
        if not game.can_challenge or self.humans[game.challenger]:
            return
        if game.phonies():
            self._report_challenge(game.challenge())

    def _report_challenge(self, result) -> None:
        names = self.game.names
        who = names[result.challenger]
        play = result.play
        said = f"{who} {verb(who, 'challenge')} {possessive(names[play.player])} {play.notation}: "
        if result.phony:
            self.last_squares = self._last_play_squares()
            owner = names[play.player]
            self.notify(said + f"{', '.join(result.invalid_words)} not in the dictionary. The play is taken back "
                        f"and {owner} {verb(owner, 'lose')} the turn.")
        elif result.turn is not None:
            self.notify(said + describe_turn(result.turn, names).split(": ", 1)[-1] + ".")
        else:
            self.notify(said + "every word is in the dictionary.")

    def _final_challenge(self) -> None:
        """The last play ended the game: the next person may challenge it first."""
        game = self.game
        p = game.challenger
        play = game.open_play
        self.handover(p, final=True)
        answer = self.ask(f"{game.names[p]}: challenge {possessive(game.names[play.player])} last play "
                          f"{play.notation}? (y = yes, Enter = no): ").strip().lower()
        if answer in ("y", "yes", "challenge"):
            self._report_challenge(game.challenge())

    def human_turn(self) -> None:
        p = self.game.to_move
        if len(self.people()) > 1 and self._viewer != p:
            if not self.handover(p):
                return
        self._viewer = p
        self.show_screen()
        while True:
            line = self.ask(f"{self.game.names[self.game.to_move]}> ")
            try:
                if self.handle(line):
                    return
            except WordSalvoError as e:  # anything the game refuses: say why and ask again
                self.say(f"not possible: {e}")

    def handover(self, player: int, final: bool = False) -> bool:
        """The hand-over screen between two people: the rack stays hidden until ``player``
        presses Enter.  False when the game changed instead (an undo)."""
        if len(self.people()) < 2 or self._viewer == player:
            return True
        name = self.game.names[player]
        self.show_screen(rack=False)
        self.say(f"Hand the device to {name}. The rack stays hidden until {name} presses Enter.")
        while True:
            answer = self.ask(f"{name}: press Enter to see your rack (or undo, save, quit): ").strip()
            word, _, rest = answer.partition(" ")
            command = word.lower()
            if not answer:
                self._viewer = player
                return True
            if command in ("quit", "exit"):
                raise _Quit
            if command == "save":
                self.do_save(rest.strip())
            elif command == "undo" and not final:
                if self.do_undo():
                    return False
            else:
                self.say(f"Press Enter when {name} has the device, or type undo, save or quit.")

    # -- the screen ---------------------------------------------------------------------
    def rack_view(self) -> str:
        """The rack of the player on turn in the order shown (``shuffle`` changes the order only)."""
        rack = self.game.rack
        if Counter(self._rack_view) != Counter(rack):
            self._rack_view = rack
        return self._rack_view

    def recent_turns(self, since_human: bool = False) -> list:
        """The turns from the last human turn on (after it with ``since_human``); settlements left out."""
        turns = [t for t in self.game.history if t.kind != "settle"]
        last = max((i for i, t in enumerate(turns) if self.humans[t.player]), default=-1)
        return turns[last + 1:] if since_human or last < 0 else turns[last:]

    def hints_used(self, player: int) -> int:
        name = self.game.names[player]
        return sum(1 for _i, text in self.game.notes if (m := _HINT_NOTE.match(text)) and m.group(1) == name)

    def hints_left(self, player: int) -> int | None:
        return None if self.hints is None else max(0, self.hints - self.hints_used(player))

    def _layout(self) -> tuple[bool, int, int]:
        """(values on the board, board width, panel width) for the screen's width."""
        width = self.width
        values = self.colour or width - 1 >= board_width(values=True) + 2 + 24
        bw = board_width(colour=self.colour, values=values)
        return values, bw, width - 1 - bw - 2

    def panel(self, width: int, height: int, me: int | None) -> list[str]:
        """The side panel: rule set, scores, bag, hints, the last turns; ``width`` x ``height`` at most."""
        game = self.game
        names = [n if lv is None else f"{n} ({lv})" for n, lv in zip(game.names, self.levels)]
        out = [i not in game.players_left for i in range(len(game.names))]
        head = [f"{game.rules.name}, turn {sum(t.kind not in ('settle', 'challenge-bonus') for t in game.history) + 1}"]
        scores = render_scores([n[:max(4, width - 8)] for n in names], game.scores,
                               None if game.is_over else game.to_move, out)
        info = [f"bag: {game.bag_count} tile{'s' * (game.bag_count != 1)}"]
        if me is not None and self.hints is not None and self.humans[me]:
            info.append(f"hints left: {self.hints_left(me)}")
        if game.challenges:
            info.append("challenges: on")
        if game.strict:
            info.append("strict mode: on")
        lines = wrap_lines(head, width) + [""] + [s[:width] for s in scores] + [""] + wrap_lines(info, width)
        recent = [t for t in game.history if t.kind != "settle"][-8:]
        if recent:
            turns = wrap_lines([describe_turn(t, game.names, show_swapped=t.player == me, short=True)
                                for t in recent], width)
            room = height - len(lines) - 2
            if room > 0:
                lines += ["", "last turns:"] + turns[-room:]
        return lines[:height]

    def show_screen(self, rack: bool = True) -> None:
        game = self.game
        me = game.to_move
        values, bw, pw = self._layout()
        board = render_board(game.rules, game.board, self.last_squares, colour=self.colour,
                             values=values).split("\n")
        if self.redraw:
            try:
                self.output.write(_CLEAR)
            except (OSError, ValueError):
                pass
        else:
            self.say()
        if pw >= 16:
            lines = side_by_side(board, self.panel(pw, len(board), me), width=bw, gap=2)
        else:  # too narrow for a panel beside the board: below it
            lines = board + self.panel(max(20, self.width - 1), 8, me)
        for line in lines:
            self.say(line)
        self.say(render_legend(game.rules, colour=self.colour, values=values, width=self.width - 1))
        for text in self.news:
            for line in wrap_lines([text], self.width - 1):
                self.say(line)
        self.news.clear()
        if rack and game.can_challenge and game.challenger == me:
            last = game.open_play
            self.say(f"You may `challenge` {possessive(game.names[last.player])} {last.notation} before you move.")
        if rack:
            name = game.names[me]
            label = "Your rack" if name == "You" else f"{possessive(name)} rack"
            self.say(f"{label}: {render_rack(game.rules, self.rack_view(), colour=self.colour)}")

    # -- one line of input --------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; True when the turn was made (play, swap, pass, resign) or the
        game changed under it (undo, challenge)."""
        text = line.strip()
        if not text:
            self.say("Type a move (e.g. 8H WORD) or a command (help lists them).")
            return False
        word, _, rest = text.partition(" ")
        command = word.lower()
        rest = rest.strip()
        simple = {"pass": self.do_pass, "hint": self.do_hint, "shuffle": self.do_shuffle,
                  "board": self.show_screen, "unseen": self.do_unseen, "help": self.do_help, "?": self.do_help,
                  "resign": self.do_resign, "quit": self.do_quit, "exit": self.do_quit, "undo": self.do_undo,
                  "challenge": self.do_challenge}
        if command in simple:
            if rest:
                self.say(f"`{command}` takes nothing after it, got {rest!r}")
                return False
            return bool(simple[command]())
        if command == "swap":
            return self.do_swap(rest)
        if command == "moves":
            return self.do_moves(rest)
        if command == "save":
            self.do_save(rest)
            return False
        return self.do_move(text)

    def do_move(self, text: str) -> bool:
        game = self.game
        try:
            result = game.preview(text)
        except NotationError as e:
            self.say(f"cannot read {text!r} as a move: {e}")
            self.say("A move is a square and a word: 8H WORD (across) or H8 WORD (down); `help` shows more.")
            return False
        for line in render_preview(result, show_score=game.rules.display.tentative_score, strict=game.strict,
                                   challenges=game.challenges):
            self.say(line)
        hidden = {IllegalMoveReason.INVALID_WORDS} if game.strict or game.challenges else set()
        reasons = set(result.reasons) - hidden
        if reasons:
            word = text.split(None, 1)[1] if len(text.split(None, 1)) == 2 else ""
            if IllegalMoveReason.TILE_NOT_ON_RACK in reasons and any(ch.islower() for ch in word):
                self.say("(lowercase letters are blanks; type the word in capitals for ordinary tiles)")
            return False
        answer = self.ask("Enter = play it, n = cancel, or type another move or command: ").strip()
        if answer.lower() in ("n", "no", "c", "cancel"):
            self.say("Cancelled.")
            return False
        if answer:  # a corrected move (or a command) instead of this one
            return self.handle(answer)
        turn = self._make(lambda: game.play(text))
        self.notify(describe_turn(turn, game.names))
        return True

    def _tiles(self, text: str) -> str:
        """Letters typed for a swap as rack letters (any case; ``?`` = a blank)."""
        mapping = self.game.rules.alphabet.mapping
        out = []
        for ch in text.replace(" ", ""):
            if ch == "?":
                out.append(ch)
                continue
            letter = mapping.get(ch) or mapping.get(ch.upper()) or ch.upper()
            out.append(letter)
        return "".join(out)

    def do_swap(self, rest: str) -> bool:
        tiles = self._tiles(rest) if rest else None
        turn = self._make(lambda: self.game.swap(tiles))
        self.say(f"{describe_turn(turn, self.game.names)}; new rack: "
                 f"{render_rack(self.game.rules, self.game.racks[turn.player], colour=self.colour)}")
        if len(self.people()) > 1:
            self.notify(describe_turn(turn, self.game.names, show_swapped=False))
        return True

    def do_pass(self) -> bool:
        self.notify(describe_turn(self._make(self.game.pass_turn), self.game.names))
        return True

    # -- hints ------------------------------------------------------------------------
    def _hint(self) -> Bot | None:
        """The hint engine when the player on turn has a hint left (the note is the caller's)."""
        p = self.game.to_move
        left = self.hints_left(p)
        if left == 0:
            self.say(f"No hints left: {self.hints} per game (--hints), all used." if self.hints else
                     "This game is played without hints (--hints 0).")
            return None
        if self._hint_bot is None:
            self._hint_bot = Bot("expert", self.game.rules, lexicon=self.game.lexicon)
        return self._hint_bot

    def _note_hint(self, text: str) -> str:
        p = self.game.to_move
        used = self.hints_used(p) + 1
        count = f"{used} of {self.hints}" if self.hints is not None else f"{used}"
        self.game.add_note(f"hint for {self.game.names[p]} ({count}): {text}")
        return count

    def do_hint(self) -> bool:
        bot = self._hint()
        if bot is None:
            return False
        action = bot.choose(self.game)
        if isinstance(action, Play):
            m = action.move
            equity = f", equity {action.equity:.1f}" if action.equity is not None else ""
            text = f"{m.notation} for {m.score}{equity}"
        elif isinstance(action, Swap):
            text = f"swap {action.tiles} (keep {action.leave or 'nothing'})"
        else:
            text = "pass (no word fits and no swap is allowed)"
        count = self._note_hint(text)
        self.say(f"Hint ({count}): {text}")
        return False

    def do_moves(self, rest: str) -> bool:
        try:
            n = int(rest) if rest else 10
            if n < 1:
                raise ValueError
        except ValueError:
            self.say(f"`moves` takes a number >= 1 (how many to show), got {rest!r}")
            return False
        bot = self._hint()
        if bot is None:
            return False
        moves = self.game.legal_moves(leaves=bot.leaves, vocabulary=bot.vocabulary)
        if not len(moves):
            self._note_hint("no legal move")
            self.say("No word fits your rack anywhere: swap or pass.")
            return False
        by = "equity" if moves.has_equity else "score"
        offensive = self.game.offensive
        best = []  # hints never suggest an offensive word (a person may still play one)
        for m in moves.sorted(by=by):
            if not offensive.is_offensive(m):
                best.append(m)
                if len(best) == n:
                    break
        if not best:
            self._note_hint("no legal move without an offensive word")
            self.say("Every word that fits your rack is on the offensive-word list: swap or pass.")
            return False
        count = self._note_hint(f"the {len(best)} best moves, best {best[0].notation} for {best[0].score}")
        self.say(f"The {len(best)} best of {len(moves)} legal moves by {by} (hint {count}):")
        for i, m in enumerate(best, 1):
            equity = f" {float(m.equity):>7.1f}" if by == "equity" else ""
            self.say(f"{i:>3}. {m.notation:<24} {m.score:>4}{equity}")
        return False

    # -- undo and challenges ------------------------------------------------------------
    def do_undo(self) -> bool:
        """Take back the last turn a person made and every engine turn after it; between
        people, every other person must agree.  True when the game changed."""
        game = self.game
        people = self.people()
        last = max((game.last_turn_of(p) for p in people), default=-1)
        if last < 0 or not game.undo_steps:
            self.say("Nothing to take back: no person has moved yet.")
            return False
        owner = game.history[last].player
        taken = [t for t in game.history[last:] if t.kind not in ("settle", "challenge-bonus")]
        what = "; ".join(describe_turn(t, game.names, show_swapped=t.player == owner, short=True) for t in taken)
        for p in people:
            if p == owner:
                continue
            if not self._yes(f"{game.names[p]}: take back {what}? Do you agree?"):
                self.say(f"{game.names[p]} does not agree: nothing is taken back.")
                return False
        game.undo(owner)
        game.add_note(f"takeback: {game.names[owner]} took back {what}")
        self.last_squares = self._last_play_squares()
        self.notify(f"Taken back: {what}. {game.names[owner]} is on turn again.")
        self._viewer = None  # between people the device goes back to the owner: a hand-over first
        return True

    def do_challenge(self) -> bool:
        game = self.game
        if not game.challenges:
            self.say("This game is played without challenges: the game checks every word when it is played"
                     + (" (start it with --challenge to play with them)." if game.rules.challenge.table_may_choose
                        else "."))
            return False
        if not game.can_challenge or game.challenger != game.to_move:
            self.say("Nothing to challenge: only the play just before your turn can be challenged, "
                     "before you move.")
            return False
        self._report_challenge(game.challenge())
        return True

    def do_unseen(self) -> bool:
        game = self.game
        tiles = list(game.bag)
        for i, rack in enumerate(game.racks):
            if i != game.to_move:
                tiles += rack
        order = {ch: i for i, ch in enumerate([*game.rules.alphabet.letters, "?"])}
        tiles.sort(key=lambda ch: order.get(ch, len(order)))
        counts = Counter(tiles)
        listing = " ".join(f"{ch}{'x' + str(counts[ch]) if counts[ch] > 1 else ''}" for ch in dict.fromkeys(tiles))
        self.say(f"Unseen ({len(tiles)}): {listing or 'none'}")
        return False

    def do_shuffle(self) -> bool:
        tiles = list(self.rack_view())
        self._shuffle_rng.shuffle(tiles)
        self._rack_view = "".join(tiles)
        self.say(f"Your rack: {render_rack(self.game.rules, self._rack_view, colour=self.colour)}")
        return False

    def do_help(self) -> bool:
        self.say(HELP)
        return False

    def do_resign(self) -> bool:
        if not self._yes("Resign the game?"):
            self.say("Not resigned; play on.")
            return False
        self._make(self.game.resign)
        return True

    def do_quit(self) -> bool:
        raise _Quit

    # -- saving -------------------------------------------------------------------------
    def record(self) -> str:
        """The game as GCG, with when it started and this front end's seats and hint limit as pragmas."""
        pragmas = list(self.dated)
        pragmas += [("engine", f"{n} {lv}") for n, lv in zip(self.game.names, self.levels) if lv is not None]
        if self.hints is not None:
            pragmas.append(("hints", str(self.hints)))
        return to_gcg(self.game, pragmas)

    def default_path(self) -> Path:
        folder = default_save_dir()
        stem = f"{self.game.rules.name}-{time.strftime('%Y%m%d-%H%M%S')}"
        path = folder / f"{stem}.gcg"
        k = 2
        while path.exists():
            path = folder / f"{stem}-{k}.gcg"
            k += 1
        return path

    def _write(self, path: Path, *, create: bool) -> str | None:
        """Write the record to ``path``; None when written, else why not.  A missing
        folder is made only with ``create``."""
        try:
            if path.is_dir():
                return f"{path} is a folder"
            if not path.parent.is_dir():
                if not create:
                    return f"the folder {path.parent} does not exist"
                path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, self.record().encode("utf-8"))
        except (OSError, ValueError) as e:  # a name the system refuses: too long, a NUL byte ...
            return f"cannot write {path}: {getattr(e, 'strerror', None) or e}"
        return None

    def _typed_path(self, name: str) -> Path | None:
        try:
            path = Path(name).expanduser()
        except (RuntimeError, ValueError):
            return None
        return path.with_suffix(".gcg") if path.suffix == "" else path

    def do_save(self, name: str) -> Path | None:
        """``save [FILE]``: write the game now; later saves go to the same file."""
        if name:
            path = self._typed_path(name)
            if path is None:
                self.say(f"cannot save to {name!r}: not a file name; nothing saved")
                return None
            create = False
            try:
                missing = not path.parent.is_dir()
            except (OSError, ValueError):
                missing = False
            if missing:
                if not self._yes(f"The folder {path.parent} does not exist; make it?"):
                    self.say("Not saved.")
                    return None
                create = True
        else:
            path = self.save_path or self.default_path()
            create = True
        made = not path.parent.exists()
        problem = self._write(path, create=create)
        if problem:
            self.say(f"Not saved: {problem}. Try `save` with another name, or `save` alone for {self.default_path()}.")
            return None
        self.save_path = path
        self.say(f"Saved to {path}" + (f" (made the folder {path.parent})" if made else "") +
                 f"; resume it with: wordsalvo play --resume {path}")
        return path

    def autosave(self) -> tuple[Path | None, str]:
        """Save without asking (leaving the game): the game's file, else the default folder,
        else the temporary folder.  (path or None, a note on the folder made)."""
        candidates = [p for p in (self.save_path, self.default_path()) if p is not None]
        candidates.append(Path(tempfile.gettempdir()) / self.default_path().name)
        for path in candidates:
            made = not path.parent.exists()
            if self._write(path, create=True) is None:
                self.save_path = path
                return path, (f" (made the folder {path.parent})" if made else "")
        return None, ""

    def leave(self, why: BaseException) -> None:
        """The session ends before the game: save it and say where."""
        game = self.game
        old = {}
        if threading.current_thread() is threading.main_thread():
            for name in ("SIGINT", "SIGHUP", "SIGTERM"):  # let nothing interrupt the save
                sig = getattr(signal, name, None)
                if sig is not None:
                    old[sig] = signal.signal(sig, signal.SIG_IGN)
        try:
            path, made = self.autosave()
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        how = {"_Hangup": "The terminal was closed", "KeyboardInterrupt": "Interrupted"}.get(type(why).__name__)
        self.say()
        self.say((f"{how}. " if how else "") + f"Game left unfinished after {len(game.history)} turns "
                 f"(scores {', '.join(f'{n} {s}' for n, s in zip(game.names, game.scores))}).")
        if path is not None:
            self.say(f"Saved to {path}{made}")
            self.say(f"Resume it with: wordsalvo play --resume {path}")
        else:  # pragma: no cover - every folder refused
            self.say("The game could not be saved anywhere; its record follows:")
            self.say(self.record())

    # -- the end ------------------------------------------------------------------------
    def end_of_game(self) -> None:
        game = self.game
        if self.redraw:
            self.show_screen(rack=False)
        else:
            self.say()
            values, _bw, _pw = self._layout()
            for line in render_board(game.rules, game.board, self.last_squares, colour=self.colour,
                                     values=values).split("\n"):
                self.say(line)
            self.say()
        if any(self.humans) and not self.redraw:
            for t in self.recent_turns(since_human=True):
                self.say(describe_turn(t, game.names, show_swapped=len(self.people()) == 1 and self.humans[t.player]))
        finisher = next((game.names[t.player] for t in reversed(game.history) if t.kind == "play"), "")
        resigner = next((game.names[t.player] for t in reversed(game.history) if t.kind == "resign"), "")
        reason = _END_REASONS.get(game.end_reason or "", game.end_reason or "")
        self.say(f"Game over: {reason.format(finisher=finisher, resigner=resigner)}.")
        for t in game.history:
            if t.kind == "settle":
                self.say("  " + describe_turn(t, game.names))
        self.say("Final scores:")
        for line in render_scores(game.names, game.scores):
            self.say(line)
        winners = game.winners
        if len(winners) == 1:
            w = winners[0]
            others = [s for i, s in enumerate(game.scores) if i != w]
            margin = game.scores[w] - max(others) if others else 0
            by = f" by {margin}" if margin > 0 else ""
            self.say(f"{game.names[w]} win{'' if game.names[w] == 'You' else 's'}{by}!")
        else:
            self.say("A draw between " + " and ".join(game.names[i] for i in winners) + ".")
        if self.save_path is not None:
            problem = self._write(self.save_path, create=False)
            if problem is None:
                self.say(f"The finished game is saved in {self.save_path}; "
                         f"`wordsalvo analyze {self.save_path}` replays it with the engine's judgement.")
                return
            self.say(f"Not saved: {problem}.")
        self.offer_save()

    def _yes(self, question: str) -> bool:
        return self.ask(f"{question} (y = yes): ").strip().lower() in ("y", "yes")

    def offer_save(self) -> None:
        try:
            self._offer_save()
        except _Quit:  # the end of the input: nothing more to save
            return

    def _offer_save(self) -> None:
        while True:
            name = self.ask("Save the game record (GCG)? File name, or Enter to skip: ").strip()
            if not name:
                return
            path = self._typed_path(name)
            if path is None:
                self.say(f"cannot save to {name!r}: not a file name; try another name")
                continue
            try:
                exists, missing = path.exists(), not path.parent.is_dir()
            except (OSError, ValueError):
                exists, missing = False, False
            if exists and not self._yes(f"{path} exists; overwrite it?"):
                continue
            if missing and not self._yes(f"The folder {path.parent} does not exist; make it?"):
                continue
            create = missing
            problem = self._write(path, create=create)
            if problem:
                self.say(f"{problem}; try another name")
                continue
            self.save_path = path
            self.say(f"Saved the record to {path}.")
            return

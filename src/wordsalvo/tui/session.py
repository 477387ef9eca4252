"""The terminal session of one game: the screen, the commands, the hand-over between
people, the engines' turns.

This is only the front end: every rule (legality, scores, swaps, challenges,
undo, the end of the game and its settlement) is :class:`wordsalvo.Game`'s, the
engine's move choice per level is :class:`wordsalvo.engine.bot.Bot`'s (the same
engines as ``wordsalvo autoplay``), the drawing is
:mod:`wordsalvo.render.terminal`'s and the saved games are
:mod:`wordsalvo.tui.saved_games`'.  :class:`TerminalGame` reads lines with an
injectable ``input_fn`` and writes to an injectable ``output`` stream, so a
whole game can be scripted.

Choices of the front end:

* between two people's turns a hand-over screen hides the rack until the next
  player presses Enter; an opponent's swap shows how many tiles, not which;
* the screen is redrawn in place on a terminal (plain lines otherwise) and fits
  80 x 24: the side panel shrinks to what is left beside the board;
* a rule set whose ``[display] tentative_score`` is false (classic-en) previews
  the words but not the score; in strict mode and with challenges the preview
  does not tell whether the words are in the dictionary;
* with challenges the next player may challenge a play before moving; an
  engine challenges every phony and never a valid play;
* ``hint`` (the expert engine's choice, by equity) and ``moves`` are limited to
  ``hints`` per player per game; each is written to the record as a note;
* ``undo`` takes back the last turn a person made (and the engines' turns
  after it); between people every other person must agree;
* the game is saved (atomically, as GCG with the bag's seed) on ``save``,
  ``quit``, the end of the input, Ctrl-C and a closed terminal; the exit
  message names the file and ``wordsalvo play --resume FILE`` continues it, bag and all.

* with a time per move (``move_time``, ``wordsalvo play --move-time SECONDS``,
  as the rule set's ``[timer]`` allows) the time left counts down at the end
  of the prompt's line (drawn beside the cursor, which goes back where it was:
  typing is not disturbed) from the moment the player sees the rack; running
  out ends the turn as the rule set says (:meth:`Game.timeout`: the turn is
  lost, or the game); engines are not timed (they answer in a fraction of a
  second).  Without it the terminal game has no clock.
"""

from __future__ import annotations

import math
import os
import random
import re
import shlex
import shutil
import signal
import sys
import threading
import time
from ..printable import printable
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence, TextIO

from ..actions import Play, Swap
from ..engine.bot import Bot
from ..errors import IllegalMoveReason, NotationError, WordSalvoError
from ..formats.gcg import date_pragmas
from ..game import Game
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
    visible_width,
    wrap_lines,
)
from .saved_games import fallback_save_path, game_record, new_save_path, typed_path, write_record

__all__ = ["TerminalGame", "HELP", "help_text", "short_help", "command_help", "DEFAULT_HINTS", "engine_seed"]

_HELP = """\
Moves
  8H WORD      across, starting at row 8, column H
  H8 WORD      down, starting at column H, row 8
  8H WO(R)D    letters in brackets are tiles already on the board
  8H WOrD      a lowercase letter is a blank standing for that letter
  {preview}; Enter plays the move, n cancels,
  and another move or command typed there replaces it.
Commands
{swap}
  pass         pass your turn
  hint         the expert engine's move for your rack (counts against --hints)
  moves [N]    the N best moves for your rack, default 10 (counts as a hint)
  challenge    challenge the play before yours (games with --challenge)
  undo         take back the last move a person made (the other people must agree)
  unseen       the tiles you have not seen: the bag and the other racks
  shuffle      shuffle your rack
  board        draw the screen again
  save [FILE]  save the game (GCG) to resume it later with `wordsalvo play --resume FILE`
  help         the short help; help COMMAND: these lines about one command
  resign       give up the game
  quit         save the game and leave (Ctrl-D and Ctrl-C do the same)"""

_SWAP_SOME = ("  swap AEI     put A, E and I back and draw new tiles (? = a blank)\n"
              "  swap         the whole rack (asked first, like a move)")
_SWAP_ALL = "  swap         put the whole rack back and draw new tiles (asked first, like a move)"


def help_text(rules) -> str:
    """``help`` in a game of ``rules``: the preview says the score only where the rule set's
    ``[display] tentative_score`` shows it; a rule set that swaps the whole rack only says so."""
    preview = ("You first see the words and the score" if rules.display.tentative_score else
               f"You first see the words (the score once played: {rules.name} shows none before)")
    return _HELP.format(preview=preview, swap=_SWAP_ALL if rules.swap.whole_rack else _SWAP_SOME)


#: the help of rule sets that preview the score and swap any tiles
HELP = _HELP.format(preview="You first see the words and the score", swap=_SWAP_SOME)

_SHORT_HELP = """\
Moves: 8H WORD across from row 8, column H; H8 WORD down; 8H WO(R)D: the R is already on the board; \
8H WOrD: a blank as R. {preview}; Enter plays the move, n cancels.
Commands: {swap}, pass, hint, moves [N], challenge, undo, unseen, shuffle, board, save [FILE], resign, quit. \
`help COMMAND` says what one does (help swap, help undo, help moves ...)."""


def short_help(rules) -> list[str]:
    """``help`` in a game of ``rules``: the move forms and the commands' names, a few lines
    that fit a 24-line terminal with the screen's prompt (:func:`command_help` says more)."""
    preview = ("You first see the words and the score" if rules.display.tentative_score else
               f"You first see the words (the score once played: {rules.name} shows none before)")
    swap = "swap (the whole rack)" if rules.swap.whole_rack else "swap AEI (or swap: the whole rack)"
    return _SHORT_HELP.format(preview=preview, swap=swap).split("\n")


def command_help(rules, command: str) -> list[str] | None:
    """``help COMMAND``: the lines of :func:`help_text` about ``command`` (``move`` or
    ``play``: the move forms); None for a name that is no command."""
    lines = help_text(rules).split("\n")
    name = command.lower()
    if name in ("move", "play", "word"):
        return lines[lines.index("Moves") + 1:lines.index("Commands")]
    found = [k for k, line in enumerate(lines) if line.startswith("  ") and line.split()[0] == name]
    out: list[str] = []
    for k in found:
        out.append(lines[k])
        while k + 1 < len(lines) and lines[k + 1].startswith("    "):  # a continuation
            k += 1
            out.append(lines[k])
    return out or None

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

def shown_names(game) -> list[str]:
    """The players' names as the screen shows them: a name read from a record is
    :func:`~wordsalvo.printable.printable` (an escape sequence in it is shown, never obeyed)."""
    return [printable(n) for n in game.names]

#: home, erase the screen and the terminal's scrollback (3J): scrolling up after a hand-over
#: must not show the previous player's rack or the tiles of a swap
_CLEAR = "\x1b[H\x1b[2J\x1b[3J"
_HINT_NOTE = re.compile(r"^hint for (\S+) ")


class _Quit(Exception):
    """The player left (``quit`` or the end of the input)."""


class _Hangup(Exception):
    """The terminal was closed (SIGHUP) or the process was asked to stop (SIGTERM)."""


class _TimeUp(Exception):
    """The time per move ran out while the player on turn was deciding."""


def _clock(seconds: int) -> str:
    """``1:52``, ``1:00:00`` (hours), ``24:00:00``."""
    minutes, sec = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{sec:02d}" if hours else f"{minutes}:{sec:02d}"


def engine_seed(game_seed: int, turn: int, seat: int) -> int:
    """The seed an engine seat's choices use on the turn after ``turn`` history entries:
    the same game replays the same choices, after a resume and after an undo too."""
    return (game_seed * 1024 + turn) * 8 + seat


class TerminalGame:
    """The terminal front end of one :class:`Game`.

    ``humans[i]``: seat ``i`` is typed in; the others are played by a
    :class:`~wordsalvo.engine.bot.Bot` of ``levels[i]`` (default: ``level``).
    ``input_fn(prompt)`` returns one line (EOFError ends the session like
    ``quit``); everything else goes to ``output``.  ``hints``: hints per person
    per game (None: unlimited).  ``save_path``: the file the game is saved to
    (default: a new file in :func:`~wordsalvo.tui.saved_games.default_save_dir`).  ``width`` and ``redraw``
    default to what the output is: a terminal's width and redrawing in place, or
    80 columns appended.  ``dated``: the record's ``#date`` and ``#time`` pragmas
    (default: when this front end starts; a resumed game keeps its own).
    """

    def __init__(self, game: Game, humans: Sequence[bool], level: str = "medium", *, colour: bool = False,
                 input_fn: Callable[[str], str] = input, output: TextIO | None = None, seed: int = 0,
                 levels: Sequence[str | None] | None = None, hints: int | None = DEFAULT_HINTS,
                 save_path: Path | None = None, width: int | None = None, redraw: bool | None = None,
                 move_time: int | None = None, clock: Callable[[], float] = time.monotonic,
                 dated: Sequence[tuple[str, str]] | None = None, rules_file: str | None = None):
        if len(humans) != len(shown_names(game)):
            raise WordSalvoError(f"expected one human/engine flag per player ({len(shown_names(game))}), got {len(humans)}")
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
        #: the rule set file the game is played under (recorded with its SHA-256), None for a preset
        self.rules_file = rules_file
        #: seconds per move of a person (None: no clock), checked against the rule set's [timer]
        self.move_time = game.rules.check_move_time(move_time) if move_time is not None else None
        self.clock = clock
        #: when the time of the person on turn runs out (``clock`` time), None outside a timed turn
        self._deadline: float | None = None
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
    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Write lines; a plain line wider than the screen is wrapped at its spaces (not with
        ``wrap=False``: a command to copy stays one line, the terminal folds it)."""
        width = self.width - 1
        lines = [ln if not wrap or "\x1b" in ln or len(ln) <= width else
                 "\n".join(wrap_lines([ln], width, cut=False)) for ln in text.split("\n")]
        try:
            self.output.write("\n".join(lines) + "\n")
            self.output.flush()
        except (OSError, ValueError):  # the terminal is gone (closed window): the game is still saved
            pass

    def say_command(self, intro: str, *words: object) -> None:
        """``intro`` and then a command on a line of its own, never split (to copy and paste;
        each word quoted for the shell as needed)."""
        self.say(intro)
        self.say("  " + " ".join(shlex.quote(str(w)) for w in words), wrap=False)

    def notify(self, text: str) -> None:
        """A message that must survive the next redraw: kept for the next screen when
        redrawing, written at once otherwise."""
        if self.redraw:
            self.news.append(text)
        else:
            self.say(text)

    def ask(self, prompt: str) -> str:
        """One line of input.  In a timed turn the time left counts down meanwhile, and an
        answer that comes too late (or none) raises _TimeUp."""
        width = self.width - 1
        if len(prompt) > width:  # a long question on lines of its own, the answer after the last
            prompt = "\n".join(wrap_lines([prompt.rstrip()], width, cut=False)) + " "
        if self._deadline is not None and self.clock() >= self._deadline:
            raise _TimeUp
        try:
            with self._countdown():
                answer = self.input_fn(prompt)
        except EOFError:
            self.say()
            raise _Quit from None
        if self._deadline is not None and self.clock() >= self._deadline:
            raise _TimeUp  # typed after the time ran out: the line does not count
        return answer

    @contextmanager
    def _countdown(self) -> Iterator[None]:
        """While waiting for a line in a timed turn: the time left beside the prompt every
        second (on a terminal), and _TimeUp when it runs out (SIGALRM interrupts the wait)."""
        if (self._deadline is None or not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):
            yield
            return

        def tick(signum, frame):
            left = self._deadline - self.clock()
            if left <= 0:
                raise _TimeUp
            self._show_time_left(left)

        left = self._deadline - self.clock()
        self._show_time_left(left)
        old = signal.signal(signal.SIGALRM, tick)
        # ticks when the whole seconds shown change, and once more at the deadline
        signal.setitimer(signal.ITIMER_REAL, max(0.001, left - int(left)) if left % 1 else 1.0, 1.0)
        answered = False
        try:
            yield
            answered = True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
            self._clear_time_left(line_above=answered)

    def _show_time_left(self, left: float) -> None:
        """``1:52 left`` at the end of the cursor's line, the cursor put back (DECSC/DECRC):
        what the player is typing stays as it is."""
        if not self.redraw:
            return
        seconds = math.ceil(left)
        text = f" {_clock(seconds)} left"
        if self.colour and seconds <= 10:
            text = f"\x1b[1;38;5;202m{text}\x1b[0m"  # vermillion: hurry
        column = max(1, self.width - len(f" {_clock(seconds)} left"))
        try:
            self.output.write(f"\x1b7\x1b[{column}G{text}\x1b8")
            self.output.flush()
        except (OSError, ValueError, RuntimeError):  # RuntimeError: a tick inside a write (reentrant)
            pass

    def _clear_time_left(self, line_above: bool) -> None:
        """Take the countdown off its line (the line above once Enter moved the cursor down):
        only the line being typed on shows a time."""
        if not self.redraw:
            return
        column = max(1, self.width - len(f" {_clock(self.move_time or 0)} left"))  # the widest time's start
        up = "\x1b[1A" if line_above else ""
        try:
            self.output.write(f"\x1b7{up}\x1b[{column}G\x1b[K\x1b8")
            self.output.flush()
        except (OSError, ValueError, RuntimeError):
            pass

    def _time_up(self) -> None:
        """The time of the person on turn ran out: the turn ends as the rule set says."""
        self.say()
        if self.input_fn is input:  # what was typed so far is not the next prompt's beginning
            try:
                import termios

                termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
            except (ImportError, OSError, ValueError, AttributeError):
                pass
        game = self.game
        player = game.to_move
        turn = self._make(game.timeout)
        name = shown_names(game)[player]
        said = f"Time is up ({_clock(self.move_time)} per move): {describe_turn(turn, shown_names(game))}"
        if player not in game.players_left:
            said += f" and {verb(name, 'leave')} the game" + (
                f" ({game.rules.timer.eliminate_after_timeouts} time-outs in a row)"
                if game.rules.timer.on_timeout != "lose" else "")
        self.notify(said + ".")

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

    def introduce(self, resumed: Path | None = None) -> None:
        """The first screen's messages: who plays whom (and the saved game resumed).  On a
        terminal the rule set and the seeds are in the panel and in `help`, so that the first
        screen fits 80 x 24 with the board's column letters; plain output says them here."""
        game = self.game
        if resumed is not None:
            self.notify(f"Resumed {resumed.name} after {len(game.history)} turns.")
        elif not self.redraw:
            for line in self.about():
                self.notify(line)
        people = [n for n, lv in zip(shown_names(game), self.levels) if lv is None]
        engines = [f"{n} ({lv})" for n, lv in zip(shown_names(game), self.levels) if lv is not None]
        if people:
            who = (f"{people[0]} against " + ", ".join(engines)) if len(people) == 1 else \
                "Pass-and-play: " + ", ".join(people) + (" and " + ", ".join(engines) if engines else "")
            self.notify(f"{who}. Type `help` for the commands.")

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
            self.say(describe_turn(turn, shown_names(self.game)))

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
        names = shown_names(self.game)
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
        answer = self.ask(f"{shown_names(game)[p]}: challenge {possessive(shown_names(game)[play.player])} last play "
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
        if self.move_time is not None:  # the clock runs from the moment the rack shows
            self._deadline = self.clock() + self.move_time
        try:
            while True:
                line = self.ask(f"{shown_names(self.game)[self.game.to_move]}> ")
                try:
                    if self.handle(line):
                        return
                except WordSalvoError as e:  # anything the game refuses: say why and ask again
                    self.say(f"not possible: {e}")
        except _TimeUp:
            self._deadline = None
            self._time_up()
        finally:
            self._deadline = None

    def handover(self, player: int, final: bool = False) -> bool:
        """The hand-over screen between two people: the rack stays hidden until ``player``
        presses Enter.  False when the game changed instead (an undo)."""
        if len(self.people()) < 2 or self._viewer == player:
            return True
        name = shown_names(self.game)[player]
        note = wrap_lines([f"Hand the device to {name}. The rack stays hidden until {name} presses Enter."],
                          self.width - 1)
        self.show_screen(rack=False, below=len(note) + 1)
        self.say("\n".join(note))
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
                if self.do_undo(player):
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
        name = shown_names(self.game)[player]
        return sum(1 for _i, text in self.game.notes if (m := _HINT_NOTE.match(text)) and m.group(1) == name)

    def hints_left(self, player: int) -> int | None:
        return None if self.hints is None else max(0, self.hints - self.hints_used(player))

    def _values(self) -> bool:
        """Whether the board shows tile values: always with colour (subscripts), in plain
        text when the wider squares leave room for the panel."""
        return self.colour or self.width - 1 >= board_width(values=True) + 2 + 24

    def _board_lines(self) -> list[str]:
        game = self.game
        return render_board(game.rules, game.board, self.last_squares, colour=self.colour,
                            values=self._values()).split("\n")

    @property
    def height(self) -> int | None:
        """Rows of the screen when it is a terminal (re-read on every screen), else None."""
        if not self._tty:
            return None
        try:
            return os.get_terminal_size(self.output.fileno()).lines or 24
        except (OSError, ValueError, AttributeError):
            return shutil.get_terminal_size((80, 24)).lines

    def about(self) -> list[str]:
        """The rule set and the seeds of this game, and how to play the same game again."""
        game = self.game
        rules = game.rules
        again = f"wordsalvo play --rules {rules.name} --game-seed {game.seed}"
        seeds = f"game seed {game.seed}"
        if rules.board_seed is not None:
            seeds = f"board seed {rules.board_seed}, " + seeds
            again += f" --seed {rules.board_seed}"
        return [f"{rules.name}: {printable(rules.description or rules.name)}",
                f"{seeds}; the same bag and board again: {again}"]

    def panel(self, width: int, height: int, me: int | None, reader: int | None = None) -> list[str]:
        """The side panel: rule set, scores, bag, hints (of ``me``), the last turns; ``width`` x
        ``height`` at most.  Only ``reader``'s own swaps say which tiles went back."""
        game = self.game
        names = [n if lv is None else f"{n} ({lv})" for n, lv in zip(shown_names(game), self.levels)]
        out = [i not in game.players_left for i in range(len(shown_names(game)))]
        head = [f"{game.rules.name}, turn {sum(t.kind not in ('settle', 'challenge-bonus') for t in game.history) + 1}"]
        scores = render_scores([n[:max(4, width - 8)] for n in names], game.scores,
                               None if game.is_over else game.to_move, out)
        info = [f"bag: {game.bag_count} tile{'s' * (game.bag_count != 1)}"]
        if me is not None and self.hints is not None and self.humans[me]:
            info.append(f"hints left: {self.hints_left(me)}")
        if self.move_time is not None:
            info.append(f"time per move: {_clock(self.move_time)}")
        if game.challenges:
            info.append("challenges: on")
        if game.strict:
            info.append("strict mode: on")
        lines = wrap_lines(head, width) + [""] + [s[:width] for s in scores] + [""] + wrap_lines(info, width)
        recent = [t for t in game.history if t.kind != "settle"][-8:]
        if not game.history:  # the first screen: the game's seeds and its rule set, as far as they fit
            seeds = [f"game seed {game.seed}"]
            if game.rules.board_seed is not None:
                seeds.append(f"board seed {game.rules.board_seed}")
            about = seeds + [""] + wrap_lines([printable(game.rules.description or "")], width, indent="")
            room = height - len(lines) - 1
            if room > 0:
                lines += [""] + about[:room]
        if recent:
            turns = wrap_lines([describe_turn(t, shown_names(game), show_swapped=t.player == reader, short=True)
                                for t in recent], width)
            room = height - len(lines) - 2
            if room > 0:
                lines += ["", "last turns:"] + turns[-room:]
        return lines[:height]

    def reader(self, rack: bool) -> int | None:
        """Who reads the screen: the player on turn once the rack shows; on a screen without
        a rack (the hand-over, the end) the one person at the table, and with several people
        nobody in particular: the one who just moved may still be looking."""
        if rack:
            return self.game.to_move
        people = self.people()
        return people[0] if len(people) == 1 else None

    def show_screen(self, rack: bool = True, below: int = 1) -> None:
        """The board, the panel, the legend, the news and (``rack``) the rack of the player on
        turn.  On a terminal everything fits its rows with ``below`` lines left for what
        follows (the prompt): the board's column letters never scroll away; news that do
        not fit are dropped from the oldest (the panel lists the last turns)."""
        game = self.game
        me = game.to_move
        reader = self.reader(rack)
        values = self._values()
        board = self._board_lines()
        bw = max(visible_width(line) for line in board)
        pw = self.width - 1 - bw - 2
        if self.redraw:
            try:
                self.output.write(_CLEAR)
            except (OSError, ValueError):
                pass
        else:
            self.say()
        if pw >= 16:
            lines = side_by_side(board, self.panel(pw, len(board), me, reader), width=bw, gap=2)
        else:  # too narrow for a panel beside the board: below it
            lines = board + self.panel(max(20, self.width - 1), 8, me, reader)
        legend = render_legend(game.rules, colour=self.colour, values=values, width=self.width - 1).split("\n")
        tail = []
        if rack and game.can_challenge and game.challenger == me:
            last = game.open_play
            tail += wrap_lines([f"You may `challenge` {possessive(shown_names(game)[last.player])} {last.notation} "
                                f"before you move."], self.width - 1)
        if rack:
            name = shown_names(game)[me]
            label = "Your rack" if name == "You" else f"{possessive(name)} rack"
            tail.append(f"{label}: {render_rack(game.rules, self.rack_view(), colour=self.colour)}")
        news = [line for text in self.news for line in wrap_lines([text], self.width - 1)]
        self.news.clear()
        rows = self.height
        if rows is not None:
            room = max(0, rows - len(lines) - len(legend) - len(tail) - below)
            news = news[len(news) - room:] if room else []
        for line in lines + legend + news + tail:
            self.say(line)

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
                  "board": self.show_screen, "unseen": self.do_unseen,
                  "resign": self.do_resign, "quit": self.do_quit, "exit": self.do_quit,
                  "undo": lambda: self.do_undo(self.game.to_move),
                  "challenge": self.do_challenge}
        if command in simple:
            if rest:
                self.say(f"`{command}` takes nothing after it, got {rest!r}")
                return False
            return bool(simple[command]())
        if command in ("help", "?"):
            return self.do_help(rest)
        if command == "swap":
            return self.do_swap(rest)
        if command == "moves":
            return self.do_moves(rest)
        if command == "save":
            self.do_save(rest)
            return False
        return self.do_move(text)

    def _confirm(self, what: str) -> bool | None:
        """Ask before a turn is made: None to go ahead (Enter); else what the turn became
        (False: cancelled; another move or command typed instead: its result)."""
        answer = self.ask(f"Enter = {what}, n = cancel, or type another move or command: ").strip()
        if answer.lower() in ("n", "no", "c", "cancel"):
            self.say("Cancelled.")
            return False
        if answer:  # a corrected move (or a command) instead of this one
            return self.handle(answer)
        return None

    def _in_capitals(self, text: str) -> str | None:
        """``8h word`` as ``8H WORD`` when every letter of the word is lowercase (all blanks:
        more likely caps lock was off than a rack of blanks), else None."""
        parts = text.split(None, 1)
        if len(parts) != 2:
            return None
        square, word = parts
        lower = set(self.game.rules.alphabet.lowercase)
        letters = [ch for ch in word if ch.isalpha()]
        if len(letters) < 2 or not all(ch in lower for ch in letters):
            return None
        rack_letter = self.game.rules.alphabet.rack_letter
        return f"{square.upper()} {''.join(rack_letter(ch) or ch for ch in word)}"

    def _preview(self, text: str):
        """Show what ``text`` would do; (the preview, or None when it is not a move; legal)."""
        game = self.game
        try:
            result = game.preview(text)
        except NotationError as e:
            self.say(f"cannot read {text!r} as a move: {e}")
            self.say("A move is a square and a word: 8H WORD (across) or H8 WORD (down); `help` shows more.")
            return None, False
        for line in render_preview(result, show_score=game.rules.display.tentative_score, strict=game.strict,
                                   challenges=game.challenges):
            self.say(line)
        hidden = {IllegalMoveReason.INVALID_WORDS} if game.strict or game.challenges else set()
        return result, not set(result.reasons) - hidden

    def do_move(self, text: str) -> bool:
        capitals = self._in_capitals(text)
        if capitals is not None:
            return self._lowercase_move(text, capitals)
        result, legal = self._preview(text)
        if not legal:
            word = text.split(None, 1)[1] if len(text.split(None, 1)) == 2 else ""
            if (result is not None and IllegalMoveReason.TILE_NOT_ON_RACK in result.reasons
                    and any(ch.islower() for ch in word)):
                self.say("(lowercase letters are blanks; type the word in capitals for ordinary tiles)")
            return False
        return self._play(text, "play it")

    def _lowercase_move(self, text: str, capitals: str) -> bool:
        """A word typed all in lowercase: say that lowercase letters are blanks and offer
        the reading in capitals (and the blanks as typed, when that is a legal move too)."""
        game = self.game
        try:
            as_typed = game.preview(text)
        except NotationError:
            as_typed = None
        hidden = {IllegalMoveReason.INVALID_WORDS} if game.strict or game.challenges else set()
        typed_legal = as_typed is not None and not set(as_typed.reasons) - hidden
        self.say(f"note: lowercase letters are blanks, so {text!r} asks for a blank for every letter; "
                 f"in capitals: {capitals}")
        _result, legal = self._preview(capitals)
        if not legal:
            if typed_legal:
                self.say(f"{capitals} is not possible; as typed, with blanks:")
                self._preview(text)
                return self._play(text, f"play {text} with blanks")
            return False
        if not typed_legal:
            return self._play(capitals, f"play {capitals}")
        answer = self.ask(f"Enter = play {capitals}, b = play {text} with blanks, n = cancel, "
                          f"or type another move or command: ").strip()
        if answer.lower() in ("n", "no", "c", "cancel"):
            self.say("Cancelled.")
            return False
        if answer.lower() == "b":
            return self._make_play(text)
        if answer:
            return self.handle(answer)
        return self._make_play(capitals)

    def _play(self, text: str, what: str) -> bool:
        """Confirm, then play ``text`` (or what was typed instead)."""
        answer = self._confirm(what)
        if answer is not None:
            return answer
        return self._make_play(text)

    def _make_play(self, text: str) -> bool:
        game = self.game
        turn = self._make(lambda: game.play(text))
        self.notify(describe_turn(turn, shown_names(game)))
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
        if tiles is None:  # the whole rack: asked first, as a move is
            rack = self.game.check_swap(None)
            self.say(f"swap: all {len(rack)} tiles ({self.rack_view()}) go back into the bag, "
                     f"{len(rack)} new ones come out")
            answer = self._confirm("swap")
            if answer is not None:
                return answer
        turn = self._make(lambda: self.game.swap(tiles))
        self.say(f"{describe_turn(turn, shown_names(self.game))}; new rack: "
                 f"{render_rack(self.game.rules, self.game.racks[turn.player], colour=self.colour)}")
        if len(self.people()) > 1:
            self.notify(describe_turn(turn, shown_names(self.game), show_swapped=False))
        return True

    def do_pass(self) -> bool:
        self.notify(describe_turn(self._make(self.game.pass_turn), shown_names(self.game)))
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
        self.game.add_note(f"hint for {shown_names(self.game)[p]} ({count}): {text}")
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
    def do_undo(self, requester: int | None = None) -> bool:
        """Take back the last turn a person made and every engine turn after it; between
        people, every person but ``requester`` (who typed ``undo``: the player on turn, or
        the one a hand-over screen waits for) must agree.  True when the game changed."""
        game = self.game
        people = self.people()
        last = max((game.last_turn_of(p) for p in people), default=-1)
        if last < 0 or not game.undo_steps:
            self.say("Nothing to take back: no person has moved yet.")
            return False
        owner = game.history[last].player
        taken = [t for t in game.history[last:] if t.kind not in ("settle", "challenge-bonus")]
        # every person at the table reads the question: a swap says how many tiles, not which
        mine = len(people) == 1
        what = "; ".join(describe_turn(t, shown_names(game), show_swapped=mine and t.player == owner, short=True)
                         for t in taken)
        asker = owner if requester is None else requester
        for p in people:
            if p == asker:
                continue
            if not self._yes(f"{shown_names(game)[p]}: {shown_names(game)[asker]} {verb(shown_names(game)[asker], 'ask')} "
                             f"to take back {what}. Do you agree?"):
                self.say(f"{shown_names(game)[p]} does not agree: nothing is taken back.")
                return False
        game.undo(owner)
        game.add_note(f"takeback: {shown_names(game)[owner]} took back {what}")
        self.last_squares = self._last_play_squares()
        self.notify(f"Taken back: {what}. {shown_names(game)[owner]} {verb(shown_names(game)[owner], 'be')} on turn again.")
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

    def do_help(self, command: str = "") -> bool:
        """``help``: a few lines that fit the screen; ``help COMMAND``: that command's lines."""
        rules = self.game.rules
        if command:
            lines = command_help(rules, command.split()[0])
            if lines is None:
                lines = [f"No command {printable(command.split()[0])!r}. The commands: swap, pass, hint, moves, "
                         "challenge, undo, unseen, shuffle, board, save, help, resign, quit; help move: the moves."]
            self.say("\n".join(wrap_lines(lines, self.width - 1)))
            return False
        clock = []
        if self.move_time is not None:
            clock = [f"The clock: {_clock(self.move_time)} per move, from the moment you see your rack; the time "
                     f"left shows at the end of the prompt's line. Running out "
                     + ("loses the game." if rules.timer.on_timeout == "lose" else "ends your turn.")]
        self.say("\n".join(wrap_lines(self.about() + short_help(rules) + clock, self.width - 1)))
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
        """The game as GCG, with when it started and this front end's seats, hint limit and
        clock as pragmas."""
        return game_record(self.game, self.levels, self.hints, self.move_time, self.dated, self.rules_file)

    def default_path(self) -> Path:
        return new_save_path(self.game.rules.name)

    def _write(self, path: Path, *, create: bool) -> str | None:
        """Write the record to ``path``; None when written, else why not.  A missing
        folder is made only with ``create``."""
        return write_record(path, self.record(), create=create)

    def do_save(self, name: str) -> Path | None:
        """``save [FILE]``: write the game now; later saves go to the same file."""
        if name:
            path = typed_path(name)
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
        self.say_command(f"Saved to {path}" + (f" (made the folder {path.parent})" if made else "") +
                         "; resume it with:", "wordsalvo", "play", "--resume", path)
        return path

    def autosave(self) -> tuple[Path | None, str]:
        """Save without asking (leaving the game): the game's file, else the default folder,
        else the temporary folder.  (path or None, a note on the folder made)."""
        candidates = [p for p in (self.save_path, self.default_path()) if p is not None]
        candidates.append(fallback_save_path(self.game.rules.name))
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
                 f"(scores {', '.join(f'{n} {s}' for n, s in zip(shown_names(game), game.scores))}).")
        if path is not None:
            self.say(f"Saved to {path}{made}")
            self.say_command("Resume it with:", "wordsalvo", "play", "--resume", path)
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
            for line in self._board_lines():
                self.say(line)
            self.say()
        if any(self.humans) and not self.redraw:
            for t in self.recent_turns(since_human=True):
                self.say(describe_turn(t, shown_names(game), show_swapped=t.player == self.reader(rack=False)))
        finisher = next((shown_names(game)[t.player] for t in reversed(game.history) if t.kind == "play"), "")
        resigner = next((shown_names(game)[t.player] for t in reversed(game.history) if t.kind == "resign"), "")
        reason = _END_REASONS.get(game.end_reason or "", game.end_reason or "")
        self.say(f"Game over: {reason.format(finisher=finisher, resigner=resigner)}.")
        for t in game.history:
            if t.kind == "settle":
                self.say("  " + describe_turn(t, shown_names(game)))
        self.say("Final scores:")
        for line in render_scores(shown_names(game), game.scores):
            self.say(line)
        winners = game.winners
        if len(winners) == 1:
            w = winners[0]
            others = [s for i, s in enumerate(game.scores) if i != w]
            margin = game.scores[w] - max(others) if others else 0
            by = f" by {margin}" if margin > 0 else ""
            self.say(f"{shown_names(game)[w]} win{'' if shown_names(game)[w] == 'You' else 's'}{by}!")
        else:
            self.say("A draw between " + " and ".join(shown_names(game)[i] for i in winners) + ".")
        if self.save_path is not None:
            problem = self._write(self.save_path, create=False)
            if problem is None:
                self.say_command(f"The finished game is saved in {self.save_path}; this replays it with the "
                                 f"engine's judgement:", "wordsalvo", "analyze", self.save_path)
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
            path = typed_path(name)
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


"""The terminal session of one game: the turns in order, the hand-over between people,
the signals, leaving and the end of the game.

This is only the front end: every rule (legality, scores, swaps, challenges,
undo, the end of the game and its settlement) is :class:`wordsalvo.Game`'s; the
seats, the engines' turns and their seeds, the command vocabulary and the undo of a
person's turn are the table's (:mod:`wordsalvo.table`, shared with the browser page);
the engine's move choice per level is :class:`wordsalvo.engine.bot.Bot`'s (the same
engines as ``wordsalvo autoplay``).  The parts of the terminal front end:
:mod:`~wordsalvo.tui.screen` (the lines, the game's screen),
:mod:`~wordsalvo.tui.clock` (the time per move), :mod:`~wordsalvo.tui.commands`
(what a typed line does, the help, hints), :mod:`~wordsalvo.tui.saving` (``save``,
the save on leaving) and :mod:`~wordsalvo.tui.saved_games` (the files).  :class:`TerminalGame` reads lines
with an injectable ``input_fn`` and writes to an injectable ``output`` stream, so a
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

import signal
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence, TextIO

from ..errors import WordSalvoError
from ..formats.gcg import date_pragmas
from ..game import Game
from ..render.terminal import describe_turn, placed_squares, possessive, render_scores, verb, wrap_lines
from ..table import Command, Table, engine_seed
from .clock import MoveClock, TimeUp, clock_text
from .commands import DEFAULT_HINTS, HELP, Commands, Quit, command_help, help_text, short_help
from .saving import Saving
from .screen import Screen, shown_names

__all__ = ["TerminalGame", "HELP", "help_text", "short_help", "command_help", "DEFAULT_HINTS", "engine_seed"]

_END_REASONS = {
    "out": "{finisher} went out",
    "passes": "every player passed in a row",
    "scoreless": "too many scoreless turns in a row",
    "resign": "{resigner} resigned",
    "timeout": "a player ran out of time",
    "elimination": "time-outs eliminated the other players",
}


class _Hangup(Exception):
    """The terminal was closed (SIGHUP) or the process was asked to stop (SIGTERM)."""


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
        #: the seats, the engines' turns and the undo of a person's turn
        self.table = Table(game, self.levels)
        self.input_fn = input_fn
        self.screen = Screen(output if output is not None else sys.stdout, colour=colour, width=width, redraw=redraw)
        self.dated = list(dated) if dated else date_pragmas()
        #: the rule set file the game is played under (recorded with its SHA-256), None for a preset
        self.rules_file = rules_file
        #: seconds per move of a person (None: no clock), checked against the rule set's [timer]
        self.move_time = game.rules.check_move_time(move_time) if move_time is not None else None
        self.clock = MoveClock(self.move_time, clock, self.screen.show_time_left,
                               lambda above: self.screen.clear_time_left(above, self.move_time or 0))
        self.commands = Commands(self, hints=hints, seed=seed)
        self.saving = Saving(self, save_path)
        #: the rack of the player on turn in the order shown (``shuffle`` changes the order only)
        self.shown_rack = ""
        #: the person whose rack the screen showed last (the hand-over screen hides it from the next)
        self.viewer: int | None = None
        #: squares of the last placement, highlighted on the board
        self.last_squares: frozenset[tuple[int, int]] = self.last_play_squares()

    @property
    def hints(self) -> int | None:
        return self.commands.hints

    @property
    def save_path(self) -> Path | None:
        return self.saving.save_path

    def say(self, text: str = "", **kw) -> None:
        self.screen.say(text, **kw)

    def notify(self, text: str) -> None:
        self.screen.notify(text)

    # -- questions ----------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """One line of input.  In a timed turn the time left counts down meanwhile, and an
        answer that comes too late (or none) raises TimeUp."""
        prompt = self.screen.prompt(prompt)
        self.clock.check()
        try:
            with self.clock.countdown():
                answer = self.input_fn(prompt)
        except EOFError:
            self.say()
            raise Quit from None
        self.clock.check()  # typed after the time ran out: the line does not count
        return answer

    def yes(self, question: str) -> bool:
        return self.ask(f"{question} (y = yes): ").strip().lower() in ("y", "yes")

    # -- who is where -------------------------------------------------------------------
    def people(self) -> list[int]:
        return self.table.people()

    def reader(self, rack: bool) -> int | None:
        """Who reads the screen: the player on turn once the rack shows; on a screen without
        a rack (the hand-over, the end) the one person at the table, and with several people
        nobody in particular: the one who just moved may still be looking."""
        if rack:
            return self.game.to_move
        people = self.people()
        return people[0] if len(people) == 1 else None

    def rack_view(self) -> str:
        """The rack of the player on turn in the order shown (``shuffle`` changes the order only)."""
        rack = self.game.rack
        if Counter(self.shown_rack) != Counter(rack):
            self.shown_rack = rack
        return self.shown_rack

    def recent_turns(self, since_human: bool = False) -> list:
        """The turns from the last human turn on (after it with ``since_human``); settlements left out."""
        turns = [t for t in self.game.history if t.kind != "settle"]
        last = max((i for i, t in enumerate(turns) if self.humans[t.player]), default=-1)
        return turns[last + 1:] if since_human or last < 0 else turns[last:]

    def show_screen(self, rack: bool = True, below: int = 1) -> None:
        self.screen.show(self, rack=rack, below=below)

    def introduce(self, resumed: Path | None = None) -> None:
        """The first screen's messages: who plays whom (and the saved game resumed).  On a
        terminal the rule set and the seeds are in the panel and in `help`, so that the first
        screen fits 80 x 24 with the board's column letters; plain output says them here."""
        game = self.game
        if resumed is not None:
            self.notify(f"Resumed {resumed.name} after {len(game.history)} turns.")
        elif not self.screen.redraw:
            for line in self.screen.about(game):
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
                    challenged = self.table.engine_challenge()
                    if challenged is not None:
                        self.report_challenge(challenged)
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
        except (Quit, _Hangup, KeyboardInterrupt) as e:
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

    def engine_turn(self) -> None:
        _action, turn = self.table.engine_turn()
        self._placed(turn)
        if not any(self.humans):  # autoplay: narrate every turn
            self.say(describe_turn(turn, shown_names(self.game)))

    def make(self, command: Command):
        """A turn command of the player on turn, made by the table; the turn."""
        return self._placed(self.table.act(command))

    def _placed(self, turn):
        if getattr(turn, "kind", "") == "play":
            self.last_squares = placed_squares(turn.notation)
        return turn

    def last_play_squares(self) -> frozenset[tuple[int, int]]:
        last = next((t for t in reversed(self.game.history) if t.kind == "play"), None)
        return placed_squares(last.notation) if last is not None else frozenset()

    def report_challenge(self, result) -> None:
        names = shown_names(self.game)
        who = names[result.challenger]
        play = result.play
        said = f"{who} {verb(who, 'challenge')} {possessive(names[play.player])} {play.notation}: "
        if result.phony:
            self.last_squares = self.last_play_squares()
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
            self.report_challenge(self.table.act(Command("challenge")))

    def human_turn(self) -> None:
        p = self.game.to_move
        if len(self.people()) > 1 and self.viewer != p:
            if not self.handover(p):
                return
        self.viewer = p
        self.show_screen()
        self.clock.start()  # the clock runs from the moment the rack shows
        try:
            while True:
                line = self.ask(f"{shown_names(self.game)[self.game.to_move]}> ")
                try:
                    if self.commands.handle(line):
                        return
                except WordSalvoError as e:  # anything the game refuses: say why and ask again
                    self.say(f"not possible: {e}")
        except TimeUp:
            self.clock.stop()
            self._time_up()
        finally:
            self.clock.stop()

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
        turn = self._placed(game.timeout())
        name = shown_names(game)[player]
        said = f"Time is up ({clock_text(self.move_time)} per move): {describe_turn(turn, shown_names(game))}"
        if player not in game.players_left:
            said += f" and {verb(name, 'leave')} the game" + (
                f" ({game.rules.timer.eliminate_after_timeouts} time-outs in a row)"
                if game.rules.timer.on_timeout != "lose" else "")
        self.notify(said + ".")

    def handover(self, player: int, final: bool = False) -> bool:
        """The hand-over screen between two people: the rack stays hidden until ``player``
        presses Enter.  False when the game changed instead (an undo)."""
        if len(self.people()) < 2 or self.viewer == player:
            return True
        name = shown_names(self.game)[player]
        note = wrap_lines([f"Hand the device to {name}. The rack stays hidden until {name} presses Enter."],
                          self.screen.width - 1)
        self.show_screen(rack=False, below=len(note) + 1)
        self.say("\n".join(note))
        while True:
            answer = self.ask(f"{name}: press Enter to see your rack (or undo, save, quit): ").strip()
            word, _, rest = answer.partition(" ")
            command = word.lower()
            if not answer:
                self.viewer = player
                return True
            if command in ("quit", "exit"):
                raise Quit
            if command == "save":
                self.saving.do_save(rest.strip())
            elif command == "undo" and not final:
                if self.commands.do_undo(player):
                    return False
            else:
                self.say(f"Press Enter when {name} has the device, or type undo, save or quit.")

    # -- leaving and the end ------------------------------------------------------------
    def record(self) -> str:
        """The game as GCG, with when it started and this front end's seats, hint limit and
        clock as pragmas."""
        return self.saving.record()

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
            path, made = self.saving.autosave()
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        how = {"_Hangup": "The terminal was closed", "KeyboardInterrupt": "Interrupted"}.get(type(why).__name__)
        self.say()
        self.say((f"{how}. " if how else "") + f"Game left unfinished after {len(game.history)} turns "
                 f"(scores {', '.join(f'{n} {s}' for n, s in zip(shown_names(game), game.scores))}).")
        if path is not None:
            self.say(f"Saved to {path}{made}")
            self.screen.say_command("Resume it with:", "wordsalvo", "play", "--resume", path)
        else:  # pragma: no cover - every folder refused
            self.say("The game could not be saved anywhere; its record follows:")
            self.say(self.record())

    def end_of_game(self) -> None:
        game = self.game
        if self.screen.redraw:
            self.show_screen(rack=False)
        else:
            self.say()
            for line in self.screen.board_lines(game, self.last_squares):
                self.say(line)
            self.say()
        if any(self.humans) and not self.screen.redraw:
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
        save_path = self.saving.save_path
        if save_path is not None:
            problem = self.saving.write(save_path, create=False)
            if problem is None:
                self.screen.say_command(f"The finished game is saved in {save_path}; this replays it with the "
                                        f"engine's judgement:", "wordsalvo", "analyze", save_path)
                return
            self.say(f"Not saved: {problem}.")
        self.saving.offer_save()

"""The terminal game's screen: lines written to the output, the game's screen (board,
side panel, legend, news, rack) and the clock's time left beside the prompt.

On a terminal the screen is redrawn in place and fits its rows and columns (80 x 24
at least): the side panel shrinks to what is left beside the board, news that do not
fit are dropped from the oldest; on other output it is plain lines, 80 columns.  A
closed terminal is never an error here: the game is still saved.  The drawing itself
is :mod:`wordsalvo.render.terminal`'s.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
from typing import TextIO

from ..printable import printable
from ..render.terminal import (
    board_width,
    describe_turn,
    possessive,
    render_board,
    render_legend,
    render_rack,
    render_scores,
    side_by_side,
    visible_width,
    wrap_lines,
)
from .clock import clock_text

__all__ = ["Screen", "shown_names"]

#: home, erase the screen and the terminal's scrollback (3J): scrolling up after a hand-over
#: must not show the previous player's rack or the tiles of a swap
_CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def shown_names(game) -> list[str]:
    """The players' names as the screen shows them: a name read from a record is
    :func:`~wordsalvo.printable.printable` (an escape sequence in it is shown, never obeyed)."""
    return [printable(n) for n in game.names]


class Screen:
    """Lines to ``output``: ``width`` columns (None: the terminal's, re-read on every
    screen, else 80), redrawn in place with ``redraw`` (None: when the output is a
    terminal), in colour with ``colour``."""

    def __init__(self, output: TextIO, *, colour: bool = False, width: int | None = None,
                 redraw: bool | None = None):
        self.output = output
        self.colour = colour
        tty = bool(getattr(output, "isatty", lambda: False)())
        self.redraw = tty if redraw is None else redraw
        self._fixed_width = width
        self._tty = tty
        #: messages for the next screen (redrawing clears the lines before it)
        self.news: list[str] = []

    # -- lines --------------------------------------------------------------------------
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

    @property
    def height(self) -> int | None:
        """Rows of the screen when it is a terminal (re-read on every screen), else None."""
        if not self._tty:
            return None
        try:
            return os.get_terminal_size(self.output.fileno()).lines or 24
        except (OSError, ValueError, AttributeError):
            return shutil.get_terminal_size((80, 24)).lines

    def write(self, text: str, *, reentrant: bool = False) -> None:
        """Raw text (escape sequences); nothing when the terminal is gone (or, with
        ``reentrant``, when a signal's tick came inside another write)."""
        errors = (OSError, ValueError, RuntimeError) if reentrant else (OSError, ValueError)
        try:
            self.output.write(text)
            self.output.flush()
        except errors:
            pass

    def say(self, text: str = "", *, wrap: bool = True) -> None:
        """Write lines; a plain line wider than the screen is wrapped at its spaces (not with
        ``wrap=False``: a command to copy stays one line, the terminal folds it)."""
        width = self.width - 1
        lines = [ln if not wrap or "\x1b" in ln or len(ln) <= width else
                 "\n".join(wrap_lines([ln], width, cut=False)) for ln in text.split("\n")]
        self.write("\n".join(lines) + "\n")  # a closed window: the game is still saved

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

    def prompt(self, prompt: str) -> str:
        """A question that fits: a long one on lines of its own, the answer after the last."""
        width = self.width - 1
        if len(prompt) > width:
            return "\n".join(wrap_lines([prompt.rstrip()], width, cut=False)) + " "
        return prompt

    # -- the clock beside the prompt ----------------------------------------------------
    def show_time_left(self, left: float) -> None:
        """``1:52 left`` at the end of the cursor's line, the cursor put back (DECSC/DECRC):
        what the player is typing stays as it is."""
        if not self.redraw:
            return
        seconds = math.ceil(left)
        text = f" {clock_text(seconds)} left"
        if self.colour and seconds <= 10:
            text = f"\x1b[1;38;5;202m{text}\x1b[0m"  # vermillion: hurry
        column = max(1, self.width - len(f" {clock_text(seconds)} left"))
        self.write(f"\x1b7\x1b[{column}G{text}\x1b8", reentrant=True)

    def clear_time_left(self, line_above: bool, move_time: int) -> None:
        """Take the countdown off its line (the line above once Enter moved the cursor down):
        only the line being typed on shows a time."""
        if not self.redraw:
            return
        column = max(1, self.width - len(f" {clock_text(move_time)} left"))  # the widest time's start
        up = "\x1b[1A" if line_above else ""
        self.write(f"\x1b7{up}\x1b[{column}G\x1b[K\x1b8", reentrant=True)

    # -- the game's screen --------------------------------------------------------------
    def values(self) -> bool:
        """Whether the board shows tile values: always with colour (subscripts), in plain
        text when the wider squares leave room for the panel."""
        return self.colour or self.width - 1 >= board_width(values=True) + 2 + 24

    def board_lines(self, game, last_squares) -> list[str]:
        return render_board(game.rules, game.board, last_squares, colour=self.colour,
                            values=self.values()).split("\n")

    @staticmethod
    def about(game) -> list[str]:
        """The rule set and the seeds of ``game``, and how to play the same game again."""
        rules = game.rules
        again = f"wordsalvo play --rules {rules.name} --game-seed {game.seed}"
        seeds = f"game seed {game.seed}"
        if rules.board_seed is not None:
            seeds = f"board seed {rules.board_seed}, " + seeds
            again += f" --seed {rules.board_seed}"
        return [f"{rules.name}: {printable(rules.description or rules.name)}",
                f"{seeds}; the same bag and board again: {again}"]

    def panel(self, session, width: int, height: int, me: int | None, reader: int | None = None) -> list[str]:
        """The side panel of ``session``'s game: rule set, scores, bag, hints (of ``me``),
        the last turns; ``width`` x ``height`` at most.  Only ``reader``'s own swaps say
        which tiles went back."""
        game = session.game
        levels = session.levels
        names = [n if lv is None else f"{n} ({lv})" for n, lv in zip(shown_names(game), levels)]
        out = [i not in game.players_left for i in range(len(shown_names(game)))]
        head = [f"{game.rules.name}, turn {sum(t.kind not in ('settle', 'challenge-bonus') for t in game.history) + 1}"]
        scores = render_scores([n[:max(4, width - 8)] for n in names], game.scores,
                               None if game.is_over else game.to_move, out)
        info = [f"bag: {game.bag_count} tile{'s' * (game.bag_count != 1)}"]
        if me is not None and session.hints is not None and levels[me] is None:
            info.append(f"hints left: {session.commands.hints_left(me)}")
        if session.move_time is not None:
            info.append(f"time per move: {clock_text(session.move_time)}")
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

    def show(self, session, rack: bool = True, below: int = 1) -> None:
        """The board, the panel, the legend, the news and (``rack``) the rack of the player on
        turn of ``session``'s game.  On a terminal everything fits its rows with ``below``
        lines left for what follows (the prompt): the board's column letters never scroll
        away; news that do not fit are dropped from the oldest (the panel lists the last turns)."""
        game = session.game
        me = game.to_move
        reader = session.reader(rack)
        values = self.values()
        board = self.board_lines(game, session.last_squares)
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
            lines = side_by_side(board, self.panel(session, pw, len(board), me, reader), width=bw, gap=2)
        else:  # too narrow for a panel beside the board: below it
            lines = board + self.panel(session, max(20, self.width - 1), 8, me, reader)
        legend = render_legend(game.rules, colour=self.colour, values=values, width=self.width - 1).split("\n")
        tail = []
        if rack and game.can_challenge and game.challenger == me:
            last = game.open_play
            tail += wrap_lines([f"You may `challenge` {possessive(shown_names(game)[last.player])} {last.notation} "
                                f"before you move."], self.width - 1)
        if rack:
            name = shown_names(game)[me]
            label = "Your rack" if name == "You" else f"{possessive(name)} rack"
            tail.append(f"{label}: {render_rack(game.rules, session.rack_view(), colour=self.colour)}")
        news = [line for text in self.news for line in wrap_lines([text], self.width - 1)]
        self.news.clear()
        rows = self.height
        if rows is not None:
            room = max(0, rows - len(lines) - len(legend) - len(tail) - below)
            news = news[len(news) - room:] if room else []
        for line in lines + legend + news + tail:
            self.say(line)

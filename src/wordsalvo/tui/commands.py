"""The terminal game's commands: what a typed line does, its help and the hints.

A line is read by the table's vocabulary (:func:`wordsalvo.table.parse_command`: a
move, ``swap AEI`` or ``-AEI``, ``pass``, ``hint``, ``moves [N]``, ``challenge``,
``undo``, ``unseen``, ``shuffle``, ``board``, ``save [FILE]``, ``help [COMMAND]``,
``resign``, ``quit``); the turns are made by the table (:class:`wordsalvo.table.Table`),
and this module does what the terminal adds: the preview and confirmation of a move,
the offer of a word typed all in lowercase in capitals, the agreement of the other
people to an undo and the hint limit (each hint a note in the record); ``save`` is
:mod:`~wordsalvo.tui.saving`'s.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from ..actions import Play, Swap
from ..errors import CommandError, IllegalMoveReason, NotationError
from ..printable import printable
from ..render.terminal import describe_turn, render_preview, render_rack, verb, wrap_lines
from ..table import Command, parse_command
from .clock import clock_text
from .screen import shown_names

__all__ = ["Commands", "Quit", "HELP", "help_text", "short_help", "command_help", "DEFAULT_HINTS"]

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

_SWAP_SOME = ("  swap AEI     put A, E and I back and draw new tiles (? = a blank; or -AEI)\n"
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
    swap = "swap (the whole rack)" if rules.swap.whole_rack else "swap AEI or -AEI (or swap: the whole rack)"
    return _SHORT_HELP.format(preview=preview, swap=swap).split("\n")


def command_help(rules, command: str) -> list[str] | None:
    """``help COMMAND``: the lines of :func:`help_text` about ``command`` (``move`` or
    ``play``: the move forms); None for a name that is no command."""
    lines = help_text(rules).split("\n")
    name = command.lower()
    if name.startswith("-"):  # -AEI: the exchange
        name = "swap"
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


#: hints per player per game when --hints is not given
DEFAULT_HINTS = 3

_HINT_NOTE = re.compile(r"^hint for (\S+) ")


class Quit(Exception):
    """The player left (``quit`` or the end of the input)."""


class Commands:
    """The commands of ``session`` (a :class:`~wordsalvo.tui.session.TerminalGame`): its
    table, screen and questions.  ``hints``: hints per person per game (None: unlimited);
    ``seed``: the order of ``shuffle``."""

    def __init__(self, session, *, hints: int | None, seed: int = 0):
        self.session = session
        self.hints = hints
        self._shuffle_rng = random.Random(f"wordsalvo-shuffle-{seed}")

    @property
    def game(self):
        return self.session.game

    def say(self, text: str = "", **kw) -> None:
        self.session.screen.say(text, **kw)

    def notify(self, text: str) -> None:
        self.session.screen.notify(text)

    # -- one line of input --------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; True when the turn was made (play, swap, pass, resign) or the
        game changed under it (undo, challenge)."""
        if not line.strip():
            self.say("Type a move (e.g. 8H WORD) or a command (help lists them).")
            return False
        try:
            command = parse_command(line, self.game.rules)
        except CommandError as e:
            self.say(str(e))
            return False
        name, argument = command.name, command.argument
        if name == "play":
            return self.do_move(argument)
        if name == "swap":
            return self.do_swap(argument)
        if name == "undo":
            return self.do_undo(self.game.to_move)
        if name == "help":
            return self.do_help(argument)
        if name == "moves":
            return self.do_moves(argument)
        if name == "save":
            self.session.saving.do_save(argument)
            return False
        if name == "board":
            self.session.show_screen()
            return False
        return bool(getattr(self, f"do_{name}")())

    def _confirm(self, what: str) -> bool | None:
        """Ask before a turn is made: None to go ahead (Enter); else what the turn became
        (False: cancelled; another move or command typed instead: its result)."""
        answer = self.session.ask(f"Enter = {what}, n = cancel, or type another move or command: ").strip()
        if answer.lower() in ("n", "no", "c", "cancel"):
            self.say("Cancelled.")
            return False
        if answer:  # a corrected move (or a command) instead of this one
            return self.handle(answer)
        return None

    # -- moves --------------------------------------------------------------------------
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
        answer = self.session.ask(f"Enter = play {capitals}, b = play {text} with blanks, n = cancel, "
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
        turn = self.session.make(Command("play", text))
        self.notify(describe_turn(turn, shown_names(self.game)))
        return True

    def do_swap(self, tiles: str | None) -> bool:
        """``swap AEI`` (or ``-AEI``); ``swap`` alone: the whole rack, asked first as a move is."""
        session = self.session
        if tiles is None:
            rack = self.game.check_swap(None)
            self.say(f"swap: all {len(rack)} tiles ({session.rack_view()}) go back into the bag, "
                     f"{len(rack)} new ones come out")
            answer = self._confirm("swap")
            if answer is not None:
                return answer
        turn = session.make(Command("swap", tiles))
        game = self.game
        self.say(f"{describe_turn(turn, shown_names(game))}; new rack: "
                 f"{render_rack(game.rules, game.racks[turn.player], colour=session.screen.colour)}")
        if len(session.people()) > 1:
            self.notify(describe_turn(turn, shown_names(game), show_swapped=False))
        return True

    def do_pass(self) -> bool:
        self.notify(describe_turn(self.session.make(Command("pass")), shown_names(self.game)))
        return True

    def do_resign(self) -> bool:
        if not self.session.yes("Resign the game?"):
            self.say("Not resigned; play on.")
            return False
        self.session.make(Command("resign"))
        return True

    def do_quit(self) -> bool:
        raise Quit

    # -- hints --------------------------------------------------------------------------
    def hints_used(self, player: int) -> int:
        name = shown_names(self.game)[player]
        return sum(1 for _i, text in self.game.notes if (m := _HINT_NOTE.match(text)) and m.group(1) == name)

    def hints_left(self, player: int) -> int | None:
        return None if self.hints is None else max(0, self.hints - self.hints_used(player))

    def _hint_allowed(self) -> bool:
        """Whether the player on turn has a hint left (says so when not)."""
        if self.hints_left(self.game.to_move) == 0:
            self.say(f"No hints left: {self.hints} per game (--hints), all used." if self.hints else
                     "This game is played without hints (--hints 0).")
            return False
        return True

    def _note_hint(self, text: str) -> str:
        p = self.game.to_move
        used = self.hints_used(p) + 1
        count = f"{used} of {self.hints}" if self.hints is not None else f"{used}"
        self.game.add_note(f"hint for {shown_names(self.game)[p]} ({count}): {text}")
        return count

    def do_hint(self) -> bool:
        if not self._hint_allowed():
            return False
        action = self.session.table.hint()
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
        if not self._hint_allowed():
            return False
        bot = self.session.table.hint_bot()
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
        session = self.session
        game = self.game
        plan = session.table.takeback()
        if plan is None:
            self.say("Nothing to take back: no person has moved yet.")
            return False
        people = session.people()
        owner = plan.owner
        names = shown_names(game)
        # every person at the table reads the question: a swap says how many tiles, not which
        mine = len(people) == 1
        what = "; ".join(describe_turn(t, names, show_swapped=mine and t.player == owner, short=True)
                         for t in plan.turns)
        asker = owner if requester is None else requester
        for p in people:
            if p == asker:
                continue
            if not session.yes(f"{names[p]}: {names[asker]} {verb(names[asker], 'ask')} "
                               f"to take back {what}. Do you agree?"):
                self.say(f"{names[p]} does not agree: nothing is taken back.")
                return False
        session.table.undo()
        game.add_note(f"takeback: {names[owner]} took back {what}")
        session.last_squares = session.last_play_squares()
        self.notify(f"Taken back: {what}. {names[owner]} {verb(names[owner], 'be')} on turn again.")
        session.viewer = None  # between people the device goes back to the owner: a hand-over first
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
        self.session.report_challenge(self.session.table.act(Command("challenge")))
        return True

    # -- the rack and the tiles ---------------------------------------------------------
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
        session = self.session
        tiles = list(session.rack_view())
        self._shuffle_rng.shuffle(tiles)
        session.shown_rack = "".join(tiles)
        self.say(f"Your rack: {render_rack(self.game.rules, session.shown_rack, colour=session.screen.colour)}")
        return False

    def do_help(self, command: str = "") -> bool:
        """``help``: a few lines that fit the screen; ``help COMMAND``: that command's lines."""
        rules = self.game.rules
        screen = self.session.screen
        if command:
            lines = command_help(rules, command.split()[0])
            if lines is None:
                lines = [f"No command {printable(command.split()[0])!r}. The commands: swap, pass, hint, moves, "
                         "challenge, undo, unseen, shuffle, board, save, help, resign, quit; help move: the moves."]
            self.say("\n".join(wrap_lines(lines, screen.width - 1)))
            return False
        clock = []
        move_time = self.session.move_time
        if move_time is not None:
            clock = [f"The clock: {clock_text(move_time)} per move, from the moment you see your rack; the time "
                     f"left shows at the end of the prompt's line. Running out "
                     + ("loses the game." if rules.timer.on_timeout == "lose" else "ends your turn.")]
        self.say("\n".join(wrap_lines(screen.about(self.game) + short_help(rules) + clock, screen.width - 1)))
        return False

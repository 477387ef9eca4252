"""One game at a table, for both of its front ends: the terminal (``wordsalvo play``,
:mod:`wordsalvo.tui`) and the browser page (``/play``, :mod:`wordsalvo.serve`).

What the two share is written here once:

* **the command vocabulary**: :func:`parse_command` reads a typed line as a
  :class:`Command`: a move (``8H WORD``), an exchange (``swap ABC`` or, as GCG writes
  it, ``-ABC``; ``swap`` alone: the whole rack), ``pass``, ``challenge``, ``undo``,
  ``resign``, ``hint``, and the terminal's own ``moves [N]``, ``unseen``, ``shuffle``,
  ``board``, ``save [FILE]``, ``help [COMMAND]``, ``quit``.  Each front end says which
  commands it offers (the page: :data:`PAGE_COMMANDS`); any other is refused with a
  :class:`~wordsalvo.errors.CommandError` that lists what is offered;
* **the seats and the engines' turns**: :class:`Table` knows which seat is a person and
  which an engine of a level; an engine's choice is seeded by :func:`engine_seed` (one
  rule: the game's seed, the number of turns played, the seat), so the same game
  replays the same engine choices, after a resume or an undo, in the terminal and on the
  page; the hint engine is seeded by the same rule; an engine challenges exactly the
  phonies (it knows every word);
* **the actions of a person** on the game (:meth:`Table.act`) and **the undo** of the
  last turn a person made with the engines' turns after it (:meth:`Table.takeback`).

Every rule is :class:`~wordsalvo.game.Game`'s and every engine choice
:class:`~wordsalvo.engine.bot.Bot`'s; the screens, the questions and the wording of the
answers are the front ends'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Sequence

from .actions import Action
from .engine.bot import Bot
from .errors import CommandError, GameError

__all__ = ["Command", "COMMANDS", "TURN_COMMANDS", "PAGE_COMMANDS", "parse_command", "swap_tiles", "engine_seed",
           "HINT_LEVEL", "Table", "Takeback"]

#: every command of the vocabulary (``play``: a move typed as its notation)
COMMANDS = ("play", "swap", "pass", "challenge", "undo", "resign", "hint", "moves", "unseen", "shuffle", "board",
            "save", "help", "quit")
#: the commands that make a turn or change the game: what any front end of a table offers
TURN_COMMANDS = frozenset({"play", "swap", "pass", "challenge", "undo", "resign"})
#: the page's commands (``/v1/game/turn``): the turns and ``hint``
PAGE_COMMANDS = TURN_COMMANDS | {"hint"}
#: other spellings of a command's name
_ALIASES = {"exchange": "swap", "exit": "quit", "?": "help"}
#: commands that take nothing after their name
_BARE = frozenset({"pass", "challenge", "undo", "resign", "hint", "unseen", "shuffle", "board", "quit"})
#: the level of the engine behind ``hint``
HINT_LEVEL = "expert"


@dataclass(frozen=True)
class Command:
    """A typed line read: ``name`` (one of :data:`COMMANDS`) and what came after it
    (``play``: the move's notation; ``swap``: the tiles as rack letters, None for the whole
    rack; ``moves``, ``save``, ``help``: the rest of the line, "" when nothing)."""

    name: str
    argument: str | None = None


def swap_tiles(text: str, rules) -> str:
    """Letters typed for an exchange as rack letters of ``rules`` (any case; ``?`` = a blank)."""
    mapping = rules.alphabet.mapping
    out = []
    for ch in text.replace(" ", ""):
        if ch == "?":
            out.append(ch)
            continue
        out.append(mapping.get(ch) or mapping.get(ch.upper()) or ch.upper())
    return "".join(out)


def _offered(offered: Collection[str]) -> str:
    names = [("a move (8H WORD)" if n == "play" else "swap ABC or -ABC" if n == "swap" else n)
             for n in COMMANDS if n in offered]
    return ", ".join(names)


def parse_command(line: str, rules, offered: Collection[str] = COMMANDS) -> Command:
    """The command of a typed line (a move when its first word is no command's name);
    :class:`~wordsalvo.errors.CommandError` for an empty line, a command with words after
    it that takes none, ``-`` alone, or a command not in ``offered``.  ``rules``: the
    game's rule set (the tiles of an exchange are read with its alphabet)."""
    text = line.strip()
    if not text:
        raise CommandError(f"expected a move (e.g. 8H WORD) or a command ({_offered(offered)}), got nothing")
    if text.startswith("-"):  # GCG's spelling of an exchange: -ABC
        tiles = text[1:].strip()
        if not tiles:
            raise CommandError("`-` alone: expected -ABC (put back A, B and C: an exchange) or `pass`, got `-`")
        command = Command("swap", swap_tiles(tiles, rules))
        typed = "-"
    else:
        word, *more = text.split(None, 1)
        typed = word.lower()
        name = _ALIASES.get(typed, typed)
        rest = more[0].strip() if more else ""
        if name not in COMMANDS or name == "play":  # "play" is the name of a move, not a word to type
            command = Command("play", text)
        elif name in _BARE:
            if rest:
                raise CommandError(f"`{typed}` takes nothing after it, got {rest!r}")
            command = Command(name)
        elif name == "swap":
            command = Command("swap", swap_tiles(rest, rules) if rest else None)
        else:
            command = Command(name, rest)
    if command.name not in offered:
        what = "a move" if command.name == "play" else f"`{typed}`"
        raise CommandError(f"expected {_offered(offered)} here, got {what}")
    return command


def engine_seed(game_seed: int, turn: int, seat: int) -> int:
    """The seed of an engine's choice for ``seat`` on the turn after ``turn`` history
    entries of the game of seed ``game_seed``: the same game replays the same choices,
    after a resume and after an undo too, whichever front end it is played in."""
    return (game_seed * 1024 + turn) * 8 + seat


@dataclass(frozen=True)
class Takeback:
    """What ``undo`` takes back: ``owner``'s last turn (a person's) and every turn after it
    (settlements and challenge bonuses left out)."""

    owner: int
    turns: tuple


class Table:
    """The seats of one :class:`~wordsalvo.game.Game` and what happens at the table.

    ``levels[i]``: None when seat ``i`` is a person's, else the engine level that plays
    it.  ``bots(level)``: the :class:`~wordsalvo.engine.bot.Bot` of a level (a service
    keeps its own per thread); default: one made for each engine seat at once (and one
    for hints at the first hint).  The table reseeds the bot before each choice (:func:`engine_seed`)."""

    def __init__(self, game, levels: Sequence[str | None], *, bots: Callable[[str], Bot] | None = None):
        if len(levels) != len(game.names):
            raise GameError(f"expected one level or None (a person) per player ({len(game.names)}), got {len(levels)}")
        self.game = game
        self.levels = list(levels)
        self._bots = bots
        self._made: dict[object, Bot] = {}
        if bots is None:  # a bad level is refused before the game starts
            for seat, level in enumerate(self.levels):
                if level is not None:
                    self._bot(seat, level)

    # -- the seats ----------------------------------------------------------------------
    def people(self) -> list[int]:
        """The seats of people (typed in)."""
        return [i for i, lv in enumerate(self.levels) if lv is None]

    def is_person(self, seat: int) -> bool:
        return self.levels[seat] is None

    def _bot(self, key: object, level: str) -> Bot:
        if self._bots is not None:
            return self._bots(level)
        bot = self._made.get(key)
        if bot is None:
            bot = self._made[key] = Bot(level, self.game.rules, lexicon=self.game.lexicon)
        return bot

    def _seeded(self, key: object, level: str) -> Bot:
        game = self.game
        bot = self._bot(key, level)
        bot.reset(engine_seed(game.seed, len(game.history), game.to_move))
        return bot

    # -- the engines --------------------------------------------------------------------
    def engine_choice(self) -> Action:
        """The action of the engine on turn (seeded by :func:`engine_seed`); nothing changes."""
        seat = self.game.to_move
        level = self.levels[seat]
        if level is None:
            raise GameError(f"expected an engine on turn, got seat {seat}: a person's")
        return self._seeded(seat, level).choose(self.game)

    def engine_turn(self) -> tuple[Action, object]:
        """The engine on turn moves: (its action, the turn made)."""
        action = self.engine_choice()
        return action, self.game.apply(action)

    def engine_challenge(self):
        """An engine on turn to challenge challenges exactly the phonies of the open play;
        the :class:`~wordsalvo.game.Challenge` result, or None when it did not challenge."""
        game = self.game
        if not game.can_challenge or self.is_person(game.challenger) or not game.phonies():
            return None
        return game.challenge()

    def engine_turns(self) -> list[tuple[Action, object]]:
        """The engines' turns (and challenges) until a person is on turn or the game ends:
        each engine action with its turn, in order."""
        done = []
        game = self.game
        self.engine_challenge()
        while not game.is_over and not self.is_person(game.to_move):
            done.append(self.engine_turn())
            self.engine_challenge()
        return done

    def hint_bot(self) -> Bot:
        """The hint engine (:data:`HINT_LEVEL`), seeded for the player on turn."""
        return self._seeded("hint", HINT_LEVEL)

    def hint(self) -> Action:
        """The hint engine's action for the player on turn; nothing changes."""
        return self.hint_bot().choose(self.game)

    # -- a person's actions -------------------------------------------------------------
    def act(self, command: Command):
        """Carry out a turn command of the player on turn: ``play`` (the notation),
        ``swap`` (the tiles, None: the whole rack), ``pass``, ``resign`` (the turn made),
        ``challenge`` (the :class:`~wordsalvo.game.Challenge`).  ``undo`` is
        :meth:`undo`; any other command is the front end's."""
        game = self.game
        name = command.name
        if name == "play":
            return game.play(command.argument)
        if name == "swap":
            return game.swap(command.argument)
        if name == "pass":
            return game.pass_turn()
        if name == "resign":
            return game.resign(game.to_move)
        if name == "challenge":
            return game.challenge()
        raise CommandError(f"`{name}`: expected a turn (play, swap, pass, resign, challenge), got another command")

    def takeback(self) -> Takeback | None:
        """What ``undo`` would take back (the last turn a person made and the engines'
        turns after it), None when no person has a turn to take back; nothing changes."""
        game = self.game
        last = max((game.last_turn_of(p) for p in self.people()), default=-1)
        if last < 0 or not game.undo_steps:
            return None
        owner = game.history[last].player
        return Takeback(owner, tuple(t for t in game.history[last:] if t.kind not in ("settle", "challenge-bonus")))

    def undo(self) -> Takeback:
        """Take back the last turn a person made and every turn after it (bag included);
        GameError when there is none."""
        plan = self.takeback()
        if plan is None:
            raise GameError("undo: nothing to take back: no person has moved yet")
        self.game.undo(plan.owner)
        return plan

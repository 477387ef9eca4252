"""``wordsalvo play``: a game against the engine in the terminal.

    wordsalvo play                                  # classic-en against a medium engine
    wordsalvo play --rules wordsalvo-en --random    # a random premium board
    wordsalvo play --rules turkish --level expert --game-seed 7

This module is only the front end: every rule (legality, scores, swaps, the
end of the game and its settlement) is :class:`wordsalvo.Game`'s, the engine's
move choice per level is :class:`wordsalvo.bot.Bot`'s (the same engines as
``wordsalvo autoplay``) and the drawing is :mod:`wordsalvo.render.terminal`'s.  :class:`TerminalGame` reads lines with an
injectable ``input_fn`` and writes to an injectable ``output`` stream, so a
whole game can be scripted.

Choices of the front end: you sit first; the other seats are engines of one
level; the board shows the tiles of the last placement highlighted; an
opponent's swap shows how many tiles, not which; a rule set whose
``[display] tentative_score`` is false (classic-en) previews the words but
not the score; in strict mode the preview does not tell whether the words are
in the dictionary.  There is no clock: the terminal game does not time moves.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Sequence, TextIO

from ..constants import DIM
from ..errors import IllegalMoveReason, LexiconFormatError, NotationError, WordSalvoError
from ..formats.gcg import to_gcg
from ..game import Game
from ..graphfile import write_atomic
from ..bot import LEVELS, Bot
from ..render.terminal import (
    changed_squares,
    describe_turn,
    render_board,
    render_legend,
    render_preview,
    render_rack,
    render_scores,
    side_by_side,
)
from ._common import add_lexicon_argument, add_rules_argument, load_lexicon, load_rules, whole_number

__all__ = ["register", "run", "TerminalGame", "HELP"]

HELP = """\
Moves
  8H WORD      across, starting at row 8, column H
  H8 WORD      down, starting at column H, row 8
  8H WO(R)D    letters in brackets are tiles already on the board
  8H WOrD      a lowercase letter is a blank standing for that letter
  You first see the words and the score; Enter plays the move, anything else cancels.
Commands
  swap AEI     put A, E and I back and draw new tiles (? = a blank); `swap` alone: the whole rack
  pass         pass your turn
  hint         the engine's best move for your rack
  moves [N]    the N best moves for your rack (default 10)
  unseen       the tiles you have not seen: the bag and the other racks
  shuffle      shuffle your rack
  board        draw the board again
  help         this text
  resign       give up the game
  quit         leave without finishing"""

_END_REASONS = {
    "out": "{finisher} went out",
    "passes": "every player passed in a row",
    "scoreless": "too many scoreless turns in a row",
    "resign": "{resigner} resigned",
    "timeout": "a player ran out of time",
    "elimination": "time-outs eliminated the other players",
}


class _Quit(Exception):
    """The player left (``quit`` or the end of the input)."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play",
        help="play a game against the engine in the terminal",
        description="Play a game against the engine: type a move such as '8H WORD' (across) or\n"
                    "'H8 WORD' (down), see its words and score, press Enter to play it.\n"
                    "Type 'help' in the game for every command.",
        epilog="levels (difficulty changes the engine's move choice only, never the rules):\n"
               "  easy    common short words, few long plays, no thought for the tiles kept\n"
               "  medium  common words, sometimes a bingo, a little thought for the tiles kept\n"
               "  hard    most words, often the bingo, part of the value of the tiles kept\n"
               "  expert  the best move by equity (score + value of the tiles kept)\n"
               "  (no level spends a blank or an S for a few points; see wordsalvo.bot)\n"
               "examples:\n"
               "  wordsalvo play --rules wordsalvo-en --random\n"
               "  wordsalvo play --rules classic-en --level expert --game-seed 42",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_argument(p)
    p.add_argument("--random", action="store_true",
                   help="a random board (rule sets that have one: a new premium layout, or Turkish star squares)")
    p.add_argument("--seed", type=whole_number(0), metavar="N", help="the random board of seed N (implies --random)")
    add_lexicon_argument(p)
    p.add_argument("--players", type=int, default=2, metavar="N",
                   help="number of players: you and N-1 engine opponents (default: 2)")
    p.add_argument("--name", default="You", help="your name in the game and its record (default: You)")
    p.add_argument("--level", choices=LEVELS, default="medium", help="the engine's strength (default: medium)")
    p.add_argument("--strict", action="store_true",
                   help="a word not in the dictionary costs the turn (rule sets whose table may choose it)")
    p.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", dest="color",
                   help="colours: auto = when the output is a terminal (default)")
    p.add_argument("--game-seed", type=whole_number(0), metavar="N",
                   help="seed of the bag (and of the engine's choices): the same seed and the same moves "
                        "give the same game (default: a random seed, printed)")
    p.add_argument("--autoplay", action="store_true", help=argparse.SUPPRESS)  # every seat played by the engine
    p.set_defaults(func=run)


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


def _random_presets() -> list[str]:
    from ..rules import Rules, preset_names

    return [n for n in preset_names() if Rules.preset(n).random_mode != "none"]


def setup(args) -> tuple[Game, list[bool], dict]:
    """The game, which seats are human, and notes for the intro (board and bag seeds)."""
    board_seed = args.seed
    if board_seed is not None or args.random:
        if load_rules(args.rules).random_mode == "none":
            option = "--random" if args.seed is None else f"--seed {args.seed}"
            raise WordSalvoError(f"rule set {args.rules!r} has a fixed board: expected no --random or --seed, "
                                 f"got {option} (random boards: {', '.join(_random_presets())})")
        if board_seed is None:
            board_seed = random.SystemRandom().randrange(2**31)
    rules = load_rules(args.rules, board_seed)
    lexicon = _load_lexicon(args.lexicon, rules)
    if not rules.players.min <= args.players <= rules.players.max:
        raise WordSalvoError(f"--players: rule set {rules.name!r} is for {rules.players.min}..{rules.players.max} "
                             f"players, got {args.players}")
    game_seed = args.game_seed if args.game_seed is not None else random.SystemRandom().randrange(2**31)
    engines = args.players - (0 if args.autoplay else 1)
    engine_names = ["Engine"] if engines == 1 else [f"Engine{i + 1}" for i in range(engines)]
    names = engine_names if args.autoplay else [args.name, *engine_names]
    game = Game(rules, lexicon, players=names, seed=game_seed, strict=True if args.strict else None)
    humans = [not args.autoplay and i == 0 for i in range(len(names))]
    return game, humans, {"board_seed": board_seed, "game_seed": game_seed}


def run(args, input_fn: Callable[[str], str] = input, output: TextIO | None = None) -> int:
    from .board import use_colour

    output = output if output is not None else sys.stdout
    game, humans, seeds = setup(args)
    tg = TerminalGame(game, humans, level=args.level, colour=use_colour(args.color, output),
                      input_fn=input_fn, output=output, seed=seeds["game_seed"])
    rules = game.rules
    board = "standard board" if seeds["board_seed"] is None else f"board seed {seeds['board_seed']}"
    tg.say(f"{rules.name}: {rules.description or rules.name}")
    tg.say(f"{board}, game seed {seeds['game_seed']} (the same game again: --game-seed {seeds['game_seed']}"
           + (f" --seed {seeds['board_seed']})" if seeds["board_seed"] is not None else ")"))
    if any(humans):
        tg.say(f"You play against the engine, level {args.level}. Type `help` for the commands.")
    return tg.run()


class TerminalGame:
    """The terminal front end of one :class:`Game`.

    ``humans[i]``: seat ``i`` is typed in; the others are played by an
    :class:`~wordsalvo.bot.Bot` of ``level``.  ``input_fn(prompt)``
    returns one line (EOFError ends the session like ``quit``); everything
    else goes to ``output``.
    """

    def __init__(self, game: Game, humans: Sequence[bool], level: str = "medium", *, colour: bool = False,
                 input_fn: Callable[[str], str] = input, output: TextIO | None = None, seed: int = 0):
        if len(humans) != len(game.names):
            raise WordSalvoError(f"expected one human/engine flag per player ({len(game.names)}), got {len(humans)}")
        self.game = game
        self.humans = list(humans)
        self.level = level
        self.colour = colour
        self.input_fn = input_fn
        self.output = output if output is not None else sys.stdout
        self.opponents = {i: Bot(level, game.rules, lexicon=game.lexicon, seed=seed * 8 + i)
                          for i, h in enumerate(humans) if not h}
        self._shuffle_rng = random.Random(f"wordsalvo-shuffle-{seed}")
        self._rack_view = ""
        #: squares of the last placement, highlighted on the board
        self.last_squares: frozenset[tuple[int, int]] = frozenset()

    # -- I/O ----------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except EOFError:
            self.say()
            raise _Quit from None

    # -- the game loop ------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the player leaves; 0 either way."""
        game = self.game
        try:
            while not game.is_over:
                if self.humans[game.to_move]:
                    self.human_turn()
                else:
                    self.engine_turn()
        except _Quit:
            self.say(f"Game left unfinished after {len(game.history)} turns "
                     f"(scores {', '.join(f'{n} {s}' for n, s in zip(game.names, game.scores))}).")
            return 0
        self.end_of_game()
        return 0

    def _make(self, action: Callable[[], object]):
        before = self.game.board.tiles
        turn = action()
        if turn.kind == "play":
            self.last_squares = changed_squares(before, self.game.board.tiles)
        return turn

    def engine_turn(self) -> None:
        player = self.game.to_move
        bot = self.opponents[player]
        turn = self._make(lambda: self.game.apply(bot.choose(self.game)))
        if not any(self.humans):  # autoplay: narrate every turn
            self.say(describe_turn(turn, self.game.names))

    def human_turn(self) -> None:
        self.show_screen()
        while True:
            line = self.ask(f"{self.game.names[self.game.to_move]}> ")
            try:
                if self.handle(line):
                    return
            except WordSalvoError as e:  # anything the game refuses: say why and ask again
                self.say(f"not possible: {e}")

    # -- the screen ---------------------------------------------------------------------
    def rack_view(self) -> str:
        """The human's rack in the order shown (``shuffle`` changes the order only)."""
        rack = self.game.rack
        if Counter(self._rack_view) != Counter(rack):
            self._rack_view = rack
        return self._rack_view

    def recent_turns(self, since_human: bool = False) -> list:
        """The turns from the last human turn on (after it with ``since_human``); settlements left out."""
        turns = [t for t in self.game.history if t.kind != "settle"]
        last = max((i for i, t in enumerate(turns) if self.humans[t.player]), default=-1)
        return turns[last + 1:] if since_human or last < 0 else turns[last:]

    def show_screen(self) -> None:
        game = self.game
        me = game.to_move
        board = render_board(game.rules, game.board, self.last_squares, colour=self.colour).split("\n")
        out = [i not in game.players_left for i in range(len(game.names))]
        panel = [f"{game.rules.name}, engine level {self.level}", ""]
        panel += render_scores(game.names, game.scores, me, out)
        panel += ["", f"bag: {game.bag_count} tile{'s' * (game.bag_count != 1)}", ""]
        recent = self.recent_turns()
        if recent:
            panel.append("last turns:")
            panel += ["  " + describe_turn(t, game.names, show_swapped=self.humans[t.player]) for t in recent]
        self.say()
        for line in side_by_side(board, panel, width=4 + 3 * DIM, gap=3):
            self.say(line)
        self.say(render_legend(game.rules, colour=self.colour))
        self.say()
        self.say(f"Your rack: {render_rack(game.rules, self.rack_view(), colour=self.colour)}")

    # -- one line of input --------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; True when the turn was made (play, swap, pass, resign)."""
        text = line.strip()
        if not text:
            self.say("Type a move (e.g. 8H WORD) or a command (help lists them).")
            return False
        word, _, rest = text.partition(" ")
        command = word.lower()
        rest = rest.strip()
        simple = {"pass": self.do_pass, "hint": self.do_hint, "shuffle": self.do_shuffle,
                  "board": self.show_screen, "unseen": self.do_unseen, "help": self.do_help, "?": self.do_help,
                  "resign": self.do_resign, "quit": self.do_quit, "exit": self.do_quit}
        if command in simple:
            if rest:
                self.say(f"`{command}` takes nothing after it, got {rest!r}")
                return False
            return bool(simple[command]())
        if command == "swap":
            return self.do_swap(rest)
        if command == "moves":
            return self.do_moves(rest)
        return self.do_move(text)

    def do_move(self, text: str) -> bool:
        game = self.game
        try:
            result = game.preview(text)
        except NotationError as e:
            self.say(f"cannot read {text!r} as a move: {e}")
            self.say("A move is a square and a word: 8H WORD (across) or H8 WORD (down); `help` shows more.")
            return False
        for line in render_preview(result, show_score=game.rules.display.tentative_score, strict=game.strict):
            self.say(line)
        reasons = set(result.reasons) - ({IllegalMoveReason.INVALID_WORDS} if game.strict else set())
        if reasons:
            word = text.split(None, 1)[1] if len(text.split(None, 1)) == 2 else ""
            if IllegalMoveReason.TILE_NOT_ON_RACK in reasons and any(ch.islower() for ch in word):
                self.say("(lowercase letters are blanks; type the word in capitals for ordinary tiles)")
            return False
        answer = self.ask("Enter = play it, anything else = cancel: ")
        if answer.strip():
            self.say("Cancelled.")
            return False
        turn = self._make(lambda: game.play(text))
        self.say(describe_turn(turn, game.names))
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
        return True

    def do_pass(self) -> bool:
        self.say(describe_turn(self._make(self.game.pass_turn), self.game.names))
        return True

    def do_hint(self) -> bool:
        move = self.game.best_move()
        if move is None:
            self.say("No word fits your rack anywhere: swap or pass.")
        else:
            self.say(f"Hint: {move.notation} for {move.score}")
        return False

    def do_moves(self, rest: str) -> bool:
        try:
            n = int(rest) if rest else 10
            if n < 1:
                raise ValueError
        except ValueError:
            self.say(f"`moves` takes a number >= 1 (how many to show), got {rest!r}")
            return False
        moves = self.game.legal_moves()
        if not len(moves):
            self.say("No word fits your rack anywhere: swap or pass.")
            return False
        self.say(f"The {min(n, len(moves))} best of {len(moves)} legal moves:")
        for i, m in enumerate(moves.best(n), 1):
            self.say(f"{i:>3}. {m.notation:<24} {m.score:>4}")
        return False

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
        answer = self.ask("Resign the game? (y = yes): ")
        if answer.strip().lower() not in ("y", "yes"):
            self.say("Not resigned; play on.")
            return False
        self._make(self.game.resign)
        return True

    def do_quit(self) -> bool:
        raise _Quit

    # -- the end ------------------------------------------------------------------------
    def end_of_game(self) -> None:
        game = self.game
        self.say()
        for line in render_board(game.rules, game.board, self.last_squares, colour=self.colour).split("\n"):
            self.say(line)
        self.say()
        if any(self.humans):
            for t in self.recent_turns(since_human=True):
                self.say(describe_turn(t, game.names, show_swapped=self.humans[t.player]))
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
        self.offer_save()

    def offer_save(self) -> None:
        while True:
            try:
                name = self.ask("Save the game record (GCG)? File name, or Enter to skip: ").strip()
            except _Quit:
                return
            if not name:
                return
            path = Path(name).expanduser()
            if path.suffix == "":
                path = path.with_suffix(".gcg")
            if path.exists():
                try:
                    again = self.ask(f"{path} exists; overwrite it? (y = yes): ").strip().lower()
                except _Quit:
                    return
                if again not in ("y", "yes"):
                    continue
            try:
                write_atomic(path, to_gcg(self.game).encode("utf-8"))
            except OSError as e:
                self.say(f"cannot write {path}: {e.strerror or e}; try another name")
                continue
            self.say(f"Saved the record to {path}.")
            return

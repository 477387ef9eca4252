"""``wordsalvo play``: a game in the terminal, against the engine or between people.

    wordsalvo play                                        # classic-en: you against a medium engine
    wordsalvo play --rules wordsalvo-en --random          # a random premium board
    wordsalvo play --player Ann --player Bob --bot hard   # pass-and-play: two people and an engine
    wordsalvo play --resume ~/.local/share/wordsalvo/games/classic-en-20250101-120000.gcg

This module is only the command: its options, the seats and the game they make
(or the saved game ``--resume`` names).  The session at the keyboard is
:class:`wordsalvo.tui.session.TerminalGame`'s, the saved games are
:mod:`wordsalvo.tui.saved_games`'.

Seats are taken in the order of ``--player NAME`` and ``--bot LEVEL`` on the
command line (2 to 4, any mix); without them, you sit first against
``--players - 1`` engines of ``--level``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Callable, TextIO

from ..engine.bot import LEVELS
from ..engine.strength import strength_table
from ..errors import LexiconFormatError, WordSalvoError
from ..game import Game
from ..tui.saved_games import read_saved_game
from ..tui.session import DEFAULT_HINTS, TerminalGame
from ._common import (add_lexicon_argument, add_rules_argument, engine_level, load_lexicon, load_rules,
                      whole_number)

__all__ = ["register", "run", "setup"]

class _SeatAction(argparse.Action):
    """``--player NAME`` / ``--bot LEVEL``: one seat, in command-line order."""

    def __call__(self, parser, namespace, value, option_string=None):
        seats = list(getattr(namespace, "seats", None) or [])
        seats.append(("bot", value) if option_string == "--bot" else ("person", value))
        namespace.seats = seats


def register(subparsers) -> None:
    table = strength_table()
    named = table.named
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
               "  master  looks ahead: simulates its best moves two turns on, a second a move\n"
               "  (no level spends a blank or an S for a few points; see wordsalvo.engine.bot)\n"
               "  a rating, e.g. 1200: an engine of that Glicko-2 rating, from "
               f"{table.low:.0f} to {table.high:.0f} (on that\n"
               f"          scale easy is {named['easy']:.0f}, medium {named['medium']:.0f}, "
               f"hard {named['hard']:.0f}, expert {named['expert']:.0f};\n"
               "          wordsalvo-en's calibration; wordsalvo-nl and turkish have their own:\n"
               "          see wordsalvo.engine.strength)\n"
               "saved games: in $WORDSALVO_GAMES_DIR, else $XDG_DATA_HOME/wordsalvo/games\n"
               "  (~/.local/share/wordsalvo/games; the folder is made the first time, and the\n"
               "  message says so); `save FILE` in the game saves elsewhere.\n"
               "examples:\n"
               "  wordsalvo play --rules wordsalvo-en --random\n"
               "  wordsalvo play --rules classic-en --challenge --player Ann --bot medium\n"
               "  wordsalvo play --rules wordsalvo-en --move-time 60 --player Ann --player Bob\n"
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
    p.add_argument("--bot", action=_SeatAction, dest="seats", metavar="LEVEL", type=engine_level(LEVELS),
                   help=f"a seat for an engine of LEVEL ({', '.join(LEVELS)}, or a rating such as 1200); "
                        "repeat for more")
    p.add_argument("--players", type=int, default=2, metavar="N",
                   help="without --player/--bot: you and N-1 engine opponents (default: 2)")
    p.add_argument("--name", default="You", help="without --player: your name in the game and its record "
                                                  "(default: You)")
    p.add_argument("--level", type=engine_level(LEVELS), default="medium", metavar="LEVEL",
                   help="without --bot: the engines' strength, a level or a Glicko-2 rating such as 1200 "
                        "(default: medium)")
    p.add_argument("--strict", action="store_true",
                   help="a word not in the dictionary costs the turn (rule sets whose table may choose it)")
    p.add_argument("--challenge", action="store_true",
                   help="play with challenges: a phony stands until the next player challenges it "
                        "(classic-en, woodword-de; a failed challenge costs the challenger the turn)")
    p.add_argument("--hints", type=whole_number(0), metavar="N",
                   help=f"hints (and `moves` lists) per player per game (default: {DEFAULT_HINTS}; 0 = none)")
    p.add_argument("--move-time", type=whole_number(0), metavar="SECONDS",
                   help="a clock: SECONDS per move for each person, as the rule set allows (wordsalvo-en, "
                        "wordsalvo-nl, woodword-de: 30 and up); running out ends the turn or loses, as the rule "
                        "set says; 0: no clock (default: the rule set's own clock, e.g. woodword-de 2 minutes, "
                        "turkish 24 hours; none for classic-en, wordsalvo-en, wordsalvo-nl)")
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
    move_time = args.move_time
    if move_time is None:  # the rule set's own clock (none when it has none)
        move_time = rules.timer.per_move_seconds or None
    elif move_time == 0:  # no clock, asked for: the record says so (#move-time 0)
        move_time = None
    else:
        try:
            rules.check_move_time(move_time)
        except WordSalvoError as e:
            raise WordSalvoError(f"--move-time: {e}") from None
    lexicon = _load_lexicon(args.lexicon, rules)
    game_seed = args.game_seed if args.game_seed is not None else random.SystemRandom().randrange(2**31)
    game = Game(rules, lexicon, players=names, seed=game_seed, strict=True if args.strict else None,
                challenges=args.challenge)
    levels = [value if kind == "bot" else None for kind, value in seats]
    hints = DEFAULT_HINTS if args.hints is None else args.hints
    return game, levels, {"board_seed": board_seed, "game_seed": game_seed, "hints": hints, "path": None,
                          "move_time": move_time, "rules_file": _rules_file(args.rules)}


def _rules_file(spec: str | None) -> str | None:
    """The rule set file ``--rules`` names (None for a preset): the record keeps it and its
    SHA-256, so the game resumes under the same rules."""
    from ..rules import preset_names

    return spec if spec is not None and spec not in preset_names() else None


def _resume(args) -> tuple[Game, list[str | None], dict]:
    given = [opt for opt, on in (("--player/--bot", args.seats), ("--random", args.random),
                                 ("--seed", args.seed is not None), ("--game-seed", args.game_seed is not None),
                                 ("--strict", args.strict), ("--challenge", args.challenge),
                                 ("--move-time", args.move_time is not None)) if on]
    if given:
        raise WordSalvoError(f"--resume continues the game as it was saved (its rule set, seats, seed and "
                             f"options are in the file): expected none of {', '.join(given)}")
    path = Path(args.resume).expanduser()
    try:
        saved = read_saved_game(path, args.lexicon)
    except WordSalvoError as e:
        raise WordSalvoError(f"--resume: {e}") from None
    game = saved.game
    hints = args.hints if args.hints is not None else saved.hints if saved.hints is not None else DEFAULT_HINTS
    if game.is_over:
        raise WordSalvoError(f"--resume: the game in {path} is over ({game.end_reason}); "
                             f"`wordsalvo analyze {path}` replays it with the engine's judgement")
    return game, saved.levels, {"board_seed": game.rules.board_seed, "game_seed": game.seed, "hints": hints,
                                "path": path, "move_time": saved.move_time, "dated": saved.dated,
                                "rules_file": saved.rules_file}


def run(args, input_fn: Callable[[str], str] = input, output: TextIO | None = None) -> int:
    from .board import use_colour

    output = output if output is not None else sys.stdout
    game, levels, info = setup(args)
    tg = TerminalGame(game, [lv is None for lv in levels], args.level, levels=levels,
                      colour=use_colour(args.color, output), input_fn=input_fn, output=output,
                      seed=info["game_seed"], hints=info["hints"], save_path=info["path"],
                      move_time=info["move_time"], dated=info.get("dated"), rules_file=info.get("rules_file"))
    tg.introduce(resumed=info["path"])
    return tg.run()

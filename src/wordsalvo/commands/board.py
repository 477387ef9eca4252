"""``wordsalvo board``: draw the premium board of a rule set.

    wordsalvo board --rules wordsalvo-en               # the standard board, coloured on a terminal
    wordsalvo board --rules wordfeud-de --random       # a random board (its seed is printed)
    wordsalvo board --rules wordsalvo-nl --seed 42     # the random board of seed 42
    wordsalvo board --rules turkish --seed 7 --plain   # 15 lines of 15 symbols

``--plain`` prints exactly 15 lines of 15 space-separated symbols: ``W`` 3W,
``w`` 2W, ``T`` 3L, ``D`` 2L, ``*`` centre without bonus (a 2W centre prints
``w``), ``S`` star square, ``.`` plain.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from ..printable import printable
from ._common import load_rules


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "board",
        help="draw the premium board of a rule set",
        description=__doc__.split("\n\n")[0].split(":", 1)[1].strip(),
        epilog="Plain symbols: W 3W, w 2W, T 3L, D 2L, * centre without bonus, S star square, . plain.",
    )
    p.add_argument("--rules", default="wordsalvo-en", metavar="NAME",
                   help="a rule set name (e.g. wordsalvo-en, wordfeud-de, turkish) or a .toml file "
                        "(default: %(default)s)")
    p.add_argument("--random", action="store_true",
                   help="a random board (WordSalvo, Wordfeud) or random star squares (Turkish); "
                        "the seed used is printed")
    p.add_argument("--seed", type=int, metavar="N", help="the board seed (implies --random)")
    p.add_argument("--plain", action="store_true",
                   help="exactly 15 lines of 15 space-separated symbols, no colour")
    p.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", dest="color",
                   help="colour the board with ANSI codes: auto = when stdout is a terminal (default)")
    p.set_defaults(func=run)


def use_colour(mode: str, stream=None) -> bool:
    stream = stream or sys.stdout
    if mode == "always":
        return True
    if mode == "never":
        return False
    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ


def run(args: argparse.Namespace) -> int:
    from ..render.premiums import render_ansi, render_plain

    seed = args.seed
    if seed is None and args.random:
        seed = random.SystemRandom().randrange(2**31)
    rules = load_rules(args.rules, seed)
    seed_note = f"seed {seed}" if seed is not None else "standard board"
    if args.plain:
        print(render_plain(rules))
        if args.random and args.seed is None:  # keep stdout to the 15 lines; say how to reproduce it
            print(f"wordsalvo board: {seed_note} (repeat with --seed {seed})", file=sys.stderr)
        return 0
    title = f"{rules.name}: {printable(rules.description or rules.name)} ({seed_note})"
    if use_colour(args.color):
        print(render_ansi(rules, title=title))
    else:
        print(title)
        print(render_plain(rules))
    return 0

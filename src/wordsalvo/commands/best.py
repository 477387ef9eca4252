"""``wordsalvo best``: the highest-scoring move(s) of a position."""

from __future__ import annotations

import argparse
import sys

from ..errors import WordSalvoError
from ..movegen import MoveGenerator
from ._common import add_lexicon_argument, add_rules_argument, apply_rack, load_lexicon, load_rules, read_position, whole_number


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "best",
        help="show the best move(s) of a position by score",
        description="Show the highest-scoring tile placement(s) of a position, one per line as\n"
                    "'NOTATION SCORE' (e.g. '8D RETAINS 66'), best first, ties in a fixed order.\n"
                    "Without a position: the empty board. When no tile placement is legal, prints\n"
                    "nothing on standard output and a note on standard error (exit status 0).",
        epilog="examples:\n"
               "  wordsalvo best --rack AEINRST\n"
               "  wordsalvo best --lexicon csw24.wsg -n 5 '15/15/.../15 ABIMOO?/ 0/0 0'\n"
               "  wordsalvo best --line 3 positions.cgp",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", metavar="CGP", nargs="?",
                   help="the position: a CGP line, a CGP file (see --line) or '-' for standard input; "
                        "default: the empty board")
    add_rules_argument(p, from_position=True)
    add_lexicon_argument(p)
    p.add_argument("--rack", metavar="RACK",
                   help="rack on turn, letters with '?' for a blank (default: the CGP's rack on turn)")
    p.add_argument("-n", type=whole_number(1), default=1, metavar="N", help="how many moves to show (default: 1)")
    p.add_argument("--line", type=int, default=0, metavar="I",
                   help="with a CGP file: which position, 0-based among its position lines (default: 0)")
    p.set_defaults(func=run)


def run(args) -> int:
    pos = apply_rack(read_position(args.position, load_rules(args.rules) if args.rules else None, args.line),
                     args.rack)
    rules = pos.rules  # with the position's board and star squares
    if not pos.rack:
        raise WordSalvoError("expected a rack (--rack AEINRST or the CGP's rack on turn), got an empty rack")
    gen = MoveGenerator(load_lexicon(args.lexicon, rules), rules)
    if args.n == 1:  # the one best move: no move list, so numpy is never loaded (about 0.1 s)
        best = gen.best(pos)
        moves = [best] if best is not None else []
    else:
        moves = gen.top(pos, args.n)
    if not len(moves):
        print(f"no legal tile placement for rack {pos.rack} (pass or exchange)", file=sys.stderr)
        return 0
    sys.stdout.write("".join(f"{m.notation} {m.score}\n" for m in moves))
    return 0

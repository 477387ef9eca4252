"""``wordsalvo validate``: is a move legal in a position, and what does it score?"""

from __future__ import annotations

import argparse
import sys

from ..errors import IllegalMoveError
from ..notation import format_notation
from ..validate import preview_move
from ._common import add_lexicon_argument, add_rules_argument, apply_rack, load_lexicon, load_rules, read_position


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "validate",
        help="check a move (e.g. '8H WO(R)D') in a position and score it",
        description="Check one move in a position. A legal move prints its notation and score, then\n"
                    "every word it forms with that word's score. An illegal move prints every reason\n"
                    "and every invalid word.\n\n"
                    "exit status: 0 legal, 1 illegal move, 2 bad input (position, notation, files).",
        epilog="examples:\n"
               "  wordsalvo validate positions.cgp '10L AM(I)r' --lexicon csw24.wsg\n"
               "  wordsalvo validate --line 2 positions.cgp 8H WO(R)D --rack DOWZ",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", metavar="CGP",
                   help="the position: a CGP line, a CGP file (see --line) or '-' for standard input")
    p.add_argument("notation", metavar="NOTATION", nargs="+",
                   help="the move: coordinate and whole main word, e.g. '8H WO(R)D' (8H across, H8 down; "
                        "lowercase = blank; tiles already on the board in parentheses)")
    add_rules_argument(p, from_position=True)
    add_lexicon_argument(p)
    p.add_argument("--rack", metavar="RACK",
                   help="rack on turn, letters with '?' for a blank (default: the CGP's rack on turn)")
    p.add_argument("--line", type=int, default=0, metavar="I",
                   help="with a CGP file: which position, 0-based among its position lines (default: 0)")
    p.set_defaults(func=run)


def run(args) -> int:
    pos = apply_rack(read_position(args.position, load_rules(args.rules) if args.rules else None, args.line),
                     args.rack)
    rules = pos.rules  # with the position's board and star squares
    lexicon = load_lexicon(args.lexicon, rules)
    notation = " ".join(args.notation)
    try:
        result = preview_move(pos, notation, lexicon)
        result.raise_if_illegal()
    except IllegalMoveError as e:
        message = str(e)
        for prefix in ("illegal move: ",):
            if message.startswith(prefix):
                message = message[len(prefix):]
        lines = [f"illegal: {message}", "reasons: " + ", ".join(r.name for r in e.reasons)]
        if e.words:
            lines.append("invalid words: " + ", ".join(e.words))
        sys.stdout.write("\n".join(lines) + "\n")
        return 1
    lines = [f"legal: {format_notation(pos.board, *result.placement)} {result.score}"]
    lines += [f"  {w.word} {w.where} {w.score}" for w in result.words]
    if result.bingo_bonus:
        lines.append(f"  bingo bonus {result.bingo_bonus}")
    if result.star_bonus:
        lines.append(f"  star bonus {result.star_bonus}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0

"""``wordsalvo peg``: solve a pre-endgame (1 to 4 tiles in the bag).

    wordsalvo peg --rules classic-en --lexicon csw24.wsg --cgp "BOARD RACK/ S1/S2 0"
    wordsalvo peg --cgp "LINE" --seconds 30 --json

Values the best plays by static equity and the pass over every draw of the unseen
tiles, the endgames after the bag empties solved exactly, and prints each candidate's
win chance and mean final spread, best first (see :mod:`wordsalvo.engine.pre_endgame`).
Progress (stage, candidate, endgames, nodes) goes to standard error; ``--json``
prints the result as one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import WordSalvoError
from ._common import (add_lexicon_argument, add_position_arguments, add_rules_argument, load_lexicon,
                      position_argument, seconds, whole_number)

__all__ = ["register", "run"]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "peg",
        help="solve a pre-endgame (1-4 tiles in the bag): win chance of each candidate over every draw",
        description="Value the best plays by static equity and the pass over every draw of the unseen tiles "
                    "(the bag and the opponent's rack), the endgames after the bag empties solved exactly, "
                    "and print each candidate's win chance and mean final spread, best first.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  wordsalvo peg --rules classic-en --cgp 'LINE'\n"
               "  wordsalvo peg --cgp 'LINE' --seconds 30 --candidates 8 --json",
    )
    add_rules_argument(p, from_position=True)
    add_lexicon_argument(p)
    add_position_arguments(p, "the position: a CGP line (the rack on turn; an opponent's rack is ignored), a CGP file "
                        "or '-' for standard input")
    p.add_argument("--seconds", type=seconds(), metavar="S",
                   help="time limit: the best answer so far when it runs out (default: every stage)")
    p.add_argument("--nodes", type=whole_number(1), metavar="N",
                   help="limit on the turns searched in all endgames (the same answer on every machine)")
    p.add_argument("--candidates", type=whole_number(1), default=None, metavar="K",
                   help="the plays valued, best by static equity, plus the pass (default: 64 with 1-2 tiles "
                        "in the bag, 16 with 3-4)")
    p.add_argument("--threads", type=whole_number(1), default=1, metavar="T",
                   help="threads (only 1: the draws are solved on one thread)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on the last line")
    p.set_defaults(func=run)


def _progress(d: dict) -> None:
    row = d["row"]
    print(f"[stage {d['stage']}] {d['candidate']}/{d['of']} {d['action']}: win {100 * row.win:.2f} %, "
          f"spread {row.spread:+.2f} ({row.exact}/{row.total_draws} exact); {d['solves']:,} endgames, "
          f"{d['nodes']:,} nodes, {d['seconds']:.1f} s", file=sys.stderr, flush=True)


def run(args) -> int:
    from ..engine.pre_endgame import solve_pre_endgame

    pos = position_argument(args)
    if not pos.rack:
        raise WordSalvoError("expected a rack on turn in the CGP line, got an empty rack")
    lexicon = load_lexicon(args.lexicon, pos.rules)
    result = solve_pre_endgame(pos, lexicon, seconds=args.seconds, nodes=args.nodes, candidates=args.candidates,
                               threads=args.threads, progress=None if args.quiet else _progress)
    print(result.summary())
    print(result.table())
    if args.json:
        print(json.dumps(result.to_dict()))
    return 0

"""``wordsalvo sim``: Monte Carlo simulation of a position's best candidates.

    wordsalvo sim --cgp "15/15/... AEINRST/ 0/0 0" --plays 15 --plies 2 --seconds 5
    wordsalvo sim --rules classic-en --lexicon csw24.wsg --cgp "LINE" --iterations 1000 --sampling rr --json

On a terminal the table is redrawn while the simulation runs; ``--json`` prints
the result as one JSON object on the last line (see
:mod:`wordsalvo.engine.simulation`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap

from ..errors import WordSalvoError
from ._common import (add_lexicon_argument, add_position_arguments, add_rules_argument, load_leaves, load_lexicon,
                      position_argument, seconds, whole_number)

__all__ = ["register", "run"]

#: seconds between two redraws of the live table
_REDRAW = 0.25


def register(subparsers) -> None:
    from ..engine.simulation import DEFAULT_ITERATIONS, MAX_PLIES, MAX_THREADS, SAMPLINGS

    p = subparsers.add_parser(
        "sim",
        help="simulate a position's best candidates (Monte Carlo) and rank them",
        description="Play each candidate (the best placements by static equity and the best exchange, "
                    "or --move ...) and then --plies turns of the static equity player, many times, with "
                    "the opponent's rack and the later draws taken from the unseen tiles; rank the "
                    "candidates by win chance (the rule set's model) and mean equity (spread change plus "
                    "the last leaves). Without --iterations or --seconds: "
                    f"{DEFAULT_ITERATIONS} iterations.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  wordsalvo sim --cgp '15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0' --seconds 3\n"
               "  wordsalvo sim --lexicon csw24.wsg --cgp \"$(sed -n 3p positions.cgp)\" --iterations 500 --json",
    )
    add_rules_argument(p, from_position=True)
    add_lexicon_argument(p)
    p.add_argument("--leaves", metavar="FILE",
                   help="leave table (.wsl, or leave,value lines in a .csv) for the equity and the rollouts "
                        "(default: the rule set's shipped table)")
    add_position_arguments(p, "the position: a CGP line (the rack on turn first; the opponent's rack, if given, is "
                        "treated as unknown), a CGP file or '-' for standard input")
    p.add_argument("--plays", type=whole_number(1), default=15, metavar="N",
                   help="the best placements by static equity to simulate, plus the best exchange (default 15)")
    p.add_argument("--move", action="append", metavar="MOVE", dest="moves",
                   help="simulate this candidate instead ('8H WORD', --move=-ABC or 'exch ABC' for an exchange, "
                        "'pass'); repeatable")
    p.add_argument("--plies", type=whole_number(0, MAX_PLIES), default=2, metavar="P",
                   help="turns played after the candidate (default 2)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--iterations", type=whole_number(1), metavar="K", help="iterations (per candidate)")
    limit.add_argument("--seconds", type=seconds(), metavar="S", help="time limit")
    p.add_argument("--threads", type=whole_number(1, MAX_THREADS), default=1, metavar="T", help="threads (default 1)")
    p.add_argument("--sampling", choices=SAMPLINGS, default="bai",
                   help="rr: round robin; bai: drop clearly worse candidates early (default)")
    p.add_argument("--seed", type=whole_number(0), default=0, metavar="S", help="seed of the draws (default 0)")
    infer = p.add_mutually_exclusive_group()
    infer.add_argument("--infer", metavar="PLAY",
                       help="the opponent's last play, already on the board of --cgp, with the tiles it played "
                            "through in parentheses ('8H WO(R)D'): its rack is drawn from the leaves it probably "
                            "kept (inference) instead of uniformly")
    infer.add_argument("--infer-exchange", type=whole_number(1), metavar="N",
                       help="the opponent's last turn was an exchange of N tiles: infer what it kept")
    p.add_argument("--top", type=whole_number(1), default=None, metavar="N", help="rows to show (default all)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on the last line")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..engine.simulation import Simulator
    from ..rules import Rules

    pos = position_argument(args)
    rules = pos.rules
    if not isinstance(rules, Rules) or not pos.rack:
        raise WordSalvoError("expected a rack on turn in the CGP line, got an empty rack")
    lexicon = load_lexicon(args.lexicon, rules)
    leaves = load_leaves(args.leaves, rules)
    inference = _inference(args, pos, lexicon, leaves)
    sim = Simulator(pos, lexicon, leaves, plays=args.plays, moves=args.moves, plies=args.plies,
                    iterations=args.iterations, seconds=args.seconds, threads=args.threads,
                    sampling=args.sampling, seed=args.seed, infer=inference)
    live = sys.stdout.isatty()
    drawn = 0
    interrupted = False
    try:
        while not sim.step(_REDRAW if live else 0.0):
            # the live table fits the terminal (rows beyond it could not be drawn over)
            cols, rows = shutil.get_terminal_size()
            top = max(1, rows - 4) if args.top is None else min(args.top, max(1, rows - 4))
            text = _text(sim.result(), top, cols)
            if drawn:
                sys.stdout.write(f"\x1b[{drawn}F\x1b[J")
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
            drawn = sum(max(1, -(-len(line) // cols)) for line in text.split("\n"))
    except KeyboardInterrupt:  # the table so far, then exit status 130
        interrupted = True
    result = sim.result()
    if drawn:
        sys.stdout.write(f"\x1b[{drawn}F\x1b[J")
    print(_text(result, args.top, shutil.get_terminal_size().columns if live else None))
    if interrupted:
        print("interrupted: the result so far", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict()))
    return 130 if interrupted else 0


def _inference(args, pos, lexicon, leaves):
    """The inference of --infer / --infer-exchange (None without either), said on stderr."""
    from ..engine.inference import infer, position_before

    if args.infer is None and args.infer_exchange is None:
        return None
    if args.infer is not None:
        before, move = position_before(pos, args.infer)
        found = infer(before, move, lexicon, leaves, seed=args.seed)
    else:
        before = pos.copy()
        racks = list(before.racks)
        racks[1 - pos.to_move] = ""
        before = type(pos)(pos.rules, pos.board.copy(), racks, list(pos.scores), 0, to_move=1 - pos.to_move)
        found = infer(before, None, lexicon, leaves, exchanged=args.infer_exchange, seed=args.seed)
    print(found.table(5), file=sys.stderr)
    if not len(found):
        print("no leave is consistent with that turn: the opponent's rack is drawn uniformly", file=sys.stderr)
    return found


def _text(result, top, width=None) -> str:
    """The table and the summary line (wrapped to ``width``, a terminal's columns)."""
    summary = result.summary()
    if width is not None:
        summary = textwrap.fill(summary, max(20, width - 1), subsequent_indent="  ")
    return result.table(top) + "\n" + summary

"""``wordsalvo endgame``: solve an endgame exactly (the bag empty, both racks known).

    wordsalvo endgame --rules classic-en --lexicon csw24.wsg --cgp "BOARD RACK1/RACK2 S1/S2 0"
    wordsalvo endgame --cgp "LINE" --seconds 5 --json

Prints the value (the final spread for the side to move, settlement included), the
best line and whether it is proven.  While it searches, the progress goes to standard
error: on a terminal one live line (depth, nodes, seconds, value and best line of the
last completed iteration), otherwise a plain line per completed depth (``--quiet``:
none).  ``--json`` prints ``{"value", "pv", "exact",
"nodes", "seconds"}`` as one JSON object on the last line (see
:mod:`wordsalvo.engine.endgame`).
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
    from ..engine.endgame import MAX_THREADS

    p = subparsers.add_parser(
        "endgame",
        help="solve an endgame exactly (the bag empty, both racks known)",
        description="Search the rest of the game (every play and the pass of both players, the rule set's "
                    "end and settlement) for the side to move and print the final spread under best play "
                    "by both, a best line and whether the value is proven (a time limit may stop it first).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  wordsalvo endgame --rules classic-en --lexicon csw24.wsg --cgp \"$(cut -f1 endgames.tsv | head -1)\"\n"
               "  wordsalvo endgame --cgp 'LINE' --seconds 10 --json",
    )
    add_rules_argument(p, from_position=True)
    add_lexicon_argument(p)
    add_position_arguments(p, "the position: a CGP line with both racks (RACK1/RACK2, the rack on turn first), a "
                        "CGP file or '-' for standard input")
    p.add_argument("--seconds", type=seconds(), metavar="S", help="time limit (default: until proven)")
    p.add_argument("--threads", type=whole_number(1, MAX_THREADS), default=1, metavar="T",
                   help="threads searching together over one shared table (default 1; the value is the same)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object on the last line")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..engine.endgame import solve_endgame

    pos = position_argument(args)
    if not pos.rack:
        raise WordSalvoError("expected a rack on turn in the CGP line, got an empty rack")
    lexicon = load_lexicon(args.lexicon, pos.rules)
    reporter = None if args.quiet else _Progress(sys.stderr)
    try:
        result = solve_endgame(pos, lexicon, seconds=args.seconds, threads=args.threads, progress=reporter)
    finally:
        if reporter is not None:
            reporter.close()
    print(result.summary())
    print("best line: " + (" ; ".join(result.pv) if result.pv else "(none)"))
    if args.json:
        print(json.dumps(result.to_dict()))
    return 0


class _Progress:
    """The search's progress on a stream: one line rewritten in place on a terminal, else
    one plain line per newly completed depth."""

    def __init__(self, stream):
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self.depth = 0
        self.width = 0

    def __call__(self, p) -> None:
        text = p.line()
        if self.live:
            cols = 200
            try:
                import shutil

                cols = shutil.get_terminal_size().columns
            except (OSError, ValueError):
                pass
            text = text[: max(cols - 1, 20)]
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        elif p.depth > self.depth:
            self.stream.write(text + "\n")
        else:
            return
        self.depth = p.depth
        self.stream.flush()

    def close(self) -> None:
        if self.live and self.width:
            self.stream.write("\n")
            self.stream.flush()

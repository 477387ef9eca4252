"""``wordsalvo analyze``: replay a GCG game record and score every turn against the engine's best."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..analysis import analyze_game
from ..formats.gcg import GCGError
from ..lexicon import Lexicon
from ._common import add_lexicon_argument, whole_number


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="replay a game record and score every turn against the engine's best",
        description="Replay a GCG game record turn by turn. For every turn: the move played, the\n"
                    "engine's best move by score, the points missed, the rank of the played move\n"
                    "among all legal moves (1 = best) and flags (brilliancy, missed, turning_point,\n"
                    "bingo_missed); then each player's totals and the words they formed.\n"
                    "The rule set comes from the record's #rules header.",
        epilog="examples:\n"
               "  wordsalvo analyze game.gcg\n"
               "  wordsalvo analyze --top 5 --json game.gcg > analysis.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", metavar="GAME.gcg", help="the game record (GCG), or '-' for standard input")
    add_lexicon_argument(p)
    p.add_argument("--top", type=whole_number(1), default=3, metavar="N",
                   help="how many of the engine's best moves to keep per turn (default: 3)")
    p.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    p.set_defaults(func=run)


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        data = Path(source).read_bytes()
    except OSError as e:
        raise GCGError(f"{source}: cannot read the game record: {e.strerror or e}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise GCGError(f"{source}: expected UTF-8 text, got a bad byte at offset {e.start}") from None


def run(args) -> int:
    lexicon = Lexicon.load(args.lexicon) if args.lexicon else None
    analysis = analyze_game(_read(args.game), lexicon=lexicon, top=args.top)
    if args.json:
        json.dump(analysis.to_dict(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    out = [str(analysis), "", "Word Book:"]
    for name, words in analysis.word_book.items():
        out.append(f"  {name}: {' '.join(words) if words else '-'}")
    sys.stdout.write("\n".join(out) + "\n")
    return 0

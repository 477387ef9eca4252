"""``wordsalvo validate``: is a move legal in a position, and what does it score?"""

from __future__ import annotations

import argparse
import sys

from ..errors import IllegalMoveError
from ..movegen import MoveGenerator
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
    add_rules_argument(p)
    add_lexicon_argument(p)
    p.add_argument("--rack", metavar="RACK",
                   help="rack on turn, letters with '?' for a blank (default: the CGP's rack on turn)")
    p.add_argument("--line", type=int, default=0, metavar="I",
                   help="with a CGP file: which position, 0-based among its position lines (default: 0)")
    p.set_defaults(func=run)


def _word_lines(words) -> list[str]:
    """One line per formed word, whatever shape the validator gives them in."""
    out = []
    for w in words or ():
        if hasattr(w, "word"):
            where = getattr(w, "where", "")
            out.append(f"  {w.word}{' ' + where if where else ''} {w.score}")
        elif isinstance(w, (tuple, list)):
            out.append("  " + " ".join(str(x) for x in w))
        else:
            out.append(f"  {w}")
    return out


def _fallback_validate(pos, notation: str, lexicon):
    """Notation + rules of one move, for builds where the generator's validator is missing."""
    from ..notation import parse_notation
    from ..placement import check_placement, squares_from_placement

    squares = squares_from_placement(pos.board, *parse_notation(notation, pos.board))
    result = check_placement(pos.board, pos.rules, pos.rack_counts(), squares, lexicon.__contains__)
    result.raise_if_illegal()
    return result


def run(args) -> int:
    rules = load_rules(args.rules)
    pos = apply_rack(read_position(args.position, rules, args.line), args.rack)
    lexicon = load_lexicon(args.lexicon, rules)
    gen = MoveGenerator(lexicon, rules)
    notation = " ".join(args.notation)
    try:
        try:
            move = gen.validate(pos, notation)
        except ModuleNotFoundError as e:
            if not (e.name or "").startswith("wordsalvo."):
                raise
            move = _fallback_validate(pos, notation, lexicon)
    except IllegalMoveError as e:
        message = str(e)
        if message.startswith("illegal move: "):
            message = message[len("illegal move: "):]
        lines = [f"illegal: {message}"]
        reasons = getattr(e, "reasons", None) or [e.reason]
        lines.append("reasons: " + ", ".join(r.name for r in reasons))
        if e.words:
            lines.append("invalid words: " + ", ".join(e.words))
        sys.stdout.write("\n".join(lines) + "\n")
        return 1
    shown = getattr(move, "notation", None)
    if shown is None and getattr(move, "placement", None) is not None:
        from ..notation import format_notation

        shown = format_notation(pos.board, *move.placement)
    lines = [f"legal: {shown or notation.strip()} {move.score}"]
    lines += _word_lines(getattr(move, "words", None))
    if getattr(move, "is_bingo", False):
        lines.append(f"  bingo bonus {rules.bingo_bonus}")
    star = getattr(move, "star_bonus", 0)
    if star:
        lines.append(f"  star bonus {star}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0

"""``wordsalvo moves``: every legal tile placement of every position of a CGP file.

One line per move, tab-separated, in the format of the reference move lists::

    <index>\\t<coordinate>\\t<word>\\t<score>

``index`` is the 0-based line number of the position in the CGP file (blank
lines and ``#`` comments keep their numbers but give no moves).  The lines are
formatted from the generator's move records with numpy, a whole position at a
time, without a Python object per move (:class:`wordsalvo.render.lines.LineFormatter`).
"""

from __future__ import annotations

import sys

from ..errors import PositionError, WordSalvoError
from ..inputs import text_lines
from ..formats.cgp import parse_cgp
from ..movegen import MoveGenerator
from ..position import Position
from ..render.lines import LineFormatter
from ..rules import Rules
from ..wording import plural
from ._common import add_lexicon_argument, add_rules_argument, is_position_line, load_lexicon, load_rules, read_text

#: at most this many problems of a positions file are listed in the error message
MAX_LISTED_PROBLEMS = 20
#: output is written in chunks of about this many characters
CHUNK = 1 << 20


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "moves",
        help="list every legal move of every position of a CGP file",
        description="List every legal tile placement of every position (one CGP line each) as "
                    "'index<TAB>coordinate<TAB>word<TAB>score', the format of the reference move lists: "
                    "index = 0-based line number in the file; coordinate 8H (across) or H8 (down) = square "
                    "of the word's first letter; word = the whole main word, new tiles uppercase, blanks "
                    "lowercase, tiles already on the board in parentheses; score includes the bingo bonus.",
        epilog="example: wordsalvo moves --lexicon csw24.wsg positions.cgp | gzip > moves.tsv.gz",
    )
    p.add_argument("positions", metavar="POSITIONS", help="CGP file, one position a line ('-' = standard input)")
    add_rules_argument(p, from_position=True)
    add_lexicon_argument(p)
    p.add_argument("--sort", action="store_true",
                   help="list the moves of each position best first (score descending, then a fixed order); "
                        "default: the generator's order")
    p.set_defaults(func=run)


def read_positions(source: str, rules: Rules | None) -> list[tuple[int, Position]]:
    """Every position of a CGP file with its line index; raises one PositionError
    listing EVERY bad line."""
    text = read_text(source)
    name = "<stdin>" if source == "-" else source
    out: list[tuple[int, Position]] = []
    problems: list[str] = []
    for i, line in enumerate(text_lines(text)):
        if not is_position_line(line):
            continue
        try:
            out.append((i, parse_cgp(line, rules=rules)))
        except WordSalvoError as e:
            problems.append(f"line {i + 1} (index {i}): {e}")
    if problems:
        listed = "; ".join(problems[:MAX_LISTED_PROBLEMS])
        more = f"; and {len(problems) - MAX_LISTED_PROBLEMS} more" if len(problems) > MAX_LISTED_PROBLEMS else ""
        raise PositionError(f"{name}: {plural(len(problems), 'bad position line')}: {listed}{more}")
    if not out:
        raise PositionError(f"{name}: expected CGP position lines, got none (the file is empty or holds only "
                            f"blank lines and # comments)")
    return out


def run(args) -> int:
    positions = read_positions(args.positions, load_rules(args.rules) if args.rules else None)
    if not positions:
        return 0
    lexicon = load_lexicon(args.lexicon, positions[0][1].rules)
    generators: dict[tuple, MoveGenerator] = {}  # one per board (random boards, star squares)
    fmt = LineFormatter(positions[0][1].rules.alphabet)
    out = sys.stdout
    pending: list[str] = []
    size = 0
    for index, pos in positions:
        gen = generators.get(pos.rules.scoring_key)
        if gen is None:
            gen = generators[pos.rules.scoring_key] = MoveGenerator(lexicon, pos.rules)
        ml = gen.generate(pos)
        records = ml.to_numpy()
        if args.sort:
            records = records[ml.order()]
        text = fmt.format(records, bytes(pos.board.tiles), f"{index}\t")
        pending.append(text)
        size += len(text)
        if size >= CHUNK:
            out.write("".join(pending))
            pending.clear()
            size = 0
    if pending:
        out.write("".join(pending))
    out.flush()
    return 0

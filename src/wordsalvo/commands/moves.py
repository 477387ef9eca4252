"""``wordsalvo moves``: every legal tile placement of every position of a CGP file.

One line per move, tab-separated, in the format of the reference move lists::

    <index>\\t<coordinate>\\t<word>\\t<score>

``index`` is the 0-based line number of the position in the CGP file (blank
lines and ``#`` comments keep their numbers but give no moves).  The lines are
formatted from the generator's move records with numpy, a whole position at a
time, without a Python object per move.
"""

from __future__ import annotations

import sys

import numpy as np

from ..alphabet import BLANK_BIT, Alphabet
from ..constants import DIM
from ..errors import PositionError, WordSalvoError
from ..formats.cgp import parse_cgp
from ..movegen import MoveGenerator
from ..notation import format_coordinate
from ..position import Position
from ..rules import Rules
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
    for i, line in enumerate(text.splitlines()):
        if not is_position_line(line):
            continue
        try:
            out.append((i, parse_cgp(line, rules=rules)))
        except WordSalvoError as e:
            problems.append(f"line {i + 1} (index {i}): {e}")
    if problems:
        listed = "; ".join(problems[:MAX_LISTED_PROBLEMS])
        more = f"; and {len(problems) - MAX_LISTED_PROBLEMS} more" if len(problems) > MAX_LISTED_PROBLEMS else ""
        raise PositionError(f"{name}: {len(problems)} bad position line(s): {listed}{more}")
    return out


class LineFormatter:
    """Formats move records as reference lines, vectorised over a whole move list."""

    OPEN = 65
    CLOSE = 66

    def __init__(self, alphabet: Alphabet):
        # token 0 = nothing, 1..32 = uppercase letter, 33..64 = lowercase (a blank), 65 '(', 66 ')'
        texts = [""] * 67
        for i, (up, low) in enumerate(zip(alphabet.letters, alphabet.lowercase)):
            texts[1 + i] = up
            texts[33 + i] = low
        texts[self.OPEN] = "("
        texts[self.CLOSE] = ")"
        self.tokens = self._table(texts)
        coords = []
        for direction in (0, 1):
            for r in range(DIM):
                for c in range(DIM):
                    coords.append(format_coordinate(r, c, direction))
        self.coords = self._table(coords)
        self.steps = np.arange(DIM)

    @staticmethod
    def _table(texts: list[str]) -> np.ndarray:
        """A uint8 table, one row per text, UTF-8 bytes padded with NUL (NUL never occurs in output)."""
        data = [t.encode("utf-8") for t in texts]
        width = max(1, max(len(d) for d in data))
        table = np.zeros((len(data), width), dtype=np.uint8)
        for i, d in enumerate(data):
            table[i, : len(d)] = np.frombuffer(d, dtype=np.uint8)
        return table

    def format(self, records: np.ndarray, board_tiles: bytes, prefix: str) -> str:
        """``prefix + coordinate \\t word \\t score \\n`` for every record."""
        n = len(records)
        if n == 0:
            return ""
        row = records["row"].astype(np.intp)
        col = records["col"].astype(np.intp)
        down = records["direction"].astype(np.intp)
        length = records["length"].astype(np.intp)
        new = records["tiles"]  # (n, 15), 0 = board tile
        j = self.steps
        valid = j[None, :] < length[:, None]
        sq_r = row[:, None] + down[:, None] * j[None, :]
        sq_c = col[:, None] + (1 - down[:, None]) * j[None, :]
        square = np.where(valid, sq_r * DIM + sq_c, 0)
        board = np.frombuffer(bytes(board_tiles), dtype=np.uint8)
        blank = ((records["blank_mask"].astype(np.int32)[:, None] >> j[None, :]) & 1).astype(bool)
        code = np.where(new != 0, new | np.where(blank, BLANK_BIT, 0).astype(np.uint8), board[square])
        token = (code & 0x7F).astype(np.uint8) + np.where(code & BLANK_BIT, 32, 0).astype(np.uint8)
        through = valid & (new == 0)
        before = np.zeros_like(through)
        before[:, 1:] = through[:, :-1]
        after = np.zeros_like(through)
        after[:, :-1] = through[:, 1:]
        slots = np.zeros((n, DIM, 3), dtype=np.uint8)
        slots[:, :, 0] = np.where(through & ~before, self.OPEN, 0)
        slots[:, :, 1] = np.where(valid, token, 0)
        slots[:, :, 2] = np.where(through & ~after, self.CLOSE, 0)
        word = self.tokens[slots.reshape(n, 3 * DIM)].reshape(n, -1)
        coord = self.coords[down * (DIM * DIM) + row * DIM + col]
        scores = records["score"].astype(np.int64)
        lo, hi = int(scores.min()), int(scores.max())
        score_table = self._table([str(s) for s in range(lo, hi + 1)])
        score = score_table[scores - lo]
        head = np.frombuffer(prefix.encode("utf-8"), dtype=np.uint8)
        tab = np.full((n, 1), 9, dtype=np.uint8)
        nl = np.full((n, 1), 10, dtype=np.uint8)
        mat = np.concatenate(
            [np.broadcast_to(head, (n, len(head))), coord, tab, word, tab, score, nl], axis=1
        )
        return mat[mat != 0].tobytes().decode("utf-8")


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

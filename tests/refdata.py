"""Reading reference move lists (``index<TAB>coord<TAB>word<TAB>score``), for tests.

Each line becomes the move key of :mod:`reference_movegen`
(``frozenset((row, col, letter code, is_blank) for each new tile)``) by parsing
the notation against the position's board.
"""

from __future__ import annotations

import gzip
from collections import defaultdict
from pathlib import Path
from typing import Iterable

from reference_movegen import move_key

from wordsalvo.board import Board
from wordsalvo.notation import parse_notation
from wordsalvo.placement import squares_from_placement


def read_lines(path: str | Path) -> list[str]:
    """All lines of a (possibly gzip'd) reference file."""
    p = Path(path)
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as f:
        return f.read().splitlines()


def split_line(line: str, where: str = "") -> tuple[int, str, str, int]:
    """``'1\\t10L\\tAM(I)r\\t22'`` -> ``(1, '10L', 'AM(I)r', 22)``."""
    parts = line.rstrip("\n").split("\t")
    if len(parts) != 4:
        raise ValueError(f"{where}expected 4 tab-separated fields (index, coord, word, score), got {len(parts)}: {line!r}")
    index, coord, word, score = parts
    return int(index), coord, word, int(score)


def group_by_position(lines: Iterable[str]) -> dict[int, list[tuple[str, str, int]]]:
    """``{position index: [(coord, word, score), ...]}``."""
    out: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        index, coord, word, score = split_line(line, f"line {n}: ")
        out[index].append((coord, word, score))
    return dict(out)


def line_squares(board: Board, coord: str, word: str) -> list[tuple[int, int, int]]:
    """The new tiles ``(row, col, code)`` of one reference line."""
    return squares_from_placement(board, *parse_notation(f"{coord} {word}", board))


def line_key(board: Board, coord: str, word: str):
    return move_key(line_squares(board, coord, word))


def reference_keys(board: Board, entries: Iterable[tuple[str, str, int]]) -> dict:
    """``{key: score}`` of one position's lines; a key listed twice is an error."""
    out: dict = {}
    for coord, word, score in entries:
        key = line_key(board, coord, word)
        if key in out:
            raise ValueError(f"move {coord} {word} is listed twice (same new tiles)")
        out[key] = score
    return out

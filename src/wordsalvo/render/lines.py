"""Move lists as text lines, the format of the reference move lists::

    <prefix><coordinate>\t<word>\t<score>

(``wordsalvo moves`` writes ``<index>\t`` as the prefix).  The coordinate and
the word are those of :attr:`wordsalvo.Move.notation`; the lines are built from
the generator's move records with numpy, a whole list at a time, without a
Python object per move.
"""

from __future__ import annotations

import numpy as np

from ..alphabet import BLANK_BIT, Alphabet
from ..constants import DIM, LETTER_MASK
from ..notation import format_coordinate

__all__ = ["LineFormatter"]


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
        token = (code & LETTER_MASK).astype(np.uint8) + np.where(code & BLANK_BIT, 32, 0).astype(np.uint8)
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

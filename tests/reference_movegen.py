"""A slow, obviously correct move generator, for tests only.

It shares NO logic with the fast generator.  It tries every word of a (small)
word list at every start square of every row and column, fills the empty
squares of that word in every way the rack allows (real tile or blank), and
lets :func:`wordsalvo.placement.check_placement` decide legality and score.

Why it is complete: every legal move has a main word of 2+ letters that lies
in one line, is maximal (empty or edge on both ends) and is in the word list;
a one-tile move forms such a word in at least one direction.  Trying every
word at every maximal position, with every real/blank choice for its empty
squares, therefore meets every legal move.  Moves are keyed by their set of
new tiles, so a one-tile move found in both directions is counted once.

Use word lists of tens to a few thousand words; it is meant to be read, not
to be fast.
"""

from __future__ import annotations

import itertools
from collections import Counter

from wordsalvo.alphabet import BLANK_BIT
from wordsalvo.board import Board
from wordsalvo.constants import DIM as SIZE
from wordsalvo.placement import check_placement
from wordsalvo.rules import Rules

#: a move: frozenset of (row, col, letter code without the blank bit, is_blank)
MoveKey = frozenset


def move_key(squares) -> MoveKey:
    """Key of a list of new tiles ``(row, col, code)``."""
    return frozenset((r, c, code & ~BLANK_BIT, bool(code & BLANK_BIT)) for r, c, code in squares)


def _rack_allows(rack_counts, codes) -> bool:
    need = Counter(codes)
    return all(need[k] <= (rack_counts[k] if k < len(rack_counts) else 0) for k in need)


def reference_moves(board: Board, rules: Rules, rack_counts, words) -> dict[MoveKey, int]:
    """Every legal tile placement for ``rack_counts`` on ``board``: ``{key: score}``.

    ``rack_counts`` is indexed by tile code (index 0 = blanks); ``words`` is a
    set of uppercase words (letters of the board's alphabet).
    """
    alphabet = board.alphabet
    word_set = set(words)
    encoded: list[tuple[int, ...]] = []
    for w in sorted(word_set):
        if 2 <= len(w) <= SIZE and all(alphabet.is_letter(ch) for ch in w):
            encoded.append(tuple(alphabet.code(ch) for ch in w))
    tiles = board.tiles
    first_move = board.is_empty()
    rack_total = sum(rack_counts)
    start_square = divmod(rules.start_square, SIZE)
    found: dict[MoveKey, int] = {}

    def at(r: int, c: int) -> int:
        return tiles[r * SIZE + c]

    def has_board_neighbour(r: int, c: int) -> bool:
        return any(
            0 <= r + dr < SIZE and 0 <= c + dc < SIZE and at(r + dr, c + dc)
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )

    by_length: dict[int, list[tuple[int, ...]]] = {}
    for word in encoded:
        by_length.setdefault(len(word), []).append(word)

    for across in (True, False):
        for line in range(SIZE):
            for start in range(SIZE):
                for length, same_length in by_length.items():
                    if start + length > SIZE:
                        continue
                    cells = [(line, start + i) if across else (start + i, line) for i in range(length)]
                    # maximal: nothing directly before the first or after the last letter
                    before = (line, start - 1) if across else (start - 1, line)
                    after = (line, start + length) if across else (start + length, line)
                    if start > 0 and at(*before):
                        continue
                    if start + length < SIZE and at(*after):
                        continue
                    pattern = [at(r, c) & ~BLANK_BIT for r, c in cells]  # 0 = empty square
                    n_empty = pattern.count(0)
                    if not n_empty or n_empty > rack_total:
                        continue
                    # cheap filter only (check_placement decides): the move must be able to be legal
                    if first_move:
                        if start_square not in cells:
                            continue
                    elif n_empty == length and not any(has_board_neighbour(r, c) for r, c in cells):
                        continue
                    for word in same_length:
                        # board letters must match; the rest are empty squares to fill
                        if any(p and p != code for p, code in zip(pattern, word)):
                            continue
                        empty = [(r, c, code) for (r, c), p, code in zip(cells, pattern, word) if not p]
                        need = Counter(code for _, _, code in empty)
                        short = sum(max(0, k - (rack_counts[code] if code < len(rack_counts) else 0))
                                    for code, k in need.items())
                        if short > rack_counts[0]:
                            continue  # not even the blanks make up for the missing letters
                        # every real/blank choice the rack allows
                        choices = [(False, True) if rack_counts[0] else (False,)] * len(empty)
                        for blanks in itertools.product(*choices):
                            needed = [0 if b else code for (_, _, code), b in zip(empty, blanks)]
                            if not _rack_allows(rack_counts, needed):
                                continue
                            squares = [(r, c, code | (BLANK_BIT if b else 0))
                                       for (r, c, code), b in zip(empty, blanks)]
                            key = move_key(squares)
                            res = check_placement(board, rules, rack_counts, squares, word_set.__contains__,
                                                  first_move=first_move)
                            if not res.legal:
                                continue
                            if key in found:
                                assert found[key] == res.score, (key, found[key], res.score)
                                continue
                            found[key] = res.score
    return found


def random_positions(rules: Rules, words, rng, max_moves: int = 8, extra_blanks: int = 0):
    """Positions of one random game: yields ``(board, rack_counts)`` before each move.

    Each move is drawn uniformly from :func:`reference_moves` with the word
    list ``words``; racks are drawn from the rule set's bag (blanks included),
    plus ``extra_blanks`` more blanks, so that boards hold blanks.  ``rng`` is a :class:`random.Random`.  For
    generated-board tests of other generators (e.g. with hypothesis choosing
    the seed).
    """
    from wordsalvo.board import Board

    alphabet = rules.alphabet
    bag: list[int] = []
    for letter, (count, _value) in rules.tiles.items():
        bag += [0 if letter == "?" else alphabet.code(letter)] * count
    bag += [0] * extra_blanks
    rng.shuffle(bag)
    board = Board(alphabet)
    rack: list[int] = []
    for _ in range(max_moves):
        while len(rack) < rules.rack_size and bag:
            rack.append(bag.pop())
        counts = [0] * (alphabet.size + 1)
        for code in rack:
            counts[code] += 1
        yield board.copy(), counts
        moves = reference_moves(board, rules, counts, words)
        if not moves:
            return
        key = rng.choice(sorted(moves, key=sorted))
        for r, c, letter, is_blank in key:
            board[r, c] = letter | (BLANK_BIT if is_blank else 0)
            rack.remove(0 if is_blank else letter)

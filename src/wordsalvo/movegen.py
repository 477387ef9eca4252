"""The move generator: every legal move, the best moves, and move validation."""

from __future__ import annotations

from ._core import _movegen
from .errors import WordSalvoError
from .lexicon import Lexicon
from .moves import Move, MoveList
from .position import Position
from .rules import Rules


#: above this n, best(pos, n) sorts the full list instead of searching with bounds
_BEST_SEARCH_MAX_N = 256


class MoveGenerator:
    """Finds, scores and ranks every legal move of a position.

    Owns the C working memory (cross sets, anchors, output buffer) and keeps the
    last board it saw, so consecutive positions of one game only recompute the
    lanes that changed.  Use one generator per thread; lexicons may be shared.
    """

    def __init__(self, lexicon: Lexicon, rules: Rules):
        if tuple(lexicon.alphabet.letters) != tuple(rules.alphabet.letters):
            raise WordSalvoError(
                f"lexicon alphabet {lexicon.alphabet.name!r} does not match rule set {rules.name!r} "
                f"(alphabet {rules.alphabet.name!r})"
            )
        self.lexicon = lexicon
        self.rules = rules
        self._gen = _movegen.Generator(
            lexicon._graph,
            rules.letter_multipliers,
            rules.word_multipliers,
            list(rules.square_bonus),
            list(rules.tile_values),
            rules.bingo_bonus,
            rules.rack_size,
            rules.start_square,
        )
        self._alphagrams_ready = False
        self._scoring_key = rules.scoring_key

    def _load(self, pos: Position, rack: str | None) -> bytes:
        """Hands the board and rack to the C generator; returns the board snapshot."""
        if pos.rules is not self.rules and pos.rules.scoring_key != self._scoring_key:
            raise WordSalvoError(
                f"the position's rules ({pos.rules!r}) score differently from the generator's "
                f"({self.rules!r}): board, star squares, tile values or bonus differ; "
                f"use MoveGenerator(lexicon, position.rules)"
            )
        counts = pos.rack_counts(rack)
        tiles = bytes(pos.board.tiles)
        # a board edited by hand with codes outside the alphabet: PositionError from the core
        self._gen.set_position(tiles, counts)
        return tiles

    def generate(self, pos: Position, rack: str | None = None) -> MoveList:
        """Every legal tile placement for the rack on turn (or ``rack``)."""
        tiles = self._load(pos, rack)
        records = self._gen.generate_all()
        return MoveList(records, tiles, self.rules.alphabet)

    def count(self, pos: Position, rack: str | None = None) -> int:
        """The number of legal moves, without keeping them."""
        self._load(pos, rack)
        return int(self._gen.count_all())

    def best(self, pos: Position, n: int | None = None, rack: str | None = None) -> Move | MoveList | None:
        """The best move by score (None when there is no legal placement), or with
        ``n`` the n best as a MoveList, best first.  Exactly the first moves of
        ``generate(pos).sorted()``, found with shadow bounds without generating all."""
        if n is not None and n < 1:
            raise WordSalvoError(f"n: expected a whole number >= 1, got {n}")
        if n is not None and n > _BEST_SEARCH_MAX_N:
            # the bounded search keeps its n best by insertion: for many moves, sorting
            # the full list is faster and gives the same moves in the same order
            return self.generate(pos, rack).best(n)
        if not self._alphagrams_ready:
            # 8- and 9-letter anagram keys sharpen the search's bounds; they are built
            # once per lexicon, on its first best-move search (about 25 ms for CSW24)
            graph = self.lexicon._graph
            self._gen.use_alphagrams(graph.alphagrams(8), graph.alphagrams(9))
            self._alphagrams_ready = True
        tiles = self._load(pos, rack)
        records = self._gen.best(1 if n is None else n)
        moves = MoveList(records, tiles, self.rules.alphabet)
        if n is None:
            return moves[0] if len(moves) else None
        return moves

    def validate(self, pos: Position, notation: str, rack: str | None = None) -> Move:
        """The move a notation such as ``8H WO(R)D`` describes, scored, with the words it
        forms; raises :class:`~wordsalvo.IllegalMoveError` (with ``.reason`` and every
        invalid word in ``.words``) or :class:`~wordsalvo.NotationError`."""
        from .validate import validate_move

        return validate_move(pos, notation, self.lexicon, rack=rack)

    def cross_set(self, pos: Position, direction: int, row: int, col: int) -> tuple[set[str], int, bool]:
        """The letters allowed on an empty square for moves in ``direction``, its cross
        score and whether it has a perpendicular word (for tests and analysis)."""
        self._load(pos, "")
        mask, score = self._gen.cross_set(direction, row * 15 + col)
        letters = {self.rules.alphabet.letters[i - 1] for i in range(1, self.rules.alphabet.size + 1) if mask >> i & 1}
        return letters, score, bool(mask & 1)

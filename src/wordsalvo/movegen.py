"""The move generator: every legal move, the best moves by score or by equity,
the best swap, and move validation.  Equity is defined in :mod:`wordsalvo.leaves`."""

from __future__ import annotations

import time


from ._core import _engine
from .alphabet import BLANK_BIT
from .constants import DIM
from .errors import PositionError, WordSalvoError
from .inputs import is_whole, whole_arg
from .leaves import Leaves, endgame_terms, tile_set_hash
from .lexicon.lexicon import Lexicon
from .moves import LeaveValues, Move, MoveList, Swap
from .position import Position

GameState = _engine.GameState
from .rules import Rules


#: above this n, best(pos, n) sorts the full list instead of searching with bounds
_BEST_SEARCH_MAX_N = 256

#: seconds the word map takes to build, per word of the lexicon (CSW24: 281k words, 0.08 s)
_WORDMAP_SECONDS_PER_WORD = 0.3e-6


class MoveGenerator:
    """Finds, scores and ranks every legal move of a position.

    Owns the C working memory (cross sets, anchors, output buffer) and keeps the
    last board it saw, so consecutive positions of one game only recompute the
    lanes that changed.  Use one generator per thread; lexicons may be shared.
    Pickles as its lexicon (by path, see :class:`~wordsalvo.Lexicon`), rules and leave
    table: the copy starts with no board remembered.
    """

    def __init__(self, lexicon: Lexicon, rules: Rules, leaves: Leaves | None = None,
                 wordmap: bool | None = None):
        if not isinstance(lexicon, Lexicon) or not isinstance(rules, Rules):
            raise WordSalvoError(f"expected MoveGenerator(Lexicon, Rules), got MoveGenerator({type(lexicon).__name__}, "
                                 f"{type(rules).__name__})")
        if tuple(lexicon.alphabet.letters) != tuple(rules.alphabet.letters):
            raise WordSalvoError(
                f"lexicon alphabet {lexicon.alphabet.name!r} does not match rule set {rules.name!r} "
                f"(alphabet {rules.alphabet.name!r})"
            )
        self.lexicon = lexicon
        self.rules = rules
        if leaves is not None:
            self._check_leaves(leaves)
        #: the leave table that equity uses (None: moves have no equity)
        self.leaves = leaves
        self._tile_total = rules.tile_count
        dist = rules.distribution()
        self._tile_limits = bytes(
            min(255, dist.get("?" if i == 0 else rules.alphabet.letters[i - 1], 0))
            for i in range(rules.alphabet.size + 1))
        self._gen = _engine.Generator(
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
        #: the generator's word map is attached (_prepare_best has nothing left to do)
        self._wordmap_on = False
        self._counts_by_rack: dict[str, bytes] = {}
        if wordmap not in (None, True, False):
            raise WordSalvoError(f"wordmap: expected None (when it pays), True or False, got {wordmap!r}")
        #: the word map policy: None builds it once the lexicon's best-move searches have
        #: taken as long as building it would, True on the first search, False never
        self.wordmap = wordmap
        self._scoring_key = rules.scoring_key
        #: the symbol of each tile code (blank first) for the leaves the core spells
        self._symbols = ("?",) + tuple(rules.alphabet.letters)

    def _check_leaves(self, leaves: Leaves) -> None:
        """WordSalvoError unless ``leaves`` is a table for this generator's tile set."""
        if not isinstance(leaves, Leaves):
            raise WordSalvoError(f"leaves: expected a wordsalvo.Leaves or None, got {type(leaves).__name__}")
        if tile_set_hash(leaves.rules) != tile_set_hash(self.rules):
            raise WordSalvoError(
                f"leaves: expected a table for the tile set of rule set {self.rules.name!r}, got one for "
                f"{leaves.rules.name!r} (alphabet {leaves.rules.alphabet.name!r}, rack {leaves.rules.rack_size}, "
                f"other tile counts)")

    def _prepare_best(self, wordmap: bool | None = None) -> bool:
        """Readies the best-move search; returns True when its searches still pay toward
        the word map (the caller then adds their time with _pay_rent).

        The word map (about 8 MB and 0.08 s to build for CSW24, once per lexicon, shared
        by its generators) makes searches with blanks on the rack several times faster, but
        one search without it takes 0.02-2 ms: a single call (``wordsalvo best``) never
        earns the build back.  So by default the searches first run on the graph alone, with
        the 8- and 9-letter anagram keys (about 25 ms for CSW24), and the map is built once
        the lexicon's searches without it have taken as long as building it takes."""
        graph = self.lexicon._graph
        policy = self.wordmap if wordmap is None else wordmap
        if not self._gen.has_wordmap and policy is not False:
            if graph._wordmap is None and (policy is True or graph._wordmap_rent >= self._wordmap_price()):
                graph._wordmap = _engine.WordMap(graph)
            if graph._wordmap is not None:
                self._gen.use_wordmap(graph._wordmap)
        if self._gen.has_wordmap:
            self._wordmap_on = True  # for good: the map stays attached
            return False
        if not self._alphagrams_ready:
            self._gen.use_alphagrams(graph.alphagrams(8), graph.alphagrams(9))
            self._alphagrams_ready = True
        return policy is None

    def __reduce__(self) -> tuple:
        return (MoveGenerator, (self.lexicon, self.rules, self.leaves, self.wordmap))

    def _wordmap_price(self) -> float:
        """Seconds the word map of this lexicon is expected to take to build."""
        return _WORDMAP_SECONDS_PER_WORD * self.lexicon.header.word_count

    def _pay_rent(self, since: float) -> None:
        self.lexicon._graph._wordmap_rent += time.perf_counter() - since

    def _rack_counts(self, pos: Position, rack: str | None) -> bytes:
        """pos.rack_counts(rack), checked against the generator's rules, remembered by rack."""
        if not isinstance(pos, Position):
            raise PositionError(f"expected a Position, got {type(pos).__name__}")
        if pos.rules is not self.rules and pos.rules.scoring_key != self._scoring_key:
            raise WordSalvoError(
                f"the position's rules ({pos.rules!r}) score differently from the generator's "
                f"({self.rules!r}): board, star squares, tile values or bonus differ; "
                f"use MoveGenerator(lexicon, position.rules)"
            )
        if pos.rules is not self.rules:  # its own alphabet and rack size check the rack
            return pos.rack_counts(rack)
        letters = pos.racks[pos.to_move] if rack is None else rack
        if not isinstance(letters, str):
            return pos.rack_counts(rack)  # PositionError naming what came
        counts = self._counts_by_rack.get(letters)
        if counts is None:
            counts = pos.rack_counts(rack)  # checks the letters and the size
            if len(self._counts_by_rack) >= 4096:
                self._counts_by_rack.clear()
            self._counts_by_rack[letters] = counts
        return counts

    def _load(self, pos: Position | GameState, rack: str | None) -> bytes:
        """Hands the board and rack to the C generator; returns the board snapshot.  A
        GameState (a game's C state) is handed over in C (ws_game_load: its rack on turn,
        the end-game terms from its bag and racks), no letters or Position in between."""
        if isinstance(pos, GameState):
            if rack is not None:
                raise WordSalvoError("rack: expected None with a game state (its rack on turn is the one used)")
            table = self.leaves._table if self.leaves is not None else None
            pos.load(self._gen, table, table is not None)
            self._counts = pos.rack(pos.to_move)
            return pos.board
        counts = self._rack_counts(pos, rack)
        tiles = bytes(pos.board.tiles)
        # a board edited by hand with codes outside the alphabet: PositionError from the core
        try:
            if self.leaves is None:
                self._gen.set_position(tiles, counts)
            else:
                endgame, out_value, keep_factor = endgame_terms(pos, self._tile_total)
                self._gen.set_position(tiles, counts, self.leaves._table, endgame, out_value, keep_factor)
        except PositionError:
            over = [i for i, c in enumerate(counts[: len(self._tile_limits)]) if c > self._tile_limits[i]]
            if self.leaves is not None and over:  # a leave of the rack is not in the table
                symbol = "?" if over[0] == 0 else self.rules.alphabet.letters[over[0] - 1]
                raise PositionError(
                    f"rack {pos.rack if rack is None else rack!r}: {counts[over[0]]} of {symbol!r}, expected at most "
                    f"{self._tile_limits[over[0]]} (the {self.rules.name} tile set): its leaves have no value") from None
            raise
        self._counts = counts
        return tiles

    def _best_equity_one(self, pos: Position, rack: str | None) -> Move | None:
        """best(pos, by="equity") in one call into the core: the move :meth:`_load` and
        ``best_equity(1)`` give, with its equity and leave, without the move list."""
        counts = self._rack_counts(pos, rack)
        tiles = bytes(pos.board.tiles)
        endgame, out_value, keep_factor = endgame_terms(pos, self._tile_total)
        try:
            found = self._gen.best_equity_one_at(tiles, counts, self.leaves._table, endgame, out_value, keep_factor,
                                                 self._symbols)
        except PositionError:
            self._load(pos, rack)  # the same check again, for its message
            raise
        self._counts = counts
        if found is None:
            return None
        (score, mask, row, col, direction, length, _played, raw), equity, leave = found
        codes = tuple(raw[i] | (BLANK_BIT if mask >> i & 1 else 0) for i in range(length)) if mask else tuple(raw)
        return Move(row, col, direction, codes, score, tiles, self.rules.alphabet, rack_size=self.rules.rack_size,
                    equity=equity, leave=leave)

    def _leave_values(self) -> LeaveValues | None:
        """The leave values of the rack just loaded (None without a leave table)."""
        if self.leaves is None:
            return None
        return LeaveValues(*self._gen.leave_values(), self._counts)

    def generate(self, pos: Position | GameState, rack: str | None = None) -> MoveList:
        """Every legal tile placement for the rack on turn (or ``rack``).  ``pos``, here and
        in :meth:`count`, :meth:`best` and :meth:`top`, may be a game's C state
        (:class:`~wordsalvo.gamestate.GameState`) for the player on turn."""
        tiles = self._load(pos, rack)
        records = self._gen.generate_all()
        return MoveList(records, tiles, self.rules.alphabet, self.rules.rack_size,
                        leave_values=self._leave_values())

    def count(self, pos: Position | GameState, rack: str | None = None) -> int:
        """The number of legal moves, without keeping them."""
        self._load(pos, rack)
        return int(self._gen.count_all())

    def best(self, pos: Position | GameState, rack: str | None = None, by: str = "score") -> Move | None:
        """The best move (None when there is no legal placement) by ``"score"`` or by
        ``"equity"`` (score + the value of the tiles kept; needs a leave table): the first
        move of ``generate(pos).sorted(by=by)``, found with shadow bounds without
        generating all.  The n best as a MoveList: :meth:`top`."""
        if by == "score" and self.leaves is None and isinstance(pos, Position):  # one move, no array
            return self._best_by_score(pos, rack)
        return self._search(pos, None, rack, by)

    def _best_by_score(self, pos: Position, rack: str | None) -> Move | None:
        """best(pos) by score without a leave table: one call into the core, which hands
        back the move's fields and codes, and a Move filled in one call (the call path of
        a new position, kept short)."""
        renting = False if self._wordmap_on else self._prepare_best()
        since = time.perf_counter() if renting else 0.0
        counts = self._rack_counts(pos, rack)
        tiles = bytes(pos.board.tiles)
        found = self._gen.best_one_move(tiles, counts)
        self._counts = counts
        if renting:
            self._pay_rent(since)
        if found is None:
            return None
        score, row, col, direction, codes = found
        return Move._scored(row, col, direction, codes, score, tiles, self.rules.alphabet, self.rules.rack_size)

    def top(self, pos: Position | GameState, n: int, rack: str | None = None, by: str = "score") -> MoveList:
        """The ``n`` best moves as a MoveList (fewer when there are fewer), best first, by
        ``"score"`` or ``"equity"``: exactly the first ``n`` of ``generate(pos).sorted(by=by)``,
        found with shadow bounds without generating all (by equity, each bound adds the
        best value of a leave of the tiles kept)."""
        if n is None:
            raise WordSalvoError("n: expected a whole number >= 1, got None (best(pos) gives the one best move)")
        return self._search(pos, n, rack, by)

    def _search(self, pos: Position | GameState, n: int | None, rack: str | None, by: str) -> Move | MoveList | None:
        """:meth:`best` (``n`` None) and :meth:`top`."""
        if by not in ("score", "equity"):
            raise WordSalvoError(f"by: expected 'score' or 'equity', got {by!r}")
        if by == "equity" and self.leaves is None:
            raise WordSalvoError(
                "best(by='equity') needs a leave table: expected MoveGenerator(lexicon, rules, leaves=...), "
                "e.g. leaves=Leaves.default(rules)")
        if n is not None and not is_whole(n, 1):
            raise WordSalvoError(f"n: expected a whole number >= 1 or None, got {n!r}")
        if n is not None and n > _BEST_SEARCH_MAX_N:
            # the bounded search keeps its n best by insertion: for many moves, sorting
            # the full list is faster and gives the same moves in the same order
            return self.generate(pos, rack).top(n, by=by)
        renting = self._prepare_best()
        since = time.perf_counter() if renting else 0.0
        if n is None and by == "equity" and isinstance(pos, Position):  # one move by equity, no arrays
            found = self._best_equity_one(pos, rack)
            if renting:
                self._pay_rent(since)
            return found
        tiles = self._load(pos, rack)
        if by == "equity":
            records, _equity = self._gen.best_equity(1 if n is None else n)
        else:
            records = self._gen.best(1 if n is None else n)
        if renting:
            self._pay_rent(since)
        moves = MoveList(records, tiles, self.rules.alphabet, self.rules.rack_size,
                         leave_values=self._leave_values())
        if n is None:
            return moves[0] if len(moves) else None
        return moves

    def best_swap(self, pos: Position, rack: str | None = None) -> Swap | None:
        """The swap that keeps the best leave, or None when the rules allow no swap now
        (``[swap]``: ``min_bag``, ``bag_must_cover_swap``, ``whole_rack``).  A swap
        scores 0, so compare ``best_swap(pos).equity`` with ``best(pos, by="equity").equity``.
        Ties: more tiles kept, then the kept tiles first in leave-rank order."""
        if self.leaves is None:
            raise WordSalvoError(
                "best_swap needs a leave table: expected MoveGenerator(lexicon, rules, leaves=...)")
        self._load(pos, rack)
        letters = pos.rack if rack is None else rack
        sw = self.rules.swap
        index = self._gen.best_swap(self.leaves._table, pos.bag_count(), sw.min_bag, sw.whole_rack,
                                    sw.bag_must_cover_swap)
        if index < 0:
            return None
        lv = self._leave_values()
        assert lv is not None
        alphabet = self.rules.alphabet
        leave = lv.leave(index, alphabet)
        rest = list(letters)
        for ch in leave:
            rest.remove(ch)
        kept_order = {"?": 0, **{c: i + 1 for i, c in enumerate(alphabet.letters)}}
        return Swap("".join(sorted(rest, key=kept_order.__getitem__)), leave, float(lv.values[index]))

    def choose(self, state, *, last_kind: str | None = None, swap_ceiling: float | None = None,
               given: Move | None | bool = True, _token: object = None):
        """The static player's choice on a game state (:class:`~wordsalvo.gamestate.GameState`,
        read in C, no Position made): the ``score`` player without a leave table, the
        ``equity`` player with one (``csrc/ws_action.h``); a :class:`~wordsalvo.actions.Choice`
        of the action and the options weighed.

        ``last_kind``: the player's last turn kind (``"swap"``: the score player does not
        swap its whole rack again), ``"swap-run"`` (no swap now:
        :func:`wordsalvo.engine.bot.swap_run`) or None; ``swap_ceiling``: from this equity
        of the play on no swap is looked at (None: always looked at); ``given``: True
        searches the best placement, None says there is none, a Move is a placement chosen
        by other means (its equity is weighed against the swap)."""
        from .actions import Choice, Pass, Play

        if not isinstance(state, GameState):
            raise PositionError(f"choose: expected a GameState, got {type(state).__name__}")
        if given is True or given is None:
            weigh = given
        elif isinstance(given, Move):
            weigh = 0.0 if given.equity is None else float(given.equity)
        else:
            raise WordSalvoError(f"given: expected True, None or a Move, got {type(given).__name__}")
        renting = self._prepare_best() if given is True else False
        since = time.perf_counter() if renting else 0.0
        table = self.leaves._table if self.leaves is not None else None
        kind, found, weighed = state.choose(self._gen, table, swap_ceiling, last_kind, weigh)
        if renting:
            self._pay_rent(since)
        rack = state.rack(state.to_move)
        self._counts = rack
        play = None
        if found is not None:
            move = MoveList(found[0], state.board, self.rules.alphabet, self.rules.rack_size, _token,
                            leave_values=self._leave_values())[0]
            play = Play(move, equity=None if move.equity is None else float(move.equity))
        elif isinstance(given, Move):
            play = Play(given, equity=None if given.equity is None else float(given.equity))
        swap = None
        if weighed is not None:
            back, value = weighed
            kept = bytes(a - b for a, b in zip(rack, back))
            if table is None:  # the score player's whole rack, written as racks are
                swap = Swap(self._letters(back, blanks_first=False), "", None)
            else:  # as best_swap writes it
                swap = Swap(self._letters(back), self._letters(kept), float(value))
        action = play if kind == "play" else swap if kind == "swap" else Pass()
        return Choice(action, play, swap)

    def _letters(self, counts: bytes, blanks_first: bool = True) -> str:
        """33 counts by tile code as letters in code order, the blanks first or last."""
        letters = self.rules.alphabet.letters
        word = "".join(letters[t - 1] * counts[t] for t in range(1, len(letters) + 1))
        return "?" * counts[0] + word if blanks_first else word + "?" * counts[0]

    def validate(self, pos: Position, notation: str, rack: str | None = None) -> Move:
        """The move a notation such as ``8H WO(R)D`` describes, scored, with the words it
        forms; raises :class:`~wordsalvo.IllegalMoveError` (with ``.reason`` and every
        invalid word in ``.words``) or :class:`~wordsalvo.NotationError`."""
        from .validate import validate_move

        return validate_move(pos, notation, self.lexicon, rack=rack)

    def cross_set(self, pos: Position, direction: int, row: int, col: int) -> tuple[set[str], int, bool]:
        """The letters allowed on an empty square for moves in ``direction``, its cross
        score and whether it has a perpendicular word (for tests and analysis)."""
        for name, v in (("row", row), ("col", col)):
            whole_arg(v, name, low=0, high=DIM - 1)
        self._load(pos, "")
        mask, score = self._gen.cross_set(direction, row * DIM + col)
        letters = {self.rules.alphabet.letters[i - 1] for i in range(1, self.rules.alphabet.size + 1) if mask >> i & 1}
        return letters, score, bool(mask & 1)

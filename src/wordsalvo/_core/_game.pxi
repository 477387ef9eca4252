# Included by _engine.pyx: the game state (csrc/ws_game.c), its rules as data and the
# random stream.  In the same extension as the Generator, so that a state hands its
# board and rack to a generator without a copy through Python, and so that code in C
# built on both (self-play; the simulator and the endgame solver) reaches the C
# structs of both objects (GameState.s, Generator.g).
from libc.stdlib cimport realloc
from wordsalvo._core.cgame cimport *
from wordsalvo._core.caction cimport WsPlayer, WsAction, WS_PLAYER_SWAP_RUN, ws_player_options, ws_player_pick

cdef extern from "ws_game.h":
    size_t WS_GAME_SIZE "sizeof(WsGame)"
    size_t WS_GAME_FIRST "offsetof(WsGame, hash)"
    size_t WS_GAME_RNG "offsetof(WsGame, rng)"
    size_t WS_UNDO_SIZE "sizeof(WsUndo)"
    size_t WS_GAME_RULES_SIZE "sizeof(WsGameRules)"

#: turn kinds (WsUndo, self-play records) and end reasons by their C values
TURN_KIND_NAMES = {WS_TURN_PLAY: "play", WS_TURN_SWAP: "swap", WS_TURN_PASS: "pass", WS_TURN_SETTLE: "settle",
                   WS_TURN_REFUSED: "refused-play", WS_TURN_TIMEOUT: "timeout", WS_TURN_RESIGN: "resign"}
END_REASON_NAMES = {WS_END_OUT: "out", WS_END_PASSES: "passes", WS_END_SCORELESS: "scoreless",
                    WS_END_RESIGN: "resign", WS_END_TIMEOUT: "timeout", WS_END_ELIMINATION: "elimination"}
SETTLEMENT_MODES = {"none": WS_SETTLE_NONE, "subtract-only": WS_SETTLE_SUBTRACT, "play-out": WS_SETTLE_PLAY_OUT}
#: [end] scoreless_turn_kinds names -> bits
SCORELESS_BITS = {"pass": WS_SCORELESS_PASS, "swap": WS_SCORELESS_SWAP, "refused-play": WS_SCORELESS_REFUSED,
                  "zero-score-play": WS_SCORELESS_ZERO_PLAY, "timeout": WS_SCORELESS_TIMEOUT}
#: why a swap is not allowed (GameState.swap_check)
SWAP_PROBLEMS = {WS_SWAP_EMPTY: "empty", WS_SWAP_NOT_ON_RACK: "not-on-rack", WS_SWAP_WHOLE_RACK: "whole-rack",
                 WS_SWAP_BAG_MIN: "bag-min", WS_SWAP_BAG_COVER: "bag-cover"}
#: ws_game_swap says why it refuses a swap: WS_E_SWAP_BASE - the problem
STATUS_TEXT.update({WS_E_SWAP_BASE - k: f"not allowed now ({name})" for k, name in SWAP_PROBLEMS.items()})
#: the codes of a play the state cannot place, by the IllegalMoveReason they are
#: (GameState.play raises wordsalvo.errors.UnplaceableMoveError with it)
_PLAY_REFUSALS = {WS_E_OFF_BOARD: "OFF_BOARD", WS_E_SQUARE_TAKEN: "SQUARE_OCCUPIED",
                  WS_E_NOT_ON_RACK: "TILE_NOT_ON_RACK", WS_E_NO_TILE: "NO_TILES"}
GAME_MAX_PLAYERS = WS_GAME_MAX_PLAYERS
GAME_MAX_BAG = WS_GAME_MAX_BAG
assert WS_MAX_LETTERS + 1 == 33 and WS_GAME_MAX_PLAYERS == 4 and WS_GAME_MAX_BAG == 4096  # set_bag_unseen's arrays
#: longest seed key (32-bit words) of a game's random stream
SEED_WORDS_MAX = 64

#: the integer rule values of GameRules, with their ranges
_RULE_RANGES = {
    "first_vowels": (0, WS_RACK_MAX), "first_consonants": (0, WS_RACK_MAX),
    "swap_min_bag": (0, 1 << 20), "swap_whole_rack": (0, 1), "swap_must_cover": (0, 1),
    "swap_draw_first": (0, 1), "swap_resets_pass": (0, 1),
    "rack_out": (0, 1), "all_pass_rounds": (0, 1 << 20), "consecutive_passes": (0, 1 << 20),
    "scoreless_turns": (0, 1 << 20), "scoreless_bag_below": (0, 1 << 20), "scoreless_kinds": (0, 31),
    "timeout_counts_as_pass": (0, 1), "timeout_loses": (0, 1), "eliminate_after": (0, 1 << 20),
    "settle_out": (0, 2), "settle_passes": (0, 2), "settle_scoreless": (0, 2),
}


def seed_key(seed):
    """The 32-bit words, least significant first, with which CPython seeds
    random.Random(seed) from a whole number (its absolute value)."""
    seed = whole_arg(seed, "seed")
    n = -seed if seed < 0 else seed
    words = []
    while True:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
        if not n:
            return words


cdef int fill_key(object seed, uint32_t *key) except -1:
    """The seed key of ``seed`` into key[0..SEED_WORDS_MAX); returns its length."""
    words = seed_key(seed)
    if len(words) > SEED_WORDS_MAX:
        raise WordSalvoError(f"seed: expected at most {32 * SEED_WORDS_MAX} bits, got {len(words) * 32}")
    for i, w in enumerate(words):
        key[i] = w
    return len(words)


def rng_draws(seed, bounds):
    """randrange(b) for each b of ``bounds`` (1..2**31) from the C twin of
    random.Random(seed) (csrc/ws_rng.c), for the tests and the self-check."""
    cdef WsRng rng
    cdef uint32_t key[64]
    cdef int n = fill_key(seed, key)
    ws_rng_seed(&rng, key, n)
    out = []
    for b in bounds:
        out.append(ws_rng_below(&rng, <uint32_t>check_whole(b, 1, 1 << 31, WordSalvoError, "bound")))
    return out


cdef class GameRules:
    """The turn rules, end rules and settlement of one rule set for one number of
    players, as the C state reads them (wordsalvo.gamestate.game_rules builds them from
    a Rules object).  Immutable; shared by every GameState of those rules."""
    cdef WsGameRules *R
    cdef readonly int players, rack_size, alphabet_size
    cdef object args

    def __cinit__(self, int players, int rack_size, tile_values, bytes bag, uint64_t vowels, dict values):
        cdef int i
        if not 1 <= players <= WS_GAME_MAX_PLAYERS:
            raise RulesError(f"players: expected 1..{WS_GAME_MAX_PLAYERS}, got {players}")
        if not 1 <= rack_size <= WS_RACK_MAX:
            raise RulesError(f"rack size: expected 1..{WS_RACK_MAX}, got {rack_size}")
        values_list = list(tile_values)
        if not 2 <= len(values_list) <= WS_MAX_LETTERS + 1:
            raise RulesError(f"tile values: expected one per letter code plus the blank "
                             f"(2..{WS_MAX_LETTERS + 1} entries), got {len(values_list)}")
        alphabet = len(values_list) - 1
        if len(bag) > WS_GAME_MAX_BAG:  # R.bag holds WS_GAME_MAX_BAG tiles
            raise RulesError(f"bag: expected at most {WS_GAME_MAX_BAG} tiles, got {len(bag)}")
        missing = sorted((set(_RULE_RANGES) | {"keep_factor", "out_factor", "out_bonus"}) - set(values))
        if missing:
            raise RulesError(f"game rules: expected values for {', '.join(missing)}")
        self.R = <WsGameRules*>malloc(WS_GAME_RULES_SIZE)
        if self.R == NULL:
            raise MemoryError("game rules: out of memory")
        memset(self.R, 0, WS_GAME_RULES_SIZE)
        R = self.R
        R.players = players
        R.rack_size = rack_size
        R.alphabet_size = alphabet
        R.tile_value[0] = 0
        for i in range(1, alphabet + 1):
            R.tile_value[i] = <int16_t>check_whole(values_list[i], 0, 1000, RulesError, f"tile value of code {i}")
        R.bag_count = len(bag)
        if bag:
            memcpy(R.bag, <const char*>bag, len(bag))
        R.vowels = vowels
        v = {key: <int32_t>check_whole(values[key], low, high, RulesError, key)
             for key, (low, high) in _RULE_RANGES.items()}
        R.first_vowels, R.first_consonants = v["first_vowels"], v["first_consonants"]
        R.swap_min_bag, R.swap_whole_rack = v["swap_min_bag"], v["swap_whole_rack"]
        R.swap_must_cover, R.swap_draw_first = v["swap_must_cover"], v["swap_draw_first"]
        R.swap_resets_pass, R.rack_out = v["swap_resets_pass"], v["rack_out"]
        R.all_pass_rounds, R.consecutive_passes = v["all_pass_rounds"], v["consecutive_passes"]
        R.scoreless_turns, R.scoreless_bag_below = v["scoreless_turns"], v["scoreless_bag_below"]
        R.scoreless_kinds = v["scoreless_kinds"]
        R.timeout_counts_as_pass, R.timeout_loses = v["timeout_counts_as_pass"], v["timeout_loses"]
        R.eliminate_after = v["eliminate_after"]
        R.settle_out, R.settle_passes, R.settle_scoreless = v["settle_out"], v["settle_passes"], v["settle_scoreless"]
        keep, out = float(values["keep_factor"]), float(values["out_factor"])
        R.keep_factor = <float>keep
        R.out_factor = <float>out
        R.out_bonus = <float>float(values["out_bonus"])
        check_status(ws_game_rules_init(R), RulesError,
                     f"game rules of {players} players, a rack of {rack_size}, first rack {v['first_vowels']} "
                     f"vowels + {v['first_consonants']} consonants, end-game factors {keep:g} and {out:g}")
        self.players, self.rack_size, self.alphabet_size = players, rack_size, alphabet
        self.args = (players, rack_size, tuple(values_list), bag, vowels, dict(values))

    def __dealloc__(self):
        free(self.R)

    def __reduce__(self):
        return (GameRules, self.args)

    @property
    def bag(self):
        """The starting bag: tile codes in the rule set's order."""
        return (<const char*>self.R.bag)[:self.R.bag_count]

    @property
    def tile_values(self):
        return tuple([self.R.tile_value[i] for i in range(self.alphabet_size + 1)])


cdef class GameState:
    """One game state in C (csrc/ws_game.h): board, racks as counts, the bag, scores,
    the player on turn, the counters, who left, the end and its settlement, the random
    stream and the Zobrist hash.  Every turn is pushed on an undo stack that ``undo``
    pops (exactly: tests compare the bytes); a set-up call (``set_*``, ``draw``,
    ``return_rack``, ``take_from_bag``, ``give_tile``, ``add_score``, ``seed``) clears
    that stack.  ``copy()`` copies the state (random stream included, undo stack not).
    Not safe to share between threads: copy it, one per thread."""
    cdef WsGame *s
    cdef readonly GameRules rules
    cdef WsUndo *stack
    cdef Py_ssize_t depth, room
    #: grows with every change (a cache of something made from the state compares it)
    cdef readonly unsigned long version

    def __cinit__(self, GameRules rules not None, seed=None, bint _blank=False):
        cdef uint32_t key[64]
        cdef int n, rc
        self.s = <WsGame*>malloc(WS_GAME_SIZE)
        if self.s == NULL:
            raise MemoryError("game state: out of memory")
        self.rules = rules
        if _blank:
            return
        if seed is None:
            ws_game_clear(self.s, rules.R)
            return
        n = fill_key(seed, key)
        with nogil:
            rc = ws_game_new(self.s, rules.R, key, n)
        check_status(rc, RulesError, f"a new game of {rules.players} players")

    def __dealloc__(self):
        free(self.s)
        free(self.stack)

    def copy(self):
        """An independent copy (the random stream included; no undo stack)."""
        cdef GameState c = GameState.__new__(GameState, self.rules, None, True)
        ws_game_copy(c.s, self.s)
        return c

    cdef WsGame *ptr(self):
        """The C state, for C code built on it (simulator, solver): valid while self lives."""
        return self.s

    def __reduce__(self):
        return (_game_state_from_bytes, (self.rules, self._bytes()))

    cdef bytes _bytes(self):
        return (<const char*>self.s)[WS_GAME_FIRST:WS_GAME_SIZE]

    def raw(self):
        """The state's bytes up to the random stream (two equal states are equal byte for byte)."""
        return (<const char*>self.s)[WS_GAME_FIRST:WS_GAME_RNG]

    def rng_state(self):
        """The random stream's bytes."""
        return (<const char*>self.s)[WS_GAME_RNG:WS_GAME_SIZE]

    # -- reading ----------------------------------------------------------------------
    @property
    def players(self):
        return self.rules.players

    @property
    def board(self):
        """225 tile codes, row-major (a blank: letter | 0x80)."""
        return (<const char*>self.s.board)[:WS_SQUARES]

    @property
    def tile_count(self):
        return self.s.tile_count

    @property
    def bag(self):
        """The bag's tile codes in bag order (0 = blank)."""
        return (<const char*>self.s.bag)[:self.s.bag_count]

    @property
    def bag_count(self):
        return self.s.bag_count

    cdef int _player(self, object player) except -1:
        return <int>check_whole(player, 0, self.rules.players - 1, WordSalvoError, "player")

    def rack(self, player):
        """A rack as 33 counts by tile code ([0] = blanks)."""
        cdef int p = self._player(player)
        return (<const char*>self.s.rack[p])[:WS_MAX_LETTERS + 1]

    def rack_codes(self, player):
        """A rack's tile codes in rack order (letters by code, blanks last)."""
        cdef uint8_t out[7]
        cdef int p = self._player(player)
        cdef int n = ws_game_rack_codes(self.s, p, out)
        return (<const char*>out)[:n]

    def rack_total(self, player):
        return self.s.rack_total[self._player(player)]

    def rack_value(self, player):
        return ws_game_rack_value(self.s, self._player(player))

    @property
    def scores(self):
        return tuple([self.s.score[p] for p in range(self.rules.players)])

    def spread(self, player):
        """``player``'s score minus the best other score."""
        return ws_game_spread(self.s, self._player(player))

    @property
    def to_move(self):
        return self.s.to_move

    @property
    def pass_count(self):
        return self.s.pass_count

    @property
    def scoreless_count(self):
        return self.s.scoreless_count

    @property
    def timeouts(self):
        return tuple([self.s.timeouts[p] for p in range(self.rules.players)])

    @property
    def players_left(self):
        return tuple([p for p in range(self.rules.players) if not (self.s.out_mask >> p) & 1])

    @property
    def is_over(self):
        return self.s.end_reason != WS_END_NONE

    @property
    def end_reason(self):
        """One of wordsalvo.game.END_REASONS, or None while the game runs."""
        return END_REASON_NAMES.get(self.s.end_reason)

    @property
    def finisher(self):
        """The player who went out, or None."""
        return self.s.finisher if self.s.finisher >= 0 else None

    @property
    def winners(self):
        cdef uint32_t w = ws_game_winners(self.s)
        return tuple([p for p in range(self.rules.players) if (w >> p) & 1])

    @property
    def settlement(self):
        """The settlement of the end, in order: (player, rack owner, score, total) each."""
        return tuple([(self.s.settle[i].player, self.s.settle[i].rack_owner, self.s.settle[i].score,
                       self.s.settle[i].total) for i in range(self.s.settle_count)])

    @property
    def hash(self):
        """The Zobrist hash kept with every turn (board, racks, player on turn, counters)."""
        return self.s.hash

    def hash_full(self):
        """The hash computed from scratch (equal to ``hash``)."""
        return ws_game_hash_full(self.s)

    def unseen(self):
        """The tiles the player on turn cannot see (bag and other racks), 33 counts."""
        cdef uint8_t out[33]
        ws_game_unseen(self.s, out)
        return (<const char*>out)[:WS_MAX_LETTERS + 1]

    @property
    def undo_depth(self):
        """Turns ``undo`` can take back."""
        return self.depth

    # -- turns ------------------------------------------------------------------------
    cdef WsUndo *_push(self) except NULL:
        cdef Py_ssize_t room
        cdef WsUndo *grown
        if self.depth == self.room:
            room = max(64, 2 * self.room)
            grown = <WsUndo*>realloc(self.stack, room * WS_UNDO_SIZE)
            if grown == NULL:
                raise MemoryError("game state: out of memory")
            self.stack = grown
            self.room = room
        return &self.stack[self.depth]

    cdef int _done(self, int rc, str what) except -1:
        check_status(rc, PositionError, what)
        self.depth += 1
        self.version += 1
        return 0

    def play(self, row, col, direction, tiles, score):
        """The player on turn plays the main word from (row, col) in ``direction``:
        ``tiles`` has one code per square (a new tile, | 0x80 for a blank; 0 where a
        tile already lies).  The move is trusted to be legal and scored; only what would
        corrupt the state is refused, and nothing changes: a move that does not fit (off
        the board, a square taken, a tile not on the rack, no new tile) raises
        UnplaceableMoveError (a PositionError and an IllegalMoveError with its reason),
        malformed arguments PositionError."""
        cdef WsMove m
        cdef int i, n
        r = <int>check_whole(row, 0, WS_DIM - 1, PositionError, "play: row")
        c0 = <int>check_whole(col, 0, WS_DIM - 1, PositionError, "play: column")
        d = <int>check_whole(direction, 0, 1, PositionError, "play: direction (0 across, 1 down)")
        points = <int>check_whole(score, -(1 << 30), 1 << 30, PositionError, "play: score")
        if not isinstance(tiles, (bytes, bytearray, tuple, list)):
            raise PositionError(f"play: expected the tile codes as bytes or a sequence, got {type(tiles).__name__}")
        codes = [check_whole(t, 0, 255, PositionError, "play: tile code") for t in tiles]
        n = len(codes)
        if not 1 <= n <= WS_DIM:
            raise PositionError(f"play: expected a word of 1..{WS_DIM} squares, got {n}")
        memset(&m, 0, sizeof(m))
        m.row, m.col, m.direction, m.length, m.score = r, c0, d, n, points
        for i in range(n):
            c = codes[i]
            if c & WS_BLANK_BIT:
                m.blank_mask |= 1 << i
            m.tiles[i] = c & WS_LETTER_MASK
            if c and not m.tiles[i]:
                raise PositionError(f"play: square {i} of the word: expected a tile code, got {c}")
            m.tiles_played += 1 if c else 0
        return self._play(&m)

    def play_record(self, record):
        """play() of one MOVE_DTYPE record (the generator's moves)."""
        cdef WsMove m
        raw = bytes(np.asarray(record, dtype=move_dtype()).tobytes())
        if len(raw) != sizeof(WsMove):
            raise PositionError(f"play_record: expected one move record, got {len(raw)} bytes")
        memcpy(&m, <const char*>raw, sizeof(WsMove))
        return self._play(&m)

    cdef object _play(self, WsMove *m):
        cdef int rc
        cdef WsUndo *u = self._push()
        rc = ws_game_play(self.s, m, u)
        if rc != WS_OK and rc in _PLAY_REFUSALS:  # the move's fault: an IllegalMoveError with its reason
            from wordsalvo.errors import IllegalMoveReason, UnplaceableMoveError
            raise UnplaceableMoveError(f"play: {status_text(rc)}", IllegalMoveReason[_PLAY_REFUSALS[rc]])
        self._done(rc, "play")

    def swap_check(self, counts):
        """Why swapping ``counts`` (33 counts) is not allowed now (a SWAP_PROBLEMS name), or None."""
        cdef const uint8_t[::1] c = byte_array(counts, WS_MAX_LETTERS + 1, PositionError, "swap counts")
        return SWAP_PROBLEMS.get(ws_game_swap_check(self.s, &c[0]))

    def swap_allowed(self, n):
        """Whether the player on turn may swap ``n`` tiles now."""
        return bool(ws_game_swap_allowed(self.s, <int>check_whole(n, 0, WS_RACK_MAX, WordSalvoError, "n")))

    def swap(self, counts):
        """The player on turn swaps ``counts`` (33 counts by code)."""
        cdef const uint8_t[::1] c = byte_array(counts, WS_MAX_LETTERS + 1, PositionError, "swap counts")
        self._done(ws_game_swap(self.s, &c[0], self._push()), "swap")

    def pass_turn(self):
        self._done(ws_game_pass(self.s, self._push()), "pass")

    def refused(self):
        """The player on turn loses the turn to a refused play."""
        self._done(ws_game_refused(self.s, self._push()), "refused play")

    def timeout(self):
        self._done(ws_game_timeout(self.s, self._push()), "time-out")

    def resign(self, player):
        cdef int p = self._player(player)
        self._done(ws_game_resign(self.s, p, self._push()), "resign")

    def undo(self):
        """Takes back the last turn (exactly; the random stream is not rewound)."""
        if self.depth == 0:
            raise PositionError("undo: expected a turn to take back, got none")
        self.depth -= 1
        ws_game_undo(self.s, &self.stack[self.depth])
        self.version += 1

    # -- set-up -----------------------------------------------------------------------
    def set_tiles(self, racks, bag):
        """Every rack (one 33-count bytes per player) and the bag (tile codes in order)."""
        cdef bytearray flat = bytearray((WS_MAX_LETTERS + 1) * WS_GAME_MAX_PLAYERS)
        cdef const uint8_t[::1] r
        cdef const uint8_t[::1] b
        cdef uint8_t[::1] f
        cdef int rc
        racks = list(racks)
        if len(racks) != self.rules.players:
            raise PositionError(f"racks: expected {self.rules.players}, got {len(racks)}")
        for p, rack in enumerate(racks):
            r = byte_array(rack, WS_MAX_LETTERS + 1, PositionError, f"rack {p + 1}")
            flat[p * (WS_MAX_LETTERS + 1):(p + 1) * (WS_MAX_LETTERS + 1)] = bytes(r)
        bag = bytes(bag)
        b = bag if bag else b"\0"
        f = flat
        rc = ws_game_set_tiles(self.s, &f[0], &b[0], len(bag))
        self._setup(rc, "" if rc == WS_OK else
                    f"racks of {', '.join(str(sum(bytes(r))) for r in racks)} tiles and a bag of {len(bag)} "
                    f"(racks of at most {self.rules.rack_size}, codes 0..{self.rules.alphabet_size})")

    cdef int _setup(self, int rc, str what) except -1:
        self.version += 1
        check_status(rc, PositionError, what)
        self.depth = 0
        return 0

    def set_bag_unseen(self):
        """The bag becomes the tiles of the rule set that are on no rack and not on the
        board, in rack order (letters by code, blanks last).  Returns the codes the board
        and racks hold more of than the set, and then changes nothing (empty: done)."""
        cdef int left[33]  # WS_MAX_LETTERS + 1
        cdef uint8_t racks[4 * 33]  # WS_GAME_MAX_PLAYERS racks
        cdef uint8_t bag[4096]  # WS_GAME_MAX_BAG
        cdef const WsGameRules *R = self.rules.R
        cdef int i, t, c, p, n = 0
        memset(left, 0, sizeof(left))
        for i in range(R.bag_count):
            left[R.bag[i]] += 1
        for i in range(WS_SQUARES):
            t = self.s.board[i]
            if t:
                left[0 if t & WS_BLANK_BIT else t & WS_LETTER_MASK] -= 1
        for p in range(R.players):
            for t in range(WS_MAX_LETTERS + 1):
                left[t] -= self.s.rack[p][t]
        over = tuple([t for t in range(R.alphabet_size + 1) if left[t] < 0])
        if over:
            return over
        for t in range(1, R.alphabet_size + 1):
            for c in range(left[t]):
                bag[n] = <uint8_t>t
                n += 1
        for c in range(left[0]):
            bag[n] = 0
            n += 1
        memcpy(racks, &self.s.rack[0][0], sizeof(racks))
        self._setup(ws_game_set_tiles(self.s, racks, bag, n), "bag of the unseen tiles")
        return over

    def set_board(self, board):
        cdef const uint8_t[::1] b = byte_array(board, WS_SQUARES, PositionError, "board")
        self._setup(ws_game_set_board(self.s, &b[0]),
                    f"board: expected tile codes 1..{self.rules.alphabet_size} (+0x80 for a blank)")

    def set_scores(self, scores):
        cdef int32_t out[4]
        scores = list(scores)
        if len(scores) != self.rules.players:
            raise PositionError(f"scores: expected {self.rules.players}, got {len(scores)}")
        for p, v in enumerate(scores):
            out[p] = <int32_t>check_whole(v, -(1 << 30), 1 << 30, PositionError, "score")
        self._setup(ws_game_set_scores(self.s, out), "scores")

    def set_turn(self, to_move, scoreless_count=0, pass_count=0):
        """The player on turn and the counters."""
        self._setup(ws_game_set_turn(self.s, self._player(to_move),
                                     <int>check_whole(scoreless_count, 0, 1 << 20, PositionError, "scoreless count"),
                                     <int>check_whole(pass_count, 0, 1 << 20, PositionError, "pass count")),
                    "turn")

    def return_rack(self, player):
        """The player's rack goes back into the bag (appended in rack order)."""
        self._setup(ws_game_return_rack(self.s, self._player(player)), "return rack")

    def draw(self, player, n):
        """The player draws up to ``n`` tiles with the game's random stream."""
        ws_game_draw(self.s, self._player(player), <int>check_whole(n, 0, WS_RACK_MAX, WordSalvoError, "n"))
        self.depth = 0
        self.version += 1

    def take_from_bag(self, player, tile):
        """The player takes ``tile`` (a code) from the bag: its first occurrence."""
        t = <int>check_whole(tile, 0, self.rules.alphabet_size, PositionError, "tile")
        self._setup(ws_game_take_from_bag(self.s, self._player(player), t),
                    f"take tile {tile}: expected a tile of the bag and room on the rack")

    def give_tile(self, source, dest, tile):
        """``tile`` moves from one rack to another."""
        t = <int>check_whole(tile, 0, self.rules.alphabet_size, PositionError, "tile")
        self._setup(ws_game_give_tile(self.s, self._player(source), self._player(dest), t),
                    f"give tile {tile}: expected it on rack {source + 1} and room on rack {dest + 1}")

    def add_score(self, player, points):
        ws_game_add_score(self.s, self._player(player),
                          <int>check_whole(points, -(1 << 20), 1 << 20, WordSalvoError, "points"))
        self.depth = 0
        self.version += 1

    def seed(self, seed):
        """Seeds the random stream like random.Random(seed)."""
        cdef uint32_t key[64]
        cdef int n = fill_key(seed, key)
        ws_game_seed(self.s, key, n)
        self.depth = 0
        self.version += 1

    # -- moves of the player on turn ------------------------------------------------
    def load(self, Generator gen not None, LeaveTable leaves=None, bint by_equity=False):
        """Hands this state to ``gen`` (ws_game_load): then gen.generate_all(),
        gen.best(n), gen.best_equity(n), gen.best_swap(...) answer for the player on
        turn.  ``by_equity``: with ``leaves`` (None: every leave worth 0) while the bag
        holds tiles, the rules' end-game terms when it is empty."""
        cdef int rc
        cdef const WsLeaves *table = NULL
        if gen.alphabet_size != self.rules.alphabet_size:
            raise WordSalvoError(f"generator: expected one of {self.rules.alphabet_size} letters, "
                                 f"got {gen.alphabet_size}")
        if leaves is not None:
            if leaves.types != self.rules.alphabet_size + 1 or leaves.values is None:
                raise WordSalvoError(f"leave table: expected values for {self.rules.alphabet_size + 1} tile types")
            table = &leaves.L
        gen._enter()
        try:
            gen.leaves = leaves
            with nogil:
                rc = ws_game_load(self.s, gen.g, by_equity, table)
        finally:
            ws_guard_leave(&gen.busy)
        check_status(rc, PositionError, "the rack on turn cannot be valued by the leave table")

    def moves(self, Generator gen not None):
        """Every legal placement of the player on turn (MOVE_DTYPE records)."""
        self.load(gen)
        return gen.generate_all().copy()

    def best(self, Generator gen not None, n=1, LeaveTable leaves=None, bint by_equity=False):
        """The n best placements by score, or by equity (``by_equity``; see load):
        (records, equity or None)."""
        self.load(gen, leaves, by_equity)
        if by_equity:
            return gen.best_equity(n)
        return gen.best(n), None


    def choose(self, Generator gen not None, LeaveTable leaves=None, swap_ceiling=None, last_kind=None,
               given=True):
        """The static player's options and choice for the player on turn (csrc/ws_action.h:
        ws_player_options, then ws_player_pick), nothing played: by score without
        ``leaves``, by equity, with swaps, with them.

        ``swap_ceiling``: from this equity of the play on the equity player looks at no
        swap (the table's best value; None: it always looks).  ``last_kind``: the player's
        last turn kind name (a score player does not swap twice in a row), ``"swap-run"``
        (no player swaps now: wordsalvo.engine.bot.swap_run) or None.  ``given``: True
        searches the best placement; None says there is none and a number is the equity
        of a placement the caller chose by other means: it is weighed, not searched.

        Returns (kind, play, swap): kind "play", "swap" or "pass"; play: (a MOVE_DTYPE
        array of the one best placement, its equity) when it was searched and found, else
        None; swap: (the 33 counts put back, the swap's equity) when one is weighed, else
        None.  The generator is left loaded with this state (its leave values are the
        rack's)."""
        cdef WsPlayer P
        cdef WsAction play, swap, a
        cdef int rc, last = -1
        cdef int search = given is True
        cdef uint8_t[::1] raw
        if last_kind == "swap-run":
            last = WS_PLAYER_SWAP_RUN
        elif last_kind is not None:
            last = next((k for k, v in TURN_KIND_NAMES.items() if v == last_kind), -2)
            if last == -2:
                raise WordSalvoError(f"last_kind: expected a turn kind name, 'swap-run' or None, got {last_kind!r}")
        if self.s.end_reason != WS_END_NONE:
            raise PositionError("choose: the game is over")
        if gen.alphabet_size != self.rules.alphabet_size:
            raise WordSalvoError(f"generator: expected one of {self.rules.alphabet_size} letters, "
                                 f"got {gen.alphabet_size}")
        if leaves is not None and (leaves.values is None or leaves.types != self.rules.alphabet_size + 1):
            raise WordSalvoError(f"leave table: expected values for {self.rules.alphabet_size + 1} tile types")
        memset(&P, 0, sizeof(P))
        memset(&play, 0, sizeof(play))
        P.by_equity = leaves is not None
        P.leaves = &leaves.L if leaves is not None else NULL
        P.swap_ceiling = <float>(float("inf") if swap_ceiling is None else
                                 _real(swap_ceiling, "swap_ceiling"))
        play.kind = WS_TURN_PASS
        if not search and given is not None:
            play.kind = WS_TURN_PLAY
            play.equity = <float>_real(given, "given (the equity of the play)")
        gen._enter()
        try:
            gen.leaves = leaves
            with nogil:
                rc = ws_player_options(self.s, gen.g, &P, last, search, &play, &swap)
        finally:
            ws_guard_leave(&gen.busy)
        check_status(rc, PositionError, "the rack on turn cannot be valued by the leave table")
        ws_player_pick(&play, &swap, &a)
        found = None
        if search and play.kind == WS_TURN_PLAY:
            record = np.zeros(1, dtype=move_dtype())
            raw = record.view(np.uint8)
            memcpy(&raw[0], &play.move, sizeof(WsMove))
            found = (record, play.equity)
        weighed = None
        if swap.kind == WS_TURN_SWAP:
            weighed = ((<const char*>swap.swap)[:WS_MAX_LETTERS + 1], swap.equity)
        return TURN_KIND_NAMES[a.kind], found, weighed

cdef double _real(object value, str what) except? -1.0:
    """``value`` as a C double when it is a real number, not NaN (an equity, a bound)."""
    try:
        if isinstance(value, (bool, str, bytes)):
            raise TypeError
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise WordSalvoError(f"{what}: expected a number, got {value!r}") from None
    if v != v:
        raise WordSalvoError(f"{what}: expected a number, got NaN")
    return v

def _game_state_from_bytes(GameRules rules, bytes data):
    """A GameState from GameState.__reduce__ (the same build: the layout is checked)."""
    cdef GameState st
    if len(data) != WS_GAME_SIZE - WS_GAME_FIRST:
        raise WordSalvoError(f"game state: expected {WS_GAME_SIZE - WS_GAME_FIRST} bytes of this build, "
                             f"got {len(data)}")
    st = GameState.__new__(GameState, rules, None, True)
    memcpy(<char*>st.s + WS_GAME_FIRST, <const char*>data, len(data))
    st.s.rules = rules.R
    return st

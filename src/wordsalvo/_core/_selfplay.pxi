# Included by _movegen.pyx: the self-play loop (csrc/ws_selfplay.c) runs on a
# Generator's working memory, so it lives in the same extension.
from wordsalvo._core.cselfplay cimport *

#: one WsTurnRecord (csrc/ws_selfplay.h), 68 bytes
TURN_DTYPE = np.dtype([
    ("move", MOVE_DTYPE),
    ("equity", "<f4"),
    ("score", "<i4"),
    ("total", "<i4"),
    ("bag_before", "<i4"),
    ("player", "u1"),
    ("kind", "u1"),
    ("rack_len", "u1"),
    ("tiles_len", "u1"),
    ("rack", "u1", (7,)),
    ("tiles", "u1", (7,)),
    ("rack_owner", "u1"),
    ("other_len", "u1"),
    ("pad", "u1", (4,)),
])
assert TURN_DTYPE.itemsize == sizeof(WsTurnRecord) == 68
cdef WsTurnRecord _turn_probe
assert TURN_DTYPE.fields["equity"][1] == <size_t>(<char*>&_turn_probe.equity - <char*>&_turn_probe)
assert TURN_DTYPE.fields["bag_before"][1] == <size_t>(<char*>&_turn_probe.bag_before - <char*>&_turn_probe)
assert TURN_DTYPE.fields["player"][1] == <size_t>(<char*>&_turn_probe.player - <char*>&_turn_probe)
assert TURN_DTYPE.fields["rack"][1] == <size_t>(<char*>&_turn_probe.rack[0] - <char*>&_turn_probe)
assert TURN_DTYPE.fields["tiles"][1] == <size_t>(<char*>&_turn_probe.tiles[0] - <char*>&_turn_probe)
assert TURN_DTYPE.fields["rack_owner"][1] == <size_t>(<char*>&_turn_probe.rack_owner - <char*>&_turn_probe)
assert TURN_DTYPE.fields["other_len"][1] == <size_t>(<char*>&_turn_probe.other_len - <char*>&_turn_probe)

#: turn kinds and end reasons of the records, by their C values
TURN_KIND_NAMES = {WS_TURN_PLAY: "play", WS_TURN_SWAP: "swap", WS_TURN_PASS: "pass", WS_TURN_SETTLE: "settle"}
END_REASON_NAMES = {WS_END_OUT: "out", WS_END_PASSES: "passes", WS_END_SCORELESS: "scoreless"}
SETTLEMENT_MODES = {"none": WS_SETTLE_NONE, "subtract-only": WS_SETTLE_SUBTRACT, "play-out": WS_SETTLE_PLAY_OUT}
#: longest seed key (32-bit words) of SelfPlay.play
SEED_WORDS_MAX = 64


def seed_key(seed):
    """The 32-bit words, least significant first, with which CPython seeds
    random.Random(seed) from a whole number (its absolute value)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise WordSalvoError(f"seed: expected a whole number, got {seed!r}")
    n = -seed if seed < 0 else seed
    words = []
    while True:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
        if not n:
            return words


def rng_draws(seed, bounds):
    """randrange(b) for each b of ``bounds`` (1..2**31) from the C twin of
    random.Random(seed) (csrc/ws_rng.c), for the tests and the self-check."""
    cdef WsRng rng
    cdef uint32_t key[64]
    words = seed_key(seed)
    if len(words) > SEED_WORDS_MAX:
        raise WordSalvoError(f"seed: expected at most {32 * SEED_WORDS_MAX} bits, got {len(words) * 32}")
    for i, w in enumerate(words):
        key[i] = w
    ws_rng_seed(&rng, key, len(words))
    out = []
    for b in bounds:
        out.append(ws_rng_below(&rng, <uint32_t>check_whole(b, 1, 1 << 31, WordSalvoError, "bound")))
    return out


cdef class SelfPlay:
    """Whole games of the score and equity players on a Generator, in C
    (wordsalvo.engine.selfplay builds the rule values; see csrc/ws_selfplay.h)."""
    cdef WsSelfplay *sp
    cdef Generator gen
    cdef object tables   # the two seats' LeaveTables (alive while C points into them)
    cdef object buf      # numpy TURN_DTYPE records

    def __cinit__(self, Generator gen, bytes bag, int rack_size, uint64_t vowels, dict values):
        cdef WsSelfplayRules *R
        if not 1 <= rack_size <= WS_RACK_MAX:
            raise RulesError(f"rack size: expected 1..{WS_RACK_MAX}, got {rack_size}")
        if len(bag) > WS_SP_MAX_BAG:
            raise RulesError(f"bag: expected at most {WS_SP_MAX_BAG} tiles, got {len(bag)}")
        for t in bag:
            if t > gen.alphabet_size:
                raise RulesError(f"bag: tile code {t} outside the alphabet (0..{gen.alphabet_size})")
        self.sp = <WsSelfplay*>malloc(sizeof(WsSelfplay))
        if self.sp == NULL:
            raise MemoryError("self-play: out of memory")
        memset(self.sp, 0, sizeof(WsSelfplay))
        self.gen = gen
        R = &self.sp.rules
        R.rack_size = rack_size
        R.bag_count = len(bag)
        if bag:
            memcpy(R.bag, <const char*>bag, len(bag))
        R.vowels = vowels

        def whole(key, low, high):
            return <int32_t>check_whole(values[key], low, high, RulesError, key)

        R.first_vowels = whole("first_vowels", 0, rack_size)
        R.first_consonants = whole("first_consonants", 0, rack_size)
        R.swap_min_bag = whole("swap_min_bag", 0, 1 << 20)
        R.swap_whole_rack = whole("swap_whole_rack", 0, 1)
        R.swap_must_cover = whole("swap_must_cover", 0, 1)
        R.swap_draw_first = whole("swap_draw_first", 0, 1)
        R.swap_resets_pass = whole("swap_resets_pass", 0, 1)
        R.rack_out = whole("rack_out", 0, 1)
        R.all_pass_rounds = whole("all_pass_rounds", 0, 1 << 20)
        R.consecutive_passes = whole("consecutive_passes", 0, 1 << 20)
        R.scoreless_turns = whole("scoreless_turns", 0, 1 << 20)
        R.scoreless_bag_below = whole("scoreless_bag_below", 0, 1 << 20)
        R.scoreless_pass = whole("scoreless_pass", 0, 1)
        R.scoreless_swap = whole("scoreless_swap", 0, 1)
        R.scoreless_zero_play = whole("scoreless_zero_play", 0, 1)
        R.settle_out = whole("settle_out", 0, 2)
        R.settle_passes = whole("settle_passes", 0, 2)
        R.settle_scoreless = whole("settle_scoreless", 0, 2)
        R.turn_limit = whole("turn_limit", 1, 1 << 20)
        keep, out = float(values["keep_factor"]), float(values["out_factor"])
        if not (0.0 <= keep <= 100.0 and 0.0 <= out <= 100.0):
            raise RulesError(f"end-game terms: expected factors 0..100, got {keep} and {out}")
        R.keep_factor = <float>keep
        R.out_factor = <float>out
        self.tables = [None, None]
        self.buf = np.zeros(R.turn_limit + 16, dtype=TURN_DTYPE)

    def __dealloc__(self):
        free(self.sp)

    def set_player(self, int seat, bint by_equity, LeaveTable table=None, double swap_ceiling=0.0):
        """The engine of a seat: best score, or best equity with swaps on ``table``."""
        cdef WsSelfplayPlayer *P
        if not 0 <= seat <= 1:
            raise WordSalvoError(f"seat: expected 0 or 1, got {seat}")
        if by_equity:
            if table is None or table.values is None:
                raise WordSalvoError("an equity player needs a leave table with values")
            if table.types != self.gen.alphabet_size + 1:
                raise WordSalvoError(f"leave table: expected {self.gen.alphabet_size + 1} tile types, "
                                     f"got {table.types}")
        P = &self.sp.player[seat]
        P.by_equity = by_equity
        P.leaves = &table.L if by_equity else NULL
        P.zero = table.all_zero if by_equity else 0
        P.swap_ceiling = <float>swap_ceiling
        self.tables[seat] = table if by_equity else None

    def play(self, seed):
        """Plays one game seeded like random.Random(seed); returns (records, scores by seat,
        end reason, turns taken).  The records are a new TURN_DTYPE array."""
        cdef uint32_t key[64]
        cdef size_t count = 0
        cdef int rc, n
        cdef uint8_t[::1] raw
        cdef size_t capacity = <size_t>self.buf.shape[0]
        words = seed_key(seed)
        if len(words) > SEED_WORDS_MAX:
            raise WordSalvoError(f"seed: expected at most {32 * SEED_WORDS_MAX} bits, got {len(words) * 32}")
        n = len(words)
        for i, w in enumerate(words):
            key[i] = w
        raw = self.buf.view(np.uint8)
        self.gen._enter()
        try:
            with nogil:
                rc = ws_selfplay_game(self.sp, self.gen.g, key, n, <WsTurnRecord*>&raw[0], capacity,
                                      &count)
        finally:
            ws_guard_leave(&self.gen.busy)
        if rc == WS_E_ARGUMENT:
            raise WordSalvoError(f"self-play of seed {seed}: the rules cannot be played (a first deal the bag "
                                 f"cannot make, a rack the leave table cannot value, or no end within "
                                 f"{self.sp.rules.turn_limit} turns)")
        check_status(rc, WordSalvoError, f"self-play of seed {seed}")
        return (self.buf[:count].copy(), (self.sp.score[0], self.sp.score[1]),
                END_REASON_NAMES.get(self.sp.end_reason, ""), self.sp.turns)

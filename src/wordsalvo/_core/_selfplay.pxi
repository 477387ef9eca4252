# Included by _engine.pyx (after _game.pxi): the self-play loop (csrc/ws_selfplay.c)
# runs on a Generator's working memory and a game state, so it lives in the same
# extension.
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


def engine_turn(GameState state not None, Generator gen not None, LeaveTable table=None, double swap_ceiling=0.0,
                last_kind=None):
    """One turn of the static engine player (csrc ws_player_choose, ws_action_apply) for
    the player on turn of ``state``, undoable with state.undo(): by score without
    ``table``, by equity with swaps with it (``swap_ceiling``: the table's best value).
    ``last_kind``: that player's last turn kind name (a score player does not swap
    twice in a row).  Returns (kind name, equity)."""
    cdef WsSelfplayPlayer P
    cdef WsAction a
    cdef int rc, last = -1
    if last_kind is not None:
        last = next((k for k, v in TURN_KIND_NAMES.items() if v == last_kind), -2)
        if last == -2:
            raise WordSalvoError(f"last_kind: expected a turn kind name or None, got {last_kind!r}")
    if state.s.end_reason != WS_END_NONE:
        raise PositionError("engine turn: the game is over")
    if table is not None and (table.values is None or table.types != state.rules.alphabet_size + 1):
        raise WordSalvoError(f"leave table: expected values for {state.rules.alphabet_size + 1} tile types")
    if gen.alphabet_size != state.rules.alphabet_size:
        raise WordSalvoError("generator: expected one of the state's alphabet")
    memset(&P, 0, sizeof(P))
    P.by_equity = table is not None
    P.leaves = &table.L if table is not None else NULL
    P.zero = table.all_zero if table is not None else 0
    P.swap_ceiling = <float>swap_ceiling
    cdef WsUndo *u = state._push()
    gen._enter()
    try:
        gen.leaves = table
        with nogil:
            rc = ws_player_choose(state.s, gen.g, &P, last, &a)
            if rc == WS_OK:
                rc = ws_action_apply(state.s, &a, u)
    finally:
        ws_guard_leave(&gen.busy)
    state._done(rc, "engine turn")
    return TURN_KIND_NAMES[a.kind], a.equity


cdef class SelfPlay:
    """Whole games of the score and equity players on a Generator and the game state
    of two-player GameRules, in C (wordsalvo.engine.selfplay; see csrc/ws_selfplay.h)."""
    cdef WsSelfplay *sp
    cdef Generator gen
    cdef readonly GameRules rules
    cdef object tables   # the two seats' LeaveTables (alive while C points into them)
    cdef object buf      # numpy TURN_DTYPE records

    def __cinit__(self, Generator gen not None, GameRules rules not None, int turn_limit):
        if rules.players != 2:
            raise RulesError(f"self-play: expected the rules of two players, got {rules.players}")
        if rules.alphabet_size != gen.alphabet_size:
            raise RulesError(f"self-play: the rules have {rules.alphabet_size} letters, the generator "
                             f"{gen.alphabet_size}")
        if not 1 <= turn_limit <= (1 << 20):
            raise RulesError(f"turn limit: expected 1..{1 << 20}, got {turn_limit}")
        self.sp = <WsSelfplay*>malloc(sizeof(WsSelfplay))
        if self.sp == NULL:
            raise MemoryError("self-play: out of memory")
        memset(self.sp, 0, sizeof(WsSelfplay))
        self.gen = gen
        self.rules = rules
        self.sp.rules = rules.R
        self.sp.turn_limit = turn_limit
        self.tables = [None, None]
        self.buf = np.zeros(turn_limit + 16, dtype=TURN_DTYPE)

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
        cdef int rc
        cdef uint8_t[::1] raw
        cdef size_t capacity = <size_t>self.buf.shape[0]
        cdef int n = fill_key(seed, key)
        raw = self.buf.view(np.uint8)
        self.gen._enter()
        try:
            with nogil:
                rc = ws_selfplay_game(self.sp, self.gen.g, key, n, <WsTurnRecord*>&raw[0], capacity, &count)
        finally:
            ws_guard_leave(&self.gen.busy)
        check_status(rc, WordSalvoError, f"self-play of seed {seed} (turn limit {self.sp.turn_limit})")
        return (self.buf[:count].copy(), (self.sp.game.score[0], self.sp.game.score[1]),
                END_REASON_NAMES.get(self.sp.game.end_reason, ""), self.sp.turns)

    def final_state(self):
        """The state the last game ended in (a GameState copy)."""
        cdef GameState st = GameState.__new__(GameState, self.rules, None, True)
        ws_game_copy(st.s, &self.sp.game)
        return st

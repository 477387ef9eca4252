# Included by _engine.pyx (after _game.pxi): the self-play loop (csrc/ws_selfplay.c)
# runs on a Generator's working memory and a game state, so it lives in the same
# extension.
from wordsalvo._core.cselfplay cimport *
from wordsalvo._core.crated cimport *
from libc.math cimport isfinite

cdef object _turn_dtype = None

cdef object turn_dtype():
    """TURN_DTYPE: one WsTurnRecord (csrc/ws_selfplay.h), 68 bytes; made on first use,
    checked against the C struct."""
    global _turn_dtype
    cdef WsTurnRecord probe
    if _turn_dtype is not None:
        return _turn_dtype
    d = np.dtype([
        ("move", move_dtype()),
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
        ("forced", "u1"),
        ("pad", "u1", (3,)),
    ])
    assert d.itemsize == sizeof(WsTurnRecord) == 68
    assert d.fields["equity"][1] == <size_t>(<char*>&probe.equity - <char*>&probe)
    assert d.fields["bag_before"][1] == <size_t>(<char*>&probe.bag_before - <char*>&probe)
    assert d.fields["player"][1] == <size_t>(<char*>&probe.player - <char*>&probe)
    assert d.fields["rack"][1] == <size_t>(<char*>&probe.rack[0] - <char*>&probe)
    assert d.fields["tiles"][1] == <size_t>(<char*>&probe.tiles[0] - <char*>&probe)
    assert d.fields["rack_owner"][1] == <size_t>(<char*>&probe.rack_owner - <char*>&probe)
    assert d.fields["other_len"][1] == <size_t>(<char*>&probe.other_len - <char*>&probe)
    assert d.fields["forced"][1] == <size_t>(<char*>&probe.forced - <char*>&probe)
    _turn_dtype = d
    return d


def engine_turn(GameState state not None, Generator gen not None, LeaveTable table=None, double swap_ceiling=0.0,
                last_kind=None):
    """One turn of the static engine player (csrc ws_player_choose, ws_action_apply) for
    the player on turn of ``state``, undoable with state.undo(): by score without
    ``table``, by equity with swaps with it (``swap_ceiling``: the table's best value).
    ``last_kind``: that player's last turn kind name (a score player does not swap
    twice in a row).  Returns (kind name, equity)."""
    cdef WsPlayer P
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


def softmax_pick(values, double beta, excluded, double u):
    """The rated player's draw (csrc ws_softmax_pick): the index drawn from ``values``
    (float64) with weights exp(beta * (value - ref)) for the uniform number ``u`` in
    [0, 1), never one marked in ``excluded`` (a bool array of the same length, or None).
    The caller (wordsalvo.engine.bot.softmax_pick) checks that beta and the values are
    finite and that some index is allowed; here only the shapes and ``u`` are checked."""
    cdef const double[::1] v = np.ascontiguousarray(values, dtype=np.float64)
    cdef size_t n = v.shape[0]
    cdef const uint8_t[::1] ex
    cdef const uint8_t *exp_ = NULL  # the exclusion flags
    cdef double[::1] cum
    cdef size_t k
    if n == 0:
        raise WordSalvoError("softmax_pick: expected at least one value, got none")
    if not 0.0 <= u < 1.0:
        raise WordSalvoError(f"softmax_pick: expected a uniform number in [0, 1), got {u!r}")
    if not isfinite(beta):
        raise WordSalvoError(f"softmax_pick: expected a finite beta, got {beta!r}")
    if excluded is not None:
        flags = np.ascontiguousarray(excluded, dtype=np.bool_)
        if flags.shape != (n,):
            raise WordSalvoError(f"softmax_pick: expected {n} exclusion flags, got shape {flags.shape}")
        if flags.all():
            raise WordSalvoError("softmax_pick: every index is excluded")
        ex = flags.view(np.uint8)
        exp_ = &ex[0]
    cum = np.empty(n, dtype=np.float64)
    with nogil:
        k = ws_softmax_pick(&v[0], exp_, n, beta, u, &cum[0])
    return k


def rng_random_draws(state, int count):
    """``count`` draws of random.random() from the C twin of a random.Random whose
    getstate() is ``state`` (csrc ws_rng_random), for the tests."""
    cdef WsRng rng
    set_rng_state(&rng, state)
    return [ws_rng_random(&rng) for _ in range(count)]


cdef int set_rng_state(WsRng *rng, object state) except -1:
    """The C stream in the state random.Random.getstate() returned (version 3: 624 words and
    the position)."""
    cdef int i
    if not (isinstance(state, tuple) and len(state) == 3 and state[0] == 3 and isinstance(state[1], tuple)
            and len(state[1]) == 625):
        raise WordSalvoError(f"random state: expected random.Random().getstate() (version 3, 625 words), "
                             f"got {type(state).__name__}")
    words = state[1]
    for i in range(624):
        rng.mt[i] = <uint32_t>check_whole(words[i], 0, 0xFFFFFFFF, WordSalvoError, "random state word")
    rng.index = <int32_t>check_whole(words[624], 0, 624, WordSalvoError, "random state position")
    return 0


cdef class WordList:
    """A word list as C reads it (csrc WsWordList): ``words`` spelled with ``letters`` (the
    text of tile codes 1..n).  The rated player never plays a move that forms one."""
    cdef WsWordList W
    cdef object _bytes, _start  # the arrays C points into

    def __cinit__(self, words, letters):
        cdef int i
        cdef const uint8_t[::1] b
        cdef const uint32_t[::1] st
        letters = list(letters)
        if len(letters) > WS_MAX_LETTERS:
            raise WordSalvoError(f"word list: expected at most {WS_MAX_LETTERS} letters, got {len(letters)}")
        memset(&self.W, 0, sizeof(WsWordList))
        for i, letter in enumerate(letters):
            text = letter.encode("utf-8") if isinstance(letter, str) else None
            if not text or len(text) > WS_LETTER_BYTES:
                raise WordSalvoError(f"word list: letter {i + 1}: expected a text of 1..{WS_LETTER_BYTES} "
                                     f"UTF-8 bytes, got {letter!r}")
            self.W.letter_len[i + 1] = len(text)
            for k, c in enumerate(text):
                self.W.letter[i + 1][k] = c
        encoded = sorted(set(w.encode("utf-8") for w in words))
        start = [0]
        total = 0
        for w in encoded:
            total += len(w)
            start.append(total)
        if total >= 1 << 31:
            raise WordSalvoError("word list: expected less than 2 GB of words")
        self._bytes = np.frombuffer(b"".join(encoded) + b"\0", dtype=np.uint8)
        self._start = np.array(start, dtype=np.uint32)
        b = self._bytes
        st = self._start
        self.W.bytes = &b[0]
        self.W.start = &st[0]
        self.W.count = len(encoded)

    def __len__(self):
        return self.W.count

    def forms_listed(self, board, move):
        """Whether the move record ``move`` (MOVE_DTYPE) on ``board`` (225 codes) forms a
        listed word (csrc ws_words_listed), for the tests."""
        cdef const uint8_t[::1] t = byte_array(board, WS_SQUARES, PositionError, "board")
        rec = np.ascontiguousarray(np.asarray(move, dtype=move_dtype()).reshape(1))
        cdef const uint8_t[::1] raw = rec.view(np.uint8)
        cdef const WsMove *m = <const WsMove*>&raw[0]
        if m.length > WS_DIM or m.direction > 1 or m.row >= WS_DIM or m.col >= WS_DIM or \
                (m.row if m.direction else m.col) + m.length > WS_DIM:
            raise PositionError("move: expected a move record that fits the board")
        return bool(ws_words_listed(&self.W, &t[0], m))


#: the plays a rated player's turn may list before the self-play buffer grows (it grows to
#: any size a turn needs: the game is played again, the same game)
RATED_MOVES_START = 1 << 15


cdef class SelfPlay:
    """Whole games of the score and equity players on a Generator and the game state
    of two-player GameRules, in C (wordsalvo.engine.selfplay; see csrc/ws_selfplay.h)."""
    cdef WsSelfplay *sp
    cdef Generator gen
    cdef readonly GameRules rules
    cdef object tables   # the two seats' LeaveTables (alive while C points into them)
    cdef object words    # the two seats' WordLists (the same)
    cdef object buf      # numpy TURN_DTYPE records
    cdef object rated_arrays  # the rated players' buffer (numpy arrays C points into)
    cdef object probe_out  # the last game's probe values: (kinds, equities) of the racks valued

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
        self.words = [None, None]
        self.buf = np.zeros(turn_limit + 16, dtype=turn_dtype())
        self.rated_arrays = None
        self.probe_out = (np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.float32))

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
            self._check_table(table)
        P = &self.sp.player[seat]
        memset(P, 0, sizeof(WsSelfplayPlayer))
        P.kind = WS_SELFPLAY_STATIC
        P.engine.by_equity = by_equity
        P.engine.leaves = &table.L if by_equity else NULL
        P.engine.zero = table.all_zero if by_equity else 0
        P.engine.swap_ceiling = <float>swap_ceiling
        self.tables[seat] = table if by_equity else None
        self.words[seat] = None

    def set_rated(self, int seat, double beta, LeaveTable table=None, WordList offensive=None):
        """The rated player of a seat (csrc ws_rated.h): a softmax over equity with strength
        ``beta`` (finite), by ``table`` (None: by score, no swap weighed), never forming a
        word of ``offensive``.  Its random stream is given with each game (:meth:`play`)."""
        cdef WsSelfplayPlayer *P
        if not 0 <= seat <= 1:
            raise WordSalvoError(f"seat: expected 0 or 1, got {seat}")
        if not isfinite(beta):
            raise WordSalvoError(f"beta: expected a finite number (inf is expert, not a rated player in C), "
                                 f"got {beta!r}")
        if table is not None:
            if table.values is None:
                raise WordSalvoError("a rated player's leave table needs values")
            self._check_table(table)
        P = &self.sp.player[seat]
        memset(P, 0, sizeof(WsSelfplayPlayer))
        P.kind = WS_SELFPLAY_RATED
        P.rated.beta = beta
        P.rated.leaves = &table.L if table is not None else NULL
        P.rated.offensive = &offensive.W if offensive is not None else NULL
        self.tables[seat] = table
        self.words[seat] = offensive
        if self.rated_arrays is None:
            self._rated_buffer(RATED_MOVES_START)

    def _check_table(self, LeaveTable table):
        if table.types != self.gen.alphabet_size + 1:
            raise WordSalvoError(f"leave table: expected {self.gen.alphabet_size + 1} tile types, "
                                 f"got {table.types}")

    def _rated_buffer(self, size_t capacity):
        """Room for ``capacity`` plays of a rated player's turn."""
        cdef WsMove[::1] moves_view
        cdef uint8_t[::1] raw, ex
        cdef double[::1] values, cum
        moves = np.zeros(capacity, dtype=move_dtype())
        raw = moves.view(np.uint8)
        values = np.zeros(capacity + 1, dtype=np.float64)
        cum = np.zeros(capacity + 1, dtype=np.float64)
        ex = np.zeros(capacity + 1, dtype=np.uint8)
        self.rated_arrays = (moves, values, cum, ex)
        self.sp.rated_buffer.moves = <WsMove*>&raw[0]
        self.sp.rated_buffer.values = &values[0]
        self.sp.rated_buffer.cum = &cum[0]
        self.sp.rated_buffer.excluded = &ex[0]
        self.sp.rated_buffer.capacity = capacity
        self.sp.rated_buffer.needed = 0

    def _probe_racks(self, probe, int probe_per_turn):
        """``probe`` checked (see :meth:`play`): a C-ordered (racks, WS_MAX_LETTERS + 1) uint8 copy."""
        cdef int types = self.gen.alphabet_size + 1
        counts = np.asarray(probe)
        if counts.ndim != 2 or counts.shape[1] != types or counts.shape[0] > WS_SELFPLAY_PROBE_MAX:
            raise WordSalvoError(f"probe: expected tile counts of shape (0..{WS_SELFPLAY_PROBE_MAX}, {types}), "
                                 f"got {counts.shape}")
        if counts.dtype.kind not in "iub":
            raise WordSalvoError(f"probe: expected whole tile counts, got dtype {counts.dtype}")
        if probe_per_turn < 1:
            raise WordSalvoError(f"probe_per_turn: expected a whole number >= 1, got {probe_per_turn}")
        for seat in range(2):
            if self.sp.player[seat].kind != WS_SELFPLAY_STATIC or not self.sp.player[seat].engine.by_equity:
                raise WordSalvoError(f"probe: expected equity players with a leave table on both seats, "
                                     f"got another player on seat {seat}")
        have = np.bincount(np.frombuffer(self.rules.bag, dtype=np.uint8), minlength=types)[:types]
        c = counts.astype(np.int64)
        problems = []
        bad = np.flatnonzero(c.sum(axis=1) != self.rules.rack_size) if len(c) else np.zeros(0, np.int64)
        if len(bad):
            problems.append(f"racks {bad[:5].tolist()} hold {c[bad[:5]].sum(axis=1).tolist()} tiles, not "
                            f"{self.rules.rack_size}")
        bad = np.flatnonzero(((c < 0) | (c > have[None, :])).any(axis=1)) if len(c) else np.zeros(0, np.int64)
        if len(bad):
            problems.append(f"racks {bad[:5].tolist()} hold a tile more often than the rule set's "
                            f"{len(self.rules.bag)} tiles have it (or a negative count)")
        if problems:
            raise WordSalvoError(f"probe: expected full racks the rule set's tiles can make; "
                                 f"{'; '.join(problems)} ({len(counts)} racks in all)")
        out = np.zeros((max(1, c.shape[0]), WS_MAX_LETTERS + 1), dtype=np.uint8)
        out[:c.shape[0], :types] = c
        return out

    def last_probes(self):
        """The probe racks the last game valued (the first ones of its ``probe`` list, in order):
        (kinds, equities), a uint8 array of turn kind codes (play, swap or pass) and a float32
        array of the equity of each choice (0 for a pass); empty arrays without probes."""
        return self.probe_out

    def play(self, seed, rng_states=(None, None), force=None, int force_from=0, probe=None,
             int probe_per_turn=1):
        """Plays one game seeded like random.Random(seed); returns (records, scores by seat,
        end reason, turns taken).  The records are a new TURN_DTYPE array.  ``rng_states``:
        for each rated seat, the random.Random.getstate() its draws start from (the
        streams are read, not advanced).  ``force``: full racks to force onto the mover
        from turn ``force_from`` on (csrc/ws_selfplay.h, WsSelfplay.force), as tile counts
        by code (an array of shape (racks, alphabet size + 1), at most
        WS_SELFPLAY_FORCE_MAX racks); the records mark the forced turns.  ``probe``: full
        racks (tile counts of the same shape, at most WS_SELFPLAY_PROBE_MAX, each one the
        rule set's tiles can make; both seats equity players) valued ``probe_per_turn`` a
        turn in the movers' positions without changing the game (csrc/ws_selfplay.h,
        WsSelfplay.probe); :meth:`last_probes` gives their values."""
        cdef uint32_t key[64]
        cdef size_t count = 0
        cdef int rc, seat, i
        cdef uint8_t[::1] raw
        cdef const uint8_t[::1] fv
        cdef const uint8_t[::1] pv
        cdef uint8_t[::1] pk
        cdef float[::1] pe
        cdef int n_probe = 0
        cdef size_t capacity = <size_t>self.buf.shape[0]
        cdef int n = fill_key(seed, key)
        cdef int types = self.gen.alphabet_size + 1
        forced = None
        if force is not None:
            counts = np.asarray(force)
            if counts.ndim != 2 or counts.shape[1] != types or counts.shape[0] > WS_SELFPLAY_FORCE_MAX:
                raise WordSalvoError(f"force: expected tile counts of shape (0..{WS_SELFPLAY_FORCE_MAX}, {types}), "
                                     f"got {counts.shape}")
            if counts.size and (counts.min() < 0 or np.any(counts.sum(axis=1) != self.rules.rack_size)):
                raise WordSalvoError(f"force: expected full racks of {self.rules.rack_size} tiles, got racks of "
                                     f"{sorted(set(counts.sum(axis=1).tolist()))}")
            if force_from < 0:
                raise WordSalvoError(f"force_from: expected a turn >= 0, got {force_from}")
            forced = np.zeros((max(1, counts.shape[0]), WS_MAX_LETTERS + 1), dtype=np.uint8)
            forced[:counts.shape[0], :types] = counts
            fv = forced.reshape(-1)
        if probe is not None:
            probed = self._probe_racks(probe, probe_per_turn)
            n_probe = np.asarray(probe).shape[0]
            pv = probed.reshape(-1)
            kinds = np.full(max(1, n_probe), WS_TURN_PASS, dtype=np.uint8)
            equities = np.zeros(max(1, n_probe), dtype=np.float32)
            pk = kinds
            pe = equities
        self.probe_out = (np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.float32))
        if not isinstance(rng_states, (tuple, list)) or len(rng_states) != 2:
            raise WordSalvoError(f"rng_states: expected two random states (or None), got {type(rng_states).__name__}")
        for seat in range(2):
            if self.sp.player[seat].kind == WS_SELFPLAY_RATED:
                if rng_states[seat] is None:
                    raise WordSalvoError(f"rng_states: seat {seat} is a rated player: expected its "
                                         f"random.Random().getstate(), got None")
                set_rng_state(&self.sp.rng[seat], rng_states[seat])
        raw = self.buf.view(np.uint8)
        while True:
            self.gen._enter()
            if forced is not None:
                self.sp.force = &fv[0]
                self.sp.force_count = counts.shape[0]
                self.sp.force_from = force_from
            if n_probe:
                self.sp.probe = &pv[0]
                self.sp.probe_count = n_probe
                self.sp.probe_per_turn = probe_per_turn
                self.sp.probe_kind = &pk[0]
                self.sp.probe_equity = &pe[0]
            try:
                with nogil:
                    rc = ws_selfplay_game(self.sp, self.gen.g, key, n, <WsTurnRecord*>&raw[0], capacity, &count)
            finally:
                self.sp.force = NULL  # the array is this call's
                self.sp.force_count = 0
                self.sp.probe = NULL  # the arrays are this call's
                self.sp.probe_count = 0
                self.sp.probe_kind = NULL
                self.sp.probe_equity = NULL
                ws_guard_leave(&self.gen.busy)
            if rc == WS_E_CAPACITY and self.sp.rated_buffer.needed > self.sp.rated_buffer.capacity:
                # a turn listed more plays than the buffer holds: the same game again, with room
                self._rated_buffer(self.sp.rated_buffer.needed + self.sp.rated_buffer.needed // 4)
                for seat in range(2):
                    if self.sp.player[seat].kind == WS_SELFPLAY_RATED:
                        set_rng_state(&self.sp.rng[seat], rng_states[seat])
                continue
            break
        check_status(rc, WordSalvoError, f"self-play of seed {seed} (turn limit {self.sp.turn_limit})")
        if n_probe:
            done = self.sp.probe_done
            self.probe_out = (kinds[:done].copy(), equities[:done].copy())
        return (self.buf[:count].copy(), (self.sp.game.score[0], self.sp.game.score[1]),
                END_REASON_NAMES.get(self.sp.game.end_reason, ""), self.sp.turns)

    def final_state(self):
        """The state the last game ended in (a GameState copy)."""
        cdef GameState st = GameState.__new__(GameState, self.rules, None, True)
        ws_game_copy(st.s, &self.sp.game)
        return st

# Included by _engine.pyx (after _sim.pxi): the endgame solver (csrc/ws_endgame.c)
# copies a Generator's working memory and searches on a GameState, so it lives in the
# same extension.
from wordsalvo._core.cendgame cimport *

ENDGAME_MAX_PLY = WS_EG_MAX_PLY
ENDGAME_MAX_THREADS = WS_EG_MAX_THREADS
#: why a solve stopped
ENDGAME_STOP_NAMES = {WS_EG_EXACT: "exact", WS_EG_DEADLINE: "limit", WS_EG_MAX_DEPTH: "depth"}


cdef class EndgameSolver:
    """The exact endgame solver of a two-player GameState with the bag empty
    (csrc/ws_endgame.h): ``table_bits`` (10..30) sizes the transposition table (2**bits
    entries of 24 bytes), ``capacity`` the move stack (moves on the path of the search,
    32 bytes each).  The memory is allocated here, once; ``solve`` runs with the GIL
    released.  ``threads`` > 1: as many threads search together over the shared table
    (lazy SMP; each helper has its own move stack of the same capacity); the value is the
    same.  ``progress()`` may be called from another thread while ``solve`` runs.  The root
    state and the generator are kept alive here."""
    cdef WsEndgame *E
    cdef WsEgEntry *tt
    cdef WsMove *moves
    cdef WsEgOrder *order
    cdef WsEgResult *res
    cdef WsEndgame *helpers[64]
    cdef WsMove *helper_moves[64]
    cdef WsEgOrder *helper_order[64]
    cdef int helper_count
    cdef readonly int threads
    cdef readonly GameState root
    cdef Generator gen
    cdef long busy

    def __cinit__(self, GameState root not None, Generator gen not None, table_bits=20, capacity=1 << 20,
                  threads=1):
        cdef int bits = <int>check_whole(table_bits, 10, 30, WordSalvoError, "table_bits")
        cdef size_t cap = <size_t>check_whole(capacity, 4096, 1 << 28, WordSalvoError, "capacity")
        cdef int nthreads = <int>check_whole(threads, 1, WS_EG_MAX_THREADS, WordSalvoError, "threads")
        cdef size_t entries = (<size_t>1) << bits
        cdef int rc, i
        self.helper_count = 0
        if gen.alphabet_size != root.rules.alphabet_size:
            raise WordSalvoError("endgame: expected a generator of the state's alphabet")
        self.E = <WsEndgame*>malloc(ws_endgame_size())
        self.tt = <WsEgEntry*>malloc(entries * sizeof(WsEgEntry))
        self.moves = <WsMove*>malloc(cap * sizeof(WsMove))
        self.order = <WsEgOrder*>malloc(cap * sizeof(WsEgOrder))
        self.res = <WsEgResult*>malloc(sizeof(WsEgResult))
        if self.E == NULL or self.tt == NULL or self.moves == NULL or self.order == NULL or self.res == NULL:
            raise MemoryError("endgame: out of memory")
        for i in range(nthreads - 1):
            self.helpers[i] = <WsEndgame*>malloc(ws_endgame_size())
            self.helper_moves[i] = <WsMove*>malloc(cap * sizeof(WsMove))
            self.helper_order[i] = <WsEgOrder*>malloc(cap * sizeof(WsEgOrder))
            self.helper_count = i + 1
            if self.helpers[i] == NULL or self.helper_moves[i] == NULL or self.helper_order[i] == NULL:
                raise MemoryError("endgame: out of memory (threads)")
        self.threads = nthreads
        self.root, self.gen = root, gen
        gen._enter()
        try:
            with nogil:
                rc = ws_endgame_setup(self.E, root.s, gen.g, self.tt, entries, self.moves, self.order, cap)
            for i in range(self.helper_count):
                if rc == WS_OK:
                    rc = ws_endgame_add_helper(self.E, self.helpers[i], self.helper_moves[i], self.helper_order[i], cap)
        finally:
            ws_guard_leave(&gen.busy)
        if rc in (WS_E_ENDLESS, WS_E_EMPTY_BAG_SWAP):
            check_status(rc, RulesError, "endgame")
        check_status(rc, WordSalvoError if rc == WS_E_PLAYERS else PositionError,
                     f"endgame of {root.rules.players} players with {root.s.bag_count} tiles in the bag")

    def __dealloc__(self):
        cdef int i
        for i in range(self.helper_count):
            free(self.helpers[i])
            free(self.helper_moves[i])
            free(self.helper_order[i])
        free(self.E)
        free(self.tt)
        free(self.moves)
        free(self.order)
        free(self.res)

    def solve(self, seconds=0.0, max_depth=None, max_nodes=0):
        """Solves (``seconds`` > 0: a time limit; 0: until proven; ``max_nodes`` > 0: a limit
        on the turns searched, the same on every machine).  Returns a dict: value,
        gain, exact, stop, depth, nodes, seconds, replay_value, replay_over and ``pv``, a
        list of ("play", MOVE_DTYPE record, board before it) or ("pass", None, board)."""
        cdef double secs = float(seconds)
        cdef int depth = WS_EG_MAX_PLY - 1 if max_depth is None else <int>check_whole(max_depth, 1, WS_EG_MAX_PLY - 1, WordSalvoError, "max_depth")
        cdef int64_t nodes = <int64_t>check_whole(max_nodes, 0, 1 << 62, WordSalvoError, "max_nodes")
        cdef int rc, i
        cdef WsGame *s
        if not (isfinite(secs) and 0.0 <= secs <= 1e7):
            raise WordSalvoError(f"seconds: expected 0..1e7, got {seconds!r}")
        if not ws_guard_enter(&self.busy):
            raise RuntimeError("this EndgameSolver is running in another thread")
        try:
            with nogil:
                rc = ws_endgame_solve(self.E, secs, nodes, depth, self.res)
        finally:
            ws_guard_leave(&self.busy)
        if rc == WS_E_CAPACITY:
            raise MemoryError("endgame: the move stack is too small for this position (give a larger capacity)")
        check_status(rc, WordSalvoError, "endgame")
        pv = self._line(self.res.pv, self.res.pv_count)
        return {"value": self.res.value, "gain": self.res.gain, "exact": bool(self.res.exact),
                "stop": ENDGAME_STOP_NAMES[self.res.stop], "depth": self.res.depth, "nodes": self.res.nodes,
                "seconds": self.res.seconds, "replay_value": self.res.replay_value,
                "replay_over": bool(self.res.replay_over), "pv": pv}

    cdef list _line(self, WsEgStep *steps, int count):
        """The steps as ("play", MOVE_DTYPE record, board before it) or ("pass", None, board)."""
        cdef int i
        replay = self.root.copy()
        pv = []
        for i in range(count):
            board = replay.board
            if steps[i].kind == WS_TURN_PLAY:
                rec = np.frombuffer((<const char*>&steps[i].move)[:sizeof(WsMove)], dtype=move_dtype())[0]
                pv.append(("play", rec, board))
                replay.play_record(rec)
            else:
                pv.append(("pass", None, board))
                replay.pass_turn()
        return pv

    def play_score(self, record):
        """The score of one MOVE_DTYPE record played on the root position by the side to move,
        or None when it is not a legal play there forming the main word its row, column and
        length give (the check the search makes before trying a play found at another node)."""
        cdef WsMove m
        cdef int32_t score = 0
        cdef int ok
        raw = bytes(np.asarray(record, dtype=move_dtype()).tobytes())
        if len(raw) != sizeof(WsMove):
            raise WordSalvoError(f"play_score: expected one move record, got {len(raw)} bytes")
        memcpy(&m, <const char*>raw, sizeof(WsMove))
        with nogil:
            ok = ws_endgame_play_fits(self.E, &m, &score)
        return int(score) if ok else None

    def progress(self):
        """What the running (or last) solve has found so far, safe to call from another
        thread while ``solve`` runs: a dict of depth (the last completed iteration, 0: none
        yet), value, exact, nodes (all threads), seconds and ``pv`` as in ``solve``."""
        cdef WsEgProgress p
        with nogil:
            ws_endgame_progress(self.E, &p)
        return {"depth": p.depth, "value": p.value, "exact": bool(p.exact), "nodes": p.nodes,
                "seconds": p.seconds, "pv": self._line(p.pv, p.pv_count)}

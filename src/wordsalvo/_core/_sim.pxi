# Included by _engine.pyx (after _selfplay.pxi): the Monte Carlo simulator
# (csrc/ws_sim.c) copies a Generator's working memory for each of its threads and plays
# on a GameState, so it lives in the same extension.
from libc.math cimport isfinite
from wordsalvo._core.csim cimport *

SIM_MAX_CANDIDATES = WS_SIM_MAX_CANDIDATES
SIM_MAX_THREADS = WS_SIM_MAX_THREADS
RACK_MAX = WS_RACK_MAX
SIM_MAX_PLIES = WS_SIM_MAX_PLIES
SIM_MAX_ITERATIONS = WS_SIM_MAX_ITERATIONS
#: why a simulation stopped
SIM_STOP_NAMES = {WS_SIM_RUNNING: "running", WS_SIM_ITERATIONS: "iterations", WS_SIM_DEADLINE: "seconds",
                  WS_SIM_ONE_LEFT: "one-left", WS_SIM_EXACT: "exact"}


cdef int _win_table_check(object table, WsSimConfig *cfg) except -1:
    """Points cfg at a win table (None: none): float32 [unseen][2 * spread + 1], values 0..1."""
    cdef const float[:, ::1] view
    cdef Py_ssize_t i, j
    if table is None:
        cfg.win_table = NULL
        cfg.win_spread = 0
        cfg.win_unseen = 0
        return 0
    try:
        view = table
    except (TypeError, ValueError, BufferError):
        raise WordSalvoError(f"win table: expected a C-contiguous float32 2-D array, got {type(table).__name__}") from None
    if view.shape[0] < 1 or view.shape[0] > 4097 or view.shape[1] < 3 or view.shape[1] > 20001 or view.shape[1] % 2 == 0:
        raise WordSalvoError(f"win table: expected 1..4097 rows (tiles unseen) of an odd 3..20001 spreads, got "
                             f"{view.shape[0]} x {view.shape[1]}")
    for i in range(view.shape[0]):
        for j in range(view.shape[1]):
            if not (0.0 <= view[i, j] <= 1.0):
                raise WordSalvoError(f"win table: expected probabilities 0..1, got {view[i, j]} at [{i}, {j}]")
    cfg.win_table = &view[0, 0]
    cfg.win_spread = <int32_t>((view.shape[1] - 1) // 2)
    cfg.win_unseen = <int32_t>(view.shape[0] - 1)
    return 0


def win_lookup(table, spread, unseen):
    """The win chance the C simulator reads from ``table`` (see Simulation), for tests."""
    cdef WsSimConfig cfg
    memset(&cfg, 0, sizeof(cfg))
    _win_table_check(table, &cfg)
    s = float(spread)
    if not isfinite(s):
        raise WordSalvoError(f"spread: expected a finite number, got {spread!r}")
    return ws_sim_win_lookup(&cfg, s, <int>check_whole(unseen, 0, 1 << 20, WordSalvoError, "unseen"))


cdef class Simulation:
    """A Monte Carlo simulation of the player on turn of a two-player GameState
    (csrc/ws_sim.h): ``candidates`` are ("play", MOVE_DTYPE record), ("swap", 33 counts)
    or ("pass", None); the rollouts are the static equity player on ``table``
    (``swap_ceiling``: its best value).  ``iterations`` 0 means no limit (then
    ``seconds`` > 0); ``win_table`` (float32 [unseen][2 * S + 1], or None) gives the win
    chance; ``cpu_time``: the budget counts the process's CPU time (``seconds`` per
    thread), not the wall clock.  ``run(step)`` works for at most about ``step`` seconds (0: until it stops)
    with the GIL released; ``arms()`` reads the statistics.  The root state, the
    generator (its lexicon, word map and keys) and the table are kept alive here."""
    cdef WsSim *sim
    cdef WsSimConfig cfg
    cdef WsSimStatus st
    cdef readonly GameState root
    cdef Generator gen
    cdef LeaveTable table
    cdef object win_table
    cdef object infer_keep
    cdef long busy
    cdef readonly int threads

    def __cinit__(self, GameState root not None, Generator gen not None, LeaveTable table not None,
                  swap_ceiling, candidates, plies, sampling, threads, iterations, seconds, seed,
                  win_table=None, delta=0.05, min_iterations=16, bint cpu_time=False, infer=None,
                  bint fresh_searches=False, spread_weight=0.0, spread_scale=100.0):
        cdef WsAction *acts = NULL
        cdef int n, i, rc
        cdef const uint8_t[::1] raw
        memset(&self.cfg, 0, sizeof(self.cfg))
        memset(&self.st, 0, sizeof(self.st))
        if root.rules.players != 2:
            raise WordSalvoError(f"simulation: expected a two-player game, got {root.rules.players} players")
        if root.s.end_reason != WS_END_NONE:
            raise PositionError("simulation: the game is over")
        if gen.alphabet_size != root.rules.alphabet_size:
            raise WordSalvoError("simulation: expected a generator of the state's alphabet")
        if table.values is None or table.types != root.rules.alphabet_size + 1:
            raise WordSalvoError(f"leave table: expected values for {root.rules.alphabet_size + 1} tile types")
        if sampling not in ("rr", "bai"):
            raise WordSalvoError(f"sampling: expected 'rr' or 'bai', got {sampling!r}")
        self.cfg.plies = <int32_t>check_whole(plies, 0, WS_SIM_MAX_PLIES, WordSalvoError, "plies")
        self.cfg.sampling = WS_SIM_BAI if sampling == "bai" else WS_SIM_RR
        self.cfg.threads = <int32_t>check_whole(threads, 1, WS_SIM_MAX_THREADS, WordSalvoError, "threads")
        self.cfg.max_iterations = check_whole(iterations, 0, WS_SIM_MAX_ITERATIONS, WordSalvoError, "iterations")
        self.cfg.min_iterations = <int32_t>check_whole(min_iterations, 1, WS_SIM_MAX_ITERATIONS, WordSalvoError,
                                                      "min_iterations")
        secs = float(seconds)
        if not (isfinite(secs) and 0.0 <= secs <= 1e7):
            raise WordSalvoError(f"seconds: expected 0..1e7, got {seconds!r}")
        if self.cfg.max_iterations == 0 and secs == 0.0:
            raise WordSalvoError("simulation: expected an iteration limit or a time limit, got neither")
        self.cfg.seconds = secs
        self.cfg.cpu_clock = 1 if cpu_time else 0
        self.cfg.fresh_searches = 1 if fresh_searches else 0
        d = float(delta)
        if not 0.0 < d < 1.0:
            raise WordSalvoError(f"delta: expected a probability strictly between 0 and 1, got {delta!r}")
        self.cfg.delta = d
        sw, sc = float(spread_weight), float(spread_scale)
        if not 0.0 <= sw <= 100.0:  # NaN too
            raise WordSalvoError(f"spread_weight: expected a weight from 0 to 100, got {spread_weight!r}")
        if sw > 0.0 and not 0.0 < sc <= 1e6:
            raise WordSalvoError(f"spread_scale: expected points above 0, at most 1e6, got {spread_scale!r}")
        self.cfg.spread_weight = sw
        self.cfg.spread_scale = sc if sw > 0.0 else 0.0
        seed = whole_arg(seed, "seed", low=0, high=(1 << 64) - 1, expected="a whole number 0..2**64-1")
        self.cfg.seed = <uint64_t>seed
        ceiling = float(swap_ceiling)
        if not isfinite(ceiling):
            raise WordSalvoError(f"swap ceiling: expected a finite number, got {swap_ceiling!r}")
        self.cfg.player.by_equity = 1
        self.cfg.player.leaves = &table.L
        self.cfg.player.zero = table.all_zero
        self.cfg.player.swap_ceiling = <float>ceiling
        _win_table_check(win_table, &self.cfg)
        self._infer_check(infer, root.rules.alphabet_size)
        candidates = list(candidates)
        n = len(candidates)
        if not 1 <= n <= WS_SIM_MAX_CANDIDATES:
            raise WordSalvoError(f"candidates: expected 1..{WS_SIM_MAX_CANDIDATES}, got {n}")
        acts = <WsAction*>malloc(n * sizeof(WsAction))
        if acts == NULL:
            raise MemoryError("simulation: out of memory")
        try:
            memset(acts, 0, n * sizeof(WsAction))
            for i, cand in enumerate(candidates):
                kind, data = cand
                if kind == "play":
                    raw = byte_array(bytes(np.asarray(data, dtype=move_dtype()).tobytes()), sizeof(WsMove),
                                     WordSalvoError, f"candidate {i}: move record")
                    acts[i].kind = WS_TURN_PLAY
                    memcpy(&acts[i].move, &raw[0], sizeof(WsMove))
                elif kind == "swap":
                    raw = byte_array(data, WS_MAX_LETTERS + 1, WordSalvoError, f"candidate {i}: swap counts")
                    acts[i].kind = WS_TURN_SWAP
                    memcpy(acts[i].swap, &raw[0], WS_MAX_LETTERS + 1)
                elif kind == "pass":
                    acts[i].kind = WS_TURN_PASS
                else:
                    raise WordSalvoError(f"candidate {i}: expected 'play', 'swap' or 'pass', got {kind!r}")
            self.sim = <WsSim*>malloc(ws_sim_size(self.cfg.threads))
            if self.sim == NULL:
                raise MemoryError("simulation: out of memory")
            self.root, self.gen, self.table, self.win_table = root, gen, table, win_table
            self.threads = self.cfg.threads
            gen._enter()
            try:
                gen.leaves = table
                with nogil:
                    rc = ws_sim_setup(self.sim, &self.cfg, root.s, gen.g, acts, n)
            finally:
                ws_guard_leave(&gen.busy)
        finally:
            free(acts)
        check_status(rc, PositionError, "simulation: a candidate the position cannot take")

    cdef int _infer_check(self, object infer, int alphabet_size) except -1:
        """``infer``: None, or (tiles, cumulative weights): bytes of count x WS_RACK_MAX tile
        codes (WS_SIM_INFER_END past a leave's end) and count ascending finite float64 weights,
        the last > 0 (the opponent's kept tiles, see ws_sim.h)."""
        cdef const uint8_t[::1] tiles
        cdef const double[::1] cum
        cdef Py_ssize_t i, j, count
        if infer is None:
            return 0
        if not isinstance(infer, tuple) or len(infer) != 2:
            raise WordSalvoError(f"infer: expected (tiles, cumulative weights), got {type(infer).__name__}")
        raw, weights = infer
        cum = np.ascontiguousarray(weights, dtype=np.float64)
        count = cum.shape[0]
        if not 1 <= count <= WS_SIM_MAX_INFER:
            raise WordSalvoError(f"infer: expected 1..{WS_SIM_MAX_INFER} leaves, got {count}")
        tiles = byte_array(raw, count * WS_RACK_MAX, WordSalvoError, "infer: leave tiles")
        for i in range(count):
            if not (isfinite(cum[i]) and cum[i] >= 0.0 and (i == 0 or cum[i] >= cum[i - 1])):
                raise WordSalvoError(f"infer: expected ascending finite cumulative weights >= 0, got {cum[i]!r} "
                                     f"at leave {i}")
            for j in range(WS_RACK_MAX):
                if tiles[i * WS_RACK_MAX + j] != <uint8_t>WS_SIM_INFER_END and tiles[i * WS_RACK_MAX + j] > alphabet_size:
                    raise WordSalvoError(f"infer: leave {i} has tile code {tiles[i * WS_RACK_MAX + j]}, expected "
                                         f"0..{alphabet_size}")
        if not cum[count - 1] > 0.0:
            raise WordSalvoError("infer: expected a total weight > 0, got 0")
        self.infer_keep = (tiles, cum)
        self.cfg.infer_tiles = &tiles[0]
        self.cfg.infer_cum = &cum[0]
        self.cfg.infer_count = <int32_t>count
        return 0

    def __dealloc__(self):
        free(self.sim)

    def run(self, step_seconds=0.0):
        """Works until the simulation stops or, after a round, ``step_seconds`` have passed
        (0: until it stops); returns why it stopped (SIM_STOP_NAMES; "running": call again)."""
        cdef int rc
        cdef double step = float(step_seconds)
        if not (isfinite(step) and step >= 0.0):
            raise WordSalvoError(f"step seconds: expected a number >= 0, got {step_seconds!r}")
        if not ws_guard_enter(&self.busy):
            raise RuntimeError("this Simulation is running in another thread")
        try:
            with nogil:
                rc = ws_sim_run(self.sim, step, &self.st)
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "simulation: a rollout's rack cannot be valued by the leave table")
        return SIM_STOP_NAMES[self.st.stop]

    @property
    def iterations(self):
        return self.st.iterations

    @property
    def nodes(self):
        """Turns played (candidates and rollout plies)."""
        return self.st.nodes

    @property
    def seconds(self):
        """Wall-clock seconds spent in run()."""
        return self.st.seconds

    @property
    def cpu_seconds(self):
        """The process's CPU time spent in run() (every thread)."""
        return self.st.cpu_seconds

    @property
    def stop(self):
        return SIM_STOP_NAMES[self.st.stop]

    def arms(self):
        """One dict per candidate, in the order given: iterations, equity (mean) and its
        standard error, win (mean) and its standard error, utility (what the sampling rule
        compares and the result is ranked by), alive, dropped_after, leave, static_equity."""
        cdef int count = 0, i
        cdef const WsSimArm *a = ws_sim_arms(self.sim, &count)
        out = []
        for i in range(count):
            n = a[i].n
            eq = a[i].eq_sum / n if n else float("nan")
            win = a[i].win_sum / n if n else float("nan")
            if n > 1:
                eq_var = max(0.0, (a[i].eq_sum2 - n * eq * eq) / (n - 1))
                win_var = max(0.0, (a[i].win_sum2 - n * win * win) / (n - 1))
                eq_se, win_se = (eq_var / n) ** 0.5, (win_var / n) ** 0.5
            else:
                eq_se = win_se = float("nan")
            out.append({"iterations": n, "equity": eq, "stderr": eq_se, "win": win, "win_stderr": win_se,
                        "utility": ws_sim_arm_utility(self.sim, i) if n else float("nan"),
                        "alive": bool(a[i].alive), "dropped_after": a[i].dropped_after, "leave": a[i].leave,
                        "static_equity": a[i].static_equity})
        return out

# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The engine extension: the C core's search and play, wrapped once.

The move generator (csrc/ws_movegen.c, below), the word map (_wordmap.pxi), the game
state and the static player (_game.pxi: ws_game.c, ws_action.c), self-play
(_selfplay.pxi), the simulator (_sim.pxi), the endgame solver (_endgame.pxi) and
inference's rack loop (_infer.pxi): one
extension, since they share the generator's and the game state's C structs.  One C call
per position, with the GIL released; the generator owns all working memory; moves land
in a caller-visible numpy buffer of 28-byte records.
"""
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.object cimport PyObject_GenericSetAttr
from cpython.ref cimport PyObject, Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

from wordsalvo._core.cdefs cimport *
from wordsalvo._core.cmovegen cimport *
from wordsalvo._core._graph cimport Graph
from wordsalvo._core._leaves cimport LeaveTable

from wordsalvo._lazy import numpy as np  # loaded when an array is first made (best moves make none)

cdef object _move_dtype = None

cdef object move_dtype():
    """MOVE_DTYPE: one WsMove: int32 score at 0, uint16 blank_mask at 4, five uint8
    fields at 6..10, tiles at 11..25, two zero pad bytes.  The pad is a named field so
    that numpy copies (sorting, fancy indexing) keep records byte for byte.  Made on
    first use, checked against the C struct byte for byte."""
    global _move_dtype
    cdef WsMove probe
    if _move_dtype is not None:
        return _move_dtype
    d = np.dtype([
        ("score", "<i4"),
        ("blank_mask", "<u2"),
        ("row", "u1"),
        ("col", "u1"),
        ("direction", "u1"),
        ("length", "u1"),
        ("tiles_played", "u1"),
        ("tiles", "u1", (15,)),
        ("pad", "u1", (2,)),
    ])
    assert d.itemsize == sizeof(WsMove) == 28
    assert d.fields["score"][1] == <size_t>(<char*>&probe.score - <char*>&probe)
    assert d.fields["blank_mask"][1] == <size_t>(<char*>&probe.blank_mask - <char*>&probe)
    assert d.fields["row"][1] == <size_t>(<char*>&probe.row - <char*>&probe)
    assert d.fields["col"][1] == <size_t>(<char*>&probe.col - <char*>&probe)
    assert d.fields["direction"][1] == <size_t>(<char*>&probe.direction - <char*>&probe)
    assert d.fields["length"][1] == <size_t>(<char*>&probe.length - <char*>&probe)
    assert d.fields["tiles_played"][1] == <size_t>(<char*>&probe.tiles_played - <char*>&probe)
    assert d.fields["tiles"][1] == <size_t>(<char*>&probe.tiles[0] - <char*>&probe)
    assert d.fields["pad"][1] == <size_t>(<char*>&probe.pad[0] - <char*>&probe)
    assert sizeof(probe.score) == 4
    _move_dtype = d
    return d


def __getattr__(name):
    """MOVE_DTYPE and TURN_DTYPE, made on first use (PEP 562)."""
    if name == "MOVE_DTYPE":
        return move_dtype()
    if name == "TURN_DTYPE":
        return turn_dtype()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

cdef extern from "ws_movegen.h" nogil:
    size_t WS_GEN_SIZE "sizeof(WsGen)"
    size_t WS_BOARD_DATA_SIZE "sizeof(WsBoardData)"

cdef extern from *:
    """
    static const char *ws_gen_board_bytes(const WsGen *g) { return (const char *)&g->board; }
    """
    const char *ws_gen_board_bytes(const WsGen *g)

# The "one thread inside a generator" guard: an atomic exchange, so that two threads
# cannot both pass it even without a GIL (free-threaded Python).
cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static int ws_guard_enter(volatile long *flag) { return _InterlockedExchange(flag, 1) == 0; }
    static void ws_guard_leave(volatile long *flag) { _InterlockedExchange(flag, 0); }
    #else
    static int ws_guard_enter(volatile long *flag) { return __atomic_exchange_n(flag, 1, __ATOMIC_ACQUIRE) == 0; }
    static void ws_guard_leave(volatile long *flag) { __atomic_store_n(flag, 0, __ATOMIC_RELEASE); }
    #endif
    """
    int ws_guard_enter(long *flag) nogil
    void ws_guard_leave(long *flag) nogil

include "status.pxi"

#: the compiled values of csrc/ws_defs.h, named without the WS_ prefix (wordsalvo.constants
#: checks its mirror of them against this at import)
CORE_CONSTANTS = {
    "DIM": WS_DIM,
    "SQUARES": WS_SQUARES,
    "MAX_LETTERS": WS_MAX_LETTERS,
    "RACK_MAX": WS_RACK_MAX,
    "BLANK_BIT": WS_BLANK_BIT,
    "LETTER_MASK": WS_LETTER_MASK,
    "MIN_WORD": WS_MIN_WORD,
    "MAX_WORD": WS_MAX_WORD,
    "OK": WS_OK,
    "E_NOMEM": WS_E_NOMEM,
    "E_CAPACITY": WS_E_CAPACITY,
    "E_FORMAT": WS_E_FORMAT,
    "E_TOO_BIG": WS_E_TOO_BIG,
    "E_ARGUMENT": WS_E_ARGUMENT,
    "LINE_OK": WS_LINE_OK,
    "LINE_EMPTY": WS_LINE_EMPTY,
    "LINE_DIGIT": WS_LINE_DIGIT,
    "LINE_APOSTROPHE": WS_LINE_APOSTROPHE,
    "LINE_HYPHEN": WS_LINE_HYPHEN,
    "LINE_DOT": WS_LINE_DOT,
    "LINE_SPACE": WS_LINE_SPACE,
    "LINE_OTHER_CHARACTER": WS_LINE_OTHER_CHARACTER,
    "LINE_TOO_SHORT": WS_LINE_TOO_SHORT,
    "LINE_TOO_LONG": WS_LINE_TOO_LONG,
    "LINE_DUPLICATE": WS_LINE_DUPLICATE,
    "LINE_BAD_UTF8": WS_LINE_BAD_UTF8,
    "LINE_COMMENT": WS_LINE_COMMENT,
    "NODE_INDEX_MASK": WS_NODE_INDEX_MASK,
    "NODE_END": WS_NODE_END,
    "NODE_ACCEPTS": WS_NODE_ACCEPTS,
    "NODE_TILE_SHIFT": WS_NODE_TILE_SHIFT,
    "MAX_NODES": WS_MAX_NODES,
}

#: largest n of Generator.best (the output array is allocated up front)
BEST_MAX = 1 << 24

include "_wordmap.pxi"


cdef object move_fields(const WsMove *m):
    """A move's fields as best_one_at gives them: (score, blank_mask, row, col, direction,
    length, tiles_played, tiles: bytes of `length` codes)."""
    return (m.score, m.blank_mask, m.row, m.col, m.direction, m.length, m.tiles_played,
            (<const char*>m.tiles)[:m.length])


cdef inline const uint8_t *bytes_of(object data, Py_ssize_t length):
    """The bytes of ``data`` when it is exactly ``bytes`` of ``length`` (no buffer to
    acquire), else NULL: the caller then goes through byte_array, which checks and
    says what was wrong."""
    if type(data) is bytes and len(<bytes>data) == length:
        return <const uint8_t*>PyBytes_AS_STRING(data)
    return NULL


cdef int fill_fields(obj, tuple names, tuple values) except -1:
    """set_fields without the Python call."""
    if len(names) != len(values):
        raise WordSalvoError(f"set_fields: expected as many values as names, got {len(values)} and {len(names)}")
    cdef Py_ssize_t i
    for i in range(len(names)):
        PyObject_GenericSetAttr(obj, names[i], values[i])
    return 0


def set_fields(obj, tuple names, tuple values):
    """Sets each attribute of ``names`` of ``obj`` to the value at its place in ``values``
    by object.__setattr__ (past the class's own __setattr__, which may refuse every
    change): an immutable value class with slots (moves.Move) fills itself in one call
    instead of one object.__setattr__ call a field."""
    fill_fields(obj, names, values)


def new_frozen(type cls, tuple names, tuple values):
    """``object.__new__(cls)`` (no __init__) filled by set_fields(names, values)."""
    obj = object.__new__(cls)
    fill_fields(obj, names, values)
    return obj


cdef class Generator:
    """C working memory for one thread.

    Every argument is checked here, once, before C sees it; a bad one raises a
    WordSalvoError subclass (see status.pxi).  Not safe to share between threads: a
    call while another thread is inside this generator raises RuntimeError, as that
    is a programming error rather than bad input.
    """
    cdef WsGen *g
    cdef Graph graph
    cdef object buf
    cdef long busy                    # 1 while a thread is inside (ws_guard_enter / ws_guard_leave)
    cdef readonly int alphabet_size
    cdef object alphagrams8   # keeps the key array alive while the C struct points into it
    cdef WordMap wordmap      # keeps the word map alive while the C struct points into it
    cdef LeaveTable leaves    # keeps the leave table alive while the C struct points into it
    cdef object equity_buf    # float32 working buffer of best_equity

    def __cinit__(self, graph, letter_mult, word_mult, square_bonus, tile_values,
                  bingo_bonus, bingo_tiles, start_square):
        cdef WsRules rules
        if not isinstance(graph, Graph):
            raise WordSalvoError(f"expected a Graph (Lexicon._graph), got {type(graph).__name__}")
        cdef const uint8_t[::1] lm = byte_array(letter_mult, WS_SQUARES, RulesError, "letter multipliers")
        cdef const uint8_t[::1] wm = byte_array(word_mult, WS_SQUARES, RulesError, "word multipliers")
        cdef int i
        memset(&rules, 0, sizeof(rules))
        try:
            bonus = list(square_bonus)
            values = list(tile_values)
        except TypeError:
            raise RulesError(f"square bonuses and tile values: expected sequences of whole numbers, "
                             f"got {type(square_bonus).__name__} and {type(tile_values).__name__}") from None
        if len(bonus) != WS_SQUARES:
            raise RulesError(f"square bonuses: expected {WS_SQUARES} entries, got {len(bonus)}")
        if not 2 <= len(values) <= WS_MAX_LETTERS + 1:
            raise RulesError(f"tile values: expected one per letter code plus the blank "
                             f"(2..{WS_MAX_LETTERS + 1} entries), got {len(values)}")
        for i in range(WS_SQUARES):
            if lm[i] not in (1, 2, 3) or wm[i] not in (1, 2, 3):
                raise RulesError(f"square {i}: expected multipliers 1..3, got letter {lm[i]}, word {wm[i]}")
            rules.letter_mult[i] = lm[i]
            rules.word_mult[i] = wm[i]
            rules.square_bonus[i] = <int16_t>check_whole(bonus[i], 0, 1000, RulesError, f"square {i} bonus")
        for i in range(len(values)):
            rules.tile_value[i] = <int16_t>check_whole(values[i], 0, 100, RulesError, f"tile value of code {i}")
        rules.bingo_bonus = <int32_t>check_whole(bingo_bonus, 0, 1000, RulesError, "bingo bonus")
        rules.bingo_tiles = <int32_t>check_whole(bingo_tiles, 1, WS_RACK_MAX, RulesError, "bingo tiles")
        rules.start_square = <int32_t>check_whole(start_square, 0, WS_SQUARES - 1, RulesError, "start square")
        rules.alphabet_size = len(values) - 1
        cdef Graph checked = graph
        if <unsigned>rules.alphabet_size != checked.alphabet_size:
            raise WordSalvoError(f"rules have {rules.alphabet_size} letters, the lexicon {checked.alphabet_size}")
        self.alphabet_size = rules.alphabet_size
        self.g = <WsGen*>malloc(WS_GEN_SIZE)
        if self.g == NULL:
            raise MemoryError("move generator: out of memory")
        check_status(ws_gen_init(self.g, checked.nodes, checked.node_count, &rules), WordSalvoError,
                     "cannot set up the move generator")
        self.graph = checked
        self.buf = None  # the move array of generate(), made on its first call
        self.alphagrams8 = None

    def use_alphagrams(self, keys8, keys9):
        """Sorted 8- and 9-letter alphagram keys of this generator's graph
        (Graph.alphagrams(8), (9)): best-move bounds drop full-rack spans through one or
        two board tiles whose word cannot exist."""
        cdef const uint64_t[::1] v8
        cdef const uint64_t[::1] v9
        if not isinstance(keys8, bytes) or not isinstance(keys9, bytes) or len(keys8) % 8 or len(keys9) % 8:
            raise WordSalvoError(f"alphagram keys: expected bytes of whole uint64 values, "
                                 f"got {type(keys8).__name__} and {type(keys9).__name__}")
        self._enter()
        try:
            self.alphagrams8 = (keys8, keys9)
            if keys8:
                v8 = memoryview(keys8).cast("Q")
                ws_gen_set_alphagrams8(self.g, &v8[0], v8.shape[0])
            else:
                ws_gen_set_alphagrams8(self.g, NULL, 0)
            if keys9:
                v9 = memoryview(keys9).cast("Q")
                ws_gen_set_alphagrams9(self.g, &v9[0], v9.shape[0])
            else:
                ws_gen_set_alphagrams9(self.g, NULL, 0)
        finally:
            ws_guard_leave(&self.busy)

    def use_wordmap(self, WordMap wordmap):
        """The word map of this generator's graph (or None): best-move searches read the
        words of long spans from it instead of walking the graph."""
        if wordmap is not None and wordmap.graph is not self.graph:
            raise WordSalvoError("word map: expected the map of this generator's graph, got one of another graph")
        self._enter()
        try:
            self.wordmap = wordmap
            ws_gen_set_wordmap(self.g, &wordmap.m if wordmap is not None else NULL)
        finally:
            ws_guard_leave(&self.busy)

    @property
    def has_wordmap(self):
        return self.wordmap is not None

    def __dealloc__(self):
        free(self.g)

    cdef int _enter(self) except -1:
        if not ws_guard_enter(&self.busy):
            raise RuntimeError("this MoveGenerator is in use by another thread; use one generator per thread")
        return 0

    cdef int _need_position(self) except -1:
        if not self.g.board_valid:
            raise PositionError("expected a position (set_position) before generating moves, got none")
        return 0

    cdef int _check_position(self, const uint8_t[::1] t, const uint8_t[::1] r) except -1:
        """PositionError unless t holds board codes of this alphabet and r a rack of at most
        WS_RACK_MAX tiles of it."""
        return self._check_codes(&t[0], &r[0])

    cdef int _check_codes(self, const uint8_t *t, const uint8_t *r) except -1:
        """_check_position on WS_SQUARES board codes at t and WS_MAX_LETTERS + 1 counts at r."""
        cdef int i, total = 0
        cdef unsigned bad = 0, alphabet = <unsigned>self.alphabet_size
        for i in range(WS_SQUARES):  # without branches (it vectorizes); the square named below
            bad |= (t[i] != 0) & (<unsigned>((t[i] & WS_LETTER_MASK) - 1) >= alphabet)
        for i in range(WS_SQUARES if bad else 0):
            if t[i] and not 1 <= (t[i] & WS_LETTER_MASK) <= self.alphabet_size:
                raise PositionError(f"square {i}: expected a tile code of letters 1..{self.alphabet_size} "
                                    f"(+{WS_BLANK_BIT} for a blank), got {t[i]}: outside the alphabet")
        for i in range(WS_MAX_LETTERS + 1):
            if r[i] and i > self.alphabet_size:
                raise PositionError(f"rack: tile code {i} outside the alphabet (letters 1..{self.alphabet_size})")
            total += r[i]
        if total > WS_RACK_MAX:
            raise PositionError(f"rack: expected at most {WS_RACK_MAX} tiles, got {total}")
        return 0

    def set_position(self, tiles, rack, LeaveTable leaves=None, bint endgame=False, double out_value=0.0,
                     double keep_factor=0.0):
        """tiles: 225 board codes; rack: 33 counts ([0] = blanks).  Checked here, once:
        a bad one raises PositionError and leaves the generator as it was.

        Equity terms: ``leaves`` (values by rank, or None: every leave worth 0), or with
        ``endgame`` the settlement terms (going out is worth ``out_value``, a kept tile
        costs ``keep_factor`` times its face value)."""
        cdef const uint8_t[::1] t = byte_array(tiles, WS_SQUARES, PositionError, "board")
        cdef const uint8_t[::1] r = byte_array(rack, WS_MAX_LETTERS + 1, PositionError, "rack counts")
        cdef int rc, i
        cdef const WsLeaves *table = NULL
        if leaves is not None:
            if leaves.types != self.alphabet_size + 1:
                raise WordSalvoError(f"leave table: expected {self.alphabet_size + 1} tile types (the generator's "
                                     f"letters and the blank), got {leaves.types}")
            if leaves.values is None:
                raise WordSalvoError("leave table: expected values (set_values), got none")
            table = &leaves.L
        if not (-1e6 <= out_value <= 1e6) or not (0.0 <= keep_factor <= 100.0):  # NaN fails both
            raise WordSalvoError(f"end-game terms: expected out_value within ±1e6 and keep_factor 0..100, "
                                 f"got {out_value} and {keep_factor}")
        self._check_position(t, r)
        if table != NULL and leaves.all_zero and not endgame:
            # every leave is worth 0, the value C gives each leave without a table: the same
            # values without ranking every sub-rack; a rack whose leaves the table cannot
            # rank (more of a tile than the set has) is still refused, as the ranking would
            for i in range(leaves.types):
                if min(r[i], leaves.max_size) > leaves.L.cap[i]:
                    raise PositionError(f"rack: {r[i]} tiles of code {i}, more than the leave table's "
                                        f"tile set has ({leaves.L.cap[i]}): its leaves have no value")
            table = NULL
        self._enter()
        try:
            self.leaves = leaves
            with nogil:
                ws_gen_set_equity(self.g, table, endgame, <float>out_value, <float>keep_factor)
                rc = ws_gen_set_board(self.g, &t[0])
                if rc == WS_OK:
                    rc = ws_gen_set_rack(self.g, &r[0])
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "position rejected")

    def generate_all(self):
        """Every legal move, as a numpy structured array (a view of the generator's buffer)."""
        cdef size_t count = 0, cap
        cdef int rc
        cdef uint8_t[::1] raw
        self._enter()
        try:
            self._need_position()
            # reuse the buffer only when no earlier result still holds it
            if self.buf is None:
                self.buf = np.empty(1024, dtype=move_dtype())
            elif (<PyObject*>self.buf).ob_refcnt > 1:
                self.buf = np.empty(self.buf.shape[0], dtype=move_dtype())
            while True:
                cap = self.buf.shape[0]
                raw = self.buf.view(np.uint8)
                with nogil:
                    rc = ws_gen_all(self.g, <WsMove*>&raw[0], cap, &count)
                if rc == WS_E_CAPACITY:
                    del raw
                    self.buf = np.empty(max(count + count // 4, 2 * cap), dtype=move_dtype())
                    continue
                break
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "move generation failed")
        return self.buf[:count]

    def count_all(self):
        """Number of legal moves, without keeping them."""
        cdef size_t count = 0
        cdef int rc
        cdef WsMove dummy
        self._enter()
        try:
            self._need_position()
            with nogil:
                rc = ws_gen_all(self.g, &dummy, 0, &count)
        finally:
            ws_guard_leave(&self.busy)
        if rc != WS_E_CAPACITY:  # nothing is written with capacity 0: a full buffer is the normal answer
            check_status(rc, PositionError, "move counting failed")
        return count

    def best(self, n):
        """The n best moves, best first (ties in a fixed order)."""
        cdef size_t count = 0, want = <size_t>check_whole(n, 1, BEST_MAX, WordSalvoError, "n")
        cdef int rc
        cdef uint8_t[::1] raw
        self._enter()
        try:
            self._need_position()
            out = np.empty(want, dtype=move_dtype())
            raw = out.view(np.uint8)
            with nogil:
                rc = ws_gen_best(self.g, <WsMove*>&raw[0], want, &count)
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "best-move search failed")
        return out[:count]

    cdef int _best_one(self, tiles, rack, WsMove *m, size_t *count) except -1:
        """set_position(tiles, rack) (no leave table) and the best move by score into *m
        (*count 0: none).  Exact bytes (what MoveGenerator hands over) are read in place;
        anything else goes through byte_array's checks."""
        cdef const uint8_t *tp = bytes_of(tiles, WS_SQUARES)
        cdef const uint8_t *rp = bytes_of(rack, WS_MAX_LETTERS + 1)
        cdef const uint8_t[::1] t
        cdef const uint8_t[::1] r
        cdef int rc
        if tp == NULL:
            t = byte_array(tiles, WS_SQUARES, PositionError, "board")
            tp = &t[0]
        if rp == NULL:
            r = byte_array(rack, WS_MAX_LETTERS + 1, PositionError, "rack counts")
            rp = &r[0]
        self._check_codes(tp, rp)
        self._enter()
        try:
            self.leaves = None
            with nogil:
                ws_gen_set_equity(self.g, NULL, 0, 0.0, 0.0)
                rc = ws_gen_set_board(self.g, tp)
                if rc == WS_OK:
                    rc = ws_gen_set_rack(self.g, rp)
                if rc == WS_OK:
                    rc = ws_gen_best(self.g, m, 1, count)
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "best-move search failed")
        return 0

    def best_one_at(self, tiles, rack):
        """set_position(tiles, rack) (no leave table) and the best move by score in one call:
        its fields (move_fields) or None; best(1) without an array."""
        cdef size_t count = 0
        cdef WsMove m
        self._best_one(tiles, rack, &m, &count)
        return move_fields(&m) if count else None

    def best_one_move(self, tiles, rack):
        """best_one_at's move as (score, row, col, direction, tiles) or None, where tiles
        is a tuple of the main word's codes from its first square, a new blank's code with
        WS_BLANK_BIT and 0 for a board tile (Move.tiles): the best move by score with
        nothing left for Python to unpack."""
        cdef size_t count = 0
        cdef WsMove m
        cdef int i
        self._best_one(tiles, rack, &m, &count)
        if not count:
            return None
        codes = PyTuple_New(m.length)
        for i in range(m.length):
            code = m.tiles[i] | (WS_BLANK_BIT if (m.blank_mask >> i) & 1 else 0)
            Py_INCREF(code)
            PyTuple_SET_ITEM(codes, i, code)
        return m.score, m.row, m.col, m.direction, codes

    def best_equity_one_at(self, tiles, rack, LeaveTable leaves, bint endgame, double out_value,
                           double keep_factor, symbols):
        """set_position(tiles, rack, leaves, endgame, out_value, keep_factor) and the best
        move by equity in one call, without arrays: (its fields as best_one_at gives them,
        its equity (the float32 sum of the search), the tiles it keeps as a string of
        ``symbols[code]``, blank first then by code), or None.  best_equity(1) without the
        arrays and the leave values a MoveList holds."""
        cdef size_t count = 0
        cdef int rc, i, k
        cdef WsMove m
        cdef float e = 0.0
        cdef const uint8_t[::1] r
        if len(symbols) != self.alphabet_size + 1:
            raise WordSalvoError(f"symbols: expected {self.alphabet_size + 1} (the blank and each letter), "
                                 f"got {len(symbols)}")
        self.set_position(tiles, rack, leaves, endgame, out_value, keep_factor)
        self._enter()
        try:
            with nogil:
                rc = ws_gen_best_equity(self.g, &m, &e, 1, &count)
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "best-move search by equity failed")
        if not count:
            return None
        r = byte_array(rack, WS_MAX_LETTERS + 1, PositionError, "rack counts")
        kept = [r[i] for i in range(self.alphabet_size + 1)]
        for i in range(m.length):
            if m.tiles[i]:
                k = 0 if (m.blank_mask >> i) & 1 else m.tiles[i]
                kept[k] -= 1
        leave = "".join([symbols[i] * kept[i] for i in range(self.alphabet_size + 1) if kept[i]])
        return move_fields(&m), <double>e, leave

    def best_equity(self, n):
        """The n best moves by equity, best first, and their equity (float32)."""
        cdef size_t count = 0, want = <size_t>check_whole(n, 1, BEST_MAX, WordSalvoError, "n")
        cdef int rc
        cdef uint8_t[::1] raw
        cdef float[::1] eq
        self._enter()
        try:
            self._need_position()
            out = np.empty(want, dtype=move_dtype())
            if self.equity_buf is None or <size_t>len(self.equity_buf) < want:
                self.equity_buf = np.empty(max(want, <size_t>16), dtype=np.float32)
            equity = self.equity_buf
            raw = out.view(np.uint8)
            eq = equity
            with nogil:
                rc = ws_gen_best_equity(self.g, <WsMove*>&raw[0], &eq[0], want, &count)
        finally:
            ws_guard_leave(&self.busy)
        check_status(rc, PositionError, "best-move search by equity failed")
        return out[:count], equity[:count].copy()

    def leave_values(self):
        """(tile codes, radix weights, values) of the current rack: the value of keeping
        each sub-multiset, at index sum(kept count of code i * weight i)."""
        cdef int i
        cdef float[::1] v
        codes = (<char*>self.g.leave_type)[:self.g.leave_types]
        weights = tuple([self.g.leave_weight[i] for i in range(self.g.leave_types)])
        values = np.empty(self.g.leave_count, dtype=np.float32)
        if self.g.leave_count:
            v = values
            memcpy(&v[0], self.g.leave_value, self.g.leave_count * sizeof(float))
        return codes, weights, values

    def best_swap(self, LeaveTable ranking, int bag, int min_bag, bint whole_rack, bint must_cover):
        """The index (into leave_values()) of the leave the best swap of the current rack
        keeps, or -1 when no swap is allowed (csrc ws_gen_best_swap); ties by ``ranking``."""
        self._need_position()
        return ws_gen_best_swap(self.g, &ranking.L if ranking is not None else NULL, bag, min_bag,
                                whole_rack, must_cover)

    def leave_best(self):
        """The best leave value for each number of tiles kept (0..rack size) of the current rack."""
        return [self.g.leave_best[i] for i in range(8)]

    def best_stats(self):
        """(anchors with a move, anchors walked, span classes read from the word map, sub-racks
        looked up in the map) of the last best-move search."""
        return self.g.anchor_count, self.g.anchors_visited, self.g.wordmap_reads, self.g.wordmap_lookups

    def board_data(self):
        """The board data derived from the last board (cross sets, cross scores, lanes) as
        bytes: a function of the tiles alone, whatever boards came before (tests)."""
        return ws_gen_board_bytes(self.g)[:WS_BOARD_DATA_SIZE]

    def cross_set(self, direction, square):
        """(letter mask with bit 0 = has a cross word, cross score) of one square, from scratch."""
        cdef int d = <int>check_whole(direction, 0, 1, WordSalvoError, "direction")
        cdef int sq = <int>check_whole(square, 0, WS_SQUARES - 1, WordSalvoError, "square")
        cdef int16_t cs = 0
        cdef uint64_t m
        self._enter()
        try:
            self._need_position()
            m = ws_gen_cross_set(self.g, d, sq, &cs)
        finally:
            ws_guard_leave(&self.busy)
        return m, cs
include "_game.pxi"
include "_selfplay.pxi"
include "_sim.pxi"
include "_endgame.pxi"
include "_infer.pxi"

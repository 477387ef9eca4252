# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Move generator wrapper (csrc/ws_movegen.c).

One C call per position, with the GIL released; the generator owns all working
memory; moves land in a caller-visible numpy buffer of 24-byte records.
"""
from cpython.ref cimport PyObject
from libc.stdint cimport uint8_t, int16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

from wordsalvo._core.cdefs cimport *
from wordsalvo._core.cmovegen cimport *
from wordsalvo._core._graph cimport Graph

import numpy as np

MOVE_DTYPE = np.dtype([
    ("score", "<i2"),
    ("blank_mask", "<u2"),
    ("row", "u1"),
    ("col", "u1"),
    ("direction", "u1"),
    ("length", "u1"),
    ("tiles_played", "u1"),
    ("tiles", "u1", (15,)),
])

# The dtype must be the C struct, byte for byte.
assert MOVE_DTYPE.itemsize == sizeof(WsMove) == 24
cdef WsMove _probe
assert MOVE_DTYPE.fields["tiles"][1] == <size_t>(<char*>&_probe.tiles[0] - <char*>&_probe)
assert MOVE_DTYPE.fields["row"][1] == <size_t>(<char*>&_probe.row - <char*>&_probe)
assert MOVE_DTYPE.fields["tiles_played"][1] == <size_t>(<char*>&_probe.tiles_played - <char*>&_probe)

cdef extern from "ws_movegen.h" nogil:
    size_t WS_GEN_SIZE "sizeof(WsGen)"

_STATUS = {
    WS_E_NOMEM: "out of memory",
    WS_E_ARGUMENT: "invalid argument",
    WS_E_CAPACITY: "output buffer too small",
}


cdef class Generator:
    """C working memory for one thread.  Not safe to share between threads."""
    cdef WsGen *g
    cdef Graph graph
    cdef object buf
    cdef bint busy
    cdef readonly int alphabet_size
    cdef object alphagrams8   # keeps the key array alive while the C struct points into it

    def __cinit__(self, Graph graph, bytes letter_mult, bytes word_mult, square_bonus, tile_values,
                  int bingo_bonus, int bingo_tiles, int start_square):
        cdef WsRules rules
        cdef int i, rc
        if graph.problem is not None:
            raise ValueError("graph failed validation")
        if len(letter_mult) != 225 or len(word_mult) != 225 or len(square_bonus) != 225:
            raise ValueError("premium arrays must have 225 squares")
        if not 2 <= len(tile_values) <= 33:
            raise ValueError("tile values: one per letter code plus the blank (2..33 entries)")
        memset(&rules, 0, sizeof(rules))
        for i in range(225):
            if letter_mult[i] not in (1, 2, 3) or word_mult[i] not in (1, 2, 3):
                raise ValueError(f"premium multipliers must be 1..3 (square {i})")
            if not 0 <= square_bonus[i] <= 1000:
                raise ValueError(f"square bonus must be 0..1000 (square {i})")
            rules.letter_mult[i] = letter_mult[i]
            rules.word_mult[i] = word_mult[i]
            rules.square_bonus[i] = square_bonus[i]
        for i in range(len(tile_values)):
            if not 0 <= tile_values[i] <= 100:
                raise ValueError(f"tile values must be 0..100 (code {i})")
            rules.tile_value[i] = tile_values[i]
        if not 0 <= bingo_bonus <= 1000 or not 1 <= bingo_tiles <= WS_RACK_MAX or not 0 <= start_square < 225:
            raise ValueError("bingo bonus 0..1000, bingo tiles 1..7, start square 0..224")
        rules.bingo_bonus = bingo_bonus
        rules.bingo_tiles = bingo_tiles
        rules.start_square = start_square
        rules.alphabet_size = len(tile_values) - 1
        if <unsigned>rules.alphabet_size != graph.alphabet_size:
            raise ValueError(f"rules have {rules.alphabet_size} letters, the lexicon {graph.alphabet_size}")
        self.alphabet_size = rules.alphabet_size
        self.g = <WsGen*>malloc(WS_GEN_SIZE)
        if self.g == NULL:
            raise MemoryError()
        rc = ws_gen_init(self.g, graph.nodes, graph.node_count, &rules)
        if rc != WS_OK:
            raise ValueError(f"cannot set up the generator ({_STATUS.get(rc, rc)})")
        self.graph = graph
        self.buf = np.empty(1024, dtype=MOVE_DTYPE)
        self.alphagrams8 = None

    def use_alphagrams(self, bytes keys8, bytes keys9):
        """Sorted 8- and 9-letter alphagram keys of this generator's graph
        (Graph.alphagrams(8), (9)): best-move bounds drop full-rack spans through one or
        two board tiles whose word cannot exist."""
        cdef const uint64_t[::1] v8
        cdef const uint64_t[::1] v9
        if len(keys8) % 8 or len(keys9) % 8:
            raise ValueError("alphagram keys must be whole uint64 values")
        if self.busy:
            raise RuntimeError("this MoveGenerator is in use by another thread")
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

    def __dealloc__(self):
        free(self.g)

    cdef int _enter(self) except -1:
        if self.busy:
            raise RuntimeError("this MoveGenerator is in use by another thread; use one generator per thread")
        self.busy = True
        return 0

    def set_position(self, const uint8_t[::1] tiles, const uint8_t[::1] rack):
        """tiles: 225 board codes; rack: 33 counts ([0] = blanks).  Checked here, once."""
        cdef int rc, i, total = 0
        if tiles.shape[0] != 225:
            raise ValueError(f"expected 225 board squares, got {tiles.shape[0]}")
        if rack.shape[0] != 33:
            raise ValueError(f"expected 33 rack counts, got {rack.shape[0]}")
        for i in range(225):
            if tiles[i] and not 1 <= (tiles[i] & 0x7F) <= self.alphabet_size:
                raise ValueError(f"square {i}: tile code {tiles[i]} outside the alphabet")
        for i in range(33):
            if rack[i] and i > self.alphabet_size:
                raise ValueError(f"rack: tile code {i} outside the alphabet")
            total += rack[i]
        if total > WS_RACK_MAX:
            raise ValueError(f"rack: expected at most {WS_RACK_MAX} tiles, got {total}")
        self._enter()
        try:
            with nogil:
                rc = ws_gen_set_board(self.g, &tiles[0])
                if rc == WS_OK:
                    rc = ws_gen_set_rack(self.g, &rack[0])
        finally:
            self.busy = False
        if rc != WS_OK:
            raise ValueError(f"position rejected ({_STATUS.get(rc, rc)})")

    def generate_all(self):
        """Every legal move, as a numpy structured array (a view of the generator's buffer)."""
        cdef size_t count = 0, cap
        cdef int rc
        cdef uint8_t[::1] raw
        self._enter()
        try:
            # reuse the buffer only when no earlier result still holds it
            if (<PyObject*>self.buf).ob_refcnt > 1:
                self.buf = np.empty(self.buf.shape[0], dtype=MOVE_DTYPE)
            while True:
                cap = self.buf.shape[0]
                raw = self.buf.view(np.uint8)
                with nogil:
                    rc = ws_gen_all(self.g, <WsMove*>&raw[0], cap, &count)
                if rc == WS_E_CAPACITY:
                    del raw
                    self.buf = np.empty(max(count + count // 4, 2 * cap), dtype=MOVE_DTYPE)
                    continue
                break
        finally:
            self.busy = False
        if rc != WS_OK:
            raise ValueError(f"move generation failed ({_STATUS.get(rc, rc)})")
        return self.buf[:count]

    def count_all(self):
        """Number of legal moves, without keeping them."""
        cdef size_t count = 0
        cdef int rc
        cdef WsMove dummy
        self._enter()
        try:
            with nogil:
                rc = ws_gen_all(self.g, &dummy, 0, &count)
        finally:
            self.busy = False
        return count

    def best(self, size_t n):
        """The n best moves, best first (ties in a fixed order)."""
        cdef size_t count = 0
        cdef int rc
        cdef uint8_t[::1] raw
        if n < 1:
            raise ValueError("n must be at least 1")
        out = np.empty(n, dtype=MOVE_DTYPE)
        raw = out.view(np.uint8)
        self._enter()
        try:
            with nogil:
                rc = ws_gen_best(self.g, <WsMove*>&raw[0], n, &count)
        finally:
            self.busy = False
        if rc != WS_OK:
            raise ValueError(f"move generation failed ({_STATUS.get(rc, rc)})")
        return out[:count]

    def best_stats(self):
        """(anchors with a move, anchors searched) of the last best-move search."""
        return self.g.anchor_count, self.g.anchors_visited

    def cross_set(self, int direction, int square):
        """(letter mask with bit 0 = has a cross word, cross score) of one square, from scratch."""
        cdef int16_t cs = 0
        cdef uint64_t m
        if direction not in (0, 1) or not 0 <= square < 225:
            raise ValueError("direction 0/1 and square 0..224")
        m = ws_gen_cross_set(self.g, direction, square, &cs)
        return m, cs
include "_wordmap.pxi"

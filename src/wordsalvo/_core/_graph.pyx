# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Graph compiler and loader (thin wrapper over csrc/ws_build.c and ws_graph.c).

Inputs are checked here once; the C code trusts what it gets.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

from wordsalvo._core.cdefs cimport *
from wordsalvo._core.cgraph cimport *
from wordsalvo._core.cbuild cimport *

GRAPH_PROBLEMS = {
    WS_GRAPH_TOO_SMALL: "node array too small",
    WS_GRAPH_BAD_ROOT: "root entry does not point into the node array",
    WS_GRAPH_INDEX_RANGE: "arc index out of range",
    WS_GRAPH_TILE_RANGE: "tile outside the alphabet",
    WS_GRAPH_ORDER: "sibling list not in ascending tile order",
    WS_GRAPH_NO_END: "last sibling list is not terminated",
    WS_GRAPH_SEPARATOR: "separator arc without a following tile",
    WS_GRAPH_DEAD_ARC: "arc that neither completes a word nor leads anywhere",
}

MAX_NODES = WS_MAX_NODES


cdef class Graph:
    """A validated node array.  Holds a reference to the buffer owner."""

    def __cinit__(self, owner, const uint32_t[::1] view, unsigned alphabet_size):
        cdef uint64_t s = 0, ws = 0
        cdef uint32_t bad = 0
        cdef int problem
        if alphabet_size < 1 or alphabet_size > WS_MAX_LETTERS:
            raise ValueError(f"alphabet size must be 1..{WS_MAX_LETTERS}, got {alphabet_size}")
        if view.shape[0] >= WS_MAX_NODES:
            raise ValueError(f"too many nodes: {view.shape[0]}")
        self.owner = owner
        self.view = view
        self.node_count = <uint32_t>view.shape[0]
        self.alphabet_size = alphabet_size
        self.nodes = &view[0] if view.shape[0] else NULL
        if self.node_count < 3:
            problem = WS_GRAPH_TOO_SMALL
        else:
            with nogil:
                problem = ws_graph_validate(self.nodes, self.node_count, alphabet_size, &s, &ws, &bad)
        self._problem = problem
        self._bad_index = bad
        self._sums = (s, ws)

    @property
    def problem(self):
        """None, or (message, index of the bad entry)."""
        if self._problem == WS_GRAPH_OK:
            return None
        return (GRAPH_PROBLEMS.get(self._problem, f"problem {self._problem}"), self._bad_index)

    @property
    def checksums(self):
        return self._sums

    def contains(self, const uint8_t[::1] word):
        if self._problem != WS_GRAPH_OK or word.shape[0] == 0:
            return False
        return ws_graph_contains(self.nodes, &word[0], word.shape[0]) == 1

    def alphagrams(self, int length):
        """Sorted distinct alphagram keys (uint64, native order) of every word of `length`
        letters, as bytes; built once per graph on first use (used by best-move bounds)."""
        cdef long n
        cdef uint64_t[::1] out
        if self._problem != WS_GRAPH_OK:
            raise ValueError("graph failed validation")
        if self._alphagrams is None:
            self._alphagrams = {}
        cached = self._alphagrams.get(length)
        if cached is not None:
            return cached
        with nogil:
            n = ws_graph_alphagrams(self.nodes, length, NULL, 0)
        if n < 0:
            raise ValueError(f"alphagram length must be 1..10, got {length}")
        arr = bytearray(8 * (n if n else 1))
        out = memoryview(arr).cast("Q")
        with nogil:
            n = ws_graph_alphagrams(self.nodes, length, &out[0], out.shape[0])
        if n < 0:
            raise RuntimeError(f"alphagram enumeration failed ({n})")
        del out
        result = bytes(arr[: 8 * n])
        self._alphagrams[length] = result
        return result

    def dawg_words(self, size_t limit=0):
        """Every word of the DAWG in order, as tile-code bytes (for tests and export)."""
        cdef list out = []
        cdef uint32_t stack_list[17]
        cdef uint32_t stack_pos[17]
        cdef uint8_t word[16]
        cdef int depth = 0
        cdef uint32_t node, child
        if self._problem != WS_GRAPH_OK:
            raise ValueError("graph failed validation")
        stack_list[0] = ws_node_index(self.nodes[0])
        stack_pos[0] = stack_list[0]
        while depth >= 0:
            node = self.nodes[stack_pos[depth]]
            word[depth] = <uint8_t>ws_node_tile(node)
            if ws_node_accepts(node):
                out.append(bytes(word[:depth + 1]))
                if limit and len(out) >= limit:
                    return out
            child = ws_node_index(node)
            if child and depth < 15:
                depth += 1
                stack_pos[depth] = child
                continue
            # advance to the next sibling, popping finished lists
            while depth >= 0:
                node = self.nodes[stack_pos[depth]]
                if ws_node_is_end(node):
                    depth -= 1
                else:
                    stack_pos[depth] += 1
                    break
        return out


def checksum(const uint32_t[::1] nodes):
    cdef uint64_t s = 0, ws = 0
    if nodes.shape[0]:
        ws_graph_checksum(&nodes[0], <uint32_t>nodes.shape[0], &s, &ws)
    return s, ws


cdef class WordBuffer:
    """Parsed and normalised words of a word list (C memory)."""
    cdef WsWordKey *words
    cdef readonly size_t count
    cdef readonly long lines
    cdef public bytearray line_status

    def __dealloc__(self):
        free(self.words)

    def sort_unique(self):
        cdef uint8_t[::1] st = self.line_status
        cdef uint8_t *stp = &st[0] if st.shape[0] else NULL
        with nogil:
            self.count = ws_sort_unique(self.words, self.count, stp)
        return self.count

    def to_utf8(self, bytes letter_utf8, bytes rank):
        """The words as UTF-8 lines sorted by code point (for the word-list sha256)."""
        cdef const uint8_t[::1] lu = letter_utf8
        cdef const uint8_t[::1] rk = rank
        cdef size_t cap = self.count * 61 + 1
        cdef uint8_t *out
        cdef long n
        if lu.shape[0] != 4 * WS_MAX_LETTERS or rk.shape[0] != WS_MAX_LETTERS + 1:
            raise ValueError("letter table must be 128 bytes and rank table 33 bytes")
        out = <uint8_t*>malloc(cap)
        if out == NULL:
            raise MemoryError()
        try:
            with nogil:
                n = ws_words_to_utf8(self.words, self.count, &lu[0], &rk[0], out, cap)
            if n < 0:
                raise MemoryError() if n == WS_E_NOMEM else RuntimeError(f"status {n}")
            return out[:n]
        finally:
            free(out)

    def word_bytes(self, size_t i):
        if i >= self.count:
            raise IndexError(i)
        return bytes(self.words[i].letters[:self.words[i].letters[15]])

    def build(self):
        """(nodes as bytes (little-endian uint32), node_count, state_count, prefix_count)."""
        cdef WsBuildResult res
        cdef int rc
        with nogil:
            rc = ws_build_graph(self.words, self.count, &res)
        if rc == WS_E_NOMEM:
            raise MemoryError("out of memory while building the graph")
        if rc == WS_E_TOO_BIG:
            raise OverflowError(f"the graph would need more than {WS_MAX_NODES} nodes")
        if rc != WS_OK:
            raise ValueError(f"cannot build a graph (status {rc}): no words?")
        try:
            data = (<char*>res.nodes)[:res.node_count * 4]
            return data, res.node_count, res.state_count, res.prefix_count
        finally:
            ws_build_free(&res)


def parse_wordlist(const uint8_t[::1] text, list mapping):
    """Parse UTF-8 text with a normalisation table [(code point, tile bytes), ...] sorted by code point."""
    cdef size_t nmap = len(mapping)
    cdef WsCharMap *cmap = <WsCharMap*>malloc((nmap if nmap else 1) * sizeof(WsCharMap))
    cdef size_t i, length = text.shape[0]
    cdef size_t max_lines
    cdef long lines
    cdef size_t nwords = 0
    cdef WordBuffer wb
    cdef uint8_t[::1] st
    cdef const uint8_t *tp
    if cmap == NULL:
        raise MemoryError()
    try:
        prev = -1
        for i in range(nmap):
            cp, tiles = mapping[i]
            if cp <= prev or not 1 <= len(tiles) <= 3:
                raise ValueError("mapping must be sorted by code point with 1..3 tiles each")
            prev = cp
            cmap[i].code_point = cp
            memset(cmap[i].tiles, 0, 4)
            for j in range(len(tiles)):
                if not 1 <= tiles[j] <= WS_MAX_LETTERS:
                    raise ValueError(f"tile code {tiles[j]} out of range")
                cmap[i].tiles[j] = tiles[j]
            cmap[i].tiles[3] = len(tiles)
        max_lines = bytes(text).count(b"\n") + 2
        wb = WordBuffer()
        wb.line_status = bytearray(max_lines)
        wb.words = <WsWordKey*>malloc(max_lines * sizeof(WsWordKey))
        if wb.words == NULL:
            raise MemoryError()
        st = wb.line_status
        tp = &text[0] if length else <const uint8_t*>b""
        with nogil:
            lines = ws_parse_wordlist(tp, length, cmap, nmap, &st[0], max_lines, wb.words, &nwords)
        if lines < 0:
            raise RuntimeError(f"word list parse failed (status {lines})")
        wb.lines = lines
        wb.count = nwords
        st = None  # release the buffer before resizing
        del wb.line_status[lines:]
        return wb
    finally:
        free(cmap)

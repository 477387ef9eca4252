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
from wordsalvo._core.cmem cimport ws_mem_large, ws_mem_large_pages
from cpython.buffer cimport PyBuffer_FillInfo

GRAPH_PROBLEMS = {
    WS_GRAPH_TOO_SMALL: "node array too small",
    WS_GRAPH_BAD_ROOT: "root entry does not point into the node array",
    WS_GRAPH_INDEX_RANGE: "arc index out of range",
    WS_GRAPH_TILE_RANGE: "tile outside the alphabet",
    WS_GRAPH_ORDER: "sibling list not in ascending tile order",
    WS_GRAPH_NO_END: "last sibling list is not terminated",
    WS_GRAPH_SEPARATOR: "separator arc without a following tile",
    WS_GRAPH_DEAD_ARC: "arc that neither completes a word nor leads anywhere",
    WS_GRAPH_CYCLE: "sibling list reachable from itself (a cycle)",
    WS_GRAPH_TOO_DEEP: f"path longer than the longest word ({WS_MAX_WORD} letters)",
    WS_GRAPH_DAWG_SEPARATOR: "GADDAG separator arc in the DAWG half",
}

#: graphs of at most this many words are cross-checked word by word (every split of
#: every word in the GADDAG); larger ones by every k-th word, this many in all
CROSS_CHECK_WORDS = 2000

MAX_NODES = WS_MAX_NODES


include "status.pxi"


cdef class LargeBuffer:
    """``size`` zeroed, writable bytes on 2 MiB pages where the system gives them
    (csrc/ws_mem.h; ordinary pages elsewhere).  A graph file is read into one
    (Lexicon.load): a search on a new position reads the nodes all over, and with 4 KiB
    pages its address translations miss."""
    cdef uint8_t *data
    cdef readonly Py_ssize_t size

    def __cinit__(self, size):
        # a graph file is at most 1 GiB (inputs.SIZE_LIMITS), read with one byte more
        cdef Py_ssize_t n = check_whole(size, 1, 1 << 31, WordSalvoError, "buffer size")
        self.data = <uint8_t *>ws_mem_large(<size_t>n)
        if self.data == NULL:
            raise MemoryError(f"cannot allocate {n:,} bytes for a graph")
        self.size = n

    def __dealloc__(self):
        free(self.data)

    def __len__(self):
        return self.size

    def __getbuffer__(self, Py_buffer *buffer, int flags):
        PyBuffer_FillInfo(buffer, self, self.data, self.size, 0, flags)

    def __releasebuffer__(self, Py_buffer *buffer):
        pass


def large_pages_compiled():
    """Whether LargeBuffer asks the kernel for 2 MiB pages (Linux); it may still decline."""
    return bool(ws_mem_large_pages())


cdef class Graph:
    """A validated node array.  Holds a reference to the buffer owner.

    The constructor checks every arc (and, when given, the checksums) and raises
    LexiconFormatError on the first problem, so a Graph that exists is always valid:
    lookups and the nogil search follow only checked indices.

    owner: the buffer's owner (kept alive); view: the nodes as uint32; name and offset:
    the file name and the byte offset of node 0 in it, for messages; checksums: the
    (sum, weighted sum) the file header promises, or None.  trusted: (word count,
    longest word) of a graph the package built and checked word by word itself (its
    embedded graphs): every arc and the checksums are still checked, the word-level
    check (both halves counted, the GADDAG against the DAWG) is skipped.
    """

    def __cinit__(self, owner, view, alphabet_size, name=None, offset=0, checksums=None, trusted=None):
        cdef uint64_t s = 0, ws = 0
        cdef uint32_t bad = 0
        cdef int problem
        cdef const uint32_t[::1] nodes_view
        cdef unsigned letters
        cdef Py_ssize_t base = check_whole(offset, 0, 1 << 62, WordSalvoError, "graph node offset")
        letters = <unsigned>check_whole(alphabet_size, 1, WS_MAX_LETTERS, LexiconFormatError, "alphabet size")
        try:
            nodes_view = view
        except (TypeError, ValueError, BufferError):
            raise LexiconFormatError(f"expected the node array as contiguous uint32 values, "
                                     f"got {type(view).__name__}", name, base) from None
        if nodes_view.shape[0] >= WS_MAX_NODES:
            raise LexiconFormatError(f"too many nodes: expected fewer than {WS_MAX_NODES}, "
                                     f"got {nodes_view.shape[0]}", name, base)
        if nodes_view.shape[0] < 3:
            problem = WS_GRAPH_TOO_SMALL
        else:
            with nogil:
                problem = ws_graph_validate(&nodes_view[0], <uint32_t>nodes_view.shape[0], letters, &s, &ws, &bad)
        if problem != WS_GRAPH_OK:
            raise LexiconFormatError(
                f"corrupt node array: {GRAPH_PROBLEMS.get(problem, f'problem {problem}')} at node {bad}",
                name, base + 4 * bad)
        if checksums is not None and tuple(checksums) != (s, ws):
            raise LexiconFormatError("node checksum mismatch (the node array is corrupt)", name, base)
        self.owner = owner
        self.view = nodes_view
        self.node_count = <uint32_t>nodes_view.shape[0]
        self.alphabet_size = letters
        self.nodes = &nodes_view[0]
        self._sums = (s, ws)
        if trusted is not None:
            self.word_count = <uint64_t>check_whole(trusted[0], 0, 1 << 62, WordSalvoError, "trusted word count")
            self.longest_word = <unsigned>check_whole(trusted[1], 0, 15, WordSalvoError, "trusted longest word")
            self.words_cross_checked = 0
            return
        # the word level: counts of both halves (cycles, depth), then the GADDAG against the DAWG
        cdef WsGraphCounts counts
        with nogil:
            problem = ws_graph_count(&nodes_view[0], <uint32_t>nodes_view.shape[0], &counts, &bad)
        if problem == WS_E_NOMEM:
            raise MemoryError(f"{name}: out of memory while counting the words of the graph")
        if problem != WS_GRAPH_OK:
            raise LexiconFormatError(
                f"corrupt node array: {GRAPH_PROBLEMS.get(problem, f'problem {problem}')} at node {bad}",
                name, base + 4 * bad)
        if counts.gaddag_paths != counts.dawg_letters:
            raise LexiconFormatError(
                f"corrupt node array: the GADDAG half has {counts.gaddag_paths:,} word paths, the DAWG's "
                f"{counts.dawg_words:,} words need {counts.dawg_letters:,} (the two halves disagree)", name, base)
        cdef uint64_t stride = (counts.dawg_words + CROSS_CHECK_WORDS - 1) // CROSS_CHECK_WORDS, checked = 0
        cdef uint8_t bad_word[16]
        cdef unsigned bad_length = 0
        with nogil:
            problem = ws_graph_cross_check(&nodes_view[0], stride, &checked, bad_word, &bad_length)
        if problem != WS_GRAPH_OK:
            raise LexiconFormatError(
                f"corrupt node array: the GADDAG half lacks a split of the DAWG word with tile codes "
                f"{list(bad_word[:bad_length])} (the two halves disagree)", name, base)
        self.word_count = counts.dawg_words
        self.longest_word = counts.dawg_longest
        self.words_cross_checked = checked

    @property
    def checksums(self):
        return self._sums

    def contains(self, const uint8_t[::1] word):
        if word.shape[0] == 0:
            return False
        return ws_graph_contains(self.nodes, &word[0], word.shape[0]) == 1

    def alphagrams(self, length):
        """Sorted distinct alphagram keys (uint64, native order) of every word of `length`
        letters (1..10), as bytes; built once per graph on first use (used by best-move bounds)."""
        cdef long n
        cdef uint64_t[::1] out
        cdef int k = <int>check_whole(length, 1, 10, WordSalvoError, "alphagram length")
        if self._alphagrams is None:
            self._alphagrams = {}
        cached = self._alphagrams.get(k)
        if cached is not None:
            return cached
        with nogil:
            n = ws_graph_alphagrams(self.nodes, k, NULL, 0)
        check_status(n, WordSalvoError, f"counting the {k}-letter alphagrams")
        arr = bytearray(8 * (n if n else 1))
        out = memoryview(arr).cast("Q")
        with nogil:
            n = ws_graph_alphagrams(self.nodes, k, &out[0], out.shape[0])
        check_status(n, WordSalvoError, f"listing the {k}-letter alphagrams")
        del out
        result = bytes(arr[: 8 * n])
        self._alphagrams[k] = result
        return result

    def dawg_words(self, limit=0):
        """Every word of the DAWG in order, as tile-code bytes (for tests and export);
        with a limit > 0, only the first ``limit`` words."""
        cdef list out = []
        cdef WsWordIter it
        cdef int n
        cdef Py_ssize_t most = check_whole(limit, 0, 1 << 62, WordSalvoError, "word limit")
        ws_graph_words_begin(&it, self.nodes, WS_MAX_WORD)  # the C core's one walk over the words
        while True:
            n = ws_graph_words_next(&it)
            if n <= 0:
                return out
            out.append(bytes(it.word[:n]))
            if most and len(out) >= most:
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
            raise AlphabetError(f"letter table: expected {4 * WS_MAX_LETTERS} bytes, got {lu.shape[0]}; "
                                f"rank table: expected {WS_MAX_LETTERS + 1} bytes, got {rk.shape[0]}")
        out = <uint8_t*>malloc(cap)
        if out == NULL:
            raise MemoryError("word list as UTF-8: out of memory")
        try:
            with nogil:
                n = ws_words_to_utf8(self.words, self.count, &lu[0], &rk[0], out, cap)
            check_status(n, LexiconBuildError, "writing the words as UTF-8")
            return out[:n]
        finally:
            free(out)

    def word_bytes(self, Py_ssize_t i):
        if not 0 <= i < <Py_ssize_t>self.count:
            raise IndexError(f"word index {i} out of range for {self.count} words")
        return bytes(self.words[i].letters[:self.words[i].letters[15]])

    def build(self):
        """(nodes as bytes (little-endian uint32), node_count, state_count, prefix_count)."""
        cdef WsBuildResult res
        cdef int rc
        if self.count == 0:
            raise LexiconBuildError("cannot build a graph: expected at least one word, got none")
        with nogil:
            rc = ws_build_graph(self.words, self.count, &res)
        check_status(rc, LexiconBuildError, "cannot build the graph")
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
        raise MemoryError("word list parser: out of memory")
    try:
        prev = -1
        for i in range(nmap):
            cp, tiles = mapping[i]
            if not isinstance(cp, int) or cp <= prev or not cp <= 0x10FFFF or not 1 <= len(tiles) <= 3:
                raise AlphabetError(f"normalisation table entry {i}: expected code points in ascending "
                                    f"order (0..0x10FFFF), each with 1..3 tiles, got {cp!r} -> {tiles!r}")
            prev = cp
            cmap[i].code_point = cp
            memset(cmap[i].tiles, 0, 4)
            for j in range(len(tiles)):
                if not isinstance(tiles[j], int) or not 1 <= tiles[j] <= WS_MAX_LETTERS:
                    raise AlphabetError(f"normalisation table entry {i}: expected tile codes "
                                        f"1..{WS_MAX_LETTERS}, got {tiles[j]!r}")
                cmap[i].tiles[j] = tiles[j]
            cmap[i].tiles[3] = len(tiles)
        max_lines = bytes(text).count(b"\n") + 2
        wb = WordBuffer()
        wb.line_status = bytearray(max_lines)
        wb.words = <WsWordKey*>malloc(max_lines * sizeof(WsWordKey))
        if wb.words == NULL:
            raise MemoryError("word list parser: out of memory")
        st = wb.line_status
        tp = &text[0] if length else <const uint8_t*>b""
        with nogil:
            lines = ws_parse_wordlist(tp, length, cmap, nmap, &st[0], max_lines, wb.words, &nwords)
        check_status(lines, LexiconBuildError, "cannot parse the word list")
        wb.lines = lines
        wb.count = nwords
        st = None  # release the buffer before resizing
        del wb.line_status[lines:]
        return wb
    finally:
        free(cmap)

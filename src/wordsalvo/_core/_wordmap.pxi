# Included by _engine.pyx: the compact word map (csrc/ws_wordmap.c) lives in the same
# extension as the generator, so the best-move search can use it from C.
from wordsalvo._core.cwordmap cimport *


cdef class WordMap:
    """Anagram lookups of a graph's words: which words of length L the given letters
    plus 0-2 blanks make.  Built from the graph's DAWG when constructed (CSW24: 10.4 MB,
    measured 2026-12-07 on the 2-core x86-64 VM, 8.3 MB before the extend table and 14.3 MB
    before that; about 0.08 s); a
    Generator of the same graph reads it in best-move searches (Generator.use_wordmap)."""
    cdef WsWordMap m
    cdef readonly double build_seconds
    cdef readonly Graph graph   # the graph it was built from (kept alive: generators check it)

    def __cinit__(self, graph):
        cdef int rc
        if not isinstance(graph, Graph):
            raise WordSalvoError(f"expected a Graph (Lexicon._graph), got {type(graph).__name__}")
        cdef Graph checked = graph
        import time
        t = time.perf_counter()
        with nogil:
            rc = ws_wordmap_build(&self.m, checked.nodes, checked.alphabet_size)
        self.build_seconds = time.perf_counter() - t
        check_status(rc, WordSalvoError, "cannot build the word map")
        self.graph = checked

    def __dealloc__(self):
        ws_wordmap_free(&self.m)

    @property
    def entry_count(self):
        """Distinct keys (alphagrams) over all lengths."""
        return self.m.entry_count

    @property
    def word_count(self):
        return self.m.word_count

    @property
    def nbytes(self):
        """Heap memory the map holds."""
        return self.m.bytes

    @property
    def _slot_layout(self):
        """(hash slots, bits of a slot holding entry + 1, bits holding the fingerprint)."""
        return (self.m.slot_mask + 1, bin(self.m.entry_mask).count("1"), bin(self.m.fingerprint_mask).count("1"))

    def _clear_fingerprints(self):
        """Testing aid: every lookup then rests on the exact verification of each slot of
        its length it meets (answers unchanged, slower)."""
        ws_wordmap_clear_fingerprints(&self.m)

    def key_count(self, length):
        """Distinct keys of words of `length` letters."""
        check_whole(length, 1, WS_MAX_WORD, WordSalvoError, "length")
        return self.m.length_first[length + 1] - self.m.length_first[length]

    cdef WsRackKey _key(self, letters, blanks, blank_choices, uint64_t *choices) except *:
        cdef WsRackKey k = ws_rack_key_empty()
        check_whole(blanks, 0, 2, WordSalvoError, "blanks")
        if len(letters) + blanks > WS_MAX_WORD:
            raise WordSalvoError(f"expected at most {WS_MAX_WORD} letters and blanks, got {len(letters) + blanks}")
        for c in letters:
            k = ws_rack_key_add_letter(k, <unsigned>check_whole(c, 1, self.m.alphabet_size, WordSalvoError,
                                                               "letter code (outside the alphabet)"))
        choices[0] = 0
        if blank_choices is None:
            choices[0] = ~(<uint64_t>1)
        else:
            for c in blank_choices:
                choices[0] |= (<uint64_t>1) << check_whole(c, 1, self.m.alphabet_size, WordSalvoError,
                                                           "blank choice (outside the alphabet)")
        return k

    def exists(self, letters, blanks=0, blank_choices=None):
        """True if the letter codes plus `blanks` blanks (each standing for a letter in
        blank_choices, default any) make a word of len(letters) + blanks letters."""
        cdef uint64_t choices
        cdef WsRackKey k = self._key(letters, blanks, blank_choices, &choices)
        return bool(ws_wordmap_exists(&self.m, k, blanks, choices))

    def lookup(self, letters, blanks=0, blank_choices=None):
        """Every (word, blank letters) the letter codes plus `blanks` blanks make: word as
        bytes of letter codes, blank letters as a sorted tuple of the blanks' letters;
        sorted by blank letters, then alphabetically."""
        cdef uint64_t choices
        cdef WsRackKey k = self._key(letters, blanks, blank_choices, &choices)
        cdef size_t count = 0, i
        cdef int rc, length
        cdef uint32_t n, j
        cdef const uint8_t *w
        cdef WsWordMapHit *hits = NULL
        cdef size_t capacity = 64
        while True:
            hits = <WsWordMapHit*>malloc(capacity * sizeof(WsWordMapHit))
            if hits == NULL:
                raise MemoryError()
            rc = ws_wordmap_lookup(&self.m, k, blanks, choices, hits, capacity, &count)
            if rc != WS_E_CAPACITY:
                break
            free(hits)
            capacity = count
        try:
            out = []
            for i in range(count):
                length = ws_wordmap_entry_length(&self.m, hits[i].entry)
                w = ws_wordmap_entry_words(&self.m, hits[i].entry, &n)
                b = tuple(x for x in (hits[i].blank_letter[0], hits[i].blank_letter[1])[:blanks])
                for j in range(n):
                    out.append((bytes(w[j * length:(j + 1) * length]), b))
            return out
        finally:
            free(hits)

    def subrack_exists(self, rack_counts, n, through=b""):
        """True if some `n` tiles of the rack (33 counts by tile code, [0] = blanks, at
        most 7 tiles, at most 2 blanks) plus the letter codes of `through` make a word."""
        cdef uint64_t choices
        cdef int i, total = 0
        cdef const uint8_t[::1] rack = byte_array(rack_counts, 33, WordSalvoError, "rack counts")
        for i in range(33):
            if rack[i] and i > <int>self.m.alphabet_size:
                raise WordSalvoError(f"rack: tile code {i} outside the alphabet 1..{self.m.alphabet_size}")
            total += rack[i]
        if total > 7:
            raise WordSalvoError(f"rack: expected at most 7 tiles, got {total}")
        if rack[0] > 2:
            raise WordSalvoError(f"rack: expected at most 2 blanks, got {rack[0]}")
        n = check_whole(n, 0, total, WordSalvoError, "n (tiles of the rack)")
        cdef WsRackKey k = self._key(through, 0, None, &choices)
        if len(through) + n > WS_MAX_WORD:
            raise WordSalvoError(f"expected at most {WS_MAX_WORD} letters, got {len(through) + n}")
        cdef int rc = ws_wordmap_subrack_exists(&self.m, &rack[0], n, k)
        check_status(rc, WordSalvoError, "sub-rack query rejected")
        return rc == 1

    def span_words(self, rack_counts, board, cross=None):
        """Every (word, blank letters) the rack (33 counts, [0] = blanks, at most 7 tiles,
        2 blanks) can play on a span: board holds one letter code per square, 0 for an
        empty square; cross (one letter mask per square, bit L = letter L, default any)
        limits the letters of the empty squares.  Sorted by word, then blank letters."""
        cdef uint8_t b[15]
        cdef uint64_t c[15]
        cdef int i, total = 0, rc, length = len(board)
        cdef size_t count = 0, capacity = 256
        cdef WsSpanWord *out = NULL
        cdef const uint8_t *w
        cdef uint32_t n
        cdef const uint8_t[::1] rack = byte_array(rack_counts, 33, WordSalvoError, "rack counts")
        for i in range(33):
            if rack[i] and i > <int>self.m.alphabet_size:
                raise WordSalvoError(f"rack: tile code {i} outside the alphabet 1..{self.m.alphabet_size}")
            total += rack[i]
        if total > 7 or rack[0] > 2:
            raise WordSalvoError(f"rack: expected at most 7 tiles and 2 blanks, got {total} and {rack[0]}")
        if not 2 <= length <= WS_MAX_WORD:
            raise WordSalvoError(f"board: expected 2..{WS_MAX_WORD} squares, got {length}")
        if cross is not None and len(cross) != length:
            raise WordSalvoError(f"cross: expected one mask per square ({length}), got {len(cross)}")
        for i in range(length):
            b[i] = <uint8_t>check_whole(board[i], 0, self.m.alphabet_size, WordSalvoError,
                                        f"board square {i}: letter code (0 = empty, else inside the alphabet)")
            if cross is None:
                c[i] = ~(<uint64_t>1)
            else:
                mask = cross[i]
                mask = whole_arg(mask, f"cross set of square {i}", low=0, high=2 ** 64 - 1,
                                 expected="a letter mask 0..2**64-1")
                c[i] = <uint64_t>mask & ~(<uint64_t>1)
        while True:
            out = <WsSpanWord*>malloc(capacity * sizeof(WsSpanWord))
            if out == NULL:
                raise MemoryError()
            rc = ws_wordmap_span_words(&self.m, &rack[0], length, b, c, out, capacity, &count)
            if rc != WS_E_CAPACITY:
                break
            free(out)
            capacity = count
        try:
            check_status(rc, WordSalvoError, "span query rejected")
            result = []
            for i in range(<int>count):
                w = ws_wordmap_entry_words(&self.m, out[i].entry, &n)
                blanks = tuple(x for x in (out[i].blank_letter[0], out[i].blank_letter[1]) if x)
                result.append((bytes(w[out[i].index * length:(out[i].index + 1) * length]), blanks))
            result.sort()
            return result
        finally:
            free(out)

# Included by _movegen.pyx: the compact word map (csrc/ws_wordmap.c) lives in the same
# extension as the generator, so the best-move search can use it from C.
from wordsalvo._core.cwordmap cimport *


cdef class WordMap:
    """Anagram lookups of a graph's words: which words of length L the given letters
    plus 0-2 blanks make.  Built from the graph's DAWG when constructed (CSW24: about
    14 MB, about 0.3 s); independent of the graph afterwards."""
    cdef WsWordMap m
    cdef readonly double build_seconds

    def __cinit__(self, Graph graph):
        cdef int rc
        if graph.problem is not None:
            raise ValueError("graph failed validation")
        import time
        t = time.perf_counter()
        with nogil:
            rc = ws_wordmap_build(&self.m, graph.nodes, graph.alphabet_size)
        self.build_seconds = time.perf_counter() - t
        if rc == WS_E_NOMEM:
            raise MemoryError("not enough memory for the word map")
        if rc != WS_OK:
            raise ValueError(f"cannot build the word map ({_STATUS.get(rc, rc)})")

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

    def key_count(self, int length):
        """Distinct keys of words of `length` letters."""
        if not 1 <= length <= WS_MAX_WORD:
            raise ValueError(f"length: expected 1..{WS_MAX_WORD}, got {length}")
        return self.m.length_first[length + 1] - self.m.length_first[length]

    cdef WsRackKey _key(self, letters, int blanks, blank_choices, uint64_t *choices) except *:
        cdef WsRackKey k = ws_rack_key_empty()
        cdef int c
        if not 0 <= blanks <= 2:
            raise ValueError(f"blanks: expected 0..2, got {blanks}")
        if len(letters) + blanks > WS_MAX_WORD:
            raise ValueError(f"expected at most {WS_MAX_WORD} letters and blanks, got {len(letters) + blanks}")
        for c in letters:
            if not 1 <= c <= <int>self.m.alphabet_size:
                raise ValueError(f"letter code {c} outside the alphabet 1..{self.m.alphabet_size}")
            k = ws_rack_key_add_letter(k, c)
        choices[0] = 0
        if blank_choices is None:
            choices[0] = ~(<uint64_t>1)
        else:
            for c in blank_choices:
                if not 1 <= c <= <int>self.m.alphabet_size:
                    raise ValueError(f"blank choice {c} outside the alphabet 1..{self.m.alphabet_size}")
                choices[0] |= (<uint64_t>1) << c
        return k

    def exists(self, letters, int blanks=0, blank_choices=None):
        """True if the letter codes plus `blanks` blanks (each standing for a letter in
        blank_choices, default any) make a word of len(letters) + blanks letters."""
        cdef uint64_t choices
        cdef WsRackKey k = self._key(letters, blanks, blank_choices, &choices)
        return bool(ws_wordmap_exists(&self.m, k, blanks, choices))

    def lookup(self, letters, int blanks=0, blank_choices=None):
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

    def subrack_exists(self, const uint8_t[::1] rack, int n, through=b""):
        """True if some `n` tiles of the rack (33 counts by tile code, [0] = blanks, at
        most 7 tiles, at most 2 blanks) plus the letter codes of `through` make a word."""
        cdef uint64_t choices
        cdef int i, total = 0
        if rack.shape[0] != 33:
            raise ValueError(f"rack: expected 33 counts, got {rack.shape[0]}")
        for i in range(33):
            if rack[i] and i > <int>self.m.alphabet_size:
                raise ValueError(f"rack: tile code {i} outside the alphabet 1..{self.m.alphabet_size}")
            total += rack[i]
        if total > 7:
            raise ValueError(f"rack: expected at most 7 tiles, got {total}")
        if rack[0] > 2:
            raise ValueError(f"rack: expected at most 2 blanks, got {rack[0]}")
        if not 0 <= n <= total:
            raise ValueError(f"n: expected 0..{total} tiles of the rack, got {n}")
        cdef WsRackKey k = self._key(through, 0, None, &choices)
        if len(through) + n > WS_MAX_WORD:
            raise ValueError(f"expected at most {WS_MAX_WORD} letters, got {len(through) + n}")
        cdef int rc = ws_wordmap_subrack_exists(&self.m, &rack[0], n, k)
        if rc < 0:
            raise ValueError(f"sub-rack query rejected ({_STATUS.get(rc, rc)})")
        return rc == 1

    def span_words(self, const uint8_t[::1] rack, board, cross=None):
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
        if rack.shape[0] != 33:
            raise ValueError(f"rack: expected 33 counts, got {rack.shape[0]}")
        for i in range(33):
            if rack[i] and i > <int>self.m.alphabet_size:
                raise ValueError(f"rack: tile code {i} outside the alphabet 1..{self.m.alphabet_size}")
            total += rack[i]
        if total > 7 or rack[0] > 2:
            raise ValueError(f"rack: expected at most 7 tiles and 2 blanks, got {total} and {rack[0]}")
        if not 2 <= length <= WS_MAX_WORD:
            raise ValueError(f"board: expected 2..{WS_MAX_WORD} squares, got {length}")
        if cross is not None and len(cross) != length:
            raise ValueError(f"cross: expected one mask per square ({length}), got {len(cross)}")
        for i in range(length):
            if not 0 <= board[i] <= <int>self.m.alphabet_size:
                raise ValueError(f"board square {i}: letter code {board[i]} outside 0..{self.m.alphabet_size}")
            b[i] = board[i]
            c[i] = ~(<uint64_t>1) if cross is None else <uint64_t>cross[i]
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
            if rc != WS_OK:
                raise ValueError(f"span query rejected ({_STATUS.get(rc, rc)})")
            result = []
            for i in range(<int>count):
                w = ws_wordmap_entry_words(&self.m, out[i].entry, &n)
                blanks = tuple(x for x in (out[i].blank_letter[0], out[i].blank_letter[1]) if x)
                result.append((bytes(w[out[i].index * length:(out[i].index + 1) * length]), blanks))
            result.sort()
            return result
        finally:
            free(out)

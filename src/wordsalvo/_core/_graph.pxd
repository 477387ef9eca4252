from libc.stdint cimport uint32_t, uint64_t

cdef class Graph:
    cdef object owner                 # the buffer's owner (mmap or bytes): kept alive with the pointer
    cdef const uint32_t[::1] view
    cdef const uint32_t *nodes
    cdef readonly uint32_t node_count
    cdef readonly unsigned alphabet_size
    cdef readonly uint64_t word_count          # words of the DAWG, counted at load
    cdef readonly unsigned longest_word        # letters of its longest word
    cdef readonly uint64_t words_cross_checked # DAWG words whose every split was found in the GADDAG
    cdef public object _sums
    cdef public object _alphagrams      # length -> bytes of sorted uint64 keys (built on first use)
    cdef public object _wordmap         # the best-move word map (_engine.WordMap), built when it pays
    cdef public double _wordmap_rent    # seconds of best-move searches made without it so far

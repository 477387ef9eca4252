# Mirrors csrc/ws_graph.h
from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef extern from "ws_graph.h" nogil:
    ctypedef struct WsGraphCounts:
        uint64_t dawg_words
        uint64_t dawg_letters
        uint64_t gaddag_paths
        unsigned dawg_longest
    int ws_graph_count(const uint32_t *nodes, uint32_t node_count, WsGraphCounts *out, uint32_t *bad_index)
    int ws_graph_cross_check(const uint32_t *nodes, uint64_t stride, uint64_t *checked, uint8_t *bad_word,
                             unsigned *bad_length)
    int ws_graph_validate(const uint32_t *nodes, uint32_t node_count, unsigned alphabet_size,
                          uint64_t *sum, uint64_t *weighted_sum, uint32_t *bad_index)
    void ws_graph_checksum(const uint32_t *nodes, uint32_t node_count, uint64_t *sum, uint64_t *weighted_sum)
    int ws_graph_contains(const uint32_t *nodes, const uint8_t *word, size_t length)
    ctypedef struct WsWordIter:
        uint8_t word[16]  # the tiles of the word just returned
    void ws_graph_words_begin(WsWordIter *it, const uint32_t *nodes, int max_length)
    int ws_graph_words_next(WsWordIter *it)
    uint32_t ws_node_index(uint32_t node)
    uint32_t ws_node_is_end(uint32_t node)
    uint32_t ws_node_accepts(uint32_t node)
    unsigned ws_node_tile(uint32_t node)
    uint64_t ws_alphagram_key(const uint8_t *letters, int n)
    long ws_graph_alphagrams(const uint32_t *nodes, int length, uint64_t *out, size_t capacity)
    int ws_alphagram_find(const uint64_t *keys, size_t count, uint64_t key)

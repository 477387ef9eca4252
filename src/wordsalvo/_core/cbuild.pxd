# Mirrors csrc/ws_build.h
from libc.stdint cimport uint8_t, uint32_t

cdef extern from "ws_build.h" nogil:
    ctypedef struct WsWordKey:
        uint8_t letters[16]   # letters zero padded; [15] = length
        uint32_t line         # 0-based source line

    ctypedef struct WsCharMap:
        uint32_t code_point
        uint8_t tiles[4]      # tiles[0..2]; tiles[3] = count

    ctypedef struct WsBuildResult:
        uint32_t *nodes
        uint32_t node_count
        uint32_t state_count
        uint32_t prefix_count
        uint32_t dawg_list_count

    long ws_parse_wordlist(const uint8_t *text, size_t length, const WsCharMap *map, size_t map_size,
                           uint8_t *line_status, size_t max_lines, WsWordKey *words, size_t *word_count)
    size_t ws_sort_unique(WsWordKey *words, size_t count, uint8_t *line_status)
    long ws_words_to_utf8(const WsWordKey *words, size_t count, const uint8_t *letter_utf8,
                          const uint8_t *rank, uint8_t *out, size_t out_capacity)
    int ws_build_graph(const WsWordKey *words, size_t count, WsBuildResult *result)
    void ws_build_free(WsBuildResult *result)

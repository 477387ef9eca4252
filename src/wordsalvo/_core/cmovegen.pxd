# Mirrors csrc/ws_movegen.h
from libc.stdint cimport uint8_t, uint16_t, int16_t, int32_t, uint32_t, uint64_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cwordmap cimport WsWordMap

cdef extern from "ws_movegen.h" nogil:
    ctypedef struct WsRules:
        uint8_t letter_mult[225]
        uint8_t word_mult[225]
        int16_t square_bonus[225]
        int16_t tile_value[33]
        int32_t bingo_bonus
        int32_t bingo_tiles
        int32_t start_square
        int32_t alphabet_size

    ctypedef struct WsMove:
        int32_t score
        uint16_t blank_mask
        uint8_t row
        uint8_t col
        uint8_t direction
        uint8_t length
        uint8_t tiles_played
        uint8_t tiles[15]
        uint8_t pad[2]

    ctypedef struct WsGen:
        int32_t board_valid
        int32_t anchor_count
        int32_t anchors_visited
        int32_t wordmap_reads
        int32_t wordmap_lookups
        int32_t leave_types
        uint8_t leave_type[7]
        int32_t leave_weight[7]
        int32_t leave_count
        float leave_value[128]
        float leave_best[8]

    int ws_gen_init(WsGen *g, const uint32_t *nodes, uint32_t node_count, const WsRules *rules)
    int ws_gen_set_board(WsGen *g, const uint8_t *tiles)
    int ws_gen_set_rack(WsGen *g, const uint8_t *rack)
    void ws_gen_set_alphagrams8(WsGen *g, const uint64_t *keys, size_t count)
    void ws_gen_set_alphagrams9(WsGen *g, const uint64_t *keys, size_t count)
    void ws_gen_set_wordmap(WsGen *g, const WsWordMap *map)
    int ws_gen_all(WsGen *g, WsMove *out, size_t capacity, size_t *count)
    int ws_gen_best(WsGen *g, WsMove *out, size_t n, size_t *count)
    void ws_gen_set_equity(WsGen *g, const WsLeaves *leaves, int endgame, float out_value, float keep_factor)
    int ws_gen_best_equity(WsGen *g, WsMove *out, float *equity, size_t n, size_t *count)
    uint64_t ws_gen_cross_set(const WsGen *g, int direction, int square, int16_t *cross_score)
    int ws_gen_best_swap(const WsGen *g, const WsLeaves *ranking, int bag, int min_bag, int whole_rack,
                         int must_cover)

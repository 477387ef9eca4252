# Mirrors csrc/ws_rng.h and csrc/ws_selfplay.h
from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen, WsMove

cdef extern from "ws_rng.h" nogil:
    ctypedef struct WsRng:
        int32_t index

    void ws_rng_seed(WsRng *r, const uint32_t *key, int length)
    uint32_t ws_rng_next(WsRng *r)
    uint32_t ws_rng_below(WsRng *r, uint32_t n)

cdef extern from "ws_selfplay.h" nogil:
    int WS_SP_MAX_BAG
    int WS_TURN_PLAY
    int WS_TURN_SWAP
    int WS_TURN_PASS
    int WS_TURN_SETTLE
    int WS_END_NONE
    int WS_END_OUT
    int WS_END_PASSES
    int WS_END_SCORELESS
    int WS_SETTLE_NONE
    int WS_SETTLE_SUBTRACT
    int WS_SETTLE_PLAY_OUT

    ctypedef struct WsSelfplayRules:
        int32_t rack_size
        int32_t bag_count
        uint8_t bag[4096]
        uint64_t vowels
        int32_t first_vowels
        int32_t first_consonants
        int32_t swap_min_bag
        int32_t swap_whole_rack
        int32_t swap_must_cover
        int32_t swap_draw_first
        int32_t swap_resets_pass
        int32_t rack_out
        int32_t all_pass_rounds
        int32_t consecutive_passes
        int32_t scoreless_turns
        int32_t scoreless_bag_below
        int32_t scoreless_pass
        int32_t scoreless_swap
        int32_t scoreless_zero_play
        int32_t settle_out
        int32_t settle_passes
        int32_t settle_scoreless
        float keep_factor
        float out_factor
        int32_t turn_limit

    ctypedef struct WsSelfplayPlayer:
        int32_t by_equity
        const WsLeaves *leaves
        int32_t zero
        float swap_ceiling

    ctypedef struct WsTurnRecord:
        WsMove move
        float equity
        int32_t score
        int32_t total
        int32_t bag_before
        uint8_t player
        uint8_t kind
        uint8_t rack_len
        uint8_t tiles_len
        uint8_t rack[7]
        uint8_t tiles[7]
        uint8_t rack_owner
        uint8_t other_len
        uint8_t pad[4]

    ctypedef struct WsSelfplay:
        WsSelfplayRules rules
        WsSelfplayPlayer player[2]
        int32_t score[2]
        int32_t end_reason
        int32_t turns

    int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                         size_t capacity, size_t *count)

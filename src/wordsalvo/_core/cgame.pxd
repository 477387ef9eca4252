# Mirrors csrc/ws_rng.h and csrc/ws_game.h
from libc.stdint cimport uint8_t, int16_t, int32_t, uint32_t, uint64_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen, WsMove

cdef extern from "ws_rng.h" nogil:
    ctypedef struct WsRng:
        uint32_t mt[624]
        int32_t index

    void ws_rng_seed(WsRng *r, const uint32_t *key, int length)
    uint32_t ws_rng_next(WsRng *r)
    uint32_t ws_rng_below(WsRng *r, uint32_t n)
    double ws_rng_random(WsRng *r)

cdef extern from "ws_game.h" nogil:
    int WS_GAME_MAX_PLAYERS
    int WS_GAME_MAX_BAG
    int WS_GAME_MAX_SETTLE
    int WS_TURN_PLAY
    int WS_TURN_SWAP
    int WS_TURN_PASS
    int WS_TURN_SETTLE
    int WS_TURN_REFUSED
    int WS_TURN_TIMEOUT
    int WS_TURN_RESIGN
    int WS_SCORELESS_PASS
    int WS_SCORELESS_SWAP
    int WS_SCORELESS_REFUSED
    int WS_SCORELESS_ZERO_PLAY
    int WS_SCORELESS_TIMEOUT
    int WS_END_NONE
    int WS_END_OUT
    int WS_END_PASSES
    int WS_END_SCORELESS
    int WS_END_RESIGN
    int WS_END_TIMEOUT
    int WS_END_ELIMINATION
    int WS_SETTLE_NONE
    int WS_SETTLE_SUBTRACT
    int WS_SETTLE_PLAY_OUT
    int WS_SWAP_OK
    int WS_SWAP_EMPTY
    int WS_SWAP_NOT_ON_RACK
    int WS_SWAP_WHOLE_RACK
    int WS_SWAP_BAG_MIN
    int WS_SWAP_BAG_COVER

    ctypedef struct WsGameRules:
        int32_t players
        int32_t rack_size
        int32_t alphabet_size
        int16_t tile_value[33]
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
        int32_t scoreless_kinds
        int32_t timeout_counts_as_pass
        int32_t timeout_loses
        int32_t eliminate_after
        int32_t settle_out
        int32_t settle_passes
        int32_t settle_scoreless
        float keep_factor
        float out_factor
        float out_bonus

    ctypedef struct WsSettle:
        int32_t score
        int32_t total
        uint8_t player
        uint8_t rack_owner

    ctypedef struct WsGame:
        const WsGameRules *rules
        uint64_t hash
        uint8_t board[225]
        uint8_t rack[4][33]
        int32_t rack_total[4]
        int32_t score[4]
        int32_t timeouts[4]
        int32_t tile_count
        int32_t to_move
        int32_t pass_count
        int32_t scoreless_count
        uint32_t out_mask
        int32_t end_reason
        int32_t finisher
        int32_t settle_count
        WsSettle settle[6]
        int32_t bag_count
        uint8_t bag[4096]
        WsRng rng

    ctypedef struct WsUndo:
        uint8_t kind
        uint8_t player

    int ws_game_rules_init(WsGameRules *R)
    int ws_game_new(WsGame *s, const WsGameRules *R, const uint32_t *seed_key, int seed_length)
    void ws_game_clear(WsGame *s, const WsGameRules *R)
    void ws_game_copy(WsGame *dst, const WsGame *src)
    int ws_game_play(WsGame *s, const WsMove *m, WsUndo *u)
    int ws_game_swap_allowed(const WsGame *s, int n)
    int ws_game_swap_check(const WsGame *s, const uint8_t *counts)
    int ws_game_swap(WsGame *s, const uint8_t *counts, WsUndo *u)
    int ws_game_pass(WsGame *s, WsUndo *u)
    int ws_game_refused(WsGame *s, WsUndo *u)
    int ws_game_timeout(WsGame *s, WsUndo *u)
    int ws_game_resign(WsGame *s, int player, WsUndo *u)
    void ws_game_undo(WsGame *s, const WsUndo *u)
    int ws_game_set_tiles(WsGame *s, const uint8_t *racks, const uint8_t *bag, int bag_count)
    int ws_game_set_board(WsGame *s, const uint8_t *board)
    int ws_game_set_scores(WsGame *s, const int32_t *scores)
    int ws_game_set_turn(WsGame *s, int to_move, int scoreless_count, int pass_count)
    int ws_game_return_rack(WsGame *s, int player)
    void ws_game_draw(WsGame *s, int player, int n)
    int ws_game_take_from_bag(WsGame *s, int player, int t)
    int ws_game_give_tile(WsGame *s, int src, int dst, int t)
    void ws_game_add_score(WsGame *s, int player, int points)
    void ws_game_seed(WsGame *s, const uint32_t *seed_key, int seed_length)
    uint64_t ws_game_hash_full(const WsGame *s)
    int ws_game_rack_value(const WsGame *s, int player)
    uint32_t ws_game_winners(const WsGame *s)
    int ws_game_players_left(const WsGame *s)
    int ws_game_spread(const WsGame *s, int player)
    int ws_game_rack_codes(const WsGame *s, int player, uint8_t *out)
    void ws_game_unseen(const WsGame *s, uint8_t *counts)
    int ws_game_load(const WsGame *s, WsGen *g, int by_equity, const WsLeaves *leaves)

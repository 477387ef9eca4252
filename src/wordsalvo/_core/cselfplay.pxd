# Mirrors csrc/ws_selfplay.h
from libc.stdint cimport uint8_t, int32_t, uint32_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen, WsMove
from wordsalvo._core.cgame cimport WsGame, WsGameRules, WsUndo

cdef extern from "ws_selfplay.h" nogil:
    ctypedef struct WsSelfplayPlayer:
        int32_t by_equity
        const WsLeaves *leaves
        int32_t zero
        float swap_ceiling

    ctypedef struct WsAction:
        int32_t kind
        float equity
        WsMove move
        uint8_t swap[33]

    int ws_player_choose(const WsGame *s, WsGen *g, const WsSelfplayPlayer *P, int last_kind, WsAction *a)
    int ws_action_apply(WsGame *s, const WsAction *a, WsUndo *u)

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
        const WsGameRules *rules
        WsSelfplayPlayer player[2]
        int32_t turn_limit
        WsGame game
        int32_t turns

    int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                         size_t capacity, size_t *count)

# Mirrors csrc/ws_selfplay.h
from libc.stdint cimport uint8_t, int32_t, uint32_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen, WsMove
from wordsalvo._core.cgame cimport WsGame, WsGameRules, WsUndo, WsRng
from wordsalvo._core.caction cimport WsPlayer, WsAction, ws_player_choose, ws_action_apply
from wordsalvo._core.crated cimport WsRated, WsRatedBuffer

cdef extern from "ws_selfplay.h" nogil:
    # the static player and its actions: ws_action.h (caction.pxd); the rated player: ws_rated.h
    int WS_SELFPLAY_STATIC
    int WS_SELFPLAY_RATED
    int WS_SELFPLAY_FORCE_MAX
    int WS_SELFPLAY_PROBE_MAX

    ctypedef struct WsSelfplayPlayer:
        int32_t kind
        WsPlayer engine
        WsRated rated

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
        uint8_t forced
        uint8_t pad[3]

    ctypedef struct WsSelfplay:
        const WsGameRules *rules
        WsSelfplayPlayer player[2]
        int32_t turn_limit
        WsGame game
        int32_t turns
        WsRng rng[2]
        WsRatedBuffer rated_buffer
        const uint8_t *force
        int32_t force_count
        int32_t force_from
        int32_t forced
        const uint8_t *probe
        int32_t probe_count
        int32_t probe_per_turn
        uint8_t *probe_kind
        float *probe_equity
        int32_t probe_done

    int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                         size_t capacity, size_t *count)

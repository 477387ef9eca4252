# Mirrors csrc/ws_endgame.h
from libc.stdint cimport uint8_t, int32_t, int64_t, uint32_t, uint64_t

from wordsalvo._core.cmovegen cimport WsGen, WsMove
from wordsalvo._core.cgame cimport WsGame

cdef extern from "ws_endgame.h" nogil:
    int WS_EG_MAX_PLY
    int WS_EG_EXACT
    int WS_EG_DEADLINE
    int WS_EG_MAX_DEPTH

    int WS_EG_MAX_THREADS

    ctypedef struct WsEgEntry:
        uint64_t check

    ctypedef struct WsEgOrder:
        int64_t key

    ctypedef struct WsEgStep:
        WsMove move     # the play (kind WS_TURN_PLAY)
        int32_t kind    # WS_TURN_PLAY or WS_TURN_PASS

    ctypedef struct WsEgResult:
        int32_t value
        int32_t gain
        int32_t exact
        int32_t stop
        int32_t depth
        int32_t pv_count
        int32_t replay_value
        int32_t replay_over
        int64_t nodes
        double seconds
        WsEgStep pv[128]

    ctypedef struct WsEgProgress:
        int32_t depth
        int32_t value
        int32_t exact
        int32_t pv_count
        int64_t nodes
        double seconds
        WsEgStep pv[128]

    ctypedef struct WsEndgame:
        pass

    size_t ws_endgame_size()
    int ws_endgame_setup(WsEndgame *E, const WsGame *root, const WsGen *proto, WsEgEntry *table, size_t entries,
                         WsMove *moves, WsEgOrder *order, size_t capacity)
    int ws_endgame_solve(WsEndgame *E, double seconds, int64_t max_nodes, int max_depth, WsEgResult *out)
    int ws_endgame_add_helper(WsEndgame *E, WsEndgame *H, WsMove *moves, WsEgOrder *order, size_t capacity)
    void ws_endgame_progress(WsEndgame *E, WsEgProgress *out)
    int ws_endgame_play_fits(const WsEndgame *E, const WsMove *m, int32_t *score)

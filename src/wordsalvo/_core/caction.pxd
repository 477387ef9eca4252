# Mirrors csrc/ws_action.h
from libc.stdint cimport uint8_t, int32_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen, WsMove
from wordsalvo._core.cgame cimport WsGame, WsGameRules, WsUndo

cdef extern from "ws_action.h" nogil:
    ctypedef struct WsPlayer:
        int32_t by_equity
        const WsLeaves *leaves
        int32_t zero
        float swap_ceiling

    ctypedef struct WsAction:
        int32_t kind
        float equity
        WsMove move
        uint8_t swap[33]

    int WS_PLAYER_SWAP_RUN
    int ws_swap_run_endless(const WsGameRules *R)
    int ws_player_options(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, int search_play,
                          WsAction *play, WsAction *swap)
    void ws_player_pick(const WsAction *play, const WsAction *swap, WsAction *a)
    int ws_player_choose(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, WsAction *a)
    int ws_action_apply(WsGame *s, const WsAction *a, WsUndo *u)

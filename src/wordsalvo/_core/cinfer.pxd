# Mirrors csrc/ws_infer.h
from libc.stdint cimport uint8_t, int32_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen

cdef extern from "ws_infer.h" nogil:
    unsigned WS_INFER_END

    ctypedef struct WsInferTurn:
        const uint8_t *board
        const WsLeaves *values
        const WsLeaves *ranking
        int32_t endgame
        double out_value
        const double *out_values
        double keep_factor
        int32_t bag
        int32_t min_bag
        int32_t whole_rack
        int32_t must_cover
        uint8_t played[33]
        int32_t score
        int32_t exchanged
        double margin

    int ws_infer_racks(WsGen *g, const WsInferTurn *turn, const uint8_t *leaves, size_t count, uint8_t *kept,
                       uint8_t *kept_tiles, size_t *failed)

# Mirrors csrc/ws_rated.h
from libc.stdint cimport uint8_t, int32_t, uint32_t

from wordsalvo._core.cleaves cimport WsLeaves
from wordsalvo._core.cmovegen cimport WsGen, WsMove
from wordsalvo._core.cgame cimport WsGame, WsRng
from wordsalvo._core.caction cimport WsAction

cdef extern from "ws_rated.h" nogil:
    int WS_LETTER_BYTES

    ctypedef struct WsWordList:
        const uint8_t *bytes
        const uint32_t *start
        int32_t count
        uint8_t letter_len[33]
        uint8_t letter[33][8]

    int ws_words_listed(const WsWordList *list, const uint8_t *board, const WsMove *m)
    size_t ws_softmax_pick(const double *value, const uint8_t *excluded, size_t n, double beta, double u,
                           double *cum)

    ctypedef struct WsRated:
        double beta
        const WsLeaves *leaves
        const WsWordList *offensive

    ctypedef struct WsRatedBuffer:
        WsMove *moves
        double *values
        double *cum
        uint8_t *excluded
        size_t capacity
        size_t needed

    int ws_rated_choose(const WsGame *s, WsGen *g, const WsRated *P, int last_kind, WsRng *rng,
                        WsRatedBuffer *buf, WsAction *a)

# Mirrors csrc/ws_leaves.h
from libc.stdint cimport uint8_t, int32_t, int64_t

cdef extern from "ws_leaves.h" nogil:
    int WS_LEAVES_MAX_TYPES

    ctypedef struct WsLeaves:
        int32_t types
        int32_t max_size
        uint8_t cap[33]
        int64_t offset[9]
        const float *values

    int ws_leaves_init(WsLeaves *L, const uint8_t *cap, int types, int max_size)
    int64_t ws_leaves_count(const WsLeaves *L)
    int64_t ws_leaves_rank(const WsLeaves *L, const uint8_t *counts)
    int ws_leaves_unrank(const WsLeaves *L, int64_t rank, uint8_t *counts)
    int ws_leaves_credit_racks(const WsLeaves *L, const uint8_t *rack_counts, int64_t racks, const double *mean,
                               const double *tile_count, double *sum, double *weight, double *weight2)

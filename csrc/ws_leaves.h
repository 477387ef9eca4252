/* Leave tables: a rank for every multiset of 1..max_size tiles of a tile set.
 *
 * A leave is a count per tile type (type 0 = blank, 1..n = letters), each count at
 * most the type's cap (the tile set's count, at most max_size).  Leaves are ranked
 * by size, then lexicographically by their sorted tile sequence (blank first):
 * rank = offset[size] + the number of leaves of that size that come before it.
 * Within one size, a leave comes before another when, at the first type where the
 * counts differ, it holds more of that type.  tail[j][m] (the number of leaves of
 * m tiles over types j..types-1) turns that into a sum of at most types * max_size
 * table reads (the combinatorial number system over capped multisets); with the
 * sums precomputed per type (before, skip), a leave of n distinct types costs n.
 */
#ifndef WS_LEAVES_H
#define WS_LEAVES_H

#include "ws_defs.h"

#define WS_LEAVES_MAX_TYPES (WS_MAX_LETTERS + 1)

typedef struct WsLeaves {
    int32_t types;                                        /* tile types: 0 = blank, 1..types-1 letters */
    int32_t max_size;                                     /* largest leave (rack size - 1), 1..WS_RACK_MAX-1 */
    uint8_t cap[WS_LEAVES_MAX_TYPES];                     /* most tiles of each type in one leave */
    int64_t offset[WS_RACK_MAX + 2];                      /* rank of the first leave of each size; [max_size+1] = count */
    int64_t tail[WS_LEAVES_MAX_TYPES + 1][WS_RACK_MAX + 1]; /* leaves of m tiles over types j.. */
    /* before[t][m][x]: leaves of m tiles over types t.. that hold more than x of type t */
    int64_t before[WS_LEAVES_MAX_TYPES][WS_RACK_MAX + 1][WS_RACK_MAX + 1];
    /* skip[t][m]: sum of before[u][m][0] for u < t (types passed over with none kept) */
    int64_t skip[WS_LEAVES_MAX_TYPES + 1][WS_RACK_MAX + 1];
    const float *values;                                  /* value by rank (caller-owned), or NULL */
} WsLeaves;

/* Sets up the ranking for a tile set: cap[t] = min(count of type t, max_size). */
int ws_leaves_init(WsLeaves *L, const uint8_t *cap, int types, int max_size);

/* Number of leaves (entries of a table). */
int64_t ws_leaves_count(const WsLeaves *L);

/* Rank of a leave given as counts per type (types entries); -1 when it is not a leave
 * of the table (size 0 or above max_size, or a count above its cap). */
int64_t ws_leaves_rank(const WsLeaves *L, const uint8_t *counts);

/* A leave's rank is offset[size] plus one term per type kept, in ascending order: the
 * types from `from` (the type after the previous one kept, 0 for the first) up to t
 * passed over with none kept, then c of type t, with m tiles kept of types t.. .  With
 * c = 0 the term counts type t as passed over too, so a sum over any ascending types
 * that include every type kept is the rank (after the last type kept m = 0, and every
 * term of m = 0 is 0). */
static inline int64_t ws_leaves_rank_term(const WsLeaves *L, int from, int t, int m, int c) {
    return L->skip[t][m] - L->skip[from][m] + L->before[t][m][c];
}

/* The same from a sparse leave: n types in ascending order with their counts (each
 * at least 1); -1 when it is not a leave of the table.  O(n) table reads. */
int64_t ws_leaves_rank_sparse(const WsLeaves *L, const uint8_t *types, const uint8_t *counts, int n);

/* Counts per type (types entries) of the leave of a rank; WS_E_ARGUMENT when out of range. */
int ws_leaves_unrank(const WsLeaves *L, int64_t rank, uint8_t *counts);

/* Leave training (wordsalvo.engine.leave_training): credits each of `racks` full racks
 * (counts per type, types entries each; at most WS_RACK_MAX tiles) to every leave of the
 * table it holds (every sub-multiset but the empty one and the whole rack):
 * w = prod over types t of C(tile_count[t] - kept_t, rest_t), the ways of drawing the rest
 * of the rack after keeping the leave; sum[rank] += w * mean[rack], weight[rank] += w,
 * weight2[rank] += w * w.  Arrays of ws_leaves_count entries; nothing is allocated.
 * WS_E_ARGUMENT for a rack of more than WS_RACK_MAX tiles. */
int ws_leaves_credit_racks(const WsLeaves *L, const uint8_t *rack_counts, int64_t racks, const double *mean,
                           const double *tile_count, double *sum, double *weight, double *weight2);

#endif

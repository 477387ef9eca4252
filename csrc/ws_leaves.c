/* Leave tables: ranking of capped multisets (see ws_leaves.h). */
#include <string.h>

#include "ws_leaves.h"

int ws_leaves_init(WsLeaves *L, const uint8_t *cap, int types, int max_size) {
    if (!L || !cap || types < 1 || types > WS_LEAVES_MAX_TYPES || max_size < 1 || max_size > WS_RACK_MAX - 1)
        return WS_E_ARGUMENT;
    memset(L, 0, sizeof *L);
    L->types = types;
    L->max_size = max_size;
    for (int t = 0; t < types; t++) L->cap[t] = cap[t] > max_size ? (uint8_t)max_size : cap[t];
    L->tail[types][0] = 1;
    for (int j = types - 1; j >= 0; j--)
        for (int m = 0; m <= max_size; m++) {
            int64_t n = 0;
            for (int y = 0; y <= L->cap[j] && y <= m; y++) n += L->tail[j + 1][m - y];
            L->tail[j][m] = n;
        }
    for (int t = 0; t < types; t++)
        for (int m = 0; m <= max_size; m++) {
            int64_t acc = 0;
            int top = L->cap[t] < m ? L->cap[t] : m;
            for (int x = max_size; x >= 0; x--) {
                if (x < top) acc += L->tail[t + 1][m - (x + 1)];
                L->before[t][m][x] = acc;
            }
        }
    for (int m = 0; m <= max_size; m++) {
        L->skip[0][m] = 0;
        for (int t = 0; t < types; t++) L->skip[t + 1][m] = L->skip[t][m] + L->before[t][m][0];
    }
    L->offset[1] = 0;
    for (int k = 1; k <= max_size; k++) L->offset[k + 1] = L->offset[k] + L->tail[0][k];
    return WS_OK;
}

int64_t ws_leaves_count(const WsLeaves *L) { return L->offset[L->max_size + 1]; }

int64_t ws_leaves_rank_sparse(const WsLeaves *L, const uint8_t *types, const uint8_t *counts, int n) {
    int size = 0, prev = -1;
    for (int i = 0; i < n; i++) {
        if (types[i] >= L->types || (int)types[i] <= prev || counts[i] < 1 || counts[i] > L->cap[types[i]]) return -1;
        prev = types[i];
        size += counts[i];
    }
    if (size < 1 || size > L->max_size) return -1;
    int64_t rank = L->offset[size];
    int m = size, next = 0;
    for (int i = 0; i < n; i++) {
        int t = types[i];
        rank += ws_leaves_rank_term(L, next, t, m, counts[i]);
        m -= counts[i];
        next = t + 1;
    }
    return rank;
}

int64_t ws_leaves_rank(const WsLeaves *L, const uint8_t *counts) {
    int size = 0;
    for (int t = 0; t < L->types; t++) {
        if (counts[t] > L->cap[t]) return -1;
        size += counts[t];
    }
    if (size < 1 || size > L->max_size) return -1;
    int64_t rank = L->offset[size];
    int m = size;
    for (int t = 0; t < L->types && m > 0; t++) {
        int x = counts[t];
        /* leaves that hold more of type t (and the same of every earlier type) come first */
        for (int y = (L->cap[t] < m ? L->cap[t] : m); y > x; y--) rank += L->tail[t + 1][m - y];
        m -= x;
    }
    return rank;
}

int ws_leaves_unrank(const WsLeaves *L, int64_t rank, uint8_t *counts) {
    if (rank < 0 || rank >= ws_leaves_count(L)) return WS_E_ARGUMENT;
    int size = 1;
    while (rank >= L->offset[size + 1]) size++;
    rank -= L->offset[size];
    int m = size;
    for (int t = 0; t < L->types; t++) {
        int x = 0;
        for (int y = (L->cap[t] < m ? L->cap[t] : m); y >= 0; y--) {
            int64_t c = L->tail[t + 1][m - y];
            if (rank < c) {
                x = y;
                break;
            }
            rank -= c;
        }
        counts[t] = (uint8_t)x;
        m -= x;
    }
    return m == 0 ? WS_OK : WS_E_ARGUMENT;
}

/* C(n, k) as a double; 0 when k > n or n < 0. */
static double binom(double n, int k) {
    double r = 1.0;
    for (int i = 0; i < k; i++) {
        if (n - i <= 0.0) return 0.0;
        r = r * (n - i) / (i + 1);
    }
    return r;
}

int ws_leaves_credit_racks(const WsLeaves *L, const uint8_t *rack_counts, int64_t racks, const double *mean,
                           const double *tile_count, double *sum, double *weight, double *weight2) {
    const int types = L->types;
    for (int64_t i = 0; i < racks; i++) {
        const uint8_t *rc = rack_counts + i * types;
        uint8_t ty[WS_RACK_MAX], have[WS_RACK_MAX], keep[WS_RACK_MAX], kt[WS_RACK_MAX], kc[WS_RACK_MAX];
        int n = 0, size = 0;
        for (int t = 0; t < types; t++) {
            if (!rc[t]) continue;
            if (n == WS_RACK_MAX || size + rc[t] > WS_RACK_MAX) return WS_E_ARGUMENT;
            ty[n] = (uint8_t)t;
            have[n] = rc[t];
            keep[n] = 0;
            n++;
            size += rc[t];
        }
        for (;;) {
            /* the next sub-multiset: an odometer over the counts kept of each type */
            int j = 0;
            while (j < n && keep[j] == have[j]) keep[j++] = 0;
            if (j == n) break;
            keep[j]++;
            int kept = 0, m = 0;
            double w = 1.0;
            for (int q = 0; q < n; q++) {
                kept += keep[q];
                w *= binom(tile_count[ty[q]] - keep[q], have[q] - keep[q]);
                if (keep[q]) {
                    kt[m] = ty[q];
                    kc[m] = keep[q];
                    m++;
                }
            }
            if (kept == size || w <= 0.0) continue;
            int64_t r = ws_leaves_rank_sparse(L, kt, kc, m);
            if (r < 0) continue; /* larger than the table's leaves */
            sum[r] += w * mean[i];
            weight[r] += w;
            weight2[r] += w * w;
        }
    }
    return WS_OK;
}

/* MT19937 with CPython's seeding and randrange; see ws_rng.h. */
#include "ws_rng.h"

#define MT_M 397
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu
#define MT_MATRIX 0x9908b0dfu

static void init_genrand(WsRng *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < WS_RNG_N; i++)
        r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = WS_RNG_N;
}

void ws_rng_seed(WsRng *r, const uint32_t *key, int length) {
    uint32_t *mt = r->mt;
    int i = 1, j = 0;
    init_genrand(r, 19650218u);
    for (int k = WS_RNG_N > length ? WS_RNG_N : length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= WS_RNG_N) {
            mt[0] = mt[WS_RNG_N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (int k = WS_RNG_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= WS_RNG_N) {
            mt[0] = mt[WS_RNG_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u; /* a non-zero initial state */
    r->index = WS_RNG_N;
}

uint32_t ws_rng_next(WsRng *r) {
    uint32_t *mt = r->mt, y;
    if (r->index >= WS_RNG_N) {
        int k = 0;
        for (; k < WS_RNG_N - MT_M; k++) {
            y = (mt[k] & MT_UPPER) | (mt[k + 1] & MT_LOWER);
            mt[k] = mt[k + MT_M] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX : 0u);
        }
        for (; k < WS_RNG_N - 1; k++) {
            y = (mt[k] & MT_UPPER) | (mt[k + 1] & MT_LOWER);
            mt[k] = mt[k + (MT_M - WS_RNG_N)] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX : 0u);
        }
        y = (mt[WS_RNG_N - 1] & MT_UPPER) | (mt[0] & MT_LOWER);
        mt[WS_RNG_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX : 0u);
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint32_t ws_rng_below(WsRng *r, uint32_t n) {
    int k = 0;
    while (k < 32 && (n >> k)) k++; /* bit length of n (n >= 1, so k >= 1) */
    uint32_t v;
    do {
        v = ws_rng_next(r) >> (32 - k);
    } while (v >= n);
    return v;
}

double ws_rng_random(WsRng *r) {
    uint32_t a = ws_rng_next(r) >> 5, b = ws_rng_next(r) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

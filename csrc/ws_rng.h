/* The random numbers of Python's `random` module, in C.
 *
 * A game's bag is drawn with random.Random(seed).randrange(len(bag)) (wordsalvo.game).
 * The self-play loop (ws_selfplay.c) draws the same tiles without calling Python, so
 * it needs the same generator: MT19937 (Matsumoto & Nishimura 1998), seeded the way
 * CPython seeds it from a whole number (init_by_array over the number's 32-bit words,
 * least significant first), and randrange(n) as CPython computes it
 * (_randbelow_with_getrandbits: k = bit length of n, draw the top k bits of the next
 * 32-bit output until the value is below n).  The tests compare it with Python's
 * own generator; the self-play wrapper checks it once before trusting it.
 */
#ifndef WS_RNG_H
#define WS_RNG_H

#include "ws_defs.h"

#define WS_RNG_N 624

typedef struct WsRng {
    uint32_t mt[WS_RNG_N];
    int32_t index; /* next word of mt to temper; WS_RNG_N = regenerate first */
} WsRng;

/* random.Random(seed) for seed = the number whose 32-bit words, least significant
 * first, are key[0..length) (length >= 1; key {0} for seed 0; the sign is ignored,
 * as CPython seeds with abs(seed)). */
void ws_rng_seed(WsRng *r, const uint32_t *key, int length);

/* The next 32-bit output (random.getrandbits(32)). */
uint32_t ws_rng_next(WsRng *r);

/* random.randrange(n) for 1 <= n <= 2^31. */
uint32_t ws_rng_below(WsRng *r, uint32_t n);

/* random.random(): 53 random bits in [0, 1), from two outputs as CPython makes it
 * ((a >> 5) * 2^26 + (b >> 6)) / 2^53 (the rated player's draw, ws_rated.h). */
double ws_rng_random(WsRng *r);

#endif

/* Inference of the tiles an opponent kept: the loop over its possible racks
 * (wordsalvo.engine.inference.infer, which enumerates or samples the leaves and adds up
 * the weights; this file only judges each rack).
 *
 * The mover's rack was the tiles it played plus a leave L.  For each L given, the rack
 * played + L is loaded into the generator and L is KEPT when a player choosing by
 * static equity could have made the turn:
 *
 *  - a play (exchanged 0) of equity E = (float)score + value of keeping L (the float32
 *    sum the search makes): no placement has equity > E + margin + 1e-6, and neither
 *    has the best swap (ws_gen_best_swap);
 *  - an exchange of `exchanged` tiles: the best swap puts back exactly that many tiles,
 *    and no placement has equity > its equity + margin.  What the mover kept is then the
 *    best swap's leave, not L.
 *
 * The comparisons are in double, as Python makes them on the float32 equities.  The
 * cheap test (the best swap, one pass over the rack's leave values) comes first, so a
 * rack it rules out needs no move search; the search then only asks whether a placement
 * beats the bar (ws_gen_exceeds_equity), which stops at the first that does.
 *
 * Nothing is allocated and nothing calls Python; errors are status codes (ws_defs.h).
 */
#ifndef WS_INFER_H
#define WS_INFER_H

#include <stddef.h>

#include "ws_defs.h"
#include "ws_leaves.h"
#include "ws_movegen.h"

/* A leave or a kept set, as WS_RACK_MAX tile codes (blank 0, in code order), this byte
 * after its last tile (ws_sim.h's WS_SIM_INFER_END: the same layout). */
#define WS_INFER_END 0xFFu

/* The turn to explain, and the equity terms of the mover's racks. */
typedef struct WsInferTurn {
    const uint8_t *board;        /* WS_SQUARES tile codes: the board before the turn */
    const WsLeaves *values;      /* leave values (NULL: every leave is worth 0) */
    const WsLeaves *ranking;     /* the best swap's tie order (NULL: index order) */
    int32_t endgame;             /* bag empty: the settlement terms instead of values */
    double out_value;            /* endgame: going out is worth this (cast to float) */
    const double *out_values;    /* or, when not NULL, one per leave (count entries) */
    double keep_factor;          /* endgame: a kept tile costs this x its face value */
    int32_t bag;                 /* tiles in the bag (the swap's rules) */
    int32_t min_bag;             /* ws_gen_best_swap's rules */
    int32_t whole_rack;
    int32_t must_cover;
    uint8_t played[WS_MAX_LETTERS + 1]; /* the play's tiles, counts by code ([0] blanks) */
    int32_t score;               /* the play's score */
    int32_t exchanged;           /* > 0: the turn was an exchange of this many tiles */
    double margin;               /* points of equity the turn may lose to the best */
} WsInferTurn;

/* Judges `count` leaves (count x WS_RACK_MAX codes, see WS_INFER_END): kept[i] = 1 when
 * leave i is consistent with the turn, else 0; for a kept one, kept_tiles (count x
 * WS_RACK_MAX, same layout) holds the tiles kept (the leave itself for a play, the best
 * swap's leave for an exchange).  Loads the board into g first.  WS_E_ARGUMENT (and
 * *failed = the leave's index) when a rack has more than WS_RACK_MAX tiles, a code
 * outside the alphabet, or a leave the table cannot value; kept[] is then complete
 * only before *failed. */
int ws_infer_racks(WsGen *g, const WsInferTurn *turn, const uint8_t *leaves, size_t count, uint8_t *kept,
                   uint8_t *kept_tiles, size_t *failed);

#endif

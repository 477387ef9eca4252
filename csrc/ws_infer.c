/* The rack loop of inference; see ws_infer.h. */
#include <math.h>
#include <string.h>

#include "ws_infer.h"

/* The counts by code of one leave row; its number of tiles, or -1 for a code outside
 * the alphabet or a tile after the end marker. */
static int leave_counts(const WsGen *g, const uint8_t *row, uint8_t *counts) {
    int n = 0, ended = 0;
    memset(counts, 0, WS_MAX_LETTERS + 1);
    for (int i = 0; i < WS_RACK_MAX; i++) {
        uint8_t t = row[i];
        if (t == WS_INFER_END) {
            ended = 1;
            continue;
        }
        if (ended || t > g->rules.alphabet_size) return -1;
        counts[t]++;
        n++;
    }
    return n;
}

/* counts by code as a row of codes in code order, WS_INFER_END after the last */
static void write_row(const uint8_t *counts, uint8_t *row) {
    int n = 0;
    memset(row, WS_INFER_END, WS_RACK_MAX);
    for (int t = 0; t <= WS_MAX_LETTERS && n < WS_RACK_MAX; t++)
        for (int k = 0; k < counts[t] && n < WS_RACK_MAX; k++) row[n++] = (uint8_t)t;
}

int ws_infer_racks(WsGen *g, const WsInferTurn *turn, const uint8_t *leaves, size_t count, uint8_t *kept,
                   uint8_t *kept_tiles, size_t *failed) {
    uint8_t leave[WS_MAX_LETTERS + 1], rack[WS_MAX_LETTERS + 1], keep[WS_MAX_LETTERS + 1];
    *failed = 0;
    int rc = ws_gen_set_board(g, turn->board);
    if (rc != WS_OK) return rc;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *row = leaves + i * WS_RACK_MAX;
        kept[i] = 0;
        memset(kept_tiles + i * WS_RACK_MAX, WS_INFER_END, WS_RACK_MAX);
        int n = leave_counts(g, row, leave);
        if (n < 0) {
            *failed = i;
            return WS_E_ARGUMENT;
        }
        for (int t = 0; t <= WS_MAX_LETTERS; t++) {
            int c = turn->played[t] + leave[t];
            if (c > WS_RACK_MAX) {
                *failed = i;
                return WS_E_ARGUMENT;
            }
            rack[t] = (uint8_t)c;
        }
        double out = turn->out_values ? turn->out_values[i] : turn->out_value;
        ws_gen_set_equity(g, turn->values, turn->endgame, (float)out, (float)turn->keep_factor);
        rc = ws_gen_set_rack(g, rack);
        if (rc != WS_OK) {
            *failed = i;
            return rc;
        }
        /* the best swap first: it alone may rule the rack out, without a search */
        int swap = ws_gen_best_swap(g, turn->ranking, turn->bag, turn->min_bag, turn->whole_rack, turn->must_cover);
        double bar; /* a placement of more equity than this: not the mover's choice */
        if (turn->exchanged) {
            if (swap < 0) continue;
            ws_gen_leave_counts(g, swap, keep);
            int size = 0;
            for (int t = 0; t <= WS_MAX_LETTERS; t++) size += keep[t];
            if (g->rack_total - size != turn->exchanged) continue;
            bar = (double)g->leave_value[swap] + turn->margin;
        } else {
            int index = ws_gen_leave_index(g, leave);
            if (index < 0) { /* cannot be: the rack holds the leave */
                *failed = i;
                return WS_E_ARGUMENT;
            }
            float equity = (float)turn->score + g->leave_value[index];
            bar = (double)equity + turn->margin + 1e-6;
            if (swap >= 0 && (double)g->leave_value[swap] > bar) continue;
            memcpy(keep, leave, sizeof keep);
        }
        int better = 0;
        rc = ws_gen_exceeds_equity(g, bar, &better);
        if (rc != WS_OK) {
            *failed = i;
            return rc;
        }
        if (better) continue;
        kept[i] = 1;
        write_row(keep, kept_tiles + i * WS_RACK_MAX);
    }
    return WS_OK;
}

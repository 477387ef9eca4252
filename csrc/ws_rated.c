/* The rated player; see ws_rated.h.  Each step names the Python it mirrors
 * (wordsalvo.engine.bot.Bot._choose_rated, softmax_pick; wordsalvo.moves). */
#include <math.h>
#include <string.h>

#include "ws_rated.h"

/* Whether the UTF-8 text w[0..len) is a word of the list (binary search). */
static int list_has(const WsWordList *list, const uint8_t *w, size_t len) {
    int32_t lo = 0, hi = list->count - 1;
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        const uint8_t *x = list->bytes + list->start[mid];
        size_t xlen = list->start[mid + 1] - list->start[mid];
        int c = memcmp(x, w, xlen < len ? xlen : len);
        if (c == 0) c = xlen < len ? -1 : xlen > len ? 1 : 0;
        if (c == 0) return 1;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

/* Appends the text of board code t (blank bit ignored) to buf[0..len); the new length. */
static size_t append_letter(const WsWordList *list, uint8_t *buf, size_t len, uint8_t t) {
    unsigned code = t & WS_LETTER_MASK;
    if (code > WS_MAX_LETTERS) return len; /* not a letter: spells nothing (the board is checked) */
    memcpy(buf + len, list->letter[code], list->letter_len[code]);
    return len + list->letter_len[code];
}

int ws_words_listed(const WsWordList *list, const uint8_t *board, const WsMove *m) {
    if (!list || list->count <= 0) return 0;
    uint8_t word[WS_DIM * WS_LETTER_BYTES];
    int across = m->direction == 0;
    int step = across ? 1 : WS_DIM, cross = across ? WS_DIM : 1;
    int first_square = m->row * WS_DIM + m->col;
    size_t len = 0;
    if (m->length >= 2) { /* Move.word */
        for (int i = 0, at = first_square; i < m->length; i++, at += step)
            len = append_letter(list, word, len, m->tiles[i] ? m->tiles[i] : board[at]);
        if (list_has(list, word, len)) return 1;
    }
    for (int i = 0, at = first_square; i < m->length; i++, at += step) { /* the cross words */
        if (!m->tiles[i]) continue;
        int line_first = across ? at % WS_DIM : at - at % WS_DIM; /* first square of the cross line */
        int line_end = line_first + WS_DIM * cross;
        int a = at - cross;
        while (a >= line_first && board[a]) a -= cross;
        a += cross;
        int b = at + cross;
        while (b < line_end && board[b]) b += cross;
        if (b - a <= cross) continue;
        len = 0;
        for (int k = a; k < b; k += cross) len = append_letter(list, word, len, k == at ? m->tiles[i] : board[k]);
        if (list_has(list, word, len)) return 1;
    }
    return 0;
}

size_t ws_softmax_pick(const double *value, const uint8_t *excluded, size_t n, double beta, double u, double *cum) {
    double ref = 0.0;
    int have = 0;
    for (size_t i = 0; i < n; i++) {
        if (excluded && excluded[i]) continue;
        if (!have || (beta >= 0 ? value[i] > ref : value[i] < ref)) ref = value[i];
        have = 1;
    }
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        double w = 0.0;
        if (!(excluded && excluded[i])) {
            w = exp(beta * (value[i] - ref));
            if (!isfinite(w)) w = 0.0;
        }
        sum += w;
        cum[i] = sum;
    }
    double r = u * sum;
    size_t lo = 0, hi = n; /* the first index whose running sum exceeds r */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cum[mid] > r) hi = mid;
        else lo = mid + 1;
    }
    if (lo < n) return lo; /* its sum grew there: its weight is positive */
    for (size_t i = n; i-- > 0;) { /* r rounded up to the sum: the last index of positive weight */
        if (excluded && excluded[i]) continue;
        double w = exp(beta * (value[i] - ref));
        if (isfinite(w) && w > 0.0) return i;
    }
    return 0; /* not reached: the reference weight is exp(0) = 1 */
}

int ws_rated_choose(const WsGame *s, WsGen *g, const WsRated *P, int last_kind, WsRng *rng, WsRatedBuffer *buf,
                    WsAction *a) {
    WsAction play, swap;
    size_t n = 0;
    int rc;
    memset(a, 0, sizeof *a);
    a->kind = WS_TURN_PASS;
    memset(&play, 0, sizeof play);
    play.kind = WS_TURN_PASS;
    memset(&swap, 0, sizeof swap);
    swap.kind = WS_TURN_PASS;
    if (P->leaves) {
        /* Bot._best_swap: the static equity player's swap with no play to weigh (loads s) */
        WsPlayer Q;
        memset(&Q, 0, sizeof Q);
        Q.by_equity = 1;
        Q.leaves = P->leaves;
        Q.swap_ceiling = HUGE_VALF;
        rc = ws_player_options(s, g, &Q, -1, 0, &play, &swap);
    } else {
        rc = ws_game_load(s, g, 0, NULL);
    }
    if (rc != WS_OK) return rc;
    /* Game.legal_moves(leaves): every play, in the generator's order */
    rc = ws_gen_all(g, buf->moves, buf->capacity, &n);
    if (n > buf->needed) buf->needed = n;
    if (rc != WS_OK) return rc;
    double *value = buf->values;
    if (P->leaves) { /* LeaveValues.equities: float32 score + the value of the tiles kept */
        int32_t weight[WS_MAX_LETTERS + 1];
        memset(weight, 0, sizeof weight);
        for (int j = 0; j < g->leave_types; j++) weight[g->leave_type[j]] = g->leave_weight[j];
        for (size_t i = 0; i < n; i++) {
            const WsMove *m = &buf->moves[i];
            int idx = g->leave_count - 1; /* the whole rack kept */
            for (int k = 0; k < m->length; k++)
                if (m->tiles[k]) idx -= weight[(m->blank_mask >> k & 1) ? 0 : m->tiles[k]];
            float e = (float)m->score + g->leave_value[idx];
            value[i] = (double)e;
        }
    } else {
        for (size_t i = 0; i < n; i++) value[i] = (double)buf->moves[i].score;
    }
    size_t total = n;
    if (swap.kind == WS_TURN_SWAP) value[total++] = (double)swap.equity;
    if (!isfinite(P->beta)) return WS_E_ARGUMENT;
    for (size_t i = 0; i < total; i++)
        if (!isfinite(value[i])) return WS_E_ARGUMENT;
    memset(buf->excluded, 0, total);
    /* softmax_pick, then never an offensive word: each round rules out one play drawn */
    for (size_t round = 0; round < total; round++) {
        double u = ws_rng_random(rng);
        size_t k = ws_softmax_pick(value, buf->excluded, total, P->beta, u, buf->cum);
        if (k == n) {
            *a = swap;
            return WS_OK;
        }
        if (!ws_words_listed(P->offensive, s->board, &buf->moves[k])) {
            a->kind = WS_TURN_PLAY;
            a->move = buf->moves[k];
            a->equity = P->leaves ? (float)value[k] : 0.0f;
            return WS_OK;
        }
        buf->excluded[k] = 1;
    }
    if (P->leaves) return WS_OK; /* every play offensive and no swap, or nothing at all: a pass */
    /* Bot._fallback: the static score player's move without a play */
    WsPlayer Q;
    memset(&Q, 0, sizeof Q);
    play.kind = WS_TURN_PASS;
    rc = ws_player_options(s, g, &Q, last_kind, 0, &play, &swap);
    if (rc != WS_OK) return rc;
    ws_player_pick(&play, &swap, a);
    return WS_OK;
}

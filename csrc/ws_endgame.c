/* Exact endgame solver; see ws_endgame.h and docs/endgame.md. */
#define _POSIX_C_SOURCE 200809L


#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ws_endgame.h"
#include "ws_graph.h"

#if !defined(_WIN32)
#include <pthread.h>
#define WS_EG_PTHREADS 1
#endif

#define EG_INF 0x3fffffff
#define EG_EXACT 1
#define EG_LOWER 2
#define EG_UPPER 3
#define EG_COMPLETE 4
#define EG_CLOCK_EVERY 256
#define EG_POLL_STEPS 2048 /* word-graph steps between two clock reads inside one generation */
#define EG_SELECT 4        /* moves picked one by one before the rest is sorted */
#define EG_KILLERS 2       /* tile plays per ply tried before the moves are generated */
#define EG_KILLER_DEPTH 1  /* deeper: only a killer that goes out (ends the game) is tried first (with 2:
                            * 1.3-1.4x the turns and 1.1-1.2x the time on 89 self-play endgames) */
#define EG_SHED 8          /* the ordering's weight of what a play sheds, against its score */
#define EG_GOING_OUT ((int64_t)1 << 40) /* the ordering key of a play that goes out: above any other play */
#define EG_BUSY_SLOTS 4096  /* threads: the moves being searched now (a hash set, lossy) */
#define EG_DEFER_DEPTH 2    /* threads: a move another thread is searching is deferred from this depth up */

struct WsEndgame {
    WsGen gen;
    WsGame orig; /* the position as given */
    WsGame work; /* the search state */
    WsEgEntry *tt;
    size_t tt_mask;
    WsMove *moves;
    WsEgOrder *order;
    size_t capacity, top;
    /* rules of the end, two players, the bag empty */
    int32_t pass_limit;      /* passes in a row that end the game (0: none) */
    int32_t scoreless_limit; /* scoreless turns in a row that end the game, passes counting (0: none) */
    int32_t zero_plays;      /* a zero-score play counts as a scoreless turn */
    int32_t values_positive; /* every letter is worth at least 1 */
    int32_t settle_out;
    int32_t board_blanks;    /* blanks on the board of work */
    uint8_t two_before[WS_MAX_LETTERS + 1]; /* [x]: some two-letter word ends in x */
    uint8_t two_after[WS_MAX_LETTERS + 1];  /* [x]: some two-letter word starts with x */
    int32_t stop, error;
    int64_t nodes;
    int64_t node_limit; /* stop once the search has made this many turns (0: no limit) */
    double deadline, started;
    int64_t started_ns;      /* started, for ws_endgame_progress */
    int32_t orig_board_blanks;
    /* threads: helpers (of the main E), or the main solve (of a helper) */
    int32_t thread_id;     /* 0: the calling thread */
    int32_t helper_count;
    WsEndgame *helpers[WS_EG_MAX_THREADS - 1];
    WsEndgame *main;       /* a helper's main solve (the main's own: itself) */
    int32_t halt;          /* main: set when the helpers must stop */
    int32_t cur_depth;     /* the iteration in progress (read by the helpers) */
    int32_t max_depth;
    int32_t parallel;      /* other threads search too: defer what they are searching */
    int64_t pub_nodes;     /* nodes, published for ws_endgame_progress */
    int32_t publish;       /* deepen publishes its iterations (the main's first solve) */
    uint32_t prog_seq;     /* the progress snapshot's seqlock: odd while written */
    WsEgProgress prog;
#ifdef WS_EG_PTHREADS
    pthread_t thread;
#endif
    WsUndo undo[WS_EG_MAX_PLY];
    WsMove killer[WS_EG_MAX_PLY][EG_KILLERS]; /* tile plays that cut off at this ply (score: 0 = none) */
    WsEgStep pv[WS_EG_MAX_PLY][WS_EG_MAX_PLY];
    int32_t pv_len[WS_EG_MAX_PLY];
    /* main, with threads only (past `undo`: neither the set-up's clearing nor a helper's
     * copy touches it; cleared when the helpers start): (node key ^ move key) of the moves
     * some thread is searching now */
    uint64_t busy[EG_BUSY_SLOTS];
};

size_t ws_endgame_size(void) { return sizeof(WsEndgame); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}


/* Whether the search must stop now: the helpers' halt, the deadline.  Publishes the
 * node count for ws_endgame_progress. */
static int eg_check(WsEndgame *E) {
    __atomic_store_n(&E->pub_nodes, E->nodes, __ATOMIC_RELAXED);
    if (E->main != E && __atomic_load_n(&E->main->halt, __ATOMIC_RELAXED)) return 1;
    return E->deadline > 0 && now() > E->deadline;
}

static int eg_poll(void *ctx) { return eg_check((WsEndgame *)ctx); }

int ws_endgame_setup(WsEndgame *E, const WsGame *root, const WsGen *proto, WsEgEntry *table, size_t entries,
                     WsMove *moves, WsEgOrder *order, size_t capacity) {
    const WsGameRules *R = root->rules;
    if (R->players != 2) return WS_E_PLAYERS;
    if (root->end_reason != WS_END_NONE) return WS_E_GAME_OVER;
    if (root->bag_count != 0) return WS_E_BAG_NOT_EMPTY;
    if (root->out_mask) return WS_E_PLAYER;
    if (!table || entries < 1024 || (entries & (entries - 1)) || !moves || !order || capacity < 4096)
        return WS_E_ARGUMENT;
    if (ws_game_swap_allowed(root, 1)) return WS_E_EMPTY_BAG_SWAP; /* a swap with an empty bag: not searched */
    memset(E, 0, offsetof(WsEndgame, undo));
    memcpy(&E->gen, proto, sizeof E->gen);
    ws_game_copy(&E->orig, root);
    ws_game_copy(&E->work, root);
    E->tt = table;
    E->tt_mask = entries - 1;
    memset(table, 0, entries * sizeof *table);
    E->moves = moves;
    E->order = order;
    E->capacity = capacity;
    int limit = 0;
    if (R->all_pass_rounds) limit = R->all_pass_rounds * 2;
    if (R->consecutive_passes && (!limit || R->consecutive_passes < limit)) limit = R->consecutive_passes;
    E->pass_limit = limit;
    E->scoreless_limit = (R->scoreless_turns && (R->scoreless_kinds & WS_SCORELESS_PASS) &&
                          (!R->scoreless_bag_below || R->scoreless_bag_below > 0))
                             ? R->scoreless_turns
                             : 0;
    if (!E->pass_limit && !E->scoreless_limit) return WS_E_ENDLESS; /* passing for ever */
    E->zero_plays = R->scoreless_turns && (R->scoreless_kinds & WS_SCORELESS_ZERO_PLAY);
    E->values_positive = 1;
    for (int t = 1; t <= R->alphabet_size; t++)
        if (R->tile_value[t] < 1) E->values_positive = 0;
    E->settle_out = R->settle_out;
    for (int sq = 0; sq < WS_SQUARES; sq++) E->board_blanks += (root->board[sq] & WS_BLANK_BIT) != 0;
    E->orig_board_blanks = E->board_blanks;
    E->main = E;
    E->helper_count = 0;
    ws_gen_poll(&E->gen, eg_poll, E, EG_POLL_STEPS);
    for (int x = 1; x <= R->alphabet_size; x++)
        for (int y = 1; y <= R->alphabet_size; y++) {
            uint8_t w1[2] = {(uint8_t)y, (uint8_t)x}, w2[2] = {(uint8_t)x, (uint8_t)y};
            if (ws_graph_contains(proto->nodes, w1, 2) > 0) E->two_before[x] = 1;
            if (ws_graph_contains(proto->nodes, w2, 2) > 0) E->two_after[x] = 1;
        }
    return WS_OK;
}

static inline int empty_at(const WsGame *s, int r, int c) {
    return r < 0 || r >= WS_DIM || c < 0 || c >= WS_DIM || !s->board[r * WS_DIM + c];
}

/* With two blanks in play, one on the board: whether a blank placed next to it could
 * form a word of the two blanks alone (an empty neighbour whose line holds just the two
 * and with no tile across it, and a two-letter word with the board blank's letter there).  Placing tiles only fills squares, so once there is no
 * such square there never is one again. */
static int blank_slot_open(const WsEndgame *E, const WsGame *s) {
    static const int dr[4] = {0, 0, 1, -1}, dc[4] = {1, -1, 0, 0};
    for (int sq = 0; sq < WS_SQUARES; sq++) {
        if (!(s->board[sq] & WS_BLANK_BIT)) continue;
        int r = sq / WS_DIM, c = sq % WS_DIM, x = s->board[sq] & WS_LETTER_MASK;
        for (int k = 0; k < 4; k++) {
            /* the new blank before the board's (k = 1, 3: left, above) or after it */
            if (!((k == 1 || k == 3) ? E->two_before[x] : E->two_after[x])) continue;
            int sr = r + dr[k], sc = c + dc[k];
            if (sr < 0 || sr >= WS_DIM || sc < 0 || sc >= WS_DIM || !empty_at(s, sr, sc)) continue;
            if (!empty_at(s, sr + dr[k], sc + dc[k]) || !empty_at(s, r - dr[k], c - dc[k])) continue;
            if (!empty_at(s, sr + dc[k], sc + dr[k]) || !empty_at(s, sr - dc[k], sc - dr[k])) continue;
            return 1;
        }
    }
    return 0;
}

/* No zero-score play can happen from this state on (so no scoreless tile play).  A play
 * worth 0 forms only words of blanks (every letter worth at least 1): it needs a blank on
 * the rack and one on the board next to which it can stand alone. */
static int no_zero_plays(const WsEndgame *E, const WsGame *s) {
    if (!E->zero_plays) return 1;
    if (!E->values_positive) return 0;
    int rack_blanks = s->rack[0][0] + s->rack[1][0];
    if (rack_blanks == 0 || rack_blanks + E->board_blanks <= 1) return 1;
    return rack_blanks == 1 && E->board_blanks == 1 && !blank_slot_open(E, s);
}

/* The counter reduction: with no scoreless tile play ahead, only "does one more pass end
 * the game" matters, so the counters are raised until at most two passes end it. */
static void reduce_counters(WsEndgame *E, WsGame *s) {
    if (!no_zero_plays(E, s)) return;
    int left = EG_INF;
    if (E->pass_limit) left = E->pass_limit - s->pass_count;
    if (E->scoreless_limit && E->scoreless_limit - s->scoreless_count < left)
        left = E->scoreless_limit - s->scoreless_count;
    int d = left > 2 ? left - 2 : 0;
    int passes = E->pass_limit ? s->pass_count + d : 0;
    int scoreless = E->scoreless_limit ? s->scoreless_count + d : 0;
    if (passes != s->pass_count || scoreless != s->scoreless_count) ws_game_set_counters(s, passes, scoreless);
}

/* The table: buckets of two entries (the first kept for the deeper or complete result,
 * the second always replaced), each read and written word by word without locks. */
typedef struct EgHit {
    int32_t value;
    uint32_t best;
    int depth, flags;
} EgHit;

static inline int tt_read(const WsEgEntry *e, uint64_t key, EgHit *h) {
    uint64_t c = __atomic_load_n(&e->check, __ATOMIC_RELAXED);
    uint64_t d = __atomic_load_n(&e->data, __ATOMIC_RELAXED);
    uint64_t m = __atomic_load_n(&e->meta, __ATOMIC_RELAXED);
    if ((c ^ d ^ m) != key || !(m >> 8 & 0xff)) return 0;
    h->value = (int32_t)(uint32_t)d;
    h->best = (uint32_t)(d >> 32);
    h->depth = (int)(m & 0xff);
    h->flags = (int)(m >> 8 & 0xff);
    return 1;
}

static inline void tt_write(WsEgEntry *e, uint64_t key, int32_t value, uint32_t best, int depth, int flags) {
    uint64_t d = (uint64_t)(uint32_t)value | (uint64_t)best << 32;
    uint64_t m = (uint64_t)(depth > 255 ? 255 : depth) | (uint64_t)flags << 8;
    __atomic_store_n(&e->data, d, __ATOMIC_RELAXED);
    __atomic_store_n(&e->meta, m, __ATOMIC_RELAXED);
    __atomic_store_n(&e->check, key ^ d ^ m, __ATOMIC_RELAXED);
}

static inline int tt_worth(const EgHit *h) { return (h->flags & EG_COMPLETE) ? 512 : h->depth; }

static inline WsEgEntry *tt_bucket(WsEndgame *E, uint64_t key) { return &E->tt[key & E->tt_mask & ~(size_t)1]; }

static int tt_probe(WsEndgame *E, uint64_t key, EgHit *h) {
    WsEgEntry *b = tt_bucket(E, key);
    return tt_read(&b[0], key, h) || tt_read(&b[1], key, h);
}

static void tt_store(WsEndgame *E, uint64_t key, int32_t value, uint32_t best, int depth, int flags) {
    WsEgEntry *b = tt_bucket(E, key);
    EgHit h0, h1;
    int has0 = tt_read(&b[0], key, &h0), has1 = !has0 && tt_read(&b[1], key, &h1);
    EgHit nw = {value, best, depth > 255 ? 255 : depth, flags};
    if (has0 || has1) {
        /* a complete result is kept unless the new one is complete too */
        const EgHit *old = has0 ? &h0 : &h1;
        if ((old->flags & EG_COMPLETE) && !(flags & EG_COMPLETE)) return;
        tt_write(has0 ? &b[0] : &b[1], key, value, best, depth, flags);
        return;
    }
    /* a new key: into the first slot if it is worth at least as much as its entry (which
     * moves to the second), else into the second */
    uint64_t c0 = __atomic_load_n(&b[0].check, __ATOMIC_RELAXED), d0 = __atomic_load_n(&b[0].data, __ATOMIC_RELAXED),
             m0 = __atomic_load_n(&b[0].meta, __ATOMIC_RELAXED);
    int flags0 = (int)(m0 >> 8 & 0xff);
    EgHit first = {0, 0, (int)(m0 & 0xff), flags0};
    if (!flags0 || tt_worth(&nw) >= tt_worth(&first)) {
        if (flags0) {
            __atomic_store_n(&b[1].data, d0, __ATOMIC_RELAXED);
            __atomic_store_n(&b[1].meta, m0, __ATOMIC_RELAXED);
            __atomic_store_n(&b[1].check, c0, __ATOMIC_RELAXED);
        }
        tt_write(&b[0], key, value, best, depth, flags);
    } else {
        tt_write(&b[1], key, value, best, depth, flags);
    }
}

static inline int spread(const WsGame *s, int p) { return s->score[p] - s->score[1 - p]; }

static int cmp_order(const void *a, const void *b) {
    const WsEgOrder *x = a, *y = b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int make(WsEndgame *E, const WsMove *m, int ply) {
    WsGame *s = &E->work;
    int rc = m ? ws_game_play(s, m, &E->undo[ply]) : ws_game_pass(s, &E->undo[ply]);
    if (rc != WS_OK) return rc;
    if (m) {
        for (int i = 0; i < m->length; i++)
            if (m->tiles[i] && (m->blank_mask >> i & 1)) E->board_blanks++;
    }
    if (s->end_reason == WS_END_NONE) reduce_counters(E, s);
    return WS_OK;
}

static void unmake(WsEndgame *E, const WsMove *m, int ply) {
    if (m) {
        for (int i = 0; i < m->length; i++)
            if (m->tiles[i] && (m->blank_mask >> i & 1)) E->board_blanks--;
    }
    ws_game_undo(&E->work, &E->undo[ply]);
}

/* Whether the tile play m (made by the generator in another position) is legal for the
 * mover of s as it stands, forming the same main word; its score there into *score.  The
 * same words and the same sums as the generator: the main word's letters (a new tile
 * times its letter multiplier) times the new squares' word multipliers, each cross word
 * likewise, the squares' flat bonuses, the bingo bonus. */
static int play_fits(const WsEndgame *E, const WsGame *s, const WsMove *m, int32_t *score) {
    const WsRules *R = &E->gen.rules;
    const uint8_t *board = s->board;
    int d = m->direction, len = m->length, r0 = m->row, c0 = m->col;
    if (d > 1 || len < 2 || len > WS_DIM || r0 >= WS_DIM || c0 >= WS_DIM || (d ? r0 : c0) + len > WS_DIM) return 0;
    int dr = d ? 1 : 0, dc = d ? 0 : 1;
    /* the run must be the stored one: nothing just before or after it */
    if (!empty_at(s, r0 - dr, c0 - dc) || !empty_at(s, r0 + dr * len, c0 + dc * len)) return 0;
    uint8_t need[WS_MAX_LETTERS + 1] = {0};
    uint8_t word[WS_DIM];
    int main = 0, wmul = 1, cross = 0, placed = 0, touches = 0;
    int p = s->to_move;
    for (int i = 0; i < len; i++) {
        int r = r0 + dr * i, c = c0 + dc * i, sq = r * WS_DIM + c;
        uint8_t t = m->tiles[i];
        if (!t) {
            uint8_t b = board[sq];
            if (!b) return 0;
            word[i] = b & WS_LETTER_MASK;
            main += (b & WS_BLANK_BIT) ? 0 : R->tile_value[b & WS_LETTER_MASK];
            touches = 1;
            continue;
        }
        if (board[sq] || t > R->alphabet_size) return 0;
        int blank = m->blank_mask >> i & 1;
        int code = blank ? 0 : t;
        if (++need[code] > s->rack[p][code]) return 0;
        placed++;
        word[i] = t;
        int v = blank ? 0 : R->tile_value[t], lm = R->letter_mult[sq], wm = R->word_mult[sq];
        main += v * lm;
        wmul *= wm;
        cross += R->square_bonus[sq];
        /* the cross word through this square */
        int a = 0, b = 0; /* tiles before and after, across the play */
        while (!empty_at(s, r - dc * (a + 1), c - dr * (a + 1))) a++;
        while (!empty_at(s, r + dc * (b + 1), c + dr * (b + 1))) b++;
        if (a + b == 0) continue;
        uint8_t xw[WS_DIM];
        int xs = 0, n = 0;
        for (int k = -a; k <= b; k++) {
            if (k == 0) {
                xw[n++] = t;
                continue;
            }
            uint8_t y = board[(r + dc * k) * WS_DIM + (c + dr * k)];
            xw[n++] = y & WS_LETTER_MASK;
            xs += (y & WS_BLANK_BIT) ? 0 : R->tile_value[y & WS_LETTER_MASK];
        }
        if (ws_graph_contains(E->gen.nodes, xw, (size_t)n) <= 0) return 0;
        cross += (v * lm + xs) * wm;
        touches = 1;
    }
    if (!placed || !touches || ws_graph_contains(E->gen.nodes, word, (size_t)len) <= 0) return 0;
    *score = main * wmul + cross + (placed == R->bingo_tiles ? R->bingo_bonus : 0);
    return 1;
}

static int32_t search(WsEndgame *E, int depth, int ply, int32_t alpha, int32_t beta, int *taint);

/* One move of a node (m; NULL: the pass) made, searched and unmade: its value for the
 * mover p, whose spread was `before`.  The first move of a node gets the whole window,
 * the others a null window, searched again with the whole one when they land inside. */
static int32_t child_value(WsEndgame *E, const WsMove *m, int depth, int ply, int32_t alpha, int32_t beta,
                           int first, int before, int p, int *taint) {
    WsGame *s = &E->work;
    if (make(E, m, ply) != WS_OK) {
        E->error = WS_E_ARGUMENT;
        E->stop = 1;
        return 0;
    }
    int32_t g = spread(s, p) - before, v;
    if (s->end_reason != WS_END_NONE) {
        v = g;
        E->pv_len[ply + 1] = 0;
    } else if (first) {
        v = g - search(E, depth - 1, ply + 1, g - beta, g - alpha, taint);
    } else {
        int t = 0;
        v = g - search(E, depth - 1, ply + 1, g - alpha - 1, g - alpha, &t);
        if (v > alpha && v < beta && !E->stop) {
            t = 0;
            v = g - search(E, depth - 1, ply + 1, g - beta, g - alpha, &t);
        }
        *taint |= t;
    }
    unmake(E, m, ply);
    return v;
}

/* The best line of ply: m, then the line below it. */
static void set_pv(WsEndgame *E, int ply, const WsMove *m) {
    WsEgStep *line = E->pv[ply];
    if (m) {
        line[0].move = *m;
        line[0].kind = WS_TURN_PLAY;
    } else {
        memset(&line[0].move, 0, sizeof line[0].move);
        line[0].kind = WS_TURN_PASS;
    }
    int len = E->pv_len[ply + 1];
    if (len > WS_EG_MAX_PLY - ply - 1) len = WS_EG_MAX_PLY - ply - 1;
    memcpy(line + 1, E->pv[ply + 1], (size_t)len * sizeof *line);
    E->pv_len[ply] = len + 1;
}

/* A play that cut off at ply: first of the ply's killers. */
static void note_killer(WsEndgame *E, int ply, const WsMove *m) {
    WsMove *k = E->killer[ply];
    if (memcmp(&k[0], m, sizeof *m) == 0) return;
    for (int i = EG_KILLERS - 1; i > 0; i--) k[i] = k[i - 1];
    k[0] = *m;
}

/* Threads: the key of move m (NULL: the pass) at the node of key `key`, never 0. */
static uint64_t busy_key(uint64_t key, const WsMove *m) {
    uint64_t h = 0x5bd1e995u;
    if (m) {
        h = ((uint64_t)m->row * WS_DIM + (uint64_t)m->col) * 2 + (uint64_t)m->direction;
        for (int t = 0; t < m->length; t++) h = h * 131 + m->tiles[t];
        h = h * 131 + m->blank_mask;
    }
    h = key ^ (h * 0x9E3779B97F4A7C15ull);
    return h ? h : 1;
}

int ws_endgame_play_fits(const WsEndgame *E, const WsMove *m, int32_t *score) {
    *score = 0;
    return play_fits(E, &E->orig, m, score);
}

/* The gain of the mover of E->work (see ws_endgame.h); *taint |= 1 when a depth cut-off
 * or a table value found with one was used. */
static int32_t search(WsEndgame *E, int depth, int ply, int32_t alpha, int32_t beta, int *taint) {
    WsGame *s = &E->work;
    E->pv_len[ply] = 0;
    if ((++E->nodes & (EG_CLOCK_EVERY - 1)) == 0 && eg_check(E)) E->stop = 1;
    if (E->node_limit > 0 && E->nodes > E->node_limit) E->stop = 1;
    if (E->stop) return 0;
    uint64_t key = s->hash;
    EgHit hit;
    uint32_t tt_best = 0;
    if (tt_probe(E, key, &hit)) {
        tt_best = hit.best;
        if (ply > 0 && ((hit.flags & EG_COMPLETE) || hit.depth >= depth)) {
            int bound = hit.flags & 3;
            int32_t v = hit.value;
            if (bound == EG_EXACT || (bound == EG_LOWER && v >= beta) || (bound == EG_UPPER && v <= alpha)) {
                if (!(hit.flags & EG_COMPLETE)) *taint = 1;
                return v;
            }
        }
    }
    if (depth <= 0 || ply >= WS_EG_MAX_PLY - 1) {
        *taint = 1;
        return 0;
    }
    int p = s->to_move;
    int before = spread(s, p);
    int32_t alpha0 = alpha, best = -EG_INF;
    uint32_t best_index = 0;
    int local = 0, searched = 0;
    /* without a move from the table: the plays that cut off at this ply elsewhere, tried
     * before any generation when they are legal here (most cut-offs are one play, often the
     * same one, e.g. going out); a cut-off then spares generating the moves at all */
    WsMove tried[EG_KILLERS];
    int ntried = 0, best_tried = -1;
    if (!tt_best) {
        for (int k = 0; k < EG_KILLERS; k++) {
            const WsMove *km = &E->killer[ply][k];
            int32_t sc;
            if (!km->length || (km->tiles_played != s->rack_total[p] && depth > EG_KILLER_DEPTH) ||
                !play_fits(E, s, km, &sc))
                continue;
            tried[ntried] = *km;
            tried[ntried].score = sc;
            const WsMove *m = &tried[ntried++];
            int t = 0;
            int32_t v = child_value(E, m, depth, ply, alpha, beta, searched++ == 0, before, p, &t);
            if (E->stop) return 0;
            local |= t;
            if (v > best) {
                best = v;
                best_tried = ntried - 1;
                if (v > alpha) {
                    alpha = v;
                    set_pv(E, ply, m);
                }
                if (alpha >= beta) {
                    if (k) note_killer(E, ply, m);
                    *taint |= local;
                    tt_store(E, key, best, 0, depth, EG_LOWER | (local ? 0 : EG_COMPLETE));
                    return best;
                }
            }
        }
    }
    /* a generation can be long (many blanks): the clock before each one, and inside it */
    if (eg_check(E)) {
        E->stop = 1;
        return 0;
    }
    /* the moves: every play of the mover's rack, then the pass */
    size_t base = E->top, count = 0;
    if (ws_game_load(s, &E->gen, 0, NULL) != WS_OK) {
        E->error = WS_E_ARGUMENT;
        E->stop = 1;
        return 0;
    }
    if (base + 1 >= E->capacity ||
        ws_gen_all(&E->gen, E->moves + base, E->capacity - base - 1, &count) != WS_OK) {
        if (!E->gen.poll_stopped) E->error = WS_E_CAPACITY;
        E->stop = 1;
        return 0;
    }
    if (E->gen.poll_stopped) {
        E->stop = 1;
        return 0;
    }
    int rack_total = s->rack_total[p];
    int other_value = ws_game_rack_value(s, 1 - p);
    int out_bonus = E->settle_out == WS_SETTLE_PLAY_OUT ? 2 * other_value
                    : E->settle_out == WS_SETTLE_SUBTRACT ? other_value
                                                          : 0;
    WsEgOrder *ord = E->order + base;
    for (size_t i = 0; i < count; i++) {
        const WsMove *m = &E->moves[base + i];
        /* going out first (best by its score and the other rack's points), then the plays
         * that shed the most: what a play takes off the rack (its tiles and their face
         * value) weighs EG_SHED times its score.  Measured on 89 endgames of self-play
         * (benchmarks/endgame.py --make): the score plus the face value, going out first
         * only by its bonus, searched 3.1x the turns in all, 8.7x in one with a blank. */
        int played_value = 0;
        for (int t = 0; t < m->length; t++)
            if (m->tiles[t] && !(m->blank_mask >> t & 1)) played_value += s->rules->tile_value[m->tiles[t]];
        int64_t k = (int64_t)(m->score + EG_SHED * (played_value + m->tiles_played)) * 64 + m->tiles_played;
        if (m->tiles_played == rack_total) k = EG_GOING_OUT + (int64_t)(m->score + out_bonus) * 64;
        /* helpers break ties their own way, so that the threads part */
        if (E->thread_id) k = k * 64 + (((uint32_t)i * 2654435761u + (uint32_t)E->thread_id * 40503u) >> 26);
        ord[i].key = k;
        ord[i].index = (uint32_t)i;
        ord[i].pad = 0;
    }
    ord[count].key = -((int64_t)1 << 46); /* the pass: last, unless the table says otherwise */
    ord[count].index = (uint32_t)count;
    ord[count].pad = 0;
    if (tt_best >= 1 && tt_best <= count + 1) ord[tt_best - 1].key = (int64_t)1 << 56;
    size_t n = count + 1;
    /* the first few picked one by one (a cut-off often comes first), the rest sorted
     * only when reached */
    size_t sorted = 0;
    E->top = base + n;

    /* threads (after ABDADA): a move some other thread is searching now is put off to the
     * end of the node (its value then comes from the table more often), so that the
     * threads part instead of searching the same subtree side by side; every move is
     * still searched, so the value is the same */
    uint64_t *busy = E->main->busy;
    int defer = E->parallel && depth >= EG_DEFER_DEPTH;
    size_t deferred = 0;
    for (size_t j = 0, pass2 = 0; j < n || (deferred && !pass2); j++) {
        if (j == n) { /* the moves put off, in their order */
            pass2 = 1;
            j = (size_t)-1;
            continue;
        }
        if (pass2 && !ord[j].pad) continue;
        if (j >= sorted) {
            if (j < EG_SELECT) {
                size_t m_at = j;
                for (size_t q = j + 1; q < n; q++)
                    if (cmp_order(&ord[q], &ord[m_at]) < 0) m_at = q;
                WsEgOrder tmp = ord[j];
                ord[j] = ord[m_at];
                ord[m_at] = tmp;
                sorted = j + 1;
            } else {
                qsort(ord + j, n - j, sizeof *ord, cmp_order);
                sorted = n;
            }
        }
        uint32_t idx = ord[j].index;
        const WsMove *m = idx < count ? &E->moves[base + idx] : NULL;
        if (m && ntried) {
            /* a play tried before the generation: not again (the best's index kept) */
            int same = -1;
            for (int k = 0; k < ntried && same < 0; k++)
                if (memcmp(m, &tried[k], sizeof *m) == 0) same = k;
            if (same >= 0) {
                if (same == best_tried) best_index = idx + 1;
                continue;
            }
        }
        uint64_t bk = 0;
        size_t slot = 0;
        if (defer && !pass2) {
            bk = busy_key(key, m);
            slot = (size_t)(bk & (EG_BUSY_SLOTS - 1));
            if (searched && __atomic_load_n(&busy[slot], __ATOMIC_RELAXED) == bk) {
                ord[j].pad = 1;
                deferred++;
                continue;
            }
            __atomic_store_n(&busy[slot], bk, __ATOMIC_RELAXED);
        }
        int t = 0;
        int32_t v = child_value(E, m, depth, ply, alpha, beta, searched++ == 0, before, p, &t);
        if (bk) __atomic_compare_exchange_n(&busy[slot], &bk, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        if (E->stop) break;
        local |= t;
        if (v > best) {
            best = v;
            best_index = idx + 1;
            if (v > alpha) {
                alpha = v;
                set_pv(E, ply, m);
            }
            if (alpha >= beta) {
                if (m) note_killer(E, ply, m);
                break;
            }
        }
    }
    E->top = base;
    if (E->stop) return 0;
    *taint |= local;
    tt_store(E, key, best, best_index, depth,
             (best <= alpha0 ? EG_UPPER : best >= beta ? EG_LOWER : EG_EXACT) | (local ? 0 : EG_COMPLETE));
    return best;
}

/* Iterative deepening from E->work: the gain, its line into line/len, whether proven. */
static void publish(WsEndgame *E, int depth, int32_t gain, int exact, const WsEgStep *line, int len) {
    __atomic_add_fetch(&E->prog_seq, 1, __ATOMIC_ACQ_REL);
    E->prog.depth = depth;
    E->prog.value = spread(&E->orig, E->orig.to_move) + gain;
    E->prog.exact = exact;
    E->prog.pv_count = len;
    if (len > 0) memcpy(E->prog.pv, line, (size_t)len * sizeof *line);
    __atomic_add_fetch(&E->prog_seq, 1, __ATOMIC_ACQ_REL);
}

static int deepen(WsEndgame *E, int max_depth, int32_t *gain, WsEgStep *line, int *len, int *depth_done) {
    int exact = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        int taint = 0;
        __atomic_store_n(&E->cur_depth, depth, __ATOMIC_RELAXED);
        double keep = E->deadline;
        int64_t keep_nodes = E->node_limit;
        if (depth == 1) E->deadline = 0, E->node_limit = 0; /* the first iteration always finishes */
        int32_t v = search(E, depth, 0, -EG_INF, EG_INF, &taint);
        E->deadline = keep;
        E->node_limit = keep_nodes;
        if (E->stop) break;
        *gain = v;
        *len = E->pv_len[0];
        memcpy(line, E->pv[0], (size_t)*len * sizeof *line);
        *depth_done = depth;
        if (E->publish) publish(E, depth, v, !taint, line, *len);
        if (!taint) {
            exact = 1;
            break;
        }
    }
    return exact;
}

/* A helper: iterative deepening on its own, at the main's depth or one beyond (odd
 * helpers), until the main solve says halt or it proves the root itself. */
static void *helper_main(void *arg) {
    WsEndgame *H = arg;
    for (int depth = 1 + (H->thread_id & 1); depth <= H->max_depth; depth++) {
        int md = __atomic_load_n(&H->main->cur_depth, __ATOMIC_RELAXED) + (H->thread_id & 1);
        if (depth < md) depth = md > H->max_depth ? H->max_depth : md;
        int taint = 0;
        search(H, depth, 0, -EG_INF, EG_INF, &taint);
        if (H->stop || !taint) break;
    }
    return NULL;
}

int ws_endgame_add_helper(WsEndgame *E, WsEndgame *H, WsMove *moves, WsEgOrder *order, size_t capacity) {
    if (!E || !H || H == E || E->main != E || E->helper_count >= WS_EG_MAX_THREADS - 1 || !moves || !order ||
        capacity < 4096)
        return WS_E_ARGUMENT;
    memcpy(H, E, offsetof(WsEndgame, undo));
    H->moves = moves;
    H->order = order;
    H->capacity = capacity;
    H->helper_count = 0;
    H->main = E;
    H->publish = 0;
    H->thread_id = E->helper_count + 1;
    ws_gen_poll(&H->gen, eg_poll, H, EG_POLL_STEPS);
    E->helpers[E->helper_count++] = H;
    return WS_OK;
}

void ws_endgame_progress(WsEndgame *E, WsEgProgress *out) {
    for (;;) {
        uint32_t a = __atomic_load_n(&E->prog_seq, __ATOMIC_ACQUIRE);
        if (!(a & 1)) {
            out->depth = E->prog.depth;
            out->value = E->prog.value;
            out->exact = E->prog.exact;
            int len = E->prog.pv_count;
            out->pv_count = len < 0 ? 0 : len > WS_EG_MAX_PLY ? WS_EG_MAX_PLY : len;
            memcpy(out->pv, E->prog.pv, (size_t)out->pv_count * sizeof *out->pv);
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&E->prog_seq, __ATOMIC_ACQUIRE) == a) break;
        }
    }
    int64_t nodes = __atomic_load_n(&E->pub_nodes, __ATOMIC_RELAXED);
    for (int i = 0; i < E->helper_count; i++) nodes += __atomic_load_n(&E->helpers[i]->pub_nodes, __ATOMIC_RELAXED);
    out->nodes = nodes;
    double started = __atomic_load_n(&E->started_ns, __ATOMIC_RELAXED) * 1e-9;
    out->seconds = started > 0 ? now() - started : 0.0;
}

int ws_endgame_solve(WsEndgame *E, double seconds, int64_t max_nodes, int max_depth, WsEgResult *out) {
    if (max_depth < 1 || max_depth > WS_EG_MAX_PLY - 1 || !(seconds >= 0.0) || max_nodes < 0) return WS_E_ARGUMENT;
    memset(out, 0, offsetof(WsEgResult, pv));
    E->started = now();
    __atomic_store_n(&E->started_ns, (int64_t)(E->started * 1e9), __ATOMIC_RELAXED);
    E->deadline = seconds > 0 ? E->started + seconds : 0;
    E->node_limit = max_nodes;
    E->stop = 0;
    E->error = WS_OK;
    E->nodes = 0;
    __atomic_store_n(&E->pub_nodes, 0, __ATOMIC_RELAXED);
    E->top = 0;
    memset(E->killer, 0, sizeof E->killer);
    E->board_blanks = E->orig_board_blanks;
    E->max_depth = max_depth;
    __atomic_store_n(&E->cur_depth, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&E->halt, 0, __ATOMIC_RELAXED);
    publish(E, 0, 0, 0, NULL, 0);
    ws_game_copy(&E->work, &E->orig);
    reduce_counters(E, &E->work);
    /* the helpers: not with a node limit (the answer would depend on their timing) */
    int started = 0;
#ifdef WS_EG_PTHREADS
    if (max_nodes == 0 && E->helper_count > 0) {
        memset(E->busy, 0, sizeof E->busy);
        for (int i = 0; i < E->helper_count; i++) {
            WsEndgame *H = E->helpers[i];
            H->stop = 0;
            H->error = WS_OK;
            H->nodes = 0;
            __atomic_store_n(&H->pub_nodes, 0, __ATOMIC_RELAXED);
            H->top = 0;
            memset(H->killer, 0, sizeof H->killer);
            H->deadline = 0;
            H->node_limit = 0;
            H->max_depth = max_depth;
            H->board_blanks = E->orig_board_blanks;
            ws_game_copy(&H->work, &E->orig);
            reduce_counters(H, &H->work);
            H->parallel = 1;
            if (pthread_create(&H->thread, NULL, helper_main, H) != 0) break;
            started++;
        }
    }
#endif
    E->parallel = started > 0;
    int32_t gain = 0;
    int len = 0, depth = 0;
    E->publish = 1;
    int exact = deepen(E, max_depth, &gain, out->pv, &len, &depth);
    E->publish = 0;
    E->parallel = 0; /* the line below is followed alone */
    __atomic_store_n(&E->halt, 1, __ATOMIC_RELAXED);
    int64_t helper_nodes = 0;
#ifdef WS_EG_PTHREADS
    for (int i = 0; i < started; i++) {
        pthread_join(E->helpers[i]->thread, NULL);
        helper_nodes += E->helpers[i]->nodes;
    }
#endif
    out->depth = depth;
    /* a proven line is followed to the end of the game: where the table cut it short,
     * the position it reached is solved again (its subtree is in the table) */
    if (exact && !E->error) {
        WsGame *s = &E->work;
        int blanks = E->board_blanks;
        int i = 0;
        for (;;) {
            for (; i < len; i++) {
                if (make(E, out->pv[i].kind == WS_TURN_PLAY ? &out->pv[i].move : NULL, i) != WS_OK) break;
            }
            if (i < len || s->end_reason != WS_END_NONE || len >= WS_EG_MAX_PLY - 1) break;
            WsEgStep more[WS_EG_MAX_PLY];
            int32_t g2;
            int len2 = 0, d2 = 0;
            E->stop = 0;
            E->deadline = 0;
            E->node_limit = 0;
            if (!deepen(E, max_depth, &g2, more, &len2, &d2) || E->error || len2 == 0) break;
            if (len + len2 > WS_EG_MAX_PLY - 1) len2 = WS_EG_MAX_PLY - 1 - len;
            memcpy(out->pv + len, more, (size_t)len2 * sizeof *more);
            len += len2;
        }
        ws_game_copy(&E->work, &E->orig);
        E->board_blanks = blanks;
    }
    /* the line by the real rules: the counters as given, and passes to the end where the
     * reduced counters ended the game sooner */
    int p = E->orig.to_move;
    out->gain = gain;
    out->value = spread(&E->orig, p) + gain;
    out->exact = exact && !E->error;
    out->stop = out->exact ? WS_EG_EXACT : (E->stop ? WS_EG_DEADLINE : WS_EG_MAX_DEPTH);
    {
        WsGame *s = &E->work;
        ws_game_copy(s, &E->orig);
        int i = 0;
        for (; i < len && s->end_reason == WS_END_NONE; i++) {
            int rc = out->pv[i].kind == WS_TURN_PLAY ? ws_game_play(s, &out->pv[i].move, NULL)
                                                      : ws_game_pass(s, NULL);
            if (rc != WS_OK) break;
        }
        len = i;
        if (out->exact) {
            while (s->end_reason == WS_END_NONE && len < WS_EG_MAX_PLY &&
                   len > 0 && out->pv[len - 1].kind == WS_TURN_PASS) {
                ws_game_pass(s, NULL);
                memset(&out->pv[len].move, 0, sizeof out->pv[len].move);
                out->pv[len++].kind = WS_TURN_PASS;
            }
        }
        out->replay_over = s->end_reason != WS_END_NONE;
        out->replay_value = spread(s, p);
        ws_game_copy(s, &E->orig);
    }
    out->pv_count = len;
    out->nodes = E->nodes + helper_nodes;
    out->seconds = now() - E->started;
    return E->error == WS_E_CAPACITY ? WS_E_CAPACITY : WS_OK;
}

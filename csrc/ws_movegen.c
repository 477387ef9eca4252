/* Move generation over a GADDAG (Gordon 1994), with cross sets (Appel & Jacobson
 * 1988), one code path for both directions (per-direction lane-major arrays),
 * scoring during the walk, and a best-move mode with shadow bounds.
 *
 * Anchors, left to right in each lane:
 *  - the rightmost tile of each block;
 *  - an empty square with a perpendicular neighbour but no neighbour in the lane;
 *  - the start square, on an empty board.
 * A move from anchor a may reach left to boundary + 1, where boundary is the
 * previous anchor when that was a hook, or the previous anchor + 1 when it was a
 * tile (the square after a block belongs to that block's moves).  So every move
 * is generated once, from the leftmost anchor it covers.
 *
 * Score of a move = main * W + cross + bonuses, accumulated while walking:
 *   new tile of value v on a square (lm, wm):  main += v*lm; W *= wm;
 *     and if the square has a perpendicular word: cross += (v*lm + cross_score)*wm;
 *     plus the square's flat bonus (star squares);
 *   board tile of value v: main += v.
 *
 * Range: the wrapper accepts tile values 0..100, multipliers 1..3, square and
 * bingo bonuses 0..1000 (the limits of Rules).  So main <= 15 * 300, W <= 3^7,
 * a cross word <= 15 * 300 * 3, and every score and shadow bound stays below
 * 10^7: int arithmetic and the int32 record score cannot overflow.  Cross scores
 * (<= 14 * 100) and square bonuses fit their int16 tables.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "ws_graph.h"
#include "ws_movegen.h"

/* ------------------------------------------------------------------------ */
/* Cross sets                                                               */
/* ------------------------------------------------------------------------ */

/* Cross set of the empty square at position i of a perpendicular line (15 tiles). */
static uint64_t cross_from_line(const WsGen *g, const uint8_t *line, int i, int16_t *score_out) {
    const uint32_t *nodes = g->nodes;
    const int16_t *value = g->rules.tile_value;
    int up = i, down = i, score = 0;
    uint64_t mask = 0;
    while (up > 0 && line[up - 1]) up--;          /* block above: [up, i-1] */
    while (down < WS_DIM - 1 && line[down + 1]) down++; /* block below: [i+1, down] */
    if (up == i && down == i) {
        *score_out = 0;
        return g->all_letters;
    }
    for (int j = up; j <= down; j++)
        if (j != i && !(line[j] & WS_BLANK_BIT)) score += value[line[j] & WS_LETTER_MASK];
    *score_out = (int16_t)score;
    if (up < i) {
        uint32_t list = ws_graph_gaddag_root(nodes);
        for (int j = i - 1; j >= up; j--) {
            uint32_t arc = ws_graph_seek(nodes, list, line[j] & WS_LETTER_MASK);
            if (!arc) return 1;
            list = ws_node_index(nodes[arc]);
        }
        if (!list || ws_node_tile(nodes[list]) != 0) return 1;
        list = ws_node_index(nodes[list]); /* after the separator: letters that follow the block above */
        for (uint32_t k = list;; k++) {
            uint32_t node = nodes[k];
            if (down == i) {
                if (ws_node_accepts(node)) mask |= 1ull << ws_node_tile(node);
            } else {
                uint32_t sub = ws_node_index(node), arc = 0;
                int j = i + 1;
                for (; j <= down; j++) {
                    arc = ws_graph_seek(nodes, sub, line[j] & WS_LETTER_MASK);
                    if (!arc) break;
                    sub = ws_node_index(nodes[arc]);
                }
                if (j > down && ws_node_accepts(nodes[arc])) mask |= 1ull << ws_node_tile(node);
            }
            if (ws_node_is_end(node)) break;
        }
    } else {
        uint32_t list = ws_graph_gaddag_root(nodes);
        for (int j = down; j > i; j--) {
            uint32_t arc = ws_graph_seek(nodes, list, line[j] & WS_LETTER_MASK);
            if (!arc) return 1;
            list = ws_node_index(nodes[arc]);
        }
        if (list) {
            for (uint32_t k = list;; k++) {
                uint32_t node = nodes[k];
                if (ws_node_accepts(node)) mask |= 1ull << ws_node_tile(node);
                if (ws_node_is_end(node)) break;
            }
        }
    }
    return (mask & ~1ull) | 1ull;
}

uint64_t ws_gen_cross_set(const WsGen *g, int direction, int square, int16_t *cross_score) {
    int r = square / WS_DIM, c = square % WS_DIM;
    /* across moves (0) see the column as their perpendicular line, down moves the row */
    const uint8_t *line = direction == 0 ? &g->board.tiles[1][c * WS_DIM] : &g->board.tiles[0][r * WS_DIM];
    int i = direction == 0 ? r : c;
    if (line[i]) {
        *cross_score = 0;
        return 0;
    }
    return cross_from_line(g, line, i, cross_score);
}

int ws_gen_init(WsGen *g, const uint32_t *nodes, uint32_t node_count, const WsRules *rules) {
    if (!nodes || node_count < 3 || !rules || rules->alphabet_size < 1 || rules->alphabet_size > WS_MAX_LETTERS)
        return WS_E_ARGUMENT;
    if (rules->start_square < 0 || rules->start_square >= WS_SQUARES || rules->bingo_tiles < 1 ||
        rules->bingo_tiles > WS_RACK_MAX)
        return WS_E_ARGUMENT;
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->node_count = node_count;
    g->rules = *rules;
    g->all_letters = ((1ull << (rules->alphabet_size + 1)) - 1) & ~1ull;
    g->board_valid = 0;
    return WS_OK;
}

static void update_square_premiums(WsGen *g, int sq, uint8_t t) {
    int r = sq / WS_DIM, c = sq % WS_DIM;
    int i0 = r * WS_DIM + c, i1 = c * WS_DIM + r;
    uint8_t lm = t ? 1 : g->rules.letter_mult[sq];
    uint8_t wm = t ? 1 : g->rules.word_mult[sq];
    int16_t bonus = t ? 0 : g->rules.square_bonus[sq];
    g->board.tiles[0][i0] = t;
    g->board.tiles[1][i1] = t;
    g->board.letter_mult[0][i0] = g->board.letter_mult[1][i1] = lm;
    g->board.word_mult[0][i0] = g->board.word_mult[1][i1] = wm;
    g->board.bonus[0][i0] = g->board.bonus[1][i1] = bonus;
}

int ws_gen_set_board(WsGen *g, const uint8_t *tiles) {
    uint32_t dirty_rows = 0, dirty_cols = 0;
    int count = 0;
    for (int sq = 0; sq < WS_SQUARES; sq++) {
        uint8_t t = tiles[sq];
        unsigned letter = t & WS_LETTER_MASK;
        if (t && (letter < 1 || (int)letter > g->rules.alphabet_size)) return WS_E_ARGUMENT;
        if (t) count++;
    }
    for (int sq = 0; sq < WS_SQUARES; sq++) {
        uint8_t t = tiles[sq];
        if (!g->board_valid || g->prev_tiles[sq] != t) {
            dirty_rows |= 1u << (sq / WS_DIM);
            dirty_cols |= 1u << (sq % WS_DIM);
            update_square_premiums(g, sq, t);
            g->prev_tiles[sq] = t;
        }
    }
    g->board.tile_count = count;
    g->board_valid = 1;
    if (!dirty_rows && !dirty_cols) return WS_OK;
    /* across moves: cross sets from the columns */
    for (int c = 0; c < WS_DIM; c++) {
        if (!(dirty_cols >> c & 1)) continue;
        const uint8_t *line = &g->board.tiles[1][c * WS_DIM];
        for (int r = 0; r < WS_DIM; r++) {
            int16_t cs = 0;
            uint64_t set = line[r] ? 0 : cross_from_line(g, line, r, &cs);
            g->board.cross_set[0][r * WS_DIM + c] = set;
            g->board.cross_score[0][r * WS_DIM + c] = cs;
        }
    }
    /* down moves: cross sets from the rows */
    for (int r = 0; r < WS_DIM; r++) {
        if (!(dirty_rows >> r & 1)) continue;
        const uint8_t *line = &g->board.tiles[0][r * WS_DIM];
        for (int c = 0; c < WS_DIM; c++) {
            int16_t cs = 0;
            uint64_t set = line[c] ? 0 : cross_from_line(g, line, c, &cs);
            g->board.cross_set[1][c * WS_DIM + r] = set;
            g->board.cross_score[1][c * WS_DIM + r] = cs;
        }
    }
    for (int d = 0; d < 2; d++) {
        uint16_t active = 0;
        for (int lane = 0; lane < WS_DIM; lane++) {
            for (int pos = 0; pos < WS_DIM; pos++) {
                int i = lane * WS_DIM + pos;
                if (g->board.tiles[d][i] || (g->board.cross_set[d][i] & 1)) {
                    active |= (uint16_t)(1u << lane);
                    break;
                }
            }
        }
        g->board.lane_active[d] = active;
    }
    return WS_OK;
}

void ws_gen_set_alphagrams8(WsGen *g, const uint64_t *keys, size_t count) {
    g->alphagrams8 = keys;
    g->alphagrams8_count = keys ? count : 0;
}

void ws_gen_set_alphagrams9(WsGen *g, const uint64_t *keys, size_t count) {
    g->alphagrams9 = keys;
    g->alphagrams9_count = keys ? count : 0;
}

void ws_gen_set_equity(WsGen *g, const WsLeaves *leaves, int endgame, float out_value, float keep_factor) {
    g->leaves = leaves;
    g->endgame = endgame != 0;
    g->out_value = out_value;
    g->keep_factor = keep_factor;
}

/* The value of keeping every sub-multiset of the rack (mixed radix over its distinct
 * tile types), and the best value for each number of tiles kept. */
static int compute_leave_values(WsGen *g) {
    int n = 0, weight = 1;
    for (int t = 0; t <= g->rules.alphabet_size; t++) {
        if (!g->rack[t]) continue;
        g->leave_type[n] = (uint8_t)t;
        g->leave_weight[n] = weight;
        weight *= g->rack[t] + 1;
        n++;
    }
    g->leave_types = n;
    g->leave_count = weight;
    for (int k = 0; k <= WS_RACK_MAX; k++) g->leave_best[k] = -HUGE_VALF;
    if (!g->endgame && !g->leaves) {
        /* no table: every leave is worth 0 (no need to visit every sub-multiset) */
        memset(g->leave_value, 0, (size_t)weight * sizeof(float));
        for (int k = 0; k <= g->rack_total; k++) g->leave_best[k] = 0.0f;
        return WS_OK;
    }
    for (int idx = 0; idx < weight; idx++) {
        uint8_t kept_type[WS_RACK_MAX], kept_count[WS_RACK_MAX];
        int size = 0, face = 0, rest = idx, k = 0;
        float v = 0.0f;
        for (int i = 0; i < n; i++) {
            int t = g->leave_type[i], c = rest % (g->rack[t] + 1);
            rest /= g->rack[t] + 1;
            if (c) {
                kept_type[k] = (uint8_t)t;
                kept_count[k++] = (uint8_t)c;
            }
            size += c;
            face += c * (t ? g->rules.tile_value[t] : 0);
        }
        if (g->endgame) {
            v = size == 0 ? g->out_value : -g->keep_factor * (float)face;
        } else if (g->leaves && size >= 1 && size <= g->leaves->max_size) {
            if (!g->leaves->values || g->leaves->types != g->rules.alphabet_size + 1) return WS_E_ARGUMENT;
            int64_t rank = ws_leaves_rank_sparse(g->leaves, kept_type, kept_count, k);
            if (rank < 0) return WS_E_ARGUMENT;
            v = g->leaves->values[rank];
        }
        g->leave_value[idx] = v;
        if (v > g->leave_best[size]) g->leave_best[size] = v;
    }
    return WS_OK;
}

int ws_gen_best_swap(const WsGen *g, const WsLeaves *ranking, int bag, int min_bag, int whole_rack, int must_cover) {
    int best = -1, best_size = -1;
    int64_t best_rank = 0;
    float best_value = 0.0f;
    if (g->rack_total == 0 || bag <= 0 || bag < min_bag) return -1;
    for (int idx = 0; idx < g->leave_count; idx++) {
        uint8_t kept_type[WS_RACK_MAX], kept_count[WS_RACK_MAX];
        int size = 0, rest = idx, k = 0;
        for (int i = 0; i < g->leave_types; i++) {
            int t = g->leave_type[i], c = rest % (g->rack[t] + 1);
            rest /= g->rack[t] + 1;
            if (c) {
                kept_type[k] = (uint8_t)t;
                kept_count[k++] = (uint8_t)c;
            }
            size += c;
        }
        int swapped = g->rack_total - size;
        if (swapped < 1 || (whole_rack && size) || (must_cover && swapped > bag)) continue;
        float v = g->leave_value[idx];
        if (best >= 0 && (v < best_value || (v == best_value && size < best_size))) continue;
        /* the empty leave ranks first (-1); otherwise its rank in the table */
        int64_t rank = size ? (ranking ? ws_leaves_rank_sparse(ranking, kept_type, kept_count, k) : idx) : -1;
        if (best >= 0 && v == best_value && size == best_size && rank >= best_rank) continue;
        best = idx;
        best_size = size;
        best_value = v;
        best_rank = rank;
    }
    return best;
}

int ws_gen_set_rack(WsGen *g, const uint8_t *rack) {
    int total = 0;
    uint64_t letters = 0;
    int n = 0;
    for (int t = 0; t <= WS_MAX_LETTERS; t++) {
        if (rack[t] && t > g->rules.alphabet_size) return WS_E_ARGUMENT;
        total += rack[t];
    }
    if (total > WS_RACK_MAX) return WS_E_ARGUMENT;
    for (int t = 0; t <= WS_MAX_LETTERS; t++) {
        g->rack[t] = rack[t];
        if (t && rack[t]) letters |= 1ull << t;
        for (int k = 0; k < rack[t]; k++) g->rack_values_desc[n++] = t ? g->rules.tile_value[t] : 0;
    }
    /* sort values descending (at most 7) */
    for (int i = 1; i < n; i++) {
        int16_t v = g->rack_values_desc[i];
        int j = i;
        while (j > 0 && g->rack_values_desc[j - 1] < v) {
            g->rack_values_desc[j] = g->rack_values_desc[j - 1];
            j--;
        }
        g->rack_values_desc[j] = v;
    }
    g->rack_total = total;
    g->rack_letters = letters;
    return compute_leave_values(g);
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                 */
/* ------------------------------------------------------------------------ */

static void load_lane(WsGen *g, int d, int lane) {
    const WsBoardData *b = &g->board;
    int base = lane * WS_DIM;
    g->direction = d;
    g->lane = lane;
    for (int pos = 0; pos < WS_DIM; pos++) {
        int i = base + pos;
        uint8_t t = b->tiles[d][i];
        uint64_t cs = b->cross_set[d][i];
        int lm = b->letter_mult[d][i], wm = b->word_mult[d][i];
        int hc = (int)(cs & 1);
        g->lane_tile[pos] = t;
        g->lane_tile_value[pos] = (t && !(t & WS_BLANK_BIT)) ? g->rules.tile_value[t & WS_LETTER_MASK] : 0;
        g->lane_cross[pos] = cs & ~1ull;
        g->lane_lm[pos] = lm;
        g->lane_wm[pos] = wm;
        g->lane_has_cross[pos] = (uint8_t)hc;
        g->lane_cross_mult[pos] = hc ? lm * wm : 0;
        g->lane_cross_base[pos] = (hc ? b->cross_score[d][i] * wm : 0) + b->bonus[d][i];
        if (g->mode >= 1) {
            /* highest value of a real rack tile allowed here (a blank scores 0) */
            uint64_t fit = (cs & ~1ull) & g->rack_letters;
            int best = 0;
            while (fit) {
                int t = __builtin_ctzll(fit);
                if (g->rules.tile_value[t] > best) best = g->rules.tile_value[t];
                fit &= fit - 1;
            }
            g->lane_max_fit[pos] = (int16_t)best;
        }
    }
    g->lane_tile[WS_DIM] = 0;
}

static inline void fill_move(const WsGen *g, WsMove *m, int left, int right, int score, int placed) {
    int len = right - left + 1;
    uint16_t bm = 0;
    m->score = (int32_t)score;
    m->length = (uint8_t)len;
    m->tiles_played = (uint8_t)placed;
    m->direction = (uint8_t)g->direction;
    if (g->direction == 0) {
        m->row = (uint8_t)g->lane;
        m->col = (uint8_t)left;
    } else {
        m->row = (uint8_t)left;
        m->col = (uint8_t)g->lane;
    }
    for (int i = 0; i < 15; i++) {
        uint8_t t = i < len ? g->strip[left + i] : 0;
        m->tiles[i] = t & WS_LETTER_MASK;
        bm |= (uint16_t)((t >> 7) << i);
    }
    m->blank_mask = bm;
    m->pad[0] = m->pad[1] = 0;
}

int ws_move_compare(const WsMove *a, const WsMove *b) {
    /* across before down, then row, col, direction, length, tiles_played, tiles (the
     * bytes after the score and mask), then the blank mask */
    if (a->direction != b->direction) return (int)a->direction - (int)b->direction;
    int c = memcmp(&a->row, &b->row, 20);
    if (c) return c;
    return (a->blank_mask > b->blank_mask) - (a->blank_mask < b->blank_mask);
}

/* 1 if a sorts before b in best-first order */
static inline int better(const WsMove *a, const WsMove *b) {
    if (a->score != b->score) return a->score > b->score;
    return ws_move_compare(a, b) < 0;
}

/* 1 if (a, ea) sorts before (b, eb) in best-first equity order */
static inline int better_equity(const WsMove *a, float ea, const WsMove *b, float eb) {
    if (ea != eb) return ea > eb;
    return better(a, b);
}

/* Equity mode: the rack tally holds the tiles kept, so the leave's index is one
 * multiply-add per distinct rack tile type. */
static inline void record_equity(WsGen *g, int left, int right, int score, int placed) {
    int idx = 0;
    for (int i = 0; i < g->leave_types; i++) idx += g->rack[g->leave_type[i]] * g->leave_weight[i];
    float e = (float)score + g->leave_value[idx];
    if (e < g->threshold_equity) return;
    WsMove m;
    fill_move(g, &m, left, right, score, placed);
    size_t n = g->count;
    if (n == g->best_n) {
        if (!better_equity(&m, e, &g->out[n - 1], g->out_equity[n - 1])) return;
        n--;
    }
    size_t j = n;
    while (j > 0 && better_equity(&m, e, &g->out[j - 1], g->out_equity[j - 1])) {
        g->out[j] = g->out[j - 1];
        g->out_equity[j] = g->out_equity[j - 1];
        j--;
    }
    g->out[j] = m;
    g->out_equity[j] = e;
    g->count = n + 1;
    if (g->count == g->best_n) g->threshold_equity = g->out_equity[g->count - 1];
}

/* real_first: the walk put real tiles on the first squares it met and blanks on the
 * later ones.  Of the moves that spell the same letters on the same squares, the best
 * puts each letter's blanks where lm * (W + cross word multiplier) is least (ties: the
 * lower index, which the move order prefers); returns what that adds to the score. */
static int place_blanks(WsGen *g, int left, int right, int wmul) {
    int gain = 0;
    for (int i = left; i <= right; i++) {
        uint8_t t = g->strip[i];
        if (!(t & WS_BLANK_BIT)) continue;
        unsigned letter = t & WS_LETTER_MASK;
        int v = g->rules.tile_value[letter];
        /* the cheapest square holding a real copy of the same letter */
        int best = -1, best_cost = 0;
        for (int j = left; j <= right; j++) {
            if (g->strip[j] != letter) continue;
            int cost = g->lane_lm[j] * (wmul + (g->lane_has_cross[j] ? g->lane_wm[j] : 0));
            if (best < 0 || cost < best_cost || (cost == best_cost && j < best)) {
                best = j;
                best_cost = cost;
            }
        }
        if (best < 0) continue;
        int here = g->lane_lm[i] * (wmul + (g->lane_has_cross[i] ? g->lane_wm[i] : 0));
        if (best_cost < here || (best_cost == here && best < i)) {
            g->strip[best] = t;
            g->strip[i] = (uint8_t)letter;
            gain += v * (here - best_cost);
            i = left - 1; /* look again from the start: a moved blank may move once more */
        }
    }
    return gain;
}

/* Best mode by score: keep the move when it is among the n best so far. */
static inline void record_best(WsGen *g, int left, int right, int score, int placed) {
    if (score < g->threshold) return;
    WsMove m;
    fill_move(g, &m, left, right, score, placed);
    size_t n = g->count;
    if (n == g->best_n) {
        if (!better(&m, &g->out[n - 1])) return;
        n--;
    }
    size_t j = n;
    while (j > 0 && better(&m, &g->out[j - 1])) {
        g->out[j] = g->out[j - 1];
        j--;
    }
    g->out[j] = m;
    g->count = n + 1;
    if (g->count == g->best_n) g->threshold = g->out[g->count - 1].score;
}

static inline void record(WsGen *g, int left, int right, int main_sum, int wmul, int cross, int placed) {
    int score;
    if (placed < g->min_tiles) return;
    /* a one-tile move is listed once: as across when it has an across neighbour */
    if (placed == 1 && g->direction == 1 && g->lane_has_cross[g->first_pos]) return;
    score = main_sum * wmul + cross + (placed == g->rules.bingo_tiles ? g->rules.bingo_bonus : 0);
    if (g->real_first && g->rack[0] < g->rack_at_start[0]) {
        uint8_t saved[WS_DIM];
        memcpy(saved, &g->strip[left], (size_t)(right - left + 1));
        score += place_blanks(g, left, right, wmul);
        if (g->mode == 2) record_equity(g, left, right, score, placed);
        else record_best(g, left, right, score, placed);
        memcpy(&g->strip[left], saved, (size_t)(right - left + 1));
        return;
    }
    if (g->mode == 2) {
        record_equity(g, left, right, score, placed);
        return;
    }
    if (g->mode == 0) {
        if (g->count < g->capacity) fill_move(g, &g->out[g->count], left, right, score, placed);
        g->count++;
    } else {
        record_best(g, left, right, score, placed);
    }
}

static void gen(WsGen *g, int pos, uint32_t list, int main_sum, int wmul, int cross, int placed);

static inline void go_on(WsGen *g, int pos, uint8_t strip_tile, uint32_t node, int main_sum, int wmul, int cross,
                         int placed) {
    uint32_t child = ws_node_index(node);
    /* the child list is needed right after recording: start loading it now */
    __builtin_prefetch(&g->nodes[child]);
    g->strip[pos] = strip_tile;
    if (pos <= g->anchor) {
        int left_empty = pos == 0 || !g->lane_tile[pos - 1];
        if (ws_node_accepts(node) && left_empty) record(g, pos, g->anchor, main_sum, wmul, cross, placed);
        if (!child) return;
        if (pos - 1 > g->boundary) gen(g, pos - 1, child, main_sum, wmul, cross, placed);
        if (left_empty && g->anchor < WS_DIM - 1) {
            uint32_t sep = g->nodes[child];
            if (ws_node_tile(sep) == 0) {
                g->leftmost = pos;
                gen(g, g->anchor + 1, ws_node_index(sep), main_sum, wmul, cross, placed);
            }
        }
    } else {
        int right_empty = pos == WS_DIM - 1 || !g->lane_tile[pos + 1];
        if (ws_node_accepts(node) && right_empty) record(g, g->leftmost, pos, main_sum, wmul, cross, placed);
        if (child && pos < WS_DIM - 1) gen(g, pos + 1, child, main_sum, wmul, cross, placed);
    }
}

static void gen(WsGen *g, int pos, uint32_t list, int main_sum, int wmul, int cross, int placed) {
    const uint32_t *nodes = g->nodes;
    uint8_t bt = g->lane_tile[pos];
    if (bt) {
        uint32_t arc = ws_graph_seek(nodes, list, bt & WS_LETTER_MASK);
        if (arc) go_on(g, pos, 0, nodes[arc], main_sum + g->lane_tile_value[pos], wmul, cross, placed);
        return;
    }
    if (!g->rack_total || !list) return;
    uint64_t possible = g->lane_cross[pos] & (g->rack[0] ? g->all_letters : g->rack_letters);
    if (!possible) return;
    int lm = g->lane_lm[pos];
    int nwmul = wmul * g->lane_wm[pos];
    int cm = g->lane_cross_mult[pos];
    int cb = g->lane_cross_base[pos];
    if (placed == 0) g->first_pos = pos;
    for (uint32_t k = list;; k++) {
        uint32_t node = nodes[k];
        unsigned t = ws_node_tile(node);
        if (!(possible >> t)) break;
        if ((possible >> t) & 1) {
            if (g->rack[t]) {
                int v = g->rules.tile_value[t];
                if (--g->rack[t] == 0) g->rack_letters &= ~(1ull << t);
                g->rack_total--;
                go_on(g, pos, (uint8_t)t, node, main_sum + v * lm, nwmul, cross + v * cm + cb, placed + 1);
                if (g->rack[t]++ == 0) g->rack_letters |= 1ull << t;
                g->rack_total++;
            }
            if (g->rack[0] && !(g->real_first && g->rack[t])) {
                g->rack[0]--;
                g->rack_total--;
                go_on(g, pos, (uint8_t)(t | WS_BLANK_BIT), node, main_sum, nwmul, cross + cb, placed + 1);
                g->rack[0]++;
                g->rack_total++;
            }
        }
        if (ws_node_is_end(node)) break;
    }
}

static void gen_anchor(WsGen *g, int anchor, int boundary) {
    g->anchor = anchor;
    g->boundary = boundary;
    gen(g, anchor, ws_graph_gaddag_root(g->nodes), 0, 1, 0, 0);
}

/* Calls fn for every anchor of the current board, lane by lane. */
typedef void (*AnchorFn)(WsGen *g, int anchor, int boundary);

static void for_each_anchor(WsGen *g, AnchorFn fn) {
    int empty = g->board.tile_count == 0;
    int sr = g->rules.start_square / WS_DIM, sc = g->rules.start_square % WS_DIM;
    for (int d = 0; d < 2; d++) {
        for (int lane = 0; lane < WS_DIM; lane++) {
            if (empty) {
                int start_lane = d == 0 ? sr : sc;
                if (lane != start_lane) continue;
                load_lane(g, d, lane);
                fn(g, d == 0 ? sc : sr, -1);
                continue;
            }
            if (!(g->board.lane_active[d] >> lane & 1)) continue;
            load_lane(g, d, lane);
            int boundary = -1;
            for (int pos = 0; pos < WS_DIM; pos++) {
                if (g->lane_tile[pos]) {
                    if (!g->lane_tile[pos + 1]) { /* lane_tile[15] == 0 */
                        fn(g, pos, boundary);
                        boundary = pos + 1;
                    }
                } else if (g->lane_has_cross[pos] && (pos == 0 || !g->lane_tile[pos - 1]) && !g->lane_tile[pos + 1]) {
                    fn(g, pos, boundary);
                    boundary = pos;
                }
            }
        }
    }
}

int ws_gen_all(WsGen *g, WsMove *out, size_t capacity, size_t *count) {
    if (!g->board_valid) return WS_E_ARGUMENT;
    g->mode = 0;
    g->real_first = 0;
    g->out = out;
    g->capacity = capacity;
    g->count = 0;
    g->min_tiles = g->board.tile_count == 0 ? 2 : 1;
    for_each_anchor(g, gen_anchor);
    *count = g->count;
    return g->count > capacity ? WS_E_CAPACITY : WS_OK;
}

/* ------------------------------------------------------------------------ */
/* Best move: shadow bounds                                                 */
/* ------------------------------------------------------------------------ */

typedef struct Span {
    int32_t n;                    /* new tiles */
    int32_t board_tiles;          /* tiles already on the board */
    int32_t board_letter[2];      /* letters of the first two board tiles met */
    int32_t board_sum;            /* face value of board tiles */
    int32_t word_mult;            /* product of word multipliers of new tiles */
    int32_t cross_base;           /* sum of cross_base of new tiles */
    int32_t lm[WS_RACK_MAX];      /* letter multiplier of each new tile's square */
    int32_t cwm[WS_RACK_MAX];     /* word multiplier if that square has a cross word, else 0 */
    int32_t max_fit[WS_RACK_MAX]; /* highest value of a rack tile that fits the square */
} Span;

/* 1 if the rack tiles (tally, blanks in rack[0]) spell a word of exactly `left` more
 * letters from the DAWG list `list`. */
static int anagram_exists(const uint32_t *nodes, uint32_t list, uint8_t *rack, int left) {
    if (!list) return 0;
    for (uint32_t k = list;; k++) {
        uint32_t node = nodes[k];
        unsigned t = ws_node_tile(node);
        int via = t && rack[t] ? (int)t : (t && rack[0] ? 0 : -1);
        if (via >= 0) {
            int ok;
            rack[via]--;
            ok = left == 1 ? ws_node_accepts(node) != 0 : anagram_exists(nodes, ws_node_index(node), rack, left - 1);
            rack[via]++;
            if (ok) return 1;
        }
        if (ws_node_is_end(node)) break;
    }
    return 0;
}


/* Whether the whole rack spells a word (asked lazily, once per search: -1 = not yet). */
static int rack_spells_word(WsGen *g) {
    if (g->bingo7_possible < 0) {
        uint8_t rack[WS_MAX_LETTERS + 1];
        memcpy(rack, g->rack, sizeof rack);
        g->bingo7_possible = anagram_exists(g->nodes, ws_graph_dawg_root(g->nodes), rack, g->rack_total);
    }
    return g->bingo7_possible;
}

/* Whether the rack plus the given board letters (1 or 2) can spell a word of
 * rack + extra letters; a blank on the rack stands for any letter (at most one
 * blank is looked at; with two, or without a key table, the answer is 1). */
static int rack_spells_with(WsGen *g, const uint64_t *keys, size_t count, const uint8_t *extra, int n_extra) {
    uint8_t letters[10];
    int k = 0;
    for (int t = 1; t <= g->rules.alphabet_size; t++)
        for (int c = 0; c < g->rack[t]; c++) letters[k++] = (uint8_t)t;
    for (int i = 0; i < n_extra; i++) letters[k++] = extra[i];
    if (g->rack[0] == 0) return ws_alphagram_find(keys, count, ws_alphagram_key(letters, k));
    for (int t = 1; t <= g->rules.alphabet_size; t++) { /* one blank: try every letter */
        letters[k] = (uint8_t)t;
        if (ws_alphagram_find(keys, count, ws_alphagram_key(letters, k + 1))) return 1;
    }
    return 0;
}

static int rack_through(WsGen *g, int bt, int l1, int l2) {
    if (g->rack_total != 7 || g->rack[0] > 1) return 1;
    if (bt == 1) {
        if (!g->alphagrams8) return 1;
        if (g->through8[l1] < 0) {
            uint8_t e[1] = {(uint8_t)l1};
            g->through8[l1] = (int8_t)rack_spells_with(g, g->alphagrams8, g->alphagrams8_count, e, 1);
        }
        return g->through8[l1];
    }
    if (bt == 2) {
        if (!g->alphagrams9) return 1;
        if (l1 > l2) {
            int t = l1;
            l1 = l2;
            l2 = t;
        }
        if (g->through9[l1][l2] < 0) {
            uint8_t e[2] = {(uint8_t)l1, (uint8_t)l2};
            g->through9[l1][l2] = (int8_t)rack_spells_with(g, g->alphagrams9, g->alphagrams9_count, e, 2);
        }
        return g->through9[l1][l2];
    }
    return 1;
}

/* Bound of the letter part: each new-tile square s has coefficient lm*(W + cwm) and
 * takes a distinct rack tile whose value is at most max_fit[s] (the relaxation of
 * "the tile must fit the cross set").  With squares in descending coefficient order,
 * giving each the largest remaining value it allows is optimal for that relaxation
 * (the allowed sets are nested, so an exchange argument applies), hence an upper
 * bound of every real assignment. */
static inline int span_bound(WsGen *g, const Span *l, const Span *r) {
    int n = l->n + r->n;
    /* the whole rack placed: the word is the rack (no board tile) or the rack plus the
     * one board tile; when no such word exists the span holds no move at all */
    if (n == g->rules.bingo_tiles) {
        int bt = l->board_tiles + r->board_tiles;
        if (bt == 0 && !rack_spells_word(g)) return INT_MIN;
        if (bt == 1 || bt == 2) {
            int b[2], k = 0;
            for (int i = 0; i < l->board_tiles && k < 2; i++) b[k++] = l->board_letter[i];
            for (int i = 0; i < r->board_tiles && k < 2; i++) b[k++] = r->board_letter[i];
            if (!rack_through(g, bt, b[0], bt == 2 ? b[1] : 0)) return INT_MIN;
        }
    }
    int W = l->word_mult * r->word_mult;
    int coef[2 * WS_RACK_MAX], fit[2 * WS_RACK_MAX];
    int k = 0;
    for (int i = 0; i < l->n; i++) {
        coef[k] = l->lm[i] * (W + l->cwm[i]);
        fit[k++] = l->max_fit[i];
    }
    for (int i = 0; i < r->n; i++) {
        coef[k] = r->lm[i] * (W + r->cwm[i]);
        fit[k++] = r->max_fit[i];
    }
    for (int i = 1; i < k; i++) {
        int v = coef[i], f = fit[i], j = i;
        while (j > 0 && coef[j - 1] < v) {
            coef[j] = coef[j - 1];
            fit[j] = fit[j - 1];
            j--;
        }
        coef[j] = v;
        fit[j] = f;
    }
    int bound = W * (l->board_sum + r->board_sum) + l->cross_base + r->cross_base;
    int used = 0; /* bit i: rack_values_desc[i] taken */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < g->rack_total; j++) {
            if (!(used >> j & 1) && g->rack_values_desc[j] <= fit[i]) {
                used |= 1 << j;
                bound += coef[i] * g->rack_values_desc[j];
                break;
            }
        }
    }
    if (n == g->rules.bingo_tiles) bound += g->rules.bingo_bonus; /* possible: checked above */
    return bound;
}

/* Upper bound of the score of every move generated from the anchor (INT_MIN: none);
 * in equity mode also of its equity (each span's score bound plus the best value of
 * a leave of the tiles that span keeps). */
static int shadow_bound(WsGen *g, int anchor, int boundary, float *equity_bound) {
    uint64_t usable = g->rack[0] ? g->all_letters : g->rack_letters;
    int best = INT_MIN;
    float best_equity = -HUGE_VALF;
    Span left;
    memset(&left, 0, sizeof left);
    left.word_mult = 1;
    for (int L = anchor; L > boundary; L--) {
        if (g->lane_tile[L]) {
            left.board_sum += g->lane_tile_value[L];
            if (left.board_tiles < 2) left.board_letter[left.board_tiles] = g->lane_tile[L] & WS_LETTER_MASK;
            left.board_tiles++;
        } else {
            if (!(g->lane_cross[L] & usable) || left.n == g->rack_total) break;
            left.max_fit[left.n] = g->lane_max_fit[L];
            left.lm[left.n] = g->lane_lm[L];
            left.cwm[left.n] = g->lane_has_cross[L] ? g->lane_wm[L] : 0;
            left.n++;
            left.word_mult *= g->lane_wm[L];
            left.cross_base += g->lane_cross_base[L];
        }
        if (L > 0 && g->lane_tile[L - 1]) continue; /* the word would go on to the left */
        Span right;
        memset(&right, 0, sizeof right);
        right.word_mult = 1;
        for (int R = anchor; R < WS_DIM; R++) {
            if (R > anchor) {
                if (g->lane_tile[R]) {
                    right.board_sum += g->lane_tile_value[R];
                    if (right.board_tiles < 2) right.board_letter[right.board_tiles] = g->lane_tile[R] & WS_LETTER_MASK;
                    right.board_tiles++;
                } else {
                    if (!(g->lane_cross[R] & usable) || left.n + right.n == g->rack_total) break;
                    right.max_fit[right.n] = g->lane_max_fit[R];
                    right.lm[right.n] = g->lane_lm[R];
                    right.cwm[right.n] = g->lane_has_cross[R] ? g->lane_wm[R] : 0;
                    right.n++;
                    right.word_mult *= g->lane_wm[R];
                    right.cross_base += g->lane_cross_base[R];
                }
            }
            if (g->lane_tile[R + 1]) continue; /* lane_tile[15] == 0 */
            if (left.n + right.n < g->min_tiles || left.n + right.n == 0) continue;
            int b = span_bound(g, &left, &right);
            if (b > best) best = b;
            if (g->mode == 2 && b != INT_MIN) {
                float e = (float)b + g->leave_best[g->rack_total - left.n - right.n];
                if (e > best_equity) best_equity = e;
            }
        }
    }
    *equity_bound = best_equity;
    return best;
}

static void collect_anchor(WsGen *g, int anchor, int boundary) {
    float bound_equity;
    int bound = shadow_bound(g, anchor, boundary, &bound_equity);
    if (bound == INT_MIN || g->anchor_count >= WS_MAX_ANCHORS) return;
    WsAnchor *a = &g->anchors[g->anchor_count++];
    a->bound = bound;
    a->bound_equity = bound_equity;
    a->direction = (uint8_t)g->direction;
    a->lane = (uint8_t)g->lane;
    a->pos = (uint8_t)anchor;
    a->boundary_plus_one = (uint8_t)(boundary + 1);
}

/* The bounded search of ws_gen_best and ws_gen_best_equity (g->mode set by the caller). */
static int best_search(WsGen *g, WsMove *out, size_t n, size_t *count) {
    int by_equity = g->mode == 2;
    /* with one move wanted, a blank that stands for a letter the rack holds is never
     * best: the real tile scores at least as much and the move order prefers fewer
     * blanks; by equity only when keeping the blank is worth no less than keeping that
     * letter (no table: every leave 0; end game: a kept tile costs its face value) */
    g->real_first = n == 1 && g->rack[0] && (!by_equity || (!g->leaves && !g->endgame) ||
                                             (g->endgame && g->keep_factor >= 0.0f));
    memcpy(g->rack_at_start, g->rack, sizeof g->rack);
    g->out = out;
    g->capacity = n;
    g->best_n = n;
    g->count = 0;
    g->threshold = INT_MIN;
    g->threshold_equity = -HUGE_VALF;
    g->min_tiles = g->board.tile_count == 0 ? 2 : 1;
    g->anchor_count = 0;
    g->anchors_visited = 0;
    g->bingo7_possible = -1;
    memset(g->through8, -1, sizeof g->through8);
    memset(g->through9, -1, sizeof g->through9);
    for_each_anchor(g, collect_anchor);
    /* best bound first (insertion sort: stable, few anchors) */
    for (int i = 1; i < g->anchor_count; i++) {
        WsAnchor a = g->anchors[i];
        int j = i;
        while (j > 0 && (by_equity ? g->anchors[j - 1].bound_equity < a.bound_equity : g->anchors[j - 1].bound < a.bound)) {
            g->anchors[j] = g->anchors[j - 1];
            j--;
        }
        g->anchors[j] = a;
    }
    int cur_d = -1, cur_lane = -1;
    for (int i = 0; i < g->anchor_count; i++) {
        const WsAnchor *a = &g->anchors[i];
        if (g->count == n && (by_equity ? a->bound_equity < g->threshold_equity : a->bound < g->threshold)) break;
        if (a->direction != cur_d || a->lane != cur_lane) {
            load_lane(g, a->direction, a->lane);
            cur_d = a->direction;
            cur_lane = a->lane;
        }
        gen_anchor(g, a->pos, (int)a->boundary_plus_one - 1);
        g->anchors_visited++;
    }
    *count = g->count;
    return WS_OK;
}

int ws_gen_best(WsGen *g, WsMove *out, size_t n, size_t *count) {
    if (!g->board_valid || n == 0) return WS_E_ARGUMENT;
    g->mode = 1;
    return best_search(g, out, n, count);
}

int ws_gen_best_equity(WsGen *g, WsMove *out, float *equity, size_t n, size_t *count) {
    if (!g->board_valid || n == 0 || !equity) return WS_E_ARGUMENT;
    g->mode = 2;
    g->out_equity = equity;
    return best_search(g, out, n, count);
}

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
#include <stdlib.h>
#include <string.h>

#include "ws_graph.h"
#include "ws_movegen.h"

/* ------------------------------------------------------------------------ */
/* Cross sets                                                               */
/* ------------------------------------------------------------------------ */

/* Cross set of the empty square at position i of a perpendicular line (15 tiles), with
 * the tiles [up, i-1] above it and [i+1, down] below it (at least one): the letters whose
 * perpendicular word is in the graph, bit 0 set. */
static uint64_t cross_walk(const WsGen *g, const uint8_t *line, int i, int up, int down) {
    const uint32_t *nodes = g->nodes;
    uint64_t mask = 0;
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

/* The block of tiles around position i of a line: [*up, *down], i included (*up == *down
 * == i: no tile next to it); the cross score (face values of the tiles, blanks 0); and the
 * key of the cache of perpendicular words (WsCrossEntry), made while the tiles are
 * counted: the sentinel 1, the letters above from the nearest up, a 0 for the square,
 * the letters below from the nearest down (6 bits each; one 0 among letters 1..63, so two
 * words of at most WS_CROSS_KEY_SQUARES squares never share a key). */
static inline int cross_block(const WsGen *g, const uint8_t *line, int i, int *up_out, int *down_out,
                              uint64_t *key_out) {
    const int16_t *value = g->rules.tile_value;
    int up = i, down = i, score = 0;
    uint64_t key = 1;
    while (up > 0 && line[up - 1]) {
        uint8_t t = line[--up];
        key = key << 6 | (t & WS_LETTER_MASK);
        if (!(t & WS_BLANK_BIT)) score += value[t & WS_LETTER_MASK];
    }
    key <<= 6;
    while (down < WS_DIM - 1 && line[down + 1]) {
        uint8_t t = line[++down];
        key = key << 6 | (t & WS_LETTER_MASK);
        if (!(t & WS_BLANK_BIT)) score += value[t & WS_LETTER_MASK];
    }
    *up_out = up;
    *down_out = down;
    *key_out = key;
    return score;
}

/* Cross set and cross score of the empty square at position i of a perpendicular line
 * (15 tiles), what cross_walk gives, through the generator's cache of perpendicular
 * words. */
static uint64_t cross_from_line(WsGen *g, const uint8_t *line, int i, int16_t *score_out) {
    int up, down;
    uint64_t key;
    *score_out = (int16_t)cross_block(g, line, i, &up, &down, &key);
    if (up == i && down == i) return g->all_letters;
    if (down - up >= WS_CROSS_KEY_SQUARES) return cross_walk(g, line, i, up, down);
    WsCrossEntry *e = &g->cross_cache[(key * 0x9E3779B97F4A7C15ull) >> (64 - WS_CROSS_CACHE_BITS)];
    if (e->key != key) {
        e->mask = cross_walk(g, line, i, up, down);
        e->key = key;
    }
    return e->mask;
}

uint64_t ws_gen_cross_set(const WsGen *g, int direction, int square, int16_t *cross_score) {
    int r = square / WS_DIM, c = square % WS_DIM;
    /* across moves (0) see the column as their perpendicular line, down moves the row */
    const uint8_t *line = direction == 0 ? &g->board.tiles[1][c * WS_DIM] : &g->board.tiles[0][r * WS_DIM];
    int i = direction == 0 ? r : c;
    int up, down;
    uint64_t key;
    if (line[i]) {
        *cross_score = 0;
        return 0;
    }
    *cross_score = (int16_t)cross_block(g, line, i, &up, &down, &key);
    return up == i && down == i ? g->all_letters : cross_walk(g, line, i, up, down);
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

/* Bit i set when position i of a line (15 tiles) has a tile next to it.  An empty
 * square without one has no perpendicular word: its cross set is every letter with
 * cross score 0, what cross_from_line gives it, so a new board derives most of its
 * squares without the call (a new position derives all of them again). */
static inline uint32_t line_neighbours(const uint8_t *line) {
    uint32_t occupied = 0;
    for (int i = 0; i < WS_DIM; i++)
        if (line[i]) occupied |= 1u << i;
    return ((occupied << 1) | (occupied >> 1)) & ((1u << WS_DIM) - 1);
}

/* The lane data of one square of direction d (lane-major index lane * 15 + pos). */
static inline void derive_square(WsGen *g, int d, int lane, int pos) {
    WsLane *ln = &g->board.lanes[d][lane];
    int i = lane * WS_DIM + pos;
    uint8_t t = g->board.tiles[d][i];
    uint64_t cs = g->board.cross_set[d][i];
    int lm = g->board.letter_mult[d][i], wm = g->board.word_mult[d][i];
    int hc = (int)(cs & 1);
    ln->tile[pos] = t;
    ln->tile_value[pos] = (t && !(t & WS_BLANK_BIT)) ? g->rules.tile_value[t & WS_LETTER_MASK] : 0;
    ln->cross[pos] = cs & ~1ull;
    ln->lm[pos] = lm;
    ln->wm[pos] = wm;
    ln->has_cross[pos] = (uint8_t)hc;
    ln->cross_mult[pos] = hc ? lm * wm : 0;
    ln->cross_base[pos] = (hc ? g->board.cross_score[d][i] * wm : 0) + g->board.bonus[d][i];
}

/* Whether lane `lane` of direction d has a tile or a hook (lane_active). */
static inline int lane_is_active(const WsGen *g, int d, int lane) {
    for (int pos = 0; pos < WS_DIM; pos++) {
        int i = lane * WS_DIM + pos;
        if (g->board.tiles[d][i] || (g->board.cross_set[d][i] & 1)) return 1;
    }
    return 0;
}

/* Marks in bits the squares of a line (15 tiles) whose perpendicular word a change at
 * position i may change: i itself and the first empty square past the tiles on either
 * side of it.  A square's word is the run of tiles next to it, so it changes only when
 * that run holds a changed square, before or after the change; walking from each
 * changed square over the tiles of the new board reaches every such square. */
static inline uint32_t touched_by(const uint8_t *line, int i) {
    uint32_t bits = 1u << i;
    int u = i - 1, v = i + 1;
    while (u >= 0 && line[u]) u--;
    while (v < WS_DIM && line[v]) v++;
    if (u >= 0) bits |= 1u << u;
    if (v < WS_DIM) bits |= 1u << v;
    return bits;
}

/* A few squares changed: only the cross sets of the squares next to the tiles around
 * them are made again, and the lane data of those squares. */
static void set_board_squares(WsGen *g, const uint8_t *tiles, const int *changed, int n) {
    /* touched[d][x] bit p: the cross set of direction d to make again at position p of the
     * perpendicular line x (d = 0: column x, the square (p, x); d = 1: row x, (x, p)), which
     * is square x of lane p of direction d */
    uint32_t touched[2][WS_DIM] = {{0}};
    for (int k = 0; k < n; k++) {
        int sq = changed[k];
        update_square_premiums(g, sq, tiles[sq]);
        g->prev_tiles[sq] = tiles[sq];
    }
    for (int k = 0; k < n; k++) {
        int r = changed[k] / WS_DIM, c = changed[k] % WS_DIM;
        touched[0][c] |= touched_by(&g->board.tiles[1][c * WS_DIM], r);
        touched[1][r] |= touched_by(&g->board.tiles[0][r * WS_DIM], c);
    }
    uint32_t lanes[2] = {0, 0};
    for (int d = 0; d < 2; d++)
        for (int x = 0; x < WS_DIM; x++) {
            const uint8_t *line = &g->board.tiles[1 - d][x * WS_DIM];
            for (uint32_t bits = touched[d][x]; bits; bits &= bits - 1) {
                int p = __builtin_ctz(bits), i = p * WS_DIM + x;
                int16_t cs = 0;
                g->board.cross_set[d][i] = line[p] ? 0 : cross_from_line(g, line, p, &cs);
                g->board.cross_score[d][i] = cs;
                derive_square(g, d, p, x);
                lanes[d] |= 1u << p;
            }
        }
    for (int d = 0; d < 2; d++)
        for (uint32_t bits = lanes[d]; bits; bits &= bits - 1) {
            int lane = __builtin_ctz(bits);
            if (lane_is_active(g, d, lane))
                g->board.lane_active[d] |= (uint16_t)(1u << lane);
            else
                g->board.lane_active[d] &= (uint16_t)~(1u << lane);
        }
}

/* At most this many squares changed: set_board_squares; more: the lines they lie in. */
#define WS_FEW_CHANGES 32

/* A new board (none before, or more than WS_FEW_CHANGES squares changed): everything
 * derived again, each lane from the lane-major arrays in one pass, then only its squares
 * with a tile or a cross word written again (the two masks also say whether the lane is
 * active). */
static void set_board_all(WsGen *g, const uint8_t *tiles) {
    uint32_t occupied[2][WS_DIM] = {{0}}; /* [d][lane] bit pos: a tile there */
    uint32_t hooks[2][WS_DIM] = {{0}};    /* [d][lane] bit pos: an empty square with a cross word */
    const int16_t *value = g->rules.tile_value;
    for (int sq = 0; sq < WS_SQUARES; sq++) {
        uint8_t t = tiles[sq];
        if (!g->board_valid || g->prev_tiles[sq] != t) update_square_premiums(g, sq, t);
        if (t) {
            int r = sq / WS_DIM, c = sq % WS_DIM;
            occupied[0][r] |= 1u << c;
            occupied[1][c] |= 1u << r;
        }
    }
    memcpy(g->prev_tiles, tiles, WS_SQUARES);
    /* every square as if it had no perpendicular word (a tile: no letter), then the
     * squares next to a tile in their perpendicular line (across moves, d = 0: the
     * columns; down moves: the rows) get their cross sets */
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < WS_SQUARES; i++)
            g->board.cross_set[d][i] = g->all_letters & (0 - (uint64_t)(g->board.tiles[d][i] == 0));
    memset(g->board.cross_score, 0, sizeof g->board.cross_score);
    for (int d = 0; d < 2; d++)
        for (int x = 0; x < WS_DIM; x++) {
            const uint8_t *line = &g->board.tiles[1 - d][x * WS_DIM];
            for (uint32_t bits = line_neighbours(line) & ~occupied[1 - d][x]; bits; bits &= bits - 1) {
                int p = __builtin_ctz(bits), i = p * WS_DIM + x; /* square x of lane p */
                uint64_t cs = cross_from_line(g, line, p, &g->board.cross_score[d][i]);
                g->board.cross_set[d][i] = cs;
                hooks[d][p] |= 1u << x;
            }
        }
    /* each lane as derive_square makes it: what every square takes from the lane-major
     * arrays (a tile's allow no letter and have multipliers 1, no bonus), then the tiles
     * and the cross words */
    for (int d = 0; d < 2; d++) {
        uint16_t active = 0;
        for (int lane = 0; lane < WS_DIM; lane++) {
            WsLane *ln = &g->board.lanes[d][lane];
            int base = lane * WS_DIM;
            memset(ln, 0, sizeof *ln);
            for (int pos = 0; pos < WS_DIM; pos++) {
                ln->cross[pos] = g->board.cross_set[d][base + pos] & ~1ull;
                ln->lm[pos] = g->board.letter_mult[d][base + pos];
                ln->wm[pos] = g->board.word_mult[d][base + pos];
                ln->cross_base[pos] = g->board.bonus[d][base + pos];
            }
            for (uint32_t bits = occupied[d][lane]; bits; bits &= bits - 1) {
                int pos = __builtin_ctz(bits);
                uint8_t t = g->board.tiles[d][base + pos];
                ln->tile[pos] = t;
                ln->tile_value[pos] = (t & WS_BLANK_BIT) ? 0 : value[t & WS_LETTER_MASK];
            }
            for (uint32_t bits = hooks[d][lane]; bits; bits &= bits - 1) {
                int pos = __builtin_ctz(bits);
                ln->has_cross[pos] = 1;
                ln->cross_mult[pos] = ln->lm[pos] * ln->wm[pos];
                ln->cross_base[pos] += g->board.cross_score[d][base + pos] * ln->wm[pos];
            }
            if (occupied[d][lane] | hooks[d][lane]) active |= (uint16_t)(1u << lane);
        }
        g->board.lane_active[d] = active;
    }
    g->board_valid = 1;
}

int ws_gen_set_board(WsGen *g, const uint8_t *tiles) {
    /* one pass without branches (it vectorizes): the codes checked, the tiles and the
     * squares changed since the last board counted */
    unsigned alphabet = (unsigned)g->rules.alphabet_size, bad = 0;
    int count = 0, n = 0;
    for (int sq = 0; sq < WS_SQUARES; sq++) {
        uint8_t t = tiles[sq];
        count += t != 0;
        bad |= (t != 0) & ((unsigned)((t & WS_LETTER_MASK) - 1) >= alphabet);
        n += g->prev_tiles[sq] != t;
    }
    if (bad) return WS_E_ARGUMENT;
    g->board.tile_count = count;
    if (g->board_valid && n <= WS_FEW_CHANGES) {
        int changed[WS_FEW_CHANGES], k = 0;
        /* eight squares at a time: most of the board did not change */
        for (int w = 0; w < WS_SQUARES && k < n; w += 8) {
            if (w + 8 <= WS_SQUARES) {
                uint64_t a, b;
                memcpy(&a, g->prev_tiles + w, 8);
                memcpy(&b, tiles + w, 8);
                if (a == b) continue;
            }
            for (int sq = w; sq < w + 8 && sq < WS_SQUARES; sq++)
                if (g->prev_tiles[sq] != tiles[sq]) changed[k++] = sq;
        }
        if (n) set_board_squares(g, tiles, changed, n);
        return WS_OK;
    }
    set_board_all(g, tiles);
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

/* The sub-multiset of the rack at a leave index (mixed radix over the rack's tile
 * types, leave_type / leave_weight): its *n types with their counts, its face value;
 * returns its number of tiles. */
static int leave_of_index(const WsGen *g, int idx, uint8_t *kept_type, uint8_t *kept_count, int *n, int *face) {
    int size = 0, k = 0, f = 0;
    for (int i = 0; i < g->leave_types; i++) {
        int t = g->leave_type[i], c = idx % (g->rack[t] + 1);
        idx /= g->rack[t] + 1;
        if (c) {
            kept_type[k] = (uint8_t)t;
            kept_count[k++] = (uint8_t)c;
        }
        size += c;
        f += c * (t ? g->rules.tile_value[t] : 0);
    }
    *n = k;
    *face = f;
    return size;
}

/* The value of keeping every sub-multiset of the rack (mixed radix over its distinct
 * tile types), and the best value for each number of tiles kept. */
static int compute_leave_values(WsGen *g) {
    int n = 0, weight = 1;
    if (++g->leave_stamp == 0) { /* wrapped: no best leave of a word list may pass for these */
        memset(g->word_cap_leave, 0, sizeof g->word_cap_leave);
        g->leave_stamp = 1;
    }
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
    /* the sub-multisets in index order: an odometer over the types' kept counts (digit i
     * has weight leave_weight[i]), so no index is decoded by division */
    uint8_t digit[WS_RACK_MAX] = {0};
    int size = 0, face = 0;
    if (!g->endgame) {
        /* with a table: a leave's rank is offset[size] plus one ws_leaves_rank_term per
         * rack type i (kept count c, m = tiles kept of types i..), summed over all the
         * rack's types.  The odometer changes digits 0..i, so the suffix sums from i down
         * are made again: about two terms a sub-multiset instead of a rank each. */
        const WsLeaves *L = g->leaves;
        if (g->rack_total == 0) {
            g->leave_value[0] = 0.0f;
            g->leave_best[0] = 0.0f;
            return WS_OK;
        }
        if (!L->values || L->types != g->rules.alphabet_size + 1) return WS_E_ARGUMENT;
        int64_t term[WS_RACK_MAX][WS_RACK_MAX + 1][WS_RACK_MAX + 1]; /* [type i][c][m] */
        for (int i = 0; i < n; i++) {
            int t = g->leave_type[i], from = i ? g->leave_type[i - 1] + 1 : 0, count = g->rack[t];
            int capped = count < L->max_size ? count : L->max_size;
            if (capped > L->cap[t]) return WS_E_ARGUMENT; /* a leave the table cannot rank */
            for (int c = 0; c <= count; c++)
                for (int m = 0; m <= g->rack_total; m++) /* the tables are 0 past max_size */
                    term[i][c][m] = ws_leaves_rank_term(L, from, t, m, c);
        }
        /* suffix sums over types i..n-1: kept tiles (msum) and rank terms (rsum) */
        int msum[WS_RACK_MAX + 1], top = n - 1;
        int64_t rsum[WS_RACK_MAX + 1];
        msum[n] = 0;
        rsum[n] = 0;
        for (int idx = 0; idx < weight; idx++) {
            if (idx) {
                for (int i = 0; i < n; i++) {
                    if (digit[i] < g->rack[g->leave_type[i]]) {
                        digit[i]++;
                        top = i;
                        break;
                    }
                    digit[i] = 0;
                }
            }
            for (int i = top; i >= 0; i--) {
                int m = msum[i + 1] + digit[i];
                msum[i] = m;
                rsum[i] = rsum[i + 1] + term[i][digit[i]][m];
            }
            top = 0;
            size = msum[0];
            float v = size >= 1 && size <= L->max_size ? L->values[L->offset[size] + rsum[0]] : 0.0f;
            g->leave_value[idx] = v;
            if (v > g->leave_best[size]) g->leave_best[size] = v;
        }
        return WS_OK;
    }
    for (int idx = 0; idx < weight; idx++) {
        if (idx) {
            for (int i = 0; i < n; i++) {
                int t = g->leave_type[i], value = t ? g->rules.tile_value[t] : 0;
                if (digit[i] < g->rack[t]) {
                    digit[i]++;
                    size++;
                    face += value;
                    break;
                }
                size -= digit[i];
                face -= digit[i] * value;
                digit[i] = 0;
            }
        }
        float v = size == 0 ? g->out_value : -g->keep_factor * (float)face;
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
        int k, face;
        int size = leave_of_index(g, idx, kept_type, kept_count, &k, &face);
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

void ws_gen_leave_counts(const WsGen *g, int idx, uint8_t *kept) {
    memset(kept, 0, WS_MAX_LETTERS + 1);
    for (int i = 0; i < g->leave_types; i++) {
        int t = g->leave_type[i];
        kept[t] = (uint8_t)(idx % (g->rack[t] + 1));
        idx /= g->rack[t] + 1;
    }
}

int ws_gen_leave_index(const WsGen *g, const uint8_t *kept) {
    for (int t = 0; t <= WS_MAX_LETTERS; t++)
        if (kept[t] > g->rack[t]) return -1;
    int idx = 0;
    for (int i = 0; i < g->leave_types; i++) idx += kept[g->leave_type[i]] * g->leave_weight[i];
    return idx;
}

int ws_gen_set_rack(WsGen *g, const uint8_t *rack) {
    if (g->keep_values && g->values_valid && !memcmp(g->rack, rack, sizeof g->rack) && g->values_leaves == g->leaves &&
        g->values_endgame == g->endgame && g->values_out == g->out_value && g->values_keep == g->keep_factor)
        return WS_OK;
    g->values_valid = 0;
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
    for (int i = 0; i <= WS_RACK_MAX; i++)
        g->rack_value_step[i] = i + 1 < n ? g->rack_values_desc[i + 1] - g->rack_values_desc[i] : 0;
    /* the distinct letters by descending value (ties by code; any order of equal values
     * gives the same masks), each with the count of rack values above it */
    g->fit_letters = 0;
    for (int t = 1; t <= g->rules.alphabet_size; t++) {
        if (!rack[t]) continue;
        int k = g->fit_letters++, v = g->rules.tile_value[t];
        while (k > 0 && g->rules.tile_value[__builtin_ctzll(g->fit_letter[k - 1])] < v) {
            g->fit_letter[k] = g->fit_letter[k - 1];
            k--;
        }
        g->fit_letter[k] = 1ull << t;
    }
    for (int k = 0; k < g->fit_letters; k++) {
        int v = g->rules.tile_value[__builtin_ctzll(g->fit_letter[k])], above = 0;
        while (above < n && g->rack_values_desc[above] > v) above++;
        g->fit_above[k] = (uint8_t)above;
    }
    g->fit_none = 0;
    while (g->fit_none < n && g->rack_values_desc[g->fit_none] > 0) g->fit_none++;
    g->rack_total = total;
    g->rack_letters = letters;
    g->rack_max_value = 0;
    for (int t = 1; t <= g->rules.alphabet_size; t++)
        if (rack[t] && g->rules.tile_value[t] > g->rack_max_value) g->rack_max_value = g->rules.tile_value[t];
    int rc = compute_leave_values(g);
    if (rc == WS_OK) {
        g->values_valid = 1;
        g->values_leaves = g->leaves;
        g->values_endgame = g->endgame;
        g->values_out = g->out_value;
        g->values_keep = g->keep_factor;
    }
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The walk                                                                 */
/* ------------------------------------------------------------------------ */

static void load_lane(WsGen *g, int d, int lane) {
    g->direction = d;
    g->lane = lane;
    g->ln = &g->board.lanes[d][lane];
}

/* Best mode, for the shadow: per square of the current lane, the rack tiles that may
 * score there, bit j = rack_values_desc[j]: those worth at most the highest value of a
 * real rack tile the square allows (a blank, worth 0, fits every square).  Every rack
 * letter fits a square without a cross word. */
static void load_fit_masks(WsGen *g) {
    uint64_t letters = g->rack_letters;
    int total = g->rack_total, count = g->fit_letters;
    unsigned all = (1u << total) - 1;
    /* most squares allow every letter (an empty square without a cross word, whose cross
     * set is every letter, or one whose cross set holds every rack letter) or none (a
     * tile, whose cross set is empty, or an empty cross set): their masks, made once; an
     * open square's best real rack tile is the rack's first by value */
    uint8_t none = (uint8_t)(all & ~((1u << g->fit_none) - 1));
    uint8_t open = count ? (uint8_t)(all & ~((1u << g->fit_above[0]) - 1)) : none;
    for (int pos = 0; pos < WS_DIM; pos++) {
        /* the best real rack tile the square allows is the first of the rack's letters by
         * descending value in its cross set: the values above it are the mask's low bits */
        uint64_t fit = g->ln->cross[pos] & letters;
        if (fit == letters || !fit) {
            g->lane_fit[pos] = fit ? open : none;
            continue;
        }
        int j = g->fit_none, k = 0;
        for (; k < count; k++)
            if (fit & g->fit_letter[k]) {
                j = g->fit_above[k];
                break;
            }
        g->lane_fit[pos] = (uint8_t)(all & ~((1u << j) - 1));
    }
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
static inline void insert_equity(WsGen *g, int left, int right, int score, int placed, float e) {
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

static inline void record_equity(WsGen *g, int left, int right, int score, int placed) {
    int idx = 0;
    for (int i = 0; i < g->leave_types; i++) idx += g->rack[g->leave_type[i]] * g->leave_weight[i];
    float e = (float)score + g->leave_value[idx];
    if (e < g->threshold_equity) return;
    insert_equity(g, left, right, score, placed, e);
}

/* real_first: the walk put real tiles on the first squares it met and blanks on the
 * later ones.  Of the moves that spell the same letters on the same squares, the best
 * puts each letter's blanks where what a real tile would score there, value * lm * (W +
 * cross word multiplier), is least (ties: the lower index, which the move order prefers;
 * a letter worth 0 scores the same everywhere, so its blanks go to its first squares);
 * returns what that adds to the score. */
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
            int cost = v * g->ln->lm[j] * (wmul + (g->ln->has_cross[j] ? g->ln->wm[j] : 0));
            if (best < 0 || cost < best_cost || (cost == best_cost && j < best)) {
                best = j;
                best_cost = cost;
            }
        }
        if (best < 0) continue;
        int here = v * g->ln->lm[i] * (wmul + (g->ln->has_cross[i] ? g->ln->wm[i] : 0));
        if (best_cost < here || (best_cost == here && best < i)) {
            g->strip[best] = t;
            g->strip[i] = (uint8_t)letter;
            gain += here - best_cost;
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
    if (placed == 1 && g->direction == 1 && g->ln->has_cross[g->first_pos]) return;
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

/* always inlined: gen and go_on call each other, so without it the compiler keeps go_on
 * a function, and every step of the walk pays two calls (6.3 % more instructions) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void go_on(WsGen *g, int pos, uint8_t strip_tile, uint32_t node, int main_sum, int wmul, int cross,
                         int placed) {
    uint32_t child = ws_node_index(node);
    /* the child list is needed right after recording: start loading it now, and the 4
     * cache lines after it, where the breadth-first layout puts the lists the walk is
     * likely to meet next (the children of this list's siblings, then theirs): on new
     * positions about 14 % faster in same-process A/B runs (8 lines: about the same
     * for 3 times the instructions, 1 line: 3-7 %), repeated positions unchanged.  Not
     * in the last lines of the array, so no pointer leaves it. */
    __builtin_prefetch(&g->nodes[child]);
    if (child && child + 64 < g->node_count) {
        __builtin_prefetch(&g->nodes[child + 16]);
        __builtin_prefetch(&g->nodes[child + 32]);
        __builtin_prefetch(&g->nodes[child + 48]);
        __builtin_prefetch(&g->nodes[child + 64]);
    }
    g->strip[pos] = strip_tile;
    if (pos <= g->anchor) {
        int left_empty = pos == 0 || !g->ln->tile[pos - 1];
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
        int right_empty = pos == WS_DIM - 1 || !g->ln->tile[pos + 1];
        if (ws_node_accepts(node) && right_empty) record(g, g->leftmost, pos, main_sum, wmul, cross, placed);
        if (child && pos < WS_DIM - 1) gen(g, pos + 1, child, main_sum, wmul, cross, placed);
    }
}

static void gen(WsGen *g, int pos, uint32_t list, int main_sum, int wmul, int cross, int placed) {
    const uint32_t *nodes = g->nodes;
    if (g->poll) {
        if (g->poll_stopped) return;
        if (--g->poll_left == 0) {
            g->poll_left = g->poll_every;
            if (g->poll(g->poll_ctx)) {
                g->poll_stopped = 1;
                return;
            }
        }
    }
    uint8_t bt = g->ln->tile[pos];
    if (bt) {
        uint32_t arc = ws_graph_seek(nodes, list, bt & WS_LETTER_MASK);
        if (arc) go_on(g, pos, 0, nodes[arc], main_sum + g->ln->tile_value[pos], wmul, cross, placed);
        return;
    }
    if (!g->rack_total || !list) return;
    uint64_t possible = g->ln->cross[pos] & (g->rack[0] ? g->all_letters : g->rack_letters);
    if (!possible) return;
    int lm = g->ln->lm[pos];
    int nwmul = wmul * g->ln->wm[pos];
    int cm = g->ln->cross_mult[pos];
    int cb = g->ln->cross_base[pos];
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

/* Calls fn for every anchor of the current lane (a board with tiles), left to right. */
static inline void lane_anchors(WsGen *g, AnchorFn fn) {
    int boundary = -1;
    for (int pos = 0; pos < WS_DIM; pos++) {
        if (g->ln->tile[pos]) {
            if (!g->ln->tile[pos + 1]) { /* lane_tile[15] == 0 */
                fn(g, pos, boundary);
                boundary = pos + 1;
            }
        } else if (g->ln->has_cross[pos] && (pos == 0 || !g->ln->tile[pos - 1]) && !g->ln->tile[pos + 1]) {
            fn(g, pos, boundary);
            boundary = pos;
        }
    }
}

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
            lane_anchors(g, fn);
        }
    }
}

void ws_gen_poll(WsGen *g, int (*fn)(void *ctx), void *ctx, uint32_t every) {
    g->poll = fn;
    g->poll_ctx = ctx;
    g->poll_every = every ? every : 1;
    g->poll_left = g->poll_every;
    g->poll_stopped = 0;
}

int ws_gen_all(WsGen *g, WsMove *out, size_t capacity, size_t *count) {
    if (!g->board_valid) return WS_E_ARGUMENT;
    g->poll_stopped = 0;
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

/* The shadow's key of a new tile's square under word multiplier W: its coefficient
 * lm*(W + cross word multiplier) above 8 bits of fit mask (load_fit_masks). */
static inline int square_key(const WsGen *g, int sq, int W) {
    return ((g->ln->lm[sq] * W + g->ln->cross_mult[sq]) << 8) | g->lane_fit[sq];
}

/* Inserts a key into keys[0..*n), kept in descending order. */
static inline void insert_key(int *keys, int *n, int key) {
    int j = (*n)++;
    while (j > 0 && keys[j - 1] < key) {
        keys[j] = keys[j - 1];
        j--;
    }
    keys[j] = key;
}

/* insert_key that also keeps *sum = sum of coefficient(keys[i]) * rack_values_desc[i]
 * over the keys (the pairing when every square allows every tile): a key moved from
 * place i to i + 1 changes its term by its coefficient * step[i]. */
static inline void insert_key_sum(int *keys, int *n, int key, int *sum, const int16_t *value, const int32_t *step) {
    int j = (*n)++, s = *sum;
    while (j > 0 && keys[j - 1] < key) {
        keys[j] = keys[j - 1];
        s += (keys[j] >> 8) * step[j - 1];
        j--;
    }
    keys[j] = key;
    *sum = s + (key >> 8) * value[j];
}

/* Bound of the letter part of a span: each new tile's square (keys, by descending
 * coefficient) takes a distinct rack tile worth at most the best real tile it allows
 * (the relaxation of "the tile must fit the cross set").  Giving each square in turn
 * the largest remaining value it allows is optimal for that relaxation (the allowed
 * sets are nested, so an exchange argument applies), hence an upper bound of every
 * real assignment.  With the values descending, the largest remaining one a square
 * allows is the lowest free bit of its fit mask. */
static inline int pair_values(const WsGen *g, const int *keys, int n, unsigned fits) {
    unsigned used = 0;
    int sum = 0;
    if (fits & 1u) { /* every square allows every tile (the masks are suffixes): square i takes value i */
        for (int i = 0; i < n; i++) sum += (keys[i] >> 8) * g->rack_values_desc[i];
        return sum;
    }
    for (int i = 0; i < n; i++) {
        unsigned free_fits = (unsigned)keys[i] & 0xFFu & ~used;
        if (!free_fits) continue;
        int j = __builtin_ctz(free_fits);
        used |= 1u << j;
        sum += (keys[i] >> 8) * g->rack_values_desc[j];
    }
    return sum;
}

/* Without a word map: 0 when the whole rack placed through these board tiles (0-2 of
 * them; letters in b) spells no word, so the span holds no move at all. */
static int full_rack_possible(WsGen *g, int bt, const int *b) {
    if (bt == 0) return rack_spells_word(g);
    if (bt == 1 || bt == 2) return rack_through(g, bt, b[0], bt == 2 ? b[1] : 0);
    return 1;
}

/* The board letters a class of the anchor runs through: the anchor's block (when the
 * anchor is a tile) and the first `blocks` blocks right of it; their key, the last
 * letter met (*letter) and their number (returned). */
static inline int class_through(const WsLane *ln, int anchor, int blocks, WsRackKey *through, unsigned *letter) {
    WsRackKey k = ws_rack_key_empty();
    unsigned last = 0;
    int bt = 0;
    for (int p = anchor; p >= 0 && ln->tile[p]; p--) {
        last = ln->tile[p] & WS_LETTER_MASK;
        k = ws_rack_key_add_letter(k, last);
        bt++;
    }
    for (int p = anchor + 1, b = 0; p < WS_DIM; p++) {
        uint8_t t = ln->tile[p];
        if (!t) continue;
        if (!ln->tile[p - 1]) {
            if (b == blocks) break;
            b++;
        }
        last = t & WS_LETTER_MASK;
        k = ws_rack_key_add_letter(k, last);
        bt++;
    }
    *through = k;
    *letter = last;
    return bt;
}

static void make_word_list(WsGen *g, unsigned row, int n, WsRackKey through, uint64_t through_premix, unsigned len);

/* With span classes and no blank on the rack: 1 if the whole rack and the board letters
 * of the anchor's class of `blocks` blocks spell a word, else 0 (the class, whose one
 * sub-rack is the whole rack, holds no move).  Through 0-1 letters the rack's word
 * list of the row answers (made once per rack); through more, one lookup. */
static int whole_rack_spells(WsGen *g, int anchor, int blocks) {
    WsRackKey through;
    unsigned letter;
    int total = g->rack_total, bt = class_through(g->ln, anchor, blocks, &through, &letter);
    uint64_t premix = ws_rack_key_premix(through);
    if (bt < 2) {
        unsigned row = bt ? letter : 0;
        if (g->word_stamp[row][total] != g->subrack_stamp) make_word_list(g, row, total, through, premix, (unsigned)(total + bt));
        return g->word_count[row][total] > 0;
    }
    const WsSubrack *sr = &g->subracks[g->subrack_first[total]];
    g->wordmap_lookups++;
    return ws_wordmap_find_premixed(g->wordmap, ws_rack_key_add(sr->key, through), sr->premix + premix,
                                    (unsigned)(total + bt)) >= 0;
}

/* The best leave a move of n tiles through no board letter (row 0) or through the one
 * board letter `row` keeps: the best leave of the sub-racks of n tiles that spell a word
 * with it (the row's word list) and of those with blanks; -inf when there are none (no
 * such move). */
static float row_leave_cap(WsGen *g, unsigned row, int n) {
    if (g->word_stamp[row][n] != g->subrack_stamp) {
        WsRackKey through = row ? ws_rack_key_add_letter(ws_rack_key_empty(), row) : ws_rack_key_empty();
        make_word_list(g, row, n, through, ws_rack_key_premix(through), (unsigned)(n + (row != 0)));
    }
    if (g->word_cap_sub[row][n] != g->subrack_stamp || g->word_cap_leave[row][n] != g->leave_stamp) {
        float cap = -HUGE_VALF;
        const uint8_t *words = &g->word_sub[row][g->subrack_first[n]];
        for (int q = 0; q < g->word_count[row][n]; q++) {
            float v = g->leave_value[g->subracks[words[q]].keep];
            if (v > cap) cap = v;
        }
        for (int q = g->blank_first[n]; q < g->blank_first[n + 1]; q++) {
            float v = g->leave_value[g->subracks[g->blank_subracks[q]].keep];
            if (v > cap) cap = v;
        }
        g->word_cap[row][n] = cap;
        g->word_cap_sub[row][n] = g->subrack_stamp;
        g->word_cap_leave[row][n] = g->leave_stamp;
    }
    return g->word_cap[row][n];
}

/* The shadow of one anchor: its bound (INT_MIN: it holds no move), and with span
 * classes its classes (n tiles placed, `blocks` blocks right of the anchor run
 * through), each with the best bound of its spans and their start squares.  Each span
 * (L, R) is bounded by W*(board tiles) + the cross terms + pair_values + the bingo
 * bonus; in equity mode its equity bound adds the best value of a leave of the tiles
 * that span keeps.  The sorted keys grow with the span (one insertion a square) and
 * are made again only when a word multiplier changes W. */
static void shadow_anchor(WsGen *g, int anchor, int boundary, WsAnchor *a) {
    const WsLane *ln = g->ln;
    const uint8_t *tile = ln->tile, *lane_fit = g->lane_fit;
    const int16_t *value = g->rack_values_desc;
    const int32_t *step = g->rack_value_step;
    uint64_t usable = g->rack[0] ? g->all_letters : g->rack_letters;
    int total = g->rack_total, best = INT_MIN;
    int min_tiles = g->min_tiles > 1 ? g->min_tiles : 1, bingo_tiles = g->rules.bingo_tiles;
    int bingo_bonus = g->rules.bingo_bonus, down = g->direction == 1, equity = g->mode == 2;
    float best_equity = -HUGE_VALF;
    int classes = g->classes;
    int whole_rack = classes && !g->rack[0]; /* the whole rack is a sub-rack without blanks */
    /* the class of (n, blocks) in local; 0xFF: none yet, 0xFE: none (no word) */
    uint8_t cls[WS_RACK_MAX + 1][WS_DIM / 2 + 1];
    WsSubAnchor local[(WS_RACK_MAX + 1) * (WS_DIM / 2 + 1)];
    float local_cap[(WS_RACK_MAX + 1) * (WS_DIM / 2 + 1)]; /* the best leave a move of the class keeps */
    int nlocal = 0;
    int best_n[WS_RACK_MAX + 1]; /* without classes: the best bound of the spans of n tiles */
    if (classes) {
        memset(cls, 0xFF, sizeof cls);
    } else {
        for (int n = 0; n <= WS_RACK_MAX; n++) best_n[n] = INT_MIN;
    }
    int lsq[WS_RACK_MAX], nl = 0, lW = 1, lboard = 0, lcross = 0, lbt = 0;
    unsigned lfits = ~0u; /* AND of the fit masks of the left part's squares */
    /* the left part's keys under W = lW, descending, and their in-order pairing sum */
    int lkeys[WS_RACK_MAX], nlk = 0, lsum = 0;
    int letters[2] = {0, 0}; /* the first two board letters met (left part first) */
    for (int L = anchor; L > boundary; L--) {
        if (tile[L]) {
            lboard += ln->tile_value[L];
            if (lbt < 2) letters[lbt] = tile[L] & WS_LETTER_MASK;
            lbt++;
        } else {
            if (!(ln->cross[L] & usable) || nl == total) break;
            lsq[nl++] = L;
            lfits &= lane_fit[L];
            lcross += ln->cross_base[L];
            if (ln->wm[L] != 1) { /* the left part's keys under the new W */
                lW *= ln->wm[L];
                nlk = 0;
                lsum = 0;
                for (int i = 0; i < nl; i++) insert_key_sum(lkeys, &nlk, square_key(g, lsq[i], lW), &lsum, value, step);
            } else {
                insert_key_sum(lkeys, &nlk, square_key(g, L, lW), &lsum, value, step);
            }
        }
        if (L > 0 && tile[L - 1]) continue; /* the word would go on to the left */
        int keys[WS_RACK_MAX], nk = nl, W = lW, sum = lsum;
        memcpy(keys, lkeys, sizeof keys); /* a fixed size: a few moves, no call */
        int rsq[WS_RACK_MAX], nr = 0, rW = 1, rboard = 0, rcross = 0, rbt = 0, blocks = 0;
        unsigned fits = lfits;
        for (int R = anchor; R < WS_DIM; R++) {
            if (R > anchor) {
                if (tile[R]) {
                    blocks += !tile[R - 1];
                    rboard += ln->tile_value[R];
                    if (lbt + rbt < 2) letters[lbt + rbt] = tile[R] & WS_LETTER_MASK;
                    rbt++;
                } else {
                    if (!(ln->cross[R] & usable) || nl + nr == total) break;
                    rsq[nr++] = R;
                    fits &= lane_fit[R];
                    rcross += ln->cross_base[R];
                    if (ln->wm[R] != 1) { /* W changes: every coefficient does */
                        rW *= ln->wm[R];
                        W = lW * rW;
                        nk = 0;
                        sum = 0;
                        for (int i = 0; i < nl; i++) insert_key_sum(keys, &nk, square_key(g, lsq[i], W), &sum, value, step);
                        for (int i = 0; i < nr; i++) insert_key_sum(keys, &nk, square_key(g, rsq[i], W), &sum, value, step);
                    } else {
                        insert_key_sum(keys, &nk, square_key(g, R, W), &sum, value, step);
                    }
                }
            }
            if (tile[R + 1]) continue; /* tile[15] == 0 */
            int n = nl + nr;
            if (n < min_tiles) continue;
            /* a one-tile move with an across neighbour is listed across only */
            if (n == 1 && down && ln->has_cross[nl ? lsq[0] : rsq[0]]) continue;
            /* the whole rack placed: without a word map, a span whose word cannot exist
             * (the rack through its 0-2 board letters) holds no move at all; with span
             * classes, the class is read from the map when it comes up instead */
            if (n == bingo_tiles && !classes && !full_rack_possible(g, lbt + rbt, letters)) continue;
            /* every square allows every tile (the masks are suffixes): square i takes
             * value i, the running sum; else the greedy pairing */
#ifdef WS_CHECK_SHADOW /* a build for checking: the running sum is the in-order pairing */
            if ((fits & 1u) && sum != pair_values(g, keys, n, 1u)) abort();
#endif
            uint8_t c = 0;
            if (classes) {
                /* the whole rack without blanks: a class whose one sub-rack spells no word
                 * with its board letters is dropped (0xFE), not read when it comes up */
                c = cls[n][blocks];
                if (c == 0xFE) continue;
                if (c == 0xFF) {
                    /* through 0-1 board letters, the rack's word lists bound the leave
                     * (a class without words is dropped); through more, the whole rack
                     * without blanks is looked up */
                    int bt = lbt + rbt;
                    float cap = g->leave_best[total - n];
                    unsigned row = bt ? (unsigned)letters[0] : 0u;
                    /* (a word list not made yet is made only for the whole rack or all of it but one
                     * tile: a few lookups, for the classes that come up first) */
                    if (bt < 2 && (n >= total - 1 || g->word_stamp[row][n] == g->subrack_stamp))
                        cap = row_leave_cap(g, row, n);
                    else if (n == total && whole_rack && !whole_rack_spells(g, anchor, blocks))
                        cap = -HUGE_VALF;
                    if (cap == -HUGE_VALF) {
                        cls[n][blocks] = 0xFE;
                        continue;
                    }
                    local_cap[nlocal] = cap;
                }
            }
            int b = W * (lboard + rboard) + lcross + rcross + ((fits & 1u) ? sum : pair_values(g, keys, n, fits)) +
                    (n == bingo_tiles ? bingo_bonus : 0);
            if (classes) {
                if (c == 0xFF) {
                    c = cls[n][blocks] = (uint8_t)nlocal++;
                    local[c].bound = b;
                    local[c].starts = 0;
                    local[c].n = (uint8_t)n;
                    local[c].blocks = (uint8_t)blocks;
                } else if (b > local[c].bound) {
                    local[c].bound = b;
                }
                local[c].starts |= (uint16_t)(1u << L);
            } else if (b > best_n[n]) {
                best_n[n] = b;
            }
        }
    }
    /* The equity bound of a span is (float)b + the best leave its moves may keep
     * (leave_best[total - n], or a class's local_cap): with the class or n fixed it is
     * largest where b is (float rounding is monotone), so it is made once per class or
     * tile count, not per span. */
    if (classes) {
        for (int c = 0; c < nlocal; c++) {
            if (local[c].bound > best) best = local[c].bound;
            float e = equity ? (float)local[c].bound + local_cap[c] : 0.0f;
            local[c].bound_equity = e;
            if (equity && e > best_equity) best_equity = e;
        }
    } else {
        for (int n = 1; n <= total; n++) {
            if (best_n[n] == INT_MIN) continue;
            if (best_n[n] > best) best = best_n[n];
            if (equity) {
                float e = (float)best_n[n] + g->leave_best[total - n];
                if (e > best_equity) best_equity = e;
            }
        }
    }
    a->bound = best;
    a->bound_equity = best_equity;
    a->sub_first = (uint16_t)g->sub_total;
    a->sub_count = 0;
    if (classes && g->sub_total + nlocal <= WS_MAX_SUBS) {
        /* else the anchor has no classes and is walked */
        memcpy(&g->subs[g->sub_total], local, (size_t)nlocal * sizeof *local);
        g->sub_total += nlocal;
        a->sub_count = (uint8_t)nlocal;
    }
}

static void collect_anchor(WsGen *g, int anchor, int boundary) {
    if (g->anchor_count >= WS_MAX_ANCHORS) return;
    if (g->fit_lane != g->direction * WS_DIM + g->lane) {
        load_fit_masks(g);
        g->fit_lane = g->direction * WS_DIM + g->lane;
    }
    WsAnchor *a = &g->anchors[g->anchor_count];
    shadow_anchor(g, anchor, boundary, a);
    if (a->bound == INT_MIN) return;
    a->direction = (uint8_t)g->direction;
    a->lane = (uint8_t)g->lane;
    a->pos = (uint8_t)anchor;
    a->boundary_plus_one = (uint8_t)(boundary + 1);
    a->walked = 0;
    g->anchor_count++;
}

/* ------------------------------------------------------------------------ */
/* Best move: span classes read from the word map                           */
/* ------------------------------------------------------------------------ */

void ws_gen_set_wordmap(WsGen *g, const WsWordMap *map) {
    g->wordmap = map && map->slots ? map : NULL;
    g->subracks_valid = 0;
}

/* One tile type of the rack, for making its sub-racks. */
typedef struct SubrackType {
    WsRackKey unit; /* the key of one tile of the type (empty for the blank) */
    uint64_t bit;   /* its letter's bit (0 for the blank) */
    int count, weight, value, blank;
} SubrackType;

/* Chooses how many tiles of type i.. each sub-rack plays (types by descending value, so
 * the values are appended in descending order); at[size] is where the next sub-rack of
 * that size goes. */
static void subracks_from(WsGen *g, const SubrackType *ty, int ntypes, int i, const WsSubrack *part, int *at) {
    if (i == ntypes) {
        WsSubrack *sr = &g->subracks[at[part->size]++];
        *sr = *part;
        sr->premix = ws_rack_key_premix(part->key);
        return;
    }
    const SubrackType *t = &ty[i];
    WsSubrack next = *part;
    next.keep = (uint16_t)(part->keep + t->count * t->weight); /* none played: all kept */
    if (t->count) next.spare |= t->bit;
    for (int played = 0;; played++) {
        subracks_from(g, ty, ntypes, i + 1, &next, at);
        if (played == t->count) break;
        /* one more played, one fewer kept */
        next.keep = (uint16_t)(next.keep - t->weight);
        if (played + 1 == t->count) next.spare = part->spare;
        next.value[next.size++] = (uint8_t)t->value;
        if (t->blank)
            next.blanks++;
        else
            next.key = ws_rack_key_add(next.key, t->unit);
    }
}

/* The distinct sub-multisets of the rack by size, each with its letters' key, its
 * blanks, the letters the rack holds more of, its values (descending) and the index of
 * the leave it keeps (the mixed radix of leave_value).  Made once per rack (kept while
 * the rack stays the same). */
static void prepare_subracks(WsGen *g) {
    if (g->subracks_valid && !memcmp(g->subrack_rack, g->rack, sizeof g->rack)) return;
    SubrackType ty[WS_RACK_MAX];
    int ntypes = g->leave_types;
    int count[WS_RACK_MAX + 1] = {1}; /* sub-racks by size: the product of (1 + x + .. + x^count) */
    for (int i = 0; i < ntypes; i++) {
        int code = g->leave_type[i];
        SubrackType t = {ws_rack_key_empty(), code ? 1ull << code : 0, g->rack[code], g->leave_weight[i],
                         code ? g->rules.tile_value[code] : 0, code == 0};
        if (code) t.unit = ws_rack_key_add_letter(t.unit, (unsigned)code);
        int j = i; /* by descending value, the blank last */
        while (j > 0 && (ty[j - 1].blank || ty[j - 1].value < t.value) && !t.blank) {
            ty[j] = ty[j - 1];
            j--;
        }
        ty[j] = t;
        for (int n = WS_RACK_MAX; n >= 0; n--)
            for (int c = 1; c <= t.count && c <= n; c++) count[n] += count[n - c];
    }
    int at[WS_RACK_MAX + 1];
    g->subrack_first[0] = 0;
    for (int n = 0; n <= WS_RACK_MAX; n++) {
        at[n] = g->subrack_first[n];
        g->subrack_first[n + 1] = g->subrack_first[n] + count[n];
    }
    WsSubrack empty;
    memset(&empty, 0, sizeof empty);
    subracks_from(g, ty, ntypes, 0, &empty, at);
    memcpy(g->subrack_rack, g->rack, sizeof g->rack);
    g->subracks_valid = 1;
    if (++g->subrack_stamp == 0) { /* wrapped: no word list may pass for this rack's */
        memset(g->word_stamp, 0, sizeof g->word_stamp);
        memset(g->word_cap_sub, 0, sizeof g->word_cap_sub);
        g->subrack_stamp = 1;
    }
    int nb = 0;
    for (int n = 0; n <= WS_RACK_MAX; n++) {
        g->blank_first[n] = nb;
        if (!g->rack[0]) continue;
        for (int r = g->subrack_first[n]; r < g->subrack_first[n + 1]; r++)
            if (g->subracks[r].blanks) g->blank_subracks[nb++] = (uint8_t)r;
    }
    g->blank_first[WS_RACK_MAX + 1] = nb;
}

/* The word list of row `row` for the sub-racks of n tiles (see word_sub): each sub-rack
 * without blanks looked up once with the board letters `through`. */
static void make_word_list(WsGen *g, unsigned row, int n, WsRackKey through, uint64_t through_premix, unsigned len) {
    const WsWordMap *m = g->wordmap;
    int first = g->subrack_first[n], count = 0;
    for (int r = first; r < g->subrack_first[n + 1]; r++) {
        const WsSubrack *sr = &g->subracks[r];
        if (sr->blanks) continue;
        g->wordmap_lookups++;
        int32_t e = ws_wordmap_find_premixed(m, ws_rack_key_add(sr->key, through), sr->premix + through_premix, len);
        if (e < 0) continue;
        g->word_sub[row][first + count] = (uint8_t)r;
        g->word_entry[row][first + count] = (uint32_t)e;
        count++;
    }
    g->word_count[row][n] = (uint8_t)count;
    g->word_stamp[row][n] = g->subrack_stamp;
}

/* Keeps one placement of a word when it is among the best so far: strip from the
 * word (board squares 0, blanks marked by bmask over the word's letters). */
static inline void wordmap_record(WsGen *g, const uint8_t *w, int len, int L, unsigned bmask, int score, int n,
                                  float leave) {
    float e = 0.0f;
    if (g->mode == 2) {
        e = (float)score + leave;
        if (e < g->threshold_equity) return;
    } else if (score < g->threshold) {
        return;
    }
    for (int i = 0; i < len; i++)
        g->strip[L + i] = g->ln->tile[L + i] ? 0 : (uint8_t)(w[i] | ((bmask >> i & 1) ? WS_BLANK_BIT : 0));
    if (g->mode == 2)
        insert_equity(g, L, L + len - 1, score, n, e);
    else
        record_best(g, L, L + len - 1, score, n);
}

/* The blank of letter b cheapest to place among the squares in `cand` (bit i = word
 * letter i is a new tile of letter b): the least coefficient, then the lowest index
 * (a smaller blank mask sorts first); with `skip`, the cheapest but that one. */
static inline int cheapest_square(const int *coef, unsigned cand, int value, int skip) {
    int best = -1;
    for (; cand; cand &= cand - 1) {
        int i = __builtin_ctz(cand);
        if (i == skip) continue;
        if (best < 0 || (value && coef[i] < coef[best])) best = i;
    }
    return best;
}

/* One word at start square L: fits the board letters and cross sets, then each way
 * of putting the blanks of `hit` on its squares is recorded (with one move wanted by
 * score, only the best way: each blank on its letter's cheapest square). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void wordmap_place(WsGen *g, const uint8_t *w, int len, int L, int base, const int *coef,
                                 const WsWordMapHit *hit, int n, float leave) {
    int score = base;
    for (int i = 0; i < len; i++) {
        uint8_t t = g->ln->tile[L + i];
        if (t) {
            if ((t & WS_LETTER_MASK) != w[i]) return;
        } else {
            if (!(g->ln->cross[L + i] >> w[i] & 1)) return;
            score += coef[i] * g->rules.tile_value[w[i]];
        }
    }
    unsigned b0 = hit->blank_letter[0], b1 = hit->blank_letter[1];
    if (!b0) {
        wordmap_record(g, w, len, L, 0, score, n, leave);
        return;
    }
    unsigned c0 = 0, c1 = 0;
    for (int i = 0; i < len; i++) {
        if (g->ln->tile[L + i]) continue;
        if (w[i] == b0) c0 |= 1u << i;
        else if (b1 && w[i] == b1) c1 |= 1u << i;
    }
    int v0 = g->rules.tile_value[b0], v1 = b1 ? g->rules.tile_value[b1] : 0;
    if (g->real_first) {
        int i = cheapest_square(coef, c0, v0, -1);
        unsigned mask = 1u << i;
        score -= coef[i] * v0;
        if (b1 == b0) {
            int j = cheapest_square(coef, c0, v0, i);
            mask |= 1u << j;
            score -= coef[j] * v0;
        } else if (b1) {
            int j = cheapest_square(coef, c1, v1, -1);
            mask |= 1u << j;
            score -= coef[j] * v1;
        }
        wordmap_record(g, w, len, L, mask, score, n, leave);
        return;
    }
    for (unsigned x = c0; x; x &= x - 1) {
        int i = __builtin_ctz(x);
        int s1 = score - coef[i] * v0;
        if (!b1) {
            wordmap_record(g, w, len, L, 1u << i, s1, n, leave);
        } else if (b1 == b0) {
            for (unsigned y = x & (x - 1); y; y &= y - 1) {
                int j = __builtin_ctz(y);
                wordmap_record(g, w, len, L, (1u << i) | (1u << j), s1 - coef[j] * v0, n, leave);
            }
        } else {
            for (unsigned y = c1; y; y &= y - 1) {
                int j = __builtin_ctz(y);
                wordmap_record(g, w, len, L, (1u << i) | (1u << j), s1 - coef[j] * v1, n, leave);
            }
        }
    }
}

/* The start squares of a class (bits of `starts`), and for each the score of its board
 * part (board tiles * W + cross terms + bingo) and the factor lm * (W + cross word
 * multiplier) of each new tile's value (0 on board squares); returns their number. */
static int class_starts(const WsGen *g, unsigned starts, int len, int bingo, int *start, int *base,
                        int (*coef)[WS_DIM]) {
    const WsLane *ln = g->ln;
    int ns = 0;
    for (; starts; starts &= starts - 1) {
        int L = __builtin_ctz(starts), W = 1, board = 0, cross = 0;
        for (int i = 0; i < len; i++) {
            int sq = L + i;
            if (ln->tile[sq]) {
                board += ln->tile_value[sq];
            } else {
                W *= ln->wm[sq];
                cross += ln->cross_base[sq];
            }
        }
        for (int i = 0; i < len; i++) {
            int sq = L + i;
            coef[ns][i] = ln->tile[sq] ? 0 : ln->lm[sq] * W + ln->cross_mult[sq];
        }
        start[ns] = L;
        base[ns] = board * W + cross + bingo;
        ns++;
    }
    return ns;
}

#define WS_MAX_HITS (WS_MAX_LETTERS * (WS_MAX_LETTERS + 1) / 2) /* two blanks: every unordered pair of letters */

/* A class being read: its starts (made when the first sub-rack needs them) with the
 * score of the board part and the factor of each new tile's value; sorted: the new
 * squares' factors, descending, for the bound of a sub-rack. */
typedef struct ClassRead {
    const WsSubAnchor *s;
    int n, len, bingo, ns, have_starts, have_sorted;
    int start[WS_DIM], base[WS_DIM], coef[WS_DIM][WS_DIM], sorted[WS_DIM][WS_RACK_MAX];
} ClassRead;

static inline void class_read_starts(const WsGen *g, ClassRead *c) {
    if (!c->have_starts) {
        c->ns = class_starts(g, c->s->starts, c->len, c->bingo, c->start, c->base, c->coef);
        c->have_starts = 1;
    }
}

/* Each word of the hits fitted at each start of the class (out of line: the two loops
 * of wordmap_read call it, and keep their registers). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void class_read_place(WsGen *g, ClassRead *c, const WsWordMapHit *hits, size_t nh, float leave) {
    const WsWordMap *m = g->wordmap;
    class_read_starts(g, c);
    for (size_t h = 0; h < nh; h++) {
        uint32_t e = hits[h].entry;
        const uint8_t *w = m->letters + m->word_offset[e];
        const uint8_t *end = m->letters + m->word_offset[e + 1];
        for (; w < end; w += c->len)
            for (int k = 0; k < c->ns; k++)
                wordmap_place(g, w, c->len, c->start[k], c->base[k], c->coef[k], &hits[h], c->n, leave);
    }
}

/* Every move of a span class: for each sub-rack of n tiles, the words of its letters
 * plus the class's board letters (blanks resolved by the map), fitted at each start.
 * Through 0 or 1 board letters the sub-racks without blanks that spell words are the
 * rack's word list of the row (their entries known, see word_sub), and the others are
 * those with blanks; through more, every sub-rack of n tiles is looked up. */
static void wordmap_read(WsGen *g, const WsAnchor *a, const WsSubAnchor *s) {
    const WsWordMap *m = g->wordmap;
    int n = s->n;
    WsRackKey through;
    unsigned through_letter; /* the last board letter met */
    int bt = class_through(g->ln, a->pos, s->blocks, &through, &through_letter);
    ClassRead c;
    c.s = s;
    c.n = n;
    c.len = n + bt;
    c.bingo = n == g->rules.bingo_tiles ? g->rules.bingo_bonus : 0;
    c.have_starts = c.have_sorted = 0;
    c.ns = 0;
    uint64_t through_premix = ws_rack_key_premix(through); /* a sub-rack's key's: its premix plus this */
    WsWordMapHit hits[WS_MAX_HITS];
    /* the leave test's terms in locals: they change only where moves are recorded */
    const int equity = g->mode == 2;
    const float bound = (float)s->bound;
    int gate = equity && (g->count == g->best_n || g->floored);
    float bar = g->threshold_equity;
    /* by equity, once n moves are kept: no move of the class scores more than its bound,
     * and every move of a sub-rack keeps the same leave, so when the two cannot reach the
     * n-th best equity the sub-rack is not looked up (wordmap_record would refuse each of
     * its moves: float addition is monotone) */
    const uint8_t *list = NULL; /* the sub-racks of the general loop below (NULL: all of n tiles) */
    int first = g->subrack_first[n], count = g->subrack_first[n + 1] - first;
    if (bt < 2) {
        unsigned row = bt ? through_letter : 0;
        if (g->word_stamp[row][n] != g->subrack_stamp) make_word_list(g, row, n, through, through_premix, (unsigned)c.len);
        const uint8_t *words = &g->word_sub[row][first];
        const uint32_t *entry = &g->word_entry[row][first];
        for (int q = 0, nw = g->word_count[row][n]; q < nw; q++) {
            float leave = g->leave_value[g->subracks[words[q]].keep];
            if (gate && bound + leave < bar) continue;
            hits[0].entry = entry[q];
            hits[0].blank_letter[0] = hits[0].blank_letter[1] = 0;
            class_read_place(g, &c, hits, 1, leave);
            gate = equity && (g->count == g->best_n || g->floored);
            bar = g->threshold_equity;
        }
        list = &g->blank_subracks[g->blank_first[n]];
        count = g->blank_first[n + 1] - g->blank_first[n];
    }
    /* A sub-rack with blanks is dear on a new position: its extend word, then the filter
     * word and slot of each letter it gives, all likely misses.  Without the leave test
     * (by score, or before n moves are kept by equity) each is looked up, so the extend
     * words of all of them are prefetched before the first lookup and their misses
     * overlap (ws_wordmap_lookup does the same for the letters).  Prefetching the plain
     * sub-racks' filter words too, or with the test on, gained nothing measurable and
     * cost instructions (the test refuses most sub-racks, and the bar rises). */
    if (!gate && g->rack[0]) {
        for (int q = 0; q < count; q++) {
            const WsSubrack *sr = &g->subracks[list ? list[q] : first + q];
            if (sr->blanks) ws_wordmap_prefetch_extend(m, ws_rack_key_mix(sr->premix + through_premix));
        }
    }
    for (int q = 0; q < count; q++) {
        const WsSubrack *sr = &g->subracks[list ? list[q] : first + q];
        float leave = g->leave_value[sr->keep];
        if (gate && bound + leave < bar) continue;
        if (sr->blanks && (g->count == g->best_n || g->floored)) {
            /* once n moves are kept: skip a sub-rack with blanks (dear to look up: a probe
             * per letter a blank may be) that no start lets reach the n-th best: its
             * values descending paired with a start's new squares' factors descending
             * bound what it scores there */
            class_read_starts(g, &c);
            if (!c.have_sorted) {
                for (int j = 0; j < c.ns; j++) {
                    int k = 0;
                    for (int i = 0; i < c.len; i++)
                        if (!g->ln->tile[c.start[j] + i]) insert_key(c.sorted[j], &k, c.coef[j][i]);
                }
                c.have_sorted = 1;
            }
            int most = INT_MIN;
            for (int j = 0; j < c.ns; j++) {
                int b = c.base[j];
                for (int i = 0; i < n; i++) b += c.sorted[j][i] * sr->value[i];
                if (b > most) most = b;
            }
            if (g->mode == 2 ? (float)most + leave < g->threshold_equity : most < g->threshold) continue;
        }
        WsRackKey key = ws_rack_key_add(sr->key, through);
        size_t nh = 0;
        g->wordmap_lookups++;
        if (sr->blanks == 0) {
            int32_t e = ws_wordmap_find_premixed(m, key, sr->premix + through_premix, (unsigned)c.len);
            if (e < 0) continue;
            hits[0].entry = (uint32_t)e;
            hits[0].blank_letter[0] = hits[0].blank_letter[1] = 0;
            nh = 1;
        } else {
            /* with one move wanted, a blank never stands for a letter the rack still holds */
            ws_wordmap_lookup(m, key, sr->blanks, g->real_first ? ~sr->spare : ~0ull, hits, WS_MAX_HITS, &nh);
            if (!nh) continue;
        }
        class_read_place(g, &c, hits, nh, leave);
        gate = equity && (g->count == g->best_n || g->floored);
        bar = g->threshold_equity;
    }
}

/* The GADDAG walk of a whole anchor (one whose classes did not fit the class pool). */
static void walk_anchor(WsGen *g, WsAnchor *a) {
    gen_anchor(g, a->pos, (int)a->boundary_plus_one - 1);
    a->walked = 1;
    g->anchors_visited++;
}

static inline int heap_above(const WsHeapItem *x, const WsHeapItem *y) { return x->key > y->key; }

static void heap_push(WsGen *g, float key, int anchor, int sub) {
    int i = g->heap_count++;
    WsHeapItem it = {key, (int16_t)anchor, (int16_t)sub};
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!heap_above(&it, &g->heap[parent])) break;
        g->heap[i] = g->heap[parent];
        i = parent;
    }
    g->heap[i] = it;
}

static WsHeapItem heap_pop(WsGen *g) {
    WsHeapItem top = g->heap[0], last = g->heap[--g->heap_count];
    int i = 0, n = g->heap_count;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heap_above(&g->heap[c + 1], &g->heap[c])) c++;
        if (!heap_above(&g->heap[c], &last)) break;
        g->heap[i] = g->heap[c];
        i = c;
    }
    if (n) g->heap[i] = last;
    return top;
}

/* The cache's entry for the lane of direction d, or NULL when the lane is not the root's
 * or the entry holds no shadows. */
static inline WsLaneEntry *cached_lane(WsLaneCache *c, uint32_t same, int d, int lane) {
    if (!(same >> (d * WS_DIM + lane) & 1)) return NULL;
    WsLaneEntry *e = &c->lanes[d][lane];
    return e->state == 1 ? e : NULL;
}

/* Best first over the heap's anchors and their span classes: an anchor that comes up is
 * split into its classes; a class that comes up is read from the word map (or its anchor
 * walked); the search stops when the next bound is below the n-th best found.  With a
 * lane cache (ws_gen_best_equity_pool, one move by equity): an item of anchor -1 is the
 * known best move of the lane numbered `sub` (d * 15 + lane), taken as a move, and the
 * classes of a cached lane enter with their keys capped by the lane's bound. */
static void search_classes(WsGen *g, size_t n, WsLaneCache *c, uint32_t same) {
    int by_equity = g->mode == 2;
    int cur_d = -1, cur_lane = -1;
    while (g->heap_count) {
        if (g->stop_first && g->count) break;
        WsHeapItem it = heap_pop(g);
        if ((g->count == n || g->floored) && it.key < (by_equity ? g->threshold_equity : (float)g->threshold)) break;
        if (it.anchor < 0) { /* a lane's best move, known */
            const WsLaneEntry *e = &c->lanes[it.sub / WS_DIM][it.sub % WS_DIM];
            if (!g->count || better_equity(&e->move, e->equity, &g->out[0], g->out_equity[0])) {
                g->out[0] = e->move;
                g->out_equity[0] = e->equity;
                g->count = 1;
                g->threshold_equity = e->equity;
            }
            continue;
        }
        WsAnchor *a = &g->anchors[it.anchor];
        if (a->walked) continue;
        if (a->direction != cur_d || a->lane != cur_lane) {
            load_lane(g, a->direction, a->lane);
            cur_d = a->direction;
            cur_lane = a->lane;
        }
        if (it.sub < 0 && a->sub_count > 0) {
            const WsLaneEntry *e = c ? cached_lane(c, same, a->direction, a->lane) : NULL;
            float cap = e ? e->ub : HUGE_VALF;
            for (int j = a->sub_first; j < a->sub_first + a->sub_count; j++) {
                const WsSubAnchor *s = &g->subs[j];
                float key = by_equity ? s->bound_equity : (float)s->bound;
                heap_push(g, key < cap ? key : cap, it.anchor, j);
            }
            continue;
        }
        if (it.sub < 0) {
            walk_anchor(g, a);
            continue;
        }
        wordmap_read(g, a, &g->subs[it.sub]);
        g->wordmap_reads++;
    }
}

/* The set-up of a bounded search for the n best moves into out (g->mode set by the
 * caller): the thresholds, the counters, the rack's sub-racks or anagram checks. */
static void begin_search(WsGen *g, WsMove *out, size_t n) {
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
    g->threshold_equity = g->floored ? g->floor_equity : -HUGE_VALF;
    g->min_tiles = g->board.tile_count == 0 ? 2 : 1;
    g->anchor_count = 0;
    g->anchors_visited = 0;
    g->wordmap_reads = 0;
    g->wordmap_lookups = 0;
    g->sub_total = 0;
    g->bingo7_possible = -1;
    /* the map resolves at most two blanks (a rack may hold more in some tile sets) */
    g->classes = g->wordmap && g->rack[0] <= 2;
    if (g->classes) {
        prepare_subracks(g);
    } else {
        memset(g->through8, -1, sizeof g->through8);
        memset(g->through9, -1, sizeof g->through9);
    }
    g->fit_lane = -1;
    g->heap_count = 0;
}

/* The bounded search of ws_gen_best and ws_gen_best_equity (g->mode set by the caller). */
static int best_search(WsGen *g, WsMove *out, size_t n, size_t *count) {
    int by_equity = g->mode == 2;
    begin_search(g, out, n);
    for_each_anchor(g, collect_anchor);
    if (g->classes) {
        for (int i = 0; i < g->anchor_count; i++) {
            const WsAnchor *a = &g->anchors[i];
            heap_push(g, by_equity ? a->bound_equity : (float)a->bound, i, -1);
        }
        search_classes(g, n, NULL, 0);
        *count = g->count;
        return WS_OK;
    }
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
        if (g->stop_first && g->count) break;
        if ((g->count == n || g->floored) &&
            (by_equity ? a->bound_equity < g->threshold_equity : a->bound < g->threshold))
            break;
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
    g->floored = g->stop_first = 0;
    return best_search(g, out, n, count);
}

int ws_gen_best_equity(WsGen *g, WsMove *out, float *equity, size_t n, size_t *count) {
    if (!g->board_valid || n == 0 || !equity) return WS_E_ARGUMENT;
    g->mode = 2;
    g->floored = g->stop_first = 0;
    g->out_equity = equity;
    return best_search(g, out, n, count);
}

/* ------------------------------------------------------------------------ */
/* Best by equity with a lane cache                                         */
/* ------------------------------------------------------------------------ */

static void lane_cache_reset(WsLaneCache *cache) {
    cache->valid = 0;
    for (int d = 0; d < 2; d++)
        for (int lane = 0; lane < WS_DIM; lane++) cache->lanes[d][lane].state = 0;
}

void ws_lane_pool_init(WsLanePool *pool, const WsGen *root) {
    memcpy(pool->root, root->board.lanes, sizeof pool->root);
    pool->tick = 0;
    for (int i = 0; i < WS_LANE_CACHES; i++) {
        pool->used[i] = 0;
        lane_cache_reset(&pool->caches[i]);
    }
}

/* Whether a cache was made for the generator's rack and equity terms. */
static int lane_cache_fits(const WsLaneCache *c, const WsGen *g) {
    return c->valid && !memcmp(c->rack, g->rack, sizeof c->rack) && c->leaves == g->leaves &&
           c->wordmap == g->wordmap && c->endgame == g->endgame && c->out_value == g->out_value &&
           c->keep_factor == g->keep_factor;
}

int ws_gen_best_equity_pool(WsGen *g, WsLanePool *pool, WsMove *out, float *equity, size_t *count) {
    if (!g->board_valid || !equity || !pool) return WS_E_ARGUMENT;
    if (!g->wordmap || g->rack[0] > 2 || g->board.tile_count == 0) return ws_gen_best_equity(g, out, equity, 1, count);
    g->mode = 2;
    g->floored = g->stop_first = 0;
    g->out_equity = equity;
    /* the lanes that are the root's */
    uint32_t same = 0;
    for (int d = 0; d < 2; d++)
        for (int lane = 0; lane < WS_DIM; lane++)
            if (!memcmp(&g->board.lanes[d][lane], &pool->root[d][lane], sizeof(WsLane)))
                same |= 1u << (d * WS_DIM + lane);
    /* the cache of this context, or the least recently used one made over for it */
    int pick = 0, fits = 0;
    for (int i = 0; i < WS_LANE_CACHES && !fits; i++) {
        fits = lane_cache_fits(&pool->caches[i], g);
        if (fits || pool->used[i] < pool->used[pick]) pick = i;
    }
    pool->used[pick] = ++pool->tick;
    WsLaneCache *c = &pool->caches[pick];
    if (!fits) {
        lane_cache_reset(c);
        memcpy(c->rack, g->rack, sizeof c->rack);
        c->leaves = g->leaves;
        c->wordmap = g->wordmap;
        c->endgame = g->endgame;
        c->out_value = g->out_value;
        c->keep_factor = g->keep_factor;
        c->valid = 1;
    }
    begin_search(g, out, 1); /* span classes: a map, at most two blanks (checked above) */
    /* the anchors: a lane of the root whose shadows are kept comes from the cache (its
     * keys no more than its bound, or its best move alone when that is known); another
     * is shadowed, and kept when it is the root's */
    for (int d = 0; d < 2; d++) {
        for (int lane = 0; lane < WS_DIM; lane++) {
            if (!(g->board.lane_active[d] >> lane & 1)) continue;
            int bit = d * WS_DIM + lane;
            WsLaneEntry *e = cached_lane(c, same, d, lane);
            if (e) {
                if (e->exact) {
                    if (e->has_move) heap_push(g, e->equity, -1, (int)bit);
                    continue;
                }
                for (int i = 0; i < e->anchor_count; i++) {
                    WsAnchor *a = &g->anchors[g->anchor_count];
                    *a = e->anchors[i];
                    a->walked = 0;
                    if (a->sub_count && g->sub_total + a->sub_count <= WS_MAX_SUBS) {
                        memcpy(&g->subs[g->sub_total], &e->subs[a->sub_first], a->sub_count * sizeof *e->subs);
                        a->sub_first = (uint16_t)g->sub_total;
                        g->sub_total += a->sub_count;
                    } else {
                        a->sub_count = 0; /* no room: the anchor is walked */
                    }
                    heap_push(g, a->bound_equity < e->ub ? a->bound_equity : e->ub, g->anchor_count, -1);
                    g->anchor_count++;
                }
                continue;
            }
            int first = g->anchor_count, sub_first = g->sub_total;
            load_lane(g, d, lane);
            lane_anchors(g, collect_anchor);
            for (int i = first; i < g->anchor_count; i++) heap_push(g, g->anchors[i].bound_equity, i, -1);
            if (!(same >> bit & 1)) continue;
            e = &c->lanes[d][lane];
            int subs = g->sub_total - sub_first, complete = subs <= WS_LANE_SUBS;
            for (int i = first; i < g->anchor_count && complete; i++) complete = g->anchors[i].sub_count > 0;
            if (!complete) { /* a class left out (no room): keep nothing */
                e->state = -1;
                continue;
            }
            e->state = 1;
            e->exact = 0;
            e->has_move = 0;
            e->ub = HUGE_VALF;
            e->anchor_count = g->anchor_count - first;
            e->sub_count = subs;
            memcpy(e->anchors, &g->anchors[first], (size_t)e->anchor_count * sizeof *e->anchors);
            for (int i = 0; i < e->anchor_count; i++) e->anchors[i].sub_first = (uint16_t)(e->anchors[i].sub_first - sub_first);
            memcpy(e->subs, &g->subs[sub_first], (size_t)subs * sizeof *e->subs);
        }
    }
    search_classes(g, 1, c, same);
    *count = g->count;
    if (g->poll_stopped) return WS_OK; /* an unfinished search proves nothing */
    /* what the search proved about the root's lanes: no move anywhere (it ran to the end),
     * the best move's lane holds it, every other lane nothing above it */
    int best_bit = -1;
    if (g->count) best_bit = out[0].direction * WS_DIM + (out[0].direction == 0 ? out[0].row : out[0].col);
    for (int d = 0; d < 2; d++) {
        for (int lane = 0; lane < WS_DIM; lane++) {
            WsLaneEntry *e = cached_lane(c, same, d, lane);
            if (!e || e->exact || !(g->board.lane_active[d] >> lane & 1)) continue;
            if (!g->count) {
                e->exact = 1;
                e->has_move = 0;
            } else if (d * WS_DIM + lane == best_bit) {
                e->exact = 1;
                e->has_move = 1;
                e->move = out[0];
                e->equity = equity[0];
            } else if (equity[0] < e->ub) {
                e->ub = equity[0];
            }
        }
    }
    return WS_OK;
}

int ws_gen_exceeds_equity(WsGen *g, double bar, int *exists) {
    WsMove m;
    float e = 0.0f;
    size_t found = 0;
    *exists = 0;
    if (!g->board_valid || isnan(bar)) return WS_E_ARGUMENT;
    /* the least float over bar: (float)bar rounds to the nearest, so when it lies above
     * bar no float lies between them, and else the next float up does */
    float floor = (float)bar;
    if ((double)floor <= bar) floor = nextafterf(floor, HUGE_VALF);
    g->mode = 2;
    g->floored = 1;
    g->stop_first = 1;
    g->floor_equity = floor;
    g->out_equity = &e;
    int rc = best_search(g, &m, 1, &found);
    g->floored = g->stop_first = 0;
    if (rc != WS_OK) return rc;
    *exists = found && (double)e > bar;
    return WS_OK;
}

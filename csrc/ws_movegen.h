/* Move generation: cross sets, anchors, GADDAG traversal, scoring, best move. */
#ifndef WS_MOVEGEN_H
#define WS_MOVEGEN_H

#include "ws_defs.h"
#include "ws_leaves.h"

/* Rules as the generator sees them (filled once from the Python Rules object). */
typedef struct WsRules {
    uint8_t letter_mult[WS_SQUARES]; /* 1, 2, 3 (row-major) */
    uint8_t word_mult[WS_SQUARES];   /* 1, 2, 3 */
    int16_t square_bonus[WS_SQUARES]; /* flat bonus for a new tile on the square (star squares) */
    int16_t tile_value[WS_MAX_LETTERS + 1]; /* by letter code; [0] unused (blanks score 0) */
    int32_t bingo_bonus;
    int32_t bingo_tiles;   /* tiles placed that earn the bonus (the rack size, 7) */
    int32_t start_square;  /* row*15 + col */
    int32_t alphabet_size; /* letters 1..alphabet_size */
} WsRules;

/* One move: 28 bytes, the layout of the numpy dtype (checked at import).  The score
 * is int32: the heaviest play the rule limits allow (tile values 100, every square
 * 3W, bonuses 1000) scores about 3.3 million, far past int16. */
typedef struct WsMove {
    int32_t score;
    uint16_t blank_mask;  /* bit i: tiles[i] is a blank */
    uint8_t row;          /* first square of the whole main word */
    uint8_t col;
    uint8_t direction;    /* 0 across, 1 down */
    uint8_t length;       /* squares of the main word, played-through tiles included */
    uint8_t tiles_played; /* new tiles */
    uint8_t tiles[15];    /* letter code of each new tile; 0 = tile already on the board */
    uint8_t pad[2];       /* always zero (keeps records byte-comparable) */
} WsMove;

/* Board data the generator derives from the tiles; per direction, lane-major. */
typedef struct WsBoardData {
    uint8_t tiles[2][WS_SQUARES];
    uint64_t cross_set[2][WS_SQUARES];
    int16_t cross_score[2][WS_SQUARES];
    uint8_t letter_mult[2][WS_SQUARES]; /* 1 once the square is occupied */
    uint8_t word_mult[2][WS_SQUARES];
    int16_t bonus[2][WS_SQUARES];
    uint16_t lane_active[2];            /* bit lane: the lane has a tile or a hook */
    int32_t tile_count;
} WsBoardData;

typedef struct WsAnchor {
    int32_t bound;
    float bound_equity; /* equity mode: bound + best leave value for the tiles kept */
    uint8_t direction, lane, pos, boundary_plus_one; /* leftmost allowed = boundary_plus_one */
} WsAnchor;

#define WS_MAX_ANCHORS (2 * WS_SQUARES)

/* Generator working memory: one per thread.  No allocation happens in a search. */
typedef struct WsGen {
    const uint32_t *nodes;
    uint32_t node_count;
    WsRules rules;
    uint64_t all_letters; /* bits 1..alphabet_size */

    WsBoardData board;
    uint8_t prev_tiles[WS_SQUARES];
    int32_t board_valid;

    /* rack */
    uint8_t rack[WS_MAX_LETTERS + 1]; /* [0] = blanks */
    uint64_t rack_letters;            /* letters with a count > 0 */
    int32_t rack_total;

    /* lane cache (current direction and lane) */
    int32_t direction, lane;
    uint8_t lane_tile[WS_DIM + 1];
    int16_t lane_tile_value[WS_DIM + 1];
    uint64_t lane_cross[WS_DIM + 1];
    int32_t lane_lm[WS_DIM + 1];
    int32_t lane_wm[WS_DIM + 1];
    int32_t lane_cross_mult[WS_DIM + 1]; /* lm*wm if the square has a cross word, else 0 */
    int32_t lane_cross_base[WS_DIM + 1]; /* cross_score*wm if cross word, + square bonus */
    uint8_t lane_has_cross[WS_DIM + 1];
    int16_t lane_max_fit[WS_DIM + 1];   /* best mode: highest value of a rack tile that fits */

    /* search state */
    int32_t anchor, boundary; /* leftmost allowed position is boundary + 1 */
    int32_t leftmost;
    int32_t first_pos;
    int32_t min_tiles;
    uint8_t strip[32];

    /* equity: the value of keeping each sub-multiset of the rack, computed by
     * ws_gen_set_rack (at most 2^7 entries), indexed by a mixed radix over the
     * rack's distinct tile types: index = sum over types of kept count * weight */
    const WsLeaves *leaves;             /* leave table (values by rank), or NULL */
    int32_t endgame;                    /* bag empty: values from the settlement terms */
    float out_value;                    /* endgame: the value of keeping nothing (going out) */
    float keep_factor;                  /* endgame: a kept tile costs keep_factor x its face value */
    int32_t leave_types;                /* distinct tile types on the rack */
    uint8_t leave_type[WS_RACK_MAX];    /* their tile codes (0 = blank) */
    int32_t leave_weight[WS_RACK_MAX];  /* their radix weights */
    int32_t leave_count;                /* entries of leave_value: prod(count + 1) */
    float leave_value[1 << WS_RACK_MAX];
    float leave_best[WS_RACK_MAX + 1];  /* best leave value for each number of tiles kept */

    /* output */
    int32_t mode; /* 0 = all moves, 1 = best n by score, 2 = best n by equity */
    /* best move only (n = 1) and every leave of a size worth the same but for face
     * values (no table, or the end game): a blank never stands for a letter the rack
     * still holds, and record() moves blanks to the squares where they cost least */
    int32_t real_first;
    uint8_t rack_at_start[WS_MAX_LETTERS + 1]; /* the rack when the search began */
    WsMove *out;
    size_t capacity;
    size_t count;
    size_t best_n;
    int32_t threshold; /* best mode: a move must score at least this to enter */
    float *out_equity;       /* equity mode: the equity of each move in out */
    float threshold_equity;  /* equity mode: a move must have at least this equity to enter */

    /* best mode */
    WsAnchor anchors[WS_MAX_ANCHORS];
    int32_t anchor_count;
    int32_t anchors_visited; /* best mode: anchors whose moves were generated */
    int16_t rack_values_desc[WS_RACK_MAX + 1];
    int32_t bingo7_possible; /* best mode: the rack alone anagrams to a word of rack size */
    /* best mode: sorted alphagram keys of the 8-letter words (ws_graph_alphagrams), or
     * NULL; through8 bit L = the rack plus letter L spells an 8-letter word */
    const uint64_t *alphagrams8;
    size_t alphagrams8_count;
    const uint64_t *alphagrams9;
    size_t alphagrams9_count;
    int8_t through8[WS_MAX_LETTERS + 1];                    /* -1 unknown, 0 no, 1 yes */
    int8_t through9[WS_MAX_LETTERS + 1][WS_MAX_LETTERS + 1]; /* [L1][L2], L1 <= L2 */
} WsGen;

/* Sets up a generator for a graph (already validated) and rules. */
int ws_gen_init(WsGen *g, const uint32_t *nodes, uint32_t node_count, const WsRules *rules);

/* Loads a board (225 tile codes, row-major).  Cross sets are recomputed only in
 * the lanes a change touches (diff against the previous board). */
int ws_gen_set_board(WsGen *g, const uint8_t *tiles);

/* Gives best-move search the sorted 8-letter alphagram keys of the lexicon (or NULL);
 * the array must outlive the generator's use of it. */
void ws_gen_set_alphagrams8(WsGen *g, const uint64_t *keys, size_t count);
void ws_gen_set_alphagrams9(WsGen *g, const uint64_t *keys, size_t count);

/* Sets the rack: counts per tile code, [0] = blanks. */
int ws_gen_set_rack(WsGen *g, const uint8_t *rack);

/* The swap that keeps the best leave of the current rack (the values that
 * ws_gen_set_equity and ws_gen_set_rack gave leave_value): the index into leave_value
 * of the sub-multiset kept, or -1 when no swap is allowed: an empty rack, a bag of
 * bag < max(1, min_bag) tiles; with whole_rack only the whole rack, with must_cover no
 * more tiles than the bag holds.  Ties: more tiles kept, then the kept tiles first in
 * the order of ranking's ranks (NULL: index order). */
int ws_gen_best_swap(const WsGen *g, const WsLeaves *ranking, int bag, int min_bag, int whole_rack, int must_cover);

/* Equity terms for the next racks: a leave table (values by rank; NULL: every leave
 * is worth 0), or with endgame = 1 the settlement terms: keeping nothing is worth
 * out_value, keeping tiles costs keep_factor x their face value.  Call before
 * ws_gen_set_rack, which computes the value of every sub-multiset of the rack and
 * returns WS_E_ARGUMENT when one is not in the table (more of a tile than the
 * tile set holds).  The table must outlive the generator's use of it. */
void ws_gen_set_equity(WsGen *g, const WsLeaves *leaves, int endgame, float out_value, float keep_factor);

/* Every legal move of the current board and rack, appended to out.  When more
 * moves exist than capacity, the count is still exact and WS_E_CAPACITY is
 * returned (nothing past capacity is written). */
int ws_gen_all(WsGen *g, WsMove *out, size_t capacity, size_t *count);

/* The n best moves by score (ties ordered by ws_move_compare), sorted, in out[0..n). */
int ws_gen_best(WsGen *g, WsMove *out, size_t n, size_t *count);

/* The n best moves by equity (score + the value of the tiles kept; see
 * ws_gen_set_equity), sorted, with their equity in equity[0..n); ties: higher score
 * first, then ws_move_compare. */
int ws_gen_best_equity(WsGen *g, WsMove *out, float *equity, size_t n, size_t *count);

/* Tie order of moves with equal score: 0 when equal, <0 when a comes first. */
int ws_move_compare(const WsMove *a, const WsMove *b);

/* Cross set of one square as computed from scratch (the oracle for tests). */
uint64_t ws_gen_cross_set(const WsGen *g, int direction, int square, int16_t *cross_score);

#endif

/* Exact endgame solver: the bag is empty, both racks are known, two players.
 *
 * Negamax with alpha-beta (principal-variation search: null windows, re-searched on a
 * fail high), iterative deepening, a transposition table keyed by the game state's
 * Zobrist hash (board, both racks as tile counts, player on turn, pass and scoreless
 * counters; ws_game.h), move ordering from the table's best move of the previous
 * iteration and a static estimate (score, plus the settlement of going out).  Every
 * legal tile play (ws_gen_all on the mover's rack) and the pass are searched; no move
 * is pruned.  The turns are the game state's own (ws_game_play, ws_game_pass,
 * ws_game_undo), so the end of the game (going out, the rule set's pass and
 * scoreless-turn limits) and its settlement are the rule set's.
 *
 * Values: the GAIN of a node is the spread (mover's score minus the other's) at the end
 * of best play less the spread now, settlement included; the solver's answer is the
 * root's gain.  A node cut off by the depth limit counts 0 and TAINTS the result; a
 * table entry records whether its value was found without a cut-off (COMPLETE: valid at
 * any depth).  An iteration whose root is untainted is the exact minimax value.
 *
 * Counter reduction (see docs/endgame.md): when no scoreless tile play can occur (no
 * zero-score play is possible: every letter is worth a point and no rack holds a blank,
 * or one blank is in play, or one is on a rack and the other on the board with no square
 * where a word of the two could stand alone), a position's value depends on
 * the pass/scoreless counters only through whether ONE more pass ends the game.  The
 * solver then raises the counters so that at most two passes end the game (that keeps
 * lines short and lets transpositions meet); otherwise it searches the real counters.
 *
 * Memory: the caller allocates ws_endgame_size() bytes, the table (a power of two of
 * WsEgEntry) and the move stack (WsMove and WsEgOrder arrays of the same capacity) once;
 * nothing is allocated in the search.
 *
 * Threads (lazy SMP): helpers added with ws_endgame_add_helper (each its own
 * ws_endgame_size() bytes and move stack) search the same root on their own threads
 * during ws_endgame_solve, sharing the table (entries written and read without locks:
 * an entry's key is stored XORed with its data, so a torn entry never matches).  The
 * answer is the calling thread's search alone, which is exact whatever the helpers
 * wrote (every entry is a true bound); they only fill the table sooner.  Helpers are
 * not started with a node limit (the result would depend on their timing).
 *
 * Time: the clock is read before every move generation and inside long generations
 * (every EG_POLL_STEPS steps of the word-graph walk), so a limit is kept however slow
 * one node is (a rack of many blanks).
 */
#ifndef WS_ENDGAME_H
#define WS_ENDGAME_H

#include "ws_defs.h"
#include "ws_game.h"
#include "ws_movegen.h"

#define WS_EG_MAX_PLY 128

/* why ws_endgame_solve stopped (WsEgResult.stop) */
#define WS_EG_EXACT 0     /* proven */
#define WS_EG_DEADLINE 1  /* the time limit: the last completed iteration, not proven */
#define WS_EG_MAX_DEPTH 2 /* max_depth reached without a proof */

/* A table entry, three words written and read one by one (shared between threads):
 * data = value (low 32 bits, signed) | best << 32, where best is 1 + the index of the
 * best move in generation order (the pass: the count; 0: none); meta = depth | flags << 8
 * (bound: 1 exact, 2 lower, 3 upper; | 4: complete); check = the state's key ^ data ^ meta. */
typedef struct WsEgEntry {
    uint64_t check;
    uint64_t data;
    uint64_t meta;
} WsEgEntry;

typedef struct WsEgOrder {
    int64_t key;    /* higher first */
    uint32_t index; /* into the node's moves; == count: the pass */
    uint32_t pad;
} WsEgOrder;

/* One turn of a line: a play (kind WS_TURN_PLAY, move) or a pass (WS_TURN_PASS). */
typedef struct WsEgStep {
    WsMove move;
    int32_t kind;
} WsEgStep;

typedef struct WsEgResult {
    int32_t value;      /* the final spread for the side to move (its score - the other's), settlement included */
    int32_t gain;       /* value - the spread now */
    int32_t exact;      /* 1: proven */
    int32_t stop;       /* WS_EG_* */
    int32_t depth;      /* the last completed iteration */
    int32_t pv_count;
    int32_t replay_value; /* the final spread of the line replayed by the real rules (exact results) */
    int32_t replay_over;  /* 1: the replayed line ends the game */
    int64_t nodes;      /* turns made in the search */
    double seconds;     /* wall clock */
    WsEgStep pv[WS_EG_MAX_PLY];
} WsEgResult;

/* What a running solve has found so far (ws_endgame_progress, from any thread). */
typedef struct WsEgProgress {
    int32_t depth;      /* the last completed iteration of the calling thread (0: none yet) */
    int32_t value;      /* its value: the final spread for the side to move */
    int32_t exact;      /* 1: that iteration proved it */
    int32_t pv_count;
    int64_t nodes;      /* turns made so far, helpers included */
    double seconds;     /* since the solve started */
    WsEgStep pv[WS_EG_MAX_PLY]; /* its line */
} WsEgProgress;

#define WS_EG_MAX_THREADS 64

typedef struct WsEndgame WsEndgame;

size_t ws_endgame_size(void);

/* Sets up a solve in caller-owned memory: the position (copied: two players, the bag
 * empty, the game running), a generator made for its board rules and lexicon (copied;
 * its read-only data must outlive the solve), the table (entries: a power of two >= 1024,
 * cleared here) and the move stack (capacity >= 4096).  WS_E_ARGUMENT: not two players, a
 * bag with tiles, the game over, a rule set that lets a player swap with an empty bag
 * or has no pass limit (a game that might never end), a bad table or stack. */
int ws_endgame_setup(WsEndgame *E, const WsGame *root, const WsGen *proto, WsEgEntry *table, size_t entries,
                     WsMove *moves, WsEgOrder *order, size_t capacity);

/* Solves: iterative deepening until a proof, `seconds` (> 0; 0 = no limit: until the
 * proof), `max_nodes` turns searched (> 0; 0 = no limit; unlike a time limit the same
 * on every machine: the result is the last iteration completed within it) or max_depth
 * (1..WS_EG_MAX_PLY).  WS_OK, or WS_E_CAPACITY: the move stack was
 * too small (the result then holds the last completed iteration, not exact). */
int ws_endgame_solve(WsEndgame *E, double seconds, int64_t max_nodes, int max_depth, WsEgResult *out);

/* Adds a helper thread to E (after ws_endgame_setup of E, which removes all helpers):
 * H is ws_endgame_size() caller-owned bytes, with its own move stack (capacity >= 4096);
 * it shares E's position, generator, rules and table.  At most WS_EG_MAX_THREADS - 1.
 * WS_E_ARGUMENT: too many helpers or a bad stack. */
int ws_endgame_add_helper(WsEndgame *E, WsEndgame *H, WsMove *moves, WsEgOrder *order, size_t capacity);

/* Whether the tile play m is legal for the side to move in the position E was set up
 * with, forming the same main word as its row, column and length say (no tile just
 * before or after it), with the score it makes there in *score.  The search checks so a
 * play that cut off elsewhere (a killer) before trying it at a node whose moves are not
 * generated yet. */
int ws_endgame_play_fits(const WsEndgame *E, const WsMove *m, int32_t *score);

/* A snapshot of the progress of the solve running on E (safe to call from another thread
 * while ws_endgame_solve runs, and before or after it). */
void ws_endgame_progress(WsEndgame *E, WsEgProgress *out);

#endif

/* The game state: board, racks as tile counts, the bag, scores, the player on turn,
 * the pass and scoreless counters, who left the game, the end and its settlement;
 * the rule set's turn rules, end rules and settlement as data (WsGameRules); every
 * turn kind with an exact undo; the game's own random stream; a Zobrist hash.
 *
 * This is the one place the rules of a turn are written: wordsalvo.Game (through
 * the Cython GameState), the self-play loop (ws_selfplay.c), and the simulator and
 * endgame solver stand on it.
 *
 * Conventions
 *  - Tile codes as in ws_defs.h: 0 = blank on a rack or in the bag, letters
 *    1..alphabet_size; on the board a blank is (letter | WS_BLANK_BIT).
 *  - Racks are counts by tile code ([0] = blanks); a rack's tiles "in rack order"
 *    are its letters in code order, then its blanks (wordsalvo's sort_rack).
 *  - The bag is a sequence: a draw takes bag[rng.randrange(n)], moves the last
 *    tile into its place and shortens the bag (Game's draw since the first
 *    version); returned tiles are appended in rack order.  With the same seed and
 *    the same turns a game draws the same tiles as wordsalvo.Game always did.
 *    Bytes past bag_count are always 0, so two equal states are equal byte for
 *    byte (memcmp up to offsetof(WsGame, rng)).
 *  - The board-derived data the generator needs (cross sets, cross scores, lanes)
 *    is not stored here: ws_game_load hands the tiles to a generator, which
 *    derives it again only on the lines whose tiles differ from the last board it
 *    saw (the lines of the moves played or undone since).  It is a function of the
 *    tiles, so it is exact after any play and undo, and a search pays nothing for
 *    it at the nodes where it generates no moves.
 *  - No function allocates; none calls Python; errors are status codes (ws_defs.h)
 *    and a function that fails changes nothing.
 *
 * Undo: every turn function fills a caller-owned WsUndo (or takes NULL when the
 * turn will never be taken back) and ws_game_undo(s, u) restores everything the
 * turn changed: board, racks, bag (its order too), scores, counters, time-outs,
 * who left, the end and its settlement, and the hash.  The random stream is not
 * rewound: a simulator's next iteration must draw other tiles.  A caller that
 * wants the stream back (wordsalvo.Game's undo) keeps a copy of the state.
 * Undo records are taken back in the reverse order of the turns.
 */
#ifndef WS_GAME_H
#define WS_GAME_H

#include "ws_defs.h"
#include "ws_leaves.h"
#include "ws_movegen.h"
#include "ws_rng.h"

#define WS_GAME_MAX_PLAYERS 4
#define WS_GAME_MAX_BAG 4096 /* tiles of a rule set (33 types x at most 100) */
#define WS_GAME_HASH_COUNTS 64 /* counter values the hash tells apart (larger ones hash as 63) */
#define WS_GAME_MAX_SETTLE (2 * (WS_GAME_MAX_PLAYERS - 1))

/* turn kinds (WsUndo.kind, self-play records; SETTLE is an entry, not a turn) */
#define WS_TURN_PLAY 0
#define WS_TURN_SWAP 1
#define WS_TURN_PASS 2
#define WS_TURN_SETTLE 3
#define WS_TURN_REFUSED 4 /* refused-play: strict mode's invalid word, a won challenge */
#define WS_TURN_TIMEOUT 5
#define WS_TURN_RESIGN 6

/* [end] scoreless_turn_kinds, as bits */
#define WS_SCORELESS_PASS 1
#define WS_SCORELESS_SWAP 2
#define WS_SCORELESS_REFUSED 4
#define WS_SCORELESS_ZERO_PLAY 8
#define WS_SCORELESS_TIMEOUT 16

/* end reasons (wordsalvo.game.END_REASONS, in that order) */
#define WS_END_NONE 0
#define WS_END_OUT 1
#define WS_END_PASSES 2
#define WS_END_SCORELESS 3
#define WS_END_RESIGN 4
#define WS_END_TIMEOUT 5
#define WS_END_ELIMINATION 6

/* settlement modes */
#define WS_SETTLE_NONE 0
#define WS_SETTLE_SUBTRACT 1
#define WS_SETTLE_PLAY_OUT 2

/* why a swap is not allowed (ws_game_swap_check) */
#define WS_SWAP_OK 0
#define WS_SWAP_EMPTY 1      /* no tile to swap */
#define WS_SWAP_NOT_ON_RACK 2
#define WS_SWAP_WHOLE_RACK 3 /* [swap] whole_rack and not the whole rack */
#define WS_SWAP_BAG_MIN 4    /* the bag holds fewer than [swap] min_bag */
#define WS_SWAP_BAG_COVER 5  /* [swap] bag_must_cover_swap and fewer tiles in the bag than swapped */

/* The rules of one rule set for one number of players, as data (wordsalvo.gamestate
 * fills it from a Rules object).  Shared read-only by every state of those rules. */
typedef struct WsGameRules {
    int32_t players;       /* 1..WS_GAME_MAX_PLAYERS */
    int32_t rack_size;     /* 1..WS_RACK_MAX */
    int32_t alphabet_size; /* letters 1..alphabet_size */
    int16_t tile_value[WS_MAX_LETTERS + 1]; /* face values by code; [0] (blank) = 0 */
    int32_t bag_count;
    uint8_t bag[WS_GAME_MAX_BAG]; /* the starting bag, tile codes in the rule set's order */
    uint64_t vowels;           /* bit t: tile code t is a vowel ([deal]) */
    int32_t first_vowels;      /* [deal] first_deal_min_vowels */
    int32_t first_consonants;  /* [deal] first_deal_min_consonants */
    int32_t swap_min_bag;      /* [swap] min_bag */
    int32_t swap_whole_rack;   /* [swap] whole_rack */
    int32_t swap_must_cover;   /* [swap] bag_must_cover_swap */
    int32_t swap_draw_first;   /* [swap] draw_before_return */
    int32_t swap_resets_pass;  /* [swap] resets_pass_counter */
    int32_t rack_out;          /* [end] rack_out */
    int32_t all_pass_rounds;   /* [end] all_pass_rounds */
    int32_t consecutive_passes; /* [end] consecutive_passes */
    int32_t scoreless_turns;   /* [end] scoreless_turns */
    int32_t scoreless_bag_below; /* [end] scoreless_turns_bag_below */
    int32_t scoreless_kinds;   /* [end] scoreless_turn_kinds, WS_SCORELESS_* bits */
    int32_t timeout_counts_as_pass; /* [timer] timeout_counts_as_pass */
    int32_t timeout_loses;     /* [timer] on_timeout = "lose" */
    int32_t eliminate_after;   /* [timer] eliminate_after_timeouts */
    int32_t settle_out, settle_passes, settle_scoreless; /* WS_SETTLE_* per end ([settlement]) */
    /* the end-game equity terms for this number of players (wordsalvo.leaves): going
     * out is worth out_factor x the other racks' value plus out_bonus, a kept tile
     * keep_factor x its own */
    float keep_factor, out_factor, out_bonus;
    /* Zobrist keys (ws_game_rules_init: a fixed stream, the same in every process) */
    uint64_t z_board[WS_SQUARES][64];  /* [square][letter - 1 + 32 if a blank] */
    uint64_t z_rack[WS_GAME_MAX_PLAYERS][WS_MAX_LETTERS + 1][WS_RACK_MAX + 1]; /* [p][code][count]; count 0 = 0 */
    uint64_t z_turn[WS_GAME_MAX_PLAYERS];
    uint64_t z_scoreless[WS_GAME_HASH_COUNTS];
    uint64_t z_passes[WS_GAME_HASH_COUNTS];
} WsGameRules;

/* One settlement entry of the end: `player`'s score changed by `score` for the rack of
 * `rack_owner` (wordsalvo.game.Turn of kind "settle"); total = the score after it. */
typedef struct WsSettle {
    int32_t score;
    int32_t total;
    uint8_t player;
    uint8_t rack_owner;
    uint8_t pad[2];
} WsSettle;

typedef struct WsGame {
    const WsGameRules *rules;
    uint64_t hash; /* board + racks + player on turn + scoreless and pass counts */
    uint8_t board[WS_SQUARES];
    uint8_t rack[WS_GAME_MAX_PLAYERS][WS_MAX_LETTERS + 1];
    uint8_t pad0[1];
    int32_t rack_total[WS_GAME_MAX_PLAYERS];
    int32_t score[WS_GAME_MAX_PLAYERS];
    int32_t timeouts[WS_GAME_MAX_PLAYERS]; /* each player's time-outs in a row */
    int32_t tile_count;     /* tiles on the board */
    int32_t to_move;
    int32_t pass_count;     /* the pass counter of [end] all_pass_rounds / consecutive_passes */
    int32_t scoreless_count; /* the scoreless counter of [end] scoreless_turns */
    uint32_t out_mask;      /* bit p: player p left the game (resigned, lost on time, eliminated) */
    int32_t end_reason;     /* WS_END_*; WS_END_NONE while the game runs */
    int32_t finisher;       /* the player who went out, or -1 */
    int32_t settle_count;   /* entries of settle: the settlement of the end */
    WsSettle settle[WS_GAME_MAX_SETTLE];
    int32_t bag_count;
    uint8_t bag[WS_GAME_MAX_BAG]; /* bag[bag_count..] are 0 */
    WsRng rng; /* the game's random stream (last: not compared, not rewound by undo) */
} WsGame;

/* What one turn changed, for ws_game_undo (caller-owned; 128 bytes). */
typedef struct WsUndo {
    uint64_t hash;
    int32_t score[WS_GAME_MAX_PLAYERS];
    int32_t pass_count, scoreless_count, timeouts, to_move, end_reason, finisher, settle_count;
    uint32_t out_mask;
    int32_t rack_total;
    int16_t draw_index[WS_RACK_MAX]; /* the bag index of each draw, in order */
    uint8_t kind;       /* WS_TURN_* */
    uint8_t player;
    uint8_t placed;     /* PLAY: new tiles */
    uint8_t drawn;      /* draws */
    uint8_t returned;   /* SWAP: tiles put back into the bag */
    uint8_t draw_first; /* SWAP: drawn before the return */
    uint8_t square[WS_RACK_MAX]; /* PLAY: the squares of the new tiles */
    uint8_t drawn_tile[WS_RACK_MAX];
    uint8_t rack[WS_MAX_LETTERS + 1]; /* the player's rack before the turn */
} WsUndo;

/* Checks the rule data the caller filled (everything but the keys) and makes the Zobrist
 * keys.  WS_E_ARGUMENT: a value out of range (nothing else then changes). */
int ws_game_rules_init(WsGameRules *R);

/* A new game of R: the bag in the rule set's order, the random stream seeded like
 * random.Random(seed) (ws_rng_seed), each player's first rack (with [deal]'s vowels
 * and consonants first), player 0 on turn.  WS_E_ARGUMENT: the bag cannot make the
 * first deal (s is then undefined). */
int ws_game_new(WsGame *s, const WsGameRules *R, const uint32_t *seed_key, int seed_length);

/* An empty state of R (empty board, racks and bag, scores 0, player 0 on turn, the
 * stream seeded with key {0}), for ws_game_set_* to fill. */
void ws_game_clear(WsGame *s, const WsGameRules *R);

/* A copy into caller-owned memory (one per thread); dst shares src's rules. */
void ws_game_copy(WsGame *dst, const WsGame *src);

/* The same copy into a dst that already holds a state (made by ws_game_copy or a turn
 * function): only the bag's tiles in use are written, not the whole bag (a simulator's
 * sample, thousands of times a second). */
void ws_game_recopy(WsGame *dst, const WsGame *src);

/* ---- turns (each: WS_OK, or a WS_E_* reason of ws_defs.h and nothing changed) ---- */

/* The player on turn plays m (a generator's move, or one wordsalvo checked): the new
 * tiles go on the board and leave the rack, the score is added, the rack is refilled
 * from the bag; the bag empty and the rack empty ([end] rack_out) end the game with
 * the settlement of [settlement] after_out; otherwise the end of the turn.  Checked:
 * only what would corrupt the state (the game over, squares off the board or taken,
 * tiles not on the rack, no new tile). */
int ws_game_play(WsGame *s, const WsMove *m, WsUndo *u);

/* Why swapping the tiles `counts` (by code, [0] = blanks) is not allowed now, or
 * WS_SWAP_OK ([swap] min_bag, bag_must_cover_swap, whole_rack). */
int ws_game_swap_check(const WsGame *s, const uint8_t *counts);

/* Whether the player on turn may swap n tiles now (wordsalvo.engine.bot.swap_allowed). */
int ws_game_swap_allowed(const WsGame *s, int n);

/* The player on turn swaps `counts`: they go back in rack order, drawn before or after
 * per [swap] draw_before_return; then the end of the turn.  WS_E_SWAP_BASE - the
 * ws_game_swap_check problem unless it allows it. */
int ws_game_swap(WsGame *s, const uint8_t *counts, WsUndo *u);

/* The player on turn passes. */
int ws_game_pass(WsGame *s, WsUndo *u);

/* The player on turn loses the turn to a refused play (strict mode, a won challenge):
 * a scoreless turn that counts as a pass. */
int ws_game_refused(WsGame *s, WsUndo *u);

/* The player on turn ran out of time: per [timer] the player loses (leaves the game)
 * or the turn ends, and eliminate_after time-outs in a row eliminate the player. */
int ws_game_timeout(WsGame *s, WsUndo *u);

/* `player` resigns (leaves the game): with one player left the game is over. */
int ws_game_resign(WsGame *s, int player, WsUndo *u);

/* Takes back the turn u recorded (the last turn not yet taken back). */
void ws_game_undo(WsGame *s, const WsUndo *u);

/* ---- setting up (not undone by ws_game_undo: copy the state to go back) ---- */

/* Every rack and the bag at once (racks: players x 33 counts; bag: codes in order).
 * Checks the codes, the rack sizes and the bag size; the game runs again (no end). */
int ws_game_set_tiles(WsGame *s, const uint8_t *racks, const uint8_t *bag, int bag_count);

/* The board (225 codes), scores, player on turn and counters as given. */
int ws_game_set_board(WsGame *s, const uint8_t *board);
int ws_game_set_scores(WsGame *s, const int32_t *scores);
int ws_game_set_turn(WsGame *s, int to_move, int scoreless_count, int pass_count);

/* The pass and scoreless counters as given (>= 0), the hash kept up to date (the endgame
 * solver's counter reduction; ws_game_undo of the turn before restores them). */
void ws_game_set_counters(WsGame *s, int pass_count, int scoreless_count);

/* `player`'s rack goes back into the bag (appended in rack order). */
int ws_game_return_rack(WsGame *s, int player);

/* `player` draws up to n tiles (the rack is not filled past the rack size). */
void ws_game_draw(WsGame *s, int player, int n);

/* `player` takes tile t from the bag (its first occurrence; the tiles after it move
 * up, as Python's list.remove): WS_E_ARGUMENT when the bag has none or the rack is
 * full. */
int ws_game_take_from_bag(WsGame *s, int player, int t);

/* Tile t moves from one player's rack to another's (WS_E_ARGUMENT: not there, or full). */
int ws_game_give_tile(WsGame *s, int from, int to, int t);

/* Points added to a player's score outside a turn (a challenge bonus). */
void ws_game_add_score(WsGame *s, int player, int points);

/* Seeds the random stream (ws_rng_seed). */
void ws_game_seed(WsGame *s, const uint32_t *seed_key, int seed_length);

/* ---- reading ---- */

/* The hash computed from scratch (equal to s->hash; for tests and after set-up). */
uint64_t ws_game_hash_full(const WsGame *s);

/* The value of a rack: the sum of its letters' face values (blanks 0). */
int ws_game_rack_value(const WsGame *s, int player);

/* Bit p: player p wins (the highest score of the players left; the one left after
 * the others left); 0 while the game runs. */
uint32_t ws_game_winners(const WsGame *s);

/* Players still in the game. */
int ws_game_players_left(const WsGame *s);

/* `player`'s score minus the best score of the other players. */
int ws_game_spread(const WsGame *s, int player);

/* A rack's tiles in rack order into out (at least WS_RACK_MAX bytes); their number. */
int ws_game_rack_codes(const WsGame *s, int player, uint8_t *out);

/* The tiles the player on turn cannot see (the bag and the other racks), by code. */
void ws_game_unseen(const WsGame *s, uint8_t *counts);

/* ---- moves of the player on turn ---- */

/* Hands the state to generator g (made for the same board rules and lexicon): the
 * equity terms, the board (g derives its cross sets again only on the lines whose
 * tiles differ from the last board it saw) and the rack of the player on turn.  Then
 * ws_gen_all, ws_gen_best, ws_gen_best_equity and ws_gen_best_swap answer for this
 * state.  Equity terms: by_equity = 0: none (score only); 1: with tiles in the bag the
 * leave table (NULL: every leave is worth 0), with the bag empty the rules' end-game
 * terms (going out earns out_factor x the value of the other racks plus out_bonus, a kept tile costs
 * keep_factor x its own), as wordsalvo.leaves.endgame_terms.  WS_E_ARGUMENT: a rack the
 * leave table cannot value. */
int ws_game_load(const WsGame *s, WsGen *g, int by_equity, const WsLeaves *leaves);

#endif

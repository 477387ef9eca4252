/* Self-play at engine speed: a whole two-player game between the `score` and
 * `equity` engine players, in C, without Python objects per turn.
 *
 * It plays exactly the game that wordsalvo.Game with wordsalvo.bot.Bot plays for
 * the same rule set and seed (the tests compare every turn): the bag in the rule
 * set's order drawn with Python's generator (ws_rng.h), the first deal's vowels and
 * consonants, plays, swaps and passes, the pass and scoreless counters, the end rules
 * and the rack settlement.  Those rules are Game's (wordsalvo/game.py, the one place
 * they are defined); this is their fast twin for engine games, held to them by the
 * tests, as ws_movegen.c is held to the Python reference generator.
 *
 * Player kinds (wordsalvo.bot): `score` plays the best score and, with no play,
 * swaps its whole rack (unless its last turn was such a swap) or passes; `equity`
 * plays the best equity (score + leave value) unless the best swap keeps a leave
 * worth more, and passes when it can do neither.
 */
#ifndef WS_SELFPLAY_H
#define WS_SELFPLAY_H

#include "ws_defs.h"
#include "ws_leaves.h"
#include "ws_movegen.h"
#include "ws_rng.h"

#define WS_SP_MAX_BAG 4096 /* tiles of a rule set (33 types x at most 100) */

/* kinds of turn records */
#define WS_TURN_PLAY 0
#define WS_TURN_SWAP 1
#define WS_TURN_PASS 2
#define WS_TURN_SETTLE 3

/* end reasons */
#define WS_END_NONE 0
#define WS_END_OUT 1
#define WS_END_PASSES 2
#define WS_END_SCORELESS 3

/* settlement modes */
#define WS_SETTLE_NONE 0
#define WS_SETTLE_SUBTRACT 1
#define WS_SETTLE_PLAY_OUT 2

typedef struct WsSelfplayRules {
    int32_t rack_size;
    int32_t bag_count;
    uint8_t bag[WS_SP_MAX_BAG];   /* the starting bag, tile codes in the rule set's order (0 = blank) */
    uint64_t vowels;              /* bit t: tile code t is a vowel ([deal]) */
    int32_t first_vowels;         /* [deal] first_deal_min_vowels */
    int32_t first_consonants;     /* [deal] first_deal_min_consonants */
    int32_t swap_min_bag;         /* [swap] min_bag */
    int32_t swap_whole_rack;      /* [swap] whole_rack */
    int32_t swap_must_cover;      /* [swap] bag_must_cover_swap */
    int32_t swap_draw_first;      /* [swap] draw_before_return */
    int32_t swap_resets_pass;     /* [swap] resets_pass_counter */
    int32_t rack_out;             /* [end] rack_out */
    int32_t all_pass_rounds;      /* [end] all_pass_rounds */
    int32_t consecutive_passes;   /* [end] consecutive_passes */
    int32_t scoreless_turns;      /* [end] scoreless_turns */
    int32_t scoreless_bag_below;  /* [end] scoreless_turns_bag_below */
    int32_t scoreless_pass, scoreless_swap, scoreless_zero_play; /* [end] scoreless_turn_kinds */
    int32_t settle_out, settle_passes, settle_scoreless;        /* WS_SETTLE_* per end */
    float keep_factor, out_factor; /* end-game equity terms of two players (wordsalvo.leaves) */
    int32_t turn_limit;           /* turns after which the game is an error (a rules bug) */
} WsSelfplayRules;

typedef struct WsSelfplayPlayer {
    int32_t by_equity;      /* 0: best score; 1: best equity and swaps */
    const WsLeaves *leaves; /* by_equity: ranking and values */
    int32_t zero;           /* every value is 0: no ranking while the bag holds tiles */
    float swap_ceiling;     /* the table's best value: no swap is worth more */
} WsSelfplayPlayer;

/* One entry of a game's history (wordsalvo.game.Turn, compact). */
typedef struct WsTurnRecord {
    WsMove move;         /* PLAY: the move */
    float equity;        /* PLAY / SWAP of an equity player: the action's equity; else 0 */
    int32_t score;       /* points the entry added to the player (a settlement may subtract) */
    int32_t total;       /* the player's score after it */
    int32_t bag_before;  /* tiles in the bag before the turn */
    uint8_t player;      /* seat, 0 = the player who moved first */
    uint8_t kind;        /* WS_TURN_* */
    uint8_t rack_len;
    uint8_t tiles_len;
    uint8_t rack[WS_RACK_MAX];  /* the rack before the turn, in rack order (letters, blanks last);
                                   SETTLE: the rack counted */
    uint8_t tiles[WS_RACK_MAX]; /* SWAP: the tiles put back, in rack order */
    uint8_t rack_owner;         /* SETTLE: whose rack is counted */
    uint8_t other_len;          /* tiles on the other player's rack before the turn */
    uint8_t pad[4];             /* always zero (68 bytes in all) */
} WsTurnRecord;

typedef struct WsSelfplay {
    WsSelfplayRules rules;
    WsSelfplayPlayer player[2]; /* by seat */
    /* the game */
    WsRng rng;
    uint8_t bag[WS_SP_MAX_BAG];
    int32_t bag_count;
    uint8_t rack[2][WS_MAX_LETTERS + 1]; /* counts by tile code, [0] = blanks */
    int32_t rack_total[2];
    uint8_t board[WS_SQUARES];
    int32_t score[2];
    int32_t pass_count, scoreless_count;
    int32_t to_move;
    int32_t last_kind[2]; /* each seat's last turn kind (-1: none yet) */
    int32_t end_reason;
    int32_t turns;        /* turns taken (settlement entries not counted) */
    /* the history */
    WsTurnRecord *out;
    size_t capacity, count;
    WsTurnRecord scratch; /* the entry written past the capacity */
} WsSelfplay;

/* Plays a whole game on generator g (set up for the rule set's board and lexicon,
 * alphagrams optional) from the random seed key (see ws_rng_seed); sp->rules and
 * sp->player are the caller's.  The history goes to out[0..*count).
 * WS_E_CAPACITY: more entries than capacity (nothing past it is written);
 * WS_E_ARGUMENT: bad rules (a first deal the bag cannot make), a rack the leave
 * table cannot rank, or no end within rules.turn_limit turns. */
int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                     size_t capacity, size_t *count);

#endif

/* Self-play at engine speed: a whole two-player game between the `score` and
 * `equity` engine players, in C, without Python objects per turn.
 *
 * The game itself is a WsGame (ws_game.h): the first deal, the draws, plays, swaps,
 * passes, the counters, the end rules and the settlement are the state's, the same
 * code wordsalvo.Game runs.  This file adds only the players' choices (Bot.choose)
 * and the history records; the tests compare every turn with Game and Bot.
 *
 * Player kinds (wordsalvo.engine.bot): `score` plays the best score and, with no play,
 * swaps its whole rack (unless its last turn was such a swap) or passes; `equity`
 * plays the best equity (score + leave value) unless the best swap keeps a leave
 * worth more, and passes when it can do neither.
 */
#ifndef WS_SELFPLAY_H
#define WS_SELFPLAY_H

#include "ws_defs.h"
#include "ws_game.h"
#include "ws_leaves.h"
#include "ws_movegen.h"

typedef struct WsSelfplayPlayer {
    int32_t by_equity;      /* 0: best score; 1: best equity and swaps */
    const WsLeaves *leaves; /* by_equity: ranking and values */
    int32_t zero;           /* every value is 0: no ranking while the bag holds tiles */
    float swap_ceiling;     /* the table's best value: no swap is worth more */
} WsSelfplayPlayer;

/* What a player does on a turn (ws_player_choose), for ws_action_apply. */
typedef struct WsAction {
    int32_t kind;   /* WS_TURN_PLAY, WS_TURN_SWAP or WS_TURN_PASS */
    float equity;   /* PLAY / SWAP of an equity player: the action's equity; else 0 */
    WsMove move;    /* PLAY */
    uint8_t swap[WS_MAX_LETTERS + 1]; /* SWAP: the tiles put back, counts by code */
} WsAction;

/* last_kind of ws_player_choose: the last two turns of the game were swaps or passes, in
 * a rule set where a run of swaps never ends the game (ws_swap_run_endless): no player
 * swaps now (it plays, or passes when it cannot), so two players that each prefer an
 * exchange, or cannot play at all, reach the pass limit instead of exchanging for ever
 * (Bot._choose_equity). */
#define WS_PLAYER_SWAP_RUN 100

/* Whether swaps alone can go on for ever under R: a swap resets the pass counter and no
 * scoreless-turn limit counts swaps (wordfeud-de, wordsalvo-en, wordsalvo-nl). */
int ws_swap_run_endless(const WsGameRules *R);

/* The choice of engine player P for the player on turn of s (Bot.choose of the score
 * and equity kinds): loads s into g and searches.  last_kind: that player's last turn
 * kind (WS_TURN_*, -1 for none: a score player does not swap twice in a row), or
 * WS_PLAYER_SWAP_RUN.  The static player of self-play, and of a simulation's rollouts.
 * WS_E_ARGUMENT: a rack the leave table cannot value. */
int ws_player_choose(const WsGame *s, WsGen *g, const WsSelfplayPlayer *P, int last_kind, WsAction *a);

/* Plays a on s (ws_game_play, ws_game_swap or ws_game_pass), undo record u (or NULL). */
int ws_action_apply(WsGame *s, const WsAction *a, WsUndo *u);

/* One entry of a game's history (wordsalvo.game.Turn, compact). */
typedef struct WsTurnRecord {
    WsMove move;         /* PLAY: the move */
    float equity;        /* PLAY / SWAP of an equity player: the action's equity; else 0 */
    int32_t score;       /* points the entry added to the player (a settlement may subtract) */
    int32_t total;       /* the player's score after it */
    int32_t bag_before;  /* tiles in the bag before the turn */
    uint8_t player;      /* seat, 0 = the player who moved first */
    uint8_t kind;        /* WS_TURN_PLAY, _SWAP, _PASS, _SETTLE (ws_game.h) */
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
    const WsGameRules *rules;   /* two players */
    WsSelfplayPlayer player[2]; /* by seat */
    int32_t turn_limit;         /* turns after which the game is an error (a rules bug) */
    WsGame game;
    int32_t last_kind[2]; /* each seat's last turn kind (-1: none yet) */
    int32_t turns;        /* turns taken (settlement entries not counted) */
    /* the history */
    WsTurnRecord *out;
    size_t capacity, count;
    WsTurnRecord scratch; /* the entry written past the capacity */
} WsSelfplay;

/* Plays a whole game on generator g (set up for the rule set's board and lexicon,
 * alphagrams optional) from the random seed key (see ws_rng_seed); sp->rules,
 * sp->player and sp->turn_limit are the caller's.  The history goes to out[0..*count);
 * the final state is sp->game.
 * WS_E_CAPACITY: more entries than capacity (nothing past it is written);
 * WS_E_ARGUMENT: rules not for two players, a first deal the bag cannot make, a rack
 * the leave table cannot value, or no end within turn_limit turns. */
int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                     size_t capacity, size_t *count);

#endif

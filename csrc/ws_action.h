/* What a player does on a turn, and the static engine player: one action type (play,
 * swap, pass) and one function that chooses among them.
 *
 * The static player is the engine of the `score` and `equity` kinds
 * (wordsalvo.engine.bot): self-play (ws_selfplay.c), a simulation's rollouts (ws_sim.c),
 * Bot's score and equity choices, the swap that the levels, the rated and the master
 * player weigh, and the service's /v1/best all stand on ws_player_options below.
 *
 *  - `score` plays the best score; with no play it swaps its whole rack, unless its last
 *    turn was such a swap (or a run of swaps must be broken, WS_PLAYER_SWAP_RUN), or
 *    passes.
 *  - `equity` plays the best equity (score + leave value; the rules' end-game terms
 *    with the bag empty, ws_game_load) unless the best swap keeps a leave worth more, and
 *    passes when it can do neither.  A swap is looked at only when there is no play or
 *    the play's equity is below P->swap_ceiling (the leave table's best value: no swap
 *    is worth more).  Ties go to the play.
 *
 * No function allocates or calls Python; errors are status codes (ws_defs.h).
 */
#ifndef WS_ACTION_H
#define WS_ACTION_H

#include "ws_defs.h"
#include "ws_game.h"
#include "ws_leaves.h"
#include "ws_movegen.h"

/* The static player: by score or by equity, with its leave table. */
typedef struct WsPlayer {
    int32_t by_equity;      /* 0: best score; 1: best equity and swaps */
    const WsLeaves *leaves; /* by_equity: ranking and values */
    int32_t zero;           /* every value is 0: no ranking while the bag holds tiles */
    float swap_ceiling;     /* the table's best value: no swap is worth more */
} WsPlayer;

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

/* The two options of player P for the player on turn of s (loads s into g):
 *  *play: with search_play, the best placement (kind PLAY, equity for an equity player),
 *         or kind PASS when there is none; without, the caller's play, read only for its
 *         kind (PLAY or PASS: none) and equity (a play chosen by other means, e.g. the
 *         best that spells no offensive word);
 *  *swap: the swap P would weigh against that play (kind SWAP), else kind PASS (see the
 *         top of this file).  last_kind: the player's last turn kind (WS_TURN_*, -1 for
 *         none), or WS_PLAYER_SWAP_RUN.
 * WS_E_ARGUMENT: a rack the leave table cannot value. */
int ws_player_options(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, int search_play, WsAction *play,
                      WsAction *swap);

/* The option P takes: the play unless the swap's equity is higher, the swap when there is
 * no play, else a pass (a may be play or swap). */
void ws_player_pick(const WsAction *play, const WsAction *swap, WsAction *a);

/* The choice of the static player P for the player on turn of s: ws_player_options
 * (searching the play), then ws_player_pick. */
int ws_player_choose(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, WsAction *a);

/* ws_player_choose searching the play with ws_gen_best_equity_pool (an equity player; pool
 * NULL: ws_gen_best_equity): the same choice, faster on boards that keep most lanes of
 * the pool's root. */
int ws_player_choose_pool(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, WsAction *a,
                          WsLanePool *pool);

/* Plays a on s (ws_game_play, ws_game_swap or ws_game_pass), undo record u (or NULL). */
int ws_action_apply(WsGame *s, const WsAction *a, WsUndo *u);

#endif

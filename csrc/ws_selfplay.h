/* Self-play at engine speed: a whole two-player game between the `score`, `equity`
 * and rated engine players, in C, without Python objects per turn.
 *
 * The game itself is a WsGame (ws_game.h): the first deal, the draws, plays, swaps,
 * passes, the counters, the end rules and the settlement are the state's, the same
 * code wordsalvo.Game runs.  This file adds only the players' choices (Bot.choose)
 * and the history records; the tests compare every turn with Game and Bot.
 *
 * Player kinds (wordsalvo.engine.bot): `score` plays the best score and, with no play,
 * swaps its whole rack (unless its last turn was such a swap) or passes; `equity`
 * plays the best equity (score + leave value) unless the best swap keeps a leave
 * worth more, and passes when it can do neither; the rated player (ws_rated.h, Bot with a
 * rating or a finite beta) draws among every play and the best swap from its own random
 * stream.
 */
#ifndef WS_SELFPLAY_H
#define WS_SELFPLAY_H

#include "ws_action.h"
#include "ws_defs.h"
#include "ws_game.h"
#include "ws_leaves.h"
#include "ws_movegen.h"
#include "ws_rated.h"
#include "ws_rng.h"

/* A seat's player: the static player of ws_action.h, or the rated player of ws_rated.h. */
#define WS_SELFPLAY_STATIC 0
#define WS_SELFPLAY_RATED 1
typedef struct WsSelfplayPlayer {
    int32_t kind;         /* WS_SELFPLAY_STATIC or WS_SELFPLAY_RATED */
    WsPlayer engine;      /* STATIC: score or equity */
    WsRated rated;        /* RATED: beta, leave table, offensive words */
} WsSelfplayPlayer;

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
    uint8_t forced;             /* 1: the rack before the turn was forced (WsSelfplay.force) */
    uint8_t pad[3];             /* always zero (68 bytes in all) */
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
    /* rated players: each seat's random stream (the caller's, set before every game:
     * random.Random.getstate() of the Bot) and the buffer of their move lists */
    WsRng rng[2];
    WsRatedBuffer rated_buffer;
    /* forced racks (leave training's rare racks; none when force_count is 0): force[i *
     * (WS_MAX_LETTERS + 1) + t] is how many tiles of code t the i-th forced rack holds (a
     * full rack each).  From turn force_from on, at every turn whose mover holds a full
     * rack while the bag holds at least a rack's worth of tiles, the first forced rack not
     * yet used in this game that the mover's rack and the bag together can supply
     * replaces the mover's rack: the rack goes back into the bag (ws_game_return_rack) and
     * the forced rack's tiles are taken from it (ws_game_take_from_bag, letters by code,
     * blanks last); a rack they cannot supply waits for a later turn.  The game then goes
     * on from that rack.  A pure function of the state: the same seed, the same game. */
    const uint8_t *force;
    int32_t force_count; /* 0..WS_SELFPLAY_FORCE_MAX */
    int32_t force_from;  /* the first turn (0 = the first of the game) a rack may be forced on */
    uint64_t force_used; /* bit i: the i-th forced rack was played in this game */
    int32_t forced;      /* racks forced in the last game */
    /* probe racks (leave training's cover of the racks seldom seen; none when probe_count
     * is 0): probe[i * (WS_MAX_LETTERS + 1) + t] is how many tiles of code t the i-th
     * probe rack holds (a full rack of the rule set's tiles each).  At every turn whose
     * mover holds a full rack while the bag holds at least a rack's worth of tiles, after
     * the mover's choice and before it is played, the next probe_per_turn probe racks of
     * the list (in order, until it runs out) are valued in that position: the mover's
     * rack is set to the probe rack (its tiles need not be in the bag; the bag, the hash
     * and everything else stay as they are), the mover's player chooses as on its own turn
     * (ws_player_choose, the same last turn kind), probe_kind[i] and probe_equity[i] get
     * the kind and equity of that choice, and the real rack is put back.  The game goes
     * on as if nothing had been probed: with or without probes, the same game.  The
     * arrays are the caller's (probe_count entries each); probe_done says how many of the
     * list the last game valued (the first probe_done). */
    const uint8_t *probe;
    int32_t probe_count;     /* 0..WS_SELFPLAY_PROBE_MAX */
    int32_t probe_per_turn;  /* >= 1 when probe_count > 0 */
    uint8_t *probe_kind;     /* out: WS_TURN_PLAY, _SWAP or _PASS */
    float *probe_equity;     /* out: the equity of the action chosen (0 for a pass) */
    int32_t probe_done;      /* out: probe racks valued in the last game */
} WsSelfplay;

#define WS_SELFPLAY_FORCE_MAX 64
#define WS_SELFPLAY_PROBE_MAX (1 << 20)

/* Plays a whole game on generator g (set up for the rule set's board and lexicon,
 * alphagrams optional) from the random seed key (see ws_rng_seed); sp->rules,
 * sp->player and sp->turn_limit are the caller's, and for rated players sp->rng and
 * sp->rated_buffer.  The history goes to out[0..*count); the final state is sp->game.
 * WS_E_CAPACITY: more entries than capacity (nothing past it is written), or a turn of
 * a rated player with more plays than sp->rated_buffer holds (its `needed` says how
 * many: the game stops there; replayed with a larger buffer and the same streams it is
 * the same game);
 * WS_E_ARGUMENT: rules not for two players, a first deal the bag cannot make, force_count
 * out of range or a forced rack that is not a full rack of the rule set's tiles, probes
 * (probe_count out of range, a probe rack that is not a full rack the rule set's tiles can
 * make, probe_per_turn < 1, no output arrays, or a seat that is not an equity player), a rack
 * the leave table cannot value, or no end within turn_limit turns. */
int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                     size_t capacity, size_t *count);

#endif

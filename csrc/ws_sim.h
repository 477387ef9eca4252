/* Monte Carlo simulation of a two-player position: which candidate does best when the
 * game is played on for a few plies with random racks for the opponent?
 *
 * An ITERATION is one draw of the unknown tiles: the opponent's rack and every later
 * draw come from the tiles the player on turn cannot see, with the game's own random
 * stream (ws_rng: Python's Mersenne Twister) seeded from (seed, iteration) alone.  For
 * each candidate the iteration copies the root state, draws the opponent's rack, plays
 * the candidate and then `plies` turns of the static equity player (ws_player_choose,
 * the player of self-play), and values the end from the mover's side:
 *
 *   equity = spread change + (leave of the mover's last action - leave of the
 *            opponent's last action), the leave terms 0 once the game is over;
 *   win    = the game's result when it ended (1, 0.5, 0); else the win-probability
 *            table at (spread + those leave terms, tiles unseen) for the player on
 *            turn at the end, from the mover's side.
 *
 * Common random numbers: every candidate of an iteration sees the same stream (the
 * same opponent rack, the same draws as far as the plays draw alike), so the
 * differences between candidates have far less noise than the values.  Because an
 * iteration depends on (seed, iteration, candidate) only, and results are added up in
 * iteration order after each round, the result is the same for any number of threads
 * (the work of a round is shared out through an atomic counter).
 *
 * Sampling rules, in rounds (each round: the next B iterations for every candidate
 * still in): WS_SIM_RR, round robin (every candidate every iteration); WS_SIM_BAI,
 * best-arm identification by successive elimination on the paired differences: after
 * each round a candidate whose mean difference to the leader is clearly negative (a
 * generalized likelihood ratio for a Gaussian of unknown variance above an anytime
 * threshold, see ws_sim.c) is dropped, and the sampling stops when one is left.
 *
 * Memory: the caller allocates ws_sim_size(threads) bytes once (workers, their move
 * generators and game states included); nothing is allocated in a simulation.  Threads
 * are POSIX threads started for each round.
 */
#ifndef WS_SIM_H
#define WS_SIM_H

#include "ws_defs.h"
#include "ws_game.h"
#include "ws_movegen.h"
#include "ws_selfplay.h"

#define WS_SIM_MAX_CANDIDATES 128
#define WS_SIM_MAX_THREADS 64
#define WS_SIM_MAX_PLIES 32
#define WS_SIM_MAX_ROUND 64           /* iterations per round, at most */
#define WS_SIM_MAX_ITERATIONS (1 << 24) /* per candidate */

#define WS_SIM_RR 0
#define WS_SIM_BAI 1

/* why ws_sim_run stopped (WsSimStatus.stop) */
#define WS_SIM_RUNNING 0    /* the step's time is up; call again */
#define WS_SIM_ITERATIONS 1 /* every candidate still in has max_iterations */
#define WS_SIM_DEADLINE 2   /* the simulation's time is up */
#define WS_SIM_ONE_LEFT 3   /* best-arm identification: one candidate left */
#define WS_SIM_EXACT 4      /* nothing is random (no unseen tile to draw): one iteration tells all */

#define WS_SIM_INFER_END 0xFFu
#define WS_SIM_MAX_INFER 1000000

typedef struct WsSimConfig {
    int32_t plies;          /* turns after the candidate, 0..WS_SIM_MAX_PLIES */
    int32_t sampling;       /* WS_SIM_RR or WS_SIM_BAI */
    int32_t threads;        /* 1..the threads the memory was sized for */
    int32_t min_iterations; /* BAI: no candidate is dropped before this many iterations */
    int64_t max_iterations; /* per candidate, 1..WS_SIM_MAX_ITERATIONS; 0 = no limit (a deadline then) */
    double seconds;         /* time budget from the first ws_sim_run; 0 = none */
    int32_t cpu_clock;      /* 0: the budget is wall-clock time; 1: the process's CPU time per thread
                               (seconds x threads of CPU), which other work on the machine does not eat */
    double delta;           /* BAI: error probability of the elimination rule, (0, 1) */
    /* the utility of a sample with a win table: (win + spread_weight * sigmoid(spread /
     * spread_scale)) / (1 + spread_weight) + 1e-6 x equity, the spread the mover's after the
     * sample (spread at the root + equity); spread_weight 0 (the default): win + 1e-6 x
     * equity, exactly as before.  spread_weight 0..100, spread_scale > 0 when it is not 0 */
    double spread_weight, spread_scale;
    uint64_t seed;
    WsPlayer player; /* the static player of the rollouts (an equity player) */
    /* P(the player on turn wins) by [unseen][spread + win_spread] for unseen 0..win_unseen
     * and spreads -win_spread..win_spread (clamped; linear between whole points), or NULL:
     * no win chance (0.5 everywhere) and the candidates are compared by equity */
    const float *win_table;
    int32_t win_spread, win_unseen;
    /* inference (wordsalvo.engine.inference): the opponent's rack starts with one of
     * infer_count leaves, each WS_RACK_MAX tile codes (0 the blank, 1.. the letters,
     * WS_SIM_INFER_END past its end), leave i chosen with probability
     * (infer_cum[i] - infer_cum[i-1]) / infer_cum[infer_count-1] (ascending, finite, the
     * last > 0); the rest of the rack is drawn from the bag.  A leave the bag of an
     * iteration cannot give is put back and the whole rack drawn.  0: the whole rack drawn
     * uniformly. */
    const uint8_t *infer_tiles;
    const double *infer_cum;
    int32_t infer_count;
    /* 1: every rollout move searched from scratch; 0 (the default): the lanes the moves so
     * far left as the root has them come from what earlier searches with the same rack
     * found out about them (ws_gen_best_equity_pool), the same moves faster */
    int32_t fresh_searches;
} WsSimConfig;

/* One candidate and what the simulation found for it. */
typedef struct WsSimArm {
    WsAction action;      /* PLAY (a generator's move), SWAP or PASS */
    float leave;          /* the value of the leave it keeps (ws_sim_setup) */
    float static_equity;  /* score + leave */
    int32_t alive;        /* 0: dropped by the sampling rule */
    int32_t dropped_after; /* iterations it had when dropped (else 0) */
    int64_t n;            /* iterations */
    double eq_sum, eq_sum2, win_sum, win_sum2;
    double u_sum;         /* of the samples' utilities (what the sampling rule compares) */
} WsSimArm;

typedef struct WsSimStatus {
    int64_t iterations; /* iterations of the candidates still in */
    int64_t nodes;      /* turns played in the simulation (candidates and rollout plies) */
    double seconds;     /* wall-clock time spent in ws_sim_run so far */
    double cpu_seconds; /* the process's CPU time spent in ws_sim_run so far (every thread) */
    int32_t alive;      /* candidates still in */
    int32_t stop;       /* WS_SIM_* */
} WsSimStatus;

typedef struct WsSim WsSim;

/* Bytes of a simulation with `threads` workers (each with its own move generator). */
size_t ws_sim_size(int threads);

/* Sets up a simulation in caller-owned memory of ws_sim_size(cfg->threads) bytes: the
 * root state (copied; the player on turn is the mover, two players), the generator to
 * copy for every worker (set up for the board rules and lexicon, word map and anagram
 * keys included; the copies share its read-only data, which must outlive the
 * simulation), and the candidates (their leave and static equity are computed here
 * with the rollout player's table).  WS_E_ARGUMENT: a bad configuration, not two
 * players, the game over, no candidate, more than WS_SIM_MAX_CANDIDATES, a candidate
 * the root state cannot take (tiles not on the rack, a swap not allowed). */
int ws_sim_setup(WsSim *sim, const WsSimConfig *cfg, const WsGame *root, const WsGen *proto,
                 const WsAction *candidates, int count);

/* Runs rounds until the simulation stops or, after a round, `step_seconds` have passed
 * since this call (<= 0: no step limit).  Returns WS_OK or WS_E_ARGUMENT (a rollout
 * failed: a rack the leave table cannot value); the status says why it stopped. */
int ws_sim_run(WsSim *sim, double step_seconds, WsSimStatus *status);

/* The candidates in the order given, with their statistics. */
const WsSimArm *ws_sim_arms(const WsSim *sim, int *count);

/* What candidate i (0 <= i < count) is ranked by, the sampling rule's own comparison: the
 * utility of its means, or with a spread weight the mean of its samples' utilities;
 * -HUGE_VAL before its first iteration. */
double ws_sim_arm_utility(const WsSim *sim, int i);

/* The win chance the table gives (linear in the spread; clamped): for tests. */
double ws_sim_win_lookup(const WsSimConfig *cfg, double spread, int unseen);

#endif

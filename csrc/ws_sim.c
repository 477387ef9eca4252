/* Monte Carlo simulation on the game state; see ws_sim.h.
 *
 * The sampling rule WS_SIM_BAI is successive elimination on paired samples, after the
 * ideas of Jourdan, Degenne and Kaufmann ("Dealing with unknown variances in best-arm
 * identification", 2023): Gaussian arms whose variance is estimated, a generalized
 * likelihood ratio (GLR) statistic and an anytime threshold.  Because every candidate
 * still in sees the same iterations (common random numbers), the statistic is taken
 * on the per-iteration differences d_i = u_leader,i - u_c,i, which is a one-sample
 * test of mean 0 with unknown variance:
 *
 *   GLR = n/2 * ln(1 + dbar^2 / s^2)       (s^2 = the ML variance of the d_i)
 *
 * and candidate c is dropped when dbar > 0 and GLR > ln((K - 1) / delta) + 2 ln(1 + ln n)
 * (K candidates at the start; the ln ln term pays for looking after every round).
 * Differences that are exactly constant (two moves with the same future in every
 * draw) drop the later candidate once n >= min_iterations.  The utility u is the win
 * chance with the equity as a tie-break (u = win + 1e-6 x equity), or the equity when
 * there is no win table; with a spread weight w, the win chance blended with a logistic
 * of the spread after the sample, (win + w sigmoid(spread / scale)) / (1 + w) + 1e-6 x
 * equity, which still tells candidates apart where the win chance is all but settled
 * (a game far ahead or far behind) and keeps the sample in [0, 1].
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "ws_sim.h"

#if !defined(_WIN32)
#include <pthread.h>
#define WS_SIM_PTHREADS 1
#endif

#define WS_SIM_TIE_WEIGHT 1e-6 /* the equity's weight in the utility, beside the win chance */
#define WS_SIM_FIRST_ROUND 8
/* A round's work items are its iterations: a worker plays every candidate still in
 * against one draw of the opponent's rack before it takes the next, so it draws the
 * root of an iteration once, and the opponent's replies to all the candidates, with that
 * one rack, share what they find out about the root's lanes (ws_gen_best_equity_pool),
 * searched by a reply generator of its own whose board changes by two candidates' tiles
 * from one reply to the next.  The clock is read between iterations: a time budget
 * overruns by at most the iteration under way in each worker. */

typedef struct WsSimWorker {
    WsGen gen;              /* its own generator (a copy of the prototype) */
    WsGen reply_gen;        /* another copy, for the opponent's reply to a candidate */
    WsLanePool lanes;       /* what its searches found out about the root's lanes, by rack */
    WsGame base;            /* the root with the opponent rack of iteration base_iteration drawn */
    WsGame work;            /* one sample */
    int64_t base_iteration; /* -1: none yet */
    int64_t nodes;          /* turns played in the current round */
    int32_t rc;
    struct WsSim *sim;
#ifdef WS_SIM_PTHREADS
    pthread_t thread;
#endif
} WsSimWorker;

struct WsSim {
    WsSimConfig cfg;
    WsGame root;   /* the state to simulate, the opponent's rack back in the bag */
    int32_t me, opp, opp_count, spread0;
    int32_t exact; /* no tile to draw after the opponent's rack: every iteration is the same */
    int32_t count; /* candidates */
    WsSimArm arms[WS_SIM_MAX_CANDIDATES];
    int32_t alive_count;
    int32_t alive_index[WS_SIM_MAX_CANDIDATES]; /* ascending */
    /* the round: iterations round_first.. round_first + round_items - 1.  Its first
     * round_whole iterations are an item each (every candidate still in); with more
     * than one thread the last ones are split, an item per candidate, so that no
     * worker waits at the round's end for another finishing a whole iteration */
    int64_t round_first;
    int64_t round_items;
    int64_t round_whole;
    int64_t next_item; /* atomic: the next item to take */
    double deadline;   /* monotonic seconds; 0: none */
    int32_t started;
    int32_t stop;
    double spent, cpu_spent;
    int64_t iterations; /* of the candidates still in */
    int64_t nodes;
    /* per round: the value of item (j, slot) at [j][slot] */
    double eq_buf[WS_SIM_MAX_ROUND][WS_SIM_MAX_CANDIDATES];
    double win_buf[WS_SIM_MAX_ROUND][WS_SIM_MAX_CANDIDATES];
    /* BAI: sums over the iterations of u_a - u_b and its square, [a][b] for arms a < b */
    double pair_sum[WS_SIM_MAX_CANDIDATES][WS_SIM_MAX_CANDIDATES];
    double pair_sum2[WS_SIM_MAX_CANDIDATES][WS_SIM_MAX_CANDIDATES];
    int32_t threads;
    WsSimWorker workers[];
};

size_t ws_sim_size(int threads) {
    if (threads < 1) threads = 1;
    if (threads > WS_SIM_MAX_THREADS) threads = WS_SIM_MAX_THREADS;
    return offsetof(WsSim, workers) + (size_t)threads * sizeof(WsSimWorker);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The clock of the budget: wall-clock time, or the process's CPU time. */
static double budget_clock(const WsSim *sim) { return sim->cfg.cpu_clock ? cpu_now() : now(); }

const WsSimArm *ws_sim_arms(const WsSim *sim, int *count) {
    *count = sim->count;
    return sim->arms;
}

double ws_sim_win_lookup(const WsSimConfig *cfg, double spread, int unseen) {
    if (!cfg->win_table) return 0.5;
    if (unseen < 0) unseen = 0;
    if (unseen > cfg->win_unseen) unseen = cfg->win_unseen;
    int top = 2 * cfg->win_spread;
    const float *row = cfg->win_table + (size_t)unseen * (size_t)(top + 1);
    double x = spread + cfg->win_spread;
    if (!(x > 0.0)) return row[0];
    if (x >= top) return row[top];
    int i = (int)x;
    double f = x - i;
    return row[i] + f * (row[i + 1] - row[i]);
}

/* The stream of one iteration: random.Random(iteration + (seed << 32)) in Python. */
static void seed_iteration(WsGame *s, uint64_t seed, int64_t iteration) {
    uint32_t key[3] = {(uint32_t)iteration, (uint32_t)seed, (uint32_t)(seed >> 32)};
    int n = 3;
    while (n > 1 && key[n - 1] == 0) n--;
    ws_game_seed(s, key, n);
}

/* The opponent's kept tiles of one iteration, drawn from the inference's leaves by their
 * weights (53 random bits); returns how many tiles it put on the rack (0: the leave drawn is
 * not in this bag, its tiles went back). */
static int draw_inferred(WsGame *s, int player, const WsSimConfig *cfg) {
    uint64_t bits = ((uint64_t)ws_rng_next(&s->rng) << 21) ^ (uint64_t)(ws_rng_next(&s->rng) >> 11);
    double u = (double)bits * (1.0 / 9007199254740992.0) * cfg->infer_cum[cfg->infer_count - 1];
    int lo = 0, hi = cfg->infer_count - 1;
    while (lo < hi) { /* the first leave whose cumulative weight exceeds u */
        int mid = lo + (hi - lo) / 2;
        if (cfg->infer_cum[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    const uint8_t *t = cfg->infer_tiles + (size_t)lo * WS_RACK_MAX;
    int n = 0;
    for (int i = 0; i < WS_RACK_MAX && t[i] != WS_SIM_INFER_END; i++) {
        if (ws_game_take_from_bag(s, player, t[i]) != WS_OK) {
            ws_game_return_rack(s, player);
            return 0;
        }
        n++;
    }
    return n;
}

/* The value of the tiles an action keeps (its equity less its score). */
static float action_leave(const WsAction *a) {
    if (a->kind == WS_TURN_PLAY) return a->equity - (float)a->move.score;
    if (a->kind == WS_TURN_SWAP) return a->equity;
    return 0.0f;
}

/* ------------------------------------------------------------------------ */
/* Set-up                                                                   */
/* ------------------------------------------------------------------------ */

/* The tiles a candidate keeps (counts by code); WS_E_ARGUMENT when it uses tiles the
 * rack does not hold. */
static int kept_tiles(const WsGame *s, const WsAction *a, uint8_t *kept) {
    memcpy(kept, s->rack[s->to_move], WS_MAX_LETTERS + 1);
    if (a->kind == WS_TURN_PLAY) {
        const WsMove *m = &a->move;
        if (m->length < 1 || m->length > WS_DIM) return WS_E_ARGUMENT;
        for (int i = 0; i < m->length; i++) {
            if (!m->tiles[i]) continue;
            int code = (m->blank_mask >> i & 1) ? 0 : m->tiles[i];
            if (code > WS_MAX_LETTERS || !kept[code]) return WS_E_ARGUMENT;
            kept[code]--;
        }
    } else if (a->kind == WS_TURN_SWAP) {
        for (int t = 0; t <= WS_MAX_LETTERS; t++) {
            if (a->swap[t] > kept[t]) return WS_E_ARGUMENT;
            kept[t] = (uint8_t)(kept[t] - a->swap[t]);
        }
    } else if (a->kind != WS_TURN_PASS) {
        return WS_E_ARGUMENT;
    }
    return WS_OK;
}

int ws_sim_setup(WsSim *sim, const WsSimConfig *cfg, const WsGame *root, const WsGen *proto,
                 const WsAction *candidates, int count) {
    const WsGameRules *R = root->rules;
    if (cfg->threads < 1 || cfg->threads > WS_SIM_MAX_THREADS || cfg->plies < 0 || cfg->plies > WS_SIM_MAX_PLIES ||
        (cfg->sampling != WS_SIM_RR && cfg->sampling != WS_SIM_BAI) || cfg->max_iterations < 0 ||
        cfg->max_iterations > WS_SIM_MAX_ITERATIONS || !(cfg->seconds >= 0.0) ||
        (cfg->max_iterations == 0 && cfg->seconds <= 0.0) || !(cfg->delta > 0.0 && cfg->delta < 1.0) ||
        (cfg->cpu_clock != 0 && cfg->cpu_clock != 1) ||
        cfg->min_iterations < 1 || !cfg->player.by_equity || !cfg->player.leaves ||
        !(cfg->spread_weight >= 0.0 && cfg->spread_weight <= 100.0) ||
        (cfg->spread_weight > 0.0 && !(cfg->spread_scale > 0.0 && cfg->spread_scale <= 1e6)))
        return WS_E_ARGUMENT;
    if (cfg->win_table && (cfg->win_spread < 1 || cfg->win_unseen < 0)) return WS_E_ARGUMENT;
    if (R->players != 2 || root->end_reason != WS_END_NONE || count < 1 || count > WS_SIM_MAX_CANDIDATES)
        return WS_E_ARGUMENT;
    memset(sim, 0, offsetof(WsSim, workers));
    sim->cfg = *cfg;
    sim->threads = cfg->threads;
    sim->me = root->to_move;
    sim->opp = 1 - sim->me;
    sim->spread0 = ws_game_spread(root, sim->me);
    for (int t = 0; t < sim->threads; t++) {
        WsSimWorker *w = &sim->workers[t];
        ws_game_copy(&w->work, root); /* a state from the start: samples ws_game_recopy into it */
        memcpy(&w->gen, proto, sizeof w->gen); /* a generator holds no pointer into itself between calls */
        memcpy(&w->reply_gen, proto, sizeof w->reply_gen);
        w->reply_gen.keep_values = 1; /* the replies of an iteration share the opponent's rack */
        w->reply_gen.values_valid = 0;
        w->base_iteration = -1;
        w->nodes = 0;
        w->rc = WS_OK;
        w->sim = sim;
    }
    /* the root of every iteration: what the mover cannot see goes back into the bag */
    ws_game_copy(&sim->root, root);
    if (ws_game_return_rack(&sim->root, sim->opp) != WS_OK) return WS_E_ARGUMENT;
    sim->opp_count = sim->root.bag_count < R->rack_size ? sim->root.bag_count : R->rack_size;
    sim->exact = sim->root.bag_count <= sim->opp_count;
    /* the leaves of the candidates, with the bag as the mover sees it: the opponent holds
     * a full rack (any: only its size matters, or every unseen tile when the bag is empty) */
    WsGame *probe = &sim->workers[0].work;
    ws_game_copy(probe, &sim->root);
    ws_game_draw(probe, sim->opp, sim->opp_count);
    WsGen *g = &sim->workers[0].gen;
    if (ws_game_load(probe, g, 1, cfg->player.leaves) != WS_OK) return WS_E_LEAVE;
    for (int t = 0; t < sim->threads; t++) ws_lane_pool_init(&sim->workers[t].lanes, g); /* g: the root's board */
    for (int i = 0; i < count; i++) {
        WsSimArm *arm = &sim->arms[i];
        uint8_t kept[WS_MAX_LETTERS + 1];
        arm->action = candidates[i];
        if (kept_tiles(probe, &arm->action, kept) != WS_OK) return WS_E_NOT_ON_RACK;
        int idx = ws_gen_leave_index(g, kept);
        if (idx < 0) return WS_E_LEAVE;
        float leave = arm->action.kind == WS_TURN_PASS ? 0.0f : g->leave_value[idx];
        arm->leave = leave;
        arm->static_equity = (arm->action.kind == WS_TURN_PLAY ? (float)arm->action.move.score : 0.0f) + leave;
        arm->action.equity = arm->static_equity;
        arm->alive = 1;
        /* the root must take it (the squares free, a swap allowed now) */
        WsGame *trial = &sim->workers[0].base;
        ws_game_copy(trial, probe);
        int applied = ws_action_apply(trial, &arm->action, NULL);
        if (applied != WS_OK) return applied;
        sim->alive_index[i] = i;
    }
    sim->count = count;
    sim->alive_count = count;
    sim->stop = WS_SIM_RUNNING;
    return WS_OK;
}

/* ------------------------------------------------------------------------ */
/* One sample                                                               */
/* ------------------------------------------------------------------------ */

static int sample(WsSim *sim, WsSimWorker *w, int64_t iteration, int arm, double *eq, double *win) {
    const WsSimConfig *cfg = &sim->cfg;
    WsGame *base = &w->base;
    if (w->base_iteration != iteration) {
        ws_game_copy(base, &sim->root);
        seed_iteration(base, cfg->seed, iteration);
        int kept = cfg->infer_count > 0 ? draw_inferred(base, sim->opp, cfg) : 0;
        ws_game_draw(base, sim->opp, sim->opp_count - kept);
        w->base_iteration = iteration;
    }
    WsGame *s = &w->work;
    ws_game_recopy(s, base);
    const WsSimArm *a = &sim->arms[arm];
    float leave[2] = {0.0f, 0.0f};
    int rc = ws_action_apply(s, &a->action, NULL);
    if (rc != WS_OK) return rc;
    w->nodes++;
    leave[sim->me] = a->leave;
    for (int ply = 0; ply < cfg->plies && s->end_reason == WS_END_NONE; ply++) {
        WsAction act;
        int mover = s->to_move;
        /* the reply has a generator of its own: its rack, the opponent's, is the same for
         * every candidate of the iteration, and so are its leave values */
        WsGen *g = ply == 0 ? &w->reply_gen : &w->gen;
        rc = ws_player_choose_pool(s, g, &cfg->player, -1, &act, cfg->fresh_searches ? NULL : &w->lanes);
        if (rc == WS_OK) rc = ws_action_apply(s, &act, NULL);
        if (rc != WS_OK) return rc;
        w->nodes++;
        leave[mover] = action_leave(&act);
    }
    int spread = ws_game_spread(s, sim->me);
    if (s->end_reason != WS_END_NONE) {
        *eq = (double)(spread - sim->spread0);
        *win = spread > 0 ? 1.0 : spread == 0 ? 0.5 : 0.0;
        return WS_OK;
    }
    double adjusted = (double)spread + (double)leave[sim->me] - (double)leave[sim->opp];
    *eq = adjusted - sim->spread0;
    int x = s->to_move;
    int unseen = s->bag_count + s->rack_total[1 - x];
    double p = ws_sim_win_lookup(cfg, x == sim->me ? adjusted : -adjusted, unseen);
    *win = x == sim->me ? p : 1.0 - p;
    return WS_OK;
}

/* The items of the round: its whole iterations, then a candidate of each one split. */
static int64_t round_tickets(const WsSim *sim) {
    return sim->round_whole + (sim->round_items - sim->round_whole) * sim->alive_count;
}

static void *worker_main(void *arg) {
    WsSimWorker *w = (WsSimWorker *)arg;
    WsSim *sim = w->sim;
    int alive = sim->alive_count;
    for (;;) {
        /* the clock: not before the first iteration is taken (every candidate then gets
         * its first sample), so that a budget however short, or a machine however loaded,
         * still gives every candidate a value; read before an iteration is taken
         * (complete_iterations counts every one taken: a worker finishes what it took) */
        if (sim->deadline > 0.0 && (sim->iterations > 0 || __atomic_load_n(&sim->next_item, __ATOMIC_RELAXED) >= 1) &&
            budget_clock(sim) >= sim->deadline)
            break;
        int64_t item = __atomic_fetch_add(&sim->next_item, 1, __ATOMIC_RELAXED);
        int64_t j = item;
        int first = 0, end = alive;
        if (item >= sim->round_whole) { /* one candidate of an iteration of the round's tail */
            j = sim->round_whole + (item - sim->round_whole) / alive;
            first = (int)((item - sim->round_whole) % alive);
            end = first + 1;
        }
        if (j >= sim->round_items) break;
        for (int slot = first; slot < end; slot++) {
            double eq = 0.0, win = 0.0;
            int rc = sample(sim, w, sim->round_first + j, sim->alive_index[slot], &eq, &win);
            if (rc != WS_OK) {
                w->rc = rc;
                __atomic_store_n(&sim->next_item, round_tickets(sim), __ATOMIC_RELAXED);
                return NULL;
            }
            sim->eq_buf[j][slot] = eq;
            sim->win_buf[j][slot] = win;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Rounds                                                                   */
/* ------------------------------------------------------------------------ */

static double utility(const WsSim *sim, double eq, double win) {
    if (!sim->cfg.win_table) return eq;
    double w = sim->cfg.spread_weight;
    if (w == 0.0) return win + WS_SIM_TIE_WEIGHT * eq;
    /* the logistic with a non-positive exponent either side, so exp cannot overflow */
    double x = ((double)sim->spread0 + eq) / sim->cfg.spread_scale, e = exp(-fabs(x));
    double sig = x >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
    return (win + w * sig) / (1.0 + w) + WS_SIM_TIE_WEIGHT * eq;
}

/* The mean utility of a candidate: of its samples' utilities, or, without a spread
 * weight (a linear utility), of its means, as before the weight existed. */
static double arm_utility(const WsSim *sim, const WsSimArm *a) {
    if (a->n == 0) return -HUGE_VAL;
    if (sim->cfg.win_table && sim->cfg.spread_weight > 0.0) return a->u_sum / (double)a->n;
    return utility(sim, a->eq_sum / (double)a->n, a->win_sum / (double)a->n);
}

double ws_sim_arm_utility(const WsSim *sim, int i) { return arm_utility(sim, &sim->arms[i]); }

static int64_t round_size(const WsSim *sim) {
    int64_t n = sim->iterations, b;
    if (n == 0)
        b = sim->cfg.sampling == WS_SIM_BAI && sim->cfg.min_iterations > WS_SIM_FIRST_ROUND ? sim->cfg.min_iterations
                                                                                            : WS_SIM_FIRST_ROUND;
    else
        b = n / 2 < WS_SIM_FIRST_ROUND ? WS_SIM_FIRST_ROUND : n / 2;
    if (b > WS_SIM_MAX_ROUND) b = WS_SIM_MAX_ROUND;
    if (sim->cfg.max_iterations && b > sim->cfg.max_iterations - n) b = sim->cfg.max_iterations - n;
    if (sim->exact && b > 1 - n) b = 1 - n;
    return b;
}

/* The samples of the round's first `complete` iterations, in order (so the sums do not
 * depend on which thread took which item). */
static void accumulate(WsSim *sim, int64_t complete) {
    int alive = sim->alive_count;
    double u[WS_SIM_MAX_CANDIDATES]; /* the iteration's utilities, made once each */
    for (int64_t j = 0; j < complete; j++) {
        for (int s = 0; s < alive; s++) {
            WsSimArm *a = &sim->arms[sim->alive_index[s]];
            double eq = sim->eq_buf[j][s], win = sim->win_buf[j][s];
            u[s] = utility(sim, eq, win);
            a->n++;
            a->eq_sum += eq;
            a->eq_sum2 += eq * eq;
            a->win_sum += win;
            a->win_sum2 += win * win;
            a->u_sum += u[s];
        }
        if (sim->cfg.sampling != WS_SIM_BAI) continue;
        for (int s = 0; s < alive; s++) {
            int as = sim->alive_index[s];
            for (int t = s + 1; t < alive; t++) {
                double d = u[s] - u[t];
                int at = sim->alive_index[t];
                sim->pair_sum[as][at] += d;
                sim->pair_sum2[as][at] += d * d;
            }
        }
    }
    sim->iterations += complete;
}

/* Successive elimination (see the top of this file). */
static void eliminate(WsSim *sim) {
    int64_t n = sim->iterations;
    if (sim->alive_count < 2 || n < sim->cfg.min_iterations) return;
    int leader = sim->alive_index[0];
    double best = arm_utility(sim, &sim->arms[leader]);
    for (int s = 1; s < sim->alive_count; s++) {
        int c = sim->alive_index[s];
        double u = arm_utility(sim, &sim->arms[c]);
        if (u > best) {
            best = u;
            leader = c;
        }
    }
    double beta = log((double)(sim->count - 1) / sim->cfg.delta) + 2.0 * log(1.0 + log((double)n));
    int kept = 0;
    for (int s = 0; s < sim->alive_count; s++) {
        int c = sim->alive_index[s];
        int drop = 0;
        if (c != leader) {
            int lo = c < leader ? c : leader, hi = c < leader ? leader : c;
            double mean = sim->pair_sum[lo][hi] / (double)n; /* of u_lo - u_hi */
            double var = sim->pair_sum2[lo][hi] / (double)n - mean * mean;
            double d = lo == leader ? mean : -mean; /* of u_leader - u_c */
            if (var <= 1e-18 * (1.0 + d * d)) {
                drop = d >= 0.0; /* constant differences: worse on every draw, or the same */
            } else if (d > 0.0) {
                drop = 0.5 * (double)n * log1p(d * d / var) > beta;
            }
        }
        if (drop) {
            sim->arms[c].alive = 0;
            sim->arms[c].dropped_after = (int32_t)n;
        } else {
            sim->alive_index[kept++] = c;
        }
    }
    sim->alive_count = kept;
}

/* The iterations of the round every candidate still in has played (every item taken:
 * its worker finished it; an iteration of the tail counts once all its items are). */
static int64_t complete_iterations(const WsSim *sim) {
    int64_t taken = sim->next_item < round_tickets(sim) ? sim->next_item : round_tickets(sim);
    if (taken <= sim->round_whole) return taken;
    return sim->round_whole + (taken - sim->round_whole) / sim->alive_count;
}

static int run_round(WsSim *sim) {
    int64_t b = round_size(sim);
    if (b <= 0) return WS_OK;
    sim->round_first = sim->iterations;
    sim->round_items = b;
    sim->round_whole = b; /* one thread: no tail to split */
    if (sim->threads > 1) sim->round_whole = b > sim->threads ? b - sim->threads : 0;
    sim->next_item = 0;
    int started = 1;
#ifdef WS_SIM_PTHREADS
    for (int t = 1; t < sim->threads; t++) {
        if (pthread_create(&sim->workers[t].thread, NULL, worker_main, &sim->workers[t]) != 0) break;
        started++;
    }
#endif
    worker_main(&sim->workers[0]);
#ifdef WS_SIM_PTHREADS
    for (int t = 1; t < started; t++) pthread_join(sim->workers[t].thread, NULL);
#endif
    int rc = WS_OK;
    for (int t = 0; t < started; t++) {
        WsSimWorker *w = &sim->workers[t];
        sim->nodes += w->nodes;
        w->nodes = 0;
        if (w->rc != WS_OK) rc = w->rc;
    }
    if (rc != WS_OK) return rc;
    accumulate(sim, complete_iterations(sim));
    if (sim->cfg.sampling == WS_SIM_BAI) eliminate(sim);
    return WS_OK;
}

int ws_sim_run(WsSim *sim, double step_seconds, WsSimStatus *status) {
    double t0 = now(), c0 = cpu_now();
    int rc = WS_OK;
    if (!sim->started) {
        sim->started = 1;
        double budget = sim->cfg.seconds * (sim->cfg.cpu_clock ? sim->threads : 1);
        sim->deadline = sim->cfg.seconds > 0.0 ? budget_clock(sim) + budget : 0.0;
    }
    while (sim->stop == WS_SIM_RUNNING) {
        if (sim->exact && sim->iterations >= 1) {
            sim->stop = WS_SIM_EXACT;
        } else if (sim->cfg.sampling == WS_SIM_BAI && sim->alive_count <= 1) {
            sim->stop = WS_SIM_ONE_LEFT;
        } else if (sim->cfg.max_iterations && sim->iterations >= sim->cfg.max_iterations) {
            sim->stop = WS_SIM_ITERATIONS;
        } else if (sim->deadline > 0.0 && sim->iterations > 0 && budget_clock(sim) >= sim->deadline) {
            sim->stop = WS_SIM_DEADLINE; /* (the first iteration runs whatever the clock says) */
        } else if (step_seconds > 0.0 && sim->iterations > 0 && now() - t0 >= step_seconds) {
            break;
        } else {
            rc = run_round(sim);
            if (rc != WS_OK) break;
        }
    }
    sim->spent += now() - t0;
    sim->cpu_spent += cpu_now() - c0;
    status->iterations = sim->iterations;
    status->nodes = sim->nodes;
    status->seconds = sim->spent;
    status->cpu_seconds = sim->cpu_spent;
    status->alive = sim->alive_count;
    status->stop = sim->stop;
    return rc;
}

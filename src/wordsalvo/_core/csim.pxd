# Mirrors csrc/ws_sim.h
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t

from wordsalvo._core.cmovegen cimport WsGen
from wordsalvo._core.cgame cimport WsGame
from wordsalvo._core.caction cimport WsPlayer, WsAction

cdef extern from "ws_sim.h" nogil:
    int WS_SIM_MAX_CANDIDATES
    int WS_SIM_MAX_THREADS
    int WS_SIM_MAX_PLIES
    int WS_SIM_MAX_ITERATIONS
    int WS_SIM_MAX_INFER
    int WS_SIM_INFER_END
    int WS_SIM_RR
    int WS_SIM_BAI
    int WS_SIM_RUNNING
    int WS_SIM_ITERATIONS
    int WS_SIM_DEADLINE
    int WS_SIM_ONE_LEFT
    int WS_SIM_EXACT

    ctypedef struct WsSimConfig:
        int32_t plies
        int32_t sampling
        int32_t threads
        int32_t min_iterations
        int64_t max_iterations
        double seconds
        int32_t cpu_clock
        double delta
        double spread_weight, spread_scale
        uint64_t seed
        WsPlayer player
        const float *win_table
        int32_t win_spread
        int32_t win_unseen
        const uint8_t *infer_tiles
        const double *infer_cum
        int32_t infer_count
        int32_t fresh_searches

    ctypedef struct WsSimArm:
        WsAction action
        float leave
        float static_equity
        int32_t alive
        int32_t dropped_after
        int64_t n
        double eq_sum, eq_sum2, win_sum, win_sum2
        double u_sum

    ctypedef struct WsSimStatus:
        int64_t iterations
        int64_t nodes
        double seconds
        double cpu_seconds
        int32_t alive
        int32_t stop

    ctypedef struct WsSim:
        pass

    size_t ws_sim_size(int threads)
    int ws_sim_setup(WsSim *sim, const WsSimConfig *cfg, const WsGame *root, const WsGen *proto,
                     const WsAction *candidates, int count)
    int ws_sim_run(WsSim *sim, double step_seconds, WsSimStatus *status)
    const WsSimArm *ws_sim_arms(const WsSim *sim, int *count)
    double ws_sim_arm_utility(const WsSim *sim, int i)
    double ws_sim_win_lookup(const WsSimConfig *cfg, double spread, int unseen)

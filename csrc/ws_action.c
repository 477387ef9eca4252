/* The static player and the actions; see ws_action.h.  Each step names the Bot method it
 * was (Bot now calls these); the rules of the turns are ws_game.c's. */
#include <math.h>
#include <string.h>

#include "ws_action.h"

int ws_action_apply(WsGame *s, const WsAction *a, WsUndo *u) {
    if (a->kind == WS_TURN_PLAY) return ws_game_play(s, &a->move, u);
    if (a->kind == WS_TURN_SWAP) return ws_game_swap(s, a->swap, u);
    if (a->kind == WS_TURN_PASS) return ws_game_pass(s, u);
    return WS_E_ARGUMENT;
}

/* A swap of the tiles not kept (the whole rack: kept all 0). */
static void swap_action(const WsGame *s, const uint8_t *kept, float equity, WsAction *a) {
    a->kind = WS_TURN_SWAP;
    a->equity = equity;
    for (int t = 0; t <= WS_MAX_LETTERS; t++) a->swap[t] = (uint8_t)(s->rack[s->to_move][t] - kept[t]);
}

int ws_swap_run_endless(const WsGameRules *R) {
    return R->swap_resets_pass && !(R->scoreless_turns > 0 && (R->scoreless_kinds & WS_SCORELESS_SWAP));
}

/* ws_player_options; with only_if_better, no swap is looked for that cannot beat the play
 * (ws_player_choose needs the pick only; the options' callers show the best swap). */
static int player_options(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, int search_play,
                          WsAction *play, WsAction *swap, int only_if_better, WsLanePool *pool) {
    const WsGameRules *R = s->rules;
    int seat = s->to_move;
    uint8_t kept[WS_MAX_LETTERS + 1];
    size_t found = 0;
    memset(swap, 0, sizeof *swap);
    swap->kind = WS_TURN_PASS;
    if (search_play) {
        memset(play, 0, sizeof *play);
        play->kind = WS_TURN_PASS;
    }
    /* MoveGenerator._load: equity terms (leaves.endgame_terms), board, rack */
    int rc = ws_game_load(s, g, P->by_equity, P->zero ? NULL : P->leaves);
    if (rc != WS_OK) return rc;
    if (!P->by_equity) {
        /* Bot._choose_score, Bot._fallback */
        if (search_play) {
            rc = ws_gen_best(g, &play->move, 1, &found);
            if (rc != WS_OK) return rc;
            if (found) play->kind = WS_TURN_PLAY;
        }
        if (play->kind != WS_TURN_PLAY && s->rack_total[seat] && ws_game_swap_allowed(s, s->rack_total[seat]) &&
            last_kind != WS_TURN_SWAP && last_kind != WS_PLAYER_SWAP_RUN) {
            memset(kept, 0, sizeof kept);
            swap_action(s, kept, 0.0f, swap);
        }
        return WS_OK;
    }
    /* Bot._choose_equity, Bot._best_swap, MoveGenerator.best_swap */
    if (search_play) {
        rc = pool ? ws_gen_best_equity_pool(g, pool, &play->move, &play->equity, &found)
                   : ws_gen_best_equity(g, &play->move, &play->equity, 1, &found);
        if (rc != WS_OK) return rc;
        if (found) play->kind = WS_TURN_PLAY;
        else play->equity = 0.0f;
    }
    int has_play = play->kind == WS_TURN_PLAY;
    /* no swap keeps more than the best leave of fewer tiles than the rack holds: a play
     * worth at least that is picked whatever the best swap is */
    float swap_bound = HUGE_VALF;
    if (only_if_better && has_play) {
        swap_bound = -HUGE_VALF;
        for (int k = 0; k < s->rack_total[seat] && k <= WS_RACK_MAX; k++)
            if (g->leave_best[k] > swap_bound) swap_bound = g->leave_best[k];
    }
    if ((!has_play || (play->equity < P->swap_ceiling && play->equity < swap_bound)) &&
        last_kind != WS_PLAYER_SWAP_RUN) {
        int first = R->swap_whole_rack ? s->rack_total[seat] : 1;
        if (s->rack_total[seat] && ws_game_swap_allowed(s, first)) {
            int index = ws_gen_best_swap(g, P->leaves, s->bag_count, R->swap_min_bag, R->swap_whole_rack,
                                         R->swap_must_cover);
            if (index >= 0) {
                ws_gen_leave_counts(g, index, kept);
                int size = 0;
                for (int t = 0; t <= WS_MAX_LETTERS; t++) size += kept[t];
                if (ws_game_swap_allowed(s, s->rack_total[seat] - size))
                    swap_action(s, kept, g->leave_value[index], swap);
            }
        }
    }
    return WS_OK;
}

int ws_player_options(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, int search_play, WsAction *play,
                      WsAction *swap) {
    return player_options(s, g, P, last_kind, search_play, play, swap, 0, NULL);
}

void ws_player_pick(const WsAction *play, const WsAction *swap, WsAction *a) {
    if (play->kind == WS_TURN_PLAY && (swap->kind != WS_TURN_SWAP || play->equity >= swap->equity)) {
        if (a != play) *a = *play;
    } else if (swap->kind == WS_TURN_SWAP) {
        if (a != swap) *a = *swap;
    } else {
        memset(a, 0, sizeof *a);
        a->kind = WS_TURN_PASS;
    }
}

int ws_player_choose(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, WsAction *a) {
    return ws_player_choose_pool(s, g, P, last_kind, a, NULL);
}

int ws_player_choose_pool(const WsGame *s, WsGen *g, const WsPlayer *P, int last_kind, WsAction *a,
                          WsLanePool *pool) {
    WsAction swap;
    int rc = player_options(s, g, P, last_kind, 1, a, &swap, 1, pool);
    if (rc != WS_OK) {
        memset(a, 0, sizeof *a);
        a->kind = WS_TURN_PASS;
        return rc;
    }
    ws_player_pick(a, &swap, a);
    return WS_OK;
}

/* Self-play of the score and equity engine players on the game state; see ws_selfplay.h.
 *
 * Each step names the Bot method it mirrors; the rules of the turns are ws_game.c's.
 */
#include <math.h>
#include <string.h>

#include "ws_selfplay.h"

static WsTurnRecord *new_record(WsSelfplay *sp, int seat, int kind) {
    const WsGame *s = &sp->game;
    /* past the capacity the entry is only counted (written to scratch, never read) */
    WsTurnRecord *rec = sp->count < sp->capacity ? &sp->out[sp->count] : &sp->scratch;
    sp->count++;
    memset(rec, 0, sizeof *rec);
    rec->player = (uint8_t)seat;
    rec->kind = (uint8_t)kind;
    rec->bag_before = s->bag_count;
    rec->rack_len = (uint8_t)ws_game_rack_codes(s, seat, rec->rack);
    rec->other_len = (uint8_t)s->rack_total[1 - seat];
    return rec;
}

/* The settlement entries of the end (Game._finish's "settle" turns). */
static void settle_records(WsSelfplay *sp) {
    const WsGame *s = &sp->game;
    for (int i = 0; i < s->settle_count; i++) {
        const WsSettle *e = &s->settle[i];
        WsTurnRecord *rec = new_record(sp, e->rack_owner, WS_TURN_SETTLE);
        rec->player = e->player;
        rec->score = e->score;
        rec->total = e->total;
        rec->rack_owner = e->rack_owner;
    }
}

/* The record of an action about to be taken (Game's Turn of it). */
static void action_record(WsSelfplay *sp, int seat, const WsAction *a) {
    const WsGame *s = &sp->game;
    WsTurnRecord *rec = new_record(sp, seat, a->kind);
    rec->equity = a->equity;
    rec->total = s->score[seat];
    if (a->kind == WS_TURN_PLAY) {
        rec->move = a->move;
        rec->score = a->move.score;
        rec->total += a->move.score;
    } else if (a->kind == WS_TURN_SWAP) {
        int n = 0;
        for (int t = 1; t <= s->rules->alphabet_size; t++)
            for (int c = 0; c < a->swap[t]; c++) rec->tiles[n++] = (uint8_t)t;
        for (int c = 0; c < a->swap[0]; c++) rec->tiles[n++] = 0;
        rec->tiles_len = (uint8_t)n;
    }
}

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

int ws_player_choose(const WsGame *s, WsGen *g, const WsSelfplayPlayer *P, int last_kind, WsAction *a) {
    const WsGameRules *R = s->rules;
    int seat = s->to_move;
    uint8_t kept[WS_MAX_LETTERS + 1];
    float equity = 0.0f;
    size_t found = 0;
    memset(a, 0, sizeof *a);
    a->kind = WS_TURN_PASS;
    /* MoveGenerator._load: equity terms (leaves.endgame_terms), board, rack */
    int rc = ws_game_load(s, g, P->by_equity, P->zero ? NULL : P->leaves);
    if (rc != WS_OK) return rc;
    if (!P->by_equity) {
        /* Bot._choose_score, Bot._fallback */
        rc = ws_gen_best(g, &a->move, 1, &found);
        if (rc != WS_OK) return rc;
        if (found) {
            a->kind = WS_TURN_PLAY;
        } else if (s->rack_total[seat] && ws_game_swap_allowed(s, s->rack_total[seat]) && last_kind != WS_TURN_SWAP &&
                   last_kind != WS_PLAYER_SWAP_RUN) {
            memset(kept, 0, sizeof kept);
            swap_action(s, kept, 0.0f, a);
        }
        return WS_OK;
    }
    /* Bot._choose_equity, Bot._best_swap, MoveGenerator.best_swap */
    rc = ws_gen_best_equity(g, &a->move, &equity, 1, &found);
    if (rc != WS_OK) return rc;
    int swap = -1;
    /* no swap keeps more than the best leave of fewer tiles than the rack holds: a play
     * worth at least that is chosen whatever the best swap is, so it is not looked for */
    float swap_bound = -HUGE_VALF;
    for (int k = 0; k < s->rack_total[seat] && k <= WS_RACK_MAX; k++)
        if (g->leave_best[k] > swap_bound) swap_bound = g->leave_best[k];
    if ((!found || (equity < P->swap_ceiling && equity < swap_bound)) && last_kind != WS_PLAYER_SWAP_RUN) {
        int first = R->swap_whole_rack ? s->rack_total[seat] : 1;
        if (s->rack_total[seat] && ws_game_swap_allowed(s, first)) {
            swap = ws_gen_best_swap(g, P->leaves, s->bag_count, R->swap_min_bag, R->swap_whole_rack,
                                    R->swap_must_cover);
            if (swap >= 0) {
                ws_gen_leave_counts(g, swap, kept);
                int size = 0;
                for (int t = 0; t <= WS_MAX_LETTERS; t++) size += kept[t];
                if (!ws_game_swap_allowed(s, s->rack_total[seat] - size)) swap = -1;
            }
        }
    }
    if (found && (swap < 0 || equity >= g->leave_value[swap])) {
        a->kind = WS_TURN_PLAY;
        a->equity = equity;
    } else if (swap >= 0) {
        swap_action(s, kept, g->leave_value[swap], a);
    }
    return WS_OK;
}

/* One turn of the player on turn: Bot.choose, then Game.apply. */
static int take_turn(WsSelfplay *sp, WsGen *g) {
    int seat = sp->game.to_move;
    WsAction a;
    int last = sp->last_kind[seat];
    int other = sp->last_kind[1 - seat];
    if ((last == WS_TURN_SWAP || last == WS_TURN_PASS) && (other == WS_TURN_SWAP || other == WS_TURN_PASS) &&
        ws_swap_run_endless(sp->rules))
        last = WS_PLAYER_SWAP_RUN; /* the two turns before this one scored nothing */
    int rc = ws_player_choose(&sp->game, g, &sp->player[seat], last, &a);
    if (rc != WS_OK) return rc;
    action_record(sp, seat, &a);
    sp->last_kind[seat] = a.kind;
    return ws_action_apply(&sp->game, &a, NULL);
}

int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                     size_t capacity, size_t *count) {
    *count = 0;
    if (!sp->rules || sp->rules->players != 2 || seed_length < 1) return WS_E_ARGUMENT;
    sp->last_kind[0] = sp->last_kind[1] = -1;
    sp->turns = 0;
    sp->out = out;
    sp->capacity = capacity;
    sp->count = 0;
    int rc = ws_game_new(&sp->game, sp->rules, seed_key, seed_length);
    while (rc == WS_OK && sp->game.end_reason == WS_END_NONE) {
        if (sp->turns > sp->turn_limit) {
            rc = WS_E_ARGUMENT;
            break;
        }
        rc = take_turn(sp, g);
        sp->turns++;
        if (rc == WS_OK && sp->game.end_reason != WS_END_NONE) settle_records(sp);
    }
    *count = sp->count;
    if (rc != WS_OK) return rc;
    return sp->count > capacity ? WS_E_CAPACITY : WS_OK;
}

/* Self-play of the score and equity engine players on the game state; see ws_selfplay.h.
 *
 * Each step names the Bot method it mirrors; the rules of the turns are ws_game.c's.
 */
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

static int play_move(WsSelfplay *sp, int seat, const WsMove *m, float equity) {
    WsTurnRecord *rec = new_record(sp, seat, WS_TURN_PLAY);
    rec->move = *m;
    rec->equity = equity;
    rec->score = m->score;
    rec->total = sp->game.score[seat] + m->score;
    int rc = ws_game_play(&sp->game, m, NULL);
    if (rc != WS_OK) return rc;
    sp->last_kind[seat] = WS_TURN_PLAY;
    return WS_OK;
}

/* The tiles not kept go back (Game.swap). */
static int swap_tiles(WsSelfplay *sp, int seat, const uint8_t *kept, float equity) {
    WsGame *s = &sp->game;
    WsTurnRecord *rec = new_record(sp, seat, WS_TURN_SWAP);
    uint8_t back[WS_MAX_LETTERS + 1];
    for (int t = 0; t <= WS_MAX_LETTERS; t++) back[t] = (uint8_t)(s->rack[seat][t] - kept[t]);
    int n = 0;
    for (int t = 1; t <= s->rules->alphabet_size; t++)
        for (int c = 0; c < back[t]; c++) rec->tiles[n++] = (uint8_t)t;
    for (int c = 0; c < back[0]; c++) rec->tiles[n++] = 0;
    rec->tiles_len = (uint8_t)n;
    rec->equity = equity;
    rec->total = s->score[seat];
    int rc = ws_game_swap(s, back, NULL);
    if (rc != WS_OK) return rc;
    sp->last_kind[seat] = WS_TURN_SWAP;
    return WS_OK;
}

static int pass_turn(WsSelfplay *sp, int seat) {
    WsTurnRecord *rec = new_record(sp, seat, WS_TURN_PASS);
    rec->total = sp->game.score[seat];
    sp->last_kind[seat] = WS_TURN_PASS;
    return ws_game_pass(&sp->game, NULL);
}

/* The counts kept by leave index idx of the generator's current rack. */
static void kept_counts(const WsGen *g, int idx, uint8_t *kept) {
    memset(kept, 0, WS_MAX_LETTERS + 1);
    for (int i = 0; i < g->leave_types; i++) {
        int t = g->leave_type[i];
        kept[t] = (uint8_t)(idx % (g->rack[t] + 1));
        idx /= g->rack[t] + 1;
    }
}

/* One turn of the player on turn: Bot.choose, then Game.apply. */
static int take_turn(WsSelfplay *sp, WsGen *g) {
    WsGame *s = &sp->game;
    int seat = s->to_move;
    const WsSelfplayPlayer *P = &sp->player[seat];
    uint8_t kept[WS_MAX_LETTERS + 1];
    WsMove m;
    float equity = 0.0f;
    size_t found = 0;
    /* MoveGenerator._load: equity terms (leaves.endgame_terms), board, rack */
    int rc = ws_game_load(s, g, P->by_equity, P->zero ? NULL : P->leaves);
    if (rc != WS_OK) return rc;
    if (!P->by_equity) {
        /* Bot._choose_score, Bot._fallback */
        rc = ws_gen_best(g, &m, 1, &found);
        if (rc != WS_OK) return rc;
        if (found) return play_move(sp, seat, &m, 0.0f);
        if (s->rack_total[seat] && ws_game_swap_allowed(s, s->rack_total[seat]) &&
            sp->last_kind[seat] != WS_TURN_SWAP) {
            memset(kept, 0, sizeof kept);
            return swap_tiles(sp, seat, kept, 0.0f);
        }
        return pass_turn(sp, seat);
    }
    /* Bot._choose_equity, Bot._best_swap, MoveGenerator.best_swap */
    rc = ws_gen_best_equity(g, &m, &equity, 1, &found);
    if (rc != WS_OK) return rc;
    int swap = -1;
    const WsGameRules *R = sp->rules;
    if (!found || equity < P->swap_ceiling) {
        int first = R->swap_whole_rack ? s->rack_total[seat] : 1;
        if (s->rack_total[seat] && ws_game_swap_allowed(s, first)) {
            swap = ws_gen_best_swap(g, P->leaves, s->bag_count, R->swap_min_bag, R->swap_whole_rack,
                                    R->swap_must_cover);
            if (swap >= 0) {
                kept_counts(g, swap, kept);
                int size = 0;
                for (int t = 0; t <= WS_MAX_LETTERS; t++) size += kept[t];
                if (!ws_game_swap_allowed(s, s->rack_total[seat] - size)) swap = -1;
            }
        }
    }
    if (found && (swap < 0 || equity >= g->leave_value[swap])) return play_move(sp, seat, &m, equity);
    if (swap >= 0) return swap_tiles(sp, seat, kept, g->leave_value[swap]);
    return pass_turn(sp, seat);
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

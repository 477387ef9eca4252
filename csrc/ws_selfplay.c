/* Self-play of the score, equity and rated engine players on the game state; see ws_selfplay.h.
 *
 * The players' choices are ws_action.c's (ws_player_choose) and ws_rated.c's
 * (ws_rated_choose); the rules of the turns are ws_game.c's.
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

/* The record of an action about to be taken (Game's Turn of it); forced: its rack was forced. */
static void action_record(WsSelfplay *sp, int seat, const WsAction *a, int forced) {
    const WsGame *s = &sp->game;
    WsTurnRecord *rec = new_record(sp, seat, a->kind);
    rec->forced = (uint8_t)forced;
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

/* Whether the forced racks are full racks of the rule set's tiles. */
static int force_valid(const WsSelfplay *sp) {
    const WsGameRules *R = sp->rules;
    if (sp->force_count < 0 || sp->force_count > WS_SELFPLAY_FORCE_MAX || (sp->force_count && !sp->force))
        return 0;
    for (int i = 0; i < sp->force_count; i++) {
        const uint8_t *f = sp->force + (size_t)i * (WS_MAX_LETTERS + 1);
        int total = 0;
        for (int t = 0; t <= WS_MAX_LETTERS; t++) {
            if (f[t] && t > R->alphabet_size) return 0;
            total += f[t];
        }
        if (total != R->rack_size) return 0;
    }
    return 1;
}

/* Forces the first unused forced rack the mover's rack and the bag can supply onto the
 * mover (see WsSelfplay.force); 1 if one was forced. */
static int force_rack(WsSelfplay *sp, int seat) {
    WsGame *s = &sp->game;
    const WsGameRules *R = sp->rules;
    if (sp->turns < sp->force_from || s->rack_total[seat] != R->rack_size || s->bag_count < R->rack_size) return 0;
    int have[WS_MAX_LETTERS + 1] = {0}; /* the tiles of the rack and the bag */
    for (int i = 0; i < s->bag_count; i++) have[s->bag[i]]++;
    for (int t = 0; t <= R->alphabet_size; t++) have[t] += s->rack[seat][t];
    for (int i = 0; i < sp->force_count; i++) {
        if (sp->force_used >> i & 1) continue;
        const uint8_t *f = sp->force + (size_t)i * (WS_MAX_LETTERS + 1);
        int t = 0;
        while (t <= R->alphabet_size && f[t] <= have[t]) t++;
        if (t <= R->alphabet_size) continue; /* not in the bag now: a later turn may have it */
        if (ws_game_return_rack(s, seat) != WS_OK) return 0;
        for (int k = 1; k <= R->alphabet_size + 1; k++) { /* letters by code, blanks last */
            int code = k <= R->alphabet_size ? k : 0;
            for (int c = 0; c < f[code]; c++) ws_game_take_from_bag(s, seat, code); /* in the bag: checked */
        }
        sp->force_used |= (uint64_t)1 << i;
        sp->forced++;
        return 1;
    }
    return 0;
}

/* Whether the probe racks are full racks the rule set's tiles can make, with somewhere to
 * write their values, and both seats equity players (see WsSelfplay.probe). */
static int probe_valid(const WsSelfplay *sp) {
    const WsGameRules *R = sp->rules;
    if (sp->probe_count == 0) return 1;
    if (sp->probe_count < 0 || sp->probe_count > WS_SELFPLAY_PROBE_MAX || !sp->probe || !sp->probe_kind ||
        !sp->probe_equity || sp->probe_per_turn < 1)
        return 0;
    for (int seat = 0; seat < 2; seat++)
        if (sp->player[seat].kind != WS_SELFPLAY_STATIC || !sp->player[seat].engine.by_equity) return 0;
    int tiles[WS_MAX_LETTERS + 1] = {0}; /* the rule set's tile counts */
    for (int i = 0; i < R->bag_count; i++) tiles[R->bag[i]]++;
    for (int i = 0; i < sp->probe_count; i++) {
        const uint8_t *r = sp->probe + (size_t)i * (WS_MAX_LETTERS + 1);
        int total = 0;
        for (int t = 0; t <= WS_MAX_LETTERS; t++) {
            if (r[t] > tiles[t]) return 0;
            total += r[t];
        }
        if (total != R->rack_size) return 0;
    }
    return 1;
}

/* Values the next probe racks in the mover's position (see WsSelfplay.probe); last: the
 * last turn kind the mover's own choice was made with. */
static int probe_racks(WsSelfplay *sp, WsGen *g, int seat, int last) {
    WsGame *s = &sp->game;
    const WsGameRules *R = sp->rules;
    if (sp->probe_done >= sp->probe_count || s->rack_total[seat] != R->rack_size || s->bag_count < R->rack_size)
        return WS_OK;
    uint8_t real[WS_MAX_LETTERS + 1];
    memcpy(real, s->rack[seat], sizeof real);
    int rc = WS_OK;
    for (int k = 0; k < sp->probe_per_turn && sp->probe_done < sp->probe_count && rc == WS_OK; k++) {
        int i = sp->probe_done++;
        WsAction a;
        /* a full rack for a full rack: rack_total stays; the hash is not read by the choice */
        memcpy(s->rack[seat], sp->probe + (size_t)i * (WS_MAX_LETTERS + 1), sizeof real);
        rc = ws_player_choose(s, g, &sp->player[seat].engine, last, &a);
        sp->probe_kind[i] = (uint8_t)a.kind;
        sp->probe_equity[i] = a.kind == WS_TURN_PASS ? 0.0f : a.equity;
    }
    memcpy(s->rack[seat], real, sizeof real);
    return rc;
}

/* One turn of the player on turn: Bot.choose, then Game.apply. */
static int take_turn(WsSelfplay *sp, WsGen *g) {
    int seat = sp->game.to_move;
    int forced = sp->force_count ? force_rack(sp, seat) : 0;
    const WsSelfplayPlayer *P = &sp->player[seat];
    WsAction a;
    int last = sp->last_kind[seat];
    int other = sp->last_kind[1 - seat];
    int rc;
    if (P->kind == WS_SELFPLAY_RATED) {
        /* Bot._choose_rated: no swap-run rule (it weighs the swap by chance, never always takes it) */
        rc = ws_rated_choose(&sp->game, g, &P->rated, last, &sp->rng[seat], &sp->rated_buffer, &a);
    } else {
        if ((last == WS_TURN_SWAP || last == WS_TURN_PASS) && (other == WS_TURN_SWAP || other == WS_TURN_PASS) &&
            ws_swap_run_endless(sp->rules))
            last = WS_PLAYER_SWAP_RUN; /* the two turns before this one scored nothing */
        rc = ws_player_choose(&sp->game, g, &P->engine, last, &a);
    }
    if (rc != WS_OK) return rc;
    if (sp->probe_count) {
        rc = probe_racks(sp, g, seat, last);
        if (rc != WS_OK) return rc;
    }
    action_record(sp, seat, &a, forced);
    sp->last_kind[seat] = a.kind;
    return ws_action_apply(&sp->game, &a, NULL);
}

int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                     size_t capacity, size_t *count) {
    *count = 0;
    sp->probe_done = 0;
    if (!sp->rules || sp->rules->players != 2 || seed_length < 1 || !force_valid(sp) || !probe_valid(sp))
        return WS_E_ARGUMENT;
    sp->last_kind[0] = sp->last_kind[1] = -1;
    sp->force_used = 0;
    sp->forced = 0;
    sp->turns = 0;
    sp->out = out;
    sp->capacity = capacity;
    sp->count = 0;
    int rc = ws_game_new(&sp->game, sp->rules, seed_key, seed_length);
    while (rc == WS_OK && sp->game.end_reason == WS_END_NONE) {
        if (sp->turns > sp->turn_limit) {
            rc = WS_E_TURN_LIMIT;
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

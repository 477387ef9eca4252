/* Self-play of the score and equity engine players; see ws_selfplay.h.
 *
 * Each step below names the Game or Bot method it mirrors, so a change of a rule
 * there is easy to follow here (the tests fail until it is).
 */
#include <string.h>

#include "ws_selfplay.h"

/* Game._draw_one: a random tile of the bag (or of the pool of bag indices), swapped
 * with the last tile, popped. */
static uint8_t draw_at(WsSelfplay *sp, int i) {
    uint8_t t = sp->bag[i];
    sp->bag[i] = sp->bag[sp->bag_count - 1];
    sp->bag_count--;
    return t;
}

static void draw_into_rack(WsSelfplay *sp, int seat, int n) {
    for (int k = 0; k < n && sp->bag_count > 0; k++) {
        uint8_t t = draw_at(sp, (int)ws_rng_below(&sp->rng, (uint32_t)sp->bag_count));
        sp->rack[seat][t]++;
        sp->rack_total[seat]++;
    }
}

/* Game._first_deal: at least first_vowels vowels, then first_consonants consonants
 * (a blank is neither), each from the pool of such bag tiles, then plain draws. */
static int first_deal(WsSelfplay *sp) {
    const WsSelfplayRules *R = &sp->rules;
    int pool[WS_SP_MAX_BAG];
    for (int seat = 0; seat < 2; seat++) {
        int drawn = 0;
        for (int kind = 0; kind < 2; kind++) {
            int want = kind == 0 ? R->first_vowels : R->first_consonants;
            for (int w = 0; w < want; w++) {
                int n = 0;
                for (int i = 0; i < sp->bag_count; i++) {
                    uint8_t t = sp->bag[i];
                    int vowel = (int)(R->vowels >> t & 1);
                    if (kind == 0 ? vowel : (t != 0 && !vowel)) pool[n++] = i;
                }
                if (n == 0) return WS_E_ARGUMENT;
                uint8_t t = draw_at(sp, pool[ws_rng_below(&sp->rng, (uint32_t)n)]);
                sp->rack[seat][t]++;
                sp->rack_total[seat]++;
                drawn++;
            }
        }
        draw_into_rack(sp, seat, R->rack_size - drawn);
    }
    return WS_OK;
}

/* A rack's tiles in rack order (Game.sort_rack: letters in code order, blanks last). */
static int rack_codes(const uint8_t *rack, int alphabet_size, uint8_t *out) {
    int n = 0;
    for (int t = 1; t <= alphabet_size; t++)
        for (int c = 0; c < rack[t]; c++) out[n++] = (uint8_t)t;
    for (int c = 0; c < rack[0]; c++) out[n++] = 0;
    return n;
}

static int rack_value(const WsGen *g, const uint8_t *rack) {
    int v = 0;
    for (int t = 1; t <= g->rules.alphabet_size; t++) v += rack[t] * g->rules.tile_value[t];
    return v;
}

static WsTurnRecord *new_record(WsSelfplay *sp, const WsGen *g, int seat, int kind) {
    /* past the capacity the entry is only counted (written to scratch, never read) */
    WsTurnRecord *rec = sp->count < sp->capacity ? &sp->out[sp->count] : &sp->scratch;
    sp->count++;
    memset(rec, 0, sizeof *rec);
    rec->player = (uint8_t)seat;
    rec->kind = (uint8_t)kind;
    rec->bag_before = sp->bag_count;
    rec->rack_len = (uint8_t)rack_codes(sp->rack[seat], g->rules.alphabet_size, rec->rack);
    rec->other_len = (uint8_t)sp->rack_total[1 - seat];
    return rec;
}

/* Game._finish: the rack settlement of the end (mode), then the game is over. */
static void finish(WsSelfplay *sp, const WsGen *g, int reason, int mode, int finisher) {
    if (mode == WS_SETTLE_PLAY_OUT || mode == WS_SETTLE_SUBTRACT) {
        for (int p = 0; p < 2; p++) {
            if (p == finisher || !sp->rack_total[p]) continue;
            int v = rack_value(g, sp->rack[p]);
            sp->score[p] -= v;
            WsTurnRecord *rec = new_record(sp, g, p, WS_TURN_SETTLE);
            rec->score = -v;
            rec->total = sp->score[p];
            rec->rack_owner = (uint8_t)p;
        }
        if (mode == WS_SETTLE_PLAY_OUT && finisher >= 0) {
            for (int p = 0; p < 2; p++) {
                if (p == finisher || !sp->rack_total[p]) continue;
                int v = rack_value(g, sp->rack[p]);
                sp->score[finisher] += v;
                WsTurnRecord *rec = new_record(sp, g, p, WS_TURN_SETTLE);
                rec->player = (uint8_t)finisher;
                rec->score = v;
                rec->total = sp->score[finisher];
                rec->rack_owner = (uint8_t)p;
            }
        }
    }
    sp->end_reason = reason;
}

/* Game._end_turn: the pass and scoreless counters, the end rules, the next player. */
static void end_turn(WsSelfplay *sp, const WsGen *g, int seat, int kind, int zero_score_play,
                     int scoreless_before) {
    const WsSelfplayRules *R = &sp->rules;
    int counts_as_pass = kind == WS_TURN_PASS || (kind == WS_TURN_SWAP && !R->swap_resets_pass);
    int scoreless = (kind == WS_TURN_PASS && R->scoreless_pass) || (kind == WS_TURN_SWAP && R->scoreless_swap) ||
                    (kind == WS_TURN_PLAY && zero_score_play && R->scoreless_zero_play);
    sp->pass_count = counts_as_pass ? sp->pass_count + 1 : 0;
    sp->scoreless_count = scoreless ? scoreless_before + 1 : 0;
    sp->last_kind[seat] = kind;
    if ((R->all_pass_rounds && sp->pass_count >= R->all_pass_rounds * 2) ||
        (R->consecutive_passes && sp->pass_count >= R->consecutive_passes)) {
        finish(sp, g, WS_END_PASSES, R->settle_passes, -1);
        return;
    }
    if (R->scoreless_turns && sp->scoreless_count >= R->scoreless_turns &&
        (!R->scoreless_bag_below || sp->bag_count < R->scoreless_bag_below)) {
        finish(sp, g, WS_END_SCORELESS, R->settle_scoreless, -1);
        return;
    }
    sp->to_move = 1 - seat;
}

/* bot.swap_allowed */
static int swap_allowed(const WsSelfplay *sp, int seat, int n) {
    const WsSelfplayRules *R = &sp->rules;
    int bag = sp->bag_count;
    if (n < 1 || n > sp->rack_total[seat] || bag < R->swap_min_bag || (R->swap_must_cover && bag < n)) return 0;
    return !(R->swap_whole_rack && n != sp->rack_total[seat]);
}

/* Game.play of a generator's move (Position.play, the draw, the end rules). */
static void play_move(WsSelfplay *sp, const WsGen *g, int seat, const WsMove *m, float equity) {
    WsTurnRecord *rec = new_record(sp, g, seat, WS_TURN_PLAY);
    int scoreless_before = sp->scoreless_count;
    int dr = m->direction ? 1 : 0, dc = m->direction ? 0 : 1;
    int r = m->row, c = m->col;
    for (int i = 0; i < m->length; i++, r += dr, c += dc) {
        uint8_t t = m->tiles[i];
        if (!t) continue;
        int blank = (m->blank_mask >> i) & 1;
        sp->board[r * WS_DIM + c] = (uint8_t)(blank ? t | WS_BLANK_BIT : t);
        sp->rack[seat][blank ? 0 : t]--;
        sp->rack_total[seat]--;
    }
    sp->score[seat] += m->score;
    rec->move = *m;
    rec->equity = equity;
    rec->score = m->score;
    rec->total = sp->score[seat];
    draw_into_rack(sp, seat, m->tiles_played);
    sp->turns++;
    if (sp->rules.rack_out && sp->bag_count == 0 && sp->rack_total[seat] == 0) {
        sp->last_kind[seat] = WS_TURN_PLAY;
        finish(sp, g, WS_END_OUT, sp->rules.settle_out, seat);
        return;
    }
    end_turn(sp, g, seat, WS_TURN_PLAY, m->score == 0, scoreless_before);
}

/* Game.swap: the tiles go back in rack order, drawn before or after per the rules. */
static void swap_tiles(WsSelfplay *sp, const WsGen *g, int seat, const uint8_t *kept, float equity) {
    WsTurnRecord *rec = new_record(sp, g, seat, WS_TURN_SWAP);
    int scoreless_before = sp->scoreless_count;
    uint8_t back[WS_MAX_LETTERS + 1];
    int n = 0;
    for (int t = 0; t <= g->rules.alphabet_size; t++) {
        back[t] = (uint8_t)(sp->rack[seat][t] - kept[t]);
        n += back[t];
    }
    rec->tiles_len = (uint8_t)rack_codes(back, g->rules.alphabet_size, rec->tiles);
    rec->equity = equity;
    rec->total = sp->score[seat];
    for (int t = 0; t <= g->rules.alphabet_size; t++) sp->rack[seat][t] = kept[t];
    sp->rack_total[seat] -= n;
    if (sp->rules.swap_draw_first) draw_into_rack(sp, seat, n);
    for (int i = 0; i < rec->tiles_len; i++) sp->bag[sp->bag_count++] = rec->tiles[i];
    if (!sp->rules.swap_draw_first) draw_into_rack(sp, seat, n);
    sp->turns++;
    end_turn(sp, g, seat, WS_TURN_SWAP, 0, scoreless_before);
}

static void pass_turn(WsSelfplay *sp, const WsGen *g, int seat) {
    WsTurnRecord *rec = new_record(sp, g, seat, WS_TURN_PASS);
    int scoreless_before = sp->scoreless_count;
    rec->total = sp->score[seat];
    sp->turns++;
    end_turn(sp, g, seat, WS_TURN_PASS, 0, scoreless_before);
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
    int seat = sp->to_move, other = 1 - seat;
    const WsSelfplayPlayer *P = &sp->player[seat];
    const WsSelfplayRules *R = &sp->rules;
    uint8_t kept[WS_MAX_LETTERS + 1];
    WsMove m;
    float equity = 0.0f;
    size_t found = 0;
    int rc;
    /* MoveGenerator._load: equity terms (leaves.endgame_terms), board, rack */
    if (!P->by_equity) {
        ws_gen_set_equity(g, NULL, 0, 0.0f, 0.0f);
    } else if (sp->bag_count == 0) {
        float opponent = (float)rack_value(g, sp->rack[other]);
        ws_gen_set_equity(g, P->leaves, 1, R->out_factor * opponent, R->keep_factor);
    } else {
        ws_gen_set_equity(g, P->zero ? NULL : P->leaves, 0, 0.0f, 0.0f);
    }
    rc = ws_gen_set_board(g, sp->board);
    if (rc == WS_OK) rc = ws_gen_set_rack(g, sp->rack[seat]);
    if (rc != WS_OK) return rc;
    if (!P->by_equity) {
        /* Bot._choose_score, Bot._fallback */
        rc = ws_gen_best(g, &m, 1, &found);
        if (rc != WS_OK) return rc;
        if (found) {
            play_move(sp, g, seat, &m, 0.0f);
        } else if (sp->rack_total[seat] && swap_allowed(sp, seat, sp->rack_total[seat]) &&
                   sp->last_kind[seat] != WS_TURN_SWAP) {
            memset(kept, 0, sizeof kept);
            swap_tiles(sp, g, seat, kept, 0.0f);
        } else {
            pass_turn(sp, g, seat);
        }
        return WS_OK;
    }
    /* Bot._choose_equity, Bot._best_swap, MoveGenerator.best_swap */
    rc = ws_gen_best_equity(g, &m, &equity, 1, &found);
    if (rc != WS_OK) return rc;
    int swap = -1;
    if (!found || equity < P->swap_ceiling) {
        int first = R->swap_whole_rack ? sp->rack_total[seat] : 1;
        if (sp->rack_total[seat] && swap_allowed(sp, seat, first)) {
            swap = ws_gen_best_swap(g, P->leaves, sp->bag_count, R->swap_min_bag, R->swap_whole_rack,
                                    R->swap_must_cover);
            if (swap >= 0) {
                kept_counts(g, swap, kept);
                int size = 0;
                for (int t = 0; t <= g->rules.alphabet_size; t++) size += kept[t];
                if (!swap_allowed(sp, seat, sp->rack_total[seat] - size)) swap = -1;
            }
        }
    }
    if (found && (swap < 0 || equity >= g->leave_value[swap])) {
        play_move(sp, g, seat, &m, equity);
    } else if (swap >= 0) {
        swap_tiles(sp, g, seat, kept, g->leave_value[swap]);
    } else {
        pass_turn(sp, g, seat);
    }
    return WS_OK;
}

int ws_selfplay_game(WsSelfplay *sp, WsGen *g, const uint32_t *seed_key, int seed_length, WsTurnRecord *out,
                     size_t capacity, size_t *count) {
    const WsSelfplayRules *R = &sp->rules;
    *count = 0;
    if (seed_length < 1 || R->bag_count < 0 || R->bag_count > WS_SP_MAX_BAG || R->rack_size < 1 ||
        R->rack_size > WS_RACK_MAX)
        return WS_E_ARGUMENT;
    for (int i = 0; i < R->bag_count; i++)
        if (R->bag[i] > g->rules.alphabet_size) return WS_E_ARGUMENT;
    ws_rng_seed(&sp->rng, seed_key, seed_length);
    memcpy(sp->bag, R->bag, (size_t)R->bag_count);
    sp->bag_count = R->bag_count;
    memset(sp->rack, 0, sizeof sp->rack);
    sp->rack_total[0] = sp->rack_total[1] = 0;
    memset(sp->board, 0, sizeof sp->board);
    sp->score[0] = sp->score[1] = 0;
    sp->pass_count = sp->scoreless_count = 0;
    sp->to_move = 0;
    sp->last_kind[0] = sp->last_kind[1] = -1;
    sp->end_reason = WS_END_NONE;
    sp->turns = 0;
    sp->out = out;
    sp->capacity = capacity;
    sp->count = 0;
    int rc = first_deal(sp);
    while (rc == WS_OK && sp->end_reason == WS_END_NONE) {
        if (sp->turns > R->turn_limit) {
            rc = WS_E_ARGUMENT;
            break;
        }
        rc = take_turn(sp, g);
    }
    *count = sp->count;
    if (rc != WS_OK) return rc;
    return sp->count > capacity ? WS_E_CAPACITY : WS_OK;
}

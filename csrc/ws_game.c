/* The game state and the rules of a turn; see ws_game.h.
 *
 * The steps follow wordsalvo/game.py as it was when the rules moved here (Game's
 * _draw_one, _first_deal, _play_move, swap, _end_turn, _finish, _leave, timeout):
 * tests/test_selfplay.py and tests/test_game*.py hold them to the seeded games and
 * the scripted scenarios of every rule set.
 */
#include <stddef.h>
#include <string.h>

#include "ws_game.h"

/* ------------------------------------------------------------------------ */
/* Hash                                                                     */
/* ------------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t board_key(const WsGameRules *R, int sq, uint8_t code) {
    return R->z_board[sq][(code & WS_LETTER_MASK) - 1 + ((code & WS_BLANK_BIT) ? 32 : 0)];
}

static inline int counter_index(int n) { return n < WS_GAME_HASH_COUNTS ? n : WS_GAME_HASH_COUNTS - 1; }

uint64_t ws_game_hash_full(const WsGame *s) {
    const WsGameRules *R = s->rules;
    uint64_t h = 0;
    for (int sq = 0; sq < WS_SQUARES; sq++)
        if (s->board[sq]) h ^= board_key(R, sq, s->board[sq]);
    for (int p = 0; p < R->players; p++)
        for (int t = 0; t <= R->alphabet_size; t++) h ^= R->z_rack[p][t][s->rack[p][t]];
    h ^= R->z_turn[s->to_move];
    h ^= R->z_scoreless[counter_index(s->scoreless_count)];
    h ^= R->z_passes[counter_index(s->pass_count)];
    return h;
}

static inline void rack_add(WsGame *s, int p, int t) {
    uint8_t c = s->rack[p][t];
    s->hash ^= s->rules->z_rack[p][t][c] ^ s->rules->z_rack[p][t][c + 1];
    s->rack[p][t] = (uint8_t)(c + 1);
    s->rack_total[p]++;
}

static inline void rack_sub(WsGame *s, int p, int t) {
    uint8_t c = s->rack[p][t];
    s->hash ^= s->rules->z_rack[p][t][c] ^ s->rules->z_rack[p][t][c - 1];
    s->rack[p][t] = (uint8_t)(c - 1);
    s->rack_total[p]--;
}

static inline void set_to_move(WsGame *s, int p) {
    s->hash ^= s->rules->z_turn[s->to_move] ^ s->rules->z_turn[p];
    s->to_move = p;
}

static inline void set_counters(WsGame *s, int passes, int scoreless) {
    const WsGameRules *R = s->rules;
    s->hash ^= R->z_passes[counter_index(s->pass_count)] ^ R->z_passes[counter_index(passes)];
    s->hash ^= R->z_scoreless[counter_index(s->scoreless_count)] ^ R->z_scoreless[counter_index(scoreless)];
    s->pass_count = passes;
    s->scoreless_count = scoreless;
}

/* ------------------------------------------------------------------------ */
/* Rules and set-up                                                         */
/* ------------------------------------------------------------------------ */

static int flag(int32_t v) { return v == 0 || v == 1; }

int ws_game_rules_init(WsGameRules *R) {
    if (R->players < 1 || R->players > WS_GAME_MAX_PLAYERS) return WS_E_PLAYERS;
    if (R->rack_size < 1 || R->rack_size > WS_RACK_MAX) return WS_E_RACK_FULL;
    if (R->alphabet_size < 1 || R->alphabet_size > WS_MAX_LETTERS) return WS_E_TILE_CODE;
    if (R->bag_count < 0 || R->bag_count > WS_GAME_MAX_BAG) return WS_E_BAG_FULL;
    for (int i = 0; i < R->bag_count; i++)
        if (R->bag[i] > R->alphabet_size) return WS_E_TILE_CODE;
    if (R->tile_value[0] != 0) return WS_E_RULE_VALUE;
    for (int t = 1; t <= WS_MAX_LETTERS; t++)
        if (R->tile_value[t] < 0 || R->tile_value[t] > 1000) return WS_E_RULE_VALUE;
    if (R->first_vowels < 0 || R->first_consonants < 0 || R->first_vowels + R->first_consonants > R->rack_size)
        return WS_E_FIRST_DEAL;
    if (!flag(R->swap_whole_rack) || !flag(R->swap_must_cover) || !flag(R->swap_draw_first) ||
        !flag(R->swap_resets_pass) || !flag(R->rack_out) || !flag(R->timeout_counts_as_pass) ||
        !flag(R->timeout_loses))
        return WS_E_RULE_VALUE;
    if (R->swap_min_bag < 0 || R->all_pass_rounds < 0 || R->consecutive_passes < 0 || R->scoreless_turns < 0 ||
        R->scoreless_bag_below < 0 || R->eliminate_after < 0 || R->scoreless_kinds < 0 || R->scoreless_kinds > 31)
        return WS_E_RULE_VALUE;
    if (R->settle_out < 0 || R->settle_out > 2 || R->settle_passes < 0 || R->settle_passes > 2 ||
        R->settle_scoreless < 0 || R->settle_scoreless > 2)
        return WS_E_RULE_VALUE;
    if (!(R->keep_factor >= 0.0f && R->keep_factor <= 100.0f && R->out_factor >= 0.0f && R->out_factor <= 100.0f &&
          R->out_bonus >= 0.0f && R->out_bonus <= 1000.0f))
        return WS_E_RULE_VALUE;
    uint64_t x = 0x5753414c564f3031ull; /* a fixed stream: the same keys in every process */
    for (int sq = 0; sq < WS_SQUARES; sq++)
        for (int k = 0; k < 64; k++) R->z_board[sq][k] = splitmix64(&x);
    for (int p = 0; p < WS_GAME_MAX_PLAYERS; p++)
        for (int t = 0; t <= WS_MAX_LETTERS; t++) {
            R->z_rack[p][t][0] = 0;
            for (int c = 1; c <= WS_RACK_MAX; c++) R->z_rack[p][t][c] = splitmix64(&x);
        }
    for (int p = 0; p < WS_GAME_MAX_PLAYERS; p++) R->z_turn[p] = splitmix64(&x);
    for (int k = 0; k < WS_GAME_HASH_COUNTS; k++) R->z_scoreless[k] = splitmix64(&x);
    for (int k = 0; k < WS_GAME_HASH_COUNTS; k++) R->z_passes[k] = splitmix64(&x);
    return WS_OK;
}

void ws_game_seed(WsGame *s, const uint32_t *seed_key, int seed_length) {
    ws_rng_seed(&s->rng, seed_key, seed_length);
}

/* Everything empty but the random stream (left as it was). */
static void clear_state(WsGame *s, const WsGameRules *R) {
    memset(s, 0, offsetof(WsGame, rng));
    s->rules = R;
    s->finisher = -1;
}

void ws_game_clear(WsGame *s, const WsGameRules *R) {
    static const uint32_t zero = 0;
    clear_state(s, R);
    ws_rng_seed(&s->rng, &zero, 1);
    s->hash = ws_game_hash_full(s);
}

void ws_game_copy(WsGame *dst, const WsGame *src) {
    if (dst != src) memcpy(dst, src, sizeof *dst);
}

void ws_game_recopy(WsGame *dst, const WsGame *src) {
    if (dst == src) return;
    int old = dst->bag_count, n = src->bag_count;
    /* bag[bag_count..] are 0 in both: the bytes past n that dst used are cleared */
    memcpy(dst, src, offsetof(WsGame, bag) + (size_t)n);
    if (old > n) memset(dst->bag + n, 0, (size_t)(old - n));
    dst->rng = src->rng;
}

/* Game._draw_one: the tile at bag index i; the last tile takes its place. */
static inline uint8_t draw_at(WsGame *s, int i) {
    int n = s->bag_count - 1;
    uint8_t t = s->bag[i];
    s->bag[i] = s->bag[n];
    s->bag[n] = 0;
    s->bag_count = n;
    return t;
}

static inline void undraw_at(WsGame *s, int i, uint8_t t) {
    int n = s->bag_count;
    s->bag[n] = s->bag[i];
    s->bag[i] = t;
    s->bag_count = n + 1;
}

/* Game._draw: up to n random tiles of the bag into the rack (recorded in u). */
static void draw_into_rack(WsGame *s, int p, int n, WsUndo *u) {
    for (int k = 0; k < n && s->bag_count > 0; k++) {
        int i = (int)ws_rng_below(&s->rng, (uint32_t)s->bag_count);
        uint8_t t = draw_at(s, i);
        rack_add(s, p, t);
        if (u) {
            u->draw_index[u->drawn] = (int16_t)i;
            u->drawn_tile[u->drawn++] = t;
        }
    }
}

void ws_game_draw(WsGame *s, int player, int n) {
    if (player < 0 || player >= s->rules->players) return;
    if (n > s->rules->rack_size - s->rack_total[player]) n = s->rules->rack_size - s->rack_total[player];
    draw_into_rack(s, player, n, NULL);
}

/* Game._first_deal: at least first_vowels vowels, then first_consonants consonants (a
 * blank is neither), each from the pool of such bag tiles, then plain draws. */
static int first_deal(WsGame *s) {
    const WsGameRules *R = s->rules;
    int16_t pool[WS_GAME_MAX_BAG];
    for (int p = 0; p < R->players; p++) {
        int drawn = 0;
        for (int kind = 0; kind < 2; kind++) {
            int want = kind == 0 ? R->first_vowels : R->first_consonants;
            for (int w = 0; w < want; w++) {
                int n = 0;
                for (int i = 0; i < s->bag_count; i++) {
                    uint8_t t = s->bag[i];
                    int vowel = (int)(R->vowels >> t & 1);
                    if (kind == 0 ? vowel : (t != 0 && !vowel)) pool[n++] = (int16_t)i;
                }
                if (n == 0) return WS_E_FIRST_DEAL;
                rack_add(s, p, draw_at(s, pool[ws_rng_below(&s->rng, (uint32_t)n)]));
                drawn++;
            }
        }
        draw_into_rack(s, p, R->rack_size - drawn, NULL);
    }
    return WS_OK;
}

int ws_game_new(WsGame *s, const WsGameRules *R, const uint32_t *seed_key, int seed_length) {
    if (seed_length < 1) return WS_E_ARGUMENT;
    clear_state(s, R);
    ws_rng_seed(&s->rng, seed_key, seed_length);
    memcpy(s->bag, R->bag, (size_t)R->bag_count);
    s->bag_count = R->bag_count;
    int rc = first_deal(s);
    s->hash = ws_game_hash_full(s);
    return rc;
}

int ws_game_set_tiles(WsGame *s, const uint8_t *racks, const uint8_t *bag, int bag_count) {
    const WsGameRules *R = s->rules;
    if (bag_count < 0 || bag_count > WS_GAME_MAX_BAG) return WS_E_BAG_FULL;
    for (int i = 0; i < bag_count; i++)
        if (bag[i] > R->alphabet_size) return WS_E_TILE_CODE;
    for (int p = 0; p < R->players; p++) {
        int total = 0;
        for (int t = 0; t <= WS_MAX_LETTERS; t++) {
            uint8_t c = racks[p * (WS_MAX_LETTERS + 1) + t];
            if (c && t > R->alphabet_size) return WS_E_TILE_CODE;
            total += c;
        }
        if (total > R->rack_size) return WS_E_RACK_FULL;
    }
    for (int p = 0; p < R->players; p++) {
        memcpy(s->rack[p], racks + p * (WS_MAX_LETTERS + 1), WS_MAX_LETTERS + 1);
        int total = 0;
        for (int t = 0; t <= WS_MAX_LETTERS; t++) total += s->rack[p][t];
        s->rack_total[p] = total;
    }
    memset(s->bag, 0, sizeof s->bag);
    if (bag_count) memmove(s->bag, bag, (size_t)bag_count);
    s->bag_count = bag_count;
    s->end_reason = WS_END_NONE;
    s->finisher = -1;
    s->settle_count = 0;
    memset(s->settle, 0, sizeof s->settle);
    s->hash = ws_game_hash_full(s);
    return WS_OK;
}

int ws_game_set_board(WsGame *s, const uint8_t *board) {
    int count = 0;
    for (int sq = 0; sq < WS_SQUARES; sq++) {
        uint8_t t = board[sq];
        unsigned letter = t & WS_LETTER_MASK;
        if (t && (letter < 1 || (int)letter > s->rules->alphabet_size || (t & ~(WS_LETTER_MASK | WS_BLANK_BIT))))
            return WS_E_TILE_CODE;
        count += t != 0;
    }
    memcpy(s->board, board, WS_SQUARES);
    s->tile_count = count;
    s->hash = ws_game_hash_full(s);
    return WS_OK;
}

int ws_game_set_scores(WsGame *s, const int32_t *scores) {
    for (int p = 0; p < s->rules->players; p++) s->score[p] = scores[p];
    return WS_OK;
}

int ws_game_set_turn(WsGame *s, int to_move, int scoreless_count, int pass_count) {
    if (to_move < 0 || to_move >= s->rules->players || scoreless_count < 0 || pass_count < 0) return WS_E_ARGUMENT;
    s->to_move = to_move;
    s->scoreless_count = scoreless_count;
    s->pass_count = pass_count;
    s->hash = ws_game_hash_full(s);
    return WS_OK;
}

void ws_game_set_counters(WsGame *s, int pass_count, int scoreless_count) {
    set_counters(s, pass_count < 0 ? 0 : pass_count, scoreless_count < 0 ? 0 : scoreless_count);
}

int ws_game_rack_codes(const WsGame *s, int player, uint8_t *out) {
    int n = 0;
    const uint8_t *rack = s->rack[player];
    for (int t = 1; t <= s->rules->alphabet_size; t++)
        for (int c = 0; c < rack[t]; c++) out[n++] = (uint8_t)t;
    for (int c = 0; c < rack[0]; c++) out[n++] = 0;
    return n;
}

int ws_game_return_rack(WsGame *s, int player) {
    uint8_t codes[WS_RACK_MAX];
    if (player < 0 || player >= s->rules->players || s->bag_count + s->rack_total[player] > WS_GAME_MAX_BAG)
        return WS_E_ARGUMENT;
    int n = ws_game_rack_codes(s, player, codes);
    for (int i = 0; i < n; i++) {
        rack_sub(s, player, codes[i]);
        s->bag[s->bag_count++] = codes[i];
    }
    return WS_OK;
}

int ws_game_take_from_bag(WsGame *s, int player, int t) {
    if (player < 0 || player >= s->rules->players || t < 0 || t > s->rules->alphabet_size ||
        s->rack_total[player] >= s->rules->rack_size)
        return WS_E_ARGUMENT;
    for (int i = 0; i < s->bag_count; i++) {
        if (s->bag[i] != t) continue;
        memmove(s->bag + i, s->bag + i + 1, (size_t)(s->bag_count - i - 1));
        s->bag[--s->bag_count] = 0;
        rack_add(s, player, t);
        return WS_OK;
    }
    return WS_E_ARGUMENT;
}

int ws_game_give_tile(WsGame *s, int from, int to, int t) {
    int players = s->rules->players;
    if (from < 0 || from >= players || to < 0 || to >= players || t < 0 || t > s->rules->alphabet_size ||
        !s->rack[from][t] || s->rack_total[to] >= s->rules->rack_size)
        return WS_E_ARGUMENT;
    rack_sub(s, from, t);
    rack_add(s, to, t);
    return WS_OK;
}

void ws_game_add_score(WsGame *s, int player, int points) {
    if (player >= 0 && player < s->rules->players) s->score[player] += points;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */
/* ------------------------------------------------------------------------ */

int ws_game_rack_value(const WsGame *s, int player) {
    int v = 0;
    for (int t = 1; t <= s->rules->alphabet_size; t++) v += s->rack[player][t] * s->rules->tile_value[t];
    return v;
}

int ws_game_players_left(const WsGame *s) {
    int n = 0;
    for (int p = 0; p < s->rules->players; p++) n += !(s->out_mask >> p & 1);
    return n;
}

uint32_t ws_game_winners(const WsGame *s) {
    uint32_t left = 0, won = 0;
    int best = 0, any = 0;
    if (s->end_reason == WS_END_NONE) return 0;
    for (int p = 0; p < s->rules->players; p++) {
        if (s->out_mask >> p & 1) continue;
        left |= 1u << p;
        if (!any || s->score[p] > best) {
            best = s->score[p];
            won = 0;
            any = 1;
        }
        if (s->score[p] == best) won |= 1u << p;
    }
    /* the game ended by players leaving: the one left wins whatever the score */
    if (s->end_reason == WS_END_RESIGN || s->end_reason == WS_END_TIMEOUT || s->end_reason == WS_END_ELIMINATION)
        return left;
    return won;
}

int ws_game_spread(const WsGame *s, int player) {
    int best = 0, any = 0;
    for (int p = 0; p < s->rules->players; p++) {
        if (p == player) continue;
        if (!any || s->score[p] > best) best = s->score[p];
        any = 1;
    }
    return s->score[player] - best;
}

void ws_game_unseen(const WsGame *s, uint8_t *counts) {
    memset(counts, 0, WS_MAX_LETTERS + 1);
    for (int i = 0; i < s->bag_count; i++) counts[s->bag[i]]++;
    for (int p = 0; p < s->rules->players; p++) {
        if (p == s->to_move) continue;
        for (int t = 0; t <= WS_MAX_LETTERS; t++) counts[t] = (uint8_t)(counts[t] + s->rack[p][t]);
    }
}

/* ------------------------------------------------------------------------ */
/* Turns                                                                    */
/* ------------------------------------------------------------------------ */

/* Game._advance: the next player after p still in the game is on turn. */
static void advance(WsGame *s, int p) {
    int n = s->rules->players;
    for (int k = 0; k < n; k++) {
        p = (p + 1) % n;
        if (!(s->out_mask >> p & 1)) {
            set_to_move(s, p);
            return;
        }
    }
}

/* Game._finish: the rack settlement of the end (mode) into s->settle and the scores. */
static void finish(WsGame *s, int reason, int mode, int finisher) {
    const WsGameRules *R = s->rules;
    int n = 0;
    if (mode == WS_SETTLE_PLAY_OUT || mode == WS_SETTLE_SUBTRACT) {
        for (int p = 0; p < R->players; p++) {
            if (p == finisher || (s->out_mask >> p & 1) || !s->rack_total[p]) continue;
            int v = ws_game_rack_value(s, p);
            s->score[p] -= v;
            s->settle[n++] = (WsSettle){-v, s->score[p], (uint8_t)p, (uint8_t)p, {0, 0}};
        }
        if (mode == WS_SETTLE_PLAY_OUT && finisher >= 0) {
            for (int p = 0; p < R->players; p++) {
                if (p == finisher || (s->out_mask >> p & 1) || !s->rack_total[p]) continue;
                int v = ws_game_rack_value(s, p);
                s->score[finisher] += v;
                s->settle[n++] = (WsSettle){v, s->score[finisher], (uint8_t)finisher, (uint8_t)p, {0, 0}};
            }
        }
    }
    s->settle_count = n;
    s->end_reason = reason;
    s->finisher = finisher;
}

/* Game._end_turn: the pass and scoreless counters, the end rules, the next player. */
static void end_turn(WsGame *s, int player, int kind, int zero_score_play) {
    const WsGameRules *R = s->rules;
    int scoreless_bit = kind == WS_TURN_PASS      ? WS_SCORELESS_PASS
                        : kind == WS_TURN_SWAP    ? WS_SCORELESS_SWAP
                        : kind == WS_TURN_REFUSED ? WS_SCORELESS_REFUSED
                        : kind == WS_TURN_TIMEOUT ? WS_SCORELESS_TIMEOUT
                        : zero_score_play         ? WS_SCORELESS_ZERO_PLAY
                                                  : 0;
    int counts_as_pass = kind == WS_TURN_PASS || kind == WS_TURN_REFUSED ||
                         (kind == WS_TURN_SWAP && !R->swap_resets_pass) ||
                         (kind == WS_TURN_TIMEOUT && R->timeout_counts_as_pass);
    if (kind != WS_TURN_TIMEOUT) s->timeouts[player] = 0;
    set_counters(s, counts_as_pass ? s->pass_count + 1 : 0,
                 (R->scoreless_kinds & scoreless_bit) ? s->scoreless_count + 1 : 0);
    if ((R->all_pass_rounds && s->pass_count >= R->all_pass_rounds * ws_game_players_left(s)) ||
        (R->consecutive_passes && s->pass_count >= R->consecutive_passes)) {
        finish(s, WS_END_PASSES, R->settle_passes, -1);
        return;
    }
    if (R->scoreless_turns && s->scoreless_count >= R->scoreless_turns &&
        (!R->scoreless_bag_below || s->bag_count < R->scoreless_bag_below)) {
        finish(s, WS_END_SCORELESS, R->settle_scoreless, -1);
        return;
    }
    advance(s, player);
}

/* Game._leave: the player leaves; with one player left the game is over. */
static void leave(WsGame *s, int player, int reason) {
    s->out_mask |= 1u << player;
    if (ws_game_players_left(s) <= 1) {
        s->end_reason = reason;
        s->finisher = -1;
        return;
    }
    if (s->to_move == player) advance(s, player);
}

static void begin(const WsGame *s, WsUndo *u, int kind, int player) {
    u->hash = s->hash;
    memcpy(u->score, s->score, sizeof u->score);
    u->pass_count = s->pass_count;
    u->scoreless_count = s->scoreless_count;
    u->timeouts = s->timeouts[player];
    u->to_move = s->to_move;
    u->end_reason = s->end_reason;
    u->finisher = s->finisher;
    u->settle_count = s->settle_count;
    u->out_mask = s->out_mask;
    u->rack_total = s->rack_total[player];
    u->kind = (uint8_t)kind;
    u->player = (uint8_t)player;
    u->placed = u->drawn = u->returned = u->draw_first = 0;
    memcpy(u->rack, s->rack[player], sizeof u->rack);
}

int ws_game_play(WsGame *s, const WsMove *m, WsUndo *u) {
    const WsGameRules *R = s->rules;
    int p = s->to_move;
    uint8_t need[WS_MAX_LETTERS + 1] = {0};
    int placed = 0;
    if (s->end_reason != WS_END_NONE) return WS_E_GAME_OVER;
    if (m->direction > 1 || m->length < 1 || m->length > WS_DIM || m->row >= WS_DIM || m->col >= WS_DIM ||
        (m->direction ? m->row : m->col) + m->length > WS_DIM)
        return WS_E_OFF_BOARD;
    int step = m->direction ? WS_DIM : 1, sq = m->row * WS_DIM + m->col;
    for (int i = 0; i < m->length; i++, sq += step) {
        uint8_t t = m->tiles[i];
        if (!t) continue;
        if (t > R->alphabet_size) return WS_E_TILE_CODE;
        if (s->board[sq]) return WS_E_SQUARE_TAKEN;
        int code = (m->blank_mask >> i & 1) ? 0 : t;
        if (++need[code] > s->rack[p][code]) return WS_E_NOT_ON_RACK;
        placed++;
    }
    if (!placed) return WS_E_NO_TILE;
    WsUndo scratch;
    if (!u) u = &scratch;
    begin(s, u, WS_TURN_PLAY, p);
    int scoreless_before = s->scoreless_count;
    sq = m->row * WS_DIM + m->col;
    for (int i = 0, k = 0; i < m->length; i++, sq += step) {
        uint8_t t = m->tiles[i];
        if (!t) continue;
        int blank = m->blank_mask >> i & 1;
        uint8_t code = (uint8_t)(blank ? t | WS_BLANK_BIT : t);
        s->board[sq] = code;
        s->hash ^= board_key(R, sq, code);
        rack_sub(s, p, blank ? 0 : t);
        u->square[k++] = (uint8_t)sq;
    }
    u->placed = (uint8_t)placed;
    s->tile_count += placed;
    s->score[p] += m->score;
    draw_into_rack(s, p, placed, u);
    if (R->rack_out && s->bag_count == 0 && s->rack_total[p] == 0) {
        /* Game._play_move: the game is over with the player who went out on turn */
        set_counters(s, s->pass_count, m->score ? 0 : scoreless_before + 1);
        finish(s, WS_END_OUT, R->settle_out, p);
        return WS_OK;
    }
    end_turn(s, p, WS_TURN_PLAY, m->score == 0);
    return WS_OK;
}

static int swap_count_check(const WsGame *s, int n) {
    const WsGameRules *R = s->rules;
    if (n < 1) return WS_SWAP_EMPTY;
    if (n > s->rack_total[s->to_move]) return WS_SWAP_NOT_ON_RACK;
    if (R->swap_whole_rack && n != s->rack_total[s->to_move]) return WS_SWAP_WHOLE_RACK;
    if (s->bag_count < R->swap_min_bag) return WS_SWAP_BAG_MIN;
    if (R->swap_must_cover && s->bag_count < n) return WS_SWAP_BAG_COVER;
    return WS_SWAP_OK;
}

int ws_game_swap_allowed(const WsGame *s, int n) {
    return s->end_reason == WS_END_NONE && swap_count_check(s, n) == WS_SWAP_OK;
}

int ws_game_swap_check(const WsGame *s, const uint8_t *counts) {
    int p = s->to_move, n = 0;
    for (int t = 0; t <= WS_MAX_LETTERS; t++) {
        if (counts[t] > s->rack[p][t]) return WS_SWAP_NOT_ON_RACK;
        n += counts[t];
    }
    return swap_count_check(s, n);
}

int ws_game_swap(WsGame *s, const uint8_t *counts, WsUndo *u) {
    const WsGameRules *R = s->rules;
    int p = s->to_move;
    uint8_t back[WS_RACK_MAX];
    int n = 0;
    if (s->end_reason != WS_END_NONE) return WS_E_GAME_OVER;
    int problem = ws_game_swap_check(s, counts);
    if (problem != WS_SWAP_OK) return WS_E_SWAP_BASE - problem;
    if (s->bag_count + s->rack_total[p] > WS_GAME_MAX_BAG) return WS_E_BAG_FULL;
    WsUndo scratch;
    if (!u) u = &scratch;
    begin(s, u, WS_TURN_SWAP, p);
    /* the tiles go back in rack order: letters, then blanks */
    for (int t = 1; t <= R->alphabet_size; t++)
        for (int c = 0; c < counts[t]; c++) back[n++] = (uint8_t)t;
    for (int c = 0; c < counts[0]; c++) back[n++] = 0;
    for (int i = 0; i < n; i++) rack_sub(s, p, back[i]);
    u->returned = (uint8_t)n;
    u->draw_first = (uint8_t)R->swap_draw_first;
    if (R->swap_draw_first) draw_into_rack(s, p, n, u);
    for (int i = 0; i < n; i++) s->bag[s->bag_count++] = back[i];
    if (!R->swap_draw_first) draw_into_rack(s, p, n, u);
    end_turn(s, p, WS_TURN_SWAP, 0);
    return WS_OK;
}

static int simple_turn(WsGame *s, int kind, WsUndo *u) {
    if (s->end_reason != WS_END_NONE) return WS_E_GAME_OVER;
    WsUndo scratch;
    if (!u) u = &scratch;
    begin(s, u, kind, s->to_move);
    end_turn(s, s->to_move, kind, 0);
    return WS_OK;
}

int ws_game_pass(WsGame *s, WsUndo *u) { return simple_turn(s, WS_TURN_PASS, u); }

int ws_game_refused(WsGame *s, WsUndo *u) { return simple_turn(s, WS_TURN_REFUSED, u); }

int ws_game_timeout(WsGame *s, WsUndo *u) {
    const WsGameRules *R = s->rules;
    int p = s->to_move;
    if (s->end_reason != WS_END_NONE) return WS_E_GAME_OVER;
    WsUndo scratch;
    if (!u) u = &scratch;
    begin(s, u, WS_TURN_TIMEOUT, p);
    if (R->timeout_loses) {
        leave(s, p, WS_END_TIMEOUT);
        return WS_OK;
    }
    s->timeouts[p]++;
    end_turn(s, p, WS_TURN_TIMEOUT, 0);
    if (R->eliminate_after && s->end_reason == WS_END_NONE && s->timeouts[p] >= R->eliminate_after)
        leave(s, p, WS_END_ELIMINATION);
    return WS_OK;
}

int ws_game_resign(WsGame *s, int player, WsUndo *u) {
    if (s->end_reason != WS_END_NONE) return WS_E_GAME_OVER;
    if (player < 0 || player >= s->rules->players || (s->out_mask >> player & 1)) return WS_E_PLAYER;
    WsUndo scratch;
    if (!u) u = &scratch;
    begin(s, u, WS_TURN_RESIGN, player);
    leave(s, player, WS_END_RESIGN);
    return WS_OK;
}

static void undo_draws(WsGame *s, const WsUndo *u) {
    for (int k = u->drawn - 1; k >= 0; k--) undraw_at(s, u->draw_index[k], u->drawn_tile[k]);
}

static void unreturn(WsGame *s, const WsUndo *u) {
    for (int k = 0; k < u->returned; k++) s->bag[--s->bag_count] = 0;
}

void ws_game_undo(WsGame *s, const WsUndo *u) {
    int p = u->player;
    if (u->kind == WS_TURN_PLAY) {
        for (int k = 0; k < u->placed; k++) s->board[u->square[k]] = 0;
        s->tile_count -= u->placed;
        undo_draws(s, u);
    } else if (u->kind == WS_TURN_SWAP) {
        if (u->draw_first) {
            unreturn(s, u);
            undo_draws(s, u);
        } else {
            undo_draws(s, u);
            unreturn(s, u);
        }
    }
    memcpy(s->rack[p], u->rack, sizeof u->rack);
    s->rack_total[p] = u->rack_total;
    memcpy(s->score, u->score, sizeof s->score);
    s->pass_count = u->pass_count;
    s->scoreless_count = u->scoreless_count;
    s->timeouts[p] = u->timeouts;
    s->to_move = u->to_move;
    s->end_reason = u->end_reason;
    s->finisher = u->finisher;
    s->out_mask = u->out_mask;
    if (s->settle_count) memset(s->settle, 0, sizeof s->settle);
    s->settle_count = u->settle_count;
    s->hash = u->hash;
}

/* ------------------------------------------------------------------------ */
/* Moves                                                                    */
/* ------------------------------------------------------------------------ */

int ws_game_load(const WsGame *s, WsGen *g, int by_equity, const WsLeaves *leaves) {
    const WsGameRules *R = s->rules;
    if (!by_equity) {
        ws_gen_set_equity(g, NULL, 0, 0.0f, 0.0f);
    } else if (s->bag_count == 0) {
        int other = 0;
        for (int p = 0; p < R->players; p++)
            if (p != s->to_move) other += ws_game_rack_value(s, p);
        ws_gen_set_equity(g, leaves, 1, R->out_factor * (float)other + R->out_bonus, R->keep_factor);
    } else {
        ws_gen_set_equity(g, leaves, 0, 0.0f, 0.0f);
    }
    int rc = ws_gen_set_board(g, s->board);
    if (rc == WS_OK) rc = ws_gen_set_rack(g, s->rack[s->to_move]);
    return rc;
}

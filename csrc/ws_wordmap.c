/* Compact word map: see ws_wordmap.h. */
#include "ws_wordmap.h"

#include <stdlib.h>
#include <string.h>

#include "ws_graph.h"
#include "ws_mem.h"

WsRackKey ws_rack_key_of(const uint8_t *letters, int n) {
    WsRackKey k = ws_rack_key_empty();
    for (int i = 0; i < n; i++) k = ws_rack_key_add_letter(k, letters[i] & WS_LETTER_MASK);
    return k;
}

static inline uint64_t key_hash(WsRackKey k) { return ws_rack_key_hash(k); }

/* The key of one letter by code, in two tables (lo: letters 1..16, hi: 17..32; every
 * other byte: nothing), so that a letter costs a load and two adds. */
#define LO(c) ((c) >= 1 && (c) <= 16 ? (uint64_t)1 << (4 * ((c)-1)) : 0)
#define HI(c) ((c) >= 17 && (c) <= 32 ? (uint64_t)1 << (4 * ((c)-17)) : 0)
#define X4(F, c) F(c), F(c + 1), F(c + 2), F(c + 3)
#define X16(F, c) X4(F, c), X4(F, c + 4), X4(F, c + 8), X4(F, c + 12)
static const uint64_t unit_lo[256] = {X16(LO, 0), X16(LO, 16), X16(LO, 32)}; /* 48..255: zero */
static const uint64_t unit_hi[256] = {X16(HI, 0), X16(HI, 16), X16(HI, 32)};
#undef X16
#undef X4
#undef HI
#undef LO

static inline void filter_add(uint64_t *f, int shift, uint64_t h) { f[h >> shift] |= ws_wordmap_filter_bits(h); }

static inline int filter_has(const uint64_t *f, int shift, uint64_t h) { return ws_wordmap_filter_has(f, shift, h); }

/* The words of the extend table for n deletions (a key with one of its distinct letters
 * taken out, counted once per key and letter): one 32-bit word for every two, rounded up
 * to a power of two (>= 2); *shift: 64 - log2(words). */
static size_t extend_words(size_t n, int *shift) {
    size_t words = 2;
    int log = 1;
    while (2 * words < n) {
        words <<= 1;
        log++;
    }
    *shift = 64 - log;
    return words;
}

/* Bits for n keys at `per_key` bits each, rounded up to a power of two (>= 128); *shift:
 * 64 - log2(64-bit words), which picks a word from the top bits of a hash. */
static size_t filter_bits(size_t n, size_t per_key, int *shift) {
    size_t bits = 128; /* at least two words: the word index is h >> shift, shift < 64 */
    int log = 7;
    while (bits < n * per_key) {
        bits <<= 1;
        log++;
    }
    *shift = 64 - (log - 6);
    return bits;
}

/* One word of a length while building: its key and its place among the words of that
 * length (DAWG order: alphabetical). */
typedef struct Record {
    WsRackKey key;
    uint32_t index;
} Record;

static int record_cmp(const void *a, const void *b) {
    const Record *x = a, *y = b;
    if (x->key.hi != y->key.hi) return x->key.hi < y->key.hi ? -1 : 1;
    if (x->key.lo != y->key.lo) return x->key.lo < y->key.lo ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Every word of the DAWG, in alphabetical order.  With letters == NULL only counts the
 * words of each length; else writes word j of length L (in DAWG order) at
 * letters + first[L] + j * L. */
static void walk_dawg(const uint32_t *nodes, size_t *count, uint8_t *letters, const size_t *first) {
    WsWordIter it;
    size_t seen[WS_MAX_WORD + 1] = {0};
    int len;
    ws_graph_words_begin(&it, nodes, WS_MAX_WORD);
    while ((len = ws_graph_words_next(&it)) > 0) {
        if (letters) memcpy(letters + first[len] + seen[len] * (size_t)len, it.word, (size_t)len);
        seen[len]++;
    }
    memcpy(count, seen, sizeof seen);
}

void ws_wordmap_free(WsWordMap *m) {
    free(m->block); /* filters, slots and word offsets: one block */
    free(m->letters);
    memset(m, 0, sizeof *m);
}

void ws_wordmap_clear_fingerprints(WsWordMap *m) {
    if (!m->slots) return;
    for (uint64_t s = 0; s <= m->slot_mask; s++) m->slots[s] &= ~m->fingerprint_mask;
    m->fingerprint_mask = 0;
}

int ws_wordmap_build(WsWordMap *m, const uint32_t *nodes, unsigned alphabet_size) {
    size_t count[WS_MAX_WORD + 1], first[WS_MAX_WORD + 2], words = 0, total = 0, most = 0, most_letters = 0,
           entries = 0, deletions = 0;
    Record *records = NULL;
    uint8_t *group = NULL;
    memset(m, 0, sizeof *m);
    if (!nodes || alphabet_size < 1 || alphabet_size > WS_MAX_LETTERS) return WS_E_ARGUMENT;
    walk_dawg(nodes, count, NULL, NULL);
    first[0] = first[1] = 0;
    for (int L = 1; L <= WS_MAX_WORD; L++) {
        words += count[L];
        total += count[L] * (size_t)L;
        first[L + 1] = total;
        if (count[L] > most) most = count[L];
        if (count[L] * (size_t)L > most_letters) most_letters = count[L] * (size_t)L;
    }
    if (words >= UINT32_MAX / 2 || total >= UINT32_MAX) return WS_E_ARGUMENT;
    /* the words grouped by length, then each group sorted by key in place: no copy of
     * every word's record at once, so the build holds little more than the map */
    /* the words are sorted in place, in memory that stays the map's (ws_mem.h: on 2 MiB
     * pages where the system gives them) */
    m->letters = ws_mem_large(total ? total : 1);
    records = malloc(most ? most * sizeof *records : 1);
    group = malloc(most_letters ? most_letters : 1);
    if (!m->letters || !records || !group) goto nomem;
    walk_dawg(nodes, count, m->letters, first);
    for (int L = 1; L <= WS_MAX_WORD; L++) {
        uint8_t *base = m->letters + first[L];
        for (size_t j = 0; j < count[L]; j++) {
            records[j].key = ws_rack_key_of(base + j * (size_t)L, L);
            records[j].index = (uint32_t)j;
        }
        qsort(records, count[L], sizeof *records, record_cmp);
        for (size_t j = 0; j < count[L]; j++) {
            memcpy(group + j * (size_t)L, base + (size_t)records[j].index * (size_t)L, (size_t)L);
            if (j && ws_rack_key_equal(records[j].key, records[j - 1].key)) continue;
            entries++;
            WsRackKey k = records[j].key; /* extend takes each key once per distinct letter */
            for (int b = 0; b < 64; b += 4) deletions += ((k.lo >> b) & 15u) != 0, deletions += ((k.hi >> b) & 15u) != 0;
        }
        memcpy(base, group, count[L] * (size_t)L);
    }
    free(records);
    free(group);
    records = NULL;
    group = NULL;

    size_t slot_count = 2;
    int bits = 1, entry_bits = 1;
    if (entries >= (size_t)1 << WS_WORDMAP_LENGTH_SHIFT) goto too_many; /* entry + 1 fits below the length */
    while (slot_count < 2 * entries) {
        slot_count <<= 1;
        bits++;
    }
    while (((size_t)1 << entry_bits) <= entries) entry_bits++; /* entry + 1 fits */
    /* the index in one block (ws_mem.h), in the order a lookup reads it: the filters,
     * the hash slots, then the word offsets of a hit */
    size_t bits0 = filter_bits(entries, 16, &m->filter0_shift);
    size_t words1 = extend_words(deletions, &m->extend_shift);
    size_t at1 = bits0 / 8, at_slots = at1 + words1 * sizeof *m->extend,
           at_offset = at_slots + slot_count * sizeof *m->slots, size = at_offset + (entries + 1) * sizeof *m->word_offset;
    m->block = ws_mem_large(size);
    if (!m->block) goto nomem;
    m->bytes = size + total;
    m->filter0 = (uint64_t *)m->block;
    m->extend = (uint32_t *)(m->block + at1);
    m->slots = (uint32_t *)(m->block + at_slots);
    m->word_offset = (uint32_t *)(m->block + at_offset);
    m->entry_count = (uint32_t)entries;
    m->word_count = (uint32_t)words;
    m->alphabet_size = alphabet_size;
    m->slot_mask = slot_count - 1;
    m->slot_shift = 64 - bits;
    m->entry_mask = ((uint32_t)1 << entry_bits) - 1;
    m->fingerprint_mask = (((uint32_t)1 << WS_WORDMAP_LENGTH_SHIFT) - 1) & ~m->entry_mask;

    /* entries in (length, key) order, each entry's words alphabetical; each key into
     * the hash index; extend takes each key once per distinct letter (about 7 per key
     * for CSW24) */
    size_t e = 0;
    for (int L = 1; L <= WS_MAX_WORD; L++) {
        m->length_first[L] = (uint32_t)e;
        WsRackKey prev = ws_rack_key_empty();
        for (size_t j = 0; j < count[L]; j++) {
            size_t at = first[L] + j * (size_t)L;
            WsRackKey k = ws_rack_key_of(m->letters + at, L);
            if (j && ws_rack_key_equal(k, prev)) continue;
            prev = k;
            m->word_offset[e] = (uint32_t)at;
            uint64_t h = key_hash(k);
            uint64_t s = h >> m->slot_shift;
            while (m->slots[s]) s = (s + 1) & m->slot_mask;
            m->slots[s] = (uint32_t)L << WS_WORDMAP_LENGTH_SHIFT | ((uint32_t)(h >> 12) & m->fingerprint_mask) |
                          (uint32_t)(e + 1);
            e++;
        }
    }
    m->length_first[WS_MAX_WORD + 1] = (uint32_t)e;
    m->word_offset[entries] = (uint32_t)total;

    for (int L = 1; L <= WS_MAX_WORD; L++)
        for (uint32_t i = m->length_first[L]; i < m->length_first[L + 1]; i++) {
            WsRackKey k = ws_rack_key_of(m->letters + m->word_offset[i], L);
            filter_add(m->filter0, m->filter0_shift, key_hash(k));
            for (unsigned l = 1; l <= alphabet_size; l++) {
                if (!ws_rack_key_count(k, l)) continue;
                WsRackKey d = k;
                if (l <= 16)
                    d.lo -= (uint64_t)1 << (4 * (l - 1));
                else
                    d.hi -= (uint64_t)1 << (4 * (l - 17));
                m->extend[key_hash(d) >> m->extend_shift] |= (uint32_t)1 << (l - 1);
            }
        }
    return WS_OK;

nomem:
    free(records);
    free(group);
    ws_wordmap_free(m);
    return WS_E_NOMEM;
too_many:
    ws_wordmap_free(m);
    return WS_E_ARGUMENT;
}

typedef char entry_is_unrolls_15_letters[WS_MAX_WORD == 15 ? 1 : -1];

/* ws_wordmap_entry_is, inlined into this file's lookups (whose loops keep n). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int entry_is(const WsWordMap *m, uint32_t e, WsRackKey key, unsigned n) {
    const uint8_t *w = m->letters + m->word_offset[e];
    uint64_t lo = 0, hi = 0;
    switch (n) { /* unrolled: the letters of the first word, last to first */
    case 15:
        lo += unit_lo[w[14]];
        hi += unit_hi[w[14]];
        /* fallthrough */
    case 14:
        lo += unit_lo[w[13]];
        hi += unit_hi[w[13]];
        /* fallthrough */
    case 13:
        lo += unit_lo[w[12]];
        hi += unit_hi[w[12]];
        /* fallthrough */
    case 12:
        lo += unit_lo[w[11]];
        hi += unit_hi[w[11]];
        /* fallthrough */
    case 11:
        lo += unit_lo[w[10]];
        hi += unit_hi[w[10]];
        /* fallthrough */
    case 10:
        lo += unit_lo[w[9]];
        hi += unit_hi[w[9]];
        /* fallthrough */
    case 9:
        lo += unit_lo[w[8]];
        hi += unit_hi[w[8]];
        /* fallthrough */
    case 8:
        lo += unit_lo[w[7]];
        hi += unit_hi[w[7]];
        /* fallthrough */
    case 7:
        lo += unit_lo[w[6]];
        hi += unit_hi[w[6]];
        /* fallthrough */
    case 6:
        lo += unit_lo[w[5]];
        hi += unit_hi[w[5]];
        /* fallthrough */
    case 5:
        lo += unit_lo[w[4]];
        hi += unit_hi[w[4]];
        /* fallthrough */
    case 4:
        lo += unit_lo[w[3]];
        hi += unit_hi[w[3]];
        /* fallthrough */
    case 3:
        lo += unit_lo[w[2]];
        hi += unit_hi[w[2]];
        /* fallthrough */
    case 2:
        lo += unit_lo[w[1]];
        hi += unit_hi[w[1]];
        /* fallthrough */
    case 1:
        lo += unit_lo[w[0]];
        hi += unit_hi[w[0]];
        /* fallthrough */
    default:
        break;
    }
    return lo == key.lo && hi == key.hi;
}

int ws_wordmap_entry_is(const WsWordMap *m, uint32_t e, WsRackKey key, unsigned n) { return entry_is(m, e, key, n); }

/* ws_wordmap_find_sized with the verification inlined. */
static inline int32_t find_sized(const WsWordMap *m, WsRackKey key, unsigned n) {
    return ws_wordmap_probe(m, key, n, entry_is);
}

/* find_sized of a key whose premix is known. */
static inline int32_t find_premixed(const WsWordMap *m, WsRackKey key, uint64_t premix, unsigned n) {
    return ws_wordmap_probe_hashed(m, key, ws_rack_key_mix(premix), n, entry_is);
}

int32_t ws_wordmap_find(const WsWordMap *m, WsRackKey key) { return ws_wordmap_find_inline(m, key); }

int ws_wordmap_entry_length(const WsWordMap *m, uint32_t entry) {
    int length = 1;
    while (length <= WS_MAX_WORD && m->length_first[length + 1] <= entry) length++;
    return length;
}

const uint8_t *ws_wordmap_entry_words(const WsWordMap *m, uint32_t entry, uint32_t *count) {
    int length = ws_wordmap_entry_length(m, entry);
    *count = (m->word_offset[entry + 1] - m->word_offset[entry]) / (uint32_t)length;
    return m->letters + m->word_offset[entry];
}

/* Calls found(hit) for every way of resolving the blanks; stops when it returns nonzero.
 * Returns that nonzero value, or 0. */
typedef struct Collector {
    WsWordMapHit *out;
    size_t capacity, count;
    int stop_at_first;
} Collector;

static inline int collect(Collector *c, int32_t e, unsigned b0, unsigned b1) {
    if (e < 0) return 0;
    if (c->count < c->capacity) {
        c->out[c->count].entry = (uint32_t)e;
        c->out[c->count].blank_letter[0] = (uint8_t)b0;
        c->out[c->count].blank_letter[1] = (uint8_t)b1;
    }
    c->count++;
    return c->stop_at_first;
}

static int resolve(const WsWordMap *m, WsRackKey key, int blanks, uint64_t choices, Collector *c) {
    choices &= ((m->alphabet_size >= 63 ? ~0ull : (2ull << m->alphabet_size) - 1)) & ~1ull;
    unsigned n = ws_rack_key_size(key) + (unsigned)blanks; /* letters of the keys looked up */
    if (n > WS_MAX_WORD) return 0; /* so no count below reaches 15 */
    uint64_t p = ws_rack_key_premix(key); /* each key below: p plus its letters' premixes */
    if (blanks == 0) return collect(c, find_premixed(m, key, p, n), 0, 0);
    if (blanks == 1) { /* the letters that make a key of the key plus one, in order */
        uint64_t letters = ws_wordmap_extend(m, ws_rack_key_mix(p)) & choices;
        uint64_t hash[64]; /* by letter: every probe's first lines prefetched before the first probe */
        for (uint64_t ls = letters; ls; ls &= ls - 1) {
            unsigned l1 = (unsigned)__builtin_ctzll(ls);
            hash[l1] = ws_rack_key_mix(p + ws_rack_key_premix_letter(l1));
            ws_wordmap_prefetch(m, hash[l1]);
        }
        for (uint64_t ls = letters; ls; ls &= ls - 1) {
            unsigned l1 = (unsigned)__builtin_ctzll(ls);
            if (collect(c, ws_wordmap_probe_hashed(m, ws_rack_key_add_letter(key, l1), hash[l1], n, entry_is), l1, 0))
                return 1;
        }
        return 0;
    }
    for (uint64_t ls = choices; ls; ls &= ls - 1)
        ws_wordmap_prefetch_extend(m, ws_rack_key_mix(p + ws_rack_key_premix_letter((unsigned)__builtin_ctzll(ls))));
    for (unsigned l1 = 1; l1 <= m->alphabet_size; l1++) {
        if (!(choices >> l1 & 1)) continue;
        WsRackKey k1 = ws_rack_key_add_letter(key, l1);
        uint64_t p1 = p + ws_rack_key_premix_letter(l1);
        /* the second blank: the letters l2 >= l1 that make a key of k1 plus l2 */
        for (uint64_t ls = ws_wordmap_extend(m, ws_rack_key_mix(p1)) & choices & ~0ull << l1; ls; ls &= ls - 1) {
            unsigned l2 = (unsigned)__builtin_ctzll(ls);
            if (collect(c, find_premixed(m, ws_rack_key_add_letter(k1, l2), p1 + ws_rack_key_premix_letter(l2), n),
                        l1, l2))
                return 1;
        }
    }
    return 0;
}

int ws_wordmap_exists(const WsWordMap *m, WsRackKey key, int blanks, uint64_t blank_choices) {
    WsWordMapHit hit;
    Collector c = {&hit, 1, 0, 1};
    if (blanks < 0 || blanks > 2 || !m->slots) return 0;
    return resolve(m, key, blanks, blank_choices, &c);
}

int ws_wordmap_lookup(const WsWordMap *m, WsRackKey key, int blanks, uint64_t blank_choices,
                      WsWordMapHit *out, size_t capacity, size_t *count) {
    Collector c = {out, capacity, 0, 0};
    *count = 0;
    if (blanks < 0 || blanks > 2) return WS_E_ARGUMENT;
    if (!m->slots) return WS_OK;
    resolve(m, key, blanks, blank_choices, &c);
    *count = c.count;
    return c.count > capacity ? WS_E_CAPACITY : WS_OK;
}

/* The rack's letters (no blanks) as distinct codes with counts, and how many tiles
 * remain from each index on (so a branch that cannot gather enough tiles stops). */
typedef struct SubRack {
    uint8_t code[WS_RACK_MAX];
    uint8_t count[WS_RACK_MAX];
    uint8_t suffix[WS_RACK_MAX + 1];
    int distinct;
    int blanks;
} SubRack;

/* Chooses `left` more tiles from letters i.. of the rack, or finishes with blanks. */
static int subrack_rec(const WsWordMap *m, const SubRack *r, int i, int left, WsRackKey key) {
    if (left <= r->blanks && ws_wordmap_exists(m, key, left, ~1ull)) return 1;
    if (left == 0 || r->suffix[i] + r->blanks < left) return 0;
    /* one real tile left to add (and no blank did it): some word must have room for it */
    if (left == 1 && !ws_wordmap_extend(m, key_hash(key))) return 0;
    for (int j = i; j < r->distinct; j++) {
        if (r->suffix[j] + r->blanks < left) break;
        WsRackKey k = key;
        for (int take = 1; take <= r->count[j] && take <= left; take++) {
            if (ws_rack_key_count(k, r->code[j]) >= 15) break;
            k = ws_rack_key_add_letter(k, r->code[j]);
            if (subrack_rec(m, r, j + 1, left - take, k)) return 1;
        }
    }
    return 0;
}

static int subrack_init(SubRack *r, const uint8_t *rack, unsigned alphabet_size) {
    int total = 0;
    if (rack[0] > 2) return WS_E_ARGUMENT;
    r->blanks = rack[0];
    r->distinct = 0;
    for (unsigned c = 1; c <= alphabet_size; c++) {
        if (!rack[c]) continue;
        if (r->distinct == WS_RACK_MAX || total + rack[c] > WS_RACK_MAX) return WS_E_ARGUMENT;
        r->code[r->distinct] = (uint8_t)c;
        r->count[r->distinct++] = rack[c];
        total += rack[c];
    }
    if (total + r->blanks > WS_RACK_MAX) return WS_E_ARGUMENT;
    r->suffix[r->distinct] = 0;
    for (int j = r->distinct - 1; j >= 0; j--) r->suffix[j] = (uint8_t)(r->suffix[j + 1] + r->count[j]);
    return WS_OK;
}

int ws_wordmap_subrack_exists(const WsWordMap *m, const uint8_t *rack, int n, WsRackKey through) {
    SubRack r;
    int rc = subrack_init(&r, rack, m->alphabet_size);
    if (rc != WS_OK) return rc;
    if (!m->slots || n < 0 || n + (int)ws_rack_key_size(through) > WS_MAX_WORD) return 0;
    return subrack_rec(m, &r, 0, n, through);
}

/* The span as the word search sees it. */
typedef struct Span {
    int length;
    uint8_t board[WS_MAX_WORD];
    uint64_t cross[WS_MAX_WORD];
    WsSpanWord *out;
    size_t capacity, count;
} Span;

/* Records the words of an entry that fit the span's board letters and cross sets. */
static void span_entry(const WsWordMap *m, Span *s, int32_t e, unsigned b0, unsigned b1) {
    if (e < 0) return;
    uint32_t n;
    const uint8_t *w = ws_wordmap_entry_words(m, (uint32_t)e, &n);
    for (uint32_t j = 0; j < n; j++, w += s->length) {
        int ok = 1;
        for (int i = 0; i < s->length && ok; i++)
            ok = s->board[i] ? w[i] == s->board[i] : (int)(s->cross[i] >> w[i] & 1);
        if (!ok) continue;
        if (s->count < s->capacity) {
            WsSpanWord *o = &s->out[s->count];
            o->entry = (uint32_t)e;
            o->index = (uint16_t)j;
            o->blank_letter[0] = (uint8_t)b0;
            o->blank_letter[1] = (uint8_t)b1;
        }
        s->count++;
    }
}

/* Every sub-rack of `left` more tiles (letters i.. of the rack, then blanks). */
static void span_rec(const WsWordMap *m, const SubRack *r, Span *s, int i, int left, WsRackKey key) {
    if (left <= r->blanks) { /* finish with `left` blanks: each letter choice once */
        if (left == 0) {
            span_entry(m, s, ws_wordmap_find(m, key), 0, 0);
        } else {
            uint64_t letters = m->alphabet_size >= 63 ? ~1ull : (2ull << m->alphabet_size) - 2;
            for (uint64_t ls = left == 1 ? ws_wordmap_extend(m, key_hash(key)) & letters : letters; ls; ls &= ls - 1) {
                unsigned l1 = (unsigned)__builtin_ctzll(ls);
                if (ws_rack_key_count(key, l1) >= 15) continue;
                WsRackKey k1 = ws_rack_key_add_letter(key, l1);
                if (left == 1) {
                    span_entry(m, s, ws_wordmap_find(m, k1), l1, 0);
                    continue;
                }
                for (uint64_t l2s = ws_wordmap_extend(m, key_hash(k1)) & letters & ~0ull << l1; l2s; l2s &= l2s - 1) {
                    unsigned l2 = (unsigned)__builtin_ctzll(l2s);
                    if (ws_rack_key_count(k1, l2) >= 15) continue;
                    span_entry(m, s, ws_wordmap_find(m, ws_rack_key_add_letter(k1, l2)), l1, l2);
                }
            }
        }
    }
    if (left == 0 || r->suffix[i] + r->blanks < left) return;
    for (int j = i; j < r->distinct; j++) {
        if (r->suffix[j] + r->blanks < left) break;
        WsRackKey k = key;
        for (int take = 1; take <= r->count[j] && take <= left; take++) {
            if (ws_rack_key_count(k, r->code[j]) >= 15) break;
            k = ws_rack_key_add_letter(k, r->code[j]);
            span_rec(m, r, s, j + 1, left - take, k);
        }
    }
}

int ws_wordmap_span_words(const WsWordMap *m, const uint8_t *rack, int length, const uint8_t *board,
                          const uint64_t *cross, WsSpanWord *out, size_t capacity, size_t *count) {
    SubRack r;
    Span s;
    int empty = 0;
    *count = 0;
    if (length < 2 || length > WS_MAX_WORD) return WS_E_ARGUMENT;
    int rc = subrack_init(&r, rack, m->alphabet_size);
    if (rc != WS_OK) return rc;
    WsRackKey through = ws_rack_key_empty();
    s.length = length;
    s.out = out;
    s.capacity = capacity;
    s.count = 0;
    for (int i = 0; i < length; i++) {
        unsigned b = board[i] & WS_LETTER_MASK;
        if (b > m->alphabet_size) return WS_E_ARGUMENT;
        s.board[i] = (uint8_t)b;
        s.cross[i] = b ? 0 : cross[i];
        if (b)
            through = ws_rack_key_add_letter(through, b);
        else
            empty++;
    }
    if (!m->slots || empty == 0 || empty > r.suffix[0] + r.blanks) return WS_OK;
    span_rec(m, &r, &s, 0, empty, through);
    *count = s.count;
    return s.count > capacity ? WS_E_CAPACITY : WS_OK;
}

/* Compact word map: see ws_wordmap.h. */
#include "ws_wordmap.h"

#include <stdlib.h>
#include <string.h>

#include "ws_graph.h"

WsRackKey ws_rack_key_of(const uint8_t *letters, int n) {
    WsRackKey k = ws_rack_key_empty();
    for (int i = 0; i < n; i++) k = ws_rack_key_add_letter(k, letters[i] & WS_LETTER_MASK);
    return k;
}

static inline uint64_t key_hash(WsRackKey k) { return ws_rack_key_hash(k); }

static inline void filter_add(uint64_t *f, int shift, uint64_t h) { f[h >> (shift + 6)] |= ws_wordmap_filter_bits(h); }

static inline int filter_has(const uint64_t *f, int shift, uint64_t h) { return ws_wordmap_filter_has(f, shift, h); }

/* Bits for n keys at `per_key` bits each, rounded up to a power of two (>= 128). */
static size_t filter_bits(size_t n, size_t per_key, int *shift) {
    size_t bits = 128; /* at least two words: the word index is h >> (shift + 6), shift + 6 < 64 */
    int log = 7;
    while (bits < n * per_key) {
        bits <<= 1;
        log++;
    }
    *shift = 64 - log;
    return bits;
}

/* One word found in the DAWG while building. */
typedef struct Record {
    WsRackKey key;
    uint32_t offset; /* first letter in the temporary letter array */
    uint32_t length;
} Record;

static int record_cmp(const void *a, const void *b) {
    const Record *x = a, *y = b;
    if (x->length != y->length) return x->length < y->length ? -1 : 1;
    if (x->key.hi != y->key.hi) return x->key.hi < y->key.hi ? -1 : 1;
    if (x->key.lo != y->key.lo) return x->key.lo < y->key.lo ? -1 : 1;
    return (x->offset > y->offset) - (x->offset < y->offset); /* DAWG order: alphabetical */
}

/* Every word of the DAWG, in alphabetical order.  With records == NULL only counts
 * words and letters. */
static void walk_dawg(const uint32_t *nodes, Record *records, uint8_t *letters, size_t *words, size_t *total) {
    WsWordIter it;
    size_t n = 0, t = 0;
    int len;
    ws_graph_words_begin(&it, nodes, WS_MAX_WORD);
    while ((len = ws_graph_words_next(&it)) > 0) {
        if (records) {
            records[n].key = ws_rack_key_of(it.word, len);
            records[n].offset = (uint32_t)t;
            records[n].length = (uint32_t)len;
            memcpy(letters + t, it.word, (size_t)len);
        }
        n++;
        t += (size_t)len;
    }
    *words = n;
    *total = t;
}

void ws_wordmap_free(WsWordMap *m) {
    free(m->keys);
    free(m->word_offset);
    free(m->letters);
    free(m->slots);
    free(m->filter0);
    free(m->filter1);
    memset(m, 0, sizeof *m);
}

int ws_wordmap_build(WsWordMap *m, const uint32_t *nodes, unsigned alphabet_size) {
    size_t words = 0, total = 0, entries = 0;
    Record *records = NULL;
    uint8_t *tmp_letters = NULL;
    memset(m, 0, sizeof *m);
    if (!nodes || alphabet_size < 1 || alphabet_size > WS_MAX_LETTERS) return WS_E_ARGUMENT;
    walk_dawg(nodes, NULL, NULL, &words, &total);
    if (words >= UINT32_MAX / 2 || total >= UINT32_MAX) return WS_E_ARGUMENT;
    records = malloc(words ? words * sizeof *records : 1);
    tmp_letters = malloc(total ? total : 1);
    m->letters = malloc(total ? total : 1);
    if (!records || !tmp_letters || !m->letters) goto nomem;
    walk_dawg(nodes, records, tmp_letters, &words, &total);
    qsort(records, words, sizeof *records, record_cmp);
    for (size_t i = 0; i < words; i++)
        if (i == 0 || records[i].length != records[i - 1].length || !ws_rack_key_equal(records[i].key, records[i - 1].key))
            entries++;

    size_t slot_count = 2;
    int bits = 1;
    while (slot_count < 2 * entries) {
        slot_count <<= 1;
        bits++;
    }
    m->keys = malloc(entries ? entries * sizeof *m->keys : 1);
    m->word_offset = malloc((entries + 1) * sizeof *m->word_offset);
    m->slots = calloc(slot_count, sizeof *m->slots);
    if (!m->keys || !m->word_offset || !m->slots) goto nomem;

    /* entries in (length, key) order, each entry's words alphabetical */
    size_t e = 0, t = 0;
    uint32_t length = 0;
    for (size_t i = 0; i < words; i++) {
        const Record *r = &records[i];
        if (i == 0 || r->length != records[i - 1].length || !ws_rack_key_equal(r->key, records[i - 1].key)) {
            while (length < r->length) m->length_first[++length] = (uint32_t)e;
            m->keys[e] = r->key;
            m->word_offset[e] = (uint32_t)t;
            e++;
        }
        memcpy(m->letters + t, tmp_letters + r->offset, r->length);
        t += r->length;
    }
    while (length < WS_MAX_WORD + 1) m->length_first[++length] = (uint32_t)e;
    m->word_offset[entries] = (uint32_t)t;
    free(records);
    free(tmp_letters);

    m->entry_count = (uint32_t)entries;
    m->word_count = (uint32_t)words;
    m->alphabet_size = alphabet_size;
    m->slot_mask = slot_count - 1;
    m->slot_shift = 64 - bits;
    for (size_t i = 0; i < entries; i++) {
        uint64_t h = key_hash(m->keys[i]);
        uint64_t s = h >> m->slot_shift;
        while (m->slots[s]) s = (s + 1) & m->slot_mask;
        m->slots[s] = (h & 0xFFFFFFFF00000000ull) | (uint64_t)(i + 1);
    }
    /* filter1 takes each key once per distinct letter (about 7 per key for CSW24) */
    size_t deletions = 0;
    for (size_t i = 0; i < entries; i++)
        for (int s = 0; s < 64; s += 4) {
            deletions += ((m->keys[i].lo >> s) & 15u) != 0;
            deletions += ((m->keys[i].hi >> s) & 15u) != 0;
        }
    size_t bits0 = filter_bits(entries, 16, &m->filter0_shift);
    size_t bits1 = filter_bits(deletions, 8, &m->filter1_shift);
    m->filter0 = calloc(bits0 / 64, sizeof *m->filter0);
    m->filter1 = calloc(bits1 / 64, sizeof *m->filter1);
    if (!m->filter0 || !m->filter1) {
        ws_wordmap_free(m);
        return WS_E_NOMEM;
    }
    for (size_t i = 0; i < entries; i++) {
        WsRackKey k = m->keys[i];
        filter_add(m->filter0, m->filter0_shift, key_hash(k));
        for (unsigned l = 1; l <= alphabet_size; l++) {
            if (!ws_rack_key_count(k, l)) continue;
            WsRackKey d = k;
            if (l <= 16)
                d.lo -= (uint64_t)1 << (4 * (l - 1));
            else
                d.hi -= (uint64_t)1 << (4 * (l - 17));
            filter_add(m->filter1, m->filter1_shift, key_hash(d));
        }
    }
    m->bytes = entries * sizeof *m->keys + (entries + 1) * sizeof *m->word_offset + total +
               slot_count * sizeof *m->slots + bits0 / 8 + bits1 / 8;
    return WS_OK;

nomem:
    free(records);
    free(tmp_letters);
    ws_wordmap_free(m);
    return WS_E_NOMEM;
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
    if (blanks == 0) return collect(c, ws_wordmap_find(m, key), 0, 0);
    /* one blank needs some key with one letter more: none when filter1 says so */
    if (blanks == 1 && !filter_has(m->filter1, m->filter1_shift, key_hash(key))) return 0;
    for (unsigned l1 = 1; l1 <= m->alphabet_size; l1++) {
        if (!(choices >> l1 & 1) || ws_rack_key_count(key, l1) >= 15) continue;
        WsRackKey k1 = ws_rack_key_add_letter(key, l1);
        if (blanks == 2 && !filter_has(m->filter1, m->filter1_shift, key_hash(k1))) continue;
        if (blanks == 1) {
            if (collect(c, ws_wordmap_find(m, k1), l1, 0)) return 1;
            continue;
        }
        for (unsigned l2 = l1; l2 <= m->alphabet_size; l2++) {
            if (!(choices >> l2 & 1) || ws_rack_key_count(k1, l2) >= 15) continue;
            if (collect(c, ws_wordmap_find(m, ws_rack_key_add_letter(k1, l2)), l1, l2)) return 1;
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
    if (left == 1 && !filter_has(m->filter1, m->filter1_shift, key_hash(key))) return 0;
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
        } else if (left == 1 ? filter_has(m->filter1, m->filter1_shift, key_hash(key)) : 1) {
            for (unsigned l1 = 1; l1 <= m->alphabet_size; l1++) {
                if (ws_rack_key_count(key, l1) >= 15) continue;
                WsRackKey k1 = ws_rack_key_add_letter(key, l1);
                if (left == 1) {
                    span_entry(m, s, ws_wordmap_find(m, k1), l1, 0);
                    continue;
                }
                if (!filter_has(m->filter1, m->filter1_shift, key_hash(k1))) continue;
                for (unsigned l2 = l1; l2 <= m->alphabet_size; l2++) {
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

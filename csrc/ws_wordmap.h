/* Compact word map: anagram lookups for the best-move search.
 *
 * "Which words of length L can these letters make, with 0-2 blanks?"  Every word
 * of the lexicon is filed under its rack key (the multiset of its letters); the
 * entries (keys) of each length are sorted, and one open-addressing hash index over
 * all keys answers a lookup in about one cache miss.  No key is stored: an entry's key
 * is the multiset of the letters of its first word, and a 32-bit hash slot holds the
 * entry, the length of its words and a fingerprint of its key's hash, so that a
 * lookup reads the letters of the entry it finds (which the caller reads next anyway)
 * to verify it exactly.  Blanks are resolved at query time (one probe per letter a
 * blank may stand for, or per pair for two blanks), never stored: for CSW24 (280,887
 * words, 248,662 keys) the map holds 10.4 MB (2.6 MB of letters, 1.0 MB of offsets,
 * 2.1 MB of hash slots, 0.5 MB of filter, 4.2 MB of extend table; 2026-12-07, x86-64
 * Linux), where a map with
 * one- and two-blank keys would hold 4.7 M entries.  A Bloom filter answers most
 * probes that find nothing without touching the hash index, and a table of the
 * letters that may extend a key keeps a blank's probes to the letters that can help.
 *
 * A rack key counts each letter in 4 bits: letter L (1..32) in bits 4(L-1)..4(L-1)+3
 * of the 128-bit value (lo = letters 1..16, hi = letters 17..32).  Adding two keys
 * adds the multisets as long as no count passes 15 (a word has at most 15 letters).
 *
 * Built once from a validated graph (it allocates then, little more than the map
 * itself: the words are sorted one length at a time; lookups never allocate).  At
 * most 2^28 - 1 keys (a slot's low 28 bits).
 */
#ifndef WS_WORDMAP_H
#define WS_WORDMAP_H

#include "ws_defs.h"

typedef struct WsRackKey {
    uint64_t lo; /* letters 1..16, 4 bits each */
    uint64_t hi; /* letters 17..32 */
} WsRackKey;

typedef struct WsWordMap {
    uint32_t entry_count;                  /* distinct keys (alphagrams) */
    uint32_t word_count;                   /* words filed */
    uint32_t alphabet_size;                /* letters 1..alphabet_size (blank choices) */
    uint32_t length_first[WS_MAX_WORD + 2]; /* keys of length L: [length_first[L], length_first[L+1]) */
    uint32_t *word_offset;                 /* entry_count + 1: first letter of the entry's words */
    uint8_t *letters;                      /* each entry's words, alphabetical, `length` codes each;
                                            * an entry's key is the multiset of its first word */
    uint32_t *slots;                       /* hash index: length | fingerprint | (entry + 1); 0 = empty */
    uint64_t slot_mask;                    /* slot count - 1 (a power of two) */
    int32_t slot_shift;                    /* 64 - log2(slot count) */
    uint32_t entry_mask;                   /* a slot's low bits (at most 28): entry + 1 */
    uint32_t fingerprint_mask;             /* its bits from there to 27: those of (uint32_t)(hash >> 12);
                                            * bits 28..31: the length of the entry's words */
    /* A Bloom filter (2 bits a key) that answers most misses from a small bit array
     * before the hash index is touched: filter0 holds every key. */
    uint64_t *filter0;
    int32_t filter0_shift;                 /* 64 - log2(64-bit words of filter0) */
    /* What a blank may add to a key K: extend[h >> extend_shift], h = K's hash, has bit
     * l - 1 set for every letter l such that K plus l is a key (and others that share
     * the word: a superset, never a subset).  A blank is then probed only for those
     * letters (a handful) instead of every letter of the alphabet, each probe a cache
     * miss; a zero word says that no word has room for one more letter. */
    uint32_t *extend;
    int32_t extend_shift;                  /* 64 - log2(words of extend) */
    size_t bytes;                          /* heap memory held by the map */
    uint8_t *block;                        /* filter0, extend, slots and word_offset:
                                            * one allocation (letters is another) */
} WsWordMap;

/* One answer of a lookup: the entry (key) found and the letters the blanks stand for. */
typedef struct WsWordMapHit {
    uint32_t entry;
    uint8_t blank_letter[2]; /* 0 when the blank is not used; blank_letter[0] <= blank_letter[1] */
} WsWordMapHit;

static inline WsRackKey ws_rack_key_empty(void) {
    WsRackKey k = {0, 0};
    return k;
}

/* Count of `letter` (1..32) in the key. */
static inline unsigned ws_rack_key_count(WsRackKey k, unsigned letter) {
    unsigned i = letter - 1;
    return i < 16 ? (unsigned)(k.lo >> (4 * i)) & 15u : (unsigned)(k.hi >> (4 * (i - 16))) & 15u;
}

/* The key with one more `letter` (1..32); the count must be below 15. */
static inline WsRackKey ws_rack_key_add_letter(WsRackKey k, unsigned letter) {
    unsigned i = letter - 1;
    if (i < 16)
        k.lo += (uint64_t)1 << (4 * i);
    else
        k.hi += (uint64_t)1 << (4 * (i - 16));
    return k;
}

/* Union of two multisets (every summed count must stay below 16). */
static inline WsRackKey ws_rack_key_add(WsRackKey a, WsRackKey b) {
    WsRackKey k = {a.lo + b.lo, a.hi + b.hi};
    return k;
}

static inline int ws_rack_key_equal(WsRackKey a, WsRackKey b) { return a.lo == b.lo && a.hi == b.hi; }

/* Number of letters in the key (sum of the counts). */
static inline unsigned ws_rack_key_size(WsRackKey k) {
    const uint64_t nib = 0x0F0F0F0F0F0F0F0Full, byte = 0x00FF00FF00FF00FFull;
    uint64_t b = (k.lo & nib) + (k.lo >> 4 & nib) + (k.hi & nib) + (k.hi >> 4 & nib); /* 8 sums <= 60 */
    b = (b & byte) + (b >> 8 & byte);                                                     /* 4 sums <= 120 */
    return (unsigned)((b * 0x0001000100010001ull) >> 48);
}

/* Key of n letter codes (blank bits ignored; codes 1..32; at most 15 of one letter). */
WsRackKey ws_rack_key_of(const uint8_t *letters, int n);

/* Builds the map of every word of the graph's DAWG (nodes already validated, alphabet
 * 1..alphabet_size <= 32).  Returns WS_OK, WS_E_NOMEM or WS_E_ARGUMENT (also: more keys
 * than a slot holds); on failure the map holds nothing.  Free with ws_wordmap_free. */
int ws_wordmap_build(WsWordMap *m, const uint32_t *nodes, unsigned alphabet_size);

void ws_wordmap_free(WsWordMap *m);

/* Testing aid: clears the fingerprint of every slot (and of every lookup), so that a
 * lookup meets every slot of its length on its probe path and rests on the exact
 * verification alone.  Answers stay the same; lookups get slower. */
void ws_wordmap_clear_fingerprints(WsWordMap *m);

/* Entry of exactly this key, or -1. */
int32_t ws_wordmap_find(const WsWordMap *m, WsRackKey key);

/* The hash of a key (the index slot, the fingerprint and the filter bits derive from it)
 * in two steps.  The first is linear in the key's counts (mod 2^64): the premix of a sum
 * of keys is the sum of their premixes, so a search that looks up many sub-racks plus
 * the same board letters, or a key plus each letter a blank may be, adds two premixes
 * instead of hashing each key; the second mixes the premix's bits. */
#define WS_RACK_KEY_MUL_LO 0x9E3779B97F4A7C15ull
#define WS_RACK_KEY_MUL_HI 0xC2B2AE3D27D4EB4Full
static inline uint64_t ws_rack_key_premix(WsRackKey k) { return k.lo * WS_RACK_KEY_MUL_LO + k.hi * WS_RACK_KEY_MUL_HI; }

/* The premix of one letter (1..32). */
static inline uint64_t ws_rack_key_premix_letter(unsigned letter) {
    unsigned i = letter - 1;
    return i < 16 ? WS_RACK_KEY_MUL_LO << (4 * i) : WS_RACK_KEY_MUL_HI << (4 * (i - 16));
}

static inline uint64_t ws_rack_key_mix(uint64_t h) {
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
}

static inline uint64_t ws_rack_key_hash(WsRackKey k) { return ws_rack_key_mix(ws_rack_key_premix(k)); }

/* The two bits of hash h in a Bloom filter of 2^(64 - shift) 64-bit words: both in one
 * word (the word from the top bits of h, the bits from its low 12), so that asking the
 * filter costs one cache miss at most. */
static inline uint64_t ws_wordmap_filter_bits(uint64_t h) { return (1ull << (h & 63)) | (1ull << (h >> 6 & 63)); }

/* 1 if the Bloom filter (2^(64 - shift) words) may hold the key of hash h. */
static inline int ws_wordmap_filter_has(const uint64_t *f, int shift, uint64_t h) {
    uint64_t bits = ws_wordmap_filter_bits(h);
    return (f[h >> shift] & bits) == bits;
}

/* The letters (bit l for letter l, as a blank's choices) that may extend the key of
 * hash h to a key: see WsWordMap.extend. */
static inline uint64_t ws_wordmap_extend(const WsWordMap *m, uint64_t h) {
    return (uint64_t)m->extend[h >> m->extend_shift] << 1;
}

/* Starts loading the cache lines a lookup of the hash h reads first: its filter word
 * and its first slot.  A blank's lookups know all the keys they will probe (the letters
 * of the extend word) and prefetch them all before probing any, so their cache misses
 * overlap instead of coming one after the other (on a new position most of them miss). */
static inline void ws_wordmap_prefetch(const WsWordMap *m, uint64_t h) {
    __builtin_prefetch(&m->filter0[h >> m->filter0_shift]);
    __builtin_prefetch(&m->slots[h >> m->slot_shift]);
}

/* The extend word of the hash h (a key a blank is added to). */
static inline void ws_wordmap_prefetch_extend(const WsWordMap *m, uint64_t h) {
    __builtin_prefetch(&m->extend[h >> m->extend_shift]);
}

#define WS_WORDMAP_LENGTH_SHIFT 28 /* a slot's top 4 bits: the length of the entry's words */

/* 1 if the letters of the first word of entry e, whose words have n letters, make
 * `key`.  Out of line: called once a lookup finds its entry (or meets another of the
 * same length and fingerprint), it keeps the search's loops free of its registers. */
int ws_wordmap_entry_is(const WsWordMap *m, uint32_t e, WsRackKey key, unsigned n);

/* A check of entry e against a key of n letters (ws_wordmap_entry_is, or an inlined one). */
typedef int (*WsWordMapEntryCheck)(const WsWordMap *m, uint32_t e, WsRackKey key, unsigned n);

/* The probe of a lookup: the filter, then the slots from the key's hash h
 * (ws_rack_key_hash(key)); a slot of that
 * length and fingerprint is checked exactly by `is`.  Always inlined with a constant
 * `is`, so the compiler calls (or inlines) that function directly. */
static inline int32_t ws_wordmap_probe_hashed(const WsWordMap *m, WsRackKey key, uint64_t h, unsigned n,
                                               WsWordMapEntryCheck is) {
    if (!ws_wordmap_filter_has(m->filter0, m->filter0_shift, h)) return -1;
    uint32_t emask = m->entry_mask, tmask = ~emask;
    uint32_t tag = (uint32_t)n << WS_WORDMAP_LENGTH_SHIFT | ((uint32_t)(h >> 12) & m->fingerprint_mask);
    uint64_t s = h >> m->slot_shift;
    for (;;) {
        uint32_t slot = m->slots[s];
        if (!slot) return -1;
        if ((slot & tmask) == tag) {
            uint32_t e = (slot & emask) - 1;
            if (is(m, e, key, n)) return (int32_t)e;
        }
        s = (s + 1) & m->slot_mask;
    }
}

static inline int32_t ws_wordmap_probe(const WsWordMap *m, WsRackKey key, unsigned n, WsWordMapEntryCheck is) {
    return ws_wordmap_probe_hashed(m, key, ws_rack_key_hash(key), n, is);
}

/* Entry of the key `key` of n letters (n = ws_rack_key_size(key), 1..WS_MAX_WORD), or -1:
 * inlined into the search, which knows n.  A slot of that length and fingerprint is
 * verified exactly (ws_wordmap_entry_is, out of line). */
static inline int32_t ws_wordmap_find_sized(const WsWordMap *m, WsRackKey key, unsigned n) {
    return ws_wordmap_probe(m, key, n, ws_wordmap_entry_is);
}

/* ws_wordmap_find_sized of a key whose premix (ws_rack_key_premix) is known. */
static inline int32_t ws_wordmap_find_premixed(const WsWordMap *m, WsRackKey key, uint64_t premix, unsigned n) {
    return ws_wordmap_probe_hashed(m, key, ws_rack_key_mix(premix), n, ws_wordmap_entry_is);
}

/* ws_wordmap_find, inlined. */
static inline int32_t ws_wordmap_find_inline(const WsWordMap *m, WsRackKey key) {
    unsigned n = ws_rack_key_size(key);
    return n - 1u < WS_MAX_WORD ? ws_wordmap_find_sized(m, key, n) : -1;
}

/* Length of the words of an entry. */
int ws_wordmap_entry_length(const WsWordMap *m, uint32_t entry);

/* Words of an entry: *count words of ws_wordmap_entry_length letters each, back to back. */
const uint8_t *ws_wordmap_entry_words(const WsWordMap *m, uint32_t entry, uint32_t *count);

/* 1 if the letters of `key` plus `blanks` (0..2) blanks make a word (of size(key) +
 * blanks letters), else 0.  A blank may stand for any letter in blank_choices (bit L =
 * letter L; pass all letters for an unrestricted blank). */
int ws_wordmap_exists(const WsWordMap *m, WsRackKey key, int blanks, uint64_t blank_choices);

/* Every entry the letters of `key` plus `blanks` (0..2) blanks make, each once per way of
 * choosing the blanks' letters (in blank_choices; two blanks as an unordered pair), in
 * ascending order of the blank letters.  Writes at most `capacity` hits and sets *count
 * to the number that exist; returns WS_OK, or WS_E_CAPACITY when more exist than fit. */
int ws_wordmap_lookup(const WsWordMap *m, WsRackKey key, int blanks, uint64_t blank_choices,
                      WsWordMapHit *out, size_t capacity, size_t *count);

/* 1 if some `n` tiles of the rack (counts per tile code, [0] = blanks, at most 7
 * tiles), together with the letters of `through` (the board letters a span runs
 * through), make a word of n + size(through) letters; else 0.  The question the
 * best-move search asks of a span: with 0 it holds no move.  Sub-racks are tried
 * as distinct multisets (duplicate letters are not tried twice).  At most 2 blanks:
 * with more, returns WS_E_ARGUMENT. */
int ws_wordmap_subrack_exists(const WsWordMap *m, const uint8_t *rack, int n, WsRackKey through);

/* One word that fits a span: the word `index` of `entry`, and the letters the rack's
 * blanks stand for in it (0 = no blank; blank_letter[0] <= blank_letter[1]). */
typedef struct WsSpanWord {
    uint32_t entry;
    uint16_t index;
    uint8_t blank_letter[2];
} WsSpanWord;

/* Every word the rack can play on a span of `length` squares (2..15): board[i] is the
 * letter already on square i (blank bits ignored) or 0 for an empty square, which takes
 * a rack tile whose letter is in cross[i] (bit L = letter L allowed).  Each (word,
 * letters of the blanks used) once; at least one empty square.  Writes at most
 * `capacity` answers, sets *count to the number that exist; returns WS_OK, or
 * WS_E_CAPACITY when more exist than fit, or WS_E_ARGUMENT (more than 7 tiles or 2
 * blanks, a bad length).  This is the exact value of a span: the best-move search can
 * score these words instead of walking the graph for them. */
int ws_wordmap_span_words(const WsWordMap *m, const uint8_t *rack, int length, const uint8_t *board,
                          const uint64_t *cross, WsSpanWord *out, size_t capacity, size_t *count);

#endif

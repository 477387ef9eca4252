/* Graph node access (header-only, inlined into the generator) and validation. */
#ifndef WS_GRAPH_H
#define WS_GRAPH_H

#include "ws_defs.h"

static inline uint32_t ws_node_index(uint32_t node) { return node & WS_NODE_INDEX_MASK; }
static inline uint32_t ws_node_is_end(uint32_t node) { return node & WS_NODE_END; }
static inline uint32_t ws_node_accepts(uint32_t node) { return node & WS_NODE_ACCEPTS; }
static inline unsigned ws_node_tile(uint32_t node) { return node >> WS_NODE_TILE_SHIFT; }

static inline uint32_t ws_graph_dawg_root(const uint32_t *nodes) { return ws_node_index(nodes[0]); }
static inline uint32_t ws_graph_gaddag_root(const uint32_t *nodes) { return ws_node_index(nodes[1]); }

/* Position of the arc with `tile` in the sibling list starting at `list`, or 0. */
static inline uint32_t ws_graph_seek(const uint32_t *nodes, uint32_t list, unsigned tile) {
    if (!list) return 0;
    for (;;) {
        uint32_t node = nodes[list];
        unsigned t = ws_node_tile(node);
        if (t == tile) return list;
        if (t > tile || ws_node_is_end(node)) return 0;
        list++;
    }
}

/* Checks every arc of a graph once: indices in range, tiles in the alphabet,
 * sibling lists ascending and terminated, separators followed by a tile, no dead
 * arcs.  Also computes the two node checksums stored in the file header.
 * Returns WS_GRAPH_OK or a WS_GRAPH_* problem; *bad_index names the entry. */
int ws_graph_validate(const uint32_t *nodes, uint32_t node_count, unsigned alphabet_size,
                      uint64_t *sum, uint64_t *weighted_sum, uint32_t *bad_index);

/* Checksums only (used by the writer). */
void ws_graph_checksum(const uint32_t *nodes, uint32_t node_count, uint64_t *sum, uint64_t *weighted_sum);

/* The one walk over the DAWG's words, in alphabetical order (depth first, each arc's
 * word before the words below it): the load's cross check, the alphagram keys, the
 * word map and the word export all iterate with it.  On a validated graph without
 * cycles (ws_graph_count's WS_GRAPH_OK).  Usage:
 *     WsWordIter it; ws_graph_words_begin(&it, nodes, WS_MAX_WORD);
 *     for (int n; (n = ws_graph_words_next(&it)) > 0;) use(it.word, n); */
typedef struct WsWordIter {
    const uint32_t *nodes;          /* the node array (not owned) */
    uint32_t pos[WS_MAX_WORD + 1];  /* the arc of the path at each depth */
    uint8_t word[WS_MAX_WORD + 1];  /* the tiles of the path: the word just returned */
    int depth;                      /* depth of the current arc; -1 once done */
    int max_length;                 /* longer words are not visited (1..WS_MAX_WORD) */
    int pending;                    /* 1: the current arc's word was returned, move on first */
} WsWordIter;

/* inline: the walk is the inner loop of the load's cross check and the alphagram keys */
/* Starts a walk over the words of at most max_length letters (clamped to 1..WS_MAX_WORD). */
static inline void ws_graph_words_begin(WsWordIter *it, const uint32_t *nodes, int max_length) {
    it->nodes = nodes;
    it->max_length = max_length < 1 ? 1 : max_length > WS_MAX_WORD ? WS_MAX_WORD : max_length;
    it->pos[0] = ws_graph_dawg_root(nodes);
    it->depth = it->pos[0] ? 0 : -1; /* an empty DAWG has no root list */
    it->pending = 0;
}

/* To the next arc of the walk: down to the first child, else the next sibling, popping
 * the lists that are done. */
static inline void ws_graph_words_advance(WsWordIter *it) {
    const uint32_t *nodes = it->nodes;
    uint32_t child = ws_node_index(nodes[it->pos[it->depth]]);
    if (child && it->depth + 1 < it->max_length) {
        it->pos[++it->depth] = child;
        return;
    }
    while (it->depth >= 0) {
        if (ws_node_is_end(nodes[it->pos[it->depth]])) {
            it->depth--;
        } else {
            it->pos[it->depth]++;
            return;
        }
    }
}

/* The length of the next word (its tiles in it->word), or 0 when there are no more. */
static inline int ws_graph_words_next(WsWordIter *it) {
    if (it->pending) {
        it->pending = 0;
        if (it->depth >= 0) ws_graph_words_advance(it);
    }
    while (it->depth >= 0) {
        uint32_t node = it->nodes[it->pos[it->depth]];
        it->word[it->depth] = (uint8_t)ws_node_tile(node);
        if (ws_node_accepts(node)) {
            it->pending = 1;
            return it->depth + 1;
        }
        ws_graph_words_advance(it);
    }
    return 0;
}

/* Alphagram key of a multiset of letters: the letters sorted ascending, 6 bits each,
 * first letter in the highest used bits (at most 10 letters). */
uint64_t ws_alphagram_key(const uint8_t *letters, int n);

/* The sorted, distinct alphagram keys of every DAWG word of exactly `length`
 * letters (length <= 10).  With out == NULL only counts.  Returns the number of
 * distinct keys written, or a negative status (WS_E_CAPACITY). */
long ws_graph_alphagrams(const uint32_t *nodes, int length, uint64_t *out, size_t capacity);

/* 1 if the key is in the sorted array. */
int ws_alphagram_find(const uint64_t *keys, size_t count, uint64_t key);

/* What the word-level check of a loaded graph finds (ws_graph_count). */
typedef struct WsGraphCounts {
    uint64_t dawg_words;    /* words of the DAWG (saturates at UINT64_MAX) */
    uint64_t dawg_letters;  /* their letters added up: the paths the GADDAG must have */
    uint64_t gaddag_paths;  /* accepting paths of the GADDAG */
    unsigned dawg_longest;  /* longest DAWG word */
} WsGraphCounts;

/* Counts the words of both halves in one pass over the nodes (each arc once), after
 * ws_graph_validate accepted the array: a list reachable from itself (WS_GRAPH_CYCLE),
 * a DAWG word over WS_MAX_WORD letters or a GADDAG path over WS_MAX_WORD + 1 arcs
 * (WS_GRAPH_TOO_DEEP) or a separator arc in the DAWG (WS_GRAPH_DAWG_SEPARATOR) is a
 * problem (*bad_index names the node).  Counts saturate at UINT32_MAX, given as UINT64_MAX.
 * Allocates about 9 bytes a node for the count
 * and frees them (load time, never in the search).  Returns WS_GRAPH_OK, a problem,
 * or WS_E_NOMEM. */
int ws_graph_count(const uint32_t *nodes, uint32_t node_count, WsGraphCounts *out, uint32_t *bad_index);

/* Checks that the GADDAG holds every split of DAWG words: every `stride`-th word of
 * the DAWG in order (stride 1: all), each of its n splits REV(w[:k]) [+ separator +
 * w[k:]] must be an accepting GADDAG path.  *checked counts the words checked; on a
 * failure the word is copied to bad_word (16 bytes) with its length in *bad_length.
 * Needs ws_graph_count's WS_GRAPH_OK first (no cycles, words of at most 15 letters).
 * Returns WS_GRAPH_OK or WS_GRAPH_HALVES_DISAGREE. */
int ws_graph_cross_check(const uint32_t *nodes, uint64_t stride, uint64_t *checked, uint8_t *bad_word,
                         unsigned *bad_length);

/* 1 if the word (tile codes, no blank bits) is in the DAWG. */
int ws_graph_contains(const uint32_t *nodes, const uint8_t *word, size_t length);

#endif

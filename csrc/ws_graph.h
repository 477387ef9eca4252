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

/* Alphagram key of a multiset of letters: the letters sorted ascending, 6 bits each,
 * first letter in the highest used bits (at most 10 letters). */
uint64_t ws_alphagram_key(const uint8_t *letters, int n);

/* The sorted, distinct alphagram keys of every DAWG word of exactly `length`
 * letters (length <= 10).  With out == NULL only counts.  Returns the number of
 * distinct keys written, or a negative status (WS_E_CAPACITY). */
long ws_graph_alphagrams(const uint32_t *nodes, int length, uint64_t *out, size_t capacity);

/* 1 if the key is in the sorted array. */
int ws_alphagram_find(const uint64_t *keys, size_t count, uint64_t key);

/* 1 if the word (tile codes, no blank bits) is in the DAWG. */
int ws_graph_contains(const uint32_t *nodes, const uint8_t *word, size_t length);

#endif

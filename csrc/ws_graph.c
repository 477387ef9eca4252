/* Graph validation, checksums and word lookup. */
#include "ws_graph.h"

void ws_graph_checksum(const uint32_t *nodes, uint32_t node_count, uint64_t *sum, uint64_t *weighted_sum) {
    uint64_t a = 0, b = 0;
    for (uint32_t i = 0; i < node_count; i++) {
        a += nodes[i];
        b += a;
    }
    *sum = a;
    *weighted_sum = b;
}

int ws_graph_validate(const uint32_t *nodes, uint32_t node_count, unsigned alphabet_size,
                      uint64_t *sum, uint64_t *weighted_sum, uint32_t *bad_index) {
    uint64_t a = 0, b = 0;
    *bad_index = 0;
    *sum = 0;
    *weighted_sum = 0;
    if (node_count < 3) return WS_GRAPH_TOO_SMALL;
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t root = ws_node_index(nodes[i]);
        a += nodes[i];
        b += a;
        if (root < 2 || root >= node_count || (nodes[i] & ~WS_NODE_INDEX_MASK & ~WS_NODE_END)) {
            *bad_index = i;
            return WS_GRAPH_BAD_ROOT;
        }
    }
    for (uint32_t i = 2; i < node_count; i++) {
        uint32_t node = nodes[i];
        uint32_t child = ws_node_index(node);
        unsigned tile = ws_node_tile(node);
        a += node;
        b += a;
        if (child != 0 && (child < 2 || child >= node_count)) {
            *bad_index = i;
            return WS_GRAPH_INDEX_RANGE;
        }
        if (tile > alphabet_size) {
            *bad_index = i;
            return WS_GRAPH_TILE_RANGE;
        }
        if (tile == 0 && (child == 0 || ws_node_accepts(node))) {
            *bad_index = i;
            return WS_GRAPH_SEPARATOR;
        }
        if (child == 0 && !ws_node_accepts(node)) {
            *bad_index = i;
            return WS_GRAPH_DEAD_ARC;
        }
        if (!ws_node_is_end(node)) {
            if (i + 1 >= node_count) {
                *bad_index = i;
                return WS_GRAPH_NO_END;
            }
            if (ws_node_tile(nodes[i + 1]) <= tile) {
                *bad_index = i + 1;
                return WS_GRAPH_ORDER;
            }
        }
    }
    *sum = a;
    *weighted_sum = b;
    return WS_GRAPH_OK;
}

int ws_graph_contains(const uint32_t *nodes, const uint8_t *word, size_t length) {
    uint32_t list = ws_graph_dawg_root(nodes);
    uint32_t arc = 0;
    if (length == 0) return 0;
    for (size_t i = 0; i < length; i++) {
        unsigned t = word[i] & WS_LETTER_MASK;
        if (t == 0) return 0;
        arc = ws_graph_seek(nodes, list, t);
        if (!arc) return 0;
        list = ws_node_index(nodes[arc]);
    }
    return ws_node_accepts(nodes[arc]) ? 1 : 0;
}

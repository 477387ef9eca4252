/* Graph validation, checksums and word lookup. */
#include <stdlib.h>

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

/* The precise check: finds the first bad entry and says why. */
static int validate_slow(const uint32_t *nodes, uint32_t node_count, unsigned alphabet_size, uint32_t *bad_index) {
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t root = ws_node_index(nodes[i]);
        if (root < 2 || root >= node_count || (nodes[i] & ~WS_NODE_INDEX_MASK & ~WS_NODE_END)) {
            *bad_index = i;
            return WS_GRAPH_BAD_ROOT;
        }
    }
    for (uint32_t i = 2; i < node_count; i++) {
        uint32_t node = nodes[i];
        uint32_t child = ws_node_index(node);
        unsigned tile = ws_node_tile(node);
        *bad_index = i;
        if (child != 0 && (child < 2 || child >= node_count)) return WS_GRAPH_INDEX_RANGE;
        if (tile > alphabet_size) return WS_GRAPH_TILE_RANGE;
        if (tile == 0 && (child == 0 || ws_node_accepts(node))) return WS_GRAPH_SEPARATOR;
        if (child == 0 && !ws_node_accepts(node)) return WS_GRAPH_DEAD_ARC;
        if (!ws_node_is_end(node)) {
            if (i + 1 >= node_count) return WS_GRAPH_NO_END;
            if (ws_node_tile(nodes[i + 1]) <= tile) {
                *bad_index = i + 1;
                return WS_GRAPH_ORDER;
            }
        }
    }
    *bad_index = 0;
    return WS_GRAPH_OK;
}

int ws_graph_validate(const uint32_t *nodes, uint32_t node_count, unsigned alphabet_size,
                      uint64_t *sum, uint64_t *weighted_sum, uint32_t *bad_index) {
    uint32_t bad = 0;
    *bad_index = 0;
    *sum = 0;
    *weighted_sum = 0;
    if (node_count < 3) return WS_GRAPH_TOO_SMALL;
    /* Fast pass without branches (the compiler vectorises it); the precise pass
     * runs only when something is wrong. */
    for (uint32_t i = 2; i + 1 < node_count; i++) {
        uint32_t node = nodes[i];
        uint32_t child = node & WS_NODE_INDEX_MASK;
        uint32_t tile = node >> WS_NODE_TILE_SHIFT;
        uint32_t acc = (node >> 25) & 1;
        uint32_t end = (node >> 24) & 1;
        uint32_t next_tile = nodes[i + 1] >> WS_NODE_TILE_SHIFT;
        bad |= (uint32_t)(child >= node_count) | ((uint32_t)(child != 0) & (uint32_t)(child < 2)) |
               (uint32_t)(tile > alphabet_size) | ((uint32_t)(tile == 0) & ((uint32_t)(child == 0) | acc)) |
               ((uint32_t)(child == 0) & (acc ^ 1)) | ((end ^ 1) & (uint32_t)(next_tile <= tile));
    }
    {
        /* the last node: the same checks, and it must end its list */
        uint32_t last = nodes[node_count - 1];
        uint32_t child = last & WS_NODE_INDEX_MASK;
        uint32_t tile = last >> WS_NODE_TILE_SHIFT;
        uint32_t acc = (last >> 25) & 1;
        bad |= (uint32_t)(child >= node_count) | ((uint32_t)(child != 0) & (uint32_t)(child < 2)) |
               (uint32_t)(tile > alphabet_size) | ((uint32_t)(tile == 0) & ((uint32_t)(child == 0) | acc)) |
               ((uint32_t)(child == 0) & (acc ^ 1));
        bad |= !ws_node_is_end(last);
        bad |= (ws_node_index(nodes[0]) < 2) | (ws_node_index(nodes[0]) >= node_count) |
               (ws_node_index(nodes[1]) < 2) | (ws_node_index(nodes[1]) >= node_count);
    }
    if (bad) {
        int problem = validate_slow(nodes, node_count, alphabet_size, bad_index);
        if (problem != WS_GRAPH_OK) return problem;
    }
    ws_graph_checksum(nodes, node_count, sum, weighted_sum);
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

uint64_t ws_alphagram_key(const uint8_t *letters, int n) {
    uint8_t sorted[16];
    uint64_t key = (uint64_t)n;
    for (int i = 0; i < n; i++) {
        uint8_t v = letters[i] & WS_LETTER_MASK;
        int j = i;
        while (j > 0 && sorted[j - 1] > v) {
            sorted[j] = sorted[j - 1];
            j--;
        }
        sorted[j] = v;
    }
    for (int i = 0; i < n; i++) key = key << 6 | sorted[i];
    return key;
}

static int key_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

long ws_graph_alphagrams(const uint32_t *nodes, int length, uint64_t *out, size_t capacity) {
    uint32_t stack[16];
    uint8_t word[16];
    size_t n = 0;
    int depth = 0;
    if (length < 1 || length > 10) return WS_E_ARGUMENT;
    stack[0] = ws_graph_dawg_root(nodes);
    while (depth >= 0) {
        uint32_t node = nodes[stack[depth]];
        word[depth] = (uint8_t)ws_node_tile(node);
        if (depth == length - 1) {
            if (ws_node_accepts(node)) {
                if (out && n < capacity) out[n] = ws_alphagram_key(word, length);
                n++;
            }
        } else if (ws_node_index(node)) {
            depth++;
            stack[depth] = ws_node_index(node);
            continue;
        }
        while (depth >= 0) { /* next sibling, popping finished lists */
            if (ws_node_is_end(nodes[stack[depth]])) {
                depth--;
            } else {
                stack[depth]++;
                break;
            }
        }
    }
    if (!out) return (long)n;
    if (n > capacity) return WS_E_CAPACITY;
    qsort(out, n, sizeof *out, key_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || out[m - 1] != out[i]) out[m++] = out[i];
    return (long)m;
}

int ws_alphagram_find(const uint64_t *keys, size_t count, uint64_t key) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && keys[lo] == key;
}

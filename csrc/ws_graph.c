/* Graph validation, checksums and word lookup. */
#include <stdlib.h>
#include <string.h>

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

/* Counts saturate here: a count this large is no real word list (and no header's). */
#define COUNT_MAX UINT32_MAX

static uint32_t sat_add(uint32_t a, uint32_t b) { return a > COUNT_MAX - b ? COUNT_MAX : a + b; }

typedef struct CountState {
    const uint32_t *nodes;
    uint32_t *words;   /* paths from arc i on (arcs i, i+1, ... of its list and their children) that accept */
    uint32_t *letters; /* their arcs added up */
    uint8_t *info;     /* bits 0-1 state (2 = done, 1 = on the current path), bit 2 reaches a separator,
                          bits 3-7 longest path (saturates at 31) */
} CountState;

/* The value of arc i from its child's and next sibling's (both done). */
static void count_arc(CountState *c, uint32_t i) {
    uint32_t node = c->nodes[i];
    uint32_t child = ws_node_index(node);
    uint32_t acc = ws_node_accepts(node) ? 1 : 0;
    uint32_t w = acc, l = acc;
    unsigned longest = 1, sep = ws_node_tile(node) == 0;
    if (child) {
        w = sat_add(w, c->words[child]);
        l = sat_add(l, sat_add(c->letters[child], c->words[child]));
        unsigned d = c->info[child] >> 3;
        longest = d >= 31 ? 31 : d + 1;
        sep |= (c->info[child] >> 2) & 1;
    }
    if (!ws_node_is_end(node)) {
        w = sat_add(w, c->words[i + 1]);
        l = sat_add(l, c->letters[i + 1]);
        if ((unsigned)(c->info[i + 1] >> 3) > longest) longest = c->info[i + 1] >> 3;
        sep |= (c->info[i + 1] >> 2) & 1;
    }
    c->words[i] = w;
    c->letters[i] = l;
    c->info[i] = (uint8_t)(2 | sep << 2 | longest << 3);
}

/* One pass from the last node down computes every arc whose child lies after it (the
 * layout writes a list's children after the list, so nearly all); a depth-first walk
 * from each root does the rest and finds cycles (a cycle always has an arc to an
 * earlier node, so the pass leaves it to the walk). */
int ws_graph_count(const uint32_t *nodes, uint32_t node_count, WsGraphCounts *out, uint32_t *bad_index) {
    CountState c = {nodes, NULL, NULL, NULL};
    uint32_t *stack = NULL;
    int problem = WS_GRAPH_OK;
    *bad_index = 0;
    memset(out, 0, sizeof *out);
    c.words = malloc((size_t)node_count * sizeof(uint32_t));
    c.letters = malloc((size_t)node_count * sizeof(uint32_t));
    c.info = calloc(node_count, 1);
    stack = malloc(((size_t)node_count * 2 + 4) * sizeof(uint32_t));
    if (!c.words || !c.letters || !c.info || !stack) {
        problem = WS_E_NOMEM;
        goto done;
    }
    for (uint32_t i = node_count; i-- > 2;) {
        uint32_t node = nodes[i];
        uint32_t child = ws_node_index(node);
        if ((child && (child <= i || (c.info[child] & 3) != 2)) || (!ws_node_is_end(node) && (c.info[i + 1] & 3) != 2))
            continue;
        count_arc(&c, i);
    }
    for (int half = 0; half < 2; half++) {
        uint32_t root = ws_node_index(nodes[half]);
        size_t sp = 0;
        stack[sp++] = root;
        while (sp) {
            uint32_t i = stack[sp - 1];
            uint8_t state = c.info[i] & 3;
            if (state == 2) {
                sp--;
                continue;
            }
            if (state == 0) {
                uint32_t node = nodes[i];
                uint32_t deps[2] = {ws_node_index(node), ws_node_is_end(node) ? 0 : i + 1};
                c.info[i] |= 1;
                for (int k = 0; k < 2; k++) {
                    uint32_t d = deps[k];
                    if (!d || (c.info[d] & 3) == 2) continue;
                    if ((c.info[d] & 3) == 1) {
                        *bad_index = i;
                        problem = WS_GRAPH_CYCLE;
                        goto done;
                    }
                    stack[sp++] = d;
                }
                if (stack[sp - 1] != i) continue;
            }
            count_arc(&c, i); /* every dependency is done */
            sp--;
        }
        unsigned longest = c.info[root] >> 3;
        if (half == 0) {
            if ((c.info[root] >> 2) & 1) {
                problem = WS_GRAPH_DAWG_SEPARATOR;
                goto done;
            }
            if (longest > WS_MAX_WORD) {
                problem = WS_GRAPH_TOO_DEEP;
                goto done;
            }
            out->dawg_words = c.words[root] == COUNT_MAX ? UINT64_MAX : c.words[root];
            out->dawg_letters = c.letters[root] == COUNT_MAX ? UINT64_MAX : c.letters[root];
            out->dawg_longest = longest;
        } else {
            if (longest > WS_MAX_WORD + 1) {
                *bad_index = 1;
                problem = WS_GRAPH_TOO_DEEP;
                goto done;
            }
            out->gaddag_paths = c.words[root] == COUNT_MAX ? UINT64_MAX : c.words[root];
        }
    }
done:
    free(c.words);
    free(c.letters);
    free(c.info);
    free(stack);
    return problem;
}

/* 1 if REV(w[:k]) [+ separator + w[k:]] is an accepting GADDAG path. */
static int gaddag_has_split(const uint32_t *nodes, const uint8_t *w, unsigned n, unsigned k) {
    uint32_t list = ws_graph_gaddag_root(nodes), arc = 0;
    for (unsigned j = k; j-- > 0;) {
        arc = ws_graph_seek(nodes, list, w[j]);
        if (!arc) return 0;
        list = ws_node_index(nodes[arc]);
    }
    if (k < n) {
        arc = ws_graph_seek(nodes, list, 0);
        if (!arc) return 0;
        list = ws_node_index(nodes[arc]);
        for (unsigned j = k; j < n; j++) {
            arc = ws_graph_seek(nodes, list, w[j]);
            if (!arc) return 0;
            list = ws_node_index(nodes[arc]);
        }
    }
    return ws_node_accepts(nodes[arc]) ? 1 : 0;
}

int ws_graph_cross_check(const uint32_t *nodes, uint64_t stride, uint64_t *checked, uint8_t *bad_word,
                         unsigned *bad_length) {
    WsWordIter it;
    uint64_t seen = 0;
    int length;
    *checked = 0;
    *bad_length = 0;
    if (stride == 0) stride = 1;
    ws_graph_words_begin(&it, nodes, WS_MAX_WORD);
    while ((length = ws_graph_words_next(&it)) > 0) {
        if (seen++ % stride) continue;
        unsigned n = (unsigned)length;
        for (unsigned k = 1; k <= n; k++) {
            if (!gaddag_has_split(nodes, it.word, n, k)) {
                memcpy(bad_word, it.word, n);
                *bad_length = n;
                return WS_GRAPH_HALVES_DISAGREE;
            }
        }
        (*checked)++;
    }
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
    WsWordIter it;
    size_t n = 0;
    int got;
    if (length < 1 || length > 10) return WS_E_ARGUMENT;
    ws_graph_words_begin(&it, nodes, length); /* never below `length` letters */
    while ((got = ws_graph_words_next(&it)) > 0) {
        if (got != length) continue;
        if (out && n < capacity) out[n] = ws_alphagram_key(it.word, length);
        n++;
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

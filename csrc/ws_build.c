/* Word-list parsing and graph building.
 *
 * The graph is one array of packed arcs (see ws_defs.h) holding a minimised
 * DAWG and a minimised GADDAG that share states.  Building follows the
 * incremental construction of minimal acyclic automata from sorted input
 * (Daciuk, Mihov, Watson & Watson 2000): one frame of pending arcs per depth;
 * a frame that can no longer grow is interned as a chain of states in a hash
 * table, so equal sub-lists become one.
 *
 * The GADDAG holds REV(x) for every prefix x of every word; the arc that ends
 * REV(x) accepts when x is a word, and the node after it has a separator arc
 * (tile 0) that points straight into the DAWG list of x's continuations.  So
 * the part after the separator IS the DAWG, and only one string per distinct
 * prefix is inserted (not one per split point of every word).
 *
 * Layout: each state belongs to the longest list that contains it; those lists
 * are written once each, breadth first from the GADDAG root, and a list that is the
 * tail of a longer list points into it (tail merging).
 */
#include <stdlib.h>
#include <string.h>

#include "ws_build.h"
#include "ws_graph.h"

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */
/* ------------------------------------------------------------------------ */

static size_t utf8_decode(const uint8_t *s, const uint8_t *end, uint32_t *cp) {
    uint8_t c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        if (end - s < 2 || (s[1] & 0xC0) != 0x80) return 0;
        *cp = ((uint32_t)(c & 0x1F) << 6) | (s[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (end - s < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        uint32_t v = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF)) return 0;
        *cp = v;
        return 3;
    }
    if (c < 0xF5) {
        if (end - s < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80) return 0;
        uint32_t v = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
                     ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        if (v < 0x10000 || v > 0x10FFFF) return 0;
        *cp = v;
        return 4;
    }
    return 0;
}

static uint8_t classify_character(uint32_t cp) {
    if ((cp >= '0' && cp <= '9') || cp == 0xB2 || cp == 0xB3 || cp == 0xB9 || (cp >= 0xBC && cp <= 0xBE) ||
        (cp >= 0x2070 && cp <= 0x2089))
        return WS_LINE_DIGIT;
    if (cp == '\'' || cp == 0x2019 || cp == 0x2018 || cp == 0x2BC || cp == '`' || cp == 0xB4)
        return WS_LINE_APOSTROPHE;
    if (cp == '-' || (cp >= 0x2010 && cp <= 0x2014) || cp == 0x2212) return WS_LINE_HYPHEN;
    if (cp == '.') return WS_LINE_DOT;
    if (cp == ' ' || cp == '\t' || cp == 0xA0 || cp == 0x0B || cp == 0x0C || cp == 0x3000 ||
        (cp >= 0x2000 && cp <= 0x200A))
        return WS_LINE_SPACE;
    return WS_LINE_OTHER_CHARACTER;
}

static const WsCharMap *map_find(const WsCharMap *map, size_t n, uint32_t cp) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (map[mid].code_point < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < n && map[lo].code_point == cp) ? &map[lo] : NULL;
}

static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

long ws_parse_wordlist(const uint8_t *text, size_t length, const WsCharMap *map, size_t map_size,
                       uint8_t *line_status, size_t max_lines, WsWordKey *words, size_t *word_count) {
    const WsCharMap *ascii[128];
    const uint8_t *p = text, *end = text + length;
    size_t lines = 0, nw = 0;
    for (int c = 0; c < 128; c++) ascii[c] = map_find(map, map_size, (uint32_t)c);
    if (length >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) p += 3; /* BOM */
    while (p < end || (p == end && lines == 0 && length == 0 && 0)) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *le = nl ? nl : end;
        const uint8_t *s = p, *e = le;
        uint8_t status = WS_LINE_OK;
        WsWordKey key;
        size_t n = 0;
        if (lines >= max_lines) return WS_E_CAPACITY;
        while (s < e && is_space(*s)) s++;
        while (e > s && is_space(e[-1])) e--;
        memset(&key, 0, sizeof key);
        if (s == e) {
            status = WS_LINE_EMPTY;
        } else if (*s == '#') {
            status = WS_LINE_COMMENT;
        } else {
            while (s < e) {
                uint32_t cp;
                const WsCharMap *m;
                size_t k;
                if (*s < 0x80) {
                    cp = *s;
                    k = 1;
                    m = ascii[cp];
                } else {
                    k = utf8_decode(s, e, &cp);
                    if (!k) {
                        status = WS_LINE_BAD_UTF8;
                        break;
                    }
                    m = map_find(map, map_size, cp);
                }
                if (!m) {
                    status = classify_character(cp);
                    break;
                }
                for (unsigned j = 0; j < m->tiles[3]; j++) {
                    if (n < WS_MAX_WORD) key.letters[n] = m->tiles[j];
                    n++;
                }
                s += k;
            }
            if (status == WS_LINE_OK) {
                if (n < WS_MIN_WORD)
                    status = WS_LINE_TOO_SHORT;
                else if (n > WS_MAX_WORD)
                    status = WS_LINE_TOO_LONG;
            }
        }
        line_status[lines] = status;
        if (status == WS_LINE_OK) {
            key.letters[15] = (uint8_t)n;
            key.line = (uint32_t)lines;
            words[nw++] = key;
        }
        lines++;
        if (!nl) break;
        p = nl + 1;
        if (p == end) break; /* a final newline does not start another line */
    }
    *word_count = nw;
    return (long)lines;
}

static int key_compare(const void *a, const void *b) {
    const WsWordKey *x = a, *y = b;
    int c = memcmp(x->letters, y->letters, 15);
    if (c) return c;
    return (x->line > y->line) - (x->line < y->line);
}

static int keys_sorted(const WsWordKey *w, size_t n) {
    for (size_t i = 1; i < n; i++)
        if (key_compare(&w[i - 1], &w[i]) > 0) return 0;
    return 1;
}

size_t ws_sort_unique(WsWordKey *words, size_t count, uint8_t *line_status) {
    size_t out = 0;
    if (!keys_sorted(words, count)) qsort(words, count, sizeof *words, key_compare);
    for (size_t i = 0; i < count; i++) {
        if (out && memcmp(words[out - 1].letters, words[i].letters, 16) == 0) {
            if (line_status) line_status[words[i].line] = WS_LINE_DUPLICATE;
            continue;
        }
        words[out++] = words[i];
    }
    return out;
}

long ws_words_to_utf8(const WsWordKey *words, size_t count, const uint8_t *letter_utf8, const uint8_t *rank,
                      uint8_t *out, size_t out_capacity) {
    int identity = 1;
    WsWordKey *tmp = NULL;
    const WsWordKey *src = words;
    uint8_t inverse[WS_MAX_LETTERS + 1];
    size_t o = 0;
    memset(inverse, 0, sizeof inverse);
    for (unsigned c = 1; c <= WS_MAX_LETTERS; c++) {
        if (rank[c] != c && rank[c] != 0) identity = 0;
        if (rank[c] <= WS_MAX_LETTERS) inverse[rank[c]] = (uint8_t)c;
    }
    if (!identity) {
        /* Re-key every word by code-point rank, sort, and map back when writing. */
        tmp = malloc(count ? count * sizeof *tmp : 1);
        if (!tmp) return WS_E_NOMEM;
        for (size_t i = 0; i < count; i++) {
            tmp[i] = words[i];
            for (unsigned j = 0; j < 15 && tmp[i].letters[j]; j++) tmp[i].letters[j] = rank[tmp[i].letters[j]];
        }
        qsort(tmp, count, sizeof *tmp, key_compare);
        src = tmp;
    }
    for (size_t i = 0; i < count; i++) {
        unsigned n = src[i].letters[15];
        for (unsigned j = 0; j < n; j++) {
            unsigned c = identity ? src[i].letters[j] : inverse[src[i].letters[j]];
            const uint8_t *u = letter_utf8 + 4 * (c - 1);
            for (unsigned k = 0; k < 4 && u[k]; k++) {
                if (o >= out_capacity) {
                    free(tmp);
                    return WS_E_CAPACITY;
                }
                out[o++] = u[k];
            }
        }
        if (o >= out_capacity) {
            free(tmp);
            return WS_E_CAPACITY;
        }
        out[o++] = '\n';
    }
    free(tmp);
    return (long)o;
}

/* ------------------------------------------------------------------------ */
/* State pool with hash-consing                                             */
/* ------------------------------------------------------------------------ */

typedef struct State {
    uint32_t child; /* head state of the child list, 0 = none */
    uint32_t next;  /* next sibling state, 0 = last */
    uint8_t tile;
    uint8_t accepts;
} State;

typedef struct Pool {
    State *states;
    uint32_t count, capacity;
    uint32_t *table;
    uint32_t mask;
    int too_big; /* set when the states can no longer fit the 24-bit node indices */
} Pool;

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

static uint64_t state_hash(uint8_t tile, uint8_t accepts, uint32_t child, uint32_t next) {
    return mix64(((uint64_t)child << 32 | next) ^ mix64(((uint64_t)tile << 1 | accepts) + 0x9E3779B97F4A7C15ull));
}

static int pool_init(Pool *p, uint32_t expected) {
    uint32_t cap = 1u << 16;
    while (cap < expected * 2u && cap < (1u << 30)) cap <<= 1;
    p->capacity = expected + 16;
    p->states = malloc((size_t)p->capacity * sizeof(State));
    p->table = calloc(cap, sizeof(uint32_t));
    p->mask = cap - 1;
    p->count = 1; /* state 0 = null */
    p->too_big = 0;
    if (!p->states || !p->table) return WS_E_NOMEM;
    memset(&p->states[0], 0, sizeof(State));
    return WS_OK;
}

static void pool_free(Pool *p) {
    free(p->states);
    free(p->table);
    p->states = NULL;
    p->table = NULL;
}

static int pool_grow_table(Pool *p) {
    uint32_t cap = (p->mask + 1) * 2;
    uint32_t *t = calloc(cap, sizeof(uint32_t));
    if (!t) return WS_E_NOMEM;
    for (uint32_t s = 1; s < p->count; s++) {
        const State *st = &p->states[s];
        uint32_t i = (uint32_t)state_hash(st->tile, st->accepts, st->child, st->next) & (cap - 1);
        while (t[i]) i = (i + 1) & (cap - 1);
        t[i] = s;
    }
    free(p->table);
    p->table = t;
    p->mask = cap - 1;
    return WS_OK;
}

/* Returns the state index (> 0), or 0 when out of memory or when the graph would need
 * more nodes than a node index can address (p->too_big): every state is written as
 * one node, after the two root entries, so the build stops as soon as that is certain
 * instead of after the layout. */
static uint32_t pool_intern(Pool *p, uint8_t tile, uint8_t accepts, uint32_t child, uint32_t next) {
    uint32_t i = (uint32_t)state_hash(tile, accepts, child, next) & p->mask;
    for (;;) {
        uint32_t s = p->table[i];
        if (!s) break;
        const State *st = &p->states[s];
        if (st->tile == tile && st->accepts == accepts && st->child == child && st->next == next) return s;
        i = (i + 1) & p->mask;
    }
    if (p->count + 2u > WS_MAX_NODES) { /* states 1..count and the two roots */
        p->too_big = 1;
        return 0;
    }
    if (p->count >= p->capacity) {
        uint32_t cap = p->capacity + p->capacity / 2 + 1024;
        State *ns = realloc(p->states, (size_t)cap * sizeof(State));
        if (!ns) return 0;
        p->states = ns;
        p->capacity = cap;
    }
    uint32_t s = p->count++;
    p->states[s].tile = tile;
    p->states[s].accepts = accepts;
    p->states[s].child = child;
    p->states[s].next = next;
    p->table[i] = s;
    if ((uint64_t)p->count * 2 > (uint64_t)p->mask + 1) {
        if (pool_grow_table(p) != WS_OK) return 0;
    }
    return s;
}

/* ------------------------------------------------------------------------ */
/* Incremental construction                                                 */
/* ------------------------------------------------------------------------ */

typedef struct Arc {
    uint32_t child;
    uint8_t tile;
    uint8_t accepts;
} Arc;

typedef struct Frame {
    Arc arcs[WS_MAX_LETTERS + 2];
    uint32_t n;
    uint32_t prefix; /* prefix id of the node this frame leaves (DAWG pass) */
} Frame;

/* Interns a frame's arcs as a chain of states; returns the head (0 = empty list),
 * or UINT32_MAX when out of memory. */
static uint32_t finish_frame(Pool *p, const Frame *f) {
    uint32_t next = 0;
    for (uint32_t j = f->n; j-- > 0;) {
        next = pool_intern(p, f->arcs[j].tile, f->arcs[j].accepts, f->arcs[j].child, next);
        if (!next) return UINT32_MAX;
    }
    return next;
}

static unsigned key_length(const WsWordKey *w) { return w->letters[15]; }

static unsigned common_prefix(const uint8_t *a, unsigned la, const uint8_t *b, unsigned lb) {
    unsigned n = la < lb ? la : lb, i = 0;
    while (i < n && a[i] == b[i]) i++;
    return i;
}

typedef struct RevKey {
    uint8_t letters[16];
    uint32_t prefix;
} RevKey;

static int rev_compare(const void *a, const void *b) { return memcmp(a, b, 16); }

/* The prefixes of the sorted words: for each distinct prefix (numbered in the order the
 * DAWG pass meets them) the word it was met in, its length and whether it is a word. */
typedef struct Prefixes {
    size_t count;
    uint32_t *word;
    uint8_t *len, *is_word;
    uint32_t *dawg_list; /* the DAWG list that follows the prefix (0: none) */
} Prefixes;

/* Pops the frames deeper than `depth` (from `from` up) into the pool, each list becoming
 * its parent arc's child (and, with dawg_list, the list of the prefix the frame leaves);
 * 0 when out of memory, else 1. */
static int pop_frames(Pool *pool, Frame *frames, unsigned from, unsigned depth, uint32_t *dawg_list) {
    for (unsigned d = from; d > depth; d--) {
        uint32_t head = finish_frame(pool, &frames[d]);
        if (head == UINT32_MAX) return 0;
        if (dawg_list) dawg_list[frames[d].prefix] = head;
        frames[d - 1].arcs[frames[d - 1].n - 1].child = head;
    }
    return 1;
}

/* The DAWG of the sorted words, numbering their prefixes; its root list in *root. */
static int build_dawg(Pool *pool, Frame *frames, const WsWordKey *words, size_t count, Prefixes *px,
                      uint32_t *root) {
    uint32_t pid = 0;
    unsigned prev_len = 0;
    const uint8_t *prev = NULL;
    frames[0].n = 0;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *w = words[i].letters;
        unsigned n = key_length(&words[i]);
        unsigned l = prev ? common_prefix(prev, prev_len, w, n) : 0;
        if (!pop_frames(pool, frames, prev_len, l, px->dawg_list)) return WS_E_NOMEM;
        for (unsigned d = l; d < n; d++) {
            Arc *a = &frames[d].arcs[frames[d].n++];
            a->tile = w[d];
            a->accepts = (uint8_t)(d == n - 1);
            a->child = 0;
            frames[d + 1].n = 0;
            frames[d + 1].prefix = pid;
            px->word[pid] = (uint32_t)i;
            px->len[pid] = (uint8_t)(d + 1);
            px->is_word[pid] = (uint8_t)(d == n - 1);
            pid++;
        }
        prev = w;
        prev_len = n;
    }
    if (!pop_frames(pool, frames, prev_len, 0, px->dawg_list)) return WS_E_NOMEM;
    *root = finish_frame(pool, &frames[0]);
    return *root == UINT32_MAX ? WS_E_NOMEM : WS_OK;
}

/* The GADDAG part: REV(x) for every prefix x, then the separator and the DAWG list that
 * completes x; its root list in *root. */
static int build_gaddag(Pool *pool, Frame *frames, const WsWordKey *words, const Prefixes *px, uint32_t *root) {
    RevKey *rev = malloc(px->count * sizeof(RevKey));
    if (!rev) return WS_E_NOMEM;
    for (size_t p = 0; p < px->count; p++) {
        const uint8_t *w = words[px->word[p]].letters;
        unsigned n = px->len[p];
        memset(rev[p].letters, 0, 16);
        for (unsigned j = 0; j < n; j++) rev[p].letters[j] = w[n - 1 - j];
        rev[p].prefix = (uint32_t)p; /* byte 15 stays 0: the reversed letters alone order them */
    }
    qsort(rev, px->count, sizeof(RevKey), rev_compare);
    int status = WS_E_NOMEM;
    unsigned prev_len = 0;
    const uint8_t *prev = NULL;
    frames[0].n = 0;
    for (size_t i = 0; i < px->count; i++) {
        const uint8_t *r = rev[i].letters;
        uint32_t pid = rev[i].prefix;
        unsigned n = px->len[pid];
        unsigned l = prev ? common_prefix(prev, prev_len, r, n) : 0;
        if (!pop_frames(pool, frames, prev_len, l, NULL)) goto done;
        for (unsigned d = l; d < n; d++) {
            Arc *a = &frames[d].arcs[frames[d].n++];
            a->tile = r[d];
            a->accepts = (uint8_t)(d == n - 1 ? px->is_word[pid] : 0);
            a->child = 0;
            frames[d + 1].n = 0;
        }
        if (px->dawg_list[pid]) {
            Arc *a = &frames[n].arcs[frames[n].n++];
            a->tile = 0;
            a->accepts = 0;
            a->child = px->dawg_list[pid];
        }
        prev = r;
        prev_len = n;
    }
    if (!pop_frames(pool, frames, prev_len, 0, NULL)) goto done;
    *root = finish_frame(pool, &frames[0]);
    if (*root != UINT32_MAX) status = WS_OK;
done:
    free(rev);
    return status;
}

/* The node array of the pool's states: tails merged, breadth first from the two roots.
 *
 * Each state belongs to the longest chain that contains it (its owner); only owner
 * chains are written, so a list that is the tail of a longer list points into it.
 * Owner chains are written breadth first from the two roots (GADDAG, then DAWG), each
 * list's children when the list is taken from the queue: the children of a list sit
 * side by side, and so, level by level, do all the lists below it, while the top
 * levels every generation walks fill few cache lines (levels 1-3 of CSW24: 5,077
 * lines, against 9,341 in the depth-first order this replaces, which put a list's
 * later children after the whole subtree of its first).  See docs/graph-format.md,
 * Layout. */
static int layout(const Pool *pool, uint32_t dawg_root, uint32_t gaddag_root, WsBuildResult *result) {
    uint32_t ns = pool->count;
    const State *st = pool->states;
    uint32_t nheads = 0, max_chain = 0;
    uint64_t written = 2;
    uint32_t bucket[WS_MAX_LETTERS + 3];
    uint32_t *chain = calloc(ns, sizeof(uint32_t)), *pos = calloc(ns, sizeof(uint32_t));
    uint8_t *is_head = calloc(ns, 1);
    uint32_t *heads = NULL, *owner = NULL, *queue = NULL, *written_chains = NULL, *nodes = NULL;
    int status = WS_E_NOMEM;
    if (!chain || !is_head || !pos) goto done;
    for (uint32_t s = 1; s < ns; s++) {
        chain[s] = 1 + chain[st[s].next]; /* next < s: created first */
        if (chain[s] > max_chain) max_chain = chain[s];
        if (st[s].child) is_head[st[s].child] = 1;
    }
    is_head[dawg_root] = 1;
    is_head[gaddag_root] = 1;
    if (max_chain > WS_MAX_LETTERS + 1) goto done; /* impossible for valid input */
    memset(bucket, 0, sizeof bucket);
    for (uint32_t s = 1; s < ns; s++)
        if (is_head[s]) {
            bucket[chain[s]]++;
            nheads++;
        }
    heads = malloc((size_t)(nheads ? nheads : 1) * sizeof(uint32_t));
    if (!heads) goto done;
    {
        uint32_t start[WS_MAX_LETTERS + 3], acc = 0;
        for (int len = (int)max_chain; len >= 1; len--) {
            start[len] = acc;
            acc += bucket[len];
        }
        for (uint32_t s = 1; s < ns; s++)
            if (is_head[s]) heads[start[chain[s]]++] = s;
    }
    owner = calloc(ns, sizeof(uint32_t));
    queue = malloc((size_t)(nheads + 2) * sizeof(uint32_t));
    written_chains = malloc((size_t)(nheads + 1) * sizeof(uint32_t));
    if (!owner || !queue || !written_chains) goto done;
    for (uint32_t h = 0; h < nheads; h++)
        for (uint32_t t = heads[h]; t && !owner[t]; t = st[t].next) owner[t] = heads[h];
    uint32_t qh = 0, qt = 0, nw = 0;
    uint32_t roots[2] = {gaddag_root, dawg_root};
    for (int r = 0; r < 2; r++) {
        uint32_t h = roots[r];
        if (is_head[h] == 2) continue; /* placed */
        is_head[h] = 2;
        queue[qt++] = h;
    }
    while (qh < qt) {
        uint32_t h = queue[qh++];
        uint32_t o = owner[h];
        if (!pos[o]) {
            for (uint32_t t = o; t; t = st[t].next) {
                if (written >= WS_MAX_NODES) { /* a node index has 24 bits */
                    status = WS_E_TOO_BIG;
                    goto done;
                }
                if (!pos[t]) pos[t] = (uint32_t)written;
                written++;
            }
            written_chains[nw++] = o;
        }
        if (!pos[h]) { /* impossible: the owner chain contains h */
            status = WS_E_ARGUMENT;
            goto done;
        }
        /* children of the list in tile order; each list is queued once */
        for (uint32_t t = h; t; t = st[t].next) {
            uint32_t c = st[t].child;
            if (c && is_head[c] != 2) {
                is_head[c] = 2;
                queue[qt++] = c;
            }
        }
    }
    if (written > WS_MAX_NODES) {
        status = WS_E_TOO_BIG;
        goto done;
    }
    nodes = malloc((size_t)written * sizeof(uint32_t));
    if (!nodes) goto done;
    uint32_t w = 2;
    for (uint32_t c = 0; c < nw; c++) {
        for (uint32_t t = written_chains[c]; t; t = st[t].next) {
            uint32_t child = st[t].child ? pos[st[t].child] : 0;
            nodes[w++] = child | (st[t].next ? 0 : WS_NODE_END) | (st[t].accepts ? WS_NODE_ACCEPTS : 0) |
                         ((uint32_t)st[t].tile << WS_NODE_TILE_SHIFT);
        }
    }
    nodes[0] = pos[dawg_root];
    nodes[1] = pos[gaddag_root] | WS_NODE_END;
    result->nodes = nodes;
    result->node_count = (uint32_t)written;
    result->state_count = ns - 1;
    nodes = NULL;
    status = WS_OK;
done:
    free(chain);
    free(pos);
    free(is_head);
    free(heads);
    free(owner);
    free(queue);
    free(written_chains);
    free(nodes);
    return status;
}

int ws_build_graph(const WsWordKey *words, size_t count, WsBuildResult *result) {
    Pool pool = {0};
    Prefixes px = {0};
    Frame *frames = NULL;
    int status = WS_E_NOMEM;
    uint32_t dawg_root = 0, gaddag_root = 0;

    memset(result, 0, sizeof *result);
    if (count == 0) return WS_E_ARGUMENT;
    if (count > 0x0FFFFFFF) return WS_E_TOO_BIG;
    for (size_t i = 0; i < count; i++) { /* distinct prefixes */
        unsigned n = key_length(&words[i]);
        unsigned l = i ? common_prefix(words[i - 1].letters, key_length(&words[i - 1]), words[i].letters, n) : 0;
        px.count += n - l;
    }
    if (px.count > 0x3FFFFFFF) return WS_E_TOO_BIG;
    frames = calloc(WS_MAX_WORD + 2, sizeof(Frame));
    px.word = malloc(px.count * sizeof(uint32_t));
    px.dawg_list = calloc(px.count, sizeof(uint32_t));
    px.len = malloc(px.count);
    px.is_word = malloc(px.count);
    if (!frames || !px.word || !px.dawg_list || !px.len || !px.is_word) goto done;
    if (pool_init(&pool, (uint32_t)(px.count / 2 + count)) != WS_OK) goto done;
    if ((status = build_dawg(&pool, frames, words, count, &px, &dawg_root)) != WS_OK) goto done;
    result->dawg_list_count = pool.count - 1;
    if ((status = build_gaddag(&pool, frames, words, &px, &gaddag_root)) != WS_OK) goto done;
    if ((status = layout(&pool, dawg_root, gaddag_root, result)) != WS_OK) goto done;
    result->prefix_count = (uint32_t)px.count;

done:
    if (status == WS_E_NOMEM && pool.too_big) status = WS_E_TOO_BIG;
    pool_free(&pool);
    free(frames);
    free(px.word);
    free(px.dawg_list);
    free(px.len);
    free(px.is_word);
    return status;
}

void ws_build_free(WsBuildResult *result) {
    free(result->nodes);
    result->nodes = NULL;
}

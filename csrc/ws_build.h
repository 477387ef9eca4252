/* Word-list parsing and graph building (DAWG + GADDAG in one packed array). */
#ifndef WS_BUILD_H
#define WS_BUILD_H

#include "ws_defs.h"

/* A word as a fixed 16-byte key: letters 0..14 zero padded, byte 15 = length.
 * Comparing keys with memcmp orders words lexicographically by tile code. */
typedef struct WsWordKey {
    uint8_t letters[16];
    uint32_t line; /* 0-based line number in the source */
} WsWordKey;

/* Normalisation table: code point -> up to 3 tiles (count in tiles[3]). */
typedef struct WsCharMap {
    uint32_t code_point;
    uint8_t tiles[4]; /* tiles[0..2], tiles[3] = count (1..3) */
} WsCharMap;

/* Parses UTF-8 text (one entry per line) with a sorted character map.
 * Writes one status byte per line into line_status (capacity max_lines) and every
 * accepted word into words (capacity max_lines).  Leading/trailing whitespace and
 * CR are ignored; a line starting with '#' is a comment.
 * Returns the number of lines, or a negative status. */
long ws_parse_wordlist(const uint8_t *text, size_t length, const WsCharMap *map, size_t map_size,
                       uint8_t *line_status, size_t max_lines, WsWordKey *words, size_t *word_count);

/* Sorts the words (tile order) and removes duplicates, marking their lines in
 * line_status as WS_LINE_DUPLICATE.  Returns the number of unique words. */
size_t ws_sort_unique(WsWordKey *words, size_t count, uint8_t *line_status);

/* Writes the words as UTF-8 lines sorted by the code points of their letters
 * (letter_utf8: 32 slots of 4 bytes, NUL padded; rank: code point rank of each
 * tile code, 1-based).  out must hold 61 bytes per word.  Returns bytes written,
 * or a negative status. */
long ws_words_to_utf8(const WsWordKey *words, size_t count, const uint8_t *letter_utf8,
                      const uint8_t *rank, uint8_t *out, size_t out_capacity);

typedef struct WsBuildResult {
    uint32_t *nodes; /* malloc'd; caller frees with ws_build_free */
    uint32_t node_count;
    uint32_t state_count;
    uint32_t prefix_count;
    uint32_t dawg_list_count;
} WsBuildResult;

/* Builds the minimised DAWG and GADDAG of sorted unique words.  Deterministic:
 * the same words give the same array.  Returns WS_OK, WS_E_NOMEM or WS_E_TOO_BIG. */
int ws_build_graph(const WsWordKey *words, size_t count, WsBuildResult *result);
void ws_build_free(WsBuildResult *result);

#endif

# Mirrors csrc/ws_defs.h
from libc.stdint cimport uint8_t, uint32_t

cdef extern from "ws_defs.h" nogil:
    int WS_DIM
    int WS_SQUARES
    int WS_MAX_LETTERS
    int WS_MAX_WORD
    int WS_RACK_MAX
    unsigned WS_BLANK_BIT
    unsigned WS_LETTER_MASK
    int WS_OK
    int WS_E_NOMEM
    int WS_E_CAPACITY
    int WS_E_FORMAT
    int WS_E_TOO_BIG
    int WS_E_ARGUMENT
    int WS_MIN_WORD
    int WS_LINE_OK
    int WS_LINE_EMPTY
    int WS_LINE_DIGIT
    int WS_LINE_APOSTROPHE
    int WS_LINE_HYPHEN
    int WS_LINE_DOT
    int WS_LINE_SPACE
    int WS_LINE_OTHER_CHARACTER
    int WS_LINE_TOO_SHORT
    int WS_LINE_TOO_LONG
    int WS_LINE_DUPLICATE
    int WS_LINE_BAD_UTF8
    int WS_LINE_COMMENT
    uint32_t WS_NODE_INDEX_MASK
    uint32_t WS_NODE_END
    uint32_t WS_NODE_ACCEPTS
    int WS_NODE_TILE_SHIFT
    uint32_t WS_MAX_NODES
    int WS_GRAPH_OK
    int WS_GRAPH_TOO_SMALL
    int WS_GRAPH_BAD_ROOT
    int WS_GRAPH_INDEX_RANGE
    int WS_GRAPH_TILE_RANGE
    int WS_GRAPH_ORDER
    int WS_GRAPH_NO_END
    int WS_GRAPH_SEPARATOR
    int WS_GRAPH_DEAD_ARC

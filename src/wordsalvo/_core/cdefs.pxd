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
    int WS_MIN_WORD
    int WS_OK
    int WS_E_NOMEM
    int WS_E_CAPACITY
    int WS_E_FORMAT
    int WS_E_TOO_BIG
    int WS_E_ARGUMENT
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

# Mirrors csrc/ws_wordmap.h
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint32_t, uint64_t

cdef extern from "ws_wordmap.h" nogil:
    ctypedef struct WsRackKey:
        uint64_t lo      # letters 1..16, 4 bits each
        uint64_t hi      # letters 17..32

    ctypedef struct WsWordMap:
        uint32_t entry_count     # distinct keys
        uint32_t word_count      # words filed
        uint32_t alphabet_size   # letters 1..alphabet_size
        uint32_t length_first[17]  # keys of length L: [length_first[L], length_first[L+1])
        uint64_t slot_mask       # hash slots - 1
        uint32_t entry_mask      # a slot's bits holding entry + 1
        uint32_t fingerprint_mask  # a slot's bits holding a fingerprint of the key's hash
        size_t bytes             # heap memory held

    ctypedef struct WsWordMapHit:
        uint32_t entry           # entry found
        uint8_t blank_letter[2]  # letters the blanks stand for (0 = unused)

    WsRackKey ws_rack_key_empty()
    WsRackKey ws_rack_key_add_letter(WsRackKey k, unsigned letter)
    unsigned ws_rack_key_count(WsRackKey k, unsigned letter)
    WsRackKey ws_rack_key_of(const uint8_t *letters, int n)
    int ws_wordmap_build(WsWordMap *m, const uint32_t *nodes, unsigned alphabet_size)
    void ws_wordmap_free(WsWordMap *m)
    void ws_wordmap_clear_fingerprints(WsWordMap *m)
    int32_t ws_wordmap_find(const WsWordMap *m, WsRackKey key)
    int ws_wordmap_entry_length(const WsWordMap *m, uint32_t entry)
    const uint8_t *ws_wordmap_entry_words(const WsWordMap *m, uint32_t entry, uint32_t *count)
    int ws_wordmap_exists(const WsWordMap *m, WsRackKey key, int blanks, uint64_t blank_choices)
    int ws_wordmap_lookup(const WsWordMap *m, WsRackKey key, int blanks, uint64_t blank_choices,
                          WsWordMapHit *out, size_t capacity, size_t *count)
    int ws_wordmap_subrack_exists(const WsWordMap *m, const uint8_t *rack, int n, WsRackKey through)

    ctypedef struct WsSpanWord:
        uint32_t entry           # entry whose word fits
        uint16_t index           # word within the entry
        uint8_t blank_letter[2]  # letters the blanks stand for (0 = none)

    int ws_wordmap_span_words(const WsWordMap *m, const uint8_t *rack, int length, const uint8_t *board,
                              const uint64_t *cross, WsSpanWord *out, size_t capacity, size_t *count)

# Mirrors csrc/ws_mem.h
cdef extern from "ws_mem.h" nogil:
    void *ws_mem_large(size_t n)
    int ws_mem_large_pages()

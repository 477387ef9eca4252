from wordsalvo._core.cleaves cimport WsLeaves

cdef class LeaveTable:
    cdef WsLeaves L
    cdef object _values      # the float32 array C reads (kept alive with the pointer)
    cdef readonly int types
    cdef readonly int max_size
    cdef readonly bint all_zero  # every value is 0 (Leaves.zeros): C need not rank leaves

# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Leave ranking and value table wrapper (csrc/ws_leaves.c).

Private: ``wordsalvo.Leaves`` (leaves.py) is the public face; it checks files
and rules, this class checks every array that reaches C.
"""
from libc.stdint cimport uint8_t, int64_t

from wordsalvo._core.cdefs cimport WS_OK, WS_RACK_MAX
from wordsalvo._core.cleaves cimport *

from wordsalvo._lazy import numpy as np  # loaded when a table gets values

from wordsalvo.errors import LeavesError


cdef class LeaveTable:
    """The ranking of every leave of 1..max_size tiles of a tile set, and its values."""

    def __cinit__(self, bytes caps, int max_size):
        cdef int rc
        cdef uint8_t c[33]
        cdef int i
        self.types = len(caps)
        if not 1 <= self.types <= WS_LEAVES_MAX_TYPES:
            raise LeavesError(f"tile types: expected 1..{WS_LEAVES_MAX_TYPES}, got {self.types}")
        if not 1 <= max_size <= WS_RACK_MAX - 1:
            raise LeavesError(f"leave size: expected 1..{WS_RACK_MAX - 1}, got {max_size}")
        for i in range(self.types):
            c[i] = caps[i]
        rc = ws_leaves_init(&self.L, c, self.types, max_size)
        if rc != WS_OK:
            raise LeavesError("cannot set up the leave ranking")
        self.max_size = max_size
        self._values = None
        self.all_zero = False

    def __len__(self):
        return ws_leaves_count(&self.L)

    def offsets(self):
        """Rank of the first leave of each size 1..max_size, then the count."""
        return [self.L.offset[k] for k in range(1, self.max_size + 2)]

    def rank(self, const uint8_t[::1] counts):
        """Rank of a leave given as counts per tile type; -1 when it is not in the table."""
        if counts.shape[0] != self.types:
            raise LeavesError(f"expected {self.types} counts, got {counts.shape[0]}")
        return ws_leaves_rank(&self.L, &counts[0])

    def unrank(self, int64_t rank):
        """Counts per tile type of the leave of a rank (bytes)."""
        cdef uint8_t out[33]
        if not 0 <= rank < ws_leaves_count(&self.L):
            raise LeavesError(f"leave rank {rank} out of range 0..{ws_leaves_count(&self.L) - 1}")
        ws_leaves_unrank(&self.L, rank, out)
        return bytes(out[:self.types])

    def unrank_all(self):
        """Counts of every leave, in rank order: uint8 array (count, types)."""
        cdef int64_t n = ws_leaves_count(&self.L), r
        out = np.zeros((n, self.types), dtype=np.uint8)
        cdef uint8_t[:, ::1] v = out
        with nogil:
            for r in range(n):
                ws_leaves_unrank(&self.L, r, &v[r, 0])
        return out

    def credit_racks(self, const uint8_t[:, ::1] racks, const double[::1] mean, const double[::1] tile_count,
                     double[::1] total, double[::1] weight, double[::1] weight2):
        """Leave training: adds every full rack's mean to every leave it holds, weighted by the
        ways of drawing the rest (csrc/ws_leaves.h, ws_leaves_credit_racks)."""
        cdef int64_t n = ws_leaves_count(&self.L), i
        cdef int t, size
        cdef int rc
        if racks.shape[1] != self.types or mean.shape[0] != racks.shape[0] or tile_count.shape[0] != self.types:
            raise LeavesError(f"credit_racks: expected racks of {self.types} counts, one mean per rack and "
                              f"{self.types} tile counts, got {racks.shape[1]}, {mean.shape[0]} for "
                              f"{racks.shape[0]} racks, {tile_count.shape[0]}")
        if total.shape[0] != n or weight.shape[0] != n or weight2.shape[0] != n:
            raise LeavesError(f"credit_racks: expected {n} sums and weights, got "
                              f"{total.shape[0]}, {weight.shape[0]}, {weight2.shape[0]}")
        for i in range(racks.shape[0]):
            size = 0
            for t in range(self.types):
                size += racks[i, t]
            if size > WS_RACK_MAX:
                raise LeavesError(f"credit_racks: expected racks of at most {WS_RACK_MAX} tiles, got {size} at row {i}")
        if racks.shape[0] == 0:
            return
        with nogil:
            rc = ws_leaves_credit_racks(&self.L, &racks[0, 0], racks.shape[0], &mean[0], &tile_count[0],
                                        &total[0], &weight[0], &weight2[0])
        if rc != WS_OK:
            raise LeavesError("credit_racks: bad rack")

    def set_values(self, values):
        """The value of every leave by rank (float32, finite, one per leave)."""
        cdef const float[::1] v
        arr = np.array(values, dtype=np.float32, copy=True, order="C")
        if arr.ndim != 1 or arr.shape[0] != ws_leaves_count(&self.L):
            raise LeavesError(f"expected {ws_leaves_count(&self.L)} leave values, got shape {arr.shape}")
        if not np.isfinite(arr).all():
            raise LeavesError("leave values must be finite")
        arr.setflags(write=False)
        v = arr
        self._values = arr
        self.all_zero = not arr.any()
        self.L.values = &v[0] if arr.shape[0] else NULL

    @property
    def values(self):
        """The read-only float32 array C reads (None before set_values)."""
        return self._values

# Included by _engine.pyx: inference's rack loop (csrc/ws_infer.c) runs on a Generator's
# working memory, so it lives in the same extension.
from libc.math cimport isfinite
from wordsalvo._core.cinfer cimport *

INFER_END = WS_INFER_END
#: leaves one call judges at most (the caller's limit is 10 million racks)
INFER_MAX_LEAVES = 1 << 24


def infer_racks(Generator gen not None, tiles, LeaveTable leaves not None, bint endgame, out_value,
                double keep_factor, bag, min_bag, bint whole_rack, bint must_cover, played, score, exchanged,
                margin, leave_tiles):
    """Which leaves are consistent with the mover's turn (csrc/ws_infer.h), judged in C with
    the GIL released: ``tiles`` the board before the turn (225 codes); ``leaves`` the
    mover's leave table (values, and the swap's tie order); ``endgame``, ``out_value``
    (one number, or one per leave), ``keep_factor``: the equity terms as
    MoveGenerator._load gives them; ``bag``, ``min_bag``, ``whole_rack``, ``must_cover``:
    the swap's rules as MoveGenerator.best_swap gives them; ``played``: the play's tiles
    (33 counts by code), ``score`` its score, or ``exchanged`` > 0 for an exchange of that
    many tiles (then nothing played); ``margin``: equity points the turn may lose to the
    best; ``leave_tiles``: bytes of count x RACK_MAX tile codes (INFER_END after the last
    tile of each).  Returns (kept: count bytes 0/1, kept tiles: count x RACK_MAX codes in
    the same layout, the tiles each kept leave keeps)."""
    cdef const uint8_t[::1] t = byte_array(tiles, WS_SQUARES, PositionError, "board")
    cdef const uint8_t[::1] p = byte_array(played, WS_MAX_LETTERS + 1, WordSalvoError, "played: tile counts")
    cdef const uint8_t[::1] rows
    cdef const double[::1] outs
    cdef WsInferTurn turn
    cdef Py_ssize_t count, i, j
    cdef int rc, size, played_total = 0, ended
    cdef size_t failed = 0
    cdef uint8_t code
    memset(&turn, 0, sizeof(turn))
    if leaves.types != gen.alphabet_size + 1:
        raise WordSalvoError(f"leave table: expected {gen.alphabet_size + 1} tile types (the generator's letters and "
                             f"the blank), got {leaves.types}")
    if leaves.values is None:
        raise WordSalvoError("leave table: expected values (set_values), got none")
    try:
        raw = memoryview(leave_tiles)
        if raw.ndim == 1 and raw.itemsize == 1:
            raw = raw.cast("B")
    except (TypeError, ValueError):
        raise WordSalvoError(f"leave tiles: expected bytes of {WS_RACK_MAX} tile codes a leave, "
                             f"got {type(leave_tiles).__name__}") from None
    if raw.ndim != 1 or raw.itemsize != 1 or raw.nbytes % WS_RACK_MAX:
        raise WordSalvoError(f"leave tiles: expected bytes of {WS_RACK_MAX} tile codes a leave, got "
                             f"{raw.nbytes} bytes (itemsize {raw.itemsize}, {raw.ndim} dimensions)")
    count = raw.nbytes // WS_RACK_MAX
    if count > INFER_MAX_LEAVES:
        raise WordSalvoError(f"leave tiles: expected at most {INFER_MAX_LEAVES:,} leaves, got {count:,}")
    rows = raw if count else b"\xff" * WS_RACK_MAX
    turn.exchanged = <int32_t>check_whole(exchanged, 0, WS_RACK_MAX, WordSalvoError, "exchanged")
    turn.score = <int32_t>check_whole(score, 0, 1 << 30, WordSalvoError, "score")
    turn.bag = <int32_t>check_whole(bag, -(1 << 20), 1 << 20, WordSalvoError, "bag")
    turn.min_bag = <int32_t>check_whole(min_bag, 0, 1 << 20, WordSalvoError, "min_bag")
    turn.whole_rack = whole_rack
    turn.must_cover = must_cover
    m = float(margin) if isinstance(margin, (int, float)) and not isinstance(margin, bool) else None
    if m is None or not isfinite(m) or m < 0:
        raise WordSalvoError(f"margin: expected a finite number of points >= 0, got {margin!r}")
    turn.margin = m
    if not (0.0 <= keep_factor <= 100.0):  # NaN fails too
        raise WordSalvoError(f"end-game terms: expected keep_factor 0..100, got {keep_factor}")
    if isinstance(out_value, (int, float)) and not isinstance(out_value, bool):
        turn.out_value = float(out_value)
        if not (-1e6 <= turn.out_value <= 1e6):
            raise WordSalvoError(f"end-game terms: expected out_value within ±1e6, got {out_value!r}")
    else:
        try:
            outs = np.ascontiguousarray(out_value, dtype=np.float64)
        except (TypeError, ValueError):
            raise WordSalvoError(f"out_value: expected a number or one per leave, got {type(out_value).__name__}") from None
        if outs.shape[0] != count:
            raise WordSalvoError(f"out_value: expected one per leave ({count}), got {outs.shape[0]}")
        for i in range(count):
            if not (-1e6 <= outs[i] <= 1e6):
                raise WordSalvoError(f"end-game terms: expected out_value within ±1e6, got {outs[i]} for leave {i}")
        if count:
            turn.out_values = &outs[0]
    gen._check_position(t, p)
    for i in range(WS_MAX_LETTERS + 1):
        turn.played[i] = p[i]
        played_total += p[i]
    if turn.exchanged and played_total:
        raise WordSalvoError(f"played: expected no tiles with an exchange of {turn.exchanged}, got {played_total}")
    # the leave values as set_position gives them (a table of zeros is no table, but the
    # racks it could not rank are still refused)
    turn.ranking = &leaves.L
    turn.values = NULL if (leaves.all_zero and not endgame) else &leaves.L
    # every leave checked before C sees one: codes of the alphabet, the end marker last,
    # a rack (played + leave) of at most RACK_MAX tiles
    cdef uint8_t rack[33]
    bad = []
    for i in range(count):
        size = 0
        ended = 0
        memcpy(rack, &turn.played[0], 33)
        for j in range(WS_RACK_MAX):
            code = rows[i * WS_RACK_MAX + j]
            if code == WS_INFER_END:
                ended = 1
            elif ended or code > gen.alphabet_size:
                bad.append(f"leave {i}: tile code {code} at {j}, expected codes 0..{gen.alphabet_size} then "
                           f"{WS_INFER_END} to the end")
                break
            else:
                size += 1
                rack[code] += 1
        else:
            if played_total + size > WS_RACK_MAX:
                bad.append(f"leave {i}: {size} tiles and {played_total} played, expected a rack of at most "
                           f"{WS_RACK_MAX}")
            elif turn.values == NULL:
                for j in range(leaves.types):
                    if min(rack[j], leaves.max_size) > leaves.L.cap[j]:
                        bad.append(f"leave {i}: {rack[j]} tiles of code {j} on the rack, more than the leave "
                                   f"table's tile set has ({leaves.L.cap[j]}): its leaves have no value")
                        break
    if bad:
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        raise PositionError("leave tiles: " + "; ".join(bad[:3]) + more)
    turn.endgame = endgame
    turn.keep_factor = keep_factor
    turn.board = &t[0]
    kept = bytearray(count if count else 1)
    kept_tiles = bytearray(count * WS_RACK_MAX if count else WS_RACK_MAX)
    cdef uint8_t[::1] k = kept
    cdef uint8_t[::1] kt = kept_tiles
    gen._enter()
    try:
        gen.leaves = leaves
        with nogil:
            rc = ws_infer_racks(gen.g, &turn, &rows[0], <size_t>count, &k[0], &kt[0], &failed)
    finally:
        ws_guard_leave(&gen.busy)
    if rc != WS_OK:
        check_status(rc, PositionError, f"leave {failed}: its rack rejected")
    return kept[:count], kept_tiles[:count * WS_RACK_MAX]

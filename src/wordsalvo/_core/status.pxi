# The ONE place where the C core's status codes become exceptions (included by
# _graph.pyx and _engine.pyx).  Which error a failure raises depends on what the
# input was, so each call names the class:
#
#   a board or rack (Generator.set_position, a generator used before a position)
#       -> PositionError
#   a node array (Graph)                          -> LexiconFormatError (path, byte offset)
#   a word list or graph build (parse_wordlist, WordBuffer)   -> LexiconBuildError
#   rule values given to a Generator              -> RulesError
#   anything else (an argument out of range)      -> WordSalvoError
#   WS_E_NOMEM                                    -> MemoryError, whatever the input
#
# The message is what the code says (STATUS_TEXT): an argument the C core refuses comes
# back with the code of the condition that failed (ws_defs.h: WS_E_GAME_OVER,
# WS_E_SQUARE_TAKEN, WS_E_NOT_ON_RACK, ..., a swap's rule as WS_E_SWAP_BASE - problem),
# so no caller checks again in Python only to write a message.  Python still checks
# what keeps C's memory safe (lengths and ranges of what it copies into C structs).
#
# A generator used by two threads at once is a programming error, not bad input: it
# raises RuntimeError (see Generator).
try:
    from wordsalvo.errors import (
        AlphabetError,
        LexiconBuildError,
        LexiconFormatError,
        PositionError,
        RulesError,
        WordSalvoError,
    )
    from wordsalvo.inputs import is_whole, whole_arg
except ImportError:  # pragma: no cover - the package build loads _graph without the package
    WordSalvoError = AlphabetError = LexiconBuildError = LexiconFormatError = PositionError = RulesError = ValueError

    def is_whole(value, low=None, high=None):
        return type(value) is int and (low is None or value >= low) and (high is None or value <= high)

    def whole_arg(value, what, error=ValueError, low=None, high=None, expected=None):
        if not is_whole(value, low, high):
            raise error(f"{what}: expected a whole number {low}..{high}, got {value!r}")
        return value

STATUS_TEXT = {
    WS_E_NOMEM: "out of memory",
    WS_E_CAPACITY: "output buffer too small",
    WS_E_FORMAT: "malformed input",
    WS_E_TOO_BIG: f"it needs more than {WS_MAX_NODES:,} nodes, the most a graph file can index "
                  f"(use a smaller word list)",
    WS_E_ARGUMENT: "invalid argument",
    # the reasons of a refused argument (ws_defs.h): the C core says which condition
    # failed, so no caller checks again only to write the message
    WS_E_GAME_OVER: "the game is over",
    WS_E_OFF_BOARD: f"expected a word of 1..{WS_DIM} squares that fits on the board",
    WS_E_SQUARE_TAKEN: "a new tile on a square that holds one",
    WS_E_TILE_CODE: "a tile code outside the alphabet",
    WS_E_NOT_ON_RACK: "tiles the rack does not hold",
    WS_E_NO_TILE: "expected at least one new tile, got none",
    WS_E_BAG_FULL: "more tiles than a bag holds",
    WS_E_RACK_FULL: "more tiles than the rack holds",
    WS_E_FIRST_DEAL: "the bag holds too few vowels or consonants for the first deal",
    WS_E_PLAYER: "expected a player still in the game",
    WS_E_PLAYERS: "a number of players it cannot take",
    WS_E_RULE_VALUE: "a rule value out of its range",
    WS_E_LEAVE: "a rack the leave table cannot value",
    WS_E_ENDLESS: "the rule set has no pass limit (a game might never end); expected a pass or "
                  "scoreless-turn limit",
    WS_E_EMPTY_BAG_SWAP: "the rule set lets a player swap with an empty bag; expected passes and plays only",
    WS_E_BAG_NOT_EMPTY: "expected an empty bag",
    WS_E_TURN_LIMIT: "no end within the turn limit",
}


cdef int check_status(long rc, object error, str what) except -1:
    """0 for a status >= 0 (WS_OK or a count); otherwise raises: MemoryError for
    WS_E_NOMEM, else ``error`` (a WordSalvoError subclass) saying what failed and why."""
    if rc >= 0:
        return 0
    if rc == WS_E_NOMEM:
        raise MemoryError(f"{what}: out of memory")
    raise error(f"{what}: {status_text(rc)}")


def status_text(long rc):
    """What a C status code says (``STATUS_TEXT``; ``unknown status N`` for another)."""
    return STATUS_TEXT.get(rc, f"unknown status {rc}")


cdef Py_ssize_t check_whole(object value, Py_ssize_t low, Py_ssize_t high, object error, str what) except? -1:
    """``value`` as a C integer, when it is a whole number in low..high; otherwise
    ``error`` saying what was expected and what came (never OverflowError/TypeError):
    wordsalvo.inputs.whole_arg, the package's one integer check, after a fast path for
    an int in range."""
    if type(value) is int and low <= value <= high:
        return value
    return whole_arg(value, what, error, low=low, high=high)


cdef const uint8_t[::1] byte_array(object data, Py_ssize_t length, object error, str what):
    """``data`` (bytes-like) as a contiguous uint8 view of exactly ``length`` entries."""
    cdef const uint8_t[::1] view
    try:
        view = data
    except (TypeError, ValueError, BufferError):
        raise error(f"{what}: expected {length} bytes, got {type(data).__name__}") from None
    if view.shape[0] != length:
        raise error(f"{what}: expected {length} entries, got {view.shape[0]}")
    return view

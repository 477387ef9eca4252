"""Text from files made safe to show on a terminal.

A player's name in a GCG record or a ratings CSV is whatever the file says: an ESC
byte there starts a terminal escape sequence (clear the screen, change colours, set
the window title with OSC), and U+202E turns the rest of the line around.
:func:`printable` shows every such character escaped, as Python writes it in a string
(``\\x1b``, ``\\u202e``), so the terminal prints it instead of obeying it.  Every text
that came from a file goes through it before it reaches a terminal, and column widths
are computed on its result.  (The HTML report escapes for HTML instead.)
"""

from __future__ import annotations

import re

__all__ = ["printable", "UNPRINTABLE"]

#: what is shown escaped: the C0 and C1 control characters and DEL (tab and newline
#: too: a name is one line), the bidirectional controls (embeddings, overrides,
#: isolates, marks), the line and paragraph separators, and lone surrogates (bytes a
#: file name could not decode)
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                         "\ud800-\udfff]")


def _escape(m: re.Match) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: object, keep_newlines: bool = False) -> str:
    """``text`` (``str()`` of anything) with every :data:`UNPRINTABLE` character shown
    escaped; ``keep_newlines``: newlines stay (a block of lines), the rest is escaped."""
    s = text if isinstance(text, str) else str(text)
    if keep_newlines:
        return "\n".join(UNPRINTABLE.sub(_escape, line) for line in s.split("\n"))
    return UNPRINTABLE.sub(_escape, s)

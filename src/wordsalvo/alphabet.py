"""Alphabets: letters <-> tile codes, and the ONE place where word normalisation lives.

Tile codes: ``0`` is the blank on a rack (and the GADDAG separator inside a
graph); letters are ``1..n`` in the order of :attr:`Alphabet.letters`
(n <= 32).  On a board a blank standing for a letter is the letter's code with
:data:`BLANK_BIT` set.

Normalisation of a word-list entry (used by the graph compiler, by the lexicon
build recipes and by :meth:`Alphabet.normalize`) is a per-character table:
every character maps to zero or more letters of the alphabet (``ß`` -> ``SS``,
the Dutch ligature ``ĳ`` -> ``IJ``, Turkish ``i`` -> ``İ`` and ``ı`` -> ``I``,
Dutch stress accents ``á`` -> ``A``), or the entry is dropped, with a reason.
This module imports only :mod:`wordsalvo.constants` and :mod:`wordsalvo.errors`:
the package build loads it (by path) to compile the embedded lexicons.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from .constants import (  # the core's values, defined once
    BLANK_BIT,
    LINE_APOSTROPHE,
    LINE_BAD_UTF8,
    LINE_COMMENT,
    LINE_DIGIT,
    LINE_DOT,
    LINE_DUPLICATE,
    LINE_EMPTY,
    LINE_HYPHEN,
    LINE_OK,
    LINE_OTHER_CHARACTER,
    LINE_SPACE,
    LINE_TOO_LONG,
    LINE_TOO_SHORT,
    MAX_LETTERS,
    MAX_WORD,
    MIN_WORD,
)

# Reasons a word-list line is dropped, by the status code the C compiler reports.
LINE_REASONS = {
    LINE_EMPTY: "empty line",
    LINE_DIGIT: "contains a digit",
    LINE_APOSTROPHE: "contains an apostrophe",
    LINE_HYPHEN: "contains a hyphen",
    LINE_DOT: "contains a dot",
    LINE_SPACE: "contains a space",
    LINE_OTHER_CHARACTER: "contains a character outside the alphabet",
    LINE_TOO_SHORT: f"shorter than {MIN_WORD} letters",
    LINE_TOO_LONG: f"longer than {MAX_WORD} letters",
    LINE_DUPLICATE: "duplicate",
    LINE_BAD_UTF8: "not valid UTF-8",
    LINE_COMMENT: "comment line (starts with #)",
}

_APOSTROPHES = "'\u2019\u2018\u02bc`\u00b4"
_HYPHENS = "-\u2010\u2011\u2012\u2013\u2014\u2212"


def classify_bad_character(ch: str) -> int:
    """The drop reason for a character that has no mapping in the alphabet."""
    if ch.isdigit() or unicodedata.category(ch) == "No":
        return LINE_DIGIT
    if ch in _APOSTROPHES:
        return LINE_APOSTROPHE
    if ch in _HYPHENS:
        return LINE_HYPHEN
    if ch == ".":
        return LINE_DOT
    if ch.isspace():
        return LINE_SPACE
    return LINE_OTHER_CHARACTER


def _strip_accents(ch: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))


@dataclass(frozen=True)
class Alphabet:
    """The tile letters of a language and how text maps onto them."""

    name: str
    letters: tuple[str, ...]
    lowercase: tuple[str, ...]
    #: character -> letters it stands for (upper- and lowercase letters, ß, ligatures ...)
    mapping: dict[str, str] = field(repr=False, compare=False, hash=False, default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        if not 1 <= len(self.letters) <= MAX_LETTERS:
            raise ValueError(f"an alphabet has 1..{MAX_LETTERS} letters, got {len(self.letters)}")
        if len(set(self.letters)) != len(self.letters) or len(self.lowercase) != len(self.letters):
            raise ValueError(f"alphabet {self.name!r}: letters must be distinct, with one lowercase form each")
        object.__setattr__(self, "_code", {c: i + 1 for i, c in enumerate(self.letters)})
        object.__setattr__(self, "_lower_code", {c: i + 1 for i, c in enumerate(self.lowercase)})
        table = [""] * 256
        for i, c in enumerate(self.letters):
            table[i + 1] = table[(i + 1) | BLANK_BIT] = c
        object.__setattr__(self, "_letter_table", tuple(table))

    @property
    def letter_table(self) -> tuple[str, ...]:
        """The uppercase letter of every board code 0..255 (blank bit or not), ``""`` for a
        code that is no letter: one index instead of :meth:`letter` on hot paths."""
        return self._letter_table  # type: ignore[attr-defined]

    # -- letters and codes -------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.letters)

    def code(self, letter: str) -> int:
        """Tile code of an uppercase letter (1..n)."""
        try:
            return self._code[letter]  # type: ignore[attr-defined]
        except KeyError:
            raise AlphabetError(
                f"expected a letter of alphabet {self.name!r} ({''.join(self.letters)}), got {letter!r}"
            ) from None

    def board_code(self, ch: str) -> int:
        """Code of a board letter as written in CGP/notation: uppercase = tile, lowercase = blank."""
        c = self._code.get(ch)  # type: ignore[attr-defined]
        if c is not None:
            return c
        c = self._lower_code.get(ch)  # type: ignore[attr-defined]
        if c is not None:
            return c | BLANK_BIT
        raise AlphabetError(
            f"expected a letter of alphabet {self.name!r} (uppercase tile or lowercase blank), got {ch!r}"
        )

    def rack_letter(self, ch: str) -> str | None:
        """The tile a rack character stands for: an uppercase letter itself, a lowercase
        letter its uppercase (a rack has no designated blanks; Turkish i is İ), else None."""
        if ch in self._code:  # type: ignore[attr-defined]
            return ch
        c = self._lower_code.get(ch)  # type: ignore[attr-defined]
        return None if c is None else self.letters[c - 1]

    def letter(self, code: int) -> str:
        """Uppercase letter of a code (the blank bit is ignored)."""
        c = code & ~BLANK_BIT
        if not 1 <= c <= len(self.letters):
            raise AlphabetError(f"expected a tile code 1..{len(self.letters)}, got {code}")
        return self.letters[c - 1]

    def sort_rack(self, letters) -> str:
        """``letters`` (a string or list of rack letters) in the alphabet's order, blanks
        (``?``) last: the order racks are written in."""
        order = self._code  # type: ignore[attr-defined]
        last = len(order) + 1
        return "".join(sorted(letters, key=lambda ch: order.get(ch, last)))

    def board_letter(self, code: int) -> str:
        """A board code as written in CGP/notation: uppercase tile, lowercase blank."""
        c = code & ~BLANK_BIT
        if code & BLANK_BIT:
            return self.lowercase[c - 1]
        return self.letters[c - 1]

    def is_letter(self, ch: str) -> bool:
        return ch in self._code  # type: ignore[attr-defined]

    def encode(self, word: str) -> bytes:
        """Codes of an uppercase word (no normalisation; raises AlphabetError on a stranger)."""
        return bytes(self.code(ch) for ch in word)

    def decode(self, codes: bytes | bytearray | list[int]) -> str:
        return "".join(self.letter(c) for c in codes)

    # -- normalisation -----------------------------------------------------------
    def normalize(self, entry: str) -> tuple[str | None, int]:
        """Normalise one word-list entry.

        Returns ``(word, LINE_OK)`` with the word in uppercase letters of this
        alphabet, or ``(None, reason)`` with a ``LINE_*`` code saying why the
        entry is dropped.  This is the same rule the graph compiler applies.
        """
        entry = entry.strip()
        if not entry:
            return None, LINE_EMPTY
        if entry.startswith("#"):
            return None, LINE_COMMENT
        out = []
        for ch in entry:
            m = self.mapping.get(ch)
            if m is None:
                return None, classify_bad_character(ch)
            out.append(m)
        word = "".join(out)
        if len(word) < MIN_WORD:
            return None, LINE_TOO_SHORT
        if len(word) > MAX_WORD:
            return None, LINE_TOO_LONG
        return word, LINE_OK

    def mapping_table(self) -> list[tuple[int, bytes]]:
        """The normalisation table for the C compiler: (code point, tile codes), sorted."""
        return sorted((ord(ch), self.encode(m)) for ch, m in self.mapping.items())

    def __repr__(self) -> str:
        return f"Alphabet({self.name!r}, {''.join(self.letters)!r})"


# Imported late to keep this module importable on its own (the package build loads it
# without the package); fall back to ValueError there.
try:  # pragma: no cover - trivial
    from .errors import AlphabetError  # type: ignore[no-redef]
except ImportError:  # loaded outside the package
    class AlphabetError(ValueError):  # type: ignore[no-redef]
        pass


def _make(
    name: str,
    letters: str,
    lowercase: str,
    *,
    extra: dict[str, str] | None = None,
    strip_accents: bool = False,
    description: str = "",
) -> Alphabet:
    mapping: dict[str, str] = {}
    for up, lo in zip(letters, lowercase):
        mapping[up] = up
        mapping[lo] = up
    if strip_accents:
        # Latin letters with diacritics whose base letter is in the alphabet.
        for cp in range(0xC0, 0x250):
            ch = chr(cp)
            if ch in mapping or not ch.isalpha():
                continue
            base = _strip_accents(ch)
            if len(base) == 1 and base.upper() in letters and base.upper() != ch:
                mapping[ch] = base.upper()
    for k, v in (extra or {}).items():
        mapping[k] = v
    return Alphabet(name, tuple(letters), tuple(lowercase), mapping, description)


_AZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_az = _AZ.lower()

ALPHABETS: dict[str, Alphabet] = {
    # English: A-Z only.  Accented entries (café, naïve) are dropped, as SCOWL's filter does.
    "en": _make("en", _AZ, _az, description="English, A-Z"),
    # Dutch: A-Z; IJ is two tiles.  The ligature ĳ/Ĳ becomes IJ.  Rule for accents:
    # every diacritic is stripped (Unicode NFD, combining marks removed), so the
    # stress accents of álles/één and the diaeresis of ideeën vanish; the entry is kept.
    "nl": _make(
        "nl", _AZ, _az, strip_accents=True, extra={"\u0133": "IJ", "\u0132": "IJ"},
        description="Dutch, A-Z; IJ is two tiles; accents are stripped",
    ),
    # German: A-Z plus Ä Ö Ü; ß (and capital ẞ) become SS.  Other accented letters
    # (é, à, ñ) are foreign: the entry is dropped.
    "de": _make(
        "de", _AZ + "ÄÖÜ", _az + "äöü", extra={"ß": "SS", "\u1e9e": "SS"},
        description="German, A-Z plus Ä Ö Ü; ß becomes SS",
    ),
    # Turkish: 29 letters, dotted and dotless I are different letters.  Case is Turkish:
    # i -> İ, ı -> I (Python's str.upper() would be wrong here).  Circumflex letters
    # â î û are written A İ U.
    "tr": _make(
        "tr", "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ", "abcçdefgğhıijklmnoöprsştuüvyz",
        extra={"â": "A", "Â": "A", "î": "İ", "Î": "İ", "û": "U", "Û": "U"},
        description="Turkish, 29 letters; I and İ are distinct",
    ),
}


def get_alphabet(name: str | Alphabet) -> Alphabet:
    if isinstance(name, Alphabet):
        return name
    try:
        return ALPHABETS[name]
    except KeyError:
        raise AlphabetError(f"expected an alphabet name ({', '.join(sorted(ALPHABETS))}), got {name!r}") from None

"""The words a weaker engine level knows: its vocabulary, built once per lexicon.

A person learns the frequent words of a language first, so the levels' vocabularies
come from frequency-ranked word lists (``wordsalvo/data/levels/<lang>.txt.gz``, made
from wordfreq's lists by ``lexicon_build/levels/recipe.py``; CC BY-SA 4.0, notice in
``data/levels/NOTICE.txt``), most frequent first:

========  ==============================================  ===========================
level     words                                           longest word
========  ==============================================  ===========================
easy      the 5,000 most frequent words the lexicon has   6 letters
medium    the 30,000 most frequent words the lexicon has  7 letters
hard      every word of the lexicon                       7 letters (English), 8
========  ==============================================  ===========================

(English easy: 2,692 words; medium: 15,704.)  A language without a ranked list falls
back on word length alone (:attr:`VocabularySpec.proxy_length`).

Built once: a vocabulary is a compiled graph named by a key of everything it is made
from (the lexicon's word-list sha256, the level's spec, the ranked list's sha256, the
format :data:`VERSION`), so it is never used with another lexicon.  The package build
compiles the vocabularies of the embedded lexicons into ``wordsalvo/data/levels/``
(``lexicon_build/compile_embedded.py`` calls :func:`vocabulary_words` and
:func:`vocabulary_key` with the lists it has just compiled); for any other lexicon
(German after ``wordsalvo lexicon fetch de``, a ``--lexicon`` file) the first use
builds it into the user's cache folder (``<cache>/levels/<key>.wsg``, written
atomically; in memory when the folder cannot be written), and every later start
loads it (read into memory, a few milliseconds).

This module imports only the standard library and :mod:`wordsalvo.cache` at its top,
so the package build can load it by path (before the package is installed); the
lexicon and the compiler are imported where a vocabulary is loaded.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from ..cache import cache_dir

if TYPE_CHECKING:  # pragma: no cover
    from .lexicon import Lexicon

__all__ = ["VERSION", "VocabularySpec", "VOCABULARIES", "vocabulary_key", "vocabulary_words", "level_vocabulary",
           "ranked_list", "ranked_list_path"]

#: bump when the selection changes: every vocabulary is built again
VERSION = 1


@dataclass(frozen=True)
class VocabularySpec:
    """Which words of a lexicon a level knows (see the module docstring)."""

    #: how many words of the language's frequency-ranked list (None: every word of the lexicon)
    ranked: int | None
    #: the longest word, by language ("*": any other); None: every length
    max_length: dict[str, int] | None
    #: a language without a ranked list: the longest word, the proxy of a smaller vocabulary
    proxy_length: int | None = None

    def limit(self, lang: str) -> int | None:
        if self.max_length is None:
            return None
        return self.max_length.get(lang, self.max_length.get("*"))

    def text(self, lang: str) -> str:
        return f"ranked={self.ranked};max={self.limit(lang)};proxy={self.proxy_length}"


#: the vocabulary of each weaker level (expert knows every word)
VOCABULARIES: dict[str, VocabularySpec] = {
    "easy": VocabularySpec(5_000, {"*": 6}, proxy_length=4),
    "medium": VocabularySpec(30_000, {"*": 7}, proxy_length=6),
    "hard": VocabularySpec(None, {"en": 7, "*": 8}),
}


def ranked_list_path(lang: str) -> Path | None:
    """The shipped frequency-ranked list of ``lang`` (None: the language has none)."""
    res = resources.files("wordsalvo").joinpath("data", "levels", f"{lang}.txt.gz")
    return Path(str(res)) if res.is_file() else None


def ranked_list(path: Path) -> tuple[list[str], str]:
    """The words of a ranked list, most frequent first, and the sha256 of the file."""
    data = path.read_bytes()
    return gzip.decompress(data).decode("utf-8").split(), hashlib.sha256(data).hexdigest()


def vocabulary_key(lexicon_sha256: str, level: str, lang: str, ranked_sha256: str | None) -> str:
    """The name of the vocabulary of ``level`` made from the lexicon with that word-list
    sha256 (and the ranked list with that file sha256, or None)."""
    spec = VOCABULARIES[level]
    text = f"{VERSION}|{level}|{spec.text(lang)}|{ranked_sha256 or '-'}|{lexicon_sha256}"
    return f"{lang}-{level}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


def vocabulary_words(level: str, lang: str, has: Callable[[str], bool], every_word: Callable[[], Iterable[str]],
                     ranked: list[str] | None) -> list[str] | None:
    """The sorted words of ``level``'s vocabulary, or None when it is the whole lexicon.
    ``has(word)``: whether the lexicon has a word; ``every_word()``: all its words."""
    spec = VOCABULARIES[level]
    if spec.ranked is not None and ranked is not None:
        limit = spec.limit(lang)
        known = [w for w in ranked if has(w)][: spec.ranked]
        return sorted(w for w in known if limit is None or len(w) <= limit)
    limit = spec.limit(lang) if spec.ranked is None else spec.proxy_length
    if limit is None:
        return None
    return sorted(w for w in every_word() if len(w) <= limit)


_LOADED: dict[tuple[str, str], "Lexicon | None"] = {}


def level_vocabulary(level: str, lexicon: "Lexicon", cache: Path | None = None) -> "Lexicon | None":
    """The vocabulary of ``level`` for ``lexicon`` (None: the whole lexicon), from the
    package's prebuilt graphs, else the cache folder (``cache``, default the user's), else
    built now and cached."""
    from .graphfile import compile_bytes
    from .lexicon import Lexicon, _graph, _is_subset, load_cached, write_checked_stamp
    from ..errors import LexiconFormatError, WordSalvoError
    from ..inputs import write_atomic

    if level not in VOCABULARIES:
        return None
    memo = (lexicon.sha256, level)
    if memo in _LOADED:
        return _LOADED[memo]
    lang = lexicon.alphabet.name
    path = ranked_list_path(lang)
    ranked, ranked_sha = ranked_list(path) if path is not None else (None, None)
    key = vocabulary_key(lexicon.sha256, level, lang, ranked_sha)
    vocab = None
    shipped = resources.files("wordsalvo").joinpath("data", "levels", f"{key}.wsg")
    cached = (cache if cache is not None else cache_dir()) / "levels" / f"{key}.wsg"
    for candidate, packaged in ((Path(str(shipped)), True), (cached, False)):
        if candidate.is_file():
            try:
                vocab = Lexicon._load(candidate, checked=True) if packaged else load_cached(candidate)
                break
            except LexiconFormatError:  # a damaged cache file: built again below
                continue
    if vocab is None:
        words = vocabulary_words(level, lang, lexicon.__contains__, lambda: iter(lexicon), ranked)
        if words is None:
            _LOADED[memo] = None
            return None
        text = ("\n".join(words) + "\n").encode("utf-8")
        data, _stats = compile_bytes(text, lexicon.alphabet, _graph, source=f"vocabulary {key}")
        try:
            write_atomic(cached, data)
            vocab = write_checked_stamp(cached)
        except (OSError, WordSalvoError):  # the cache folder cannot be written: this process only
            vocab = Lexicon.from_bytes(data, name=f"vocabulary {key}")
    _is_subset(vocab, lexicon, known=True)  # made from the words of this very lexicon (the key says so)
    _LOADED[memo] = vocab
    return vocab

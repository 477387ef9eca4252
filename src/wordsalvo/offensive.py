"""Offensive words: the words engine players and hints never play; people may.

Each language has a shipped list, ``wordsalvo/data/offensive/<lang>.txt`` (en,
nl, de, tr; the rule and the sources, LDNOOBW under CC BY 4.0 plus curated
additions, are in ``lexicon_build/offensive/README.md`` and the NOTICE beside
the lists).  The lexicons keep these words: a person's move is judged by the
lexicon alone.  What changes is the CHOICE of the engine: :class:`wordsalvo.engine.bot.Bot`
at every level (expert included) and :meth:`Game.best_move` with
``avoid_offensive=True`` skip a move that forms a listed word, as its main word
or as any cross word, and take the next one.  The plain autoplay players
``score`` and ``equity`` are engine benchmarks and do not skip.

    words = OffensiveWords.default("en")   # read once per language
    "FUCK" in words                        # True; "DUCK" in words: False
    words.forms(move)                      # the listed words a Move forms, () for a clean move
"""

from __future__ import annotations

from importlib import resources

__all__ = ["OffensiveWords", "LANGUAGES"]

#: the languages with a shipped list
LANGUAGES = ("en", "nl", "de", "tr")

_DEFAULTS: dict[str, "OffensiveWords"] = {}


class OffensiveWords:
    """A set of offensive words of one language (uppercase, the alphabet's letters)."""

    __slots__ = ("language", "words")

    def __init__(self, language: str, words) -> None:
        self.language = language
        self.words = frozenset(w.upper() for w in words)

    @classmethod
    def default(cls, language: str) -> "OffensiveWords":
        """The shipped list of ``language`` (read once); an empty list for a language
        without one."""
        hit = _DEFAULTS.get(language)
        if hit is None:
            words: list[str] = []
            if language in LANGUAGES:
                text = (resources.files("wordsalvo") / "data" / "offensive" / f"{language}.txt").read_text("utf-8")
                words = [w for w in text.split("\n") if w and not w.startswith("#")]
            hit = _DEFAULTS[language] = cls(language, words)
        return hit

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def __len__(self) -> int:
        return len(self.words)

    def __bool__(self) -> bool:
        return bool(self.words)

    def __repr__(self) -> str:
        return f"<OffensiveWords {self.language} {len(self.words)} words>"

    def forms(self, move) -> tuple[str, ...]:
        """The listed words that ``move`` (a :class:`~wordsalvo.moves.Move`) forms: its main
        word and every cross word; () for a clean move."""
        if not self.words:
            return ()
        return tuple(w for w in move.formed_words() if w in self.words)

    def is_offensive(self, move) -> bool:
        """Whether ``move`` forms a listed word (main word or a cross word)."""
        return bool(self.words) and any(w in self.words for w in move.formed_words())

    def first_clean(self, moves):
        """The first move of ``moves`` (an iterable of Moves, best first) that forms no
        listed word, or None."""
        for move in moves:
            if not self.is_offensive(move):
                return move
        return None

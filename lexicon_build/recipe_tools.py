"""What the recipes under lexicon_build/ share: the package's alphabets and the committed
word lists of the embedded lexicons.  A recipe imports it with its own folder's parent
on ``sys.path``."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the committed word list of each embedded lexicon
EMBEDDED_LISTS = {"en": ROOT / "lexicon_build" / "en" / "scowl-en.txt.gz",
                  "nl": ROOT / "lexicon_build" / "nl" / "words.txt.gz",
                  "tr": ROOT / "lexicon_build" / "tr" / "words.txt.gz"}


def load_alphabets():
    """``wordsalvo.alphabet.ALPHABETS``: the installed package, else this checkout's src/."""
    try:
        import wordsalvo.alphabet as mod
    except ImportError:
        sys.path.insert(0, str(ROOT / "src"))
        import wordsalvo.alphabet as mod
    return mod.ALPHABETS


def read_words(path: Path) -> set[str]:
    """The words of a word list, one a line (``.gz`` too)."""
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return set(data.decode("utf-8").split())

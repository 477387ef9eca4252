"""Build the frequency-ranked word lists of the weaker engine levels' vocabularies.

    pip install wordfreq==3.1.1          # the recipe's only extra need; the package never imports it
    python lexicon_build/levels/recipe.py --de-words de.txt.gz [--de-dic /usr/share/hunspell/de_DE_frami.dic]

Writes ``src/wordsalvo/data/levels/<lang>.txt.gz`` for en, nl, tr and de: the words
of wordfreq's "best" list for the language (Robyn Speer's wordfreq 3.1.1, data
CC BY-SA 4.0, see NOTICE.txt beside the lists), most frequent first, normalised
with the package's alphabet (2..15 letters, duplicates after normalisation
dropped where they first repeat), kept only when the language's embedded lexicon
has them (its committed list), and cut after :data:`KEEP` words.  German has no
embedded lexicon and its dictionary is GPL, so its list is not filtered by the
dictionary's words: it keeps every token up to the point where :data:`KEEP` of them
are words of the list ``wordsalvo lexicon fetch de --words-only`` writes
(``--de-words``), and a level counts only the words its lexicon has.  German also
drops proper names (wordfreq lowercases every
token, so ``berlin`` would come back as the noun-like BERLIN): a word is taken for a
name when every stem of the German dictionary that spells it (or spells it but for a
final S, the genitive) is capitalised, has no lowercase twin and carries no flag
but S, as place and first names do (``Berlin/Sm``, ``Zewen/S``, ``Hans``); this drops
some rare nouns too, which a weak player's vocabulary can miss.

The engine levels take the first N words of their language's list
(``wordsalvo.lexicon.vocabulary``).  The package build compiles the vocabularies of
the embedded lexicons from these lists; other lexicons get theirs on first use.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from recipe_tools import EMBEDDED_LISTS, load_alphabets, read_words  # noqa: E402
ROOT = HERE.parent.parent
OUT = ROOT / "src" / "wordsalvo" / "data" / "levels"
#: words kept per language (the largest vocabulary that reads a ranked list takes fewer)
KEEP = 40_000
#: the lexicon each language's words must be in
LEXICONS = EMBEDDED_LISTS
WORDFREQ_VERSION = "3.1.1"


def german_names(dic: Path) -> set[str]:
    """Uppercase spellings whose every stem of the dictionary looks like a name (module docstring)."""
    stems: dict[str, set[str]] = {}
    for line in dic.read_bytes().decode("iso-8859-1").splitlines()[1:]:
        word, _, flags = line.partition("/")
        stems.setdefault(word, set()).update(flags)
    spellings: dict[str, list[bool]] = {}
    for word, flags in stems.items():
        if not word or word.endswith("."):
            continue
        name = word[0].isupper() and word[1:].islower() and word.lower() not in stems and flags <= {"S"}
        up = word.upper().replace("ß", "SS")
        for form in (up, up + "S") if "S" in flags else (up,):
            spellings.setdefault(form, []).append(name)
    return {w for w, names in spellings.items() if all(names)}


def ranked(lang: str, alphabet, lexicon: set[str], names: set[str] = frozenset(),
           keep_others: bool = False) -> tuple[list[str], dict]:
    """The ranked words (module docstring); ``keep_others``: tokens the lexicon does not
    have stay in the list (German), only the cut counts the lexicon's words."""
    import wordfreq

    out: list[str] = []
    seen: set[str] = set()
    known = 0
    counts = {"tokens": 0, "not a word of the alphabet": 0, "not in the lexicon": 0, "name": 0, "duplicate": 0}
    for token in wordfreq.iter_wordlist(lang, wordlist="best"):
        counts["tokens"] += 1
        word, _code = alphabet.normalize(token)
        if word is None:
            counts["not a word of the alphabet"] += 1
            continue
        if word in seen:
            counts["duplicate"] += 1
            continue
        seen.add(word)
        if word in names:
            counts["name"] += 1
            continue
        if word not in lexicon:
            counts["not in the lexicon"] += 1
            if keep_others:
                out.append(word)
            continue
        out.append(word)
        known += 1
        if known == KEEP:
            break
    return out, counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--de-words", required=True, help="the German list of `wordsalvo lexicon fetch de --words-only`")
    ap.add_argument("--de-dic", default="/usr/share/hunspell/de_DE_frami.dic",
                    help="the German Hunspell dictionary, for the names (default: %(default)s)")
    args = ap.parse_args(argv)
    from importlib.metadata import version

    if version("wordfreq") != WORDFREQ_VERSION:
        print(f"note: wordfreq {version('wordfreq')}; the committed lists were made with {WORDFREQ_VERSION}")
    alphabets = load_alphabets()
    OUT.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "nl", "tr", "de"):
        lexicon = read_words(LEXICONS[lang]) if lang in LEXICONS else read_words(Path(args.de_words))
        names = german_names(Path(args.de_dic)) if lang == "de" else set()
        words, counts = ranked(lang, alphabets[lang], lexicon, names, keep_others=lang == "de")
        text = ("\n".join(words) + "\n").encode("utf-8")
        (OUT / f"{lang}.txt.gz").write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
        print(f"{lang}: {len(words):,} words, sha256 {hashlib.sha256(text).hexdigest()}; "
              + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

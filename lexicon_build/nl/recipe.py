"""Reproduce words.txt.gz (the Dutch OpenTaal list) from the raw Debian `wdutch` word list.

The package build does NOT run this: it compiles the committed words.txt.gz.
Run it to check or refresh the committed list:

    python lexicon_build/nl/recipe.py [/usr/share/dict/nederlands] [-o words.txt.gz]

Filter (see manifest.toml): drop entries with any character that is not a
letter (apostrophe, hyphen, dot, digit, space, & + / @ ...); drop entries with
an uppercase letter (proper nouns, abbreviations); normalise with the `nl`
alphabet of wordsalvo.alphabet (diacritics stripped, the ligature ĳ -> IJ,
uppercase); keep 2..15 letters; drop abbreviations written in lowercase
(entries without a vowel, see VOWELLESS_KEPT); deduplicate; sort by code point.

Abbreviations: OpenTaal lists common abbreviations in lowercase (cd, dvd, kg,
km, tv, pc, bv, nv, hd, hl, cc ...), and word games do not accept them.  A
Dutch word always has a vowel (a e i o u, y, the i of ij), except a few
interjections, so every entry without one is dropped unless it is in
VOWELLESS_KEPT.  Abbreviations that do hold a vowel (ov, uv, ic, id) are not
caught by this rule and stay in the list.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

#: Interjections without a vowel, kept (every other vowel-less entry is an abbreviation or a symbol).
VOWELLESS_KEPT = frozenset({"BRR", "HM", "MMM", "PF", "PST", "ST", "TSS", "ZZZ"})
VOWELS = frozenset("AEIOUY")
DROP_ABBREVIATION = "abbreviation (no vowel)"


def load_alphabet_module():
    """wordsalvo.alphabet: the installed package, else this checkout's src/ (built in place)."""
    try:
        import wordsalvo.alphabet as mod
    except ImportError:
        sys.path.insert(0, str(ROOT / "src"))
        import wordsalvo.alphabet as mod
    return mod


def build(raw_lines, alphabet_module):
    nl = alphabet_module.ALPHABETS["nl"]
    reasons = alphabet_module.LINE_REASONS
    dropped: Counter[str] = Counter()
    words: set[str] = set()
    for line in raw_lines:
        entry = line.strip()
        bad = next((ch for ch in entry if not ch.isalpha()), None)
        if bad is not None or not entry:
            code = alphabet_module.classify_bad_character(bad) if bad else alphabet_module.LINE_EMPTY
            dropped["non-letter: " + reasons[code]] += 1
            continue
        if any(ch.isupper() for ch in entry):
            dropped["contains an uppercase letter"] += 1
            continue
        word, code = nl.normalize(entry)
        if word is None:
            dropped[reasons[code]] += 1
            continue
        if not VOWELS.intersection(word) and word not in VOWELLESS_KEPT:
            dropped[DROP_ABBREVIATION] += 1
            continue
        if word in words:
            dropped["duplicate after normalisation"] += 1
            continue
        words.add(word)
    return sorted(words), dropped


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="?", default="/usr/share/dict/nederlands")
    ap.add_argument("-o", "--output", default=str(HERE / "words.txt.gz"))
    args = ap.parse_args(argv)
    raw = Path(args.raw)
    if not raw.is_file():
        print(f"expected the raw OpenTaal list, got no file at {raw} (Debian/Ubuntu: apt-get install wdutch)",
              file=sys.stderr)
        return 2
    data = raw.read_bytes()
    words, dropped = build(data.decode("utf-8").splitlines(), load_alphabet_module())
    text = ("\n".join(words) + "\n").encode("utf-8")
    Path(args.output).write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    print(f"source {raw} sha256 {hashlib.sha256(data).hexdigest()}")
    print(f"{len(words):,} words; list sha256 {hashlib.sha256(text).hexdigest()}")
    for reason, n in dropped.most_common():
        print(f"  dropped {n:>7,}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Reproduce words.txt.gz (the Dutch OpenTaal list) from the raw Debian `wdutch` word list.

The package build does NOT run this: it compiles the committed words.txt.gz.
Run it to check or refresh the committed list:

    python lexicon_build/nl/recipe.py [/usr/share/dict/nederlands] [-o words.txt.gz]

Filter (see manifest.toml): drop entries with any character that is not a
letter (apostrophe, hyphen, dot, digit, space, & + / @ ...); drop entries with
an uppercase letter (proper nouns, abbreviations); normalise with the `nl`
alphabet of wordsalvo.alphabet (diacritics stripped, the ligature ĳ -> IJ,
uppercase); keep 2..15 letters; deduplicate; sort by code point.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def load_alphabet_module():
    """wordsalvo.alphabet on its own (works without the compiled package)."""
    spec = importlib.util.spec_from_file_location("_ws_alphabet", ROOT / "src" / "wordsalvo" / "alphabet.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = mod  # dataclasses look their module up in sys.modules
    spec.loader.exec_module(mod)
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

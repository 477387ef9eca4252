"""Reproduce words.txt.gz (the Dutch OpenTaal list) from the raw Debian `wdutch` word list.

The package build does NOT run this: it compiles the committed words.txt.gz.
Run it to check or refresh the committed list:

    python lexicon_build/nl/recipe.py [/usr/share/dict/nederlands] [-o words.txt.gz]

It also writes dropped.txt beside this file: every entry the abbreviation rules
below dropped, with its rule (the other drops are counted in manifest.toml).

Filter (see manifest.toml): drop entries with any character that is not a
letter (apostrophe, hyphen, dot, digit, space, & + / @ ...); drop entries with
an uppercase letter (proper nouns, abbreviations); normalise with the `nl`
alphabet of wordsalvo.alphabet (diacritics stripped, the ligature ĳ -> IJ,
uppercase); keep 2..15 letters; drop abbreviations and symbols written in
lowercase (entries without a vowel, see VOWELLESS_KEPT, and the curated
INITIALISMS); deduplicate; sort by code point.

Abbreviations and symbols: OpenTaal lists common abbreviations and unit symbols
in lowercase (cd, dvd, kg, km, cm, ml, tv, pc, bv, nv, hd, hl, cc ...), and word
games do not accept them.  Two rules:

1. A Dutch word always has a vowel (a e i o u, y, the i of ij), except a few
   interjections, so every entry without one is dropped unless it is in
   VOWELLESS_KEPT.  This catches every vowel-less abbreviation and unit symbol.
2. Abbreviations that do hold a vowel cannot be told from words by their
   letters; INITIALISMS lists them (curated from every 2- and 3-letter entry
   and the entries Hunspell nl marks KEEPCASE): initialisms read letter by
   letter (ov, uv, ic, id, hbo, hiv, apk, cao, soa ...) and shortenings that
   standard spelling writes with a period (apr., aug., okt., lic.).  Acronyms
   spoken as words stay (havo, mavo, aids, ufo, led), and so do words that are
   also a shortening (min, max, prof, red).
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
#: Lowercase abbreviations that hold a vowel: initialisms read letter by letter, and
#: shortenings written with a period (rule 2 of the module docstring).
INITIALISMS = frozenset({
    # initialisms
    "ADV", "AIO", "ALV", "ANW", "APK", "ATB", "ATV", "AZC", "CAO", "DPI", "ECG", "EEG", "FTE", "HBO",
    "HIV", "HSO", "IC", "ID", "ISP", "IVF", "KCA", "KMO", "LBO", "LSO", "LTO", "MBO", "NGO", "OBS",
    "OIO", "OV", "OZB", "PDA", "SOA", "UB", "UHD", "UV", "VBO", "VMBO", "VO", "VOF", "VSO", "VVE", "VWO",
    # shortenings written with a period
    "APR", "AUG", "DEC", "FEB", "FEBR", "JUL", "JUN", "LIC", "NOV", "OKT", "SEP", "SEPT",
})
DROP_INITIALISM = "abbreviation with a vowel (INITIALISMS)"


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
    #: the words the abbreviation rules dropped, with the rule
    abbreviations: dict[str, str] = {}
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
            abbreviations[word] = DROP_ABBREVIATION
            continue
        if word in INITIALISMS:
            dropped[DROP_INITIALISM] += 1
            abbreviations[word] = DROP_INITIALISM
            continue
        if word in words:
            dropped["duplicate after normalisation"] += 1
            continue
        words.add(word)
    return sorted(words), dropped, abbreviations


def dropped_text(abbreviations: dict[str, str]) -> str:
    """dropped.txt: the abbreviations dropped, one `WORD<TAB>rule` a line, by rule then word."""
    head = ["# Entries of the OpenTaal list that lexicon_build/nl/recipe.py drops as abbreviations or symbols",
            "# (word<TAB>rule; the rules are in the recipe's docstring). Written by the recipe."]
    rows = sorted(abbreviations.items(), key=lambda kv: (kv[1], kv[0]))
    return "\n".join(head + [f"{w}\t{r}" for w, r in rows]) + "\n"


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
    words, dropped, abbreviations = build(data.decode("utf-8").splitlines(), load_alphabet_module())
    (HERE / "dropped.txt").write_text(dropped_text(abbreviations), "utf-8")
    text = ("\n".join(words) + "\n").encode("utf-8")
    Path(args.output).write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    print(f"source {raw} sha256 {hashlib.sha256(data).hexdigest()}")
    print(f"{len(words):,} words; list sha256 {hashlib.sha256(text).hexdigest()}")
    for reason, n in dropped.most_common():
        print(f"  dropped {n:>7,}  {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

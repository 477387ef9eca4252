"""Build the offensive-word lists that engine players and hints never play.

    python lexicon_build/offensive/build.py [--de-words FILE] [--check]

For each language (en, nl, de, tr): the single-word entries of the LDNOOBW list
(``ldnoobw/<lang>``, CC BY 4.0) that ``curation.toml`` does not mark ``ordinary``,
plus its curated ``add`` words, plus the forms of those words that the language's
word list holds (``suffixes``, applied again to the forms they make, ``prefixes``,
``contains``; minus ``not_forms``), normalised with the package's alphabet, 2..15
letters.  The forms check (:func:`inconsistencies`) then asks that every word of the
list one suffix away from a listed word, either way, is listed or named ordinary
(``not_forms``, ``not_stems``): JEWED listed and JEW not is an error.  Writes
``src/wordsalvo/data/offensive/<lang>.txt``.  The word lists are the committed
sources of the embedded lexicons (English SCOWL, Dutch OpenTaal, Turkish
Hunspell); German is never shipped, so its forms come from the list that
``wordsalvo lexicon fetch de --words-only`` writes (``--de-words``); without it
the German file keeps the forms it has.  ``--check`` writes nothing and exits 1
when a file would change.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from recipe_tools import EMBEDDED_LISTS, load_alphabets, read_words  # noqa: E402
ROOT = HERE.parent.parent
OUT = ROOT / "src" / "wordsalvo" / "data" / "offensive"
LANGUAGES = ("en", "nl", "de", "tr")
#: the committed word list each language's forms are looked up in (German: --de-words)
WORD_LISTS = EMBEDDED_LISTS
SOURCE = ("LDNOOBW, List of Dirty, Naughty, Obscene, and Otherwise Bad Words (Shutterstock), "
          "commit 5faf2ba42d7b1c0977169ec3611df25a3c08eb13, CC BY 4.0")


def normalise(alphabet, entries, where: str) -> list[str]:
    out = []
    for entry in entries:
        word, _code = alphabet.normalize(entry)
        if word is None or not 2 <= len(word) <= 15:
            raise SystemExit(f"{where}: expected a word of 2..15 letters of alphabet {alphabet.name!r}, got {entry!r}")
        out.append(word)
    return out


def source_words(alphabet, lang: str) -> tuple[list[str], int]:
    """The source's single-word entries, normalised, and how many entries were not single words."""
    words, skipped = [], 0
    for line in (HERE / "ldnoobw" / lang).read_text("utf-8").splitlines():
        entry = line.strip()
        word, _code = alphabet.normalize(entry) if entry and entry.isalpha() else (None, None)
        if word is None or not 2 <= len(word) <= 15:
            skipped += 1
            continue
        words.append(word)
    return words, skipped


def endings(alphabet, suffixes) -> list[str]:
    """The curated suffixes in the alphabet's letters (Turkish: ı -> I, i -> İ)."""
    return ["".join(alphabet.mapping[ch] for ch in s) for s in suffixes]


def inconsistencies(lang: str, cur: dict, alphabet, words, word_list: set[str]) -> list[str]:
    """The forms check: every word of ``word_list`` that a listed word extends by one of the
    language's ``suffixes`` is listed (or an ordinary word of ``not_forms``), and every word of
    ``word_list`` that a listed word is made from by one of them is listed (or an ordinary
    word of ``not_stems``).  Returns one line per word missing (JEW, when JEWED is listed)."""
    listed = set(words)
    suffixes = endings(alphabet, cur["suffixes"])
    not_forms = set(normalise(alphabet, cur["not_forms"], f"{lang}.not_forms"))
    not_stems = set(normalise(alphabet, cur.get("not_stems", ()), f"{lang}.not_stems"))
    problems = []
    for w in sorted(listed):
        for s in suffixes:
            form = w + s
            if form in word_list and form not in listed and form not in not_forms:
                problems.append(f"{lang}: {form} ({w} + {s}) is a word of the list but not listed")
            stem = w[: -len(s)] if len(w) - len(s) >= 2 and w.endswith(s) else None
            if stem and stem in word_list and stem not in listed and stem not in not_stems:
                problems.append(f"{lang}: {stem} (of {w} = {stem} + {s}) is a word of the list but not listed")
    return sorted(set(problems))


def build(lang: str, cur: dict, alphabet, word_list: set[str] | None) -> tuple[list[str], dict]:
    src, skipped = source_words(alphabet, lang)
    ordinary = set(normalise(alphabet, cur["ordinary"], f"{lang}.ordinary"))
    unknown = ordinary - set(src)
    if unknown:
        raise SystemExit(f"{lang}.ordinary: expected entries of the source, got {sorted(unknown)}")
    taken = {w for w in src if w not in ordinary}
    base = taken | set(normalise(alphabet, cur["add"], f"{lang}.add"))
    not_forms = set(normalise(alphabet, cur["not_forms"], f"{lang}.not_forms"))
    forms: set[str] = set()
    if word_list is not None:
        suffixes = endings(alphabet, cur["suffixes"])
        todo = set(base)
        while todo:  # forms of forms too (FUCK, FUCKER, FUCKERS), never through an ordinary word
            new = {w + s for w in todo for s in suffixes if w + s in word_list} - not_forms - forms - base
            forms |= new
            todo = new
        for stem in normalise(alphabet, cur["prefixes"], f"{lang}.prefixes"):
            forms.update(w for w in word_list if w.startswith(stem))
        for part in normalise(alphabet, cur["contains"], f"{lang}.contains"):
            forms.update(w for w in word_list if part in w)
        overlap = not_forms & base
        if overlap:
            raise SystemExit(f"{lang}.not_forms: expected forms the expansions catch, got taken words {sorted(overlap)}")
        forms -= not_forms
        forms -= base
    words = sorted(base | forms)
    report = {"source single words": len(src), "source entries not single words": skipped,
              "ordinary (not taken)": len(ordinary), "taken": len(taken), "added": len(base - taken),
              "forms": len(forms), "words": len(words)}
    return words, report


def render(lang: str, words: list[str], report: dict) -> str:
    head = [
        f"# Offensive words ({lang}): engine players and hints never play a move that forms one;",
        "# people may.  Built by lexicon_build/offensive/build.py (the rule: its README.md).",
        f"# Source: {SOURCE}, entries",
        "# taken by the rule, plus curated additions and forms (wordsalvo project, Apache-2.0).",
        "# " + ", ".join(f"{k} {v}" for k, v in report.items()),
        "# One word per line, uppercase; lines starting with # are comments.",
    ]
    return "\n".join(head + words) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--de-words", help="the German word list (one word a line), for the forms of the German words")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    args = ap.parse_args(argv)
    alphabets = load_alphabets()
    curation = tomllib.loads((HERE / "curation.toml").read_text("utf-8"))
    changed = []
    for lang in LANGUAGES:
        path = OUT / f"{lang}.txt"
        if lang in WORD_LISTS:
            word_list = read_words(WORD_LISTS[lang])
        elif args.de_words:
            word_list = read_words(Path(args.de_words))
        else:
            word_list = None
        words, report = build(lang, curation[lang], alphabets[lang], word_list)
        if word_list is not None:
            for problem in inconsistencies(lang, curation[lang], alphabets[lang], words, word_list):
                print(problem, file=sys.stderr)
                changed.append(f"{lang} forms")
        if word_list is None and path.is_file():  # keep the forms found the last time
            kept = [w for w in path.read_text("utf-8").split("\n") if w and not w.startswith("#")]
            words = sorted(set(words) | set(kept))
            report["words"] = len(words)
            report["forms"] = len(words) - report["taken"] - report["added"]
        text = render(lang, words, report)
        print(f"{lang}: " + ", ".join(f"{k} {v}" for k, v in report.items()))
        if not path.is_file() or path.read_text("utf-8") != text:
            changed.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
    if args.check and changed:
        print("would change: " + ", ".join(str(p.relative_to(ROOT)) if isinstance(p, Path) else p for p in changed),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

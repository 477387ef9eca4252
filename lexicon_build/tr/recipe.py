"""Rebuild words.txt.gz (Turkish) from the installed Hunspell dictionary tr_TR.

The package build does NOT run this: it compiles the committed words.txt.gz.
Run it to check or refresh the committed list (needs the Debian/Ubuntu package
hunspell-tr and the `hunspell` program, or spylls):

    python lexicon_build/tr/recipe.py [--dictionary /usr/share/hunspell/tr_TR]    # with wordsalvo installed

It is the same build as `wordsalvo lexicon fetch tr`: the project's own
expander (wordsalvo.lexicon.hunspell), a Hunspell check of every form, and the
Turkish game filter (wordsalvo.lexicon.fetch.game_filter).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    from wordsalvo.lexicon.fetch import build_word_list, write_word_list

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dictionary", help="tr_TR base path (default: searched like `lexicon fetch`)")
    ap.add_argument("-o", "--output", default=str(HERE / "words.txt.gz"))
    args = ap.parse_args(argv)
    words, report = build_word_list("tr", args.dictionary, progress=lambda m: print(m, file=sys.stderr))
    write_word_list(words, Path(args.output))
    print(report.summary())
    print("aff sha256", report.aff_sha256)
    print("dic sha256", report.dic_sha256)
    print("list sha256", hashlib.sha256(("\n".join(words) + "\n").encode("utf-8")).hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())

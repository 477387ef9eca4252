"""Local conformance check against every reference set in ../shared/positions.

    python benchmarks/check_reference.py [--shared ../shared]

Builds each lexicon from ../shared/lexica into a temporary folder (the
proprietary and GPL lists never enter the project), runs the CLI's move
listing and compares the lines with the reference file, set for set.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import tempfile
from pathlib import Path

from wordsalvo.cli import main as cli_main
from wordsalvo.lexicon.lexicon import compile_lexicon

ROOT = Path(__file__).resolve().parent.parent

SETS = [
    # (name, positions, reference, word list, alphabet, rules)
    ("CSW24 public", "positions/positions-public.cgp", "positions/reference-public.tsv.gz", "lexica/csw24.txt", "en", "classic-en"),
    ("SCOWL", "positions/scowl-en/positions.cgp", "positions/scowl-en/reference.tsv.gz", "lexica/scowl-en.txt", "en", "classic-en"),
    ("wordfeud-de", "positions/wordfeud-de/positions.cgp", "positions/wordfeud-de/reference.tsv.gz", "lexica/igerman98-frami-de.txt", "de", "wordfeud-de"),
    ("woodword-de", "positions/woodword-de/positions.cgp", "positions/woodword-de/reference.tsv.gz", "lexica/igerman98-frami-de.txt", "de", "woodword-de"),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        graphs: dict[str, Path] = {}
        for name, cgp, ref, words, alphabet, rules in SETS:
            cgp_p, ref_p, words_p = args.shared / cgp, args.shared / ref, args.shared / words
            if not (cgp_p.exists() and ref_p.exists() and words_p.exists()):
                print(f"{name}: skipped (not found under {args.shared})")
                continue
            if words not in graphs:
                graphs[words] = Path(tmp) / (words_p.stem + ".wsg")
                compile_lexicon(words_p, graphs[words], alphabet)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = cli_main(["moves", "--lexicon", str(graphs[words]), "--rules", rules, str(cgp_p)])
            got = set(out.getvalue().splitlines())
            with gzip.open(ref_p, "rt", encoding="utf-8") as f:
                expected = set(f.read().splitlines())
            missing, extra = expected - got, got - expected
            ok = rc == 0 and not missing and not extra
            failures += not ok
            print(f"{name}: {len(got):,} lines, {'identical' if ok else f'{len(missing)} missing, {len(extra)} extra'}")
            for line in sorted(missing)[:5]:
                print("  missing", line)
            for line in sorted(extra)[:5]:
                print("  extra  ", line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

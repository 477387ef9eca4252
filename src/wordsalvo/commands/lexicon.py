"""``wordsalvo lexicon build | fetch | info``: compile word lists, build lexicons from Hunspell, inspect graphs."""

from __future__ import annotations

import argparse
import os
import inspect
import sys
import time
from pathlib import Path

from ..alphabet import ALPHABETS, LINE_REASONS
from ..errors import LexiconBuildError, LexiconFormatError
from ..inputs import checked_path, open_regular
from ..lexicon.graphfile import file_sha256
from ._common import output_file


def register(subparsers) -> None:
    p = subparsers.add_parser("lexicon", help="compile, fetch and inspect lexicons (word graphs)",
                              description=__doc__)
    sub = p.add_subparsers(dest="lexicon_command", metavar="ACTION")
    sub.required = True

    b = sub.add_parser(
        "build", help="compile a word list (one word a line, .gz accepted) into a graph file",
        description="Compile a word list into a graph file (.wsg) for --lexicon and Lexicon.load. Every line is "
                    "normalised with the alphabet (case, accents, the language's letters); lines that are not "
                    "words are dropped and counted by reason in the report. A table's house list adds or removes "
                    "words: --add and --remove files, one word a line, # comments.",
        epilog="example: wordsalvo lexicon build words.txt -o words.wsg --alphabet en --add house-add.txt")
    b.add_argument("wordlist", metavar="WORDLIST", help="the word list: UTF-8, one word a line, .gz accepted")
    b.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="graph file to write (.wsg); its folder must exist")
    b.add_argument("--alphabet", default="en", choices=sorted(ALPHABETS), help="alphabet (default: en)")
    b.add_argument("--add", metavar="FILE", help="house list: words to add (each must be a word of the alphabet)")
    b.add_argument("--remove", metavar="FILE", help="house list: words to remove")
    b.add_argument("-q", "--quiet", action="store_true", help="print only the statistics")
    b.set_defaults(func=cmd_build)

    f = sub.add_parser("fetch", help="build a lexicon from the installed Hunspell dictionary into the user cache",
                       description="Build a lexicon (de, tr) on this machine from the installed Hunspell "
                                   "dictionary and cache the graph where Lexicon.default(lang) finds it. It needs "
                                   "the dictionary (German: apt-get install hunspell-de-de-frami) and a checker: "
                                   "the hunspell program (apt-get install hunspell) or spylls (pip install "
                                   "'wordsalvo[hunspell]'); everything missing is named at once, before any work.")
    f.add_argument("lang", metavar="LANG", help="language: de or tr")
    f.add_argument("--dictionary", metavar="PATH", help="dictionary base path (without .dic/.aff)")
    f.add_argument("--checker", choices=("program", "binding", "spylls"),
                   help="Hunspell backend (default: the first that works)")
    f.add_argument("--words-only", action="store_true", help="write the word list only, no graph")
    f.add_argument("--cache-dir", metavar="DIR", help="cache folder (default: $WORDSALVO_CACHE_DIR, "
                                                      "$XDG_CACHE_HOME/wordsalvo or ~/.cache/wordsalvo)")
    f.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    f.set_defaults(func=cmd_fetch)

    i = sub.add_parser("info", help="show the header of a graph file",
                       description="Show what a graph file holds: format version, alphabet, word and node "
                                   "counts, longest word, the sha256 of its word list and of the file. "
                                   "The header is checked; a corrupt file is reported with its byte offset.")
    i.add_argument("file", metavar="FILE", help="a graph file (.wsg), e.g. one written by `lexicon build`")
    i.set_defaults(func=cmd_info)


def _say(quiet: bool):
    t0 = time.perf_counter()

    def say(msg: str) -> None:
        if not quiet:
            print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)
    return say


def _reason_text(reason) -> str:
    if isinstance(reason, int):
        return LINE_REASONS.get(reason, f"reason {reason}")
    return str(getattr(reason, "name", reason))


def format_build_stats(stats) -> str:
    """Human-readable lines for the BuildStats of compile_lexicon (its own report when it has one)."""
    if callable(getattr(stats, "report", None)):
        return stats.report()
    lines = []
    for attr in ("lines", "words", "nodes", "bytes", "seconds"):
        v = getattr(stats, attr, None)
        if v is not None:
            lines.append(f"{attr}: {v:,}" if isinstance(v, int) else f"{attr}: {v}")
    dropped = getattr(stats, "dropped", None) or getattr(stats, "drops", None) or {}
    examples = getattr(stats, "examples", None) or {}
    for reason, n in sorted(dict(dropped).items(), key=lambda kv: -kv[1]):
        if not n:
            continue
        ex = examples.get(reason) or []
        tail = f"  e.g. {', '.join(map(str, ex[:3]))}" if ex else ""
        lines.append(f"dropped {n:>9,}  {_reason_text(reason)}{tail}")
    if not lines:
        lines.append(repr(stats))
    return "\n".join(lines)


def cmd_build(args: argparse.Namespace) -> int:
    try:
        from ..lexicon.lexicon import compile_lexicon
    except ImportError as e:
        raise LexiconBuildError(f"expected the compiled graph core, got an import error: {e}") from None
    src = checked_path(args.wordlist, LexiconBuildError, "word list")
    os.close(open_regular(src, LexiconBuildError, "word list")[0])  # a missing file, a folder, /dev/zero ...
    for what, path in (("--add", args.add), ("--remove", args.remove)):
        if path is not None:
            try:
                os.close(open_regular(checked_path(path, LexiconBuildError, what), LexiconBuildError,
                                      "word list")[0])
            except LexiconBuildError as e:
                raise LexiconBuildError(f"{what}: {e}") from None
    output_file(args.output, "-o")
    say = _say(args.quiet)
    say(f"compiling {src} ({src.stat().st_size:,} bytes) with alphabet {args.alphabet}")
    kwargs = {}
    try:
        if "progress" in inspect.signature(compile_lexicon).parameters:
            kwargs["progress"] = lambda phase, fraction=None: say(
                phase if fraction is None else f"{phase} {100 * fraction:.0f}%")
    except (TypeError, ValueError):  # a builtin without a signature
        pass
    t0 = time.perf_counter()
    stats = compile_lexicon(str(src), str(args.output), alphabet=args.alphabet, add=args.add, remove=args.remove,
                            **kwargs)
    say(f"done in {time.perf_counter() - t0:.1f}s")
    print(format_build_stats(stats))
    return 0


def cmd_fetch(args: argparse.Namespace) -> int:
    from ..lexicon import fetch as lf

    say = _say(args.quiet)
    lang = args.lang
    cache = Path(args.cache_dir).expanduser() if args.cache_dir else None
    base, checker = lf.preflight(lang, args.dictionary, prefer=args.checker, cache=cache)  # every missing piece at once
    if checker.name.startswith("spylls"):
        say("checking with spylls (pure Python): about 2 minutes for German; the `hunspell` program "
            "(apt-get install hunspell) takes about 15 s")
    res = lf.fetch(lang, dictionary=base, cache=cache, checker=checker, words_only=args.words_only,
                   progress=say)
    print(res.report.summary())
    print(f"word list: {res.word_list}")
    if res.graph is not None:
        print(f"graph: {res.graph} ({res.graph.stat().st_size:,} bytes)")
        return 0
    print(f"no graph: {res.note}")
    return 0 if args.words_only else 1


def cmd_info(args: argparse.Namespace) -> int:
    path = checked_path(args.file, LexiconFormatError, "graph file")
    os.close(open_regular(path, LexiconFormatError, "graph file")[0])
    size = path.stat().st_size
    fields: dict[str, object] = {"file": str(path), "bytes": size}
    try:
        from ..lexicon.graphfile import FormatProblem, unpack_header
    except ImportError:
        unpack_header = None
    if unpack_header is not None:
        with open(path, "rb") as f:
            head = f.read(256)
        try:
            h = unpack_header(head, size)
        except FormatProblem as e:
            raise LexiconFormatError(e.message, str(path), e.offset) from None
        fields.update({"format version": h.version, "alphabet": f"{h.alphabet_name} ({''.join(h.letters)})",
                       "words": h.word_count, "nodes": h.node_count, "longest word": h.longest_word,
                       "word list sha256": h.sha256})
    else:
        from ..lexicon.lexicon import Lexicon

        lex = Lexicon.load(str(path))
        alphabet = getattr(lex, "alphabet", None)
        fields["alphabet"] = getattr(alphabet, "name", alphabet)
        fields["words"] = getattr(lex, "word_count", None)
        fields["nodes"] = getattr(lex, "node_count", None)
    fields["file sha256"] = file_sha256(path)
    for k, v in fields.items():
        print(f"{k}: {v:,}" if isinstance(v, int) else f"{k}: {v}")
    return 0

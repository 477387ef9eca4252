"""Lexicons built on the user's machine from an installed Hunspell dictionary.

The German list (igerman98 + frami) is GPL, so the package does not ship it:
``wordsalvo lexicon fetch de`` expands the installed ``de_DE_frami``
dictionary with :mod:`wordsalvo.lexicon.hunspell`, checks every candidate with
Hunspell, applies the game filter below and compiles the graph into the user's
cache folder, where :meth:`wordsalvo.lexicon.lexicon.Lexicon.default` finds it through
:func:`cached_graph_path`.  Turkish (``tr_TR``) can be built the same way.

The game filter per language (case rules here; the character mapping is the
one table of :mod:`wordsalvo.alphabet`):

* German: drop all-caps acronyms (ADAC) and forms with an inner capital
  (``AachenerIn``, ``AStA``); then the ``de`` alphabet uppercases, writes
  ß as SS and drops forms with any other letter (é, à, ñ) and outside 2..15;
  then the clean-up of ``wordsalvo/data/de-drops.toml`` (the rules and why are
  in that file): every word without a vowel but a few interjections (Bsp,
  Pkw, Lkw, Kfz, km, http: abbreviations and unit symbols), curated
  abbreviations with a vowel (Tel, Sek, dpa) and curated names (Eva, Ulm,
  Zewen).  The report lists every word these rules dropped
  (:attr:`BuildReport.listed`).
* Turkish: drop forms with an uppercase letter (proper nouns); apostrophes
  drop as non-letters; the ``tr`` alphabet uppercases the Turkish way
  (i -> İ, ı -> I), writes â î û as A İ U and keeps 2..15.

Cache folder: ``$WORDSALVO_CACHE_DIR``, else ``$XDG_CACHE_HOME/wordsalvo``,
else ``~/.cache/wordsalvo``.  It holds ``<lang>.wsg`` (the graph),
``<lang>.txt.gz`` (the word list) and ``<lang>.json`` (the build report).
"""

from __future__ import annotations

import gzip
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..alphabet import LINE_REASONS, classify_bad_character, get_alphabet
from ..cache import CACHE_ENV, cache_dir, cached_graph_path  # re-exported: the fetch API names them
from ..errors import LexiconBuildError
from ..inputs import write_atomic
from .graphfile import file_sha256
from ..wording import plural
from .hunspell import ExpansionStats, HunspellUnavailableError, find_checker, read_dictionary
from .lexicon import compile_lexicon

__all__ = [
    "CACHE_ENV",
    "RECIPES",
    "HunspellRecipe",
    "BuildReport",
    "cache_dir",
    "cached_graph_path",
    "search_dirs",
    "find_dictionary",
    "preflight",
    "game_filter",
    "build_word_list",
    "fetch",
]

# Drop reasons of the game filter (besides the alphabet's LINE_REASONS texts).
DROP_REJECTED = "rejected by Hunspell"
DROP_ACRONYM = "all-caps acronym"
DROP_INNER_CAPITAL = "inner capital"
DROP_CAPITALISED = "contains an uppercase letter (proper noun)"
DROP_DUPLICATE = "duplicate after normalisation"
DROP_VOWELLESS = "abbreviation or symbol (no vowel)"
DROP_ABBREVIATION = "abbreviation with a vowel (curated)"
DROP_NAME = "proper name (curated)"
#: the drop reasons whose every word the report lists
LISTED_REASONS = (DROP_VOWELLESS, DROP_ABBREVIATION, DROP_NAME)


@dataclass(frozen=True)
class CleanUp:
    """A language's clean-up after normalisation (``wordsalvo/data/<lang>-drops.toml``)."""

    vowels: frozenset[str]
    vowelless_kept: frozenset[str]
    abbreviations: frozenset[str]
    names: frozenset[str]

    def reason(self, word: str) -> str | None:
        """Why ``word`` is dropped, or None."""
        if not self.vowels.intersection(word) and word not in self.vowelless_kept:
            return DROP_VOWELLESS
        stem = word[:-1] if word.endswith("S") else None  # a genitive in -s goes with its word
        if word in self.abbreviations or stem in self.abbreviations:
            return DROP_ABBREVIATION
        if word in self.names or stem in self.names:
            return DROP_NAME
        return None


def clean_up(lang: str) -> CleanUp | None:
    """The clean-up of ``lang`` (None: the language has none)."""
    import tomllib
    from importlib import resources

    res = resources.files("wordsalvo.data").joinpath(f"{lang}-drops.toml")
    if not res.is_file():
        return None
    spec = tomllib.loads(res.read_text("utf-8"))
    return CleanUp(frozenset(spec["vowels"]), frozenset(spec.get("vowelless_kept", ())),
                   frozenset(spec.get("abbreviations", {}).get("words", ())),
                   frozenset(spec.get("names", {}).get("words", ())))


@dataclass(frozen=True)
class HunspellRecipe:
    """How one language's lexicon is built from a Hunspell dictionary."""

    lang: str
    #: dictionary base names tried in order (without .dic/.aff)
    dictionaries: tuple[str, ...]
    #: Debian/Ubuntu package that installs it
    debian_package: str
    #: "german" or "turkish": which case rule the game filter applies
    case_rule: str
    source_name: str
    licence: str
    #: the word count of our measured reference run (README of lexicon_build/<lang>)
    yardstick: int


RECIPES: dict[str, HunspellRecipe] = {
    "de": HunspellRecipe(
        "de", ("de_DE_frami",), "hunspell-de-de-frami", "german",
        "igerman98 + frami (Hunspell de_DE_frami)", "GPL-2.0 or GPL-3.0", 539_950),
    "tr": HunspellRecipe(
        "tr", ("tr_TR",), "hunspell-tr", "turkish",
        "LibreOffice tr_TR (Hunspell, Harun Resit Zafer)", "MPL-2.0", 1_146_750),
}


# --------------------------------------------------------------------------- dictionaries
def search_dirs() -> list[Path]:
    """Folders searched for Hunspell dictionaries: ``$DICPATH`` first, then the usual places."""
    out: list[Path] = []
    for part in os.environ.get("DICPATH", "").split(os.pathsep):
        if part:
            out.append(Path(part).expanduser())
    home = Path.home()
    out += [
        Path("/usr/share/hunspell"), Path("/usr/share/myspell/dicts"), Path("/usr/share/myspell"),
        Path("/usr/local/share/hunspell"), Path("/opt/homebrew/share/hunspell"),
        home / ".local/share/hunspell", home / "Library/Spelling", Path("/Library/Spelling"),
    ]
    return out


def find_dictionary(lang: str, dirs: Iterable[Path] | None = None) -> Path:
    """Base path (without extension) of the installed dictionary for ``lang``.

    Raises :class:`HunspellUnavailableError` naming the package to install and
    every path that was searched.
    """
    recipe = _recipe(lang)
    base, tried = _search(recipe, dirs)
    if base is not None:
        return base
    raise HunspellUnavailableError(
        f"expected the Hunspell dictionary {' or '.join(recipe.dictionaries)} for {lang!r}, got none. "
        f"Install: `sudo apt-get install {recipe.debian_package}` (Debian/Ubuntu), or put the .dic/.aff "
        f"in a folder named by $DICPATH, or pass --dictionary PATH. Searched: " + ", ".join(tried))


def _search(recipe: HunspellRecipe, dirs: Iterable[Path] | None = None) -> tuple[Path | None, list[str]]:
    """(base path of the first installed dictionary of ``recipe`` or None, the files looked for)."""
    tried = []
    for d in (list(dirs) if dirs is not None else search_dirs()):
        for name in recipe.dictionaries:
            base = Path(d) / name
            aff, dic = base.with_name(name + ".aff"), base.with_name(name + ".dic")
            if aff.is_file() and dic.is_file():
                return base, tried
            tried += [str(aff), str(dic)]
    return None, tried


#: what each piece a fetch needs is for, and how to get it (Debian/Ubuntu, pip)
CHECKER_HELP = ("a Hunspell checker for the generated forms: the `hunspell` program (`sudo apt-get install "
                "hunspell`, about 15 s for German) or the pure-Python spylls (`pip install 'wordsalvo[hunspell]'`, "
                "about 2 minutes for German)")


def preflight(lang: str, dictionary: str | os.PathLike[str] | None = None, prefer: str | None = None,
              cache: Path | None = None):
    """Check everything a fetch of ``lang`` needs before any work: the dictionary, a
    checker that can read it, a cache folder that can be written.  Returns (dictionary
    base path, checker); raises one :class:`HunspellUnavailableError` that names every
    missing piece, what it is for and one command that installs them all."""
    from .hunspell import find_checker

    recipe = _recipe(lang)
    problems: list[str] = []
    base = None
    if dictionary is not None:
        base = Path(dictionary)
        if base.suffix in (".dic", ".aff"):
            base = base.with_suffix("")
        missing = [str(f) for f in (base.with_name(base.name + ".aff"), base.with_name(base.name + ".dic"))
                   if not f.is_file()]
        if missing:
            problems.append(f"the dictionary given by --dictionary: no such file: {', '.join(missing)}")
            base = None
    else:
        base, tried = _search(recipe)
        if base is None:
            folders = sorted({str(Path(f).parent) for f in tried}, key=[str(Path(f).parent) for f in tried].index)
            problems.append(f"the {lang} dictionary {' or '.join(recipe.dictionaries)}, the words themselves "
                            f"(package {recipe.debian_package}): not in {', '.join(folders)} "
                            f"($DICPATH names more folders; --dictionary PATH one file)")
    checker = None
    if base is not None:
        try:
            checker = find_checker(base, prefer=prefer)
        except HunspellUnavailableError as e:  # its own install advice is in CHECKER_HELP
            problems.append(f"{CHECKER_HELP}: {str(e).split('. Install')[0]}")
    elif not checker_available(prefer):
        problems.append(f"{CHECKER_HELP}: none is installed")
    folder = cache if cache is not None else cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".{lang}.probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        problems.append(f"a cache folder to write {lang}.wsg into: {folder}: {e.strerror or e}")
    if problems:
        need_dictionary = base is None and dictionary is None
        need_checker = checker is None and any(p.startswith(CHECKER_HELP) for p in problems)
        apt = ["hunspell"] * need_checker + [recipe.debian_package] * need_dictionary
        cmd = ""
        if apt:
            cmd = f"\nInstall on Debian/Ubuntu: sudo apt-get install {' '.join(apt)}"
            if need_checker:
                alt = (f"sudo apt-get install {recipe.debian_package} && " if need_dictionary else "")
                cmd += f"\n  (or, with the pure-Python checker: {alt}pip install 'wordsalvo[hunspell]')"
        head = f"lexicon fetch {lang}: {len(problems)} missing " + ("pieces" if len(problems) > 1 else "piece")
        raise HunspellUnavailableError(head + "".join(f"\n  {i}. {p}" for i, p in enumerate(problems, 1)) + cmd)
    return base, checker


def checker_available(prefer: str | None = None) -> bool:
    """Whether some Hunspell backend could check forms: the program, a binding or spylls
    (with ``prefer``, that one)."""
    import importlib.util
    import shutil

    found = {"program": lambda: shutil.which("hunspell"),
             "binding": lambda: importlib.util.find_spec("hunspell"),
             "spylls": lambda: importlib.util.find_spec("spylls")}
    return any(found[name]() for name in ([prefer] if prefer in found else found))


def _recipe(lang: str) -> HunspellRecipe:
    try:
        return RECIPES[lang]
    except KeyError:
        raise LexiconBuildError(
            f"expected a language built from Hunspell ({', '.join(sorted(RECIPES))}), got {lang!r}"
            + (" (it is embedded in the package: nothing to fetch)" if lang in ("en", "nl") else "")) from None


# --------------------------------------------------------------------------- report
@dataclass
class BuildReport:
    """What a build did: inputs, counts per stage, drops per reason with first examples."""

    lang: str
    dictionary: str = ""
    aff_sha256: str = ""
    dic_sha256: str = ""
    checker: str = ""
    stems: int = 0
    forms: int = 0
    unique_forms: int = 0
    checked: int = 0
    accepted: int = 0
    words: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    yardstick: int = 0
    #: every word the clean-up dropped (:data:`LISTED_REASONS`), by reason, sorted
    listed: dict[str, list[str]] = field(default_factory=dict)

    def drop(self, reason: str, form: str) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < 5:
            ex.append(form)
        if reason in LISTED_REASONS:
            words = self.listed.setdefault(reason, [])
            words.append(form)
            words.sort()

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=1, sort_keys=True)

    def summary(self) -> str:
        lines = [
            f"{self.lang}: {plural(self.words, 'word')} from {self.dictionary}",
            f"  stems {self.stems:,}, generated forms {self.forms:,} ({self.unique_forms:,} unique), "
            f"checked {self.checked:,}, accepted by Hunspell {self.accepted:,} ({self.checker})",
        ]
        if self.yardstick:
            diff = self.words - self.yardstick
            lines.append(f"  reference run: {self.yardstick:,} words ({diff:+,}, {100 * diff / self.yardstick:+.2f}%)")
        for reason, n in sorted(self.dropped.items(), key=lambda kv: -kv[1]):
            lines.append(f"  dropped {n:>9,}  {reason}  e.g. {', '.join(self.examples.get(reason, [])[:3])}")
        if self.seconds:
            lines.append("  time: " + ", ".join(f"{k} {v:.1f}s" for k, v in self.seconds.items()))
        return "\n".join(lines)


# --------------------------------------------------------------------------- game filter
def game_filter(forms: Iterable[str], lang: str, report: BuildReport | None = None,
                case_rule: str | None = None) -> list[str]:
    """Game words (sorted, unique, uppercase) from Hunspell-accepted forms; drops go to ``report``."""
    rep = report if report is not None else BuildReport(lang)
    rule = case_rule or _recipe(lang).case_rule
    alphabet = get_alphabet(lang)
    cleanup = clean_up(lang)
    out: set[str] = set()
    for w in forms:
        if rule == "german":
            if len(w) > 1 and w == w.upper() and w != w.lower():
                rep.drop(DROP_ACRONYM, w)
                continue
            if any(ch.isupper() for ch in w[1:]):
                rep.drop(DROP_INNER_CAPITAL, w)
                continue
        elif rule == "turkish":
            if any(ch.isupper() for ch in w):
                rep.drop(DROP_CAPITALISED, w)
                continue
        else:
            raise LexiconBuildError(f"expected a case rule 'german' or 'turkish', got {rule!r}")
        word, reason = alphabet.normalize(w)
        if word is None:
            rep.drop(LINE_REASONS[reason], w)
            continue
        if word in out:
            rep.drop(DROP_DUPLICATE, w)
            continue
        why = cleanup.reason(word) if cleanup is not None else None
        if why is not None:
            if word not in rep.listed.get(why, ()):
                rep.drop(why, word)
            continue
        out.add(word)
    return sorted(out)


def _letters_only(w: str) -> str | None:
    """None if ``w`` is all letters, else the drop reason of its first non-letter."""
    for ch in w:
        if not ch.isalpha():
            return LINE_REASONS[classify_bad_character(ch)]
    return None


def build_word_list(lang: str, dictionary: str | os.PathLike[str] | None = None, *, checker=None,
                    progress: Callable[[str], None] | None = None) -> tuple[list[str], BuildReport]:
    """Expand, check and filter the Hunspell dictionary of ``lang``: (sorted words, report)."""
    recipe = _recipe(lang)
    say = progress or (lambda msg: None)
    base = Path(dictionary) if dictionary is not None else find_dictionary(lang)
    if base.suffix in (".dic", ".aff"):
        base = base.with_suffix("")
    rep = BuildReport(lang, dictionary=str(base), yardstick=recipe.yardstick)
    rep.aff_sha256 = file_sha256(base.with_name(base.name + ".aff"))
    rep.dic_sha256 = file_sha256(base.with_name(base.name + ".dic"))
    if checker is None:
        checker = find_checker(base)
    rep.checker = checker.name
    t0 = time.perf_counter()
    say(f"reading {base}.aff/.dic")
    d = read_dictionary(base)
    st = ExpansionStats()
    unique: set[str] = set()
    for form in d.expand_all(st):
        unique.add(form)
    rep.stems, rep.forms, rep.unique_forms = st.stems, st.forms, len(unique)
    for reason, n in st.dropped.items():
        rep.dropped[f"expander: {reason}"] = n
        rep.examples[f"expander: {reason}"] = list(st.examples.get(reason, []))
    t1 = time.perf_counter()
    rep.seconds["expand"] = round(t1 - t0, 2)
    say(f"expanded {rep.stems:,} stems into {rep.unique_forms:,} unique forms in {t1 - t0:.1f}s")
    candidates = []
    for w in sorted(unique):
        reason = _letters_only(w)
        if reason:
            rep.drop(reason, w)
        else:
            candidates.append(w)
    del unique
    rep.checked = len(candidates)
    say(f"checking {len(candidates):,} forms with {checker.name}")
    accepted = checker.check(candidates, progress=lambda n: say(f"  checked {n:,} of {len(candidates):,}"))
    rep.accepted = len(accepted)
    for w in candidates:
        if w not in accepted:
            rep.drop(DROP_REJECTED, w)
    t2 = time.perf_counter()
    rep.seconds["check"] = round(t2 - t1, 2)
    words = game_filter((w for w in candidates if w in accepted), lang, rep, recipe.case_rule)
    rep.words = len(words)
    rep.seconds["filter"] = round(time.perf_counter() - t2, 2)
    return words, rep


def write_word_list(words: list[str], path: Path) -> None:
    """Write a word list (gzip when the name ends in .gz, reproducible bytes), atomically."""
    text = ("\n".join(words) + "\n").encode("utf-8") if words else b""
    if path.suffix == ".gz":
        text = gzip.compress(text, compresslevel=9, mtime=0)
    write_atomic(path, text)


@dataclass
class FetchResult:
    lang: str
    report: BuildReport
    word_list: Path
    graph: Path | None
    #: why there is no graph (e.g. the compiler is not built), or None
    note: str | None = None


def fetch(lang: str, *, dictionary: str | os.PathLike[str] | None = None, cache: Path | None = None,
          checker=None, words_only: bool = False,
          progress: Callable[[str], None] | None = None) -> FetchResult:
    """Build ``lang`` from the installed Hunspell dictionary into the cache folder."""
    say = progress or (lambda msg: None)
    folder = cache if cache is not None else cache_dir()
    words, rep = build_word_list(lang, dictionary, checker=checker, progress=say)
    wl = folder / f"{lang}.txt.gz"
    write_word_list(words, wl)
    write_atomic(folder / f"{lang}.json", rep.to_json().encode("utf-8"))
    if words_only:
        return FetchResult(lang, rep, wl, None, "word list only (--words-only)")
    graph = folder / f"{lang}.wsg"
    tmp = folder / f".{lang}.wsg.tmp"
    t0 = time.perf_counter()
    say(f"compiling the graph of {len(words):,} words")
    try:
        compile_lexicon(str(wl), str(tmp), alphabet=lang)
        os.replace(tmp, graph)
    finally:
        tmp.unlink(missing_ok=True)
    rep.seconds["compile"] = round(time.perf_counter() - t0, 2)
    t1 = time.perf_counter()
    say("building the engine levels' vocabularies")
    build_vocabularies(graph, folder)
    rep.seconds["vocabularies"] = round(time.perf_counter() - t1, 2)
    write_atomic(folder / f"{lang}.json", rep.to_json().encode("utf-8"))
    return FetchResult(lang, rep, wl, graph)


def build_vocabularies(graph: Path, folder: Path) -> None:
    """Check the fetched graph word by word once (its ``.checked`` stamp), and build the
    weaker levels' vocabularies of it into ``folder``'s ``levels/``
    (:mod:`wordsalvo.lexicon.vocabulary`), so that no game start does either."""
    from .lexicon import write_checked_stamp
    from .vocabulary import VOCABULARIES, level_vocabulary

    lexicon = write_checked_stamp(graph)  # the full check, once: later loads skip the word level
    for level in VOCABULARIES:
        level_vocabulary(level, lexicon, cache=folder)

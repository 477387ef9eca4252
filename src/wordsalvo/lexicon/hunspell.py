"""Hunspell dictionaries: read ``.dic``/``.aff``, expand stems into word forms, check forms.

Three parts, used by ``wordsalvo lexicon fetch`` to build a word list from an
installed Hunspell dictionary:

* :func:`read_dictionary` reads a ``.aff`` and its ``.dic`` (encoding from
  ``SET``; flags as ``FLAG`` says: default single characters, ``long`` pairs,
  ``num`` comma-separated numbers, ``UTF-8`` characters; ``AF`` aliases).
* :meth:`HunspellDictionary.expand` generates the forms of one stem with the
  ``PFX``/``SFX`` rules: strip, add, condition, cross product, and continuation
  classes to a LIMITED depth (at most two suffixes and one prefix, the same
  limit Hunspell itself applies without ``COMPLEXPREFIXES``).  ``NEEDAFFIX``,
  ``ONLYINCOMPOUND``, ``FORBIDDENWORD`` and ``CIRCUMFIX`` are honoured.  Stems
  are never joined: there is no free compounding.  The generated forms are
  candidates, not truth.
* :func:`find_checker` returns a checker that asks real Hunspell about every
  candidate: the ``hunspell`` program (in big batches), a Python binding
  (``hunspell``/``cyhunspell``), or the pure-Python ``spylls`` (the
  ``wordsalvo[hunspell]`` extra), which replaces the program: German in about
  2 minutes instead of 15 s, and the same words but ten forms of one verb
  (weißmachen).  Only forms the checker accepts go into a lexicon.

Why our own expander: ``unmunch`` prints compound-only pieces and broken
continuation text for ``de_DE_frami`` and crashes on dictionaries with more
than 256 affix classes (``tr_TR`` has 6,465 numeric flags).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import HunspellUnavailableError, LexiconBuildError
from ..inputs import read_bytes
from ..wording import plural

__all__ = [
    "AffixRule",
    "HunspellDictionary",
    "HunspellUnavailableError",
    "read_dictionary",
    "parse_flags",
    "find_checker",
    "HunspellProgramChecker",
    "SpyllsChecker",
    "BindingChecker",
    "MAX_SUFFIXES",
    "MAX_PREFIXES",
]

#: continuation-class depth limits (Hunspell without COMPLEXPREFIXES: two suffixes, one prefix)
MAX_SUFFIXES = 2
MAX_PREFIXES = 1

# Reasons a generated form is not a candidate (counted in ExpansionStats.dropped).
DROP_FORBIDDEN = "FORBIDDENWORD"
DROP_ONLYINCOMPOUND = "ONLYINCOMPOUND (compound part only)"
DROP_NEEDAFFIX = "NEEDAFFIX (needs a further affix)"
DROP_CIRCUMFIX = "CIRCUMFIX (needs its prefix and suffix together)"


# --------------------------------------------------------------------------- flags
def parse_flags(text: str, flag_type: str, aliases: list[frozenset[str]] | None = None,
                where: str = "") -> frozenset[str]:
    """Split a flag field into flags.

    ``flag_type`` is ``"char"`` (default: one character per flag, for 8-bit
    encodings one byte), ``"long"`` (two characters), ``"num"`` (decimal numbers
    separated by commas) or ``"UTF-8"`` (one Unicode character).  With ``AF``
    aliases the field is a 1-based alias number.
    """
    if not text:
        return frozenset()
    if aliases:
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(aliases):
                raise LexiconBuildError(
                    f"expected an AF alias number 1..{len(aliases)}, got {text!r}{where}")
            return aliases[n - 1]
    if flag_type == "long":
        if len(text) % 2:
            raise LexiconBuildError(f"expected an even number of characters for FLAG long, got {text!r}{where}")
        return frozenset(text[i:i + 2] for i in range(0, len(text), 2))
    if flag_type == "num":
        out = []
        for part in text.split(","):
            part = part.strip()
            if not part.isdigit():
                raise LexiconBuildError(f"expected numeric flags (FLAG num), got {text!r}{where}")
            out.append(str(int(part)))
        return frozenset(out)
    return frozenset(text)


# --------------------------------------------------------------------------- affixes
def _condition_regex(cond: str, suffix: bool) -> re.Pattern[str] | None:
    """A Hunspell condition (``[^aeiou]y``, ``.``, ``[^i]n``) as an anchored regex; None = always."""
    if cond in ("", "."):
        return None
    out = []
    i = 0
    while i < len(cond):
        ch = cond[i]
        if ch == "[":
            j = cond.find("]", i + 1)
            if j < 0:  # unterminated class: Hunspell reads it up to the end
                j = len(cond)
            body = cond[i + 1:j]
            neg = body.startswith("^")
            if neg:
                body = body[1:]
            body = "".join("\\" + c if c in "\\]^-[" else c for c in body)
            out.append(f"[{'^' if neg else ''}{body}]")
            i = j + 1
        elif ch == ".":
            out.append(".")
            i += 1
        else:
            out.append(re.escape(ch))
            i += 1
    pat = "".join(out)
    return re.compile(f"(?:{pat})$" if suffix else f"^(?:{pat})", re.DOTALL)


@dataclass(frozen=True)
class AffixRule:
    """One PFX or SFX line."""

    kind: str  # "PFX" or "SFX"
    flag: str
    strip: str
    add: str
    continuation: frozenset[str]
    condition: str
    cross_product: bool
    regex: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    def apply(self, word: str, fullstrip: bool = False) -> str | None:
        """The form with this affix, or None when the rule does not apply to ``word``."""
        n = len(self.strip)
        if self.kind == "SFX":
            if n:
                if not word.endswith(self.strip):
                    return None
            if len(word) - n <= 0 and not fullstrip:
                return None
            if self.regex is not None and not self.regex.search(word):
                return None
            return (word[:-n] if n else word) + self.add
        if n:
            if not word.startswith(self.strip):
                return None
        if len(word) - n <= 0 and not fullstrip:
            return None
        if self.regex is not None and not self.regex.match(word):
            return None
        return self.add + word[n:]


@dataclass
class ExpansionStats:
    """Counts of an expansion run."""

    stems: int = 0
    forms: int = 0
    dropped: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def drop(self, reason: str, form: str) -> None:
        self.dropped[reason] += 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < 5:
            ex.append(form)


@dataclass
class HunspellDictionary:
    """A parsed ``.aff`` + ``.dic`` pair."""

    encoding: str = "ISO8859-1"
    flag_type: str = "char"
    prefixes: dict[str, list[AffixRule]] = field(default_factory=dict)
    suffixes: dict[str, list[AffixRule]] = field(default_factory=dict)
    needaffix: str | None = None
    onlyincompound: str | None = None
    forbiddenword: str | None = None
    circumfix: str | None = None
    fullstrip: bool = False
    complexprefixes: bool = False
    ignore: str = ""
    #: (stem, flags) in file order
    entries: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    aff_path: Path | None = None
    dic_path: Path | None = None

    # -- expansion ---------------------------------------------------------------
    def _bad(self, flags: frozenset[str]) -> str | None:
        if self.forbiddenword is not None and self.forbiddenword in flags:
            return DROP_FORBIDDEN
        if self.onlyincompound is not None and self.onlyincompound in flags:
            return DROP_ONLYINCOMPOUND
        return None

    def _needs(self, flags: frozenset[str]) -> bool:
        return self.needaffix is not None and self.needaffix in flags

    def _circ(self, flags: frozenset[str]) -> bool:
        return self.circumfix is not None and self.circumfix in flags

    def expand(self, stem: str, flags: frozenset[str], stats: ExpansionStats | None = None) -> Iterator[str]:
        """Every form of ``stem`` that its affix flags generate (possibly with repeats).

        Forms that Hunspell would reject by flag alone (FORBIDDENWORD,
        ONLYINCOMPOUND, a lone NEEDAFFIX or CIRCUMFIX affix) are counted in
        ``stats`` and not yielded.
        """
        st = stats if stats is not None else ExpansionStats()
        st.stems += 1
        bad = self._bad(flags)
        if bad:
            st.drop(bad, stem)
            return
        fs = self.fullstrip

        def emit(form: str, affixes: list[AffixRule]) -> Iterator[str]:
            for a in affixes:
                b = self._bad(a.continuation)
                if b:
                    st.drop(b, form)
                    return
            # NEEDAFFIX: the root (when bare) or the outermost affix must not need another.
            if not affixes:
                if self._needs(flags):
                    st.drop(DROP_NEEDAFFIX, form)
                    return
            else:
                sfx = [a for a in affixes if a.kind == "SFX"]
                pfx = [a for a in affixes if a.kind == "PFX"]
                if len(sfx) == 2 and self._needs(sfx[1].continuation):
                    st.drop(DROP_NEEDAFFIX, form)
                    return
                if all(self._needs(a.continuation) for a in affixes):
                    st.drop(DROP_NEEDAFFIX, form)
                    return
                circ_p = any(self._circ(a.continuation) for a in pfx)
                circ_s = any(self._circ(a.continuation) for a in sfx)
                if circ_p != circ_s:
                    st.drop(DROP_CIRCUMFIX, form)
                    return
            st.forms += 1
            yield form

        yield from emit(stem, [])
        suffixes, prefixes = self.suffixes, self.prefixes
        # suffix forms, with an optional second suffix from the continuation class
        for sflag in flags:
            for s1 in suffixes.get(sflag, ()):
                w1 = s1.apply(stem, fs)
                if w1 is None:
                    continue
                yield from emit(w1, [s1])
                if MAX_SUFFIXES >= 2:
                    for s2flag in s1.continuation:
                        for s2 in suffixes.get(s2flag, ()):
                            w2 = s2.apply(w1, fs)
                            if w2 is not None:
                                yield from emit(w2, [s1, s2])
                # prefix + suffix: cross product from the root's prefix flags, or a
                # prefix flag in the suffix's continuation class
                if s1.cross_product:
                    pflags = (flags | s1.continuation)
                    for pflag in pflags:
                        for p in prefixes.get(pflag, ()):
                            if not p.cross_product:
                                continue
                            # the prefix condition applies to the root
                            if p.apply(stem, fs) is None:
                                continue
                            w = p.apply(w1, True)
                            if w is not None:
                                yield from emit(w, [p, s1])
        # prefix forms, with a suffix from the prefix's continuation class
        for pflag in flags:
            for p in prefixes.get(pflag, ()):
                w = p.apply(stem, fs)
                if w is None:
                    continue
                yield from emit(w, [p])
                for sflag in p.continuation:
                    for s in suffixes.get(sflag, ()):
                        w1 = s.apply(stem, fs)
                        if w1 is None:
                            continue
                        wp = p.apply(w1, True)
                        if wp is not None:
                            yield from emit(wp, [p, s])

    def expand_all(self, stats: ExpansionStats | None = None) -> Iterator[str]:
        """Forms of every entry (repeats possible; callers deduplicate)."""
        st = stats if stats is not None else ExpansionStats()
        for stem, flags in self.entries:
            yield from self.expand(stem, flags, st)


# --------------------------------------------------------------------------- reading
_ENCODINGS = {
    "UTF-8": "utf-8", "UTF8": "utf-8",
    "ISO8859-1": "iso-8859-1", "ISO-8859-1": "iso-8859-1",
    "ISO8859-2": "iso-8859-2", "ISO8859-7": "iso-8859-7", "ISO8859-9": "iso-8859-9",
    "ISO8859-13": "iso-8859-13", "ISO8859-15": "iso-8859-15",
    "KOI8-R": "koi8-r", "KOI8-U": "koi8-u", "MICROSOFT-CP1251": "cp1251",
    "TIS620-2533": "tis-620", "ISCII-DEVANAGARI": "utf-8",
}


def _python_encoding(name: str, where: str) -> str:
    enc = _ENCODINGS.get(name.upper())
    if enc is None:
        try:
            import codecs
            return codecs.lookup(name).name
        except LookupError:
            raise LexiconBuildError(f"expected a known SET encoding, got {name!r} in {where}") from None
    return enc


def _header(raw: bytes, key: bytes) -> str | None:
    for line in raw.splitlines():
        line = line.strip()
        if line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        parts = line.split()
        if len(parts) >= 2 and parts[0] == key:
            return parts[1].decode("ascii", "replace")
    return None


def _split_dic_line(line: str) -> tuple[str, str]:
    """``word/flags [morph]`` -> (word, flags); ``\\/`` is a literal slash."""
    # morphological fields start after a tab, or after a space before "xx:"
    if "\t" in line:
        line = line.split("\t", 1)[0]
    m = re.search(r"\s+[a-z][a-z]:", line)
    if m:
        line = line[:m.start()]
    line = line.rstrip()
    i = 1
    while True:
        i = line.find("/", i)
        if i < 0:
            return line.replace("\\/", "/"), ""
        if line[i - 1] != "\\":
            return line[:i].replace("\\/", "/"), line[i + 1:]
        i += 1


def read_dictionary(base: str | os.PathLike[str], dic: str | os.PathLike[str] | None = None) -> HunspellDictionary:
    """Read ``<base>.aff`` and ``<base>.dic`` (or ``base`` + explicit ``dic``).

    Problems that make the pair unusable (missing file, unknown encoding, a
    flag field that does not fit ``FLAG``) raise :class:`LexiconBuildError`;
    every bad line is collected and reported together.
    """
    base = Path(base)
    if base.suffix in (".aff", ".dic") and dic is None:
        base = base.with_suffix("")
    aff_path = base if base.suffix == ".aff" else base.with_name(base.name + ".aff")
    dic_path = Path(dic) if dic is not None else aff_path.with_suffix(".dic")
    for p in (aff_path, dic_path):
        if not p.is_file():
            raise HunspellUnavailableError(f"expected a Hunspell file, got no file at {p}")
    raw = read_bytes(aff_path, LexiconBuildError, "Hunspell affix file", 64 << 20)
    enc = _python_encoding(_header(raw, b"SET") or "ISO8859-1", str(aff_path))
    d = HunspellDictionary(encoding=enc, aff_path=aff_path, dic_path=dic_path)
    ftype = _header(raw, b"FLAG")
    if ftype is not None:
        if ftype not in ("long", "num", "UTF-8"):
            raise LexiconBuildError(f"expected FLAG long, num or UTF-8, got FLAG {ftype!r} in {aff_path}")
        d.flag_type = ftype
    text = raw.decode(enc, errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    problems: list[str] = []
    aliases: list[frozenset[str]] = []
    lines = text.splitlines()
    i = 0
    single = {"NEEDAFFIX": "needaffix", "PSEUDOROOT": "needaffix", "ONLYINCOMPOUND": "onlyincompound",
              "FORBIDDENWORD": "forbiddenword", "CIRCUMFIX": "circumfix"}
    while i < len(lines):
        parts = lines[i].split()
        i += 1
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        where = f" at {aff_path}:{i}"
        if key in single and len(parts) >= 2:
            fl = parse_flags(parts[1], d.flag_type, where=where)
            setattr(d, single[key], next(iter(fl)) if fl else None)
        elif key == "FULLSTRIP":
            d.fullstrip = True
        elif key == "COMPLEXPREFIXES":
            d.complexprefixes = True
        elif key == "IGNORE" and len(parts) >= 2:
            d.ignore = parts[1]
        elif key == "AF" and len(parts) >= 2 and parts[1].isdigit() and not aliases:
            n = int(parts[1])
            for _ in range(n):
                if i >= len(lines):
                    break
                ap = lines[i].split()
                i += 1
                if len(ap) >= 2 and ap[0] == "AF":
                    aliases.append(parse_flags(ap[1], d.flag_type, where=f" at {aff_path}:{i}"))
                else:
                    problems.append(f"expected an AF line, got {lines[i - 1]!r} at {aff_path}:{i}")
        elif key in ("PFX", "SFX") and len(parts) >= 4 and parts[2] in ("Y", "N") and parts[3].isdigit():
            flag = next(iter(parse_flags(parts[1], d.flag_type, where=where)))
            cross = parts[2] == "Y"
            table = d.prefixes if key == "PFX" else d.suffixes
            rules = table.setdefault(flag, [])
            for _ in range(int(parts[3])):
                if i >= len(lines):
                    problems.append(f"expected {parts[3]} {key} {parts[1]} rules, the file ended{where}")
                    break
                rp = lines[i].split()
                i += 1
                if len(rp) < 4 or rp[0] != key or rp[1] != parts[1]:
                    problems.append(f"expected a {key} {parts[1]} rule, got {lines[i - 1]!r} at {aff_path}:{i}")
                    continue
                strip = "" if rp[2] == "0" else rp[2]
                add = rp[3]
                cont: frozenset[str] = frozenset()
                if "/" in add:
                    add, cf = add.split("/", 1)
                    cont = parse_flags(cf, d.flag_type, aliases, where=f" at {aff_path}:{i}")
                if add == "0":
                    add = ""
                cond = rp[4] if len(rp) >= 5 else "."
                if d.ignore:
                    add = "".join(c for c in add if c not in d.ignore)
                rules.append(AffixRule(key, flag, strip, add, cont, cond, cross,
                                       _condition_regex(cond, key == "SFX")))
    # .dic
    draw = read_bytes(dic_path, LexiconBuildError, "Hunspell dictionary", 256 << 20).decode(enc, errors="replace")
    if draw.startswith("\ufeff"):
        draw = draw[1:]
    dlines = draw.splitlines()
    start = 0
    while start < len(dlines) and not dlines[start].strip():
        start += 1
    if start < len(dlines) and dlines[start].strip().isdigit():
        start += 1
    else:
        problems.append(f"expected the word count on the first line, got {dlines[start][:40]!r} in {dic_path}"
                        if start < len(dlines) else f"expected a word count, got an empty file {dic_path}")
    entries = d.entries
    for n, line in enumerate(dlines[start:], start + 1):
        if not line or line[0] in "#\t " or not line.strip():
            continue  # comments (Hunspell skips tab-indented lines too)
        word, fl = _split_dic_line(line)
        if d.ignore:
            word = "".join(c for c in word if c not in d.ignore)
        try:
            flags = parse_flags(fl, d.flag_type, aliases, where=f" at {dic_path}:{n}")
        except LexiconBuildError as e:
            problems.append(str(e))
            continue
        entries.append((word, flags))
    if problems:
        more = f" (and {len(problems) - 20} more)" if len(problems) > 20 else ""
        raise LexiconBuildError(f"{plural(len(problems), 'problem')} reading {base}: " + "; ".join(problems[:20]) + more)
    return d


# --------------------------------------------------------------------------- checkers
class HunspellProgramChecker:
    """Runs ``hunspell -d <base> -G -i UTF-8`` on batches of words (one per line)."""

    name = "hunspell program"

    def __init__(self, base: str | os.PathLike[str], program: str | None = None, batch: int = 200_000):
        prog = program or shutil.which("hunspell")
        if prog is None:
            raise HunspellUnavailableError("expected the `hunspell` program on PATH, got none")
        self.program = prog
        self.base = str(Path(base).with_suffix("") if str(base).endswith((".aff", ".dic")) else base)
        for ext in (".aff", ".dic"):
            if not Path(self.base + ext).is_file():
                raise HunspellUnavailableError(f"expected a Hunspell dictionary file, got no file at {self.base}{ext}")
        self.batch = batch

    def check(self, words: Iterable[str], progress: Callable[[int], None] | None = None) -> set[str]:
        """The subset of ``words`` that Hunspell accepts.  Words must not contain line breaks."""
        accepted: set[str] = set()
        chunk: list[str] = []
        done = 0
        env = dict(os.environ, LC_ALL="C.UTF-8")

        def run(ws: list[str]) -> None:
            data = ("\n".join(ws) + "\n").encode("utf-8")
            proc = subprocess.run([self.program, "-d", self.base, "-G", "-i", "UTF-8"], input=data,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            err = proc.stderr.decode("utf-8", "replace").strip()[:300]
            if proc.returncode not in (0, 1) or "Can't open" in err:
                raise HunspellUnavailableError(
                    f"expected `hunspell -d {self.base} -G` to succeed, got exit status {proc.returncode}: {err}")
            asked = set(ws)
            for line in proc.stdout.decode("utf-8", "replace").splitlines():
                # -G prints accepted tokens; keep only whole words we asked about
                if line in asked:
                    accepted.add(line)

        for w in words:
            chunk.append(w)
            if len(chunk) >= self.batch:
                run(chunk)
                done += len(chunk)
                chunk = []
                if progress:
                    progress(done)
        if chunk:
            run(chunk)
            done += len(chunk)
            if progress:
                progress(done)
        return accepted


class _PerWordChecker:
    name = ""

    def _ok(self, word: str) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def check(self, words: Iterable[str], progress: Callable[[int], None] | None = None) -> set[str]:
        out = set()
        for n, w in enumerate(words, 1):
            if self._ok(w):
                out.add(w)
            if progress and n % 50_000 == 0:
                progress(n)
        return out


class BindingChecker(_PerWordChecker):
    """A compiled Python binding: ``hunspell`` (pyhunspell) or ``cyhunspell``."""

    def __init__(self, base: str | os.PathLike[str]):
        b = str(base)
        try:
            import hunspell as hs  # type: ignore[import-not-found]
        except ImportError:
            raise HunspellUnavailableError("expected the Python module `hunspell`, got none") from None
        if hasattr(hs, "HunSpell"):  # pyhunspell
            self._h = hs.HunSpell(b + ".dic", b + ".aff")
            self.name = "pyhunspell binding"
        elif hasattr(hs, "Hunspell"):  # cyhunspell
            p = Path(b)
            self._h = hs.Hunspell(p.name, hunspell_data_dir=str(p.parent))
            self.name = "cyhunspell binding"
        else:
            raise HunspellUnavailableError("expected a `hunspell` module with HunSpell or Hunspell, got neither")

    def _ok(self, word: str) -> bool:
        return bool(self._h.spell(word))


class SpyllsChecker(_PerWordChecker):
    """The pure-Python Hunspell port ``spylls``: it replaces the program (German: 726,440 forms in
    about 80 s against 5 s; 539,875 words against 539,879, ten forms of ``weißmachen`` differ)."""

    name = "spylls (pure Python)"

    def __init__(self, base: str | os.PathLike[str]):
        try:
            from spylls.hunspell import Dictionary  # type: ignore[import-not-found]
        except ImportError:
            raise HunspellUnavailableError("expected the Python package `spylls`, got none") from None
        self._d = Dictionary.from_files(str(base))

    def _ok(self, word: str) -> bool:
        return bool(self._d.lookup(word))


CHECKERS = {"program": HunspellProgramChecker, "binding": BindingChecker, "spylls": SpyllsChecker}


def find_checker(base: str | os.PathLike[str], prefer: str | None = None):
    """The first Hunspell backend that works for dictionary ``base`` (path without extension).

    Order: the ``hunspell`` program, a Python binding, ``spylls``.  ``prefer``
    (``"program"``, ``"binding"``, ``"spylls"``) forces one.  Raises
    :class:`HunspellUnavailableError` that lists what was tried and how to get one.
    """
    order = [prefer] if prefer else ["program", "binding", "spylls"]
    tried = []
    for name in order:
        cls = CHECKERS.get(name)
        if cls is None:
            raise LexiconBuildError(f"expected a checker name ({', '.join(CHECKERS)}), got {name!r}")
        try:
            return cls(base)
        except HunspellUnavailableError as e:
            tried.append(f"{name}: {e}")
        except Exception as e:  # noqa: BLE001 - a broken binding must not hide the next backend
            tried.append(f"{name}: {type(e).__name__}: {e}")
    raise HunspellUnavailableError(
        "no Hunspell backend to check the generated forms; tried " + "; ".join(tried)
        + ". Install the `hunspell` program (Debian/Ubuntu: apt-get install hunspell; macOS: brew install"
        " hunspell) or `pip install 'wordsalvo[hunspell]'` (spylls, pure Python, slower)")

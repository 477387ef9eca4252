"""Lexicons: compiled word graphs, read into memory and checked once at load.

A graph is read into the process's own memory, never mapped: a mapped file that is
rewritten under the process (``cp new.wsg live.wsg``, the usual way to update a
lexicon a service has loaded) changed the bytes the move generator walks after the
check (a crash), and one truncated under it killed the process with SIGBUS (a private
mapping does not help against that).  A copy costs the file's size per process
(English 4.6 MB) and about the time of the arc check it is read for anyway (README,
"Our own figures")."""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Callable, Iterator


from .._core import _graph
from ..alphabet import ALPHABETS, Alphabet, get_alphabet
from ..cache import cached_graph_path, verified_graph_marker
from ..constants import LETTER_MASK
from ..errors import LexiconBuildError, LexiconFormatError, WordSalvoError
from .graphfile import (
    BuildStats,
    compile_bytes,
    FormatProblem,
    HEADER_SIZE,
    LONGEST_OFFSET,
    looks_like_word_list,
    read_house_list,
    read_source,
    unpack_header,
    WORD_COUNT_OFFSET,
    write_atomic,
)
from ..inputs import SIZE_LIMITS, checked_path, open_regular, os_error_text

__all__ = ["Lexicon", "compile_lexicon", "BuildStats", "BUILT_ON_DEMAND"]

#: languages whose lexicon `wordsalvo lexicon fetch` builds on the user's machine (German is not
#: embedded; Turkish is, and can be rebuilt): the keys of ``wordsalvo.lexicon.fetch.RECIPES``
BUILT_ON_DEMAND = ("de", "tr")


def compile_lexicon(
    source: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    alphabet: str | Alphabet = "en",
    progress: Callable[[str, float], None] | None = None,
    add: str | os.PathLike[str] | None = None,
    remove: str | os.PathLike[str] | None = None,
) -> BuildStats:
    """Compiles a word list (UTF-8, one word per line, ``.gz`` accepted) into a graph file.

    Every line is normalised with the alphabet's table (see
    :meth:`wordsalvo.Alphabet.normalize`); dropped lines are counted by reason,
    with the first examples, in the returned :class:`BuildStats`.  The file is
    written atomically, and the same input always gives the same bytes.

    ``add`` / ``remove``: a table's house list, files of words (one a line, ``#``
    comments) added to or removed from the list; every line of them must be a word
    of the alphabet (one :class:`LexiconBuildError` names each file and line that is
    not).  The build report counts what they changed.
    """
    if not isinstance(alphabet, (str, Alphabet)):
        raise LexiconBuildError(f"alphabet: expected a language name such as 'en' or an Alphabet, "
                                f"got {type(alphabet).__name__}")
    alpha = get_alphabet(alphabet)
    src = checked_path(source, LexiconBuildError, "word list")
    dest = checked_path(dest, LexiconBuildError, "graph file")
    house = {key: (str(path), read_house_list(checked_path(path, LexiconBuildError, f"--{key} list"), alpha))
             for key, path in (("add", add), ("remove", remove)) if path is not None}
    try:
        text = read_source(src)
    except LexiconBuildError:
        raise
    except OSError as e:
        raise LexiconBuildError(os_error_text(src, e, "cannot read the word list")) from None
    except EOFError as e:
        raise LexiconBuildError(f"{src}: truncated gzip data: {e}") from None
    except Exception as e:  # gzip.BadGzipFile, zlib.error
        raise LexiconBuildError(f"{src}: cannot decompress: {e}") from None
    try:
        data, stats = compile_bytes(text, alpha, _graph, source=str(src), output=str(dest), progress=progress,
                                              **house)
    except LexiconBuildError as e:
        raise LexiconBuildError(f"{src}: {e}") from None
    try:
        write_atomic(dest, data)
    except OSError as e:
        raise LexiconBuildError(os_error_text(dest, e, "cannot write the graph file")) from None
    return stats


class Lexicon:
    """A compiled word graph (DAWG for lookups, GADDAG for move generation).

    Load with :meth:`load` (any ``.wsg`` file) or :meth:`default` (the embedded
    lexicon of a language).  The file is read into memory (the process's own copy: a
    file rewritten or truncated after the load changes nothing); the header and every
    arc are checked once, so a corrupt file raises :class:`LexiconFormatError` and
    never crashes.  Lexicons are immutable and may be shared between threads.

    A lexicon pickles by reference: one loaded from a file as its path (the file is
    loaded again on unpickling and must still hold the same word list: its sha256 is
    checked), an embedded one as its language, one made from bytes as those bytes.
    So it can go to worker processes and Dask workers that see the same file.
    """

    __slots__ = ("path", "alphabet", "header", "_graph", "_origin", "__weakref__")

    def __init__(self, *args, **kwargs):  # pragma: no cover - guidance only
        raise TypeError("use Lexicon.load(path) or Lexicon.default(language)")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Lexicon":
        """Load a graph file: header, every arc and the checksums always; the word-level
        check (both halves counted, the GADDAG against the DAWG: most of the time of a
        large graph) once per content: a content that passed it is remembered in the
        user's cache folder by its sha256 (:func:`wordsalvo.cache.verified_graph_marker`),
        so loading the same bytes again (another command, a worker process) skips it."""
        return cls._load(path, checked=None)

    @classmethod
    def _load(cls, path: str | os.PathLike[str], checked: bool | None = False) -> "Lexicon":
        """``checked``: a graph this package compiled and checked word by word itself (its
        embedded graphs, checked by the package build; a cache file with a matching
        :func:`checked_stamp`): at load every arc and the checksums are checked, the
        word-level check is not run again (it is most of the load time of a large graph).
        None: whether the content (by sha256) passed the word-level check before."""
        p = checked_path(path, LexiconFormatError, "graph file")
        try:
            fd, _size = open_regular(p, LexiconFormatError, "graph file")  # no FIFO, device or folder
        except LexiconFormatError as e:
            e.path = str(p)
            raise
        data = _read_graph(fd, _size, p)
        if not len(data):
            raise LexiconFormatError(f"truncated header: expected {HEADER_SIZE} bytes, got 0", str(p), 0)
        marker = None
        if checked is None:
            marker = verified_graph_marker(WORD_CHECK, hashlib.sha256(data).hexdigest())
            checked = marker.is_file()
        lex = cls._from_buffer(data, len(data), str(p), checked)
        lex._origin = ("path", os.path.abspath(p))
        if marker is not None and not checked:
            _remember_verified(marker)
        return lex

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "<bytes>") -> "Lexicon":
        """A lexicon from the bytes of a graph file (checked like a file)."""
        buf = bytes(data)
        lex = cls._from_buffer(buf, len(buf), name)
        lex._origin = ("bytes", buf)
        return lex

    @classmethod
    def _from_buffer(cls, buf, size: int, name: str, checked: bool = False) -> "Lexicon":
        try:
            header = unpack_header(memoryview(buf)[: HEADER_SIZE], size)
        except FormatProblem as e:
            if looks_like_word_list(bytes(memoryview(buf)[:512])):
                raise LexiconFormatError(
                    f"expected a graph file (.wsg), got what looks like a word list ({e.message}); build a "
                    f"graph from it "
                    f"first: `wordsalvo lexicon build {name} -o {Path(name).stem}.wsg --alphabet LANG` "
                    f"(or ws.compile_lexicon)", name, 0) from None
            raise LexiconFormatError(e.message, name, e.offset) from None
        try:
            alphabet = get_alphabet(header.alphabet_name)
        except Exception:
            alphabet = None
        if alphabet is None or tuple(alphabet.letters) != header.letters:
            raise LexiconFormatError(
                f"unknown alphabet {header.alphabet_name!r} with letters {''.join(header.letters)!r}", name, 88
            )
        if sys.byteorder != "little":  # pragma: no cover - big-endian hosts: copy and swap
            import array

            a = array.array("I", bytes(memoryview(buf)[HEADER_SIZE:]))
            a.byteswap()
            view = memoryview(a)
            owner = a
        else:
            view = memoryview(buf)[HEADER_SIZE:].cast("I")
            owner = buf
        # checks every arc and the checksums; raises LexiconFormatError (never builds a bad graph)
        g = _graph.Graph(owner, view, header.alphabet_size, name=name, offset=HEADER_SIZE,
                         checksums=(header.node_sum, header.node_weighted_sum),
                         trusted=(header.word_count, header.longest_word) if checked else None)
        if g.word_count != header.word_count:
            raise LexiconFormatError(f"the header promises {header.word_count:,} words, the graph holds "
                                     f"{g.word_count:,}", name, WORD_COUNT_OFFSET)
        if g.longest_word != header.longest_word:
            raise LexiconFormatError(f"the header promises a longest word of {header.longest_word} letters, "
                                     f"the graph's has {g.longest_word}", name, LONGEST_OFFSET)
        lex = object.__new__(cls)
        lex.path = name
        lex.alphabet = alphabet
        lex.header = header
        lex._graph = g
        return lex

    @classmethod
    def default(cls, language: str = "en") -> "Lexicon":
        """The embedded lexicon of a language (or one built with ``wordsalvo lexicon fetch``)."""
        return _default_lexicon(language)

    # -- queries ------------------------------------------------------------------
    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        codes = self._encode(word)
        return codes is not None and self._graph.contains(codes)

    def _encode(self, word: str) -> bytes | None:
        mapping = self.alphabet.mapping
        out = []
        for ch in word:
            m = mapping.get(ch)
            if m is None:
                return None
            out.append(m)
        s = "".join(out)
        try:
            return self.alphabet.encode(s)
        except Exception:
            return None

    def contains_codes(self, codes: bytes) -> bool:
        """Membership of a word given as tile codes (blank bits ignored)."""
        return self._graph.contains(bytes(c & LETTER_MASK for c in codes))

    def __len__(self) -> int:
        return self.header.word_count

    def __iter__(self) -> Iterator[str]:
        decode = self.alphabet.decode
        for w in self._graph.dawg_words():
            yield decode(w)

    @property
    def word_count(self) -> int:
        return self.header.word_count

    @property
    def node_count(self) -> int:
        return self.header.node_count

    @property
    def sha256(self) -> str:
        return self.header.sha256

    @property
    def file_size(self) -> int:
        return HEADER_SIZE + 4 * self.header.node_count

    def __repr__(self) -> str:
        return f"<Lexicon {self.path!r} alphabet={self.alphabet.name} words={self.word_count}>"

    # -- pickling -------------------------------------------------------------------
    def __reduce__(self) -> tuple:
        kind, what = self._origin
        if kind == "default":
            return (Lexicon.default, (what,))
        if kind == "bytes":
            return (Lexicon.from_bytes, (what, self.path))
        return (_load_for_pickle, (what, self.header.sha256))


def _read_graph(fd: int, size: int, p: Path) -> memoryview:
    """The whole file of an open descriptor (closed here), read into memory (a read-only
    view of a LargeBuffer, on 2 MiB pages where the system gives them, filled by the
    reads without a copy): the bytes the graph's checks
    and every later walk see are the process's own.  A file that changes size while read
    is read again (up to three times), then refused."""
    limit = SIZE_LIMITS["graph file"]
    with os.fdopen(fd, "rb", buffering=0) as f:
        for _ in range(3):
            buf = _graph.LargeBuffer(size + 1)  # one byte more: a file that grew is seen
            view = memoryview(buf)
            got = 0
            try:
                while got < len(buf):
                    n = f.readinto(view[got:])
                    if not n:
                        break
                    got += n
            except OSError as e:
                raise LexiconFormatError(os_error_text(p, e, "cannot read the graph file"), str(p)) from None
            finally:
                view.release()
            if got == size:
                return memoryview(buf)[:size].toreadonly()
            size = os.fstat(f.fileno()).st_size  # it changed while read: again, from the start
            if size > limit:
                break
            f.seek(0)
    raise LexiconFormatError("the file changed while it was read (written by another process?); "
                             "expected the same size at the end as at the start", str(p))


def _load_for_pickle(path: str, sha256: str) -> "Lexicon":
    lex = Lexicon.load(path)
    if lex.header.sha256 != sha256:
        raise LexiconFormatError(f"the file holds another word list than the pickled lexicon (word list sha256 "
                                 f"{lex.header.sha256[:12]}..., expected {sha256[:12]}...)", path)
    return lex


_DEFAULTS: dict[str, Lexicon] = {}

#: the version of the word-level graph check; a content verified by another version is checked again
WORD_CHECK = "words1"


def _remember_verified(marker: Path) -> None:
    """Record that a graph content passed the word-level check (best effort: a cache
    folder that cannot be written only costs the check again next time)."""
    try:
        write_atomic(marker, b"")
    except (OSError, WordSalvoError):
        pass

#: (small sha256, big sha256) -> whether every word of small is in big
_SUBSETS: dict[tuple[str, str], bool] = {}


def _is_subset(small: Lexicon, big: Lexicon, known: bool | None = None) -> bool:
    """Whether every word of ``small`` is in ``big`` (same alphabet), remembered per pair of
    files; ``known``: record the answer of a caller that built ``small`` from ``big``."""
    key = (small.sha256, big.sha256)
    if known is not None:
        _SUBSETS[key] = known
    ok = _SUBSETS.get(key)
    if ok is None:
        ok = small.alphabet.letters == big.alphabet.letters and all(w in big for w in small)
        _SUBSETS[key] = ok
    return ok


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".checked")


def _file_identity(path: Path) -> dict:
    st = path.stat()
    with open(path, "rb") as f:
        head = f.read(HEADER_SIZE)
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "header": head.hex()}


def write_checked_stamp(path: str | os.PathLike[str]) -> Lexicon:
    """Load the graph this package has just written into the cache folder with the full
    check, and write ``<file>.checked`` beside it (its size, modification time and
    header): :func:`load_cached` then skips the word-level check while the file is the
    same.  Returns the lexicon."""
    import json

    p = Path(path)
    lex = Lexicon.load(p)
    write_atomic(_stamp_path(p), json.dumps(_file_identity(p)).encode("ascii"))
    return lex


def load_cached(path: str | os.PathLike[str]) -> Lexicon:
    """A graph of the cache folder: without the word-level check when its ``.checked`` stamp
    (:func:`write_checked_stamp`) matches the file, else as :meth:`Lexicon.load` (the word-level
    check once per content)."""
    import json

    p = Path(path)
    checked = False
    try:
        checked = json.loads(_stamp_path(p).read_text("ascii")) == _file_identity(p)
    except (OSError, ValueError):
        pass
    return Lexicon._load(p, checked=checked or None)


def _default_lexicon(language: str) -> Lexicon:
    lex = _DEFAULTS.get(language)
    if lex is not None:
        return lex
    name = f"{language}.wsg"
    try:
        res = resources.files("wordsalvo.data").joinpath(name)
        if res.is_file():
            with resources.as_file(res) as p:
                lex = Lexicon._load(p, checked=True)
    except (FileNotFoundError, ModuleNotFoundError):
        lex = None
    if lex is None:
        p = cached_graph_path(language)  # built on demand (German, ...)
        if p is not None and Path(p).is_file():
            lex = load_cached(p)
    if lex is None:
        if language in BUILT_ON_DEMAND:
            hint = f"not built yet: `wordsalvo lexicon fetch {language}` builds it on this machine"
        elif language in ALPHABETS:
            hint = "it should be embedded in the package: reinstall wordsalvo"
        else:
            data = resources.files("wordsalvo.data")
            embedded = [lang for lang in sorted(ALPHABETS) if data.joinpath(f"{lang}.wsg").is_file()]
            fetch = [lang for lang in BUILT_ON_DEMAND if lang not in embedded]
            hint = (f"expected one of {', '.join(sorted(ALPHABETS))} (embedded: {', '.join(embedded)}"
                    + "".join(f"; {lang} after `wordsalvo lexicon fetch {lang}`" for lang in fetch)
                    + "), or a graph of your own with Lexicon.load (`wordsalvo lexicon build` makes one "
                    "from a word list)")
        raise LexiconFormatError(f"no lexicon for language {language!r}: {hint}")
    lex._origin = ("default", language)
    _DEFAULTS[language] = lex
    return lex

"""The graph file format (``.wsg``) and the compiler's orchestration.

This module imports only :mod:`wordsalvo.alphabet` (and through it the
constants), the errors, :mod:`wordsalvo.inputs` and :mod:`wordsalvo.wording`, and
receives the C wrapper module and the alphabet as arguments, so the package build
can load it by path (before the package is installed) to compile the embedded lexicons.
See ``docs/graph-format.md`` for the format.

Layout (little-endian)::

    offset size  field
    0      8     magic b"WSGRAPH\\x1a"
    8      4     format version (1)
    12     4     header size in bytes (256)
    16     4     node count (entries of the node array)
    20     4     word count
    24     4     alphabet size (letters, 1..32)
    28     4     longest word (letters)
    32     4     distinct states before layout
    36     4     flags (0)
    40     8     node sum            (sum of all node words, mod 2**64)
    48     8     node weighted sum   (sum of the running sums, mod 2**64)
    56     32    sha256 of the normalised word list (UTF-8, sorted by code point, one word + LF per line)
    88     8     alphabet name, ASCII, NUL padded
    96     128   letters: 32 slots of 4 bytes, UTF-8, NUL padded
    224    28    reserved, zero
    252    4     header checksum: FNV-1a 32 of bytes 0..251
    256    4*n   nodes (uint32)
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..alphabet import LINE_COMMENT, LINE_EMPTY, LINE_REASONS
from ..errors import LexiconBuildError
from ..inputs import excerpt, write_atomic
from ..wording import plural

MAGIC = b"WSGRAPH\x1a"
VERSION = 1
HEADER_SIZE = 256
_HEADER = struct.Struct("<8sIIIIIIII QQ 32s 8s 128s 28x I")
assert _HEADER.size == HEADER_SIZE
#: byte offsets of the header fields the loader checks against the graph itself
WORD_COUNT_OFFSET = 20
LONGEST_OFFSET = 28

_REASONS = LINE_REASONS
#: lines that are not words at all and are not worth a warning
QUIET_REASONS = {LINE_REASONS[LINE_EMPTY], LINE_REASONS[LINE_COMMENT]}


def fnv1a32(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


@dataclass
class GraphHeader:
    version: int
    node_count: int
    word_count: int
    alphabet_size: int
    longest_word: int
    state_count: int
    flags: int
    node_sum: int
    node_weighted_sum: int
    sha256: str
    alphabet_name: str
    letters: tuple[str, ...]

    def pack(self) -> bytes:
        letters = b"".join(ch.encode("utf-8").ljust(4, b"\0") for ch in self.letters).ljust(128, b"\0")
        body = _HEADER.pack(
            MAGIC, self.version, HEADER_SIZE, self.node_count, self.word_count, self.alphabet_size,
            self.longest_word, self.state_count, self.flags, self.node_sum, self.node_weighted_sum,
            bytes.fromhex(self.sha256), self.alphabet_name.encode("ascii").ljust(8, b"\0"), letters, 0,
        )
        return body[:252] + struct.pack("<I", fnv1a32(body[:252]))


class FormatProblem(Exception):
    """A problem of a graph file: message and byte offset."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset


def unpack_header(data: bytes | memoryview, file_size: int) -> GraphHeader:
    """Checks and decodes a header; raises FormatProblem naming what is wrong."""
    if file_size < HEADER_SIZE:
        raise FormatProblem(f"truncated header: expected {HEADER_SIZE} bytes, got {file_size}", file_size)
    head = bytes(data[:HEADER_SIZE])
    if head[:8] != MAGIC:
        raise FormatProblem(f"bad magic: expected {MAGIC!r}, got {head[:8]!r} (not a wordsalvo graph file)", 0)
    (magic, version, header_size, node_count, word_count, alphabet_size, longest, states, flags,
     node_sum, node_wsum, sha, name, letters, checksum) = _HEADER.unpack(head)
    if version != VERSION:
        raise FormatProblem(f"unsupported version {version} (this wordsalvo reads version {VERSION})", 8)
    if header_size != HEADER_SIZE:
        raise FormatProblem(f"bad header size: expected {HEADER_SIZE}, got {header_size}", 12)
    if fnv1a32(head[:252]) != checksum:
        raise FormatProblem("header checksum mismatch (the header is corrupt)", 252)
    if not 1 <= alphabet_size <= 32:
        raise FormatProblem(f"bad alphabet size: expected 1..32, got {alphabet_size}", 24)
    expected = HEADER_SIZE + 4 * node_count
    if file_size < expected:
        raise FormatProblem(
            f"truncated node array: expected {expected} bytes for {node_count} nodes, got {file_size}", file_size
        )
    if file_size > expected:
        raise FormatProblem(f"trailing data: expected {expected} bytes, got {file_size}", expected)
    try:
        letter_list = tuple(
            letters[4 * i: 4 * i + 4].rstrip(b"\0").decode("utf-8") for i in range(alphabet_size)
        )
        alphabet_name = name.rstrip(b"\0").decode("ascii")
    except UnicodeDecodeError:
        raise FormatProblem("letters or alphabet name are not valid text", 88) from None
    if any(not x for x in letter_list):
        raise FormatProblem("empty letter in the alphabet table", 96)
    return GraphHeader(
        version, node_count, word_count, alphabet_size, longest, states, flags, node_sum, node_wsum,
        sha.hex(), alphabet_name, letter_list,
    )


@dataclass
class BuildStats:
    """What a compile did: counts, drops by reason with first examples, sizes, times."""

    source: str
    output: str
    alphabet: str
    lines: int = 0
    words: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    node_count: int = 0
    state_count: int = 0
    file_size: int = 0
    sha256: str = ""
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)
    #: the house list: words added that the list did not have, and how many it had already
    added: int = 0
    added_present: int = 0
    #: words removed that the list had, and the words to remove that it did not have
    removed: int = 0
    removed_absent: list[str] = field(default_factory=list)
    house: dict[str, str] = field(default_factory=dict)

    @property
    def dropped_total(self) -> int:
        return sum(self.dropped.values())

    def report(self) -> str:
        out = [
            f"{self.output}: {plural(self.words, 'word')} from {plural(self.lines, 'line')} of {self.source} "
            f"(alphabet {self.alphabet})",
            f"  graph: {plural(self.node_count, 'node')}, {plural(self.file_size, 'byte')}, "
            f"built in {self.seconds:.2f} s",
            f"  word list sha256: {self.sha256}",
        ]
        if "add" in self.house:
            already = f" ({self.added_present:,} already in the list)" if self.added_present else ""
            out.append(f"  added {plural(self.added, 'word')} of {self.house['add']}{already}")
        if "remove" in self.house:
            absent = ""
            if self.removed_absent:
                shown = ", ".join(self.removed_absent[:5]) + (" ..." if len(self.removed_absent) > 5 else "")
                absent = f" ({len(self.removed_absent):,} not in the list: {shown})"
            out.append(f"  removed {plural(self.removed, 'word')} of {self.house['remove']}{absent}")
        if self.dropped:
            out.append(f"  dropped {plural(self.dropped_total, 'line')}:")
            for reason, n in sorted(self.dropped.items(), key=lambda kv: -kv[1]):
                ex = ", ".join(f"line {ln}: {excerpt(txt, 60)}" for ln, txt in self.examples.get(reason, [])[:3])
                out.append(f"    {n:>9,}  {reason}" + (f"  (e.g. {ex})" if ex else ""))
        return "\n".join(out)


def looks_like_word_list(head: bytes) -> bool:
    """Whether the first bytes of a file look like a word list (gzip, or text without
    control characters) rather than a graph file."""
    if head.startswith(b"\x1f\x8b"):
        return True
    text = head.decode("utf-8", "ignore")
    return bool(text.strip()) and not head.startswith(MAGIC[:4]) and all(
        ch.isprintable() or ch in "\r\n\t" for ch in text)


def read_house_list(path: str | os.PathLike[str], alphabet: Any) -> list[str]:
    """The words of a house list (one a line, ``#`` comments and blank lines skipped,
    ``.gz`` accepted), normalised with ``alphabet``.  Every line that is not a word of
    the alphabet is named (file, line, what came) in one :class:`LexiconBuildError`."""
    p = Path(path)
    try:
        text = read_source(p).decode("utf-8")
    except LexiconBuildError:
        raise
    except OSError as e:
        raise LexiconBuildError(f"{p}: cannot read the word list: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise LexiconBuildError(f"{p}: expected UTF-8 text, got byte 0x{e.object[e.start]:02x} at offset {e.start}") from None
    except Exception as e:  # gzip.BadGzipFile, EOFError, zlib.error
        raise LexiconBuildError(f"{p}: cannot decompress: {e}") from None
    words, problems = [], []
    for n, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        word, code = alphabet.normalize(entry)
        if word is None:
            problems.append(f"{p}, line {n}: expected a word of 2..15 letters of alphabet {alphabet.name!r}, "
                            f"got {entry!r} ({_REASONS.get(code, code)})")
        else:
            words.append(word)
    if problems:
        head = f"{p}: {plural(len(problems), 'line')} not a word of alphabet {alphabet.name!r}"
        raise LexiconBuildError(head + ":\n  " + "\n  ".join(problems))
    return words


def _utf8_tables(alphabet) -> tuple[bytes, bytes]:
    """The compiler's tables to write its words as UTF-8 sorted by code point: each
    letter's UTF-8 in 4 bytes, and each tile code's rank in code-point order."""
    letter_utf8 = b"".join(ch.encode("utf-8").ljust(4, b"\0") for ch in alphabet.letters).ljust(128, b"\0")
    order = sorted(range(alphabet.size), key=lambda i: alphabet.letters[i])
    rank = bytearray(33)
    for r, i in enumerate(order):
        rank[i + 1] = r + 1
    return letter_utf8, bytes(rank)


def _apply_house_list(wb, graph_module, alphabet, stats: BuildStats, add, remove):
    """The unique words of ``wb`` with the house list's words added and removed, parsed
    again (the normalised words need no second check); counts go to ``stats``."""
    letter_utf8, rank = _utf8_tables(alphabet)
    words = set(wb.to_utf8(letter_utf8, rank).decode("utf-8").split())
    if add is not None:
        stats.house["add"], new = add[0], set(add[1])
        stats.added_present, stats.added = len(new & words), len(new - words)
        words |= new
    if remove is not None:
        stats.house["remove"], gone = remove[0], set(remove[1])
        stats.removed, stats.removed_absent = len(gone & words), sorted(gone - words)
        words -= gone
    wb = graph_module.parse_wordlist("\n".join(sorted(words)).encode("utf-8"), alphabet.mapping_table())
    unique = wb.sort_unique()
    stats.words = unique
    return wb, unique


def read_source(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a word list (a regular file, ``.gz`` accepted), at most the word
    list limit (:data:`wordsalvo.inputs.SIZE_LIMITS`) before and after decompression."""
    from ..errors import LexiconBuildError
    from ..inputs import SIZE_LIMITS, read_bytes

    limit = SIZE_LIMITS["word list"]
    data = read_bytes(path, LexiconBuildError, "word list")
    if data[:2] == b"\x1f\x8b":
        import zlib

        out = bytearray()
        rest = data
        try:
            while rest:
                d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                out += d.decompress(rest, limit + 1 - len(out))
                if len(out) > limit or d.unconsumed_tail:
                    raise LexiconBuildError(f"{path}: expected a word list of at most {limit:,} bytes "
                                            f"uncompressed, got more")
                if not d.eof:
                    raise LexiconBuildError(f"{path}: the gzip data is truncated")
                rest = d.unused_data
        except zlib.error as e:
            raise LexiconBuildError(f"{path}: expected gzip data, got a corrupt stream ({e})") from None
        data = bytes(out)
    return data


def compile_bytes(
    text: bytes,
    alphabet: Any,
    graph_module: Any,
    *,
    source: str = "<bytes>",
    output: str = "<memory>",
    progress: Callable[[str, float], None] | None = None,
    add: tuple[str, list[str]] | None = None,
    remove: tuple[str, list[str]] | None = None,
) -> tuple[bytes, BuildStats]:
    """Compiles word-list text into the bytes of a graph file.

    ``add`` / ``remove``: a house list, (its name, its normalised words; see
    :func:`read_house_list`): words added to or removed from the list after it is
    read (the drop counts and line numbers are those of ``text``)."""
    t0 = time.perf_counter()
    phases: dict[str, float] = {}

    def step(name: str, frac: float) -> None:
        if progress:
            progress(name, frac)

    stats = BuildStats(source=source, output=output, alphabet=alphabet.name)
    step("parsing", 0.0)
    wb = graph_module.parse_wordlist(text, alphabet.mapping_table())
    phases["parse"] = time.perf_counter() - t0
    step("sorting", 0.2)
    t1 = time.perf_counter()
    unique = wb.sort_unique()
    phases["sort"] = time.perf_counter() - t1
    stats.lines = wb.lines
    stats.words = unique
    status = wb.line_status
    if add is not None or remove is not None:
        wb, unique = _apply_house_list(wb, graph_module, alphabet, stats, add, remove)
    counts: dict[int, int] = {}
    for code in set(status) - {0}:
        counts[code] = status.count(code)
    if counts:
        lines = text.split(b"\n")
        if lines and lines[0].startswith(b"\xef\xbb\xbf"):
            lines[0] = lines[0][3:]
        for code, n in counts.items():
            reason = _REASONS.get(code, f"status {code}")
            stats.dropped[reason] = n
            ex = []
            start = 0
            for _ in range(3):
                i = status.find(bytes([code]), start)
                if i < 0:
                    break
                ex.append((i + 1, lines[i].decode("utf-8", "replace").rstrip("\r")))
                start = i + 1
            stats.examples[reason] = ex
    if unique == 0:
        raise LexiconBuildError(f"no word left after normalisation ({plural(stats.lines, 'line')} read)")
    step("hashing", 0.3)
    t1 = time.perf_counter()
    letter_utf8, rank = _utf8_tables(alphabet)
    utf8 = wb.to_utf8(letter_utf8, rank)
    sha = hashlib.sha256(utf8).hexdigest()
    longest = max((len(w) for w in utf8.decode("utf-8").split("\n")), default=0)
    phases["hash"] = time.perf_counter() - t1
    step("building graph", 0.4)
    t1 = time.perf_counter()
    nodes, node_count, state_count, _prefixes = wb.build()
    phases["build"] = time.perf_counter() - t1
    if sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        import array

        a = array.array("I", nodes)
        a.byteswap()
        nodes_le = a.tobytes()
    else:
        nodes_le = nodes
    s, ws = graph_module.checksum(memoryview(nodes).cast("I"))
    header = GraphHeader(
        VERSION, node_count, unique, alphabet.size, longest, state_count, 0, s, ws, sha,
        alphabet.name, tuple(alphabet.letters),
    )
    data = header.pack() + nodes_le
    stats.node_count = node_count
    stats.state_count = state_count
    stats.file_size = len(data)
    stats.sha256 = sha
    stats.seconds = time.perf_counter() - t0
    stats.phases = phases
    step("done", 1.0)
    return data, stats


def file_sha256(path: str | os.PathLike[str]) -> str:
    """sha256 of a file's bytes, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compile_file(
    source: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    alphabet: Any,
    graph_module: Any,
    progress: Callable[[str, float], None] | None = None,
) -> BuildStats:
    t0 = time.perf_counter()
    text = read_source(source)
    data, stats = compile_bytes(text, alphabet, graph_module, source=str(source), output=str(dest), progress=progress)
    write_atomic(dest, data)
    stats.seconds = time.perf_counter() - t0
    return stats

"""Leave tables and equity.

A *leave* is what a move keeps on the rack.  A leave table (:class:`Leaves`)
gives a value in points to every multiset of 1 to ``rack_size - 1`` tiles of a
rule set's tile set, blanks included (the empty leave is worth 0).

Equity
------
Engines choose by *equity*, not by score alone.  For the player on turn, with
two players, in points of spread (own score minus the opponent's):

* **While the bag holds tiles**: ``equity = score + leaves.value(leave)``.
* **With an empty bag** the leave table is not used (no tiles will be drawn);
  the end-game settlement of the rule set (``[settlement] after_out``) decides.
  Let ``V(x)`` be the face value of tiles ``x`` (blanks 0) and ``opp`` the
  unseen tiles (with an empty bag, the opponent's rack):

  - a move that goes out (keeps nothing) ends the game:
    ``equity = score + out_value``, where ``out_value`` is ``2·V(opp) + 10`` for
    ``play-out`` (the finisher gains the opponent's rack, the opponent loses it, and
    the game ends before the opponent's next turn: ``OUT_BONUS``),
    ``V(opp)`` for ``subtract-only`` and 0 for ``none``;
  - a move that keeps tiles ``leave``: ``equity = score − keep_factor·V(leave)``,
    the cost of those tiles if the opponent goes out next: ``keep_factor`` is 2
    for ``play-out``, 1 for ``subtract-only``, 0 for ``none``.

  Turkish settles on going out like ``play-out`` (the finisher is credited
  the opponent's rack, the opponent loses it), so the same terms apply; its other
  ending (four scoreless turns with fewer than 20 tiles in the bag) has no rack
  settlement at all, and equity does not model it: with a non-empty bag Turkish
  equity is score plus leave, like every rule set.

* **More than two players**: equity is in the mover's own points, not spread:
  ``out_value`` is ``V(opp)`` (the sum of the other racks, for ``play-out``;
  0 otherwise) and ``keep_factor`` is 1 for ``play-out`` and ``subtract-only``,
  0 for ``none``.

A swap scores 0: its equity is the value of the tiles it keeps (the
``equity`` of :meth:`MoveGenerator.best_swap
<wordsalvo.MoveGenerator.best_swap>`).  Equity is a float32: the C generator
computes ``float(score) + float32(leave value)`` and the numpy columns of
:meth:`MoveList.to_numpy <wordsalvo.MoveList.to_numpy>` compute the same sum
the same way, so both order moves identically (ties: higher score first,
then the fixed move order).

File format
-----------
``.wsl``, little-endian (``docs/leaves-format.md``)::

    offset size  field
    0      8     magic b"WSLEAVE\\x1a"
    8      4     format version (1)
    12     4     header size in bytes (256)
    16     8     entry count (leaves of 1 .. rack_size - 1 tiles)
    24     1     encoding: 1 = float32 points, 2 = int16 in 1/256 points
    25     1     rack size
    26     1     tile types (letters + the blank)
    27     1     reserved, zero
    28     8     alphabet name, ASCII, NUL padded
    36     32    rule set name, UTF-8, NUL padded
    68     32    sha256 of the tile set description (:func:`tile_set_hash`)
    100    32    sha256 of the payload
    132    120   reserved, zero
    252    4     header checksum: FNV-1a 32 of bytes 0..251
    256    n*k   values by rank (k = 4 or 2 bytes)

Ranks: leaves ordered by size, then lexicographically by their tiles sorted in
tile-code order, blank first (``?``, ``??``, ``?A`` ... for English).
"""

from __future__ import annotations

import csv
import hashlib
import math
import os
import struct
import threading
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

from ._lazy import numpy as np  # loaded when a table is made

from ._core._leaves import LeaveTable
from .constants import SQUARES
from .errors import AlphabetError, LeavesError
from .inputs import write_atomic
from .inputs import excerpt, is_decimal_number, read_bytes, text_lines, whole_arg
from .rules import Rules

MAGIC = b"WSLEAVE\x1a"
VERSION = 1
HEADER_SIZE = 256
ENCODING_FLOAT32 = 1
ENCODING_INT16 = 2
#: int16 encoding: values are stored as round(value * 256)
INT16_SCALE = 256
_HEADER = struct.Struct("<8sIIQBBBx8s32s32s32s120xI")
assert _HEADER.size == HEADER_SIZE
#: encoding: (name, numpy type, bytes a value)
_ENCODINGS = {ENCODING_FLOAT32: ("float32", "<f4", 4), ENCODING_INT16: ("int16", "<i2", 2)}
_PRECISIONS = {"float32": ENCODING_FLOAT32, "int16": ENCODING_INT16}
#: the files shipped in the package, by rule set name
_DEFAULT_DIR = "data/leaves"


def _fnv1a32(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def tile_set_description(rules: Rules) -> str:
    """The text whose sha256 identifies a tile set: alphabet, rack size, and the count
    of the blank and of each letter in tile-code order."""
    dist = rules.distribution()
    lines = [f"alphabet {rules.alphabet.name}", f"rack {rules.rack_size}", f"? {dist.get('?', 0)}"]
    lines += [f"{letter} {dist.get(letter, 0)}" for letter in rules.alphabet.letters]
    return "\n".join(lines) + "\n"


def tile_set_hash(rules: Rules) -> bytes:
    return hashlib.sha256(tile_set_description(rules).encode("utf-8")).digest()


def _caps(rules: Rules) -> bytes:
    dist = rules.distribution()
    top = rules.rack_size - 1
    return bytes([min(dist.get("?", 0), top)] + [min(dist.get(letter, 0), top) for letter in rules.alphabet.letters])


def _check_rack_size(rules: Rules) -> None:
    if not 2 <= rules.rack_size <= 7:
        raise LeavesError(f"leave tables need a rack of 2..7 tiles, rule set {rules.name!r} has {rules.rack_size}")


#: the largest leave value (in points, either sign) any table may hold: one bound for
#: from_values, .wsl files and CSV
VALUE_MAX = 1e6

class Leaves:
    """Leave values of one rule set's tile set, looked up in C by the move generator.

    Make one with :meth:`load`, :meth:`default`, :meth:`zeros`,
    :meth:`from_values` or :meth:`from_csv`.  Immutable; pickles by path (a
    table loaded from a file), by rule set (zeros, default) or by value.
    """

    __slots__ = ("rules", "_table", "_values", "_source", "best_value", "__weakref__")

    def __init__(self, rules: Rules, values: Any, _source: tuple = ("values",)):
        _check_rack_size(rules)
        table = LeaveTable(_caps(rules), rules.rack_size - 1)
        arr = np.asarray(values)
        if arr.ndim != 1 or arr.shape[0] != len(table):
            raise LeavesError(
                f"rule set {rules.name!r}: expected {len(table)} leave values (one per rank), got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
            raise LeavesError(f"leave values: expected real numbers, got dtype {arr.dtype}")
        with np.errstate(over="ignore", invalid="ignore"):
            wide = np.asarray(arr, dtype=np.float64)
            arr = np.array(arr, dtype=np.float32)
        bad = np.flatnonzero(~(np.abs(wide) <= VALUE_MAX))  # NaN too
        if bad.size:
            raise LeavesError(
                f"leave values: expected finite numbers of at most {VALUE_MAX:g} points, got {wide[bad[0]]} at "
                f"rank {bad[0]} ({_leave_string(rules, table.unrank(int(bad[0])))}) and {bad.size - 1} more")
        table.set_values(arr)
        self.rules = rules
        self._table = table
        self._values = table.values  # the array C reads: read-only, shared
        self._source = _source
        #: the best value of any leave: no swap is worth more (engines skip looking for one
        #: when a play's equity reaches it)
        self.best_value = float(arr.max())

    # -- constructors -------------------------------------------------------------
    @classmethod
    def zeros(cls, rules: Rules) -> "Leaves":
        """Every leave worth 0: equity equals score (benchmarks, tests)."""
        _check_rack_size(rules)
        n = len(LeaveTable(_caps(rules), rules.rack_size - 1))
        return cls(rules, np.zeros(n, dtype=np.float32), ("zeros",))

    @classmethod
    def from_values(cls, rules: Rules, values: Any) -> "Leaves":
        """A table from one value per rank (``len(Leaves.zeros(rules))`` numbers)."""
        return cls(rules, values, ("values",))

    @classmethod
    def default(cls, rules: Rules) -> "Leaves":
        """The table shipped in the package for the rule set (``wordsalvo/data/leaves/<name>.wsl``);
        for a rule set without one (``wordfeud-de``, ``woodword-de``: their lexicon is built
        on the user's machine), the table ``wordsalvo leaves train --rules NAME`` wrote to
        the user's cache folder (:func:`user_table_path`)."""
        from .rules import rule_set_name_problem

        problem = rule_set_name_problem(getattr(rules, "name", None))
        if problem is not None:  # the name becomes part of a package path: an identifier only
            raise LeavesError(f"Leaves.default: {problem}")
        shipped_dir = _shipped_dir()
        ref = shipped_dir.joinpath(f"{rules.name}.wsl")
        if not ref.is_file():
            own = user_table_path(rules.name)
            if own.is_file():
                return _default_loaded(cls, own, rules)
            shipped = sorted(p.name[:-4] for p in shipped_dir.iterdir() if p.name.endswith(".wsl")) \
                if shipped_dir.is_dir() else []
            raise LeavesError(
                f"no leave table is shipped for rule set {rules.name!r} "
                f"(shipped: {', '.join(shipped) or 'none yet'}) and none is trained in {own.parent}; "
                f"train one with `wordsalvo leaves train --rules {rules.name}`, "
                "or use Leaves.load(path) or Leaves.from_csv(path, rules)")
        with resources.as_file(ref) as path:
            return _default_loaded(cls, path, rules)

    @classmethod
    def load(cls, path: str | os.PathLike[str], rules: Rules | None = None) -> "Leaves":
        """A table from a ``.wsl`` file, checked: header, checksums, size, and that it was
        made for ``rules`` (same rule set name and tile set); without ``rules``, for the
        preset named in the file."""
        data = read_bytes(path, LeavesError, "leave table")
        path = Path(path)
        if len(data) < HEADER_SIZE:
            raise LeavesError(f"truncated header: expected {HEADER_SIZE} bytes, got {len(data)}", path)
        (magic, version, header_size, count, encoding, rack_size, types, alphabet_raw, name_raw, tiles_hash,
         payload_hash, checksum) = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise LeavesError(f"bad magic: expected {MAGIC!r} (a wordsalvo leave table), got {magic!r}", path)
        if version != VERSION:
            raise LeavesError(f"unsupported version {version}: expected {VERSION}", path)
        if checksum != _fnv1a32(data[:252]):
            raise LeavesError("header checksum mismatch: the header is corrupt", path)
        if header_size != HEADER_SIZE:
            raise LeavesError(f"header size: expected {HEADER_SIZE}, got {header_size}", path)
        if encoding not in _ENCODINGS:
            raise LeavesError(f"unknown encoding {encoding}: expected 1 (float32) or 2 (int16)", path)
        name = name_raw.rstrip(b"\0").decode("utf-8", "replace")
        alphabet_name = alphabet_raw.rstrip(b"\0").decode("ascii", "replace")
        if rules is None:
            try:
                rules = Rules.preset(name)
            except Exception:
                raise LeavesError(
                    f"the table was made for rule set {name!r}, which is not a preset: pass its rules", path) from None
        if name != rules.name:
            raise LeavesError(
                f"made for rule set {name!r} (alphabet {alphabet_name!r}), expected {rules.name!r} "
                f"(alphabet {rules.alphabet.name!r})", path)
        if alphabet_name != rules.alphabet.name or types != rules.alphabet.size + 1 or rack_size != rules.rack_size:
            raise LeavesError(
                f"made for alphabet {alphabet_name!r} ({types} tile types, rack {rack_size}), expected "
                f"{rules.alphabet.name!r} ({rules.alphabet.size + 1} tile types, rack {rules.rack_size})", path)
        if tiles_hash != tile_set_hash(rules):
            raise LeavesError(
                f"made for another tile set: its tile set hash is {tiles_hash.hex()[:16]}, rule set {rules.name!r} "
                f"has {tile_set_hash(rules).hex()[:16]} (tile counts differ)", path)
        expected_count = len(LeaveTable(_caps(rules), rules.rack_size - 1))
        if count != expected_count:
            raise LeavesError(f"entry count: expected {expected_count} leaves, got {count}", path)
        kind, dtype, itemsize = _ENCODINGS[encoding]
        size = HEADER_SIZE + count * itemsize
        if len(data) != size:
            what = "truncated" if len(data) < size else "trailing bytes"
            raise LeavesError(f"{what}: expected {size} bytes ({count} {kind} values), got {len(data)}", path)
        payload = data[HEADER_SIZE:]
        if hashlib.sha256(payload).digest() != payload_hash:
            raise LeavesError("payload checksum mismatch: the values are corrupt", path)
        raw = np.frombuffer(payload, dtype=dtype)
        values = raw.astype(np.float32) / np.float32(INT16_SCALE) if encoding == ENCODING_INT16 else raw
        try:
            leaves = cls(rules, values, ("path", str(path.resolve())))
        except LeavesError as e:
            raise LeavesError(str(e), path) from None
        return leaves

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str], rules: Rules) -> "Leaves":
        """A table from ``leave,value`` lines (the plain format other engines export).

        Letters of the rule set's alphabet in any case and order, ``?`` for a blank; an
        optional first line ``leave,value``; empty lines are skipped.  Leaves not listed
        are worth 0.  Every bad line is reported (unknown letter, impossible leave,
        duplicate, bad number), with its line number."""
        path = Path(path)
        _check_rack_size(rules)
        table = LeaveTable(_caps(rules), rules.rack_size - 1)
        values = np.zeros(len(table), dtype=np.float32)
        seen: dict[int, int] = {}
        problems: list[str] = []
        try:
            text = read_bytes(path, LeavesError, "CSV file").decode("utf-8-sig")  # a BOM is no letter
        except UnicodeDecodeError as e:
            raise LeavesError(f"expected UTF-8 text, got a bad byte at offset {e.start}", path) from None
        for lineno, row in _csv_rows(text, problems):
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if lineno == 1 and [c.strip().lower() for c in row] == ["leave", "value"]:
                continue
            if len(row) != 2:
                problems.append(f"line {lineno}: expected 'leave,value', got {','.join(row)!r}")
                continue
            leave, number = row[0].strip(), row[1].strip()
            try:
                counts = _parse_leave(rules, leave)
            except LeavesError as e:
                problems.append(f"line {lineno}: {e}")
                continue
            rank = table.rank(counts)
            if rank < 0:
                problems.append(f"line {lineno}: {_impossible(rules, leave, counts)}")
                continue
            if not is_decimal_number(number):  # float() takes 1_0, ١٢, １２, nan
                problems.append(f"line {lineno}: expected a number (ASCII digits) after the leave {leave!r}, "
                                f"got {excerpt(number)}")
                continue
            value = float(number)
            if not math.isfinite(value) or abs(value) > VALUE_MAX:
                problems.append(f"line {lineno}: expected a finite value of at most {VALUE_MAX:g} points, "
                                f"got {number!r}")
                continue
            if rank in seen:
                problems.append(f"line {lineno}: duplicate leave {leave!r} (first on line {seen[rank]})")
                continue
            seen[rank] = lineno
            values[rank] = value
        if problems:
            shown = problems[:20] + ([f"... and {len(problems) - 20} more"] if len(problems) > 20 else [])
            raise LeavesError(f"{len(problems)} bad line(s): " + "; ".join(shown), path, problems)
        return cls(rules, values, ("values",))

    # -- the table ------------------------------------------------------------------
    @property
    def values(self) -> np.ndarray:
        """The value of every leave by rank (read-only float32)."""
        return self._values

    def __len__(self) -> int:
        return len(self._table)

    @property
    def sha256(self) -> str:
        """The SHA-256 (hex) of the values as float32 in rank order: what a table pickled
        by path is checked against when it is loaded again."""
        return hashlib.sha256(np.ascontiguousarray(self._values, dtype="<f4").tobytes()).hexdigest()

    @property
    def is_zero(self) -> bool:
        return not self._values.any()

    def rank(self, tiles: str) -> int:
        """The rank of a leave (``'?'`` = blank, letters in any order)."""
        counts = _parse_leave(self.rules, tiles)
        rank = self._table.rank(counts)
        if rank < 0:
            raise LeavesError(_impossible(self.rules, tiles, counts))
        return int(rank)

    def leave(self, rank: int) -> str:
        """The leave of a rank, blank first then letters in tile-code order."""
        rank = whole_arg(rank, "leave: rank", LeavesError)  # its range: the table's (out of range: LeavesError)
        return _leave_string(self.rules, self._table.unrank(rank))

    def value(self, tiles: str) -> float:
        """The value of a leave; the empty leave is worth 0."""
        if tiles == "":
            return 0.0
        return float(self._values[self.rank(tiles)])

    # -- writing --------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str], precision: str = "float32") -> None:
        """Writes a ``.wsl`` file atomically.  ``precision="int16"`` stores 1/256 points
        (values must lie within ±127.99; half the size: the shipped tables use it)."""
        if precision not in _PRECISIONS:
            raise LeavesError(f"precision: expected 'float32' or 'int16', got {precision!r}")
        encoding = _PRECISIONS[precision]
        if encoding == ENCODING_INT16:
            scaled = np.rint(self._values.astype(np.float64) * INT16_SCALE)
            if scaled.size and (scaled.max() > 32767 or scaled.min() < -32768):
                raise LeavesError("int16 precision holds values within ±127.99 points; use precision='float32'")
            payload = scaled.astype("<i2").tobytes()
        else:
            payload = self._values.astype("<f4").tobytes()
        r = self.rules
        if len(r.name.encode("utf-8")) > 32 or len(r.alphabet.name.encode("ascii", "replace")) > 8:
            raise LeavesError(f"a .wsl header holds a rule set name of at most 32 bytes and an alphabet name of "
                              f"at most 8, got {r.name!r} and {r.alphabet.name!r}")
        head = _HEADER.pack(
            MAGIC, VERSION, HEADER_SIZE, len(self), encoding, r.rack_size, r.alphabet.size + 1,
            r.alphabet.name.encode("ascii")[:8], r.name.encode("utf-8")[:32], tile_set_hash(r),
            hashlib.sha256(payload).digest(), 0)
        head = head[:252] + struct.pack("<I", _fnv1a32(head[:252]))
        write_atomic(Path(path), head + payload)

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Writes ``leave,value`` lines in rank order (atomically)."""
        counts = self._table.unrank_all()
        symbols = ["?"] + list(self.rules.alphabet.letters)
        lines = []
        for row, v in zip(counts, self._values.tolist()):
            leave = "".join(symbols[t] * int(c) for t, c in enumerate(row) if c)
            lines.append(f"{leave},{_format_value(v)}\n")
        write_atomic(Path(path), "".join(lines).encode("utf-8"))

    # -- the generator's view ------------------------------------------------------
    def _sub_values(self, rack: str) -> tuple[list[str], np.ndarray]:
        """(types, values): the rack's distinct tiles ('?' first) and the value of every
        sub-multiset indexed by the mixed radix of their counts (for tests)."""
        c = Counter(rack)
        types = sorted(c, key=lambda ch: 0 if ch == "?" else self.rules.alphabet.code(ch))
        sizes = [c[t] + 1 for t in types]
        out = np.zeros(int(np.prod(sizes)) if sizes else 1, dtype=np.float32)
        for idx in range(out.size):
            rest, kept = idx, []
            for t, s in zip(types, sizes):
                kept.append(t * (rest % s))
                rest //= s
            k = "".join(kept)
            out[idx] = self.value(k) if 0 < len(k) < self.rules.rack_size else 0.0
        return types, out

    # -- identity and pickling -----------------------------------------------------
    def __reduce__(self) -> tuple:
        kind = self._source[0]
        if kind == "path":
            return (_load_for_pickle, (self._source[1], self.rules, self.sha256))
        if kind == "zeros":
            return (Leaves.zeros, (self.rules,))
        if kind == "default":
            return (Leaves.default, (self.rules,))
        return (Leaves.from_values, (self.rules, np.array(self._values)))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Leaves) and tile_set_hash(self.rules) == tile_set_hash(other.rules)
                and self.rules.name == other.rules.name and np.array_equal(self._values, other._values))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = self._source[0]
        if kind == "path":
            return f"Leaves.load({self._source[1]!r}, Rules.preset({self.rules.name!r}))"
        if kind in ("zeros", "default"):
            return f"Leaves.{kind}(Rules.preset({self.rules.name!r}))"
        return f"<Leaves of {self.rules.name!r}: {len(self)} values>"


def user_table_path(rules_name: str) -> Path:
    """Where ``wordsalvo leaves train`` writes a rule set's table by default, and where
    :meth:`Leaves.default` looks when none is shipped: ``<cache folder>/leaves/<name>.wsl``
    (:func:`wordsalvo.cache.cache_dir`)."""
    from .cache import cache_dir

    return cache_dir() / "leaves" / f"{rules_name}.wsl"


#: the default tables loaded in this process: (rule set name, tile set hash) -> (the file's
#: identity, the table).  A table is immutable, so every bot, generator and request of the
#: process shares one (a table is about 3.6 MB of float32 for English); a file replaced on
#: disk (another size, time or inode) is read again.  A handful of rule sets at most.
_DEFAULTS: dict[tuple[str, bytes], tuple[tuple[str, int, int, int], "Leaves"]] = {}
_DEFAULTS_MAX = 16
_DEFAULTS_LOCK = threading.Lock()


def _default_loaded(cls, path: str | os.PathLike[str], rules: Rules) -> "Leaves":
    """The default table in ``path`` for ``rules``: loaded once a process (see _DEFAULTS)."""
    key = (rules.name, tile_set_hash(rules))
    try:
        st = os.stat(path)
        ident = (os.fspath(path), st.st_size, st.st_mtime_ns, st.st_ino)
    except OSError:
        ident = None
    with _DEFAULTS_LOCK:  # one load even when several engine threads ask at once
        hit = _DEFAULTS.get(key)
        if hit is not None and ident is not None and hit[0] == ident:
            return hit[1]
        leaves = cls.load(path, rules)
        leaves._source = ("default",)
        if ident is not None:
            if len(_DEFAULTS) >= _DEFAULTS_MAX:
                _DEFAULTS.pop(next(iter(_DEFAULTS)))
            _DEFAULTS[key] = (ident, leaves)
        return leaves


def _shipped_dir() -> Any:
    """The package's directory of default tables (``wordsalvo/data/leaves``)."""
    return resources.files("wordsalvo").joinpath(_DEFAULT_DIR)


def _load_for_pickle(path: str, rules: Rules, sha256: str | None = None) -> Leaves:
    """A table pickled by path, loaded again: it must still hold the same values (a file
    replaced between pickling and unpickling is an error, not another table)."""
    leaves = Leaves.load(path, rules)
    if sha256 is not None and leaves.sha256 != sha256:
        raise LeavesError(f"the file holds other values than the pickled table (values sha256 "
                          f"{leaves.sha256[:12]}..., expected {sha256[:12]}...)", path)
    return leaves



def _csv_rows(text: str, problems: list[str]):
    """(line number, fields) of every line of a CSV text; a line the csv module refuses
    (a field over its 128 KiB limit, a stray quote) is a problem of that line."""
    for lineno, line in enumerate(text_lines(text), start=1):
        try:
            rows = list(csv.reader([line]))
        except csv.Error as e:
            problems.append(f"line {lineno}: expected 'leave,value', got a line the CSV reader refuses ({e})")
            continue
        yield lineno, rows[0] if rows else []

def _format_value(v: float) -> str:
    return repr(float(np.float32(v)))


def _parse_leave(rules: Rules, tiles: str) -> bytes:
    if not isinstance(tiles, str):
        raise LeavesError(f"a leave: expected a string of tiles, got {tiles!r}")
    counts = bytearray(rules.alphabet.size + 1)
    for i, ch in enumerate(tiles):
        if ch == "?":
            counts[0] += 1
            continue
        try:
            code = rules.alphabet.code(ch.upper() if ch.upper() in rules.alphabet.letters else ch)
        except AlphabetError:
            raise LeavesError(
                f"unknown letter {ch!r} at position {i + 1} of leave {tiles!r}: expected a letter of alphabet "
                f"{rules.alphabet.name!r} ({''.join(rules.alphabet.letters)}) or '?'") from None
        if counts[code] == 255:
            raise LeavesError(f"leave {tiles!r}: too many tiles")
        counts[code] += 1
    return bytes(counts)


def _impossible(rules: Rules, tiles: str, counts: bytes) -> str:
    n = sum(counts)
    if not 1 <= n <= rules.rack_size - 1:
        return f"impossible leave {tiles!r}: expected 1..{rules.rack_size - 1} tiles, got {n}"
    dist = rules.distribution()
    symbols = ["?"] + list(rules.alphabet.letters)
    over = [f"{symbols[t]} ×{c} (the set has {dist.get(symbols[t], 0)})"
            for t, c in enumerate(counts) if c > min(dist.get(symbols[t], 0), rules.rack_size - 1)]
    return f"impossible leave {tiles!r} for rule set {rules.name!r}: " + ", ".join(over)


def _leave_string(rules: Rules, counts: bytes) -> str:
    symbols = ["?"] + list(rules.alphabet.letters)
    return "".join(symbols[t] * c for t, c in enumerate(counts) if c)


# -- equity terms of a position ------------------------------------------------------------

#: the tempo of going out, two players, ``play-out``: the game ends before the opponent's
#: next turn (a play that keeps tiles leaves them that turn, to score or to go out).  MAGPIE's
#: static player charges the same 10 points to every play that does not go out; measured in
#: our engine (README, Difficulty levels) it won 50.15 % (50.11-50.19) of 40,000 games against
#: the same player without it
OUT_BONUS = 10.0

#: keep_factor (kept tiles cost keep_factor × their face value), the multiple of the
#: opponents' rack value a player going out earns, and the points going out earns besides
#: (OUT_BONUS), per [settlement] after_out mode
_TWO_PLAYER_TERMS = {"play-out": (2.0, 2.0, OUT_BONUS), "subtract-only": (1.0, 1.0, 0.0), "none": (0.0, 0.0, 0.0)}
_MULTI_PLAYER_TERMS = {"play-out": (1.0, 1.0, 0.0), "subtract-only": (1.0, 0.0, 0.0), "none": (0.0, 0.0, 0.0)}


def endgame_terms(pos: Any, tile_total: int | None = None) -> tuple[bool, float, float]:
    """``(endgame, out_value, keep_factor)`` of a position (see the module docstring):
    ``endgame`` is True when the bag is empty; then a move that goes out earns
    ``out_value`` and every tile kept costs ``keep_factor`` times its face value.
    ``tile_total``: ``pos.rules.tile_count``, when the caller has it at hand."""
    rules = pos.rules
    # a lower bound of pos.bag_count() without counting letters (it is exact unless the
    # position uses more of a tile than the set has): positive means tiles in the bag
    on_board = SQUARES - pos.board.tiles.count(0)
    if (rules.tile_count if tile_total is None else tile_total) - on_board - sum(len(r) for r in pos.racks) > 0:
        return False, 0.0, 0.0
    unseen = pos.unseen()  # counted once: pos.bag_count() would count it again
    me = pos.to_move
    if sum(unseen.values()) - sum(len(r) for i, r in enumerate(pos.racks) if i != me) > 0:
        return False, 0.0, 0.0
    mode = rules.settlement.after_out
    players = max(2, len(pos.racks))
    terms = _TWO_PLAYER_TERMS if players == 2 else _MULTI_PLAYER_TERMS
    keep_factor, out_factor, bonus = terms.get(mode, (0.0, 0.0, 0.0))
    opp = sum(rules.value(t) * n for t, n in unseen.items())
    return True, float(out_factor * opp + bonus), float(keep_factor)


__all__ = ["Leaves", "user_table_path", "endgame_terms", "tile_set_hash", "tile_set_description", "MAGIC", "VERSION"]

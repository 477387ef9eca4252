"""Checks of untrusted input shared by every parser, loader and command.

* :func:`whole_number`: a number written in text, read only when it is ASCII digits
  of bounded length (``str.isdigit`` accepts ``'²'`` and other digits ``int()``
  refuses, ``\\d`` in a regular expression matches Arabic-Indic digits, and ``int()``
  refuses more than 4,300 digits with a bare ValueError);
* :func:`whole_arg`, :func:`number_arg`, :func:`instance_arg`: an argument of the Python
  API that is a whole number (an ``int``, never a ``bool``) or a finite number in a range,
  or an instance of a class; else a WordSalvoError naming the argument, what was expected
  and what came (never a bare IndexError, TypeError or AttributeError further in);
  :func:`is_whole` and :func:`is_number` are the same checks without raising (items of a
  list, values of a file): the one integer check and the one number check of the package;
* :func:`excerpt`: a piece of input short enough to quote in an error message
  (a 10 MB line is not repeated whole);
* :func:`checked_path`: a file name the operating system can take (no NUL byte, no
  component over 255 bytes, not empty), so a bad name is a WordSalvoError naming it,
  never a bare OSError/ValueError from ``Path.is_file`` or ``open``;
  :func:`is_file` asks the same question without raising;
* :func:`read_bytes`: a regular file's bytes, with a size limit per kind of input
  (:data:`SIZE_LIMITS`): a FIFO, a device (``/dev/zero``) or a folder is a clear
  error, never a hang or a MemoryError (:func:`open_regular` for readers that map
  the file);
* :func:`write_atomic`: a file written through a temporary file and a rename, never
  half-written; :func:`remove_orphans` clears the temporaries of killed writers.
"""

from __future__ import annotations

import glob
import math
import os
import re
import stat
import tempfile
import time
from pathlib import Path

from .errors import WordSalvoError
from .wording import plural

__all__ = ["list_problems", "whole_number", "whole_arg", "number_arg", "is_whole", "is_number", "instance_arg", "is_whole_number", "is_decimal_number", "text_lines", "LINE_END", "excerpt", "checked_path", "path_problem", "is_file", "os_error_text", "read_bytes",
           "read_stream", "open_regular", "SIZE_LIMITS", "DEFAULT_LIMIT",
           "write_atomic", "remove_orphans", "NUMBER_DIGITS"]

#: the most digits a number of any text format may have (scores, seeds, counts, squares)
NUMBER_DIGITS = 18

_ASCII_DIGITS = frozenset("0123456789")


def is_whole_number(text: str, signed: bool = False, digits: int = NUMBER_DIGITS) -> bool:
    """True for 1..``digits`` ASCII digits, with one leading ``+``/``-`` when ``signed``."""
    if not isinstance(text, str):
        return False
    if signed and text[:1] in ("+", "-"):
        text = text[1:]
    return 0 < len(text) <= digits and all(ch in _ASCII_DIGITS for ch in text)


def whole_number(text: str, what: str, error: type[WordSalvoError] = WordSalvoError, *,
                 signed: bool = False, low: int | None = None, high: int | None = None,
                 digits: int = NUMBER_DIGITS) -> int:
    """``text`` as an int, or ``error`` saying ``what`` was expected and what came."""
    rng = (f" {low}..{high}" if low is not None and high is not None
           else f" >= {low}" if low is not None else f" <= {high}" if high is not None else "")
    expected = f"{what}: expected a whole number{rng} (ASCII digits{', a sign' if signed else ''}, " \
               f"at most {digits})"
    if not is_whole_number(text, signed, digits):
        raise error(f"{expected}, got {excerpt(text)}")
    n = int(text)
    if (low is not None and n < low) or (high is not None and n > high):
        raise error(f"{expected}, got {n}")
    return n


def _span(low, high) -> str:
    return (f" {low}..{high}" if low is not None and high is not None
            else f" >= {low}" if low is not None else f" <= {high}" if high is not None else "")


def is_whole(value: object, low: int | None = None, high: int | None = None) -> bool:
    """True when ``value`` is a whole number (an ``int`` or a numpy integer, never a
    ``bool``) within ``low..high``: THE integer check of the package (:func:`whole_arg`
    raises with it; checks of items of a list or a file's values call it)."""
    if isinstance(value, bool):
        return False
    if not isinstance(value, int):
        import numbers

        if not isinstance(value, numbers.Integral):
            return False
    return (low is None or value >= low) and (high is None or value <= high)


def is_number(value: object, low: float | None = None, high: float | None = None, *,
              above: float | None = None) -> bool:
    """True when ``value`` is a finite real number (an int or float, never a ``bool``, not
    NaN or infinite) within ``low..high`` and greater than ``above``: THE number check of
    the package (:func:`number_arg` raises with it)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        number = float(value)
    except OverflowError:  # an int past the float range
        return False
    return (math.isfinite(number) and (low is None or number >= low) and (high is None or number <= high)
            and (above is None or number > above))


def whole_arg(value: object, what: str, error: type[WordSalvoError] = WordSalvoError, *,
              low: int | None = None, high: int | None = None, expected: str | None = None) -> int:
    """``value`` when it is an ``int`` (not a ``bool``; numpy integers are taken as ints)
    within ``low..high``; else ``error`` saying ``what: expected a whole number low..high,
    got ...`` (``expected``: another wording of what is expected)."""
    if is_whole(value, low, high):
        return int(value)  # type: ignore[call-overload]
    expected = expected or f"a whole number{_span(low, high)}"
    if is_whole(value):
        raise error(f"{what}: expected {expected}, got {excerpt(value)}")
    raise error(f"{what}: expected {expected}, got {type(value).__name__} {excerpt(value)}")


def number_arg(value: object, what: str, error: type[WordSalvoError] = WordSalvoError, *,
               low: float | None = None, high: float | None = None, above: float | None = None,
               expected: str | None = None) -> float:
    """``value`` as a float when it is a finite real number (an int or float, not a ``bool``,
    not NaN or infinite) within ``low..high`` (and > ``above``); else ``error`` naming
    ``what`` (``expected``: another wording of what is expected)."""
    if is_number(value, low, high, above=above):
        return float(value)  # type: ignore[arg-type]
    span = _span(low, high) if above is None else f" > {above:g}" + (f" and <= {high:g}" if high is not None else "")
    expected = expected or f"a finite number{span}"
    if is_number(value):
        raise error(f"{what}: expected {expected}, got {excerpt(value)}")
    raise error(f"{what}: expected {expected}, got {type(value).__name__} {excerpt(value)}")


def instance_arg(value: object, cls: type | tuple[type, ...], what: str,
                 error: type[WordSalvoError] = WordSalvoError):
    """``value`` when it is an instance of ``cls``; else ``error`` naming ``what`` and the
    class expected."""
    if not isinstance(value, cls):
        names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise error(f"{what}: expected a {names}, got {type(value).__name__} {excerpt(value)}")
    return value


#: the line ends of every text format: \r\n, \r, \n (``str.splitlines`` also ends lines at
#: \x0b, \x0c, \x1c-\x1e, \x85, U+2028 and U+2029, so line numbers drift from an editor's)
LINE_END = re.compile(r"\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """The lines of a text as an editor numbers them (no final empty line)."""
    lines = LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


#: a decimal number in ASCII (``float()`` also takes ``1_0``, ``١٢``, ``１２``, ``nan``, ``inf``)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,18}(?:\.[0-9]{0,18})?|\.[0-9]{1,18})(?:[eE][+-]?[0-9]{1,3})?")


def is_decimal_number(text: str) -> bool:
    """True for a decimal number written in ASCII (digits, one point, an exponent)."""
    return isinstance(text, str) and _DECIMAL.fullmatch(text) is not None


def excerpt(value: object, limit: int = 80) -> str:
    """``repr`` of a value, cut to about ``limit`` characters with the full length said."""
    if isinstance(value, (str, bytes)) and len(value) > limit:
        unit = "characters" if isinstance(value, str) else "bytes"
        keep = limit - 20 if limit >= 40 else limit // 2
        return f"{value[:keep]!r}... ({len(value):,} {unit})"
    text = repr(value)
    return text if len(text) <= limit + 20 else text[: limit] + "..."


#: a message lists problems up to this many characters (each cut to 300)
PROBLEMS_TEXT = 3000


def list_problems(where: str, problems: list[str], more: str = "the error's .problems lists every one") -> str:
    """``where: N problem(s):`` and the problems one a line, as many as fit in about
    3,000 characters (the exception keeps all of them)."""
    shown: list[str] = []
    size = 0
    for p in problems:
        p = p if len(p) <= 300 else p[:290] + "..."
        if size + len(p) > PROBLEMS_TEXT:
            shown.append(f"... and {len(problems) - len(shown):,} more ({more})")
            break
        shown.append(p)
        size += len(p) + 3
    return f"{where}: {plural(len(problems), 'problem')}:\n  " + "\n  ".join(shown)


def path_problem(path: object) -> str | None:
    """Why the operating system would refuse ``path`` as a file name, or None."""
    if isinstance(path, Path):
        text = str(path)
    elif isinstance(path, (str, os.PathLike)):
        text = os.fspath(path)
        if isinstance(text, bytes):
            text = os.fsdecode(text)
    else:
        return f"expected a file name (str or path), got {type(path).__name__}"
    if not text:
        return "expected a file name, got an empty one"
    if "\x00" in text:
        return "a file name cannot contain a NUL byte"
    try:
        encoded = os.fsencode(text)
    except UnicodeError:
        return "the file name cannot be encoded for this file system"
    longest = max((len(part) for part in encoded.split(b"/")), default=0)
    if longest > 255:
        return f"a file name part is {longest:,} bytes long; the file system allows 255"
    if len(encoded) >= 4096:
        return f"the path is {len(encoded):,} bytes long; the file system allows 4,095"
    return None


def checked_path(path: object, error: type[WordSalvoError] = WordSalvoError, what: str = "file") -> Path:
    """``path`` as a Path when the OS can take it as a name; otherwise ``error``
    naming (an excerpt of) it and why it is refused."""
    problem = path_problem(path)
    if problem is not None:
        shown = excerpt(os.fspath(path) if isinstance(path, (str, os.PathLike)) else path)
        raise error(f"{what} {shown}: {problem}")
    return Path(path)  # type: ignore[arg-type]


def is_file(path: object) -> bool:
    """``Path(path).is_file()`` that says False for a name the OS refuses (it never raises)."""
    if path_problem(path) is not None:
        return False
    try:
        return Path(path).is_file()  # type: ignore[arg-type]
    except OSError:
        return False


def os_error_text(path: object, e: OSError, doing: str = "cannot read it") -> str:
    """The message for an OSError on ``path``: ``no such file: X`` for a missing file,
    else ``X: <doing>: <the system's reason>``."""
    shown = excerpt(os.fspath(path), 200) if isinstance(path, (str, os.PathLike)) else excerpt(path)
    if shown.startswith("'") and shown.endswith("'"):
        shown = shown[1:-1]
    if isinstance(e, FileNotFoundError):
        return f"no such file: {shown}"
    if isinstance(e, IsADirectoryError):
        return f"{shown}: {doing}: it is a folder, not a file"
    return f"{shown}: {doing}: {e.strerror or e}"


#: the largest file each kind of input may be, in bytes (``read_bytes(what=...)``); a
#: kind not listed may be :data:`DEFAULT_LIMIT`
SIZE_LIMITS = {
    "game record": 4 << 20,           # a GCG record: a long game is about 3 KB
    "saved game": 4 << 20,
    "rule set file": 1 << 20,
    "tiers file": 1 << 20,
    "win-probability model": 1 << 20,
    "service configuration": 1 << 20,
    "leave table": 64 << 20,          # a .wsl file: 7-tile racks of 27 tile types are about 4 MB
    "CSV file": 128 << 20,            # leave,value lines of such a table: about 30 MB
    "results file": 256 << 20,        # results CSV and GCG records for the ratings
    "analysis result": 64 << 20,      # a batch's JSON of one game
    "positions file": 256 << 20,      # CGP lines
    "word list": 1 << 30,
    "graph file": 1 << 30,
}
DEFAULT_LIMIT = 256 << 20


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")


def open_regular(path: object, error: type[WordSalvoError] = WordSalvoError, what: str = "file",
                 limit: int | None = None) -> tuple[int, int]:
    """Opens ``path`` for reading when it is a regular file (following links) of at most
    ``limit`` bytes (default: :data:`SIZE_LIMITS` of ``what``); returns ``(fd, size)``.
    Never blocks on a FIFO and never reads a device: those are ``error``, as are a
    missing file, a folder and a file over the limit."""
    p = checked_path(path, error, what)
    limit = SIZE_LIMITS.get(what, DEFAULT_LIMIT) if limit is None else limit
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise error(os_error_text(p, e, f"cannot read the {what}")) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{_shown(p)}: expected a regular file ({what}), got {_kind(st.st_mode)}")
        if st.st_size > limit:
            raise error(f"{_shown(p)}: expected a {what} of at most {limit:,} bytes, got {st.st_size:,}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def read_bytes(path: object, error: type[WordSalvoError] = WordSalvoError, what: str = "file",
               limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (default: the limit of
    ``what`` in :data:`SIZE_LIMITS`), or ``error``: for a name the OS refuses, a missing
    file (``no such file: X``), a folder, FIFO or device, a file over the limit (one that
    grows past it while read, too) or one that cannot be read."""
    limit = SIZE_LIMITS.get(what, DEFAULT_LIMIT) if limit is None else limit
    fd, _size = open_regular(path, error, what, limit)
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise error(os_error_text(Path(path), e, f"cannot read the {what}")) from None  # type: ignore[arg-type]
    if len(data) > limit:
        raise error(f"{_shown(Path(path))}: expected a {what} of at most {limit:,} bytes, "  # type: ignore[arg-type]
                    f"got more (it grew while read)")
    return data


def read_stream(stream, error: type[WordSalvoError] = WordSalvoError, what: str = "file",
                limit: int | None = None) -> bytes:
    """At most ``limit`` bytes of a binary stream (standard input), or ``error``."""
    limit = SIZE_LIMITS.get(what, DEFAULT_LIMIT) if limit is None else limit
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise error(f"standard input: expected a {what} of at most {limit:,} bytes, got more")
    return data


def _shown(p: Path) -> str:
    shown = excerpt(str(p), 200)
    return shown[1:-1] if shown.startswith("'") and shown.endswith("'") else shown


# -- atomic writes ---------------------------------------------------------------------------
#: a writer's temporary file: ``<name>.<pid>-<random>.tmp`` beside the file it becomes
_TMP_PID = re.compile(r"\.([0-9]{1,10})-[A-Za-z0-9_]+\.tmp$")
#: an older writer's temporary file without its process id (``<name>.<random>.tmp``)
_TMP_OLD = re.compile(r"\.[A-Za-z0-9_]{8}\.tmp$")
#: a temporary file without a process id is an orphan after this long
ORPHAN_AGE = 3600.0


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's live process, or not a pid we can ask about: keep it
    return True


def remove_orphans(path: str | os.PathLike[str]) -> list[Path]:
    """Removes the temporary files that interrupted writes of ``path`` left beside it
    (a killed process cannot remove its own): those of processes no longer running,
    and id-less ones older than an hour.  Returns what it removed."""
    p = Path(path)
    removed = []
    try:
        candidates = list(p.parent.glob(glob.escape(p.name) + ".*.tmp"))
    except OSError:
        return removed
    now = time.time()
    for q in candidates:
        tail = q.name[len(p.name):]
        m = _TMP_PID.fullmatch(tail) if tail.count(".") == 2 else None
        try:
            if m:
                if _pid_alive(int(m.group(1))):
                    continue
            elif not (_TMP_OLD.fullmatch(tail) and now - q.stat().st_mtime > ORPHAN_AGE):
                continue
            q.unlink()
            removed.append(q)
        except (OSError, ValueError):
            continue
    return removed


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Writes a file via a temporary file and a rename: never half-written.  The
    temporary file carries the writer's process id; orphans of killed writers are
    removed first (:func:`remove_orphans`).  A name the OS refuses, or a folder that
    cannot be written (no permission, a full disk, a file where a folder should be), is a
    WordSalvoError naming the file."""
    p = checked_path(path, WordSalvoError, "output file")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        remove_orphans(p)
        fd, tmp = tempfile.mkstemp(prefix=f"{p.name}.{os.getpid()}-", suffix=".tmp", dir=p.parent)
    except OSError as e:
        raise WordSalvoError(os_error_text(p, e, "cannot write it")) from None
    try:
        _write_and_rename(fd, tmp, p, data)
    except OSError as e:
        raise WordSalvoError(os_error_text(p, e, "cannot write it")) from None


def _write_and_rename(fd: int, tmp: str, p: Path, data: bytes) -> None:
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

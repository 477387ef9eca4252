"""Helpers shared by the position commands (``moves``, ``best``, ``validate``).

Every helper turns bad input into a :class:`~wordsalvo.WordSalvoError` whose
message says what was expected, what came and where, so the CLI's one error
handler can print it as one line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import LexiconFormatError, PositionError, RulesError, WordSalvoError
from ..lexicon.lexicon import Lexicon
from ..formats.cgp import parse_cgp
from ..inputs import (SIZE_LIMITS, checked_path, excerpt, is_decimal_number, is_file, is_whole_number,
                      os_error_text, path_problem, read_bytes, read_stream, text_lines)
from ..position import Position
from ..rules import Rules, preset_names


def output_file(path: str | Path, option: str) -> Path:
    """A file a command will write: its folder must exist (a typo in a folder name must not
    make new folders) and the name one the OS takes; WordSalvoError otherwise."""
    p = checked_path(path, WordSalvoError, f"{option} file")
    folder = p.parent
    if not folder.is_dir():
        raise WordSalvoError(f"{option} {path}: expected an existing folder for the file, got no folder "
                             f"{folder} (create it first)")
    return p


def output_folder(path: str | Path, option: str) -> Path:
    """A folder a command will fill: made when missing, and the command says so (stderr)."""
    p = checked_path(path, WordSalvoError, f"{option} folder")
    if p.exists() and not p.is_dir():
        raise WordSalvoError(f"{option} {path}: expected a folder, got a file")
    if not p.exists():
        if not p.parent.is_dir():
            raise WordSalvoError(f"{option} {path}: expected an existing folder or one to make in an existing "
                                 f"folder, got no folder {p.parent} (create it first)")
        try:
            p.mkdir()
        except OSError as e:
            raise WordSalvoError(os_error_text(p, e, f"{option}: cannot make the folder")) from None
        print(f"created the folder {p} ({option})", file=sys.stderr)
    return p


#: the most worker processes a command starts (--jobs)
JOBS_MAX = 256


def whole_number(minimum: int, maximum: int | None = None):
    """An argparse type: a whole number >= minimum (and <= maximum) written in ASCII
    digits (``int()`` also takes ``1_0``, ``١٢`` and ``１２``), with a clear message otherwise."""
    what = f"a whole number {minimum}..{maximum:,}" if maximum is not None else f"a whole number >= {minimum}"

    def parse(text: str) -> int:
        if not is_whole_number(text.strip(), signed=minimum < 0, digits=20):  # a 64-bit seed
            raise argparse.ArgumentTypeError(f"expected {what} (ASCII digits), got {excerpt(text)}")
        n = int(text)
        if n < minimum or (maximum is not None and n > maximum):
            raise argparse.ArgumentTypeError(f"expected {what}, got {n:,}")
        return n

    parse.__name__ = what
    return parse


def seconds(allow_zero: bool = False):
    """An argparse type: a number of seconds > 0 (or >= 0), with a clear message otherwise."""
    what = "a number of seconds >= 0" if allow_zero else "a number of seconds > 0"

    def parse(text: str) -> float:
        if not is_decimal_number(text.strip()):  # float() takes 1_0, ١٢, nan
            raise argparse.ArgumentTypeError(f"expected {what} (ASCII digits), got {excerpt(text)}")
        value = float(text)
        if not (0 <= value <= 1e6 if allow_zero else 0 < value <= 1e6):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    parse.__name__ = what
    return parse


def _rating_of_some_rule_set(text: str, kinds):
    """``text`` read as a rating on the scale of a rule set with a calibration of its own, or None."""
    from ..engine.strength import parse_level
    from ..rules import preset_names

    for name in preset_names():
        try:
            return parse_level(text, kinds, betas=False, rules=name)
        except WordSalvoError:
            continue
    return None


def engine_level(kinds, ratings: bool = True):
    """An argparse type: one of ``kinds`` or, with ``ratings``, a Glicko-2 rating (``1200``: the
    rated player of :mod:`wordsalvo.engine.strength`), returned as the level text a Bot takes."""

    def parse(text: str) -> str:
        from ..engine.strength import parse_level

        if text in kinds:
            return text
        what = f"{', '.join(kinds)} or a rating (e.g. 1200)" if ratings else ", ".join(kinds)
        try:
            rated = parse_level(text, kinds, betas=False)  # the one reader of level texts
        except WordSalvoError as e:
            # the rule set is not known here: a rating in the range of any rule set's own
            # calibration passes, and the Bot of the game's rule set checks it on its scale
            rated = _rating_of_some_rule_set(text, kinds)
            if rated is None and text[:1] in "+-.0123456789":  # a rating: its own message (the range, the digits)
                raise argparse.ArgumentTypeError(str(e)) from None
            if rated is None:
                raise argparse.ArgumentTypeError(f"expected {what}, got {excerpt(text)}") from None
        if not ratings or rated is None or rated.rating is None:
            raise argparse.ArgumentTypeError(f"expected {what}, got {excerpt(text)}")
        return rated.name

    parse.__name__ = "level"
    return parse


def add_rules_argument(p: argparse.ArgumentParser, from_position: bool = False) -> None:
    """``--rules``; with ``from_position`` its default is the CGP's ``rs`` opcode."""
    p.add_argument(
        "--rules", default=None if from_position else "classic-en", metavar="NAME|FILE",
        help=f"rule set: a preset ({', '.join(preset_names())}) or a .toml rule set file "
             + ("(default: the position's rs opcode, else classic-en)" if from_position else "(default: classic-en)"),
    )


def add_lexicon_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lexicon", metavar="FILE",
        help="compiled lexicon (.wsg, see `wordsalvo lexicon build`); "
             "default: the embedded lexicon of the rule set's language",
    )


def load_rules(spec: str, board_seed: int | None = None) -> Rules:
    """``--rules``: a preset by name, or a rule set file when ``spec`` is a path
    (:meth:`Rules.from_spec`); ``board_seed`` picks the rule set's random board."""
    return Rules.from_spec(spec, board_seed=board_seed)


def load_lexicon(path: str | None, rules: Rules) -> Lexicon:
    """``--lexicon FILE``, or the embedded lexicon of the rules' language."""
    if path is None:
        return Lexicon.default(rules.alphabet.name)
    lex = Lexicon.load(path)
    if tuple(lex.alphabet.letters) != tuple(rules.alphabet.letters):
        raise LexiconFormatError(
            f"lexicon alphabet {lex.alphabet.name!r} does not match rule set {rules.name!r} "
            f"(alphabet {rules.alphabet.name!r})", path,
        )
    return lex


def load_leaves(path: str | None, rules: Rules):
    """``--leaves FILE``: a leave table file (.wsl), or ``leave,value`` lines (.csv) for
    ``rules``; None: None (the caller's default)."""
    if path is None:
        return None
    from ..leaves import Leaves

    if str(path).lower().endswith(".csv"):
        return Leaves.from_csv(path, rules)
    return Leaves.load(path, rules)


def read_text(source: str) -> str:
    """The text of a file, or of standard input for ``-``."""
    if source == "-":
        data = (read_stream(sys.stdin.buffer, PositionError, "positions file") if hasattr(sys.stdin, "buffer")
                else sys.stdin.read(SIZE_LIMITS["positions file"] // 4).encode("utf-8"))
        name = "<stdin>"
    else:
        data = read_bytes(source, PositionError, "positions file")
        name = source
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise PositionError(f"{name}: expected UTF-8 text, got a bad byte at offset {e.start}") from None


def is_position_line(line: str) -> bool:
    """False for blank lines and ``#`` comments (they keep their line number)."""
    s = line.strip()
    return bool(s) and not s.startswith("#")


def read_position(arg: str | None, rules: Rules | None, line: int = 0) -> Position:
    """A position from a CGP line given on the command line, a CGP file (its
    ``line``-th position line, 0-based), ``-`` for standard input, or None for the
    empty board.  ``rules`` None: the CGP's own rule set (else classic-en)."""
    if arg is None:
        return Position.empty(rules or Rules.preset("classic-en"))
    text = arg
    if arg == "-" or len(arg.split()) == 1:  # a CGP line has at least two fields: a file name
        if arg != "-" and not is_file(arg):
            raise PositionError(f"expected a CGP line ('<board> <rack> ...') or a positions file, got {excerpt(arg)}: "
                                + (path_problem(arg) or "no such file"))
        origin = "<stdin>" if arg == "-" else arg
        lines = [ln for ln in text_lines(read_text(arg)) if is_position_line(ln)]
        if not lines:
            raise PositionError(f"{origin}: expected a CGP line, got no position")
        if not 0 <= line < len(lines):
            raise PositionError(f"{origin}: expected a position index 0..{len(lines) - 1}, got {line}")
        text = lines[line]
    return parse_cgp(text, rules=rules)


def add_position_arguments(p, cgp_help: str) -> None:
    """``--cgp LINE`` (required: a CGP line, a CGP file or '-') and ``--line I``, read back by
    :func:`position_argument`: the position of the search commands (sim, endgame, peg)."""
    p.add_argument("--cgp", required=True, metavar="LINE", help=cgp_help)
    p.add_argument("--line", type=int, default=0, metavar="I",
                   help="with a CGP file: which position, 0-based (default: 0)")


def position_argument(args) -> Position:
    """The position of a command's ``--cgp`` (and ``--line``), read with ``--rules`` when
    given (else the CGP's own rule set)."""
    rules = load_rules(args.rules) if getattr(args, "rules", None) else None
    return read_position(args.cgp, rules, args.line)


def apply_rack(pos: Position, rack: str | None) -> Position:
    """The position with the rack on turn replaced by ``rack`` (checked against the
    alphabet, the rack size and the tile set)."""
    return pos if rack is None else pos.with_rack(rack, where="--rack")


def progress_bar(total: int, unit: str, description: str | None = None):
    """A tqdm progress bar on standard error when it is a terminal (the ``progress`` extra),
    else None: every long command shows its progress the same way."""
    if total <= 0 or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pip install 'wordsalvo[progress]'
        return None
    return tqdm(total=total, unit=unit, desc=description, file=sys.stderr, dynamic_ncols=True, smoothing=0.1)


__all__ = [
    "progress_bar", "seconds", "checked_path", "is_file", "read_bytes",
    "add_rules_argument", "add_lexicon_argument", "load_rules", "load_lexicon", "load_leaves", "read_text",
    "is_position_line", "read_position", "apply_rack", "add_position_arguments", "position_argument", "RulesError",
]

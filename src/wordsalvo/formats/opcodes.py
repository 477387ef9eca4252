"""The rule-set opcodes shared by CGP lines and GCG headers.

* ``rs NAME`` — the rule set (a preset name, e.g. ``wordsalvo-en``);
* ``bseed N`` — the board seed: the random premium board (WordSalvo, Wordfeud)
  or the random star squares (Turkish) of that seed;
* ``stars r,c r,c ...`` — star squares, 0-based ``row,col`` as in the rule set
  files; written when the rules have star squares, and on reading they replace
  the squares the preset and seed would give (a game that fixes its squares).

:func:`resolve_rules` is THE place a record's rule-set name (or a Rules object), board
seed and star squares become the :class:`~wordsalvo.Rules` of a game: a record's replay
and its analysis come here.  A command's ``--rules`` and a job's rule set (autoplay, leave
training), which may also be a rule set file, become Rules in
:meth:`wordsalvo.Rules.from_spec`.
:func:`rules_from_opcodes` turns the opcodes into a :class:`~wordsalvo.Rules`,
:func:`rules_opcodes` is the inverse.  GCG writes the same values as ``#rules``,
``#board_seed`` and ``#stars`` header lines.
"""

from __future__ import annotations

from ..constants import DIM
from ..errors import PositionError, RulesError, WordSalvoError
from ..inputs import excerpt, is_whole_number, whole_number
from ..rules import Rules, preset_names

__all__ = ["resolve_rules", "rules_from_opcodes", "rules_opcodes", "parse_stars", "format_stars"]


def format_stars(squares) -> str:
    return " ".join(f"{r},{c}" for r, c in squares)


def parse_stars(text: str, where: str = "stars", error: type[WordSalvoError] = PositionError) -> tuple[tuple[int, int], ...]:
    """``'3,5 11,9'`` -> ``((3, 5), (11, 9))``; every bad item is reported at once, and
    a square named twice is an error (as in a rule set file)."""
    out = []
    bad = []
    for item in text.split():
        r, sep, c = item.partition(",")
        # ASCII digits only: isdigit() takes '²', which int() refuses
        if sep and is_whole_number(r, digits=2) and is_whole_number(c, digits=2) and int(r) < DIM and int(c) < DIM:
            out.append((int(r), int(c)))
        else:
            bad.append(item)
    if bad:
        shown = ", ".join(excerpt(b, 20) for b in bad[:5]) + (f" and {len(bad) - 5:,} more" if len(bad) > 5 else "")
        raise error(f"{where}: expected squares as 0-based row,col (0..{DIM - 1}), e.g. '3,5 11,9', got {shown}")
    twice = sorted({sq for sq in out if out.count(sq) > 1})
    if twice:
        raise error(f"{where}: expected each star square once, got {format_stars(twice)} more than once")
    return tuple(out)


def rules_from_opcodes(opcodes: dict[str, str], default: str = "classic-en",
                       error: type[WordSalvoError] = PositionError, where: str = "CGP opcode") -> Rules:
    """The rules that ``rs``, ``bseed`` and ``stars`` describe (``default`` without ``rs``)."""
    name = opcodes.get("rs", default).strip()
    seed = None
    if "bseed" in opcodes:
        seed = whole_number(opcodes["bseed"].strip(), f"{where} bseed", error, signed=True, digits=20)
    try:
        rules = Rules.preset(name, board_seed=seed)
    except RulesError as e:
        raise error(f"{where} rs/bseed: {e}") from None
    if "stars" in opcodes:
        stars = parse_stars(opcodes["stars"], f"{where} stars", error)
        if stars != tuple(rules.star_squares):
            try:
                rules = rules.with_layout(rules.layout, star_squares=stars)
            except RulesError as e:
                raise error(f"{where} stars: {e}") from None
    return rules


def apply_board_opcodes(rules: Rules, opcodes: dict[str, str],
                        error: type[WordSalvoError] = PositionError, where: str = "CGP opcode") -> Rules:
    """Given rules, with the board a position describes: ``rs`` must name the same rule
    set, ``bseed`` and ``stars`` select its random board and star squares."""
    if "rs" in opcodes and opcodes["rs"].strip() != rules.name:
        raise error(f"{where} rs: the position is for rule set {excerpt(opcodes['rs'].strip())}, "
                    f"the rules given are {rules.name!r}")
    if "bseed" in opcodes:  # the given rules' own definition on that board, never a preset of the same name
        seed = whole_number(opcodes["bseed"].strip(), f"{where} bseed", error, signed=True, digits=20)
        try:
            rules = rules.with_board_seed(seed)
        except RulesError as e:
            raise error(f"{where} bseed: {e}") from None
    if "stars" in opcodes:
        stars = parse_stars(opcodes["stars"], f"{where} stars", error)
        if stars != tuple(rules.star_squares):
            try:
                rules = rules.with_layout(rules.layout, star_squares=stars)
            except RulesError as e:
                raise error(f"{where} stars: {e}") from None
    return rules


def resolve_rules(rules: "Rules | str | None", *, board_seed: "int | str | None" = None,
                  stars: "str | None" = None, default: str = "classic-en",
                  error: type[WordSalvoError] = PositionError, where: str = "rules") -> Rules:
    """The rules of a game: ``rules`` (a preset name, a Rules object, or None for
    ``default``) with the random board of ``board_seed`` and the star squares ``stars``
    (``'3,5 11,9'``) when given.  Errors are ``error`` naming ``where``."""
    ops: dict[str, str] = {}
    if board_seed is not None:
        ops["bseed"] = str(board_seed)
    if stars is not None:
        ops["stars"] = stars
    if isinstance(rules, str) and rules not in preset_names() and (
            rules.endswith(".toml") or "/" in rules or "\\" in rules):  # a rule set file (as --rules takes)
        try:
            rules = Rules.from_spec(rules)
        except RulesError as e:
            raise error(f"{where}: {e}") from None
    if rules is None or isinstance(rules, str):
        return rules_from_opcodes({"rs": rules or default, **ops}, default=default, error=error, where=where)
    if not isinstance(rules, Rules):
        raise error(f"{where}: expected a rule set name or a Rules object, got {type(rules).__name__}")
    return apply_board_opcodes(rules, ops, error=error, where=where) if ops else rules


def rules_opcodes(rules: Rules) -> dict[str, str]:
    """``{"rs": ..., "bseed": ..., "stars": ...}`` for a rule set (only the ones that apply)."""
    ops = {"rs": rules.name}
    if rules.board_seed is not None:
        ops["bseed"] = str(rules.board_seed)
    if rules.star_squares:
        ops["stars"] = format_stars(rules.star_squares)
    return ops

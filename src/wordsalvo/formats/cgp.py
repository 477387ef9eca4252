"""CGP: one line per position.

``<board> <racks> <scores> <scoreless turns> [opcode args; ...]``

* board: 15 rows separated by ``/``, top row first; a run of empty squares is
  its length in decimal; uppercase = tile, lowercase = blank for that letter;
* racks: ``AEFLNQR/BDIOOTU`` (player on turn first, ``?`` = blank, may be empty);
* scores: ``303/369``; scoreless turns: a whole number;
* opcodes: ``lex CSW24;`` and the like, kept in order.  Opcodes this package reads:
  ``rs NAME;`` (rule set), ``bseed N;`` (random-board seed), ``stars r,c r,c;``
  (star squares), and MAGPIE's ``bb N;`` (bingo bonus) is kept and checked.
"""

from __future__ import annotations

import re

from ..alphabet import BLANK_BIT
from ..board import Board
from ..constants import DIM
from ..errors import AlphabetError, PositionError
from ..inputs import excerpt, instance_arg, is_whole_number, whole_number
from ..position import Position, rack_counts
from ..rules import Rules
from .opcodes import apply_board_opcodes, rules_from_opcodes, rules_opcodes  # rs, bseed, stars


_DIGITS = "0123456789"
#: an opcode's name: a lowercase letter, then lowercase letters, digits, _ or - (``lex``, ``bb``, ``rs``)
_OPCODE_NAME = re.compile(r"[a-z][a-z0-9_-]*", re.ASCII)
_FIELDS = "'<board> <racks> [<scores> <scoreless turns>] [opcode args; ...]'"


def _is_number(text: str) -> bool:
    """ASCII digits only, at most 9 of them (str.isdigit also accepts '²' and other
    digits int() refuses, and int() refuses more than 4300 digits)."""
    return is_whole_number(text, digits=9)


def _parse_opcodes(text: str, line: str) -> dict[str, str]:
    ops: dict[str, str] = {}
    text = text.strip()
    if not text:
        return ops
    if not text.endswith(";"):
        raise PositionError(f"CGP opcodes: expected each opcode to end with ';', got {excerpt(text)} in {excerpt(line)}")
    for part in text[:-1].split(";"):
        part = part.strip()
        if not part:
            raise PositionError(f"CGP opcodes: empty opcode in {excerpt(text)} in {excerpt(line)}")
        name, _, args = part.partition(" ")
        if not _OPCODE_NAME.fullmatch(name):
            raise PositionError(f"CGP opcodes: expected an opcode name (a lowercase letter, then lowercase letters or digits), "
                                f"got {excerpt(name)} in {excerpt(line)}")
        if name in ops:
            raise PositionError(f"CGP opcodes: expected one {name} opcode, got a second one in {excerpt(line)}")
        ops[name] = args.strip()
    return ops


def _next_token(text: str) -> tuple[str, str]:
    parts = text.split(None, 1)
    return (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")


def _split_fields(src: str) -> tuple[str, str, str | None, str | None, str]:
    """(board, racks, scores or None, scoreless turns or None, opcode text): the fields
    in their order, each of its own form; a token that fits no field is an error."""
    fields = src.split(None, 2)
    if len(fields) < 2:
        raise PositionError(f"CGP: expected {_FIELDS}, got {excerpt(src)}")
    board_text, racks_text = fields[0], fields[1]
    rest = fields[2] if len(fields) > 2 else ""
    scores_text = zero_text = None
    token, after = _next_token(rest)
    if token and not _OPCODE_NAME.fullmatch(token.rstrip(";")):
        if not all(is_whole_number(x, signed=True, digits=9) for x in token.split("/")):
            raise PositionError(f"CGP scores: expected whole numbers separated by '/' (one per rack) after the "
                                f"racks, got {excerpt(token)} in {excerpt(src)}")
        scores_text = token
        rest = after
        token, after = _next_token(rest)
        if token and not _OPCODE_NAME.fullmatch(token.rstrip(";")):
            if not _is_number(token):
                raise PositionError(f"CGP scoreless turns: expected a whole number after the scores, got "
                                    f"{excerpt(token)} in {excerpt(src)}")
            zero_text = token
            rest = after
    return board_text, racks_text, scores_text, zero_text, rest


def parse_cgp(line: str, rules: Rules | None = None, check_tiles: bool = True) -> Position:
    """Parses one CGP line.  ``rules`` defaults to the ``rs`` opcode, else classic-en;
    given rules take the position's ``bseed`` and ``stars`` (its random board and star
    squares), and an ``rs`` naming another rule set is an error.

    The fields are read strictly in order: the board, the racks, then optionally the
    scores (one per rack, ``/`` between) and the scoreless turns, then the opcodes
    (each ``name args;``, the name a lowercase word).  Every line this accepts,
    written back by :func:`format_cgp`, reads back as the same position."""
    if not isinstance(line, str):
        raise PositionError(f"CGP: expected a string, got {type(line).__name__}")
    src = line.strip()
    board_text, racks_text, scores_text, zero_text, opcode_text = _split_fields(src)
    opcodes = _parse_opcodes(opcode_text, src)

    if rules is None:
        rules = rules_from_opcodes(opcodes, default="classic-en")
    elif opcodes.keys() & {"rs", "bseed", "stars"}:
        rules = apply_board_opcodes(rules, opcodes)
    alphabet = rules.alphabet

    rows = board_text.split("/")
    if len(rows) != DIM:
        raise PositionError(f"CGP board: expected {DIM} rows separated by '/', got {len(rows):,} in {excerpt(src)}")
    tiles = bytearray(DIM * DIM)
    for r, row in enumerate(rows):
        c = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch in _DIGITS:
                j = i
                while j < len(row) and row[j] in _DIGITS:
                    j += 1
                if j - i > 3:
                    raise PositionError(
                        f"CGP board row {r + 1}: expected a run of 1..{DIM} empty squares, got {excerpt(row[i:j], 20)} in {excerpt(row, 40)}"
                    )
                n = int(row[i:j])
                if n == 0:
                    raise PositionError(f"CGP board row {r + 1}: a run of 0 empty squares in {excerpt(row)}")
                c += n
                i = j
                if c > DIM:
                    break
                continue
            if c >= DIM:
                c += 1
                break
            try:
                tiles[r * DIM + c] = alphabet.board_code(ch)
            except AlphabetError:
                raise PositionError(
                    f"CGP board row {r + 1} column {c + 1}: expected a letter of alphabet {alphabet.name!r} "
                    f"(uppercase tile, lowercase blank) or a digit, got {ch!r}"
                ) from None
            c += 1
            i += 1
        if c != DIM:
            raise PositionError(f"CGP board row {r + 1}: expected {DIM} squares, got {c if c <= DIM else f'more than {DIM}'} in {excerpt(row)}")
    racks = racks_text.split("/")
    if len(racks) < 1 or len(racks) > 4:
        raise PositionError(f"CGP racks: expected 1 to 4 racks separated by '/', got {excerpt(racks_text)}")
    for k, rk in enumerate(racks):
        rack_counts(rules, rk, where=f"CGP rack {k + 1}")
    scores = [0] * len(racks)
    if scores_text is not None:
        scores = [int(x) for x in scores_text.split("/")]  # checked by _split_fields
        if len(scores) != len(racks):
            raise PositionError(f"CGP scores: expected {len(racks)} scores (one per rack), got {excerpt(scores_text)}")
    zero = int(zero_text) if zero_text is not None else 0
    if "bb" in opcodes:
        bb = whole_number(opcodes["bb"], "CGP opcode bb", PositionError, digits=9)
        if bb != rules.bingo_bonus:
            raise PositionError(f"CGP opcode bb {bb} does not match the rules' bingo bonus {rules.bingo_bonus}")
    pos = Position(rules, Board(alphabet, tiles), racks, scores, zero, opcodes)
    if check_tiles:
        pos.check_tiles()
    return pos


def format_cgp(pos: Position) -> str:
    """The position as one CGP line; the opcodes are the position's own, then the rule
    set's ``rs``/``bseed``/``stars`` where the position has none of that name.  The rack
    and score of the player on turn come first."""
    instance_arg(pos, Position, "format_cgp: pos", PositionError)
    if pos.to_move:
        pos = pos.rotated()
    rows = []
    alphabet = pos.rules.alphabet
    for r in range(DIM):
        out = []
        run = 0
        for c in range(DIM):
            t = pos.board.tiles[r * DIM + c]
            if not t:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(alphabet.board_letter(t))
        if run:
            out.append(str(run))
        rows.append("".join(out))
    text = "/".join(rows) + " " + "/".join(pos.racks) + " " + "/".join(str(s) for s in pos.scores)
    text += f" {pos.scoreless_count}"
    # the rule set's own opcodes (rs, bseed, stars) unless the position carries them already
    opcodes = {**pos.opcodes, **{k: v for k, v in rules_opcodes(pos.rules).items() if k not in pos.opcodes}}
    for name, args in opcodes.items():
        text += f" {name} {args};" if args else f" {name};"
    return text


__all__ = ["parse_cgp", "format_cgp", "BLANK_BIT"]

"""constants.py mirrors csrc/ws_defs.h: every value equals the header's and the compiled core's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wordsalvo import constants
from wordsalvo._core import _engine
from wordsalvo.constants import ACROSS, DOWN, Direction

HEADER = Path(__file__).resolve().parent.parent / "csrc" / "ws_defs.h"


def _header_values() -> dict[str, int]:
    """The integer #defines of ws_defs.h, evaluated (they refer to each other)."""
    values: dict[str, int] = {}
    for name, expr in re.findall(r"^#define WS_(\w+)\s+(.+?)\s*$", HEADER.read_text("utf-8"), re.M):
        expr = re.sub(r"(0x[0-9A-Fa-f]+|\d+)u\b", r"\1", expr)
        expr = re.sub(r"\bWS_(\w+)", lambda m: str(values[m.group(1)]), expr)
        if name.endswith("_H"):
            continue
        values[name] = int(eval(expr, {"__builtins__": {}}))  # only numbers, parentheses and * remain
    return values


@pytest.mark.skipif(not HEADER.is_file(), reason="the C sources are not next to the tests")
def test_every_mirrored_value_equals_the_header():
    header = _header_values()
    assert {k: header.get(k) for k in constants.MIRRORED} == constants.MIRRORED


def test_every_mirrored_value_equals_the_compiled_core():
    assert constants.mismatches(_engine.CORE_CONSTANTS) == []
    assert set(constants.MIRRORED) <= set(_engine.CORE_CONSTANTS)


def test_a_mismatch_is_reported_by_name():
    core = dict(constants.MIRRORED)
    core["DIM"] = 21
    del core["LINE_COMMENT"]
    assert constants.mismatches(core) == [
        "DIM: C core has 21, Python has 15",
        "LINE_COMMENT: missing from the C core, Python has 12",
    ]


def test_direction_values_are_the_cores():
    assert ACROSS is Direction.ACROSS and ACROSS == 0 and DOWN == 1
    assert Direction(1) is DOWN and ACROSS.other is DOWN and DOWN.other is ACROSS
    assert ACROSS.step == (0, 1) and DOWN.step == (1, 0)
    assert constants.SQUARES == constants.DIM ** 2 and len(constants.COLUMNS) == constants.DIM

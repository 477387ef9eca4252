"""Shared fixtures of the benchmarks.

The CSW24 benchmarks need the proprietary list, which is never part of the
project: they read ``$WORDSALVO_SHARED`` (default ``../shared`` next to the
checkout) and are skipped when it is absent.  The graph built from it goes to a
temporary folder, never into the project.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import wordsalvo as ws
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("WORDSALVO_SHARED", ROOT.parent / "shared"))
SCOWL_DATA = ROOT / "tests" / "data" / "scowl-en"


def read_summary(path: Path) -> list[dict[str, str]]:
    lines = path.read_text("utf-8").splitlines()
    head = lines[0].lstrip("#").split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:] if ln.strip()]


@pytest.fixture(scope="session")
def classic():
    return ws.Rules.preset("classic-en")


@pytest.fixture(scope="session")
def csw24_graph(tmp_path_factory):
    src = SHARED / "lexica" / "csw24.txt"
    if not src.exists():
        pytest.skip(f"CSW24 word list not found at {src} (proprietary, local benchmarks only)")
    dest = tmp_path_factory.mktemp("csw24") / "csw24.wsg"
    compile_lexicon(src, dest, "en")
    return dest


@pytest.fixture(scope="session")
def csw24_set(csw24_graph, classic):
    cgp = SHARED / "positions" / "positions-public.cgp"
    if not cgp.exists():
        pytest.skip(f"CSW24 positions not found at {cgp}")
    positions = [parse_cgp(l, rules=classic) for l in cgp.read_text("utf-8").splitlines()]
    summary = read_summary(SHARED / "positions" / "summary-public.tsv")
    return Lexicon.load(csw24_graph), positions, summary


@pytest.fixture(scope="session")
def scowl_set(classic):
    positions = [parse_cgp(l, rules=classic) for l in (SCOWL_DATA / "positions.cgp").read_text("utf-8").splitlines()]
    summary = read_summary(SCOWL_DATA / "summary.tsv")
    return Lexicon.default("en"), positions, summary

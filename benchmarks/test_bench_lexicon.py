"""Graph build and load (pytest-benchmark)."""

from __future__ import annotations


import pytest

from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon

from conftest import ROOT, SHARED

SCOWL = ROOT / "lexicon_build" / "en" / "scowl-en.txt.gz"


def test_build_scowl(benchmark, tmp_path):
    dest = tmp_path / "en.wsg"
    stats = benchmark.pedantic(compile_lexicon, args=(SCOWL, dest, "en"), rounds=3)
    assert stats.words == 247_518


def test_build_csw24(benchmark, tmp_path):
    src = SHARED / "lexica" / "csw24.txt"
    if not src.exists():
        pytest.skip("CSW24 not present")
    dest = tmp_path / "csw24.wsg"
    stats = benchmark.pedantic(compile_lexicon, args=(src, dest, "en"), rounds=3)
    assert stats.words == 280_887
    assert stats.file_size <= 5_000_000
    assert stats.sha256 == "4200a40a888042ac4fa95d42ed3de82952301401df62c395180cdc2e67d63893"


def test_load_csw24(benchmark, csw24_graph):
    lex = benchmark(Lexicon.load, csw24_graph)
    assert len(lex) == 280_887 and "QI" in lex

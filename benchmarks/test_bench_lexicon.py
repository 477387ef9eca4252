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


@pytest.mark.parametrize("lang", ["en", "nl", "tr"])
def test_load_embedded(benchmark, lang):
    """What Lexicon.default pays for the packaged graph (arcs and checksums)."""
    from importlib import resources

    with resources.as_file(resources.files("wordsalvo.data").joinpath(f"{lang}.wsg")) as path:
        lex = benchmark(Lexicon._load, path, checked=True)
    assert lex._graph.words_cross_checked == 0 and len(lex) > 200_000


@pytest.mark.parametrize("verified", [False, True], ids=["full-check", "verified-content"])
def test_load_user_graph(benchmark, tmp_path, monkeypatch, verified):
    """A user's graph: the full check (every load before the verified-content cache, the
    first load of a content now) against a load of a content already verified."""
    import shutil
    from importlib import resources

    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "user.wsg"
    with resources.as_file(resources.files("wordsalvo.data").joinpath("en.wsg")) as src:
        shutil.copy(src, path)
    Lexicon.load(path)  # verifies and remembers the content
    lex = benchmark(Lexicon.load, path) if verified else benchmark(Lexicon._load, path, checked=False)
    assert len(lex) == 247_518 and (lex._graph.words_cross_checked == 0) == verified

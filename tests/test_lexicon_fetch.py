"""Building lexicons from Hunspell dictionaries: cache folder, dictionary search, game filter, fetch.

The main assertions use a stand-in checker, so they need no Hunspell install;
the end-to-end check with the real program skips when it is missing.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from wordsalvo.lexicon import fetch as lf
from wordsalvo.cli import main
from wordsalvo.errors import LexiconBuildError
from wordsalvo.lexicon.hunspell import HunspellUnavailableError

DATA = Path(__file__).parent / "data" / "hunspell"


class AcceptAll:
    """A stand-in checker: accepts every form except those listed."""

    name = "stand-in"

    def __init__(self, reject=()):
        self.reject = set(reject)

    def check(self, words, progress=None):
        return {w for w in words if w not in self.reject}


# -- cache folder ---------------------------------------------------------------------
def test_cache_dir_env_order(monkeypatch, tmp_path):
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path / "ws"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert lf.cache_dir() == tmp_path / "ws"
    monkeypatch.delenv("WORDSALVO_CACHE_DIR")
    assert lf.cache_dir() == tmp_path / "xdg" / "wordsalvo"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert lf.cache_dir() == tmp_path / "home" / ".cache" / "wordsalvo"


def test_cached_graph_path(monkeypatch, tmp_path):
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    assert lf.cached_graph_path("de") is None
    (tmp_path / "de.wsg").write_bytes(b"x")
    assert lf.cached_graph_path("de") == tmp_path / "de.wsg"


# -- dictionary search ------------------------------------------------------------------
def test_missing_dictionary_names_package_and_paths(tmp_path):
    with pytest.raises(HunspellUnavailableError) as e:
        lf.find_dictionary("de", [tmp_path / "a", tmp_path / "b"])
    msg = str(e.value)
    assert "apt-get install hunspell-de-de-frami" in msg
    assert str(tmp_path / "a" / "de_DE_frami.dic") in msg and str(tmp_path / "b" / "de_DE_frami.aff") in msg
    with pytest.raises(HunspellUnavailableError, match="hunspell-tr"):
        lf.find_dictionary("tr", [tmp_path])


def _no_checker(monkeypatch):
    """No `hunspell` program, no binding, no spylls (whatever this machine has)."""
    import sys

    import wordsalvo.lexicon.hunspell as hs

    monkeypatch.setattr(hs.shutil, "which", lambda name: None)
    monkeypatch.setattr(lf, "checker_available", lambda prefer=None: False)
    for mod in ("hunspell", "spylls", "spylls.hunspell"):
        monkeypatch.setitem(sys.modules, mod, None)


def _no_program(monkeypatch):
    import wordsalvo.lexicon.hunspell as hs

    monkeypatch.setattr(hs.shutil, "which", lambda name: None)


def test_preflight_names_every_missing_piece_at_once(monkeypatch, tmp_path):
    """German needs a dictionary and a checker: both missing come in one message, what each is
    for, and one install command (with the pure-Python alternative for the checker)."""
    _no_checker(monkeypatch)
    monkeypatch.setattr(lf, "search_dirs", lambda: [tmp_path / "dicts"])
    with pytest.raises(HunspellUnavailableError) as e:
        lf.preflight("de", cache=tmp_path / "cache")
    msg = str(e.value)
    assert msg.startswith("lexicon fetch de: 2 missing pieces")
    assert "1. the de dictionary de_DE_frami, the words themselves (package hunspell-de-de-frami)" in msg
    assert str(tmp_path / "dicts") in msg
    assert "2. a Hunspell checker for the generated forms: the `hunspell` program" in msg and "spylls" in msg
    assert "sudo apt-get install hunspell hunspell-de-de-frami" in msg
    assert "sudo apt-get install hunspell-de-de-frami && pip install 'wordsalvo[hunspell]'" in msg


def test_preflight_with_a_dictionary_but_no_checker(monkeypatch, tmp_path):
    _no_checker(monkeypatch)
    for ext in (".aff", ".dic"):
        shutil.copy(DATA / f"num{ext}", tmp_path / f"tr_TR{ext}")
    monkeypatch.setattr(lf, "search_dirs", lambda: [tmp_path])
    with pytest.raises(HunspellUnavailableError) as e:
        lf.preflight("tr", cache=tmp_path / "cache")
    msg = str(e.value)
    assert msg.startswith("lexicon fetch tr: 1 missing piece\n  1. a Hunspell checker")
    assert "dictionary" not in msg.split("\n")[1].split(":")[0]
    assert "sudo apt-get install hunspell\n" in msg and "pip install 'wordsalvo[hunspell]'" in msg


def test_preflight_names_a_missing_dictionary_file_and_an_unwritable_cache(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(HunspellUnavailableError) as e:
        lf.preflight("de", tmp_path / "nowhere" / "de_DE_frami", cache=blocker / "cache")
    msg = str(e.value)
    assert "--dictionary: no such file" in msg and str(tmp_path / "nowhere" / "de_DE_frami.aff") in msg
    assert f"a cache folder to write de.wsg into: {blocker / 'cache'}" in msg


def test_without_the_program_spylls_builds_the_list(monkeypatch, tmp_path):
    """The `hunspell` extra replaces the program: with no program on PATH the fetch checks with spylls."""
    pytest.importorskip("spylls.hunspell", reason="spylls (the hunspell extra) is not installed")
    _no_program(monkeypatch)
    for ext in (".aff", ".dic"):
        shutil.copy(DATA / f"num{ext}", tmp_path / f"tr_TR{ext}")
    monkeypatch.setattr(lf, "search_dirs", lambda: [tmp_path])
    base, checker = lf.preflight("tr", cache=tmp_path / "cache")
    assert base == tmp_path / "tr_TR" and checker.name.startswith("spylls")
    res = lf.fetch("tr", dictionary=base, cache=tmp_path / "cache", checker=checker, words_only=True)
    words = gzip.decompress(res.word_list.read_bytes()).decode().split()
    assert "KEDİ" in words and "IRMAKLER" in words and res.report.checker.startswith("spylls")


def test_dictionary_found_through_dicpath(monkeypatch, tmp_path):
    for ext in (".aff", ".dic"):
        shutil.copy(DATA / f"num{ext}", tmp_path / f"tr_TR{ext}")
    monkeypatch.setenv("DICPATH", str(tmp_path))
    assert lf.search_dirs()[0] == tmp_path
    assert lf.find_dictionary("tr") == tmp_path / "tr_TR"


def test_unknown_or_embedded_language():
    with pytest.raises(LexiconBuildError, match="embedded in the package"):
        lf.find_dictionary("en", [])
    with pytest.raises(LexiconBuildError, match="got 'xx'"):
        lf.find_dictionary("xx", [])


# -- game filter ---------------------------------------------------------------------------
def test_german_game_filter():
    rep = lf.BuildReport("de")
    words = lf.game_filter(
        ["Straße", "Strasse", "ADAC", "AachenerIn", "AStA", "Attaché", "Haus", "haus", "Äpfel", "a",
         "Donaudampfschifffahrt"], "de", rep)
    assert words == ["HAUS", "STRASSE", "ÄPFEL"]  # code-point order: Ä after Z
    assert rep.dropped == {
        lf.DROP_ACRONYM: 1, lf.DROP_INNER_CAPITAL: 2, "contains a character outside the alphabet": 1,
        lf.DROP_DUPLICATE: 2, "shorter than 2 letters": 1, "longer than 15 letters": 1,
    }
    assert rep.examples[lf.DROP_INNER_CAPITAL] == ["AachenerIn", "AStA"]


def test_turkish_game_filter():
    rep = lf.BuildReport("tr")
    words = lf.game_filter(["kedi", "adi", "adı", "İzmir", "Abay'da", "hâlâ", "hala", "ılık", "ırmak"], "tr", rep)
    assert words == ["ADI", "ADİ", "HALA", "ILIK", "IRMAK", "KEDİ"]
    assert "KEDI" not in words
    assert rep.dropped[lf.DROP_CAPITALISED] == 2  # İzmir, Abay'da (uppercase comes first)
    assert rep.dropped[lf.DROP_DUPLICATE] == 1


def test_no_word_outside_its_alphabet():
    from wordsalvo.alphabet import ALPHABETS

    for lang, forms in (("de", ["Öl", "ça", "naïv", "Maß"]), ("tr", ["quiz", "çay", "wat", "ağaç"])):
        for w in lf.game_filter(forms, lang):
            assert all(ALPHABETS[lang].is_letter(c) for c in w), w


# -- building from a dictionary ----------------------------------------------------------------
def test_build_word_list_from_numeric_flag_sample():
    words, rep = lf.build_word_list("tr", DATA / "num", checker=AcceptAll(reject={"ırmakler"}))
    assert words == ["ADI", "ADIDE", "ADİ", "ADİLER", "EV", "EVDE", "EVLER", "HALA", "IRMAK", "KEDİ", "KEDİCİ",
                     "KEDİLER"]
    assert rep.stems == 7 and rep.words == len(words)
    assert rep.dropped["contains an apostrophe"] == 1          # İzmir'da, before checking
    assert rep.dropped[lf.DROP_REJECTED] == 1                   # ırmakler
    assert rep.examples[lf.DROP_REJECTED] == ["ırmakler"]
    assert rep.dropped[lf.DROP_CAPITALISED] == 2                # İzmir, İzmirde
    assert rep.checker == "stand-in" and len(rep.dic_sha256) == 64
    assert "reference run" in rep.summary()


def test_build_word_list_counts_expander_drops():
    words, rep = lf.build_word_list("de", DATA / "single", checker=AcceptAll())
    assert "TEILS" in words and "TEIL" not in words and "FUSS" in words and "FUSSS" in words
    assert rep.dropped["expander: FORBIDDENWORD"] == 1


def test_fetch_words_only_into_cache(tmp_path):
    res = lf.fetch("tr", dictionary=DATA / "num", cache=tmp_path, checker=AcceptAll(), words_only=True)
    assert res.graph is None and res.word_list == tmp_path / "tr.txt.gz"
    text = gzip.decompress(res.word_list.read_bytes()).decode("utf-8")
    assert text.splitlines()[:3] == ["ADI", "ADIDE", "ADİ"] and text.endswith("\n")
    report = json.loads((tmp_path / "tr.json").read_text(encoding="utf-8"))
    assert report["words"] == len(text.splitlines()) and report["lang"] == "tr"
    # reproducible bytes: the same input gives the same file
    first = res.word_list.read_bytes()
    lf.fetch("tr", dictionary=DATA / "num", cache=tmp_path, checker=AcceptAll(), words_only=True)
    assert res.word_list.read_bytes() == first
    assert not list(tmp_path.glob("*.tmp"))


# -- the command line ------------------------------------------------------------------------
def test_cli_fetch_missing_dictionary(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(lf, "search_dirs", lambda: [tmp_path])
    assert main(["lexicon", "fetch", "de", "--cache-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "hunspell-de-de-frami" in err and str(tmp_path) in err and "missing piece" in err


def test_cli_fetch_unknown_language(capsys):
    assert main(["lexicon", "fetch", "klingon"]) == 2
    assert "got 'klingon'" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("hunspell") is None, reason="the `hunspell` program is not installed")
def test_cli_fetch_words_only_with_hunspell_program(capsys, tmp_path):
    for ext in (".aff", ".dic"):
        shutil.copy(DATA / f"num{ext}", tmp_path / f"tr_TR{ext}")
    rc = main(["lexicon", "fetch", "tr", "--dictionary", str(tmp_path / "tr_TR"), "--cache-dir",
               str(tmp_path / "cache"), "--words-only", "--checker", "program", "-q"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "hunspell program" in out and "tr: " in out
    words = gzip.decompress((tmp_path / "cache" / "tr.txt.gz").read_bytes()).decode().split()
    assert "KEDİ" in words and "ADI" in words and "ADİ" in words and "IRMAKLER" in words


# -- with the graph compiler (skips until the extension is built) ---------------------------
def _compiler():
    try:
        from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon
    except ImportError as e:
        pytest.skip(f"the graph compiler is not built: {e}")
    return Lexicon, compile_lexicon


def test_fetch_compiles_graph_that_default_finds(monkeypatch, tmp_path):
    Lexicon, _ = _compiler()
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    res = lf.fetch("tr", dictionary=DATA / "num", checker=AcceptAll())
    assert res.graph == tmp_path / "tr.wsg" == lf.cached_graph_path("tr")
    lex = Lexicon.load(str(res.graph))
    assert "KEDİ" in lex and "ADI" in lex and "ADİ" in lex and "KEDI" not in lex
    assert len(lex) == res.report.words
    assert "compile" in res.report.seconds
    # checked word by word once, at fetch: a start loads it with the arc and checksum checks alone
    from wordsalvo.lexicon.lexicon import load_cached

    assert (tmp_path / "tr.wsg.checked").is_file()
    assert load_cached(res.graph)._graph.words_cross_checked == 0
    # the public load checks the words of a content once too (fetch's check remembered it)
    assert Lexicon.load(str(res.graph))._graph.words_cross_checked == 0
    import os

    st = res.graph.stat()
    os.utime(res.graph, ns=(st.st_atime_ns, st.st_mtime_ns + 1))  # another file, the same content
    assert load_cached(res.graph)._graph.words_cross_checked == 0
    for marker in (tmp_path / "verified").iterdir():  # a content never seen: checked again
        marker.unlink()
    assert load_cached(res.graph)._graph.words_cross_checked > 0


def test_cli_build_and_info(capsys, tmp_path):
    _compiler()
    src = tmp_path / "words.txt"
    src.write_text("kedi\nadı\nadi\nİzmir'de\nx\nkedi\n", encoding="utf-8")
    out = tmp_path / "tr.wsg"
    assert main(["lexicon", "build", str(src), "-o", str(out), "--alphabet", "tr", "-q"]) == 0
    text = capsys.readouterr().out
    assert "3 words" in text and "apostrophe" in text and "duplicate" in text
    assert main(["lexicon", "info", str(out)]) == 0
    info = capsys.readouterr().out
    assert "alphabet: tr" in info and "words: 3" in info and "nodes:" in info and "sha256:" in info


def test_cli_info_bad_file(capsys, tmp_path):
    pytest.importorskip("wordsalvo.lexicon.graphfile", reason="the graph file module is not there yet")
    bad = tmp_path / "bad.wsg"
    bad.write_bytes(b"not a graph at all" * 20)
    assert main(["lexicon", "info", str(bad)]) == 2
    assert "bad.wsg" in capsys.readouterr().err


def test_cli_fetch_de_drops_abbreviations_and_names_and_lists_them(monkeypatch, capsys, tmp_path):
    """The German clean-up (wordsalvo/data/de-drops.toml): words without a vowel but
    interjections, curated abbreviations with a vowel and curated names; every one listed."""
    import wordsalvo.lexicon.hunspell as hs

    monkeypatch.setattr(hs, "find_checker", lambda base, prefer=None: AcceptAll())
    cache = tmp_path / "cache"
    rc = main(["lexicon", "fetch", "de", "--dictionary", str(DATA / "de_cleanup"), "--cache-dir", str(cache), "-q"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert f"dropped         7  {lf.DROP_VOWELLESS}" in out
    assert f"dropped         1  {lf.DROP_ABBREVIATION}" in out and f"dropped         6  {lf.DROP_NAME}" in out
    report = json.loads((cache / "de.json").read_text(encoding="utf-8"))
    assert report["listed"] == {lf.DROP_VOWELLESS: ["BSP", "HTTP", "KFZ", "KM", "LKW", "PKW", "PKWS"],
                                lf.DROP_ABBREVIATION: ["TEL"],
                                lf.DROP_NAME: ["EVA", "EVAS", "ULM", "ULMS", "ZEWEN", "ZEWENS"]}
    words = gzip.decompress((cache / "de.txt.gz").read_bytes()).decode().split()
    # HM: an interjection without a vowel; NEWS: a word, though NEW is not
    assert words == ["AUTO", "AUTOS", "HAUS", "HAUSES", "HM", "NEWS", "ULME", "ULMEN"]
    # the engine levels' vocabularies are built with the lexicon, not at the first game's start
    assert sorted(p.name.split("-")[1] for p in (cache / "levels").glob("de-*.wsg")) == ["easy", "hard", "medium"]


def test_every_curated_german_drop_is_an_uppercase_word_of_the_alphabet():
    from wordsalvo.alphabet import get_alphabet

    cleanup = lf.clean_up("de")
    de = get_alphabet("de")
    for word in cleanup.abbreviations | cleanup.names | cleanup.vowelless_kept:
        assert de.normalize(word) == (word, 0), word
    assert not cleanup.abbreviations & cleanup.names
    assert all(not cleanup.vowels.intersection(w) for w in cleanup.vowelless_kept)
    assert lf.clean_up("tr") is None

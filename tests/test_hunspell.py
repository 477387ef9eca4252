"""The Hunspell reader, the limited affix expander and the checkers.

The expander is tested on small dictionaries written for these tests
(tests/data/hunspell/*.aff/.dic); the checker tests that need a Hunspell
backend skip with a reason when none is installed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wordsalvo.errors import LexiconBuildError, WordSalvoError
from wordsalvo.lexicon.hunspell import (
    AffixRule,
    ExpansionStats,
    HunspellProgramChecker,
    HunspellUnavailableError,
    _condition_regex,
    find_checker,
    parse_flags,
    read_dictionary,
)

DATA = Path(__file__).parent / "data" / "hunspell"


def expand(name: str) -> tuple[set[str], ExpansionStats]:
    d = read_dictionary(DATA / name)
    st = ExpansionStats()
    return set(d.expand_all(st)), st


# -- flags -------------------------------------------------------------------------
def test_parse_flags_every_type():
    assert parse_flags("ABc", "char") == {"A", "B", "c"}
    assert parse_flags("AaBb", "long") == {"Aa", "Bb"}
    assert parse_flags("1,10,999", "num") == {"1", "10", "999"}
    assert parse_flags("üş", "UTF-8") == {"ü", "ş"}
    assert parse_flags("", "num") == frozenset()
    aliases = [frozenset({"x"}), frozenset({"y", "z"})]
    assert parse_flags("2", "char", aliases) == {"y", "z"}


@pytest.mark.parametrize("text,ftype", [("Abc", "long"), ("1,x", "num"), ("3", "alias")])
def test_parse_flags_errors_say_what_came(text, ftype):
    aliases = [frozenset({"x"})] if ftype == "alias" else None
    with pytest.raises(LexiconBuildError) as e:
        parse_flags(text, "num" if ftype == "alias" else ftype, aliases, where=" at t.dic:3")
    assert text in str(e.value) and "t.dic:3" in str(e.value)
    assert isinstance(e.value, WordSalvoError)


# -- conditions and single rules ------------------------------------------------------
def test_condition_regexes():
    assert _condition_regex(".", True) is None
    r = _condition_regex("[^aeiou]y", True)
    assert r.search("fly") and not r.search("day")
    assert _condition_regex("[^i]n", True).search("bern")
    assert not _condition_regex("[^i]n", True).search("berin")
    assert _condition_regex("ab", False).match("abend") and not _condition_regex("ab", False).match("xab")


def test_suffix_rule_strip_and_condition():
    rule = AffixRule("SFX", "S", "y", "ies", frozenset(), "[^aeiou]y", True, _condition_regex("[^aeiou]y", True))
    assert rule.apply("fly") == "flies"
    assert rule.apply("day") is None          # condition fails
    assert rule.apply("y") is None            # the condition needs two letters
    whole = AffixRule("SFX", "S", "y", "ies", frozenset(), "y", True, _condition_regex("y", True))
    assert whole.apply("y") is None           # nothing left after strip (no FULLSTRIP)
    assert whole.apply("y", fullstrip=True) == "ies"


def test_prefix_rule_strip_and_condition():
    rule = AffixRule("PFX", "P", "a", "e", frozenset(), "ab", True, _condition_regex("ab", False))
    assert rule.apply("abend") == "ebend"
    assert rule.apply("ober") is None


# -- the sample dictionaries ----------------------------------------------------------
SINGLE_FORMS = {
    "fly", "flies",                               # strip y, condition [^aeiou]y
    "day", "days",                                # condition [aeiou]y
    "lock", "locks", "locked", "unlock", "unlocks", "unlocked",  # cross product U x S, D
    "bake", "baked", "rebake",                    # R has no cross product: no "rebaked"
    "kind", "kindness", "unkind",                 # N has no cross product: no "unkindness"
    "walk", "walker", "walkers",                  # continuation class: second suffix
    "duck", "ducklings",                          # ling/hS needs a further affix
    "teils",                                      # NEEDAFFIX stem: only with an affix
    "fuß", "fußs",                                # ISO-8859-1 read right
    "mach", "gemacht",                            # CIRCUMFIX: ge- and -t only together
}


def test_single_char_flags_iso8859_1():
    d = read_dictionary(DATA / "single")
    assert d.encoding == "iso-8859-1" and d.flag_type == "char"
    assert (d.needaffix, d.forbiddenword, d.onlyincompound, d.circumfix) == ("h", "d", "o", "f")
    forms, st = expand("single")
    assert forms == SINGLE_FORMS


def test_single_drops_by_reason():
    forms, st = expand("single")
    for absent in ("teil", "duckling", "wrongword", "part", "rebaked", "unkindness", "macht", "gemach"):
        assert absent not in forms
    assert st.examples["FORBIDDENWORD"] == ["wrongword"]
    assert set(st.examples["NEEDAFFIX (needs a further affix)"]) == {"teil", "duckling"}
    assert "part" in st.examples["ONLYINCOMPOUND (compound part only)"]
    assert set(st.examples["CIRCUMFIX (needs its prefix and suffix together)"]) == {"macht", "gemach"}
    assert st.stems == 12


def test_long_flags_utf8_strip_and_needaffix():
    d = read_dictionary(DATA / "long")
    assert d.encoding == "utf-8" and d.flag_type == "long"
    forms, st = expand("long")
    assert forms == {
        "kedi", "kediler", "göz", "gözler",
        "kitap", "kitaplar", "kitabı", "önkitap", "önkitaplar", "önkitabı",
        "çocuklar",  # çocuk itself needs an affix
    }
    assert st.dropped["NEEDAFFIX (needs a further affix)"] == 1


def test_numeric_flags():
    d = read_dictionary(DATA / "num")
    assert d.flag_type == "num" and set(d.suffixes) == {"1", "2", "10", "999"}
    forms, _ = expand("num")
    # flag 10 is one flag, not 1 and 0
    assert {"kedi", "kedici", "kediler"} <= forms and "kedide" not in forms
    assert {"ev", "evler", "evde", "adi", "adiler", "adı", "adıde", "İzmir", "İzmirde", "İzmir'da",
            "hâlâ"} <= forms


def test_utf8_flags_with_af_aliases():
    forms, _ = expand("utf8")
    assert forms == {"haus", "hause", "maus", "mause", "mausen"}


def test_dic_line_with_escaped_slash_and_morphology(tmp_path):
    (tmp_path / "x.aff").write_text("SET UTF-8\nSFX A Y 1\nSFX A 0 s .\n", encoding="utf-8")
    (tmp_path / "x.dic").write_text("3\nand\\/or/A\nhaus/A\tpo:noun\n# comment\n\tcomment too\nbaum/A st:baum\n",
                                    encoding="utf-8")
    d = read_dictionary(tmp_path / "x")
    assert [w for w, _ in d.entries] == ["and/or", "haus", "baum"]
    assert set(d.expand_all()) == {"and/or", "and/ors", "haus", "hauss", "baum", "baums"}


def test_reader_collects_every_problem(tmp_path):
    (tmp_path / "x.aff").write_text("SET UTF-8\nFLAG num\nSFX 1 N 2\nSFX 1 0 s .\n", encoding="utf-8")
    (tmp_path / "x.dic").write_text("2\na/x\nb/1,y\n", encoding="utf-8")
    with pytest.raises(LexiconBuildError) as e:
        read_dictionary(tmp_path / "x")
    msg = str(e.value)
    assert "3 problems" in msg and "x.dic:2" in msg and "x.dic:3" in msg and "SFX 1" in msg


def test_missing_files_are_named(tmp_path):
    with pytest.raises(HunspellUnavailableError) as e:
        read_dictionary(tmp_path / "nothing")
    assert "nothing.aff" in str(e.value)


def test_unknown_flag_type(tmp_path):
    (tmp_path / "x.aff").write_text("FLAG weird\n", encoding="utf-8")
    (tmp_path / "x.dic").write_text("0\n", encoding="utf-8")
    with pytest.raises(LexiconBuildError, match="FLAG long, num or UTF-8, got FLAG 'weird'"):
        read_dictionary(tmp_path / "x")


# -- checkers ---------------------------------------------------------------------------
def test_no_backend_says_what_was_tried(monkeypatch):
    import wordsalvo.lexicon.hunspell as hs

    monkeypatch.setattr(hs.shutil, "which", lambda name: None)
    monkeypatch.setitem(__import__("sys").modules, "hunspell", None)
    monkeypatch.setitem(__import__("sys").modules, "spylls", None)
    monkeypatch.setitem(__import__("sys").modules, "spylls.hunspell", None)
    with pytest.raises(HunspellUnavailableError) as e:
        find_checker(DATA / "single")
    msg = str(e.value)
    assert "hunspell" in msg and "spylls" in msg and "apt-get install hunspell" in msg


def test_unknown_checker_name():
    with pytest.raises(LexiconBuildError, match="expected a checker name"):
        find_checker(DATA / "single", prefer="aspell")


needs_program = pytest.mark.skipif(shutil.which("hunspell") is None,
                                   reason="the `hunspell` program is not installed")


@needs_program
@pytest.mark.parametrize("name", ["single", "long", "num", "utf8"])
def test_hunspell_program_accepts_every_generated_letter_form(name):
    forms, _ = expand(name)
    letters = [f for f in forms if f.isalpha()]
    checker = HunspellProgramChecker(DATA / name, batch=3)  # several batches
    assert checker.check(letters) == set(letters)


@needs_program
def test_hunspell_program_rejects_flag_dropped_forms():
    checker = HunspellProgramChecker(DATA / "single")
    assert checker.check(["teil", "duckling", "wrongword", "part", "walkers", "fuß"]) == {"walkers", "fuß"}


@needs_program
def test_hunspell_program_bad_dictionary_is_an_error(tmp_path):
    with pytest.raises(HunspellUnavailableError, match="missing.aff"):
        HunspellProgramChecker(tmp_path / "missing")


def test_spylls_checker_agrees_on_samples():
    pytest.importorskip("spylls.hunspell", reason="spylls is not installed")
    from wordsalvo.lexicon.hunspell import SpyllsChecker

    c = SpyllsChecker(DATA / "single")
    assert c.check(["walkers", "teil", "wrongword", "flies", "fuß"]) == {"walkers", "flies", "fuß"}
    forms, _ = expand("long")
    assert SpyllsChecker(DATA / "long").check(sorted(forms)) == forms

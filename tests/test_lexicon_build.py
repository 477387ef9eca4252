"""The committed lexicon sources in lexicon_build/: manifests agree with the lists they describe.

Reads only files of this repository (never the shared folder of the dev machine).
"""

from __future__ import annotations

import gzip
import hashlib
import tomllib
from pathlib import Path

import pytest

from wordsalvo.alphabet import ALPHABETS, LINE_OK

BUILD = Path(__file__).resolve().parent.parent / "lexicon_build"
# the folders this issue owns; en is checked the same way when its folder is there
FOLDERS = [p.parent for p in sorted(BUILD.glob("*/manifest.toml"))]

REQUIRED = {"embed", "alphabet", "output", "source_name", "version", "licence", "normalisation", "word_count"}


def manifest(folder: Path) -> dict:
    return tomllib.loads((folder / "manifest.toml").read_text(encoding="utf-8"))


def test_seed_folders_exist():
    names = {f.name for f in FOLDERS}
    assert {"nl", "tr", "de"} <= names


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_manifest_keys(folder):
    m = manifest(folder)
    assert REQUIRED <= set(m), REQUIRED - set(m)
    assert m["alphabet"] in ALPHABETS
    if m["embed"]:
        assert (folder / m["source"]).is_file()
        assert (folder / m["notice"]).is_file()
        assert m["output"] == f"{folder.name}.wsg"
        assert (folder / m["source"]).stat().st_size < 8_000_000  # committed files stay small


def test_german_list_is_not_committed():
    de = BUILD / "de"
    assert manifest(de)["embed"] is False
    assert not [p for p in de.iterdir() if p.suffix in (".gz", ".txt", ".wsg", ".xz") and p.name != "dropped.txt"]
    # dropped.txt lists the few words the clean-up drops (with the GPL notice), not the list
    lines = (de / "dropped.txt").read_text("utf-8").splitlines()
    assert lines[0].startswith("# Words of the German Hunspell list") and "GPL" in lines[0]
    assert len(lines) < 200 and all("\t" in line for line in lines if not line.startswith("#"))


@pytest.mark.parametrize("folder", [f for f in FOLDERS if manifest(f)["embed"]], ids=lambda f: f.name)
def test_embedded_list_matches_manifest(folder):
    m = manifest(folder)
    data = gzip.decompress((folder / m["source"]).read_bytes())
    assert hashlib.sha256(data).hexdigest() == m["source_sha256"]
    words = data.decode("utf-8").split("\n")
    assert words[-1] == ""
    words = words[:-1]
    assert len(words) == m["word_count"]
    assert words == sorted(set(words))  # unique, sorted by code point
    alphabet = ALPHABETS[m["alphabet"]]
    letters = set(alphabet.letters)
    for w in words:  # no letter outside the alphabet, 2..15
        assert 2 <= len(w) <= 15 and set(w) <= letters, w
    # normalisation is idempotent on the committed list (spot check, all would be slow for tr)
    for w in words[:: max(1, len(words) // 5000)]:
        assert alphabet.normalize(w) == (w, LINE_OK)


def test_turkish_list_has_both_i():
    m = manifest(BUILD / "tr")
    words = set(gzip.decompress((BUILD / "tr" / m["source"]).read_bytes()).decode("utf-8").split())
    assert {"KEDİ", "ADI", "ADİ", "KEDİLER", "HALA"} <= words
    assert "KEDI" not in words and "KEDILER" not in words


def _nl_recipe():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_nl_recipe", BUILD / "nl" / "recipe.py")
    recipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe)
    return recipe


#: the abbreviations a user found accepted (issue 12), and abbreviations with a vowel
REPORTED = ("CC", "HD", "HL", "KG", "KM", "TV", "PC", "CD", "DVD", "BV", "NV")
WITH_A_VOWEL = ("OV", "UV", "IC", "ID", "HBO", "HIV", "APK", "CAO", "SOA", "OKT")


def test_dutch_list_has_no_abbreviations():
    """Word games refuse abbreviations and symbols: the Dutch list keeps no vowel-less entry but
    the interjections, and none of the curated abbreviations with a vowel."""
    recipe = _nl_recipe()
    words = gzip.decompress((BUILD / "nl" / "words.txt.gz").read_bytes()).decode("utf-8").split()
    vowelless = {w for w in words if not recipe.VOWELS.intersection(w)}
    assert vowelless == set(recipe.VOWELLESS_KEPT)
    assert not recipe.INITIALISMS & set(words)
    for abbreviation in REPORTED + WITH_A_VOWEL:
        assert abbreviation not in words
    for word in ("HAVO", "AIDS", "UFO", "MIN", "MAX", "PROF", "HU", "HM", "KAAS"):  # spoken as words, or words
        assert word in words
    # the recipe's rule on raw OpenTaal lines: lowercase abbreviations go, interjections and words stay
    import wordsalvo.alphabet as alphabet

    kept, dropped, abbreviations = recipe.build(["cd", "dvd", "hm", "brr", "hu", "kaas", "KLM", "ov", "havo"],
                                                alphabet)
    assert kept == ["BRR", "HAVO", "HM", "HU", "KAAS"]
    assert dropped[recipe.DROP_ABBREVIATION] == 2 and dropped[recipe.DROP_INITIALISM] == 1
    assert abbreviations == {"CD": recipe.DROP_ABBREVIATION, "DVD": recipe.DROP_ABBREVIATION,
                             "OV": recipe.DROP_INITIALISM}


def test_dutch_dropped_abbreviations_are_listed():
    """lexicon_build/nl/dropped.txt names every abbreviation the recipe dropped, with its rule,
    and the manifest's counts agree with it."""
    recipe = _nl_recipe()
    rows = [line.split("\t") for line in (BUILD / "nl" / "dropped.txt").read_text("utf-8").splitlines()
            if line and not line.startswith("#")]
    listed = {w: r for w, r in rows}
    assert len(listed) == len(rows)
    assert set(listed.values()) == {recipe.DROP_ABBREVIATION, recipe.DROP_INITIALISM}
    assert {w for w, r in listed.items() if r == recipe.DROP_INITIALISM} == set(recipe.INITIALISMS)
    assert all(not recipe.VOWELS.intersection(w) for w, r in listed.items() if r == recipe.DROP_ABBREVIATION)
    assert set(REPORTED + WITH_A_VOWEL) <= set(listed)
    words = set(gzip.decompress((BUILD / "nl" / "words.txt.gz").read_bytes()).decode("utf-8").split())
    assert not words & set(listed)
    assert recipe.dropped_text(listed) == (BUILD / "nl" / "dropped.txt").read_text("utf-8")
    assert f"every one of these {len(listed)} is listed in dropped.txt" in manifest(BUILD / "nl")["normalisation"]


def test_embedded_dutch_graph_refuses_abbreviations():
    from wordsalvo import Lexicon

    nl = Lexicon.default("nl")
    assert "KAAS" in nl and "HM" in nl
    for abbreviation in REPORTED + WITH_A_VOWEL:
        assert abbreviation not in nl

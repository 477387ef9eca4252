"""Alphabets and the one normalisation table per language, against the known pitfalls."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wordsalvo.alphabet import (
    ALPHABETS,
    BLANK_BIT,
    LINE_APOSTROPHE,
    LINE_COMMENT,
    LINE_DIGIT,
    LINE_DOT,
    LINE_EMPTY,
    LINE_HYPHEN,
    LINE_OK,
    LINE_OTHER_CHARACTER,
    LINE_REASONS,
    LINE_SPACE,
    LINE_TOO_LONG,
    LINE_TOO_SHORT,
    get_alphabet,
)
from wordsalvo.errors import AlphabetError, WordSalvoError


def norm(lang: str, entry: str):
    return ALPHABETS[lang].normalize(entry)


# -- the letters -------------------------------------------------------------------------
def test_letters_of_every_seed_language():
    az = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert "".join(ALPHABETS["en"].letters) == az
    assert "".join(ALPHABETS["nl"].letters) == az  # IJ is not a letter of its own
    assert "".join(ALPHABETS["de"].letters) == az + "ÄÖÜ"
    tr = ALPHABETS["tr"]
    assert tr.size == 29
    assert "".join(tr.letters) == "ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"
    assert not {"Q", "W", "X"} & set(tr.letters)


def test_codes_round_trip_and_blank_bit():
    tr = ALPHABETS["tr"]
    word = "KEDİ"
    assert tr.decode(tr.encode(word)) == word
    assert tr.code("I") != tr.code("İ")
    assert tr.board_code("i") == tr.code("İ") | BLANK_BIT  # lowercase = blank
    assert tr.board_code("ı") == tr.code("I") | BLANK_BIT
    assert tr.board_letter(tr.code("İ") | BLANK_BIT) == "i"


def test_unknown_letter_and_alphabet_errors():
    with pytest.raises(AlphabetError) as e:
        ALPHABETS["en"].code("Ä")
    assert "'Ä'" in str(e.value) and isinstance(e.value, WordSalvoError)
    with pytest.raises(AlphabetError, match="'xx'"):
        get_alphabet("xx")


# -- Turkish: Python's str.upper() is wrong here ---------------------------------------
def test_python_upper_is_wrong_for_turkish():
    assert "kedi".upper() == "KEDI"  # the pitfall: dotless capital I
    assert norm("tr", "kedi") == ("KEDİ", LINE_OK)


@pytest.mark.parametrize("entry,word", [
    ("kedi", "KEDİ"), ("ılık", "ILIK"), ("iğne", "İĞNE"), ("adi", "ADİ"), ("adı", "ADI"),
    ("KEDİ", "KEDİ"), ("KEDI", "KEDI"), ("çiçek", "ÇİÇEK"), ("şüphe", "ŞÜPHE"), ("öğün", "ÖĞÜN"),
])
def test_turkish_case(entry, word):
    assert norm("tr", entry) == (word, LINE_OK)


def test_adi_and_adı_stay_two_words():
    a, b = norm("tr", "adi")[0], norm("tr", "adı")[0]
    assert a != b and {a, b} == {"ADİ", "ADI"}


def test_turkish_circumflex():
    assert norm("tr", "hâlâ") == ("HALA", LINE_OK)
    assert norm("tr", "îman") == ("İMAN", LINE_OK)
    assert norm("tr", "rûh") == ("RUH", LINE_OK)


@pytest.mark.parametrize("entry", ["quiz", "wat", "taxi", "café"])
def test_turkish_foreign_letters_drop(entry):
    assert norm("tr", entry) == (None, LINE_OTHER_CHARACTER)


# -- German ------------------------------------------------------------------------------
@pytest.mark.parametrize("entry,word", [
    ("Straße", "STRASSE"), ("straße", "STRASSE"), ("STRAẞE", "STRASSE"),
    ("Äpfel", "ÄPFEL"), ("über", "ÜBER"), ("Öl", "ÖL"),
])
def test_german(entry, word):
    assert norm("de", entry) == (word, LINE_OK)


def test_german_sharp_s_counts_two_tiles():
    # 14 letters + ß -> 16 tiles: too long
    assert norm("de", "Straßenbahnhof") == ("STRASSENBAHNHOF", LINE_OK)
    assert norm("de", "Straßenbahnhofs") == (None, LINE_TOO_LONG)


@pytest.mark.parametrize("entry", ["Attaché", "Béchamel", "señor", "Façade"])
def test_german_foreign_letters_drop(entry):
    assert norm("de", entry) == (None, LINE_OTHER_CHARACTER)


# -- Dutch -------------------------------------------------------------------------------
def test_dutch_ij_ligature_is_two_letters():
    assert norm("nl", "\u0133s") == ("IJS", LINE_OK)
    assert norm("nl", "\u0132sland") == ("IJSLAND", LINE_OK)
    assert norm("nl", "ijs") == ("IJS", LINE_OK)


@pytest.mark.parametrize("entry,word", [
    # the one rule: every diacritic is stripped (NFD, combining marks removed)
    ("álles", "ALLES"), ("één", "EEN"), ("ideeën", "IDEEEN"), ("café", "CAFE"), ("òf", "OF"),
])
def test_dutch_accents(entry, word):
    assert norm("nl", entry) == (word, LINE_OK)


# -- English ------------------------------------------------------------------------------
def test_english_accents_drop():
    assert norm("en", "café") == (None, LINE_OTHER_CHARACTER)
    assert norm("en", "Straße") == (None, LINE_OTHER_CHARACTER)
    assert norm("en", "Quiz") == ("QUIZ", LINE_OK)


# -- drops by reason ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", sorted(ALPHABETS))
@pytest.mark.parametrize("entry,reason", [
    ("", LINE_EMPTY), ("   ", LINE_EMPTY), ("# comment", LINE_COMMENT),
    ("b2b", LINE_DIGIT), ("m²", LINE_DIGIT),
    ("auto's", LINE_APOSTROPHE), ("rock’n", LINE_APOSTROPHE),
    ("e-mail", LINE_HYPHEN), ("a–b", LINE_HYPHEN),
    ("z.b", LINE_DOT), ("ad hoc", LINE_SPACE),
    ("a&b", LINE_OTHER_CHARACTER), ("a/b", LINE_OTHER_CHARACTER),
    ("a", LINE_TOO_SHORT), ("z" * 16, LINE_TOO_LONG),
])
def test_drop_reasons(lang, entry, reason):
    assert norm(lang, entry) == (None, reason)
    assert reason in LINE_REASONS


@pytest.mark.parametrize("lang", sorted(ALPHABETS))
def test_length_bounds(lang):
    assert norm(lang, "ab")[1] == LINE_OK
    assert norm(lang, "a" * 15)[1] == LINE_OK
    assert norm(lang, "a" * 16)[1] == LINE_TOO_LONG


def test_surrounding_whitespace_is_not_part_of_the_word():
    assert norm("en", "  word\n") == ("WORD", LINE_OK)


@pytest.mark.parametrize("lang", sorted(ALPHABETS))
@given(st.text(max_size=20))
def test_normalised_words_use_only_alphabet_letters(lang, text):
    a = ALPHABETS[lang]
    word, reason = a.normalize(text)
    if word is None:
        assert reason != LINE_OK
    else:
        assert reason == LINE_OK and 2 <= len(word) <= 15
        assert all(a.is_letter(c) for c in word)
        assert a.normalize(word) == (word, LINE_OK)  # idempotent


def test_mapping_table_for_the_compiler():
    table = dict(ALPHABETS["de"].mapping_table())
    assert table[ord("ß")] == bytes([ALPHABETS["de"].code("S")] * 2)
    assert table[ord("ä")] == bytes([ALPHABETS["de"].code("Ä")])
    tr = dict(ALPHABETS["tr"].mapping_table())
    assert tr[ord("i")] == bytes([ALPHABETS["tr"].code("İ")])
    assert tr[ord("ı")] == bytes([ALPHABETS["tr"].code("I")])

"""The graph compiler and loader against independent oracles.

The node array is read back here with numpy and walked in plain Python, so the
checks do not rely on the C code they test:

* the DAWG holds exactly the normalised words;
* the GADDAG holds exactly REV(x)◇y for every split of every word with x non-empty
  (and REV(word) itself, with no separator);
* the same words give the same bytes, whatever the input order and duplicates;
* the header's word-list sha256 is the sha256 of the normalised list.
"""

from __future__ import annotations

import gzip
import hashlib
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo.lexicon import graphfile
from wordsalvo._core import _graph
from wordsalvo.alphabet import get_alphabet
from wordsalvo.errors import LexiconFormatError
from wordsalvo.lexicon.lexicon import Lexicon

SEP = "◇"


def compile_words(words: list[str], lang: str = "en") -> tuple[bytes, graphfile.BuildStats]:
    text = ("\n".join(words) + "\n").encode("utf-8")
    return graphfile.compile_bytes(text, get_alphabet(lang), _graph)


def nodes_of(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype="<u4", offset=graphfile.HEADER_SIZE)


def walk(nodes: np.ndarray, start: int, letters: tuple[str, ...]) -> set[str]:
    """Every accepted path from a list, as strings (tile 0 written as ◇)."""
    out: set[str] = set()

    def rec(list_index: int, prefix: str, depth: int) -> None:
        assert depth <= 31, "path too long: a cycle?"
        i = list_index
        while True:
            node = int(nodes[i])
            tile = node >> 26
            ch = SEP if tile == 0 else letters[tile - 1]
            if node >> 25 & 1:
                out.add(prefix + ch)
            child = node & 0xFFFFFF
            if child:
                rec(child, prefix + ch, depth + 1)
            if node >> 24 & 1:
                return
            i += 1

    rec(start, "", 0)
    return out


def gaddag_strings(words) -> set[str]:
    out = set()
    for w in words:
        for i in range(1, len(w) + 1):
            x, y = w[:i], w[i:]
            out.add(x[::-1] + (SEP + y if y else ""))
    return out


WORDS = ["CARE", "CARED", "CARES", "AR", "ARE", "ERA", "RACE", "QI", "ZA", "EAR", "ACRE"]


def test_dawg_and_gaddag_hold_exactly_the_words():
    data, stats = compile_words(WORDS)
    nodes = nodes_of(data)
    letters = get_alphabet("en").letters
    assert stats.words == len(WORDS)
    assert walk(nodes, int(nodes[0]) & 0xFFFFFF, letters) == set(WORDS)
    assert walk(nodes, int(nodes[1]) & 0xFFFFFF, letters) == gaddag_strings(WORDS)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ABCDE", min_size=2, max_size=7), min_size=1, max_size=60))
def test_random_word_lists_round_trip(words):
    data, stats = compile_words(words)
    nodes = nodes_of(data)
    letters = get_alphabet("en").letters
    assert stats.words == len(set(words))
    assert walk(nodes, int(nodes[0]) & 0xFFFFFF, letters) == set(words)
    assert walk(nodes, int(nodes[1]) & 0xFFFFFF, letters) == gaddag_strings(set(words))
    lex = ws.Lexicon.from_bytes(data)
    assert list(lex) == sorted(set(words))
    assert all(w in lex for w in words)


def test_same_words_same_bytes_whatever_the_order():
    with gzip.open(Path(__file__).parent.parent / "lexicon_build" / "en" / "scowl-en.txt.gz", "rt") as f:
        words = f.read().split()[:20000]
    a, _ = compile_words(words)
    shuffled = words[:] + words[:500]  # duplicates too
    random.Random(1).shuffle(shuffled)
    b, stats = compile_words(shuffled)
    assert a == b
    assert stats.dropped.get("duplicate") == 500


def test_header_hash_is_the_hash_of_the_normalised_list():
    words = ["straße", "Äpfel", "ÖL", "über", "Zug"]
    data, stats = compile_words(words, "de")
    normalised = sorted(["STRASSE", "ÄPFEL", "ÖL", "ÜBER", "ZUG"])
    expected = hashlib.sha256(("\n".join(normalised) + "\n").encode("utf-8")).hexdigest()
    assert stats.sha256 == expected
    lex = ws.Lexicon.from_bytes(data)
    assert lex.sha256 == expected and len(lex) == 5
    assert "STRASSE" in lex and "Straße" in lex and "äpfel" in lex
    assert list(lex) == ["STRASSE", "ZUG", "ÄPFEL", "ÖL", "ÜBER"]  # tile order: A-Z, then Ä Ö Ü


def test_turkish_order_and_dotted_i():
    words = ["kedi", "KEDİ", "KEDI", "adı", "adi", "çay"]
    data, stats = compile_words(words, "tr")
    lex = ws.Lexicon.from_bytes(data)
    assert stats.words == 5 and stats.dropped == {"duplicate": 1}
    assert "KEDİ" in lex and "KEDI" in lex and "ADI" in lex and "ADİ" in lex
    # the hash is over code-point order (Ç after Z), the graph in alphabet order (Ç after C)
    normalised = sorted(["KEDİ", "KEDI", "ADI", "ADİ", "ÇAY"])
    assert stats.sha256 == hashlib.sha256(("\n".join(normalised) + "\n").encode()).hexdigest()
    assert list(lex) == ["ADI", "ADİ", "ÇAY", "KEDI", "KEDİ"]


def test_drop_report_counts_every_line():
    lines = ["CAT", "", "# comment", "DOG2", "O'CLOCK", "RE-DO", "ST.", "TWO WORDS", "CAFÉ", "A",
             "ABCDEFGHIJKLMNOP", "CAT", "dog"]
    _, stats = compile_words(lines)
    assert stats.words == 2  # CAT, DOG
    assert stats.lines == len(lines)
    assert stats.dropped == {
        "empty line": 1, "comment line (starts with #)": 1, "contains a digit": 1,
        "contains an apostrophe": 1, "contains a hyphen": 1, "contains a dot": 1,
        "contains a space": 1, "contains a character outside the alphabet": 1,
        "shorter than 2 letters": 1, "longer than 15 letters": 1, "duplicate": 1,
    }
    assert stats.examples["contains a digit"] == [(4, "DOG2")]
    assert sum(stats.dropped.values()) + stats.words == stats.lines


def test_membership_and_queries():
    data, _ = compile_words(WORDS)
    lex = ws.Lexicon.from_bytes(data)
    assert "CARE" in lex and "care" in lex and "CAR" not in lex
    assert "" not in lex and "C" not in lex and "CAFÉ" not in lex and 42 not in lex
    assert len(lex) == len(WORDS) == lex.word_count
    assert lex.node_count == len(nodes_of(data))


def test_compile_lexicon_writes_atomically(tmp_path):
    src = tmp_path / "words.txt.gz"
    src.write_bytes(gzip.compress("\n".join(WORDS).encode()))
    dest = tmp_path / "out" / "w.wsg"
    stats = ws.compile_lexicon(src, dest, "en")
    assert dest.read_bytes() == compile_words(WORDS)[0]
    assert stats.file_size == dest.stat().st_size
    assert [p.name for p in dest.parent.iterdir()] == ["w.wsg"]  # no temporary file left
    with pytest.raises(ws.LexiconBuildError, match="no word left"):
        (tmp_path / "junk.txt").write_text("1\n2\n")
        ws.compile_lexicon(tmp_path / "junk.txt", tmp_path / "junk.wsg", "en")
    assert not (tmp_path / "junk.wsg").exists()


def test_alphagram_keys_of_every_length():
    """Graph.alphagrams(k): sorted distinct keys of the k-letter words (best-move bounds use k = 8)."""
    with gzip.open(Path(__file__).parent.parent / "lexicon_build" / "en" / "scowl-en.txt.gz", "rt") as f:
        words = f.read().split()[::7]
    data, _ = compile_words(words)
    lex = ws.Lexicon.from_bytes(data)
    alphabet = get_alphabet("en")
    for k in (2, 5, 8, 10):
        expected = set()
        for w in words:
            if len(w) == k:
                key = k
                for c in sorted(alphabet.encode(w)):
                    key = key << 6 | c
                expected.add(key)
        got = np.frombuffer(lex._graph.alphagrams(k), dtype=np.uint64)
        assert list(got) == sorted(expected), k
    with pytest.raises(ValueError):
        lex._graph.alphagrams(11)


def test_a_word_list_given_as_a_graph_says_to_build_it_first(tmp_path, capsys):
    """`--lexicon words.txt` (a word list, not a graph) names the command that builds the graph."""
    from wordsalvo.cli import main

    for name, data in (("words.txt", b"cat\ndog\n"), ("words.txt.gz", __import__("gzip").compress(b"cat\n"))):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(LexiconFormatError, match="looks like a word list") as e:
            Lexicon.load(path)
        assert f"wordsalvo lexicon build {path}" in str(e.value)
    assert main(["best", "--rules", "classic-en", "--rack", "AEINRST", "--lexicon", str(tmp_path / "words.txt")]) == 2
    assert "build a graph from it first: `wordsalvo lexicon build" in capsys.readouterr().err
    (tmp_path / "junk.wsg").write_bytes(bytes(range(256)) * 2)
    with pytest.raises(LexiconFormatError) as e:
        Lexicon.load(tmp_path / "junk.wsg")
    assert "word list" not in str(e.value)


def test_default_lexicon_of_an_unknown_language_names_the_known_ones():
    import wordsalvo.lexicon.fetch as lf
    from wordsalvo.lexicon.lexicon import BUILT_ON_DEMAND

    assert set(BUILT_ON_DEMAND) == set(lf.RECIPES)
    with pytest.raises(LexiconFormatError) as e:
        Lexicon.default("fr")
    msg = str(e.value)
    assert "expected one of de, en, nl, tr" in msg and "embedded: en, nl, tr" in msg
    assert "lexicon fetch fr" not in msg and "`wordsalvo lexicon fetch de`" in msg


def test_large_buffer_is_zeroed_writable_memory():
    """A graph file is read into a LargeBuffer (on 2 MiB pages where the system gives
    them): zeroed, writable through a memoryview, its length what was asked."""
    for n in (1, 4096, (3 << 20) + 5):
        buf = _graph.LargeBuffer(n)
        view = memoryview(buf)
        assert len(buf) == view.nbytes == n and not view.readonly
        assert not any(view[:: max(1, n // 997)]) and view[n - 1] == 0
        view[n - 1] = 7
        assert bytes(view[n - 1:]) == b"\x07"
        view.release()
    for bad in (0, -1, 1 << 32, 2.5):
        with pytest.raises(ws.WordSalvoError, match="buffer size"):
            _graph.LargeBuffer(bad)
    import sys
    assert _graph.large_pages_compiled() == sys.platform.startswith("linux")


def test_a_loaded_graph_reads_the_same_as_one_from_bytes(tmp_path):
    lex = Lexicon.default("en")
    path = tmp_path / "en.wsg"
    path.write_bytes(Path(lex.path).read_bytes())
    loaded, direct = Lexicon.load(path), Lexicon.from_bytes(path.read_bytes())
    assert loaded._graph.checksums == direct._graph.checksums
    words = direct._graph.dawg_words()
    assert loaded._graph.dawg_words() == words and len(words) == len(lex)

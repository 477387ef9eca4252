"""The compact word map (csrc/ws_wordmap.c) against brute force.

The oracle scans every word of the right length as a letter-count matrix (numpy)
and keeps those that contain the query's letters; the blanks stand for what is
left over.  It shares nothing with the map's keys or hash index.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo.lexicon import graphfile
from wordsalvo._core import _graph
from wordsalvo._core._engine import WordMap
from wordsalvo.alphabet import get_alphabet


class BruteForce:
    """Every word of a list as a row of letter counts, one matrix per length."""

    def __init__(self, words: list[bytes], alphabet_size: int):
        by_length: dict[int, list[bytes]] = defaultdict(list)
        for w in words:
            by_length[len(w)].append(w)
        self.words = {n: sorted(ws_) for n, ws_ in by_length.items()}
        self.counts = {}
        for n, ws_ in self.words.items():
            codes = np.frombuffer(b"".join(ws_), dtype=np.uint8).reshape(len(ws_), n).astype(np.int64)
            rows = np.repeat(np.arange(len(ws_)), n)
            flat = np.bincount(rows * (alphabet_size + 1) + codes.ravel(), minlength=len(ws_) * (alphabet_size + 1))
            self.counts[n] = flat.reshape(len(ws_), alphabet_size + 1).astype(np.int8)

    def lookup(self, letters: bytes, blanks: int, choices=None) -> list[tuple[bytes, tuple[int, ...]]]:
        n = len(letters) + blanks
        if n not in self.words:
            return []
        q = np.zeros(self.counts[n].shape[1], dtype=np.int8)
        for c in letters:
            q[c] += 1
        m = self.counts[n]
        out = []
        for i in np.nonzero((m >= q).all(axis=1))[0]:
            rest = m[i] - q
            b = tuple(int(c) for c in np.repeat(np.arange(len(rest)), rest))
            if choices is not None and not set(b) <= set(choices):
                continue
            out.append((self.words[n][i], b))
        out.sort(key=lambda t: (t[1], t[0]))
        return out


@pytest.fixture(scope="module")
def scowl():
    lex = ws.Lexicon.default("en")
    words = lex._graph.dawg_words()  # the graph's words are checked against word lists in test_lexicon
    return lex, WordMap(lex._graph), BruteForce(words, lex.alphabet.size), words


def test_counts_match_the_lexicon(scowl):
    lex, wm, _, words = scowl
    assert wm.word_count == len(lex) == len(words)
    alphagrams = {(len(w), bytes(sorted(w))) for w in words}
    assert wm.entry_count == len(alphagrams)
    for n in range(1, 16):
        assert wm.key_count(n) == sum(1 for k in alphagrams if k[0] == n)
    # 4-byte offsets (one more than entries), the letters of every word (a key is read
    # from its first word), a 4-byte hash slot per key rounded up to twice the keys' power
    # of two, the Bloom filter (16 bits a key, at least 128 bits) and the extend table (a
    # 32-bit word for every two keys with one distinct letter removed, a power of two, at
    # least 2)
    def pow2(n, low):
        while low < n:
            low *= 2
        return low

    deletions = sum(len(set(k[1])) for k in alphagrams)
    expected = (4 * wm.entry_count + 4 + sum(map(len, words)) + 4 * pow2(2 * wm.entry_count, 2)
                + pow2(16 * wm.entry_count, 128) // 8 + 4 * pow2((deletions + 1) // 2, 2))
    assert wm.nbytes == expected


def test_every_word_is_found_under_its_letters(scowl):
    lex, wm, _, words = scowl
    by_key = defaultdict(list)
    for w in words:
        by_key[bytes(sorted(w))].append(w)
    for key, group in by_key.items():
        assert wm.exists(key)
        assert wm.lookup(key) == [(w, ()) for w in sorted(group)]


def test_lengths_without_words_and_letters_without_anagrams(scowl):
    _, wm, _, _ = scowl
    a = get_alphabet("en")
    assert not wm.exists(a.encode("QQQQ"))
    assert wm.lookup(a.encode("QQQQ"), 2) == []
    assert not wm.exists(b"", 1)  # no one-letter words
    assert not wm.exists(a.encode("ABCDEFGHIJKLMNO"))


def test_hand_checked_anagrams(scowl):
    _, wm, bf, _ = scowl
    a = get_alphabet("en")
    got = {a.decode(w) for w, _ in wm.lookup(a.encode("AEINRST"))}
    assert {"NASTIER", "RETAINS", "RETINAS", "STAINER"} <= got
    # one blank: QI and XI need the blank to be I, Q or X respectively
    got = wm.lookup(a.encode("Q"), 1)
    assert [(a.decode(w), tuple(a.letter(c) for c in b)) for w, b in got] == [("QI", ("I",))]
    assert wm.lookup(a.encode("Q"), 1, blank_choices=a.encode("AEOU")) == []


rack_letters = st.lists(st.integers(1, 26), min_size=0, max_size=13)


@settings(max_examples=300, deadline=None)
@given(letters=rack_letters, blanks=st.integers(0, 2))
def test_random_racks_match_brute_force(scowl, letters, blanks):
    _, wm, bf, _ = scowl
    letters = bytes(letters[: 15 - blanks])
    expected = bf.lookup(letters, blanks)
    assert wm.lookup(letters, blanks) == expected
    assert wm.exists(letters, blanks) == bool(expected)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), blanks=st.integers(0, 2), change=st.integers(-1, 1))
def test_near_words_match_brute_force(scowl, data, blanks, change):
    """Queries made from real words (letters turned into blanks, one letter dropped,
    added or kept), so that most have answers, also with restricted blanks."""
    _, wm, bf, words = scowl
    w = list(words[data.draw(st.integers(0, len(words) - 1))])
    data.draw(st.randoms()).shuffle(w)
    b = min(blanks, len(w) - 1)
    letters = w[b:]
    if change < 0 and letters:
        letters = letters[1:]
    elif change > 0 and len(letters) + b < 15:
        letters = letters + [data.draw(st.integers(1, 26))]
    letters = bytes(letters)
    choices = data.draw(st.none() | st.lists(st.integers(1, 26), min_size=1, max_size=26))
    expected = bf.lookup(letters, b, choices)
    assert wm.lookup(letters, b, choices) == expected
    assert wm.exists(letters, b, choices) == bool(expected)


def _compile(words: list[str], lang: str) -> _graph.Graph:
    from wordsalvo.lexicon.lexicon import Lexicon

    text = ("\n".join(words) + "\n").encode("utf-8")
    data, _ = graphfile.compile_bytes(text, get_alphabet(lang), _graph)
    return Lexicon.from_bytes(data)


def test_letters_past_the_sixteenth_and_long_words():
    """Turkish codes up to 29 live in the key's second half; 15-letter words and a
    letter 15 times are the largest counts a key holds."""
    words = ["ÇÜZ", "ZÜÇ", "ŞİŞ", "İŞŞ", "ÖĞÜZÜ", "ABCÇDEFGĞHIİJKL", "AAAAAAAAAAAAAAA", "ZZ", "ÜZ"]
    lex = _compile(words, "tr")
    a = lex.alphabet
    wm = WordMap(lex._graph)
    bf = BruteForce([a.encode(w) for w in lex], a.size)
    assert wm.word_count == len(words)
    assert wm.entry_count == 7
    for w in words:
        codes = a.encode(w)
        assert (codes, ()) in wm.lookup(bytes(sorted(codes)))
        for blanks in (1, 2):
            for cut in range(len(codes) - blanks + 1):
                q = codes[:cut] + codes[cut + blanks:]
                assert wm.lookup(q, blanks) == bf.lookup(q, blanks)
    assert [a.decode(w) for w, _ in wm.lookup(a.encode("ZÇÜ"))] == ["ÇÜZ", "ZÜÇ"]  # by tile code
    assert wm.lookup(a.encode("A" * 13), 2) == [(a.encode("A" * 15), (1, 1))]
    # ordered by the blank's letter: Ü (26) before Z (29)
    assert wm.lookup(a.encode("Z"), 1) == [(a.encode("ÜZ"), (a.code("Ü"),)), (a.encode("ZZ"), (a.code("Z"),))]
    # 7 keys: entry + 1 in 3 bits of a slot, 25 bits of fingerprint
    assert wm._slot_layout == (16, 3, 25)
    # the verification reads the letters past the sixteenth (the key's second half) too
    bare = WordMap(lex._graph)
    bare._clear_fingerprints()
    for w in words:
        codes = a.encode(w)
        for q in (codes, codes[1:], codes + a.encode("Ç"), codes[:-1] + a.encode("Ş")):
            for blanks in (0, 1, 2):
                if len(q) + blanks <= 15:
                    assert bare.lookup(q, blanks) == wm.lookup(q, blanks) == bf.lookup(q, blanks)


def test_slot_layout(scowl):
    """A 32-bit slot: entry + 1 in the low bits (as few as the keys need), the length of
    the entry's words in the top 4, a fingerprint of the key's hash between them; at
    most half the slots are used."""
    _, wm, _, _ = scowl
    slots, entry_bits, fingerprint_bits = wm._slot_layout
    assert 2 ** (entry_bits - 1) <= wm.entry_count < 2 ** entry_bits  # SCOWL: 221,359 keys, 18 bits
    assert entry_bits + fingerprint_bits == 28
    assert slots & (slots - 1) == 0 and 2 * wm.entry_count <= slots < 4 * wm.entry_count


@pytest.fixture(scope="module")
def bare(scowl):
    """The SCOWL map with every fingerprint cleared: a lookup meets every slot of its
    length on its probe path (about half of them are taken), so its answer rests on the
    exact verification alone; a lookup that trusted a slot of the right length would
    answer wrongly for most queries without a word."""
    lex = scowl[0]
    wm = WordMap(lex._graph)
    wm._clear_fingerprints()
    assert wm._slot_layout[2] == 0
    return wm


def test_every_word_is_found_without_fingerprints(scowl, bare):
    _, wm, _, words = scowl
    keys = sorted({bytes(sorted(w)) for w in words})
    for key in keys:
        assert bare.lookup(key) == wm.lookup(key)


def test_non_words_are_refused_without_fingerprints(scowl, bare):
    """Letters of real words with one letter changed: same lengths as the words, so
    their probe paths meet slots of their length; most make no word."""
    _, wm, bf, words = scowl
    rnd = __import__("random").Random(5)
    misses = 0
    for w in rnd.sample(words, 3000):
        q = bytearray(w)
        q[rnd.randrange(len(q))] = rnd.randint(1, 26)
        q = bytes(q)
        expected = bf.lookup(q, 0)
        misses += not expected
        assert bare.exists(q) == wm.exists(q) == bool(expected)
        assert bare.lookup(q) == expected
    assert misses > 1000


@settings(max_examples=200, deadline=None)
@given(data=st.data(), blanks=st.integers(0, 2))
def test_near_words_without_fingerprints(scowl, bare, data, blanks):
    _, _, bf, words = scowl
    w = list(words[data.draw(st.integers(0, len(words) - 1))])
    data.draw(st.randoms()).shuffle(w)
    b = min(blanks, len(w) - 1)
    letters = bytes(w[b + 1:] + [data.draw(st.integers(1, 26))])
    assert bare.lookup(letters, b) == bf.lookup(letters, b)


@pytest.mark.parametrize("letters, blanks, choices, message", [
    (b"\x01", 3, None, "blanks"),
    (b"\x01", -1, None, "blanks"),
    (b"\x01", "1", None, "blanks"),
    (b"\x00", 0, None, "outside the alphabet"),
    (b"\x1b", 0, None, "outside the alphabet"),
    ([1, "A"], 0, None, "letter code"),
    (b"\x01" * 14, 2, None, "at most 15"),
    (b"\x01", 1, b"\x00", "blank choice"),
    (b"\x01", 1, b"\x20", "blank choice"),
])
def test_bad_queries_are_refused(scowl, letters, blanks, choices, message):
    _, wm, _, _ = scowl
    with pytest.raises(ws.WordSalvoError, match=message):
        wm.lookup(letters, blanks, choices)
    with pytest.raises(ws.WordSalvoError, match=message):
        wm.exists(letters, blanks, choices)


def _sub_multisets(counts: dict[int, int], size: int):
    items = [c for c, k in sorted(counts.items()) for _ in range(k)]
    return {tuple(s) for s in __import__("itertools").combinations(items, size)}


@settings(max_examples=200, deadline=None)
@given(rack=st.lists(st.integers(0, 26), min_size=1, max_size=7).filter(lambda r: r.count(0) <= 2),
       through=st.lists(st.integers(1, 26), max_size=3), data=st.data())
def test_subrack_exists_matches_brute_force(scowl, rack, through, data):
    """'Some n tiles of the rack plus the span's board letters make a word': every
    sub-multiset tried by brute force, blanks (code 0) as wildcards."""
    _, wm, bf, _ = scowl
    n = data.draw(st.integers(0, len(rack)))
    counts = bytearray(33)
    for c in rack:
        counts[c] += 1
    through = bytes(through)
    expected = any(
        bf.lookup(bytes(c for c in sub if c) + through, sub.count(0))
        for sub in _sub_multisets({c: counts[c] for c in range(33) if counts[c]}, n)
    )
    assert wm.subrack_exists(bytes(counts), n, through) == expected


def test_subrack_exists_hand_checked(scowl):
    _, wm, _, _ = scowl
    a = get_alphabet("en")

    def rack(s):
        counts = bytearray(33)
        for ch in s:
            counts[0 if ch == "?" else a.code(ch)] += 1
        return bytes(counts)

    assert wm.subrack_exists(rack("QIXZJKV"), 2)           # QI
    assert not wm.subrack_exists(rack("QXZJKVW"), 2)       # no two of them make a word
    assert wm.subrack_exists(rack("QXZJKV?"), 2)           # QI, XI, ... with the blank
    assert wm.subrack_exists(rack("AEINRST"), 7)           # RETAINS
    assert wm.subrack_exists(rack("AEINRST"), 7, a.encode("G"))  # GRANITES... through G
    assert not wm.subrack_exists(rack("QXZJKVW"), 7, a.encode("A"))
    with pytest.raises(ValueError, match="at most 7"):
        wm.subrack_exists(rack("AEINRSTE"), 2)
    with pytest.raises(ValueError, match="at most 2 blanks"):
        wm.subrack_exists(rack("???A"), 2)
    with pytest.raises(ws.WordSalvoError, match=r"n \(tiles of the rack\): expected"):
        wm.subrack_exists(rack("AE"), 3)
    with pytest.raises(ws.WordSalvoError, match="33"):
        wm.subrack_exists(b"\x00" * 5, 1)


def _span_brute(bf: BruteForce, rack: bytes, board: list[int], cross: list[int]) -> list:
    """Every (word, blank letters) by a scan of all words of the span's length."""
    n = len(board)
    if n not in bf.words or all(board):
        return []
    codes = np.frombuffer(b"".join(bf.words[n]), dtype=np.uint8).reshape(-1, n)
    ok = np.ones(len(codes), dtype=bool)
    for i in range(n):
        if board[i]:
            ok &= codes[:, i] == board[i]
        else:
            allowed = np.array([(cross[i] >> c) & 1 for c in range(64)], dtype=bool)
            ok &= allowed[codes[:, i]]
    blanks = rack[0]
    real = {c: rack[c] for c in range(1, 33) if rack[c]}
    out = []
    for row in np.nonzero(ok)[0]:
        word = bytes(codes[row])
        empty = sorted(word[i] for i in range(n) if not board[i])
        for k in range(blanks + 1):
            for b in {tuple(sorted(x)) for x in __import__("itertools").combinations(empty, k)}:
                rest = list(empty)
                for c in b:
                    rest.remove(c)
                if all(rest.count(c) <= real.get(c, 0) for c in set(rest)):
                    out.append((word, b))
    return sorted(out)


ALL = ~1 & (2**64 - 1)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_span_words_match_brute_force(scowl, data):
    """Spans cut from real words: some squares keep their letter (the board), the others
    are empty; the rack holds those letters (some as blanks) plus filler; cross sets
    either allow everything or a random set."""
    _, wm, bf, words = scowl
    w = words[data.draw(st.integers(0, len(words) - 1))]
    n = len(w)
    on_board = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(on_board):
        on_board[data.draw(st.integers(0, n - 1))] = False
    empties = [i for i in range(n) if not on_board[i]]
    if len(empties) > 7:
        for i in empties[7:]:
            on_board[i] = True
        empties = empties[:7]
    board = [w[i] if on_board[i] else 0 for i in range(n)]
    rack = bytearray(33)
    blanks = data.draw(st.integers(0, min(2, len(empties))))
    for j, i in enumerate(empties):
        rack[0 if j < blanks else w[i]] += 1
    for c in data.draw(st.lists(st.integers(0, 26), max_size=7 - len(empties))):
        if c == 0 and rack[0] == 2:
            continue
        rack[c] += 1
    cross = [ALL if data.draw(st.booleans()) else data.draw(st.integers(0, 2**27 - 1)) & ALL for _ in range(n)]
    expected = _span_brute(bf, bytes(rack), board, cross)
    assert wm.span_words(bytes(rack), board, cross) == expected


def test_span_words_hand_checked(scowl):
    _, wm, _, _ = scowl
    a = get_alphabet("en")
    rack = bytearray(33)
    for ch in "AEINRS":
        rack[a.code(ch)] += 1
    rack[0] = 1
    # AEINRS? through a T on the fourth of eight squares: RESTRAIN with the blank as R, ...
    got = wm.span_words(bytes(rack), [0, 0, 0, a.code("T"), 0, 0, 0, 0])
    assert (a.encode("RESTRAIN"), (a.code("R"),)) in got
    assert (a.encode("PANTRIES"), (a.code("P"),)) in got
    assert all(w[3] == a.code("T") for w, _ in got)
    # the cross set of the first square allows only R
    only_r = [1 << a.code("R")] + [ALL] * 7
    assert {a.decode(w) for w, _ in wm.span_words(bytes(rack), [0, 0, 0, a.code("T"), 0, 0, 0, 0], only_r)} == {"RESTRAIN"}
    # QI on a span with Q on the board: only with an I or a blank
    rack2 = bytearray(33)
    rack2[a.code("I")] = 1
    rack2[0] = 1
    assert wm.span_words(bytes(rack2), [a.code("Q"), 0]) == [(a.encode("QI"), ()), (a.encode("QI"), (a.code("I"),))]
    with pytest.raises(ValueError, match="2..15 squares"):
        wm.span_words(bytes(rack2), [0])
    with pytest.raises(ValueError, match="one mask per square"):
        wm.span_words(bytes(rack2), [0, 0], [ALL])
    with pytest.raises(ws.WordSalvoError, match="board square 1: letter code"):
        wm.span_words(bytes(rack2), [0, 27])

"""The compact word map: build time, memory and lookups (pytest-benchmark).

Each benchmark asserts what the map holds, so a fast wrong map fails.  The
memory (``nbytes``) goes into the benchmark's extra_info.
"""

from __future__ import annotations

import random

from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo._core._engine import WordMap


def test_build_scowl(benchmark):
    lex = Lexicon.default("en")
    wm = benchmark.pedantic(WordMap, args=(lex._graph,), rounds=5)
    benchmark.extra_info["nbytes"] = wm.nbytes
    assert wm.word_count == len(lex) and wm.entry_count == 221_359


def test_build_csw24(benchmark, csw24_set):
    lex, _, _ = csw24_set
    wm = benchmark.pedantic(WordMap, args=(lex._graph,), rounds=5)
    benchmark.extra_info["nbytes"] = wm.nbytes
    assert wm.word_count == 280_887 and wm.entry_count == 248_662
    assert wm.nbytes <= 20_000_000


def _racks(seed: int, n: int) -> list[bytes]:
    rng = random.Random(seed)
    return [bytes(rng.randint(1, 26) for _ in range(7)) for _ in range(n)]


def test_exists_seven_letters_two_blanks_csw24(benchmark, csw24_set):
    """7 letters plus 2 blanks (351 probes when nothing is found): the dearest query."""
    lex, _, _ = csw24_set
    wm = WordMap(lex._graph)
    racks = _racks(1, 200)
    found = benchmark(lambda: sum(wm.exists(r, 2) for r in racks))
    assert 0 < found < len(racks)


def test_exists_eight_letters_csw24(benchmark, csw24_set):
    lex, _, _ = csw24_set
    wm = WordMap(lex._graph)
    racks = [r + bytes([c]) for r in _racks(2, 100) for c in (1, 5, 9, 19)]
    found = benchmark(lambda: sum(wm.exists(r) for r in racks))
    assert 0 < found < len(racks)


def _span_queries(positions):
    """(rack counts, tiles placed, board letters) as the search would ask them: for each
    position's rack, full-rack spans through 0-3 board letters and shorter ones."""
    rng = random.Random(3)
    out = []
    for p in positions:
        counts = p.rack_counts()
        total = sum(counts)
        for n, through in ((total, 0), (total, 1), (total, 2), (total, 3), (max(1, total - 2), 2), (3, 1)):
            if n <= total:
                out.append((counts, n, bytes(rng.randint(1, 26) for _ in range(through))))
    return out


def test_subrack_exists_public_racks_csw24(benchmark, csw24_set):
    lex, positions, _ = csw24_set
    wm = WordMap(lex._graph)
    queries = _span_queries(positions)
    found = benchmark(lambda: sum(wm.subrack_exists(c, n, t) for c, n, t in queries))
    benchmark.extra_info["queries"] = len(queries)
    assert 0 < found < len(queries)

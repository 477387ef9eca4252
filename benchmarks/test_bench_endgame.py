"""The endgame solver on the local oracle positions (skipped without them): every value
equal to the other engine's exact solver.  The files derive from a proprietary word
list and are never committed; give their places in WORDSALVO_ENDGAMES (the TSV) and
WORDSALVO_CSW24 (the compiled graph)."""

import os
from pathlib import Path

import pytest

import wordsalvo as ws

TSV = Path(os.environ.get("WORDSALVO_ENDGAMES", "/work/shared/endgames/positions-public.tsv"))
GRAPH = Path(os.environ.get("WORDSALVO_CSW24", "/work/csw24.wsg"))


@pytest.mark.skipif(not TSV.exists() or not GRAPH.exists(), reason="the local oracle endgames or graph are absent")
def test_bench_endgame_values_equal_the_oracle(benchmark):
    rules = ws.Rules.preset("classic-en")
    lex = ws.Lexicon.load(str(GRAPH))
    rows = [line.rstrip("\n").split("\t") for line in TSV.read_text().splitlines() if line.strip()]

    def solve_all():
        return [ws.solve_endgame(ws.parse_cgp(r[0], rules), lex) for r in rows]

    results = benchmark.pedantic(solve_all, rounds=1, iterations=1)
    assert all(res.exact for res in results)
    assert [res.value for res in results] == [int(r[1]) for r in rows]

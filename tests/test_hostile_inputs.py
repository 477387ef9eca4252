"""Hostile input, second pass (issue 22): each reproducer of the outside probe, tried
again, gets the right result or a clear WordSalvoError.

1. batch analysis: output names unique and stable, resume checks path and hash;
2. ``leaves train --resume`` after a crash at every write of its state;
3. Leaves pickling checks content; win-model fields; one bound on leave values;
4. rule set names are identifiers;
and the later items below their headings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import wordsalvo as ws
from wordsalvo import Game, Rules
from wordsalvo.errors import WordSalvoError

DATA = Path(__file__).parent / "data"
MODEL_PATH = DATA / "winprob-wordsalvo-en-test.json"


class Crash(Exception):
    """The simulated crash of a test that fails at every write."""


def short_record(seed: int, turns: int = 2) -> str:
    from wordsalvo.formats.gcg import to_gcg

    g = Game(Rules.preset("wordsalvo-en"), seed=seed)
    for _ in range(turns):
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    return to_gcg(g)


# -- 1. batch analysis names and resume --------------------------------------------------------
BATCH_OPTIONS = {"winprob": str(MODEL_PATH), "top": 1}


def _results(out: Path) -> dict[str, dict]:
    return {f.name: json.loads(f.read_text("utf-8")) for f in sorted(out.glob("*.json"))}


def test_batch_names_are_unique_and_stable_and_resume_checks_path_and_content(tmp_path):
    from wordsalvo.commands.analyze import _collect, batch, output_name

    games = tmp_path / "games"
    for i, rel in enumerate(["b/x.gcg", "c/x-2.gcg", "x.gcg"]):
        (games / rel).parent.mkdir(parents=True, exist_ok=True)
        (games / rel).write_text(short_record(i + 1), "utf-8")
    out = tmp_path / "out"
    counts = batch(_collect([str(games)]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 3, "skipped": 0, "failed": 0}
    first = _results(out)
    assert len(first) == 3  # two games never share one result
    assert sorted(r["source"]["path"] for r in first.values()) == sorted(
        str(games / rel) for rel in ["b/x.gcg", "c/x-2.gcg", "x.gcg"])
    # a new file shifts no name: the next run analyses only it
    (games / "a").mkdir()
    (games / "a" / "x.gcg").write_text(short_record(9), "utf-8")
    counts = batch(_collect([str(games)]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 1, "skipped": 3, "failed": 0}
    assert {k: v for k, v in _results(out).items() if k in first} == first
    # a record changed since is analysed again; one given twice is one record
    (games / "x.gcg").write_text(short_record(5), "utf-8")
    counts = batch(_collect([str(games), str(games / "x.gcg"), str(games / "." / "x.gcg")]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 1, "skipped": 3, "failed": 0}
    # a result whose stored path is another record's is not taken for this one
    name = output_name(str(games / "b" / "x.gcg"))
    data = json.loads((out / f"{name}.json").read_text("utf-8"))
    data["source"]["path"] = str(games / "c" / "x-2.gcg")
    (out / f"{name}.json").write_text(json.dumps(data), "utf-8")
    counts = batch(_collect([str(games)]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 1, "skipped": 3, "failed": 0}
    assert output_name("a/" + "é" * 200 + ".gcg").encode().__len__() < 120


def test_batch_resume_after_a_crash_at_every_write_gives_the_uninterrupted_result(tmp_path, monkeypatch):
    from wordsalvo.commands import analyze

    games = tmp_path / "games"
    games.mkdir()
    for i in range(3):
        (games / f"g{i}.gcg").write_text(short_record(i + 1), "utf-8")
    paths = analyze._collect([str(games)])
    clean = tmp_path / "clean"
    analyze.batch(paths, BATCH_OPTIONS, clean, html=True)
    want = {f.name: f.read_bytes() for f in clean.iterdir()}
    real_write = analyze.write_atomic
    from wordsalvo.render import report

    real_page = report.write
    writes = 0
    k = 0
    while True:
        out = tmp_path / f"crash-{k}"
        calls = 0

        def failing(fn):
            def wrapped(*a, **kw):
                nonlocal calls
                calls += 1
                if calls == k + 1:
                    raise Crash(f"write {k}")
                return fn(*a, **kw)
            return wrapped

        monkeypatch.setattr(analyze, "write_atomic", failing(real_write))
        monkeypatch.setattr(report, "write", failing(real_page))
        try:
            analyze.batch(paths, BATCH_OPTIONS, out, html=True)
            crashed = False
        except Crash:
            crashed = True
        monkeypatch.setattr(analyze, "write_atomic", real_write)
        monkeypatch.setattr(report, "write", real_page)
        if not crashed:
            writes = k
            break
        analyze.batch(paths, BATCH_OPTIONS, out, html=True)
        got = {f.name: f.read_bytes() for f in out.iterdir()}
        assert got == want, f"after a crash at write {k}"
        k += 1
    assert writes == 7  # 3 pages, 3 results, summary.csv

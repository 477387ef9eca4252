"""numpy is loaded on first use: a process that only answers best moves never loads it
(16 MiB of resident memory), and everything that makes arrays still gets them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import wordsalvo as ws
from wordsalvo import moves
from wordsalvo._core import _engine
from wordsalvo._lazy import LazyModule

_BEST_ONLY = textwrap.dedent("""
    import sys
    import wordsalvo as ws
    from wordsalvo.movegen import MoveGenerator
    rules = ws.Rules.preset("wordsalvo-en")
    lex = ws.Lexicon.load(sys.argv[1])
    line = "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0"
    pos = ws.parse_cgp(line, rules=rules)
    for wordmap in (False, True):
        gen = MoveGenerator(lex, rules, wordmap=wordmap)
        best = gen.best(pos)
        assert best is not None and best.score > 0, best
        assert gen.best(pos, rack="WO?DQ").score > 0  # a blank, through the word map
    print(best.notation, best.score, "numpy" in sys.modules)
""")


def test_best_moves_do_not_load_numpy(tmp_path):
    """Loading a graph file and asking best moves by score, with and without the word
    map, leaves numpy unimported; a move list then loads it."""
    graph = tmp_path / "en.wsg"
    ws.compile_lexicon(str(_words(tmp_path)), str(graph), alphabet="en")
    out = subprocess.run([sys.executable, "-c", _BEST_ONLY, str(graph)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    notation, score, loaded = out.stdout.rsplit(maxsplit=2)
    assert loaded == "False", "numpy was imported by a best-move search"
    # the same answer as the move list's first move, in this process (numpy loaded)
    rules = ws.Rules.preset("wordsalvo-en")
    pos = ws.parse_cgp("15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0", rules=rules)
    first = ws.MoveGenerator(ws.Lexicon.load(str(graph)), rules).generate(pos).sorted()[0]
    assert (first.notation, first.score) == (notation, int(score))


def _words(tmp_path):
    p = tmp_path / "words.txt"
    p.write_text("\n".join(["WORD", "WORDS", "DOWRIEST", "ROWDIEST", "WEIRDOS", "SWORD", "DROWSE", "QI", "QIS",
                            "TOWERS", "DOWER", "ROWED", "WIDEST", "STRIDE", "DRIEST", "SORTED", "STORED"]) + "\n")
    return p


def test_move_dtype_is_the_record_layout():
    """The struct the Move code packs with and the tie-order offsets are MOVE_DTYPE's."""
    d = ws.MOVE_DTYPE
    assert d is moves.MOVE_DTYPE is _engine.MOVE_DTYPE
    assert moves._RECORD.size == d.itemsize == 28
    assert moves._TIE_FIRST == d.fields["row"][1]
    assert moves._TIE_LAST == d.fields["tiles"][1] + 14
    assert [name for name in d.names] == ["score", "blank_mask", "row", "col", "direction", "length", "tiles_played",
                                          "tiles", "pad"]
    assert _engine.TURN_DTYPE.itemsize == 68 and _engine.TURN_DTYPE.fields["move"][0] is d


def test_unknown_lazy_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="NOT_A_DTYPE"):
        _engine.NOT_A_DTYPE
    with pytest.raises(AttributeError, match="NOT_A_DTYPE"):
        moves.NOT_A_DTYPE
    lazy = LazyModule("json")
    assert "lazy module 'json'" in repr(lazy)
    assert lazy.dumps([1]) == "[1]" and "dumps" in vars(lazy)  # kept: the next look-up is plain
    with pytest.raises(AttributeError):
        lazy.no_such_function
    with pytest.raises(ModuleNotFoundError):
        LazyModule("wordsalvo_no_such_module").anything


def test_graph_bytes_are_read_only(tmp_path):
    """The graph a lexicon walks is its own copy (a bytearray) and cannot be written
    through the view the lexicon keeps."""
    import os

    from wordsalvo.lexicon.lexicon import _read_graph

    graph = tmp_path / "en.wsg"
    ws.compile_lexicon(str(_words(tmp_path)), str(graph), alphabet="en")
    size = graph.stat().st_size
    data = _read_graph(os.open(graph, os.O_RDONLY), size, graph)
    assert isinstance(data, memoryview) and data.readonly and len(data) == size
    assert bytes(data) == graph.read_bytes()
    with pytest.raises(TypeError):
        data[0] = 0
    lex = ws.Lexicon.load(str(graph))
    assert "WORD" in lex and "WROD" not in lex


def test_the_best_command_does_not_load_numpy(tmp_path):
    """`wordsalvo best` with one move asked answers without numpy, as best(pos) does, and
    prints the first move of the sorted move list; with -n 2 it lists two."""
    graph = tmp_path / "en.wsg"
    ws.compile_lexicon(str(_words(tmp_path)), str(graph), alphabet="en")
    cgp = "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0"
    code = ("import runpy, sys; sys.argv = ['wordsalvo'] + sys.argv[1:]; "
            "sys.exit(runpy.run_module('wordsalvo.cli', run_name='cli')['main']())")
    runs = {}
    for n in ("1", "2"):
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", code, "best", "--rules", "wordsalvo-en",
                              "--lexicon", str(graph), "-n", n, cgp], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        imported = [line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")]
        runs[n] = (out.stdout.splitlines(), any(name.split(".")[0] == "numpy" for name in imported))
    rules = ws.Rules.preset("wordsalvo-en")
    ranked = ws.MoveGenerator(ws.Lexicon.load(str(graph)), rules).generate(ws.parse_cgp(cgp, rules=rules)).sorted()
    assert runs["1"] == ([f"{ranked[0].notation} {ranked[0].score}"], False)
    assert runs["2"][0] == [f"{m.notation} {m.score}" for m in ranked[:2]]

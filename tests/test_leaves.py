"""Leave tables: ranking, the .wsl file format, CSV, pickling, and the end-game terms.

Oracles: the ranking against an independent enumeration of every capped multiset
in the documented order (size, then the sorted tile sequence, blank first); file
corruption of every kind; CSV errors naming their lines.
"""

from __future__ import annotations

import itertools
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo import leaves as leaves_mod
from wordsalvo.errors import LeavesError, WordSalvoError
from wordsalvo.leaves import Leaves, endgame_terms
from wordsalvo.position import Position
from wordsalvo.rules import Rules

EN = Rules.preset("wordsalvo-en")


def small_rules(rack_size: int = 4) -> Rules:
    """A rule set with a tiny tile set (so every leave can be enumerated by hand)."""
    tiles = {letter: (0, 1) for letter in EN.alphabet.letters}
    tiles.update({"?": (2, 0), "A": (3, 1), "B": (1, 3), "C": (2, 3)})
    return EN.with_layout(EN.layout, name="tiny", tiles=tiles, rack_size=rack_size)


def brute_force_order(rules: Rules) -> list[str]:
    """Every leave of 1..rack_size-1 tiles, in the documented rank order, by enumeration."""
    symbols = ["?"] + list(rules.alphabet.letters)
    dist = rules.distribution()
    pool = "".join(s * min(dist.get(s, 0), rules.rack_size - 1) for s in symbols)
    out = []
    for k in range(1, rules.rack_size):
        combos = sorted(set(itertools.combinations(pool, k)), key=lambda c: [symbols.index(ch) for ch in c])
        out += ["".join(c) for c in combos]
    return out


@pytest.fixture(scope="module")
def en_random() -> Leaves:
    n = len(Leaves.zeros(EN))
    return Leaves.from_values(EN, np.random.default_rng(7).normal(0, 6, n))


def test_rank_order_is_size_then_sorted_tiles_blank_first():
    rules = small_rules(4)
    leaves = Leaves.zeros(rules)
    order = brute_force_order(rules)
    # by hand: ?x2 Ax3 Bx1 Cx2, leaves of 1..3 tiles: 4 + 9 + 14
    assert len(leaves) == len(order) == 27
    assert [leaves.leave(r) for r in range(len(leaves))] == order
    assert all(leaves.rank(t) == r for r, t in enumerate(order))
    assert order[-14:] == ["??A", "??B", "??C", "?AA", "?AB", "?AC", "?BC", "?CC", "AAA", "AAB", "AAC", "ABC",
                           "ACC", "BCC"]


def test_tiny_rank_counts_by_hand():
    rules = small_rules(4)
    leaves = Leaves.zeros(rules)
    # sizes: 1 -> ? A B C (4); 2 -> ?? ?A ?B ?C AA AB AC BC CC (9); 3 -> 13 by enumeration
    order = brute_force_order(rules)
    assert order[:4] == ["?", "A", "B", "C"]
    assert order[4:13] == ["??", "?A", "?B", "?C", "AA", "AB", "AC", "BC", "CC"]
    assert len(leaves) == len(order)


def test_english_ranks_round_trip_and_sizes(en_random):
    leaves = en_random
    assert len(leaves) == 918_188
    assert leaves.leave(0) == "?" and leaves.rank("?") == 0
    assert leaves.leave(1) == "A"
    assert leaves.rank("??") == 27  # first leave of two tiles
    for r in np.random.default_rng(3).integers(0, len(leaves), 2000):
        assert leaves.rank(leaves.leave(int(r))) == r
    assert leaves.rank("SRE?") == leaves.rank("?ERS") == leaves.rank("ers?")
    assert leaves.value("") == 0.0
    assert leaves.value("?ERS") == float(leaves.values[leaves.rank("?ERS")])


@given(st.lists(st.sampled_from("?ABCDEFGHIJKLMNOPQRSTUVWXYZ"), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None)
def test_rank_round_trip_on_any_possible_leave(tiles):
    leaves = _zeros_en()
    from collections import Counter
    c = Counter(tiles)
    if any(n > EN.distribution()[t] for t, n in c.items()):
        with pytest.raises(LeavesError, match="impossible leave"):
            leaves.rank("".join(tiles))
        return
    r = leaves.rank("".join(tiles))
    assert sorted(leaves.leave(r)) == sorted(tiles)


_ZEROS = {}


def _zeros_en() -> Leaves:
    if "en" not in _ZEROS:
        _ZEROS["en"] = Leaves.zeros(EN)
    return _ZEROS["en"]


def test_values_are_read_only(en_random):
    with pytest.raises(ValueError):
        en_random.values[0] = 1.0


def test_bad_inputs_to_lookups():
    leaves = _zeros_en()
    with pytest.raises(LeavesError, match="unknown letter '1'"):
        leaves.rank("A1")
    with pytest.raises(LeavesError, match=r"expected 1\.\.6 tiles, got 7"):
        leaves.rank("AEINRST")
    with pytest.raises(LeavesError, match=r"\? ×3 \(the set has 2\)"):
        leaves.rank("???")
    with pytest.raises(LeavesError, match="out of range"):
        leaves.leave(len(leaves))
    with pytest.raises(LeavesError, match="expected 918188 leave values"):
        Leaves.from_values(EN, np.zeros(10))
    with pytest.raises(LeavesError, match="finite"):
        Leaves.from_values(EN, np.full(len(leaves), np.nan))


# -- files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("precision", ["float32", "int16"])
def test_save_load_round_trip(tmp_path, en_random, precision):
    path = tmp_path / f"en-{precision}.wsl"
    en_random.save(path, precision=precision)
    back = Leaves.load(path, EN)
    if precision == "float32":
        assert back == en_random
        assert path.stat().st_size == 256 + 4 * len(en_random)
    else:
        assert np.abs(back.values - en_random.values).max() <= 1 / 512 + 1e-6
        assert path.stat().st_size == 256 + 2 * len(en_random)
    assert Leaves.load(path) == back  # rules from the preset named in the file
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_name_the_header_cannot_hold_cannot_be_a_rule_set_name(tmp_path):
    from wordsalvo.errors import RulesError

    with pytest.raises(RulesError, match="1..32 of a-z"):  # rule set names are identifiers of 32 at most
        EN.with_layout(EN.layout, name="x" * 33)
    Leaves.zeros(EN.with_layout(EN.layout, name="x" * 32)).save(tmp_path / "long.wsl")
    assert Leaves.load(tmp_path / "long.wsl", EN.with_layout(EN.layout, name="x" * 32)).is_zero


def test_int16_refuses_values_out_of_range(tmp_path):
    big = Leaves.from_values(EN, np.full(len(_zeros_en()), 200.0))
    with pytest.raises(LeavesError, match="int16"):
        big.save(tmp_path / "x.wsl", precision="int16")
    assert not (tmp_path / "x.wsl").exists()
    with pytest.raises(LeavesError, match="precision"):
        big.save(tmp_path / "x.wsl", precision="float16")


@pytest.fixture(scope="module")
def saved(tmp_path_factory, en_random) -> Path:
    path = tmp_path_factory.mktemp("wsl") / "en.wsl"
    en_random.save(path, precision="int16")
    return path


def _corrupt(tmp_path: Path, saved: Path, edit) -> Path:
    data = bytearray(saved.read_bytes())
    data = edit(data)
    out = tmp_path / "bad.wsl"
    out.write_bytes(bytes(data))
    return out


def _rechecksum(data: bytearray) -> bytearray:
    data[252:256] = struct.pack("<I", leaves_mod._fnv1a32(bytes(data[:252])))
    return data


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d[:100], "truncated header: expected 256 bytes, got 100"),
        (lambda d: d[:-2], "truncated: expected"),
        (lambda d: d + b"\0", "trailing bytes"),
        (lambda d: bytearray(b"WSGRAPH\x1a") + d[8:], "bad magic"),
        (lambda d: _rechecksum(d[:8] + struct.pack("<I", 2) + d[12:]), "unsupported version 2: expected 1"),
        (lambda d: d[:40] + bytes([d[40] ^ 1]) + d[41:], "header checksum mismatch"),
        (lambda d: d[:1000] + bytes([d[1000] ^ 0x10]) + d[1001:], "payload checksum mismatch"),
        (lambda d: _rechecksum(d[:24] + bytes([7]) + d[25:]), "unknown encoding 7"),
        (lambda d: _rechecksum(d[:16] + struct.pack("<Q", 5) + d[24:]), "entry count: expected 918188 leaves, got 5"),
    ],
    ids=["short-header", "truncated", "trailing", "magic", "version", "bitflip-header", "bitflip-payload",
         "encoding", "count"],
)
def test_corrupt_files_are_refused(tmp_path, saved, edit, message):
    bad = _corrupt(tmp_path, saved, edit)
    with pytest.raises(LeavesError, match=message) as info:
        Leaves.load(bad, EN)
    assert str(bad) in str(info.value)
    assert isinstance(info.value, WordSalvoError)


def test_other_rule_set_or_tile_set_is_refused(tmp_path, saved):
    with pytest.raises(LeavesError, match="made for rule set 'wordsalvo-en' .alphabet 'en'., expected 'classic-en'"):
        Leaves.load(saved, Rules.preset("classic-en"))
    with pytest.raises(LeavesError, match="expected 'turkish' .alphabet 'tr'."):
        Leaves.load(saved, Rules.preset("turkish"))
    # same name and alphabet, another tile count
    tiles = dict(EN.tiles)
    tiles["E"] = (tiles["E"][0] + 1, tiles["E"][1])
    other = Rules(EN.name, EN.alphabet, EN.layout, tiles, EN.rack_size, EN.bingo_bonus, EN.centre,
                  EN.star_squares, EN.star_bonus, extra=EN.extra)
    with pytest.raises(LeavesError, match="made for another tile set"):
        Leaves.load(saved, other)
    with pytest.raises(LeavesError, match="^no such file: .*missing.wsl$"):
        Leaves.load(tmp_path / "missing.wsl", EN)


def test_default_without_a_shipped_table_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    with pytest.raises(LeavesError, match="no leave table is shipped for rule set 'wordfeud-de'.*wordsalvo-en"
                                          ".*leaves train --rules wordfeud-de"):
        Leaves.default(Rules.preset("wordfeud-de"))


def test_default_finds_a_table_trained_on_the_users_machine(tmp_path, monkeypatch):
    from wordsalvo.leaves import user_table_path

    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    de = Rules.preset("wordfeud-de")
    path = user_table_path("wordfeud-de")
    assert path == tmp_path / "leaves" / "wordfeud-de.wsl"
    path.parent.mkdir()
    values = np.zeros(len(Leaves.zeros(de)), dtype=np.float32)
    values[Leaves.zeros(de).rank("?")] = 20.0
    Leaves.from_values(de, values).save(path)
    table = Leaves.default(de)
    assert table.value("?") == 20.0 and table == Leaves.load(path, de)


@pytest.mark.parametrize("name", ["wordsalvo-en", "classic-en", "wordsalvo-nl", "turkish"])
def test_the_trained_tables_are_shipped_and_sensible(name):
    rules = Rules.preset(name)
    table = Leaves.default(rules)
    assert len(table) > 900_000 and not table.is_zero
    assert np.all(np.isfinite(table.values))
    # a blank is worth keeping, three of a kind is not
    assert table.value("?") > 5
    vowel = "I" if name != "wordsalvo-nl" else "U"
    assert table.value(vowel * 3) < 0


def test_default_loads_a_shipped_table(tmp_path, monkeypatch, en_random):
    # a package data directory with one table, as the trained tables will ship
    pkg = tmp_path / "wordsalvo"
    (pkg / "data" / "leaves").mkdir(parents=True)
    en_random.save(pkg / "data" / "leaves" / "wordsalvo-en.wsl", precision="int16")
    monkeypatch.setattr(leaves_mod, "_shipped_dir", lambda: pkg / "data" / "leaves")
    got = Leaves.default(EN)
    assert np.abs(got.values - en_random.values).max() <= 1 / 512 + 1e-6
    assert repr(got) == "Leaves.default(Rules.preset('wordsalvo-en'))"
    with pytest.raises(LeavesError, match=r"shipped: wordsalvo-en"):
        Leaves.default(Rules.preset("turkish"))


# -- pickling ------------------------------------------------------------------------------


def test_pickles_by_path_and_by_rules(tmp_path, en_random):
    path = tmp_path / "p.wsl"
    en_random.save(path)
    loaded = Leaves.load(path, EN)
    blob = pickle.dumps(loaded)
    assert len(blob) < 20_000  # the path and the rules, not 900k values
    assert pickle.loads(blob) == loaded
    zeros = Leaves.zeros(EN)
    blob = pickle.dumps(zeros)
    assert len(blob) < 20_000 and pickle.loads(blob) == zeros
    small = Leaves.from_values(small_rules(), np.arange(len(Leaves.zeros(small_rules()))))
    assert pickle.loads(pickle.dumps(small)) == small


# -- CSV -----------------------------------------------------------------------------------


def test_csv_round_trip(tmp_path):
    rules = small_rules(4)
    n = len(Leaves.zeros(rules))
    leaves = Leaves.from_values(rules, np.linspace(-5, 5, n))
    leaves.to_csv(tmp_path / "t.csv")
    lines = (tmp_path / "t.csv").read_text().splitlines()
    assert len(lines) == n and lines[0].startswith("?,")
    assert Leaves.from_csv(tmp_path / "t.csv", rules) == leaves


def test_csv_reads_other_engines_lines(tmp_path):
    (tmp_path / "e.csv").write_text("leave,value\n?,25.5\nSER,  3.25\n\nzq,-12\n", encoding="utf-8")
    leaves = Leaves.from_csv(tmp_path / "e.csv", EN)
    assert leaves.value("?") == 25.5
    assert leaves.value("ERS") == 3.25
    assert leaves.value("QZ") == -12.0
    assert leaves.value("A") == 0.0  # missing leaves are worth 0
    assert np.count_nonzero(leaves.values) == 3


def test_csv_errors_name_every_bad_line(tmp_path):
    text = "?,1\nA1,2\nERS,3\nRSE,4\nAEINRST,5\n???,6\nQ,abc\nZ,inf\nX\n"
    (tmp_path / "bad.csv").write_text(text, encoding="utf-8")
    with pytest.raises(LeavesError) as info:
        Leaves.from_csv(tmp_path / "bad.csv", EN)
    e = info.value
    assert len(e.problems) == 7
    msg = str(e)
    assert str(tmp_path / "bad.csv") in msg
    assert "line 2: unknown letter '1'" in msg
    assert "line 4: duplicate leave 'RSE' (first on line 3)" in msg
    assert "line 5: impossible leave 'AEINRST'" in msg
    assert "line 6: impossible leave '???'" in msg
    assert "line 7: expected a number (ASCII digits) after the leave 'Q', got 'abc'" in msg
    assert "line 8: expected a number (ASCII digits) after the leave 'Z', got 'inf'" in msg
    assert "line 9: expected 'leave,value'" in msg


# -- end-game terms -------------------------------------------------------------------------


def test_endgame_terms_follow_the_settlement_rules():
    rules = Rules.preset("classic-en")
    board_cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
    pos = ws.parse_cgp(f"{board_cgp} AEINRST/ 0/0 0 lex NWL;", rules=rules, check_tiles=False)
    assert endgame_terms(pos) == (False, 0.0, 0.0)  # full bag
    # a position whose unseen tiles are exactly the opponent's rack: bag empty
    full = Position(rules, racks=["QI", ""], scores=[0, 0])
    dist = rules.distribution()
    from wordsalvo.board import Board
    board = Board(rules.alphabet)
    placed = []
    tiles = [t for t, n in dist.items() for _ in range(n)]
    for t in ["Q", "I", "Z", "E"]:
        tiles.remove(t)
    # fill the board with every other tile (legality does not matter here)
    for i, t in enumerate(tiles):
        code = rules.alphabet.code("E" if t == "?" else t) | (0x80 if t == "?" else 0)
        board.tiles[i] = code
        placed.append(t)
    full = Position(rules, board, racks=["QI", "ZE"], scores=[0, 0])
    assert full.bag_count() == 0
    end, out_value, keep = endgame_terms(full)
    assert end and out_value == 2 * (10 + 1) + 10 and keep == 2.0  # play-out: 2 x opponent's ZE, and the tempo
    three = Position(rules, board, racks=["QI", "Z", "E"], scores=[0, 0, 0])
    assert endgame_terms(three) == (True, 11.0, 1.0)

"""The SVG board: well-formed, premiums and ★ squares where the rules put them, tiles, blanks, highlight, mini."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game_helpers import RULE_SETS
from wordsalvo import Board, Rules, WordSalvoError
from wordsalvo.alphabet import BLANK_BIT
from wordsalvo.render import svg
from wordsalvo.render.svg import RenderError

NS = "{http://www.w3.org/2000/svg}"
COLUMNS = "ABCDEFGHIJKLMNO"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def squares(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-square"): e for e in by_class(root, "square")}


def tiles(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-square"): e for e in by_class(root, "tile")}


def texts(e: ET.Element) -> list[str]:
    return [t.text for t in e.iter(NS + "text")]


def name(r: int, c: int) -> str:
    return f"{r + 1}{COLUMNS[c]}"


#: layout symbol -> premium class, independent of the renderer's reading of the multipliers
SYMBOL_PREMIUM = {"W": "3W", "w": "2W", "T": "3L", "D": "2L", ".": "plain", "*": "plain"}


def board_with(rules: Rules, placed: dict[tuple[int, int], str]) -> bytes:
    """225 codes with letters at squares; lowercase = blank."""
    codes = bytearray(225)
    for (r, c), ch in placed.items():
        codes[r * 15 + c] = rules.alphabet.board_code(ch)
    return bytes(codes)


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_premium_and_star_squares_where_the_rules_put_them(rule_set):
    rules = Rules.preset(rule_set, board_seed=11 if rule_set in ("wordsalvo-en", "turkish") else None)
    root = parse(svg.board(rules))
    found = squares(root)
    assert len(found) == 225
    stars = set(rules.star_squares)
    for r, row in enumerate(rules.layout):
        for c, sym in enumerate(row):
            sq = found[name(r, c)]
            expected = "star" if (r, c) in stars else SYMBOL_PREMIUM[sym]
            assert sq.get("data-premium") == expected, (rule_set, name(r, c))
            labels = texts(sq)
            if expected == "star":
                assert labels == ["\u2605", f"+{rules.star_bonus}"]
            elif (r, c) == rules.centre:
                assert labels[0] == "\u2605" and sq.get("data-start") == "true"
                assert labels[1:] == ([] if expected == "plain" else [expected])
            else:
                assert labels == ([] if expected == "plain" else [expected])
    assert [s.get("data-square") for s in found.values() if s.get("data-start")] == [name(*rules.centre)]


def test_hand_checked_squares():
    classic = squares(parse(svg.board(Rules.preset("classic-en"))))
    assert classic["1A"].get("data-premium") == "3W"
    assert classic["1D"].get("data-premium") == "2L"
    assert classic["2B"].get("data-premium") == "2W"
    assert classic["2F"].get("data-premium") == "3L"
    assert classic["8H"].get("data-premium") == "2W" and classic["8H"].get("data-start") == "true"
    turkish = squares(parse(svg.board(Rules.preset("turkish"))))  # default star on 4F (3, 5)
    assert turkish["4F"].get("data-premium") == "star"
    assert "+25" in texts(turkish["4F"])
    assert [k for k, v in turkish.items() if v.get("data-premium") == "star"] == ["4F"]


def test_tiles_letters_values_blanks_and_highlight():
    rules = Rules.preset("classic-en")
    codes = board_with(rules, {(7, 7): "Q", (7, 8): "I", (6, 8): "z", (8, 8): "T"})  # z: a blank
    root = parse(svg.board(rules, codes, highlight=[(6, 8), (8, 8), (0, 0)]))
    found = tiles(root)
    assert set(found) == {"8H", "8I", "7I", "9I"}
    q, i, z, t = found["8H"], found["8I"], found["7I"], found["9I"]
    assert (q.get("data-letter"), q.get("data-value"), texts(q)) == ("Q", "10", ["Q", "10"])
    assert (i.get("data-letter"), i.get("data-value"), texts(i)) == ("I", "1", ["I", "1"])
    assert (z.get("data-letter"), z.get("data-value"), texts(z)) == ("Z", "0", ["Z"])  # no value on a blank
    assert z.get("class").split() == ["tile", "blank", "highlight"]
    assert t.get("class").split() == ["tile", "highlight"] and q.get("class") == "tile"
    assert z.find(NS + "text").get("fill") == svg.DEFAULT_STYLE.blank_text
    assert z.find(NS + "rect").get("fill") == svg.DEFAULT_STYLE.highlight_tile
    assert q.find(NS + "rect").get("fill") == svg.DEFAULT_STYLE.tile
    # an empty highlighted square gets an outline
    assert [e.get("data-square") for e in by_class(root, "highlight") if e.tag == NS + "rect"] == ["1A"]


def test_a_string_board_draws_like_codes():
    rules = Rules.preset("turkish")
    placed = {(7, 6): "İ", (7, 7): "ı", (7, 8): "Ş"}
    text = ["."] * 225
    for (r, c), ch in placed.items():
        text[r * 15 + c] = ch
    assert svg.board(rules, "".join(text)) == svg.board(rules, board_with(rules, placed))
    found = tiles(parse(svg.board(rules, "".join(text))))
    assert [(k, v.get("data-letter"), v.get("data-value")) for k, v in found.items()] == [
        ("8G", "İ", str(rules.value("İ"))), ("8H", "I", "0"), ("8I", "Ş", str(rules.value("Ş")))]
    assert svg.board(rules, list(board_with(rules, placed))) == svg.board(rules, board_with(rules, placed))
    assert svg.board(rules, Board(rules.alphabet, board_with(rules, placed))) == svg.board(rules, "".join(text))


def test_sizes_coordinates_mini_and_layer():
    rules = Rules.preset("wordsalvo-en")
    codes = board_with(rules, {(7, 7): "A", (7, 8): "X"})
    big = parse(svg.board(rules, codes))
    assert (big.get("width"), big.get("height"), big.get("viewBox")) == ("600", "600", "0 0 640 640")
    coords = by_class(big, "coordinates")[0]
    assert sorted(set(texts(coords))) == sorted(set(COLUMNS) | {str(i) for i in range(1, 16)})
    mini = parse(svg.mini_board(rules, codes, highlight=[(7, 8)]))
    assert (mini.get("width"), mini.get("viewBox")) == ("180", "0 0 600 600")
    assert "ws-mini" in mini.get("class") and not by_class(mini, "coordinates")
    assert [texts(t) for t in tiles(mini).values()] == [["A"], ["X"]]  # letters, no values
    assert tiles(mini)["8I"].get("class") == "tile highlight"
    assert all(texts(s) in ([], ["\u2605"]) for s in squares(mini).values())  # colours only (and the ★)
    layer = parse(svg.board(rules, codes, squares=False))
    assert not squares(layer) and not by_class(layer, "frame") and len(tiles(layer)) == 2
    assert layer.get("viewBox") == big.get("viewBox")
    assert parse(svg.board(rules, size=250)).get("width") == "250"


def test_output_is_deterministic_escaped_and_styled():
    rules = Rules.preset("wordsalvo-nl")
    codes = board_with(rules, {(7, 7): "Q"})
    a = svg.board(rules, codes, title='<b> & "quotes"')
    assert a == svg.board(rules, codes, title='<b> & "quotes"')
    assert isinstance(a, svg.Svg) and a._repr_svg_() == str(a)
    root = parse(a)
    assert root.find(NS + "title").text == '<b> & "quotes"' and root.get("aria-label") == '<b> & "quotes"'
    assert root.get("role") == "img"
    styled = parse(svg.board(rules, codes, style=replace(svg.DEFAULT_STYLE, tile="#123456")))
    assert tiles(styled)["8H"].find(NS + "rect").get("fill") == "#123456"
    with pytest.raises(RenderError, match="Style"):
        replace(svg.DEFAULT_STYLE, tile='red" onload="x')


def test_bad_input_lists_every_problem():
    rules = Rules.preset("classic-en")
    codes = bytearray(225)
    codes[0] = 27              # one past Z
    codes[224] = BLANK_BIT     # a blank without a letter
    with pytest.raises(RenderError) as e:
        svg.board(rules, bytes(codes), highlight=[(15, 0), (1,), (3, 3)])
    msg = str(e.value)
    assert isinstance(e.value, WordSalvoError)
    for part in ("tiles[0] (square 1A)", "got 27", "tiles[224] (square 15O)", "got 128",
                 "highlight[0]", "(15, 0)", "highlight[1]"):
        assert part in msg
    assert "highlight[2]" not in msg
    with pytest.raises(RenderError, match="expected 225 characters"):
        svg.board(rules, "AB")
    with pytest.raises(RenderError, match=r"tiles\[5\] \(square 1F\).*got '\?'"):
        svg.board(rules, "....." + "?" + "." * 219)
    with pytest.raises(RenderError, match="expected 225 tile codes"):
        svg.board(rules, [1, 2, 3])
    with pytest.raises(RenderError, match="got dict"):
        svg.board(rules, {})
    with pytest.raises(RenderError, match="expected a Rules object"):
        svg.board("classic-en")
    with pytest.raises(RenderError, match="size"):
        svg.board(rules, size=0)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 14), st.integers(0, 14)),
                       st.tuples(st.integers(1, 26), st.booleans()), max_size=40),
       st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), max_size=8))
def test_every_tile_is_drawn_once_with_its_value(placed, lit):
    rules = Rules.preset("wordsalvo-en")
    codes = bytearray(225)
    for (r, c), (code, blank) in placed.items():
        codes[r * 15 + c] = code | (BLANK_BIT if blank else 0)
    root = parse(svg.board(rules, bytes(codes), highlight=lit))
    found = tiles(root)
    assert set(found) == {name(r, c) for r, c in placed}
    for (r, c), (code, blank) in placed.items():
        t = found[name(r, c)]
        letter = rules.alphabet.letters[code - 1]
        assert t.get("data-letter") == letter
        assert t.get("data-value") == ("0" if blank else str(rules.value(letter)))
        assert ("blank" in t.get("class").split()) == blank
        assert ("highlight" in t.get("class").split()) == ((r, c) in lit)
    outlined = {e.get("data-square") for e in by_class(root, "highlight") if e.tag == NS + "rect"}
    assert outlined == {name(r, c) for r, c in lit if (r, c) not in placed}

"""The HTML game report: self-contained, complete, escaped, checked input; and a real browser draws it.

The browser test takes a headless Chromium screenshot when ``chromium``,
``chromium-browser`` or ``google-chrome`` is on PATH (skipped otherwise) and
decodes the PNG with the standard library to check that the board and the
charts were painted.
"""

from __future__ import annotations

import copy
import re
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from browser_helpers import browser_env
from report_example import example_report
from wordsalvo import Rules, WordSalvoError
from wordsalvo.render import report
from wordsalvo.render.svg import DEFAULT_STYLE, RenderError


@pytest.fixture(scope="module")
def data() -> dict:
    return example_report("wordsalvo-en", seed=7)


@pytest.fixture(scope="module")
def page(data) -> str:
    return report.html(data)


class Elements(HTMLParser):
    """Every start tag with its attributes, in order; and whether the page is well nested."""

    VOID = {"meta", "br", "input", "img", "link", "hr", "col", "wbr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)

    def having(self, tag=None, **attrs) -> list[dict]:
        out = []
        for t, a in self.tags:
            if tag not in (None, t):
                continue
            keys = {k: k.rstrip("_").replace("_", "-") for k in attrs}
            if all((keys[k] in a) if v is True else (v in (a.get(keys[k]) or "").split())
                   for k, v in attrs.items()):
                out.append(a)
        return out


def elements(page: str) -> Elements:
    e = Elements()
    e.feed(page)
    e.close()
    return e


def test_the_example_is_valid_and_has_what_the_page_shows(data):
    assert report.check(data) == []
    assert report.check(data, Rules.preset("wordsalvo-en")) == []
    kinds = Counter(t["kind"] for t in data["turns"])
    assert kinds["play"] > 10 and kinds["swap"] + kinds["pass"] >= 1 and kinds["settle"] >= 1
    assert data["turning_points"] and data["decisive"] is not None
    assert any(isinstance(t["board"], str) for t in data["turns"]) and any(
        isinstance(t["board"], list) for t in data["turns"])


def test_self_contained_no_network_no_other_file(page):
    assert "http://" not in page and "https://" not in page and "//" not in re.sub(r"<script>.*?</script>", "",
                                                                                    page, flags=re.S)
    e = elements(page)
    assert e.problems == [] and e.stack == []
    for tag, attrs in e.tags:
        assert "src" not in attrs, tag
        href = attrs.get("href") or attrs.get("xlink:href")
        assert href is None or href.startswith("#"), (tag, href)
        assert tag not in ("link", "iframe", "img", "object", "embed", "image", "use", "base"), tag
    assert "@import" not in page and "url(" not in page and "fetch(" not in page and "XMLHttpRequest" not in page
    assert page.count("<style>") == 1 and page.count("<script>") == 1


def test_every_turn_has_a_chip_a_panel_and_a_layer(data, page):
    n = len(data["turns"])
    e = elements(page)
    chips = e.having("button", class_="chip")
    assert [c["data-turn"] for c in chips] == [str(i) for i in range(n)]
    assert [c.get("aria-current") for c in chips].count("step") == 1 and chips[-1]["aria-current"] == "step"
    panels = e.having("article", class_="turn")
    assert [p["data-turn"] for p in panels] == [str(i) for i in range(n)]
    assert ["hidden" in p for p in panels] == [True] * (n - 1) + [False]  # without a script: the last turn
    layers = e.having("div", class_="layer")
    assert [x["data-layer"] for x in layers] == [str(i) for i in range(n)]
    assert not e.having("div", class_="full")  # this game only adds tiles
    assert all("style" not in x for x in layers)  # the last turn shows every layer
    assert "current" in layers[-1]["class"].split()
    first_play = data["turns"][0]
    assert first_play["kind"] == "play"
    assert chips[0]["aria-label"] == f"Turn 1, Alice: {first_play['notation']}, +{first_play['score']} points"
    for name in ("brilliancy", "missed", "turning-point", "decisive"):
        flagged = [t["index"] for t in data["turns"] if name in t["badges"]]
        assert [c["data-turn"] for c in chips if f"b-{name}" in c["class"].split()] == [str(i) for i in flagged]


def test_the_boards_are_built_turn_by_turn(data, page):
    # the tiles of all layers together are the tiles of the final board, each drawn once
    final = data["turns"][-1]["board"]
    rules = Rules.preset("wordsalvo-en")
    if isinstance(final, list):
        final = "".join(rules.alphabet.board_letter(c) if c else "." for c in final)
    drawn = re.findall(r'<g class="tile[^"]*" data-square="(\w+)" data-letter="(\w)"', page.split('class="board-stack"')[1]
                       .split('class="controls"')[0])
    cols = "ABCDEFGHIJKLMNO"
    expected = sorted((f"{i // 15 + 1}{cols[i % 15]}", ch.upper()) for i, ch in enumerate(final) if ch != ".")
    assert sorted(drawn) == expected
    # each turn's highlighted tiles are its new tiles
    layers = re.findall(r'<div class="layer[^"]*" data-layer="(\d+)"[^>]*>(.*?)</div>', page)
    for (i, layer), t in zip(layers, data["turns"]):
        lit = sorted(re.findall(r'<g class="tile (?:blank )?highlight" data-square="(\w+)"', layer))
        assert lit == sorted(f"{r + 1}{cols[c]}" for r, c, _l, _b in t["tiles"]), i


def test_panels_show_the_turn(data, page):
    t = next(t for t in data["turns"] if t["kind"] == "play" and t["alternatives"] and t["equity_lost"])
    panel = page.split(f'id="panel-{t["index"] + 1}"')[1].split("</article>")[0]
    assert t["notation"] in panel.replace("&#x27;", "'")
    assert f"+{t['score']}" in panel
    assert f"{t['win_before'] * 100:.0f}% \u2192 <strong>{t['win_after'] * 100:.0f}%</strong>" in panel
    assert f"{float(t['equity_lost']):.1f}" in panel
    for notation, score, _equity, _win in t["alternatives"]:
        assert f'<td class="mono">{notation}' in panel
    assert panel.count('class="rtile') == len(t["rack"])
    assert report._e(t["note"]) in panel


def test_text_is_escaped(data):
    d = copy.deepcopy(data)
    d["game"]["players"] = ["<i>Al</i>", 'B"ob']
    d["game"]["title"] = "<script>alert(1)</script>"
    d["turns"][0]["note"] = "</article><script>x()</script> & more"
    d["turns"][0]["badges"] = ["<odd>"]
    d["stats"] = [{"label": "<b>", "values": ["<u>", None]}]
    page = report.html(d)
    assert "<i>Al</i>" not in page and "&lt;i&gt;Al&lt;/i&gt;" in page
    assert "<script>alert" not in page and "<script>x()" not in page and "<odd>" not in page and "<u>" not in page
    assert "&lt;/article&gt;&lt;script&gt;x()&lt;/script&gt; &amp; more" in page
    e = elements(page)
    assert e.problems == [] and e.stack == []
    assert len(e.having("script")) == 1
    # the settle notes of the example carry markup characters too
    assert "&lt;settled&gt;" in report.html(data) and "<settled>" not in report.html(data)


def test_charts_moments_and_stats_are_on_the_page(data, page):
    e = elements(page)
    n = len(data["turns"])
    race = e.having("svg", class_="score-race")
    win = e.having("svg", class_="win-chances")
    assert len(race) == 1 and len(win) == 1 and "xmlns" not in race[0]
    for chart in ("score-race", "win-chances"):
        part = page.split(f'class="ws-chart {chart}"')[1].split("</svg>")[0]
        for p in (0, 1):
            assert len(re.findall(rf'class="point" data-turn="\d+" data-player="{p}"', part)) == n
        assert sorted(map(int, re.findall(r'class="mark turning-point" data-turn="(\d+)"', part))) == sorted(
            data["turning_points"])
        assert re.findall(r'class="mark decisive" data-turn="(\d+)"', part) == [str(data["decisive"])]
    moments = e.having("figure", class_="moment")
    assert sorted({int(m) for m in re.findall(r'<figure class="moment[^"]*"><button type="button" data-turn="(\d+)"',
                                              page)}) == sorted(set(data["turning_points"]) | {data["decisive"]})
    assert len(moments) == len(set(data["turning_points"]) | {data["decisive"]})
    assert len(e.having("svg", class_="ws-mini")) == len(moments)
    stats = page.split('class="stats"')[1]
    for row in data["stats"]:
        assert f'<th scope="row">{row["label"]}</th>' in stats


def test_accessible_names(page):
    e = elements(page)
    assert e.having("html")[0]["lang"] == "en"
    for b in e.having("button"):
        assert b.get("aria-label"), b
    for s in e.having("svg"):
        assert s.get("role") == "img" and s.get("aria-label"), s
    assert e.having(aria_live=True)
    assert e.having("nav")[0]["aria-label"] == "Move history"


def test_deterministic_and_the_same_from_codes_or_strings(data, page):
    assert report.html(data) == page
    d = copy.deepcopy(data)
    rules = Rules.preset("wordsalvo-en")
    for t in d["turns"]:
        if isinstance(t["board"], list):
            t["board"] = "".join(rules.alphabet.board_letter(c) if c else "." for c in t["board"])
    assert report.html(d) == page
    assert report.html(d, rules=rules) == page


def test_a_withdrawn_play_redraws_the_whole_board(data):
    d = copy.deepcopy(data)
    rules = Rules.preset("wordsalvo-en")
    k = 3  # turn 4 is withdrawn as a phony (turn 5), then the next player passes (turn 6)
    turns = d["turns"][:k + 1]
    before = d["turns"][k - 1]["board"]
    if isinstance(before, list):
        before = "".join(rules.alphabet.board_letter(c) if c else "." for c in before)
    phony = copy.deepcopy(turns[k])
    phony.update(index=k + 1, kind="phony", score=-turns[k]["score"], totals=turns[k - 1]["totals"], tiles=[],
                 board=before, badges=["phony"], note="Withdrawn.", alternatives=[])
    passed = copy.deepcopy(phony)
    passed.update(index=k + 2, player=1 - phony["player"], kind="pass", notation="", score=0, badges=[], note="")
    d["turns"] = turns + [phony, passed]
    d["turning_points"], d["decisive"] = [k], None
    d["game"]["final_scores"] = passed["totals"]
    page = report.html(d)
    layers = elements(page).having("div", class_="layer")
    assert [x["data-layer"] for x in layers if "full" in x["class"].split()] == [str(k + 1)]
    # the last turn shows the layers from the last full one on, and hides the earlier ones
    assert [("style" in x) for x in layers] == [True] * (k + 1) + [False, False]
    shown = page.split(f'data-layer="{k + 1}"')[1].split('class="controls"')[0]
    cols = "ABCDEFGHIJKLMNO"
    drawn = sorted(re.findall(r'<g class="tile[^"]*" data-square="(\w+)"', shown))
    assert drawn == sorted(f"{i // 15 + 1}{cols[i % 15]}" for i, ch in enumerate(before) if ch != ".")
    assert 'class="badge b-phony"' in page and "phony withdrawn" in page


def test_bad_input_lists_every_problem_and_writes_nothing(data, tmp_path):
    d = copy.deepcopy(data)
    d["turns"][2]["index"] = 7
    d["turns"][3]["win_after"] = 1.5
    d["turns"][4]["player"] = 2
    d["turns"][5]["tiles"] = [[15, 0, "A", False]]
    d["turns"][6]["board"] = "." * 224 + "#"
    del d["turns"][7]["note"]
    d["decisive"] = 999
    d["stats"][0]["values"] = [1]
    with pytest.raises(RenderError) as e:
        report.write(d, tmp_path / "out.html")
    msg = str(e.value)
    assert isinstance(e.value, WordSalvoError)
    for part in ("turns[2].index: expected 2", "turns[3].win_after: expected a chance 0..1", "got 1.5",
                 "turns[4].player: expected a player index 0..1, got 2", "turns[5].tiles[0]",
                 "turns[6].board[224] (square 15O)", "turns[7]: missing key 'note'",
                 "decisive: expected a turn index", "stats[0]"):
        assert part in msg, part
    assert list(tmp_path.iterdir()) == []
    assert report.check("nope") == ["report: expected a dict (see wordsalvo.render.report), got str"]
    assert "report: missing key 'turns'" in report.check({"game": data["game"]})
    with pytest.raises(RenderError, match="not a built-in rule set"):
        report.html({**data, "game": {**data["game"], "rules": "my-rules"}})
    assert report.html({**data, "game": {**data["game"], "rules": "my-rules"}},
                       rules=Rules.preset("wordsalvo-en")).count('class="chip') == len(data["turns"])


def test_write_is_atomic_and_complete(data, page, tmp_path):
    out = report.write(data, tmp_path / "game.html")
    assert out == tmp_path / "game.html" and out.read_text("utf-8") == page
    assert out.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["game.html"]


def test_other_rule_sets_and_an_empty_game():
    d = example_report("turkish", seed=3, names=("Ayşe", "Bora"))
    page = report.html(d)
    assert 'data-premium="star"' in page and "Ayşe" in page
    empty = {"game": {"rules": "classic-en", "lexicon": "", "players": ["A", "B"], "final_scores": [0, 0],
                      "winners": [0, 1]}, "turns": []}
    page = report.html(empty)
    assert "No turns were played" in page and "tie between A and B" in page


# -- a real browser ---------------------------------------------------------------------------------
def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def decode_png(blob: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert blob[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos:pos + 4])
        kind, body = blob[pos + 4:pos + 8], blob[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _c, _f, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prior = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prior))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prior[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prior[i]
                c = prior[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prior = line
    return width, height, rows


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.slow
@pytest.mark.skipif(_browser() is None, reason="no chromium, chromium-browser or google-chrome on PATH")
def test_a_headless_browser_paints_the_page(data, tmp_path):
    path = report.write(data, tmp_path / "report.html")
    shot = tmp_path / "report.png"
    # half the device pixels keep the PNG small enough to decode in pure Python; the layout is 1400 x 1000
    cmd = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=0.5", "--window-size=1400,1000", f"--screenshot={shot}",
           path.resolve().as_uri()]
    subprocess.run(cmd, check=True, timeout=120, capture_output=True, env=browser_env())
    blob = shot.read_bytes()
    assert len(blob) > 20_000, "a near-empty screenshot"
    width, height, rows = decode_png(blob)
    assert (width, height) == (700, 500)
    bpp = len(rows[0]) // width
    colours = Counter(row[i:i + 3] for row in rows[::2] for i in range(0, len(row), bpp * 2))
    assert len(colours) > 50, "one colour, or nearly"
    assert colours.most_common(1)[0][1] < 0.6 * sum(colours.values())

    def near(c: bytes, target: tuple[int, int, int], tol: int = 6) -> bool:
        return all(abs(a - b) <= tol for a, b in zip(c, target))

    def count(hex_colour: str) -> int:
        target = _rgb(hex_colour)
        return sum(k for c, k in colours.items() if near(c, target))

    # the board painted: its frame, plain squares, tiles, a premium colour; the charts' player lines
    for colour in (DEFAULT_STYLE.background, DEFAULT_STYLE.plain, DEFAULT_STYLE.tile, DEFAULT_STYLE.triple_word):
        assert count(colour) > 30, colour
    assert count("#1f6fb4") > 20 and count("#e06c1f") > 20
    # the board sits at the top left, below the header and the strip: its frame colour is there
    frame = _rgb(DEFAULT_STYLE.background)
    left_column = [rows[y][20 * bpp:21 * bpp] for y in range(80, 330)]
    assert sum(near(c, frame) for c in left_column) > 150


@pytest.mark.slow
@pytest.mark.skipif(_browser() is None, reason="no chromium, chromium-browser or google-chrome on PATH")
def test_the_script_steps_to_the_turn_in_the_address(data, tmp_path):
    """``#turn-5`` opens turn 5: its panel, the layers up to it, its chip and the charts' cursors."""
    path = report.write(data, tmp_path / "report.html")
    n = len(data["turns"])
    for fragment, turn in (("#turn-5", 4), ("#turn-1", 0), ("#turn-999", n - 1)):
        cmd = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
               path.resolve().as_uri() + fragment]
        dom = subprocess.run(cmd, check=True, timeout=120, capture_output=True, text=True, env=browser_env()).stdout
        e = elements(dom)
        panels = e.having("article", class_="turn")
        assert [p["data-turn"] for p in panels if "hidden" not in p] == [str(turn)], fragment
        layers = e.having("div", class_="layer")
        assert [("display: none" in (x.get("style") or "")) for x in layers] == [False] * (turn + 1) + [True] * (
            n - turn - 1), fragment
        assert [x["data-layer"] for x in layers if "current" in x["class"].split()] == [str(turn)]
        assert [c["data-turn"] for c in e.having("button", class_="chip") if c.get("aria-current")] == [str(turn)]
        cursors = e.having("line", class_="cursor")
        assert len(cursors) == 2 and all(c["data-turn"] == str(turn) for c in cursors)
        assert f"Turn {turn + 1} of {n}" in "".join(e.text)

"""The charts: one point per turn and player, the marks, the axes, the cursor, bad input."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wordsalvo import WordSalvoError
from wordsalvo.render import charts
from wordsalvo.render.svg import RenderError

NS = "{http://www.w3.org/2000/svg}"
TOTALS = [[12, 0], [12, 40], [25, 40], [25, 52], [99, 52], [99, 61]]
NAMES = ["Alice", "Bob"]


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def points(root: ET.Element, player: int) -> list[ET.Element]:
    return [e for e in by_class(root, "point") if e.get("data-player") == str(player)]


def test_score_race_points_marks_and_axes():
    text = charts.score_race(TOTALS, NAMES, marks=[(4, "turning-point"), (4, "decisive"), (1, "turning-point")],
                             labels=[f"move {i}" for i in range(6)], cursor=2)
    root = ET.fromstring(text)
    assert "score-race" in root.get("class") and root.get("role") == "img"
    x0, dx = float(root.get("data-x0")), float(root.get("data-dx"))
    for p in (0, 1):
        pts = points(root, p)
        assert [e.get("data-turn") for e in pts] == [str(i) for i in range(6)]  # one point per turn
        assert all(e.get("fill") == charts.PLAYER_COLOURS[p] for e in pts)
        assert [float(e.get("cx")) for e in pts] == pytest.approx([x0 + dx * (i + 1) for i in range(6)], abs=0.06)
        ys = [float(e.get("cy")) for e in pts]
        for i in range(5):  # higher totals are higher up (smaller y), equal totals level
            a, b = TOTALS[i][p], TOTALS[i + 1][p]
            assert (ys[i + 1] < ys[i]) if b > a else (ys[i + 1] == ys[i])
    assert points(root, 0)[4].find(NS + "title").text == "turn 5: Alice 99 (move 4)"
    # every player's polyline starts at 0 before the first turn and has one vertex per turn
    lines = root.findall(f".//{NS}polyline")
    assert len(lines) == 2 and all(len(pl.get("points").split()) == 7 for pl in lines)
    marks = by_class(root, "mark")
    assert [(m.get("data-turn"), m.get("class")) for m in marks] == [
        ("1", "mark turning-point"), ("4", "mark decisive"), ("4", "mark turning-point")]
    assert [m.find(NS + "text").text for m in marks] == ["\u25c6", "\u25bc", "\u25c6"]
    assert marks[1].find(NS + "line").get("x1") == f"{x0 + dx * 5:.1f}"
    y_labels = [t.text for t in by_class(root, "y-axis")[0].iter(NS + "text")]
    assert y_labels == ["0", "20", "40", "60", "80", "100", "points"]
    legend = [t.text for t in by_class(root, "legend")[0].iter(NS + "text")]
    assert legend == ["Alice", "Bob", "\u25c6", "turning point", "\u25bc", "decisive moment"]
    cursor = by_class(root, "cursor")[0]
    assert cursor.get("data-turn") == "2" and cursor.get("x1") == f"{x0 + dx * 3:.1f}"
    assert text == charts.score_race(TOTALS, NAMES, marks=[(4, "turning-point"), (4, "decisive"),
                                                           (1, "turning-point")],
                                     labels=[f"move {i}" for i in range(6)], cursor=2)


def test_score_race_negative_totals_get_an_axis_below_zero():
    root = ET.fromstring(charts.score_race([[-8, 0], [10, -3]], NAMES))
    y_labels = [t.text for t in by_class(root, "y-axis")[0].iter(NS + "text")]
    assert y_labels[0].startswith("-") and "0" in y_labels


def test_win_chances_gaps_start_and_marks():
    chances = [[0.55, 0.45], [None, None], [0.3, 0.7], [0.9, None]]
    root = ET.fromstring(charts.win_chances(chances, NAMES, start=[0.5, 0.5], marks=[(2, "turning-point")]))
    assert [e.get("data-turn") for e in points(root, 0)] == ["0", "2", "3"]
    assert [e.get("data-turn") for e in points(root, 1)] == ["0", "2"]
    top, bottom = 34.0, 280 - 38.0
    for e, v in zip(points(root, 0), (0.55, 0.3, 0.9)):
        assert float(e.get("cy")) == pytest.approx(bottom - v * (bottom - top), abs=0.06)
    lines = root.findall(f".//{NS}polyline")
    assert [len(pl.get("points").split()) for pl in lines] == [4, 3]  # the start + known points
    assert [t.text for t in by_class(root, "y-axis")[0].iter(NS + "text")] == ["0%", "25%", "50%", "75%", "100%"]
    assert [m.get("data-turn") for m in by_class(root, "mark")] == ["2"]
    assert points(root, 0)[1].find(NS + "title").text == "turn 3: Alice 30%"


def test_three_players_get_three_colours():
    root = ET.fromstring(charts.score_race([[1, 2, 3]], ["A", "B", "C"]))
    assert [points(root, p)[0].get("fill") for p in range(3)] == list(charts.PLAYER_COLOURS[:3])


def test_an_empty_game_draws_axes_only():
    root = ET.fromstring(charts.score_race([], NAMES))
    assert not by_class(root, "point")


def test_bad_input_lists_every_problem():
    with pytest.raises(RenderError) as e:
        charts.score_race([[1, 2], [3]], NAMES, marks=[(5, "decisive"), ("x", "y")], labels=["a"], cursor=9)
    msg = str(e.value)
    assert isinstance(e.value, WordSalvoError)
    for part in ("totals[1]: expected 2 numbers", "marks[0]", "marks[1]", "labels: expected 2 strings",
                 "cursor: expected a turn -1..1"):
        assert part in msg
    with pytest.raises(RenderError, match=r"chances\[0\]: expected 2 chances 0..1"):
        charts.win_chances([[1.5, -0.5]], NAMES)
    with pytest.raises(RenderError, match="start"):
        charts.win_chances([[0.5, 0.5]], NAMES, start=[0.5])
    with pytest.raises(RenderError, match="names"):
        charts.score_race([[1]], [])


@given(st.floats(-5000, 5000), st.floats(0, 5000) | st.floats(1e-6, 1e-3))
def test_nice_ticks_cover_the_range_in_round_steps(low, span):
    high = low + span
    ticks = charts.nice_ticks(low, high)
    top = high if high - low > 1e-6 * max(1, abs(low), abs(high)) else low + 1  # a flat line: one unit high
    step = ticks[1] - ticks[0]
    assert ticks[0] <= low + step * 1e-6 and ticks[-1] >= top - step * 1e-6
    assert 2 <= len(ticks) <= 8
    assert all(abs((b - a) - step) <= step * 1e-6 for a, b in zip(ticks, ticks[1:]))
    mantissa = step / 10 ** math.floor(math.log10(step) + 1e-9)
    assert any(abs(mantissa - m) < 1e-6 for m in (1, 2, 2.5, 5, 10))
    if ticks[0] <= 0 <= ticks[-1]:
        assert 0.0 in ticks

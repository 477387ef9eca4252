"""Charts of a game as SVG: the score race and the win-probability line.

Both charts take plain per-turn data and return :class:`~wordsalvo.render.svg.Svg`
text, standard library only, deterministic.  The x axis is the game: ``0`` is
the start, ``i + 1`` the moment after turn ``i`` (0-based, as in the report).
Each player has a line in the player's colour (:data:`PLAYER_COLOURS`) with
one point per turn, ``<circle class="point" data-turn="i" data-player="p">``
with a ``<title>`` for a tooltip; marks (turning points, the decisive moment)
are vertical lines ``<g class="mark turning-point" data-turn="i">``.

The root ``<svg>`` carries ``data-x0`` and ``data-dx`` (viewBox units): turn
``i`` sits at ``x0 + dx * (i + 1)``, which is how a page moves the
``<line class="cursor">`` when it steps through the game.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from ..inputs import is_number, is_whole
from .svg import SVG_NAMESPACE, RenderError, Svg, _el, _num

__all__ = ["PLAYER_COLOURS", "MARK_KINDS", "score_race", "win_chances", "nice_ticks"]

#: line colours of players 1, 2, 3, 4 (colour-blind safe: blue, orange, green, purple)
PLAYER_COLOURS = ("#1f6fb4", "#e06c1f", "#2a9d55", "#8a4fbf")
#: mark kind -> (colour, glyph, legend text)
MARK_KINDS = {
    "turning-point": ("#7b3fa0", "\u25c6", "turning point"),
    "decisive": ("#c0392b", "\u25bc", "decisive moment"),
}
_OTHER_MARK = ("#555555", "\u25cf", "")

WIDTH = 640
HEIGHT = 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 52, 18, 34, 38
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Axis ticks: multiples of a 1-2-2.5-5 step from at most ``low`` to at least ``high``, at most ``most``
    steps; always includes 0 when ``low <= 0 <= high``.  A range narrower than a millionth of its
    magnitude (a flat line) is drawn one unit high."""
    if high - low <= 1e-6 * max(1.0, abs(low), abs(high)):
        high = low + 1
    raw = (high - low) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * (1 - 1e-9))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    digits = max(0, 2 - math.floor(math.log10(step)))
    return [round(k * step, digits) + 0.0 for k in range(first, last + 1)]


def _check_common(turns: int, names: Sequence[str], marks: Any, labels: Any, cursor: Any,
                  problems: list[str]) -> list[tuple[int, str]]:
    if not isinstance(names, Sequence) or isinstance(names, str) or not names \
            or not all(isinstance(n, str) for n in names):
        problems.append(f"names: expected a non-empty list of player names, got {names!r}")
    out: list[tuple[int, str]] = []
    try:
        items = list(marks)
    except TypeError:
        problems.append(f"marks: expected a list of (turn, kind) pairs, got {type(marks).__name__}")
        items = []
    for k, m in enumerate(items):
        if (isinstance(m, Sequence) and not isinstance(m, str) and len(m) == 2
                and is_whole(m[0], 0, turns - 1) and isinstance(m[1], str)):
            out.append((m[0], m[1]))
        else:
            problems.append(f"marks[{k}]: expected a (turn 0..{turns - 1}, kind) pair, got {m!r}")
    if labels is not None and (not isinstance(labels, Sequence) or len(labels) != turns
                               or not all(isinstance(t, str) for t in labels)):
        problems.append(f"labels: expected {turns} strings (one per turn), got {labels!r}")
    if cursor is not None and not is_whole(cursor, -1, turns - 1):
        problems.append(f"cursor: expected a turn -1..{turns - 1} or None, got {cursor!r}")
    return out


def _frame(kind: str, title: str, turns: int, width: int) -> tuple[ET.Element, float, float]:
    plot_w = WIDTH - _LEFT - _RIGHT
    dx = plot_w / max(turns, 1)
    root = _el(None, "svg", xmlns=SVG_NAMESPACE, viewBox=f"0 0 {WIDTH} {HEIGHT}", width=width,
               height=round(width * HEIGHT / WIDTH), role="img", aria_label=title, class_=f"ws-chart {kind}",
               data_x0=_num(_LEFT), data_dx=f"{dx:.4f}", data_turns=str(turns), font_family=_FONT)
    _el(root, "title", title)
    _el(root, "rect", class_="background", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#ffffff")
    return root, float(_LEFT), dx


def _x_axis(root: ET.Element, turns: int, x0: float, dx: float, bottom: float) -> None:
    axis = _el(root, "g", class_="x-axis", fill="#555555", font_size=11, text_anchor="middle")
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if turns / s <= 16)
    for t in range(0, turns + 1, step):
        _el(axis, "text", str(t), x=f"{x0 + dx * t:.1f}", y=bottom + 15)
    _el(axis, "text", "turn", x=f"{x0 + dx * turns:.1f}", y=bottom + 30, text_anchor="end")


def _legend(root: ET.Element, names: Sequence[str], colours: Sequence[str], kinds: list[str]) -> None:
    legend = _el(root, "g", class_="legend", font_size=12)
    x = float(_LEFT)
    for p, name in enumerate(names):
        colour = colours[p % len(colours)]
        item = _el(legend, "g", class_="legend-player", data_player=str(p))
        _el(item, "line", x1=x, y1=17, x2=x + 18, y2=17, stroke=colour, stroke_width=3)
        _el(item, "circle", cx=x + 9, cy=17, r=3.5, fill=colour)
        _el(item, "text", name, x=x + 24, y=21, fill="#222222")
        x += 24 + 7.5 * len(name) + 18
    for kind in kinds:
        colour, glyph, text = MARK_KINDS.get(kind, _OTHER_MARK)
        item = _el(legend, "g", class_=f"legend-mark {kind}")
        _el(item, "text", glyph, x=x, y=21, fill=colour)
        label = text or kind
        _el(item, "text", label, x=x + 14, y=21, fill="#444444")
        x += 14 + 7 * len(label) + 16


def _marks(root: ET.Element, marks: list[tuple[int, str]], x0: float, dx: float, top: float, bottom: float,
           labels: Sequence[str] | None) -> list[str]:
    group = _el(root, "g", class_="marks")
    kinds: list[str] = []
    for turn, kind in sorted(set(marks), key=lambda m: (m[0], m[1])):
        colour, glyph, text = MARK_KINDS.get(kind, _OTHER_MARK)
        if kind not in kinds:
            kinds.append(kind)
        x = f"{x0 + dx * (turn + 1):.1f}"
        g = _el(group, "g", class_=f"mark {kind}", data_turn=str(turn))
        what = text or kind
        _el(g, "title", f"turn {turn + 1}: {what}" + (f" ({labels[turn]})" if labels else ""))
        _el(g, "line", x1=x, y1=top, x2=x, y2=bottom, stroke=colour, stroke_width=1.5,
            stroke_dasharray="5 3" if kind != "decisive" else None)
        _el(g, "text", glyph, x=x, y=top - 2, fill=colour, font_size=12, text_anchor="middle")
    return kinds


def _cursor(root: ET.Element, cursor: int | None, x0: float, dx: float, top: float, bottom: float) -> None:
    x = f"{x0 + dx * ((cursor if cursor is not None else -1) + 1):.1f}"
    _el(root, "line", class_="cursor", data_turn=str(cursor if cursor is not None else -1), x1=x, y1=top, x2=x,
        y2=bottom, stroke="#222222", stroke_width=1, stroke_opacity=0.45 if cursor is not None else 0)


def score_race(
    totals: Sequence[Sequence[int | float]],
    names: Sequence[str],
    *,
    marks: Sequence[tuple[int, str]] = (),
    labels: Sequence[str] | None = None,
    cursor: int | None = None,
    width: int = 640,
    title: str = "Score race",
    colours: Sequence[str] = PLAYER_COLOURS,
) -> Svg:
    """Every player's running total, one point per turn.

    ``totals[i][p]``: player ``p``'s total after turn ``i``.  ``marks``: (turn,
    kind) pairs, kind ``"turning-point"``, ``"decisive"`` or any other word.
    ``labels[i]``: text for turn ``i``'s tooltips (``"Alice 8D QI"``).
    ``cursor``: a turn to mark with a thin line (-1: the start).
    """
    problems: list[str] = []
    players = len(names) if isinstance(names, Sequence) else 0
    if not isinstance(totals, Sequence) or isinstance(totals, str):
        problems.append(f"totals: expected a list of per-turn totals, got {type(totals).__name__}")
        totals = []
    for i, row in enumerate(totals):
        if (not isinstance(row, Sequence) or isinstance(row, str) or len(row) != players
                or not all(is_number(v) for v in row)):
            problems.append(f"totals[{i}]: expected {players} numbers (one per player), got {row!r}")
    turns = len(totals)
    mark_list = _check_common(turns, names, marks, labels, cursor, problems)
    if problems:
        raise RenderError("cannot draw the score race: " + "; ".join(problems))

    root, x0, dx = _frame("score-race", title, turns, width)
    top, bottom = float(_TOP), float(HEIGHT - _BOTTOM)
    low = min([0.0] + [float(v) for row in totals for v in row])
    high = max([1.0] + [float(v) for row in totals for v in row])
    ticks = nice_ticks(low, high)
    y_low, y_high = ticks[0], ticks[-1]

    def y(v: float) -> float:
        return bottom - (v - y_low) / (y_high - y_low) * (bottom - top)

    grid = _el(root, "g", class_="y-axis", font_size=11, fill="#555555", text_anchor="end")
    for t in ticks:
        _el(grid, "line", x1=x0, y1=f"{y(t):.1f}", x2=WIDTH - _RIGHT, y2=f"{y(t):.1f}",
            stroke="#dddddd" if t else "#999999", stroke_width=1)
        _el(grid, "text", _num(t), x=x0 - 6, y=f"{y(t) + 4:.1f}")
    _el(grid, "text", "points", class_="axis-title", x=x0 - 6, y=top - 10)
    _x_axis(root, turns, x0, dx, bottom)
    kinds = _marks(root, mark_list, x0, dx, top, bottom, labels)
    lines = _el(root, "g", class_="series")
    for p, name in enumerate(names):
        colour = colours[p % len(colours)]
        pts = [(x0, y(0))] + [(x0 + dx * (i + 1), y(float(row[p]))) for i, row in enumerate(totals)]
        g = _el(lines, "g", class_="player", data_player=str(p))
        _el(g, "polyline", points=" ".join(f"{a:.1f},{b:.1f}" for a, b in pts), fill="none", stroke=colour,
            stroke_width=2.5, stroke_linejoin="round")
        for i, row in enumerate(totals):
            c = _el(g, "circle", class_="point", data_turn=str(i), data_player=str(p),
                    cx=f"{pts[i + 1][0]:.1f}", cy=f"{pts[i + 1][1]:.1f}", r=3.5, fill=colour)
            _el(c, "title", f"turn {i + 1}: {name} {_num(row[p])}" + (f" ({labels[i]})" if labels else ""))
    _cursor(root, cursor, x0, dx, top, bottom)
    _legend(root, names, colours, kinds)
    return Svg(ET.tostring(root, encoding="unicode"))


def win_chances(
    chances: Sequence[Sequence[float | None]],
    names: Sequence[str],
    *,
    start: Sequence[float | None] | None = None,
    marks: Sequence[tuple[int, str]] = (),
    labels: Sequence[str] | None = None,
    cursor: int | None = None,
    width: int = 640,
    title: str = "Win probability",
    colours: Sequence[str] = PLAYER_COLOURS,
) -> Svg:
    """Every player's chance to win (0..1) after each turn, as a line from 0 % to 100 %.

    ``chances[i][p]``: player ``p``'s chance after turn ``i``, or None where it
    is not known (then that player has no point there and the line bridges
    it).  ``start[p]``: the chances before the first turn (default: none).
    Marks, labels and cursor as in :func:`score_race`.
    """
    problems: list[str] = []
    players = len(names) if isinstance(names, Sequence) else 0

    def ok(v: Any) -> bool:
        return v is None or is_number(v, 0, 1)

    if not isinstance(chances, Sequence) or isinstance(chances, str):
        problems.append(f"chances: expected a list of per-turn chances, got {type(chances).__name__}")
        chances = []
    for i, row in enumerate(chances):
        if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != players \
                or not all(ok(v) for v in row):
            problems.append(f"chances[{i}]: expected {players} chances 0..1 or None (one per player), got {row!r}")
    if start is not None and (not isinstance(start, Sequence) or len(start) != players
                              or not all(ok(v) for v in start)):
        problems.append(f"start: expected {players} chances 0..1 or None, got {start!r}")
    turns = len(chances)
    mark_list = _check_common(turns, names, marks, labels, cursor, problems)
    if problems:
        raise RenderError("cannot draw the win-probability chart: " + "; ".join(problems))

    root, x0, dx = _frame("win-chances", title, turns, width)
    top, bottom = float(_TOP), float(HEIGHT - _BOTTOM)

    def y(v: float) -> float:
        return bottom - v * (bottom - top)

    grid = _el(root, "g", class_="y-axis", font_size=11, fill="#555555", text_anchor="end")
    for t in (0, 0.25, 0.5, 0.75, 1):
        _el(grid, "line", x1=x0, y1=f"{y(t):.1f}", x2=WIDTH - _RIGHT, y2=f"{y(t):.1f}",
            stroke="#999999" if t == 0.5 else "#dddddd", stroke_width=1,
            stroke_dasharray="4 3" if t == 0.5 else None)
        _el(grid, "text", f"{round(t * 100)}%", x=x0 - 6, y=f"{y(t) + 4:.1f}")
    _x_axis(root, turns, x0, dx, bottom)
    kinds = _marks(root, mark_list, x0, dx, top, bottom, labels)
    lines = _el(root, "g", class_="series")
    for p, name in enumerate(names):
        colour = colours[p % len(colours)]
        pts: list[tuple[float, float]] = []
        if start is not None and start[p] is not None:
            pts.append((x0, y(float(start[p]))))
        g = _el(lines, "g", class_="player", data_player=str(p))
        poly = _el(g, "polyline", fill="none", stroke=colour, stroke_width=2.5, stroke_linejoin="round")
        for i, row in enumerate(chances):
            if row[p] is None:
                continue
            pt = (x0 + dx * (i + 1), y(float(row[p])))
            pts.append(pt)
            c = _el(g, "circle", class_="point", data_turn=str(i), data_player=str(p), cx=f"{pt[0]:.1f}",
                    cy=f"{pt[1]:.1f}", r=3.5, fill=colour)
            _el(c, "title", f"turn {i + 1}: {name} {float(row[p]) * 100:.0f}%"
                + (f" ({labels[i]})" if labels else ""))
        poly.set("points", " ".join(f"{a:.1f},{b:.1f}" for a, b in pts))
    _cursor(root, cursor, x0, dx, top, bottom)
    _legend(root, names, colours, kinds)
    return Svg(ET.tostring(root, encoding="unicode"))

"""The board as an SVG picture: premium squares, ★ squares, tiles with their values.

Modelled on python-chess ``chess/svg.py``: :func:`board` takes the rule set and
plain data (225 tile codes, the squares to highlight) and returns the SVG text
as a :class:`Svg` string, standard library only.  The same string serves a file,
a web page (inline) and a notebook (``_repr_svg_``).  Colours are data
(:class:`Style`); the output is deterministic: the same input gives the same
bytes.  Text and attributes are escaped by :mod:`xml.etree.ElementTree`.

What is drawn, at the default detail:

* every square coloured by its premium, read from the rule set's data
  (``rules.word_multipliers``, ``rules.letter_multipliers``): ``3W``, ``2W``,
  ``3L``, ``2L`` with the label; a star square (``rules.square_bonus`` > 0)
  amber with ``★`` and its bonus (``+25``); the start square
  (``rules.centre``) with a ``★``;
* each tile as a rounded square with its letter and, bottom right, its value
  (``rules.tile_values``); a blank shows its letter in the blank colour, on a
  paler tile, and no value;
* the highlighted squares (one move): the tile in the highlight colour with a
  dark outline (an empty highlighted square gets the outline alone);
* coordinates: columns ``A``..``O`` above and below, rows ``1``..``15`` on
  both sides, as in the notation ``8H``.

``mini=True`` draws the miniature used for a turning point: colours only (no
labels, no values, no coordinates), 12 pixels a square by default.

Every element a program may look for carries a class and ``data-`` attributes:
``<g class="square" data-square="8H" data-premium="2W">``, ``<g class="tile
blank highlight" data-square="8H" data-letter="A" data-value="0">``,
``<rect class="highlight" data-square="8H">``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from ..alphabet import BLANK_BIT
from ..constants import COLUMNS, DIM
from ..errors import RenderError, WordSalvoError
from ..inputs import is_whole

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Rules

__all__ = ["RenderError", "Style", "DEFAULT_STYLE", "Svg", "board", "mini_board", "parse_tiles",
           "SQUARE", "MARGIN", "SVG_NAMESPACE"]

#: squares per side and the column letters of the notation (``8H``: row 8, column H), as in the core
SIZE = DIM
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
#: side of a square in viewBox units
SQUARE = 40
#: width of the coordinate margin in viewBox units (0 without coordinates)
MARGIN = 20
SQUARES = SIZE * SIZE
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


@dataclass(frozen=True)
class Style:
    """Colours of a picture, as CSS colour strings; replace fields with :func:`dataclasses.replace`."""

    background: str = "#4a5a52"      #: frame and the lines between squares
    coordinates: str = "#f1efe6"     #: row and column labels on the frame
    plain: str = "#ece6d3"           #: a square without premium
    double_letter: str = "#a9d8ea"
    triple_letter: str = "#3b82c4"
    double_word: str = "#f3b2bf"
    triple_word: str = "#d2473f"
    star_square: str = "#f2b632"     #: a square with a flat bonus (★)
    start: str = "#f5d76e"           #: the start square when it has no premium
    premium_text: str = "#ffffff"    #: labels on dark premiums (3W, 3L)
    premium_text_light: str = "#2d3a33"  #: labels on light premiums (2W, 2L, ★)
    tile: str = "#f6d488"
    tile_edge: str = "#b98b3e"
    tile_text: str = "#1f1a12"
    blank_tile: str = "#fbf1d6"
    blank_text: str = "#c0392b"
    highlight_tile: str = "#a8df8e"
    highlight_edge: str = "#1e6b34"
    font_family: str = _FONT

    def __post_init__(self) -> None:
        bad = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
               if not isinstance(getattr(self, f.name), str) or any(ch in getattr(self, f.name) for ch in "<>&\"'")]
        if bad:
            raise RenderError(f"Style: expected CSS colour or font strings, got {', '.join(bad)}")


DEFAULT_STYLE = Style()


class Svg(str):
    """SVG text; shows itself as a picture in a notebook."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def parse_tiles(tiles: Any, rules: "Rules", where: str = "tiles") -> tuple[bytes, list[str]]:
    """225 tile codes from codes or a 225-character string; (codes, problems).

    Codes: bytes, bytearray or a sequence of ints, row-major, ``0`` empty,
    ``1..n`` a letter of the rule set's alphabet, with :data:`BLANK_BIT` set for
    a blank.  A string: ``.`` (or a space) empty, an uppercase letter a tile, a
    lowercase letter a blank (as in CGP).  An object with a ``tiles``
    attribute (a :class:`~wordsalvo.board.Board`) gives its tiles.  ``None``:
    the empty board.  Every bad square is reported, none is guessed.
    """
    if tiles is None:
        return bytes(SQUARES), []
    if hasattr(tiles, "tiles") and not isinstance(tiles, (str, bytes, bytearray)):
        tiles = tiles.tiles
    problems: list[str] = []
    n = rules.alphabet.size
    if isinstance(tiles, str):
        if len(tiles) != SQUARES:
            return bytes(SQUARES), [f"{where}: expected {SQUARES} characters (row-major, '.' empty), "
                                    f"got {len(tiles)}"]
        codes = bytearray(SQUARES)
        for i, ch in enumerate(tiles):
            if ch in ". ":
                continue
            try:
                codes[i] = rules.alphabet.board_code(ch)
            except WordSalvoError:
                problems.append(f"{where}[{i}] (square {_name(i)}): expected '.' or a letter of alphabet "
                                f"{rules.alphabet.name!r}, got {ch!r}")
        return bytes(codes), problems
    if isinstance(tiles, (bytes, bytearray, memoryview)):
        raw = list(bytes(tiles))
    elif isinstance(tiles, Sequence) and all(is_whole(t) for t in tiles):
        raw = list(tiles)
    else:
        return bytes(SQUARES), [f"{where}: expected {SQUARES} tile codes (bytes or a list of ints) or a "
                                f"{SQUARES}-character string, got {type(tiles).__name__}"]
    if len(raw) != SQUARES:
        return bytes(SQUARES), [f"{where}: expected {SQUARES} tile codes, got {len(raw)}"]
    for i, t in enumerate(raw):
        if t != 0 and not (0 <= t <= 0xFF and 1 <= (t & ~BLANK_BIT) <= n):
            problems.append(f"{where}[{i}] (square {_name(i)}): expected 0 or a tile code 1..{n} "
                            f"(+{BLANK_BIT} for a blank), got {t}")
    return (bytes(raw) if not problems else bytes(SQUARES)), problems


def _name(index: int) -> str:
    r, c = divmod(index, SIZE)
    return f"{r + 1}{COLUMNS[c]}"


def _parse_highlight(highlight: Iterable[Any], where: str = "highlight") -> tuple[frozenset[int], list[str]]:
    squares: set[int] = set()
    problems: list[str] = []
    try:
        items = list(highlight)
    except TypeError:
        return frozenset(), [f"{where}: expected a list of (row, col) pairs, got {type(highlight).__name__}"]
    for k, item in enumerate(items):
        ok = (isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2
              and all(is_whole(v, 0, SIZE - 1) for v in item))
        if not ok:
            problems.append(f"{where}[{k}]: expected a (row, col) pair of 0..{SIZE - 1}, got {item!r}")
        else:
            squares.add(item[0] * SIZE + item[1])
    return frozenset(squares), problems


def _premium(rules: "Rules", index: int) -> tuple[str, str]:
    """(premium, label) of a square: ``3W``, ``2W``, ``3L``, ``2L`` (any multiplier), ``star`` or ``plain``."""
    wm = rules.word_multipliers[index]
    lm = rules.letter_multipliers[index]
    if rules.square_bonus[index] > 0:
        return "star", f"+{rules.square_bonus[index]}"
    if wm > 1:
        return f"{wm}W", f"{wm}W"
    if lm > 1:
        return f"{lm}L", f"{lm}L"
    return "plain", ""


def _fill(style: Style, premium: str, multiplier: str) -> tuple[str, str]:
    """(square fill, label colour)."""
    if premium == "star":
        return style.star_square, style.premium_text_light
    if premium.endswith("W"):
        return (style.double_word, style.premium_text_light) if multiplier == "2" else \
            (style.triple_word, style.premium_text)
    if premium.endswith("L"):
        return (style.double_letter, style.premium_text_light) if multiplier == "2" else \
            (style.triple_letter, style.premium_text)
    return style.plain, style.premium_text_light


def _num(v: float) -> str:
    """A coordinate as short deterministic text."""
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}".rstrip("0").rstrip(".")


def _el(parent: ET.Element | None, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    clean = {k.rstrip("_").replace("__", ":").replace("_", "-"): (v if isinstance(v, str) else _num(v))
             for k, v in attrs.items() if v is not None}
    e = ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)
    if text is not None:
        e.text = text
    return e


def board(
    rules: "Rules",
    tiles: Any = None,
    *,
    highlight: Iterable[tuple[int, int]] = (),
    size: int | None = None,
    coordinates: bool | None = None,
    mini: bool = False,
    squares: bool = True,
    title: str | None = None,
    style: Style = DEFAULT_STYLE,
    values: bool = True,
) -> Svg:
    """The board of ``rules`` with ``tiles`` on it, as SVG text.

    ``tiles``: 225 tile codes or a 225-character string (see
    :func:`parse_tiles`); None for an empty board.  ``highlight``: the (row,
    col) squares of one move, 0-based.  ``size``: width and height in pixels
    (default 600, 180 for ``mini``).  ``coordinates``: the row and column
    labels (default: on, off for ``mini``).  ``mini``: the miniature (colours
    only, no labels or values).  ``squares=False`` leaves out the frame and the
    squares: a transparent layer of tiles to lay over a board drawn once with
    the same ``size``, ``coordinates`` and ``mini``.  ``title``: the accessible
    name (``<title>`` and ``aria-label``).  ``values=False``: the tiles without their
    values (a board drawn without its rule set).

    Raises :class:`RenderError` (a :class:`~wordsalvo.WordSalvoError`) listing
    every bad square or highlight entry.
    """
    for attr in ("layout", "alphabet", "letter_multipliers", "word_multipliers", "square_bonus", "tile_values",
                 "centre"):
        if not hasattr(rules, attr):
            raise RenderError(f"rules: expected a Rules object (e.g. Rules.preset('wordsalvo-en')), "
                              f"got {type(rules).__name__}")
    if not isinstance(style, Style):
        raise RenderError(f"style: expected a Style, got {type(style).__name__}")
    codes, problems = parse_tiles(tiles, rules)
    lit, more = _parse_highlight(highlight)
    problems += more
    if coordinates is None:
        coordinates = not mini
    if size is None:
        size = 180 if mini else 600
    if not is_whole(size, 1):
        problems.append(f"size: expected a positive whole number of pixels, got {size!r}")
    if problems:
        raise RenderError("cannot draw the board: " + "; ".join(problems))

    margin = MARGIN if coordinates else 0
    side = SIZE * SQUARE + 2 * margin
    if title is None:
        title = f"{rules.name} board, {sum(1 for t in codes if t)} tiles"
    root = _el(None, "svg", xmlns=SVG_NAMESPACE, viewBox=f"0 0 {side} {side}", width=size, height=size,
               role="img", aria_label=title, class_="ws-board" + (" ws-mini" if mini else "")
               + ("" if squares else " ws-layer"), font_family=style.font_family, text_anchor="middle")
    _el(root, "title", title)

    if squares:
        _el(root, "rect", class_="frame", x=0, y=0, width=side, height=side, fill=style.background)
        if coordinates:
            coords = _el(root, "g", class_="coordinates", fill=style.coordinates, font_size=12)
            for i in range(SIZE):
                mid = margin + i * SQUARE + SQUARE / 2
                for y in (margin / 2 + 4, side - margin / 2 + 4):
                    _el(coords, "text", COLUMNS[i], x=mid, y=y)
                for x in (margin / 2, side - margin / 2):
                    _el(coords, "text", str(i + 1), x=x, y=mid + 4)
        grid = _el(root, "g", class_="squares", font_weight="bold")
        start = rules.centre[0] * SIZE + rules.centre[1]
        for index in range(SQUARES):
            r, c = divmod(index, SIZE)
            premium, label = _premium(rules, index)
            fill, ink = _fill(style, premium, premium[:1])
            is_start = index == start
            if is_start and premium == "plain":
                fill = style.start
            attrs = {"data_premium": premium}
            if is_start:
                attrs["data_start"] = "true"
            g = _el(grid, "g", class_="square", data_square=_name(index), **attrs)
            x, y = margin + c * SQUARE, margin + r * SQUARE
            _el(g, "rect", x=x + 1, y=y + 1, width=SQUARE - 2, height=SQUARE - 2, fill=fill)
            if mini:
                if premium == "star" or is_start:
                    _el(g, "text", "\u2605", x=x + SQUARE / 2, y=y + 29, font_size=26, fill=ink)
                continue
            if premium == "star":
                _el(g, "text", "\u2605", x=x + SQUARE / 2, y=y + 21, font_size=18, fill=ink)
                _el(g, "text", label, x=x + SQUARE / 2, y=y + 34, font_size=10, fill=ink)
            elif is_start:
                _el(g, "text", "\u2605", x=x + SQUARE / 2, y=y + 29 if not label else y + 21,
                    font_size=26 if not label else 18, fill=ink)
                if label:
                    _el(g, "text", label, x=x + SQUARE / 2, y=y + 34, font_size=10, font_weight="bold",
                        fill=ink)
            elif label:
                _el(g, "text", label, x=x + SQUARE / 2, y=y + 25, font_size=13, fill=ink)

    layer = _el(root, "g", class_="tiles", font_weight="bold", fill=style.tile_text)
    show_values = values
    values = rules.tile_values
    for index in range(SQUARES):
        t = codes[index]
        if not t:
            continue
        r, c = divmod(index, SIZE)
        x, y = margin + c * SQUARE, margin + r * SQUARE
        is_blank = bool(t & BLANK_BIT)
        letter = rules.alphabet.letter(t)
        value = 0 if is_blank or not show_values else values[t]
        lit_here = index in lit
        cls = "tile" + (" blank" if is_blank else "") + (" highlight" if lit_here else "")
        g = _el(layer, "g", class_=cls, data_square=_name(index), data_letter=letter, data_value=str(value))
        fill = style.highlight_tile if lit_here else (style.blank_tile if is_blank else style.tile)
        edge = style.highlight_edge if lit_here else style.tile_edge
        _el(g, "rect", x=x + 1.5, y=y + 1.5, width=SQUARE - 3, height=SQUARE - 3, rx=4, fill=fill, stroke=edge,
            stroke_width=2.5 if lit_here else 1)
        ink = style.blank_text if is_blank else None
        if mini:
            _el(g, "text", letter, x=x + SQUARE / 2, y=y + 30, font_size=28, fill=ink)
            continue
        _el(g, "text", letter, x=x + SQUARE / 2 - (0 if is_blank else 3), y=y + 28, font_size=23, fill=ink)
        if not is_blank and show_values:
            _el(g, "text", str(value), x=x + SQUARE - 5, y=y + SQUARE - 6, font_size=10, font_weight="normal",
                text_anchor="end")
    outlines = _el(root, "g", class_="highlights", fill="none", stroke=style.highlight_edge, stroke_width=3)
    for index in sorted(lit):
        if codes[index]:
            continue  # the tile itself is drawn highlighted
        r, c = divmod(index, SIZE)
        _el(outlines, "rect", class_="highlight", data_square=_name(index), x=margin + c * SQUARE + 2,
            y=margin + r * SQUARE + 2, width=SQUARE - 4, height=SQUARE - 4, rx=5)
    return Svg(ET.tostring(root, encoding="unicode"))


def mini_board(rules: "Rules", tiles: Any = None, *, highlight: Iterable[tuple[int, int]] = (),
               size: int = 180, title: str | None = None, style: Style = DEFAULT_STYLE) -> Svg:
    """The miniature board (colours, letters, the highlighted move): ``board(..., mini=True)``."""
    return board(rules, tiles, highlight=highlight, size=size, mini=True, title=title, style=style)

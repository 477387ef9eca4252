"""The game report: one self-contained HTML page to look at after a game.

:func:`html` turns ONE dict (below) into a single HTML file with its CSS, its
script and its pictures inline: no network, no other file.  The page shows the
result, a clickable move-history strip, the board step by step (buttons and
the ←/→, Home/End keys; ``#turn-12`` in the address opens turn 12), the
current turn's move, rack, score, win chance, equity lost, coach note, badges
and top alternatives, the score race and the win-probability chart (with the
turning points and the decisive moment marked; a click on a point goes to that
turn), the turning points and the decisive moment on miniature boards, and a
table of per-player statistics.  Without a script the page shows the last turn.
:func:`write` saves the page atomically (temporary file, then rename).

The dict (JSON-friendly; keys marked *optional* may be left out, ``None`` is
``null``)::

    {
      "version": 1,                          # optional; the schema version, 1
      "game": {
        "rules": "wordsalvo-en",             # the rule set's name (Rules.preset) -- see html(rules=)
        "board_seed": None,                  # optional: the seed of a random board (Rules.preset(board_seed=))
        "stars": "3,5 11,9",                 # optional: the star squares (0-based row,col), as a record's #stars
        "lexicon": "SCOWL (en)",             # free text
        "players": ["Alice", "Bob"],         # 1 or more names, in turn order
        "final_scores": [412, 388],
        "winners": [0],                      # player indexes; two or more: a tie; []: nobody (abandoned)
        "end_reason": "out",                 # optional free text
        "title": "Club night, round 3",      # optional
        "win_note": "...",                   # optional: why there are no win chances (free text)
        "endgame_nodes": 50000,              # optional: the endgame solver's budget per solve (positions)
        "endgame_note": "...",               # optional: how the endgame turns were judged (free text)
      },
      "turns": [{                            # every entry of the game, in order
        "index": 0,                          # 0-based; equals the entry's place in the list
        "player": 0,                         # index into game.players
        "kind": "play",                      # play, swap, pass, challenge, phony, time, timeout, settle, end,
                                             #   refused-play, resign ... (a word; known kinds get a label)
        "rack": "AEINRST",                   # the rack before the turn, "?" = blank ("" when unknown)
        "notation": "8D RETAINS",            # play: the move; swap: the tiles put back; else free or ""
        "score": 74,                         # what the entry added to the player's score (may be negative)
        "totals": [74, 0],                   # every player's total after the entry
        "tiles": [[7, 3, "R", False], ...],  # the new tiles: row, col (0-based), letter (uppercase), is_blank
        "board": "...",                      # the board after the entry: 225 characters, row-major, "." empty,
                                             #   uppercase tile, lowercase blank -- or 225 tile codes
        "equity_lost": 0.0,                  # equity given up against the best move, or None
        "win_before": 0.50,                  # the player's chance to win before the turn, 0..1, or None
        "win_after": 0.62,                   # the same player's chance after the turn, 0..1, or None
        "win_best": 0.62,                    # optional: the chance after the best move, 0..1, or None
        "alternatives": [                    # the engine's top moves, best first (may be empty)
          ["8D RETAINS", 74, 74.0, 0.62],    #   notation, score, equity (or None), win chance (or None)
        ],
        "note": "The best move: a bingo.",   # the coach's sentence ("" for none)
        "badges": ["brilliancy"],            # words of BADGES (others are shown as they are)
        "words": ["RETAINS"],                # optional: the words formed
        "simulated": {                       # optional: the turn was judged by simulation
          "plies": 2,                        #   turns played after each candidate
          "candidates": [                    #   best first: notation, mean equity, its standard error,
            ["8D RETAINS", 80.1, 1.2, 0.64, 300],  # mean win chance (each or None), iterations
          ],
        },
      }, ...],
      "turning_points": [12, 20],            # turn indexes
      "decisive": 20,                        # the decisive moment's turn index, or None
      "stats": [                             # per-player statistics, one row each, shown as a table
        {"label": "Bingos", "values": [2, 1]},   # one value per player: number, text or None
      ],
    }

:func:`check` lists every problem of a dict (expected, got, where); :func:`html`
and :func:`write` raise :class:`~wordsalvo.render.svg.RenderError` (a
:class:`~wordsalvo.WordSalvoError`) with all of them and write nothing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..constants import DIM
from ..inputs import is_number, is_whole, write_atomic
from ..wording import verb
from . import charts
from . import svg as svg_board
from .svg import SVG_NAMESPACE, RenderError

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Rules

__all__ = ["SCHEMA_VERSION", "BADGES", "KIND_LABELS", "check", "html", "write", "SCRIPT"]

SCHEMA_VERSION = 1
#: badge -> (glyph, label, explanation)
BADGES = {
    "brilliancy": ("!!", "Brilliancy", "the best move, well ahead of every other"),
    "missed": ("?", "Missed", "a much better move was on the board"),
    "turning-point": ("\u25c6", "Turning point", "the game tilted here"),
    "decisive": ("\u25bc", "Decisive moment", "the turn that decided the game"),
    "phony": ("\u2717", "Phony", "a word that is not in the lexicon"),
    "bingo": ("\u2605", "Bingo", "every tile of the rack played"),
    "simulated": ("\u2248", "Simulated", "judged by simulating the best moves a few turns ahead"),
}
#: turn kind -> how the move-history strip names a turn that is not a play
KIND_LABELS = {
    "play": "", "swap": "swap", "pass": "pass", "challenge": "challenge", "phony": "phony withdrawn",
    "time": "time penalty", "timeout": "time-out", "settle": "rack", "end": "end", "refused-play": "refused",
    "resign": "resigns", "zero-score-play": "",
}
BOARD_SIZE = 600
MINI_SIZE = 180
_SIZE = DIM


# -- checking ------------------------------------------------------------------------------------


def _is_chance(v: Any) -> bool:
    return v is None or (is_number(v) and 0 <= v <= 1)


def _list(v: Any) -> bool:
    return isinstance(v, (list, tuple))


def check(data: Any, rules: "Rules | None" = None) -> list[str]:
    """Every problem of a report dict, as ``where: expected ..., got ...`` (empty: fine).

    With ``rules`` the boards are read with its alphabet and each board's
    letters are checked too.
    """
    p: list[str] = []
    if not isinstance(data, dict):
        return [f"report: expected a dict (see wordsalvo.render.report), got {type(data).__name__}"]
    for key in ("game", "turns"):
        if key not in data:
            p.append(f"report: missing key {key!r}")
    if data.get("version", SCHEMA_VERSION) != SCHEMA_VERSION:
        p.append(f"version: expected {SCHEMA_VERSION}, got {data.get('version')!r}")
    game = data.get("game", {})
    players = 0
    if not isinstance(game, dict):
        p.append(f"game: expected a dict, got {type(game).__name__}")
        game = {}
    names = game.get("players")
    if not _list(names) or not names or not all(isinstance(n, str) and n for n in names):
        p.append(f"game.players: expected a list of player names, got {names!r}")
    else:
        players = len(names)
    if not isinstance(game.get("rules"), str) or not game.get("rules"):
        p.append(f"game.rules: expected a rule set name, got {game.get('rules')!r}")
    for key in ("lexicon", "end_reason", "title", "win_note", "endgame_note"):
        if game.get(key) is not None and not isinstance(game[key], str):
            p.append(f"game.{key}: expected text, got {game[key]!r}")
    if "lexicon" not in game:
        p.append("game: missing key 'lexicon'")
    if game.get("board_seed") is not None and not is_whole(game["board_seed"]):
        p.append(f"game.board_seed: expected a whole number or None, got {game['board_seed']!r}")
    if game.get("stars") is not None and not isinstance(game["stars"], str):
        p.append(f"game.stars: expected star squares as text ('3,5 11,9') or None, got {game['stars']!r}")
    scores = game.get("final_scores")
    if not _list(scores) or len(scores) != players or not all(is_number(s) for s in scores):
        p.append(f"game.final_scores: expected {players} numbers, got {scores!r}")
    winners = game.get("winners")
    if not _list(winners) or not all(is_whole(w) and 0 <= w < players for w in winners):
        p.append(f"game.winners: expected a list of player indexes 0..{players - 1}, got {winners!r}")

    turns = data.get("turns", [])
    if not _list(turns):
        p.append(f"turns: expected a list, got {type(turns).__name__}")
        turns = []
    n = len(turns)
    for i, t in enumerate(turns):
        w = f"turns[{i}]"
        if not isinstance(t, dict):
            p.append(f"{w}: expected a dict, got {type(t).__name__}")
            continue
        for key in ("index", "player", "kind", "rack", "notation", "score", "totals", "tiles", "board",
                    "equity_lost", "win_before", "win_after", "alternatives", "note", "badges"):
            if key not in t:
                p.append(f"{w}: missing key {key!r}")
        if "index" in t and t["index"] != i:
            p.append(f"{w}.index: expected {i} (its place in the list), got {t['index']!r}")
        if "player" in t and not (is_whole(t["player"]) and 0 <= t["player"] < players):
            p.append(f"{w}.player: expected a player index 0..{players - 1}, got {t['player']!r}")
        for key in ("kind", "rack", "notation", "note"):
            if key in t and not isinstance(t[key], str):
                p.append(f"{w}.{key}: expected text, got {t[key]!r}")
        if "kind" in t and isinstance(t["kind"], str) and not t["kind"]:
            p.append(f"{w}.kind: expected a word such as 'play', got ''")
        if "score" in t and not is_number(t["score"]):
            p.append(f"{w}.score: expected a number, got {t['score']!r}")
        if "totals" in t and (not _list(t["totals"]) or len(t["totals"]) != players
                              or not all(is_number(v) for v in t["totals"])):
            p.append(f"{w}.totals: expected {players} numbers (every player's total), got {t['totals']!r}")
        for k, tile in enumerate(t.get("tiles", []) if _list(t.get("tiles", [])) else [None]):
            if not (_list(tile) and len(tile) == 4 and is_whole(tile[0]) and is_whole(tile[1])
                    and 0 <= tile[0] < _SIZE and 0 <= tile[1] < _SIZE and isinstance(tile[2], str)
                    and len(tile[2]) == 1 and isinstance(tile[3], bool)):
                p.append(f"{w}.tiles[{k}]: expected [row 0..14, col 0..14, letter, is_blank], got {tile!r}")
        if "board" in t:
            if rules is not None:
                _codes, more = svg_board.parse_tiles(t["board"], rules, where=f"{w}.board")
                p.extend(more)
            elif not ((isinstance(t["board"], str) and len(t["board"]) == 225)
                      or (_list(t["board"]) and len(t["board"]) == 225) or isinstance(t["board"], (bytes, bytearray))):
                p.append(f"{w}.board: expected 225 characters or 225 tile codes, got {t['board']!r:.60}")
        if t.get("equity_lost") is not None and not is_number(t["equity_lost"]):
            p.append(f"{w}.equity_lost: expected a number or None, got {t['equity_lost']!r}")
        for key in ("win_before", "win_after", "win_best"):
            if not _is_chance(t.get(key)):
                p.append(f"{w}.{key}: expected a chance 0..1 or None, got {t[key]!r}")
        alts = t.get("alternatives", [])
        if not _list(alts):
            p.append(f"{w}.alternatives: expected a list, got {alts!r}")
            alts = []
        for k, a in enumerate(alts):
            if not (_list(a) and len(a) == 4 and isinstance(a[0], str) and is_number(a[1])
                    and (a[2] is None or is_number(a[2])) and _is_chance(a[3])):
                p.append(f"{w}.alternatives[{k}]: expected [notation, score, equity or None, "
                         f"win chance 0..1 or None], got {a!r}")
        badges = t.get("badges", [])
        if not _list(badges) or not all(isinstance(b, str) and b for b in badges):
            p.append(f"{w}.badges: expected a list of words such as 'brilliancy', got {badges!r}")
        if t.get("words") is not None and (not _list(t["words"]) or not all(isinstance(x, str) for x in t["words"])):
            p.append(f"{w}.words: expected a list of words, got {t['words']!r}")
        p.extend(_check_simulated(t.get("simulated"), w))

    tps = data.get("turning_points", [])
    if not _list(tps) or not all(is_whole(x) and 0 <= x < n for x in tps):
        p.append(f"turning_points: expected a list of turn indexes 0..{n - 1}, got {tps!r}")
    dec = data.get("decisive")
    if dec is not None and not (is_whole(dec) and 0 <= dec < n):
        p.append(f"decisive: expected a turn index 0..{n - 1} or None, got {dec!r}")
    stats = data.get("stats", [])
    if not _list(stats):
        p.append(f"stats: expected a list of {{'label', 'values'}} rows, got {stats!r}")
        stats = []
    for k, row in enumerate(stats):
        if not (isinstance(row, dict) and isinstance(row.get("label"), str) and _list(row.get("values"))
                and len(row["values"]) == players
                and all(v is None or isinstance(v, str) or is_number(v) for v in row["values"])):
            p.append(f"stats[{k}]: expected {{'label': text, 'values': {players} numbers, texts or None}}, "
                     f"got {row!r}")
    return p


def _check_simulated(sim: Any, w: str) -> list[str]:
    if sim is None:
        return []
    if not isinstance(sim, dict) or not is_whole(sim.get("plies")) or not _list(sim.get("candidates")):
        return [f"{w}.simulated: expected {{'plies': a whole number, 'candidates': a list}}, got {sim!r:.80}"]
    p = []
    for k, c in enumerate(sim["candidates"]):
        if not (_list(c) and len(c) == 5 and isinstance(c[0], str) and (c[1] is None or is_number(c[1]))
                and (c[2] is None or is_number(c[2])) and _is_chance(c[3]) and is_whole(c[4]) and c[4] >= 0):
            p.append(f"{w}.simulated.candidates[{k}]: expected [notation, equity or None, standard error or None, "
                     f"win chance 0..1 or None, iterations], got {c!r}")
    return p


# -- pieces of the page ----------------------------------------------------------------------------
def _e(text: Any) -> str:
    return escape(str(text), quote=True)


def _inline(picture: str) -> str:
    """An SVG made by this package, for inline use in HTML (the HTML parser supplies the namespace)."""
    attr = f' xmlns="{SVG_NAMESPACE}"'
    assert picture.startswith("<svg" + attr), "not an SVG of wordsalvo.render"
    return "<svg" + picture[len("<svg" + attr):]


def _fmt(v: Any) -> str:
    if v is None:
        return "\u2013"
    if isinstance(v, float):
        return f"{v:.1f}".replace("-", "\u2212")
    if is_whole(v):
        return str(v).replace("-", "\u2212")
    return str(v)


def _pct(v: float | None) -> str:
    return "\u2013" if v is None else f"{v * 100:.0f}%"


def _signed(v: float) -> str:
    s = _fmt(v)
    return s if s.startswith("\u2212") else "+" + s


def _action(t: dict) -> str:
    """A turn as the strip shows it: ``8D RETAINS``, ``swap AEI``, ``pass``."""
    kind, notation = t["kind"], t["notation"]
    label = KIND_LABELS.get(kind, kind)
    if kind in ("play", "zero-score-play"):
        return notation or "play"
    return f"{label} {notation}".strip()


def _badge(b: str, compact: bool = False) -> str:
    glyph, label, why = BADGES.get(b, ("\u2022", b.replace("-", " ").capitalize(), b))
    cls = f"badge b-{_e(b)}"
    if compact:
        return f'<span class="{cls}" title="{_e(label)}">{_e(glyph)}</span>'
    return f'<span class="{cls}" title="{_e(label)}: {_e(why)}"><b aria-hidden="true">{_e(glyph)}</b> {_e(label)}</span>'


def _rack(rack: str, rules: "Rules") -> str:
    if not rack:
        return '<span class="muted">\u2013</span>'
    tiles = []
    for ch in rack:
        if ch == "?":
            tiles.append('<span class="rtile blank" title="blank">&#160;</span>')
        else:
            tiles.append(f'<span class="rtile">{_e(ch)}<sub>{rules.value(ch)}</sub></span>')
    return "".join(tiles)


def _win_row(t: dict, name: str) -> str:
    before, after, best = t["win_before"], t["win_after"], t.get("win_best")
    if after is not None and best is not None:
        # what the player can act on: the move played beside the best move (its cost, if any)
        d = round((after - best) * 100)
        cls = "down" if d < 0 else "same"
        delta = f' <span class="delta {cls}">({d} pts)</span>'.replace("-", "\u2212") if d < 0 else ""
        bar = (f'<div class="meter" role="img" aria-label="{_e(name)}: {_pct(after)} chance to win">'
               f'<div class="fill p{t["player"] % 4}" style="width:{after * 100:.1f}%"></div>'
               f'<div class="tick" style="left:{best * 100:.1f}%" title="after the best move"></div></div>')
        return (f'<div class="win"><span class="label">Win chance of {_e(name)}</span> '
                f'<strong>{_pct(after)}</strong> after this move \u00b7 {_pct(best)} after the best move'
                f'{delta}{bar}</div>')
    if before is None and after is None:
        return ""
    delta = ""
    if before is not None and after is not None:
        d = round((after - before) * 100)
        cls = "up" if d > 0 else "down" if d < 0 else "same"
        delta = f' <span class="delta {cls}">({"+" if d > 0 else ""}{d} pts)</span>'.replace("-", "\u2212")
    bar = ""
    if after is not None:
        bar = (f'<div class="meter" role="img" aria-label="{_e(name)}: {_pct(after)} chance to win">'
               f'<div class="fill p{t["player"] % 4}" style="width:{after * 100:.1f}%"></div>'
               + (f'<div class="tick" style="left:{before * 100:.1f}%" title="before the turn"></div>'
                  if before is not None else "") + '</div>')
    return (f'<div class="win"><span class="label">Win chance of {_e(name)}</span> '
            f'{_pct(before)} \u2192 <strong>{_pct(after)}</strong>{delta}{bar}</div>')


def _alternatives(t: dict) -> str:
    alts = t["alternatives"]
    if not alts:
        return ""
    rows = []
    for k, (notation, score, equity, chance) in enumerate(alts):
        played = t["kind"] in ("play", "zero-score-play") and notation == t["notation"]
        rows.append(f'<tr class="{"played" if played else ""}"><td>{k + 1}</td><td class="mono">{_e(notation)}'
                    f'{" <small>(played)</small>" if played else ""}</td><td>{_fmt(score)}</td>'
                    f'<td>{_fmt(equity)}</td><td>{_pct(chance)}</td></tr>')
    return ('<table class="alternatives"><caption>Engine\u2019s top moves</caption><thead><tr><th>#</th>'
            '<th>move</th><th>score</th><th>equity</th><th>win</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _simulated(t: dict) -> str:
    sim = t.get("simulated")
    if not sim or not sim["candidates"]:
        return ""
    played_kind = t["kind"] in ("play", "zero-score-play")
    rows = []
    for k, (notation, equity, stderr, chance, iterations) in enumerate(sim["candidates"]):
        played = (played_kind and notation == t["notation"]) or (t["kind"] == "pass" and notation == "pass")
        se = "" if stderr is None else f" \u00b1 {_fmt(stderr)}"
        rows.append(f'<tr class="{"played" if played else ""}"><td>{k + 1}</td><td class="mono">{_e(notation)}'
                    f'{" <small>(played)</small>" if played else ""}</td><td>{_fmt(equity)}{se}</td>'
                    f'<td>{_pct(chance)}</td><td>{_fmt(iterations)}</td></tr>')
    return (f'<table class="alternatives simulated"><caption>Simulated {_fmt(sim["plies"])} turns ahead</caption>'
            '<thead><tr><th>#</th><th>move</th><th>equity</th><th>win</th><th>iterations</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _panel(t: dict, names: Sequence[str], rules: "Rules", hidden: bool) -> str:
    i, pl = t["index"], t["player"]
    name = names[pl]
    badges = "".join(_badge(b) for b in t["badges"])
    totals = " \u00b7 ".join(f'<span class="p{k % 4}">{_e(n)}</span> {_fmt(v)}' for k, (n, v)
                             in enumerate(zip(names, t["totals"])))
    lost = "" if t["equity_lost"] is None else (
        f'<p class="equity">Equity lost against the best move: <strong>{_fmt(float(t["equity_lost"]))}</strong></p>')
    words = t.get("words") or []
    words_html = (f'<p class="words">Words: <span class="mono">{_e(", ".join(words))}</span></p>' if words else "")
    note = f'<p class="note">{_e(t["note"])}</p>' if t["note"] else ""
    kind = "" if t["kind"] in ("play", "zero-score-play") else f'<span class="kind">{_e(t["kind"])}</span>'
    return (f'<article class="turn" id="panel-{i + 1}" data-turn="{i}" aria-label="Turn {i + 1}"'
            f'{" hidden" if hidden else ""}>'
            f'<header><span class="turn-no">Turn {i + 1}</span> <span class="who p{pl % 4}">{_e(name)}</span>'
            f'{kind}<span class="badges">{badges}</span></header>'
            f'<div class="move"><span class="notation mono">{_e(_action(t))}</span>'
            f'<span class="score">{_signed(t["score"])}</span></div>'
            f'<div class="row"><span class="label">Rack</span> <span class="rack">{_rack(t["rack"], rules)}</span></div>'
            f'<div class="row"><span class="label">Score</span> {totals}</div>'
            f'{_win_row(t, name)}{lost}{note}{_alternatives(t)}{_simulated(t)}{words_html}</article>')


def _chip(t: dict, names: Sequence[str], current: bool) -> str:
    i, pl = t["index"], t["player"]
    cls = " ".join(["chip", f"p{pl % 4}"] + [f"b-{_e(b)}" for b in t["badges"]] + (["current"] if current else []))
    marks = "".join(_badge(b, compact=True) for b in t["badges"])
    label = f"Turn {i + 1}, {names[pl]}: {_action(t)}, {_signed(t['score'])} points"
    if t["badges"]:
        label += " (" + ", ".join(BADGES.get(b, ("", b, ""))[1] for b in t["badges"]) + ")"
    aria_current = ' aria-current="step"' if current else ""
    return (f'<li><button type="button" class="{cls}" data-turn="{i}" aria-label="{_e(label)}"{aria_current}>'
            f'<span class="no">{i + 1}</span><span class="act mono">{_e(_action(t))}</span>'
            f'<span class="pts">{_signed(t["score"])}</span>{marks}</button></li>')


def _moments(data: dict, names: Sequence[str], rules: "Rules", codes: list[bytes]) -> str:
    turns = data["turns"]
    kinds: dict[int, list[str]] = {}
    for i in data.get("turning_points", []):
        kinds.setdefault(i, ["turning-point"])
    if data.get("decisive") is not None:
        kinds.setdefault(data["decisive"], []).insert(0, "decisive")
    if not kinds:
        return ""
    figures = []
    for i in sorted(kinds):
        t = turns[i]
        labels = [BADGES[k][1] for k in kinds[i]]
        caption = f"Turn {i + 1}, {names[t['player']]}: {_action(t)} {_signed(t['score'])}"
        pic = svg_board.mini_board(rules, codes[i], highlight=[(r, c) for r, c, _l, _b in t["tiles"]],
                                   size=MINI_SIZE, title=f"{' and '.join(labels)}: the board after turn {i + 1}")
        win = ""
        if t["win_before"] is not None and t["win_after"] is not None:
            win = f" \u00b7 win {_pct(t['win_before'])} \u2192 {_pct(t['win_after'])}"
        badges = " ".join(_badge(k) for k in kinds[i])
        figures.append(
            f'<figure class="moment {" ".join(kinds[i])}"><button type="button" data-turn="{i}" '
            f'aria-label="Go to turn {i + 1} ({_e(" and ".join(labels))})">{_inline(pic)}</button>'
            f'<figcaption>{badges}<br>{_e(caption)}{_e(win)}</figcaption></figure>')
    return ('<section class="moments" aria-labelledby="moments-h"><h2 id="moments-h">Where the game turned</h2>'
            '<div class="moment-list">' + "".join(figures) + "</div></section>")


def _stats(data: dict, names: Sequence[str]) -> str:
    rows = data.get("stats") or []
    if not rows:
        return ""
    head = "".join(f'<th scope="col" class="p{k % 4}">{_e(n)}</th>' for k, n in enumerate(names))
    body = "".join(f'<tr><th scope="row">{_e(r["label"])}</th>'
                   + "".join(f"<td>{_e(_fmt(v))}</td>" for v in r["values"]) + "</tr>" for r in rows)
    return ('<section class="stats" aria-labelledby="stats-h"><h2 id="stats-h">Statistics</h2>'
            f'<table><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table></section>')


def _chances(data: dict, players: int) -> tuple[list[list[float | None]], list[float | None] | None]:
    """Per-turn chances of every player from the mover's before/after values (the others are the
    complement when there are two players)."""
    def row(mover: int, v: float | None) -> list[float | None]:
        out: list[float | None] = [None] * players
        if v is not None:
            out[mover] = v
            if players == 2:
                out[1 - mover] = 1 - v
        return out

    turns = data["turns"]
    series = [row(t["player"], t["win_after"]) for t in turns]
    start = row(turns[0]["player"], turns[0]["win_before"]) if turns else None
    return series, start


def _chart_marks(data: dict) -> list[tuple[int, str]]:
    marks = [(i, "turning-point") for i in data.get("turning_points", [])]
    if data.get("decisive") is not None:
        marks.append((data["decisive"], "decisive"))
    return marks


def _chart_labels(data: dict, names: Sequence[str]) -> list[str]:
    return [f"{names[t['player']]}: {_action(t)} {_signed(t['score'])}" for t in data["turns"]]


def _race_figure(data: dict, names: Sequence[str], current: int) -> str:
    turns = data["turns"]
    if not turns:
        return ""
    race = charts.score_race([t["totals"] for t in turns], names, marks=_chart_marks(data),
                             labels=_chart_labels(data, names), cursor=current,
                             title="Score race: every player's total after each turn")
    return (f'<figure class="chart race">{_inline(race)}<figcaption>Score race. \u25c6 turning point, '
            '\u25bc decisive moment; a click on a point goes to that turn.</figcaption></figure>')


def _win_figure(data: dict, names: Sequence[str], current: int) -> str:
    series, start = _chances(data, len(names))
    if not any(v is not None for r in series for v in r):
        return ""
    win = charts.win_chances(series, names, start=start, marks=_chart_marks(data),
                             labels=_chart_labels(data, names), cursor=current,
                             title="Win probability of each player after each turn")
    return (f'<figure class="chart win-chart">{_inline(win)}<figcaption>Win probability after each turn. '
            '\u25c6 turning point, \u25bc decisive moment; a click on a point goes to that turn.'
            '</figcaption></figure>')


def _layers(rules: "Rules", turns: list[dict], codes: list[bytes], names: Sequence[str], current: int) -> str:
    """One transparent tile layer per turn over the board drawn once.

    A turn that only adds tiles gets a layer of its new tiles (class ``layer``); a turn that
    removes or changes a tile (a withdrawn phony) gets a layer of the whole board (``layer
    full``).  Turn ``i`` shows the layers from the last full one up to ``i``; the page's CSS
    drops the highlight of every layer but the current one.
    """
    out = []
    prev = bytes(len(codes[0])) if codes else b""
    start = 0
    for i, t in enumerate(turns):
        now = codes[i]
        additive = all(a == 0 or a == b for a, b in zip(prev, now))
        layer = bytes(b if b != a else 0 for a, b in zip(prev, now)) if additive else now
        if not additive and i <= current:
            start = i
        prev = now
        pic = svg_board.board(rules, layer, size=BOARD_SIZE, coordinates=True, squares=False,
                              highlight=[(r, c) for r, c, _l, _b in t["tiles"]],
                              title=f"Tiles of turn {i + 1}: {names[t['player']]} {_action(t)}")
        out.append((i, additive, pic))
    html_parts = []
    for i, additive, pic in out:
        cls = "layer" + ("" if additive else " full") + (" current" if i == current else "")
        hidden = "" if start <= i <= current else ' style="display:none"'
        html_parts.append(f'<div class="{cls}" data-layer="{i}" aria-hidden="true"{hidden}>{_inline(pic)}</div>')
    return "".join(html_parts)


def _header(data: dict, names: Sequence[str]) -> str:
    game = data["game"]
    winners = list(game["winners"])
    scores = game["final_scores"]
    if len(names) == 2:
        head = (f'<span class="p0">{_e(names[0])}</span> <span class="final">{_fmt(scores[0])} \u2013 '
                f'{_fmt(scores[1])}</span> <span class="p1">{_e(names[1])}</span>')
    else:
        head = " \u00b7 ".join(f'<span class="p{k % 4}">{_e(n)}</span> {_fmt(s)}'
                                for k, (n, s) in enumerate(zip(names, scores)))
    if len(winners) == 1:
        result = f"{names[winners[0]]} {verb(names[winners[0]], 'win')}"
    elif winners:
        result = "tie between " + " and ".join(names[w] for w in winners)
    else:
        result = "no winner"
    meta = [game["rules"], f"lexicon {game['lexicon']}" if game.get("lexicon") else "",
            f"{len(data['turns'])} turns", f"ended: {game['end_reason']}" if game.get("end_reason") else "", result]
    title = f'<p class="title">{_e(game["title"])}</p>' if game.get("title") else ""
    note = f'<p class="meta win-note">{_e(game["win_note"])}</p>' if game.get("win_note") else ""
    if game.get("endgame_note"):
        note += f'<p class="meta endgame-note">{_e(game["endgame_note"])}</p>'
    return (f'<header class="summary">{title}<h1>{head}</h1><p class="meta">'
            + " \u00b7 ".join(_e(m) for m in meta if m) + f"</p>{note}</header>")


_CSS = """
:root{--p0:#1f6fb4;--p1:#e06c1f;--p2:#2a9d55;--p3:#8a4fbf;--ink:#1f2328;--muted:#667;--line:#d8dbe0;--bg:#f6f5f1}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
.page{max-width:1380px;margin:0 auto;padding:14px 20px 28px}
.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
.muted{color:var(--muted)}
.p0{color:var(--p0)}.p1{color:var(--p1)}.p2{color:var(--p2)}.p3{color:var(--p3)}
header.summary h1{margin:0;font-size:26px;font-weight:700}
header.summary .final{color:var(--ink);margin:0 .25em}
header.summary .meta,header.summary .title{margin:2px 0 0;color:var(--muted)}
nav.history{margin:12px 0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:6px}
nav.history ol{list-style:none;margin:0;padding:2px;display:flex;gap:6px;overflow-x:auto;}
.chip{display:flex;align-items:baseline;gap:6px;white-space:nowrap;border:1px solid var(--line);border-left:4px solid currentColor;
 background:#fff;border-radius:6px;padding:4px 8px;font:inherit;font-size:13px;cursor:pointer;color:inherit}
.chip.p0{border-left-color:var(--p0)}.chip.p1{border-left-color:var(--p1)}.chip.p2{border-left-color:var(--p2)}.chip.p3{border-left-color:var(--p3)}
.chip .no{color:var(--muted);font-size:11px}.chip .pts{font-weight:600}
.chip:hover{background:#eef3f8}
.chip.current{background:#1f2328;color:#fff;border-color:#1f2328}
.chip.current .no{color:#c9ced6}
.chip:focus-visible,button:focus-visible{outline:3px solid #f2b632;outline-offset:1px}
main.game{display:grid;grid-template-columns:minmax(0,600px) minmax(340px,1fr);gap:20px;align-items:start}
.board-stack{display:grid;background:#4a5a52;border-radius:8px;overflow:hidden;box-shadow:0 1px 4px rgba(0,0,0,.2)}
.board-stack>div{grid-area:1/1}.board-stack svg{width:100%;height:auto;display:block}
.controls{display:flex;align-items:center;justify-content:center;gap:8px;margin-top:10px}
.controls button{font:inherit;font-size:18px;min-width:46px;padding:4px 10px;border:1px solid var(--line);background:#fff;border-radius:6px;cursor:pointer}
.controls button:disabled{opacity:.4;cursor:default}
.controls .position{min-width:130px;text-align:center;font-weight:600}
.hint{text-align:center;color:var(--muted);font-size:12px;margin:4px 0 0}
kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 4px;background:#fff;font-size:11px}
article.turn{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px;min-height:440px}
article.turn header{display:flex;flex-wrap:wrap;align-items:center;gap:8px;font-size:14px}
.turn-no{color:var(--muted)}.who{font-weight:700}
.kind{background:#eceef1;border-radius:4px;padding:0 6px;font-size:12px}
.badges{display:flex;gap:6px;flex-wrap:wrap}
.badge{border-radius:12px;padding:1px 9px;font-size:12px;font-weight:600;background:#eceef1;color:#333;white-space:nowrap}
.badge b{font-weight:800}
.b-brilliancy{background:#d8f3dc;color:#1b5e20}.b-missed{background:#fde2e1;color:#a4161a}
.b-turning-point{background:#eadcf5;color:#5a2a82}.b-decisive{background:#fbd9cf;color:#9a2617}
.b-phony{background:#fff3bf;color:#7a5d00}.b-bingo{background:#dcecfb;color:#0b4f8a}
.chip .badge{padding:0 5px;font-size:11px}
.move{display:flex;align-items:baseline;gap:14px;margin:6px 0 8px}
.move .notation{font-size:28px;font-weight:700}
.move .score{font-size:22px;font-weight:700;color:#2a7a3b}
.row{margin:4px 0}.label{display:inline-block;min-width:52px;color:var(--muted);font-size:13px}
.rtile{display:inline-block;position:relative;width:28px;height:28px;margin-right:3px;border-radius:4px;background:#f6d488;
 border:1px solid #b98b3e;text-align:center;font-weight:700;line-height:28px;vertical-align:middle}
.rtile sub{position:absolute;right:2px;bottom:-6px;font-size:9px;font-weight:400}
.rtile.blank{background:#fbf1d6}
.win{margin:8px 0}.win .label{min-width:0;margin-right:6px}
.delta.up{color:#2a7a3b}.delta.down{color:#b3261e}.delta.same{color:var(--muted)}
.meter{position:relative;height:10px;background:#eceef1;border-radius:5px;margin-top:4px;overflow:hidden}
.meter .fill{height:100%;background:var(--p0)}.meter .fill.p1{background:var(--p1)}.meter .fill.p2{background:var(--p2)}.meter .fill.p3{background:var(--p3)}
.meter .tick{position:absolute;top:0;width:2px;height:100%;background:#1f2328}
.equity{margin:6px 0}
.note{margin:10px 0;padding:10px 12px;background:#f3f6fa;border-left:4px solid #1f6fb4;border-radius:4px;font-size:15px}
table{border-collapse:collapse}
table.alternatives{width:100%;margin-top:6px;font-size:13px}
table.alternatives caption{text-align:left;color:var(--muted);font-size:12px;padding-bottom:2px}
table.alternatives th,table.alternatives td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:right}
table.alternatives th:nth-child(2),table.alternatives td:nth-child(2){text-align:left}
tr.played{background:#eef7ee}
.words{font-size:13px;color:var(--muted)}
.lower{display:grid;grid-template-columns:minmax(0,1.35fr) minmax(300px,1fr);gap:20px;margin-top:20px;align-items:start}
figure.win-chart{margin-top:14px}
figure{margin:0}
figure.chart{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px}
figure.chart svg{width:100%;height:auto;display:block}
figure.chart circle.point{cursor:pointer}
figcaption{font-size:12px;color:var(--muted);margin-top:4px}
section.moments{margin-top:20px}
h2{font-size:18px;margin:0 0 8px}
.moment-list{display:flex;flex-wrap:wrap;gap:14px}
figure.moment{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px;width:200px}
figure.moment button{border:0;padding:0;background:none;cursor:pointer;display:block}
figure.moment figcaption{font-size:12px;color:var(--ink)}
section.stats table{width:100%;background:#fff;border:1px solid var(--line);border-radius:8px}
section.stats th,section.stats td{padding:5px 14px;border-bottom:1px solid var(--line);text-align:right}
section.stats th[scope=row]{text-align:left;font-weight:500;color:var(--muted)}
footer{margin-top:24px;color:var(--muted);font-size:12px}
@media (max-width:1000px){main.game,.lower{grid-template-columns:1fr}}
"""

_CSS += (
    f".board-stack .layer:not(.current) g.tile.highlight>rect{{fill:{svg_board.DEFAULT_STYLE.tile};"
    f"stroke:{svg_board.DEFAULT_STYLE.tile_edge};stroke-width:1}}\n"
    f".board-stack .layer:not(.current) g.tile.blank.highlight>rect{{fill:{svg_board.DEFAULT_STYLE.blank_tile}}}\n"
    ".board-stack .layer:not(.current) .highlights{display:none}\n"
)

_JS = """
(function () {
  "use strict";
  var panels = document.querySelectorAll("article.turn");
  var layers = document.querySelectorAll(".board-stack .layer");
  var chips = document.querySelectorAll("nav.history button[data-turn]");
  var cursors = document.querySelectorAll("svg.ws-chart line.cursor");
  var strip = document.querySelector("nav.history ol");
  var position = document.getElementById("position");
  var buttons = {};
  document.querySelectorAll(".controls button[data-go]").forEach(function (b) { buttons[b.dataset.go] = b; });
  var n = panels.length, current = -1;
  function show(i, focusChip, remember) {
    if (!n) { return; }
    i = Math.max(0, Math.min(n - 1, i));
    var start = 0;
    for (var f = i; f > 0; f--) { if (layers[f].classList.contains("full")) { start = f; break; } }
    for (var k = 0; k < n; k++) {
      var on = k === i;
      panels[k].hidden = !on;
      layers[k].style.display = (k >= start && k <= i) ? "" : "none";
      layers[k].classList.toggle("current", on);
      chips[k].classList.toggle("current", on);
      if (on) { chips[k].setAttribute("aria-current", "step"); } else { chips[k].removeAttribute("aria-current"); }
    }
    var chip = chips[i];
    strip.scrollLeft = chip.offsetLeft - strip.offsetLeft - strip.clientWidth / 2 + chip.offsetWidth / 2;
    if (focusChip) { chip.focus({preventScroll: true}); }
    cursors.forEach(function (c) {
      var s = c.ownerSVGElement, x = parseFloat(s.dataset.x0) + parseFloat(s.dataset.dx) * (i + 1);
      c.setAttribute("x1", x.toFixed(1)); c.setAttribute("x2", x.toFixed(1));
      c.setAttribute("stroke-opacity", "0.45"); c.dataset.turn = String(i);
    });
    position.textContent = "Turn " + (i + 1) + " of " + n;
    buttons.first.disabled = buttons.prev.disabled = i === 0;
    buttons.last.disabled = buttons.next.disabled = i === n - 1;
    current = i;
    if (remember) {
      try { history.replaceState(null, "", "#turn-" + (i + 1)); } catch (e) { /* file: URLs in some browsers */ }
    }
  }
  var go = {first: function () { return 0; }, prev: function () { return current - 1; },
            next: function () { return current + 1; }, last: function () { return n - 1; }};
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest ? ev.target.closest("[data-go], button[data-turn], svg.ws-chart [data-turn]") : null;
    if (!el || el.classList.contains("cursor")) { return; }
    if (el.dataset.go) { show(go[el.dataset.go](), false, true); } else { show(parseInt(el.dataset.turn, 10), false, true); }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
    if (!keys[ev.key]) { return; }
    ev.preventDefault();
    show(go[keys[ev.key]](), document.activeElement && document.activeElement.classList.contains("chip"), true);
  });
  var m = /^#turn-(\\d+)$/.exec(location.hash);
  show(m ? parseInt(m[1], 10) - 1 : n - 1, false, false);
})();
"""
#: the page's one inline script (a server lists its hash in a Content-Security-Policy)
SCRIPT = _JS



def _resolve_rules(data: dict, rules: "Rules | None") -> "Rules":
    if rules is not None:
        return rules
    from ..rules import preset_names

    game = data["game"]
    seed = game.get("board_seed")
    if seed is not None and not is_whole(seed):
        raise RenderError(f"game.board_seed: expected a whole number or None, got {seed!r}")
    if game["rules"] not in preset_names():
        raise RenderError(f"game.rules: {game['rules']!r} is not a built-in rule set ({', '.join(preset_names())}); "
                          "expected html(data, rules=Rules.load(...))")
    stars = game.get("stars")
    if stars is not None and not isinstance(stars, str):
        raise RenderError(f"game.stars: expected star squares as text ('3,5 11,9') or None, got {stars!r}")
    from ..formats.opcodes import resolve_rules  # the one place that turns a name, seed and stars into rules

    return resolve_rules(game["rules"], board_seed=seed, stars=stars, error=RenderError, where="game")


def html(data: dict, rules: "Rules | None" = None) -> str:
    """The report page of ``data`` (the dict of this module's docstring) as HTML text.

    ``rules`` draws the boards (premiums, tile values); None reads
    the rule set ``game.rules`` with ``game.board_seed`` and ``game.stars``.  Raises
    :class:`RenderError` listing every problem of ``data``.
    """
    if rules is None and isinstance(data, dict) and isinstance(data.get("game"), dict) \
            and isinstance(data["game"].get("rules"), str):
        rules = _resolve_rules(data, None)
    problems = check(data, rules)
    if problems:
        raise RenderError("cannot make the report: " + "; ".join(problems))
    assert rules is not None  # check() reports a missing game.rules
    names = list(data["game"]["players"])
    turns = data["turns"]
    codes = [svg_board.parse_tiles(t["board"], rules)[0] for t in turns]
    current = len(turns) - 1

    base = svg_board.board(rules, None, size=BOARD_SIZE, title=f"{rules.name} board")
    layers = _layers(rules, turns, codes, names, current)
    panels = "".join(_panel(t, names, rules, hidden=i != current) for i, t in enumerate(turns))
    if not turns:
        panels = '<article class="turn"><p class="muted">No turns were played.</p></article>'
    strip = "".join(_chip(t, names, i == current) for i, t in enumerate(turns))
    page_title = data["game"].get("title") or f"{' vs '.join(names)} \u00b7 {data['game']['rules']}"
    controls = (
        '<div class="controls">'
        '<button type="button" data-go="first" aria-label="First turn (Home)" title="First turn (Home)">\u21e4</button>'
        '<button type="button" data-go="prev" aria-label="Previous turn (left arrow)" title="Previous turn (\u2190)">'
        '\u25c0</button>'
        f'<span class="position" id="position" aria-live="polite">Turn {current + 1} of {len(turns)}</span>'
        '<button type="button" data-go="next" aria-label="Next turn (right arrow)" title="Next turn (\u2192)">'
        '\u25b6</button>'
        '<button type="button" data-go="last" aria-label="Last turn (End)" title="Last turn (End)">\u21e5</button>'
        '</div><p class="hint"><kbd>\u2190</kbd> <kbd>\u2192</kbd> step \u00b7 <kbd>Home</kbd> <kbd>End</kbd> '
        'first / last \u00b7 click a move, a chart point or a small board</p>')
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{_e(page_title)} \u2013 game report</title>\n<style>{_CSS}</style>\n</head>\n<body>\n'
        '<div class="page">\n'
        + _header(data, names)
        + '\n<nav class="history" aria-label="Move history"><ol>' + strip + '</ol></nav>\n'
        + '<main class="game"><section class="board-col" aria-label="Board">'
        + f'<div class="board-stack"><div class="base">{_inline(base)}</div>{layers}</div>{controls}</section>'
        + f'<section class="turn-col" aria-label="The turn on the board">{panels}'
        + _win_figure(data, names, current) + '</section></main>\n'
        + '<div class="lower">' + _race_figure(data, names, current) + _stats(data, names) + '</div>\n'
        + _moments(data, names, rules, codes) + "\n"
        + '<footer>Game report made by wordsalvo. One file: it needs no network and no other file.</footer>\n'
        + f'</div>\n<script>{_JS}</script>\n</body>\n</html>\n'
    )


def write(data: dict, path: str | os.PathLike, rules: "Rules | None" = None) -> Path:
    """Write :func:`html` of ``data`` to ``path`` atomically (temporary file in the same folder, then
    rename); on an error nothing is written.  Returns the path."""
    text = html(data, rules)
    dest = Path(path)
    write_atomic(dest, text.encode("utf-8"))
    return dest

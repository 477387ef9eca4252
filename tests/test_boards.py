"""Boards: the fixed boards, random boards, star squares, and ``wordsalvo board``.

The oracle for every board is the plain CLI output, checked here with its own
small checker (not the package's): counts, symmetry about both diagonals, no
two premiums sharing an edge, the centre.  The standard layouts are copied
from RULES.md as literal text (a fresh clone has no shared folder).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsalvo import boards
from wordsalvo.commands import board as board_command
from wordsalvo.errors import RulesError, WordSalvoError
from wordsalvo.rules import Rules

from rules_layouts import CLASSIC, TURKISH, WORDFEUD

#: premium counts without the centre, centre symbol
WORDSALVO_SPEC = ({"W": 8, "w": 16, "T": 12, "D": 24}, "*")
WORDFEUD_SPEC = ({"W": 8, "w": 12, "T": 20, "D": 24}, "*")
PREMIUM = set("WwTD")


def grid(text: str) -> list[list[str]]:
    return [line.split(" ") for line in text.strip("\n").split("\n")]


def plain(rules_name: str, *extra: str) -> str:
    """stdout of ``wordsalvo board --rules NAME --plain [extra]`` through the command's own parser."""
    parser = argparse.ArgumentParser(prog="wordsalvo")
    board_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["board", "--rules", rules_name, "--plain", *extra])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert args.func(args) == 0
    return out.getvalue()


def board_violations(text: str, counts: dict[str, int], centre: str, stars: int = 0) -> list[str]:
    """Every rule the plain board text breaks (independent of wordsalvo.boards)."""
    v: list[str] = []
    assert text.endswith("\n") and not text.endswith("\n\n"), repr(text[-3:])
    lines = text[:-1].split("\n")
    if len(lines) != 15:
        return [f"{len(lines)} lines"]
    g = []
    for i, line in enumerate(lines):
        cells = line.split(" ")
        if len(cells) != 15 or any(len(c) != 1 for c in cells):
            v.append(f"line {i}: not 15 single symbols separated by one space: {line!r}")
        g.append(cells)
    if v:
        return v
    symbols = Counter(s for row in g for s in row)
    if not set(symbols) <= set("WwTD*S."):
        v.append(f"unknown symbols {set(symbols) - set('WwTD*S.')}")
    if g[7][7] != centre:
        v.append(f"centre {g[7][7]!r}, expected {centre!r}")
    got = {s: symbols[s] - (1 if s == g[7][7] else 0) for s in "WwTD"}
    if got != counts:
        v.append(f"counts {got}, expected {counts}")
    if symbols["*"] != (centre == "*") or symbols["S"] != stars:
        v.append(f"{symbols['*']} centre stars, {symbols['S']} star squares")
    # stars sit on plain squares, so for symmetry and spacing read S as plain
    h = [["." if s == "S" else s for s in row] for row in g]
    for r in range(15):
        for c in range(15):
            if h[r][c] != h[c][r]:
                v.append(f"not symmetric about the main diagonal at {r},{c}")
            if h[r][c] != h[14 - c][14 - r]:
                v.append(f"not symmetric about the other diagonal at {r},{c}")
            if h[r][c] in PREMIUM:
                if c < 14 and h[r][c + 1] in PREMIUM:
                    v.append(f"premiums share an edge at {r},{c} and {r},{c + 1}")
                if r < 14 and h[r + 1][c] in PREMIUM:
                    v.append(f"premiums share an edge at {r},{c} and {r + 1},{c}")
    return v


# -- fixed boards ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["wordsalvo-en", "wordsalvo-nl"])
def test_wordsalvo_fixed_board_keeps_every_rule(name):
    counts, centre = WORDSALVO_SPEC
    assert board_violations(plain(name), counts, centre) == []


def test_wordsalvo_boards_are_one_board_and_not_the_classic_one():
    en, nl = plain("wordsalvo-en"), plain("wordsalvo-nl")
    assert en == nl
    assert grid(en) != grid(CLASSIC)
    assert grid(en) != grid(WORDFEUD)
    # the centre pays nothing
    rules = Rules.preset("wordsalvo-en")
    assert rules.word_multipliers[7 * 15 + 7] == 1 and rules.letter_multipliers[7 * 15 + 7] == 1


@pytest.mark.parametrize("name, layout", [
    ("wordfeud-de", WORDFEUD), ("turkish", TURKISH), ("woodword-de", CLASSIC), ("classic-en", CLASSIC),
])
def test_standard_layouts_equal_rules_md(name, layout):
    expected = grid(layout)
    got = grid(plain(name))
    if name == "turkish":  # one star square on a plain square
        stars = [(r, c) for r in range(15) for c in range(15) if got[r][c] == "S"]
        assert len(stars) == 1 and expected[stars[0][0]][stars[0][1]] == "."
        got[stars[0][0]][stars[0][1]] = "."
    assert got == expected


def test_rules_md_layout_counts():
    # the counts the random boards keep, verified on the RULES.md diagrams
    c = Counter(s for row in grid(WORDFEUD) for s in row)
    assert (c["W"], c["w"], c["T"], c["D"], c["*"]) == (8, 12, 20, 24, 1)
    c = Counter(s for row in grid(CLASSIC) for s in row)
    assert (c["W"], c["w"], c["T"], c["D"]) == (8, 17, 12, 24)
    c = Counter(s for row in grid(TURKISH) for s in row)
    assert (c["W"], c["w"], c["T"], c["D"]) == (8, 9, 8, 24)


def test_wordfeud_standard_board_keeps_the_random_board_rules():
    counts, centre = WORDFEUD_SPEC
    assert board_violations(plain("wordfeud-de"), counts, centre) == []


def test_centre_with_2w_prints_w():
    assert grid(plain("turkish"))[7][7] == "w"
    assert grid(plain("classic-en"))[7][7] == "w"
    assert grid(plain("wordfeud-de"))[7][7] == "*"


# -- random boards -----------------------------------------------------------------------
@pytest.mark.parametrize("name, spec", [
    ("wordsalvo-en", WORDSALVO_SPEC), ("wordsalvo-nl", WORDSALVO_SPEC), ("wordfeud-de", WORDFEUD_SPEC),
])
def test_200_random_boards_keep_every_rule_and_differ(name, spec):
    counts, centre = spec
    seen = set()
    for seed in range(200):
        text = plain(name, "--seed", str(seed))
        assert board_violations(text, counts, centre) == [], f"seed {seed}"
        seen.add(text)
    assert len(seen) >= 195


def test_random_boards_cover_the_board():
    # no fixed subset: over 200 seeds every square off the centre's neighbours
    # carries a premium at least once, and every premium visits both diagonals
    # and the off-diagonal squares
    used: dict[str, set[tuple[int, int]]] = {s: set() for s in "WwTD"}
    for seed in range(200):
        layout = Rules.preset("wordsalvo-en", board_seed=seed).layout
        for r in range(15):
            for c in range(15):
                if layout[r][c] in used:
                    used[layout[r][c]].add((r, c))
    everywhere = set().union(*used.values())
    assert len(everywhere) == 224  # every square but the centre
    for sym, squares in used.items():
        assert any(r == c for r, c in squares), sym
        assert any(r + c == 14 for r, c in squares), sym
        assert len(squares) > 150, (sym, len(squares))


@pytest.mark.parametrize("name", ["wordsalvo-en", "wordfeud-de", "turkish"])
def test_seeds_reproduce(name):
    for seed in (0, 1, 12345, 2**40, -7):
        a = Rules.preset(name, board_seed=seed)
        b = Rules.preset(name, board_seed=seed)
        assert a.layout == b.layout and a.star_squares == b.star_squares
        assert a.board_seed == seed
        assert plain(name, "--seed", str(seed)) == plain(name, "--seed", str(seed))


def test_seeded_board_is_stable_across_releases():
    # saved games store only the seed: the board of a seed must not change.
    # Update these only on purpose, with a note in the changelog.
    text = plain("wordsalvo-en", "--seed", "1")
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == GOLDEN_WORDSALVO_SEED_1
    assert Rules.preset("turkish", board_seed=1).star_squares == GOLDEN_TURKISH_STAR_SEED_1


GOLDEN_WORDSALVO_SEED_1 = "997e715fb977c546"
GOLDEN_TURKISH_STAR_SEED_1 = ((3, 0),)


def test_random_boards_use_no_global_random_state():
    random.seed(1)
    state = random.getstate()
    a = Rules.preset("wordsalvo-en", board_seed=9).layout
    assert random.getstate() == state
    random.seed(2)
    assert Rules.preset("wordsalvo-en", board_seed=9).layout == a


def test_random_board_differs_from_standard():
    standard = Rules.preset("wordfeud-de").layout
    assert all(Rules.preset("wordfeud-de", board_seed=s).layout != standard for s in range(20))


@pytest.mark.parametrize("spec", [WORDSALVO_SPEC, WORDFEUD_SPEC])
def test_construction_that_cannot_fail_keeps_every_rule(spec):
    # max_passes=0 skips random placement and uses the fallback construction
    counts, centre = spec
    seen = set()
    for seed in range(100):
        layout = boards.random_layout(counts, seed, centre, max_passes=0)
        assert board_violations("\n".join(" ".join(r) for r in layout) + "\n", counts, centre) == []
        seen.add(layout)
    assert len(seen) == 100


@st.composite
def count_tables(draw):
    """Premium counts a random board must be able to hold: even, at most 112 in all."""
    counts = {}
    left = 112
    for sym in "WwTD":
        n = 2 * draw(st.integers(0, left // 2))
        counts[sym] = n
        left -= n
    return counts


@settings(max_examples=150, deadline=None)
@given(counts=count_tables(), seed=st.integers(-(2**63), 2**63), centre=st.sampled_from(["*", "w", "."]),
       max_passes=st.sampled_from([0, 1, boards.MAX_PASSES]))
def test_random_layout_never_fails(counts, seed, centre, max_passes):
    layout = boards.random_layout(counts, seed, centre, max_passes=max_passes)
    text = "\n".join(" ".join(r) for r in layout) + "\n"
    assert board_violations(text, counts, centre) == []


def test_random_board_problems_are_reported():
    with pytest.raises(RulesError, match="even"):
        boards.random_layout({"W": 3, "w": 0, "T": 0, "D": 0}, 1)
    with pytest.raises(RulesError, match="at most 112"):
        boards.random_layout({"W": 40, "w": 40, "T": 40, "D": 0}, 1)
    with pytest.raises(RulesError, match="whole number"):
        boards.random_layout({"W": 8}, "seed")  # type: ignore[arg-type]
    classic = grid_text(CLASSIC)
    assert boards.random_board_problems(classic) == []  # 8 / 16 / 12 / 24 around a 2W centre
    classic[1] = classic[1].replace("T", ".", 1)
    assert boards.random_board_problems(classic) == [
        "a random board needs an even number of 'T' squares (orbits hold 2 or 4), got 11"
    ]


def test_board_problems_finds_each_fault():
    good = [r.replace(" ", "") for r in grid_text(WORDFEUD)]
    assert boards.board_problems(good, counts=WORDFEUD_SPEC[0], centre_symbol="*") == []
    bad = [list(r) for r in good]
    bad[0][1] = "D"  # next to the 3L in the corner, and breaks both symmetries
    problems = boards.board_problems(["".join(r) for r in bad], counts=WORDFEUD_SPEC[0])
    assert any("shares an edge" in p for p in problems)
    assert any("main diagonal" in p for p in problems)
    assert any("other diagonal" in p for p in problems)
    assert any("expected 24 x 'D'" in p for p in problems)


def grid_text(text: str) -> list[str]:
    return text.strip("\n").split("\n")


# -- Turkish star squares ----------------------------------------------------------------
def test_turkish_star_without_seed_is_the_documented_default():
    rules = Rules.preset("turkish")
    assert rules.star_squares == ((3, 5),)
    assert rules.square_bonus[3 * 15 + 5] == 25 and sum(rules.square_bonus) == 25
    assert grid(plain("turkish"))[3][5] == "S"


def test_turkish_seeded_star_is_on_a_plain_square_and_spread():
    layout = grid(TURKISH)
    squares = set()
    for seed in range(200):
        rules = Rules.preset("turkish", board_seed=seed)
        assert len(rules.star_squares) == 1
        (r, c), = rules.star_squares
        assert layout[r][c] == "." and (r, c) != (7, 7)
        assert rules.layout == tuple("".join(row) for row in layout)  # premiums never move
        squares.add((r, c))
    assert len(squares) > 100  # 175 plain squares: a fixed subset would show


def test_turkish_fixed_star_list_wins_over_seed(tmp_path):
    text = Rules_text("turkish").replace("star_squares = []", "star_squares = [[0, 0], [14, 14]]")
    path = tmp_path / "t.toml"
    path.write_text(text, "utf-8")
    for seed in (None, 3):
        assert Rules.load(path, board_seed=seed).star_squares == ((0, 0), (14, 14))


def Rules_text(name: str) -> str:
    from importlib import resources

    return resources.files("wordsalvo.rulesets").joinpath(f"{name}.toml").read_text("utf-8")


# -- errors and the command line ---------------------------------------------------------
@pytest.mark.parametrize("name", ["classic-en", "woodword-de"])
def test_seed_for_a_fixed_board_is_an_error(name):
    with pytest.raises(RulesError, match="fixed board"):
        Rules.preset(name, board_seed=1)


def test_non_integer_seed_is_an_error():
    with pytest.raises(RulesError, match="whole number"):
        Rules.preset("wordsalvo-en", board_seed="7")  # type: ignore[arg-type]


def test_cli_colour_only_when_asked_or_on_a_terminal(capsys):
    from wordsalvo.cli import main

    assert main(["board", "--rules", "wordsalvo-en", "--color", "always"]) == 0
    coloured = capsys.readouterr().out
    assert "\x1b[" in coloured and "3W" in coloured
    assert main(["board", "--rules", "wordsalvo-en"]) == 0  # captured stdout is not a terminal
    assert "\x1b[" not in capsys.readouterr().out
    assert main(["board", "--rules", "turkish", "--plain", "--color", "always"]) == 0
    assert "\x1b[" not in capsys.readouterr().out


def test_cli_random_without_seed_prints_the_seed(capsys):
    from wordsalvo.cli import main

    assert main(["board", "--rules", "wordfeud-de", "--random", "--plain"]) == 0
    out, err = capsys.readouterr()
    seed = int(err.split("--seed ")[1].split(")")[0])
    assert out == plain("wordfeud-de", "--seed", str(seed))
    assert board_violations(out, *WORDFEUD_SPEC) == []


def test_cli_errors_are_clear(capsys):
    from wordsalvo.cli import main

    assert main(["board", "--rules", "no-such-game"]) == 2
    err = capsys.readouterr().err
    assert "no-such-game" in err and "wordsalvo-en" in err
    assert main(["board", "--rules", "classic-en", "--seed", "3"]) == 2
    assert "fixed board" in capsys.readouterr().err


def test_cli_reads_a_rules_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(Rules_text("wordfeud-de").replace('name = "wordfeud-de"', 'name = "mine"'), "utf-8")
    assert plain(str(path)) == plain("wordfeud-de")


def test_errors_are_value_errors():
    with pytest.raises(WordSalvoError):
        Rules.preset("classic-en", board_seed=0)
    with pytest.raises(ValueError):
        Rules.preset("classic-en", board_seed=0)

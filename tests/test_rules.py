"""Rule sets: every preset against RULES.md, the game-level keys, and load errors.

RULES.md facts are copied here as literal data (a fresh clone has no shared folder).
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsalvo.errors import RulesError, WordSalvoError
from wordsalvo.rules import Rules, preset_names
from wordsalvo.rules_schema import SECTIONS, parse_section

PRESETS = ["classic-en", "turkish", "woodword-de", "wordfeud-de", "wordsalvo-en", "wordsalvo-nl"]

# -- RULES.md tile tables, copied verbatim (letter count x value) --------------------------
TILES = {
    "wordsalvo-en": "A10x1 B2x4 C2x4 D5x2 E12x1 F2x4 G3x3 H3x4 I9x1 J1x10 K1x5 L4x1 M2x3 N6x1 O7x1 P2x4 "
                    "Q1x10 R6x1 S5x1 T7x1 U4x2 V2x4 W2x4 X1x8 Y2x4 Z1x10 ?2x0",
    "wordsalvo-nl": "A7x1 B2x4 C2x5 D5x2 E18x1 F2x4 G3x3 H2x4 I4x2 J2x4 K3x3 L3x3 M3x3 N11x1 O6x1 P2x4 "
                    "Q1x10 R5x2 S5x2 T5x2 U3x2 V2x4 W2x5 X1x8 Y1x8 Z2x5 ?2x0",
    "wordfeud-de": "A5x1 Ä1x6 B2x3 C2x4 D5x1 E14x1 F2x4 G3x2 H4x2 I6x1 J1x6 K2x4 L3x2 M4x3 N9x1 O3x2 "
                   "Ö1x8 P1x5 Q1x10 R6x1 S7x1 T6x1 U6x1 Ü1x6 V1x6 W1x3 X1x8 Y1x10 Z1x3 ?2x0",
    "turkish": "A12x1 B2x3 C2x4 Ç2x4 D2x3 E8x1 F1x7 G1x5 Ğ1x8 H1x5 I4x2 İ7x1 J1x10 K7x1 L7x1 M4x2 "
               "N5x1 O3x2 Ö1x7 P1x5 R6x1 S3x2 Ş2x4 T5x1 U3x2 Ü2x3 V1x7 Y2x3 Z2x4 ?2x0",
    "woodword-de": "A5x1 Ä1x6 B2x3 C2x4 D4x1 E15x1 F2x4 G3x2 H4x2 I6x1 J1x6 K2x4 L3x2 M4x3 N9x1 O3x2 "
                   "Ö1x8 P1x4 Q1x10 R6x1 S7x1 T6x1 U6x1 Ü1x6 V1x6 W1x3 X1x8 Y1x10 Z1x3 ?2x0",
    "classic-en": "A9x1 B2x3 C2x3 D4x2 E12x1 F2x4 G3x2 H2x4 I9x1 J1x8 K1x5 L4x1 M2x3 N6x1 O8x1 P2x3 "
                  "Q1x10 R6x1 S4x1 T6x1 U4x1 V2x4 W2x4 X1x8 Y2x4 Z1x10 ?2x0",
}
TOTALS = {"wordsalvo-en": 104, "wordsalvo-nl": 104, "wordfeud-de": 102, "turkish": 100,
          "woodword-de": 102, "classic-en": 100}
BINGO = {"wordsalvo-en": 45, "wordsalvo-nl": 45, "wordfeud-de": 40, "turkish": 30,
         "woodword-de": 50, "classic-en": 50}
ALPHABET = {"wordsalvo-en": "en", "wordsalvo-nl": "nl", "wordfeud-de": "de", "turkish": "tr",
            "woodword-de": "de", "classic-en": "en"}
#: centre word multiplier: WordSalvo and Wordfeud centres pay nothing
CENTRE_WORD = {"wordsalvo-en": 1, "wordsalvo-nl": 1, "wordfeud-de": 1, "turkish": 2,
               "woodword-de": 2, "classic-en": 2}


def parse_tiles(text: str) -> dict[str, tuple[int, int]]:
    return {m[0]: (int(m[1]), int(m[2])) for m in re.findall(r"(\S)(\d+)x(\d+)", text)}


def preset_text(name: str) -> str:
    return resources.files("wordsalvo.rulesets").joinpath(f"{name}.toml").read_text("utf-8")


# -- presets ---------------------------------------------------------------------------
def test_preset_names():
    assert preset_names() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_matches_rules_md(name):
    rules = Rules.preset(name)
    assert rules.name == name
    assert rules.tiles == parse_tiles(TILES[name])
    assert rules.tile_count == TOTALS[name]
    assert rules.tiles["?"] == (2, 0)
    assert rules.bingo_bonus == BINGO[name]
    assert rules.alphabet.name == ALPHABET[name]
    assert rules.rack_size == 7 and rules.centre == (7, 7)
    assert rules.word_multipliers[7 * 15 + 7] == CENTRE_WORD[name]
    # the data the C core consumes
    assert len(rules.letter_multipliers) == len(rules.word_multipliers) == len(rules.square_bonus) == 225
    assert len(rules.tile_values) == rules.alphabet.size + 1 and rules.tile_values[0] == 0
    assert repr(rules) == f"Rules.preset({name!r})"


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_spells_out_every_game_level_key(name):
    # the engine is written from these files: no key left to a default
    data = tomllib.loads(preset_text(name))
    for section, cls in SECTIONS.items():
        assert set(data[section]) == {f.name for f in dataclasses.fields(cls)}, section
    assert {"layout", "centre", "star_squares", "star_bonus", "random"} <= set(data["board"])


def test_wordsalvo_game_rules():
    for name in ("wordsalvo-en", "wordsalvo-nl"):
        r = Rules.preset(name)
        assert (r.swap.min_bag, r.swap.whole_rack, r.swap.resets_pass_counter) == (7, False, True)
        assert (r.end.rack_out, r.end.all_pass_rounds, r.end.consecutive_passes, r.end.scoreless_turns) == (
            True, 2, 0, 0)
        assert (r.settlement.after_out, r.settlement.after_passes) == ("play-out", "subtract-only")
        assert (r.players.min, r.players.max) == (2, 4)
        assert r.timer.on_timeout == "end-turn" and r.timer.per_move_seconds == 0 and r.timer.table_may_choose
        assert r.resign.abandon_counts_as_resign
        assert r.random_mode == "premiums" and r.star_squares == ()


def test_wordfeud_game_rules():
    r = Rules.preset("wordfeud-de")
    assert r.swap.min_bag == 7
    assert r.end.consecutive_passes == 3 and r.end.all_pass_rounds == 0 and r.end.scoreless_turns == 0
    assert (r.settlement.after_out, r.settlement.after_passes) == ("play-out", "subtract-only")
    assert (r.timer.per_move_seconds, r.timer.on_timeout) == (72 * 3600, "lose")
    assert r.resign.allowed and (r.players.min, r.players.max) == (2, 2)


def test_turkish_game_rules():
    r = Rules.preset("turkish")
    assert r.swap.whole_rack and r.swap.draw_before_return and r.swap.bag_must_cover_swap
    assert not r.swap.resets_pass_counter
    assert (r.end.scoreless_turns, r.end.scoreless_turns_bag_below) == (4, 20)
    assert set(r.end.scoreless_turn_kinds) == {"pass", "swap"}
    assert (r.settlement.after_out, r.settlement.after_scoreless) == ("play-out", "none")
    assert (r.deal.first_deal_min_vowels, r.deal.first_deal_min_consonants, r.deal.vowels) == (2, 2, "AEIİOÖUÜ")
    assert r.star_bonus == 25 and r.random_mode == "stars"
    assert r.resign.resigner_loses and r.resign.scores_kept


def test_woodword_and_classic_game_rules():
    w = Rules.preset("woodword-de")
    assert w.end.scoreless_turns == 6 and (w.players.min, w.players.max) == (2, 4)
    assert (w.timer.per_move_seconds, w.timer.min_seconds, w.timer.max_seconds) == (120, 30, 86400)
    assert w.timer.on_timeout == "end-turn" and w.timer.eliminate_after_timeouts == 3
    assert not w.strict.enabled and w.strict.table_may_choose and w.strict.refused_attempts_visible
    assert w.display.tentative_score and w.random_mode == "none"
    c = Rules.preset("classic-en")
    assert c.end.scoreless_turns == 6 and c.swap.min_bag == 7 and c.settlement.after_out == "play-out"


def test_with_layout_keeps_the_game_rules():
    r = Rules.preset("wordsalvo-en")
    other = r.with_layout(Rules.preset("wordfeud-de").layout)
    assert other.swap == r.swap and other.end == r.end and other.layout != r.layout


def test_load_reads_a_preset_file_like_preset(tmp_path):
    for name in PRESETS:
        path = tmp_path / f"{name}.toml"
        path.write_text(preset_text(name), "utf-8")
        a, b = Rules.load(path), Rules.preset(name)
        assert (a.layout, a.tiles, a.star_squares, a.swap, a.end, a.timer) == (
            b.layout, b.tiles, b.star_squares, b.swap, b.end, b.timer)


# -- errors ----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["no-such-game", "", "../rules", "classic-en.toml", "CLASSIC-EN"])
def test_bad_preset_name_is_a_clear_rules_error(bad):
    with pytest.raises(RulesError) as e:
        Rules.preset(bad)
    assert isinstance(e.value, WordSalvoError) and isinstance(e.value, ValueError)
    assert repr(bad) in str(e.value) and "wordsalvo-en" in str(e.value)


BAD_FILE = '''
name = "bad"
alphabet = "en"
rack_size = "seven"
colour = "red"

[board]
layout = """
W . . D . . . W . . . D . . W
. w . . . T . . . T . . . w .
. . w . . . D . D . . . w . .
D . . w . . . D . . . w . . D
. . . . w . . . . . w . . . .
. T . . . T . . . T . . . T .
. . D . . . D . D . . . D . .
W . . D . . . * . . . D . . X
. . D . . . D . D . . . D . .
. T . . . T . . . T . . . T .
. . . . w . . . . . w . . . .
D . . w . . . D . . . w . . D
. . w . . . D . D . . . w . .
. w . . . T . . . T . . . w .
W . . D . . . W . . . D . * W
"""
star_squares = [[0, 0], [20, 3]]

[tiles]
A = [9, 1]
B = [2, "3"]
"1" = [1, 1]

[swap]
min_bag = -1
whole_rack = "yes"
foo = 1

[end]
scoreless_turn_kinds = ["pass", "nap"]

[settlement]
after_out = "everything"

[players]
min = 3
max = 2

[timer]
on_timeout = "explode"
'''


def test_load_reports_every_problem_at_once(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BAD_FILE, "utf-8")
    with pytest.raises(RulesError) as e:
        Rules.load(path)
    problems = e.value.problems
    expected = [
        "'colour': unknown key",
        "'rack_size': expected a whole number, got 'seven'",
        "'board.star_squares': expected [row, col] with 0-based numbers 0..14, got [20, 3]",
        "'board.star_squares': expected a plain square, got [0, 0] ('W')",
        "'board.layout' row 8, column 15: unknown symbol 'X'",
        "'board.layout' row 15, column 14: '*' marks the centre",
        "'tiles.B': expected [count, value]",
        "'tiles.1': not a letter of alphabet 'en'",
        "'tiles': no entry for letters",
        "'swap.min_bag': expected a whole number >= 0, got -1",
        "'swap.whole_rack': expected true or false, got 'yes'",
        "'swap.foo': unknown key",
        "'end.scoreless_turn_kinds': expected items from",
        "'settlement.after_out': expected one of 'play-out', 'subtract-only', 'none', got 'everything'",
        "'players': expected min <= max, got min = 3, max = 2",
        "'timer.on_timeout': expected one of 'end-turn', 'lose', got 'explode'",
    ]
    for x in expected:
        assert any(p.startswith(x) for p in problems), x
    assert len(problems) == len(expected)
    message = str(e.value)
    assert message.startswith(f"{path}: {len(expected)} problems:")
    assert all(p in message for p in problems)


def test_unreadable_and_non_toml_files(tmp_path):
    with pytest.raises(RulesError, match="^no such file: .*missing.toml$"):
        Rules.load(tmp_path / "missing.toml")
    with pytest.raises(RulesError, match=r"expected a regular file \(rule set file\), got a folder"):
        Rules.load(tmp_path)
    path = tmp_path / "x.toml"
    path.write_text("name = \n", "utf-8")
    with pytest.raises(RulesError, match="not valid TOML"):
        Rules.load(path)
    path.write_bytes(b"name = \"\xff\"\n")
    with pytest.raises(RulesError, match="UTF-8"):
        Rules.load(path)


def test_user_files_need_no_symmetry_or_counts():
    data = tomllib.loads(preset_text("classic-en"))
    rows = data["board"]["layout"].strip().splitlines()
    rows[0] = "W W W W W W W W W W W W W W W"  # lopsided, adjacent premiums: allowed
    data["board"]["layout"] = "\n".join(rows)
    rules = Rules.from_dict(data)
    assert rules.layout[0] == "W" * 15 and rules.word_multipliers[:15] == bytes([3] * 15)


def test_random_premiums_need_a_feasible_layout():
    data = tomllib.loads(preset_text("wordfeud-de"))
    rows = data["board"]["layout"].strip().splitlines()
    rows[0] = ". . . . W . . D . . W . . . T"  # one 3L fewer: 19 is odd
    data["board"]["layout"] = "\n".join(rows)
    with pytest.raises(RulesError, match="even number of 'T'"):
        Rules.from_dict(data)
    data["board"]["random"] = "none"
    assert Rules.from_dict(data).layout[0].startswith("....W")


# Independent faults, each in its own key: loading reports each of them, whatever the mix.
FAULTS = {
    "name": (lambda d: d.__setitem__("name", 5), "'name'"),
    "alphabet": (lambda d: d.__setitem__("alphabet", "xx"), "'alphabet'"),
    "bingo": (lambda d: d.__setitem__("bingo_bonus", True), "'bingo_bonus'"),
    "top-unknown": (lambda d: d.__setitem__("lexicon", "x"), "'lexicon'"),
    "layout-symbol": (lambda d: d["board"].__setitem__("layout", d["board"]["layout"].replace("W", "Q", 1)),
                      "'board.layout' row 1, column 1"),
    "centre": (lambda d: d["board"].__setitem__("centre", [7, 15]), "'board.centre'"),
    "star-bonus": (lambda d: d["board"].__setitem__("star_bonus", -1), "'board.star_bonus'"),
    "random": (lambda d: d["board"].__setitem__("random", "sometimes"), "'board.random'"),
    "tile-value": (lambda d: d["tiles"].__setitem__("Q", [1, 500]), "'tiles.Q'"),
    "tile-missing": (lambda d: d["tiles"].pop("Z"), "'tiles': no entry for letters Z"),
    "blank-value": (lambda d: d["tiles"].__setitem__("?", [2, 3]), "'tiles.?'"),
    "swap": (lambda d: d["swap"].__setitem__("min_bag", "7"), "'swap.min_bag'"),
    "end": (lambda d: d["end"].__setitem__("scoreless_turns", 1.5), "'end.scoreless_turns'"),
    "players": (lambda d: d["players"].__setitem__("max", 9), "'players.max'"),
    "timer": (lambda d: d["timer"].__setitem__("per_move_seconds", 5), "'timer.per_move_seconds'"),
    "strict": (lambda d: d["strict"].__setitem__("enabled", 1), "'strict.enabled'"),
    "deal": (lambda d: d["deal"].__setitem__("vowels", "AEIOU1"), "'deal.vowels'"),
    "section-type": (lambda d: d.__setitem__("display", 3), "'display'"),
}


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(sorted(FAULTS)), min_size=1))
def test_each_fault_is_reported_whatever_the_mix(faults):
    data = tomllib.loads(preset_text("woodword-de"))
    for f in faults:
        FAULTS[f][0](data)
    with pytest.raises(RulesError) as e:
        Rules.from_dict(data, source="mixed.toml")
    problems = e.value.problems
    if "alphabet" in faults:  # without an alphabet, letters cannot be checked against it
        faults = faults - {"tile-missing", "deal"}
    for f in faults:
        assert any(p.startswith(FAULTS[f][1]) for p in problems), (f, problems)
    assert str(e.value).startswith("mixed.toml: ")


def test_every_section_key_has_a_default_and_a_doc():
    for name, cls in SECTIONS.items():
        section, problems = parse_section(name, {})
        assert problems == [] and section == cls()
        for f in dataclasses.fields(cls):
            assert f.metadata["doc"], (name, f.name)


def test_repr_names_where_the_rules_came_from(tmp_path):
    preset = Rules.preset("wordsalvo-en", board_seed=4)
    assert repr(preset) == "Rules.preset('wordsalvo-en', board_seed=4)"
    text = resources.files("wordsalvo.rulesets").joinpath("classic-en.toml").read_text("utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text.replace('name = "classic-en"', 'name = "mine"'), "utf-8")
    loaded = Rules.load(path)
    assert repr(loaded) == f"Rules.load({str(path)!r})" and eval(repr(loaded)).layout == loaded.layout
    assert repr(Rules.from_toml(text)).startswith("<Rules 'classic-en' (<string>)")
    turkish = Rules.preset("turkish")
    assert repr(turkish.with_layout(turkish.layout)) == "Rules.preset('turkish')"
    moved = turkish.with_layout(turkish.layout, star_squares=((0, 1),))
    assert repr(moved).startswith("<Rules 'turkish' (changed after reading)")


def test_a_rule_set_argument_is_a_preset_name_or_a_file(tmp_path):
    # Rules.from_spec: the one place a command's --rules or a job's rule set becomes Rules
    plain = Rules.from_spec("classic-en")
    assert plain.name == "classic-en" and plain.layout == Rules.preset("classic-en").layout
    text = resources.files("wordsalvo.rulesets").joinpath("classic-en.toml").read_text("utf-8")
    path = tmp_path / "house.toml"
    path.write_text(text.replace('name = "classic-en"', 'name = "house"'), "utf-8")
    house = Rules.from_spec(str(path))
    assert house.name == "house" and house.layout == Rules.preset("classic-en").layout
    seeded = Rules.from_spec("wordsalvo-en", board_seed=5)
    assert seeded.layout == Rules.preset("wordsalvo-en", board_seed=5).layout != Rules.preset("wordsalvo-en").layout
    with pytest.raises(RulesError, match="expected a rule set name"):
        Rules.from_spec("no-such-rules")
    with pytest.raises(RulesError, match="expected a rule set name or a rule set file, got int"):
        Rules.from_spec(5)
    with pytest.raises(WordSalvoError):
        Rules.from_spec(str(tmp_path / "missing.toml"))


def test_autoplay_plays_a_rule_set_file(tmp_path):
    from wordsalvo.engine.autoplay import AutoplaySpec, run_autoplay

    text = resources.files("wordsalvo.rulesets").joinpath("classic-en.toml").read_text("utf-8")
    path = tmp_path / "house.toml"
    path.write_text(text.replace('name = "classic-en"', 'name = "house"'), "utf-8")
    summary, results = run_autoplay(AutoplaySpec(rules=str(path), players=("score", "score"), seed=1), 2)
    assert summary.games == 2 and len(results) == 2


def test_a_rule_set_from_a_file_goes_on_a_random_board_from_its_own_definition(tmp_path):
    """A CGP line's ``bseed`` puts the rules given on that random board: a rule set read
    from a file (named other than every preset) is derived from its own table, not looked
    up as a preset by name (which failed: "unknown rule set 'house-en'")."""
    import re
    from importlib import resources

    import wordsalvo as ws

    text = (resources.files("wordsalvo.rulesets") / "wordsalvo-en.toml").read_text("utf-8")
    path = tmp_path / "house.toml"
    path.write_text(re.sub(r'^name = ".*"', 'name = "house-en"', text, flags=re.M).replace(
        "bingo_bonus = 45", "bingo_bonus = 44"), "utf-8")
    house = ws.Rules.load(path)
    pos = ws.parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 bseed 5;", rules=house)
    expected = ws.Rules.load(path, board_seed=5)
    assert pos.rules.name == "house-en" and pos.rules.board_seed == 5
    assert pos.rules.layout == expected.layout and pos.rules.bingo_bonus == expected.bingo_bonus
    assert house.with_board_seed(None) is house and house.with_board_seed(5).layout == expected.layout
    changed = house.with_layout(tuple(reversed(house.layout)))
    with pytest.raises(ws.RulesError, match="changed after reading"):
        changed.with_board_seed(5)


def _fields(rules: Rules) -> dict:
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


@pytest.mark.parametrize("name", preset_names())
def test_a_preset_is_its_file_read_anew_and_owns_its_parts(name):
    """Rules.preset parses the packaged file once; each call still builds the same rules
    as reading the file, and no two calls share a part a caller could change."""
    text = resources.files("wordsalvo.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    seeds = [None, 5] if tomllib.loads(text).get("board", {}).get("random", "none") != "none" else [None]
    for seed in seeds:
        fresh = Rules.from_toml(text, source=f"preset {name}", board_seed=seed)
        first, second = Rules.preset(name, board_seed=seed), Rules.preset(name, board_seed=seed)
        assert _fields(first) == _fields(fresh) == _fields(second)
        first.tiles["?"] = (99, 99)
        for part in first.extra.values():  # the file's own tables, as the rules keep them
            if isinstance(part, (dict, list)):
                part.clear()
        first.extra.clear()
        assert _fields(Rules.preset(name, board_seed=seed)) == _fields(fresh)

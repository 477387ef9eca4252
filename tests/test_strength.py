"""The rated player: Bot(rating=R), its strength parameter and the calibration table."""

from __future__ import annotations

import math

import pytest

from wordsalvo import Bot, Game, Rules
from wordsalvo.cli import main
from wordsalvo.engine.autoplay import AutoplaySpec, iter_games
from wordsalvo.engine.strength import beta_for_rating, check_rating, parse_level, strength_table
from wordsalvo.errors import GameError, WordSalvoError
from wordsalvo.stats import wilson_interval


@pytest.fixture(scope="module")
def rules():
    return Rules.preset("wordsalvo-en")


def test_the_shipped_table_is_monotone_and_spans_the_static_levels():
    table = strength_table()
    betas = [b for b, _ in table.points]
    ratings = [r for _, r in table.points]
    assert betas == sorted(betas) and ratings == sorted(ratings)
    assert betas[-1] == math.inf  # the top is expert's own choice
    assert table.high == pytest.approx(table.named["expert"])
    assert table.low <= table.named["easy"]  # from below the weakest level ...
    assert table.named["easy"] < table.named["medium"] < table.named["hard"] < table.named["expert"]
    assert table.rules == "wordsalvo-en" and "benchmarks/levels.py" in table.command


def test_a_rating_maps_to_the_calibration_table(rules):
    table = strength_table()
    for beta, rating in table.points:
        bot = Bot(rating=rating, rules=rules)
        assert bot.rated.beta == pytest.approx(beta)
        assert bot.rated.rating == rating
    (b0, r0), (b1, r1) = table.points[1], table.points[2]
    middle = beta_for_rating((r0 + r1) / 2)
    assert b0 < middle < b1
    # a stronger rating never has a smaller parameter
    sweep = [beta_for_rating(min(table.high, table.low + (table.high - table.low) * i / 40)) for i in range(41)]
    assert sweep == sorted(sweep)
    # the level text is the rating, and reads back as the same player
    bot = Bot(rating=1200, rules=rules)
    assert bot.level == "1200" and Bot("1200", rules).rated == bot.rated
    assert repr(bot) == "Bot(rating=1200, rules=Rules.preset('wordsalvo-en'), seed=0)"


def test_the_strongest_rating_plays_as_expert(rules):
    table = strength_table()
    game = Game(rules, players=["A", "B"], seed=3)
    top = Bot(rating=table.high, rules=rules, seed=1)
    expert = Bot("expert", rules, seed=1)
    for _ in range(12):
        if game.is_over:
            break
        action = top.choose(game)
        assert action == expert.choose(game)
        game.apply(action)


@pytest.mark.parametrize("bad", [-5000, 99999, "abc", "", "12OO", None, True, float("nan"), float("inf"), [1200]])
def test_bad_ratings_are_refused_clearly(rules, bad):
    table = strength_table()
    if bad is None:
        with pytest.raises(WordSalvoError, match="expected a level .* or rating=R, got neither"):
            Bot(rules=rules)
        return
    with pytest.raises(WordSalvoError, match="rating: expected a Glicko-2 rating") as info:
        Bot(rating=bad, rules=rules)
    assert isinstance(info.value, GameError)
    if isinstance(bad, (int, float)) and not isinstance(bad, bool):
        assert f"{table.low:.0f}" in str(info.value) and f"{table.high:.0f}" in str(info.value)
        assert repr(bad) in str(info.value)


def test_bad_level_text_is_refused_clearly(rules):
    with pytest.raises(WordSalvoError, match="expected an engine player .* or a Glicko-2 rating .* got 'grandmaster'"):
        Bot("grandmaster", rules)
    with pytest.raises(WordSalvoError, match="expected beta=NUMBER"):
        parse_level("beta=x", ("hard",))
    with pytest.raises(WordSalvoError, match="expected beta=NUMBER"):
        parse_level("beta=-inf", ("hard",))
    assert parse_level("beta=inf", ("hard",)).beta == math.inf
    with pytest.raises(WordSalvoError, match="got both"):
        Bot("hard", rules, rating=1200)
    with pytest.raises(WordSalvoError, match="from .* got '99999'"):
        Bot("99999", rules)
    assert parse_level("hard", ("hard",)) is None
    assert check_rating("1200") == 1200.0


def _win_rate(a: str, b: str, games: int, seed: int) -> tuple[float, float, float]:
    results = list(iter_games(AutoplaySpec("wordsalvo-en", (a, b), seed=seed), games))
    won = sum(r.outcome(0) for r in results)
    low, high = wilson_interval(won, games)
    return won / games, low, high


def test_the_parameter_is_monotone_in_a_small_match():
    """A larger beta wins more: in 24 games each, beta 0 < 0.1 < 0.3, every 95 % interval above half
    (the table's ratings are 650-900 points apart there: 97 % and more expected)."""
    for weak, strong in (("beta=0", "beta=0.1"), ("beta=0.1", "beta=0.3")):
        rate, low, _high = _win_rate(strong, weak, 24, seed=5)
        assert low > 0.5, (strong, weak, rate)


def test_moves_of_a_rated_player_are_legal_and_never_offensive(rules):
    from wordsalvo.actions import Play
    from wordsalvo.offensive import OffensiveWords

    offensive = OffensiveWords.default("en")
    for level in ("beta=-0.1", "beta=0", "500"):
        game = Game(rules, players=["A", "B"], seed=11)
        bots = [Bot(level, rules, seed=1), Bot(level, rules, seed=2)]
        while not game.is_over:
            action = bots[game.to_move].choose(game)
            if isinstance(action, Play):
                assert not offensive.is_offensive(action.move)
            game.apply(action)  # an illegal move would raise


def test_the_same_seed_replays_a_rated_player(rules):
    def moves(seed):
        game = Game(rules, players=["A", "B"], seed=2)
        bot = Bot(rating=900, rules=rules, seed=seed)
        out = []
        for _ in range(6):
            action = bot.choose(game)
            out.append(action)
            game.apply(action)
        return out

    assert moves(4) == moves(4)
    assert moves(4) != moves(5)


def test_the_command_line_takes_a_rating_as_a_level(capsys):
    from wordsalvo.cli import build_parser
    from wordsalvo.commands import play

    args = build_parser().parse_args(["play", "--rules", "wordsalvo-en", "--level", "1200"])
    game, levels, _info = play.setup(args)
    assert levels == [None, "1200"]
    args = build_parser().parse_args(["play", "--rules", "wordsalvo-en", "--player", "Ann", "--bot", "900.5",
                                      "--bot", "hard"])
    assert play.setup(args)[1] == [None, "900.5", "hard"]
    code = main(["autoplay", "--rules", "wordsalvo-en", "--games", "2", "--p1", "1200", "--p2", "easy"])
    out = capsys.readouterr().out
    assert code == 0 and "p1-1200" in out
    with pytest.raises(SystemExit) as info:
        main(["play", "--rules", "wordsalvo-en", "--level", "99999"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--level: rating: expected a Glicko-2 rating from" in err and "'99999'" in err
    with pytest.raises(SystemExit):
        main(["autoplay", "--rules", "wordsalvo-en", "--games", "1", "--p1", "strong", "--p2", "easy"])
    assert "expected score, equity, easy, medium, hard, expert, master or a rating (e.g. 1200), got 'strong'" \
        in capsys.readouterr().err


def test_a_saved_game_keeps_a_rated_engine(rules, tmp_path):
    from wordsalvo.tui.saved_games import game_record, read_saved_game

    game = Game(rules, players=["Ann", "Engine"], seed=4)
    path = tmp_path / "g.gcg"
    path.write_text(game_record(game, [None, "1200"], hints=3), "utf-8")
    assert read_saved_game(path).levels == [None, "1200"]
    path.write_text(game_record(game, [None, "99999"], hints=3), "utf-8")
    with pytest.raises(WordSalvoError, match="#engine NICK LEVEL.* or a rating such as 1200"):
        read_saved_game(path)


def test_a_terminal_game_against_a_rating():
    import io

    from wordsalvo.cli import build_parser
    from wordsalvo.commands import play

    answers = iter(["pass", "quit"])
    args = build_parser().parse_args(["play", "--rules", "wordsalvo-en", "--level", "1200", "--game-seed", "3",
                                      "--color", "never"])
    out = io.StringIO()
    assert play.run(args, input_fn=lambda _prompt: next(answers), output=out) == 0
    text = out.getvalue()
    assert "Engine (1200)" in text  # the engine seat names its level ...
    assert "after 2 turns" in text  # ... and took its turn


# -- issue 38: hostile level texts and the sampler ---------------------------------------------
@pytest.mark.parametrize("text", ["1_200", "\u0661\u0662\u0660\u0660", "\uff11\uff12\uff10\uff10", " 1200", "1200 ",
                                  "nan", "inf", "1200\n", "+1_2e2", "beta=1_0", "beta=\u0660.\u0661", "beta=nan",
                                  "beta= 0.1", "beta=1e308", "beta=-1e308", "beta=11", "beta=-10.5",
                                  "beta=0." + "1" * 60])
def test_loose_level_texts_are_refused_by_the_one_reader(rules, text):
    """``int()``/``float()`` take underscores, Unicode digits and spaces: a level text is ASCII
    only, and a strength parameter is bounded (``beta=1e308`` overflowed the weights to NaN)."""
    from wordsalvo.engine.bot import PLAYER_KINDS

    with pytest.raises(GameError, match="level: expected|rating: expected") as info:
        parse_level(text, PLAYER_KINDS)
    assert "got" in str(info.value)
    with pytest.raises(GameError):
        Bot(text, rules)
    if not text.startswith("beta="):
        with pytest.raises(GameError, match="rating: expected"):
            Bot(rating=text, rules=rules)


def test_the_command_line_and_saved_games_read_levels_with_the_same_reader():
    import argparse

    from wordsalvo.commands._common import engine_level
    from wordsalvo.engine.bot import LEVELS
    from wordsalvo.tui.saved_games import _is_level

    parse = engine_level(LEVELS)
    assert parse("1200") == "1200" and parse("1200.0") == "1200" and parse("hard") == "hard"
    for bad in ("1_200", "\u0661\u0662\u0660\u0660", "beta=0.1", "99999"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)
        assert not _is_level(bad)
    assert _is_level("1200") and _is_level("hard")
    # a saved game's rating is read on its rule set's scale
    nl = Rules.preset("wordsalvo-nl")
    assert _is_level("1890", nl) and not _is_level("1890") and not _is_level("-300", nl) and _is_level("-300")
    # the command line does not know the rule set when it reads --level: a rating of some rule
    # set's scale passes, and the game's Bot checks it on its own
    assert parse("1890") == "1890"
    with pytest.raises(GameError, match="calibrated range, wordsalvo-en"):
        Bot("1890", Rules.preset("wordsalvo-en"))
    assert Bot("1890", nl).rated.rating == 1890


def test_the_strength_parameter_has_documented_bounds(rules):
    from wordsalvo.engine.strength import BETA_LIMIT

    assert Bot(f"beta={BETA_LIMIT:g}", rules).rated.beta == BETA_LIMIT
    assert Bot(f"beta=-{BETA_LIMIT:g}", rules).rated.beta == -BETA_LIMIT
    assert Bot("beta=inf", rules).rated.beta == math.inf
    with pytest.raises(GameError, match=f"from -{BETA_LIMIT:g} to {BETA_LIMIT:g}"):
        Bot(f"beta={BETA_LIMIT * 1.01:g}", rules)


def test_the_softmax_draw_is_total_and_never_nan():
    import random

    import numpy as np

    from wordsalvo.engine.bot import softmax_pick

    value = np.array([10.25, 6.0, -3.0, 1.8, 10.25])
    rng = random.Random(1)
    # a huge parameter picks a best value (it overflowed to NaN weights and drew the last index)
    for beta in (1e308, -1e308, 10.0, -10.0):
        k = softmax_pick(value, beta, rng)
        assert value[k] == (value.max() if beta > 0 else value.min())
    with pytest.raises(GameError, match="finite"):
        softmax_pick(value, math.inf, rng)
    assert softmax_pick(value, 10.0, rng, excluded=np.array([True, False, False, False, True])) == 1
    assert softmax_pick(value, 0.5, rng, excluded=np.ones(5, dtype=bool)) is None
    with pytest.raises(GameError, match="finite"):
        softmax_pick(np.array([1.0, np.nan]), 0.1, rng)

    class Top(random.Random):
        def random(self):  # the largest double below 1: u * sum may round to the sum itself
            return 1.0 - 2.0 ** -53

    # a draw at the top of the sum never takes an excluded (zero-weight) index
    k = softmax_pick(np.array([0.0, 0.0, 0.0]), 0.0, Top(), excluded=np.array([False, False, True]))
    assert k == 1
    # the same seed draws the same indices
    draws = [softmax_pick(value, 0.3, random.Random(7)) for _ in range(3)]
    assert len(set(draws)) == 1


def test_a_rated_player_whose_plays_are_all_offensive_ends_its_turn(rules, monkeypatch):
    """Every play ruled out as offensive, no swap allowed: a pass, never an endless redraw
    (with NaN weights the redraw loop drew the same ruled-out play for ever)."""
    from wordsalvo.actions import Pass, Play
    from wordsalvo.engine.bot import softmax_pick  # noqa: F401 - the total draw (before it, this hung)
    from wordsalvo.engine.strength import RatedLevel

    class AllOffensive:
        def is_offensive(self, move):
            return True

    game = Game(rules, players=["A", "B"], seed=6)
    for beta in ("beta=10", "beta=-10", "beta=0", "beta=1"):
        bot = Bot(beta, rules, seed=0)
        if beta == "beta=1":  # past the bounds (set by hand, not read): weights of 0 and 1, never NaN
            bot.rated = RatedLevel(1e308, None)
        bot.offensive = AllOffensive()
        monkeypatch.setattr(bot, "_best_swap", lambda game: None)
        action = bot.choose(game)
        assert not isinstance(action, Play) and isinstance(action, Pass)


def test_the_service_reads_levels_with_the_same_reader(rules):
    """``POST /v1/bot`` with ``beta=1e308`` spun an engine thread for ever; a loose rating text
    was taken as 1200: each is a 422 problem naming the level now."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    import wordsalvo as ws
    from wordsalvo.serve.app import create_app

    game = Game(rules, players=["A", "B"], seed=6)
    bot = Bot("equity", rules)
    for _ in range(4):
        game.apply(bot.choose(game))
    record = ws.to_gcg(game)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        for level in ("beta=1e308", "1_200", "\u0661\u0662\u0660\u0660", "beta=nan"):
            r = client.post("/v1/bot", json={"gcg": record, "level": level})
            assert r.status_code == 422, r.text
            assert r.json()["type"] == "urn:wordsalvo:problem:game" and "level: expected" in r.json()["detail"]
        r = client.post("/v1/bot", json={"gcg": record, "rating": 1e308})
        assert r.status_code == 422 and "rating" in r.json()["detail"]
        ok = client.post("/v1/bot", json={"gcg": record, "level": "beta=10"})
        assert ok.status_code == 200 and ok.json()["level"] == "beta=10"


def test_a_level_reads_back_from_its_name_and_ratings_near_the_top_stay_bounded(rules):
    """Found by fuzzing the level texts: ``%g`` kept 6 digits, so ``900.1025535`` was saved as
    ``900.103`` (another player), and a rating just below expert's gave beta 28 (beyond the
    bounds the parameter has)."""
    from wordsalvo.engine.bot import PLAYER_KINDS
    from wordsalvo.engine.strength import BETA_LIMIT

    for text in ("900.1025535", "beta=4.2949672961e-290", "1200", "beta=0.2", "beta=inf", "-388"):
        rated = parse_level(text, PLAYER_KINDS)
        assert parse_level(rated.name, PLAYER_KINDS) == rated
    assert parse_level("1200.0", PLAYER_KINDS).name == "1200"
    table = strength_table()
    for rating in (table.high - 0.5, table.high - 1e-9, 1880):
        assert -BETA_LIMIT <= Bot(rating=rating, rules=rules).rated.beta <= BETA_LIMIT
    assert Bot(rating=table.high, rules=rules).rated.beta == math.inf


def test_a_rule_set_with_its_own_calibration_uses_it():
    """wordsalvo-nl and turkish have tables of their own (measured on their own named levels);
    any other rule set, and a rule set read from a file, takes the shipped default."""
    from wordsalvo.engine.selfplay import rated_beta

    default = strength_table()
    assert default.rules == "wordsalvo-en"
    assert strength_table("classic-en") is default and strength_table(Rules.preset("classic-en")) is default
    for name in ("wordsalvo-nl", "turkish"):
        rules = Rules.preset(name)
        own = strength_table(rules)
        assert own is strength_table(name) and own.rules == name and own is not default
        assert "benchmarks/levels.py" in own.command and f"--rules {name}" in own.command
        assert own.points[-1][0] == math.inf and own.high == pytest.approx(own.named["expert"])
        # a rating means that rule set's player: its own beta, in the C loop as in Bot
        rating = round((own.low + own.high) / 2)
        bot = Bot(rating=rating, rules=rules)
        assert bot.rated.beta == pytest.approx(beta_for_rating(rating, own))
        assert Bot(str(rating), rules).rated == bot.rated
        assert rated_beta(str(rating), rules) == bot.rated.beta
        assert parse_level(str(rating), ("hard",), rules=rules) == bot.rated
        # out of that rule set's range: refused, naming it
        with pytest.raises(GameError, match=f"calibrated range, {name}"):
            Bot(rating=own.high + 1, rules=rules)
        # the same rule set read from a file is not the preset: the default table
        from importlib import resources

        text = resources.files("wordsalvo").joinpath("rulesets", f"{name}.toml").read_text("utf-8")
        copy = Rules.from_toml(text, source="my-rules.toml")
        assert copy.name == name and strength_table(copy) is default
        # a preset with a random board is still that rule set
        if name == "turkish":
            assert strength_table(Rules.preset(name, board_seed=3)) is own
    # the tables differ: some rating is another beta on another rule set's scale
    nl = strength_table("wordsalvo-nl")
    assert any(beta_for_rating(r, nl) != beta_for_rating(r, default)
               for r in range(int(max(nl.low, default.low)) + 1, int(min(nl.high, default.high)), 50))

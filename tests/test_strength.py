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

"""Glicko-2 ratings, tiers, the rating pool, places of games and rating periods.

Oracle: Glickman's worked example in "Example of the Glicko-2 system" (a player
at 1500 / RD 200 / volatility 0.06, tau 0.5, beats 1400 / RD 30, loses to
1550 / RD 100 and 1700 / RD 300; ends at 1464.06 / RD 151.52 / volatility
0.05999), with its printed intermediate values; hand-computed idle growth;
properties (hypothesis) for the rest.
"""

from __future__ import annotations

import datetime
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo.ratings import (
    DEFAULT_RATING,
    MAX_RD,
    SCALE,
    RatedGame,
    Rating,
    RatingError,
    RatingPool,
    _g,
    _volatility,
    game_places,
    glicko2_steps,
    glicko2_update,
    load_tiers,
    period_key,
    rate_games,
    tier_of,
    tiers,
)

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]


# -- Glickman's example ---------------------------------------------------------------------
def test_glickman_example_final_values():
    r = glicko2_update(PLAYER, OPPONENTS, tau=0.5)
    # printed: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.  The paper gets 1464.06 from mu'
    # rounded to -0.2069 (173.7178 x -0.2069 + 1500 = 1464.0572); unrounded it is 1464.0507,
    # within the last printed digit.
    assert abs(r.rating - 1464.06) < 0.01
    assert round(SCALE * round((r.rating - 1500) / SCALE, 4) + 1500, 2) == 1464.06
    assert round(r.rd, 2) == 151.52
    assert abs(r.volatility - 0.05999) < 0.00001 and r.volatility < 0.06


def test_glickman_example_intermediate_values():
    s = glicko2_steps(PLAYER, OPPONENTS, tau=0.5)
    assert s.mu == 0 and round(s.phi, 4) == 1.1513
    # step 3's table: mu_j, phi_j, g(phi_j), E(mu, mu_j, phi_j)
    table = [(-0.5756, 0.1727, 0.9955, 0.639), (0.2878, 0.5756, 0.9531, 0.432), (1.1513, 1.7269, 0.7242, 0.303)]
    for (opponent, _), (mu_j, phi_j, g, e) in zip(OPPONENTS, table):
        assert round(opponent.mu, 4) == mu_j and round(opponent.phi, 4) == phi_j
        assert round(_g(opponent.phi), 4) == g
        assert round(1 / (1 + math.exp(-_g(opponent.phi) * (s.mu - opponent.mu))), 3) == e
    # the paper sums the rounded g and E above: v = 1.7785, Delta = -0.4834; exact sums differ in
    # the fourth decimal (1.77898, -0.48393), as 3-decimal E values make them
    assert abs(s.v - 1.7785) < 0.001
    assert abs(s.delta - -0.4834) < 0.001
    paper_v = 1 / sum(g * g * e * (1 - e) for _, _, g, e in table)
    assert round(paper_v, 4) == 1.7785
    assert round(paper_v * sum(g * (sc - e) for (_, sc), (_, _, g, e) in zip(OPPONENTS, table)), 4) == -0.4834
    assert abs(s.volatility - 0.05999) < 0.00001
    assert abs(s.phi_star - 1.152862) < 0.00001
    assert round(s.mu_new, 4) == -0.2069
    assert round(s.phi_new, 4) == 0.8722


def test_step5_from_the_papers_rounded_inputs():
    # step 5 run on the paper's own (rounded) phi, v and Delta gives the printed sigma'
    assert abs(_volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5) - 0.05999) < 0.00001


def test_volatility_branch_with_large_delta():
    # Delta^2 > phi^2 + v: B = ln(Delta^2 - phi^2 - v); a big upset raises the volatility
    s = glicko2_steps(Rating(1500, 50, 0.06), [(Rating(2300, 50), 1)] * 5, tau=0.5)
    assert s.delta ** 2 > s.phi ** 2 + s.v
    assert s.volatility > 0.06
    assert math.isfinite(s.rating.rating)


# -- idle players, cap, draws, determinism -----------------------------------------------------
def test_idle_player_gets_step_6_only():
    r = glicko2_update(PLAYER, [])
    # sqrt(200^2 + (0.06 x 173.7178)^2) = 200.2714
    assert round(r.rd, 4) == 200.2714
    assert r.rating == 1500 and r.volatility == 0.06
    s = glicko2_steps(PLAYER, [])
    assert s.delta == 0 and s.v == math.inf and s.phi_star == pytest.approx(s.phi_new)


def test_rd_is_capped_at_350():
    assert glicko2_update(Rating(1500, 349.9, 0.06), []).rd == MAX_RD  # sqrt(349.9^2 + 10.42^2) = 350.06
    assert glicko2_update(Rating(1500, 350, 0.06), []).rd == MAX_RD
    assert glicko2_update(Rating(1500, 100, 0.06), [], max_rd=120).rd == pytest.approx(
        math.hypot(100, 0.06 * SCALE))
    assert glicko2_update(Rating(1500, 119.9, 0.06), [], max_rd=120).rd == 120
    # a new player with a weak result still comes out at most at the cap
    for opponent in (Rating(1500, 350), Rating(3000, 350), Rating(100, 30)):
        assert glicko2_update(Rating(), [(opponent, 0.5)]).rd <= MAX_RD


def test_draw_between_equals_keeps_the_rating_and_lowers_the_rd():
    a = glicko2_update(Rating(), [(Rating(), 0.5)])
    assert a.rating == DEFAULT_RATING
    assert a.rd < 350
    b = glicko2_update(Rating(1600, 80), [(Rating(1600, 80), 0.5)])
    assert b.rating == pytest.approx(1600, abs=1e-9) and b.rd < 80


def test_deterministic():
    assert glicko2_steps(PLAYER, OPPONENTS) == glicko2_steps(PLAYER, list(OPPONENTS))


# -- properties -------------------------------------------------------------------------------
ratings = st.builds(Rating, st.floats(0, 3000), st.floats(30, 350), st.floats(0.03, 0.1))
scores = st.sampled_from([0.0, 0.5, 1.0])
periods = st.lists(st.tuples(ratings, scores), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(ratings, periods, st.floats(0.2, 1.2))
def test_rating_stays_finite(player, games, tau):
    r = glicko2_update(player, games, tau=tau)
    assert all(math.isfinite(x) for x in (r.rating, r.rd, r.volatility))
    assert 0 < r.rd <= MAX_RD and r.volatility > 0


@settings(max_examples=200, deadline=None)
@given(ratings, st.lists(ratings, min_size=1, max_size=8))
def test_wins_never_lower_losses_never_raise(player, opponents):
    assert glicko2_update(player, [(o, 1) for o in opponents]).rating > player.rating
    assert glicko2_update(player, [(o, 0) for o in opponents]).rating < player.rating


@settings(max_examples=200, deadline=None)
@given(ratings, periods, st.data())
def test_a_better_result_never_lowers_the_rating(player, games, data):
    k = data.draw(st.integers(0, len(games) - 1))
    opponent, score = games[k]
    better = list(games)
    better[k] = (opponent, min(1.0, score + 0.5))
    assert glicko2_update(player, better).rating >= glicko2_update(player, games).rating - 1e-9


@settings(max_examples=200, deadline=None)
@given(ratings, periods)
def test_mirror_symmetry(player, games):
    # reflecting every rating about 1500 and every score about 0.5 reflects the result
    def mirror(r: Rating) -> Rating:
        return Rating(2 * DEFAULT_RATING - r.rating, r.rd, r.volatility)

    a = glicko2_update(player, games)
    b = glicko2_update(mirror(player), [(mirror(o), 1 - s) for o, s in games])
    assert b.rating == pytest.approx(2 * DEFAULT_RATING - a.rating, abs=1e-6)
    assert b.rd == pytest.approx(a.rd, rel=1e-9)
    assert b.volatility == pytest.approx(a.volatility, rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(ratings, st.sampled_from([0.0, 0.5, 1.0]))
def test_equal_players_gain_what_the_other_loses(r, score):
    pool = RatingPool({"a": r, "b": r})
    new = pool.update_period([("a", "b", score)])
    assert new["a"].rating - r.rating == pytest.approx(r.rating - new["b"].rating, abs=1e-9)
    assert new["a"].rd == pytest.approx(new["b"].rd, rel=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("abcde"), scores), min_size=1, max_size=10)
       .filter(lambda rs: all(p != o for p, o, _ in rs)), st.randoms())
def test_order_of_results_in_a_period_does_not_matter(results, rnd):
    a = RatingPool()
    a.update_period(results, new_players=True)
    shuffled = list(results)
    rnd.shuffle(shuffled)
    b = RatingPool()
    b.update_period(shuffled, new_players=True)
    assert set(a) == set(b)
    for name in a:
        assert a[name].rating == pytest.approx(b[name].rating, abs=1e-9)
        assert a[name].rd == pytest.approx(b[name].rd, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(ratings, st.floats(100, 400))
def test_pool_idle_step_is_step_6(r, max_rd):
    from wordsalvo.ratings import _idle

    if r.rd <= max_rd:
        assert _idle(r, max_rd) == glicko2_update(r, [], max_rd=max_rd)


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    ((1500, -5, 0.06), "expected an RD > 0, got -5"),
    ((1500, 0, 0.06), "expected an RD > 0, got 0"),
    ((float("nan"), 200, 0.06), "expected a finite rating"),
    ((1500, 200, 0), "expected a volatility > 0"),
    ((1500, float("inf"), 0.06), "expected an RD > 0, got inf"),
    (("1500", 200, 0.06), "expected a finite rating, got '1500'"),
])
def test_bad_rating(args, words):
    with pytest.raises(RatingError, match=words.replace("(", r"\(")):
        Rating(*args)


def test_bad_rating_lists_every_problem():
    with pytest.raises(RatingError) as e:
        Rating(float("inf"), -1, -1)
    assert len(e.value.problems) == 3
    assert isinstance(e.value, ws.WordSalvoError) and isinstance(e.value, ValueError)


@pytest.mark.parametrize("player, opponent", [(Rating(1e6, 50), Rating(-1e6, 50)), (Rating(1e12, 1), Rating(0, 1))])
def test_absurdly_far_apart_ratings_are_an_error_not_a_nan(player, opponent):
    with pytest.raises(RatingError, match="ratings too far apart"):
        glicko2_update(player, [(opponent, 0)])


def test_bad_games_and_tau():
    with pytest.raises(RatingError, match=r"game 2: expected a score from 0 to 1.*got 2") as e:
        glicko2_update(PLAYER, [(Rating(), 1), (Rating(), 2), ("x", 0)])
    assert len(e.value.problems) == 2
    with pytest.raises(RatingError, match="expected tau > 0"):
        glicko2_update(PLAYER, OPPONENTS, tau=0)
    with pytest.raises(RatingError, match="expected the player's Rating"):
        glicko2_update((1500, 200, 0.06), OPPONENTS)


# -- the pool ------------------------------------------------------------------------------
def test_pool_reproduces_the_example_and_rates_a_period_at_once():
    pool = RatingPool({"me": PLAYER, "a": Rating(1400, 30), "b": Rating(1550, 100), "c": Rating(1700, 300)})
    before = pool.ratings
    new = pool.update_period([("me", "a", 1), ("b", "me", 1), ("me", "c", 0)])
    assert new["me"] == glicko2_update(PLAYER, OPPONENTS)
    # every player is rated from the ratings at the start of the period
    assert new["a"] == glicko2_update(before["a"], [(PLAYER, 0)])
    assert new["b"] == glicko2_update(before["b"], [(PLAYER, 1)])
    assert new["c"] == glicko2_update(before["c"], [(PLAYER, 1)])
    assert pool.periods == 1 and pool["me"] == new["me"]


def test_pool_idle_players_get_step_6():
    pool = RatingPool({"a": Rating(1500, 200), "b": Rating(), "idle": Rating(1700, 100, 0.05)})
    pool.update_period([("a", "b", 1)])
    idle = pool["idle"]
    assert (idle.rating, idle.volatility) == (1700, 0.05) and idle.rd == pytest.approx(math.hypot(100, 0.05 * SCALE))
    pool.idle_periods(3)
    assert pool.periods == 4
    assert pool["idle"].rd == pytest.approx(math.sqrt(100 ** 2 + 4 * (0.05 * SCALE) ** 2))
    pool.idle_periods(3000)  # 100^2 + 3004 x (0.05 x 173.7)^2 > 350^2
    assert all(r.rd == MAX_RD for r in pool.ratings.values())
    assert pool.periods == 3004


def test_pool_unknown_player_is_refused_and_nothing_changes():
    pool = RatingPool({"a": Rating()})
    before = (pool.ratings, pool.periods)
    with pytest.raises(RatingError, match="unknown player 'zed'"):
        pool.update_period([("a", "zed", 1)])
    assert (pool.ratings, pool.periods) == before
    with pytest.raises(RatingError, match="unknown player 'zed'"):
        pool["zed"]
    pool.update_period([("a", "zed", 1)], new_players=True)
    assert "zed" in pool and len(pool) == 2
    assert pool["zed"].rating < 1500 < pool["a"].rating


def test_pool_empty_period_is_an_error():
    pool = RatingPool({"a": Rating()})
    with pytest.raises(RatingError, match="empty period"):
        pool.update_period([])
    assert pool.periods == 0 and pool["a"] == Rating()


def test_pool_reports_every_bad_result():
    pool = RatingPool({"a": Rating(), "b": Rating()})
    with pytest.raises(RatingError) as e:
        pool.update_period([("a", "a", 1), ("a", "b", 1.5), ("a", "x", 0), ("a", "x", 1), ("a", "b"), ("", "b", 0)])
    text = str(e.value)
    assert "result 1: expected two different players, got 'a' against themselves" in text
    assert "result 2: expected a score from 0 to 1" in text
    assert "result 3: expected a player of the pool, got unknown player 'x'" in text
    assert "result 5: expected a (player, opponent, score) triple" in text
    assert "result 6: expected a player name" in text
    assert len(e.value.problems) == 5  # the unknown 'x' is named once
    assert pool.periods == 0


def test_pool_add_checks():
    pool = RatingPool()
    pool.add("a")
    assert pool["a"] == Rating()
    with pytest.raises(RatingError, match="expected a new player, got 'a'"):
        pool.add("a", Rating(1600))
    with pytest.raises(RatingError, match=r"expected an RD in \(0, 350\] for 'b', got 400"):
        pool.add("b", Rating(1500, 400))
    with pytest.raises(RatingError, match="expected a player name"):
        pool.add("  ")
    with pytest.raises(RatingError, match="expected a whole number of periods"):
        pool.idle_periods(-1)
    with pytest.raises(RatingError, match="expected tau > 0"):
        RatingPool(tau=-1)
    assert [n for n, _ in RatingPool({"x": Rating(1400), "y": Rating(1600), "z": Rating(1600, 50)}).standings()] == [
        "z", "y", "x"]


# -- tiers ---------------------------------------------------------------------------------
def test_package_tiers():
    ladder = tiers()
    names = [t.name for t in ladder]
    assert names[0] == "Novice" and names[-1] == "Laureate" and len(set(names)) == len(names)
    assert [t.lower for t in ladder[1:]] == [1200, 1400, 1600, 1800, 2000, 2200]
    assert ladder[0].lower == -math.inf and ladder[-1].upper == math.inf
    assert all(a.upper == b.lower for a, b in zip(ladder, ladder[1:]))
    assert tiers() is ladder  # loaded once


@pytest.mark.parametrize("rating, name", [
    (-300, "Novice"), (1199.999, "Novice"), (1200, "Apprentice"), (1500, "Scribe"), (1599.99, "Scribe"),
    (1600, "Wordsmith"), (1800, "Scholar"), (2000, "Lexicographer"), (2199.9, "Lexicographer"),
    (2200, "Laureate"), (4000, "Laureate"),
])
def test_tier_of(rating, name):
    assert tier_of(rating).name == name
    assert str(Rating(rating, 100).tier) == name


def test_new_player_tier():
    assert Rating().tier.name == "Scribe"


def test_load_tiers_reports_every_problem(tmp_path):
    bad = tmp_path / "tiers.toml"
    bad.write_text('[[tier]]\nname = "Low"\nfrom = 0\n[[tier]]\nname = "Mid"\nfrom = 1500\n'
                   '[[tier]]\nname = "Mid"\nfrom = 1400\n[[tier]]\nname = "Top"\n[[tier]]\nname = ""\nfrom = 3000\n')
    with pytest.raises(RatingError) as e:
        load_tiers(bad)
    text = str(e.value)
    assert "tier 1 (Low): expected no 'from'" in text
    assert "tier 3: expected a unique name, got 'Mid' a second time" in text
    assert "tier 3 (Mid): expected a cut-off above 1500, got 1400" in text
    assert "tier 4 (Top): expected 'from', a finite number (within ±1e9), got None" in text
    assert "tier 5: expected a name" in text
    assert len(e.value.problems) == 5
    bad.write_text("[[tier]\nname=1")
    with pytest.raises(RatingError, match="expected a TOML file"):
        load_tiers(bad)
    bad.write_text("title = 'x'\n")
    with pytest.raises(RatingError, match=r"expected only \[\[tier\]\] tables"):
        load_tiers(bad)
    with pytest.raises(RatingError, match="^no such file: .*missing.toml$"):
        load_tiers(tmp_path / "missing.toml")
    good = tmp_path / "good.toml"
    good.write_text('[[tier]]\nname = "Low"\n[[tier]]\nname = "High"\nfrom = 1000.5\n')
    ladder = load_tiers(good)
    assert tier_of(1000, ladder).name == "Low" and tier_of(1000.5, ladder).name == "High"


# -- games, places, periods ----------------------------------------------------------------------
def _finish(game: ws.Game) -> ws.Game:
    while not game.is_over:
        move = game.best_move()
        game.play(move) if move is not None else game.pass_turn()
    return game


def test_game_places_two_players_by_score():
    game = _finish(ws.Game(ws.Rules.preset("wordsalvo-en"), players=["Ann", "Bob"], seed=1))
    a, b = game.scores
    assert game_places(game) == ((1, 2) if a > b else (2, 1) if b > a else (1, 1))


def test_game_places_the_player_who_left_loses_whatever_the_score():
    game = ws.Game(ws.Rules.preset("wordsalvo-en"), players=["Ann", "Bob"], seed=1)
    game.play(game.best_move())  # Ann leads
    assert game.scores[0] > 0 == game.scores[1]
    game.resign(0)
    assert game_places(game) == (2, 1)


def test_game_places_four_players_with_leavers():
    game = ws.Game(ws.Rules.preset("wordsalvo-en"), players=["A", "B", "C", "D"], seed=2)
    for _ in range(4):
        game.play(game.best_move())
    game.resign(3)  # D leaves first
    game.play(game.best_move())
    game.abandon(1)  # then B (abandoning counts as resigning in this rule set)
    _finish(game)
    places = game_places(game)
    assert places[3] == 4 and places[1] == 3
    a, c = game.scores[0], game.scores[2]
    assert places[0] == (1 if a >= c else 2) and places[2] == (1 if c >= a else 2)
    g = RatedGame(datetime.date(2026, 1, 1), tuple(game.names), places)
    assert len(g.results()) == 6
    assert ("B", "D", 1.0) in g.results() and ("A", "D", 1.0) in g.results()


def test_game_places_needs_a_finished_game():
    game = ws.Game(ws.Rules.preset("wordsalvo-en"), players=["Ann", "Bob"], seed=1)
    with pytest.raises(RatingError, match="expected a finished game"):
        game_places(game)


def test_rated_game_results_and_outcomes():
    d = datetime.date(2026, 3, 1)
    g = RatedGame(d, ("a", "b", "c"), (1, 1, 3))
    assert g.results() == [("a", "b", 0.5), ("a", "c", 1.0), ("b", "c", 1.0)]
    assert [g.outcome(p) for p in "abc"] == ["draw", "draw", "loss"]
    assert RatedGame(d, ("a", "b"), (2, 1)).outcome("b") == "win"
    with pytest.raises(RatingError) as e:
        RatedGame("2026-03-01", ("a", "a"), (1,))
    assert len(e.value.problems) == 3


def test_period_keys():
    d = datetime.date.fromisoformat
    assert period_key(d("2026-03-02"), "day") - period_key(d("2026-03-01"), "day") == 1
    # ISO weeks start on Monday: 2026-03-02 (Mon) .. 2026-03-08 (Sun)
    assert period_key(d("2026-03-01"), "week") + 1 == period_key(d("2026-03-02"), "week") == period_key(
        d("2026-03-08"), "week") == period_key(d("2026-03-09"), "week") - 1
    assert period_key(d("2026-12-31"), "month") + 1 == period_key(d("2027-01-01"), "month")


def _games(*rows):
    return [RatedGame(datetime.date.fromisoformat(day), (a, b), places, f"row {k}")
            for k, (day, a, b, places) in enumerate(rows)]


def test_rate_games_by_day_with_idle_days():
    games = _games(("2026-03-04", "c", "a", (1, 2)), ("2026-03-01", "a", "b", (1, 2)),
                   ("2026-03-01", "b", "c", (1, 1)))
    table = rate_games(games, period="day")
    pool = RatingPool()
    pool.update_period([("a", "b", 1.0), ("b", "c", 0.5)], new_players=True)
    pool.idle_periods(2)  # 2 and 3 March
    pool.update_period([("c", "a", 1.0)])
    assert {s.player: s.rating for s in table} == pool.ratings
    assert [s.player for s in table] == [n for n, _ in pool.standings()]
    stats = {s.player: (s.games, s.wins, s.draws, s.losses) for s in table}
    assert stats == {"a": (2, 1, 0, 1), "b": (2, 0, 1, 1), "c": (2, 1, 1, 0)}


def test_rate_games_periods_differ():
    games = _games(("2026-03-02", "a", "b", (1, 2)), ("2026-03-03", "b", "a", (1, 2)),
                   ("2026-03-10", "a", "b", (1, 2)))
    by_week = {s.player: s.rating for s in rate_games(games, period="week")}
    pool = RatingPool()
    pool.update_period([("a", "b", 1.0), ("b", "a", 1.0)], new_players=True)
    pool.update_period([("a", "b", 1.0)])
    assert by_week == pool.ratings
    by_game = {s.player: s.rating for s in rate_games(games, period="game")}
    pool = RatingPool()
    for r in ([("a", "b", 1.0)], [("b", "a", 1.0)], [("a", "b", 1.0)]):
        pool.update_period(r, new_players=True)
    assert by_game == pool.ratings
    by_month = {s.player: s.rating for s in rate_games(games, period="month")}
    pool = RatingPool()
    pool.update_period([("a", "b", 1.0), ("b", "a", 1.0), ("a", "b", 1.0)], new_players=True)
    assert by_month == pool.ratings
    assert len({tuple(sorted(x.items())) for x in (by_week, by_game, by_month)}) == 3


def test_rate_games_bad_input():
    with pytest.raises(RatingError, match="expected a rating period of day, week, month, game, got 'year'"):
        rate_games([], period="year")
    with pytest.raises(RatingError, match="item 1: expected a RatedGame"):
        rate_games([("2026-03-01", "a", "b")])

"""Master's time: the same candidates at every budget, a game clock shares one budget out."""

import pytest

import wordsalvo as ws
from wordsalvo.engine.bot import MASTER_PLAYS, Bot
from wordsalvo.engine.clock import (BASE_PLAYS, CLEAR, CLOSE, MAX_PLAYS, MIN_SECONDS, GameClock, master_plays)

RULES = ws.Rules.preset("classic-en")


def test_master_plays_the_same_candidates_at_every_budget():
    # growing them with the budget lost games (see wordsalvo.engine.clock)
    assert master_plays(0.25) == BASE_PLAYS == MASTER_PLAYS
    assert master_plays(0.1) == BASE_PLAYS and master_plays(0) == BASE_PLAYS
    assert {master_plays(s) for s in (0.25, 0.5, 1.0, 2.0, 4.0, 16.0, 1e5)} == {BASE_PLAYS}
    assert BASE_PLAYS <= MAX_PLAYS


def test_the_clock_shares_what_is_left_by_the_turns_to_come():
    c = GameClock(60.0)
    early = c.allot(86, 7, 8.0)
    assert early == pytest.approx(60.0 / (1 + 86 / 7))
    # close candidates get more, clear ones less, the decisive turns more
    assert c.allot(86, 7, CLOSE) > early > c.allot(86, 7, CLEAR)
    assert c.allot(5, 7, 8.0) > c.allot(14, 7, 8.0)
    # never more than half of what is left, never less than the floor
    assert c.allot(0, 7, 0.0) == pytest.approx(30.0)
    c.charge(59.99)
    assert c.remaining == pytest.approx(0.01) and c.allot(30, 7, 8.0) == MIN_SECONDS
    c.charge(5.0)
    assert c.remaining == 0.0 and c.moves == 2


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "10", True])
def test_a_bad_game_budget_is_named(bad):
    with pytest.raises(ws.GameError, match="game_seconds"):
        GameClock(bad)
    with pytest.raises(ws.GameError, match="game_seconds"):
        Bot("master", RULES, game_seconds=bad)


def test_master_on_a_game_clock_stays_within_it_and_keeps_one_clock_a_game():
    g = ws.Game(RULES, seed=5)
    other = ws.Game(RULES, seed=6)
    bot = Bot("master", RULES, seed=1, game_seconds=3.0, cpu_time=True)
    expert = Bot("expert", RULES)
    while not g.is_over:
        g.apply(bot.choose(g) if g.to_move == 0 else expert.choose(g))
    clock = bot.clock(g)
    assert clock.moves >= 5
    # the shares are taken from what is left: the game ends within its budget plus the
    # overrun of one move (a simulation stops at a round's end) and the set-up of each move
    assert clock.used < 3.0 + 1.5
    assert bot.clock(other).used == 0.0  # another game, another clock


def test_master_on_a_game_clock_gives_the_endgame_and_the_pre_endgame_its_share(monkeypatch):
    """The solvers of the last turns get the clock's share of the move as a time limit, not
    the per-move ``seconds`` (under a slow build a game of 3 s took 13: the endgame had the
    bot's own second each turn, the pre-endgame 500,000 turns a second of it)."""
    from wordsalvo.engine import endgame as endgame_module
    from wordsalvo.engine import pre_endgame as peg_module

    calls, mine = [], []
    real_endgame, real_peg = endgame_module.solve_endgame, peg_module.solve_pre_endgame

    def endgame(*args, **kwargs):
        calls.append(("endgame", kwargs.get("seconds"), kwargs.get("nodes"), bool(mine)))
        return real_endgame(*args, **kwargs)

    def peg(*args, **kwargs):
        calls.append(("peg", kwargs.get("seconds"), kwargs.get("nodes"), bool(mine)))
        return real_peg(*args, **kwargs)

    monkeypatch.setattr(endgame_module, "solve_endgame", endgame)
    monkeypatch.setattr(peg_module, "solve_pre_endgame", peg)
    game_seconds = 2.0
    bot = Bot("master", RULES, seed=1, seconds=30, game_seconds=game_seconds, cpu_time=True)
    expert = Bot("expert", RULES)
    g = ws.Game(RULES, seed=5)
    while not g.is_over:
        if g.to_move == 0 and g.bag_count <= 2 * RULES.rack_size:  # master plays the last turns
            mine.append(1)
            try:
                g.apply(bot.choose(g))
            finally:
                mine.pop()
        else:
            g.apply(expert.choose(g))
    masters = [c for c in calls if c[3]]
    assert masters, calls  # the game reached a pre-endgame or an endgame with master on turn
    for kind, seconds, nodes, _ in masters:
        assert seconds is not None and 0 < seconds <= game_seconds, (kind, seconds)
        if kind == "peg":
            assert nodes <= 500_000 * game_seconds, nodes


def test_master_with_an_iteration_budget_replays_its_choice():
    def first_moves(seed):
        g = ws.Game(RULES, seed=11)
        bot = Bot("master", RULES, seed=seed, iterations=40)
        out = []
        for _ in range(3):
            a = bot.choose(g)
            out.append(str(a))
            g.apply(a)
        return out

    assert first_moves(2) == first_moves(2)
    with pytest.raises(ws.GameError, match="iterations"):
        Bot("master", RULES, iterations=0)
    with pytest.raises(ws.GameError, match="got both"):
        Bot("master", RULES, iterations=5, game_seconds=10)

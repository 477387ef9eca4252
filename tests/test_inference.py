"""Inference of the opponent's kept tiles (wordsalvo.engine.inference) and the simulation
that draws from it."""

import copy
import json
import math
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

import wordsalvo as ws
from wordsalvo import Game, Leaves, MoveGenerator, Rules
from wordsalvo.engine.inference import (DEFAULT_MARGIN, Inference, InferenceError, _count_multisets, _multisets,
                                        infer, infer_game, position_before)
from wordsalvo.engine.simulation import Simulator, simulate
from wordsalvo.formats.cgp import format_cgp

RULES = Rules.preset("classic-en")


def _game_until(seed: int, bag_at_most: int) -> Game:
    """A game of two equity players until the bag holds at most ``bag_at_most`` tiles."""
    g = Game(RULES, seed=seed)
    while g.bag_count > bag_at_most and not g.is_over:
        m = g.best_move(by="equity")
        if m is None:
            g.pass_turn()
        else:
            g.play(m)
    return g


def _last_play_game(seed: int, bag_at_most: int) -> Game:
    """Such a game whose last turn (by the player not on turn) was a play."""
    g = _game_until(seed, bag_at_most)
    assert not g.is_over and g.history[-1].kind == "play", g.history[-1]
    return g


def test_multisets_count_and_weights():
    pool = Counter("AABBBC?")
    for k in range(0, 8):
        items = list(_multisets(pool, k))
        assert len(items) == _count_multisets(pool, k)
        assert len({t for t, _w in items}) == len(items)
        # the weights count the draws: together every k-subset of the 7 tiles
        assert sum(w for _t, w in items) == math.comb(7, k)


def test_the_equity_players_leave_is_among_the_inferred_ones():
    # an equity player chose the play, so its real leave is consistent with it (margin 0 would
    # do; the default margin keeps more); exhaustive with a small pool
    found_any = False
    for seed in (1, 2, 3, 4):
        g = _last_play_game(seed, 12)
        before = copy.deepcopy(g)
        before.undo()
        real_rack = before.rack
        last = g.history[-1]
        inf = infer_game(g, limit=1_000_000)
        assert inf is not None and inf.exhaustive
        played = Counter(inf.played)
        kept = Counter(real_rack)
        kept.subtract(played)
        real_leave = "".join(sorted((+kept).elements()))
        leaves = {"".join(sorted(t)): w for t, w in inf.leaves}
        assert real_leave in leaves, (seed, last, real_rack, inf.table(5))
        assert abs(sum(leaves.values()) - 1.0) < 1e-9
        found_any = True
    assert found_any


def test_exhaustive_inference_equals_the_full_move_lists():
    # the oracle: for every leave, the best equity of the *whole* move list (and the best
    # exchange), against the bounded search the inference uses
    g = _last_play_game(5, 10)
    inf = infer_game(g, limit=1_000_000, margin=3.0)
    before = copy.deepcopy(g)
    before.undo()
    pos = before.position()
    racks = list(pos.racks)
    racks[0] = ""
    racks[1] = g.rack
    pos = ws.Position(RULES, pos.board, racks, pos.scores, pos.scoreless_count, to_move=0)
    leaves = Leaves.default(RULES)
    gen = MoveGenerator(g.lexicon, RULES, leaves)
    unseen = pos.unseen()
    unseen.subtract(g.rack)
    unseen = +unseen
    rest = unseen.copy()
    rest.subtract(inf.played)
    rest = +rest
    k = min(RULES.rack_size - len(inf.played), sum(rest.values()))
    notation = g.history[-1].notation
    expected: dict[str, float] = {}
    for leave, ways in _multisets(rest, k):
        rack = inf.played + leave
        p = pos.with_rack(rack)
        ml = gen.generate(p)
        eq = ml.equities
        best = float(np.max(eq)) if len(ml) else -math.inf
        swap = gen.best_swap(p)
        if swap is not None:
            best = max(best, float(swap.equity))
        mine = [float(e) for m, e in zip(ml, eq) if m.notation == notation]
        assert len(mine) == 1
        if best <= mine[0] + 3.0 + 1e-6:
            key = "".join(sorted(leave))
            expected[key] = expected.get(key, 0) + ways
    total = sum(expected.values())
    got = {"".join(sorted(t)): w for t, w in inf.leaves}
    assert set(got) == set(expected)
    for key, w in expected.items():
        assert got[key] == pytest.approx(w / total)


def test_a_sample_when_there_are_more_leaves_than_the_limit_is_deterministic():
    g = _last_play_game(3, 60)
    a = infer_game(g, limit=300, seed=7)
    b = infer_game(g, limit=300, seed=7)
    assert a is not None and not a.exhaustive and a.racks <= 300
    assert a == b
    assert a.leaves and abs(sum(w for _t, w in a.leaves) - 1.0) < 1e-9
    chances = a.letter_chances()
    assert all(0.0 < v <= 1.0 + 1e-12 for v in chances.values())
    assert "inference from a play" in a.table(3) and "<table>" in a._repr_html_()
    assert json.loads(json.dumps(a.to_dict()))["kept"] == a.kept


def test_position_before_takes_the_play_off_the_board():
    g = _last_play_game(2, 40)
    before = copy.deepcopy(g)
    before.undo()
    after = g.position()
    pos, move = position_before(after, g.history[-1].notation)
    expected = before.position()
    assert bytes(pos.board.tiles) == bytes(expected.board.tiles)
    assert pos.to_move == 1 and pos.racks[0] == after.racks[0]
    assert pos.scores[1] == after.scores[1] - g.history[-1].score
    assert move.score == g.history[-1].score


@pytest.mark.parametrize("bad, match", [
    (dict(play=None), "either a play or exchanged"),
    (dict(play="8H QI", exchanged=2), "either a play or exchanged"),
    (dict(play=None, exchanged=9), "exchanged: expected a whole number 0..7"),
    (dict(play=None, exchanged=2, margin=float("nan")), "margin"),
    (dict(play=None, exchanged=2, limit=0), "limit"),
    (dict(play=5), "play: expected a Move or a notation"),
])
def test_bad_arguments_are_named(bad, match):
    g = _last_play_game(2, 40)
    before = copy.deepcopy(g)
    before.undo()
    pos = before.position()
    play = bad.pop("play")
    with pytest.raises(InferenceError, match=match):
        infer(pos, play, **bad)


def test_position_before_refuses_a_play_not_on_the_board():
    pos = ws.Position.empty(RULES, "AEINRST")
    with pytest.raises(InferenceError, match="empty on the board"):
        position_before(pos, "8H RETAINS")


def test_simulation_draws_from_the_inference_and_is_reproducible():
    g = _last_play_game(3, 50)
    inf = infer_game(g, limit=400, seed=1)
    assert inf is not None and len(inf)
    kw = dict(iterations=60, sampling="rr", seed=11, plays=4)
    a = simulate(g, infer=inf, **kw)
    b = simulate(g, infer=inf, **kw)
    c = simulate(g, infer=inf, threads=2, **kw)
    plain = simulate(g, **kw)
    assert a.table() == b.table() == c.table()
    assert a.table() != plain.table()  # another opponent rack: other rollouts
    with pytest.raises(ws.WordSalvoError, match="infer: expected an Inference"):
        Simulator(g, infer="yes", iterations=5)


def test_a_one_leave_inference_puts_those_tiles_on_the_opponents_rack():
    # with every tile of the leave certain, the rollouts are those of a rack holding it: the
    # opponent keeping ?? does better than the same simulation drawn uniformly
    g = _last_play_game(3, 50)
    assert g.position().unseen()["?"] == 2  # both blanks unseen by the player on turn
    sure = Inference((("??", 1.0),), "", 0, 1, 1, True, DEFAULT_MARGIN)
    kw = dict(iterations=200, sampling="rr", seed=3, plays=3, plies=1)
    blanks = simulate(g, infer=sure, **kw)
    plain = simulate(g, **kw)
    # the opponent's reply in a rollout is better with two blanks: every candidate loses equity
    for row in blanks.rows:
        other = next(r for r in plain.rows if r.move == row.move)
        assert row.equity < other.equity


def test_cli_sim_infer(tmp_path):
    g = _last_play_game(3, 50)
    line = format_cgp(g.position())
    out = subprocess.run([sys.executable, "-m", "wordsalvo", "sim", "--cgp", line, "--iterations", "20",
                          "--plays", "3", "--infer", g.history[-1].notation, "--json"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "inference from a play" in out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])["plays"]
    bad = subprocess.run([sys.executable, "-m", "wordsalvo", "sim", "--cgp", line, "--iterations", "5",
                          "--infer", "8H ZZZZZZ"], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_master_with_inference_chooses_and_checks_its_flag():
    from wordsalvo.engine.bot import Bot

    g = _last_play_game(3, 50)
    a = Bot("master", RULES, seed=2, seconds=0.05, cpu_time=True, infer=True)
    assert a.infer is True
    assert a.choose(copy.deepcopy(g)) is not None
    with pytest.raises(ws.GameError, match="infer: expected True or False"):
        Bot("master", RULES, infer="yes")

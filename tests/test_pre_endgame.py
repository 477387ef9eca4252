"""The pre-endgame solver (wordsalvo.engine.pre_endgame) against a plain brute force on
tiny positions: the real board of a game at the end, a rack of 1-2 tiles for the mover,
2-3 unseen tiles (1-2 in the bag, the rest the opponent's rack).

The brute force deals every ORDERING of the unseen tile instances (the bag is the first
``bag`` of them, drawn in that order; the opponent holds the rest), plays the candidate,
lets the players make the best static-equity play while the bag holds tiles, and values
the endgame once the bag is empty by the plain minimax of tests/test_endgame.py; the
solver's enumeration of distinct draws with their probabilities must give the same win
chance and mean spread for every candidate."""

from __future__ import annotations

import functools
import itertools
import math

import pytest

import wordsalvo as ws
from test_endgame import _board_at_bag_empty, _reference
from wordsalvo.actions import Pass
from wordsalvo.engine.pre_endgame import DEFAULT_CANDIDATES, _played_counts, _solve, scenarios, solve_pre_endgame
from wordsalvo.errors import PositionError, WordSalvoError
from wordsalvo.gamestate import state_from_position
from wordsalvo.moves import Move


@functools.lru_cache(maxsize=None)
def _gen(name):
    rules = ws.Rules.preset(name)
    return rules, ws.Lexicon.default("en"), ws.MoveGenerator(ws.Lexicon.default("en"), rules)._gen


def _brute(state, me, gen, table, memo):
    """The mover's final spread when the unseen tiles lie in ``order`` (the bag first,
    drawn in order) after the candidate was played on ``state`` (its opponent's rack and
    bag set from ``order``); the equity player while the bag holds tiles, then minimax."""
    while not state.is_over and state.bag_count:
        p = state.to_move
        state.load(gen, table, True)
        recs, _eq = gen.best_equity(1)
        if len(recs) == 0:
            state.pass_turn()
            continue
        rec = recs[0]
        played = _played_counts(rec)
        rack = bytearray(state.rack(p))
        for c, k in played.items():
            rack[c] -= k
        bag = list(state.bag_codes)
        state.play_record(rec)
        if state.is_over:
            break
        n = min(sum(played.values()), len(bag))
        for c in bag[:n]:
            rack[c] += 1
        racks = [state.rack(0), state.rack(1)]
        racks[p] = bytes(rack)
        state.set_tiles(racks, bytes(bag[n:]))
        state.bag_codes = bag[n:]
    if state.is_over:
        return state.spread(me)
    gain = _reference(state.st.copy(), gen, memo)
    p = state.to_move
    total = state.spread(p) + gain
    return total if p == me else -total


class _State:
    """A GameState and the order of its bag (the C state draws at random; the brute force
    deals the bag's order itself)."""

    def __init__(self, st, bag):
        self.st, self.bag_codes = st, list(bag)

    def __getattr__(self, name):
        return getattr(self.st, name)

    def copy(self):
        return _State(self.st.copy(), self.bag_codes)


def _brute_candidate(base, me, gen, table, rack, cand, unseen, bag, memo):
    """(win chance, mean spread) of ``cand`` (a record or None: pass) over every ordering."""
    tiles = [c for c in sorted(unseen) for _ in range(unseen[c])]
    wins = spread = 0.0
    perms = list(itertools.permutations(range(len(tiles))))
    for perm in perms:
        order = [tiles[i] for i in perm]
        bag_tiles, opp = order[:bag], order[bag:]
        st = base.copy()
        racks = [bytes(33), bytes(33)]
        racks[me] = bytes(rack)
        opp_counts = bytearray(33)
        for c in opp:
            opp_counts[c] += 1
        racks[1 - me] = bytes(opp_counts)
        st.set_tiles(racks, bytes(bag_tiles))
        s = _State(st, bag_tiles)
        if cand is None:
            s.pass_turn()
        else:
            played = _played_counts(cand)
            mine = bytearray(rack)
            for c, k in played.items():
                mine[c] -= k
            s.play_record(cand)
            n = min(sum(played.values()), bag)
            for c in bag_tiles[:n]:
                mine[c] += 1
            r = [s.rack(0), s.rack(1)]
            r[me] = bytes(mine)
            s.set_tiles(r, bytes(bag_tiles[n:]))
            s.bag_codes = bag_tiles[n:]
        v = _brute(s, me, gen, table, memo)
        wins += 1.0 if v > 0 else 0.5 if v == 0 else 0.0
        spread += v
    return wins / len(perms), spread / len(perms)


def _tiny(name, seed, mine, opp, bag_tiles, scores):
    """A tiny pre-endgame: the board of a game at its end, ``mine`` on the rack, the
    unseen tiles ``opp + bag_tiles`` (``len(bag_tiles)`` in the bag)."""
    rules, lexicon, gen = _gen(name)
    pos, _tiles = _board_at_bag_empty(name, seed)
    tiny = ws.Position(rules, pos.board.copy(), [mine, ""], list(scores), 0, to_move=0)
    state = state_from_position(tiny, bag="")
    code = rules.alphabet.code
    unseen = {}
    for ch in opp + bag_tiles:
        c = 0 if ch == "?" else code(ch)
        unseen[c] = unseen.get(c, 0) + 1
    return rules, lexicon, gen, tiny, state, unseen, len(bag_tiles)


_SLOW = pytest.mark.slow
CASES = [
    pytest.param("classic-en", 1, "ER", "AT", "S", (300, 310), marks=_SLOW),
    pytest.param("classic-en", 2, "AI", "NE", "T", (250, 240), marks=_SLOW),
    pytest.param("wordsalvo-en", 1, "EO", "RS", "T", (200, 205), marks=_SLOW),
    ("classic-en", 3, "QI", "AE", "R", (100, 95)),
    ("classic-en", 1, "AE", "T", "RS", (300, 300)),
    ("wordsalvo-en", 2, "IN", "O", "ES", (180, 190)),
]


@pytest.mark.parametrize("name,seed,mine,opp,bag_tiles,scores", CASES)
def test_every_candidate_equals_a_brute_force_over_every_ordering(name, seed, mine, opp, bag_tiles, scores):
    rules, lexicon, gen, pos, state, unseen, bag = _tiny(name, seed, mine, opp, bag_tiles, scores)
    leaves = ws.Leaves.default(rules)
    records = state.moves(gen)
    moves = [Move.from_record(records[i], state.board, rules.alphabet, rules.rack_size) for i in range(len(records))]
    moves = sorted(moves, key=lambda m: (-m.score, m.notation))[:8]  # the brute force is slow: 8 plays and the pass
    result = _solve(state, rules, lexicon, leaves, unseen, bag, candidates=[*moves, None], schedule=((None, None),))
    assert result.stop == "done" and len(result.candidates) == len(moves) + 1
    by_action = {c.action: c for c in result.candidates}
    rack = state.rack(0)
    memo: dict = {}
    for m in [*moves, None]:
        rec = None if m is None else m.to_record()
        want_win, want_spread = _brute_candidate(state, 0, gen, leaves._table, rack, rec, unseen, bag, memo)
        got = by_action["pass" if m is None else m.notation]
        assert got.complete and got.exact == got.total_draws
        assert got.win == pytest.approx(want_win, abs=1e-9), got
        assert got.spread == pytest.approx(want_spread, abs=1e-9), got


def test_the_draw_probabilities_sum_to_one_and_count_the_tile_orderings():
    unseen = {1: 2, 5: 3, 0: 1, 9: 4}
    for bag in range(1, 5):
        for draw in range(0, bag + 1):
            sc = scenarios(unseen, bag, draw)
            assert math.isclose(sum(p for *_x, p in sc), 1.0)
            for drawn, left, opp, _p in sc:
                assert sum(drawn.values()) == draw and sum(left.values()) == bag - draw
                assert sum(opp.values()) == 10 - bag
    # 2 of AAB in a bag of 2, the mover drawing one: (A | A), (A | B), (B | A)
    sc = {(tuple(d.items()), tuple(b.items())): p for d, b, _o, p in scenarios({1: 2, 2: 1}, 2, 1)}
    assert sc == pytest.approx({(((1, 1),), ((1, 1),)): 1 / 3, (((1, 1),), ((2, 1),)): 1 / 3,
                                (((2, 1),), ((1, 1),)): 1 / 3})


@functools.lru_cache(maxsize=None)
def _game_with_bag(most: int, seed: int = 1):
    """A classic-en game of the equity player stopped when the bag first holds ``most``
    or fewer tiles (the first seed from ``seed`` on where that is 1 or more)."""
    rules = ws.Rules.preset("classic-en")
    lex = ws.Lexicon.default("en")
    bot = ws.Bot("equity", rules, lex)
    while True:
        game = ws.Game(rules, lex, seed=seed)
        while game.bag_count > most and not game.is_over:
            game.apply(bot.choose(game))
        if game.bag_count >= 1 and not game.is_over:
            return game
        seed += 1


def test_a_node_budget_gives_the_same_answer_twice_and_ranks_complete_candidates_first():
    game = _game_with_bag(4, seed=3)
    a = solve_pre_endgame(game, nodes=150_000, candidates=4)
    b = solve_pre_endgame(game.position(), game.lexicon, nodes=150_000, candidates=4)
    assert a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}
    assert a.nodes <= 150_000 + a.solves and a.stop in ("nodes", "done")  # a solve may pass its limit by a turn
    assert a.best.complete or not any(c.complete for c in a.candidates)
    flags = [c.complete for c in a.candidates]
    assert flags == sorted(flags, reverse=True)
    assert "win" in repr(a) and "<table>" in a._repr_html_()


def test_the_default_field_is_wide_with_one_or_two_tiles_in_the_bag_and_narrow_with_more():
    # a time limit spent at once: every candidate is listed, none valued (the field is what is asked)
    for most, low, high in ((2, 1, 2), (4, 3, 4)):
        seed = 3
        while not low <= (game := _game_with_bag(most, seed=seed)).bag_count <= high:
            seed += 1
        bag = game.bag_count
        plays = len(game.top(1000, by="equity"))
        result = solve_pre_endgame(game, seconds=1e-9)
        assert DEFAULT_CANDIDATES[bag] == (64 if bag <= 2 else 16)
        assert len(result.candidates) == min(plays, DEFAULT_CANDIDATES[bag]) + 1  # and the pass
        assert result.stop == "time"


def test_bad_input_is_refused_with_what_was_expected():
    game = _game_with_bag(9, seed=2)
    assert game.bag_count > 4
    with pytest.raises(PositionError, match="1-4 tiles in the bag"):
        solve_pre_endgame(game, nodes=10)
    with pytest.raises(WordSalvoError, match="nodes"):
        solve_pre_endgame(game, nodes=0)
    with pytest.raises(WordSalvoError, match="seconds"):
        solve_pre_endgame(game, seconds=-1)
    with pytest.raises(WordSalvoError, match="Position or a Game"):
        solve_pre_endgame("not a position")


def test_expert_plays_the_pre_endgame_solvers_move_and_replays_it():
    from wordsalvo.engine.bot import EXPERT_PEG_NODES, EXPERT_PEG_PLAYS, EXPERT_PEG_SCHEDULE

    game = _game_with_bag(1, seed=21)
    rules, lexicon = game.rules, game.lexicon
    action = ws.Bot("expert", rules, lexicon, seed=5).choose(game)
    again = ws.Bot("expert", rules, lexicon, seed=9).choose(game)
    assert action == again
    moves = game.top(EXPERT_PEG_PLAYS, by="equity", leaves=ws.Leaves.default(rules))
    result = solve_pre_endgame(game, nodes=EXPERT_PEG_NODES, candidates=[*moves, None],
                               schedule=EXPERT_PEG_SCHEDULE)
    want = result.best.action
    got = "pass" if isinstance(action, Pass) else action.move.notation
    assert got == want
    # the control player plays the same turn by equity
    plain = ws.Bot("expert", rules, lexicon, pre_endgame=False).choose(game)
    assert plain == ws.Bot("equity", rules, lexicon).choose(game) or plain.move.notation == moves[0].notation


def test_a_cpu_time_limit_reads_the_process_clock(monkeypatch):
    # cpu_time=True: the limit is CPU time of this process (a clock that does not move: the
    # search runs to its node budget; a clock past the limit: it stops at once)
    import time as time_module

    game = _game_with_bag(2, seed=4)
    monkeypatch.setattr(time_module, "process_time", lambda: 100.0)
    still = solve_pre_endgame(game, seconds=1e-6, nodes=2_000, candidates=3, cpu_time=True)
    assert still.stop in ("nodes", "done") and still.nodes > 0
    ticks = iter(range(0, 10**6, 10))
    monkeypatch.setattr(time_module, "process_time", lambda: float(next(ticks)))
    spent = solve_pre_endgame(game, seconds=1.0, nodes=2_000, candidates=3, cpu_time=True)
    assert spent.stop == "time" and spent.nodes == 0
    with pytest.raises(WordSalvoError, match="cpu_time"):
        solve_pre_endgame(game, seconds=1.0, cpu_time="yes")


def test_master_caps_its_pre_endgame_by_the_moves_budget(monkeypatch):
    # a node budget alone overran the move's time with 3-4 tiles in the bag (the draws' own
    # work): master gives the solver its budget as a time limit too, in CPU time when it
    # counts CPU time, and nodes alone with an iteration budget (the same answer anywhere)
    from wordsalvo.engine import pre_endgame

    game = _game_with_bag(3, seed=6)
    seen = []
    real = pre_endgame.solve_pre_endgame

    def spy(*args, **kwargs):
        seen.append((kwargs.get("seconds"), kwargs.get("cpu_time"), kwargs.get("nodes")))
        return real(*args, **kwargs)

    monkeypatch.setattr(pre_endgame, "solve_pre_endgame", spy)
    ws.Bot("master", game.rules, game.lexicon, seconds=0.05, cpu_time=True).choose(game)
    ws.Bot("master", game.rules, game.lexicon, seconds=0.05).choose(game)
    ws.Bot("master", game.rules, game.lexicon, iterations=4).choose(game)
    assert seen[0][:2] == (0.05, True) and seen[1][:2] == (0.05, False)
    assert seen[2][0] is None and seen[2][2] > 0

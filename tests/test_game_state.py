"""The C game state (csrc/ws_game.c, wordsalvo.gamestate).

Oracles: the rules of a turn in plain Python (tests/reference_game.py, the code Game
ran before they moved to C) on every rule set, rule variants that reach every end,
swap, settlement and time-out branch, and 2 to 4 players; exact undo (the state's
bytes and its hash after random turns and their undo, the hash recomputed from
scratch at every step, the generator's cross sets against a fresh generator); the
generator's own answers for the positions the state hands it.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from game_helpers import RULE_SETS, lexicon_for, variant
from game_helpers import VARIANTS as RULE_VARIANTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_game import ReferenceGame

import wordsalvo as ws
from wordsalvo import Game, GameError, Rules
from wordsalvo._core import _engine
from wordsalvo.gamestate import GameState, game_rules, letter_counts, state_from_position

#: rule variants of classic-en (section -> {key: TOML value}): those of self-play and the clock's
VARIANTS = {
    **RULE_VARIANTS,
    "timeout-lose": dict(timer={"per_move_seconds": "60", "on_timeout": '"lose"'}),
    "timeout-eliminate": dict(timer={"per_move_seconds": "60", "eliminate_after_timeouts": "2",
                                     "timeout_counts_as_pass": "true"},
                              end={"consecutive_passes": "5", "scoreless_turns": "0"}),
    "timeout-scoreless": dict(timer={"per_move_seconds": "60"},
                              end={"scoreless_turns": "3",
                                   "scoreless_turn_kinds": '["pass", "timeout", "zero-score-play"]'}),
}


@pytest.fixture(scope="module")
def rule_sets(tmp_path_factory):
    """Every preset and every variant, with its lexicon."""
    folder = tmp_path_factory.mktemp("rules")
    out = {}
    for name in RULE_SETS:
        rules = Rules.preset(name)
        out[name] = (rules, lexicon_for(rules, folder))
    for name, sections in VARIANTS.items():
        rules = Rules.load(variant(folder, "classic-en", **sections))
        out[name] = (rules, lexicon_for(rules, folder))
    return out


ALL = sorted(set(RULE_SETS) | set(VARIANTS))


# -- the rules of a turn against the Python reference ------------------------------------------
def letters(game: Game, codes: bytes) -> list[str]:
    return list(game._letters_of(codes))


def same(game: Game, ref: ReferenceGame, where: str) -> None:
    c = game._s.c
    assert letters(game, c.bag) == ref.bag, where  # the bag's order too
    assert game.racks == ref.racks, where
    assert game.scores == ref.scores, where
    assert bytes(game.board.tiles) == bytes(ref.board), where
    assert game.is_over == ref.is_over and game.end_reason == ref.end_reason, where
    assert game.winners == ref.winners and game.players_left == ref.left(), where
    assert game.pass_count == ref.pass_count and game.scoreless_count == ref.scoreless, where
    assert list(c.timeouts) == ref.timeouts, where
    if not game.is_over:
        assert game.to_move == ref.to_move, where
    got = [(t.player, t.kind if t.kind != "zero-score-play" else "play", t.score, t.total, t.rack_owner)
           for t in game.history]
    assert got == ref.history, where
    assert c.hash == c.hash_full(), where


def random_turns(game: Game, ref: ReferenceGame, rng: random.Random, turns: int) -> None:
    rules = game.rules
    clock = rules.timer.per_move_seconds or rules.timer.table_may_choose
    for k in range(turns):
        if game.is_over:
            return
        where = f"{rules.name} turn {k}"
        x = rng.random()
        rack = game.rack
        if x < 0.004 and rules.resign.allowed:
            p = rng.choice(game.players_left)
            game.resign(p)
            ref.resign(p)
        elif x < 0.06 and game.bag_count > 2 * rules.rack_size:
            # set_rack of a record: tiles from the bag, else from another rack
            p = game.to_move
            pool = game.bag + [ch for q, r in enumerate(game.racks) if q != p for ch in r]
            new = "".join(rng.sample(pool, min(len(pool), rules.rack_size)))
            game.set_rack(p, new)
            ref.set_rack(p, new)
        elif x < 0.18 and rack:
            tiles = rack if rules.swap.whole_rack or rng.random() < 0.3 else "".join(
                rng.sample(rack, rng.randint(1, len(rack))))
            if ref.swap_allowed(tiles):
                game.swap(tiles)
                ref.swap(tiles)
            else:
                with pytest.raises(GameError, match="swap"):
                    game.swap(tiles)
        elif x < 0.26:
            game.pass_turn()
            ref.simple("pass")
        elif x < 0.32 and clock:
            game.timeout()
            ref.timeout()
        else:
            moves = game.legal_moves()
            if not len(moves):
                game.pass_turn()
                ref.simple("pass")
            else:
                m = moves[rng.randrange(len(moves))] if rng.random() < 0.5 else game.best_move()
                game.play(m)
                ref.play(m.row, m.col, m.direction, m.tiles, m.score)
        same(game, ref, where)


@pytest.mark.parametrize("name", ALL)
def test_turn_rules_equal_the_python_reference(rule_sets, name):
    rules, lexicon = rule_sets[name]
    for seed in range(3):
        for players in sorted({rules.players.min, rules.players.max} - {1}):
            game = Game(rules, lexicon, players=players, seed=seed * 7 + players)
            ref = ReferenceGame(rules, players, seed * 7 + players)
            same(game, ref, f"{name} deal")
            random_turns(game, ref, random.Random(f"{name}-{seed}-{players}"), 400)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALL), st.integers(2, 4), st.integers(-(2**70), 2**70), st.integers(0, 2**32))
def test_any_seed_and_policy_equal_the_python_reference(rule_sets, name, players, seed, policy):
    rules, lexicon = rule_sets[name]
    players = min(max(players, rules.players.min), rules.players.max)
    game = Game(rules, lexicon, players=players, seed=seed)
    ref = ReferenceGame(rules, players, seed)
    same(game, ref, "deal")
    random_turns(game, ref, random.Random(policy), 60)


def test_refused_plays_count_as_passes_and_scoreless_turns(rule_sets):
    """Strict mode's refused play (woodword-de): the C state's turn, the reference's."""
    rules, lexicon = rule_sets["woodword-de"]
    game = Game(rules, lexicon, players=2, seed=4, strict=True)
    ref = ReferenceGame(rules, 2, 4)
    for _ in range(3):
        c = game._s.c
        c.refused()  # the turn as Game.play takes it for a refused word
        game._changed()
        ref.simple("refused-play")
        assert (game.pass_count, game.scoreless_count, game.to_move) == (ref.pass_count, ref.scoreless,
                                                                         ref.to_move)


# -- exact undo and the hash ----------------------------------------------------------------------
def c_turns(state: GameState, gen, rules: Rules, rng: random.Random, turns: int) -> list[bytes]:
    """Random turns on the C state alone (plays from the generator, swaps, passes,
    refused plays, time-outs, resignations); the raw state before each."""
    seen = []
    for _ in range(turns):
        if state.is_over:
            break
        seen.append(state.raw())
        assert state.hash == state.hash_full()
        x = rng.random()
        p = state.to_move
        if x < 0.15 and state.swap_allowed(state.rack_total(p)):
            codes = list(state.rack_codes(p))
            if not rules.swap.whole_rack:
                codes = rng.sample(codes, rng.randint(1, len(codes)))
            counts = bytearray(33)
            for t in codes:
                counts[t] += 1
            if state.swap_check(bytes(counts)) is None:
                state.swap(bytes(counts))
                continue
        if x < 0.22:
            state.pass_turn()
        elif x < 0.26:
            state.refused()
        elif x < 0.30:
            state.timeout()
        elif x < 0.305 and len(state.players_left) > 2:
            state.resign(rng.choice(state.players_left))
        else:
            records = state.moves(gen)
            if len(records):
                state.play_record(records[rng.randrange(len(records))])
            else:
                state.pass_turn()
    return seen


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALL), st.integers(2, 4), st.integers(0, 2**40), st.integers(0, 2**32), st.integers(1, 120))
def test_random_turns_then_undo_restore_every_byte_and_the_hash(rule_sets, name, players, seed, policy, turns):
    rules, lexicon = rule_sets[name]
    players = min(max(players, rules.players.min), rules.players.max)
    gen = ws.MoveGenerator(lexicon, rules)._gen
    state = GameState(game_rules(rules, players), seed)
    start, start_hash = state.raw(), state.hash
    seen = c_turns(state, gen, rules, random.Random(policy), turns)
    assert state.undo_depth == len(seen)
    for before in reversed(seen):
        state.undo()
        assert state.raw() == before
        assert state.hash == state.hash_full()
    assert state.raw() == start and state.hash == start_hash
    with pytest.raises(ws.PositionError, match="undo"):
        state.undo()
    # the generator's cross sets after all those boards are those of a fresh generator
    state.load(gen)
    fresh = ws.MoveGenerator(lexicon, rules)._gen
    state.load(fresh)
    assert gen.board_data() == fresh.board_data()


def test_undo_does_not_rewind_the_random_stream_and_a_copy_does(rule_sets):
    rules, lexicon = rule_sets["classic-en"]
    gen = ws.MoveGenerator(lexicon, rules)._gen
    state = GameState(game_rules(rules, 2), 5)
    saved = state.copy()
    best, _eq = state.best(gen)
    state.play_record(best[0])
    drawn = state.rack(0)
    state.undo()
    assert state.raw() == saved.raw() and state.rng_state() != saved.rng_state()
    state.play_record(best[0])
    assert state.rack(0) != drawn  # other tiles: the stream went on
    again = saved.copy()
    again.play_record(best[0])
    assert again.rack(0) == drawn  # a copy replays the same draws


def test_transpositions_have_one_hash(rule_sets):
    """Two plays in either order (the bag empty: no draws) give the same state and hash."""
    rules, lexicon = rule_sets["classic-en"]
    gen = ws.MoveGenerator(lexicon, rules)._gen
    state = GameState(game_rules(rules, 2))
    state.set_tiles([letter_counts(rules, "CATSDOG"), letter_counts(rules, "EEIIOUU")], b"")
    board = bytearray(225)
    for i, ch in enumerate("HOUSE"):
        board[7 * 15 + 5 + i] = rules.alphabet.code(ch)
    state.set_board(bytes(board))
    moves = state.moves(gen)
    for i in range(len(moves)):
        for j in range(i + 1, len(moves)):
            results = []
            for first, second in ((moves[i], moves[j]), (moves[j], moves[i])):
                s = state.copy()
                try:
                    s.play_record(first)
                    s.pass_turn()
                    s.play_record(second)  # its squares free and its tiles left: it fits
                except ws.PositionError:
                    break
                s.pass_turn()
                results.append((s.hash, s.raw()))
            if len(results) == 2:
                assert results[0] == results[1] and results[0][0] != state.hash
                return
    pytest.fail("no two plays that fit together")


# -- the state for the simulator and the solver -----------------------------------------------------
def test_state_from_a_position_holds_the_unseen_tiles_in_the_bag(rule_sets):
    rules, lexicon = rule_sets["wordsalvo-en"]
    game = Game(rules, lexicon, seed=3)
    for _ in range(6):
        game.play(game.best_move())
    pos = game.position()  # the player on turn first
    pos.racks[1] = ""  # the opponent's rack unknown: it is in the bag
    state = state_from_position(pos, seed=11)
    assert state.board == bytes(game.board.tiles) and state.to_move == 0
    assert state.scores == tuple(pos.scores) and state.scoreless_count == pos.scoreless_count
    unseen = sorted(game.bag + list(game.racks[1 - game.to_move]))
    assert sorted(game._letters_of(state.bag)) == unseen
    assert state.unseen() == letter_counts(rules, unseen)
    state.draw(1, 7)  # a simulation's draw of the opponent's rack
    assert state.rack_total(1) == 7 and state.bag_count == len(unseen) - 7
    assert state.hash == state.hash_full()


def test_an_endgame_state_has_both_racks_and_an_empty_bag(rule_sets):
    rules, lexicon = rule_sets["classic-en"]
    game = Game(rules, lexicon, seed=2)
    while game.bag_count and not game.is_over:
        move = game.best_move()
        game.play(move) if move else game.pass_turn()
    if game.is_over:
        pytest.skip("the game ended before the bag was empty")
    state = state_from_position(game.position())
    assert state.bag_count == 0 and state.rack_total(1) == len(game.racks[1 - game.to_move])
    gen = ws.MoveGenerator(lexicon, rules)._gen
    records, equity = state.best(gen, 1, by_equity=True)  # end-game terms: the bag is empty
    ours = ws.MoveGenerator(lexicon, rules, leaves=ws.Leaves.default(rules)).best(game.position(), by="equity")
    assert int(records[0]["score"]) == ours.score and abs(float(equity[0]) - ours.equity) < 1e-3
    # play the endgame out with the best score: the settlement and the spread
    while not state.is_over:
        best, _ = state.best(gen)
        state.play_record(best[0]) if len(best) else state.pass_turn()
    assert state.spread(0) == state.scores[0] - state.scores[1]
    assert state.winners == tuple(p for p in (0, 1) if state.scores[p] == max(state.scores))


def test_the_state_gives_the_generators_moves(rule_sets):
    rules, lexicon = rule_sets["turkish"]
    game = Game(rules, lexicon, seed=6)
    for _ in range(4):
        game.play(game.best_move())
    mg = ws.MoveGenerator(lexicon, rules)
    state = game.state()
    records = state.moves(mg._gen)
    want = mg.generate(game._position())
    assert len(records) == len(want)
    assert np.array_equal(np.sort(records["score"]), np.sort(want.to_numpy()["score"]))
    table = ws.Leaves.default(rules)
    best, equity = state.best(mg._gen, 3, leaves=table._table, by_equity=True)
    ours = ws.MoveGenerator(lexicon, rules, leaves=table).top(game._position(), 3, by="equity")
    assert [int(r["score"]) for r in best] == [m.score for m in ours]


def test_a_state_pickles_and_copies_whole(rule_sets):
    rules, _lexicon = rule_sets["woodword-de"]
    state = GameState(game_rules(rules, 3), 9)
    state.pass_turn()
    back = pickle.loads(pickle.dumps(state))
    assert back.raw() == state.raw() and back.rng_state() == state.rng_state()
    assert back.rules.players == 3 and back.undo_depth == 0


def test_bad_turns_change_nothing(rule_sets):
    rules, lexicon = rule_sets["classic-en"]
    state = GameState(game_rules(rules, 2), 1)
    before = state.raw()
    code = state.rack_codes(0)[0] or 1
    missing = next(t for t in range(1, 27) if not state.rack(0)[t])
    with pytest.raises(ws.PositionError):
        state.play(7, 7, 0, bytes([missing]), 10)  # a tile not on the rack
    with pytest.raises(ws.PositionError):
        state.play(7, 14, 0, bytes([code, code]), 10)  # off the board
    with pytest.raises(ws.PositionError):
        state.play(7, 7, 0, bytes([0, 0]), 0)  # no new tile
    with pytest.raises(ws.PositionError, match="swap"):
        state.swap(bytes(33))
    with pytest.raises(ws.WordSalvoError):
        state.resign(5)
    assert state.raw() == before
    state.play(7, 7, 0, bytes([code]), 2)
    with pytest.raises(ws.PositionError):
        state.play(7, 7, 1, bytes([state.rack_codes(1)[0] or 1]), 2)  # the square is taken
    state.resign(0)
    assert state.is_over and state.winners == (1,) and state.end_reason == "resign"
    with pytest.raises(ws.PositionError, match="over"):
        state.pass_turn()


def test_game_rules_are_checked_and_shared():
    rules = Rules.preset("wordsalvo-en")
    assert game_rules(rules, 2) is game_rules(Rules.preset("wordsalvo-en", board_seed=3), 2)
    assert game_rules(rules, 3) is not game_rules(rules, 2)
    good = game_rules(rules, 2)
    with pytest.raises(ws.RulesError, match="players"):
        _engine.GameRules(5, 7, good.tile_values, good.bag, 0, {})
    with pytest.raises(ws.RulesError, match="expected values for"):
        _engine.GameRules(2, 7, good.tile_values, good.bag, 0, {})
    with pytest.raises(ws.RulesError, match="first deal"):
        GameState(_engine.GameRules(*good.__reduce__()[1][:3], b"\x01" * 20, 1 << 2,
                                     dict(good.__reduce__()[1][5], first_vowels=2)), 1)


def test_engine_turns_on_a_state_play_the_self_play_game(rule_sets):
    """The static player of self-play, one turn at a time on a GameState (as a
    simulation's rollouts play), reaches self-play's final state; undo goes back."""
    from wordsalvo.engine.selfplay import SelfPlay

    rules, lexicon = rule_sets["wordsalvo-nl"]
    table = ws.Leaves.default(rules)
    engine = SelfPlay(rules, lexicon)
    engine.set_players(("equity", "equity"), (table, table))
    engine.play(12)
    gen = ws.MoveGenerator(lexicon, rules)._gen
    state = GameState(game_rules(rules, 2), 12)
    start = state.raw()
    while not state.is_over:
        _engine.engine_turn(state, gen, table._table, table.best_value)
    assert state.raw() == engine._sp.final_state().raw()
    while state.undo_depth:
        state.undo()
    assert state.raw() == start


def test_a_pickled_game_plays_on_the_same(rule_sets):
    rules, lexicon = rule_sets["classic-en"]
    game = Game(rules, lexicon, seed=21)
    for _ in range(5):
        game.play(game.best_move())
    back = pickle.loads(pickle.dumps(game))
    mid = (back._s.c.raw(), back._s.c.rng_state())
    for g in (game, back):
        g.swap(g.rack[:3])
        g.play(g.best_move())
    assert back.racks == game.racks and back.bag == game.bag and back.history == game.history
    back.undo()
    back.undo()  # the random stream too: a seeded game replays the same
    assert (back._s.c.raw(), back._s.c.rng_state()) == mid


def test_a_state_of_a_position_with_a_given_bag(rule_sets):
    rules, _lexicon = rule_sets["turkish"]
    pos = ws.Position(rules, racks=["KEDİ", "ABC"], scores=[10, 20], scoreless_count=2, to_move=1)
    state = state_from_position(pos, bag="zaai?")  # lowercase letters are tiles too (Turkish i is İ)
    assert state.bag == bytes(0 if ch == "?" else rules.alphabet.code(ch) for ch in "ZAAİ?")
    assert state.rack(0) == letter_counts(rules, "KEDİ") and state.rack(1) == letter_counts(rules, "ABC")
    assert (state.to_move, state.scoreless_count, state.scores) == (1, 2, (10, 20))
    with pytest.raises(ws.PositionError, match="more J"):
        state_from_position(ws.Position(rules, racks=["JJ", ""]))  # one J in the set


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 16), st.integers(-2, 16), st.integers(-1, 2),
                          st.binary(min_size=0, max_size=17), st.integers(-(2**31), 2**31),
                          st.binary(min_size=33, max_size=33)), max_size=12))
def test_any_turn_arguments_are_refused_or_played_never_corrupting(turns):
    """Hostile arguments: a PositionError (nothing changed) or a turn that undoes exactly."""
    rules = Rules.preset("classic-en")
    state = GameState(game_rules(rules, 2), 3)
    seen = []
    for row, col, direction, tiles, score, counts in turns:
        before = state.raw()
        for call in (lambda: state.play(row, col, direction, tiles, score), lambda: state.swap(counts)):
            try:
                call()
            except ws.PositionError:
                assert state.raw() == before
            else:
                seen.append(before)
                before = state.raw()
            assert state.hash == state.hash_full()
    for before in reversed(seen):
        state.undo()
        assert state.raw() == before

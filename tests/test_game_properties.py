"""Random games to the end for every rule set, with every invariant checked after every turn.

Turns: best and random legal moves, swaps, passes, time-outs (that end the turn or lose
the game), resignations; checked: tile conservation, turn order, end rules, settlement,
score sums, and that the GCG record replays to the same game.

Default: a few games per rule set (the whole file stays well under a minute);
``WORDSALVO_GAME_PROPERTY_GAMES=N`` plays N games per rule set.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from game_helpers import RULE_SETS, lexicon_for, random_turn, tiles_in_play

from wordsalvo import Game, Rules
from wordsalvo.formats.gcg import from_gcg, to_gcg

GAMES = int(os.environ.get("WORDSALVO_GAME_PROPERTY_GAMES", "10"))


def pass_like(rules: Rules, kind: str) -> bool:
    return (kind in ("pass", "refused-play")
            or (kind == "swap" and not rules.swap.resets_pass_counter)
            or (kind == "timeout" and rules.timer.timeout_counts_as_pass))


def scoreless_kind(turn) -> str:
    if turn.kind == "play":
        return "play" if turn.score else "zero-score-play"
    return turn.kind


def trailing(turns, predicate) -> int:
    n = 0
    for t in reversed(turns):
        if not predicate(t):
            break
        n += 1
    return n


def allowed_end_reasons(rules: Rules) -> set[str]:
    out = {"resign"} if rules.resign.allowed else set()
    if rules.end.rack_out:
        out.add("out")
    if rules.end.all_pass_rounds or rules.end.consecutive_passes:
        out.add("passes")
    if rules.end.scoreless_turns:
        out.add("scoreless")
    if rules.timer.on_timeout == "lose":
        out.add("timeout")
    if rules.timer.eliminate_after_timeouts:
        out.add("elimination")
    return out


def end_conditions(game: Game) -> set[str]:
    """Which end rules hold now, computed from the history alone (not from the game's counters)."""
    rules = game.rules
    turns = [t for t in game.history if t.kind not in ("settle", "resign")]
    held = set()
    if not turns:
        return held
    last = turns[-1]
    if rules.end.rack_out and last.kind == "play" and not game.bag and not game.racks[last.player]:
        held.add("out")
    passes = trailing(turns, lambda t: pass_like(rules, t.kind))
    active = len(game.players_left)
    if (rules.end.all_pass_rounds and passes >= rules.end.all_pass_rounds * active) or (
            rules.end.consecutive_passes and passes >= rules.end.consecutive_passes):
        held.add("passes")
    scoreless = trailing(turns, lambda t: scoreless_kind(t) in rules.end.scoreless_turn_kinds)
    below = rules.end.scoreless_turns_bag_below
    if rules.end.scoreless_turns and scoreless >= rules.end.scoreless_turns and (not below or len(game.bag) < below):
        held.add("scoreless")
    return held


def expected_settlement(game: Game, racks: list[str]) -> dict[int, int]:
    rules = game.rules
    mode = {"out": rules.settlement.after_out, "passes": rules.settlement.after_passes,
            "scoreless": rules.settlement.after_scoreless}.get(game.end_reason, "none")
    value = {k: v for k, (_c, v) in rules.tiles.items()}
    left = game.players_left
    delta = {p: 0 for p in range(len(racks))}
    if mode == "none":
        return delta
    finisher = next(t.player for t in reversed(game.history) if t.kind != "settle") if game.end_reason == "out" else None
    for p in left:
        if p != finisher:
            v = sum(value[ch] for ch in racks[p])
            delta[p] -= v
            if mode == "play-out" and finisher is not None:
                delta[finisher] += v
    return delta


def check_invariants(game: Game, distribution: Counter) -> None:
    rules = game.rules
    assert tiles_in_play(game) == distribution, "tile conservation"
    for p, score in enumerate(game.scores):
        assert score == sum(t.score for t in game.history if t.player == p), "scores = sum of turn scores"
    for r in game.racks:
        assert len(r) <= rules.rack_size
    if game.bag:
        assert all(len(game.racks[p]) == rules.rack_size for p in game.players_left), "racks full while the bag has tiles"
    held = end_conditions(game)
    if game.is_over:
        assert game.end_reason in allowed_end_reasons(rules)
        if game.end_reason in ("out", "passes", "scoreless"):
            assert game.end_reason in held, f"ended by {game.end_reason} but the rule does not hold"
        best = max(game.scores[p] for p in game.players_left)
        if game.end_reason in ("out", "passes", "scoreless"):
            assert set(game.winners) == {p for p in game.players_left if game.scores[p] == best}
    else:
        assert not held, f"an end rule holds ({held}) but the game goes on"


def play_random_game(rules: Rules, lexicon, seed: int, players: int) -> Game:
    game = Game(rules, lexicon=lexicon, players=players, seed=seed)
    rng = random.Random(seed * 7919 + players)
    distribution = Counter(rules.distribution())
    check_invariants(game, distribution)
    for _ in range(1000):
        if game.is_over:
            break
        player = game.to_move
        racks_before = game.racks
        n_before = len(game.history)
        x = rng.random()
        if x < 0.004 and rules.resign.allowed:
            game.resign()  # the player on turn gives up (with more than two players the rest go on)
        elif x < 0.006 and rules.timer.on_timeout == "lose" and (rules.timer.per_move_seconds
                                                                 or rules.timer.table_may_choose):
            game.timeout()  # a time-out that loses the game
        else:
            random_turn(game, rng)
        new = game.history[n_before:]
        assert new and new[0].player == player, "the player on turn made the turn"
        assert new[0].rack == racks_before[player]
        if not game.is_over:
            left = game.players_left
            expected = left[(left.index(player) + 1) % len(left)] if player in left else None
            if expected is not None:
                assert game.to_move == expected, "turn order"
        else:
            # settlement: computed from the racks left at the end
            settles = [t for t in new if t.kind == "settle"]
            expected = expected_settlement(game, game.racks)
            got = {p: sum(t.score for t in settles if t.player == p) for p in range(len(game.names))}
            assert got == expected, f"settlement {got} != {expected} ({game.end_reason})"
        check_invariants(game, distribution)
    assert game.is_over, "a game ends within 1000 turns"
    return game


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lexicons")
    return {name: lexicon_for(Rules.preset(name), tmp) for name in RULE_SETS}


@pytest.mark.parametrize("name", RULE_SETS)
def test_random_games_keep_every_invariant(name, lexicons):
    base = Rules.preset(name)
    reasons = Counter()
    for k in range(GAMES):
        seed = 1000 + k
        rules = Rules.preset(name, board_seed=seed) if base.random_mode != "none" else base
        players = base.players.min + k % (base.players.max - base.players.min + 1)
        game = play_random_game(rules, lexicons[name], seed, players)
        reasons[game.end_reason] += 1
        # the record replays to the same game
        again = from_gcg(to_gcg(game), lexicon=lexicons[name])
        assert to_gcg(again) == to_gcg(game)
        assert again.scores == game.scores and again.board == game.board and again.racks == game.racks
    assert sum(reasons.values()) == GAMES


@pytest.mark.parametrize("name", RULE_SETS)
def test_same_seed_same_game(name, lexicons):
    rules = Rules.preset(name)
    a = play_random_game(rules, lexicons[name], 5, rules.players.min)
    b = play_random_game(rules, lexicons[name], 5, rules.players.min)
    assert to_gcg(a) == to_gcg(b)

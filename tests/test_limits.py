"""Limits and validation written once: the C core says why it refuses an argument (a
code per condition, worded in _core/status.pxi), the library's limits are read by the
service and the CLI, and one integer/number check serves every argument."""

from __future__ import annotations

import pytest

import wordsalvo as ws
from wordsalvo import Rules
from wordsalvo._core import _movegen
from wordsalvo.gamestate import GameState, game_rules


@pytest.fixture(scope="module")
def state_rules():
    return game_rules(Rules.preset("classic-en"), 2)


def test_a_refused_turn_says_which_condition_failed(state_rules):
    state = GameState(state_rules, 1)
    before = state.raw()
    code = state.rack_codes(0)[0] or 1
    missing = next(t for t in range(1, 27) if not state.rack(0)[t])
    with pytest.raises(ws.PositionError, match="play: tiles the rack does not hold"):
        state.play(7, 7, 0, bytes([missing]), 10)
    with pytest.raises(ws.PositionError, match="play: expected a word of 1..15 squares that fits on the board"):
        state.play(7, 14, 0, bytes([code, code]), 10)
    with pytest.raises(ws.PositionError, match="play: expected at least one new tile, got none"):
        state.play(7, 7, 0, bytes([0, 0]), 0)
    with pytest.raises(ws.PositionError, match=r"swap: not allowed now \(empty\)"):
        state.swap(bytes(33))
    assert state.raw() == before
    state.play(7, 7, 0, bytes([code]), 2)
    with pytest.raises(ws.PositionError, match="play: a new tile on a square that holds one"):
        state.play(7, 7, 1, bytes([state.rack_codes(1)[0] or 1]), 2)
    state.resign(0)
    with pytest.raises(ws.PositionError, match="pass: the game is over"):
        state.pass_turn()


def test_a_swap_the_rules_refuse_names_the_rule(state_rules):
    state = GameState(state_rules, 1)
    state.set_tiles([state.rack(0), state.rack(1)], bytes([1, 2, 3]))  # 3 tiles: under [swap] min_bag
    with pytest.raises(ws.PositionError, match=r"swap: not allowed now \(bag-min\)"):
        state.swap(bytes([0] + [1 if state.rack(0)[t] else 0 for t in range(1, 33)]))


def test_rules_and_tiles_refused_by_c_say_why(state_rules):
    args = state_rules.__reduce__()[1]
    with pytest.raises(ws.RulesError, match="a tile code outside the alphabet"):
        _movegen.GameRules(*args[:3], bytes([99]) + args[3], *args[4:])
    with pytest.raises(ws.RulesError, match="a rule value out of its range"):
        _movegen.GameRules(*args[:5], dict(args[5], keep_factor=101.0))
    with pytest.raises(ws.RulesError, match="first deal"):
        _movegen.GameRules(*args[:5], dict(args[5], first_vowels=5, first_consonants=5))
    state = GameState(state_rules, 1)
    with pytest.raises(ws.PositionError, match="more tiles than the rack holds"):
        state.set_tiles([bytes([0, 8] + [0] * 31), state.rack(1)], b"")
    with pytest.raises(ws.PositionError, match="a tile code outside the alphabet"):
        state.set_tiles([state.rack(0), state.rack(1)], bytes([40]))


def test_every_refusal_code_has_its_own_words():
    """No two reasons share a message, and none falls back to 'unknown status'."""
    codes = [-5] + list(range(-10, -27, -1)) + list(range(-31, -36, -1))
    texts = [_movegen.status_text(c) for c in codes]
    assert not any(t.startswith("unknown status") for t in texts)
    assert len(set(texts)) == len(texts)

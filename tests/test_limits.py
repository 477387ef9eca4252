"""Limits and validation written once: the C core says why it refuses an argument (a
code per condition, worded in _core/status.pxi), the library's limits are read by the
service and the CLI, and one integer/number check serves every argument."""

from __future__ import annotations

import pytest

import wordsalvo as ws
from wordsalvo import Rules
from wordsalvo._core import _engine
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
        _engine.GameRules(*args[:3], bytes([99]) + args[3], *args[4:])
    with pytest.raises(ws.RulesError, match="a rule value out of its range"):
        _engine.GameRules(*args[:5], dict(args[5], keep_factor=101.0))
    with pytest.raises(ws.RulesError, match="first deal"):
        _engine.GameRules(*args[:5], dict(args[5], first_vowels=5, first_consonants=5))
    state = GameState(state_rules, 1)
    with pytest.raises(ws.PositionError, match="more tiles than the rack holds"):
        state.set_tiles([bytes([0, 8] + [0] * 31), state.rack(1)], b"")
    with pytest.raises(ws.PositionError, match="a tile code outside the alphabet"):
        state.set_tiles([state.rack(0), state.rack(1)], bytes([40]))


def test_every_refusal_code_has_its_own_words():
    """No two reasons share a message, and none falls back to 'unknown status'."""
    codes = [-5] + list(range(-10, -27, -1)) + list(range(-31, -36, -1))
    texts = [_engine.status_text(c) for c in codes]
    assert not any(t.startswith("unknown status") for t in texts)
    assert len(set(texts)) == len(texts)


# -- limits written once: the service and the CLI read the library's ---------------------------
def test_the_service_reads_its_ceilings_from_the_library():
    pytest.importorskip("fastapi")
    from wordsalvo.engine.simulation import MAX_PLIES
    from wordsalvo.formats.gcg_record import EVENTS_MAX
    from wordsalvo.inputs import SIZE_LIMITS
    from wordsalvo.serve.config import LIMIT_KEYS, ServeConfig
    from wordsalvo.serve.schemas import AnalyzeIn, BotIn, SimIn

    assert MAX_PLIES == _engine.SIM_MAX_PLIES == 32
    assert LIMIT_KEYS["events"][2] == EVENTS_MAX and ServeConfig().events == EVENTS_MAX
    assert LIMIT_KEYS["plies"][1:3] == (0, MAX_PLIES) and ServeConfig().plies == 10
    for model in (BotIn, AnalyzeIn):  # the body limit (body_bytes) bounds it, not a second literal
        limit = [m.max_length for m in model.model_fields["gcg"].metadata if hasattr(m, "max_length")]
        assert limit == [SIZE_LIMITS["game record"]]
    assert [m.le for m in SimIn.model_fields["plies"].metadata if hasattr(m, "le")] == [MAX_PLIES]
    with pytest.raises(ws.errors.ServeConfigError, match="limits.plies"):
        ServeConfig.from_dict({"limits": {"plies": MAX_PLIES + 1}})
    with pytest.raises(ws.errors.ServeConfigError, match="limits.events"):
        ServeConfig.from_dict({"limits": {"events": EVENTS_MAX + 1}})
    assert ServeConfig.from_dict({"limits": {"plies": MAX_PLIES}}).plies == MAX_PLIES


def test_the_service_caps_plies_with_its_configurable_limit():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from wordsalvo.serve.app import create_app
    from wordsalvo.serve.config import ServeConfig

    body = {"cgp": "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0", "plays": 2, "iterations": 2}
    with TestClient(create_app(ServeConfig(threads=1, plies=3)), raise_server_exceptions=False) as c:
        r = c.post("/v1/sim", json=dict(body, plies=4))
        assert r.status_code == 422 and "limits.plies" in r.json()["detail"] and "got 4" in r.json()["detail"]
        assert c.post("/v1/sim", json=dict(body, plies=3)).status_code == 200
        r = c.post("/v1/sim", json=dict(body, plies=33))  # past the simulator's own limit: the schema says
        assert r.status_code == 422


def test_thread_limits_are_the_c_cores():
    from wordsalvo.engine import bot, endgame, simulation

    assert simulation.MAX_THREADS == _engine.SIM_MAX_THREADS
    assert endgame.MAX_THREADS == _engine.ENDGAME_MAX_THREADS
    assert bot.MAX_THREADS == min(simulation.MAX_THREADS, endgame.MAX_THREADS)
    with pytest.raises(ws.GameError, match=f"threads: expected a whole number 1..{bot.MAX_THREADS}"):
        ws.Bot("master", Rules.preset("classic-en"), threads=bot.MAX_THREADS + 1)


def test_the_cli_refuses_plies_past_the_simulators_limit(capsys):
    from wordsalvo.cli import main

    with pytest.raises(SystemExit):
        main(["sim", "--cgp", "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0", "--plies", "33"])
    assert "0..32" in capsys.readouterr().err


# -- one integer check and one number check ---------------------------------------------------
def test_one_integer_and_one_number_check():
    import numpy as np

    from wordsalvo.inputs import is_number, is_whole, number_arg, whole_arg

    assert is_whole(3) and is_whole(np.int64(3), 0, 3) and not is_whole(True) and not is_whole(3.0)
    assert not is_whole(4, 0, 3) and not is_whole(-1, 0)
    assert is_number(0.5, 0, 1) and is_number(2) and not is_number(False) and not is_number(float("nan"))
    assert not is_number(10 ** 400) and not is_number(0, above=0) and is_number(1e-9, above=0)
    assert whole_arg(np.int32(2), "n", low=1) == 2 and type(whole_arg(np.int32(2), "n")) is int
    with pytest.raises(ws.WordSalvoError, match=r"n: expected a whole number 1..5, got bool True"):
        whole_arg(True, "n", low=1, high=5)
    with pytest.raises(ws.WordSalvoError, match=r"seconds: expected a finite number > 0, got 0"):
        number_arg(0, "seconds", above=0)


def test_every_argument_check_takes_a_numpy_integer_as_the_c_wrappers_do(state_rules):
    """One check everywhere: what the Python API takes, the _core wrappers take too."""
    import numpy as np

    rules = Rules.preset("classic-en")
    pos = ws.Position(rules, racks=["AB", "CD"], scores=[np.int64(5), 3], to_move=np.int64(1))
    assert pos.to_move == 1 and pos.scores == [5, 3] and type(pos.scores[0]) is int
    state = GameState(state_rules, np.int64(7))
    assert state.raw() == GameState(state_rules, 7).raw()
    assert len(ws.Game(rules, players=np.int64(2), seed=1).names) == 2
    with pytest.raises(ws.PositionError, match="play: row"):
        state.play(True, 7, 0, b"\x01", 2)


def test_no_module_writes_its_own_integer_check():
    """The `isinstance(x, bool) or not isinstance(x, int)` idiom lives only in inputs.py."""
    import pathlib
    import re

    import wordsalvo

    idiom = re.compile(r"isinstance\([^()]*, bool\)\s*or not isinstance\([^()]*, int\)"
                       r"|isinstance\([^()]*, int\)\s*and not isinstance\([^()]*, bool\)"
                       r"|not isinstance\([^()]*, int\)\s*or isinstance\([^()]*, bool\)")
    root = pathlib.Path(wordsalvo.__file__).parent
    found = [str(p.relative_to(root)) for p in sorted(root.rglob("*"))
             if p.suffix in (".py", ".pyx", ".pxi") and p.name != "inputs.py"
             and p.parts[len(root.parts)] not in ("formats", "tui")  # their owners' work in progress
             and idiom.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_a_play_the_state_cannot_place_names_its_reason_and_changes_nothing(state_rules):
    """GameState.play refuses a move that does not fit with UnplaceableMoveError: a
    PositionError (what the state's turns raise) and an IllegalMoveError with the reason."""
    from wordsalvo.errors import IllegalMoveReason, UnplaceableMoveError

    state = GameState(state_rules, 1)
    before = state.raw()
    code = state.rack_codes(0)[0] or 1
    missing = next(t for t in range(1, 27) if not state.rack(0)[t])
    cases = [((7, 7, 0, bytes([missing]), 10), IllegalMoveReason.TILE_NOT_ON_RACK),
             ((7, 14, 0, bytes([code, code]), 10), IllegalMoveReason.OFF_BOARD),
             ((7, 7, 0, bytes([0, 0]), 0), IllegalMoveReason.NO_TILES)]
    for args, reason in cases:
        with pytest.raises(UnplaceableMoveError) as e:
            state.play(*args)
        assert e.value.reason == reason and isinstance(e.value, ws.IllegalMoveError)
        assert isinstance(e.value, ws.PositionError) and state.raw() == before
    state.play(7, 7, 0, bytes([code]), 2)
    with pytest.raises(UnplaceableMoveError) as e:
        state.play(7, 7, 1, bytes([state.rack_codes(1)[0] or 1]), 2)
    assert e.value.reason == IllegalMoveReason.SQUARE_OCCUPIED


def test_snapshot_and_after_check_what_they_are_given():
    from wordsalvo.gamestate import after, snapshot, state_from_position

    rules = Rules.preset("classic-en")
    pos = ws.Position(rules, racks=["AEINRST", "ABC"])
    state = state_from_position(pos)
    with pytest.raises(ws.PositionError, match="snapshot: expected a GameState, got Position"):
        snapshot(pos, rules)
    with pytest.raises(ws.PositionError, match=r"snapshot: expected the Rules of the state \(26 letters\), "
                                                r"got 29 letters"):
        snapshot(state, Rules.preset("turkish"))
    with pytest.raises(ws.PositionError, match=r"snapshot: expected the tiles of rack 1 \('AEINRST'\) in any "
                                                r"order, got 'AEINRSS'"):
        snapshot(state, rules, rack="AEINRSS")
    assert snapshot(state, rules, rack="STAEINR").rack == "STAEINR" and snapshot(state, rules) == pos
    with pytest.raises(ws.PositionError, match="after: expected a Move, got str"):
        after(pos, "8H WORD")
    with pytest.raises(ws.PositionError, match="after: expected a Position, got GameState"):
        after(state, None)
    best = ws.MoveGenerator(ws.Lexicon.default("en"), rules).best(pos)
    with pytest.raises(ws.PositionError, match=r"drawn tiles: expected a letter of alphabet 'en' or '\?' at "
                                                r"position 1, got '1'"):
        after(pos, best, "1")
    assert pos == ws.Position(rules, racks=["AEINRST", "ABC"])  # nothing changed the position given

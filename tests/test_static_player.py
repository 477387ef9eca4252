"""The static player (score and equity, csrc/ws_action.c) chooses what it chose before it
was one C function: every action of seeded Game + Bot games (the plain players, the levels,
the rated and the expert player that use its play and swap) and every /v1/best answer on
their positions, against pins written by the code before the change
(tests/static_player_cases.py)."""

from __future__ import annotations

import json

import pytest
from static_player_cases import GAMES, PINS, best_answers, play_case

PINNED = json.loads(PINS.read_text("utf-8"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("static-player")


@pytest.mark.parametrize("case", GAMES, ids=[c[0] for c in GAMES])
def test_the_games_of_the_pins(folder, case):
    name, rules_name, kinds, lexicon, leaves, seeds = case
    for seed in seeds:
        actions, lines, _rules, _lex = play_case(folder, rules_name, kinds, lexicon, leaves, seed)
        assert actions == PINNED[f"{name}/{seed}"], f"{name} seed {seed}"
        key = f"best/{name}/{seed}"
        if key in PINNED:
            pytest.importorskip("fastapi")
            assert best_answers(lines[::3], rules_name) == PINNED[key], key


def test_the_pins_see_swaps_passes_and_exchanges():
    """Not vacuous: the pinned games swap and pass, the /v1/best answers choose exchanges."""
    actions = [a for k, v in PINNED.items() if not k.startswith("best/") for a in v]
    assert sum(a.startswith("-") for a in actions) > 100 and sum(a.startswith("pass") for a in actions) > 100
    answers = [b for k, v in PINNED.items() if k.startswith("best/") for _s, b in v]
    assert any(b.get("choice") == "exchange" for b in answers) and any(b.get("choice") == "play" for b in answers)


# -- the C choice against the generator's own searches on positions ------------------------
@pytest.mark.parametrize("rules_name", ["classic-en", "wordsalvo-en", "turkish"])
def test_the_choice_is_the_best_play_and_the_best_swap_of_the_position(rules_name):
    """At every turn of a seeded game: the options of Game.static_choice (on the C state)
    are MoveGenerator.best and best_swap on the Position, and the action is the play unless
    the swap is worth more; the state is only read."""
    import wordsalvo as ws
    from wordsalvo.actions import Pass, Play, Swap
    from wordsalvo.leaves import Leaves

    rules = ws.Rules.preset(rules_name)
    lex = ws.Lexicon.default(rules.alphabet.name)
    table = Leaves.default(rules)
    gen = ws.MoveGenerator(lex, rules, leaves=table)
    game = ws.Game(rules, lex, seed=11)
    bot = ws.Bot("equity", rules, lexicon=lex)
    turns = 0
    while not game.is_over:
        pos = game.position()
        before = game._s.c.raw()
        choice = game.static_choice("equity")
        assert game._s.c.raw() == before
        best = gen.best(pos, by="equity")
        if best is None:
            assert choice.play is None
        else:
            assert choice.play.move == best and choice.play.equity == float(best.equity)
            assert choice.play.move.notation == best.notation
        assert choice.swap == (gen.best_swap(pos) if pos.rack else None)
        if choice.play is not None and (choice.swap is None or choice.play.equity >= choice.swap.equity):
            assert choice.action is choice.play
        elif choice.swap is not None:
            assert choice.action is choice.swap and isinstance(choice.action, Swap)
        else:
            assert isinstance(choice.action, Pass)
        by_score = game.static_choice("score")
        assert (by_score.play.move if by_score.play else None) == ws.MoveGenerator(lex, rules).best(pos)
        assert by_score.play is None or (by_score.swap is None and isinstance(by_score.action, Play))
        game.apply(bot.choose(game))
        turns += 1
    assert turns > 10


def test_a_chosen_play_is_played_without_a_second_check():
    import wordsalvo as ws

    game = ws.Game(ws.Rules.preset("classic-en"), seed=2)
    move = game.static_choice("equity").play.move
    assert move._token is game._token
    game.play(move)
    assert game.history[-1].notation == move.notation


def test_bad_arguments_name_what_was_expected():
    import math

    import wordsalvo as ws
    from wordsalvo.errors import GameError, PositionError, WordSalvoError

    rules = ws.Rules.preset("classic-en")
    game = ws.Game(rules, seed=1)
    state = game.state()
    gen = game.generator()
    with pytest.raises(WordSalvoError, match="last_kind: expected a turn kind name"):
        gen.choose(state, last_kind="exchange")
    with pytest.raises(WordSalvoError, match="swap_ceiling: expected a number"):
        gen.choose(state, swap_ceiling=math.nan)
    with pytest.raises(WordSalvoError, match="swap_ceiling: expected a number"):
        gen.choose(state, swap_ceiling="1")
    with pytest.raises(WordSalvoError, match="given: expected True, None or a Move"):
        gen.choose(state, given="8H WORD")
    with pytest.raises(PositionError, match="expected a GameState, got Position"):
        gen.choose(game.position())
    with pytest.raises(GameError, match="by: expected 'score' or 'equity'"):
        game.static_choice("best")
    game.resign(0)
    with pytest.raises(GameError):
        game.static_choice("score")
    with pytest.raises(PositionError, match="the game is over"):
        gen.choose(game.state())


def test_the_score_player_does_not_swap_its_whole_rack_twice_in_a_row():
    """No play on the board for this rack: the whole rack goes back, unless its last turn did."""
    import wordsalvo as ws
    from game_helpers import set_state

    rules = ws.Rules.preset("classic-en")
    game = ws.Game(rules, seed=3)
    set_state(game, racks=["VVWWXXZ", "AEINRST"])
    first = game.static_choice("score")
    assert first.play is None and first.action == first.swap and sorted(first.swap.tiles) == sorted("VVWWXXZ")
    assert first.swap.tiles == "VVWWXXZ" and first.swap.leave == "" and first.swap.equity is None
    again = game.static_choice("score", last_kind="swap")
    assert again.swap is None and isinstance(again.action, ws.actions.Pass)


def test_a_position_state_holds_the_unseen_tiles_in_rack_order():
    """state_from_position (the /v1/best route) counts the bag in C: the tile set less the
    board and every rack, letters by code then blanks, as the letters-and-Counter code did;
    a position using more of a tile than the set holds changes nothing and says which."""
    from collections import Counter

    import wordsalvo as ws
    from wordsalvo.gamestate import game_rules, state_from_position

    for name in ("classic-en", "turkish"):
        rules = ws.Rules.preset(name)
        assert game_rules(rules, 2) is game_rules(rules, 2)
        game = ws.Game(rules, seed=5)
        bot = ws.Bot("score", rules)
        while not game.is_over:
            pos = game.position()
            left = Counter(rules.distribution())
            left.subtract(pos._board_tiles())
            for r in pos.racks:
                left.subtract(r)
            expect = rules.alphabet.sort_rack(list(left.elements()))
            state = state_from_position(pos)
            assert ws.gamestate.rack_letters(rules, state.bag) == expect
            assert state.bag_count == pos.bag_count()
            game.apply(bot.choose(game))
    rules = ws.Rules.preset("turkish")
    state = ws.gamestate.GameState(game_rules(rules, 2))
    state.set_tiles([ws.gamestate.letter_counts(rules, "JJ???"), bytes(33)], b"")
    before = state.raw()
    assert state.set_bag_unseen() == (0, rules.alphabet.code("J"))
    assert state.raw() == before
    with pytest.raises(ws.PositionError, match=r"uses more \?, J than the turkish tile set"):
        state_from_position(ws.Position(rules, racks=["JJ???", ""]))

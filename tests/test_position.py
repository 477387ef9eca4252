"""Turns on the C game state, positions as its snapshots (gamestate.after, snapshot) and the
exact way back; Game.play trusts the moves its own generator made."""

from __future__ import annotations

import pickle
import random

import pytest

import wordsalvo as ws

from game_helpers import RULE_SETS, lexicon_for
from wordsalvo import Board, Game, IllegalMoveError, IllegalMoveReason, MoveGenerator, Position, Rules
from wordsalvo import placement as placement_module
from wordsalvo.constants import DOWN, Direction
from wordsalvo.errors import PositionError
from wordsalvo.gamestate import after, letter_counts, play_move, snapshot, state_from_position
from wordsalvo.moves import Move
from wordsalvo.placement import check_placement
from wordsalvo.position import sort_rack


def state(pos: Position) -> tuple:
    return (bytes(pos.board.tiles), tuple(pos.racks), tuple(pos.scores), pos.to_move, pos.scoreless_count)


def positions_of_a_game(rules: Rules, lexicon, seed: int, turns: int = 40):
    """(game, position before the turn) of a seeded best-move game."""
    game = Game(rules, lexicon=lexicon, seed=seed)
    out = []
    while not game.is_over and len(out) < turns:
        out.append(game.position())
        move = game.best_move()
        if move is None:
            game.pass_turn()
        else:
            game.play(move)
    return out


@pytest.mark.parametrize("name", RULE_SETS)
def test_formed_words_and_scores_equal_the_placement_rules(name, tmp_path_factory):
    """Every generated move's words (Move.formed_words) are the words check_placement
    finds, in the same order, and its score is the one check_placement computes."""
    rules = Rules.preset(name)
    lexicon = lexicon_for(rules, tmp_path_factory.mktemp(name))
    gen = MoveGenerator(lexicon, rules)
    rng = random.Random(5)
    checked = 0
    for pos in positions_of_a_game(rules, lexicon, seed=3, turns=12):
        moves = gen.generate(pos)
        for i in sorted(rng.sample(range(len(moves)), min(15, len(moves)))):
            m = moves[i]
            result = check_placement(pos.board, rules, pos.rack_counts(), m.squares(), lexicon.__contains__)
            assert result.legal, (m, result.problems)
            assert m.formed_words() == tuple(w.word for w in result.words)
            assert m.score == result.score
            assert m.is_bingo == (m.tiles_played == rules.rack_size)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["classic-en", "turkish"])
def test_play_then_undo_restores_every_part_exactly(name, tmp_path_factory):
    """Turns are the C game state's; each snapshot is a new Position, and the state's undo
    restores board, racks, scores, player on turn and scoreless count exactly."""
    rules = Rules.preset(name)
    lexicon = lexicon_for(rules, tmp_path_factory.mktemp(name))
    gen = MoveGenerator(lexicon, rules)
    rng = random.Random(2)
    bag = [ch for ch, (n, _v) in rules.tiles.items() for _ in range(n)]
    rng.shuffle(bag)
    racks = [sort_rack(rules, [bag.pop() for _ in range(rules.rack_size)]) for _p in range(3)]
    pos = Position(rules, Board(rules.alphabet), racks, [0, 0, 0])
    game = state_from_position(pos, bag="".join(bag), seed=2)
    history = [state(snapshot(game, rules))]
    assert history[0] == state(pos)
    for turn in range(25):
        moves = gen.generate(game)
        if not len(moves) or turn % 7 == 6:
            back = letter_counts(rules, snapshot(game, rules).rack[:2])
            if turn % 2 and game.swap_check(back) is None:
                game.swap(back)
            else:
                game.pass_turn()
        else:
            m = moves[rng.randrange(len(moves))]
            before = history[-1]
            play_move(game, m)
            now = snapshot(game, rules)
            player = before[3]
            assert now.scores[player] == before[2][player] + m.score
            assert now.to_move == (player + 1) % 3
            assert all(now.board.tiles[r * 15 + c] == code for r, c, code in m.squares())
        history.append(state(snapshot(game, rules)))
    assert game.undo_depth == 25
    last = snapshot(game, rules)
    copy = game.copy()
    while game.undo_depth:
        history.pop()
        game.undo()
        assert state(snapshot(game, rules)) == history[-1]
    assert state(snapshot(game, rules)) == history[0] and not any(game.board)
    with pytest.raises(PositionError, match="undo"):
        game.undo()
    # a snapshot and a copy of the state are their own: the undos changed neither
    assert state(last) == state(snapshot(copy, rules)) and any(last.board.tiles)
    assert not any(hasattr(Position, name) for name in ("play", "pass_turn", "swap", "undo"))


def test_play_refuses_what_would_corrupt_the_position_and_changes_nothing():
    rules = Rules.preset("classic-en")
    gen = MoveGenerator(lexicon_for(rules, None), rules)
    pos = Position(rules, Board(rules.alphabet), ["AEINRST", "ABC"], [0, 0])
    m = gen.best(pos)
    other = Position(rules, Board(rules.alphabet), ["QQQ", "ABC"], [0, 0])
    before = state(other)
    with pytest.raises(IllegalMoveError) as e:
        after(other, m, "")  # the bag given (three Qs: more than the set holds, so not the unseen tiles)
    assert e.value.reason == IllegalMoveReason.TILE_NOT_ON_RACK and state(other) == before
    assert "QQQ" in str(e.value) and m.notation in str(e.value)
    played = after(pos, m)
    again = Position(rules, played.board, ["AEINRST", played.racks[1]], played.scores)  # player 1 on turn again
    before = state(again)
    with pytest.raises(IllegalMoveError) as e:
        after(again, m)
    assert e.value.reason == IllegalMoveReason.SQUARE_OCCUPIED and state(again) == before
    with pytest.raises(PositionError, match="at most 7"):
        after(Position(rules, Board(rules.alphabet), ["AEINRST", ""], [0, 0]), m, "ABCDEFGH")
    with pytest.raises(PositionError, match="to_move"):
        Position(rules, Board(rules.alphabet), ["A", "B"], [0, 0], to_move=2)


def test_game_plays_its_own_generated_moves_without_a_second_check(monkeypatch):
    rules = Rules.preset("classic-en")
    lexicon = lexicon_for(rules, None)
    game = Game(rules, lexicon=lexicon, seed=4)
    reference = Game(rules, lexicon=lexicon, seed=4)
    calls = []
    real = placement_module.check_move

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("wordsalvo.game.check_move", counting)  # a Move
    monkeypatch.setattr("wordsalvo.validate.check_move", counting)  # a notation
    for _ in range(6):
        move = game.best_move()
        turn = game.play(move)
        assert not calls
        again = reference.play(move.notation)  # a notation: checked in full
        assert len(calls) == 1
        calls.clear()
        assert turn == again and game.racks == reference.racks and game.scores == reference.scores
    # a move made for an earlier position (here: before a pass) is checked in full
    stale = game.best_move()
    game.pass_turn()
    try:
        game.play(stale)
    except IllegalMoveError as e:
        assert e.reason == IllegalMoveReason.TILE_NOT_ON_RACK
    assert len(calls) == 1
    # a move of another game is foreign, even for the same position
    twin = Game(rules, lexicon=lexicon, seed=4)
    game2 = Game(rules, lexicon=lexicon, seed=4)
    calls.clear()
    game2.play(twin.best_move())
    assert len(calls) == 1


def test_moves_are_immutable_values_and_boards_do_not_hash():
    rules = Rules.preset("wordsalvo-en")
    game = Game(rules, seed=1)
    move = game.best_move()
    with pytest.raises(AttributeError, match="cannot be changed"):
        move.score = 1000
    with pytest.raises(AttributeError):
        move.tiles = (1, 2)
    assert hash(move) == hash(game.legal_moves().sorted()[0]) and move == game.legal_moves().sorted()[0]
    assert move.direction in (Direction.ACROSS, Direction.DOWN) and isinstance(move.direction, Direction)
    again = pickle.loads(pickle.dumps(move))
    assert again == move and again.notation == move.notation and again._token is None
    with pytest.raises(TypeError):
        hash(game.board)
    assert DOWN == 1


def test_is_bingo_follows_the_rule_sets_rack_size():
    rules = Rules.preset("classic-en")
    m = Move(7, 5, 0, (1, 2, 3, 4, 5), 20, bytes(225), rules.alphabet, rack_size=5)
    assert m.is_bingo and not Move(7, 5, 0, (1, 2, 3, 4, 5), 20, bytes(225), rules.alphabet).is_bingo


def test_no_python_code_plays_a_move_onto_a_board():
    """Every assignment to ``<something>.tiles[...]`` or to a board's ``tiles`` buffer in the
    package is in Board.__setitem__ (the board's own API) or the CGP reader (which builds a
    board from text, not from a move): a turn writes its tiles only in the C game state."""
    import ast
    from pathlib import Path

    import wordsalvo

    allowed = {("board.py", "__setitem__"), ("cgp.py", "parse_cgp"),
               ("rules.py", "from_dict")}  # rules: the tile set, not a board
    found = set()
    root = Path(wordsalvo.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                targets = node.targets if isinstance(node, ast.Assign) else (
                    [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
                for t in targets:
                    if isinstance(t, ast.Subscript) and (
                            (isinstance(t.value, ast.Attribute) and t.value.attr in ("tiles", "board"))
                            or (isinstance(t.value, ast.Name) and t.value.id in ("tiles", "board"))):
                        found.add((path.name, func.name))
    assert found <= allowed, f"tiles written outside the board's own API: {sorted(found - allowed)}"
    assert ("board.py", "__setitem__") in found


def test_lowercase_racks_are_the_same_tiles_everywhere():
    """A rack has no designated blanks: lowercase letters are read as their tiles, wherever a
    rack string is taken (Position, CGP, the generator's rack=, Game.set_rack and swap)."""
    from wordsalvo import Lexicon, format_cgp, parse_cgp

    rules = Rules.preset("classic-en")
    gen = MoveGenerator(Lexicon.default("en"), rules)
    upper = Position.empty(rules, "AEINRST")
    lower = Position.empty(rules, "aeinrst")
    assert lower.rack == "AEINRST" and lower.rack_counts() == upper.rack_counts()
    assert gen.best(lower).notation == gen.best(upper).notation == gen.best(upper, rack="aeinrst").notation
    assert parse_cgp(format_cgp(upper).replace("AEINRST", "aeinrst"), rules=rules).rack == "AEINRST"
    game = Game(rules, seed=3)
    game.set_rack(0, "qiz?abc")
    assert game.rack == "ABCIQZ?"
    turn = game.swap("q?")  # the Q and the blank go back
    assert turn.kind == "swap" and game.to_move == 1
    tr = Game(Rules.preset("turkish"), seed=1)
    tr.set_rack(0, "kedi")  # Turkish i is İ
    assert sorted(tr.rack) == sorted("KEDİ")
    with pytest.raises(PositionError, match=r"at position 2, got '1'"):
        Position.empty(rules, "a1")


def test_the_scoreless_counter_has_one_name():
    """Position.scoreless_count, as in the C game state; the old scoreless_turns (the name of
    the rule set's limit) is gone (the package was never released with it)."""
    import warnings

    rules = ws.Rules.preset("classic-en")
    pos = ws.Position(rules, racks=["AB", "CD"], scoreless_count=2)
    assert pos.scoreless_count == 2
    assert not hasattr(pos, "scoreless_turns")
    with pytest.raises(TypeError, match="scoreless_turns"):
        ws.Position(rules, racks=["AB", "CD"], scoreless_turns=3)
    old = ws.Position(rules, racks=["AB", "CD"], scoreless_count=3)
    assert old.scoreless_count == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        passed = state_from_position(pos)
        passed.pass_turn()
        assert snapshot(passed, rules).scoreless_count == 3


def test_with_rack_replaces_the_rack_on_turn_and_keeps_who_is_on_turn():
    rules = ws.Rules.preset("classic-en")
    pos = Position(rules, None, ["ABC", "DEF"], [10, 20], 0, to_move=1)
    new = pos.with_rack("XYZ")
    assert new.to_move == 1 and new.racks == ["ABC", "XYZ"] and new.scores == [10, 20]
    assert pos.racks == ["ABC", "DEF"]  # the original is left as it was
    first = Position(rules, None, ["ABC", "DEF"], [10, 20], 0).with_rack("QI")
    assert first.to_move == 0 and first.racks == ["QI", "DEF"]

"""The endgame solver (wordsalvo.engine.endgame, csrc/ws_endgame.c) against a slow
pure-Python minimax over the same game state, on tiny endgames (1-3 tiles a side).

The reference plays every legal move and the pass by the rule set's real counters
(six scoreless turns in classic-en, four passes in wordsalvo-en), without the
solver's counter reduction, table or ordering: equal values also check the
reduction (docs/endgame.md).  The 30 positions solved by another engine are in
benchmarks/endgame.py (they need a local word list)."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo.engine.endgame import _solve_state, solve_endgame
from wordsalvo.errors import PositionError, WordSalvoError
from wordsalvo.gamestate import state_from_position

RULE_NAMES = ("classic-en", "wordsalvo-en")


@functools.lru_cache(maxsize=None)
def _setup(name: str):
    rules = ws.Rules.preset(name)
    lexicon = ws.Lexicon.default("en")
    return rules, lexicon, ws.MoveGenerator(lexicon, rules)


@functools.lru_cache(maxsize=None)
def _board_at_bag_empty(name: str, seed: int):
    """(board position, the 14 rack tiles) of a score-player game when its bag is empty."""
    rules, lexicon, _gen = _setup(name)
    game = ws.Game(rules, lexicon, seed=seed)
    while game.bag_count and not game.is_over:
        move = game.best_move()
        game.play(move) if move else game.pass_turn()
    pos = game.position()
    return pos, "".join(pos.racks)


def _tiny_state(name, seed, picks0, picks1, blank0, blank1, zeros, scores):
    rules, _lex, gen = _setup(name)
    pos, tiles = _board_at_bag_empty(name, seed)
    pool = list(tiles)
    racks = []
    for picks, blank in ((picks0, blank0), (picks1, blank1)):
        rack = []
        for k in picks:
            if pool:
                rack.append(pool.pop(k % len(pool)))
        if blank and rack:
            rack[0] = "?"
        racks.append(rules.alphabet.sort_rack(rack))
    if not racks[0] or not racks[1]:
        return None
    tiny = ws.Position(rules, pos.board.copy(), racks, list(scores), zeros, to_move=0)
    state = state_from_position(tiny, bag="")
    return rules, gen, tiny, state


def _reference(state, gen, memo) -> int:
    """The gain of the player on turn by plain minimax (memoized on the whole state)."""
    key = (state.board, state.rack(0), state.rack(1), state.to_move, state.pass_count, state.scoreless_count)
    if key in memo:
        return memo[key]
    p = state.to_move
    before = state.spread(p)
    best = None
    records = state.moves(gen)
    for i in range(len(records) + 1):
        if i < len(records):
            state.play_record(records[i])
        else:
            state.pass_turn()
        gain = state.spread(p) - before
        value = gain if state.is_over else gain - _reference(state, gen, memo)
        state.undo()
        best = value if best is None else max(best, value)
    memo[key] = best
    return best


def _tiny(most: int):
    picks = st.lists(st.integers(0, 13), min_size=1, max_size=most)
    return st.tuples(st.sampled_from(RULE_NAMES), st.integers(1, 3), picks, picks, st.booleans(), st.booleans(),
                     st.integers(0, 5), st.tuples(st.integers(0, 400), st.integers(0, 400)))


def _check_against_minimax(case):
    name, seed, picks0, picks1, blank0, blank1, zeros, scores = case
    made = _tiny_state(name, seed, picks0, picks1, blank0 and seed != 2, blank1 and seed == 2, zeros, scores)
    if made is None:
        return
    rules, gen, pos, state = made
    want = (pos.scores[0] - pos.scores[1]) + _reference(state.copy(), gen._gen, {})
    result = _solve_state(state, rules, ws.Lexicon.default("en"), None, 12)
    assert result.exact and result.stop == "exact"
    assert result.value == want, (pos, result)
    # the line is legal and, played by the real rules, ends the game with that spread
    replay = state.copy()
    for move in result.moves:
        assert not replay.is_over
        if move is None:
            replay.pass_turn()
        else:
            replay.play_record(move.to_record())
    assert replay.is_over
    assert replay.spread(0) == result.value


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_tiny(2))
def test_the_solver_equals_plain_minimax_on_tiny_endgames(case):
    """1-2 tiles a side, a blank on one side at times, 0-5 scoreless turns so far."""
    _check_against_minimax(case)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_tiny(3))
def test_the_solver_equals_plain_minimax_on_endgames_of_up_to_three_tiles(case):
    """Up to 3 tiles a side without blanks (blanks: the 1-2 tile test above): the plain
    minimax of a blank among 3 + 3 tiles can take gigabytes of memo and many minutes."""
    name, seed, picks0, picks1, _b0, _b1, zeros, scores = case
    _check_against_minimax((name, seed, picks0, picks1, False, False, zeros, scores))


def test_a_game_at_bag_empty_solves_and_its_first_move_is_legal():
    rules, lexicon, _gen = _setup("classic-en")
    game = ws.Game(rules, lexicon, seed=14)
    while game.bag_count and not game.is_over:
        game.apply(ws.Bot("expert", rules, lexicon).choose(game))
    assert not game.is_over
    result = solve_endgame(game, seconds=60)
    assert result.exact and result.pv and result.nodes > 0
    first = result.moves[0]
    assert first is None or first in list(game.legal_moves())
    same = solve_endgame(game.position(), lexicon)
    assert same.value == result.value
    d = result.to_dict()
    assert set(d) == {"value", "pv", "exact", "nodes", "seconds"} and d["value"] == result.value


def test_a_time_limit_returns_a_line_that_is_not_proven_or_the_proof():
    rules, lexicon, _gen = _setup("classic-en")
    game = ws.Game(rules, lexicon, seed=8)
    while game.bag_count and not game.is_over:
        game.apply(ws.Bot("expert", rules, lexicon).choose(game))
    result = solve_endgame(game, seconds=0.001)
    assert result.pv and result.depth >= 1
    assert result.exact == (result.stop == "exact")


def test_bad_input_is_refused():
    rules, lexicon, _gen = _setup("classic-en")
    start = ws.Game(rules, lexicon, seed=1)
    with pytest.raises(PositionError, match="bag"):
        solve_endgame(start.position(), lexicon)
    with pytest.raises(WordSalvoError, match="threads"):
        solve_endgame(start.position(), lexicon, threads=0)
    with pytest.raises(WordSalvoError, match="seconds"):
        solve_endgame(start.position(), lexicon, seconds=-1)
    with pytest.raises(WordSalvoError, match="Position or a Game"):
        solve_endgame("8H WORD")
    three = ws.Game(rules, lexicon, players=3, seed=1)
    with pytest.raises(PositionError, match="two-player"):
        solve_endgame(three.position(), lexicon)


def _at_bag_empty(seed: int, level: str = "equity"):
    rules, lexicon, _gen = _setup("classic-en")
    game = ws.Game(rules, lexicon, seed=seed)
    while game.bag_count and not game.is_over:
        game.apply(ws.Bot(level, rules, lexicon).choose(game))
    return game


def test_expert_plays_a_move_of_the_solvers_value_with_the_bag_empty(monkeypatch):
    import wordsalvo.engine.bot as bot

    monkeypatch.setattr(bot, "EXPERT_ENDGAME_NODES", 10**12)  # proven: no budget in the way
    game = _at_bag_empty(14)
    assert not game.is_over
    best = solve_endgame(game)
    assert best.exact
    action = ws.Bot("expert", game.rules, game.lexicon).choose(game)
    p = game.to_move
    game.apply(action)
    if game.is_over:
        after = game.scores[p] - game.scores[1 - p]
    else:
        after = -solve_endgame(game).value
    assert after == best.value


def test_analysis_judges_the_endgame_turns_by_the_solver():
    game = _at_bag_empty(14)
    while not game.is_over:
        game.apply(ws.Bot("equity", game.rules, game.lexicon).choose(game))
    analysis = ws.analyze_game(ws.to_gcg(game), game.lexicon)
    judged = [t for t in analysis.turns if t.endgame_best is not None]
    assert judged, "a game that reaches the empty bag has endgame turns"
    for t in judged:
        assert t.endgame_exact and t.endgame_played <= t.endgame_best
        assert "Endgame solved" in t.note and t.missed == (t.endgame_best - t.endgame_played >= 15)
    last = judged[-1]  # the move that went out: its value is the game's final spread
    final = analysis.final_scores
    assert last.endgame_played == final[last.player] - final[1 - last.player]
    quiet = ws.analyze_game(ws.to_gcg(game), game.lexicon, endgame=None)
    assert all(t.endgame_best is None for t in quiet.turns)


def test_endgame_command_json_last_line(capsys):
    import json

    from wordsalvo.cli import main

    game = _at_bag_empty(14)
    line = ws.format_cgp(game.position())
    assert main(["endgame", "--rules", "classic-en", "--cgp", line, "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    d = json.loads(out[-1])
    assert set(d) == {"value", "pv", "exact", "nodes", "seconds"}
    assert d["exact"] is True and d["value"] == solve_endgame(game).value and d["pv"]
    assert "best line: " + " ; ".join(d["pv"]) in out
    start = ws.format_cgp(ws.Game(game.rules, game.lexicon, seed=1).position())
    assert main(["endgame", "--rules", "classic-en", "--cgp", start]) == 2
    assert "bag" in capsys.readouterr().err


def test_a_node_budget_gives_the_same_line_on_every_run():
    # a node limit, unlike a time limit, does not depend on the machine: the bots use it
    game = _at_bag_empty(14)
    full = solve_endgame(game)
    assert full.exact
    small = [solve_endgame(game, nodes=full.nodes // 4 + 1) for _ in range(2)]
    assert small[0].pv == small[1].pv and small[0].value == small[1].value and small[0].nodes == small[1].nodes
    assert small[0].depth == small[1].depth
    assert not small[0].exact and small[0].stop == "limit" and small[0].depth < full.depth
    with pytest.raises(WordSalvoError, match="nodes"):
        solve_endgame(game, nodes=0)


def _many_blanks_state():
    """A rule set of 14 blanks (valid), seven on each rack, on a board from a real game."""
    from pathlib import Path

    text = (Path(ws.__file__).parent / "rulesets" / "classic-en.toml").read_text()
    text = text.replace('"?" = [2, 0]', '"?" = [14, 0]').replace('name = "classic-en"', 'name = "blanks-14"')
    rules = ws.Rules.from_toml(text)
    pos, _tiles = _board_at_bag_empty("classic-en", 3)
    many = ws.Position(rules, pos.board.copy(), ["???????", "???????"], [300, 300], 0, to_move=0)
    return rules, state_from_position(many, bag="")


def test_the_clock_is_read_before_a_long_move_generation():
    # issue 38 item 14: with seven blanks a rack one generation takes long (tens of ms), and
    # the clock read every 256 nodes let a 0.5 s limit run for many seconds.  The first
    # iteration always completes; a limit already past then stops the second at its first
    # node, before any generation (formerly: at the next 256th node).
    from wordsalvo._core import _engine

    rules, state = _many_blanks_state()
    gen = ws.MoveGenerator(ws.Lexicon.default("en"), rules)
    one = _engine.EndgameSolver(state, gen._gen, 16, 1 << 20).solve(max_depth=1)
    assert one["depth"] == 1 and not one["exact"] and one["nodes"] % 256 not in (255, 0)
    solver = _engine.EndgameSolver(state, gen._gen, 16, 1 << 20)
    raw = solver.solve(seconds=1e-6)
    assert raw["depth"] == 1 and not raw["exact"] and raw["stop"] == "limit"
    assert raw["nodes"] == one["nodes"] + 1
    assert raw["pv"]  # the first iteration's best line


def test_two_threads_give_the_same_value():
    game = _at_bag_empty(14)
    one = solve_endgame(game, threads=1)
    for threads in (2, 3):
        many = solve_endgame(game, threads=threads)
        assert one.exact and many.exact and one.value == many.value


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), name=st.sampled_from(RULE_NAMES),
       picks0=st.lists(st.integers(0, 50), min_size=1, max_size=3),
       picks1=st.lists(st.integers(0, 50), min_size=1, max_size=3), blank0=st.booleans(), blank1=st.booleans(),
       threads=st.integers(2, 4))
def test_threads_give_the_value_of_one_thread(seed, name, picks0, picks1, blank0, blank1, threads):
    made = _tiny_state(name, seed, picks0, picks1, blank0, blank1, 0, (100, 100))
    if made is None:
        return
    rules, _gen, _tiny, state = made
    lexicon = ws.Lexicon.default("en")
    one = _solve_state(state.copy(), rules, lexicon, None)
    many = _solve_state(state.copy(), rules, lexicon, None, threads=threads)
    assert one.exact and many.exact and one.value == many.value


def test_progress_reports_the_completed_depths(capsys):
    from wordsalvo.cli import main

    game = _at_bag_empty(14)
    seen = []
    result = solve_endgame(game, progress=seen.append, progress_every=0.01)
    assert seen and all(isinstance(p, ws.EndgameProgress) for p in seen)
    assert [p.depth for p in seen] == sorted(p.depth for p in seen)
    last = seen[-1]
    assert (last.depth, last.value, last.exact) == (result.depth, result.value, True)
    assert last.pv and last.nodes >= result.nodes // 2
    line = ws.format_cgp(game.position())
    assert main(["endgame", "--rules", "classic-en", "--cgp", line]) == 0
    err = capsys.readouterr().err
    assert f"depth {result.depth} " in err and f"value {result.value:+d} (proven)" in err
    assert main(["endgame", "--rules", "classic-en", "--cgp", line, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    with pytest.raises(WordSalvoError, match="progress"):
        solve_endgame(game, progress=5)


def test_the_analysis_judges_endgames_by_a_node_budget_so_two_runs_agree(monkeypatch):
    """Issue 37, item 3: the endgame verdicts of a record are the same on any machine: the
    solver gets a budget of positions, never a clock, and the report states the budget."""
    import wordsalvo.engine.endgame as eg
    from wordsalvo.analysis import ENDGAME_NODES

    game = _at_bag_empty(14)
    while not game.is_over:
        game.apply(ws.Bot("equity", game.rules, game.lexicon).choose(game))
    record = ws.to_gcg(game)
    calls = []
    solve = eg._solve_state

    def spy(state, rules, lexicon, seconds, *args, **kw):
        calls.append((seconds, kw.get("nodes")))
        return solve(state, rules, lexicon, seconds, *args, **kw)

    monkeypatch.setattr(eg, "_solve_state", spy)

    def verdicts(analysis):
        return [(t.index, t.endgame_best, t.endgame_played, t.endgame_line, t.missed, t.note)
                for t in analysis.turns]

    for budget in (2_000, ENDGAME_NODES):  # a budget small enough to leave some solves unproven, the default
        first = ws.analyze_game(record, game.lexicon, endgame=budget)
        second = ws.analyze_game(record, game.lexicon, endgame=budget)
        assert verdicts(first) == verdicts(second)
        assert calls and all(c == (None, budget) for c in calls), calls  # no clock, only the budget
        calls.clear()
        assert first.endgame_nodes == budget and first.report()["game"]["endgame_nodes"] == budget
    assert f"within {ENDGAME_NODES:,} positions a solve" in first.text()
    from wordsalvo.render.report import html

    assert f"within {ENDGAME_NODES:,} positions a solve" in html(first.report())
    with pytest.raises(ws.WordSalvoError, match="expected positions per endgame solve"):
        ws.analyze_game(record, game.lexicon, endgame=0.5)


def _placed(rec):
    """A play's new tiles: frozenset of (square, letter, blank)."""
    step = 15 if rec["direction"] else 1
    first = int(rec["row"]) * 15 + int(rec["col"])
    return frozenset((first + i * step, int(rec["tiles"][i]), int(rec["blank_mask"]) >> i & 1)
                     for i in range(int(rec["length"])) if rec["tiles"][i])


def _run_kept(board, rec):
    """Whether the squares just before and after the play's main word are empty (or off the board)."""
    r, c, n = int(rec["row"]), int(rec["col"]), int(rec["length"])
    dr, dc = (1, 0) if rec["direction"] else (0, 1)
    ends = ((r - dr, c - dc), (r + dr * n, c + dc * n))
    return all(not (0 <= y < 15 and 0 <= x < 15) or not board[y * 15 + x] for y, x in ends)


@pytest.mark.parametrize("name,seed", [("classic-en", 1), ("classic-en", 2), ("wordsalvo-en", 3)])
def test_a_play_found_elsewhere_fits_exactly_where_the_generator_would_make_it(name, seed):
    # issue 34: the search tries the plays that cut off at other nodes of the same ply
    # (killers) before generating a node's moves; a play fits a position iff the generator
    # makes it there (with the same main word), at the generator's score.  Plays of both
    # racks (blanks on both) from the position and from the one after a play beside them.
    from wordsalvo._core import _engine

    rules, lexicon, gen = _setup(name)
    pos, tiles = _board_at_bag_empty(name, seed)
    pool = sorted(tiles)
    racks = [rules.alphabet.sort_rack(["?"] + pool[:4]), rules.alphabet.sort_rack(["?"] + pool[4:9])]
    state = state_from_position(ws.Position(rules, pos.board.copy(), racks, [200, 200], 0, to_move=0), bag="")
    other = state.copy()
    other.pass_turn()
    old = list(state.moves(gen._gen)) + list(other.moves(gen._gen))
    assert old and any(r["blank_mask"] for r in old)
    # the same position, and the one after a play of player 1 (player 0 on turn again)
    after = other.copy()
    after.play_record(max(other.moves(gen._gen), key=lambda r: int(r["tiles_played"])))
    checked = fitted = refused = 0
    for root in (state, after):
        if root.to_move != 0:
            continue
        made = {_placed(r): int(r["score"]) for r in root.moves(gen._gen)}
        solver = _engine.EndgameSolver(root, gen._gen, 10, 4096)
        board = root.board
        for rec in old:
            want = made.get(_placed(rec)) if _run_kept(board, rec) else None
            got = solver.play_score(rec)
            assert got == want, (rec, got, want)
            checked += 1
            fitted += got is not None
            refused += got is None
    assert fitted > 50 and refused > 50, (checked, fitted, refused)

"""Scripted game scenarios: every end rule, every settlement rule, swaps, strict mode,
time-outs, resignations, atomicity; GCG and CGP records of games."""

from __future__ import annotations

import re

import pytest
from game_helpers import lexicon_for, set_state, snapshot, tiles_in_play

import wordsalvo as ws
from wordsalvo import Game, GameError, IllegalMoveError, IllegalMoveReason, Rules, WordSalvoError
from wordsalvo.formats.cgp import format_cgp, parse_cgp
from wordsalvo.formats.gcg import GCGError, from_gcg, to_gcg
from wordsalvo.position import Position


@pytest.fixture(scope="module")
def de(tmp_path_factory):
    return lexicon_for(Rules.preset("woodword-de"), tmp_path_factory.mktemp("de"))


def make(name: str, players=2, seed=0, lexicon=None, **kw) -> Game:
    return Game(Rules.preset(name), lexicon=lexicon, players=players, seed=seed, **kw)


def kinds(game: Game) -> list[str]:
    return [t.kind for t in game.history]


# -- the bag ----------------------------------------------------------------------------
def test_same_seed_same_deal_and_other_seed_other_deal():
    assert make("wordsalvo-en", seed=3).racks == make("wordsalvo-en", seed=3).racks
    assert make("wordsalvo-en", seed=3).racks != make("wordsalvo-en", seed=4).racks


def test_new_game_conserves_tiles_and_fills_racks():
    for name in ("wordsalvo-en", "wordsalvo-nl", "classic-en", "turkish"):
        g = make(name, players=2)
        assert tiles_in_play(g) == {k: v for k, v in g.rules.distribution().items()}
        assert all(len(r) == 7 for r in g.racks)
        assert g.bag_count == g.rules.tile_count - 14


def test_turkish_first_deal_has_two_vowels_and_two_consonants():
    vowels = set("AEIİOÖUÜ")
    for seed in range(200):
        for rack in make("turkish", seed=seed).racks:
            assert sum(ch in vowels for ch in rack) >= 2, rack
            assert sum(ch not in vowels and ch != "?" for ch in rack) >= 2, rack


def test_player_count_comes_from_the_rule_set(de):
    with pytest.raises(GameError, match="expected 2..2 players, got 3"):
        make("turkish", players=3)
    with pytest.raises(GameError, match="expected 2..4 players, got 5"):
        make("wordsalvo-en", players=5)
    assert make("woodword-de", players=4, lexicon=de).names == ("Player1", "Player2", "Player3", "Player4")
    assert make("wordsalvo-en", players=["ann", "bob"]).names == ("ann", "bob")
    with pytest.raises(GameError, match="without spaces"):
        make("wordsalvo-en", players=["ann lee", "bob"])


# -- plays ------------------------------------------------------------------------------
def test_play_by_notation_and_by_move_are_the_same():
    a, b = make("wordsalvo-en", seed=9), make("wordsalvo-en", seed=9)
    best = a.best_move()
    a.play(best)
    b.play(best.notation)
    assert to_gcg(a) == to_gcg(b)
    assert a.history[0].score == best.score and a.history[0].notation == best.notation


def test_hand_checked_first_play_scores():
    # 8G AT: WordSalvo's centre pays nothing (A1 + T1 = 2); classic and Turkish double it (4)
    for name, score in (("wordsalvo-en", 2), ("classic-en", 4), ("turkish", 4)):
        g = make(name)
        set_state(g, racks=["ATEEEEE", g.racks[1]])
        assert g.preview("8G AT").score == score
        assert g.play("8G AT").score == score
        assert g.scores[0] == score and g.to_move == 1 and len(g.racks[0]) == 7


def test_preview_shows_words_and_score_or_reasons_and_changes_nothing():
    g = make("wordsalvo-en")
    set_state(g, racks=["ATEEEEE", g.racks[1]])
    before = snapshot(g)
    p = g.preview("8G AT")
    assert p.legal and [w.word for w in p.words] == ["AT"] and p.score == 2
    bad = g.preview("8A AT")
    assert not bad.legal and IllegalMoveReason.CENTRE_NOT_COVERED in bad.reasons
    off = g.preview("8N ATE")
    assert not off.legal and off.reasons == (IllegalMoveReason.OFF_BOARD,)
    assert snapshot(g) == before


def test_legal_moves_match_the_generator():
    g = make("classic-en", seed=2)
    g.play(g.best_move())
    assert len(g.legal_moves()) == g._gen.count(g.position())
    assert g.best_move().score == g.legal_moves().sorted()[0].score


def test_position_is_rotated_to_the_player_on_turn_and_round_trips_as_cgp():
    g = Game(Rules.preset("wordsalvo-en", board_seed=12), seed=1)
    g.play(g.best_move())
    pos = g.position()
    assert pos.racks == [g.racks[1], g.racks[0]] and pos.scores == [g.scores[1], g.scores[0]]
    again = parse_cgp(format_cgp(pos))
    assert again.rules.layout == g.rules.layout and again.board == pos.board and again.racks == pos.racks


# -- swaps ------------------------------------------------------------------------------
def test_swap_any_number_while_the_bag_holds_seven():
    g = make("wordsalvo-en")
    rack = g.rack
    g.swap(rack[:3])
    assert kinds(g) == ["swap"] and g.history[0].tiles == "".join(sorted(rack[:3]))
    assert tiles_in_play(g) == g.rules.distribution()
    set_state(g, bag=list("ABCDEF"))
    with pytest.raises(GameError, match="at least 7 tiles, it holds 6"):
        g.swap(g.rack[:1])
    with pytest.raises(GameError, match="not on the rack"):
        make("wordsalvo-en").swap("QQQ")
    with pytest.raises(GameError, match="at least one tile"):
        make("wordsalvo-en").swap("")


def test_turkish_swap_is_whole_rack_and_draws_before_the_old_tiles_return():
    g = make("turkish")
    with pytest.raises(GameError, match="whole rack only"):
        g.swap(g.rack[:2])
    set_state(g, racks=["BCÇDEFG", g.racks[1]], bag=list("AAAAAAAAA"))
    g.swap()
    assert g.racks[0] == "AAAAAAA"
    assert sorted(g.bag) == sorted("AABCÇDEFG")
    set_state(g, racks=[g.racks[0], "BCÇDEFG"], bag=list("AAAAAA"))
    with pytest.raises(GameError, match="as many tiles as are swapped"):
        g.swap()


# -- end rules and settlement -------------------------------------------------------------
@pytest.mark.parametrize("name,score", [("wordsalvo-en", 2), ("turkish", 4), ("classic-en", 4)])
def test_play_out_credits_the_opponents_rack(name, score):
    g = make(name)
    set_state(g, racks=["AT", "ZKB"], bag=[])
    values = {k: v for k, (_c, v) in g.rules.tiles.items()}
    left = sum(values[ch] for ch in "ZKB")
    g.play("8G AT")
    assert g.is_over and g.end_reason == "out"
    assert g.scores == [score + left, -left]
    assert kinds(g) == ["play", "settle", "settle"]
    assert g.winners == (0,)
    with pytest.raises(GameError, match="game is over"):
        g.pass_turn()


def test_rack_out_needs_an_empty_bag():
    g = make("wordsalvo-en")
    set_state(g, racks=["AT", "ZKB"], bag=list("E"))
    g.play("8G AT")
    assert not g.is_over and g.racks[0] == "E"


def test_wordsalvo_all_pass_two_rounds_subtracts_own_racks():
    for players in (2, 3):
        g = make("wordsalvo-en", players=players)
        racks = g.racks
        for _ in range(2 * players - 1):
            g.pass_turn()
        assert not g.is_over
        g.pass_turn()
        assert g.is_over and g.end_reason == "passes"
        values = {k: v for k, (_c, v) in g.rules.tiles.items()}
        assert g.scores == [-sum(values[ch] for ch in r) for r in racks]


def test_wordsalvo_swap_resets_the_pass_counter_and_timeout_counts_as_pass():
    g = make("wordsalvo-en")
    for _ in range(3):
        g.pass_turn()
    g.swap(g.rack[:1])
    assert g.pass_count == 0
    for _ in range(3):
        g.pass_turn()
    assert not g.is_over
    g.timeout()  # WordSalvo: running out of time ends the turn and counts as a pass
    assert g.is_over and g.end_reason == "passes"


def test_wordfeud_three_consecutive_passes(de):
    g = make("wordfeud-de", lexicon=de)
    g.pass_turn()
    g.pass_turn()
    g.swap(g.rack[:2])  # a swap resets the count
    g.pass_turn()
    g.pass_turn()
    assert not g.is_over
    racks = g.racks
    g.pass_turn()
    assert g.is_over and g.end_reason == "passes"
    values = {k: v for k, (_c, v) in g.rules.tiles.items()}
    assert g.scores == [-sum(values[ch] for ch in r) for r in racks]


def test_wordfeud_timeout_loses_whatever_the_score(de):
    g = make("wordfeud-de", lexicon=de)
    set_state(g, scores=[10, 0])
    g.timeout()
    assert g.is_over and g.end_reason == "timeout" and g.winners == (1,)
    assert g.scores == [10, 0]


def test_turkish_scoreless_turns_end_only_below_twenty_and_without_settlement():
    g = make("turkish")
    for _ in range(6):  # a full bag: passes never end the game
        g.pass_turn()
    assert not g.is_over
    g = make("turkish")
    set_state(g, bag=g.bag[:19], scores=[30, 20])
    g.swap()
    g.pass_turn()
    g.pass_turn()
    assert not g.is_over
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"
    assert g.scores == [30, 20] and "settle" not in kinds(g)
    assert g.winners == (0,)


def test_turkish_a_valid_word_resets_the_count_whatever_it_scores():
    g = make("turkish")
    set_state(g, racks=["??EEEEE", g.racks[1]], bag=g.bag[:19])
    g.pass_turn()
    g.pass_turn()
    assert g.scoreless_count == 2
    assert g.play("8G at").score == 0
    assert g.scoreless_count == 0 and not g.is_over


def test_classic_six_scoreless_turns_including_a_zero_score_play():
    g = make("classic-en")
    set_state(g, racks=["??EEEEE", g.racks[1]])
    assert g.play("8G at").score == 0  # counts in classic-en
    g.swap(g.rack[:1])
    for _ in range(3):
        g.pass_turn()
    assert not g.is_over
    racks = g.racks
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"
    values = {k: v for k, (_c, v) in g.rules.tiles.items()}
    assert g.scores == [-sum(values[ch] for ch in r) for r in racks]


def test_woodword_six_scoreless_turns(de):
    g = make("woodword-de", lexicon=de, players=3)
    for _ in range(5):
        g.pass_turn()
    assert not g.is_over
    g.swap(g.rack[:1])
    assert g.is_over and g.end_reason == "scoreless"


def test_woodword_three_timeouts_in_a_row_eliminate(de):
    g = make("woodword-de", lexicon=de)
    for _ in range(2):
        g.timeout()
        g.pass_turn()
    g.timeout()
    assert g.is_over and g.end_reason == "elimination" and g.winners == (1,)


def test_woodword_elimination_with_three_players_goes_on(de):
    g = make("woodword-de", lexicon=de, players=3, seed=4)
    g.set_rack(1, "ABDENRS")
    g.set_rack(2, "ADEINST")
    for _ in range(3):
        g.timeout()
        for _ in range(2):
            move = g.best_move()
            assert move is not None
            g.play(move)
    assert g.players_left == (1, 2) and not g.is_over and g.to_move == 1
    assert tiles_in_play(g) == g.rules.distribution()


def test_a_turn_in_between_resets_the_timeouts(de):
    g = make("woodword-de", lexicon=de, players=3)
    g.timeout(); g.pass_turn(); g.pass_turn()  # noqa: E702
    g.swap(g.rack[:1]); g.pass_turn(); g.pass_turn()  # noqa: E702 - six scoreless: over
    assert g.end_reason == "scoreless"


def test_no_clock_no_timeout():
    g = make("classic-en")
    before = snapshot(g)
    with pytest.raises(GameError, match="no per-move clock"):
        g.timeout()
    assert snapshot(g) == before


def test_resign_the_remaining_player_wins_whatever_the_score():
    g = make("wordsalvo-en")
    set_state(g, scores=[10, 100])
    g.resign(1)  # not on turn: allowed
    assert g.is_over and g.end_reason == "resign" and g.winners == (0,) and g.scores == [10, 100]


def test_resign_with_three_players_the_game_goes_on():
    g = make("wordsalvo-en", players=3)
    g.resign()  # player 1, on turn
    assert not g.is_over and g.to_move == 1 and g.players_left == (1, 2)
    g.pass_turn()
    assert g.to_move == 2
    g.pass_turn()
    assert g.to_move == 1
    g.abandon(2)
    assert g.is_over and g.winners == (1,)


# -- strict mode ------------------------------------------------------------------------------
def test_refused_word_raises_and_changes_nothing_outside_strict_mode():
    g = make("wordsalvo-en")
    set_state(g, racks=["ZZTEEEE", g.racks[1]])
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as e:
        g.play("8G ZZ")
    assert e.value.reason == IllegalMoveReason.INVALID_WORDS and e.value.words == ("ZZ",)
    assert snapshot(g) == before
    assert g.refused_attempts == [(0, "8G ZZ", ("ZZ",))]


def test_strict_mode_a_refused_word_costs_the_turn(de):
    g = make("woodword-de", lexicon=de, strict=True)
    set_state(g, racks=["ENNQXEE", g.racks[1]])
    rack = g.rack
    turn = g.play("8G QX")
    assert turn.kind == "refused-play" and turn.score == 0 and turn.attempt_score > 0
    assert g.racks[0] == rack and g.to_move == 1 and g.scoreless_count == 1 and g.scores == [0, 0]
    with pytest.raises(IllegalMoveError, match="not on the rack"):
        g.play("8G QQQ")  # other faults still raise in strict mode
    with pytest.raises(GameError, match="no strict mode"):
        make("classic-en", strict=True)


# -- atomicity ----------------------------------------------------------------------------------
def test_every_failing_call_leaves_the_game_as_it_was(monkeypatch):
    g = make("wordsalvo-en", seed=5)
    g.play(g.best_move())
    before = snapshot(g)
    for call in (
        lambda: g.play("8A ZZZZ"),
        lambda: g.play("garbage"),
        lambda: g.play(42),
        lambda: g.swap("???????"),
        lambda: g.resign(7),
    ):
        with pytest.raises(WordSalvoError):
            call()
        assert snapshot(g) == before
    # a failure half-way through a play or a swap (after the C state changed)
    def boom(turn):
        raise RuntimeError("recording failed")
    monkeypatch.setattr(g, "_end_turn", boom)
    move = g.best_move()
    with pytest.raises(RuntimeError):
        g.play(move)
    assert snapshot(g) == before
    with pytest.raises(RuntimeError):
        g.swap(g.rack[:2])
    assert snapshot(g) == before


# -- GCG ------------------------------------------------------------------------------------------
def phony(g: Game) -> str:
    """A placement that fits the board and the rack but forms a word not in the lexicon."""
    from wordsalvo.notation import format_notation

    rack_codes = [g.rules.alphabet.code(ch) for ch in g.rack if ch != "?"]
    for m in g.legal_moves():
        for code in rack_codes:
            tiles = list(m.tiles)
            i = next(k for k, t in enumerate(tiles) if t)
            tiles[i] = code
            notation = format_notation(g.board, m.row, m.col, m.direction, tiles)
            if g.preview(notation).reasons == (IllegalMoveReason.INVALID_WORDS,):
                return notation
    raise AssertionError("no phony found")


def scripted_record_game(de) -> Game:
    g = make("woodword-de", lexicon=de, players=3, seed=8, strict=True)
    g.set_rack(0, "ABDENRS")
    g.play(g.best_move())
    g.swap(g.rack[:2])
    g.pass_turn()
    g.timeout()
    g.set_rack(1, "QXEEENN")
    assert g.play(phony(g)).kind == "refused-play"
    g.resign(2)
    return g


def test_gcg_round_trip_of_every_line_form(de):
    g = scripted_record_game(de)
    text = to_gcg(g)
    assert "#strict on" in text and " -- " in text and "(time)" in text and "(resign)" in text
    again = from_gcg(text, lexicon=de)
    assert to_gcg(again) == text


def test_gcg_random_board_and_star_squares_replay_exactly():
    rules = Rules.preset("wordsalvo-en", board_seed=77)
    g = Game(rules, seed=3)
    while not g.is_over:
        m = g.best_move()
        g.play(m) if m else g.pass_turn()
    text = to_gcg(g)
    assert "#board_seed 77" in text
    again = from_gcg(text)
    assert again.rules.layout == rules.layout and to_gcg(again) == text and again.winners == g.winners
    # a game that fixes its own star squares
    t = Rules.preset("turkish")
    t = t.with_layout(t.layout, star_squares=((2, 3), (12, 11)))
    g = Game(t, seed=1)
    g.play(g.best_move())
    text = to_gcg(g)
    assert "#stars 2,3 12,11" in text
    assert from_gcg(text).rules.star_squares == ((2, 3), (12, 11))


def test_gcg_without_seed_takes_the_racks_of_the_record():
    g = make("classic-en", seed=21)
    while not g.is_over:
        m = g.best_move()
        g.play(m) if m else g.pass_turn()
    text = "\n".join(line for line in to_gcg(g).splitlines() if not line.startswith("#seed"))
    again = from_gcg(text)
    assert again.scores == g.scores and again.board == g.board and again.end_reason == g.end_reason


def test_gcg_reads_dots_for_played_through_tiles():
    g = make("classic-en", seed=21)
    for _ in range(6):
        g.play(g.best_move())
    text = to_gcg(g)
    dotted = re.sub(r"\(([A-Za-z]+)\)", lambda m: "." * len(m.group(1)), text)
    assert dotted != text
    assert to_gcg(from_gcg(dotted)) == text


def test_gcg_syntax_problems_are_all_reported_with_line_numbers():
    text = "#rules classic-en\n#player1 a a\n#player2 b b\n>a: ABC 8H\n>b ABC - +0 0\nhello\n"
    with pytest.raises(GCGError) as e:
        from_gcg(text)
    assert len(e.value.problems) == 3
    assert "line 4" in str(e.value) and "line 5" in str(e.value) and "line 6" in str(e.value)
    assert isinstance(e.value, WordSalvoError)
    with pytest.raises(GCGError, match="#seed: expected a whole number"):
        from_gcg("#seed x\n#player1 a a\n#player2 b b\n")
    with pytest.raises(GCGError, match="rs/bseed"):
        from_gcg("#rules nosuch\n#player1 a a\n#player2 b b\n")


def test_gcg_replay_mismatches_name_the_line():
    g = make("classic-en", seed=4)
    for _ in range(4):
        g.play(g.best_move())
    lines = to_gcg(g).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(">"))
    bad_score = list(lines)
    parts = bad_score[first + 1].split()
    parts[-2] = "+999"
    bad_score[first + 1] = " ".join(parts)
    with pytest.raises(GCGError, match=rf"line {first + 2}: expected total 999 for Player2 \(0 \+999\)"):
        from_gcg("\n".join(bad_score))  # the record's own sums are checked first
    delta = 999 - int(lines[first + 1].split()[-2])
    for k in range(first + 1, len(lines)):  # the record's sums made to agree with the wrong score
        if lines[k].startswith(">Player2:"):
            parts = bad_score[k].split()
            parts[-1] = str(int(lines[k].split()[-1]) + delta)
            bad_score[k] = " ".join(parts)
    with pytest.raises(GCGError, match=rf"line {first + 2}: expected score"):
        from_gcg("\n".join(bad_score))
    bad_rack = list(lines)
    parts = bad_rack[first].split()
    parts[1] = "QQQQQQQ"
    bad_rack[first] = " ".join(parts)
    with pytest.raises(GCGError, match=rf"line {first + 1}: expected the rack QQQQQQQ to hold the tiles"):
        from_gcg("\n".join(bad_rack))
    parts[1] = lines[first].split()[1] + "Q"  # holds the tiles played, but is not the rack the bag gave
    bad_rack[first] = " ".join(parts)
    with pytest.raises(GCGError, match=rf"line {first + 1}: expected rack"):
        from_gcg("\n".join(bad_rack))
    score, total = lines[first].split()[-2:]
    again = lines[first][: -len(total)] + str(int(total) + int(score))  # its sums agree
    wrong_turn = lines[: first + 1] + [again]
    with pytest.raises(GCGError, match="on turn"):
        from_gcg("\n".join(wrong_turn))


def test_gcg_settlement_lines_are_checked():
    g = make("wordsalvo-en", seed=1)
    while not g.is_over:
        m = g.best_move()
        g.play(m) if m else g.pass_turn()
    assert g.end_reason == "out"
    lines = to_gcg(g).splitlines()
    loser, winner = lines[-2], lines[-1]
    assert " -" in loser.split(")")[1] and " +" in winner.split(")")[1]
    with pytest.raises(GCGError, match="expected a settlement line"):
        from_gcg("\n".join(lines[:-1]))
    score, total = winner.split()[-2:]
    wrong = winner[: -len(f"{score} {total}")] + f"{int(score) + 10:+d} {int(total) + 10}"  # sums agree
    with pytest.raises(GCGError, match=f"line {len(lines)}: expected '{re.escape(winner)}'"):
        from_gcg("\n".join(lines[:-1] + [wrong]))


def test_cgp_bseed_and_stars_opcodes():
    line = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 rs wordsalvo-en; bseed 9;"
    assert parse_cgp(line).rules.layout == Rules.preset("wordsalvo-en", board_seed=9).layout
    pos = parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEI/ 0/0 0 rs turkish; stars 0,0 1,3;")
    assert pos.rules.star_squares == ((0, 0), (1, 3))
    with pytest.raises(ws.PositionError, match="bseed: expected a whole number"):
        parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0 rs wordsalvo-en; bseed x;")
    with pytest.raises(ws.PositionError, match="stars"):
        parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0 rs turkish; stars 0;")


# -- undo ---------------------------------------------------------------------------------
def _penalty(penalty: str, points: int = 0) -> Rules:
    from importlib import resources

    text = resources.files("wordsalvo.rulesets").joinpath("classic-en.toml").read_text("utf-8")
    return Rules.from_toml(text.replace('penalty = "turn"\npoints = 0', f'penalty = "{penalty}"\npoints = {points}'))


@pytest.mark.parametrize("name", ["classic-en", "turkish", "wordsalvo-nl"])
def test_undo_takes_every_step_back_exactly_and_the_game_replays_the_same(name):
    from wordsalvo.engine.bot import Bot

    g = make(name, seed=11)
    start = (g.racks, g.bag, g.scores, g.board.tiles)
    bot = Bot("medium", g.rules, seed=2)
    actions, states = [], []
    while not g.is_over:
        states.append((g.racks, g.bag, g.scores, bytes(g.board.tiles), g.history, g.pass_count, g.scoreless_count))
        action = bot.choose(g)
        actions.append(action)
        g.apply(action)
    final = (g.racks, g.bag, g.scores, g.history, g.winners)
    for k in range(len(actions) - 1, -1, -1):  # one step back at a time: each earlier state exactly
        g.undo()
        assert (g.racks, g.bag, g.scores, bytes(g.board.tiles), g.history, g.pass_count,
                g.scoreless_count) == states[k]
    assert (g.racks, g.bag, g.scores, g.board.tiles) == start and not g.is_over
    with pytest.raises(GameError, match="expected a turn to take back"):
        g.undo()
    for action in actions:  # the random state came back too: the same moves draw the same tiles
        g.apply(action)
    assert (g.racks, g.bag, g.scores, g.history, g.winners) == final


def test_undo_of_a_player_takes_back_the_turns_after_it():
    g = make("classic-en", players=3, seed=1)
    g.play("8D ZERDA")
    g.pass_turn()
    g.pass_turn()
    taken = g.undo(0)
    assert [t.kind for t in taken] == ["play", "pass", "pass"] and g.history == () and g.to_move == 0
    with pytest.raises(GameError, match="player 2"):
        g.undo(1)


# -- challenges ---------------------------------------------------------------------------
def test_challenges_only_where_the_rule_set_lets_a_table_choose_them(de):
    with pytest.raises(GameError, match="has no challenges"):
        make("wordsalvo-en", challenges=True)
    with pytest.raises(GameError, match="exclude each other"):
        make("woodword-de", lexicon=de, challenges=True, strict=True)
    g = make("classic-en", seed=1)
    with pytest.raises(IllegalMoveError):
        g.play("8D ZEDRA")  # without challenges a phony is refused
    with pytest.raises(GameError, match="without challenges"):
        g.challenge()


def test_a_phony_stands_until_challenged_and_is_then_taken_back_with_its_draw():
    g = make("classic-en", seed=1, challenges=True)
    before = (g.racks, g.bag)
    t = g.play("8D ZEDRA")
    assert t.kind == "play" and g.can_challenge and g.challenger == 1 and g.phonies() == ("ZEDRA",)
    result = g.challenge()
    assert result.phony and result.invalid_words == ("ZEDRA",) and result.challenger == 1
    assert kinds(g) == ["refused-play"] and g.history[0].attempt_score == 50 and g.history[0].challenge == "won"
    assert (g.racks, g.bag) == before and g.board.tile_count == 0 and g.scores == [0, 0] and g.to_move == 1
    assert not g.can_challenge
    with pytest.raises(GameError, match="expected a play to challenge"):
        g.challenge()
    # the record replays exactly: the play, its removal, and the same draws after it
    g.play(g.best_move())
    again = from_gcg(to_gcg(g))
    assert again.history == g.history and again.racks == g.racks and again.bag == g.bag


@pytest.mark.parametrize("penalty,points", [("turn", 0), ("points", 5), ("none", 0)])
def test_a_failed_challenge_costs_what_the_rule_set_says(penalty, points):
    g = Game(_penalty(penalty, points), players=2, seed=1, challenges=True)
    g.play("8D ZERDA")
    result = g.challenge()
    assert not result.phony and result.penalty == penalty
    text = to_gcg(g)
    if penalty == "turn":
        assert kinds(g) == ["play", "pass"] and g.history[1].challenge == "lost" and g.to_move == 0
        assert "#note lost challenge: Player2 challenged 8D ZERDA" in text
    else:
        assert kinds(g) == ["play", "challenge-bonus"] and g.scores == [50 + points, 0] and g.to_move == 1
        assert f">Player1: ADEGORZ (challenge) +{points} {50 + points}" in text
    again = from_gcg(text, rules=g.rules)
    assert again.history == g.history and again.scores == g.scores and not again.can_challenge


def test_a_challenge_of_the_last_play_comes_before_the_settlement():
    g = Game(_penalty("points", 5), players=2, seed=1, challenges=True)
    set_state(g, racks=["AB", "XYZ"], bag=[], squares={(7, 6): "T"})
    g.play("8G (T)AB")  # out: the game ends at once
    assert g.is_over and g.can_challenge and g.challenger == 1
    r = g.challenge()
    assert [t.kind for t in g.history] == ["play", "challenge-bonus", "settle", "settle"]
    settle_to_0 = g.history[-1]
    assert settle_to_0.player == 0 and settle_to_0.total == g.scores[0] and r.turn.score == 5


def test_gcg_challenge_lines_are_checked_on_replay():
    g = make("classic-en", seed=1, challenges=True)
    g.play("8D ZERDA")
    text = to_gcg(g) + ">Player1: ADEGORZ (challenge) +5 55\n"
    with pytest.raises(GCGError, match="a failed challenge costs turn"):
        from_gcg(text)
    with pytest.raises(GCGError, match="in a game with challenges"):
        from_gcg(text.replace("#challenge on\n", ""))


def test_notes_keep_their_place_through_records_and_undo():
    g = make("classic-en", seed=1)
    g.add_note("before anything")
    g.play("8D ZERDA")
    g.add_note("hint for Player2 (1 of 3): something")
    text = to_gcg(g)
    assert text.index("#note before anything") < text.index(">Player1:") < text.index("#note hint for Player2")
    assert from_gcg(text).notes == g.notes == ((0, "before anything"), (1, "hint for Player2 (1 of 3): something"))
    g.undo()
    assert g.notes[1] == (0, "hint for Player2 (1 of 3): something")  # kept, at the place it now follows


def test_preview_returns_the_reasons_when_the_notation_does_not_fit_the_board():
    """A notation that reads but does not fit (a played-through letter over an empty square) is
    an illegal preview with its reason, not an exception; only unreadable text raises."""
    import wordsalvo as ws

    game = ws.Game(ws.Rules.preset("wordsalvo-en"), seed=1)
    result = game.preview("8H WO(R)D")
    assert not result.legal and result.reasons == (ws.IllegalMoveReason.NOTATION_MISMATCH,)
    assert "(R) at 8J: expected a tile on the board, got an empty square" in result.problems
    with pytest.raises(ws.IllegalMoveError) as e:
        game.play("8H WO(R)D")
    assert e.value.reason is ws.IllegalMoveReason.NOTATION_MISMATCH and not game.history
    with pytest.raises(ws.NotationError):
        game.preview("8H")
    gen = ws.MoveGenerator(game.lexicon, game.rules)
    with pytest.raises(ws.IllegalMoveError, match="expected a tile on the board"):
        gen.validate(game.position(), "8H WO(R)D")

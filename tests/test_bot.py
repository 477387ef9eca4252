"""Engine players: each kind does what its docstring says, and no level plays an absurd move."""

from __future__ import annotations

import random

import numpy as np
import pytest

import wordsalvo as ws
import wordsalvo.engine.bot
from wordsalvo.actions import Pass, Play, Swap
from wordsalvo.engine.bot import LEVEL_POLICIES, LEVELS, PLAYER_KINDS, Bot
from wordsalvo.lexicon.vocabulary import VOCABULARIES, level_vocabulary
from wordsalvo.errors import GameError
from wordsalvo.leaves import Leaves

RULES = ws.Rules.preset("wordsalvo-en")


@pytest.fixture(scope="module")
def leaves():
    return Leaves.default(RULES)


def positions(n_games=6, seed=0, rules=RULES):
    """Games of the score player, stopped at every turn: (game, turn index) pairs, replayed lazily."""
    out = []
    for g in range(n_games):
        game = ws.Game(rules, seed=seed + g)
        turns = 0
        while not game.is_over and turns < 40:
            out.append((seed + g, turns))
            m = game.best_move()
            game.apply(Play(m) if m is not None else Pass())
            turns += 1
    return out


def replay(seed, turns, rules=RULES):
    game = ws.Game(rules, seed=seed)
    for _ in range(turns):
        m = game.best_move()
        game.apply(Play(m) if m is not None else Pass())
    return game


def test_kinds_and_errors(leaves):
    assert PLAYER_KINDS == ("score", "equity", "easy", "medium", "hard", "expert", "master")
    with pytest.raises(GameError, match="expected an engine player"):
        Bot("grandmaster", RULES)
    with pytest.raises(GameError, match="Rules"):
        Bot("easy", "wordsalvo-en")
    game = ws.Game(RULES, seed=1)
    while not game.is_over:
        game.apply(Bot("score", RULES).choose(game))
    with pytest.raises(GameError, match="over"):
        Bot("score", RULES).choose(game)


def test_score_and_equity_bots_play_the_best_move(leaves):
    game = ws.Game(RULES, seed=4)
    for _ in range(8):
        a = Bot("score", RULES).choose(game)
        assert isinstance(a, Play) and a.move.score == game.legal_moves().scores.max()
        e = Bot("equity", RULES, leaves=leaves).choose(game)
        full = game.legal_moves(leaves=leaves).to_numpy()
        if isinstance(e, Play):
            assert e.equity == pytest.approx(float(full["equity"].max()), abs=1e-4)
        else:
            assert isinstance(e, Swap) and e.equity > float(full["equity"].max())
        game.apply(a)


def test_same_seed_same_choices(leaves):
    for level in ("easy", "medium", "hard"):
        picks = []
        for _ in range(2):
            bot = Bot(level, RULES, leaves=leaves, seed=7)
            game = ws.Game(RULES, seed=9)
            seq = []
            while not game.is_over:
                a = bot.choose(game)
                seq.append(str(a))
                game.apply(a)
            picks.append(seq)
        assert picks[0] == picks[1]


OTHER_LANGUAGES = [pytest.param(p, lv, marks=pytest.mark.slow) for p in ("wordsalvo-nl", "turkish")
                   for lv in ("easy", "medium", "hard")]


@pytest.mark.parametrize("preset,level", [("wordsalvo-en", lv) for lv in ("easy", "medium", "hard")]
                         + OTHER_LANGUAGES)
def test_levels_never_play_absurd_moves(preset, level):
    """On many positions: no blank or S spent for a few points, never less than half the
    best play the level would make (so never half of a natural play, one that spends no
    blank and no S), and only words of the level's vocabulary; moves that form an
    offensive word are no alternative (no level plays them)."""
    rules = ws.Rules.preset(preset)
    leaves = Leaves.default(rules)
    pol = LEVEL_POLICIES[level]
    lexicon = ws.Lexicon.default(rules.alphabet.name)
    vocab = level_vocabulary(level, lexicon) or lexicon
    limit = VOCABULARIES[level].limit(rules.alphabet.name)
    s_code = rules.alphabet.code("S") if preset == "wordsalvo-en" else -1
    rng = random.Random(level)
    sample = rng.sample(positions(rules=rules), 60)
    checked = 0
    for seed, turns in sample:
        game = replay(seed, turns, rules)
        if game.is_over:
            continue
        bot = Bot(level, rules, leaves=leaves, seed=seed * 100 + turns)
        action = bot.choose(game)
        if not isinstance(action, Play):
            continue
        move = action.move
        listed = game.legal_moves(leaves=leaves, vocabulary=bot.vocabulary)
        # a move that forms an offensive word is no alternative: the level never plays it
        clean = np.array([not bot.offensive.is_offensive(m) for m in listed], dtype=bool)
        seen = listed.to_numpy()[clean] if len(listed) else listed.to_numpy()
        if len(seen) == 0:
            continue
        checked += 1
        assert all(w in vocab and len(w) <= limit for w in move.formed_words()), move
        score = seen["score"].astype(int)
        bingo = seen["tiles_played"] >= rules.rack_size
        blanks = seen["blank_mask"] != 0
        bits = (seen["blank_mask"].astype(np.int64)[:, None] >> np.arange(15)) & 1
        uses_s = ((seen["tiles"] == s_code) & (bits == 0)).any(axis=1)
        move_blank = any(t & 0x80 for t in move.tiles)
        move_s = any(t == s_code for t in move.tiles)
        move_bingo = move.tiles_played >= rules.rack_size

        def fits(view):
            """The move obeys the guards when the level saw the plays of ``view``: a blank
            must beat the best play without one, then an S the best play without one among
            the plays left (a blank play that failed its guard is no alternative)."""
            allowed = view.copy()
            for uses, used, margin in ((blanks, move_blank, pol.blank_margin), (uses_s, move_s, pol.s_margin)):
                without = allowed & ~uses
                if not without.any():
                    continue
                if used and not move_bingo and move.score < score[without].max() + margin:
                    return False  # a blank or an S spent for a few points
                allowed &= ~uses | bingo | (score >= score[without].max() + margin)
            return move.score * 2 >= score[allowed].max()  # never half of a natural play

        every = np.ones(len(seen), dtype=bool)
        assert fits(every) or fits(seen["tiles_played"] <= pol.max_tiles), (level, seed, turns, move)
    assert checked >= 30


def test_level_vocabularies_are_the_frequent_words_of_the_lexicon(monkeypatch, tmp_path):
    """easy knows the 5,000 most frequent words the lexicon has (up to 6 letters), medium
    30,000 (up to 7), hard every word up to 7 letters in English: none of QI, AEQ, FID,
    VAV, RAJ (what easy played with its old 116,000-word list) is an easy word."""
    from wordsalvo.lexicon.vocabulary import ranked_list, ranked_list_path

    en = ws.Lexicon.default("en")
    ranked, _sha = ranked_list(ranked_list_path("en"))
    easy, medium, hard = (level_vocabulary(lv, en) for lv in ("easy", "medium", "hard"))
    known = [w for w in ranked if w in en]
    assert sorted(easy) == sorted(w for w in known[:5000] if len(w) <= 6) and len(easy) == 2_692
    assert sorted(medium) == sorted(w for w in known[:30000] if len(w) <= 7) and len(medium) == 15_704
    assert len(hard) == sum(1 for w in en if len(w) <= 7) and "AAL" in hard
    assert {"CAT", "HOUSE", "WATER"} <= set(easy) and not {"QI", "AEQ", "FID", "VAV", "RAJ"} & set(easy)
    assert not {"AEQ", "FID", "VAV"} & set(medium)
    assert level_vocabulary("expert", en) is None
    # the embedded lexicons' vocabularies ship with the package; another lexicon's are built
    # once into the cache folder, named by the content of everything they are made from
    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    small = tmp_path / "small.txt"
    small.write_text("\n".join(["CAT", "CATS", "DOG", "HOUSE", "AEQ", "QI", "WATERFALLS"]) + "\n")
    ws.compile_lexicon(small, tmp_path / "small.wsg", alphabet="en")
    mine = ws.Lexicon.load(tmp_path / "small.wsg")
    vocab = level_vocabulary("easy", mine)  # the 5,000 most frequent words it has: all but the rare
    assert set(vocab) == {"CAT", "CATS", "DOG", "HOUSE", "QI"}  # AEQ (unranked) and the 10-letter word
    (cached,) = (tmp_path / "levels").glob("en-easy-*.wsg")
    assert set(ws.Lexicon.load(cached)) == set(vocab)
    nl = ws.Lexicon.default("nl")
    assert all(w in nl and len(w) <= 6 for w in level_vocabulary("easy", nl))
    assert not list((tmp_path / "levels").glob("nl-*.wsg"))  # shipped, not built


def test_game_best_move_by_level(leaves):
    game = ws.Game(RULES, seed=2)
    a = game.engine_action("expert", leaves=leaves)
    b = Bot("expert", RULES, leaves=leaves).choose(game)
    assert str(a) == str(b)
    assert isinstance(game.engine_action("easy", leaves=leaves, seed=3), (Play, Swap, Pass))


def test_a_vocabulary_outside_the_lexicon_is_refused(tmp_path):
    path = tmp_path / "odd.txt"
    path.write_text("ZZXQJ\nCAT\n", "utf-8")
    ws.compile_lexicon(path, tmp_path / "odd.wsg", alphabet="en")
    odd = ws.Lexicon.load(tmp_path / "odd.wsg")
    game = ws.Game(RULES, seed=1)
    with pytest.raises(GameError, match="vocabulary"):
        game.legal_moves(vocabulary=odd)


# -- master: simulation within a budget ------------------------------------------------------------
def test_master_without_a_budget_is_expert(leaves):
    for seed, turns in positions(n_games=2, seed=30)[::7]:
        game = replay(seed, turns)
        if game.is_over:
            continue
        assert Bot("master", RULES, seconds=0).choose(game) == Bot("expert", RULES).choose(game)


def test_master_simulates_and_plays_a_whole_game(leaves, monkeypatch):
    import wordsalvo.engine.simulation as simulation

    calls = []
    real = simulation.Simulator.run

    def counted(self):
        result = real(self)
        calls.append(result)
        return result

    monkeypatch.setattr(simulation.Simulator, "run", counted)
    game = ws.Game(RULES, seed=12)
    bots = [Bot("master", RULES, seconds=0.02, seed=1), Bot("expert", RULES)]
    while not game.is_over:
        turns = len(calls)
        action = bots[game.to_move].choose(game)
        if game.to_move == 0 and len(calls) > turns:  # the simulation's best is the action
            assert action is calls[-1].best.action
        game.apply(action)  # Game.apply raises on an illegal move
    assert calls, "master never simulated"
    assert all(r.plies == 2 and r.sampling == "bai" for r in calls)
    assert all(len(r.rows) <= wordsalvo.engine.bot.MASTER_PLAYS + 1 for r in calls)


def test_master_plays_as_expert_in_a_three_player_game():
    game = ws.Game(RULES, players=3, seed=4)
    assert Bot("master", RULES, seconds=5).choose(game) == Bot("expert", RULES).choose(game)


def test_master_asks_the_endgame_solver_when_the_bag_is_empty(monkeypatch):
    """The hook: with the bag empty, the solver's first move (a module wordsalvo.engine.endgame)."""
    import sys
    import types

    game = ws.Game(RULES, seed=5)
    while game.bag_count > 0 and not game.is_over:
        game.apply(Bot("expert", RULES).choose(game))
    assert not game.is_over
    legal = game.legal_moves()
    pick = legal[len(legal) - 1]  # a move no simulation would choose
    asked = []

    def solve_endgame(position, lexicon=None, *, seconds=None, threads=1):
        asked.append(position)
        return types.SimpleNamespace(moves=(pick,), pv=(pick.notation,))

    fake = types.ModuleType("wordsalvo.engine.endgame")
    fake.solve_endgame = solve_endgame
    monkeypatch.setitem(sys.modules, "wordsalvo.engine.endgame", fake)
    action = Bot("master", RULES, seconds=0.05).choose(game)
    assert asked and isinstance(action, Play) and action.move == pick


def test_master_arguments():
    with pytest.raises(GameError, match="seconds"):
        Bot("master", RULES, seconds=-1)
    with pytest.raises(GameError, match="threads"):
        Bot("master", RULES, threads=0)
    assert Bot("master", RULES).seconds == wordsalvo.engine.bot.MASTER_SECONDS


def test_one_name_for_the_n_best_and_no_old_spellings(leaves):
    """best_move(level=...) and MoveGenerator.best(pos, n=...) are gone (an untagged 0.1.0
    keeps no aliases): best gives one Move, top(n) a MoveList, on the generator, the Game
    and a MoveList alike; no return type depends on an argument."""
    game = ws.Game(RULES, seed=2)
    with pytest.raises(TypeError, match="level"):
        game.best_move(level="expert", leaves=leaves)
    assert str(game.engine_action("expert", leaves=leaves)) == str(game.engine_action("expert", leaves=leaves))
    gen = ws.MoveGenerator(game.lexicon, RULES)
    pos = game._position()
    with pytest.raises(TypeError):
        gen.best(pos, n=5)
    five = game.top(5)
    assert five.to_numpy().tobytes() == gen.top(pos, 5).to_numpy().tobytes()
    assert five.to_numpy().tobytes() == gen.generate(pos).top(5).to_numpy().tobytes()
    assert game.best_move() == five[0]
    assert not hasattr(game, "best_moves") and not hasattr(ws.MoveList, "best")
    assert gen.best(pos) == gen.top(pos, 1)[0]
    with pytest.raises(ws.WordSalvoError, match="n: expected a whole number"):
        gen.top(pos, 0)

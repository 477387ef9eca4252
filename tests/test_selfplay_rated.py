"""The rated player in the C self-play loop plays exactly the games of Game and Bot(rating=R).

Oracles: Python's own random.Random for the C twin of random.random(); a pure-Python
softmax draw (math.exp, sums in index order, bisect) for the C draw both players use;
Move.formed_words with OffensiveWords for the C check of listed words; and the Game/Bot
path of wordsalvo.engine.autoplay for whole games, turn record for turn record (moves,
swaps, scores, equities, racks), at several strengths (negative, 0, small, large), on
every rule set with an embedded lexicon, with and without a leave table, with a list of
offensive words that rules out most plays, and with a move buffer too small for a turn.
"""

from __future__ import annotations

import bisect
import math
import random
from pathlib import Path

import numpy as np
import pytest
from game_helpers import VARIANTS, variant
from hypothesis import given, settings
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo import offensive as offensive_module
from wordsalvo._core import _engine
from wordsalvo.engine import autoplay
from wordsalvo.engine.autoplay import AutoplaySpec, _python_game, play_game
from wordsalvo.engine.bot import Bot, softmax_pick
from wordsalvo.engine.selfplay import SETTLE, SelfPlay, engine_supported, rated_beta
from wordsalvo.offensive import OffensiveWords


# -- the draw ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, "wordsalvo-bot-1200-7", 2**70 + 5])
def test_c_random_is_python_random(seed):
    rng = random.Random(seed)
    for _ in range(3):  # fresh, and part way through the 624 words
        state = rng.getstate()
        assert _engine.rng_random_draws(state, 700) == [rng.random() for _ in range(700)]


def reference_pick(value, beta, excluded, u):
    """The draw in plain Python: exp(beta * (value - ref)) by math.exp, running sums in
    index order, the first sum above u * total; a total rounded up: the last positive weight."""
    n = len(value)
    allowed = [i for i in range(n) if not excluded[i]]
    ref = max(value[i] for i in allowed) if beta >= 0 else min(value[i] for i in allowed)
    weights = [0.0 if excluded[i] else math.exp(beta * (value[i] - ref)) for i in range(n)]
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    k = bisect.bisect_right(cum, u * total)
    if k >= n:
        k = max(i for i in range(n) if weights[i] > 0)
    return k


values = st.lists(st.one_of(st.integers(-50, 200).map(float),
                            st.floats(-300, 300, allow_nan=False, width=32)), min_size=1, max_size=40)


@settings(max_examples=400, deadline=None)
@given(values, st.one_of(st.sampled_from([0.0, -0.0, 10.0, -10.0, 1e-9]), st.floats(-10, 10)),
       st.data(), st.one_of(st.floats(0, 1, exclude_max=True), st.just(1 - 2**-53), st.just(0.0)))
def test_the_c_draw_is_the_plain_python_draw(value, beta, data, u):
    excluded = data.draw(st.lists(st.booleans(), min_size=len(value), max_size=len(value)))
    if all(excluded):
        excluded[data.draw(st.integers(0, len(value) - 1))] = False
    k = _engine.softmax_pick(np.array(value), beta, np.array(excluded), u)
    assert k == reference_pick(value, beta, excluded, u)
    assert not excluded[k]


def test_softmax_pick_draws_once_and_refuses_what_it_cannot_draw():
    rng = random.Random(3)
    twin = random.Random(3)
    k = softmax_pick([1.0, 2.0, 3.0], 0.5, rng)
    assert k == reference_pick([1.0, 2.0, 3.0], 0.5, [False] * 3, twin.random()) and rng.random() == twin.random()
    assert softmax_pick([1.0, 2.0], 0.5, rng, excluded=[True, True]) is None
    assert softmax_pick([], 0.5, rng) is None
    with pytest.raises(ws.WordSalvoError, match="finite"):
        softmax_pick([1.0, math.nan], 0.5, rng)
    with pytest.raises(ws.WordSalvoError, match="exclusion flags"):
        softmax_pick([1.0, 2.0], 0.5, rng, excluded=[True])
    with pytest.raises(ws.WordSalvoError, match=r"uniform number in \[0, 1\)"):
        _engine.softmax_pick(np.array([1.0]), 0.5, None, 1.0)
    with pytest.raises(ws.WordSalvoError, match="every index is excluded"):
        _engine.softmax_pick(np.array([1.0]), 0.5, np.array([True]), 0.5)
    with pytest.raises(ws.WordSalvoError, match="at least one value"):
        _engine.softmax_pick(np.zeros(0), 0.5, None, 0.5)


# -- listed words ----------------------------------------------------------------------------
@pytest.mark.parametrize("rules_name", ["classic-en", "turkish"])
def test_listed_words_in_c_are_the_words_a_move_forms(rules_name):
    """Every legal move of the positions of a seeded game, against a list of half the words
    those moves form (cross words and main words alike; Turkish letters are 2 bytes)."""
    rules = ws.Rules.preset(rules_name)
    lex = ws.Lexicon.default(rules.alphabet.name)
    game = ws.Game(rules, lex, seed=4)
    rng = random.Random(1)
    checked = listed = 0
    for _ in range(14):
        if game.is_over:
            break
        moves = game.legal_moves()
        formed = sorted({w for m in moves for w in m.formed_words()})
        words = OffensiveWords(rules.alphabet.name, rng.sample(formed, len(formed) // 2))
        clist = _engine.WordList(sorted(words.words), rules.alphabet.letters)
        board = bytes(game.position().board.tiles)
        for i, move in enumerate(moves):
            want = words.is_offensive(move)
            assert clist.forms_listed(board, moves._records[i]) == want, (move.notation, move.formed_words())
            checked += 1
            listed += want
        game.play(game.best_move())
    assert checked > 1000 and 0 < listed < checked
    empty = _engine.WordList([], rules.alphabet.letters)
    assert not empty.forms_listed(board, moves._records[0]) and len(empty) == 0


def test_word_lists_refuse_bad_input():
    with pytest.raises(ws.WordSalvoError, match="letter 2"):
        _engine.WordList(["AB"], ["A", "B" * 9])
    with pytest.raises(ws.WordSalvoError, match="at most 32 letters"):
        _engine.WordList([], ["A"] * 33)
    clist = _engine.WordList(["AB"], ["A", "B"])
    bad = np.zeros(1, dtype=_engine.MOVE_DTYPE)
    bad["length"], bad["col"] = 15, 3
    with pytest.raises(ws.PositionError, match="fits the board"):
        clist.forms_listed(bytes(225), bad[0])
    with pytest.raises(ws.PositionError):
        clist.forms_listed(bytes(10), bad[0])


# -- whole games -------------------------------------------------------------------------------
def records_of(monkeypatch, fn, spec, index):
    """The turn records a game of ``fn`` (_python_game or play_game) hands to _result,
    settlement entries left out, and its result."""
    seen = {}
    real = autoplay._result

    def spy(rules, index, seed, first, records, *rest, **named):
        seen["records"] = np.array(records)
        return real(rules, index, seed, first, records, *rest, **named)

    with monkeypatch.context() as m:
        m.setattr(autoplay, "_result", spy)
        result = fn(spec, index, trace=True)
    records = seen["records"]
    return records[records["kind"] != SETTLE], result


def same_games(monkeypatch, spec, indices):
    for i in indices:
        slow, slow_result = records_of(monkeypatch, _python_game, spec, i)
        fast, fast_result = records_of(monkeypatch, play_game, spec, i)
        assert len(fast) == len(slow), f"game {i} of {spec}: {len(fast)} turns in C, {len(slow)} in Python"
        for t, (a, b) in enumerate(zip(fast, slow)):
            assert a.tobytes() == b.tobytes(), f"game {i} of {spec}, turn {t}:\nC      {a}\nPython {b}"
        assert fast_result == slow_result


@pytest.fixture()
def fresh_workers():
    """A clean autoplay cache before and after (a test that changes what the Bots read)."""
    autoplay._CACHE.clear()
    yield
    autoplay._CACHE.clear()


PLAYERS = [("beta=0.1", "beta=-0.05"), ("beta=0", "equity"), ("1200", "900"), ("beta=2", "score")]


@pytest.mark.parametrize("rules", ["wordsalvo-en", "classic-en", "wordsalvo-nl", "turkish"])
@pytest.mark.parametrize("players", PLAYERS)
def test_rated_games_in_c_equal_game_and_bot(monkeypatch, rules, players):
    """Shipped leave tables (swaps weighed), both seat orders, every turn record."""
    assert engine_supported(players)
    same_games(monkeypatch, AutoplaySpec(rules, players, seed=5), range(3))


@pytest.fixture(scope="module")
def tiny_lexicon(tmp_path_factory):
    """Few words: the rated player often cannot play, so the no-table fallback swaps and passes."""
    folder = tmp_path_factory.mktemp("tiny")
    words = ["AA", "AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR", "AS", "AT", "BE", "DE", "EH", "EL",
             "EN", "ER", "ES", "HE", "ID", "IN", "IS", "IT", "LA", "LI", "LO", "MA", "ME", "NA", "NE", "NO", "ON",
             "OR", "RE", "SO", "TA", "TE", "TO", "EAR", "ERA", "ARE", "TEA", "EAT", "ATE", "RAT", "TAR", "ART",
             "SAT", "SEA", "TEN", "NET", "RATE", "TEAR", "STAR", "RATS", "NEAT", "ANTE", "EARN", "NEAR", "NOTE"]
    src = folder / "tiny.txt"
    src.write_text("\n".join(words) + "\n", "utf-8")
    ws.compile_lexicon(src, folder / "tiny.wsg", "en")
    return str(folder / "tiny.wsg")


@pytest.mark.parametrize("name", ["passes-end", "whole-rack", "scoreless-bag"])
def test_rated_games_without_a_leave_table(monkeypatch, tmp_path, tiny_lexicon, fresh_workers, name):
    """A rule set with no shipped table: the rated player weighs scores, no swap, and with
    no play takes the score player's fallback (a whole-rack swap or a pass)."""
    rules = variant(tmp_path, "classic-en", **VARIANTS[name])
    spec = AutoplaySpec(rules, ("beta=0.2", "beta=0"), seed=3, lexicon=tiny_lexicon)
    bots = autoplay._worker_setup(spec)[2]
    assert all(b.leaves is None for b in bots)
    same_games(monkeypatch, spec, range(4))
    kinds = set()
    for i in range(4):
        records, _ = records_of(monkeypatch, play_game, spec, i)
        kinds.update(_engine.TURN_KIND_NAMES[int(k)] for k in records["kind"])
    assert {"play", "swap"} <= kinds  # no swap is weighed without a table: each is the fallback


def test_offensive_words_are_never_played_in_c_either(monkeypatch, fresh_workers):
    """An offensive list of two thirds of the words of the first moves: most draws are ruled
    out and drawn again, in C as in Python (the Bots count the ruled-out draws)."""
    rules = ws.Rules.preset("classic-en")
    game = ws.Game(rules, seed=2)
    formed = sorted({w for m in game.legal_moves() for w in m.formed_words()})
    common = ["AT", "TO", "IN", "IT", "AN", "ON", "NO", "OR", "RE", "ER", "ES", "EN", "NE", "TE", "TA", "AE", "OE"]
    listed = set(formed[: 2 * len(formed) // 3]) | set(common)
    monkeypatch.setitem(offensive_module._DEFAULTS, "en", OffensiveWords("en", listed))
    spec = AutoplaySpec("classic-en", ("beta=0.3", "beta=0"), seed=2)
    ruled_out = []
    real = OffensiveWords.is_offensive

    def counting(self, move):
        hit = real(self, move)
        ruled_out.append(hit)
        return hit

    monkeypatch.setattr(OffensiveWords, "is_offensive", counting)
    same_games(monkeypatch, spec, range(3))
    assert sum(ruled_out) >= 10  # 20 with the leave tables of 2026-12-07


def test_a_turn_with_more_plays_than_the_buffer_is_played_again_the_same(tmp_path):
    rules = ws.Rules.preset("wordsalvo-en")
    engine = SelfPlay(rules, ws.Lexicon.default("en"))
    table = ws.Leaves.default(rules)
    engine.set_players(("beta=0.1", "1200"), (table, table))
    want = [engine.play(seed) for seed in range(2)]
    engine._sp._rated_buffer(3)  # far fewer plays than any opening rack has
    for seed, w in enumerate(want):
        got = engine.play(seed)
        assert got.records.tobytes() == w.records.tobytes() and got.scores == w.scores


def test_only_finite_strengths_run_in_c(tiny_lexicon):
    assert engine_supported(("1200", "equity")) and engine_supported(("beta=-0.1", "beta=0"))
    assert not engine_supported(("beta=inf", "equity")) and not engine_supported(("1880.5", "score"))
    assert not engine_supported(("hard", "1200")) and not engine_supported(("expert", "score"))
    assert rated_beta("beta=0.25") == 0.25 and rated_beta("1200") == Bot(rating=1200, rules=ws.Rules.preset(
        "wordsalvo-en")).rated.beta
    assert rated_beta("nonsense") is None and rated_beta("score") is None
    rules = ws.Rules.preset("classic-en")
    engine = SelfPlay(rules, ws.Lexicon.load(tiny_lexicon))
    with pytest.raises(ws.WordSalvoError, match="finite strength"):
        engine.set_players(("beta=inf", "equity"))
    with pytest.raises(ws.WordSalvoError, match="finite number"):
        engine._sp.set_rated(0, math.inf)
    engine.set_players(("beta=0.1", "score"))
    with pytest.raises(ws.WordSalvoError, match="random.Random"):
        engine.play(1, (object(), None))
    with pytest.raises(ws.WordSalvoError, match="seat 0 is a rated player"):
        engine._sp.play(1, (None, None))
    with pytest.raises(ws.WordSalvoError, match="getstate"):
        engine._sp.play(1, ((3, (1, 2), None), None))
    state = random.Random(1).getstate()
    bad = (3, state[1][:624] + (625,), None)
    with pytest.raises(ws.WordSalvoError, match="random state position"):
        engine._sp.play(1, (bad, None))
    # a rated seat without a stream given: the Bot's stream for seed * 2 + seat
    bot = Bot("beta=0.1", rules, lexicon=ws.Lexicon.load(tiny_lexicon), seed=2)
    assert engine.play(1).records.tobytes() == engine.play(1, (bot.rng, None)).records.tobytes()
    assert engine.play(1).records.tobytes() != engine.play(2).records.tobytes()

"""The C self-play loop plays exactly the games of Game and Bot (wordsalvo.engine.selfplay).

Oracles: Python's own random.Random for the C twin of its generator; the Game/Bot
path of wordsalvo.engine.autoplay for whole games (every result field and the leave and
position traces of leave training), on every rule set with an embedded lexicon and
on rule variants that reach every branch of the end rules, swaps and settlement;
the numpy best-swap search this replaced for MoveGenerator.best_swap.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from game_helpers import VARIANTS, variant
from hypothesis import strategies as st

import wordsalvo as ws
from wordsalvo._core import _engine
from wordsalvo.engine.autoplay import AutoplaySpec, _python_game, play_game
from wordsalvo.leaves import Leaves
from wordsalvo.moves import Swap
from wordsalvo.engine.selfplay import SelfPlay, engine_supported



# -- the random numbers ---------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 7, -7, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 10**40, 123456789012345678])
def test_c_generator_draws_what_python_draws(seed):
    bounds = [1, 2, 3, 100, 2**31, 2**31 - 1, 2**16 + 1] + [(i * 7919) % 300 + 1 for i in range(4000)]
    rng = random.Random(seed)
    assert _engine.rng_draws(seed, bounds) == [rng.randrange(b) for b in bounds]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**200), max_value=2**200), st.lists(st.integers(1, 2**31), max_size=50))
def test_c_generator_on_any_seed(seed, bounds):
    rng = random.Random(seed)
    assert _engine.rng_draws(seed, bounds) == [rng.randrange(b) for b in bounds]


def test_seed_key_and_bounds_are_checked():
    assert _engine.seed_key(2**32 + 5) == [5, 1] and _engine.seed_key(0) == [0]
    with pytest.raises(ws.WordSalvoError, match="seed: expected a whole number"):
        _engine.seed_key("1")
    with pytest.raises(ws.WordSalvoError, match="bound"):
        _engine.rng_draws(1, [0])
    with pytest.raises(ws.WordSalvoError, match="at most 2048 bits"):
        _engine.rng_draws(2**5000, [1])


# -- whole games --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def zero_tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("zeros")
    out = {}
    for name in ("classic-en", "wordsalvo-nl", "turkish"):
        path = folder / f"{name}.wsl"
        Leaves.zeros(ws.Rules.preset(name)).save(path)
        out[name] = str(path)
    return out


def same_games(spec: AutoplaySpec, indices) -> None:
    for i in indices:
        slow = _python_game(spec, i, trace=True)
        fast = play_game(spec, i, trace=True)
        assert fast == slow, f"game {i} of {spec}"


@pytest.mark.parametrize("rules", ["classic-en", "wordsalvo-en", "wordsalvo-nl", "turkish"])
@pytest.mark.parametrize("players", [("equity", "equity"), ("score", "equity"), ("score", "score")])
def test_engine_games_equal_game_and_bot(rules, players):
    """The shipped leave tables (real swaps), both seat orders, traces included."""
    same_games(AutoplaySpec(rules, players, seed=5), range(4))


@pytest.mark.parametrize("rules", ["classic-en", "wordsalvo-nl", "turkish"])
def test_engine_games_with_zero_tables(rules, zero_tables):
    same_games(AutoplaySpec(rules, ("equity", "equity"), seed=9, leaves=zero_tables[rules]), range(3))


def test_random_boards_and_star_squares():
    same_games(AutoplaySpec("wordsalvo-en", ("equity", "score"), seed=2, board_seed=11), range(3))
    same_games(AutoplaySpec("turkish", ("equity", "equity"), seed=2, board_seed=4), range(3))


@pytest.fixture(scope="module")
def tiny_lexicon(tmp_path_factory):
    """Few words: players often cannot play, so swaps, passes and scoreless ends happen."""
    folder = tmp_path_factory.mktemp("tiny")
    words = ["AA", "AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR", "AS", "AT", "AW", "AX", "AY",
             "BE", "DE", "EH", "EL", "EN", "ER", "ES", "EX", "HE", "ID", "IN", "IS", "IT", "LA", "LI", "LO",
             "MA", "ME", "NA", "NE", "NO", "OE", "ON", "OR", "RE", "SO", "TA", "TE", "TO", "QI", "ZA",
             "EAR", "ERA", "ARE", "TEA", "EAT", "ATE", "RAT", "TAR", "ART", "SAT", "SEA", "TEN", "NET",
             "RATE", "TEAR", "STAR", "RATS", "NEAT", "ANTE", "EARN", "NEAR", "SANE", "TONE", "NOTE"]
    src = folder / "tiny.txt"
    src.write_text("\n".join(words) + "\n", "utf-8")
    ws.compile_lexicon(src, folder / "tiny.wsg", "en")
    return str(folder / "tiny.wsg")




@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("players", [("equity", "equity"), ("score", "equity")])
def test_rule_variants_on_a_tiny_lexicon(tmp_path, tiny_lexicon, name, players):
    rules = variant(tmp_path, "classic-en", **VARIANTS[name])
    spec = AutoplaySpec(rules, players, seed=3, lexicon=tiny_lexicon,
                        leaves=str(Path(ws.__file__).parent / "data" / "leaves" / "classic-en.wsl"))
    same_games(spec, range(5))


def test_tiny_lexicon_reaches_swaps_passes_and_every_end(tmp_path, tiny_lexicon):
    """The variants above are not vacuous: their games swap, pass and end every way."""
    reasons, kinds = set(), set()
    for name in ("passes-end", "scoreless-bag", "whole-rack"):
        rules = ws.Rules.load(variant(tmp_path, "classic-en", **VARIANTS[name]))
        engine = SelfPlay(rules, ws.Lexicon.load(tiny_lexicon))
        engine.set_players(("equity", "score"), (Leaves.default(ws.Rules.preset("classic-en")), None))
        for seed in range(6):
            game = engine.play(seed)
            reasons.add(game.end_reason)
            kinds.update(_engine.TURN_KIND_NAMES[int(k)] for k in game.records["kind"])
    assert {"passes", "scoreless", "out"} <= reasons or {"passes", "scoreless"} <= reasons
    assert {"play", "swap", "pass", "settle"} <= kinds


def test_only_score_equity_and_rated_players_run_in_c():
    assert engine_supported(("equity", "score"))
    assert not engine_supported(("equity", "hard")) and not engine_supported(("equity",))


def test_self_play_refuses_what_it_cannot_play(tiny_lexicon):
    rules = ws.Rules.preset("classic-en")
    engine = SelfPlay(rules, ws.Lexicon.load(tiny_lexicon))
    with pytest.raises(ws.WordSalvoError, match="two players 'score', 'equity' or a rating"):
        engine.set_players(("equity", "hard"))
    with pytest.raises(ws.WordSalvoError, match="tile set of rule set"):
        engine.set_players(("equity", "equity"), (Leaves.zeros(ws.Rules.preset("turkish")), None))
    with pytest.raises(ws.WordSalvoError, match="expected a whole number"):
        engine.play(1.5)


# -- best swap ------------------------------------------------------------------------------
def numpy_best_swap(gen: ws.MoveGenerator, pos: ws.Position) -> Swap | None:
    """The numpy search MoveGenerator.best_swap had before it moved to C."""
    gen._load(pos, None)
    letters = pos.rack
    bag = pos.bag_count()
    rules = gen.rules.swap
    if not letters or bag <= 0 or bag < rules.min_bag:
        return None
    lv = gen._leave_values()
    alphabet = gen.rules.alphabet
    values = np.asarray(lv.values)
    index = np.arange(len(values))
    kept = np.zeros(len(values), dtype=np.int64)
    for code, w in zip(lv.codes, lv.weights):
        kept += index // w % (lv.counts[code] + 1)
    swapped = len(letters) - kept
    ok = swapped >= 1
    if rules.whole_rack:
        ok &= kept == 0
    if rules.bag_must_cover_swap:
        ok &= swapped <= bag
    if not ok.any():
        return None
    top = values[ok].max()
    tied = np.nonzero(ok & (values == top))[0]
    most = kept[tied].max()
    tied = tied[kept[tied] == most]
    leaves_tied = [lv.leave(int(i), alphabet) for i in tied]
    ranks = [gen.leaves.rank(x) if x else -1 for x in leaves_tied]
    choice = min(range(len(tied)), key=ranks.__getitem__)
    leave = leaves_tied[choice]
    rest = list(letters)
    for ch in leave:
        rest.remove(ch)
    kept_order = {"?": 0, **{c: i + 1 for i, c in enumerate(alphabet.letters)}}
    return Swap("".join(sorted(rest, key=kept_order.__getitem__)), leave, float(top))


@pytest.mark.parametrize("name", ["classic-en", "turkish", "whole-rack", "uncovered"])
def test_best_swap_equals_the_numpy_search(tmp_path, name):
    """At every turn of seeded games (every bag size), with the shipped, a zero and a random table."""
    swaps = {"whole-rack": {"whole_rack": "true"}, "uncovered": {"bag_must_cover_swap": "false", "min_bag": "3"}}
    rules = ws.Rules.load(variant(tmp_path, "classic-en", swap=swaps[name])) if name in swaps else ws.Rules.preset(name)
    lex = ws.Lexicon.default(rules.alphabet.name)
    zeros = Leaves.zeros(rules)
    rng = np.random.default_rng(4)
    table = Leaves.default(ws.Rules.preset("turkish" if name == "turkish" else "classic-en"))
    tables = [table, zeros, Leaves.from_values(rules, np.round(rng.normal(0, 2, len(zeros.values))).astype(np.float32))]
    for k, table in enumerate(tables):
        gen = ws.MoveGenerator(lex, rules, leaves=table)
        game = ws.Game(rules, lex, seed=k)
        while not game.is_over:
            pos = game.position()
            assert gen.best_swap(pos) == numpy_best_swap(gen, pos), pos.rack
            move = game.best_move()
            if move is None:
                break
            game.play(move)


@pytest.fixture(scope="module")
def swap_loving_table(tmp_path_factory):
    """wordsalvo-en leaves where keeping six tiles is worth more than any play: two equity
    players then prefer exchanging one tile on every turn the bag allows it."""
    rules = ws.Rules.preset("wordsalvo-en")
    table = Leaves.zeros(rules)
    values = np.array(table.values, dtype=np.float32)
    sizes = np.array([len(table.leave(i)) for i in range(len(values))])
    values[sizes == rules.rack_size - 1] = 500.0
    path = tmp_path_factory.mktemp("swaps") / "swap-loving.wsl"
    Leaves.from_values(rules, values).save(path)
    return str(path)


def test_a_run_of_swaps_that_no_rule_ends_is_broken_the_same_way_in_c_and_python(swap_loving_table):
    # wordsalvo-en: a swap resets the pass counter and no scoreless-turn limit counts swaps,
    # so two players that always prefer an exchange would exchange for ever (a wordfeud-de
    # leave training run died on such a game: "no end within 508 turns"); after two swaps in
    # a row the player on turn plays or passes instead
    from wordsalvo.engine.bot import swap_run_endless

    rules = ws.Rules.preset("wordsalvo-en")
    assert swap_run_endless(rules) and swap_run_endless(ws.Rules.preset("wordfeud-de"))
    assert not swap_run_endless(ws.Rules.preset("classic-en")) and not swap_run_endless(ws.Rules.preset("turkish"))
    spec = AutoplaySpec("wordsalvo-en", ("equity", "equity"), seed=4, leaves=swap_loving_table)
    same_games(spec, range(2))
    engine = SelfPlay(rules, ws.Lexicon.default("en"))
    table = Leaves.load(swap_loving_table, rules)
    engine.set_players(("equity", "equity"), (table, table))
    for seed in range(3):
        game = engine.play(seed)  # used to raise: no end within the turn limit
        kinds = [_engine.TURN_KIND_NAMES[int(k)] for k in game.records["kind"]]
        assert kinds.count("swap") >= 2  # the table does make them swap
        # never a swap after two scoreless turns
        assert all(not (kinds[i] in ("swap", "pass") and kinds[i + 1] in ("swap", "pass") and kinds[i + 2] == "swap")
                   for i in range(len(kinds) - 2))


# -- forced racks (leave training's rare racks, issue 35 item 4) -------------------------------
EN = ws.Rules.preset("classic-en")


def counts_of(tiles: str) -> np.ndarray:
    c = np.zeros(len(EN.alphabet.letters) + 1, dtype=np.uint8)
    for t in tiles:
        c[0 if t == "?" else EN.alphabet.letters.index(t) + 1] += 1
    return c


def rack_text(record) -> str:
    """A record's rack, letters sorted, blanks last."""
    letters = EN.alphabet.letters
    return "".join(sorted(letters[t - 1] for t in record["rack"][:record["rack_len"]] if t)) + \
        "?" * int((record["rack"][:record["rack_len"]] == 0).sum())


def test_a_forced_game_plays_the_forced_racks_on_mid_game_turns_the_same_every_time():
    spec = AutoplaySpec(rules="classic-en", players=("equity", "equity"), seed=3)
    from wordsalvo.engine.autoplay import _engine, _worker_setup

    sp = _engine(spec, *_worker_setup(spec))[0]
    force = np.array([counts_of("AEINST?"), counts_of("AEINRST"), counts_of("CEINORS")])
    game = sp.play(12345, force=force)
    rec = game.records
    forced = np.flatnonzero(rec["forced"] == 1)
    assert len(forced) == 3
    assert sorted(rack_text(r) for r in rec[forced]) == ["AEINRST", "AEINST?", "CEINORS"]
    assert forced.min() >= 2 and np.all(rec["bag_before"][forced] >= 7) and np.all(rec["rack_len"][forced] == 7)
    again = sp.play(12345, force=force)
    assert again.records.tobytes() == rec.tobytes() and again.scores == game.scores
    plain = sp.play(12345)
    assert not plain.records["forced"].any() and plain.records.tobytes() == sp.play(12345, force=None).records.tobytes()
    # each rack once a game, and the turns before the first forced one are the plain game's
    assert rec[:forced[0]].tobytes() == plain.records[:forced[0]].tobytes()


def test_a_rack_the_bag_cannot_supply_is_never_forced():
    spec = AutoplaySpec(rules="classic-en", players=("equity", "equity"), seed=3)
    from wordsalvo.engine.autoplay import _engine, _worker_setup

    sp = _engine(spec, *_worker_setup(spec))[0]
    plain = sp.play(777)
    never = sp.play(777, force=np.array([counts_of("ZZAAEEI"), counts_of("QQAAEEI")]))  # one Z, one Q
    assert not never.records["forced"].any() and never.records.tobytes() == plain.records.tobytes()


@pytest.mark.parametrize("force", [np.zeros((1, 5), np.uint8), np.ones((1, 27), np.uint8),
                                   np.zeros((65, 27), np.uint8), np.zeros(27, np.uint8)])
def test_forced_racks_are_checked(force):
    from wordsalvo.engine.autoplay import _engine, _worker_setup
    from wordsalvo.errors import WordSalvoError

    spec = AutoplaySpec(rules="classic-en", players=("equity", "equity"), seed=3)
    sp = _engine(spec, *_worker_setup(spec))[0]
    with pytest.raises(WordSalvoError, match="force"):
        sp.play(1, force=force)


# -- probe racks (leave training's cover of the racks seldom seen, issue 35) ------------------
PROBES = ["AEINST?", "QVVWWXY", "BCDFGHJ", "AEIOUUU", "??EERSS", "ZQJXKVW", "EEEEEEE", "CDHLMNP"]


def probe_engine():
    from wordsalvo.engine.autoplay import _engine, _worker_setup

    spec = AutoplaySpec(rules="classic-en", players=("equity", "equity"), seed=3)
    rules, lexicon, bots = _worker_setup(spec)
    sp = _engine(spec, rules, lexicon, bots)[0]
    table = Leaves.default(rules)
    sp.set_players(("equity", "equity"), (table, table))
    return sp, rules, lexicon, table


def test_a_game_with_probes_is_the_same_game_byte_for_byte():
    sp, *_ = probe_engine()
    probe = np.array([counts_of(t) for t in PROBES * 20])
    for seed in (12345, 7, 99):
        plain = sp.play(seed)
        probed = sp.play(seed, probe=probe, probe_per_turn=3)
        assert probed.records.tobytes() == plain.records.tobytes()
        assert (probed.scores, probed.end_reason, probed.turns) == (plain.scores, plain.end_reason, plain.turns)
        kinds, equities = probed.probes
        # three a turn on the turns that began with a full rack and a rack's worth in the bag
        rec = plain.records
        eligible = int(((rec["kind"] <= 2) & (rec["rack_len"] == 7) & (rec["bag_before"] >= 7)).sum())
        assert len(kinds) == len(equities) == min(3 * eligible, len(probe)) > 0
        assert len(sp.play(seed).probes[0]) == 0  # and none when none are given
        # an empty list: nothing valued, the same game
        empty = sp.play(seed, probe=np.zeros((0, 27), np.uint8))
        assert empty.records.tobytes() == plain.records.tobytes() and len(empty.probes[0]) == 0


def test_a_probe_values_the_rack_as_the_equity_player_would_in_that_position():
    """The oracle: the Python API's best play by equity and best swap for that rack in the
    position of the turn it was valued at (the greater; ties to the play)."""
    from wordsalvo.engine.bot import Bot
    from wordsalvo.movegen import MoveGenerator
    from wordsalvo.engine.selfplay import PLAY, SWAP

    sp, rules, lexicon, table = probe_engine()
    per_turn = 2
    probe_racks = PROBES * 8
    probe = np.array([counts_of(t) for t in probe_racks])
    gen = MoveGenerator(lexicon, rules, leaves=table)
    checked = 0
    for seed in (12345, 4):
        kinds, equities = sp.play(seed, probe=probe, probe_per_turn=per_turn).probes
        game = ws.Game(rules, lexicon, players=["a", "b"], seed=seed)
        bots = [Bot("equity", rules, lexicon=lexicon, leaves=table) for _ in range(2)]
        i = 0
        while not game.is_over and i < len(kinds):
            if len(game.rack) == 7 and game.bag_count >= 7:
                pos = game.position()
                for _ in range(per_turn):
                    if i == len(kinds):
                        break
                    rack = probe_racks[i]
                    play = gen.best(pos, rack=rack, by="equity")
                    swap = gen.best_swap(pos, rack=rack)
                    want = max([a.equity for a in (play, swap) if a is not None], default=None)
                    want_kind = PLAY if play is not None and (swap is None or play.equity >= swap.equity) else SWAP
                    assert want is not None and int(kinds[i]) == want_kind, (seed, i, rack)
                    assert round(float(equities[i]) * 256) == round(want * 256), (seed, i, rack, play, swap)
                    i += 1
                    checked += 1
            game.apply(bots[game.to_move].choose(game))
        assert i == len(kinds)
    assert checked >= 40


@pytest.mark.parametrize("probe, match", [
    (np.zeros((1, 5), np.uint8), "shape"),
    (np.ones((1, 27), np.uint8), "hold"),            # 27 tiles
    (np.array([counts_of("ZZAAEEI")]), "more often"),  # one Z in the tile set
    (np.array([counts_of("AAEEIIO")]).astype(np.int64) * -1, "hold"),
    (np.zeros(27, np.uint8), "shape"),
    (np.array([counts_of("AAEEIIO")]).astype(np.float64), "whole"),
])
def test_probe_racks_are_checked(probe, match):
    from wordsalvo.errors import WordSalvoError

    sp, *_ = probe_engine()
    with pytest.raises(WordSalvoError, match=match):
        sp.play(1, probe=probe)
    with pytest.raises(WordSalvoError, match="probe_per_turn"):
        sp.play(1, probe=np.array([counts_of("AAEEIIO")]), probe_per_turn=0)
    assert sp.play(1).records.tobytes() == sp.play(1).records.tobytes()  # still usable


def test_probes_need_equity_players():
    from wordsalvo.errors import WordSalvoError

    sp, rules, lexicon, table = probe_engine()
    sp.set_players(("score", "equity"), (None, table))
    try:
        with pytest.raises(WordSalvoError, match="equity players"):
            sp.play(1, probe=np.array([counts_of("AAEEIIO")]))
    finally:
        sp.set_players(("equity", "equity"), (table, table))

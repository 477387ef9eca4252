"""Inference's rack loop in C (csrc/ws_infer.c) against the Python loop it replaced
(wordsalvo.engine.inference._infer_python): the same Inference, leave for leave, weight
for weight, in the same order, on positions of self-play games of several rule sets; and
the checks of the C loop's inputs."""

import copy
import math
import random

import pytest

import wordsalvo as ws
from wordsalvo import Game, Leaves, MoveGenerator, Rules
from wordsalvo._core import _engine
from wordsalvo.engine.inference import InferenceError, _infer_python, _multisets, _pool, infer, position_before
from wordsalvo.errors import PositionError, WordSalvoError

#: rule sets where inference applies, with embedded lexicons: swaps of part of the rack
#: (classic-en, wordsalvo-en, the Dutch set) and of the whole rack with no bag minimum (turkish)
RULE_SETS = ("classic-en", "wordsalvo-en", "wordsalvo-nl", "turkish")


def _game(rules: Rules, seed: int, bag_at_most: int) -> Game:
    """Two equity players from ``seed`` until the bag holds at most ``bag_at_most`` tiles,
    the last turn a play of fewer tiles than the rack (a bingo leaves nothing to infer)."""
    g = Game(rules, seed=seed)
    while not g.is_over:
        m = g.best_move(by="equity")
        if m is None:
            g.pass_turn()
            continue
        g.play(m)
        if g.bag_count <= bag_at_most and len(m.rack_letters()) < rules.rack_size:
            break
    return g


def _before(g: Game) -> tuple[ws.Position, str]:
    """The position before the last play, the mover on turn (first) and its rack unknown,
    the observer's rack given, as infer_game makes it; and the mover's real rack."""
    before = copy.deepcopy(g)
    before.undo()
    pos = before.position()
    pos = ws.Position(pos.rules, pos.board, ["", g.rack], pos.scores, pos.scoreless_count, to_move=0)
    return pos, before.rack


def _play_of(g: Game) -> str:
    return g.history[-1].notation


def _same(position, play, **kw):
    """The C loop's inference and the Python loop's, or the same error from both."""
    try:
        want = _infer_python(position, play, **kw)
    except WordSalvoError as e:
        with pytest.raises(type(e)) as got:
            infer(position, play, **kw)
        assert str(got.value) == str(e)
        return None
    got = infer(position, play, **kw)
    assert got == want
    # the dataclass compares leaves as a tuple: same keys, weights and order; and the rest
    assert (got.leaves, got.racks, got.kept, got.exhaustive, got.pool) == \
        (want.leaves, want.racks, want.kept, want.exhaustive, want.pool)
    return got


@pytest.mark.parametrize("name", RULE_SETS)
def test_c_loop_equals_python_loop_on_plays_and_exchanges(name):
    rules = Rules.preset(name)
    rng = random.Random(name)
    kept_any = kept_exchange = sampled = 0
    for seed, bag in ((1, 70), (2, 40), (3, 20), (4, 8), (5, 0)):
        g = _game(rules, seed, bag)
        if g.is_over:
            continue
        pos, _ = _before(g)
        play = _play_of(g)
        for margin, limit in ((0.0, 60), (5.0, 150), (1000.0, 40)):
            r = _same(pos, play, margin=margin, limit=limit, seed=rng.randrange(1 << 30))
            if r is not None:
                kept_any += r.kept > 0
                sampled += not r.exhaustive
        # an exchange of n tiles from the same position (every rack of the pool is tried)
        for n in (1, 3, rules.rack_size):
            r = _same(pos, None, exchanged=n, margin=rng.choice((0.0, 5.0, 1000.0)), limit=40,
                      seed=rng.randrange(1 << 30))
            if r is not None:
                kept_exchange += r.kept > 0
    assert kept_any and sampled
    assert kept_exchange or name == "turkish"  # whole-rack swaps: fewer exchanges consistent


def test_blanks_in_the_pool_exhaustive_and_sampled():
    rules = Rules.preset("classic-en")
    seen = 0
    for seed in range(20, 40):
        g = _game(rules, seed, 14)
        if g.is_over:
            continue
        pos, _ = _before(g)
        if _pool(pos)["?"] == 0:
            continue
        r = _same(pos, _play_of(g), margin=5.0, limit=3000)
        s = _same(pos, _play_of(g), margin=5.0, limit=150, seed=seed)
        if r is None or s is None or not r.exhaustive or s.exhaustive:
            continue
        seen += any("?" in t for t, _w in r.leaves) and any("?" in t for t, _w in s.leaves)
        if seen:
            break
    assert seen  # leaves with a blank kept, exhaustive and in a sample


def test_the_end_game_and_an_empty_bag():
    rules = Rules.preset("classic-en")
    for seed in (1, 2, 3):
        g = _game(rules, seed, 0)
        if g.is_over:
            continue
        pos, _ = _before(g)
        for margin in (0.0, 5.0, 1000.0):
            _same(pos, _play_of(g), margin=margin)
            _same(pos, None, exchanged=2, margin=margin)


def test_a_mover_not_first_and_the_position_before_a_play():
    # position_before puts the mover second when the observer is first: Position.with_rack
    # then puts each rack first, and the C loop must give what those positions give
    rules = Rules.preset("classic-en")
    for seed, bag in ((6, 50), (7, 10), (8, 0)):
        g = _game(rules, seed, bag)
        if g.is_over:
            continue
        after = g.position()
        pos, move = position_before(after, _play_of(g))
        _same(pos, move, margin=5.0, limit=200, seed=seed)
        _same(pos, None, exchanged=3, margin=1000.0, limit=60, seed=seed)
        # the mover's rack given as well (ignored by the docstring, but kept by with_rack):
        # the same answer, or the same refusal of a rack
        racks = list(pos.racks)
        racks[pos.to_move] = _before(g)[1]
        _same(ws.Position(rules, pos.board, racks, pos.scores, pos.scoreless_count, to_move=pos.to_move), move,
              margin=5.0, limit=100, seed=seed)


def _decisions(judge, gen, pos, move, played, exchanged, margin, leaves, order):
    from wordsalvo.engine import inference

    return [key for key, _w, _n in getattr(inference, judge)(gen, pos, move, played, exchanged, margin,
                                                            [(leave, 1) for leave in leaves], order)]


def test_ties_at_the_margin():
    # margins on the boundary of a rack's decision (best - own - 1e-6 for a play, best
    # play - best swap for an exchange) and a few doubles either side, for those racks:
    # both loops make the same float32 sums and the same double comparisons, so they agree
    # on every rack, and both decisions occur across the margins
    from wordsalvo.engine.inference import _equity_of, _parse_play

    rules = Rules.preset("classic-en")
    lexicon = ws.Lexicon.default("en")
    leaves = Leaves.default(rules)
    gen = MoveGenerator(lexicon, rules, leaves)
    gen._prepare_best(wordmap=True)
    g = _game(rules, 9, 30)
    pos, _ = _before(g)
    move = _parse_play(pos, _play_of(g), lexicon)
    played = move.rack_letters()
    rest = _pool(pos)
    rest.subtract(played)
    rest = +rest
    order = {"?": 0, **{c: i + 1 for i, c in enumerate(rules.alphabet.letters)}}
    rng = random.Random(5)

    def sort(rack):
        return "".join(sorted(rack, key=order.__getitem__))

    def around(d, n=3):
        out = [d]
        lo = hi = d
        for _ in range(n):
            lo, hi = math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf)
            out += [lo, hi]
        return sorted(m for m in out if m >= 0)

    both = set()
    plays = [leave for leave, _w in _multisets(rest, rules.rack_size - len(played))]
    for leave in rng.sample(plays, 12):
        p = pos.with_rack(sort(played + leave))
        best = gen.best(p, by="equity")
        own = _equity_of(gen, move)
        swap = gen.best_swap(p)
        top = max(best.equity, swap.equity if swap is not None else -math.inf)
        d = top - own - 1e-6
        if d < 0:
            continue
        for m in around(d):
            py = _decisions("_judge_python", gen, pos, move, played, 0, m, [leave], order)
            c = _decisions("_judge", gen, pos, move, played, 0, m, [leave], order)
            assert c == py, (leave, d, m)
            both.add(py[0] is None)
    assert both == {True, False}
    both = set()
    racks = [leave for leave, _w in _multisets(_pool(pos), rules.rack_size)]
    for leave in rng.sample(racks, 40):
        p = pos.with_rack(sort(leave))
        best = gen.best(p, by="equity")
        swap = gen.best_swap(p)
        if swap is None or best is None or best.equity < swap.equity:
            continue
        n = len(swap.tiles)
        for m in around(best.equity - swap.equity):
            py = _decisions("_judge_python", gen, pos, None, "", n, m, [leave], order)
            c = _decisions("_judge", gen, pos, None, "", n, m, [leave], order)
            assert c == py, (leave, m)
            both.add(py[0] is None)
    assert both == {True, False}


def test_margin_zero_keeps_the_equity_players_own_leave():
    # the mover chose by equity: its real leave ties itself at margin 0 and is kept
    rules = Rules.preset("classic-en")
    g = _game(rules, 4, 40)
    pos, real = _before(g)
    r = _same(pos, _play_of(g), margin=0.0, limit=10_000_000)
    kept = {t for t, _w in r.leaves}
    order = {"?": 0, **{c: i + 1 for i, c in enumerate(rules.alphabet.letters)}}
    left = list(real)
    for ch in r.played:
        left.remove(ch)
    assert "".join(sorted(left, key=order.__getitem__)) in kept, (real, r.table(5))


# -- the C loop's inputs -----------------------------------------------------------------

def _args(**change):
    rules = Rules.preset("classic-en")
    lexicon = ws.Lexicon.default("en")
    leaves = Leaves.default(rules)
    gen = MoveGenerator(lexicon, rules, leaves)
    played = bytearray(33)
    played[1] = 1  # an A
    args = dict(gen=gen._gen, tiles=bytes(225), leaves=leaves._table, endgame=False, out_value=0.0, keep_factor=0.0,
                bag=80, min_bag=7, whole_rack=False, must_cover=True, played=bytes(played), score=10, exchanged=0,
                margin=5.0, leave_tiles=bytes([2, 3, 255, 255, 255, 255, 255]))
    args.update(change)
    return args


def _call(args):
    return _engine.infer_racks(args["gen"], args["tiles"], args["leaves"], args["endgame"], args["out_value"],
                               args["keep_factor"], args["bag"], args["min_bag"], args["whole_rack"],
                               args["must_cover"], args["played"], args["score"], args["exchanged"], args["margin"],
                               args["leave_tiles"])


def test_c_loop_runs_on_good_input():
    kept, tiles = _call(_args())
    assert len(kept) == 1 and len(tiles) == _engine.RACK_MAX
    kept, tiles = _call(_args(leave_tiles=b""))
    assert kept == b"" and tiles == b""


@pytest.mark.parametrize("change, error, match", [
    (dict(leave_tiles=bytes([2, 40, 255, 255, 255, 255, 255])), PositionError, r"leave 0: tile code 40 at 1"),
    (dict(leave_tiles=bytes([2, 255, 3, 255, 255, 255, 255])), PositionError, r"leave 0: tile code 3 at 2"),
    (dict(leave_tiles=bytes([2, 2, 2, 2, 2, 2, 2])), PositionError, r"leave 0: 7 tiles and 1 played"),
    (dict(leave_tiles=bytes([2, 3, 255])), WordSalvoError, r"expected bytes of 7 tile codes a leave, got 3 bytes"),
    (dict(leave_tiles=12), WordSalvoError, r"leave tiles: expected bytes of 7 tile codes a leave, got int"),
    (dict(leave_tiles=bytes([40] * 7) * 5), PositionError, r"leave 0: .*leave 1: .*leave 2: .*\(and 2 more\)"),
    (dict(tiles=bytes(224)), PositionError, r"board: expected 225 entries, got 224"),
    (dict(tiles=bytes([60]) * 225), PositionError, r"square 0: expected a tile code"),
    (dict(played=bytes(32)), WordSalvoError, r"played: tile counts: expected 33 entries, got 32"),
    (dict(played=bytes([9] + [0] * 32)), PositionError, r"rack: expected at most 7 tiles, got 9"),
    (dict(exchanged=2), WordSalvoError, r"played: expected no tiles with an exchange of 2, got 1"),
    (dict(exchanged=8), WordSalvoError, r"exchanged"),
    (dict(margin=float("nan")), WordSalvoError, r"margin: expected a finite number of points >= 0, got nan"),
    (dict(margin=-1.0), WordSalvoError, r"margin: expected a finite number"),
    (dict(margin="5"), WordSalvoError, r"margin: expected a finite number"),
    (dict(score=-3), WordSalvoError, r"score"),
    (dict(out_value=[1.0, 2.0]), WordSalvoError, r"out_value: expected one per leave \(1\), got 2"),
    (dict(out_value=float("inf")), WordSalvoError, r"out_value within"),
    (dict(out_value="x"), WordSalvoError, r"out_value: expected a number or one per leave, got str"),
    (dict(keep_factor=float("nan")), WordSalvoError, r"keep_factor 0..100"),
    (dict(bag=1 << 40), WordSalvoError, r"bag"),
])
def test_c_loop_refuses_bad_input_by_name(change, error, match):
    with pytest.raises(error, match=match):
        _call(_args(**change))


def test_c_loop_refuses_a_leave_table_of_another_alphabet():
    other = Leaves.default(Rules.preset("turkish"))
    with pytest.raises(WordSalvoError, match=r"leave table: expected 27 tile types"):
        _call(_args(leaves=other._table))
    with pytest.raises(TypeError):
        _call(_args(gen=None))


def test_infer_still_checks_its_arguments():
    pos = ws.Position.empty(Rules.preset("classic-en"), "")
    with pytest.raises(InferenceError, match="either a play or exchanged"):
        infer(pos)

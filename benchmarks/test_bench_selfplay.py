"""Best-move self-play: turns of ``Game.best_move()`` then ``Game.play()`` (pytest-benchmark).

Each round plays five seeded classic-en games with the embedded English
lexicon, as equity and self-play work will (millions of turns through this
path).  The result is asserted: the games' final scores are fixed.  The
comparison with an older checkout, in one run, is ``benchmarks/selfplay.py``.
"""

from __future__ import annotations

import wordsalvo as ws

#: final scores of seeds 1..5 (classic-en, embedded SCOWL lexicon, best move by score, a pass when none)
EXPECTED = {1: [508, 396], 2: [411, 445], 3: [363, 380], 4: [514, 441], 5: [467, 420]}


def _games(rules, lexicon, seeds):
    out = {}
    for seed in seeds:
        g = ws.Game(rules, lexicon=lexicon, seed=seed)
        turns = 0
        while not g.is_over:
            move = g.best_move()
            if move is None:
                g.pass_turn()
            else:
                g.play(move)
            turns += 1
        out[seed] = (turns, list(g.scores))
    return out


def test_best_move_self_play_classic_en(benchmark):
    rules = ws.Rules.preset("classic-en")
    lexicon = ws.Lexicon.default("en")
    _games(rules, lexicon, [0])  # warm-up: the lexicon's anagram keys
    result = benchmark.pedantic(_games, args=(rules, lexicon, list(EXPECTED)), rounds=5, warmup_rounds=1)
    assert {seed: scores for seed, (_t, scores) in result.items()} == EXPECTED
    turns = sum(t for t, _s in result.values())
    benchmark.extra_info["turns"] = turns


def test_engine_self_play_classic_en(benchmark):
    """The C self-play loop (wordsalvo.engine.selfplay), equity against equity with the shipped
    table: 20 seeded games per round; the results must be what Game and Bot play."""
    from wordsalvo.engine.autoplay import AutoplaySpec, _python_game, play_game

    spec = AutoplaySpec("classic-en", ("equity", "equity"), seed=1)
    want = [_python_game(spec, i) for i in range(20)]
    got = benchmark.pedantic(lambda: [play_game(spec, i) for i in range(20)], rounds=5, warmup_rounds=1)
    assert got == want
    benchmark.extra_info["games"] = len(got)
    benchmark.extra_info["turns"] = sum(r.turns for r in got)

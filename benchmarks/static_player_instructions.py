"""Instruction counts of the static player's choices: Bot.choose of the ``equity`` and
``score`` players on the turns of seeded games (the Python autoplay path without the
game's own bookkeeping), and the /v1/best work (serve.service.best) on their positions.

    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=bot.out python benchmarks/static_player_instructions.py bot
    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=best.out python benchmarks/static_player_instructions.py best
    callgrind_annotate bot.out | head -5

Only the counted calls run inside ``functools.reduce`` (as in movegen_instructions.py):
loading the lexicon, building the word map (outside, so every search uses it whatever
the clock says), playing the turns and reading the positions are not counted.  Divide
by the number of calls printed.  The same script on two builds gives the before/after
ratio; the choices are the same on both (tests/test_static_player.py).
"""

from __future__ import annotations

import argparse
import functools
import types

import wordsalvo as ws
from wordsalvo._core import _engine


def counted(fn):
    """fn() inside functools.reduce: the part callgrind collects."""
    return functools.reduce(lambda _a, _b: fn(), [0], None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("bot", "best"))
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--games", type=int, default=4)
    args = ap.parse_args()
    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.default(rules.alphabet.name)
    graph = lex._graph
    graph._wordmap = _engine.WordMap(graph)
    calls = 0
    lines = []
    for seed in range(args.games):
        game = ws.Game(rules, lex, seed=seed)
        bots = (ws.Bot("equity", rules, lexicon=lex, seed=seed), ws.Bot("score", rules, lexicon=lex, seed=seed))
        bots[0].leaves  # the table loaded outside the count
        while not game.is_over:
            bot = bots[(game.to_move + seed) % 2]
            if args.mode == "bot":
                action = counted(lambda: bot.choose(game))
                calls += 1
            else:
                lines.append(ws.format_cgp(game.position()))
                action = bot.choose(game)
            game.apply(action)
    if args.mode == "best":
        from wordsalvo.serve import service
        from wordsalvo.serve.config import ServeConfig
        from wordsalvo.serve.engines import Engines

        engines = Engines(ServeConfig())
        fields = dict(rules=args.rules, board_seed=None, stars=None, board=None, rack=None, racks=None,
                      scores=None, scoreless=None, lexicon=None)
        for line in lines:
            for by in ("score", "equity"):
                req = types.SimpleNamespace(cgp=line, by=by, **fields)
                counted(lambda: service.best(engines, req))
                calls += 1
    print(f"{args.mode}: {calls} counted calls ({args.rules}, {args.games} games)")


if __name__ == "__main__":
    main()

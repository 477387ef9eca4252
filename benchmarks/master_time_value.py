"""What does master's extra thinking time change?  Turn by turn, not game by game.

    python benchmarks/master_time_value.py --rules classic-en --lexicon csw24.wsg \\
        --short 0.25 --long 1.0 --games 20 --out benchmarks/results/master-time-value.jsonl \\
        [--arbiter-iterations 2000] [--arbiter-plies 2] [--every 2] [--seed 1]

A game-pair match (``sim_strength.py --opponent master:0.25 --seconds 1``) needs
thousands of games to show a gain of a point or two of win rate.  This looks where
such a gain would come from.  Games of the ``expert`` level against itself (bag seeds
``game_seed(seed, k)``) give the positions; at every ``--every``-th turn with more
tiles in the bag than a rack holds (the turns master simulates: its pre-endgame and
endgame searches are not compared here) master is asked for its move twice, with
``--short`` and ``--long`` seconds of CPU time (fresh bots, the same seed), and the
game goes on with expert's move.  Where the two answers differ, an arbiter
simulation of just those two moves (``--arbiter-iterations`` iterations each,
``--arbiter-plies`` plies, round robin, common random numbers) says what the long
budget's move is worth against the short one's: win chance and equity, each with
its standard error.

Printed: turns compared, how often the moves differ, and the long budget's gain
per turn compared (0 where they agree) in win chance and in equity, with 95 %
intervals over turns.  A gain of g win chance per turn over T simulated turns a
game is about T * g of win rate a game (the sum of per-turn gains: a rough upper
bound, since a turn's gain in win chance is not all kept to the end).  An arbiter
with the same plies values the moves as master does, only more precisely: its
verdict is what more iterations of the same look-ahead buy, not whether that
look-ahead is right; ``--arbiter-plies 4`` asks a deeper one.

``--long-plays N`` and ``--long-plies N`` change the second player instead of (or as
well as) its budget: master simulating N placements (``clock.BASE_PLAYS``) or N plies
(``bot.MASTER_PLIES``), set around its move only; with ``--long`` equal to ``--short``
this asks whether another simulation at the same budget would choose better.  Two
answers of the same master at the same CPU budget differ on some turns too (the
clock): ``--long 0.25`` with neither option is the control.

Each game's turns are appended to ``--out`` as one JSON line (after a first line of
the settings); the same command goes on where it stopped, other settings on the same
file stop with an error (``runlog.py``).  CPU-time budgets: a loaded machine does not change the
answers' quality, only how long the run takes.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE / "src"))
if str(HERE / "benchmarks") not in sys.path:  # its neighbour runlog.py
    sys.path.insert(0, str(HERE / "benchmarks"))

from wordsalvo.engine.autoplay import game_seed  # noqa: E402
from wordsalvo.stats import mean_interval  # noqa: E402

from runlog import RunLog  # noqa: E402


def _choose_varied(bot, game, args):
    """bot.choose(game) with master's placements or plies set by --long-plays/--long-plies."""
    from wordsalvo.engine import bot as bot_module
    from wordsalvo.engine import clock

    saved = clock.BASE_PLAYS, bot_module.MASTER_PLIES
    try:
        if args.long_plays is not None:
            clock.BASE_PLAYS = args.long_plays
        if args.long_plies is not None:
            bot_module.MASTER_PLIES = args.long_plies
        return bot.choose(game)
    finally:
        clock.BASE_PLAYS, bot_module.MASTER_PLIES = saved


def play_game(rules, lex, k: int, args) -> dict:
    """Game k: the turns compared, [(turn, bag, short move, long move, arbiter or None)]."""
    import wordsalvo as ws
    from wordsalvo.engine.simulation import Simulator

    bag = game_seed(args.seed, k)
    game = ws.Game(rules, lex, seed=bag)
    expert = ws.Bot("expert", rules, lexicon=lex)
    expert.reset(bag)
    turns = []
    n = 0
    while not game.is_over:
        if game.bag_count > rules.rack_size:
            n += 1
        if game.bag_count > rules.rack_size and n % args.every == 0:
            seed = (bag * 1_000 + len(game.history)) % (1 << 64)
            short = ws.Bot("master", rules, lexicon=lex, seconds=args.short, cpu_time=True)
            long_ = ws.Bot("master", rules, lexicon=lex, seconds=args.long, cpu_time=True)
            short.reset(seed)
            long_.reset(seed)
            a, b = short.choose(game), _choose_varied(long_, game, args)
            row = {"turn": len(game.history), "bag": game.bag_count, "short": str(a), "long": str(b)}
            if str(a) != str(b):
                sim = Simulator(game, lex, moves=[a, b], plies=args.arbiter_plies, iterations=args.arbiter_iterations,
                                sampling="rr", seed=seed, threads=1)
                r = sim.run()
                by = {str(row_.action): row_ for row_ in r.rows}
                ra, rb = by[str(a)], by[str(b)]
                row["arbiter"] = {"win": rb.win - ra.win, "win_se": ((ra.win_stderr or 0) ** 2 + (rb.win_stderr or 0) ** 2) ** 0.5,
                                  "equity": rb.equity - ra.equity, "equity_se": ((ra.stderr or 0) ** 2 + (rb.stderr or 0) ** 2) ** 0.5}
            turns.append(row)
        game.apply(expert.choose(game))
    return {"game": k, "bag_seed": bag, "turns": turns}


def report(lines: list[dict], args) -> None:
    rows = [t for rec in lines for t in rec["turns"]]
    if not rows:
        print("no turn compared yet")
        return
    differ = [t for t in rows if "arbiter" in t]
    win = [t["arbiter"]["win"] if "arbiter" in t else 0.0 for t in rows]
    eq = [t["arbiter"]["equity"] if "arbiter" in t else 0.0 for t in rows]
    wm, wlo, whi = mean_interval(win)
    em, elo, ehi = mean_interval(eq)
    per_game = len(rows) / len(lines) * args.every
    varied = "".join(f", {n} {v}" for n, v in (("placements", args.long_plays), ("plies", args.long_plies)) if v)
    print(f"# master {args.short:g} s against {args.long:g} s of CPU a move{varied}, {args.rules}, {len(lines)} games, "
          f"{len(rows)} turns compared (every {args.every}. simulated turn), arbiter {args.arbiter_iterations} "
          f"iterations, {args.arbiter_plies} plies")
    print(f"moves differ: {len(differ)} of {len(rows)} turns ({100 * len(differ) / len(rows):.1f} %)")
    print(f"the long budget's gain a turn compared: win chance {100 * wm:+.2f} points ({100 * wlo:+.2f} to "
          f"{100 * whi:+.2f}), equity {em:+.2f} ({elo:+.2f} to {ehi:+.2f})")
    if differ:
        dw, dlo, dhi = mean_interval([t["arbiter"]["win"] for t in differ])
        de, delo, dehi = mean_interval([t["arbiter"]["equity"] for t in differ])
        print(f"  where they differ: win chance {100 * dw:+.2f} points ({100 * dlo:+.2f} to {100 * dhi:+.2f}), "
              f"equity {de:+.2f} ({delo:+.2f} to {dehi:+.2f})")
    print(f"simulated turns a game: about {per_game:.1f} (both players), {per_game / 2:.1f} for one; the gain "
          f"summed over one player's: about {100 * wm * per_game / 2:+.2f} points of win chance a game")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--lexicon", default=None)
    ap.add_argument("--short", type=float, default=0.25)
    ap.add_argument("--long", type=float, default=1.0)
    ap.add_argument("--long-plays", type=int, default=None, help="the second master simulates N placements")
    ap.add_argument("--long-plies", type=int, default=None, help="the second master simulates N plies")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--every", type=int, default=2, help="compare every N-th simulated turn")
    ap.add_argument("--arbiter-iterations", type=int, default=2000)
    ap.add_argument("--arbiter-plies", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    import wordsalvo as ws

    rules = ws.Rules.preset(args.rules)
    lex = ws.Lexicon.load(args.lexicon) if args.lexicon else ws.Lexicon.default(rules.alphabet.name)
    # what decides the turns compared (not --games: a longer run goes on from a shorter one)
    log = RunLog(args.out, {k: getattr(args, k) for k in ("rules", "lexicon", "short", "long", "long_plays",
                                                          "long_plies", "every", "arbiter_iterations",
                                                          "arbiter_plies", "seed")})
    lines = log.records
    done = {rec["game"] for rec in lines}
    print(f"# {platform.machine()}, {os.cpu_count()} cores, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
          f"UTC, load {os.getloadavg()[0]:.1f}", flush=True)
    for k in range(args.games):
        if k in done:
            continue
        rec = play_game(rules, lex, k, args)
        log.append(rec)
        d = sum("arbiter" in t for t in rec["turns"])
        print(f"game {k}: {len(rec['turns'])} turns compared, {d} differ", flush=True)
    report(lines, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

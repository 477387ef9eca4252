"""Strength of the simulating ``master`` level against ``expert``, in game pairs.

    python benchmarks/sim_strength.py --rules wordsalvo-en --pairs 1000 --seconds 0.1 --jobs 2 \\
        --out benchmarks/results/sim-strength-wordsalvo-en-0.1.jsonl [--opponent expert] [--cpu-time] \\
        [--lexicon G] [--leaves L] [--opponent-leaves L]
    python benchmarks/sim_strength.py --rules classic-en --opponent master:0.25 --seconds 1 --cpu-time ...

Pair k shares the bag seed ``game_seed(seed, k)`` (wordsalvo.engine.autoplay) for two
games with the seats swapped (master moves first in one, the opponent in the
other), so the luck of the tiles cancels in much of the comparison.  Each finished
pair is appended to ``--out`` as one JSON line (after a first line of the settings);
run the same command again to go on where it stopped, other settings on the same file
stop with an error (``runlog.py``).  The report: master's win rate over games (a draw counts half)
with its 95 % Wilson interval, the same rate with the interval over pairs (each
pair's mean result as one sample), and the mean spread per game with its interval
over pairs.  ``--cpu-time``: master's budget is CPU time (a loaded machine does not
shorten its thinking).  ``--opponent master:S``: master against master
with S seconds a move (does more time win?); ``master-nopeg``: master without its
pre-endgame at the same budget (``master-nopeg:S`` at S seconds); ``master-win[:S]``: master
whose simulation compares the win chance alone (``Bot(spread_weight=0)``), ``master-blend[:S]``:
the win chance blended with the spread (``Bot(spread_weight=0.5)``, MAGPIE's default blend).  ``--infer``: master infers the opponent's kept tiles
from its last turn (``Bot(infer=True)``), the opponent does not.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE / "src"))
if str(HERE / "benchmarks") not in sys.path:  # its neighbour runlog.py
    sys.path.insert(0, str(HERE / "benchmarks"))

from wordsalvo.engine.autoplay import game_seed  # noqa: E402
from wordsalvo.parallel import map_unordered  # noqa: E402
from wordsalvo.stats import mean_interval, wilson_interval  # noqa: E402

from runlog import RunLog  # noqa: E402

_BOTS: dict = {}


def _table(path, rules):
    if not path:
        return None
    from wordsalvo.leaves import Leaves

    return Leaves.from_csv(path, rules) if path.endswith(".csv") else Leaves.load(path, rules)


def _bots(rules_name, lexicon, seconds, opponent, cpu_time, leaves=None, opponent_leaves=None, infer=False,
          spread_weight=None):
    """The two players; opponent "master" or "master-nopeg" may carry its own budget after
    a colon ("master:0.25")."""
    key = (rules_name, lexicon, seconds, opponent, cpu_time, leaves, opponent_leaves, infer, spread_weight)
    name, _, budget = opponent.partition(":")
    if key not in _BOTS:
        import wordsalvo as ws

        rules = ws.Rules.preset(rules_name)
        lex = ws.Lexicon.load(lexicon) if lexicon else ws.Lexicon.default(rules.alphabet.name)
        _BOTS.clear()
        _BOTS[key] = (rules, lex, ws.Bot("master", rules, lexicon=lex, leaves=_table(leaves, rules), seconds=seconds,
                                         cpu_time=cpu_time, infer=infer, spread_weight=spread_weight),
                      ws.Bot("master", rules, lexicon=lex, leaves=_table(opponent_leaves, rules),
                             seconds=float(budget) if budget else seconds, cpu_time=cpu_time,
                             pre_endgame=name != "master-nopeg",
                             spread_weight={"master-win": 0.0, "master-blend": 0.5}.get(name))
                      if name in ("master", "master-nopeg", "master-win", "master-blend") else
                      ws.Bot(opponent, rules, lexicon=lex, leaves=_table(opponent_leaves, rules)))
    return _BOTS[key]


def play_pair(rules_name, lexicon, seconds, opponent, cpu_time, leaves, opponent_leaves, infer, seed, k,
              spread_weight=None):
    """The two games of pair k: [(master's seat, scores by seat, master's moves, master's seconds)]."""
    import wordsalvo as ws

    rules, lex, master, other = _bots(rules_name, lexicon, seconds, opponent, cpu_time, leaves, opponent_leaves, infer,
                                      spread_weight)
    bag = game_seed(seed, k)
    out = []
    for master_seat in (0, 1):
        game = ws.Game(rules, lex, seed=bag)
        master.reset(bag * 2 + master_seat)
        other.reset(bag * 2 + 1 - master_seat)
        moves, spent = 0, 0.0
        while not game.is_over:
            if game.to_move == master_seat:
                t0 = time.perf_counter()
                game.apply(master.choose(game))
                spent += time.perf_counter() - t0
                moves += 1
            else:
                game.apply(other.choose(game))
        out.append((master_seat, list(game.scores), moves, spent))
    return k, out


def _chunk(rules_name, lexicon, seconds, opponent, cpu_time, leaves, opponent_leaves, infer, seed, ks,
           spread_weight=None):
    return [play_pair(rules_name, lexicon, seconds, opponent, cpu_time, leaves, opponent_leaves, infer, seed, k,
                      spread_weight) for k in ks]


def report(lines: list[dict]) -> dict:
    results, pair_scores, spreads = [], [], []
    moves = spent = 0.0
    for rec in lines:
        pair = []
        for seat, scores, n, s in rec["games"]:
            mine, theirs = scores[seat], scores[1 - seat]
            r = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            results.append(r)
            pair.append(r)
            spreads.append(mine - theirs)
            moves += n
            spent += s
        pair_scores.append(sum(pair) / 2)
    games = len(results)
    wins = sum(results)
    lo, hi = wilson_interval(wins, games)
    pm, plo, phi = mean_interval(pair_scores)
    per_pair_spread = [(spreads[2 * i] + spreads[2 * i + 1]) / 2 for i in range(len(pair_scores))]
    sm, slo, shi = mean_interval(per_pair_spread)
    return {"pairs": len(pair_scores), "games": games, "win_rate": wins / games if games else float("nan"),
            "wilson_low": lo, "wilson_high": hi, "pair_mean": pm, "pair_low": plo, "pair_high": phi,
            "mean_spread": sm, "spread_low": slo, "spread_high": shi,
            "master_seconds_per_move": spent / moves if moves else float("nan")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="wordsalvo-en")
    ap.add_argument("--lexicon", default=None)
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--opponent", default="expert",
                    help="a level; master:S, master with S seconds a move; or master-nopeg[:S]: master that "
                         "simulates the pre-endgame turns too (the control of benchmarks/pre_endgame.py's "
                         "strength figure)")
    ap.add_argument("--leaves", default=None, help="master's leave table (.wsl or .csv; default: the shipped one)")
    ap.add_argument("--opponent-leaves", default=None, help="the opponent's leave table (.wsl or .csv)")
    ap.add_argument("--cpu-time", action="store_true")
    ap.add_argument("--infer", action="store_true",
                    help="master infers the opponent's kept tiles from its last turn (Bot(infer=True)); the "
                         "opponent does not")
    ap.add_argument("--spread-weight", type=float, default=None,
                    help="master's utility: the win chance blended with the spread at this weight "
                         "(Bot(spread_weight=W); default: master's own, the win chance alone)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    # what decides the games (not --pairs: a longer run goes on from a shorter one; not --jobs)
    log = RunLog(args.out, {k: getattr(args, k) for k in ("rules", "lexicon", "seconds", "opponent", "leaves",
                                                          "opponent_leaves", "cpu_time", "infer", "spread_weight",
                                                          "seed")})
    done: dict[int, dict] = {rec["pair"]: rec for rec in log.records}
    todo = [k for k in range(args.pairs) if k not in done]
    size = 1 if args.jobs == 1 else 5
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    common = (args.rules, args.lexicon, args.seconds, args.opponent, args.cpu_time, args.leaves, args.opponent_leaves,
              args.infer, args.seed)
    t0 = time.time()
    if args.jobs == 1:
        results = (_chunk(*common, c, args.spread_weight) for c in chunks)
    else:
        results = map_unordered(_chunk, [(*common, c, args.spread_weight) for c in chunks], args.jobs)
    for chunk in results:
        for k, games in chunk:
            rec = {"pair": k, "games": games}
            log.append(rec)
            done[k] = rec
        r = report([done[k] for k in sorted(done)])
        print(f"{r['pairs']} pairs: master {100 * r['win_rate']:.1f} % "
              f"({100 * r['wilson_low']:.1f}-{100 * r['wilson_high']:.1f}), spread {r['mean_spread']:+.1f}, "
              f"{time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    r = report([done[k] for k in sorted(done) if k < args.pairs])
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    r.update(rules=args.rules, seconds=args.seconds, opponent=args.opponent, cpu_time=args.cpu_time, infer=args.infer,
             spread_weight=args.spread_weight,
             lexicon=args.lexicon, leaves=args.leaves, opponent_leaves=args.opponent_leaves,
             seed=args.seed, machine=f"{platform.machine()} {os.cpu_count()} cores",
             date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             load=None if load is None else [round(x, 2) for x in load])
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())

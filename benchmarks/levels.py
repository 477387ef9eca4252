"""Measured strength of the engine players: a round robin of the levels and the score and equity players.

    python benchmarks/levels.py --rules wordsalvo-en --games 2000 --jobs 2 --json levels-wordsalvo-en.json

Every pair of the players (default: easy, medium, hard, expert, score, equity;
15 pairs) plays ``--games`` seeded games with :mod:`wordsalvo.engine.autoplay` (seats
alternate who starts; the run of pair ``a``-``b`` uses seed ``--seed``).  It prints,
as Markdown, and writes to ``--json`` (atomically):

* the win rate of the row player against the column player, with its 95 %
  Wilson interval (a draw counts half);
* each player's mean points per turn over all its games (placement points
  before the end-of-game settlement, divided by the turns it took; swaps and
  passes are turns), with a 95 % interval over games (each game's points per
  turn is one sample);
* each player's Glicko-2 rating (:mod:`wordsalvo.ratings`, every player
  starting at 1500 / RD 350 / volatility 0.06): rating period ``k`` holds game
  ``k`` of every pair, so the round robin is ``--games`` periods of one game per
  pair (five games per player per period).

Rated players (:mod:`wordsalvo.engine.strength`) take part by name: ``beta=0.2`` (the
strength parameter) or a rating, ``1200`` (``Bot(rating=1200)``, from the shipped
table).  ``--anchor REPORT`` shifts every rating so that the named levels' mean
(medium, hard, expert, those present in both) equals their mean in REPORT (the
README's round robin of the static levels), and the report gives each rating as
anchored with its 95 % interval (rating +- 1.96 RD) and, for a player asked for a
rating, how far it landed from it.  ``--calibrate FILE`` writes the calibration
table of the ``beta=`` players and expert (``beta = inf``), ratings made monotone
in beta by pooling adjacent violators (the noise of neighbouring points), as
``wordsalvo/data/strength.toml`` holds it:

    python benchmarks/levels.py --rules wordsalvo-en --games 400 --jobs 2 --seed 11 \
        --players easy,medium,hard,expert,beta=-0.1,beta=0,beta=0.03,... \
        --anchor benchmarks/results/levels-wordsalvo-en.json --orders 100 --bootstrap 100 \
        --calibrate src/wordsalvo/data/strength.toml

(the exact command is in the table).  ``--orders P`` rates the games again in P
shuffled orders within each pair and reports the mean: Glicko-2 weighs recent
periods more, so one order's ratings move with its last few hundred games;
``--bootstrap B`` gives 95 % intervals from B replicates of each pair's games
drawn with replacement.  The table is made from the means over orders when the
report has them.

With ``--cache DIR`` each pair's games are kept in DIR, so the round robin can
grow: ``--games 1000`` then ``--games 2000`` plays games 1000-1999 only, and the
report is the same as one run of 2000.  The same command line gives the same games (the engines are seeded from the
game seeds), whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import os
import random
import platform
import importlib.util
import sys
import time
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE / "src"))

from wordsalvo.engine.autoplay import AutoplaySpec, GameResult, iter_games  # noqa: E402
from wordsalvo.engine.bot import LEVELS  # noqa: E402
from wordsalvo.inputs import write_atomic  # noqa: E402
from wordsalvo.ratings import RatingPool  # noqa: E402
from wordsalvo.stats import mean_interval, wilson_interval  # noqa: E402

#: the static levels (master thinks for a time per move: benchmarks/sim_strength.py measures it)
PLAYERS = (*(level for level in LEVELS if level != "master"), "score", "equity")


def turns_taken(result, p: int) -> int:
    """Turns player ``p`` took in a game (the first mover takes the extra turn of an odd total)."""
    return (result.turns + (1 if result.first == p else 0)) // 2


def _load_cached(path: Path | None) -> list:
    if path is None or not path.is_file():
        return []
    return [GameResult(**{**d, "scores": tuple(d["scores"]), "bingos": tuple(d["bingos"]),
                          "plays": tuple(d["plays"]), "points": tuple(d["points"])})
            for d in json.loads(path.read_text("utf-8"))]


def _save_cached(path: Path | None, results: list) -> None:
    if path is not None:
        rows = [{k: v for k, v in asdict(r).items() if k not in ("gcg", "trace", "states")} for r in results]
        write_atomic(path, json.dumps(rows, separators=(",", ":")).encode("utf-8"))


#: the levels whose mean rating anchors the scale (easy loses nearly every game: its rating is loose)
ANCHOR_LEVELS = ("medium", "hard", "expert")


def anchor_shift(ratings: dict, anchor: dict) -> float:
    """What to add to every rating of ``ratings`` so that the mean of the anchor levels
    present in both equals their mean in ``anchor`` (a report's ``glicko2``)."""
    names = [n for n in ANCHOR_LEVELS if n in ratings and n in anchor]
    if not names:
        raise SystemExit(f"--anchor: none of {', '.join(ANCHOR_LEVELS)} in both round robins")
    return sum(anchor[n]["rating"] - ratings[n]["rating"] for n in names) / len(names)


def _asked_rating(name: str) -> float | None:
    try:
        return float(name)
    except ValueError:
        return None


def _beta_of(name: str) -> float | None:
    if name == "expert":
        return float("inf")
    if name.startswith("beta="):
        return float(name[5:])
    return None


def pooled_monotone(values: list[float], weights: list[float]) -> list[float]:
    """Pool adjacent violators: the increasing sequence nearest ``values`` (weighted least squares)."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for v, w in zip(values, weights):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] >= blocks[-1][0]:
            v2, w2, c2 = blocks.pop()
            v1, w1, c1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    out: list[float] = []
    for v, _w, c in blocks:
        out += [v] * c
    return out


def measured(report: dict, name: str) -> float:
    """A player's anchored rating: the mean over shuffled orders when the report has them, else the
    one order's."""
    g = report["glicko2"][name]
    return g.get("order_mean", g["anchored"])


def calibration_toml(report: dict, command: str) -> str:
    """The calibration table (``wordsalvo/data/strength.toml``) of a report's rated players."""
    rows = sorted((_beta_of(n), n) for n in report["players"] if _beta_of(n) is not None)
    g = report["glicko2"]
    values = [measured(report, n) for _b, n in rows]
    weights = [1 / g[n]["rd"] ** 2 for _b, n in rows]
    mono = pooled_monotone(values, weights)
    for i in range(1, len(mono)):  # strictly increasing: pooled points 1 apart
        if mono[i] <= mono[i - 1]:
            mono[i] = mono[i - 1] + 1.0
    out = ["# The rated player's calibration (wordsalvo.engine.strength): beta -> Glicko-2 rating.",
           f"# Made by: {command}",
           f"# {report['games_per_pair']} games per pair, seed {report['seed']}, {report['machine']}; ratings",
           f"# anchored to {report['anchor_file']} (shift {report['anchor_shift']:+.1f} for the games' order);",
           f"# each the mean over {report.get('orders') or 1} orders of the games within each pair.",
           f'rules = "{report["rules"]}"', f'command = "{command}"', f'date = "{report["date"]}"', "",
           "[named]"]
    for n in ("easy", "medium", "hard", "expert"):
        if n in g:
            out.append(f"{n} = {measured(report, n):.1f}")
    for (b, n), r in zip(rows, mono):
        beta = "inf" if b == float("inf") else repr(b)
        out += ["", "[[points]]", f"beta = {beta}", f"rating = {r:.1f}",
                f"measured = {measured(report, n):.1f}  # one order: {g[n]['anchored']:.1f}, rd {g[n]['rd']:.1f}"]
    return "\n".join(out) + "\n"


def glicko2_ratings(players, outcomes: dict, games: int) -> dict:
    """Glicko-2 of the round robin: period k holds game k of every pair (``outcomes[(a, b)][k]``:
    a's score against b)."""
    pool = RatingPool()
    for p in players:
        pool.add(p)
    for k in range(games):
        pool.update_period([(a, b, o[k]) for (a, b), o in outcomes.items() if k < len(o)])
    return {name: {"rating": r.rating, "rd": r.rd, "volatility": r.volatility} for name, r in pool.standings()}


def round_robin(rules: str, players, games: int, jobs: int, seed: int, progress=None,
                cache: Path | None = None, anchor: dict | None = None, bootstrap: int = 0,
                orders: int = 0) -> dict:
    """Every pair plays games 0 .. games-1; with ``cache`` each pair's games are kept in a file
    there, so a later run with more games plays only the new ones (the same games)."""
    pairs = list(itertools.combinations(players, 2))
    by_pair: dict[tuple[str, str], list] = {}
    started = time.perf_counter()
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    for a, b in pairs:
        t0 = time.perf_counter()
        path = cache / f"{Path(rules).stem}-seed{seed}-{a}-{b}.json" if cache is not None else None
        have = [r for r in _load_cached(path) if r.index < games]
        done = {r.index for r in have}
        start = len(have) if done == set(range(len(have))) else 0
        if start == 0:
            have = []
        new = list(iter_games(AutoplaySpec(rules, (a, b), seed=seed), games - start, jobs, start=start))
        res = sorted(have + new, key=lambda r: r.index)
        if new:
            _save_cached(path, res)
        by_pair[(a, b)] = res
        if progress:
            progress(f"{a} - {b}: {len(new)} new games ({len(res)} in all) in {time.perf_counter() - t0:.0f} s")
    seconds = time.perf_counter() - started
    # win rates
    table = {}
    for (a, b), res in by_pair.items():
        won = sum(r.outcome(0) for r in res)
        low, high = wilson_interval(won, len(res))
        table[f"{a}|{b}"] = {"row": a, "col": b, "games": len(res), "win_rate": won / len(res),
                             "low": low, "high": high}
    # points per turn
    per_game: dict[str, list[float]] = {p: [] for p in players}
    totals = {p: [0, 0, 0] for p in players}  # points, turns, bingos
    for (a, b), res in by_pair.items():
        for r in res:
            for p, name in enumerate((a, b)):
                t = turns_taken(r, p)
                if t:
                    per_game[name].append(r.points[p] / t)
                totals[name][0] += r.points[p]
                totals[name][1] += t
                totals[name][2] += r.bingos[p]
    points = {}
    for p in players:
        mean, low, high = mean_interval(per_game[p])
        pts, turns, bingos = totals[p]
        points[p] = {"games": len(per_game[p]), "mean_of_games": mean, "low": low, "high": high,
                     "pooled": pts / turns if turns else 0.0,
                     "bingos_per_game": bingos / len(per_game[p]) if per_game[p] else 0.0}
    outcomes = {pair: [r.outcome(0) for r in res] for pair, res in by_pair.items()}
    ratings = glicko2_ratings(players, outcomes, games)
    shift = 0.0
    if anchor is not None:
        shift = anchor_shift(ratings, anchor)
    for g in ratings.values():
        g["anchored"] = g["rating"] + shift
        g["low"], g["high"] = g["anchored"] - 1.96 * g["rd"], g["anchored"] + 1.96 * g["rd"]
    if orders:
        rng = random.Random(f"levels-orders-{seed}")
        sums = {p: 0.0 for p in players}
        for _ in range(orders):
            shuffled = {}
            for pair, o in outcomes.items():
                o = list(o)
                rng.shuffle(o)
                shuffled[pair] = o
            again = glicko2_ratings(players, shuffled, games)
            moved = anchor_shift(again, anchor) if anchor is not None else 0.0
            for p in players:
                sums[p] += again[p]["rating"] + moved
        for p in players:
            ratings[p]["order_mean"] = sums[p] / orders
    if bootstrap:
        rng = random.Random(f"levels-bootstrap-{seed}")
        samples: dict[str, list[float]] = {p: [] for p in players}
        for _ in range(bootstrap):
            drawn = {pair: [o[rng.randrange(len(o))] for _ in o] for pair, o in outcomes.items()}
            again = glicko2_ratings(players, drawn, games)
            moved = anchor_shift(again, anchor) if anchor is not None else 0.0
            for p in players:
                samples[p].append(again[p]["rating"] + moved)
        for p in players:
            xs = sorted(samples[p])
            g = ratings[p]
            g["boot_low"] = xs[int(0.025 * (len(xs) - 1))]
            g["boot_high"] = xs[int(math.ceil(0.975 * (len(xs) - 1)))]
            mean = sum(xs) / len(xs)
            g["boot_sd"] = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))
    return {"anchor": anchor, "anchor_shift": shift, "bootstrap": bootstrap, "orders": orders, "rules": rules, "players": list(players), "games_per_pair": games, "seed": seed, "jobs": jobs,
            "seconds": seconds, "machine": f"{platform.machine()} {platform.processor() or ''} "
                                          f"{os.cpu_count()} cores".replace("  ", " "),
            "python": platform.python_version(), "date": datetime.date.today().isoformat(),
            "win_rates": table, "points_per_turn": points, "glicko2": ratings}


def markdown(report: dict) -> str:
    players = report["players"]
    out = [f"{report['rules']}: {report['games_per_pair']} games per pair, seed {report['seed']}, "
           f"{report['date']}, {report['machine']}, {report['seconds'] / 60:.0f} min", ""]
    out.append("| row beats column | " + " | ".join(players) + " |")
    out.append("|---" * (len(players) + 1) + "|")
    for a in players:
        cells = []
        for b in players:
            if a == b:
                cells.append("")
                continue
            w = report["win_rates"].get(f"{a}|{b}")
            if w is not None:
                rate, low, high = w["win_rate"], w["low"], w["high"]
            else:
                w = report["win_rates"][f"{b}|{a}"]
                rate, low, high = 1 - w["win_rate"], 1 - w["high"], 1 - w["low"]
            cells.append(f"{rate * 100:.1f} ({low * 100:.1f}-{high * 100:.1f})")
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    anchored = report.get("anchor") is not None
    head = "| player | points/turn (95 % CI) | bingos/game | Glicko-2 rating (RD) |"
    if anchored:
        head += f" anchored ({report['anchor_shift']:+.0f}), +-1.96 RD |"
        if report.get("orders"):
            head += f" mean of {report['orders']} orders |"
        if report.get("bootstrap"):
            head += f" bootstrap 95 % ({report['bootstrap']}) |"
        head += " asked | off by |"
    out += ["", head, "|---" * (head.count("|") - 1) + "|"]
    for p in players:
        pt = report["points_per_turn"][p]
        g = report["glicko2"][p]
        row = (f"| {p} | {pt['mean_of_games']:.1f} ({pt['low']:.1f}-{pt['high']:.1f}) | "
               f"{pt['bingos_per_game']:.2f} | {g['rating']:.0f} ({g['rd']:.0f}) |")
        if anchored:
            asked = _asked_rating(p)
            row += f" {g['anchored']:.0f} ({g['low']:.0f}-{g['high']:.0f}) |"
            if report.get("orders"):
                row += f" {g['order_mean']:.0f} |"
            if report.get("bootstrap"):
                row += f" {g['boot_low']:.0f}-{g['boot_high']:.0f} |"
            row += f" {asked:.0f} | {measured(report, p) - asked:+.0f} |" if asked is not None else " | |"
        out.append(row)
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="wordsalvo-en")
    ap.add_argument("--games", type=int, default=2000, help="games per pair (default 2000)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", default=",".join(PLAYERS), help="comma-separated engine players")
    ap.add_argument("--json", metavar="FILE", help="write the report as JSON here")
    ap.add_argument("--cache", metavar="DIR",
                    help="keep each pair's games here; a rerun with more --games plays only the new ones")
    ap.add_argument("--anchor", metavar="REPORT",
                    help="a levels.py JSON report: shift the ratings so the named levels' mean is theirs there")
    ap.add_argument("--calibrate", metavar="FILE", help="write the rated player's calibration table here "
                    "(needs --anchor)")
    ap.add_argument("--bootstrap", type=int, default=0, metavar="B",
                    help="B bootstrap replicates (games drawn again within each pair): 95 %% intervals of the "
                         "ratings as measured, order and all")
    ap.add_argument("--orders", type=int, default=0, metavar="P",
                    help="also rate the games in P shuffled orders (within each pair) and report the mean: "
                         "Glicko-2 weighs recent periods more, so one order's ratings move with its last games")
    args = ap.parse_args(argv)
    if args.calibrate and not args.anchor:
        ap.error("--calibrate needs --anchor")
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    anchor = json.loads(Path(args.anchor).read_text("utf-8"))["glicko2"] if args.anchor else None
    report = round_robin(args.rules, players, args.games, args.jobs, args.seed,
                         progress=lambda s: print(s, file=sys.stderr, flush=True),
                         cache=Path(args.cache) if args.cache else None, anchor=anchor,
                         bootstrap=args.bootstrap, orders=args.orders)
    report["anchor_file"] = args.anchor
    print(markdown(report))
    if args.calibrate:
        given = list(argv if argv is not None else sys.argv[1:])
        kept = [a for i, a in enumerate(given)  # the cache and the JSON copy do not change the table
                if a not in ("--cache", "--json") and (i == 0 or given[i - 1] not in ("--cache", "--json"))]
        command = "python benchmarks/levels.py " + " ".join(kept)
        write_atomic(Path(args.calibrate), calibration_toml(report, command).encode("utf-8"))
    if args.json:
        write_atomic(Path(args.json), (json.dumps(report, indent=1) + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

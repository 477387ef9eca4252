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
import os
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
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


def round_robin(rules: str, players, games: int, jobs: int, seed: int, progress=None,
                cache: Path | None = None) -> dict:
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
    # Glicko-2: period k = game k of every pair
    pool = RatingPool()
    for p in players:
        pool.add(p)
    for k in range(games):
        pool.update_period([(a, b, res[k].outcome(0)) for (a, b), res in by_pair.items() if k < len(res)])
    ratings = {name: {"rating": r.rating, "rd": r.rd, "volatility": r.volatility}
               for name, r in pool.standings()}
    return {"rules": rules, "players": list(players), "games_per_pair": games, "seed": seed, "jobs": jobs,
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
    out += ["", "| player | points/turn (95 % CI) | bingos/game | Glicko-2 rating (RD) |", "|---|---|---|---|"]
    for p in players:
        pt = report["points_per_turn"][p]
        g = report["glicko2"][p]
        out.append(f"| {p} | {pt['mean_of_games']:.1f} ({pt['low']:.1f}-{pt['high']:.1f}) | "
                   f"{pt['bingos_per_game']:.2f} | {g['rating']:.0f} ({g['rd']:.0f}) |")
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
    args = ap.parse_args(argv)
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    report = round_robin(args.rules, players, args.games, args.jobs, args.seed,
                         progress=lambda s: print(s, file=sys.stderr, flush=True),
                         cache=Path(args.cache) if args.cache else None)
    print(markdown(report))
    if args.json:
        write_atomic(Path(args.json), (json.dumps(report, indent=1) + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

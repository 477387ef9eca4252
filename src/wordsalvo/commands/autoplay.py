"""``wordsalvo autoplay``: many seeded games between two engine players.

    wordsalvo autoplay --rules classic-en --games 1000 --p1 equity --p2 score --jobs 2
    wordsalvo autoplay --rules wordsalvo-en --games 200 --p1 hard --p2 medium --gcg games/ --json
    wordsalvo autoplay --rules classic-en --games 10000 --p1 equity --p2 equity --scheduler tcp://127.0.0.1:8786

The same ``--seed`` gives the same games whatever ``--jobs`` is, and on a Dask
cluster too (see :mod:`wordsalvo.engine.autoplay`).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from ..wording import plural
from ..engine.autoplay import GAMES_MAX, AutoplaySpec, AutoplaySummary, run_autoplay
from ..engine.bot import PLAYER_KINDS
from ..parallel import Interrupted, check_scheduler
from ._common import (JOBS_MAX, add_lexicon_argument, add_rules_argument, engine_level, load_rules, output_folder,
                      progress_bar, seconds, whole_number)

__all__ = ["register", "run", "format_summary"]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "autoplay",
        help="play many seeded games between two engine players and report win rates",
        description="Play many seeded games between two engine players (self-play) and report the win "
                    "rates with 95 %% intervals, mean scores and spread, bingos per game and mean turns. "
                    "Seats alternate who starts; the same --seed gives the same games whatever --jobs is.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="players: " + ", ".join(PLAYER_KINDS) + "\n"
               "  score   the highest-scoring play\n"
               "  equity  the best play by equity (score + leave value), or the best swap when it is worth more\n"
               "  easy, medium, hard, expert, master: the difficulty levels of `wordsalvo play`\n"
               "  (master simulates: --seconds sets its time per move)\n"
               "  a rating, e.g. 1200: the engine of that Glicko-2 rating (wordsalvo.engine.strength)",
    )
    add_rules_argument(p)
    add_lexicon_argument(p)
    p.add_argument("--leaves", metavar="FILE", help="leave table (default: the rule set's shipped table)")
    p.add_argument("--games", type=whole_number(1, GAMES_MAX), required=True, metavar="N",
                   help=f"number of games (at most {GAMES_MAX:,} a run)")
    p.add_argument("--p1", type=engine_level(PLAYER_KINDS), required=True, metavar="PLAYER", help="player 1")
    p.add_argument("--p2", type=engine_level(PLAYER_KINDS), required=True, metavar="PLAYER", help="player 2")
    p.add_argument("--jobs", type=whole_number(1, JOBS_MAX), default=1, metavar="J",
                   help="processes playing games, this one included (default 1; the number of cores uses them all)")
    p.add_argument("--seed", type=whole_number(0), default=0, metavar="S", help="seed of the run (default 0)")
    p.add_argument("--board-seed", type=whole_number(0), default=None, metavar="N",
                   help="the random board of a rule set with random boards")
    p.add_argument("--seconds", type=seconds(allow_zero=True), default=None, metavar="S",
                   help="master's thinking time per move (default 1; 0: it plays as expert)")
    p.add_argument("--cpu-time", action="store_true",
                   help="master's --seconds is CPU time, not wall-clock time (other work on the machine "
                        "does not shorten it)")
    p.add_argument("--gcg", metavar="DIR", help="write every game as DIR/game-NNNNNN.gcg")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object on the last line")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the games on a Dask distributed cluster (needs wordsalvo[dask])")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.scheduler is not None:  # first: a bad address is said before any work
        args.scheduler = check_scheduler(args.scheduler)
    rules = load_rules(args.rules, board_seed=args.board_seed)  # checks the name/file now, with a clear error
    spec = AutoplaySpec(rules=args.rules, players=(args.p1, args.p2), seed=args.seed, lexicon=args.lexicon,
                        leaves=args.leaves, board_seed=args.board_seed, seconds=args.seconds,
                        cpu_time=args.cpu_time)
    del rules
    gcg_dir = output_folder(args.gcg, "--gcg") if args.gcg else None  # its note before the progress bar
    bar = progress_bar(args.games, "game")
    interrupted = False
    try:
        summary, _results = run_autoplay(spec, args.games, jobs=args.jobs, scheduler=args.scheduler,
                                         gcg_dir=gcg_dir,
                                         progress=(lambda _r: bar.update(1)) if bar else None)
    except Interrupted as stop:  # Ctrl-C: the workers are stopped; the games finished so far
        summary, _results = stop.partial
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        print(f"Interrupted after {summary.games} of {plural(args.games, 'game')}"
              + (f" (their records are in {gcg_dir})" if gcg_dir is not None else "")
              + (": the summary of those." if summary.games else "."), file=sys.stderr)
    if summary.games or not interrupted:
        print(format_summary(summary, jobs=args.jobs, scheduler=args.scheduler))
    if args.json:
        print(json.dumps({**summary.to_dict(), "interrupted": interrupted}, sort_keys=True))
    return 130 if interrupted else 0


def format_summary(s: AutoplaySummary, jobs: int = 1, scheduler: str | None = None, width: int = 79) -> str:
    """The summary in two small tables that fit ``width`` columns (80 with the cursor's)."""
    where = f"on {scheduler}" if scheduler else plural(jobs, "job")
    head = (f"{s.rules}: {plural(s.games, 'game')} in {s.seconds:.1f} s ({s.games_per_second:.1f} games/s, "
            f"{where}), seed {s.seed}, {s.mean_turns:.1f} turns per game")
    lines = textwrap.wrap(head, width, subsequent_indent="  ", break_on_hyphens=False)
    name = max([6, *(len(p.name) for p in s.players)])
    lines.append(f"{'player':<{name}} {'wins':>6} {'draws':>5}  {'win rate (95 % CI)':<21} mean spread (95 % CI)")
    for p in s.players:
        rate = f"{100 * p.win_rate:.1f} % ({100 * p.win_rate_low:.1f}-{100 * p.win_rate_high:.1f})"
        spread = f"{p.mean_spread:+.1f} ({p.spread_low:+.1f} to {p.spread_high:+.1f})"
        lines.append(f"{p.name:<{name}} {p.wins:>6} {p.draws:>5}  {rate:<21} {spread}")
    lines.append(f"{'player':<{name}} {'mean score':>10} {'bingos/game':>12} {'points/turn':>12}")
    for p in s.players:
        lines.append(f"{p.name:<{name}} {p.mean_score:>10.1f} {p.bingos_per_game:>12.2f} {p.points_per_turn:>12.1f}")
    return "\n".join(lines)

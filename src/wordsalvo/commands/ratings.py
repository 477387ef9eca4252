"""``wordsalvo ratings``: Glicko-2 ratings of the players of a set of games."""

from __future__ import annotations

import argparse
import json
import sys

from ..formats.results import game_files, read_rated_games
from ..lexicon.lexicon import Lexicon
from ..ratings import DEFAULT_TAU, PERIODS, RatingError, rate_games
from ..inputs import is_decimal_number
from ..printable import printable
from ..wording import plural
from ._common import progress_bar

#: show a progress bar (on standard error, when it is a terminal) from this many files on
PROGRESS_FROM = 20


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "ratings",
        help="rate the players of a set of games (Glicko-2) and print the table",
        description="Rate the players of a set of games with Glicko-2 (Glickman's \"Example of the\n"
                    "Glicko-2 system\") in date order, and print every player's rating, RD,\n"
                    "volatility, tier, games, wins, draws and losses, best rating first.\n"
                    "New players start at 1500 / RD 350 / volatility 0.06.\n\n"
                    "Inputs: GCG game records (replayed; each needs a '#date YYYY-MM-DD' line, and\n"
                    "a '#time HH:MM' line orders the games of a day; with --period game records\n"
                    "without dates are rated in the order given), CSV files of results (name\n"
                    "ending in .csv) and folders of both. A results CSV holds one game per line:\n"
                    "  date,player1,player2,score1,score2    e.g. 2026-03-01,Ann,Bob,412,388\n"
                    "  date,player1,player2,result           result 1-0, 0-1 or 1/2-1/2\n"
                    "(the header line is optional).\n\n"
                    "A game of 3 or 4 players counts as a result between every pair, by place;\n"
                    "a player who leaves a game (resigns, abandons, loses on time) loses to\n"
                    "everyone still in it. Every period without games between two periods with\n"
                    "games lets every RD grow.",
        epilog="examples:\n"
               "  wordsalvo ratings games/*.gcg\n"
               "  wordsalvo ratings --period game auto200/\n"
               "  wordsalvo ratings --period week results.csv\n"
               "  wordsalvo ratings --json club.csv > ratings.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("games", nargs="+", metavar="GAMES",
                   help="GCG records, results CSV files, and folders of them (every *.gcg and *.csv inside)")
    p.add_argument("--period", choices=PERIODS, default="day",
                   help="the rating period: the games of one day, ISO week (from Monday) or calendar "
                        "month are rated together; 'game': every game is its own period (default: day)")
    p.add_argument("--tau", type=_tau, default=DEFAULT_TAU, metavar="TAU",
                   help=f"the system constant tau, which limits changes of volatility (default: {DEFAULT_TAU})")
    p.add_argument("--lexicon", metavar="FILE",
                   help="compiled lexicon (.wsg) whose words a replay flags (words never refuse a record here); "
                        "default: the embedded lexicon of each record's rule set")
    p.add_argument("--json", action="store_true", help="print the table as one JSON object")
    p.set_defaults(func=run)


def _tau(text: str) -> float:
    if not is_decimal_number(text.strip()):  # float() takes 1_0, ١٢, nan
        raise argparse.ArgumentTypeError(f"expected a number > 0 (ASCII digits), got {text!r}")
    tau = float(text)
    if not 0 < tau < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return tau


def run(args) -> int:
    lexicon = Lexicon.load(args.lexicon) if args.lexicon else None
    files = game_files(args.games)
    bar = progress_bar(len(files), "file", "reading") if len(files) >= PROGRESS_FROM else None
    try:
        games = read_rated_games(files, lexicon=lexicon, dates=args.period != "game",
                                 progress=(lambda done, total: bar.update(done - bar.n)) if bar else None)
    finally:
        if bar is not None:
            bar.close()
    if not games:
        raise RatingError(f"expected at least one game in {', '.join(args.games)}, got none")
    undated = sum(g.date is None for g in games)
    if undated:
        print(f"{plural(undated, 'game')} of {len(games):,} without a #date line: every game rated in the "
              "order given", file=sys.stderr)
    table = rate_games(games, period=args.period, tau=args.tau)
    for s in table:
        if s.also_written:
            print(f"{printable(s.player)}: also written {', '.join(printable(repr(n)) for n in s.also_written)} "
                  f"in the games (one player: the same name in Unicode NFKC and case)", file=sys.stderr)
    if args.json:
        doc = {"period": args.period, "tau": args.tau, "games": len(games),
               "players": [{"rank": k, **s.to_dict()} for k, s in enumerate(table, 1)]}
        json.dump(doc, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    sys.stdout.write(format_table(table) + "\n")
    return 0


def format_table(table) -> str:
    """The standings as an aligned text table, best first."""
    head = ("#", "player", "rating", "RD", "volatility", "tier", "games", "wins", "draws", "losses")
    rows = [(str(k), printable(s.player), f"{s.rating.rating:.1f}", f"{s.rating.rd:.1f}",
             f"{s.rating.volatility:.5f}", printable(s.rating.tier.name), str(s.games), str(s.wins), str(s.draws), str(s.losses))
            for k, s in enumerate(table, 1)]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    left = {1, 5}  # player and tier are text
    lines = ["  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in [head, *rows]]
    return "\n".join(lines)

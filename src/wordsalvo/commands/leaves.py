"""``wordsalvo leaves``: train, convert and inspect leave tables.

    wordsalvo leaves train --rules wordsalvo-en --games 20000 --rounds 3 --out en.wsl --jobs 2
    wordsalvo leaves export en.wsl --csv en.csv
    wordsalvo leaves import en.csv --rules classic-en -o en.wsl
    wordsalvo leaves show en.wsl ?ERS QU
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..parallel import check_scheduler
from ._common import JOBS_MAX, add_lexicon_argument, add_rules_argument, load_rules, output_file, progress_bar, whole_number

__all__ = ["register"]


def register(subparsers) -> None:
    p = subparsers.add_parser("leaves", help="train, convert and inspect leave tables",
                              description="Leave tables: the value of the tiles kept after a play "
                                          "(see wordsalvo.leaves and wordsalvo.engine.leave_training).")
    sub = p.add_subparsers(dest="leaves_command", metavar="ACTION")
    sub.required = True

    t = sub.add_parser("train", help="train a leave table by self-play",
                       description="Train a leave table by rounds of equity-vs-equity self-play "
                                   "(the method is in wordsalvo.engine.leave_training's docstring).",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rules_argument(t)
    add_lexicon_argument(t)
    t.add_argument("--games", type=whole_number(1), default=50_000, metavar="N",
                   help="games per round (default 50,000)")
    t.add_argument("--rounds", type=whole_number(1), default=5, metavar="R", help="rounds (default 5)")
    t.add_argument("--out", metavar="FILE",
                   help="the leave table to write (default: the user's cache folder, "
                        "<cache>/leaves/RULES.wsl, where Leaves.default finds a table for a rule set "
                        "that ships none, such as wordfeud-de after `wordsalvo lexicon fetch de`)")
    t.add_argument("--jobs", type=whole_number(1, JOBS_MAX), default=1, metavar="J", help="worker processes (default 1)")
    t.add_argument("--seed", type=whole_number(0), default=0, metavar="S", help="seed (default 0)")
    t.add_argument("--save-every", type=whole_number(1), default=500, metavar="N",
                   help="games between two saves of the state (default 500): what Ctrl-C can lose")
    t.add_argument("--forced-games", type=whole_number(0), default=0, metavar="N",
                   help="games per round, after the first, that force rare racks onto the mover (default 0: "
                        "none): the racks of the best 6-tile leaves seen fewer than --min-count times; a "
                        "leave's evidence is then counted in observations (see the method)")
    t.add_argument("--min-count", type=whole_number(1), default=8, metavar="C",
                   help="with --forced-games: the observations each forced rack is topped up to in a round "
                        "(default 8)")
    t.add_argument("--cover", type=whole_number(0), default=0, metavar="C",
                   help="in every round after the first, after its games, play cover games until every full "
                        "rack has been observed C times in the round (default 0: none): their turns also value "
                        "racks seen fewer times in the turn's position, without changing the game; a leave's "
                        "evidence is then counted in observations (see the method)")
    t.add_argument("--cover-games", type=whole_number(0), default=0, metavar="N",
                   help="with --cover: the most cover games a round plays (default 0: as many as --games)")
    t.add_argument("--probes-per-turn", type=whole_number(1), default=16, metavar="P",
                   help="with --cover: the racks a cover game values at each turn (default 16)")
    t.add_argument("--resume", action="store_true", help="continue an interrupted run (FILE.state/)")
    t.add_argument("--restart", action="store_true",
                   help="discard the interrupted run saved in FILE.state/ and start again (without "
                        "--resume or --restart a saved run is an error, never deleted)")
    t.add_argument("--scheduler", metavar="ADDRESS",
                   help="play the games on a Dask distributed scheduler (tcp://host:8786) instead of "
                        "--jobs worker processes (needs wordsalvo[dask]); the same table as a local run")
    t.set_defaults(func=run_train)

    e = sub.add_parser("export", help="write a leave table as CSV (leave,value)")
    e.add_argument("table", metavar="FILE")
    e.add_argument("--csv", required=True, metavar="OUT")
    e.set_defaults(func=run_export)

    i = sub.add_parser("import", help="read a CSV of leave,value lines into a leave table")
    i.add_argument("csv", metavar="CSV")
    add_rules_argument(i)
    i.add_argument("-o", "--out", required=True, metavar="FILE")
    i.set_defaults(func=run_import)

    s = sub.add_parser("show", help="print the values of some leaves, or the best and worst")
    s.add_argument("table", metavar="FILE")
    s.add_argument("leave", nargs="*", help="leaves to look up (? = blank); none: the best and worst")
    s.add_argument("-n", type=whole_number(1), default=10, help="how many best and worst (default 10)")
    s.set_defaults(func=run_show)


def run_train(args) -> int:
    from ..engine.leave_training import TrainingConfig, train_leaves
    from ..leaves import user_table_path

    if args.scheduler is not None:  # first: a bad address is said before any work, the saved state untouched
        args.scheduler = check_scheduler(args.scheduler)
    rules = load_rules(args.rules)  # a clear error for a bad name before any game is played
    if args.out is None:  # the user's own table of the rule set, where Leaves.default looks
        args.out = str(user_table_path(rules.name))
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    config = TrainingConfig(rules=args.rules, games=args.games, rounds=args.rounds, seed=args.seed,
                            lexicon=args.lexicon, jobs=args.jobs, chunk=args.save_every, scheduler=args.scheduler,
                            forced_games=args.forced_games, min_count=args.min_count, cover=args.cover,
                            cover_games=args.cover_games, probes_per_turn=args.probes_per_turn)
    forced = args.forced_games
    # the most games a round after the first adds (a cover ends when every rack has its count)
    extra = forced + ((args.cover_games or args.games) if args.cover else 0)
    bar = progress_bar(args.games * args.rounds + extra * (args.rounds - 1), "game")
    state = {"last": 0}

    def progress(rnd: int, done: int, total: int, change: float | None = None) -> None:
        if bar is not None:
            now = rnd * args.games + max(0, rnd - 1) * extra + done
            bar.update(now - state["last"])
            state["last"] = now
            # the change the last round made to the table: small when the rounds have converged
            moved = f", last round moved the table {change:.2f} points/leave" if change is not None else ""
            bar.set_description(f"round {rnd + 1}/{args.rounds}{moved}")

    try:
        table = train_leaves(config, output_file(args.out, "--out"), resume=args.resume, progress=progress,
                             restart=args.restart)
    except KeyboardInterrupt:  # the workers are stopped; the state of the last whole chunk is saved
        if bar is not None:
            bar.close()
            bar = None
        again = ["wordsalvo", "leaves", "train", "--rules", args.rules, "--games", args.games, "--rounds",
                 args.rounds, "--seed", args.seed, "--out", args.out]
        again += (["--lexicon", args.lexicon] if args.lexicon else []) + ["--jobs", args.jobs]
        again += (["--save-every", args.save_every] if args.save_every != 500 else [])
        again += (["--forced-games", forced, "--min-count", args.min_count] if forced else [])
        again += (["--cover", args.cover, "--cover-games", args.cover_games, "--probes-per-turn",
                   args.probes_per_turn] if args.cover else [])
        again += (["--scheduler", args.scheduler] if args.scheduler else []) + ["--resume"]
        print(f"Interrupted: {_saved_progress(args.out, args.rounds, args.games)}. This continues it:\n  "
              + " ".join(shlex.quote(str(a)) for a in again), file=sys.stderr)
        return 130
    finally:
        if bar is not None:
            bar.close()
    extra = f" and {args.rounds - 1} x {forced:,} forced-rack games" if forced and args.rounds > 1 else ""
    if args.cover and args.rounds > 1:
        extra = (f" and, each round after the first, cover games until every full rack had been seen "
                 f"{args.cover} time{'s' if args.cover > 1 else ''} (at most {args.cover_games or args.games:,})")
    print(f"{args.out}: {len(table):,} leaves, trained on {args.rounds} x {args.games:,} games{extra} "
          f"(seed {args.seed}) for {args.rules}")
    return 0


def _saved_progress(out: str, rounds: int, games: int) -> str:
    """What the saved state of a training run to ``out`` holds, in words."""
    import json
    from pathlib import Path

    state_dir = Path(f"{out}.state")
    try:
        state = json.loads((state_dir / "state.json").read_text("utf-8"))
        games += (state["config"].get("forced_games", 0) + state["config"].get("cover_games", 0)
                  if state["round"] > 0 else 0)
        where = f"round {state['round'] + 1} of {rounds}, {state['games_done']:,} of {games:,} games"
    except (OSError, ValueError, KeyError, TypeError):
        return f"nothing finished is saved yet in {state_dir}/"
    return f"the state is saved in {state_dir}/ ({where} done)"


def run_export(args) -> int:
    from ..leaves import Leaves

    Leaves.load(args.table).to_csv(output_file(args.csv, "--csv"))
    return 0


def run_import(args) -> int:
    from ..leaves import Leaves

    rules = load_rules(args.rules)
    table = Leaves.from_csv(args.csv, rules)
    table.save(output_file(args.out, "--out"))
    print(f"{args.out}: {len(table):,} leaves for {rules.name}")
    return 0


def run_show(args) -> int:
    import numpy as np

    from ..leaves import Leaves

    table = Leaves.load(args.table)
    if args.leave:
        for leave in args.leave:
            print(f"{leave}\t{table.value(leave):+.2f}")
        return 0
    values = np.asarray(table.values)
    order = np.argsort(values[1:], kind="stable") + 1
    print("best:")
    for r in order[::-1][: args.n]:
        print(f"  {table.leave(int(r))}\t{values[r]:+.2f}")
    print("worst:")
    for r in order[: args.n]:
        print(f"  {table.leave(int(r))}\t{values[r]:+.2f}")
    return 0

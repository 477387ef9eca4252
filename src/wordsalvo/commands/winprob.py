"""``wordsalvo winprob``: fit a win-probability model from self-play and check its calibration.

    wordsalvo winprob fit --rules wordsalvo-en --games 4000 --holdout 1000 --jobs 2 --out wordsalvo-en.json
    wordsalvo winprob fit --rules wordfeud-de --games 4000 --jobs 2    # into the cache: WinModel.default finds it
    wordsalvo winprob check --rules classic-en --leaves new.wsl --games 1000   # the shipped model, new games
"""

from __future__ import annotations

import shlex
import sys

import numpy as np

from ._common import (JOBS_MAX, add_lexicon_argument, add_rules_argument, load_rules, output_file, progress_bar,
                      whole_number)

__all__ = ["register"]


def register(subparsers) -> None:
    p = subparsers.add_parser("winprob", help="fit and check win-probability models",
                              description="Win probability of the player on turn from spread and tiles unseen "
                                          "(see wordsalvo.engine.winprob).")
    sub = p.add_subparsers(dest="winprob_command", metavar="ACTION")
    sub.required = True
    f = sub.add_parser("fit", help="fit a model on self-play games and report its calibration on held-out games")
    add_rules_argument(f)
    add_lexicon_argument(f)
    f.add_argument("--leaves", metavar="FILE", help="leave table of the players (default: the shipped one)")
    f.add_argument("--games", type=whole_number(1), required=True, metavar="N", help="games to fit on")
    f.add_argument("--holdout", type=whole_number(1), default=1000, metavar="M",
                   help="games (another seed) to check the calibration on (default 1000)")
    f.add_argument("--jobs", type=whole_number(1, JOBS_MAX), default=1, metavar="J")
    f.add_argument("--seed", type=whole_number(0), default=0, metavar="S")
    f.add_argument("--out", metavar="FILE",
                   help="where to write the model (default: <cache folder>/winprob/<rule set>.json, where "
                        "WinModel.default looks for a rule set the package ships no model for)")
    f.set_defaults(func=run_fit)
    c = sub.add_parser("check", help="report a model's calibration on self-play games (for instance the games of "
                                     "another leave table)")
    add_rules_argument(c)
    add_lexicon_argument(c)
    c.add_argument("--leaves", metavar="FILE", help="leave table of the players (default: the shipped one)")
    c.add_argument("--model", metavar="FILE",
                   help="the model to check (default: the rule set's own, as WinModel.default finds it)")
    c.add_argument("--games", type=whole_number(1), default=1000, metavar="N", help="games to check on (default 1000)")
    c.add_argument("--jobs", type=whole_number(1, JOBS_MAX), default=1, metavar="J")
    c.add_argument("--seed", type=whole_number(0), default=None, metavar="S",
                   help="seed of the games (default: the held-out seed the model's fit used, so the games are "
                        "those it was checked on when fitted, unless the leave table differs)")
    c.set_defaults(func=run_check)


def _positions(spec, games, jobs, start=0, what="games"):
    from ..engine.autoplay import iter_games

    rows = []
    n = 0
    bar = progress_bar(games, "game", what)
    try:
        for r in iter_games(spec, games, jobs=jobs, trace=True, start=start):
            n += 1
            if bar is not None:
                bar.update(1)
            for player, spread, unseen in r.states:
                rows.append((spread, unseen, r.outcome(player), n))
    finally:
        if bar is not None:
            bar.close()
    arr = np.asarray(rows, dtype=np.float64).reshape(-1, 4)
    return arr[:, 0], arr[:, 1], arr[:, 2], n, arr[:, 3].astype(np.int64)


def run_fit(args) -> int:
    from ..engine.autoplay import AutoplaySpec
    from ..engine.winprob import WinModel, calibration, fit

    from ..engine.winprob import user_model_path

    rules = load_rules(args.rules)
    if args.out is None:
        args.out = str(user_model_path(rules.name))
        user_model_path(rules.name).parent.mkdir(parents=True, exist_ok=True)
    out = output_file(args.out, "--out")
    spec = AutoplaySpec(rules=args.rules, players=("equity", "equity"), seed=args.seed, lexicon=args.lexicon,
                        leaves=args.leaves)
    s, u, y, n, _game = _positions(spec, args.games, args.jobs, what="fit")
    coef = fit(s, u, y)
    command = "wordsalvo winprob " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == ["winprob"] \
        else f"wordsalvo winprob fit --rules {args.rules} --games {args.games} --seed {args.seed}"
    model = WinModel(rules.name, coef, games=n, positions=int(len(y)), command=command, seed=args.seed)
    held = AutoplaySpec(rules=args.rules, players=("equity", "equity"), seed=args.seed + 1_000_003,
                        lexicon=args.lexicon, leaves=args.leaves)
    hs, hu, hy, hn, hg = _positions(held, args.holdout, args.jobs, what="holdout")
    cal = calibration(model, hs, hu, hy, games=hg)
    model = WinModel(model.rules, model.coef, model.games, model.positions, model.command, model.seed,
                     {"holdout_games": hn, "holdout_seed": held.seed, "brier": cal.brier,
                      "brier_baseline": cal.brier_baseline, "log_loss": cal.log_loss})
    model.save(out)
    print(f"{args.out}: fitted on {n} games ({len(y)} positions) of {rules.name}; coefficients "
          + ", ".join(f"{c:+.4f}" for c in coef))
    print(f"calibration on {hn} held-out games (seed {held.seed}):")
    print(cal.format())
    return 0


def run_check(args) -> int:
    from ..engine.autoplay import AutoplaySpec
    from ..engine.winprob import WinModel, calibration
    from ..errors import WordSalvoError

    rules = load_rules(args.rules)
    model = WinModel.load(args.model) if args.model else WinModel.default(rules)
    source = args.model or f"the model of {rules.name}"
    if model.rules != rules.name:
        raise WordSalvoError(f"--model {args.model}: expected a model of rule set {rules.name!r}, got one of "
                             f"{model.rules!r}")
    seed = args.seed
    if seed is None:
        held = model.extra.get("holdout_seed")
        seed = held if type(held) is int and held >= 0 else (model.seed or 0) + 1_000_003
    spec = AutoplaySpec(rules=args.rules, players=("equity", "equity"), seed=seed, lexicon=args.lexicon,
                        leaves=args.leaves)
    s, u, y, n, game = _positions(spec, args.games, args.jobs, what="check")
    cal = calibration(model, s, u, y, games=game)
    print(f"{source}: calibration on {n} games of {rules.name} (seed {seed}, "
          f"{'leave table ' + args.leaves if args.leaves else 'the shipped leave table'}):")
    print(cal.format())
    return 0

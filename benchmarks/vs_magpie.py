"""Cross-engine match: one of our players against MAGPIE's, on our game engine.

    python benchmarks/vs_magpie.py --magpie /tmp/magpie-bench --graph csw24.wsg --leaves CSW24-magpie.csv \\
        --ours expert --theirs static --pairs 50 [--seconds 0.5 | --game-seconds 20] [--magpie-seconds 0.5] [--json OUT]

The games are classic-en with a CSW24 graph of ours (``--graph``) and MAGPIE's own CSW24
data; our player is a level (``expert``, ``master``, ...) or a rating, with ``--leaves``
(default: the shipped classic-en table).  MAGPIE plays through its console in sync mode,
one process a move (its start-up is counted apart from its thinking): ``cgp`` with the
position from its side (our rack hidden), then ``gen`` (``--theirs static``: its best move
by static equity with its trained leave table, ``-leaves CSW24T``), or, for ``--theirs
sim``, what its own PlayChooser does by the bag: with more than 4 tiles in the bag ``gen``
and then ``sim`` within ``--magpie-seconds`` (its simulating player on the 15 moves gen
lists, 2 plies, no inference as the position carries no last play; ``-it`` large,
``-tlim``), with 1 to 4 ``peg`` (its pre-endgame solver, ``-pegtlim``), with the bag empty
``endgame`` (its exact solver, both racks given as the unseen tiles tell them, ``-etlim``);
the solvers' transposition tables at 1 % of memory.  ``--theirs sim-only`` simulates on
every turn (what the harness did before 2026-12-08: no solver for MAGPIE).

``--out FILE.jsonl`` appends each game as it ends (seed, seats, spread, CPU time, the
phase of each of MAGPIE's moves) after a first line of the settings; running the same
command again goes on where it stopped (with more ``--pairs``, further), other settings
on the same file stop with an error (``runlog.py``).

Games come in pairs with the same bag seed and the seats swapped.  Every MAGPIE move is
checked by our validator on the game's position: a move our engine refuses, or scores
differently, is recorded (kind, move, our reason) and the game is stopped and counted
apart, never corrected.  Printed: our win rate with its interval (a draw half; over the pairs,
each pair's mean result one sample, as ``sim_strength.py`` counts them), the
mean spread with its interval, the time each side used per game (ours: CPU time of our
process; MAGPIE's: the CPU time of its processes less their start-up measured on an empty
command), and the refusals.  Skips (exit 0 with a note) when the MAGPIE build is missing.
Never copies MAGPIE's code or data: it only runs the build of ``shared/bench/magpie``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if importlib.util.find_spec("wordsalvo") is None:  # a checkout built in place, not installed
    sys.path.insert(0, str(HERE.parent / "src"))
if str(HERE) not in sys.path:  # loaded from elsewhere (the tests): its neighbour runlog.py
    sys.path.insert(0, str(HERE))

from runlog import RunLog  # noqa: E402

#: a row of MAGPIE's move table: "1: 8B ANESTRI    66 66.00" (gen) or with the sim's columns
_ROW = re.compile(r"(?:^|\s)1:\s+(\S+)\s+(\S+)", re.M)
#: MAGPIE's PlayChooser runs its pre-endgame solver with 1 to 4 tiles in the bag (PEG_MAX_BAG)
PEG_MAX_BAG = 4


def _column(text: str, header: re.Pattern, name: str, nxt: str) -> str:
    """The cell under ``name`` in the first row below the first header line ``header`` matches
    (left-aligned columns: the cell starts where its title does and ends where ``nxt``'s does)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if header.match(line):
            start = line.index(name)
            end = line.index(nxt, start + len(name))
            for row in lines[i + 1:]:
                if row.strip() and set(row.strip()) != {"-"}:
                    return row[start:end].strip()
            break
    raise ValueError(f"no table with a {name!r} column")


def _endgame_move(text: str) -> str:
    """The first move of MAGPIE's endgame line: "E8 (IDE)N(T) 12 (V +8)" -> "E8 (IDE)N(T)"."""
    cell = _column(text, re.compile(r"Play\s+V\s+S"), "Play", " V ")
    cell = re.sub(r" \((?:[A-Z?]* \+\d+|6 zeros)\)$", "", cell)
    return re.sub(r" -?\d+$", "", cell)


def _peg_move(text: str) -> str:
    """The first row of MAGPIE's pre-endgame ranking (graded or flat): "4A Q(U)IPS"."""
    return _column(text, re.compile(r"(?:depth\s+)?\s*rank\s+move\s"), "move", "win")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Magpie:
    """MAGPIE's console, one process a command list (sync mode)."""

    def __init__(self, root: Path, kind: str, seconds: float, core: str | None, wmp: bool):
        self.root, self.kind, self.seconds, self.core, self.wmp = root, kind, seconds, core, wmp
        self.binary = root / "magpie" / "bin" / "magpie"
        self.startup = self._startup()

    def _cmd(self) -> list[str]:
        cmd = [str(self.binary), "set", "-mode", "sync", "-lex", "CSW24", "-ld", "english", "-leaves", "CSW24T",
               "-wmp", "true" if self.wmp else "false", "-savesettings", "false", "-threads", "1",
               "-pfrequency", "0", "-numplays", "15", "-plies", "2"]
        return (["taskset", "-c", self.core] if self.core else []) + cmd

    def _run(self, commands: str) -> tuple[str, float]:
        before = _children_cpu()
        text = subprocess.run(self._cmd(), input=commands, capture_output=True, text=True,
                              cwd=self.root / "magpie", timeout=600).stdout
        return text, _children_cpu() - before

    def _startup(self) -> float:
        runs = [self._run("")[1] for _ in range(3)]
        return sorted(runs)[1]

    def phase(self, bag: int) -> str:
        """What MAGPIE's player does with ``bag`` tiles in the bag: gen, sim, peg or endgame."""
        if self.kind == "static":
            return "gen"
        if self.kind == "sim" and bag == 0:
            return "endgame"
        if self.kind == "sim" and bag <= PEG_MAX_BAG:
            return "peg"
        return "sim"

    def move(self, cgp: str, bag: int = 100, both_racks: str | None = None) -> tuple[str, float, str]:
        """MAGPIE's move in our notation (``pass``, ``-TILES`` or a play), its CPU seconds and
        the phase that chose it.  ``both_racks`` is the position with the opponent's rack shown
        (its endgame solver needs it; with the bag empty it is the unseen tiles)."""
        phase = self.phase(bag)
        if phase == "endgame":
            if both_racks is None:
                raise ValueError("MAGPIE's endgame needs both racks: both_racks is None with the bag empty")
            text, cpu = self._run(f"cgp {both_racks}\nendgame -eplies 25 -etlim {self.seconds:g} "
                                  f"-ttfraction 0.01\n")
            return self._notation(_endgame_move, text, cgp), max(0.0, cpu - self.startup), phase
        if phase == "peg":
            text, cpu = self._run(f"cgp {cgp}\npeg -pegtlim {self.seconds:g} -ttfraction 0.01\n")
            return self._notation(_peg_move, text, cgp), max(0.0, cpu - self.startup), phase
        if phase == "gen":
            commands = f"cgp {cgp}\ngen\n"
        else:
            # its sim simulates the moves the last gen listed ("cannot simulate without any moves")
            commands = f"cgp {cgp}\ngen\nsim -it 100000000 -tlim {self.seconds:g} -scond none\n"
        text, cpu = self._run(commands)
        tables = text.split("Move ")
        if len(tables) < 2:
            raise RuntimeError(f"MAGPIE printed no move table for {cgp!r}:\n{text[-2000:]}")
        m = _ROW.search(tables[-1])
        if m is None:
            raise RuntimeError(f"MAGPIE's table has no first row for {cgp!r}:\n{tables[-1][:2000]}")
        return _our_notation(m.group(1), m.group(2) or ""), max(0.0, cpu - self.startup), phase

    @staticmethod
    def _notation(parse, text: str, cgp: str) -> str:
        try:
            cell = parse(text)
        except ValueError as e:
            raise RuntimeError(f"MAGPIE printed no solver line for {cgp!r} ({e}):\n{text[-2000:]}") from None
        coord, _, word = cell.partition(" ")
        return _our_notation(coord, word)


def _our_notation(coord: str, word: str) -> str:
    kind = coord.strip("()").lower()  # its tables write "(exch ENNQ)", "(Pass)" and "pass"
    if kind == "pass":
        return "pass"
    if kind in ("exch", "exchange", "xch"):
        return "-" + word.strip("()")
    return f"{coord} {word}"


def _magpie_cgp(game, hide: bool = True) -> str:
    """The position as MAGPIE's player on turn sees it: its rack, the opponent's hidden
    (``hide=False``: shown, for the endgame, where the unseen tiles are that rack)."""
    from wordsalvo.formats.cgp import format_cgp

    board, racks, scores, zeros = format_cgp(game.position()).split()[:4]
    return f"{board} {racks.split('/')[0]}/ {scores} {zeros}" if hide else f"{board} {racks} {scores} {zeros}"


def play_pair_game(seed: int, ours_first: bool, bot, magpie: Magpie, rules, lexicon) -> dict:
    import wordsalvo as ws
    from wordsalvo.errors import WordSalvoError

    game = ws.Game(rules, lexicon=lexicon, seed=seed)
    me = 0 if ours_first else 1
    ours_cpu = magpie_cpu = 0.0
    refusal = None
    phases: list[str] = []
    phase_cpu: dict[str, float] = {}
    while not game.is_over:
        if game.to_move == me:
            t = time.process_time()
            game.apply(bot.choose(game))
            ours_cpu += time.process_time() - t
            continue
        bag = game.bag_count
        notation, cpu, phase = magpie.move(_magpie_cgp(game), bag, _magpie_cgp(game, hide=False) if bag == 0 else None)
        magpie_cpu += cpu
        phases.append(phase)
        phase_cpu[phase] = phase_cpu.get(phase, 0.0) + cpu
        try:
            if notation == "pass":
                game.pass_turn()
            elif notation.startswith("-"):
                game.swap(notation[1:])
            else:
                game.play(notation)
        except WordSalvoError as e:  # recorded, never corrected
            refusal = {"move": notation, "reason": str(e), "turn": len(game.history)}
            break
    out = {"seed": seed, "ours_first": ours_first, "ours_cpu": ours_cpu, "magpie_cpu": magpie_cpu,
           "refusal": refusal, "magpie_phases": {p: phases.count(p) for p in sorted(set(phases))},
           "magpie_cpu_by_phase": {p: round(c, 4) for p, c in sorted(phase_cpu.items())}}
    if refusal is None:
        s = game.scores
        out["spread"] = s[me] - s[1 - me]
        out["result"] = 1.0 if out["spread"] > 0 else 0.5 if out["spread"] == 0 else 0.0
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--magpie", required=True, type=Path, help="the folder setup.sh built (…/magpie-bench)")
    ap.add_argument("--graph", required=True, help="our CSW24 graph (.wsg)")
    ap.add_argument("--leaves", default=None, help="our leave table (.wsl or leave,value .csv)")
    ap.add_argument("--ours", default="expert", help="our level, or rating=R")
    ap.add_argument("--seconds", type=float, default=None, help="our master's seconds a move (CPU time)")
    ap.add_argument("--game-seconds", type=float, default=None,
                    help="our master's seconds a game instead (CPU time, shared out by its game clock)")
    ap.add_argument("--infer", action="store_true", help="our master infers the opponent's leave")
    ap.add_argument("--theirs", choices=("static", "sim", "sim-only"), default="static",
                    help="MAGPIE's static player, its simulating player with its solvers, or simulating only")
    ap.add_argument("--magpie-seconds", type=float, default=0.5, help="MAGPIE's sim time limit a move")
    ap.add_argument("--wmp", action="store_true", help="MAGPIE with its word map")
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--core", default=None, help="pin MAGPIE to this core (taskset)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--out", default=None, help="append each game to this JSON-lines file; run again to go on")
    args = ap.parse_args(argv)

    if not (args.magpie / "magpie" / "bin" / "magpie").is_file():
        print(f"skipped: no MAGPIE build in {args.magpie} (see shared/bench/magpie/README.md)")
        return 0
    # what decides the games (not --pairs: a longer run goes on from a shorter one)
    settings = {k: getattr(args, k) for k in ("graph", "leaves", "ours", "seconds", "game_seconds", "infer",
                                              "theirs", "magpie_seconds", "wmp", "seed")}
    log = RunLog(args.out, settings) if args.out else None
    import wordsalvo as ws
    from wordsalvo.engine.bot import Bot
    from wordsalvo.leaves import Leaves
    from wordsalvo.stats import mean_interval

    rules = ws.Rules.preset("classic-en")
    lexicon = ws.Lexicon.load(args.graph)
    leaves = None
    if args.leaves:
        leaves = Leaves.from_csv(args.leaves, rules) if args.leaves.endswith(".csv") else Leaves.load(args.leaves, rules)
    level, rating = args.ours, None
    if level.startswith("rating="):
        level, rating = None, float(args.ours.split("=", 1)[1])
    bot = Bot(level, rules, lexicon=lexicon, leaves=leaves, seed=args.seed, rating=rating, seconds=args.seconds,
              cpu_time=True, infer=args.infer, game_seconds=args.game_seconds)
    magpie = Magpie(args.magpie, args.theirs, args.magpie_seconds, args.core, args.wmp)
    games = []
    played = {(g["seed"], g["ours_first"]): g for g in (log.records if log else ())}
    for p in range(args.pairs):
        seed = args.seed * 1_000_003 + p
        for ours_first in (True, False):
            g = played.get((seed, ours_first))
            if g is None:
                g = play_pair_game(seed, ours_first, bot, magpie, rules, lexicon)
                if log is not None:
                    log.append(g)
            games.append(g)
            done = [x for x in games if x["refusal"] is None]
            wins = sum(x["result"] for x in done)
            what = f"MAGPIE's {g['refusal']['move']!r} refused: {g['refusal']['reason']}" if g["refusal"] \
                else f"{g['spread']:+d}"
            print(f"game {len(games)}: {what} (ours {wins:g}/{len(done)})", file=sys.stderr)
    done = [x for x in games if x["refusal"] is None]
    wins = sum(x["result"] for x in done)
    # the two games of a pair share a bag: the pairs are the independent units, each pair's
    # mean result one sample (as sim_strength.py and leaves_match.py count them)
    by_pair: dict[int, list[float]] = {}
    for x in done:
        by_pair.setdefault(x["seed"], []).append(x["result"])
    _, lo, hi = mean_interval([sum(r) / len(r) for r in by_pair.values()]) if done \
        else (None, float("nan"), float("nan"))
    spread = [x["spread"] for x in done]
    mean, slo, shi = mean_interval(spread) if len(spread) > 1 else (float("nan"),) * 3
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
        "machine": f"{platform.machine()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
        "ours": args.ours, "seconds": args.seconds, "game_seconds": args.game_seconds, "infer": args.infer,
        "theirs": args.theirs,
        "magpie_seconds": args.magpie_seconds if args.theirs != "static" else None, "wmp": args.wmp,
        "games": len(games), "counted": len(done), "win_rate": wins / len(done) if done else None,
        "interval": [lo, hi], "mean_spread": mean, "spread_interval": [slo, shi],
        "ours_cpu_per_game": sum(x["ours_cpu"] for x in games) / max(1, len(games)),
        "magpie_cpu_per_game": sum(x["magpie_cpu"] for x in games) / max(1, len(games)),
        "magpie_startup_cpu": magpie.startup,
        "magpie_moves_by_phase": {k: sum(x.get("magpie_phases", {}).get(k, 0) for x in games)
                                  for k in ("gen", "sim", "peg", "endgame")},
        "refusals": [x["refusal"] for x in games if x["refusal"]],
    }
    print(f"ours ({args.ours}) against MAGPIE {args.theirs}: {100 * report['win_rate']:.1f} % "
          f"({100 * lo:.1f}–{100 * hi:.1f}) over {len(done)} games, mean spread {mean:+.1f} ({slo:+.1f} to {shi:+.1f}); "
          f"CPU a game: ours {report['ours_cpu_per_game']:.2f} s, MAGPIE {report['magpie_cpu_per_game']:.2f} s; "
          f"{len(report['refusals'])} MAGPIE moves refused" if done else "no game counted")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

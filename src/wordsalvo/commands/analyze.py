"""``wordsalvo analyze``: replay game records and judge every turn by equity and win chance.

One record: a table (or ``--json``, or ``--html OUT.html``).  Several records or
directories with ``--out DIR``: a batch; one JSON (and with ``--html`` one HTML page)
per game, a ``summary.csv``, a progress bar on a terminal (tqdm, optional).  A game
whose JSON is already in DIR is not analysed again (an interrupted batch resumes);
a broken record is reported and skipped.  ``--scheduler ADDRESS`` runs the same
per-game function (:func:`analyze_path`) on a Dask distributed cluster.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import os
import shutil
import sys
import textwrap
from contextlib import closing
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

from ..analysis import ENDGAME_SECONDS, TOP, analyze_game
from ..errors import WordSalvoError
from ..formats.gcg import GCGError, parse_gcg
from ..inputs import write_atomic
from ..inputs import checked_path, path_problem, read_bytes
from ..formats.replay import replay
from ..instant import instant_stats
from ..parallel import Interrupted, dask_map_unordered, interrupts_deferred, map_unordered
from ..lexicon.lexicon import Lexicon
from ..rules import Rules
from ..engine.winprob import WinModel
from ..wordbook import WordBook
from ._common import add_lexicon_argument, output_file, output_folder, progress_bar, seconds, whole_number


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="replay game records and judge every turn by equity and win chance",
        description=__doc__.split("\n\n", 1)[1],
        epilog="examples:\n"
               "  wordsalvo analyze game.gcg\n"
               "  wordsalvo analyze game.gcg --html game.html\n"
               "  wordsalvo analyze game.gcg --sim 2 --html game.html\n"
               "  wordsalvo analyze games/ --out results/ --jobs 2 --html\n"
               "  wordsalvo analyze games/ --out results/ --scheduler tcp://10.0.0.5:8786",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("games", nargs="+", metavar="GAME", help="GCG records or directories of them ('-': standard input)")
    add_lexicon_argument(p)
    p.add_argument("--rules", help="the rule set to read the records with (default: #rules, else as #lexicon says)")
    p.add_argument("--winprob", metavar="MODEL.json", help="a win-probability model (default: the shipped one)")
    p.add_argument("--top", type=whole_number(1), default=TOP, metavar="N",
                   help=f"alternatives kept per turn (default: {TOP})")
    p.add_argument("--sim", type=seconds(), default=None, metavar="SECONDS",
                   help="judge every turn within 15 equity of the best again by simulation, for SECONDS a turn "
                        "(the verdicts it gives are marked 'simulated')")
    p.add_argument("--endgame", type=seconds(), default=ENDGAME_SECONDS, metavar="SECONDS",
                   help="judge the plays and passes made with the bag empty by the endgame solver, at most "
                        f"SECONDS per solve (default {ENDGAME_SECONDS:g})")
    p.add_argument("--no-endgame", dest="endgame", action="store_const", const=None,
                   help="do not solve the endgame turns")
    p.add_argument("--json", action="store_true", help="one game: print the analysis as JSON")
    p.add_argument("--html", nargs="?", const=True, default=None, metavar="OUT.html",
                   help="one game: write the report page there (default: GAME.html here); a batch: one page per game")
    p.add_argument("--wordbook", metavar="FILE.csv|FILE.json",
                   help="write the Word Book (every new word of each player) as CSV or JSON")
    p.add_argument("--out", metavar="DIR", help="a batch: write one JSON per game and summary.csv here")
    p.add_argument("--jobs", type=whole_number(1), default=1, metavar="N", help="worker processes (default: 1)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask distributed scheduler (wordsalvo[dask])")
    p.set_defaults(func=run)


def _options(args) -> dict[str, Any]:
    return {"lexicon": args.lexicon, "rules": args.rules, "winprob": args.winprob, "top": args.top,
            "width": _text_width(), "sim": args.sim,
            "endgame": args.endgame}


def _text_width() -> int | None:
    """The columns the text is wrapped to: a terminal's (or $COLUMNS), else None (one line a row)."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return max(40, shutil.get_terminal_size().columns - 1)
    return None


_CACHE: dict[tuple, Any] = {}


def _resources(options: dict[str, Any], rules_name: str):
    key = (options.get("lexicon"), rules_name, options.get("winprob"))
    if key not in _CACHE:
        rules = Rules.preset(rules_name)
        lexicon = Lexicon.load(options["lexicon"]) if options.get("lexicon") else None
        model = WinModel.load(options["winprob"]) if options.get("winprob") else None
        _CACHE[key] = (rules, lexicon, model)
    return _CACHE[key]


def analyze_path(path: str, options: dict[str, Any]) -> dict[str, Any]:
    """Analyse one record file: plain data only (``{"path", "analysis", "report",
    "instant"}``, or ``{"path", "error"}`` for a broken record).  The same function runs
    in this process, in a process pool and on Dask workers."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else read_bytes(path, WordSalvoError, "game record")
    except WordSalvoError as e:
        return {"path": path, "error": str(e)}
    try:
        record = parse_gcg(data, path=path)
        rules, lexicon, model = _resources(options, options.get("rules") or record.rules_name())
        rp = replay(record, rules=rules, lexicon=lexicon,
                    assumed=None if options.get("rules") else record.assumed_rules)
        analysis = analyze_game(rp, top=options.get("top", TOP), model=model, sim=options.get("sim"),
                                endgame=options.get("endgame", ENDGAME_SECONDS))
        stats = instant_stats(rp)
        book = WordBook()
        book.add(rp, game=path)
        return {"path": path, "analysis": analysis.to_dict(), "report": analysis.report(stats.report_rows()),
                "instant": stats.to_dict(), "words": [asdict(e) for e in book.entries],
                "text": _text(analysis, stats, len(rp.turns), book, options.get("width")),
                "warnings": list(record.warnings)}
    except WordSalvoError as e:
        return {"path": path, "error": str(e)}


def _text(analysis, stats, entries: int, book: WordBook, width: int | None) -> str:
    """The analysis, the instant stats and the Word Book as text (``width``: wrapped to it)."""
    rest = f"{_instant_text(stats, entries)}\n\n{_book_text(book)}"
    if width is not None:
        rest = "\n".join(textwrap.fill(line, width, subsequent_indent=" " * (len(line) - len(line.lstrip()) + 2),
                                        break_long_words=False, break_on_hyphens=False) if line else ""
                         for line in rest.split("\n"))
    return f"{analysis.text(width)}\n\n{rest}"


def _instant_text(stats, entries: int) -> str:
    lines = ["Instant stats:"]
    for p in stats.players:
        high = f"{p.highest_move[1]} {p.highest_move[0]}" if p.highest_move else "-"
        lines.append(f"  {p.name}: {p.score}; highest move {high}; bingos {p.bingos}; best word "
                     f"{p.best_word or '-'}; longest word {p.longest_word or '-'}; rack penalty {p.rack_penalty}")
    if stats.decisive is not None:
        lines.append(f"  decisive moment by score: entry {stats.decisive + 1} of {entries}")
    return "\n".join(lines)


def _book_text(book: WordBook) -> str:
    players: dict[str, list[str]] = {}
    for e in book.entries:
        players.setdefault(e.player, []).append(e.word + ("*" if e.phony else ""))
    return "Word Book (* = not in the lexicon):\n" + "\n".join(f"  {k}: {' '.join(v)}" for k, v in players.items())


def _write_book(book: WordBook, path: str) -> None:
    text = book.to_csv() if path.lower().endswith(".csv") else book.to_json() + "\n"
    _write_atomic(Path(path), text)


def _write_atomic(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))


def _collect(games: list[str]) -> list[str]:
    out: list[str] = []
    for g in games:
        p = Path(g)
        if not path_problem(g) and p.is_dir():
            out += sorted(str(q) for q in p.rglob("*") if q.suffix.lower() == ".gcg" and q.is_file())
        else:
            out.append(g)
    return out


def _stem(path: str, used: dict[str, int]) -> str:
    stem = Path(path).stem or "game"
    k = used.get(stem, 0)
    used[stem] = k + 1
    return stem if k == 0 else f"{stem}-{k + 1}"


def run(args) -> int:
    paths = _collect(args.games)
    options = _options(args)
    if args.out is None and len(paths) == 1:
        result = analyze_path(paths[0], options)
        if "error" in result:
            raise GCGError(result["error"])
        for warning in result.get("warnings", ()):
            print(f"warning: {warning}", file=sys.stderr)
        if args.wordbook:
            book = WordBook()
            book.add_entries(result["words"])
            _write_book(book, args.wordbook)
            print(f"wrote the Word Book to {args.wordbook}", file=sys.stderr if args.json else sys.stdout)
        if args.html:
            from ..render import report
            page = args.html if isinstance(args.html, str) else f"{_stem(paths[0], {})}.html"
            output_file(page, "--html")
            report.write(result["report"], page, Rules.preset(result["analysis"]["rules"]))
            print(f"wrote the report to {page}", file=sys.stderr if args.json else sys.stdout)
        if args.json:
            json.dump(result["analysis"], sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
        elif not args.html:
            sys.stdout.write(result["text"] + "\n")
        return 0
    if args.out is None:
        raise WordSalvoError(f"{len(paths)} records: expected --out DIR for a batch")
    code = _batch(paths, options, output_folder(args.out, "--out"), bool(args.html), args.jobs, args.scheduler)
    if args.wordbook:
        _write_book(word_book(paths, Path(args.out)), args.wordbook)
    return code


def _iter_results(todo: list[str], options: dict, jobs: int, scheduler: str | None) -> Iterator[dict]:
    """Each game's result as it finishes: here, in ``jobs`` processes or on Dask (Ctrl-C
    stops the workers at once, see :mod:`wordsalvo.parallel`)."""
    tasks = [(p, options) for p in todo]
    if scheduler:
        if importlib.util.find_spec("distributed") is None:
            raise WordSalvoError("--scheduler needs Dask distributed: pip install 'wordsalvo[dask]'")
        yield from dask_map_unordered(analyze_path, tasks, scheduler)
        return
    if jobs <= 1:
        for p in todo:
            yield analyze_path(p, options)
        return
    yield from map_unordered(analyze_path, tasks, jobs)


def batch(paths: list[str], options: dict, out: Path, html: bool = False, jobs: int = 1,
          scheduler: str | None = None, progress: bool = False) -> dict[str, int]:
    """Analyse ``paths`` into ``out`` (see the module docstring); returns counts
    ``{"analysed", "skipped", "failed"}``.  Ctrl-C stops the workers at once; what finished
    is kept (and in ``summary.csv``) and :class:`~wordsalvo.parallel.Interrupted` carries
    the counts."""
    out.mkdir(parents=True, exist_ok=True)
    used: dict[str, int] = {}
    stems = {p: _stem(p, used) for p in paths}
    todo = [p for p in paths if not (out / f"{stems[p]}.json").exists()]
    counts = {"analysed": 0, "skipped": len(paths) - len(todo), "failed": 0}
    bar = progress_bar(len(todo), "game", "analyze") if progress else None
    errors: list[str] = []
    try:
        with closing(_iter_results(todo, options, jobs, scheduler)) as results:
            for result in results:
                with interrupts_deferred():  # a game's files written whole, and counted
                    _keep(result, stems[result["path"]], out, html, counts, errors)
                if bar is not None:
                    bar.update(1)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        with interrupts_deferred():
            _summary(paths, stems, out, errors)
        raise Interrupted(counts) from None
    if bar is not None:
        bar.close()
    _summary(paths, stems, out, errors)
    return counts


def _keep(result: dict, stem: str, out: Path, html: bool, counts: dict[str, int], errors: list[str]) -> None:
    """One game's result into ``out`` (its JSON last: the mark of a game done)."""
    if "error" in result:
        counts["failed"] += 1
        errors.append(result["error"])
        print(f"skipped: {result['error']}", file=sys.stderr)
        return
    if html:
        from ..render import report
        report.write(result["report"], out / f"{stem}.html", Rules.preset(result["analysis"]["rules"]))
    _write_atomic(out / f"{stem}.json", json.dumps(
        {"path": result["path"], "analysis": result["analysis"], "instant": result["instant"],
         "words": result["words"]},
        ensure_ascii=False))
    counts["analysed"] += 1


def word_book(paths: list[str], out: Path) -> WordBook:
    """The Word Book of a batch's results in ``out``, games in the order of ``paths``."""
    used: dict[str, int] = {}
    book = WordBook()
    for p in paths:
        f = out / f"{_stem(p, used)}.json"
        if f.exists():
            book.add_entries(json.loads(f.read_text("utf-8")).get("words", []))
    return book


def _summary(paths: list[str], stems: dict[str, str], out: Path, errors: list[str]) -> None:
    rows = []
    for p in paths:
        f = out / f"{stems[p]}.json"
        if not f.exists():
            continue
        a = json.loads(f.read_text("utf-8"))["analysis"]
        for i, name in enumerate(a["names"]):
            mine = [t for t in a["turns"] if t["player"] == i and t["equity_lost"] is not None]
            rows.append([p, a["rules"], name, a["final_scores"][i], int(i in a["winners"]),
                         round(sum(t["equity_lost"] for t in mine), 1),
                         sum(t["missed"] for t in mine), sum(t["brilliancy"] for t in mine),
                         sum(bool(t["phony"]) for t in a["turns"] if t["player"] == i)])
    s = io.StringIO()
    w = csv.writer(s, lineterminator="\n")
    w.writerow(["path", "rules", "player", "score", "won", "equity_lost", "missed", "brilliancies", "phonies"])
    w.writerows(rows)
    _write_atomic(out / "summary.csv", s.getvalue())


def _batch(paths, options, out, html, jobs, scheduler) -> int:
    try:
        counts = batch(paths, options, out, html, jobs, scheduler, progress=True)
    except Interrupted as stop:
        counts = stop.partial
        left = len(paths) - sum(counts.values())
        print(f"Interrupted: {counts['analysed']} analysed, {counts['skipped']} already done, "
              f"{counts['failed']} failed, {left} not yet; results (and summary.csv of those) in {out}; "
              f"the same command again analyses the rest.", file=sys.stderr)
        return 130
    print(f"{counts['analysed']} analysed, {counts['skipped']} already done, {counts['failed']} failed; "
          f"results in {out}")
    return 0

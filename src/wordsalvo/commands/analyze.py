"""``wordsalvo analyze``: replay game records and judge every turn by equity and win chance.

One record: a table (or ``--json``, or ``--html OUT.html``).  Several records or
directories with ``--out DIR``: a batch; one JSON (and with ``--html`` one HTML page)
per game, a ``summary.csv``, a progress bar on a terminal (tqdm, optional).  A game's
files are named by its stem and a hash of its absolute path (``x-<12 hex>.json``: unique,
and unchanged when files are added); a game whose JSON in DIR names the same path and
the SHA-256 of the record's bytes now is not analysed again (an interrupted batch
resumes; a record changed since is analysed again); a broken record is reported and
skipped.  ``--scheduler ADDRESS`` runs the same
per-game function (:func:`analyze_path`) on a Dask distributed cluster.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import sys
import textwrap
from contextlib import closing
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

from ..analysis import ENDGAME_NODES, ENDGAME_NODES_MAX, PEG_NODES, TOP, analyze_game
from ..errors import WordSalvoError
from ..formats.gcg_record import GCGError, parse_gcg
from ..formats.gcg_visitor import read_gcg, record_bytes
from ..formats.opcodes import resolve_rules
from ..inputs import write_atomic
from ..inputs import os_error_text, path_problem, read_bytes
from ..formats.replay import ReplayBuilder
from ..instant import instant_stats
from ..printable import printable
from ..parallel import Interrupted, check_scheduler, dask_map_unordered, interrupts_deferred, map_unordered
from ..lexicon.lexicon import Lexicon
from ..engine.winprob import WinModel
from ..wordbook import WordBook
from ._common import JOBS_MAX, add_lexicon_argument, output_file, output_folder, progress_bar, seconds, whole_number


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
    p.add_argument("--endgame", type=whole_number(1000, ENDGAME_NODES_MAX), default=ENDGAME_NODES, metavar="NODES",
                   help="judge the plays and passes made with the bag empty by the endgame solver, searching at "
                        f"most NODES positions per solve (default {ENDGAME_NODES:,}; a budget of work, not time, "
                        "so the verdicts are the same on any machine)")
    p.add_argument("--no-endgame", dest="endgame", action="store_const", const=None,
                   help="do not solve the endgame turns")
    p.add_argument("--pre-endgame", type=whole_number(1), default=PEG_NODES, metavar="NODES",
                   help="judge the plays and passes made with 1-4 tiles in the bag by the pre-endgame solver, "
                        f"within NODES turns of endgame search (default {PEG_NODES:,}; the same verdict on "
                        "every machine)")
    p.add_argument("--no-pre-endgame", dest="pre_endgame", action="store_const", const=None,
                   help="do not solve the pre-endgame turns")
    p.add_argument("--json", action="store_true", help="one game: print the analysis as JSON")
    p.add_argument("--html", nargs="?", const=True, default=None, metavar="OUT.html",
                   help="one game: write the report page there (default: GAME.html here); a batch: one page per game")
    p.add_argument("--wordbook", metavar="FILE.csv|FILE.json",
                   help="write the Word Book (every new word of each player) as CSV or JSON")
    p.add_argument("--out", metavar="DIR", help="a batch: write one JSON per game and summary.csv here")
    p.add_argument("--jobs", type=whole_number(1, JOBS_MAX), default=1, metavar="N", help="worker processes (default: 1)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask distributed scheduler (wordsalvo[dask])")
    p.set_defaults(func=run)


def _options(args) -> dict[str, Any]:
    return {"lexicon": args.lexicon, "rules": args.rules, "winprob": args.winprob, "top": args.top,
            "width": _text_width(), "sim": args.sim,
            "endgame": args.endgame, "pre_endgame": args.pre_endgame}


def _text_width() -> int | None:
    """The columns the text is wrapped to: a terminal's (or $COLUMNS), else None (one line a row)."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return max(40, shutil.get_terminal_size().columns - 1)
    return None


_CACHE: dict[tuple, Any] = {}


def _resources(options: dict[str, Any]):
    """The lexicon (None: the rule set's default) and the win model of the options, loaded
    once per process; the rules are the record's, resolved by the replay."""
    key = (options.get("lexicon"), options.get("winprob"))
    if key not in _CACHE:
        lexicon = Lexicon.load(options["lexicon"]) if options.get("lexicon") else None
        model = WinModel.load(options["winprob"]) if options.get("winprob") else None
        _CACHE[key] = (lexicon, model)
    return _CACHE[key]


def _report_rules(analysis: dict):
    """The rules the report draws: the analysed game's (plain data from a worker), with its
    random board and star squares, through the one place that resolves rules."""
    return resolve_rules(analysis["rules"], board_seed=analysis.get("board_seed"), stars=analysis.get("stars"),
                         error=WordSalvoError, where="the analysed game's rules")


def analyze_path(path: str, options: dict[str, Any]) -> dict[str, Any]:
    """Analyse one record file: plain data only (``{"path", "analysis", "report",
    "instant"}``, or ``{"path", "error"}`` for a broken record).  The same function runs
    in this process, in a process pool and on Dask workers."""
    try:
        data = record_bytes(path, WordSalvoError)
    except WordSalvoError as e:
        return {"path": path, "error": str(e)}
    try:
        record = parse_gcg(data, path=path)  # the record's problems before the resources load
        lexicon, model = _resources(options)
        rp = read_gcg(record, ReplayBuilder(rules=options.get("rules"), lexicon=lexicon))  # --rules, else the record's
        analysis = analyze_game(rp, top=options.get("top", TOP), model=model, sim=options.get("sim"),
                                endgame=options.get("endgame", ENDGAME_NODES),
                                pre_endgame=options.get("pre_endgame", PEG_NODES))
        stats = instant_stats(rp)
        book = WordBook()
        book.add(rp, game=path)
        return {"path": path, "source": _source(path, data),
                "analysis": analysis.to_dict(), "report": analysis.report(stats.report_rows()),
                "instant": stats.to_dict(), "words": [asdict(e) for e in book.entries],
                "text": _text(analysis, stats, len(rp.turns), book, options.get("width")),
                "warnings": list(rp.warnings)}
    except WordSalvoError as e:
        return {"path": path, "error": str(e)}


def _source(path: str, data: bytes) -> dict[str, str]:
    """What a result says it was made from: the record's path and the SHA-256 of the bytes
    analysed (a batch stores the path relative to its folder, :func:`_identity`, and resume
    compares both before skipping a record)."""
    return {"path": _identity(path), "sha256": hashlib.sha256(data).hexdigest()}


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
    return "Word Book (* = not in the lexicon that judged the words):\n" + "\n".join(f"  {k}: {' '.join(v)}" for k, v in players.items())


def _write_book(book: WordBook, path: str) -> None:
    text = book.to_csv() if path.lower().endswith(".csv") else book.to_json() + "\n"
    _write_atomic(Path(path), text)


def _write_atomic(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))


def _collect(games: list[str]) -> list[str]:
    """The record files of the arguments (folders searched for ``*.gcg``), each file once
    (``a.gcg`` and ``./a.gcg`` are one record)."""
    out: list[str] = []
    seen: set[str] = set()
    for g in games:
        p = Path(g)
        found = (sorted(str(q) for q in p.rglob("*") if q.suffix.lower() == ".gcg" and q.is_file())
                 if not path_problem(g) and p.is_dir() else [g])
        for f in found:
            key = _identity(f)
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def _identity(path: str, out: str | os.PathLike | None = None) -> str:
    """What names a record: its absolute path, or in the batch folder ``out`` its path
    relative to that folder (``/`` separated), so that moving or renaming a folder that
    holds both the records and the results keeps the batch's resume (``-``: standard input)."""
    if path == "-" or path_problem(path):
        return path
    full = os.path.abspath(path)
    if out is None:
        return full
    try:
        return Path(os.path.relpath(full, os.path.abspath(out))).as_posix()
    except ValueError:  # another drive (Windows): no relative path
        return full


#: the characters of a record's stem kept in its output names (others become ``_``)
_NAME_CHARS = re.compile(r"[^A-Za-z0-9._-]")


def output_name(path: str, out: str | os.PathLike) -> str:
    """The name (without ``.json``/``.html``) of a record's results in the batch folder
    ``out``: the record's stem (cut to 80 characters, characters other than ``A-Z a-z 0-9 .
    _ -`` as ``_``) and 12 hex digits of the SHA-256 of its path relative to ``out``.
    Unique for every record and stable: it depends on that record's path alone, never on
    the other files of the batch (``games/b/x.gcg`` and ``games/c/x-2.gcg`` never share a
    name, and a new file shifts no name), and not on where the folder holding both is
    (moved or renamed, the batch resumes; the record's SHA-256 is checked too)."""
    stem = _NAME_CHARS.sub("_", Path(path).stem if not path_problem(path) else "game")[:80].lstrip(".") or "game"
    digest = hashlib.sha256(_identity(path, out).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{stem}-{digest}"


def _stem(path: str) -> str:
    """A single record's name for its default report page (``GAME.html`` here)."""
    return (Path(path).stem if not path_problem(path) else "") or "game"


def run(args) -> int:
    if args.scheduler is not None:  # first: a bad address is said before any work
        args.scheduler = check_scheduler(args.scheduler)
    paths = _collect(args.games)
    options = _options(args)
    if args.out is None and len(paths) == 1:
        result = analyze_path(paths[0], options)
        if "error" in result:
            raise GCGError(result["error"])
        for warning in result.get("warnings", ()):
            print(f"warning: {printable(warning)}", file=sys.stderr)
        if args.wordbook:
            book = WordBook()
            book.add_entries(result["words"])
            _write_book(book, args.wordbook)
            print(f"wrote the Word Book to {args.wordbook}", file=sys.stderr if args.json else sys.stdout)
        if args.html:
            from ..render import report
            page = args.html if isinstance(args.html, str) else f"{_stem(paths[0])}.html"
            output_file(page, "--html")
            report.write(result["report"], page, _report_rules(result["analysis"]))
            print(f"wrote the report to {page}", file=sys.stderr if args.json else sys.stdout)
        if args.json:
            json.dump(result["analysis"], sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
        elif not args.html:
            sys.stdout.write(printable(result["text"], keep_newlines=True) + "\n")
        return 0
    if not paths:
        raise WordSalvoError(f"expected game records (*.gcg), got none in {', '.join(args.games)}")
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
    if scheduler is not None:
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
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WordSalvoError(os_error_text(out, e, "cannot make the results folder")) from None
    stems = {p: output_name(p, out) for p in paths}
    todo = [p for p in paths if _finished(p, out / f"{stems[p]}.json", check=True, out=out) is None]
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
        print(f"skipped: {printable(result['error'], keep_newlines=True)}", file=sys.stderr)
        return
    if html:
        from ..render import report
        report.write(result["report"], out / f"{stem}.html", _report_rules(result["analysis"]))
    _write_atomic(out / f"{stem}.json", json.dumps(
        {"path": result["path"], "source": {**result["source"], "path": _identity(result["path"], out)},
         "analysis": result["analysis"],
         "instant": result["instant"],
         "words": result["words"]},
        ensure_ascii=False))
    counts["analysed"] += 1


def _finished(path: str, result: Path, check: bool = False, out: Path | None = None) -> dict | None:
    """The stored result of ``path`` in a batch folder when it is that record's: its
    stored source path is the record's, and with ``check`` the SHA-256 of the record's
    bytes now is the stored one (a record changed since is analysed again).  None when
    missing, unreadable, another record's or out of date."""
    try:
        data = json.loads(read_bytes(result, WordSalvoError, "analysis result").decode("utf-8"))
    except (WordSalvoError, ValueError, RecursionError):
        return None
    source = data.get("source") if isinstance(data, dict) else None
    if not isinstance(source, dict) or source.get("path") != _identity(path, out) or "analysis" not in data:
        return None
    if check:
        if path == "-":
            return None
        try:
            now = hashlib.sha256(record_bytes(path, WordSalvoError)).hexdigest()
        except WordSalvoError:
            return None
        if source.get("sha256") != now:
            return None
    return data


def word_book(paths: list[str], out: Path) -> WordBook:
    """The Word Book of a batch's results in ``out``, games in the order of ``paths``."""
    book = WordBook()
    for p in paths:
        data = _finished(p, out / f"{output_name(p, out)}.json", out=out)
        if data is not None:
            book.add_entries(data.get("words", []))
    return book


def _summary(paths: list[str], stems: dict[str, str], out: Path, errors: list[str]) -> None:
    rows = []
    for p in paths:
        data = _finished(p, out / f"{stems[p]}.json", out=out)
        if data is None:
            continue
        a = data["analysis"]
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

"""Hostile input, second pass (issue 22): each reproducer of the outside probe, tried
again, gets the right result or a clear WordSalvoError.

1. batch analysis: output names unique and stable, resume checks path and hash;
2. ``leaves train --resume`` after a crash at every write of its state;
3. Leaves pickling checks content; win-model fields; one bound on leave values;
4. rule set names are identifiers;
and the later items below their headings.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import wordsalvo as ws
from wordsalvo import Game, Rules
from wordsalvo.errors import WordSalvoError

DATA = Path(__file__).parent / "data"
MODEL_PATH = DATA / "winprob-wordsalvo-en-test.json"  # for wordsalvo-en games


class Crash(Exception):
    """The simulated crash of a test that fails at every write."""


def short_record(seed: int, turns: int = 2) -> str:
    from wordsalvo.formats.gcg import to_gcg

    g = Game(Rules.preset("wordsalvo-en"), seed=seed)
    for _ in range(turns):
        m = g.best_move()
        g.pass_turn() if m is None else g.play(m)
    return to_gcg(g)


# -- 1. batch analysis names and resume --------------------------------------------------------
BATCH_OPTIONS = {"winprob": str(MODEL_PATH), "top": 1}


def _results(out: Path) -> dict[str, dict]:
    return {f.name: json.loads(f.read_text("utf-8")) for f in sorted(out.glob("*.json"))}


def test_batch_names_are_unique_and_stable_and_resume_checks_path_and_content(tmp_path):
    from wordsalvo.commands.analyze import _collect, batch, output_name

    games = tmp_path / "games"
    for i, rel in enumerate(["b/x.gcg", "c/x-2.gcg", "x.gcg"]):
        (games / rel).parent.mkdir(parents=True, exist_ok=True)
        (games / rel).write_text(short_record(i + 1), "utf-8")
    out = tmp_path / "out"
    counts = batch(_collect([str(games)]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 3, "skipped": 0, "failed": 0}
    first = _results(out)
    assert len(first) == 3  # two games never share one result
    assert sorted(r["source"]["path"] for r in first.values()) == sorted(  # relative to the batch folder
        f"../games/{rel}" for rel in ["b/x.gcg", "c/x-2.gcg", "x.gcg"])
    # a new file shifts no name: the next run analyses only it
    (games / "a").mkdir()
    (games / "a" / "x.gcg").write_text(short_record(9), "utf-8")
    counts = batch(_collect([str(games)]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 1, "skipped": 3, "failed": 0}
    assert {k: v for k, v in _results(out).items() if k in first} == first
    # a record changed since is analysed again; one given twice is one record
    (games / "x.gcg").write_text(short_record(5), "utf-8")
    counts = batch(_collect([str(games), str(games / "x.gcg"), str(games / "." / "x.gcg")]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 1, "skipped": 3, "failed": 0}
    # a result whose stored path is another record's is not taken for this one
    name = output_name(str(games / "b" / "x.gcg"), out)
    data = json.loads((out / f"{name}.json").read_text("utf-8"))
    data["source"]["path"] = str(games / "c" / "x-2.gcg")
    (out / f"{name}.json").write_text(json.dumps(data), "utf-8")
    counts = batch(_collect([str(games)]), BATCH_OPTIONS, out)
    assert counts == {"analysed": 1, "skipped": 3, "failed": 0}
    assert output_name("a/" + "é" * 200 + ".gcg", "out").encode().__len__() < 120


def test_a_batch_moved_or_renamed_with_its_records_resumes(tmp_path):
    """Issue 37, item 2: results are named by the record's path relative to the batch
    folder (and checked by its SHA-256), not by absolute paths: moving or renaming the
    folder that holds records and results keeps the resume."""
    from wordsalvo.commands.analyze import _collect, batch

    games = tmp_path / "project" / "games"
    for i, rel in enumerate(["a.gcg", "sub/b.gcg"]):
        (games / rel).parent.mkdir(parents=True, exist_ok=True)
        (games / rel).write_text(short_record(i + 1), "utf-8")
    out = tmp_path / "project" / "out"
    assert batch(_collect([str(games)]), BATCH_OPTIONS, out) == {"analysed": 2, "skipped": 0, "failed": 0}
    moved = tmp_path / "elsewhere" / "renamed"
    moved.parent.mkdir()
    (tmp_path / "project").rename(moved)
    games, out = moved / "games", moved / "out"
    assert batch(_collect([str(games)]), BATCH_OPTIONS, out) == {"analysed": 0, "skipped": 2, "failed": 0}
    (games / "a.gcg").write_text(short_record(7), "utf-8")  # changed since: analysed again
    assert batch(_collect([str(games)]), BATCH_OPTIONS, out) == {"analysed": 1, "skipped": 1, "failed": 0}


def test_batch_resume_after_a_crash_at_every_write_gives_the_uninterrupted_result(tmp_path, monkeypatch):
    from wordsalvo.commands import analyze

    games = tmp_path / "games"
    games.mkdir()
    for i in range(3):
        (games / f"g{i}.gcg").write_text(short_record(i + 1), "utf-8")
    paths = analyze._collect([str(games)])
    clean = tmp_path / "clean"
    analyze.batch(paths, BATCH_OPTIONS, clean, html=True)
    want = {f.name: f.read_bytes() for f in clean.iterdir()}
    real_write = analyze.write_atomic
    from wordsalvo.render import report

    real_page = report.write
    writes = 0
    k = 0
    while True:
        out = tmp_path / f"crash-{k}"
        calls = 0

        def failing(fn):
            def wrapped(*a, **kw):
                nonlocal calls
                calls += 1
                if calls == k + 1:
                    raise Crash(f"write {k}")
                return fn(*a, **kw)
            return wrapped

        monkeypatch.setattr(analyze, "write_atomic", failing(real_write))
        monkeypatch.setattr(report, "write", failing(real_page))
        try:
            analyze.batch(paths, BATCH_OPTIONS, out, html=True)
            crashed = False
        except Crash:
            crashed = True
        monkeypatch.setattr(analyze, "write_atomic", real_write)
        monkeypatch.setattr(report, "write", real_page)
        if not crashed:
            writes = k
            break
        analyze.batch(paths, BATCH_OPTIONS, out, html=True)
        got = {f.name: f.read_bytes() for f in out.iterdir()}
        assert got == want, f"after a crash at write {k}"
        k += 1
    assert writes == 7  # 3 pages, 3 results, summary.csv


# -- 2. leaves train --resume after a crash at any write --------------------------------------
TRAIN = dict(rules="classic-en", games=2, rounds=2, chunk=1)


def _train_crashing_at(monkeypatch, out: Path, k: int | None, resume: bool = False) -> list[str]:
    """Trains with the ``k``-th write (or removal) of the state raising Crash before it
    happens (None: no crash); returns the writes done, as ``verb name``."""
    from wordsalvo import leaves as leaves_module
    from wordsalvo.engine import leave_training as lt

    ops: list[str] = []
    real = {"write": lt.write_atomic, "table": leaves_module.write_atomic, "remove": lt._remove}

    def hook(kind):
        def wrapped(path, *a):
            if k is not None and len(ops) == k:
                raise Crash(f"{kind} {Path(path).name}")
            ops.append(f"{kind} {Path(path).name}")
            return real[kind](path, *a)
        return wrapped

    monkeypatch.setattr(lt, "write_atomic", hook("write"))
    monkeypatch.setattr(leaves_module, "write_atomic", hook("table"))
    monkeypatch.setattr(lt, "_remove", hook("remove"))
    try:
        lt.train_leaves(lt.TrainingConfig(**TRAIN), out, resume=resume)
    finally:
        monkeypatch.setattr(lt, "write_atomic", real["write"])
        monkeypatch.setattr(leaves_module, "write_atomic", real["table"])
        monkeypatch.setattr(lt, "_remove", real["remove"])
    return ops


def _crash_then_resume(monkeypatch, tmp_path: Path, k: int) -> bytes:
    out = tmp_path / f"crash-{k}" / "t.wsl"
    out.parent.mkdir()
    with pytest.raises(Crash):
        _train_crashing_at(monkeypatch, out, k)
    _train_crashing_at(monkeypatch, out, None, resume=True)
    return out.read_bytes()


@pytest.fixture(scope="module")
def straight_training(tmp_path_factory):
    out = tmp_path_factory.mktemp("straight") / "t.wsl"
    with pytest.MonkeyPatch.context() as mp:
        ops = _train_crashing_at(mp, out, None)
    return ops, out.read_bytes()


def test_training_resumed_after_a_crash_inside_the_state_write_is_the_same_run(straight_training, monkeypatch,
                                                                               tmp_path):
    ops, want = straight_training
    # the two crashes of the report: after the sums are written but before the state says
    # so (counted twice before), and after a round's table is written but before the state
    # names it (the round was rebuilt from zero)
    after_sums = ops.index("write racks-0-2.npz") + 1
    after_table = ops.index("table round-1.wsl") + 1
    assert ops[after_sums] == ops[after_table] == "write state.json"
    for k in (after_sums, after_table):
        assert _crash_then_resume(monkeypatch, tmp_path, k) == want, ops[k - 1]


@pytest.mark.slow
def test_training_resumed_after_a_crash_at_every_write_is_the_same_run(straight_training, monkeypatch, tmp_path):
    ops, want = straight_training
    assert len(ops) > 12
    for k in range(len(ops)):
        assert _crash_then_resume(monkeypatch, tmp_path, k) == want, f"crash before {ops[k]}"


def test_a_training_state_that_names_missing_or_foreign_files_is_refused(tmp_path):
    from wordsalvo.engine import leave_training as lt

    out = tmp_path / "t.wsl"
    state = tmp_path / "t.wsl.state"
    state.mkdir()
    want = {"method": "racks-1", "rules": "classic-en", "games": 2, "rounds": 2, "seed": 0, "lexicon": None}
    for bad in ({"config": want, "round": 0, "games_done": 1, "sums": "racks-0-1.npz"},
                {"config": want, "round": 0, "games_done": 1, "sums": "../../etc/passwd"},
                {"config": want, "round": True, "games_done": 0, "sums": None},
                {"config": want, "round": 1, "games_done": 0, "sums": None}, [1] * 3):
        (state / "state.json").write_text(json.dumps(bad), "utf-8")
        (state / "round-0.wsl").unlink(missing_ok=True)
        with pytest.raises(WordSalvoError, match="state"):
            lt.train_leaves(lt.TrainingConfig(**TRAIN), out, resume=True)
    (state / "state.json").write_text("{" * 100_000, "utf-8")
    with pytest.raises(WordSalvoError, match="unreadable"):
        lt.train_leaves(lt.TrainingConfig(**TRAIN), out, resume=True)


# -- 4. rule set names are identifiers ---------------------------------------------------------
def _rules_text(name: str) -> str:
    text = (Path(ws.__file__).parent / "rulesets" / "classic-en.toml").read_text("utf-8")
    return text.replace('name = "classic-en"', f"name = {json.dumps(name)}")


@pytest.mark.parametrize("name", ["../../escaped/pwn", "x" * 300, "a/b", "", ".hidden", "Classic-EN", "a b",
                                  "x" * 33, "é", "a\x1b[2J", "nul\x00"])
def test_a_rule_set_name_that_is_not_an_identifier_is_refused_when_read(name, tmp_path):
    from wordsalvo.errors import RulesError

    path = tmp_path / "r.toml"
    path.write_text(_rules_text(name), "utf-8")
    with pytest.raises(RulesError, match="'name': expected a rule set name"):
        Rules.load(path)
    with pytest.raises(RulesError, match="expected a rule set name"):
        Rules(name, CLASSIC.alphabet, CLASSIC.layout, CLASSIC.tiles)


CLASSIC = Rules.preset("classic-en")


def test_play_with_a_hostile_rule_set_name_writes_nothing_outside(tmp_path, monkeypatch, capsys):
    from wordsalvo.cli import main

    path = tmp_path / "r.toml"
    path.write_text(_rules_text("../../escaped/pwn"), "utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--rules", str(path), "--player", "A", "--player", "B"]) == 2
    assert "'name': expected a rule set name" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.toml"]


def test_the_defaults_join_only_checked_names_into_package_paths():
    from wordsalvo.engine.winprob import WinModel
    from wordsalvo.leaves import Leaves

    for bad in ("../rulesets/classic-en", "x" * 300, 7):
        with pytest.raises(WordSalvoError, match="expected a rule set name"):
            WinModel.default(bad)

    class Fake:
        name = "../../etc/x"

    with pytest.raises(WordSalvoError, match="expected a rule set name"):
        Leaves.default(Fake())
    assert len(WinModel.default("wordsalvo-en").coef) > 0


# -- 3. content checked on unpickling; model fields; one bound on leave values ---------------
def test_a_leave_table_replaced_between_pickling_and_unpickling_is_an_error(tmp_path):
    import pickle

    import numpy as np

    from wordsalvo.errors import LeavesError
    from wordsalvo.leaves import Leaves

    path = tmp_path / "t.wsl"
    values = np.zeros(len(Leaves.zeros(CLASSIC)), dtype=np.float32)
    Leaves.from_values(CLASSIC, values).save(path)
    blob = pickle.dumps(Leaves.load(path, CLASSIC))
    assert pickle.loads(blob) == Leaves.load(path, CLASSIC)
    values[5] = 3.0
    Leaves.from_values(CLASSIC, values).save(path)
    with pytest.raises(LeavesError, match="other values than the pickled table"):
        pickle.loads(blob)


@pytest.mark.parametrize("bad", [3.4e38, -3.4e38, 1e6 + 1, float("nan"), float("inf")])
def test_one_bound_on_leave_values_everywhere(bad, tmp_path):
    import struct

    import numpy as np

    from wordsalvo.errors import LeavesError
    from wordsalvo.leaves import HEADER_SIZE, Leaves

    n = len(Leaves.zeros(CLASSIC))
    values = np.zeros(n, dtype=np.float64)
    values[3] = bad
    with pytest.raises(LeavesError, match="at most 1e\\+06 points"):
        Leaves.from_values(CLASSIC, values)
    csv = tmp_path / "t.csv"
    csv.write_text(f"leave,value\nA,{bad!r}\n", "utf-8")
    with pytest.raises(LeavesError, match="at most 1e\\+06 points|ASCII digits"):  # nan, inf: not numbers
        Leaves.from_csv(csv, CLASSIC)
    # a .wsl file whose header and checksums are right but a value is out of bounds
    good = tmp_path / "good.wsl"
    Leaves.zeros(CLASSIC).save(good)
    data = bytearray(good.read_bytes())
    struct.pack_into("<f", data, HEADER_SIZE + 4 * 3, bad)
    import hashlib

    from wordsalvo import leaves as lv

    payload = bytes(data[HEADER_SIZE:])
    head = bytearray(data[:HEADER_SIZE])
    head[100:132] = hashlib.sha256(payload).digest()
    head[252:256] = struct.pack("<I", lv._fnv1a32(bytes(head[:252])))
    (tmp_path / "bad.wsl").write_bytes(bytes(head) + payload)
    with pytest.raises(LeavesError, match="at most 1e\\+06 points"):
        Leaves.load(tmp_path / "bad.wsl", CLASSIC)
    assert Leaves.from_values(CLASSIC, np.full(n, 1e6)).best_value == 1e6


@pytest.mark.parametrize("change, message", [
    ({"coef": "12345"}, "'coef': expected a list of 5"),
    ({"coef": [1, 2, 3, 4, True]}, "'coef'"),
    ({"coef": ["1", 2, 3, 4, 5]}, "'coef'"),
    ({"version": True}, "'version': expected 1"),
    ({"version": 1.0}, "'version': expected 1"),
    ({"rules": 5}, "'rules'"),
    ({"rules": "../x"}, "expected a rule set name"),
    ({"games": -1}, "'games'"),
    ({"games": 1.5}, "'games'"),
    ({"seed": "3"}, "'seed'"),
])
def test_win_model_fields_are_checked(change, message):
    from wordsalvo.engine.winprob import WinModel

    d = json.loads(MODEL_PATH.read_text("utf-8")) | change
    with pytest.raises(WordSalvoError, match=message):
        WinModel.from_dict(d)


def test_a_model_of_another_rule_set_is_refused_for_a_game():
    from wordsalvo.analysis import analyze_game
    from wordsalvo.engine.simulation import Simulator
    from wordsalvo.engine.winprob import WinModel

    turkish = WinModel.default("turkish")
    game = Game(Rules.preset("wordsalvo-en"), seed=1)
    game.play(game.best_move())
    with pytest.raises(WordSalvoError, match="made for rule set 'turkish', expected one for 'wordsalvo-en'"):
        analyze_game(game, model=turkish)
    with pytest.raises(WordSalvoError, match="made for rule set 'turkish'"):
        Simulator(game, model=turkish, iterations=1)
    assert analyze_game(game, model=WinModel.default("wordsalvo-en")).turns


# -- 7. regular files only, a size limit per kind ----------------------------------------------
def _cli(*args: str, timeout: float = 120):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "wordsalvo", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _clean_error(r) -> str:
    assert r.returncode not in (0, 1) and "Traceback" not in r.stderr and "Error:" not in r.stderr.split(":")[0], \
        r.stderr
    return r.stderr


@pytest.mark.parametrize("command", [
    ["analyze", "{f}"], ["ratings", "{f}"], ["leaves", "show", "{f}"], ["play", "--resume", "{f}"],
    ["lexicon", "build", "{f}", "-o", "{tmp}/x.wsg"], ["lexicon", "info", "{f}"],
    ["moves", "{f}"],
])
def test_a_device_a_fifo_or_a_folder_is_a_clear_error_never_a_hang_or_memory_error(command, tmp_path, capsys):
    import os

    from wordsalvo.cli import main

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [("/dev/zero", "a character device"), (str(fifo), "a FIFO")]
    if command[0] not in ("analyze", "ratings"):  # for those a folder is a batch of records
        cases.append((str(tmp_path), "folder"))
    for f, kind in cases:
        assert main([a.format(f=f, tmp=tmp_path) for a in command]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert kind in err or (kind == "folder" and ("folder" in err or "directory" in err)), err


def test_the_loaders_refuse_a_file_over_their_kind_s_limit(tmp_path, monkeypatch):
    from wordsalvo import inputs
    from wordsalvo.engine.winprob import WinModel
    from wordsalvo.errors import GCGError, LeavesError, RulesError
    from wordsalvo.leaves import Leaves

    big = tmp_path / "big"
    with big.open("wb") as f:
        f.truncate((1 << 20) + 1)  # sparse: a MB of zeros read nowhere
    with pytest.raises(RulesError, match="expected a rule set file of at most 1,048,576 bytes, got 1,048,577"):
        Rules.load(big)
    with pytest.raises(WordSalvoError, match="win-probability model of at most"):
        WinModel.load(big)
    monkeypatch.setitem(inputs.SIZE_LIMITS, "leave table", 1000)
    with pytest.raises(LeavesError, match="leave table of at most 1,000 bytes"):
        Leaves.load(big, CLASSIC)
    monkeypatch.setitem(inputs.SIZE_LIMITS, "CSV file", 1000)
    with pytest.raises(LeavesError, match="CSV file of at most 1,000 bytes"):
        Leaves.from_csv(big, CLASSIC)
    with pytest.raises(WordSalvoError, match="game record of at most"):
        with big.open("wb") as f:
            f.truncate((4 << 20) + 1)
        from wordsalvo.commands.analyze import analyze_path

        raise WordSalvoError(analyze_path(str(big), {})["error"])
    assert GCGError  # the record's error is a plain message in a batch


# -- 6. autoplay: lazy chunks, a bounded queue, a clear limit ----------------------------------
def _square(x: int) -> int:
    return x * x


def test_map_unordered_makes_tasks_lazily_with_a_bounded_queue():
    import itertools

    from wordsalvo import parallel

    made = 0

    def tasks():
        nonlocal made
        for i in itertools.count():
            made += 1
            yield (i,)

    results = parallel.map_unordered(_square, tasks(), 2)
    got = [next(results) for _ in range(5)]
    results.close()
    assert len(got) == 5 and made <= 5 + parallel.AHEAD * 2


def test_autoplay_refuses_more_games_than_a_run_holds_before_building_anything(capsys):
    from wordsalvo.cli import main
    from wordsalvo.engine.autoplay import GAMES_MAX, AutoplaySpec, iter_games

    with pytest.raises(WordSalvoError, match=f"expected a whole number 0..{GAMES_MAX:,}"):
        next(iter_games(AutoplaySpec("classic-en", ("equity", "score")), 10 ** 12, jobs=2))
    with pytest.raises(SystemExit):
        main(["autoplay", "--rules", "classic-en", "--games", "1000000000000", "--jobs", "2"])
    assert "expected a whole number 1..1,000,000, got 1,000,000,000,000" in capsys.readouterr().err
    for bad in ("٣", "1_0", "１２", "+3"):
        with pytest.raises(SystemExit):
            main(["autoplay", "--rules", "classic-en", "--games", bad])
        assert "(ASCII digits)" in capsys.readouterr().err


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_a_clear_error_soon(tmp_path, capsys):
    pytest.importorskip("distributed")
    from wordsalvo.cli import main

    (tmp_path / "g.gcg").write_text(short_record(1), "utf-8")
    assert main(["analyze", str(tmp_path), "--out", str(tmp_path / "out"), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert "--scheduler tcp://127.0.0.1:1: expected a Dask scheduler there, got nothing listening" in err
    assert "Traceback" not in err


# -- 8. long games: linear per turn, a limit on a record's turns -------------------------------
def _long_pass_rules(tmp_path) -> Rules:
    text = (Path(ws.__file__).parent / "rulesets" / "wordsalvo-en.toml").read_text("utf-8")
    text = text.replace("all_pass_rounds = 2", "all_pass_rounds = 100000").replace(
        'name = "wordsalvo-en"', 'name = "long-passes"')
    path = tmp_path / "long.toml"
    path.write_text(text, "utf-8")
    return Rules.load(path)


def test_a_turn_copies_no_history_so_long_games_grow_linearly(tmp_path):
    g = Game(_long_pass_rules(tmp_path), seed=1)
    for _ in range(3000):
        g.pass_turn()
    lists = {id(state.history) for state, _attempts in g._undo}
    assert len(lists) == 1 and id(g._s.history) in lists  # one list for every undo step, not 3,000 copies
    assert len(g.history) == 3000
    taken = g.undo()
    assert len(taken) == 1 and len(g.history) == 2999
    g.pass_turn()
    assert len(g.history) == 3000
    for _ in range(10):
        g.undo()
    assert len(g.history) == 2990 and all(t.kind == "pass" for t in g.history)


def test_a_record_with_more_events_than_a_game_has_is_refused(tmp_path):
    from wordsalvo.errors import GCGError
    from wordsalvo.formats.gcg import from_gcg, parse_gcg, to_gcg
    from wordsalvo.formats.gcg_record import EVENTS_MAX

    rules = _long_pass_rules(tmp_path)
    g = Game(rules, seed=1)
    for _ in range(EVENTS_MAX):
        g.pass_turn()
    text = to_gcg(g)
    assert len(from_gcg(text, rules=rules).history) == EVENTS_MAX
    g.pass_turn()
    with pytest.raises(GCGError, match=f"expected at most {EVENTS_MAX:,} event lines in a record"):
        parse_gcg(to_gcg(g))


# -- 5. text from files reaches a terminal printable -------------------------------------------
HOSTILE = "\x1b[2J\x1b[31mEve\u202eevil\x1b]0;title\x07"


def test_printable_escapes_controls_and_bidi_overrides_and_is_idempotent():
    from wordsalvo.printable import printable

    shown = printable(HOSTILE)
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown
    assert shown == "\\x1b[2J\\x1b[31mEve\\u202eevil\\x1b]0;title\\x07"
    assert printable(shown) == shown and printable("José Ünal ✓") == "José Ünal ✓"
    assert printable("a\nb", keep_newlines=True) == "a\nb" and printable("a\nb") == "a\\x0ab"


def _hostile_record() -> str:
    text = short_record(1, turns=3)
    return text.replace("#player1 Player1 Player1", f"#player1 Player1 {HOSTILE}")


def test_analyze_and_ratings_show_names_from_files_escaped(tmp_path, capsys):
    from wordsalvo.cli import main
    from wordsalvo.formats.gcg import parse_gcg

    record = short_record(1, turns=3)
    assert parse_gcg(record).players[0].name == "Player1"
    text = record.replace("#player1 Player1 Player1", f"#player1 Player1 {HOSTILE}")
    (tmp_path / "g.gcg").write_text(text, "utf-8")
    assert main(["analyze", str(tmp_path / "g.gcg"), "--winprob", str(MODEL_PATH)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[2J\\x1b[31mEve" in out
    rows = [ln for ln in out.splitlines() if ln[:3].strip() in ("1", "3")]
    assert len(rows) == 2 and all(ln[5:16] == "\\x1b[2J\\x1 " for ln in rows), rows  # cut after escaping
    csv = tmp_path / "r.csv"
    csv.write_text(f"date,player1,player2,score1,score2\n2026-01-01,Ann\x1b]0;pwn\x07,Bob\u202e,400,300\n", "utf-8")
    code = main(["ratings", str(csv)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "\x1b" not in captured.out and "\u202e" not in captured.out and "\\u202e" in captured.out


def test_play_resume_shows_a_hostile_nickname_escaped(tmp_path, monkeypatch):
    import io

    from wordsalvo.cli import build_parser
    from wordsalvo.commands import play

    nick = "Eve\x1b[31m\u202e"
    record = short_record(1, turns=2).replace("Player1", nick)
    saved = tmp_path / "g.gcg"
    saved.write_text(record, "utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = io.StringIO()
    prompts = []

    def answer(prompt):
        prompts.append(prompt)
        raise EOFError

    args = build_parser().parse_args(["play", "--resume", str(saved), "--color", "never"])
    play.run(args, input_fn=answer, output=out)
    text = out.getvalue() + "".join(prompts)
    assert "Eve\\x1b[31m\\u202e" in text
    assert "\x1b[31m" not in text and "\u202e" not in text


# -- 9. bare exceptions become WordSalvoError --------------------------------------------------
def test_a_leave_csv_field_over_the_csv_limit_is_a_bad_line(tmp_path):
    from wordsalvo.errors import LeavesError
    from wordsalvo.leaves import Leaves

    path = tmp_path / "t.csv"
    path.write_text('leave,value\nA,1\n"' + "B" * 200_000 + '",2\nC,3\n', "utf-8")
    with pytest.raises(LeavesError, match="line 3: expected 'leave,value', got a line the CSV reader refuses") as e:
        Leaves.from_csv(path, CLASSIC)
    assert len(e.value.problems) == 1


@pytest.mark.parametrize("text, message", [
    ('{"format": "wordsalvo-winprob", "version": 1, "rules": "x", "coef": [1,2,3,4,5], "games": Infinity}',
     "'games'"),
    ('{"format": "wordsalvo-winprob", "version": 1, "games": ' + "9" * 5000 + "}", "4300 digits"),
    ("[" * 200_000, "expected a win-probability model"),
])
def test_a_win_model_file_with_hostile_numbers_or_nesting_is_a_clear_error(text, message, tmp_path):
    from wordsalvo.engine.winprob import WinModel

    path = tmp_path / "m.json"
    path.write_text(text, "utf-8")
    with pytest.raises(WordSalvoError, match=message):
        WinModel.load(path)


@pytest.mark.parametrize("text, message", [
    ("tier = [1, 2]", "tier 1: expected a \\[\\[tier\\]\\] table"),
    ('tier = ["ab"]', "tier 1: expected a \\[\\[tier\\]\\] table"),
    ('[[tier]]\nname = "a"\n[[tier]]\nname = "b"\nfrom = ' + "9" * 5000, "4300 digits"),
    ('[[tier]]\nname = "a"\n[[tier]]\nname = "b"\nfrom = ' + "9" * 400, "within ±1e9"),
])
def test_a_tiers_file_of_the_wrong_shapes_is_a_rating_error(text, message, tmp_path):
    from wordsalvo.errors import RatingError
    from wordsalvo.ratings import load_tiers

    path = tmp_path / "t.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(RatingError, match=message):
        load_tiers(path)


def test_an_output_that_cannot_be_written_is_a_clear_error(tmp_path, capsys, monkeypatch):
    from wordsalvo import inputs
    from wordsalvo.cli import main
    from wordsalvo.inputs import write_atomic

    blocker = tmp_path / "file"
    blocker.write_text("x", "utf-8")
    with pytest.raises(WordSalvoError, match="cannot write it"):
        write_atomic(blocker / "sub" / "x.json", b"{}")
    (tmp_path / "g.gcg").write_text(short_record(1), "utf-8")
    assert main(["analyze", str(tmp_path / "g.gcg"), str(tmp_path / "g.gcg"), "--out", str(blocker / "out")]) == 2
    assert "Traceback" not in capsys.readouterr().err
    table = tmp_path / "t.wsl"
    from wordsalvo.leaves import Leaves

    Leaves.zeros(CLASSIC).save(table)

    def refused(*a, **kw):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(inputs.os, "replace", refused)  # what a folder without write permission does
    for argv in (["leaves", "export", str(table), "--csv", str(tmp_path / "x.csv")],
                 ["leaves", "import", "--rules", "classic-en", "-o", str(tmp_path / "y.wsl"), str(tmp_path / "x.csv")],
                 ["analyze", str(tmp_path / "g.gcg"), "--out", str(tmp_path / "out")],
                 ["analyze", str(tmp_path / "g.gcg"), "--html", str(tmp_path / "g.html")],
                 ["analyze", str(tmp_path / "g.gcg"), "--wordbook", str(tmp_path / "b.csv")]):
        if argv[1] == "import":
            monkeypatch.undo()
            (tmp_path / "x.csv").write_text("A,1\n", "utf-8")
            monkeypatch.setattr(inputs.os, "replace", refused)
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "cannot write it: Permission denied" in err and "Traceback" not in err, (argv, err)
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob("out/*.tmp"))


# -- 10. loose input read strictly, or normalised where that is right --------------------------
def test_a_leave_csv_with_a_bom_is_read_and_numbers_are_ascii(tmp_path):
    from wordsalvo.errors import LeavesError
    from wordsalvo.leaves import Leaves

    path = tmp_path / "t.csv"
    path.write_bytes("\ufeffleave,value\nA,1.5\nB,-2e1\n".encode("utf-8"))
    t = Leaves.from_csv(path, CLASSIC)
    assert t.value("A") == 1.5 and t.value("B") == -20.0
    path.write_text("A,1_0\nB,١٢\nC,１２\nD,nan\nE,\u00b2\n", "utf-8")
    with pytest.raises(LeavesError) as e:
        Leaves.from_csv(path, CLASSIC)
    assert [p.split(":")[0] for p in e.value.problems] == [f"line {k}" for k in range(1, 6)]
    assert all("ASCII digits" in p or "finite" in p for p in e.value.problems)


def test_line_numbers_count_only_real_line_ends(tmp_path):
    from wordsalvo.errors import GCGError, LeavesError
    from wordsalvo.formats.gcg import from_gcg, parse_gcg
    from wordsalvo.leaves import Leaves

    path = tmp_path / "t.csv"
    path.write_text("A,1\x0bB,2\u2028\nC,x\n", "utf-8")  # \x0b and U+2028 end no line
    with pytest.raises(LeavesError, match="line 2: expected a number") as e:
        Leaves.from_csv(path, CLASSIC)
    assert len(e.value.problems) == 2 and e.value.problems[0].startswith("line 1")
    record = short_record(1, turns=2).replace("#seed 1", "#seed 1\x0b\u2028")
    bad = record + ">Player1: ZZZZZZZ 8A ZZZ +1 999\n"
    assert len(bad.splitlines()) == 10  # what str.splitlines makes of it
    for read in (parse_gcg, from_gcg):
        with pytest.raises(GCGError, match="GCG line 8: "):
            read(bad)


def test_an_empty_record_is_broken_not_an_empty_game(tmp_path):
    from wordsalvo.commands.analyze import analyze_path
    from wordsalvo.errors import GCGError
    from wordsalvo.formats.gcg import parse_gcg

    for data in (b"", b"  \n\n"):
        with pytest.raises(GCGError, match="expected a GCG game record"):
            parse_gcg(data)
    (tmp_path / "empty.gcg").write_bytes(b"")
    assert "empty file" in analyze_path(str(tmp_path / "empty.gcg"), {})["error"]


def test_a_record_has_at_most_the_players_a_game_has(tmp_path):
    from wordsalvo.errors import GCGError
    from wordsalvo.formats.gcg import from_gcg, parse_gcg

    record = short_record(1).replace("#player2 Player2 Player2",
                                     "\n".join(f"#player{n} P{n} P{n}" for n in range(2, 2001)))
    with pytest.raises(GCGError, match="expected #player1..#player4 \\(a game has at most 4 players\\), got #player5"):
        parse_gcg(record)
    with pytest.raises(GCGError, match="#player10"):  # the ratings' reader no longer drops #player10 and up
        from_gcg(record)


def test_ratings_count_spellings_of_one_name_as_one_player(tmp_path, capsys):
    import unicodedata

    from wordsalvo.cli import main
    from wordsalvo.ratings import RatedGame, rate_games

    composed, decomposed = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    games = [RatedGame(None, (composed, "Ann"), (1, 2)), RatedGame(None, (decomposed, "ann"), (1, 2)),
             RatedGame(None, ("Bob", "ANN"), (1, 2)), RatedGame(None, ("Ｂob", composed), (2, 1))]
    table = {s.player: s for s in rate_games(games, period="game")}
    assert sorted(table) == ["Ann", "Bob", composed]
    assert table["Ann"].games == 3 and table["Ann"].also_written == ("ann", "ANN")
    assert table["Bob"].also_written == ("Ｂob",) and table[composed].also_written == (decomposed,)
    with pytest.raises(WordSalvoError, match="one player in Unicode NFKC and case"):
        rate_games([RatedGame(None, ("Ann", "ann"), (1, 2))], period="game")
    csv = tmp_path / "r.csv"
    csv.write_text("date,player1,player2,score1,score2\n2026-01-01,Ann,Bob,400,300\n2026-01-02,ann,Bob,300,400\n",
                   "utf-8")
    assert main(["ratings", str(csv)]) == 0
    captured = capsys.readouterr()
    assert "Ann: also written 'ann' in the games" in captured.err and "ann " not in captured.out


# -- issue 38, item 16: the API contract: each bad argument a WordSalvoError naming it -----------
def _api_cases():
    import math

    from wordsalvo.errors import GameError, GCGError, LeavesError, PositionError
    from wordsalvo.formats.cgp import format_cgp
    from wordsalvo.leaves import Leaves

    rules = Rules.preset("wordsalvo-en")
    game = Game(rules, seed=1)
    leaves = Leaves.default(rules)
    return [
        ("set_rack: player", GameError, lambda: game.set_rack(2, "A")),
        ("set_rack: player", GameError, lambda: game.set_rack("0", "A")),
        ("set_rack: player", GameError, lambda: game.set_rack(True, "A")),
        ("seed", GameError, lambda: Game(rules, seed=10 ** 40)),
        ("seed", GameError, lambda: Game(rules, seed=-10 ** 40)),
        ("format_cgp: pos", PositionError, lambda: format_cgp(5)),
        ("choose: game", GameError, lambda: ws.Bot("hard", rules).choose("x")),
        ("to_gcg: pragmas", GCGError, lambda: ws.to_gcg(game, pragmas=5)),
        ("to_gcg: pragmas", GCGError, lambda: ws.to_gcg(game, pragmas=[("a", 2)])),
        ("to_gcg: game", GCGError, lambda: ws.to_gcg(5)),
        ("leave: rank", LeavesError, lambda: leaves.leave(math.nan)),
        ("leave: rank", LeavesError, lambda: leaves.leave("3")),
        ("swap: expected at most", GameError, lambda: game.check_swap("A" * 300)),
    ]


@pytest.mark.parametrize("case", range(13))
def test_a_bad_api_argument_is_a_wordsalvo_error_naming_it(case):
    name, error, call = _api_cases()[case]
    with pytest.raises(error) as info:
        call()
    assert str(info.value).startswith(name) and "expected" in str(info.value) and "got" in str(info.value)


def test_every_seed_a_game_takes_reads_back_from_its_record():
    from wordsalvo.game import SEED_MAX

    rules = Rules.preset("wordsalvo-en")
    for seed in (SEED_MAX, -SEED_MAX):
        game = Game(rules, seed=seed)
        game.play(game.best_move())
        again = ws.from_gcg(ws.to_gcg(game))
        assert again.seed == seed and again.racks == game.racks
    game = Game(rules, seed=1)
    before = game.racks
    with pytest.raises(WordSalvoError):
        game.set_rack(5, "A")
    assert game.racks == before  # changes nothing


# -- issue 38, item 8: a graph file rewritten or truncated while loaded ---------------------------
_REWRITE = r"""
import os, shutil, sys
from importlib import resources
import wordsalvo as ws

live, other, how = sys.argv[1], sys.argv[2], sys.argv[3]
lex = ws.Lexicon.load(live)
rules = ws.Rules.preset("classic-en")
pos = ws.parse_cgp("15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0", rules=rules)
gen = ws.MoveGenerator(lex, rules)
before = [m.notation for m in gen.generate(pos).sorted()]
if how == "rewrite":  # what `cp new.wsg live.wsg` does: the same file (inode) truncated and written again
    with open(other, "rb") as src, open(live, "r+b") as dst:
        dst.truncate(0)
        shutil.copyfileobj(src, dst)
elif how == "truncate":
    os.truncate(live, 4096)
elif how == "garbage":  # the same size, other bytes
    size = os.path.getsize(live)
    with open(live, "r+b") as f:
        f.write(bytes((i * 7919) & 0xFF for i in range(size)))
after = [m.notation for m in gen.generate(pos).sorted()]
assert after == before, "the loaded lexicon changed with its file"
assert "WORD" in lex and "QI" in lex and len(list(lex)) == lex.word_count
again = ws.MoveGenerator(lex, rules).best(pos)
print("ok", len(after), again.notation)
"""


@pytest.mark.parametrize("how", ["rewrite", "truncate", "garbage"])
def test_a_graph_changed_under_a_loaded_lexicon_never_crashes(tmp_path, how):
    """A loaded graph is the process's own copy: ``cp new.wsg live.wsg`` under a running service
    was a SIGSEGV (the file was mapped MAP_SHARED and checked only at load), ``truncate`` a
    SIGBUS; the lexicon keeps the content it was loaded with."""
    import shutil
    import subprocess
    import sys
    from importlib import resources

    from wordsalvo.lexicon.lexicon import compile_lexicon

    with resources.as_file(resources.files("wordsalvo.data").joinpath("en.wsg")) as en:
        live = tmp_path / "live.wsg"
        shutil.copy(en, live)
    words = tmp_path / "words.txt"
    words.write_text("QI\nZA\nAA\n", encoding="utf-8")
    other = tmp_path / "other.wsg"
    compile_lexicon(words, other, alphabet="en")
    env = dict(os.environ, WORDSALVO_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", _REWRITE, str(live), str(other), how], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.startswith("ok ")

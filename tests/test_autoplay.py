"""Self-play: the same seed gives the same games on one core, on several and on a Dask cluster."""

from __future__ import annotations

import json

import pytest

import wordsalvo as ws
from wordsalvo.engine.autoplay import AutoplaySpec, game_seed, iter_games, play_game, run_autoplay, summarize
from wordsalvo.cli import main
from wordsalvo.formats.gcg import parse_gcg
from wordsalvo.leaves import Leaves


@pytest.fixture(scope="module")
def zero_table(tmp_path_factory):
    path = tmp_path_factory.mktemp("leaves") / "zeros.wsl"
    Leaves.zeros(ws.Rules.preset("wordsalvo-en")).save(path)
    return str(path)


def spec(zero_table, players=("equity", "score"), seed=3):
    return AutoplaySpec(rules="wordsalvo-en", players=players, seed=seed, leaves=zero_table)


def test_a_game_is_a_pure_function_of_its_index(zero_table):
    s = spec(zero_table)
    a = play_game(s, 5)
    b = play_game(s, 5)
    assert a == b
    assert a.seed == game_seed(3, 5) and a.first == 1
    assert play_game(s, 4).first == 0
    assert sum(a.scores) > 0 and a.turns > 10 and a.end_reason


def test_jobs_do_not_change_the_games(zero_table):
    s = spec(zero_table)
    one = sorted(iter_games(s, 6, jobs=1), key=lambda r: r.index)
    two = sorted(iter_games(s, 6, jobs=2), key=lambda r: r.index)
    assert one == two


def _pid(i):
    import os

    return os.getpid()


def test_the_caller_plays_its_share_while_the_workers_start():
    """``jobs`` counts this process: it takes tasks itself from the first moment on
    (``--jobs 2`` on a short run was slower than ``--jobs 1``: it waited for two workers to
    start), and only ``jobs - 1`` workers start."""
    import os

    from wordsalvo import parallel

    pids = list(parallel.map_unordered(_pid, ((i,) for i in range(40)), 2, local=True))
    assert len(pids) == 40
    # this process took tasks itself (usually the first, before the worker started; on a
    # loaded machine the worker can start and answer first, so not necessarily that one)
    assert os.getpid() in pids
    assert len(set(pids)) <= 2  # this process and one worker
    without = list(parallel.map_unordered(_pid, ((i,) for i in range(8)), 2))
    assert os.getpid() not in without  # the default leaves every task to the workers


def test_summary_adds_up_and_gcg_files_are_the_games(zero_table, tmp_path):
    s = spec(zero_table)
    summary, results = run_autoplay(s, 4, gcg_dir=tmp_path)
    assert summary.games == 4
    for p in summary.players:
        assert p.wins + p.draws + p.losses == 4
        assert p.win_rate_low <= p.win_rate <= p.win_rate_high
    assert summary.players[0].wins == summary.players[1].losses
    files = sorted(tmp_path.glob("game-*.gcg"))
    assert len(files) == 4
    for f, r in zip(files, results):
        record = parse_gcg(f.read_bytes())
        totals = record.totals
        first, second = (0, 1) if r.first == 0 else (1, 0)
        assert list(totals) == [r.scores[first], r.scores[second]]
        # its 63-bit #seed replays the same bag
        assert list(ws.from_gcg(f.read_text("utf-8")).scores) == list(totals)


def test_trace_gives_leaves_and_positions(zero_table):
    r = play_game(spec(zero_table, ("equity", "equity")), 1, trace=True)
    assert r.trace and r.states
    rules = ws.Rules.preset("wordsalvo-en")
    for leave, score in r.trace:
        assert 1 <= len(leave) < rules.rack_size and score >= 0
    assert all(0 <= unseen <= 100 for _p, _s, unseen in r.states)
    assert r.states[0][1] == 0  # nobody leads before the first move


def test_cli_json_summary(zero_table, capsys):
    assert main(["autoplay", "--rules", "wordsalvo-en", "--leaves", zero_table, "--games", "2", "--p1", "equity",
                 "--p2", "score", "--seed", "3", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert data["games"] == 2 and [p["name"] for p in data["players"]] == ["p1-equity", "p2-score"]
    assert "games/s" in out[0]


def test_cli_bad_input(capsys):
    assert main(["autoplay", "--rules", "no-such-rules", "--games", "2", "--p1", "equity", "--p2", "score"]) == 2
    assert "no-such-rules" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["autoplay", "--rules", "wordsalvo-en", "--games", "0", "--p1", "equity", "--p2", "score"])
    with pytest.raises(SystemExit):
        main(["autoplay", "--rules", "wordsalvo-en", "--games", "1", "--p1", "grandmaster", "--p2", "score"])


@pytest.mark.slow
def test_dask_cluster_gives_the_local_games(zero_table):
    distributed = pytest.importorskip("distributed")
    s = spec(zero_table)
    local = sorted(iter_games(s, 6, jobs=1), key=lambda r: r.index)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        remote = sorted(iter_games(s, 6, scheduler=cluster.scheduler_address), key=lambda r: r.index)
    assert remote == local
    assert summarize(s, remote, 1.0).players[0].wins == summarize(s, local, 1.0).players[0].wins


def test_a_rule_set_file_with_a_leave_table_plays_and_its_records_are_analysed(tmp_path, capsys):
    """Issue 37, item 2: autoplay with a .toml rule set and a leave table, and the analysis
    of its records with --rules FILE (a path was taken for a preset name and refused)."""
    from pathlib import Path

    import wordsalvo
    from wordsalvo.cli import main

    pkg = Path(wordsalvo.__file__).parent
    rules_file = tmp_path / "house.toml"
    rules_file.write_text((pkg / "rulesets" / "wordsalvo-en.toml").read_text("utf-8").replace(
        'name = "wordsalvo-en"', 'name = "house"'), "utf-8")
    table = str(pkg / "data" / "leaves" / "wordsalvo-en.wsl")
    assert main(["autoplay", "--rules", str(rules_file), "--games", "2", "--p1", "equity", "--p2", "score",
                 "--leaves", table, "--gcg", str(tmp_path / "games")]) == 0
    capsys.readouterr()
    record = next((tmp_path / "games").glob("*.gcg"))
    assert "#rules house\n" in record.read_text("utf-8")
    assert main(["analyze", str(record), "--rules", str(rules_file), "--no-endgame"]) == 0
    assert "analysis of a house game" in capsys.readouterr().out

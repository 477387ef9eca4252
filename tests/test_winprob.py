"""The win-probability model: fitting recovers known coefficients, files round-trip, calibration reads right."""

import json

import numpy as np
import pytest

from wordsalvo.errors import WordSalvoError
from wordsalvo.stats import clustered_interval, mean_interval, wilson_interval
from wordsalvo.engine.winprob import WinModel, calibration, features, fit

TRUE = (0.15, 0.9, 2.5, 6.0, -0.4)


def synthetic(n, seed):
    rng = np.random.default_rng(seed)
    unseen = rng.integers(0, 94, n)
    spread = rng.normal(0, 60 + 0.5 * (93 - unseen), n).round()
    p = WinModel("x", TRUE).probability(spread, unseen)
    y = (rng.random(n) < p).astype(float)
    return spread, unseen, y, p


def test_fit_recovers_known_coefficients():
    spread, unseen, y, _p = synthetic(200_000, 1)
    coef = fit(spread, unseen, y)
    model = WinModel("x", coef)
    s2, u2, _y2, p2 = synthetic(20_000, 2)
    # the fitted probabilities agree with the true ones everywhere that matters
    assert np.max(np.abs(model.probability(s2, u2) - p2)) < 0.03


def test_probability_is_monotone_in_spread_and_sharper_late():
    spread, unseen, y, _ = synthetic(100_000, 3)
    m = WinModel("x", fit(spread, unseen, y))
    early = m.probability(np.array([-50, 0, 50]), 80)
    late = m.probability(np.array([-50, 0, 50]), 5)
    assert early[0] < early[1] < early[2]
    assert late[0] < early[0] and late[2] > early[2]


def test_draws_count_half():
    spread = np.zeros(1000)
    unseen = np.full(1000, 40)
    coef = fit(spread, unseen, np.full(1000, 0.5))
    assert WinModel("x", coef).probability(0, 40) == pytest.approx(0.5, abs=1e-6)


def test_calibration_of_the_true_model_is_good_and_table_adds_up():
    s, u, y, _ = synthetic(50_000, 4)
    cal = calibration(WinModel("x", TRUE), s, u, y)
    assert cal.positions == 50_000
    assert sum(row[2] for row in cal.table) == 50_000
    assert cal.brier < cal.brier_baseline
    for lo, hi, n, mean_pred, obs, olo, ohi in cal.table:
        assert lo <= mean_pred <= hi
        if n > 2000:
            assert olo - 0.02 <= mean_pred <= ohi + 0.02
    assert "Brier" in cal.format()


def test_files_round_trip_and_bad_files(tmp_path):
    m = WinModel("classic-en", TRUE, games=10, positions=200, command="wordsalvo winprob fit ...", seed=3)
    path = tmp_path / "m.json"
    m.save(path)
    assert WinModel.load(path) == m
    path.write_text("{", "utf-8")
    with pytest.raises(WordSalvoError, match="expected JSON"):
        WinModel.load(path)
    path.write_text(json.dumps({"format": "other"}), "utf-8")
    with pytest.raises(WordSalvoError, match="wordsalvo-winprob"):
        WinModel.load(path)
    with pytest.raises(WordSalvoError, match="5 finite"):
        WinModel("x", (1.0, 2.0))
    with pytest.raises(WordSalvoError, match="unseen"):
        features(0, -1)
    with pytest.raises(WordSalvoError, match="outcomes"):
        fit([0, 1], [3, 4], [1, 2])


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    m, lo, hi = mean_interval([1, 2, 3, 4])
    assert m == 2.5 and lo < 2.5 < hi


def test_clustered_interval_counts_groups_not_values():
    rng = np.random.default_rng(9)
    y = (rng.random(300) < 0.3).astype(float)
    # one value a group: Wilson's interval of the values
    m, lo, hi = clustered_interval(y, np.arange(300))
    assert m == pytest.approx(y.mean())
    assert (lo, hi) == pytest.approx(wilson_interval(y.sum(), 300))
    # every value repeated 20 times in its group: the evidence of the 300 groups, not of
    # 6,000 values (with the small-sample factors, 6,000 x 299 / 5,999 effective)
    m, lo, hi = clustered_interval(np.repeat(y, 20), np.repeat(np.arange(300), 20))
    assert m == pytest.approx(y.mean())
    n_eff = 6000 * 299 / 5999
    assert (lo, hi) == pytest.approx(wilson_interval(y.mean() * n_eff, n_eff))
    assert hi - lo > 4 * np.subtract(*wilson_interval(y.sum() * 20, 6000)[::-1])
    assert clustered_interval([1.0, 0.0], [5, 5]) == (0.5, 0.0, 1.0)  # one group says nothing
    with pytest.raises(ValueError, match="one group per value"):
        clustered_interval([1.0, 0.0], [1])


def test_calibration_intervals_count_games_when_positions_share_a_result():
    """Positions of one game share its result: a perfectly calibrated model whose
    positions come 20 to a game misses its per-position intervals in most bins, and its
    per-game intervals hold the mean prediction."""
    rng = np.random.default_rng(13)
    games = 2000
    unseen = np.repeat(rng.integers(0, 94, games), 20)
    spread = np.repeat(rng.normal(0, 80, games).round(), 20)
    p = WinModel("x", TRUE).probability(spread, unseen)
    y = np.repeat((rng.random(games) < p[::20]).astype(float), 20)
    label = np.repeat(np.arange(games), 20)
    by_position = calibration(WinModel("x", TRUE), spread, unseen, y)
    by_game = calibration(WinModel("x", TRUE), spread, unseen, y, games=label)
    assert by_game.games == games and by_position.games == 0
    assert "games as units" in by_game.format() and "positions as units" in by_position.format()
    missed = lambda cal: sum(not olo <= mp <= ohi for _lo, _hi, _n, mp, _obs, olo, ohi in cal.table)  # noqa: E731
    assert missed(by_position) >= 5
    assert missed(by_game) <= 2
    for a, b in zip(by_position.table, by_game.table):
        assert a[:5] == b[:5] and b[6] - b[5] > 3 * (a[6] - a[5])
    with pytest.raises(WordSalvoError, match="one game label per position"):
        calibration(WinModel("x", TRUE), spread, unseen, y, games=label[:-1])


@pytest.mark.parametrize("name", ["wordsalvo-en", "classic-en", "wordsalvo-nl", "turkish"])
def test_shipped_models_load_and_make_sense(name):
    import wordsalvo as ws

    m = WinModel.default(ws.Rules.preset(name))
    assert m.rules == name and m.games >= 1000 and m.command.startswith("wordsalvo winprob fit")
    assert m.extra["brier"] < m.extra["brier_baseline"]
    assert m.probability(100, 5) > 0.95 and m.probability(-100, 5) < 0.05
    assert m.probability(20, 80) < m.probability(20, 10)


def test_no_model_for_a_rule_set_without_one():
    import wordsalvo as ws

    with pytest.raises(WordSalvoError, match="no win-probability model is shipped for rule set 'wordfeud-de'"):
        WinModel.default(ws.Rules.preset("wordfeud-de"))


def test_a_model_fitted_on_the_users_machine_is_the_default_where_none_is_shipped(tmp_path, monkeypatch):
    # German ships no lexicon, so no model: `winprob fit --rules wordfeud-de` writes one into
    # the cache folder, where WinModel.default finds it
    import wordsalvo as ws
    from wordsalvo.engine.winprob import user_model_path

    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    rules = ws.Rules.preset("wordfeud-de")
    with pytest.raises(WordSalvoError, match="`wordsalvo winprob fit --rules wordfeud-de`"):
        WinModel.default(rules)
    path = user_model_path("wordfeud-de")
    assert path == tmp_path / "winprob" / "wordfeud-de.json"
    path.parent.mkdir(parents=True)
    WinModel("wordfeud-de", TRUE, games=10, positions=200, command="wordsalvo winprob fit ...", seed=3).save(path)
    assert WinModel.default(rules).coef == TRUE
    # a shipped model wins over the user's
    WinModel("classic-en", TRUE, games=10, positions=200, command="x", seed=3).save(path.parent / "classic-en.json")
    assert WinModel.default(ws.Rules.preset("classic-en")).coef != TRUE
    # a file of another rule set under the name is refused
    WinModel("turkish", TRUE, games=10, positions=200, command="x", seed=3).save(path)
    with pytest.raises(WordSalvoError, match="expected a model of rule set 'wordfeud-de', got one of 'turkish'"):
        WinModel.default(rules)


def test_winprob_fit_writes_into_the_cache_folder_by_default(tmp_path, monkeypatch, capsys):
    from wordsalvo.cli import main

    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    assert main(["winprob", "fit", "--rules", "wordsalvo-nl", "--games", "6", "--holdout", "4", "--seed", "2"]) == 0
    out = tmp_path / "winprob" / "wordsalvo-nl.json"
    assert out.is_file() and str(out) in capsys.readouterr().out
    model = WinModel.load(out)
    assert model.rules == "wordsalvo-nl" and model.games == 6


def test_winprob_check_reports_a_model_on_new_games_and_refuses_another_rule_sets(tmp_path, capsys):
    from wordsalvo.cli import main

    assert main(["winprob", "check", "--rules", "wordsalvo-nl", "--games", "5"]) == 0
    out = capsys.readouterr().out
    shipped = WinModel.default("wordsalvo-nl")
    assert f"seed {shipped.extra['holdout_seed']}" in out and "games as units" in out and "of 5 games" in out
    assert "Brier score" in out and out.count("\n| ") >= 3
    other = tmp_path / "m.json"
    WinModel("classic-en", TRUE, games=10, positions=200, command="x", seed=3).save(other)
    assert main(["winprob", "check", "--rules", "classic-en", "--model", str(other), "--games", "3",
                 "--seed", "4"]) == 0
    assert "seed 4" in capsys.readouterr().out
    assert main(["winprob", "check", "--rules", "wordsalvo-nl", "--model", str(other), "--games", "3"]) != 0
    err = capsys.readouterr().err
    assert "expected a model of rule set 'wordsalvo-nl'" in err and "classic-en" in err

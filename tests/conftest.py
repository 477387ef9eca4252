"""Shared test set-up: saved games and the cache folder (fetched lexicons,
verified-graph markers) go to temporary folders, never the user's."""

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _cache_folder(tmp_path_factory):
    # Session-wide (one verified marker per content is what the cache is for),
    # and set in os.environ so commands run as subprocesses inherit it too.
    old = os.environ.get("WORDSALVO_CACHE_DIR")
    os.environ["WORDSALVO_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop("WORDSALVO_CACHE_DIR", None)
    else:
        os.environ["WORDSALVO_CACHE_DIR"] = old


@pytest.fixture(autouse=True)
def _games_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path_factory.mktemp("games")))

"""Shared test set-up: saved games go to a temporary folder, never the user's."""

import pytest


@pytest.fixture(autouse=True)
def _games_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path_factory.mktemp("games")))

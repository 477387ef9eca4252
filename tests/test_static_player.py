"""The static player (score and equity, csrc/ws_action.c) chooses what it chose before it
was one C function: every action of seeded Game + Bot games (the plain players, the levels,
the rated and the expert player that use its play and swap) and every /v1/best answer on
their positions, against pins written by the code before the change
(tests/static_player_cases.py)."""

from __future__ import annotations

import json

import pytest
from static_player_cases import GAMES, PINS, best_answers, play_case

PINNED = json.loads(PINS.read_text("utf-8"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("static-player")


@pytest.mark.parametrize("case", GAMES, ids=[c[0] for c in GAMES])
def test_the_games_of_the_pins(folder, case):
    name, rules_name, kinds, lexicon, leaves, seeds = case
    for seed in seeds:
        actions, lines, _rules, _lex = play_case(folder, rules_name, kinds, lexicon, leaves, seed)
        assert actions == PINNED[f"{name}/{seed}"], f"{name} seed {seed}"
        key = f"best/{name}/{seed}"
        if key in PINNED:
            pytest.importorskip("fastapi")
            assert best_answers(lines[::3], rules_name) == PINNED[key], key


def test_the_pins_see_swaps_passes_and_exchanges():
    """Not vacuous: the pinned games swap and pass, the /v1/best answers choose exchanges."""
    actions = [a for k, v in PINNED.items() if not k.startswith("best/") for a in v]
    assert sum(a.startswith("-") for a in actions) > 100 and sum(a.startswith("pass") for a in actions) > 100
    answers = [b for k, v in PINNED.items() if k.startswith("best/") for _s, b in v]
    assert any(b.get("choice") == "exchange" for b in answers) and any(b.get("choice") == "play" for b in answers)

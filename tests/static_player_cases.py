"""The cases of tests/test_static_player.py: games of the static players (score, equity)
and of the engines that use their choices (levels, rated, expert), played with Game +
Bot, and the /v1/best answers on the positions of those games.  Each case records every
action as text (notation or swap tiles and leave, with the equity the engine gave it),
so a change of any choice, tie or value shows.  ``python tests/static_player_cases.py``
writes the pins (tests/data/static_player_pins.json) from the code as it is."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

import wordsalvo as ws
from wordsalvo.actions import Pass, Play, Swap
from wordsalvo.leaves import Leaves

PINS = Path(__file__).parent / "data" / "static_player_pins.json"

TINY_WORDS = ["AA", "AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR", "AS", "AT", "AW", "AX", "AY",
              "BE", "DE", "EH", "EL", "EN", "ER", "ES", "EX", "HE", "ID", "IN", "IS", "IT", "LA", "LI", "LO",
              "MA", "ME", "NA", "NE", "NO", "OE", "ON", "OR", "RE", "SO", "TA", "TE", "TO", "QI", "ZA",
              "EAR", "ERA", "ARE", "TEA", "EAT", "ATE", "RAT", "TAR", "ART", "SAT", "SEA", "TEN", "NET",
              "RATE", "TEAR", "STAR", "RATS", "NEAT", "ANTE", "EARN", "NEAR", "SANE", "TONE", "NOTE"]

#: (case name, rule set, (kind 1, kind 2), lexicon ("tiny" or None), leaves ("swap-loving", "zeros" or None), seeds)
GAMES = [
    ("classic-score-equity", "classic-en", ("score", "equity"), None, None, (0, 1)),
    ("wordsalvo-equity-equity", "wordsalvo-en", ("equity", "equity"), None, None, (0, 1)),
    ("nl-equity-score", "wordsalvo-nl", ("equity", "score"), None, None, (2,)),
    ("turkish-equity-equity", "turkish", ("equity", "equity"), None, None, (3,)),
    ("classic-zeros", "classic-en", ("equity", "equity"), None, "zeros", (4,)),
    ("tiny-score-score", "classic-en", ("score", "score"), "tiny", None, (0, 1, 2)),
    ("tiny-equity-score", "classic-en", ("equity", "score"), "tiny", None, (0, 1, 2)),
    ("tiny-wordsalvo-score-score", "wordsalvo-en", ("score", "score"), "tiny", None, (0, 1, 2)),
    ("tiny-wordsalvo-equity-equity", "wordsalvo-en", ("equity", "equity"), "tiny", None, (0, 1)),
    ("swap-loving", "wordsalvo-en", ("equity", "equity"), None, "swap-loving", (0, 1)),
    ("levels", "wordsalvo-en", ("hard", "medium"), None, None, (0,)),
    ("easy-equity", "classic-en", ("easy", "equity"), None, None, (1,)),
    ("rated", "wordsalvo-en", ("1500", "equity"), None, None, (0,)),
    ("expert", "classic-en", ("expert", "score"), None, None, (0,)),
]


def tiny_lexicon(folder: Path) -> ws.Lexicon:
    src = folder / "tiny.txt"
    src.write_text("\n".join(TINY_WORDS) + "\n", "utf-8")
    ws.compile_lexicon(src, folder / "tiny.wsg", "en")
    return ws.Lexicon.load(folder / "tiny.wsg")


def swap_loving(rules: ws.Rules) -> Leaves:
    """Keeping six tiles is worth more than any play: equity players exchange one tile a turn."""
    table = Leaves.zeros(rules)
    values = np.array(table.values, dtype=np.float32)
    sizes = np.array([len(table.leave(i)) for i in range(len(values))])
    values[sizes == rules.rack_size - 1] = 500.0
    return Leaves.from_values(rules, values)


def action_text(action) -> str:
    eq = "" if action.equity is None else f" {float(action.equity)!r}"
    if isinstance(action, Play):
        return f"{action.move.notation} {action.move.score}{eq}"
    if isinstance(action, Swap):
        return f"-{action.tiles}/{action.leave}{eq}"
    assert isinstance(action, Pass)
    return f"pass{eq}"


def play_case(folder: Path, rules_name, kinds, lexicon, leaves, seed):
    """(actions as text, CGP lines of the positions before each turn)."""
    rules = ws.Rules.preset(rules_name)
    lex = tiny_lexicon(folder) if lexicon == "tiny" else ws.Lexicon.default(rules.alphabet.name)
    table = {"swap-loving": swap_loving, "zeros": Leaves.zeros}[leaves](rules) if leaves else None
    game = ws.Game(rules, lex, seed=seed)
    bots = []
    for p, kind in enumerate(kinds):
        if kind.isdigit():
            bots.append(ws.Bot(rules=rules, lexicon=lex, rating=float(kind), seed=seed * 2 + p))
        else:
            bots.append(ws.Bot(kind, rules, lexicon=lex, leaves=table, seed=seed * 2 + p))
    actions, lines = [], []
    while not game.is_over and len(actions) < 400:
        lines.append(ws.format_cgp(game.position()))
        action = bots[game.to_move].choose(game)
        actions.append(action_text(action))
        game.apply(action)
    return actions, lines, rules, lex


def best_answers(lines, rules_name):
    from fastapi.testclient import TestClient

    from wordsalvo.serve.app import create_app

    out = []
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        for line in lines:
            for by in ("score", "equity"):
                r = c.post("/v1/best", json={"cgp": line, "rules": rules_name, "by": by})
                out.append([r.status_code, r.json()])
    return out


def compute(folder: Path, names=None) -> dict:
    pins = {}
    for name, rules_name, kinds, lexicon, leaves, seeds in GAMES:
        if names is not None and name not in names:
            continue
        for seed in seeds:
            actions, lines, _rules, _lex = play_case(folder, rules_name, kinds, lexicon, leaves, seed)
            pins[f"{name}/{seed}"] = actions
            if lexicon is None and leaves is None and kinds[0] in ("score", "equity") and seed == seeds[0]:
                pins[f"best/{name}/{seed}"] = best_answers(lines[::3], rules_name)
    return pins


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        pins = compute(Path(tmp))
    PINS.write_text(json.dumps(pins, indent=0, sort_keys=True) + "\n", "utf-8")
    print(f"{len(pins)} cases -> {PINS}", file=sys.stderr)

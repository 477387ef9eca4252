"""A realistic report dict (the schema of ``wordsalvo.render.report``) from a seeded self-play game.

The game is real (the engine's moves, swaps and passes of the random policy of
``game_helpers.random_turn``, its alternatives from ``Game.legal_moves()``);
the win probabilities and equity figures are made up from the score and the
tiles left, deterministically, because the analysis that computes them is
written elsewhere.
"""

from __future__ import annotations

import math
import random

from game_helpers import random_turn
from wordsalvo import Game, Rules
from wordsalvo.alphabet import BLANK_BIT

SIZE = 15


def _chance(lead: float, tiles_left: int) -> float:
    """A made-up win probability for a lead with ``tiles_left`` tiles still to come."""
    spread = 18 + 0.9 * tiles_left
    return 1 / (1 + math.exp(-lead / spread))


def _board_string(rules: Rules, tiles: bytes) -> str:
    return "".join(rules.alphabet.board_letter(t) if t else "." for t in tiles)


def example_report(rules_name: str = "wordsalvo-en", seed: int = 7, names=("Alice", "Bob")) -> dict:
    """Play a seeded game and describe it in the report schema."""
    rules = Rules.preset(rules_name)
    game = Game(rules, players=list(names), seed=seed)
    rng = random.Random(seed)
    turns: list[dict] = []
    turning_points: list[int] = []
    while not game.is_over:
        player = game.to_move
        before = bytes(game.board.tiles)
        legal = game.legal_moves().sorted()
        top = [legal[i] for i in range(min(3, len(legal)))]
        scores_before = list(game.scores)
        left_before = len(game.bag) + sum(len(r) for r in game.racks)
        done = len(game.history)
        random_turn(game, rng)
        for entry in game.history[done:]:
            after = bytes(game.board.tiles)
            new = [[i // SIZE, i % SIZE, rules.alphabet.letter(after[i]), bool(after[i] & BLANK_BIT)]
                   for i in range(SIZE * SIZE) if after[i] != before[i]] if entry.kind == "play" else []
            before = after
            totals = list(scores_before)
            totals[entry.player] = entry.total
            scores_before = totals
            me = entry.player
            lead_before = totals[me] - entry.score - max(t for p, t in enumerate(totals) if p != me)
            lead_after = totals[me] - max(t for p, t in enumerate(totals) if p != me)
            left_after = len(game.bag) + sum(len(r) for r in game.racks)
            best = top[0].score if top else 0
            played = entry.score if entry.kind == "play" else 0
            lost = float(max(0, best - played)) if entry.kind in ("play", "swap", "pass") else None
            win_before = round(_chance(lead_before, left_before), 4)
            win_after = round(_chance(lead_after, left_after), 4) if not game.is_over or entry is not \
                game.history[-1] else float(me in game.winners) if len(game.winners) == 1 else 0.5
            badges = []
            if entry.kind == "play" and top and played >= best and (len(new) == rules.rack_size or (
                    len(legal) > 1 and best - legal[1].score >= 20)):
                badges.append("brilliancy")
            if lost is not None and lost >= 20:
                badges.append("missed")
            if win_before < 0.5 < win_after and win_after - win_before >= 0.1:  # the game tilted to the mover
                badges.append("turning-point")
                turning_points.append(len(turns))
            if entry.kind == "play":
                note = (f"{entry.notation} scored {entry.score}"
                        + (f"; {top[0].notation} would have scored {best}." if lost else ", the best on the board."))
            elif entry.kind in ("swap", "pass"):
                note = f"A {entry.kind} with {best} points on the board" + (
                    f" ({top[0].notation})." if top else ".")
            else:
                note = f"End of game: {entry} <settled>."  # markup characters on purpose: must be escaped
            turns.append({
                "index": len(turns),
                "player": me,
                "kind": entry.kind,
                "rack": entry.rack,
                "notation": entry.notation if entry.kind == "play" else (entry.tiles if entry.kind != "pass" else ""),
                "score": entry.score,
                "totals": totals,
                "tiles": new,
                "board": _board_string(rules, after) if len(turns) % 2 else list(after),
                "equity_lost": lost,
                "win_before": win_before,
                "win_after": win_after,
                "alternatives": [[m.notation, m.score, float(m.score), round(_chance(
                    lead_before + m.score, left_before), 4)] for m in top] if entry.kind != "settle" else [],
                "note": note,
                "badges": badges,
                "words": list(entry.words),
            })
            left_before = left_after
    swings = [(abs(t["win_after"] - t["win_before"]), t["index"]) for t in turns]
    decisive = max(swings)[1] if swings else None
    if decisive is not None:
        turns[decisive]["badges"].append("decisive")
    stats = [
        {"label": "Moves", "values": [sum(1 for t in turns if t["player"] == p and t["kind"] == "play")
                                      for p in range(len(names))]},
        {"label": "Bingos", "values": [sum(1 for t in turns if t["player"] == p and len(t["tiles"]) == 7)
                                       for p in range(len(names))]},
        {"label": "Average per move", "values": [
            round(sum(t["score"] for t in turns if t["player"] == p and t["kind"] == "play")
                  / max(1, sum(1 for t in turns if t["player"] == p and t["kind"] == "play")), 1)
            for p in range(len(names))]},
        {"label": "Points missed", "values": [sum(t["equity_lost"] or 0 for t in turns if t["player"] == p)
                                              for p in range(len(names))]},
        {"label": "Best move", "values": [max((f"{t['notation']} {t['score']}" for t in turns
                                                if t["player"] == p and t["kind"] == "play"),
                                               key=lambda s: int(s.rsplit(" ", 1)[1]), default=None)
                                           for p in range(len(names))]},
    ]
    return {
        "version": 1,
        "game": {
            "rules": rules_name,
            "lexicon": f"{rules.alphabet.name} (embedded)",
            "players": list(names),
            "final_scores": list(game.scores),
            "winners": list(game.winners),
            "end_reason": game.end_reason,
        },
        "turns": turns,
        "turning_points": turning_points,
        "decisive": decisive,
        "stats": stats,
    }

"""Instant statistics of a finished game: no engine, no lexicon, well under a millisecond.

:func:`instant_stats` reads a replayed record (:class:`wordsalvo.formats.replay.Replay`,
passed in: this module imports no format) and gives, per player:

* ``highest_move``: the highest-scoring play (score, notation), ``bingos`` (plays of
  a full rack), ``best_word`` (the main word of the highest-scoring play),
  ``longest_word`` (the longest word formed, ties: the first);
* ``rack_penalty``: the points the player's own leftover rack cost at the end
  (the negative end-of-game rack lines; 0 when the player went out);

and for the game the **decisive moment** by score alone: the entry after which the
eventual winner led alone for the rest of the game (None for a tie, an unfinished
game, or a winner who never led alone before the last entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PlayerRecords", "InstantStats", "instant_stats"]


@dataclass
class PlayerRecords:
    """One player's records of the game."""

    name: str
    score: int = 0
    highest_move: tuple[int, str] | None = None
    bingos: int = 0
    best_word: str | None = None
    longest_word: str | None = None
    rack_penalty: int = 0


@dataclass
class InstantStats:
    players: list[PlayerRecords]
    decisive: int | None  #: index into the replay's turns
    winners: tuple[int, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"decisive": self.decisive, "winners": list(self.winners),
                "players": [dict(vars(p), highest_move=list(p.highest_move) if p.highest_move else None)
                            for p in self.players]}

    def report_rows(self) -> list[dict]:
        """Rows for the report's per-player table (:mod:`wordsalvo.render.report`)."""
        ps = self.players
        return [
            {"label": "Score", "values": [p.score for p in ps]},
            {"label": "Highest move", "values": [f"{p.highest_move[1]} {p.highest_move[0]}" if p.highest_move
                                                 else None for p in ps]},
            {"label": "Bingos", "values": [p.bingos for p in ps]},
            {"label": "Best word", "values": [p.best_word for p in ps]},
            {"label": "Longest word", "values": [p.longest_word for p in ps]},
            {"label": "Rack penalty", "values": [p.rack_penalty for p in ps]},
        ]


def instant_stats(replay: Any) -> InstantStats:
    """The instant statistics of a replayed game (see the module docstring)."""
    turns = replay.turns
    n = len(replay.final_scores)
    names = list(replay.names) + [f"Player{i + 1}" for i in range(len(replay.names), n)]
    ps = [PlayerRecords(names[i], replay.final_scores[i]) for i in range(n)]
    rack_size = replay.rules.rack_size
    best_score = [-1] * n
    taken_back = {t.event.play_line for t in turns if t.kind == "phony-removed"}
    for t in turns:
        p = ps[t.player]
        if t.kind == "play" and t.event.line not in taken_back:
            score = t.event.score
            if score > best_score[t.player]:
                best_score[t.player] = score
                p.highest_move = (score, t.notation)
                p.best_word = t.words[0] if t.words else None
            if t.move.tiles_played == rack_size:
                p.bingos += 1
            for w in t.words:
                if p.longest_word is None or len(w) > len(p.longest_word):
                    p.longest_word = w
        elif t.kind == "end-rack" and t.event.score < 0:
            p.rack_penalty += t.event.score
    final = replay.final_scores
    unfinished = replay.record.unfinished
    winners = () if unfinished else tuple(i for i, s in enumerate(final) if s == max(final))
    decisive = None
    if len(winners) == 1:
        w = winners[0]
        for i, t in enumerate(turns):
            totals = t.totals_after
            leads = all(totals[w] > s for j, s in enumerate(totals) if j != w)
            if not leads:
                decisive = None
            elif decisive is None:
                decisive = i
    return InstantStats(ps, decisive, winners)

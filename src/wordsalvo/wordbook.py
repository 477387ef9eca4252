"""The Word Book: every new word each player formed, with the game, turn and score.

A :class:`WordBook` collects the words of replayed games (:meth:`WordBook.add`
takes a :class:`wordsalvo.formats.replay.Replay`): each play's words (main word
first, then the cross words) go in under the player's name the FIRST time that
player forms them (a word already in the player's book is not new).  A play
taken back by a challenge adds nothing; a phony that stood is kept with
``phony`` set.  :meth:`to_json` and :meth:`to_csv` export it.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["WordEntry", "WordBook"]


@dataclass(frozen=True)
class WordEntry:
    player: str
    word: str
    game: str  #: the game's id (its path, #id or title)
    turn: int  #: 1-based entry of the game
    line: int  #: the record's line
    score: int  #: what the play scored
    phony: bool = False


class WordBook:
    """Words per player, in the order first formed."""

    def __init__(self) -> None:
        self.entries: list[WordEntry] = []
        self._seen: set[tuple[str, str]] = set()

    def add(self, replay: Any, game: str | None = None) -> list[WordEntry]:
        """Add the new words of a replayed game; returns the entries added."""
        rec = replay.record
        game = game or rec.path or rec.id or rec.title or "game"
        names = list(replay.names)
        taken_back = {t.event.play_line for t in replay.turns if t.kind == "phony-removed"}
        added = []
        for i, t in enumerate(replay.turns):
            if t.kind != "play" or t.event.line in taken_back:
                continue
            name = names[t.player] if t.player < len(names) else f"Player{t.player + 1}"
            for w in t.words:
                if (name, w) in self._seen:
                    continue
                self._seen.add((name, w))
                e = WordEntry(name, w, game, i + 1, t.event.line, t.event.score, w in t.invalid_words)
                self.entries.append(e)
                added.append(e)
        return added

    def add_entries(self, entries: list[dict[str, Any]] | list[WordEntry]) -> list[WordEntry]:
        """Add entries (``WordEntry`` or their dicts, e.g. from JSON) whose word is new
        for the player; returns the entries added."""
        added = []
        for e in entries:
            if isinstance(e, dict):
                e = WordEntry(**e)
            if (e.player, e.word) in self._seen:
                continue
            self._seen.add((e.player, e.word))
            self.entries.append(e)
            added.append(e)
        return added

    def words(self, player: str) -> list[str]:
        return [e.word for e in self.entries if e.player == player]

    def __len__(self) -> int:
        return len(self.entries)

    def to_json(self) -> str:
        return json.dumps([asdict(e) for e in self.entries], ensure_ascii=False, indent=1)

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["player", "word", "game", "turn", "line", "score", "phony"])
        for e in self.entries:
            w.writerow([e.player, e.word, e.game, e.turn, e.line, e.score, int(e.phony)])
        return out.getvalue()

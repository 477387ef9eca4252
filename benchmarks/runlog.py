"""A benchmark run's JSON-lines log that a run given it again goes on from.

The first line records the settings that decide the games (``{"settings": {...}}``),
each further line one finished unit (a game, a pair).  Given the file again, a run
with the same settings reads the units back and plays the rest; a run with other
settings stops with an error naming them (resuming by seed alone had mixed the games
of two runs in one report), as it does for a log written before settings were
recorded.  A line cut short by an interruption is skipped (its unit is played again)
and the next unit starts on a line of its own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class RunLog:
    """The log at ``path`` for a run with ``settings`` (JSON values); ``records`` are the
    units it holds."""

    def __init__(self, path: str | os.PathLike, settings: dict[str, Any]):
        self.path = Path(path)
        self.settings = json.loads(json.dumps(settings))  # as it reads back (tuples as lists)
        self.records: list[dict] = []
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._write(json.dumps({"settings": self.settings}) + "\n")
            return
        lines = self.path.read_text("utf-8").splitlines()
        head = _parsed(lines[0])
        if not isinstance(head, dict) or not isinstance(head.get("settings"), dict):
            raise SystemExit(f"{self.path}: expected a run log whose first line holds its settings, got "
                             f"{'a log written before settings were recorded' if head is not None else 'another file'}"
                             f"; give another --out")
        differ = sorted(k for k in set(head["settings"]) | set(self.settings)
                        if head["settings"].get(k) != self.settings.get(k))
        if differ:
            shown = "; ".join(f"{k}: {head['settings'].get(k)!r} there, {self.settings.get(k)!r} here"
                              for k in differ)
            raise SystemExit(f"{self.path} holds a run with other settings ({shown}); give another --out or "
                             f"the same settings")
        self.records = [r for r in map(_parsed, lines[1:]) if isinstance(r, dict)]

    def append(self, record: dict) -> None:
        """One finished unit, on a line of its own (after a line cut short, not on it)."""
        cut = False
        with self.path.open("rb") as f:
            if f.seek(0, os.SEEK_END) > 0:
                f.seek(-1, os.SEEK_END)
                cut = f.read(1) != b"\n"
        self._write(("\n" if cut else "") + json.dumps(record) + "\n")
        self.records.append(record)

    def _write(self, text: str) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(text)
            f.flush()


def _parsed(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None  # a line cut short by an interruption

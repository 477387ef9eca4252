"""The JSON bodies of the service's endpoints (pydantic models; the OpenAPI document at
``/openapi.json`` is generated from them).

Strings and lists have lengths bounded here, so that a hostile body is refused by the
schema (422) before any engine work; numbers are bounded the same way.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..engine.simulation import MAX_PLIES
from ..inputs import SIZE_LIMITS

__all__ = ["PositionIn", "MovesIn", "BestIn", "ValidateIn", "BotIn", "AnalyzeIn", "SimIn", "EndgameIn", "PegIn",
           "GameNewIn", "GameTurnIn"]

Rack = Field(default=None, max_length=32, description="letters, '?' for a blank")
#: a GCG record's longest text: the library's limit of a record file (the request's body is
#: bounded by the service's limits.body_bytes before any field is read)
RECORD_CHARS = SIZE_LIMITS["game record"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class PositionIn(_Strict):
    """A position: a CGP line, or a board of 15 rows and a rack."""

    rules: str | None = Field(default=None, max_length=40, description="a rule set name (default classic-en)",
                              examples=["classic-en"])
    lexicon: str | None = Field(default=None, max_length=32,
                                description="a lexicon of the service's configuration (default: the embedded "
                                            "lexicon of the rule set's language)")
    cgp: str | None = Field(default=None, max_length=4096, description="a CGP line (its rack on turn is used)",
                            examples=["15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0"])
    board: list[str] | None = Field(default=None, min_length=15, max_length=15,
                                    description="15 rows of 15 squares: '.' empty, a letter, a lowercase blank")
    rack: str | None = Rack
    racks: list[str] | None = Field(default=None, max_length=4, description="every player's rack, on turn first")
    scores: list[int] | None = Field(default=None, max_length=4)
    scoreless: int = Field(default=0, ge=0, le=1000, description="scoreless turns in a row so far")
    board_seed: int | None = Field(default=None, ge=-(2 ** 63), lt=2 ** 63,
                                   description="the random board of the rule set")
    stars: str | None = Field(default=None, max_length=200, description="star squares such as '3,5 11,9'")

    @model_validator(mode="after")
    def _bounded(self):
        for r in (self.racks or []):
            if len(r) > 32:
                raise ValueError("racks: expected racks of at most 32 letters")
        for s in (self.scores or []):
            if abs(s) > 100_000:
                raise ValueError("scores: expected scores within ±100000")
        for row in (self.board or []):
            if len(row) > 64:
                raise ValueError("board: expected rows of 15 squares")
        return self


class MovesIn(PositionIn):
    by: Literal["score", "equity"] = "score"
    top: int | None = Field(default=None, ge=1, le=100_000, description="only the best N (default: every move)")
    offset: int = Field(default=0, ge=0, le=10_000_000)
    limit: int = Field(default=100, ge=1, le=100_000, description="moves on this page (at most the service's page)")


class BestIn(PositionIn):
    by: Literal["score", "equity"] = "score"


class ValidateIn(PositionIn):
    move: str = Field(max_length=200, description="a move in notation: '8H WO(R)D', 'H8 WORD'",
                      examples=["8H WO(R)D"])


class BotIn(_Strict):
    gcg: str = Field(max_length=RECORD_CHARS, description="the game so far as a GCG record")
    rack: str | None = Field(default=None, max_length=32, description="the rack on turn, when the record has none")
    level: str | None = Field(default=None, max_length=20, description="easy, medium, hard, expert, master, score, "
                                                                        "equity, or a rating such as '1200'")
    rating: float | None = Field(default=None, ge=-10_000, le=10_000)
    seed: int = Field(default=0, ge=0, lt=2 ** 63)
    lexicon: str | None = Field(default=None, max_length=32)


class AnalyzeIn(_Strict):
    gcg: str = Field(max_length=RECORD_CHARS, description="a GCG record of any program")
    top: int = Field(default=5, ge=1, le=50)
    win: bool = True
    lexicon: str | None = Field(default=None, max_length=32)


class SimIn(PositionIn):
    plays: int = Field(default=15, ge=1, le=100)
    moves: list[str] | None = Field(default=None, max_length=100)
    plies: int = Field(default=2, ge=0, le=MAX_PLIES, description="turns each candidate is played on (at most "
                                                                 "the service's limits.plies)")
    iterations: int | None = Field(default=None, ge=1, le=1_000_000)
    seconds: float | None = Field(default=None, gt=0, le=600)
    sampling: Literal["rr", "bai"] = "bai"
    seed: int = Field(default=0, ge=0, lt=2 ** 64)


class EndgameIn(PositionIn):
    seconds: float | None = Field(default=None, gt=0, le=600)


class PegIn(PositionIn):
    seconds: float | None = Field(default=None, gt=0, le=600)
    candidates: int | None = Field(default=None, ge=1, le=64,
                                   description="the plays valued, best by static equity, plus the pass "
                                               "(default: 64 with 1-2 tiles in the bag, 16 with 3-4)")


class GameNewIn(_Strict):
    """A new game; the service draws the bag (a client never chooses its tiles)."""

    rules: str = Field(default="wordsalvo-en", max_length=40)
    level: str = Field(default="medium", max_length=20)
    name: str = Field(default="You", min_length=1, max_length=20, pattern=r"^[A-Za-z0-9_.-]+$",
                      description="the person's name (player 1, who moves first)")


class GameTurnIn(_Strict):
    """The person's action on the game of a token; the level, the record and the bag are in
    the token, sealed by the service."""

    token: str = Field(max_length=1 << 20, description="the token of the last answer of /v1/game or /v1/game/turn")
    action: str = Field(max_length=200, description="a move ('8H WORD'), '-ABC' or 'swap ABC' (exchange; 'swap' "
                                                     "alone: the whole rack), 'pass', 'undo', "
                                                     "'resign', 'hint' (the expert's move for the rack; the game "
                                                     "does not change)")

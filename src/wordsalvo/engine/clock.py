"""How long master thinks: the plan of a move and the clock of a game.

:func:`master_plays` says how many placements master simulates for a budget: 10
whatever the budget (:data:`PLAYS_GROWTH` 0).  Growing them with the budget (16 at
1 s, 26 at 4 s) was measured against the constant, master at 1 s against master at
0.25 s in game pairs on the same bags (classic-en, CSW24, CPU-time budgets,
2026-12-06): with the growth master at 1 s won 37.5 % of 64 games, with 10
candidates 51.0 % of 102; a longer budget is spent on more iterations of the same
candidates.

:class:`GameClock` shares one budget for a whole game (``Bot("master",
game_seconds=S)``): before each move it grants a share of what is left,

* the rest divided by the player's turns still to come, estimated from the bag
  (each pair of turns takes about seven tiles from it, plus the turn that empties it);
* more on the turns that decide games: the pre-endgame and the endgame (the bag holds
  no more than a rack), and turns whose two best candidates are close by static equity;
* less on obvious turns, where the best candidate leads the next one by many points;
* never more than half of what is left, nor less than :data:`MIN_SECONDS`;

and after the move it is charged with what the move took (wall-clock or CPU time, as
the bot measures).  A simulation that settles before its share (one candidate left)
leaves the rest for later moves.
"""

from __future__ import annotations

from ..errors import GameError
from ..inputs import number_arg

__all__ = ["GameClock", "master_plays", "MIN_SECONDS", "MAX_PLAYS", "BASE_PLAYS", "BASE_SECONDS"]

#: master's placements at BASE_SECONDS a move, and the most it simulates
BASE_PLAYS = 10
BASE_SECONDS = 0.25
MAX_PLAYS = 40
#: the exponent of the growth of the candidates with the budget: 0, none (0.35, 10 -> 16
#: -> 26 per 4x, lost games at 1 s against 0.25 s: see the module docstring)
PLAYS_GROWTH = 0.0
#: the least a move is granted (seconds)
MIN_SECONDS = 0.05
#: static equity gaps (points) between the two best candidates: at or below CLOSE the
#: share grows by CLOSE_FACTOR, at or above CLEAR it shrinks by CLEAR_FACTOR
CLOSE, CLOSE_FACTOR = 3.0, 1.5
CLEAR, CLEAR_FACTOR = 15.0, 0.4
#: the share of the pre-endgame and endgame turns
DECISIVE_FACTOR = 1.5
#: tiles a pair of turns takes from the bag, on average
TILES_PER_ROUND = 7.0


def master_plays(seconds: float) -> int:
    """The placements master simulates in ``seconds`` (see the module docstring)."""
    if not seconds > 0:
        return BASE_PLAYS
    n = BASE_PLAYS * (max(seconds, BASE_SECONDS) / BASE_SECONDS) ** PLAYS_GROWTH
    return int(min(MAX_PLAYS, round(n)))


class GameClock:
    """One game's thinking time for one player (see the module docstring)."""

    __slots__ = ("total", "used", "moves")

    def __init__(self, total: float):
        self.total = number_arg(total, "game_seconds", GameError, above=0, high=1e6,
                                expected="a number of seconds > 0 (at most 1e6)")
        self.used = 0.0
        self.moves = 0

    @property
    def remaining(self) -> float:
        return max(0.0, self.total - self.used)

    def turns_left(self, bag_count: int) -> float:
        """The player's own turns still to come, this one included (an estimate)."""
        return 1.0 + max(0, bag_count) / TILES_PER_ROUND

    def allot(self, bag_count: int, rack_size: int, gap: float | None = None) -> float:
        """The seconds granted to the next move: ``bag_count`` tiles in the bag, the rule
        set's ``rack_size``, ``gap``: the static equity lead of the best candidate over the
        second (None: one candidate)."""
        left = self.remaining
        share = left / self.turns_left(bag_count)
        if bag_count <= rack_size:
            share *= DECISIVE_FACTOR
        if gap is not None:
            if gap <= CLOSE:
                share *= CLOSE_FACTOR
            elif gap >= CLEAR:
                share *= CLEAR_FACTOR
        return max(MIN_SECONDS, min(share, 0.5 * left))

    def charge(self, seconds: float) -> None:
        """What a move took."""
        self.used += max(0.0, float(seconds))
        self.moves += 1

    def __repr__(self) -> str:
        return f"GameClock(total={self.total:g}, used={self.used:.2f}, moves={self.moves})"

"""The engine as an opponent: which move it makes at each difficulty level.

Difficulty changes the move CHOICE only, never the rules or the values: every
level picks from the same list of legal moves that :meth:`Game.legal_moves`
returns, scored by the same rules.

The rule
--------
The legal placements are ranked by score, lowest first (ties in the move
list's fixed order), and each level has a band of score percentiles:

========  ===========  ==================================================
level     band         in words
========  ===========  ==================================================
easy      0.35 - 0.65  a middling move: often a short word, rarely a bingo
medium    0.65 - 0.90  a good move, seldom the best
hard      0.90 - 0.99  a strong move, near the top of the list
expert    1.00         the best move (highest score, fixed tie order)
========  ===========  ==================================================

A level draws a percentile ``p`` uniformly from its band with the opponent's
own ``random.Random`` (so a seeded game replays the same choices) and plays
the move at index ``round(p * (n - 1))`` of the ranked list of ``n`` moves.
With one legal move every level plays it.

When no placement is legal the engine swaps its whole rack if the rule set
allows a swap now and its previous turn was not a swap (so two engines with
blocked racks cannot swap forever), and passes otherwise.
"""

from __future__ import annotations

import random

from .errors import GameError
from .moves import Move, MoveList

__all__ = ["LEVELS", "BANDS", "choose_move", "Opponent"]

#: difficulty levels, weakest first
LEVELS = ("easy", "medium", "hard", "expert")
#: level -> (lowest, highest) score percentile of the move it plays
BANDS: dict[str, tuple[float, float]] = {
    "easy": (0.35, 0.65),
    "medium": (0.65, 0.90),
    "hard": (0.90, 0.99),
    "expert": (1.0, 1.0),
}


def _check_level(level: str) -> None:
    if level not in BANDS:
        raise GameError(f"expected a level ({', '.join(LEVELS)}), got {level!r}")


def choose_move(moves: MoveList, level: str, rng: random.Random) -> Move | None:
    """The move ``level`` plays from ``moves`` (None when the list is empty).

    ``rng`` is drawn from once per call at every level but ``expert``.
    """
    _check_level(level)
    n = len(moves)
    if n == 0:
        return None
    if level == "expert":
        return moves.best(1)[0]
    low, high = BANDS[level]
    p = rng.uniform(low, high)
    ranked = moves.order()[::-1]  # lowest score first; within a score the reverse of the fixed order
    return moves[int(ranked[round(p * (n - 1))])]


class Opponent:
    """An engine player of one level, with its own seeded random choices."""

    def __init__(self, level: str = "expert", seed: int = 0):
        _check_level(level)
        self.level = level
        self.rng = random.Random(f"wordsalvo-opponent-{level}-{seed}")

    def move(self, game) -> Move | None:
        """The placement to play in ``game`` now, or None (then see :meth:`play`)."""
        if self.level == "expert":
            return game.best_move()
        return choose_move(game.legal_moves(), self.level, self.rng)

    def play(self, game):
        """Make the engine's turn in ``game`` (the player on turn) and return the
        :class:`~wordsalvo.game.Turn`: a placement, else a whole-rack swap, else a pass."""
        move = self.move(game)
        if move is not None:
            return game.play(move)
        me = game.to_move
        mine = [t for t in game.history if t.player == me and t.kind != "settle"]
        if not (mine and mine[-1].kind == "swap"):
            try:
                return game.swap()
            except GameError:  # the bag is too small now
                pass
        return game.pass_turn()

"""What a player does on a turn: one small typed family of actions.

:class:`Play` places tiles (a :class:`~wordsalvo.moves.Move`), :class:`Swap`
(:class:`wordsalvo.moves.Swap`, what :meth:`MoveGenerator.best_swap` returns) puts
tiles back into the bag and draws as many, :class:`Pass` does nothing.
Engines (:mod:`wordsalvo.engine.bot`) return one of these; :meth:`Game.apply
<wordsalvo.game.Game.apply>` carries it out.  ``equity`` is the value the
engine gave the action when it chose it (None when it did not value it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .moves import Move, Swap  # the one Swap: the generator's best_swap gives it too

__all__ = ["Play", "Swap", "Pass", "Action"]


@dataclass(frozen=True)
class Play:
    """Place the tiles of ``move``."""

    move: Move
    equity: float | None = None

    def __str__(self) -> str:
        return str(self.move)


@dataclass(frozen=True)
class Pass:
    """Do nothing this turn."""

    equity: float | None = None

    def __str__(self) -> str:
        return "pass"


Action = Union[Play, Swap, Pass]

"""What a player does on a turn: one small typed family of actions.

:class:`Play` places tiles (a :class:`~wordsalvo.moves.Move`), :class:`Swap`
(:class:`wordsalvo.moves.Swap`, what :meth:`MoveGenerator.best_swap` returns) puts
tiles back into the bag and draws as many, :class:`Pass` does nothing.
Engines (:mod:`wordsalvo.engine.bot`) return one of these; :meth:`Game.apply
<wordsalvo.game.Game.apply>` carries it out.  ``equity`` is the value the
engine gave the action when it chose it (None when it did not value it).

:class:`Choice` is what the static player (``csrc/ws_action.h``: the ``score`` and
``equity`` engines, :meth:`MoveGenerator.choose <wordsalvo.MoveGenerator.choose>`)
answers: the action it takes and the two options it weighed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Union

from .moves import Move, Swap  # the one Swap: the generator's best_swap gives it too

__all__ = ["Play", "Swap", "Pass", "Action", "Choice"]


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


class Choice(NamedTuple):
    """The static player's choice (``csrc/ws_action.h``) and the options it weighed."""

    #: what it does: ``play`` unless ``swap`` is worth more, ``swap`` with no play, else a Pass
    action: Action
    #: the best placement (by score, or by equity), or the one the caller gave; None: none
    play: Play | None
    #: the swap weighed against it (the score player: the whole rack when it cannot play);
    #: None when it weighed none
    swap: Swap | None


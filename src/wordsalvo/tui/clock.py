"""The terminal game's clock: the time per move of a person (``wordsalvo play
--move-time SECONDS``, as the rule set's ``[timer]`` allows).

The time runs from the moment the player sees the rack (:meth:`MoveClock.start`);
while a line is read the time left counts down beside the prompt (drawn by the
:class:`~wordsalvo.tui.screen.Screen`, every second, on a terminal) and
:class:`TimeUp` interrupts the wait when it runs out (SIGALRM; in the main thread of
a system that has it).  A line typed after the time ran out does not count.  What
running out does to the game is :meth:`Game.timeout <wordsalvo.game.Game.timeout>`'s.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["MoveClock", "TimeUp", "clock_text"]


class TimeUp(Exception):
    """The time per move ran out while the player on turn was deciding."""


def clock_text(seconds: int) -> str:
    """``1:52``, ``1:00:00`` (hours), ``24:00:00``."""
    minutes, sec = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{sec:02d}" if hours else f"{minutes}:{sec:02d}"


class MoveClock:
    """``move_time`` seconds per move of a person (None: no clock), read from ``now``
    (monotonic seconds); ``show(left)`` and ``hide(line_above)`` draw and take away the
    time left (the screen's)."""

    def __init__(self, move_time: int | None, now: Callable[[], float], show: Callable[[float], None],
                 hide: Callable[[bool], None]):
        self.move_time = move_time
        self.now = now
        self._show = show
        self._hide = hide
        #: when the time of the person on turn runs out (``now`` time), None outside a timed turn
        self.deadline: float | None = None

    def start(self) -> None:
        """A person sees the rack: the time runs (nothing without a clock)."""
        if self.move_time is not None:
            self.deadline = self.now() + self.move_time

    def stop(self) -> None:
        self.deadline = None

    def check(self) -> None:
        """TimeUp when the time of the turn has run out."""
        if self.deadline is not None and self.now() >= self.deadline:
            raise TimeUp

    @contextmanager
    def countdown(self) -> Iterator[None]:
        """While waiting for a line in a timed turn: the time left beside the prompt every
        second, and TimeUp when it runs out (SIGALRM interrupts the wait)."""
        if (self.deadline is None or not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):
            yield
            return
        deadline = self.deadline

        def tick(signum, frame):
            left = deadline - self.now()
            if left <= 0:
                raise TimeUp
            self._show(left)

        left = deadline - self.now()
        self._show(left)
        old = signal.signal(signal.SIGALRM, tick)
        # ticks when the whole seconds shown change, and once more at the deadline
        signal.setitimer(signal.ITIMER_REAL, max(0.001, left - int(left)) if left % 1 else 1.0, 1.0)
        answered = False
        try:
            yield
            answered = True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
            self._hide(answered)

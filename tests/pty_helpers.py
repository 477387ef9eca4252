"""A ``wordsalvo`` command in a real pseudo-terminal of 80 x 24 (pexpect drives it, pyte
draws the screen as a terminal would), for the tests that go through the terminal as
a user does: the game, and the long commands' progress bars, summaries and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect
import pyte
import wcwidth

ROWS, COLS = 24, 80
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _default_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """``wordsalvo COMMAND ARGS`` in a pty of 24 x 80, its screen kept by pyte."""

    def __init__(self, args: list[str], games: Path, colour: bool = True, command: str = "play",
                 timeout: int = 600):  # a wait for output, generous: a loaded machine is slow, never wrong
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        env.update(WORDSALVO_GAMES_DIR=str(games), TERM="xterm-256color")
        # a test run started in the background by a shell ignores SIGINT, and a child would
        # inherit that: the program must see Ctrl-C as a terminal's foreground program does
        self.child = pexpect.spawn(sys.executable, ["-m", "wordsalvo", command, *args], dimensions=(ROWS, COLS),
                                   env=env, encoding="utf-8", timeout=timeout, cwd=str(Path(__file__).parent),
                                   preexec_fn=_default_signals)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self.checked = 0

    def expect(self, text: str) -> str:
        """Wait for ``text``; returns everything written since the last expect."""
        try:
            self.child.expect_exact(text)
        except (pexpect.EOF, pexpect.TIMEOUT):  # pragma: no cover - say what the screen showed
            raise AssertionError(f"expected {text!r}; the screen:\n" + "\n".join(self.screen.display)) from None
        got = self.child.before + self.child.after
        self.stream.feed(got)
        self.raw += got
        return got

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def display(self) -> list[str]:
        return list(self.screen.display)

    def said(self) -> str:
        """The screen as one line of words."""
        return " ".join(" ".join(self.display()).split())

    def lines(self) -> list[str]:
        """Every line written so far, colour and cursor codes left out."""
        return CSI.sub("", self.raw).replace("\r", "").split("\n")

    def check_fits(self) -> None:
        """No line written since the last check is wider than the terminal, and the
        board rows are where they belong on the screen."""
        new = self.raw[self.checked:]
        self.checked = len(self.raw)
        for line in CSI.sub("", new).replace("\r", "").split("\n"):
            assert wcwidth.wcswidth(line) <= COLS, f"{wcwidth.wcswidth(line)} columns: {line!r}"
        shown = self.display()
        top = next((i for i, ln in enumerate(shown) if ln.startswith("     A  B  C")), None)
        if top is not None and top + 15 < ROWS:
            for r in range(1, 16):
                assert shown[top + r].startswith(f"{r:>3} "), (r, shown)

    def interrupt(self) -> None:
        """Ctrl-C as a terminal sends it: SIGINT to the foreground process group."""
        os.killpg(os.getpgid(self.child.pid), signal.SIGINT)

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.stream.feed(self.child.before)
        self.raw += self.child.before
        self.child.close()
        return self.child.exitstatus

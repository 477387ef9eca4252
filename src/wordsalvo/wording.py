"""Wording of messages and reports: counts with their noun in the right number, and the
second person for the default player name ``You`` ("You win", "your rack")."""

from __future__ import annotations

__all__ = ["plural", "possessive", "verb"]

#: the name a one-person game gives its player; messages address that player as "you"
YOU = "You"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun in the right number: "1 word", "2 words", "1,000 lines"."""
    return f"{n:,} {noun if n == 1 else (many or noun + 's')}"


def possessive(name: str) -> str:
    """``Ann's``; ``your`` for the default name ``You``."""
    return "your" if name == YOU else f"{name}'s"


def verb(name: str, base: str) -> str:
    """``base`` agreeing with ``name``: ``Ann loses``, ``You lose``; ``be``: ``Ann is``,
    ``You are``."""
    if base == "be":
        return "are" if name == YOU else "is"
    return base if name == YOU else base + "s"

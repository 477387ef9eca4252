"""Wording of messages and reports: counts with their noun in the right number."""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun in the right number: "1 word", "2 words", "1,000 lines"."""
    return f"{n:,} {noun if n == 1 else (many or noun + 's')}"

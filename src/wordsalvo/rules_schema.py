"""The game-level sections of a rule set file: keys, types, allowed values, defaults.

Each TOML table (``[swap]``, ``[end]``, ...) maps to one frozen dataclass
below; a field's metadata holds its documentation and the allowed values.
:func:`parse_section` checks a table against its dataclass and returns the
typed section plus EVERY problem it found (unknown keys, wrong types, values
out of range); a bad or missing key falls back to the default so checking can
go on.  A file may leave out any key or table: the defaults are the classic
rules.  :attr:`wordsalvo.rules.Rules.swap` etc. give the typed sections.

Counters: "all players together" throughout.  A counter set to 0 is not used.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .inputs import excerpt, is_whole

__all__ = [
    "SETTLEMENT_MODES",
    "TIMEOUT_ACTIONS",
    "SCORELESS_TURN_KINDS",
    "RANDOM_MODES",
    "SwapRules",
    "EndRules",
    "SettlementRules",
    "PlayerRules",
    "TimerRules",
    "ResignRules",
    "StrictRules",
    "ChallengeRules",
    "CHALLENGE_PENALTIES",
    "DealRules",
    "DisplayRules",
    "SECTIONS",
    "parse_section",
]

#: how racks left at the end are settled
SETTLEMENT_MODES = (
    "play-out",       # the player who went out gains every other rack's value; the others subtract their own
    "subtract-only",  # every player subtracts their own rack value; nobody gains
    "none",           # scores stay as they are
)
#: what a time-out does
TIMEOUT_ACTIONS = (
    "end-turn",  # the turn ends with no play
    "lose",      # the player loses the game whatever the score
)
#: turns that count towards [end] scoreless_turns
SCORELESS_TURN_KINDS = ("pass", "swap", "refused-play", "zero-score-play", "timeout")
#: what a failed challenge costs ([challenge] penalty)
CHALLENGE_PENALTIES = (
    "turn",    # the challenger loses the turn (the "double challenge" of club and tournament play)
    "points",  # the challenged player gains [challenge] points (the challenge bonus)
    "none",    # nothing: the challenger plays on (the "single challenge")
)
#: [board] random: what a board seed changes
RANDOM_MODES = (
    "none",      # fixed board: a board seed is an error
    "premiums",  # a random premium layout with the counts of the standard one
    "stars",     # fixed premiums; star squares on seeded-random plain squares
)


def _key(default: Any, doc: str, *, choices: tuple[str, ...] | None = None,
         minimum: int | None = None, maximum: int | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices, "min": minimum, "max": maximum})


@dataclass(frozen=True)
class SwapRules:
    """``[swap]``: exchanging tiles (costs the turn, scores 0)."""

    min_bag: int = _key(7, "a swap is allowed only while the bag holds at least this many tiles", minimum=0)
    bag_must_cover_swap: bool = _key(True, "the bag must also hold at least as many tiles as are swapped")
    whole_rack: bool = _key(False, "a swap always exchanges the whole rack")
    draw_before_return: bool = _key(True, "new tiles are drawn before the swapped ones go back into the bag")
    resets_pass_counter: bool = _key(
        True, "a swap resets the pass counters of [end] (all_pass_rounds, consecutive_passes); "
        "false: it counts as a pass for them")


@dataclass(frozen=True)
class EndRules:
    """``[end]``: when the game ends.  Counters are consecutive turns of all players together."""

    rack_out: bool = _key(True, "the game ends when the bag is empty and a player empties the rack")
    all_pass_rounds: int = _key(
        0, "the game ends when every player has passed this many times in a row (players x rounds passes); 0 = off",
        minimum=0)
    consecutive_passes: int = _key(0, "the game ends after this many consecutive passes in total; 0 = off", minimum=0)
    scoreless_turns: int = _key(
        6, "the game ends after this many consecutive scoreless turns (see scoreless_turn_kinds); 0 = off",
        minimum=0)
    scoreless_turns_bag_below: int = _key(
        0, "scoreless_turns only ends the game while the bag holds fewer than this many tiles; 0 = any bag",
        minimum=0)
    scoreless_turn_kinds: tuple[str, ...] = _key(
        ("pass", "swap", "refused-play", "zero-score-play"),
        "which turns count as scoreless; any other turn resets the count", choices=SCORELESS_TURN_KINDS)


@dataclass(frozen=True)
class SettlementRules:
    """``[settlement]``: what happens to the racks left when the game ends, per way it ended."""

    after_out: str = _key("play-out", "after a player went out ([end] rack_out)", choices=SETTLEMENT_MODES)
    after_passes: str = _key(
        "subtract-only", "after [end] all_pass_rounds or consecutive_passes", choices=SETTLEMENT_MODES)
    after_scoreless: str = _key("subtract-only", "after [end] scoreless_turns", choices=SETTLEMENT_MODES)


@dataclass(frozen=True)
class PlayerRules:
    """``[players]``: how many play."""

    min: int = _key(2, "fewest players", minimum=1, maximum=4)
    max: int = _key(4, "most players", minimum=1, maximum=4)


@dataclass(frozen=True)
class TimerRules:
    """``[timer]``: the per-move clock."""

    per_move_seconds: int = _key(0, "seconds per move by default; 0 = no clock", minimum=0)
    table_may_choose: bool = _key(False, "a game (table) may set its own per-move time in min_seconds..max_seconds")
    min_seconds: int = _key(0, "shortest per-move time a table may choose", minimum=0)
    max_seconds: int = _key(0, "longest per-move time a table may choose", minimum=0)
    on_timeout: str = _key("end-turn", "what running out of time does", choices=TIMEOUT_ACTIONS)
    timeout_counts_as_pass: bool = _key(False, "a time-out counts as a pass for the pass counters of [end]")
    eliminate_after_timeouts: int = _key(
        0, "this many time-outs in a row by one player eliminate that player; 0 = never", minimum=0)


@dataclass(frozen=True)
class ResignRules:
    """``[resign]``: giving up."""

    allowed: bool = _key(True, "a player may resign")
    resigner_loses: bool = _key(True, "the player who resigns loses whatever the score")
    scores_kept: bool = _key(True, "the scores stand as they are when a player resigns")
    abandon_counts_as_resign: bool = _key(True, "a player who abandons an online game is treated as resigning")


@dataclass(frozen=True)
class StrictRules:
    """``[strict]``: a play with a word not in the dictionary."""

    enabled: bool = _key(False, "true: the refused play costs the turn; false: the player tries again")
    table_may_choose: bool = _key(False, "a table may switch strict mode on when it opens")
    refused_attempts_visible: bool = _key(False, "refused attempts are shown to the other players")


@dataclass(frozen=True)
class ChallengeRules:
    """``[challenge]``: a table that plays with challenges.  Every play stands when it is
    made, words not in the dictionary too; the next player may challenge it before
    moving.  A play with such a word is taken back and the player loses the turn; a
    play whose words are all in the dictionary stands, and the challenger pays
    ``penalty``.  Without challenges the game checks every word itself ([strict])."""

    table_may_choose: bool = _key(False, "a table may play with challenges when it opens (instead of the game "
                                         "checking every word)")
    penalty: str = _key("turn", "what a failed challenge costs", choices=CHALLENGE_PENALTIES)
    points: int = _key(5, "penalty = points: what the challenged player gains", minimum=0)


@dataclass(frozen=True)
class DealRules:
    """``[deal]``: drawing tiles."""

    first_deal_min_vowels: int = _key(0, "each player's first rack holds at least this many vowels", minimum=0)
    first_deal_min_consonants: int = _key(
        0, "each player's first rack holds at least this many consonants (blanks count as neither)", minimum=0)
    vowels: str = _key("", "the vowel letters, for the first-deal rule")


@dataclass(frozen=True)
class DisplayRules:
    """``[display]``: what players see."""

    tentative_score: bool = _key(True, "the score of a tentative play is shown before it is committed")


#: table name -> dataclass
SECTIONS: dict[str, type] = {
    "swap": SwapRules,
    "end": EndRules,
    "settlement": SettlementRules,
    "players": PlayerRules,
    "timer": TimerRules,
    "resign": ResignRules,
    "strict": StrictRules,
    "challenge": ChallengeRules,
    "deal": DealRules,
    "display": DisplayRules,
}

def _check_value(value: Any, f: dataclasses.Field, where: str) -> tuple[Any, str | None]:
    """(value as stored, problem or None)."""
    default = f.default
    kind = type(default)
    meta = f.metadata
    got = f"got {excerpt(value)}"
    if kind is bool:
        if not isinstance(value, bool):
            return default, f"{where}: expected true or false, {got}"
        return value, None
    if kind is int:
        if not is_whole(value):
            return default, f"{where}: expected a whole number, {got}"
        lo, hi = meta.get("min"), meta.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            rng = f">= {lo}" if hi is None else f"{lo}..{hi}"
            return default, f"{where}: expected a whole number {rng}, {got}"
        return value, None
    if kind is str:
        if not isinstance(value, str):
            return default, f"{where}: expected a string, {got}"
        choices = meta.get("choices")
        if choices and value not in choices:
            return default, f"{where}: expected one of {', '.join(map(repr, choices))}, {got}"
        return value, None
    if kind is tuple:
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return default, f"{where}: expected a list of strings, {got}"
        choices = meta.get("choices")
        bad = [x for x in value if choices and x not in choices]
        if bad:
            return default, f"{where}: expected items from {', '.join(map(repr, choices))}, got {excerpt(bad)}"
        return tuple(value), None
    raise TypeError(f"no check for {kind}")  # pragma: no cover - schema bug


def parse_section(name: str, raw: Any) -> tuple[Any, list[str]]:
    """Check the TOML table ``[name]``; returns (typed section, every problem found)."""
    cls = SECTIONS[name]
    problems: list[str] = []
    if raw is None:
        return cls(), problems
    if not isinstance(raw, dict):
        return cls(), [f"'{name}': expected a table [{name}], got {excerpt(raw)}"]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        where = f"'{name}.{key}'"
        f = fields.get(key)
        if f is None:
            problems.append(f"{where}: unknown key (expected one of {', '.join(fields)})")
            continue
        v, problem = _check_value(value, f, where)
        if problem:
            problems.append(problem)
        else:
            values[key] = v
    section = cls(**values)
    problems.extend(_cross_checks(section))
    return section, problems


def _cross_checks(s: Any) -> list[str]:
    p: list[str] = []
    if isinstance(s, PlayerRules) and s.min > s.max:
        p.append(f"'players': expected min <= max, got min = {s.min}, max = {s.max}")
    if isinstance(s, EndRules) and not (s.all_pass_rounds or s.consecutive_passes
                                        or (s.scoreless_turns and "pass" in s.scoreless_turn_kinds)):
        p.append("'end': expected a way for passes to end the game (all_pass_rounds, consecutive_passes, or "
                 "scoreless_turns counting 'pass'), got none: players who pass would play forever")
    if isinstance(s, TimerRules) and s.table_may_choose:
        if s.min_seconds > s.max_seconds:
            p.append(f"'timer': expected min_seconds <= max_seconds, got {s.min_seconds} > {s.max_seconds}")
        elif s.per_move_seconds and not s.min_seconds <= s.per_move_seconds <= s.max_seconds:
            p.append(f"'timer.per_move_seconds': expected within min_seconds..max_seconds "
                     f"({s.min_seconds}..{s.max_seconds}), got {s.per_move_seconds}")
    return p


def describe() -> str:
    """Every key of every section with its default and meaning (for documentation and --help)."""
    lines = []
    for name, cls in SECTIONS.items():
        lines.append(f"[{name}]  {cls.__doc__.splitlines()[0]}")
        for f in dataclasses.fields(cls):
            lines.append(f"  {f.name} = {f.default!r}: {f.metadata['doc']}")
    return "\n".join(lines)

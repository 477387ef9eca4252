"""Rule sets as data.

A :class:`Rules` object holds everything the move generator and the game need:
the premium layout (any layout: classic, Wordfeud, WordSalvo, random), whether
the centre pays a bonus (it is simply a premium square or not), star squares
that pay a flat bonus once, the alphabet, tile counts and values, rack size and
bingo bonus, plus the game-level rules (swap, end, settlement, players,
timers) that :mod:`wordsalvo.game` reads.

Presets live in ``rulesets/*.toml`` inside the package and are read with the
standard library's :mod:`tomllib`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .alphabet import Alphabet, get_alphabet
from .errors import RulesError

SIZE = 15
SQUARES = SIZE * SIZE

#: layout symbols: (letter multiplier, word multiplier)
PREMIUM_SYMBOLS = {
    ".": (1, 1),
    "D": (2, 1),  # double letter
    "T": (3, 1),  # triple letter
    "w": (1, 2),  # double word
    "W": (1, 3),  # triple word
    "*": (1, 1),  # centre without bonus
}


@dataclass(frozen=True, eq=False)
class Rules:
    """One rule set.  Use :meth:`preset` or :meth:`load` to get one."""

    name: str
    alphabet: Alphabet
    #: 15 strings of 15 symbols: W 3W, w 2W, T 3L, D 2L, * plain centre, . plain
    layout: tuple[str, ...]
    #: letter -> (count, value); the blank is "?"
    tiles: dict[str, tuple[int, int]]
    rack_size: int = 7
    bingo_bonus: int = 50
    centre: tuple[int, int] = (7, 7)
    star_squares: tuple[tuple[int, int], ...] = ()
    star_bonus: int = 25
    description: str = ""
    board_seed: int | None = None
    #: everything else of the file (swap, end, settlement, players, timers, ...)
    extra: dict[str, Any] = field(default_factory=dict)

    # -- derived data for the C core --------------------------------------------
    def __post_init__(self) -> None:
        problems = _check_core(self)
        if problems:
            raise RulesError(f"rule set {self.name!r} has {len(problems)} problem(s): " + "; ".join(problems), problems)
        lm = bytearray(SQUARES)
        wm = bytearray(SQUARES)
        for r, row in enumerate(self.layout):
            for c, sym in enumerate(row):
                lm[r * SIZE + c], wm[r * SIZE + c] = PREMIUM_SYMBOLS[sym]
        object.__setattr__(self, "letter_multipliers", bytes(lm))
        object.__setattr__(self, "word_multipliers", bytes(wm))
        bonus = [0] * SQUARES
        for r, c in self.star_squares:
            bonus[r * SIZE + c] = self.star_bonus
        object.__setattr__(self, "square_bonus", tuple(bonus))
        values = [0] * (self.alphabet.size + 1)
        for letter, (_count, value) in self.tiles.items():
            if letter != "?":
                values[self.alphabet.code(letter)] = value
        object.__setattr__(self, "tile_values", tuple(values))

    letter_multipliers: bytes = field(init=False, repr=False)
    word_multipliers: bytes = field(init=False, repr=False)
    square_bonus: tuple[int, ...] = field(init=False, repr=False)
    #: value per tile code (index 0 = blank = 0)
    tile_values: tuple[int, ...] = field(init=False, repr=False)

    @property
    def start_square(self) -> int:
        return self.centre[0] * SIZE + self.centre[1]

    @property
    def tile_count(self) -> int:
        return sum(c for c, _v in self.tiles.values())

    def distribution(self) -> dict[str, int]:
        return {k: c for k, (c, _v) in self.tiles.items()}

    def value(self, letter: str) -> int:
        return self.tiles.get(letter, (0, 0))[1]

    # -- constructors -------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, board_seed: int | None = None) -> "Rules":
        """A built-in rule set by name (``classic-en``, ...)."""
        try:
            text = resources.files("wordsalvo.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
        except (FileNotFoundError, OSError):
            raise RulesError(f"expected a rule set name ({', '.join(preset_names())}), got {name!r}") from None
        return cls.from_toml(text, source=f"preset {name}", board_seed=board_seed)

    @classmethod
    def load(cls, path: str | Path, board_seed: int | None = None) -> "Rules":
        """Read a rule set file; reports every problem in it at once."""
        p = Path(path)
        try:
            text = p.read_text("utf-8")
        except OSError as e:
            raise RulesError(f"{p}: cannot read rule set file: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise RulesError(f"{p}: expected UTF-8 text, got a bad byte at offset {e.start}") from None
        return cls.from_toml(text, source=str(p), board_seed=board_seed)

    @classmethod
    def from_toml(cls, text: str, source: str = "<string>", board_seed: int | None = None) -> "Rules":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RulesError(f"{source}: not valid TOML: {e}") from None
        return cls.from_dict(data, source=source, board_seed=board_seed)

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<dict>", board_seed: int | None = None) -> "Rules":
        problems: list[str] = []
        data = dict(data)
        name = data.pop("name", None)
        if not isinstance(name, str):
            problems.append(f"'name': expected a string, got {name!r}")
            name = "?"
        alphabet = None
        try:
            alphabet = get_alphabet(data.pop("alphabet", None))
        except Exception as e:  # noqa: BLE001 - reported below
            problems.append(f"'alphabet': {e}")
        board = data.pop("board", {}) or {}
        layout_text = board.get("layout")
        layout: tuple[str, ...] = ()
        if not isinstance(layout_text, str):
            problems.append("'board.layout': expected 15 lines of 15 symbols")
        else:
            rows = [r.replace(" ", "") for r in layout_text.strip().splitlines() if r.strip()]
            layout = tuple(rows)
        tiles_raw = data.pop("tiles", None)
        tiles: dict[str, tuple[int, int]] = {}
        if not isinstance(tiles_raw, dict):
            problems.append("'tiles': expected a table letter = [count, value]")
        else:
            for k, v in tiles_raw.items():
                if (
                    not isinstance(v, list) or len(v) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)
                ):
                    problems.append(f"'tiles.{k}': expected [count, value] with two whole numbers >= 0, got {v!r}")
                    continue
                tiles[k] = (v[0], v[1])
        kwargs: dict[str, Any] = {}
        for key, typ in (("rack_size", int), ("bingo_bonus", int), ("description", str)):
            if key in data:
                v = data.pop(key)
                if not isinstance(v, typ) or isinstance(v, bool):
                    problems.append(f"'{key}': expected {typ.__name__}, got {v!r}")
                else:
                    kwargs[key] = v
        centre = board.get("centre", [7, 7])
        stars = board.get("star_squares", [])
        kwargs["centre"] = tuple(centre) if isinstance(centre, list) else centre
        kwargs["star_squares"] = tuple(tuple(s) for s in stars) if isinstance(stars, list) else stars
        if "star_bonus" in board:
            kwargs["star_bonus"] = board["star_bonus"]
        if problems or alphabet is None:
            raise RulesError(f"{source}: {len(problems)} problem(s): " + "; ".join(problems), problems)
        try:
            return cls(
                name=name, alphabet=alphabet, layout=layout, tiles=tiles,
                board_seed=board_seed, extra=data | {"board": board}, **kwargs,
            )
        except RulesError as e:
            raise RulesError(f"{source}: {e}", e.problems) from None

    def with_layout(self, layout: tuple[str, ...], **changes: Any) -> "Rules":
        """A copy with another premium layout (e.g. a random board)."""
        fields = dict(
            name=self.name, alphabet=self.alphabet, layout=layout, tiles=self.tiles,
            rack_size=self.rack_size, bingo_bonus=self.bingo_bonus, centre=self.centre,
            star_squares=self.star_squares, star_bonus=self.star_bonus,
            description=self.description, board_seed=self.board_seed, extra=self.extra,
        )
        fields.update(changes)
        return Rules(**fields)

    def __repr__(self) -> str:
        seed = f", board_seed={self.board_seed}" if self.board_seed is not None else ""
        return f"Rules.preset({self.name!r}{seed})"


def _check_core(r: Rules) -> list[str]:
    """Every problem of the core fields, not only the first."""
    p: list[str] = []
    if len(r.layout) != SIZE or any(len(row) != SIZE for row in r.layout):
        p.append(f"'board.layout': expected {SIZE} rows of {SIZE} symbols, got "
                 f"{len(r.layout)} rows of lengths {sorted({len(x) for x in r.layout})}")
    else:
        for i, row in enumerate(r.layout):
            bad = sorted({s for s in row if s not in PREMIUM_SYMBOLS})
            if bad:
                p.append(f"'board.layout' row {i + 1}: unknown symbols {''.join(bad)!r} (expected one of W w T D * .)")
    if not (isinstance(r.centre, tuple) and len(r.centre) == 2 and all(isinstance(x, int) and 0 <= x < SIZE for x in r.centre)):
        p.append(f"'board.centre': expected [row, col] within 0..{SIZE - 1}, got {r.centre!r}")
    for s in r.star_squares:
        if not (len(s) == 2 and all(isinstance(x, int) and 0 <= x < SIZE for x in s)):
            p.append(f"'board.star_squares': expected [row, col] pairs within 0..{SIZE - 1}, got {s!r}")
    if not isinstance(r.star_bonus, int) or not 0 <= r.star_bonus <= 1000:
        p.append(f"'board.star_bonus': expected a whole number 0..1000, got {r.star_bonus!r}")
    if not 1 <= r.rack_size <= 7:
        p.append(f"'rack_size': expected 1..7, got {r.rack_size}")
    if not 0 <= r.bingo_bonus <= 1000:
        p.append(f"'bingo_bonus': expected 0..1000, got {r.bingo_bonus}")
    for letter, (_c, v) in r.tiles.items():
        if letter != "?" and not r.alphabet.is_letter(letter):
            p.append(f"'tiles.{letter}': not a letter of alphabet {r.alphabet.name!r}")
        if v > 100:
            p.append(f"'tiles.{letter}': value {v} is too large (expected <= 100)")
    missing = [x for x in r.alphabet.letters if x not in r.tiles]
    if missing:
        p.append(f"'tiles': no entry for letters {''.join(missing)} of alphabet {r.alphabet.name!r}")
    return p


def preset_names() -> list[str]:
    return sorted(
        p.name[:-5] for p in resources.files("wordsalvo.rulesets").iterdir() if p.name.endswith(".toml")
    )

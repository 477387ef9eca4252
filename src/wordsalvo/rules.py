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

import functools

import re

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .alphabet import Alphabet, get_alphabet
from .boards import random_board_problems, random_premium_layout, random_star_squares
from .constants import CENTRE, DIM, RACK_MAX, SQUARES
from .errors import GameError, RulesError
from .inputs import excerpt, is_file, is_whole, list_problems, read_bytes
from .rules_schema import (
    RANDOM_MODES,
    SECTIONS,
    ChallengeRules,
    DealRules,
    DisplayRules,
    EndRules,
    PlayerRules,
    ResignRules,
    SettlementRules,
    StrictRules,
    SwapRules,
    TimerRules,
    parse_section,
)


#: layout symbols: (letter multiplier, word multiplier)
PREMIUM_SYMBOLS = {
    ".": (1, 1),
    "D": (2, 1),  # double letter
    "T": (3, 1),  # triple letter
    "w": (1, 2),  # double word
    "W": (1, 3),  # triple word
    "*": (1, 1),  # centre without bonus
}

#: keys of a rule set file, top level and [board]
TOP_LEVEL_KEYS = ("name", "description", "alphabet", "rack_size", "bingo_bonus", "board", "tiles", *SECTIONS)
BOARD_KEYS = ("layout", "centre", "star_squares", "star_bonus", "random", "random_star_count", "default_star_squares")
_TYPE_WORDS = {int: "a whole number", str: "a string"}


@dataclass(frozen=True, eq=False)
class Rules:
    """One rule set.  Use :meth:`preset` or :meth:`load` to get one."""

    name: str
    alphabet: Alphabet
    #: 15 strings of 15 symbols: W 3W, w 2W, T 3L, D 2L, * plain centre, . plain
    layout: tuple[str, ...]
    #: letter -> (count, value); the blank is "?"
    tiles: dict[str, tuple[int, int]]
    rack_size: int = RACK_MAX
    bingo_bonus: int = 50
    centre: tuple[int, int] = CENTRE
    star_squares: tuple[tuple[int, int], ...] = ()
    star_bonus: int = 25
    description: str = ""
    board_seed: int | None = None
    #: everything else of the file (swap, end, settlement, players, timers, ...)
    extra: dict[str, Any] = field(default_factory=dict)
    #: where the rules came from: ``preset NAME``, a file path, ``<string>`` / ``<dict>``,
    #: or ``""`` for rules changed after reading (:meth:`with_layout`); the repr says it
    origin: str = ""

    # -- derived data for the C core --------------------------------------------
    def __post_init__(self) -> None:
        problems = _check_core(self)
        for name in SECTIONS:
            section, section_problems = parse_section(name, self.extra.get(name))
            problems.extend(section_problems)
            object.__setattr__(self, name, section)
        if problems:
            raise RulesError(_problem_message(f"rule set {excerpt(self.name)}", problems), problems)
        lm = bytearray(SQUARES)
        wm = bytearray(SQUARES)
        for r, row in enumerate(self.layout):
            for c, sym in enumerate(row):
                lm[r * DIM + c], wm[r * DIM + c] = PREMIUM_SYMBOLS[sym]
        object.__setattr__(self, "letter_multipliers", bytes(lm))
        object.__setattr__(self, "word_multipliers", bytes(wm))
        bonus = [0] * SQUARES
        for r, c in self.star_squares:
            bonus[r * DIM + c] = self.star_bonus
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

    # -- game-level rules, typed (see rules_schema.py; defaults where the file is silent)
    swap: SwapRules = field(init=False, repr=False)
    end: EndRules = field(init=False, repr=False)
    settlement: SettlementRules = field(init=False, repr=False)
    players: PlayerRules = field(init=False, repr=False)
    timer: TimerRules = field(init=False, repr=False)
    resign: ResignRules = field(init=False, repr=False)
    strict: StrictRules = field(init=False, repr=False)
    challenge: ChallengeRules = field(init=False, repr=False)
    deal: DealRules = field(init=False, repr=False)
    display: DisplayRules = field(init=False, repr=False)

    @property
    def random_mode(self) -> str:
        """What a board seed changes: ``"none"``, ``"premiums"`` or ``"stars"`` (``[board] random``)."""
        return (self.extra.get("board") or {}).get("random", "none")

    @property
    def scoring_key(self) -> tuple:
        """Everything move generation and scoring depend on: rules with equal keys
        give the same moves and scores."""
        return (self.alphabet.letters, self.letter_multipliers, self.word_multipliers, self.square_bonus,
                self.tile_values, self.bingo_bonus, self.rack_size, self.start_square)

    @property
    def start_square(self) -> int:
        return self.centre[0] * DIM + self.centre[1]

    @property
    def tile_count(self) -> int:
        return sum(c for c, _v in self.tiles.values())

    def distribution(self) -> dict[str, int]:
        return {k: c for k, (c, _v) in self.tiles.items()}

    def check_move_time(self, seconds: int) -> int:
        """``seconds`` per move as a table of this rule set may set them (``[timer]``): in
        ``min_seconds..max_seconds`` when the table may choose, else the rule set's own
        ``per_move_seconds``; GameError for a rule set without a clock or a time outside."""
        t = self.timer
        if t.table_may_choose:
            if not t.min_seconds <= seconds <= t.max_seconds:
                raise GameError(f"rule set {self.name!r}: expected a time per move of {t.min_seconds} to "
                                f"{t.max_seconds} seconds ([timer]), got {seconds}")
            return seconds
        if not t.per_move_seconds:
            raise GameError(f"rule set {self.name!r} has no per-move clock ([timer] per_move_seconds = 0 and "
                            f"table_may_choose = false), so a time per move cannot be set; got {seconds}")
        if seconds != t.per_move_seconds:
            raise GameError(f"rule set {self.name!r} has a fixed clock of {t.per_move_seconds} seconds per move "
                            f"([timer] table_may_choose = false): expected {t.per_move_seconds}, got {seconds}")
        return seconds

    def value(self, letter: str) -> int:
        return self.tiles.get(letter, (0, 0))[1]

    # -- constructors -------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, board_seed: int | None = None) -> "Rules":
        """A built-in rule set by name (``wordsalvo-en``, ``turkish``, ...).

        ``board_seed``: an integer gives the rule set's random board
        (``[board] random = "premiums"``: WordSalvo, Wordfeud) or its random
        star squares (``"stars"``: Turkish); the same seed gives the same board.
        ``None`` gives the standard board, and for Turkish the star on the
        file's ``default_star_squares``.  A seed for a fixed board (classic,
        Woodword) is a :class:`RulesError`.
        """
        names = preset_names()
        if name not in names:  # also keeps paths and other spellings out on any file system
            raise RulesError(f"expected a rule set name ({', '.join(names)}), got {excerpt(name)}")
        # the packaged file is parsed once (TOML parsing was two thirds of a call); every
        # call checks and builds from its own copy, so no two Rules share a mutable part
        return cls.from_dict(_toml_copy(_preset_data(name)), source=f"preset {name}", board_seed=board_seed)

    @classmethod
    def from_spec(cls, spec: str, board_seed: int | None = None) -> "Rules":
        """The rules a command or a job names: a preset by name, or a rule set file when
        ``spec`` is a path (ends in ``.toml``, holds a path separator or names a file);
        ``board_seed`` as for :meth:`preset`.  The one place a rule-set argument becomes
        Rules (a game record's ``#rules``/``#board_seed``/``#stars`` go through
        :func:`wordsalvo.formats.opcodes.resolve_rules`, which comes here for no file)."""
        if not isinstance(spec, str):
            raise RulesError(f"expected a rule set name or a rule set file, got {type(spec).__name__}")
        if spec.endswith(".toml") or "/" in spec or "\\" in spec or is_file(spec):
            return cls.load(spec, board_seed=board_seed)
        return cls.preset(spec, board_seed=board_seed)

    @classmethod
    def load(cls, path: str | Path, board_seed: int | None = None) -> "Rules":
        """Read a rule set file; reports every problem in it at once (``RulesError.problems``)."""
        data = read_bytes(path, RulesError, "rule set file")
        p = Path(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RulesError(f"{p}: expected UTF-8 text, got a bad byte at offset {e.start}") from None
        return cls.from_toml(text, source=str(p), board_seed=board_seed)

    @classmethod
    def from_toml(cls, text: str, source: str = "<string>", board_seed: int | None = None) -> "Rules":
        try:
            data = tomllib.loads(text)
        except (ValueError, RecursionError) as e:  # TOMLDecodeError, and int() of 4,300+ digits inside tomllib
            problem = f"not valid TOML: {excerpt(str(e), 300)[1:-1] if len(str(e)) > 300 else e}"
            raise RulesError(f"{source}: {problem}", [problem]) from None
        return cls.from_dict(data, source=source, board_seed=board_seed)

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<dict>", board_seed: int | None = None) -> "Rules":
        """Build from the parsed file; collects every problem before raising one :class:`RulesError`."""
        if not isinstance(data, dict):
            raise RulesError(f"{source}: expected a table of rule set keys, got {type(data).__name__}")
        problems: list[str] = []
        data = dict(data)
        for key in data:
            if key not in TOP_LEVEL_KEYS:
                problems.append(f"{excerpt(key)}: unknown key (expected one of {', '.join(TOP_LEVEL_KEYS)})")
        name = data.pop("name", None)
        name_problem = rule_set_name_problem(name)
        if name_problem is not None:
            problems.append(f"'name': {name_problem}")
            name = "?"
        alphabet = None
        try:
            alphabet = get_alphabet(data.pop("alphabet", None))
        except Exception as e:  # noqa: BLE001 - reported below
            problems.append(f"'alphabet': {e}")
        kwargs: dict[str, Any] = {}
        for key, typ in (("rack_size", int), ("bingo_bonus", int), ("description", str)):
            if key in data:
                v = data.pop(key)
                if not (is_whole(v) if typ is int else isinstance(v, typ)):
                    problems.append(f"'{key}': expected {_TYPE_WORDS[typ]}, got {excerpt(v)}")
                else:
                    kwargs[key] = v

        # [board]
        board = data.pop("board", None)
        if board is None:
            problems.append("'board': missing table [board] (expected at least board.layout)")
            board = {}
        elif not isinstance(board, dict):
            problems.append(f"'board': expected a table [board], got {excerpt(board)}")
            board = {}
        for key in board:
            if key not in BOARD_KEYS:
                problems.append(f"'board.{key}': unknown key (expected one of {', '.join(BOARD_KEYS)})")
        layout: tuple[str, ...] = ()
        layout_text = board.get("layout")
        if not isinstance(layout_text, str):
            problems.append(f"'board.layout': expected {DIM} lines of {DIM} symbols, got {excerpt(layout_text)}")
        else:
            layout = tuple(r.replace(" ", "") for r in layout_text.strip().splitlines() if r.strip())
        centre = _square(board.get("centre", list(CENTRE)), "'board.centre'", problems)
        kwargs["centre"] = centre if centre is not None else CENTRE
        stars = _squares(board.get("star_squares", []), "'board.star_squares'", problems)
        kwargs["star_squares"] = stars
        if "star_bonus" in board:
            v = board["star_bonus"]
            if not is_whole(v):
                problems.append(f"'board.star_bonus': expected a whole number, got {excerpt(v)}")
            else:
                kwargs["star_bonus"] = v
        random_mode = board.get("random", "none")
        if random_mode not in RANDOM_MODES:
            problems.append(f"'board.random': expected one of {', '.join(map(repr, RANDOM_MODES))}, got {excerpt(random_mode)}")
            random_mode = "none"
        star_count = board.get("random_star_count", 1 if random_mode == "stars" else 0)
        if not is_whole(star_count, 0):
            problems.append(f"'board.random_star_count': expected a whole number >= 0, got {excerpt(star_count)}")
            star_count = 0
        default_stars = _squares(board.get("default_star_squares", []), "'board.default_star_squares'", problems)

        # [tiles]
        tiles_raw = data.pop("tiles", None)
        tiles: dict[str, tuple[int, int]] = {}
        if not isinstance(tiles_raw, dict):
            problems.append(f"'tiles': expected a table letter = [count, value], got {excerpt(tiles_raw)}")
        else:
            for k, v in tiles_raw.items():
                if (
                    not isinstance(v, list) or len(v) != 2
                    or not all(is_whole(x, 0) for x in v)
                ):
                    problems.append(f"'tiles.{k}': expected [count, value] with two whole numbers >= 0, got {excerpt(v)}")
                    continue
                tiles[k] = (v[0], v[1])

        # game-level sections
        for section in SECTIONS:
            _value, section_problems = parse_section(section, data.get(section))
            problems.extend(section_problems)

        # the checks the constructor runs, on what could be read
        rack_size = kwargs.get("rack_size", RACK_MAX)
        problems.extend(_check_values(
            layout=layout if isinstance(layout_text, str) else None, centre=kwargs["centre"], star_squares=stars,
            star_bonus=kwargs.get("star_bonus", 25), rack_size=rack_size,
            bingo_bonus=kwargs.get("bingo_bonus", 50), tiles=tiles if isinstance(tiles_raw, dict) else None,
            alphabet=alphabet, extra=data | {"board": board},
        ))
        if not problems and random_mode == "stars":
            for s in default_stars:
                if layout[s[0]][s[1]] != "." or s == kwargs["centre"]:
                    problems.append(f"'board.default_star_squares': expected plain squares, got {list(s)} "
                                    f"({excerpt(layout[s[0]][s[1]])})")
            if len(default_stars) != star_count and not stars:
                problems.append(f"'board.default_star_squares': expected random_star_count = {star_count} "
                                f"squares, got {len(default_stars)}")
        if not problems and random_mode == "premiums":
            problems.extend(f"'board.layout': {x}" for x in random_board_problems(layout, kwargs["centre"]))
            if stars:
                problems.append("'board.star_squares': expected [] with board.random = \"premiums\" "
                                f"(a random board could cover them), got {[list(s) for s in stars]}")
        if problems:
            raise RulesError(_problem_message(source, problems), problems)

        # the board seed
        if board_seed is not None:
            if not is_whole(board_seed):
                raise RulesError(f"{source}: expected a whole number as board seed, got {excerpt(board_seed)}")
            if random_mode == "none":
                raise RulesError(f"{source}: rule set {excerpt(name)} has a fixed board (board.random = \"none\"); "
                                 f"expected board_seed=None, got {board_seed}")
            if random_mode == "premiums":
                layout = random_premium_layout(layout, board_seed, kwargs["centre"])
            elif not stars:
                kwargs["star_squares"] = random_star_squares(layout, star_count, board_seed, kwargs["centre"])
        elif random_mode == "stars" and not stars:
            kwargs["star_squares"] = default_stars
        try:
            return cls(
                name=name, alphabet=alphabet, layout=layout, tiles=tiles,
                board_seed=board_seed, extra=data | {"board": board}, origin=source, **kwargs,
            )
        except RulesError as e:
            raise RulesError(_problem_message(source, e.problems), e.problems) from None

    def with_layout(self, layout: tuple[str, ...], **changes: Any) -> "Rules":
        """A copy with another premium layout (e.g. a random board)."""
        fields = dict(
            name=self.name, alphabet=self.alphabet, layout=layout, tiles=self.tiles,
            rack_size=self.rack_size, bingo_bonus=self.bingo_bonus, centre=self.centre,
            star_squares=self.star_squares, star_bonus=self.star_bonus,
            description=self.description, board_seed=self.board_seed, extra=self.extra,
        )
        fields.update(changes)
        same = layout == self.layout and all(getattr(self, k) == v for k, v in changes.items())
        fields["origin"] = self.origin if same else ""
        return Rules(**fields)

    def with_board_seed(self, board_seed: int | None) -> "Rules":
        """The same rule set on the random board of ``board_seed`` (None: its own fixed
        board), derived from its own definition (the table it was read from), so that a
        rule set from a file, not only a preset, can be put on another random board.
        Rules changed after reading (:meth:`with_layout`) have no definition to derive
        from: a :class:`RulesError`."""
        if board_seed == self.board_seed:
            return self
        if not self.origin:
            raise RulesError(f"rule set {excerpt(self.name)} was changed after reading (with_layout): expected "
                             "rules read from a preset or a file to put on another random board")
        definition: dict[str, Any] = dict(self.extra)
        definition.update(name=self.name, alphabet=self.alphabet.name, rack_size=self.rack_size,
                          bingo_bonus=self.bingo_bonus,
                          tiles={k: [count, value] for k, (count, value) in self.tiles.items()})
        if self.description:
            definition["description"] = self.description
        return Rules.from_dict(definition, source=self.origin, board_seed=board_seed)

    @property
    def preset_name(self) -> str | None:
        """The built-in rule set these rules are (``Rules.preset(name)``, with any board seed),
        or None: read from a file, a text or a dict, or changed after reading."""
        return self.name if self.origin == f"preset {self.name}" else None

    def __repr__(self) -> str:
        """Valid Python that gives these rules again where there is such a call
        (``Rules.preset(...)``, ``Rules.load(...)``); else a description."""
        seed = f", board_seed={self.board_seed}" if self.board_seed is not None else ""
        if self.preset_name is not None:
            return f"Rules.preset({excerpt(self.name)}{seed})"
        if self.origin and not self.origin.startswith(("<", "preset ")):
            return f"Rules.load({excerpt(self.origin)}{seed})"
        where = self.origin or "changed after reading"
        return (f"<Rules {excerpt(self.name)} ({where}): alphabet {self.alphabet.name}, rack {self.rack_size}, "
                f"{len(self.star_squares)} star squares>")


def _problem_message(where: str, problems: list[str]) -> str:
    return list_problems(where, problems, "RulesError.problems lists every one")


def _square(v: Any, where: str, problems: list[str]) -> tuple[int, int] | None:
    if (
        isinstance(v, (list, tuple)) and len(v) == 2
        and all(is_whole(x, 0, DIM - 1) for x in v)
    ):
        return (v[0], v[1])
    problems.append(f"{where}: expected [row, col] with 0-based numbers 0..{DIM - 1}, got {excerpt(v)}")
    return None


def _squares(v: Any, where: str, problems: list[str]) -> tuple[tuple[int, int], ...]:
    if not isinstance(v, (list, tuple)):
        problems.append(f"{where}: expected a list of [row, col], got {excerpt(v)}")
        return ()
    out = [_square(x, where, problems) for x in v]
    good = tuple(x for x in out if x is not None)
    if len(set(good)) != len(good):
        problems.append(f"{where}: expected distinct squares, got {[list(x) for x in good]}")
    return good


#: a rule set name: it becomes part of file names (saved games, package data), so an
#: identifier of lower-case ASCII letters, digits, ``-`` and ``_``, starting with a letter
#: or digit, at most 32 characters (what a .wsl header holds)
RULE_SET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")


def rule_set_name_problem(name: object) -> str | None:
    """Why ``name`` is not a rule set name (see :data:`RULE_SET_NAME`), or None."""
    if isinstance(name, str) and RULE_SET_NAME.fullmatch(name):
        return None
    return (f"expected a rule set name (1..32 of a-z, 0-9, '-', '_', starting with a letter or digit), "
            f"got {excerpt(name)}")


def _check_core(r: Rules) -> list[str]:
    """Every problem of the core fields, not only the first."""
    name_problem = rule_set_name_problem(r.name)
    return ([f"'name': {name_problem}"] if name_problem else []) + _check_values(
        layout=r.layout, centre=r.centre, star_squares=r.star_squares, star_bonus=r.star_bonus,
        rack_size=r.rack_size, bingo_bonus=r.bingo_bonus, tiles=r.tiles, alphabet=r.alphabet, extra=r.extra,
    )


def _check_values(
    *, layout: Any, centre: Any, star_squares: Any, star_bonus: Any, rack_size: Any, bingo_bonus: Any,
    tiles: dict[str, tuple[int, int]] | None, alphabet: Alphabet | None, extra: dict[str, Any],
) -> list[str]:
    """Every problem of the values a :class:`Rules` holds (None: could not be read, already reported).

    User files need not be symmetric or have any premium counts; they must be
    well-formed: 15 x 15 known symbols, ``*`` only at the centre, squares on
    the board, tiles for exactly the letters of the alphabet, sane numbers.
    """
    p: list[str] = []
    centre_ok = isinstance(centre, tuple) and len(centre) == 2 and all(is_whole(x) and 0 <= x < DIM for x in centre)
    if not centre_ok:
        p.append(f"'board.centre': expected [row, col] within 0..{DIM - 1}, got {excerpt(centre)}")
    if layout is not None:
        if len(layout) != DIM or any(len(row) != DIM for row in layout):
            lengths = [f"row {i + 1}: {len(row)}" for i, row in enumerate(layout) if len(row) != DIM]
            p.append(f"'board.layout': expected {DIM} rows of {DIM} symbols, got {len(layout)} rows"
                     + (f" ({', '.join(lengths)})" if lengths else ""))
        for i, row in enumerate(layout):
            for j, sym in enumerate(row):
                if sym not in PREMIUM_SYMBOLS:
                    p.append(f"'board.layout' row {i + 1}, column {j + 1}: unknown symbol {excerpt(sym)} "
                             "(expected one of W w T D * .)")
                elif sym == "*" and centre_ok and (i, j) != centre:
                    p.append(f"'board.layout' row {i + 1}, column {j + 1}: '*' marks the centre, "
                             f"but the centre is row {centre[0] + 1}, column {centre[1] + 1}")
    for s in star_squares:
        if not (isinstance(s, tuple) and len(s) == 2 and all(is_whole(x) and 0 <= x < DIM for x in s)):
            p.append(f"'board.star_squares': expected [row, col] pairs within 0..{DIM - 1}, got {excerpt(s)}")
        elif layout is not None and len(layout) == DIM and all(len(row) == DIM for row in layout):
            if layout[s[0]][s[1]] != "." or (centre_ok and s == centre):
                p.append(f"'board.star_squares': expected a plain square, got {list(s)} "
                         f"({'the centre' if s == centre else repr(layout[s[0]][s[1]])})")
    if not is_whole(star_bonus) or not 0 <= star_bonus <= 1000:
        p.append(f"'board.star_bonus': expected a whole number 0..1000, got {excerpt(star_bonus)}")
    if not is_whole(rack_size) or not 1 <= rack_size <= RACK_MAX:
        p.append(f"'rack_size': expected 1..{RACK_MAX}, got {excerpt(rack_size)}")
    if not is_whole(bingo_bonus) or not 0 <= bingo_bonus <= 1000:
        p.append(f"'bingo_bonus': expected 0..1000, got {excerpt(bingo_bonus)}")
    if tiles is not None:
        for letter, (count, value) in tiles.items():
            if alphabet is not None and letter != "?" and not alphabet.is_letter(letter):
                p.append(f"'tiles.{letter}': not a letter of alphabet {excerpt(alphabet.name)} "
                         f"(expected one of {''.join(alphabet.letters)} or ?)")
            if value > 100:
                p.append(f"'tiles.{letter}': value {value} is too large (expected <= 100)")
            if count > 100:
                p.append(f"'tiles.{letter}': count {count} is too large (expected <= 100)")
        if alphabet is not None:
            missing = [x for x in alphabet.letters if x not in tiles]
            if missing:
                p.append(f"'tiles': no entry for letters {''.join(missing)} of alphabet {excerpt(alphabet.name)}")
        if "?" in tiles and tiles["?"][1] != 0:
            p.append(f"'tiles.?': a blank is always worth 0, got value {tiles['?'][1]}")
        total = sum(c for c, _v in tiles.values())
        if is_whole(rack_size) and total < rack_size:
            p.append(f"'tiles': expected at least rack_size = {rack_size} tiles in all, got {total}")
    deal = extra.get("deal")
    if isinstance(deal, dict) and alphabet is not None:
        vowels = deal.get("vowels", "")
        if isinstance(vowels, str):
            bad = [v for v in vowels if not alphabet.is_letter(v)]
            if bad:
                p.append(f"'deal.vowels': expected letters of alphabet {excerpt(alphabet.name)}, got {''.join(bad)!r}")
            mins = [deal.get("first_deal_min_vowels", 0), deal.get("first_deal_min_consonants", 0)]
            if all(is_whole(x) for x in mins):
                if mins[0] and not vowels:
                    p.append("'deal.vowels': expected the vowel letters when first_deal_min_vowels > 0, got ''")
                if is_whole(rack_size) and sum(mins) > rack_size:
                    p.append(f"'deal': expected first_deal_min_vowels + first_deal_min_consonants <= rack_size "
                             f"({rack_size}), got {sum(mins)}")
    return p


@functools.lru_cache(maxsize=None)
def _preset_data(name: str) -> dict[str, Any]:
    """The parsed file of a packaged rule set (``name`` checked by the caller); never
    handed out: :func:`_toml_copy` it."""
    return tomllib.loads(resources.files("wordsalvo.rulesets").joinpath(f"{name}.toml").read_text("utf-8"))


def _toml_copy(value: Any) -> Any:
    """A deep copy of parsed TOML: its tables and arrays are new, its scalars (strings,
    numbers, booleans, dates) immutable and shared.  Several times faster than
    copy.deepcopy on a rule set."""
    if isinstance(value, dict):
        return {k: _toml_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_toml_copy(v) for v in value]
    return value


def preset_names() -> list[str]:
    """The names of the packaged rule sets (a new list each call; the folder is read once)."""
    return list(_preset_names())


@functools.lru_cache(maxsize=1)
def _preset_names() -> tuple[str, ...]:
    return tuple(sorted(
        p.name[:-5] for p in resources.files("wordsalvo.rulesets").iterdir() if p.name.endswith(".toml")
    ))

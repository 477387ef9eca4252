"""What the service computes with: rule sets, lexicons and leave tables loaded once per
process, a move generator per engine thread, and the conversions between requests and
the library's objects.

Everything here is plain Python over the public API (no web framework): the app in
:mod:`wordsalvo.serve.app` calls these functions in its engine threads.  A
:class:`~wordsalvo.MoveGenerator` refuses to be shared between threads, so each thread
keeps its own (``threading.local``); lexicons are memory-mapped and leave tables
read-only, so they are shared by every thread of a process and, through the page
cache, by every process that maps the same file.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from ..errors import GameError, PositionError, ServeRequestError as RequestError
from ..formats.cgp import parse_cgp
from ..formats.gcg import from_gcg
from ..formats.gcg_record import GCGRecord, parse_gcg, resolve_record
from ..formats.opcodes import resolve_rules
from ..game import Game
from ..inputs import excerpt
from ..leaves import Leaves
from ..lexicon import Lexicon
from ..movegen import MoveGenerator
from ..moves import Move
from ..position import Position
from ..rules import Rules, preset_names
from .config import ServeConfig

__all__ = ["Engines", "move_dict", "board_cgp"]


class Engines:
    """The loaded resources of one process, for one configuration."""

    def __init__(self, config: ServeConfig):
        self.config = config
        self._local = threading.local()
        self._lock = threading.Lock()
        self._lexicons: dict[str, Lexicon] = {}
        for key, path in config.lexicons.items():  # a bad path fails at start, not at the first request
            self._lexicons[key] = Lexicon.load(path)

    # -- resources ----------------------------------------------------------------------
    def rules(self, name: str | None, board_seed: int | None = None, stars: str | None = None) -> Rules:
        if name is not None and name not in preset_names():
            raise RequestError(f"rules: expected one of {', '.join(preset_names())}, got {excerpt(name)}")
        return _rules(name or "classic-en", board_seed, stars)

    def lexicon(self, key: str | None, rules: Rules) -> Lexicon:
        if key is None:
            return Lexicon.default(rules.alphabet.name)  # loaded once a process by the library
        lex = self._lexicons.get(key)
        if lex is None:
            known = ", ".join(sorted(self._lexicons)) or "none configured"
            raise RequestError(f"lexicon: expected one of the service's lexicons ({known}) or none "
                               f"(the embedded lexicon of the rule set), got {excerpt(key)}")
        if tuple(lex.alphabet.letters) != tuple(rules.alphabet.letters):
            raise RequestError(f"lexicon {key!r} (alphabet {lex.alphabet.name!r}) does not fit rule set "
                               f"{rules.name!r} (alphabet {rules.alphabet.name!r})")
        return lex

    def lexicon_names(self) -> list[str]:
        return sorted(self._lexicons)

    def generator(self, lexicon: Lexicon, rules: Rules, equity: bool) -> MoveGenerator:
        """This thread's generator for (lexicon, rules, equity or not)."""
        gens = getattr(self._local, "gens", None)
        if gens is None:
            gens = self._local.gens = {}
        key = (id(lexicon), rules.name, rules.layout, tuple(rules.star_squares), equity)
        gen = gens.get(key)
        if gen is None:
            if len(gens) > 64:  # random boards: keep a thread's working memory bounded
                gens.clear()
            gen = gens[key] = MoveGenerator(lexicon, rules, leaves=_leaves(rules.name) if equity else None)
        return gen

    # -- requests -----------------------------------------------------------------------
    def position(self, req: Any) -> tuple[Position, Lexicon]:
        """The position of a request: ``cgp`` or ``board`` + ``rack`` (+ ``scores``...)."""
        rules = self.rules(req.rules, req.board_seed, req.stars)
        if req.cgp is not None:
            if req.board is not None:
                raise PositionError("position: expected cgp or board, got both")
            # no rules given: the CGP's own rs opcode names them (else classic-en), as the CLI reads it
            given = req.rules is not None or req.board_seed is not None or req.stars is not None
            pos = parse_cgp(req.cgp, rules=rules if given else None)
        elif req.board is not None:
            if req.rack is not None and req.racks is not None:
                raise PositionError("position: expected rack (the rack on turn) or racks (every player's), got both")
            pos = parse_cgp(board_cgp(req.board, req.racks or [req.rack or ""], req.scores, req.scoreless),
                            rules=rules)
        else:
            raise PositionError("position: expected cgp (a CGP line) or board (15 rows of 15 squares)")
        if req.rack is not None and req.cgp is not None:
            pos = pos.with_rack(req.rack)
        return pos, self.lexicon(req.lexicon, pos.rules)

    def record(self, gcg: str, lexicon_key: str | None) -> tuple[GCGRecord, Lexicon | None]:
        """A GCG record within the service's limits, and the lexicon the request names
        (None: the record's own)."""
        record = parse_gcg(gcg)
        if len(record.events) > self.config.events:
            raise RequestError(f"gcg: expected at most {self.config.events:,} event lines (the service's "
                               f"limits.events), got {len(record.events):,}")
        if lexicon_key is None:
            return record, None
        rules, _lexicon, _assumed = resolve_record(record)
        return record, self.lexicon(lexicon_key, rules)

    def game(self, gcg: str, lexicon_key: str | None, rack: str | None = None) -> Game:
        """A game replayed from its record (the rack on turn set when given)."""
        record, lexicon = self.record(gcg, lexicon_key)
        game = from_gcg(record, lexicon=lexicon)
        if rack is not None:
            if game.is_over:
                raise GameError("rack: the game is over, there is no rack on turn to set")
            game.set_rack(game.to_move, rack)
        return game


@lru_cache(maxsize=256)
def _rules(name: str, board_seed: int | None, stars: str | None) -> Rules:
    return resolve_rules(name, board_seed=board_seed, stars=stars, where="rules")


@lru_cache(maxsize=None)
def _leaves(rules_name: str) -> Leaves:
    return Leaves.default(Rules.preset(rules_name))


def board_cgp(rows: list[str], racks: list[str], scores: list[int] | None, scoreless: int) -> str:
    """A CGP line of a JSON board: 15 rows of 15 squares, ``.`` empty, a letter a tile,
    a lowercase letter a blank."""
    if len(rows) != 15:
        raise PositionError(f"board: expected 15 rows, got {len(rows)}")
    out = []
    for i, row in enumerate(rows):
        if len(row) != 15:
            raise PositionError(f"board row {i + 1}: expected 15 squares ('.' for an empty one), got "
                                f"{len(row)}: {excerpt(row)}")
        if any(ch.isspace() or ch.isdigit() or ch in "/[]" for ch in row):
            raise PositionError(f"board row {i + 1}: expected letters and '.', got {excerpt(row)}")
        text, empty = "", 0
        for ch in row:
            if ch == ".":
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += ch
        out.append(text + (str(empty) if empty else ""))
    for r in racks:
        if any(ch.isspace() or ch == "/" for ch in r):
            raise PositionError(f"racks: expected letters and '?', got {excerpt(r)}")
    if scores is None:
        scores = [0] * max(2, len(racks))
    racks = list(racks) + [""] * (len(scores) - len(racks))
    return f"{'/'.join(out)} {'/'.join(racks)} {'/'.join(map(str, scores))} {scoreless}"


def move_dict(move: Move) -> dict[str, Any]:
    """A move as JSON: notation, score, equity (when known), leave, words, tiles played."""
    d: dict[str, Any] = {"notation": move.notation, "score": move.score, "tiles_played": move.tiles_played,
                         "bingo": move.is_bingo, "words": list(move.formed_words())}
    if move.equity is not None:
        d["equity"] = round(float(move.equity), 3)
    if move.leave is not None:
        d["leave"] = move.leave
    return d

"""Replay analysis of a game: every turn scored against the engine's best.

:func:`analyze_game` replays a game (a :class:`~wordsalvo.Game` or its GCG text)
on a board of its own, turn by turn.  For each turn it looks at the position
before the turn with the rack of the player on turn, generates every legal tile
placement once (one :class:`~wordsalvo.MoveGenerator` for the whole game, so
only the lanes a play changed are recomputed) and records:

* ``best``: the ``top`` best placements by score, best first, in the fixed tie
  order of :meth:`MoveList.sorted` (the same moves ``MoveGenerator.best(pos,
  n=top)`` returns);
* ``best_score`` (None when no placement is legal) and ``legal_moves``;
* for a play: ``rank`` = 1 + the number of legal moves that score MORE than the
  played move (ties share a rank, 1 = best), ``is_best`` (the played score
  equals ``best_score``) and ``points_missed = best_score - score``;
* for a turn that places no tile (``pass``, ``swap``, ``timeout``,
  ``refused-play``): ``scoring_play_available`` and ``points_missed =
  best_score`` (the turn scores 0); ``rank`` and ``is_best`` stay None;
* ``bingo_available`` (some legal placement uses ``rules.rack_size`` tiles) and
  ``bingo_missed`` (one was available and the turn did not play a bingo);
* ``words``: every word a play formed, main word first (the Word Book).

Flags, from the full move list (never from ``top``, so they do not depend on it):

* ``brilliancy``: the play is the best AND either a bingo or at least
  :data:`BRILLIANCY_MARGIN` points above the second-best legal move (the second
  entry of the sorted list, which may tie the best: then the margin is 0);
* ``missed``: ``points_missed >= MISSED_THRESHOLD``;
* ``turning_point``: after this turn one player leads alone and it is not the
  player who last led alone (a tie holds no lead; the first lead of the game is
  no change of hands).  Settlement entries count too: a game can turn on them.

``resign`` and ``settle`` entries are listed with their scores but not analysed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .board import Board
from .errors import WordSalvoError
from .formats.gcg import from_gcg
from .game import Game
from .lexicon import Lexicon
from .movegen import MoveGenerator
from .position import Position

__all__ = [
    "AnalysisError", "RankedMove", "TurnAnalysis", "PlayerSummary", "GameAnalysis", "analyze_game",
    "BRILLIANCY_MARGIN", "MISSED_THRESHOLD", "ANALYSED_KINDS",
]

#: a best play this many points above the second-best legal move is a brilliancy
BRILLIANCY_MARGIN = 20
#: a turn that misses this many points (or more) against the best is flagged ``missed``
MISSED_THRESHOLD = 20
#: history kinds that are analysed against the engine's best (the player was on turn with a rack)
ANALYSED_KINDS = ("play", "pass", "swap", "timeout", "refused-play")


class AnalysisError(WordSalvoError):
    """A game that cannot be analysed (wrong input type, a turn that does not replay)."""


@dataclass(frozen=True)
class RankedMove:
    """One of the engine's best moves of a turn."""

    notation: str
    score: int
    tiles_played: int
    is_bingo: bool

    def __str__(self) -> str:
        return f"{self.notation} {self.score}"


@dataclass(frozen=True)
class TurnAnalysis:
    """One entry of the game's history with its analysis (see the module docstring)."""

    index: int  #: 0-based index in ``Game.history``
    player: int
    name: str
    kind: str  #: a :data:`~wordsalvo.game.TURN_KINDS` value
    rack: str  #: the rack before the turn (``settle``: the rack counted)
    notation: str  #: ``play`` / ``refused-play``: the move; else ""
    tiles: str  #: ``swap``: the tiles put back; ``settle``: the rack letters counted
    score: int  #: what the entry added to the player's score
    scores_after: tuple[int, ...]  #: every player's score after the entry
    words: tuple[str, ...] = ()  #: ``play``: every word formed, main word first
    is_bingo: bool = False  #: ``play``: all ``rack_size`` tiles were placed
    analysed: bool = False  #: kind in :data:`ANALYSED_KINDS`
    best: tuple[RankedMove, ...] = ()
    best_score: int | None = None  #: None: no legal placement (or not analysed)
    legal_moves: int | None = None
    rank: int | None = None  #: ``play`` only
    is_best: bool | None = None  #: ``play`` only
    points_missed: int | None = None  #: analysed turns
    scoring_play_available: bool | None = None  #: analysed turns: a placement scoring > 0 existed
    bingo_available: bool | None = None
    bingo_missed: bool | None = None
    brilliancy: bool = False
    missed: bool = False
    turning_point: bool = False

    @property
    def flags(self) -> tuple[str, ...]:
        return tuple(f for f in ("brilliancy", "missed", "turning_point", "bingo_missed") if getattr(self, f))

    def action(self) -> str:
        """The turn as a player sees it: ``8G FIZ``, ``swap AEI``, ``pass``, ``(BLNTV)``."""
        if self.kind == "play":
            return self.notation
        if self.kind == "swap":
            return f"swap {self.tiles}"
        if self.kind == "refused-play":
            return f"refused {self.notation}"
        if self.kind == "settle":
            return f"({self.tiles})"
        return self.kind

    def __str__(self) -> str:
        text = f"{self.index + 1}. {self.name}: {self.action()} {self.score:+d}"
        if self.analysed:
            best = f"best {self.best[0]}" if self.best else "no legal placement"
            rank = f", rank {self.rank}" if self.rank is not None else ""
            text += f" ({best}, missed {self.points_missed}{rank})"
        if self.flags:
            text += " [" + ", ".join(self.flags) + "]"
        return text


@dataclass(frozen=True)
class PlayerSummary:
    """One player's totals over the game."""

    player: int
    name: str
    final_score: int  #: the game's score, settlements included
    points_scored: int  #: the sum of the player's play scores (settlements excluded)
    points_missed: int  #: the sum of ``points_missed`` over the player's analysed turns
    plays: int
    best_moves: int  #: plays with ``is_best``
    bingos_played: int
    bingos_missed: int
    brilliancies: int
    misses: int  #: turns flagged ``missed``
    words: tuple[str, ...] = ()  #: the Word Book: every word formed, in the order played

    def __str__(self) -> str:
        return (f"{self.name}: {self.final_score} ({self.points_scored} from plays), missed {self.points_missed}, "
                f"best {self.best_moves}/{self.plays}, bingos {self.bingos_played} played / "
                f"{self.bingos_missed} missed, {self.brilliancies} brilliancies")


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a whole game: one :class:`TurnAnalysis` per history entry and
    one :class:`PlayerSummary` per player."""

    rules: str
    names: tuple[str, ...]
    top: int
    end_reason: str | None
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]
    thresholds: dict[str, int] = field(default_factory=lambda: {
        "brilliancy_margin": BRILLIANCY_MARGIN, "missed_threshold": MISSED_THRESHOLD})

    @property
    def word_book(self) -> dict[str, tuple[str, ...]]:
        """{player name: every word the player formed, in the order played}."""
        return {p.name: p.words for p in self.players}

    def summary(self) -> str:
        """One line per player, then the flagged turns."""
        lines = [str(p) for p in self.players]
        flagged = [t for t in self.turns if t.flags]
        if flagged:
            lines.append("flagged turns:")
            lines += [f"  {t}" for t in flagged]
        return "\n".join(lines)

    def table(self) -> str:
        """A fixed-width table, one row per history entry, then the per-player summary."""
        width = max([6] + [len(n) for n in self.names])
        head = (f"{'#':>3}  {'player':<{width}}  {'rack':<7}  {'move':<22} {'score':>5}  {'best':<22} "
                f"{'best':>4} {'missed':>6} {'rank':>5}  flags")
        rows = [head]
        for t in self.turns:
            best = t.best[0] if t.best else None
            rows.append(
                f"{t.index + 1:>3}  {t.name:<{width}}  {t.rack:<7}  {t.action():<22} {t.score:>+5d}  "
                f"{(best.notation if best else ('-' if t.analysed else '')):<22} "
                f"{'' if t.best_score is None else t.best_score:>4} "
                f"{'' if t.points_missed is None else t.points_missed:>6} "
                f"{'' if t.rank is None else t.rank:>5}  {' '.join(t.flags)}".rstrip())
        return "\n".join(rows)

    def __str__(self) -> str:
        scores = "/".join(map(str, self.final_scores))
        return (f"analysis of a {self.rules} game ({', '.join(self.names)}), {len(self.turns)} entries, "
                f"final {scores}, end: {self.end_reason}\n{self.table()}\n\n{self.summary()}")

    # -- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain lists, dicts, strings, numbers, booleans and None (``json.dumps`` ready).
        ``word_book`` is included for convenience; :meth:`from_dict` ignores it."""
        out = _plain({f.name: getattr(self, f.name) for f in fields(self)})
        out["turns"] = [_plain(_fields(t)) for t in self.turns]
        out["players"] = [_plain(_fields(p)) for p in self.players]
        out["word_book"] = _plain(self.word_book)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameAnalysis":
        """The analysis :meth:`to_dict` wrote (e.g. after a JSON round trip)."""
        try:
            turns = tuple(
                TurnAnalysis(**{**t, "scores_after": tuple(t["scores_after"]), "words": tuple(t["words"]),
                                "best": tuple(RankedMove(**m) for m in t["best"])})
                for t in data["turns"])
            players = tuple(PlayerSummary(**{**p, "words": tuple(p["words"])}) for p in data["players"])
            return cls(data["rules"], tuple(data["names"]), data["top"], data["end_reason"],
                       tuple(data["final_scores"]), tuple(data["winners"]), turns, players,
                       dict(data["thresholds"]))
        except (KeyError, TypeError) as e:
            raise AnalysisError(f"expected a dict written by GameAnalysis.to_dict(), got one that fails with "
                                f"{type(e).__name__}: {e}") from None


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def _plain(value: Any) -> Any:
    if isinstance(value, RankedMove):
        return _plain(_fields(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (TurnAnalysis, PlayerSummary)):
        return _plain(_fields(value))
    if isinstance(value, np.integer):
        return int(value)
    return value


def analyze_game(game_or_gcg_text: Any, lexicon: Lexicon | None = None, top: int = 3) -> GameAnalysis:
    """Analyse a game, a :class:`~wordsalvo.Game` or GCG text (read with
    :func:`~wordsalvo.formats.gcg.from_gcg`), turn by turn.

    ``lexicon``: the lexicon to judge against (default: the game's; for GCG text it
    is also the one the record is replayed with).  ``top``: how many of the engine's
    best moves to keep per turn.  The game need not be over: the turns so far are
    analysed.  Raises :class:`AnalysisError` (or the GCG reader's ``GCGError``).
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise AnalysisError(f"top: expected a whole number >= 1, got {top!r}")
    if isinstance(game_or_gcg_text, str):
        game = from_gcg(game_or_gcg_text, lexicon=lexicon)
    elif isinstance(game_or_gcg_text, Game):
        game = game_or_gcg_text
    else:
        raise AnalysisError(f"expected a Game or GCG text, got {type(game_or_gcg_text).__name__}")
    rules = game.rules
    lexicon = lexicon if lexicon is not None else game.lexicon
    gen = MoveGenerator(lexicon, rules)
    n = len(game.names)
    board = Board(rules.alphabet)
    scores = [0] * n
    leader: int | None = None  # the player who last led alone
    turns: list[TurnAnalysis] = []
    for index, turn in enumerate(game.history):
        info: dict[str, Any] = {}
        if turn.kind in ANALYSED_KINDS:
            order = [(turn.player + k) % n for k in range(n)]
            pos = Position(rules, board.copy(), [turn.rack] + [""] * (n - 1), [scores[i] for i in order])
            info = _analyse_turn(gen, pos, turn, index, game.names[turn.player], top)
            if turn.kind == "play":
                pos.play(info.pop("_move"))  # the one way a move changes a board
                board = pos.board
        scores[turn.player] = turn.total
        ahead = _sole_leader(scores)
        turning_point = ahead is not None and leader is not None and ahead != leader
        if ahead is not None:
            leader = ahead
        turns.append(TurnAnalysis(
            index=index, player=turn.player, name=game.names[turn.player], kind=turn.kind, rack=turn.rack,
            notation=turn.notation, tiles=turn.tiles, score=turn.score, scores_after=tuple(scores),
            analysed=turn.kind in ANALYSED_KINDS, turning_point=turning_point, **info))
    if scores != game.scores:  # pragma: no cover - the history's totals are the scores
        raise AnalysisError(f"replay: expected final scores {game.scores}, got {scores} from the history")
    players = tuple(_summarise(p, game.names[p], game.scores[p], [t for t in turns if t.player == p])
                    for p in range(n))
    return GameAnalysis(rules.name, tuple(game.names), top, game.end_reason, tuple(game.scores),
                        tuple(game.winners), tuple(turns), players)


def _sole_leader(scores: list[int]) -> int | None:
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


def _analyse_turn(gen: MoveGenerator, pos: Position, turn: Any, index: int, name: str, top: int) -> dict[str, Any]:
    rack_size = gen.rules.rack_size
    moves = gen.generate(pos)
    records = moves.to_numpy()
    # best(top) of the full list = MoveGenerator.best(pos, n=top), without a second search
    best = tuple(RankedMove(m.notation, int(m.score), m.tiles_played, m.tiles_played == rack_size)
                 for m in moves.best(top))
    all_scores = np.sort(moves.scores.astype(np.int64))[::-1]
    best_score = int(all_scores[0]) if len(all_scores) else None
    second = int(all_scores[1]) if len(all_scores) > 1 else None
    bingo_available = bool((records["tiles_played"] == rack_size).any())
    info: dict[str, Any] = {
        "best": best, "best_score": best_score, "legal_moves": len(moves),
        "scoring_play_available": best_score is not None and best_score > 0,
        "bingo_available": bingo_available,
    }
    if turn.kind != "play":
        missed = best_score or 0
        info.update(points_missed=missed, bingo_missed=bingo_available, missed=missed >= MISSED_THRESHOLD)
        return info
    where = f"turn {index + 1} ({name}: {turn.notation})"
    try:
        move = gen.validate(pos, turn.notation)
    except WordSalvoError as e:
        raise AnalysisError(f"{where}: expected a legal play with the analysis lexicon, got: {e}") from None
    if move.score != turn.score:
        raise AnalysisError(f"{where}: expected the recorded score {turn.score}, the replay scores {move.score}")
    if best_score is None or move.score > best_score:
        raise AnalysisError(f"{where}: expected the play among the generator's legal moves, got a score of "
                            f"{move.score} against a best of {best_score}")
    is_bingo = move.tiles_played == rack_size
    is_best = move.score == best_score
    missed = best_score - move.score
    info.update(
        _move=move,
        words=tuple(w.word for w in move.words or ()),
        is_bingo=is_bingo,
        rank=int((moves.scores > move.score).sum()) + 1,
        is_best=is_best,
        points_missed=missed,
        bingo_missed=bingo_available and not is_bingo,
        brilliancy=is_best and (is_bingo or (second is not None and best_score - second >= BRILLIANCY_MARGIN)),
        missed=missed >= MISSED_THRESHOLD,
    )
    return info


def _summarise(player: int, name: str, final_score: int, turns: list[TurnAnalysis]) -> PlayerSummary:
    plays = [t for t in turns if t.kind == "play"]
    analysed = [t for t in turns if t.analysed]
    return PlayerSummary(
        player=player, name=name, final_score=final_score,
        points_scored=sum(t.score for t in plays),
        points_missed=sum(t.points_missed or 0 for t in analysed),
        plays=len(plays),
        best_moves=sum(1 for t in plays if t.is_best),
        bingos_played=sum(1 for t in plays if t.is_bingo),
        bingos_missed=sum(1 for t in analysed if t.bingo_missed),
        brilliancies=sum(1 for t in turns if t.brilliancy),
        misses=sum(1 for t in turns if t.missed),
        words=tuple(w for t in plays for w in t.words),
    )

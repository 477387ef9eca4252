"""Analysis of a game by equity and win probability, turn by turn, with coach notes.

:func:`analyze_game` reads a game (a :class:`~wordsalvo.Game`, GCG text or bytes
written by any program, a :class:`~wordsalvo.formats.gcg_record.GCGRecord` or a
:class:`~wordsalvo.formats.replay.Replay`), replays it
(:mod:`wordsalvo.formats.replay`) and, for every turn the player had a rack
(play, swap, pass, time-out), generates every legal play once with a leave
table (one :class:`~wordsalvo.MoveGenerator` for the game) plus the best
swap (:meth:`MoveGenerator.best_swap`).

Terms
-----
* **equity** of a candidate: its score plus the value of the tiles kept
  (:mod:`wordsalvo.leaves`; with an empty bag the settlement terms).  A swap
  scores 0, so its equity is the value of its leave; a pass or time-out keeps
  the whole rack (valued as its best leave of ``rack_size - 1`` tiles).  A phony that is not among the legal plays gets score + leave
  value the same way.
* **win chance** (``win_before``; two-player games only: the models are fitted on
  two-player self-play, so a game of 3 or 4 players is judged by equity alone and
  :attr:`GameAnalysis.win_note` says why): the win-probability model
  (:class:`~wordsalvo.engine.winprob.WinModel`, P(win | spread, tiles unseen) of the
  player on turn).  ``win_after`` of a candidate is the mover's chance once it is
  played: ``1 - P(next player wins | spread = -(spread + score + leave value),
  tiles the next player cannot see)``.  The leave value counts as points, so a
  fishing swap that keeps a great leave is credited for it.
* ``win_best``: the mover's win chance after the best candidate by equity (the
  engine's move), beside ``win_after`` of the move played: what the player could act
  on.  ``win_before`` is the model's chance for an AVERAGE rack in the position, so
  ``win_best - win_before`` is what the rack itself was worth; ``poor_rack`` when even
  the best move leaves at least :data:`POOR_RACK` less than that.
* ``partial_rack``: the record's rack is shorter than a full rack while the bag still
  had tiles (a program that writes only the tiles played): the rest of the rack is
  not known, so a play is judged by its SCORE among the plays of the tiles listed
  (no leave, no win chance, no "poor rack") and its note says so; a swap or pass of
  such a rack is not judged.
* ``equity_lost`` = best candidate's equity - the played move's (>= 0);
  ``win_lost`` = ``win_best`` - the played move's ``win_after`` (>= 0): the best move
  loses nothing, a mistake shows what it cost;
  ``rank``: 1 + the number of candidates whose equity is higher than the played
  move's (ties share a rank).
* ``alternatives``: the :data:`TOP` (or ``top=``) best candidates by equity, each
  ``(notation, score, equity, win_after)``; the best swap is shown as
  ``-TILES``.

Flags
-----
* **missed**: ``equity_lost >= MISSED_EQUITY`` or ``win_lost >= MISSED_WIN``.
  A swap (or a pass) is judged like any move: a swap whose kept tiles are
  worth about as much as the best play is NOT a miss.
* **brilliancy**: a play that is best by equity (``equity_lost`` below 0.01),
  stands in the lexicon, is NOT the top-scoring play (a bingo that was simply the
  highest score, which every engine and most players find, is not a brilliancy)
  and clearly gains in win chance over every alternative: the next-best candidate
  leaves a win chance at least :data:`BRILLIANCY_WIN` lower.  (Without a win model:
  the next-best candidate is at least :data:`BRILLIANCY_MARGIN` equity behind.)  So
  no move of a decided game is brilliant, however far its equity stands out.
* **phony**: a play with a word not in the lexicon (it stood, unless
  ``challenged_off``).
* **turning points**: the at most :data:`TURNING_POINTS` turns with the largest
  win-probability swing ``|win_after - win_before|`` of the mover, among swings
  of at least :data:`TURNING_MIN` (a calibrated model makes the swing zero on
  average, so only the real tilts pass).  Not every change of lead is one.
* **decisive moment**: of the turns with a win chance, the one with the largest
  swing TOWARDS the eventual winner (the winner's gain on their own turn, the
  loser's loss on theirs); None for a tie or a game without a winner.

Simulation (``sim=SECONDS``)
----------------------------
Every judged turn whose move is within :data:`SIM_MARGIN` equity of the best is
judged again by simulation (:mod:`wordsalvo.engine.simulation`): the
alternatives and the move played are each played on :data:`SIM_PLIES` turns with
random racks for the opponent, for ``SECONDS`` per turn with best-arm
identification.  Then ``sim_candidates`` holds the simulated candidates best
first (notation, mean equity, its standard error, mean win chance, iterations),
``sim_equity_lost`` / ``sim_win_lost`` / ``sim_rank`` the played move against the
simulation's best, and the verdict follows the simulation: **missed** when it lost
:data:`MISSED_EQUITY` equity or :data:`MISSED_WIN` win chance there, a
**brilliancy** only if the simulation ranks it first.  Such a turn is marked
``simulated`` (a badge) and its note says what the simulation found.

Endgame (``endgame=NODES``, on by default)
--------------------------------------------
In a two-player game, every play and pass made with the bag empty (both racks
known) is judged by the endgame solver (:mod:`wordsalvo.engine.endgame`), searching at
most ``NODES`` positions (:data:`ENDGAME_NODES`) per solve: a budget of work, not a
clock, so a record gets the same verdicts on any machine at any load (the report
states the budget); a turn whose values are not both proven within that keeps its
static verdict.  ``endgame_best`` is the final
spread for the player under best play by both, ``endgame_played`` the final spread
after the move played (best play by both afterwards), ``endgame_line`` the first
two turns of the best line (``endgame_exact``: True).  The
verdict follows the solver (**missed** from :data:`MISSED_EQUITY` points of final
spread lost, never a brilliancy) and a sentence of the note says it: "Endgame
solved: best line A then B: +14; C played: -6 (20 points of final spread
lost)."  Such turns are not simulated.

Pre-endgame (``pre_endgame=NODES``, on by default)
-------------------------------------------------
In a two-player game, every play and pass made with 1-4 tiles in the bag is judged
by the pre-endgame solver (:mod:`wordsalvo.engine.pre_endgame`): the best
:data:`PEG_TOP` plays by equity, the move played and the pass, valued over every
draw of the unseen tiles, within ``NODES`` (:data:`PEG_NODES`) turns of endgame
search (a node budget: the same verdict on every machine).  ``peg_best`` is the best
candidate, ``peg_best_win`` / ``peg_played_win`` the win chances of the best and of
the move played, ``peg_best_spread`` / ``peg_played_spread`` their mean final
spreads.  The verdict follows it (**missed** from :data:`MISSED_WIN` of win chance
or :data:`MISSED_EQUITY` points of mean spread lost, never a brilliancy), the note
says it, and such turns are not simulated.

Coach notes: one sentence per entry (:func:`coach_note`) about the entry's player by
name (the second person for the default name ``You``), e.g. "Ann kept ?ERS and scored
24; 8B ANESTRI for 66 was a bingo (win chance 38 %; 61 % after the best move)."; a
second sentence when the rack was poor ("The rack itself was poor: even the best move
leaves 29 %, where an average rack would have had 42 %.").

Winners: a player who left the game (resigned, lost on time; :func:`departed_players`)
loses whatever the score, as in :class:`~wordsalvo.Game` and the ratings; the best
score among the others wins.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .inputs import number_arg, whole_arg
from .printable import printable
from .constants import BLANK_BIT, LETTER_MASK, SQUARES
from .display import Displayable
from .errors import AnalysisError, WordSalvoError
from .formats.gcg import game_record
from .formats.gcg_record import GCGRecord
from .formats.gcg_visitor import read_gcg
from .formats.replay import Replay, ReplayBuilder, ReplayTurn
from .game import Game
from .leaves import Leaves, endgame_terms
from .lexicon.lexicon import Lexicon
from .movegen import MoveGenerator
from .rules import Rules
from .wording import YOU, possessive, verb
from .engine.winprob import WinModel

__all__ = [
    "AnalysisError", "Candidate", "TurnAnalysis", "GameAnalysis", "analyze_game", "coach_note",
    "MISSED_EQUITY", "MISSED_WIN", "BRILLIANCY_MARGIN", "BRILLIANCY_WIN", "POOR_RACK", "TURNING_POINTS",
    "TURNING_MIN", "TOP", "SimCandidate", "SIM_MARGIN", "SIM_PLIES", "ENDGAME_NODES",
]

#: equity lost (points) from which a turn is flagged missed
MISSED_EQUITY = 15.0
#: win chance lost (0..1) from which a turn is flagged missed
MISSED_WIN = 0.05
#: without a win model: the next-best candidate at least this much equity behind makes a best play stand out
BRILLIANCY_MARGIN = 10.0
#: a brilliancy leaves every other candidate at least this much win chance behind
BRILLIANCY_WIN = 0.05
#: the rack was poor when even the best move leaves this much less win chance than an average rack
POOR_RACK = 0.10
#: at most this many turning points per game
TURNING_POINTS = 3
#: a swing of at least this win chance can be a turning point
TURNING_MIN = 0.10
#: alternatives kept per turn by default
TOP = 5
#: why a game of more than two players has no win chances
MULTIPLAYER_NOTE = ("No win chances in a game of {n} players: the win models are fitted on two-player games, "
                    "and with more players a chance depends on every opponent's score and rack, which the "
                    "model cannot see; the moves are judged by equity alone.")
#: positions the endgame solver may search per solve when the analysis judges a turn with the bag
#: empty: a budget of work, not a clock, so a record gets the same verdicts on any machine at any load
#: (as expert's EXPERT_ENDGAME_NODES); the report states it
ENDGAME_NODES = 100_000
#: the most positions a solve may be given
ENDGAME_NODES_MAX = 1_000_000_000
#: turns of endgame search the pre-endgame solver may take per turn judged with 1-4 tiles in the bag,
#: the plays by equity it values besides the move played and the pass, and its stages (the greedy
#: playout of every draw, then every candidate's endgames solved within 20,000 turns each)
PEG_NODES = 100_000
PEG_TOP = 4
PEG_SCHEDULE = ((None, -1), (None, 20_000))
#: with ``sim``: turns within this much equity of the best move are judged again by simulation
SIM_MARGIN = 15.0
#: with ``sim``: turns played after each candidate
SIM_PLIES = 2
#: the entries the engine looks at (the player had a rack and a choice)
ANALYSED = ("play", "swap", "pass", "timeout")


@dataclass(frozen=True)
class Candidate:
    """One of the engine's best candidates of a turn."""

    notation: str  #: a play in notation, or ``-TILES`` for a swap
    score: int
    equity: float
    win: float | None  #: the mover's win chance after it
    bingo: bool = False

    def as_list(self) -> list:
        return [self.notation, self.score, round(self.equity, 2), None if self.win is None else round(self.win, 4)]


@dataclass(frozen=True)
class SimCandidate:
    """A candidate of a turn judged by simulation."""

    notation: str  #: a play in notation, ``-TILES`` for a swap, ``pass``
    equity: float | None  #: mean equity over the iterations (None: none finished)
    stderr: float | None
    win: float | None  #: the mover's mean win chance (None without a model)
    iterations: int

    def as_list(self) -> list:
        return [self.notation, _rounded(self.equity, 2), _rounded(self.stderr, 2), _rounded(self.win, 4),
                self.iterations]


def _rounded(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


@dataclass(frozen=True)
class TurnAnalysis:
    """One entry of the record with its analysis (see the module docstring)."""

    index: int
    line: int  #: the record's line
    player: int
    name: str
    kind: str  #: play, swap, pass, timeout, phony-removed, challenge-bonus, time-penalty, end-rack, resign
    rack: str
    notation: str  #: play: the move; swap: ``-TILES``; end-rack: ``(TILES)``; else ""
    score: int
    totals: tuple[int, ...]
    words: tuple[str, ...] = ()
    tiles: tuple[tuple[int, int, str, bool], ...] = ()  #: new tiles: row, col, letter, is_blank
    board: str = ""  #: the board after the entry, 225 characters ('.' empty, lowercase blank)
    bingo: bool = False
    phony: tuple[str, ...] = ()  #: words not in the lexicon
    challenged_off: bool = False
    leave: str | None = None  #: the tiles kept (play/swap/pass)
    equity: float | None = None
    best_equity: float | None = None
    equity_lost: float | None = None
    win_before: float | None = None  #: the model's chance for an average rack in the position
    win_after: float | None = None  #: after the move played
    win_best: float | None = None  #: after the best move by equity
    win_lost: float | None = None
    poor_rack: bool = False  #: even the best move leaves POOR_RACK less than an average rack
    #: the record lists fewer tiles than a full rack while the bag still had tiles (only the
    #: tiles played, as some programs write it): judged by score alone, not by leave
    partial_rack: bool = False
    rank: int | None = None
    candidates: int | None = None  #: legal plays + swaps considered
    alternatives: tuple[Candidate, ...] = ()
    brilliancy: bool = False
    missed: bool = False
    turning_point: bool = False
    decisive: bool = False
    note: str = ""
    record_note: str = ""  #: the record's own #note after the entry
    simulated: bool = False  #: the verdict came from a simulation (see the module docstring)
    sim_equity_lost: float | None = None
    sim_win_lost: float | None = None
    sim_rank: int | None = None
    sim_iterations: int | None = None  #: iterations of the simulation's best candidate
    sim_candidates: tuple[SimCandidate, ...] = ()
    #: with the bag empty (two players): the endgame solver's final spread for the player
    #: after best play, after the move played (best play on both sides then), its best
    #: line (first two turns) and whether both values are proven
    endgame_best: int | None = None
    endgame_played: int | None = None
    endgame_line: tuple[str, ...] = ()
    endgame_exact: bool | None = None
    #: with 1-4 tiles in the bag (two players): the pre-endgame solver's best candidate, the
    #: win chances and mean final spreads of it and of the move played
    peg_best: str | None = None
    peg_best_win: float | None = None
    peg_played_win: float | None = None
    peg_best_spread: float | None = None
    peg_played_spread: float | None = None

    @property
    def badges(self) -> tuple[str, ...]:
        out = [b for b, on in (("brilliancy", self.brilliancy), ("missed", self.missed),
                               ("turning-point", self.turning_point), ("decisive", self.decisive),
                               ("phony", bool(self.phony)), ("bingo", self.bingo),
                               ("simulated", self.simulated)) if on]
        return tuple(out)

    def __str__(self) -> str:
        text = f"{self.index + 1}. {self.name}: {self.notation or self.kind} {self.score:+d}"
        if self.equity_lost is not None:
            text += f" (equity lost {self.equity_lost:.1f}, rank {self.rank})"
        if self.badges:
            text += " [" + ", ".join(self.badges) + "]"
        return text


@dataclass(frozen=True)
class GameAnalysis(Displayable):
    """The analysis of a whole game (in a notebook: a table of the turns in the order
    played, with the notes; :mod:`wordsalvo.render.notebook`)."""

    _display_kind = "GameAnalysis"

    rules: str
    lexicon: str  #: the lexicon judged with (file, word count; the record's #lexicon if any)
    names: tuple[str, ...]
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]
    unfinished: bool
    assumed_rules: str | None
    turns: tuple[TurnAnalysis, ...]
    turning_points: tuple[int, ...]
    decisive: int | None
    title: str | None = None
    left: tuple[int, ...] = ()  #: the players who left the game (resigned, lost on time), in order
    win_note: str | None = None  #: why the analysis has no win chances (a game of 3 or 4 players)
    board_seed: int | None = None  #: the seed of a random board (the record's #board_seed), None: the standard one
    stars: str | None = None  #: the record's #stars (star squares, 0-based row,col), None: the rule set's
    endgame_nodes: int | None = None  #: the endgame solver's budget per solve (positions), None: not used
    #: None when :attr:`lexicon` judges the record's words (phonies); else why not and how to
    #: give the record's own list (:meth:`GCGRecord.word_list_note`): no word is called a phony
    words_note: str | None = None
    thresholds: dict[str, float] = field(default_factory=lambda: {
        "missed_equity": MISSED_EQUITY, "missed_win": MISSED_WIN, "brilliancy_margin": BRILLIANCY_MARGIN,
        "brilliancy_win": BRILLIANCY_WIN, "poor_rack": POOR_RACK, "turning_points": TURNING_POINTS,
        "turning_min": TURNING_MIN})

    def table(self, width: int | None = None) -> str:
        """One row per entry.  ``width`` (a terminal's columns): a note that does not fit
        beside its row goes on lines of its own under it, wrapped and indented."""
        rows = [f"{'#':>3}  {'player':<10} {'rack':<8} {'move':<20} {'score':>5}  {'eq.lost':>7} {'win/best':>11}  note"]
        for t in self.turns:
            win = "" if t.win_after is None else f"{t.win_after:4.0%}/{t.win_best:4.0%}"
            lost = "" if t.equity_lost is None else f"{t.equity_lost:7.1f}"
            name, note = printable(t.name), printable(t.note)  # from the record: shown, never obeyed
            row = (f"{t.index + 1:>3}  {name[:10]:<10} {printable(t.rack):<8} "
                   f"{printable(t.notation or t.kind)[:20]:<20} {t.score:>+5d}  {lost:>7} {win:>11}  {note}")
            if width is None or len(row) <= width:
                rows.append(row)
                continue
            rows.append(row[:len(row) - len(note)].rstrip())
            rows += textwrap.wrap(note, width, initial_indent=" " * 5, subsequent_indent=" " * 5,
                                  break_on_hyphens=False)
        return "\n".join(rows)

    def text(self, width: int | None = None) -> str:
        """The heading and :meth:`table` (``width``: see there); text from the record is
        shown :func:`~wordsalvo.printable.printable`."""
        head = (f"analysis of a {self.rules} game ({', '.join(map(printable, self.names))}), final "
                f"{'/'.join(map(str, self.final_scores))}" + (" (unfinished)" if self.unfinished else ""))
        if self.left and not self.unfinished:
            head += f"; {self.end_reason}"
        if len(self.winners) == 1:
            winner = printable(self.names[self.winners[0]])
            head += f"; {winner} {verb(winner, 'win')}"
        if self.left and not self.unfinished:
            head = head.replace(f"; {self.end_reason}", f"; {printable(self.end_reason)}")
        if self.assumed_rules:
            head += f"\n{printable(self.assumed_rules, keep_newlines=True)}"
        if self.words_note:
            head += f"\n{printable(self.words_note)}; the moves compared are those of {printable(self.lexicon)}"
        else:
            head += f"\nwords judged by {printable(self.lexicon)}"
        if self.win_note:
            head += f"\n{self.win_note}"
        if width is not None:
            head = "\n".join(textwrap.fill(line, width, subsequent_indent="  ") for line in head.split("\n"))
        foot = ""
        if self.endgame_nodes is not None and any(t.endgame_best is not None for t in self.turns):
            foot = "\n" + (textwrap.fill(self.endgame_text, width) if width is not None else self.endgame_text)
        return head + "\n" + self.table(width) + foot

    def __str__(self) -> str:
        return self.text()

    @property
    def endgame_text(self) -> str:
        """How the endgame turns were judged, in words (the budget stated)."""
        return (f"Endgame turns judged by the solver within {self.endgame_nodes:,} positions a solve "
                "(a budget of work, not time: the same verdicts on any machine).")

    @property
    def end_reason(self) -> str:
        """``unfinished``, ``finished``, or who left: ``Ann resigned``, ``Ann lost on time``."""
        if self.unfinished:
            return "unfinished"
        if not self.left:
            return "finished"
        how = {"resign": "resigned", "timeout": "lost on time"}
        return ", ".join(f"{self.names[p]} {how.get(self._left_by(p), 'left')}" for p in self.left)

    def _left_by(self, player: int) -> str:
        kinds = [t.kind for t in self.turns if t.player == player and t.kind in ("resign", "timeout")]
        return kinds[-1] if kinds else ""

    def to_dict(self) -> dict[str, Any]:
        """Plain data (``json.dumps`` ready), every field."""
        out = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        return out

    def report(self, stats: list[dict] | None = None) -> dict[str, Any]:
        """The dict :mod:`wordsalvo.render.report` renders (schema version 1)."""
        turns = []
        for t in self.turns:
            kind = {"phony-removed": "phony", "challenge-bonus": "challenge",
                    "time-penalty": "time", "end-rack": "settle"}.get(t.kind, t.kind)
            turns.append({
                "index": t.index, "player": t.player, "kind": kind, "rack": t.rack,
                "notation": t.notation, "score": t.score, "totals": list(t.totals),
                "tiles": [list(x) for x in t.tiles], "board": t.board,
                "equity_lost": t.equity_lost, "win_before": t.win_before, "win_after": t.win_after,
                "win_best": t.win_best,
                "alternatives": [c.as_list() for c in t.alternatives],
                "note": t.note, "badges": list(t.badges), "words": list(t.words),
            })
            if t.simulated:
                turns[-1]["simulated"] = {"plies": SIM_PLIES,
                                          "candidates": [c.as_list() for c in t.sim_candidates]}
        game = {"rules": self.rules, "lexicon": self.lexicon, "words_note": self.words_note,
                "players": list(self.names),
                "final_scores": list(self.final_scores), "winners": list(self.winners),
                "end_reason": self.end_reason}
        if self.board_seed is not None:
            game["board_seed"] = self.board_seed
        if self.stars is not None:
            game["stars"] = self.stars
        if self.title:
            game["title"] = self.title
        if self.win_note:
            game["win_note"] = self.win_note
        if self.endgame_nodes is not None:
            game["endgame_nodes"] = self.endgame_nodes
            if any(t.endgame_best is not None for t in self.turns):
                game["endgame_note"] = self.endgame_text
        return {"version": 1, "game": game, "turns": turns, "turning_points": list(self.turning_points),
                "decisive": self.decisive, "stats": stats or []}


def _plain(value: Any) -> Any:
    if isinstance(value, (TurnAnalysis, Candidate, SimCandidate)):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _as_replay(source: Any, rules: Rules | str | None, lexicon: Lexicon | None, path: str | None) -> Replay:
    """The replay of ``source``: one reading by the one reader with a :class:`ReplayBuilder`
    (a Game's record is made directly: :func:`~wordsalvo.formats.gcg.game_record`)."""
    if isinstance(source, Replay):
        return source
    if isinstance(source, Game):
        return read_gcg(game_record(source), ReplayBuilder(rules=rules or source.rules,
                                                           lexicon=lexicon or source.lexicon))
    if isinstance(source, (str, bytes, bytearray, GCGRecord)):
        return read_gcg(source, ReplayBuilder(rules=rules, lexicon=lexicon), path=path)
    raise AnalysisError(f"expected a Game, GCG text or bytes, a GCGRecord or a Replay, got {type(source).__name__}")


def analyze_game(source: Any, lexicon: Lexicon | None = None, top: int = TOP, *, rules: Rules | str | None = None,
                 leaves: Leaves | None = None, model: WinModel | None = None, path: str | None = None,
                 win: bool = True, sim: float | None = None,
                 endgame: int | None = ENDGAME_NODES, pre_endgame: int | None = PEG_NODES) -> GameAnalysis:
    """Analyse a game (see the module docstring).

    ``lexicon``: judge and replay with it (default: the language's); ``top``: the
    alternatives kept per turn; ``rules``: overrides the record's rule set;
    ``leaves``: the leave table (default :meth:`Leaves.default`, else no leave
    values); ``model``: the win-probability model (default
    :meth:`WinModel.default`; ``win=False`` or no shipped model: no win chances);
    ``sim``: seconds of simulation for each turn within :data:`SIM_MARGIN` of the best
    (None: static judgement only); ``endgame``: with the bag empty in a two-player game,
    each play and pass is judged by the endgame solver (:mod:`wordsalvo.engine.endgame`),
    searching at most ``endgame`` positions per solve (None: not; a node budget, so the
    verdicts are the same on any machine); ``pre_endgame``: with 1-4 tiles
    in the bag, each play and pass is judged by the pre-endgame solver within that many
    turns of endgame search (None: not).
    Raises :class:`AnalysisError` or :class:`~wordsalvo.formats.gcg.GCGError`.
    """
    top = whole_arg(top, "top", AnalysisError, low=1)
    if sim is not None:
        number_arg(sim, "sim", AnalysisError, above=0, high=1e6,
                   expected="seconds of simulation per turn (> 0) or None")
    if endgame is not None:
        endgame = whole_arg(endgame, "endgame", AnalysisError, low=1, high=ENDGAME_NODES_MAX,
                            expected=f"positions per endgame solve, a whole number 1..{ENDGAME_NODES_MAX:,}, or None")
    if pre_endgame is not None:
        pre_endgame = whole_arg(pre_endgame, "pre_endgame", AnalysisError, low=1, high=1 << 62,
                                expected="turns of endgame search (>= 1) or None")
    rp = _as_replay(source, rules, lexicon, path)
    rules_obj = rp.rules
    if leaves is None:
        try:
            leaves = Leaves.default(rules_obj)
        except WordSalvoError:
            leaves = Leaves.zeros(rules_obj)
    win_note = None
    if len(rp.final_scores) > 2 and win:
        # the models are fitted on two-player games: with more players the chance depends on every
        # opponent's score and rack, which P(win | spread to the best opponent, unseen) cannot see
        win, win_note = False, MULTIPLAYER_NOTE.format(n=len(rp.final_scores))
    if model is None and win:
        try:
            model = WinModel.default(rules_obj)
        except WordSalvoError:
            model = None
    if not win:
        model = None
    if model is not None:
        model.check_rules(rules_obj)
    gen = MoveGenerator(rp.lexicon, rules_obj, leaves=leaves)
    names = rp.names if len(rp.names) >= 2 else tuple(f"Player{i + 1}" for i in range(len(rp.final_scores)))
    letters = rules_obj.alphabet
    raw: list[dict[str, Any]] = []
    for index, rt in enumerate(rp.turns):
        e = rt.event
        d: dict[str, Any] = dict(index=index, line=e.line, player=rt.player, name=names[rt.player], kind=rt.kind,
                                 rack=e.rack, notation="", score=e.score, totals=rt.totals_after,
                                 record_note=e.note, board=_board_text(rt.board_after, letters))
        if rt.kind == "play":
            move = rt.move
            d.update(notation=rt.notation, words=rt.words, phony=rt.invalid_words, challenged_off=rt.challenged_off,
                     bingo=move.tiles_played == rules_obj.rack_size,
                     tiles=tuple((r, c, letters.letter(code & LETTER_MASK).upper(), bool(code & BLANK_BIT))
                                 for r, c, code in move.squares()))
        elif rt.kind == "swap":
            d["notation"] = "-" + (e.tiles or str(e.count))
        elif rt.kind == "end-rack":
            d["notation"] = f"({e.tiles})"
        if rt.kind in ANALYSED and rt.position is not None:
            d.update(_judge(gen, leaves, model, rt, top))
            if endgame is not None:
                d.update(_endgame_judge(rt, rules_obj, rp.lexicon, endgame))
            if pre_endgame is not None:
                d.update(_peg_judge(rt, rules_obj, rp.lexicon, leaves, gen, pre_endgame))
            if sim is not None and d.get("endgame_best") is None and d.get("peg_best") is None \
                    and not d.get("partial_rack"):
                d.update(_sim_judge(d, rt, rp.lexicon, leaves, model, sim))
        raw.append(d)
    final = rp.final_scores
    unfinished = rp.record.unfinished
    left = departed_players(rp)
    winners = () if unfinished else _winners(final, left)
    turning, decisive = _tilts(raw, winners)
    turns = []
    for d in raw:
        d["turning_point"] = d["index"] in turning
        d["decisive"] = d["index"] == decisive
        d["note"] = coach_note(d, rp.turns[d["index"]])
        if d.get("simulated"):
            d["note"] = f"{d['note']} {_sim_note(d)}".strip()
        if d.get("endgame_best") is not None:
            d["note"] = f"{d['note']} {_endgame_note(d)}".strip()
        if d.get("peg_best") is not None:
            d["note"] = f"{d['note']} {_peg_note(d)}".strip()
        turns.append(TurnAnalysis(**d))
    return GameAnalysis(rules_obj.name, _lexicon_text(rp), names, tuple(final), winners, unfinished,
                        rp.assumed_rules, tuple(turns), tuple(sorted(turning)), decisive, rp.record.title,
                        left=tuple(left), win_note=win_note, board_seed=rules_obj.board_seed,
                        stars=rp.record.pragma("stars"), endgame_nodes=endgame, words_note=rp.words_note)


def departed_players(rp: Replay) -> list[int]:
    """The players who DEPARTED the game in the record (resigned, lost on time), in the
    order they left (:meth:`Replay.players_left`, the one place of that rule); not
    :attr:`Game.players_left`, the players still in."""
    return rp.players_left()


def _winners(final: tuple[int, ...], left: list[int]) -> tuple[int, ...]:
    """As :class:`Game` decides: a player who left loses whatever the score; of the players
    still in, the best score wins (several on a tie); the last one still in wins alone."""
    staying = [p for p in range(len(final)) if p not in left]
    if not staying:
        return ()
    best = max(final[p] for p in staying)
    return tuple(p for p in staying if final[p] == best)


def _lexicon_text(rp: Replay) -> str:
    lex = rp.lexicon
    path = str(getattr(lex, "path", "") or "")
    text = f"{path.replace(chr(92), '/').rsplit('/', 1)[-1] or 'lexicon'}, {lex.word_count:,} words"
    if rp.record.lexicon:
        text += f" (the record names {rp.record.lexicon})"
    return text


def _board_text(tiles: bytes, alphabet) -> str:
    """225 characters: '.' empty, the uppercase letter, a blank as its lowercase letter
    (Turkish-aware: a blank İ is 'i', a blank I is 'ı', as the notation writes them)."""
    table = _BOARD_TABLES.get(alphabet.name)
    if table is None:
        turkish = "İ" in alphabet.letters
        table = ["."] * 256
        for code, ch in enumerate(alphabet.letter_table):
            if ch and code:
                low = {"İ": "i", "I": "ı"}.get(ch, ch.lower()) if turkish else ch.lower()
                table[code] = low if code & BLANK_BIT else ch
        _BOARD_TABLES[alphabet.name] = table
    return "".join([table[t] for t in tiles])


_BOARD_TABLES: dict[str, list[str]] = {}


def _judge(gen: MoveGenerator, leaves: Leaves, model: WinModel | None, rt: ReplayTurn, top: int) -> dict[str, Any]:
    pos = rt.position
    rules = pos.rules
    rack = pos.rack
    p = pos.to_move
    n = len(pos.racks)
    moves = gen.generate(pos)
    scores = moves.scores.astype(np.float64)
    equities = moves.equities.astype(np.float64) if len(moves) else np.zeros(0)
    tiles_played = moves.tiles_played.astype(np.int64)
    endgame, out_value, keep_factor = endgame_terms(pos)

    def leave_equity(kept: str) -> float:
        if endgame:
            return (out_value if not kept else 0.0) - keep_factor * sum(rules.value(ch) for ch in kept)
        if not kept:
            return 0.0
        if len(kept) >= rules.rack_size:  # a full rack kept (pass): its best 6-tile leave
            return max(float(leaves.value(kept[:i] + kept[i + 1:])) for i in range(len(kept)))
        return float(leaves.value(kept))

    # a rack shorter than a full one while the bag has tiles is not the whole rack (the record
    # lists only the tiles played): what is known is the move's score among the plays of those
    # tiles, not its leave nor the rack's worth
    bag = rt.unseen - sum(len(r) for i, r in enumerate(pos.racks) if i != p)
    partial = len(rack) < rules.rack_size and bag > 0
    if partial:
        if rt.kind != "play" or not rack:  # a swap or pass of unknown tiles, or no rack at all
            return {**_unjudged(pos, rules, rt, model, moves, equities, equities, None, top), "partial_rack": True}
        equities = scores
        model = None
        leave_equity = lambda kept: 0.0  # noqa: E731 - the leave of a rack not known
    swap = gen.best_swap(pos) if rack and not partial else None
    # candidates: every play, then the best swap
    cand_eq = equities
    cand_tiles = tiles_played
    if swap is not None:
        cand_eq = np.append(equities, float(swap.equity))
        cand_tiles = np.append(tiles_played, 0)
    # the played move
    kind = rt.kind
    e = rt.event
    if kind == "play":
        move = rt.move
        kept = _minus(rack, move.rack_letters())
        played_eq = float(move.score) + leave_equity(kept)
        idx = _find(moves, move)
        if idx is not None:
            played_eq = float(equities[idx])
        played_tiles = move.tiles_played
    elif kind == "swap" and e.tiles:
        kept = _minus(rack, e.tiles.upper())
        played_eq, played_tiles = leave_equity(kept), 0
    elif kind == "swap":  # the record gives only the number of tiles: not judged
        kept, played_eq, played_tiles = None, None, 0
    else:  # pass, time-out: judged as keeping the rack
        kept = rack
        played_eq, played_tiles = leave_equity(kept), 0
    if played_eq is None:
        return _unjudged(pos, rules, rt, model, moves, cand_eq, equities, swap, top)
    best_eq = float(max(cand_eq.max(), played_eq)) if len(cand_eq) else played_eq
    out: dict[str, Any] = {
        "leave": None if partial else kept, "equity": played_eq, "best_equity": best_eq, "partial_rack": partial,
        "equity_lost": max(0.0, best_eq - played_eq),
        "rank": int((cand_eq > played_eq + 1e-4).sum()) + 1, "candidates": int(len(cand_eq)),
    }
    cand_win = None
    if model is not None:
        spread = pos.scores[p] - max(s for i, s in enumerate(pos.scores) if i != p)
        unseen = rt.unseen
        remaining = rules.tile_count - (SQUARES - pos.board.tiles.count(0))  # tiles not on the board
        nxt = len(pos.racks[(p + 1) % n])

        def win_after(eq, t):
            # the next player is on turn; they cannot see the bag and our rack
            unseen_next = np.maximum(0, remaining - np.asarray(t) - nxt)
            return 1.0 - np.asarray(model.probability(-(spread + np.asarray(eq)), unseen_next))

        before = float(model.probability(spread, unseen))
        cand_win = win_after(cand_eq, cand_tiles) if len(cand_eq) else np.zeros(0)
        played_win = float(win_after(played_eq, played_tiles))
        # the engine's move: the best candidate by equity (the move played when it is at least as good)
        best_win = float(cand_win[int(np.argmax(cand_eq))]) if len(cand_eq) else played_win
        if not len(cand_eq) or played_eq >= float(cand_eq.max()) - 1e-4:
            best_win = max(best_win, played_win)
        out.update(win_before=round(before, 4), win_after=round(played_win, 4), win_best=round(best_win, 4),
                   win_lost=round(max(0.0, best_win - played_win), 4),
                   poor_rack=bool(best_win <= before - POOR_RACK))
    out["alternatives"] = _alternatives(moves, cand_eq, equities, cand_win, swap, top, rules.rack_size)
    # flags
    lost = out["equity_lost"]
    out["missed"] = lost >= MISSED_EQUITY or (out.get("win_lost") or 0.0) >= MISSED_WIN
    if kind == "play" and not rt.invalid_words and lost < 0.01 and len(scores):
        top_score = scores.max()
        if move.score < top_score:
            if cand_win is not None:  # the win chance it gains over every other candidate
                others = np.delete(cand_win, idx) if idx is not None else cand_win
                gain = out["win_after"] - (float(others.max()) if len(others) else 0.0)
                out["brilliancy"] = bool(gain >= BRILLIANCY_WIN)
            else:  # no win model: the equity it gains
                others = np.delete(cand_eq, idx) if idx is not None else cand_eq
                margin = played_eq - (others.max() if len(others) else -np.inf)
                out["brilliancy"] = bool(margin >= BRILLIANCY_MARGIN)
    return out


def _alternatives(moves, cand_eq, equities, cand_win, swap, top: int, rack_size: int) -> tuple[Candidate, ...]:
    """The ``top`` candidates by equity (the swap among them when it ranks); ties in
    the order generated."""
    alts: list[Candidate] = []
    for i in np.argsort(-cand_eq, kind="stable")[:top]:
        i = int(i)
        w = None if cand_win is None else float(cand_win[i])
        if i == len(moves):
            alts.append(Candidate("-" + swap.tiles, 0, float(swap.equity), w))
        else:
            m = moves[i]
            alts.append(Candidate(m.notation, int(m.score), float(equities[i]), w, m.tiles_played == rack_size))
    return tuple(alts)


def _unjudged(pos, rules, rt, model, moves, cand_eq, equities, swap, top) -> dict[str, Any]:
    """A swap of tiles the record does not name: the alternatives and the win chance
    before the turn, nothing about the move played."""
    out: dict[str, Any] = {"candidates": int(len(cand_eq))}
    cand_win = None
    if model is not None:
        p = pos.to_move
        spread = pos.scores[p] - max(s for i, s in enumerate(pos.scores) if i != p)
        out["win_before"] = round(float(model.probability(spread, rt.unseen)), 4)
    out["alternatives"] = _alternatives(moves, cand_eq, equities, cand_win, swap, top, rules.rack_size)
    return out


def _minus(rack: str, used: str) -> str:
    left = list(rack)
    for ch in used:
        if ch in left:
            left.remove(ch)
    return "".join(left)


def _find(moves, move) -> int | None:
    """The index of ``move`` in ``moves`` (None: not a legal play, e.g. a phony)."""
    for i in np.nonzero(moves.scores == move.score)[0]:
        if moves[int(i)] == move:
            return int(i)
    return None


def _sim_judge(d: dict[str, Any], rt: ReplayTurn, lexicon: Lexicon, leaves: Leaves, model: WinModel | None,
               seconds: float) -> dict[str, Any]:
    """The verdict of a simulation of the turn's alternatives and the move played (see the
    module docstring), or {} for a turn it does not judge: beyond SIM_MARGIN, a phony, a
    swap whose tiles the record does not give, not two players."""
    from .engine.simulation import Simulator

    pos = rt.position
    lost = d.get("equity_lost")
    if lost is None or lost > SIM_MARGIN or d.get("phony") or len(pos.racks) != 2 or not pos.rack:
        return {}
    if rt.kind == "play":
        played = d["notation"]
    elif rt.kind == "swap":
        played = "-" + (rt.event.tiles or "").upper()
    else:  # pass, time-out: the rack kept
        played = "pass"
    moves = list(dict.fromkeys([c.notation for c in d.get("alternatives", ())] + [played]))
    try:
        sim = Simulator(pos, lexicon, leaves, moves=moves, plies=SIM_PLIES, seconds=seconds, sampling="bai",
                        seed=d["index"], model=model if model is not None else False)
        result = sim.run()
    except WordSalvoError:  # a move the simulator cannot take (a record that is not the engine's board)
        return {}
    mine = sim.actions[moves.index(played)]
    rank = next(i for i, r in enumerate(result.rows) if r.action is mine)
    row, best = result.rows[rank], result.rows[0]
    if row.equity is None or best.equity is None:
        return {}
    # rounded as reported, and the verdict taken from the figures reported (a loss shown as
    # 0.0500 of win chance is a miss, one shown as 0.0499 is not)
    eq_lost = round(max(0.0, best.equity - row.equity), 2)
    win_lost = None if row.win is None or best.win is None else round(max(0.0, best.win - row.win), 4)
    out: dict[str, Any] = {
        "simulated": True, "sim_equity_lost": eq_lost, "sim_rank": rank + 1,
        "sim_win_lost": win_lost, "sim_iterations": best.iterations,
        "sim_candidates": tuple(SimCandidate(r.move, r.equity, r.stderr, r.win, r.iterations) for r in result.rows),
        "missed": eq_lost >= MISSED_EQUITY or (win_lost or 0.0) >= MISSED_WIN,
    }
    if d.get("brilliancy") and rank > 0:
        out["brilliancy"] = False
    return out


def _endgame_judge(rt: ReplayTurn, rules: Rules, lexicon: Lexicon, nodes: int) -> dict[str, Any]:
    """With the bag empty (two players, both racks known): the endgame solver's final
    spread after best play and after the move played, and the verdict (missed: at least
    MISSED_EQUITY points of final spread lost).  {} when the turn is not such a turn or
    the solver does not take the rule set."""
    from .engine.endgame import _solve_state
    from .gamestate import state_from_position

    pos = rt.position
    if pos is None or len(pos.racks) != 2 or rt.kind not in ("play", "pass") or rt.invalid_words or \
            rt.challenged_off or rt.unseen > rules.rack_size or not pos.racks[pos.to_move]:
        return {}
    try:
        state = state_from_position(pos)
        if state.bag_count or state.is_over:
            return {}
        p = state.to_move
        best = _solve_state(state.copy(), rules, lexicon, None, nodes=nodes)
        if not best.exact:  # a value not proven is no verdict
            return {}
        first = best.moves[0] if best.moves else None
        if (first is None and rt.kind == "pass") or (first is not None and rt.kind == "play" and first == rt.move):
            played = best.value  # the move played is the solver's
        else:
            after = state.copy()
            if rt.kind == "play":
                after.play_record(rt.move.to_record())
            else:
                after.pass_turn()
            if after.is_over:
                played = after.spread(p)
            else:
                reply = _solve_state(after, rules, lexicon, None, nodes=nodes)
                if not reply.exact:
                    return {}
                played = -reply.value
    except WordSalvoError:
        return {}
    lost = max(0, best.value - played)
    return {"endgame_best": best.value, "endgame_played": played, "endgame_line": tuple(best.pv[:2]),
            "endgame_exact": True, "missed": lost >= MISSED_EQUITY,
            "brilliancy": False}


def _peg_judge(rt: ReplayTurn, rules: Rules, lexicon: Lexicon, leaves: Leaves, gen: MoveGenerator,
               nodes: int) -> dict[str, Any]:
    """With 1-4 tiles in the bag (two players): the pre-endgame solver's best candidate
    and the move played, valued over every draw, and the verdict.  {} when the turn is not
    such a turn, the solver does not take the rule set or the move played was not valued
    over every draw within the budget."""
    from .engine.pre_endgame import PEG_MAX_BAG, PEG_MIN_BAG, solve_pre_endgame

    pos = rt.position
    if pos is None or len(pos.racks) != 2 or rt.kind not in ("play", "pass") or rt.invalid_words or \
            rt.challenged_off or not pos.racks[pos.to_move]:
        return {}
    if not PEG_MIN_BAG <= rt.unseen - rules.rack_size <= PEG_MAX_BAG:
        return {}
    try:
        top = [m for m in gen.top(pos, PEG_TOP, by="equity")]
        played = rt.move if rt.kind == "play" else None
        cands = [*top, *([played] if played is not None and all(m != played for m in top) else []), None]
        result = solve_pre_endgame(pos, lexicon, nodes=nodes, candidates=cands, leaves=leaves,
                                   schedule=PEG_SCHEDULE)
    except WordSalvoError:
        return {}
    best = result.best
    name = "pass" if played is None else played.notation
    mine = next((c for c in result.candidates if c.action == name), None)
    if mine is None or not mine.complete or not best.complete:
        return {}
    win_lost = max(0.0, best.win - mine.win)
    spread_lost = max(0.0, best.spread - mine.spread)
    return {"peg_best": best.action, "peg_best_win": best.win, "peg_played_win": mine.win,
            "peg_best_spread": best.spread, "peg_played_spread": mine.spread,
            "missed": mine.action != best.action and (win_lost >= MISSED_WIN or spread_lost >= MISSED_EQUITY),
            "brilliancy": False}


def _peg_note(d: dict[str, Any]) -> str:
    """What the pre-endgame solver found, for the coach's note."""
    played = d["notation"] or "the pass"
    if d["peg_best"] == (d["notation"] or "pass"):
        return (f"Pre-endgame valued over every draw: this move is the best, {_pct(d['peg_played_win'])} to win, "
                f"{d['peg_played_spread']:+.1f} on average.")
    return (f"Pre-endgame valued over every draw: {d['peg_best']} wins {_pct(d['peg_best_win'])} "
            f"({d['peg_best_spread']:+.1f} on average); {played} played: {_pct(d['peg_played_win'])} "
            f"({d['peg_played_spread']:+.1f}).")


def _endgame_note(d: dict[str, Any]) -> str:
    """What the endgame solver found, for the coach's note."""
    line = " then ".join(d["endgame_line"]) or "pass"
    proof = ""
    best, played = d["endgame_best"], d["endgame_played"]
    if played >= best:
        return f"Endgame solved{proof}: best play ends {best:+d}, and this move keeps it."
    return (f"Endgame solved{proof}: best line {line}: {best:+d}; {d['notation'] or 'the pass'} played: "
            f"{played:+d} ({best - played} points of final spread lost).")


def _sim_note(d: dict[str, Any]) -> str:
    """What the simulation found, for the coach's note."""
    cands = d["sim_candidates"]
    head = f"Simulated {SIM_PLIES} turns ahead ({d['sim_iterations']} iterations):"
    if d["sim_rank"] == 1:
        return f"{head} the best of the {len(cands)} moves tried."
    best = cands[0]
    win = f", {_pct(d['sim_win_lost'])} of win chance" if d.get("sim_win_lost") else ""
    return f"{head} {best.notation} was better by {d['sim_equity_lost']:.1f} in equity{win}."


def _tilts(raw: list[dict[str, Any]], winners: tuple[int, ...]) -> tuple[set[int], int | None]:
    judged = [d for d in raw if d.get("win_before") is not None and d.get("win_after") is not None]
    swings = [(abs(d["win_after"] - d["win_before"]), d["index"]) for d in judged]
    swings.sort(key=lambda s: (-s[0], s[1]))
    turning = {i for s, i in swings[:TURNING_POINTS] if s >= TURNING_MIN}
    decisive = None
    if len(winners) == 1:
        best = 0.0
        for d in judged:
            gain = d["win_after"] - d["win_before"]
            toward = gain if d["player"] == winners[0] else -gain
            if toward > best:
                best, decisive = toward, d["index"]
    return turning, decisive


def _pct(x: float) -> str:
    """``55\u00a0%``: a no-break space keeps the figure and its sign on one line when a
    note is wrapped (a terminal's table, the HTML report)."""
    return f"{round(x * 100)}\u00a0%"


def coach_note(d: dict[str, Any], rt: ReplayTurn | None = None) -> str:
    """The coach's sentence for one analysed entry (``d``: the fields of a TurnAnalysis)."""
    kind = d["kind"]
    score = d["score"]
    if kind == "phony-removed":
        return f"The play was challenged off: {-score} points and the turn were lost."
    if kind == "challenge-bonus":
        return f"A challenge of the play failed: {score:+d} points."
    if kind == "time-penalty":
        return f"Overtime cost {-score} points."
    if kind == "end-rack":
        return (f"The tiles {d['notation']} were left on a rack: {score:+d}.")
    if kind == "resign":
        return "Resigned."
    who = d.get("name") or YOU  # the player of the entry: "Ann kept ...", "You kept ..."
    if d.get("partial_rack"):
        known = (f"the record lists only the tiles {'played' if kind == 'play' else 'used'} ({d['rack']}) while "
                 "the bag had tiles, so ")
        if not d["rack"]:
            return "The record gives no rack here, so the turn is not judged."
        if d.get("equity_lost") is None:
            return f"{known[0].upper()}{known[1:]}the rest of the rack is not known and the turn is not judged."
        alts = d.get("alternatives") or ()
        verdict = ("the best score with them" if d["equity_lost"] < 0.5 or not alts
                   else f"{alts[0].notation} scored {alts[0].score} with them")
        return (f"{who} played {d['notation']} for {score}; {known}the move is judged by its score among the plays "
                f"of those tiles, not by its leave: {verdict}.")
    if kind == "swap" and d.get("equity_lost") is None:
        alts = d.get("alternatives") or ()
        best = f"; the engine's choice was {alts[0].notation} for {alts[0].score}" if alts else ""
        return f"{who} swapped {d['notation'][1:]} tiles (the record does not say which){best}."
    if d.get("equity_lost") is None:
        return ""
    win = rack = ""
    if d.get("win_after") is not None:
        best_win = d.get("win_best", d["win_after"])
        if d.get("win_lost", 0.0) < 0.005:
            win = f" (win chance {_pct(d['win_after'])})"
        else:
            win = f" (win chance {_pct(d['win_after'])}; {_pct(best_win)} after the best move)"
        if d.get("poor_rack"):
            rack = (f" The rack itself was poor: even the best move leaves {_pct(best_win)}, where an average "
                    f"rack would have had {_pct(d['win_before'])}.")
    kept = d.get("leave") or ""
    if kind == "play":
        did = f"{who} kept {kept} and scored {score}" if kept else f"{who} played {d['notation']} for {score}"
    elif kind == "swap":
        did = f"{who} swapped {d['notation'][1:]}, keeping {kept or 'nothing'}"
    elif kind == "timeout":
        did = f"{possessive(who).capitalize() if who == YOU else possessive(who)} time ran out"
    else:
        did = f"{who} passed"
    alts = d.get("alternatives") or ()
    best = alts[0] if alts else None
    phony = ""
    if d.get("phony"):
        words = ", ".join(d["phony"])
        phony = (f"; {words} is not a word and was challenged off" if d.get("challenged_off")
                 else f"; {words} is not a word: a challenge would have taken it off")
    if d.get("brilliancy"):
        ahead = ""
        alts_win = [c.win for c in alts if c.win is not None and c.notation != d.get("notation")]
        if d.get("win_after") is not None and alts_win:
            ahead = f", {round((d['win_after'] - max(alts_win)) * 100)} points of win chance ahead of the next"
        return f"{did}: a brilliant find{ahead}{win}{phony}.{rack}"
    if d["equity_lost"] < 0.5 or best is None:
        return f"{did}: the best move{win}{phony}.{rack}"
    what = "a bingo" if best.bingo else f"worth {best.equity - d['equity']:.0f} more in equity"
    how = f"{best.notation} for {best.score}" if not best.notation.startswith("-") else f"exchanging {best.notation[1:]}"
    if not d.get("missed"):
        return f"{did}: close to the best, {how} ({what}){win}{phony}.{rack}"
    return f"{did}; {how} was {what}{win}{phony}.{rack}"

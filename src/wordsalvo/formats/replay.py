"""Replay a :class:`~wordsalvo.formats.gcg_record.GCGRecord` on a board, event by event.

:func:`replay` walks a record (read by :func:`~wordsalvo.formats.gcg_record.parse_gcg`,
whatever program wrote it) on one C game state (:mod:`wordsalvo.gamestate`, where every
turn is played): it scores each play with the package's one legality check
(:func:`wordsalvo.placement.check_move`), compares that score with the record's and
plays it on the state; the position before each turn is a snapshot of the state
(:func:`~wordsalvo.gamestate.snapshot`).  The result, a :class:`Replay`, holds one
:class:`ReplayTurn` per event with the position before it, so an analysis can
generate the moves the player had.  :class:`ReplayBuilder` makes it: a visitor of the
one walk over a record's turns (:func:`~wordsalvo.formats.gcg_visitor.read_gcg`), as
:class:`~wordsalvo.formats.gcg.GameBuilder` makes a Game of the same walk.

What each event does (see :class:`GCGRecord`):

* ``play``: '.' squares are filled from the board; a word that marks no
  played-through square (``6J MALTHA``, by programs that list only the tiles
  played as the rack) is read through every square that already holds its
  letter, with a warning in :attr:`Replay.warnings`; the play must fit the board
  (new tiles on empty squares, played-through letters as on the board, every
  word connected) and score what the record says.  A word not in the lexicon
  does NOT refuse the record: the play is replayed and flagged ``phony`` (with
  ``invalid_words``); ``challenged_off`` says a ``--`` line took it back.  Only a
  lexicon that is the record's judges its words (one given, or the rule set's own
  for a record with ``#rules`` and no ``#lexicon``): a record of another list
  (``#lexicon CSW21``) or of none flags no word, and :attr:`Replay.words_note` says
  why and how to give the list.
* ``phony-removed``: the play is taken back (the C state's undo).
* ``swap``, ``pass``, ``timeout``: the turn ends; ``challenge-bonus``,
  ``time-penalty``, ``end-rack``, ``resign``: only the score changes.

Racks come from the record (the bag is not known): the position before a turn
holds the rack of the player on turn and, for the other players, tiles of the
unseen pool in the right NUMBER (so ``bag_count`` and the end-of-game terms of
equity are right; their letters are not known and nothing reads them).

Refused, with a :class:`~wordsalvo.formats.gcg.GCGError` naming the line and
what was expected: a play that does not fit the board, a recorded score that
differs from the replayed one, a rack holding more of a tile than the set has
left.  A record without ``#rules`` is read with :meth:`GCGRecord.rules_name`
(``rules=`` overrides) and :attr:`Replay.assumed_rules` says which; ``#board_seed``
and ``#stars`` give a random board or random star squares.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from ..board import Board
from ..constants import DIM, LETTER_MASK
from ..errors import WordSalvoError
from ..gamestate import GameState, game_rules, letter_counts, play_move, snapshot, tile_codes
from ..inputs import excerpt
from ..lexicon.lexicon import Lexicon
from ..moves import Move
from ..notation import format_coordinate, parse_notation
from ..placement import IllegalMoveReason, check_move
from ..position import Position, rack_counts
from ..rules import Rules
from .gcg_record import GCGError, GCGEvent, GCGHeader, GCGRecord, PlayEvent, assumption_note, resolve_record
from .gcg_visitor import GCGTurn, GCGVisitor, read_gcg

__all__ = ["ReplayTurn", "Replay", "ReplayBuilder", "replay", "read_game"]


@dataclass(frozen=True)
class ReplayTurn:
    """One event of the record with what the replay found."""

    event: GCGEvent
    kind: str  #: the event's kind (``play``, ``exchange``, ``phony-removed`` ...)
    player: int
    totals_before: tuple[int, ...]
    totals_after: tuple[int, ...]
    position: Position | None = None  #: before the event, the player on turn; turns only
    move: Move | None = None  #: ``play``: the move as placed
    notation: str = ""  #: ``play``: the notation with the board's letters filled in
    words: tuple[str, ...] = ()  #: ``play``: every word formed, main word first
    invalid_words: tuple[str, ...] = ()  #: ``play``: words not in the lexicon
    challenged_off: bool = False  #: ``play``: a ``--`` line took it back
    unseen: int = 0  #: tiles the player on turn could not see (bag + other racks)
    board_after: bytes = b""  #: the board's tile codes after the event

    @property
    def phony(self) -> bool:
        return bool(self.invalid_words)

    @property
    def line(self) -> int:
        return self.event.line


@dataclass(frozen=True)
class Replay:
    """A record replayed: ``turns`` in record order (every event)."""

    record: GCGRecord
    rules: Rules
    lexicon: Lexicon
    turns: tuple[ReplayTurn, ...]
    final_scores: tuple[int, ...]
    assumed_rules: str | None = None
    final_board: Board | None = field(default=None, compare=False)
    #: what was read other than written: the record's own (:attr:`GCGRecord.warnings`), then
    #: the replay's (played-through letters a word does not mark, inferred from the board)
    warnings: tuple[str, ...] = ()
    #: None when :attr:`lexicon` judges the record's words; else why it does not
    #: (:meth:`GCGRecord.word_list_note`) and no turn has ``invalid_words``
    words_note: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.record.players)

    def players_left(self) -> list[int]:
        """The players who left the game in the record, in the order they left: a resignation,
        a time-out where the rule set's ``[timer] on_timeout`` is ``lose``, or
        ``eliminate_after_timeouts`` time-outs in a row (the rules of :meth:`Game.resign` and
        :meth:`Game.timeout`; the analysis and the ratings read them here)."""
        timer = self.rules.timer
        in_a_row: dict[int, int] = {}
        left: list[int] = []
        for rt in self.turns:
            p = rt.player
            if p in left:
                continue
            if rt.kind == "resign" or (rt.kind == "timeout" and timer.on_timeout == "lose"):
                left.append(p)
            elif rt.kind == "timeout":
                in_a_row[p] = in_a_row.get(p, 0) + 1
                if timer.eliminate_after_timeouts and in_a_row[p] >= timer.eliminate_after_timeouts:
                    left.append(p)
            elif rt.kind in ("play", "swap", "pass", "phony-removed"):
                in_a_row[p] = 0
        return left

    def __repr__(self) -> str:
        players = ", ".join(f"{n} {s}" for n, s in zip(self.names, self.final_scores))
        state = " (unfinished)" if self.record.unfinished else ""
        return f"<Replay {self.rules.name}: {players}; {len(self.turns)} entries{state}>"


def read_game(source: str | bytes | GCGRecord, *, path: str | None = None, rules: Rules | str | None = None,
              lexicon: Lexicon | None = None) -> Replay:
    """Read a record and replay it: :func:`~wordsalvo.formats.gcg_visitor.read_gcg` with a
    :class:`ReplayBuilder` (a GCGRecord is replayed as it is)."""
    return read_gcg(source, ReplayBuilder(rules=rules, lexicon=lexicon), path=path)


def replay(record: GCGRecord, rules: Rules | str | None = None, lexicon: Lexicon | None = None, *,
           assumed: str | None = None) -> Replay:
    """Replay ``record`` (see the module docstring).  ``rules``: a Rules object or a
    preset name (default: the record's :meth:`~GCGRecord.rules_name`); ``lexicon``:
    the lexicon that decides which words are phonies (default: the language's).
    ``assumed``: the caller's note when it passes the rules it took from
    ``record.rules_name()`` (``record.assumed_rules``); a failure then names it."""
    if not isinstance(record, GCGRecord):
        raise GCGError(f"replay: expected a GCGRecord (from parse_gcg), got {type(record).__name__}")
    return read_gcg(record, ReplayBuilder(rules=rules, lexicon=lexicon, assumed=assumed))


class ReplayBuilder(GCGVisitor):
    """The visitor that makes a :class:`Replay` of a record (see the module docstring):
    ``rules``, ``lexicon`` and ``assumed`` as :func:`replay` takes them."""

    def __init__(self, rules: Rules | str | None = None, lexicon: Lexicon | None = None, *,
                 assumed: str | None = None) -> None:
        self.rules, self.lexicon, self.assumed = rules, lexicon, assumed
        self.replay: Replay | None = None

    def visit_header(self, header: GCGHeader) -> None:
        # a random board (#board_seed) or random star squares (#stars) come with the record,
        # whether the rules come as a name or as a Rules object
        words_note = header.word_list_note(lexicon_given=self.lexicon is not None)
        self.words_note = f"words not judged (no word is called a phony): {words_note}" if words_note else None
        self.rules, self.lexicon, note = resolve_record(header, self.rules, self.lexicon)
        self.assumed = self.assumed or note
        self.where = header.path or "GCG"
        rules = self.rules
        self.n = n = max(2, len(header.players))
        # an empty board; every turn's racks are set on it (the reader allows GAME_MAX_PLAYERS players)
        self.state = GameState(game_rules(rules, n))
        self.totals = [0] * n
        self.turns: list[ReplayTurn] = []
        self.distribution = Counter(rules.distribution())  # the tiles not on the board (every letter a key)
        self.warnings: list[str] = list(header.warnings)

    def visit_turn(self, turn: GCGTurn) -> None:
        try:
            self._turn(turn.event, turn.removal)
            if turn.removal is not None:
                self._turn(turn.removal, None)
        except GCGError as e:
            raise self._explained(e) from None

    def visit_end(self, record: GCGRecord) -> None:
        self.replay = Replay(record, self.rules, self.lexicon, tuple(self.turns), tuple(self.totals), self.assumed,
                             Board(self.rules.alphabet, self.state.board), tuple(self.warnings), self.words_note)

    def result(self) -> Replay | None:
        return self.replay

    def _explained(self, e: GCGError) -> GCGError:
        if self.assumed:  # the failure may come from the rule set the record does not name
            return GCGError(assumption_note(str(e), self.assumed), e.problems)
        return e

    def _turn(self, event: GCGEvent, removal: GCGEvent | None) -> None:
        rules, n, where, distribution, totals = self.rules, self.n, self.where, self.distribution, self.totals
        state = self.state
        p = event.player_index
        before = tuple(totals)
        info: dict = {}
        if event.kind in ("play", "swap", "pass", "timeout"):
            rack = event.rack or ""
            if any(ch not in distribution for ch in rack):  # letters written in lowercase
                rack = rack.upper()
            try:
                rack_counts(rules, rack, where=f"rack {excerpt(rack)}")
            except WordSalvoError as e:
                raise GCGError(f"{where} line {event.line}: expected a rack of rule set {excerpt(rules.name)}, "
                               f"got {excerpt(event.rack)}: {e}") from None
            pool = +distribution
            short = Counter(rack) - pool
            if short:
                raise GCGError(f"{where} line {event.line}: expected a rack from the tiles left "
                               f"(not on the board), got {excerpt(event.rack)}: "
                               f"{''.join(sorted(short.elements()))} already used up")
            unseen = pool - Counter(rack)
            pool_list = sorted(unseen.elements())
            # the state of the turn: the rack on turn, the other racks and the bag of the tiles
            # left (right in number; their letters are not known), the record's totals
            racks = [b""] * n
            racks[p] = rack_counts(rules, rack)
            k = 0
            for other in range(1, n):
                q = (p + other) % n
                take = min(rules.rack_size, len(pool_list) - k)
                racks[q] = letter_counts(rules, pool_list[k:k + take])
                k += take
            state.set_tiles(racks, tile_codes(rules, pool_list[k:]))
            state.set_scores(totals)
            state.set_turn(p)
            turn_pos = snapshot(state, rules, rack=rack)  # the position before the turn, for the analysis
            info.update(position=turn_pos, unseen=sum(unseen.values()))
            if event.kind == "play":
                move, result = _place(turn_pos, event, self.lexicon, where, self.warnings)
                info.update(move=move, notation=move.notation, words=tuple(w.word for w in result.words),
                            invalid_words=() if self.words_note else tuple(result.invalid_words),
                            challenged_off=removal is not None)
                play_move(state, move)  # the one way a move changes a board: the C state's turn
                distribution.subtract(move.rack_letters())
        elif event.kind == "phony-removed":
            played = next((t for t in reversed(self.turns) if t.event.line == event.play_line), None)
            if played is None or played.move is None or not state.undo_depth:  # pragma: no cover - paired
                raise GCGError(f"{where} line {event.line}: expected a play to take back on line {event.play_line}")
            state.undo()  # the play just made (its removal comes next): the board before it
            distribution.update(played.move.rack_letters())
        totals[p] = event.total
        self.turns.append(ReplayTurn(event=event, kind=event.kind, player=p, totals_before=before,
                                     totals_after=tuple(totals), board_after=state.board, **info))


def _place(pos: Position, event: PlayEvent, lexicon: Lexicon, where: str, warnings: list[str]):
    board = pos.board
    alphabet = pos.rules.alphabet
    here = f"{where} line {event.line}"
    if not event.marks_through:
        event = _infer_through(event, board, here, warnings)
    notation = event.notation_on(board)  # a '.' is the tile on that square
    if event.rack:
        short = _missing(event.tiles_played, pos.rack)
        if short:
            raise GCGError(f"{here}: expected the rack {event.rack} to hold the tiles played "
                           f"({event.tiles_played} of {notation}), but {short} is not on it")
    if "." in notation:
        raise GCGError(f"{here}: expected a tile on the board under every '.' of {excerpt(event.word)}, got an "
                       f"empty square ({notation})")
    try:
        placement = parse_notation(notation, board)
    except WordSalvoError as e:
        raise GCGError(f"{here}: expected a play that fits the board, got {excerpt(notation)}: {e}") from None
    result = check_move(board, pos.rules, rack_counts(pos.rules, pos.rack), placement, lexicon.__contains__)
    other = [r for r in result.reasons if r != IllegalMoveReason.INVALID_WORDS]
    if other:
        problems = "; ".join(m for r, m in zip(result.reasons, result.problems)
                             if r != IllegalMoveReason.INVALID_WORDS) or "; ".join(result.problems)
        raise GCGError(f"{here}: expected a play that fits the board, got {excerpt(notation)}: {problems}")
    if result.score != event.score:
        raise GCGError(f"{here}: expected the recorded score {event.score:+d} of {notation}, "
                       f"the board scores it {result.score:+d}")
    row, col, direction, tiles = result.placement
    move = Move(row, col, direction, tiles, result.score, bytes(board.tiles), alphabet,
                words=tuple(result.words), rack_size=pos.rules.rack_size)
    return move, result


def _missing(need: str, rack: str) -> str:
    return "".join(sorted((Counter(need) - Counter(rack)).elements()))


def _infer_through(event: PlayEvent, board: Board, here: str, warnings: list[str]) -> PlayEvent:
    """A word that marks no played-through square (``6J MALTHA`` for ``6J MALTH(A)``, as some
    programs write it): every square that already holds the word's letter there is read as
    played through, with a warning.  A square holding another letter is left for the
    legality check to refuse."""
    letters = list(event.letters)
    through = list(event.through)
    inferred = []
    for k, (row, col, ch, _new) in enumerate(event.squares):
        got = board.letter_at(row, col)  # lowercase for a blank
        code = board.tiles[row * DIM + col]
        # the record's letter as the tile's letter, or as the blank's (no case folding:
        # Turkish i and İ are two letters)
        if got and (ch == got or ch == board.alphabet.letter(code & LETTER_MASK)):
            letters[k], through[k] = got, True
            inferred.append(f"{got} at {format_coordinate(row, col, event.direction)}")
    if not inferred:
        return event
    if all(through):
        raise GCGError(f"{here}: expected a play with a new tile, got {excerpt(event.coordinate)} "
                       f"{excerpt(event.word)}, whose every letter is already on the board")
    event = replace(event, letters=tuple(letters), through=tuple(through))
    warnings.append(f"{here}: {event.coordinate} {excerpt(event.word)} does not mark the "
                    f"{'letter' if len(inferred) == 1 else 'letters'} already on the board "
                    f"({', '.join(inferred)}); read as {event.notation}")
    return event

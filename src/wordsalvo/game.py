"""A whole game: bag, racks, turns, end rules and rack settlement.

:class:`Game` plays one game of any rule set.  Everything that differs between
rule sets is read from the rule set's data (``rules.swap``, ``rules.end``,
``rules.settlement``, ``rules.players``, ``rules.timer``, ``rules.resign``,
``rules.strict``, ``rules.deal``; see :mod:`wordsalvo.rules_schema`), never
from its name.

The bag
-------
The bag starts as the rule set's tiles in file order and is drawn from with a
``random.Random(seed)``: each draw takes ``bag[rng.randrange(len(bag))]``
(swapped with the last tile, then popped), returned tiles are appended.  The
same seed and the same actions therefore give the same game, which is how a
GCG record with ``#seed`` replays exactly.  With ``[deal]
first_deal_min_vowels/consonants`` (Turkish) each first rack is built from
that many random vowels, that many random consonants (blanks are neither),
then random tiles; later draws are plain.

Counters (all players together, as the rule set files define them)
-----------------------------------------------------------------
* the pass counter, for ``[end] all_pass_rounds`` and ``consecutive_passes``:
  a pass adds one; a swap adds one unless ``[swap] resets_pass_counter``; a
  time-out adds one when ``[timer] timeout_counts_as_pass``; a refused play in
  strict mode adds one (the player made no play); anything else resets it;
* the scoreless counter, for ``[end] scoreless_turns``: a turn whose kind is
  in ``scoreless_turn_kinds`` (``pass``, ``swap``, ``refused-play``,
  ``zero-score-play``, ``timeout``) adds one, any other turn resets it.  The
  rule ends the game only while the bag holds fewer than
  ``scoreless_turns_bag_below`` tiles (0 = any bag).

Players who resign, lose on time (``on_timeout = "lose"``) or are eliminated
by time-outs (``eliminate_after_timeouts``) leave the game; their rack stays
with them, out of play.  When one player is left, that player wins.  With two
or more left the game goes on; counters that say "every player" count the
players still in.

Challenges
----------
A table that plays with challenges (``challenges=True``, for rule sets whose
``[challenge] table_may_choose`` is true) lets every play stand when it is
made, words not in the lexicon too.  Until the next player acts, that player
may :meth:`Game.challenge` it: a play with a word not in the lexicon is taken
back (the game is as before it, bag included) and the player loses the turn
(a ``refused-play`` turn, as in strict mode); a play whose words are all in the
lexicon stands and the challenger pays ``[challenge] penalty``: the turn (a
``pass`` turn whose ``challenge`` is ``"lost"``), points to the challenged
player (a ``challenge-bonus`` entry, not a turn) or nothing (a
``challenge-bonus`` entry of 0).

Undo and notes
--------------
Every step that changes the game (a turn with the settlement it causes, a
challenge) can be taken back exactly with :meth:`Game.undo`, bag and random
state included, so a game with a bag seed replays the same after an undo.
:meth:`Game.add_note` keeps remarks about the game (hints asked for, moves
taken back) at their place in the history; a GCG record writes them as
``#note`` lines.

Every method that changes the game is atomic: when it raises, the game is
exactly as it was.
"""

from __future__ import annotations

import random
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Iterator, Sequence

from .actions import Pass, Play, Swap
from .alphabet import BLANK_BIT
from .board import Board
from .constants import DIM
from .display import Displayable
from .errors import GameError, IllegalMoveError, IllegalMoveReason
from .inputs import excerpt
from .lexicon.lexicon import Lexicon, _is_subset
from .movegen import MoveGenerator
from .moves import Move, MoveList
from .notation import format_notation
from .offensive import OffensiveWords
from .placement import PlacementResult, check_move
from .position import Position, normalize_rack, rack_counts
from .rules import Rules
from .validate import check_notation
from .wording import plural

__all__ = ["Game", "Turn", "Challenge", "TURN_KINDS", "END_REASONS"]

#: kinds of :class:`Turn` entries in :attr:`Game.history` (``settle`` and
#: ``challenge-bonus`` are entries that are not turns)
TURN_KINDS = ("play", "swap", "pass", "refused-play", "timeout", "resign", "settle", "challenge-bonus")
#: values of :attr:`Game.end_reason`
END_REASONS = (
    "out",          # the bag is empty and a player emptied the rack ([end] rack_out)
    "passes",       # [end] all_pass_rounds or consecutive_passes
    "scoreless",    # [end] scoreless_turns
    "resign",       # all other players resigned (or abandoned)
    "timeout",      # a time-out lost the game ([timer] on_timeout = "lose")
    "elimination",  # time-outs eliminated all other players ([timer] eliminate_after_timeouts)
)
#: how many of the best moves are looked at for one that forms no offensive word before all are
_CLEAN_LOOKAHEAD = 16


@dataclass(frozen=True)
class Turn:
    """One entry of :attr:`Game.history`.

    ``rack`` is the player's rack before the turn (for ``settle``: the rack whose
    value is counted, which may be another player's); ``score`` is what the
    entry added to ``player``'s score (negative when a settlement subtracts) and
    ``total`` that player's score after it.
    """

    player: int
    kind: str
    rack: str
    score: int
    total: int
    #: ``play`` / ``refused-play``: the move in notation (``8H WO(R)D``)
    notation: str = ""
    #: ``swap``: the tiles put back; ``settle``: the rack letters counted
    tiles: str = ""
    #: ``play`` / ``refused-play``: every word formed, main word first
    words: tuple[str, ...] = ()
    #: ``refused-play``: what the refused play would have scored
    attempt_score: int = 0
    #: ``settle``: the player whose rack is counted
    rack_owner: int = -1
    #: ``refused-play``: ``"won"`` when a challenge took the play back; ``pass``: ``"lost"``
    #: when the turn was lost by a failed challenge of the play before (``notation`` names it)
    challenge: str = ""

    def __str__(self) -> str:
        what = {"play": self.notation, "swap": f"swap {self.tiles}", "refused-play": f"refused {self.notation}",
                "settle": f"({self.tiles})", "challenge-bonus": "(challenge)"}.get(self.kind, self.kind)
        return f"player {self.player + 1}: {what} {self.score:+d} = {self.total}"


@dataclass(frozen=True)
class Challenge:
    """What :meth:`Game.challenge` decided.

    ``play``: the challenged play's turn; ``invalid_words``: its words not in the
    lexicon (empty: the play stands); ``turn``: the entry the challenge added
    (the ``refused-play`` that took the play back, the challenger's lost ``pass``,
    a ``challenge-bonus``), or None when it added none (a lost turn after the
    last play of the game)."""

    play: Turn
    challenger: int
    invalid_words: tuple[str, ...]
    penalty: str
    turn: Turn | None

    @property
    def phony(self) -> bool:
        """True when the play was taken back."""
        return bool(self.invalid_words)


@dataclass
class _State:
    """Everything that changes during a game (copied whole for atomic calls).

    The board, racks, scores, player on turn and scoreless count are the game's one
    :class:`~wordsalvo.Position` (``pos``, racks and scores in player order)."""

    pos: Position
    bag: list[str]
    history: list[Turn]
    pass_count: int = 0
    timeouts: list[int] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)  # resigned / lost / eliminated
    is_over: bool = False
    end_reason: str | None = None
    winners: tuple[int, ...] = ()
    #: the racks came from the seeded bag alone (False once a rack was set from a record)
    seeded: bool = True
    #: index in ``history`` of the play whose challenge was decided (it cannot be challenged again)
    challenged: int = -1

    def copy(self) -> "_State":
        return _State(self.pos.copy(), list(self.bag), list(self.history), self.pass_count,
                      list(self.timeouts), list(self.out), self.is_over, self.end_reason, self.winners,
                      self.seeded, self.challenged)

    # the position's parts, by the names the game uses
    @property
    def board(self) -> bytearray:
        return self.pos.board.tiles

    @property
    def racks(self) -> list[str]:
        return self.pos.racks

    @racks.setter
    def racks(self, racks: list[str]) -> None:
        self.pos.racks = list(racks)

    @property
    def scores(self) -> list[int]:
        return self.pos.scores

    @scores.setter
    def scores(self, scores: list[int]) -> None:
        self.pos.scores = list(scores)

    @property
    def to_move(self) -> int:
        return self.pos.to_move

    @to_move.setter
    def to_move(self, player: int) -> None:
        self.pos.to_move = player

    @property
    def scoreless_count(self) -> int:
        return self.pos.scoreless_turns

    @scoreless_count.setter
    def scoreless_count(self, count: int) -> None:
        self.pos.scoreless_turns = count


class Game(Displayable):
    """One game of a rule set.

    ``players``: the number of players (names ``Player1``...) or their names
    (no spaces, no ``:``; they are the GCG nicknames).  ``seed``: the bag's
    random seed.  ``strict``: a word not in the lexicon costs the turn instead
    of being refused (None: the rule set's ``[strict] enabled``; True needs
    ``enabled`` or ``table_may_choose``).  ``lexicon`` defaults to
    ``Lexicon.default(rules.alphabet.name)``.  ``challenges``: the table plays with
    challenges (see the module docstring; needs ``[challenge] table_may_choose``,
    and excludes strict mode).
    """

    #: in a notebook: the board with the last move, the scores and the player on turn
    _display_kind = "Game"

    def __init__(
        self,
        rules: Rules,
        lexicon: Lexicon | None = None,
        players: int | Sequence[str] = 2,
        seed: int = 0,
        strict: bool | None = None,
        challenges: bool = False,
    ):
        if not isinstance(rules, Rules):
            raise GameError(f"expected a Rules object (e.g. Rules.preset('wordsalvo-en')), got {type(rules).__name__}")
        if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
            raise GameError(f"players: expected a number or a list of names, got {excerpt(players)}")
        count = players if isinstance(players, int) else len(players)
        if not rules.players.min <= count <= rules.players.max:  # before any name is made
            raise GameError(f"rule set {rules.name!r}: expected {rules.players.min}..{rules.players.max} players, "
                            f"got {count}")
        names = [f"Player{i + 1}" for i in range(players)] if isinstance(players, int) else [str(p) for p in players]
        bad = [n for n in names if not n or any(ch.isspace() for ch in n) or ":" in n]
        if bad or len(set(names)) != len(names):
            raise GameError(f"player names: expected distinct names without spaces or ':', got {excerpt(names)}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameError(f"seed: expected a whole number, got {seed!r}")
        if strict is None:
            strict = rules.strict.enabled
        elif strict and not (rules.strict.enabled or rules.strict.table_may_choose):
            raise GameError(f"rule set {rules.name!r} has no strict mode ([strict] enabled and table_may_choose "
                            "are false); expected strict=False or None")
        if challenges and not rules.challenge.table_may_choose:
            raise GameError(f"rule set {rules.name!r} has no challenges ([challenge] table_may_choose is false: "
                            "the game checks every word); expected challenges=False")
        if challenges and strict:
            raise GameError("challenges and strict mode exclude each other (with challenges a phony stands until "
                            "it is challenged); expected one of them")
        self.rules = rules
        self.lexicon = lexicon if lexicon is not None else Lexicon.default(rules.alphabet.name)
        self.challenges = bool(challenges)
        self.names = tuple(names)
        self.seed = seed
        self.strict = bool(strict)
        self._gen = MoveGenerator(self.lexicon, rules)
        self._gens: dict[tuple[int, int], MoveGenerator] = {}
        #: renewed on every change: a Move that carries the current token was made by this
        #: game's generator for the current position and is played without a second check
        self._token = object()
        #: plays refused in non-strict mode, as (player, notation, invalid words), for a table that shows them
        self.refused_attempts: list[tuple[int, str, tuple[str, ...]]] = []
        #: the state before each step, for undo: (state, random state, refused attempts)
        self._undo: list[tuple[_State, object, int]] = []
        #: remarks: [number of history entries before the note, text]
        self._notes: list[list] = []
        bag = [letter for letter, (count, _v) in rules.tiles.items() for _ in range(count)]
        n = len(names)
        self._s = _State(Position(rules, Board(rules.alphabet), [""] * n, [0] * n), bag, [],
                         timeouts=[0] * n, out=[False] * n)
        self._rng = random.Random(seed)
        #: the range of every draw from ``_rng`` since the seed: rewinding the random state
        #: is re-seeding and drawing them again (cheaper than saving the state every turn)
        self._draws: list[int] = []
        self._first_deal()

    # -- pickling ---------------------------------------------------------------------
    def __getstate__(self) -> dict:
        """Everything but the move generators (C working memory; rebuilt on unpickling).
        The lexicon pickles by path or language (see :class:`~wordsalvo.Lexicon`)."""
        state = dict(self.__dict__)
        del state["_gen"], state["_gens"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._gen = MoveGenerator(self.lexicon, self.rules)
        self._gens = {}
        self._token = object()  # moves listed before pickling are checked again when played

    # -- the bag ----------------------------------------------------------------------
    def sort_rack(self, letters: str | list[str]) -> str:
        """``letters`` in the order racks are written: the alphabet's order, blanks (``?``) last."""
        return self.rules.alphabet.sort_rack(letters)

    def _draw_one(self, pool: list[int] | None = None) -> str:
        bag = self._s.bag
        n = len(bag) if pool is None else len(pool)
        self._draws.append(n)
        i = self._rng.randrange(n)
        if pool is not None:
            i = pool[i]
        bag[i], bag[-1] = bag[-1], bag[i]
        return bag.pop()

    def _draw(self, n: int) -> list[str]:
        return [self._draw_one() for _ in range(min(n, len(self._s.bag)))]

    def _first_deal(self) -> None:
        deal = self.rules.deal
        vowels = set(deal.vowels)
        size = self.rules.rack_size
        for p in range(len(self.names)):
            tiles: list[str] = []
            for want, is_kind in ((deal.first_deal_min_vowels, lambda t: t in vowels),
                                  (deal.first_deal_min_consonants, lambda t: t != "?" and t not in vowels)):
                for _ in range(want):
                    pool = [i for i, t in enumerate(self._s.bag) if is_kind(t)]
                    if not pool:
                        raise GameError(f"rule set {self.rules.name!r}: the bag holds too few vowels or consonants "
                                        f"for the first deal of {len(self.names)} players")
                    tiles.append(self._draw_one(pool))
            tiles += self._draw(size - len(tiles))
            self._s.racks[p] = self.sort_rack(tiles)

    # -- state ------------------------------------------------------------------------
    @contextmanager
    def _atomic(self) -> Iterator[None]:
        saved = (self._s.copy(), len(self._draws), len(self.refused_attempts))
        steps = len(self._undo)
        self._token = object()
        try:
            yield
        except BaseException:
            self._restore(saved)
            del self._undo[steps:]
            raise

    def _push_undo(self) -> None:
        """Remember the state before a step (see :meth:`undo`)."""
        self._undo.append((self._s.copy(), len(self._draws), len(self.refused_attempts)))

    def _restore(self, saved: tuple) -> None:
        """Back to a state that :meth:`_push_undo` (or :meth:`_atomic`) saved."""
        state, draws, attempts = saved
        self._s = state
        del self.refused_attempts[attempts:]
        if draws != len(self._draws):
            del self._draws[draws:]
            self._rng.seed(self.seed)
            for n in self._draws:
                self._rng.randrange(n)

    @property
    def board(self) -> Board:
        """A copy of the board."""
        return self._s.pos.board.copy()

    @property
    def racks(self) -> list[str]:
        """Every player's rack, in player order (``?`` = blank)."""
        return list(self._s.racks)

    @property
    def rack(self) -> str:
        """The rack of the player on turn."""
        return self._s.racks[self._s.to_move]

    @property
    def bag(self) -> list[str]:
        """The tiles in the bag, sorted (a copy)."""
        return list(self.sort_rack(self._s.bag))

    @property
    def bag_count(self) -> int:
        return len(self._s.bag)

    @property
    def scores(self) -> list[int]:
        return list(self._s.scores)

    @property
    def to_move(self) -> int:
        """Index of the player on turn (meaningless once the game is over)."""
        return self._s.to_move

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(self._s.history)

    @property
    def is_over(self) -> bool:
        return self._s.is_over

    @property
    def end_reason(self) -> str | None:
        """One of :data:`END_REASONS`, or None while the game runs."""
        return self._s.end_reason

    @property
    def winners(self) -> tuple[int, ...]:
        """Indices of the winners (several on a tie; empty while the game runs)."""
        return self._s.winners

    @property
    def players_left(self) -> tuple[int, ...]:
        """Players still in the game (not resigned, lost on time or eliminated)."""
        return tuple(i for i, o in enumerate(self._s.out) if not o)

    @property
    def is_seeded(self) -> bool:
        """True while every rack came from the seeded bag (a GCG record then carries ``#seed``)."""
        return self._s.seeded

    @property
    def pass_count(self) -> int:
        return self._s.pass_count

    @property
    def scoreless_count(self) -> int:
        return self._s.scoreless_count

    def position(self) -> Position:
        """The position for the player on turn: racks and scores rotated so theirs come first."""
        return self._s.pos.rotated()

    def __repr__(self) -> str:
        names = self.names
        if self.is_over:
            won = " and ".join(names[w] for w in self.winners)
            state = f"over ({self.end_reason}{', ' + won + ' won' if won else ''})"
        else:
            state = f"{names[self.to_move]} to move"
        plays = [t for t in self._s.history if t.kind == "play"]
        last = f", last {names[plays[-1].player]} {plays[-1].notation} {plays[-1].score}" if plays else ""
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, self._s.scores))
        return (f"<Game {self.rules.name} seed={self.seed}: {scores}; {plural(len(self._s.history), 'turn')}"
                f"{last}; {state}>")

    # -- moves ------------------------------------------------------------------------
    def generator(self, leaves=None, vocabulary: Lexicon | None = None) -> MoveGenerator:
        """The game's move generator for ``leaves`` (a :class:`~wordsalvo.leaves.Leaves`, or
        None for score alone), made once per table.  Moves it makes through this game's
        :meth:`legal_moves` / :meth:`best_move` are trusted by :meth:`play`.

        ``vocabulary``: a smaller lexicon whose words are all in the game's (checked once
        per pair of lexicons; GameError otherwise): its moves form only words of both."""
        if vocabulary is not None and vocabulary is not self.lexicon:
            _check_subset(vocabulary, self.lexicon)
            lex = vocabulary
        else:
            lex = self.lexicon
        if leaves is None and lex is self.lexicon:
            return self._gen
        key = (id(leaves), id(lex))
        gen = self._gens.get(key)
        if gen is None or gen.leaves is not leaves or gen.lexicon is not lex:
            gen = MoveGenerator(lex, self.rules, leaves=leaves)
            self._gens[key] = gen
        return gen

    def legal_moves(self, leaves=None, vocabulary: Lexicon | None = None) -> MoveList:
        """Every legal tile placement of the player on turn (swaps and passes are not listed);
        with ``leaves`` the list also has ``equity`` and ``leave_value`` columns; with
        ``vocabulary`` only the moves whose words are all in that smaller lexicon."""
        self._check_running()
        moves = self.generator(leaves, vocabulary).generate(self._s.pos)
        moves._token = self._token
        return moves

    def best_move(self, by: str = "score", leaves=None, level: str | None = None, seed: int = 0,
                  avoid_offensive: bool = False):
        """The best placement by ``"score"`` or by ``"equity"`` (with ``leaves``, default:
        the rule set's shipped table), or None when there is none.

        ``avoid_offensive``: skip a move that forms a word of the language's offensive list
        (:mod:`wordsalvo.offensive`, main word or any cross word) and take the best that
        forms none (None when every placement forms one): what a hint should offer.

        With ``level`` (easy, medium, hard, expert, see :mod:`wordsalvo.engine.bot`) it is the
        ACTION that level's engine takes (a Play, a Swap or a Pass), chosen with ``seed``;
        every level avoids offensive words."""
        self._check_running()
        if level is not None:
            from .engine.bot import Bot

            return Bot(level, self.rules, lexicon=self.lexicon, leaves=leaves, seed=seed).choose(self)
        if by == "equity" and leaves is None:
            from .leaves import Leaves

            leaves = Leaves.default(self.rules)
        elif by not in ("score", "equity"):
            raise GameError(f"by: expected 'score' or 'equity', got {by!r}")
        gen = self.generator(leaves if by == "equity" else None)
        moves = gen.best(self._s.pos, n=1, by=by)
        moves._token = self._token
        if not len(moves):
            return None
        if avoid_offensive and self.offensive.is_offensive(moves[0]):
            return self._best_clean(gen, by)
        return moves[0]

    @property
    def offensive(self) -> OffensiveWords:
        """The offensive words of the lexicon's language, which engines and hints never play."""
        return OffensiveWords.default(self.lexicon.alphabet.name)

    def _best_clean(self, gen: MoveGenerator, by: str):
        """The best move that forms no offensive word (the best one does): the next few
        best first, then every move in order."""
        pos = self._s.pos
        for moves in (gen.best(pos, n=_CLEAN_LOOKAHEAD, by=by), gen.generate(pos).sorted(by=by)):
            moves._token = self._token
            move = self.offensive.first_clean(moves)
            if move is not None or len(moves) < _CLEAN_LOOKAHEAD:
                return move
        return None

    def best_swap(self, leaves=None):
        """The swap that keeps the best leave (:meth:`MoveGenerator.best_swap`), or None when
        no swap is allowed now; ``leaves`` defaults to the rule set's shipped table."""
        self._check_running()
        if leaves is None:
            from .leaves import Leaves

            leaves = Leaves.default(self.rules)
        return self.generator(leaves).best_swap(self._s.pos)

    def apply(self, action) -> Turn:
        """Carry out an action (:mod:`wordsalvo.actions`): a Play, a Swap or a Pass."""
        if isinstance(action, Play):
            return self.play(action.move)
        if isinstance(action, Swap):
            return self.swap(action.tiles)
        if isinstance(action, Pass):
            return self.pass_turn()
        raise GameError(f"expected an action (Play, Swap or Pass), got {type(action).__name__}")

    def _check(self, move: Move | str) -> PlacementResult:
        """The one validation path: a notation is read (NotationError when it cannot be) and
        judged by :func:`~wordsalvo.validate.check_notation`, a Move by
        :func:`~wordsalvo.placement.check_move`."""
        board = self._s.pos.board
        counts = rack_counts(self.rules, self.rack)
        if isinstance(move, Move):
            placement = (move.row, move.col, move.direction, move.tiles)
        elif isinstance(move, str):
            return check_notation(board, self.rules, counts, move, self.lexicon.__contains__)
        else:
            raise GameError(f"expected a Move or a notation like '8H WORD', got {type(move).__name__}")
        return check_move(board, self.rules, counts, placement, self.lexicon.__contains__)

    def preview(self, move: Move | str) -> PlacementResult:
        """What a tentative play would do: ``.legal``, ``.words`` and ``.score``, or ``.reasons``
        and ``.problems`` (a notation that does not fit the board, such as ``8H WO(R)D``
        over an empty square, is one: ``NOTATION_MISMATCH``).  Changes nothing.  Only a
        notation that cannot be read raises :class:`~wordsalvo.NotationError`."""
        self._check_running()
        return self._check(move)

    def play(self, move: Move | str) -> Turn:
        """Play a placement (a :class:`Move` or a notation such as ``8H WO(R)D``).

        A Move that this game's :meth:`best_move` or :meth:`legal_moves` made for the
        current position is played as it is (the generator made it legal).  Any other
        move or notation is checked in full first: an illegal move raises
        :class:`~wordsalvo.IllegalMoveError` (``.reason``, ``.reasons``, ``.words``)
        and changes nothing; in strict mode a move whose only fault is words not in
        the lexicon instead costs the turn (a ``refused-play`` turn) and the error is
        not raised.
        """
        self._check_running()
        if isinstance(move, Move) and move._token is self._token:
            self._push_undo()
            return self._play_move(move)
        result = self._check(move)  # reads only
        player = self._s.to_move
        rack = self.rack
        if not result.legal:
            if result.reasons == (IllegalMoveReason.INVALID_WORDS,):
                notation = self._notation(result)
                if self.strict:
                    with self._atomic():
                        self._push_undo()
                        turn = Turn(player, "refused-play", rack, 0, self._s.scores[player], notation,
                                    words=tuple(w.word for w in result.words), attempt_score=result.score)
                        self._end_turn(turn, "refused-play")
                        return turn
                if not self.challenges:
                    # the attempt is seen by the table; the game itself does not change
                    self.refused_attempts.append((player, notation, result.invalid_words))
            if not (self.challenges and result.reasons == (IllegalMoveReason.INVALID_WORDS,)):
                result.raise_if_illegal()  # with challenges a phony stands until it is challenged
        row, col, direction, tiles = result.placement
        checked = Move(row, col, direction, tiles, result.score, bytes(self._s.board), self.rules.alphabet,
                       words=tuple(result.words), rack_size=self.rules.rack_size)
        with self._atomic():
            self._push_undo()
            return self._play_move(checked, tuple(w.word for w in result.words))

    def _play_move(self, move: Move, words: tuple[str, ...] | None = None) -> Turn:
        """Play a legal, scored move of the player on turn: the position changes, the rack
        is refilled from the bag, the turn is recorded and the end rules are checked.
        Nothing here raises for a legal move, so the trusted path needs no snapshot."""
        s = self._s
        pos = s.pos
        player = pos.to_move
        rack = pos.racks[player]
        notation = move.notation
        if words is None:
            words = move.formed_words()
        scoreless = pos.scoreless_turns
        pos.play(move, "".join(self._draw(move.tiles_played)))
        self._token = object()
        turn = Turn(player, "play", rack, move.score, pos.scores[player], notation, words=words)
        if self.rules.end.rack_out and not s.bag and not pos.racks[player]:
            pos.to_move = player  # the game is over with the player who went out
            s.history.append(turn)
            self._finish("out", self.rules.settlement.after_out, finisher=player)
            return turn
        self._end_turn(turn, "play" if move.score else "zero-score-play", scoreless)
        return turn

    def _notation(self, result: PlacementResult) -> str:
        row, col, direction, tiles = result.placement
        return format_notation(self._s.pos.board, row, col, direction, tiles)

    def swap(self, tiles: str | None = None) -> Turn:
        """Exchange ``tiles`` (letters, ``?`` for a blank; None: the whole rack).

        Allowed per ``[swap]``: while the bag holds at least ``min_bag`` tiles (and, with
        ``bag_must_cover_swap``, at least as many as are swapped); ``whole_rack`` rule
        sets swap the whole rack only.  Raises :class:`~wordsalvo.GameError` otherwise.
        """
        self._check_running()
        sw = self.rules.swap
        rack = self.rack
        if tiles is None:
            tiles = rack
        if not isinstance(tiles, str):
            raise GameError(f"swap: expected the tiles as letters (e.g. 'AEI', '?' = blank), got {tiles!r}")
        tiles = normalize_rack(self.rules, tiles.strip(), where="swap")  # lowercase letters are tiles too
        if not tiles:
            raise GameError("swap: expected at least one tile to swap, got none (use pass_turn to pass)")
        missing = Counter(tiles) - Counter(rack)
        if missing:
            raise GameError(f"swap: expected tiles from the rack {rack!r}, got {tiles!r} "
                            f"({''.join(sorted(missing.elements()))} not on the rack)")
        if sw.whole_rack and len(tiles) != len(rack):
            raise GameError(f"swap: rule set {self.rules.name!r} swaps the whole rack only: expected {rack!r}, "
                            f"got {tiles!r}")
        bag = len(self._s.bag)
        if bag < sw.min_bag:
            raise GameError(f"swap: the bag must hold at least {sw.min_bag} tiles, it holds {bag}")
        if sw.bag_must_cover_swap and bag < len(tiles):
            raise GameError(f"swap: the bag must hold at least as many tiles as are swapped ({len(tiles)}), "
                            f"it holds {bag}")
        with self._atomic():
            self._push_undo()
            player = self._s.to_move
            tiles = self.sort_rack(tiles)  # back into the bag in a fixed order, so a record replays the same draws
            if sw.draw_before_return:
                drawn = self._draw(len(tiles))
                self._s.bag.extend(tiles)
            else:
                self._s.bag.extend(tiles)
                drawn = self._draw(len(tiles))
            scoreless = self._s.scoreless_count
            self._s.pos.swap(tiles, "".join(drawn))
            turn = Turn(player, "swap", rack, 0, self._s.scores[player], tiles=self.sort_rack(tiles))
            self._end_turn(turn, "swap", scoreless)
            return turn

    def pass_turn(self) -> Turn:
        """Pass: the turn ends with no play."""
        self._check_running()
        with self._atomic():
            self._push_undo()
            return self._pass()

    def _pass(self, **fields) -> Turn:
        player = self._s.to_move
        turn = Turn(player, "pass", self.rack, 0, self._s.scores[player], **fields)
        scoreless = self._s.scoreless_count
        self._s.pos.pass_turn()
        self._end_turn(turn, "pass", scoreless)
        return turn

    def timeout(self) -> Turn:
        """The player on turn ran out of time: per ``[timer] on_timeout`` the turn ends
        (``end-turn``; ``eliminate_after_timeouts`` in a row eliminate the player) or the
        player loses (``lose``).  A rule set without a clock raises GameError."""
        self._check_running()
        t = self.rules.timer
        if not t.per_move_seconds and not t.table_may_choose:
            raise GameError(f"rule set {self.rules.name!r} has no per-move clock ([timer] per_move_seconds = 0), "
                            "so no time-out can happen")
        with self._atomic():
            self._push_undo()
            player = self._s.to_move
            turn = Turn(player, "timeout", self.rack, 0, self._s.scores[player])
            if t.on_timeout == "lose":
                self._s.history.append(turn)
                self._leave(player, "timeout")
                return turn
            self._s.timeouts[player] += 1
            self._end_turn(turn, "timeout")
            if (t.eliminate_after_timeouts and not self._s.is_over
                    and self._s.timeouts[player] >= t.eliminate_after_timeouts):
                self._leave(player, "elimination")
            return turn

    def resign(self, player: int | None = None) -> Turn:
        """``player`` (default: the one on turn) resigns, at any time.  With one player
        left that player wins whatever the score (``[resign]``); scores stay."""
        self._check_running()
        if not self.rules.resign.allowed:
            raise GameError(f"rule set {self.rules.name!r} does not allow resigning ([resign] allowed = false)")
        player = self._player(player)
        with self._atomic():
            self._push_undo()
            turn = Turn(player, "resign", self._s.racks[player], 0, self._s.scores[player])
            self._s.history.append(turn)
            self._leave(player, "resign")
            return turn

    def abandon(self, player: int | None = None) -> Turn:
        """A player leaves an online game: a resignation when ``[resign]
        abandon_counts_as_resign``, else a time-out of their turn."""
        if self.rules.resign.abandon_counts_as_resign:
            return self.resign(player)
        player = self._player(player)
        if player != self._s.to_move:
            raise GameError(f"abandon: player {player + 1} is not on turn; in rule set {self.rules.name!r} an "
                            "abandoned game runs out of time on the player's own turn")
        return self.timeout()

    # -- challenges ---------------------------------------------------------------------
    def _last_turn_index(self) -> int:
        """Index in the history of the last entry that is a turn (not a settlement), or -1."""
        h = self._s.history
        for i in range(len(h) - 1, -1, -1):
            if h[i].kind not in ("settle", "challenge-bonus"):
                return i
        return -1

    @property
    def can_challenge(self) -> bool:
        """True when :meth:`challenge` may be called now: the table plays with challenges,
        the last turn was a play, its challenge is not decided and nobody acted since
        (also when that play ended the game)."""
        if not self.challenges:
            return False
        i = self._last_turn_index()
        if i < 0 or self._s.challenged == i:
            return False
        return self._s.history[i].kind == "play" and not any(
            t.kind == "challenge-bonus" for t in self._s.history[i + 1:])

    @property
    def challenger(self) -> int | None:
        """Who may challenge now (the next player still in the game after the one who
        played), or None when :attr:`can_challenge` is false."""
        if not self.can_challenge:
            return None
        s = self._s
        if not s.is_over:
            return s.to_move
        n = len(self.names)
        p = s.history[self._last_turn_index()].player
        for k in range(1, n):
            q = (p + k) % n
            if not s.out[q]:
                return q
        return None  # pragma: no cover - a game over by a play has two players left

    def challenge(self) -> Challenge:
        """The next player challenges the last play (see the module docstring).

        A play with a word not in the lexicon is taken back: the game is as it was
        before it (board, racks, bag, random state) and the player loses the turn (a
        ``refused-play`` turn with ``challenge="won"``).  Otherwise the play stands
        and the challenger pays ``[challenge] penalty``.  Raises GameError when
        :attr:`can_challenge` is false."""
        if not self.can_challenge:
            why = ("this game is played without challenges (challenges=False)" if not self.challenges
                   else "the last turn is not a play whose challenge is still open")
            raise GameError(f"challenge: expected a play to challenge right after it was made, got none: {why}")
        s = self._s
        i = self._last_turn_index()
        play = s.history[i]
        challenger = self.challenger
        invalid = tuple(dict.fromkeys(w for w in play.words if w not in self.lexicon))
        rules = self.rules.challenge
        with self._atomic():
            before, draws, attempts = self._undo[-1]  # the state before the play
            self._push_undo()
            if invalid:
                self._restore((before.copy(), draws, attempts))
                player = play.player
                turn = Turn(player, "refused-play", play.rack, 0, self._s.scores[player], play.notation,
                            words=play.words, attempt_score=play.score, challenge="won")
                self._end_turn(turn, "refused-play")
                return Challenge(play, challenger, invalid, rules.penalty, turn)
            s = self._s
            s.challenged = i
            if rules.penalty == "turn":
                turn = None if s.is_over else self._pass(notation=play.notation, challenge="lost")
                return Challenge(play, challenger, (), rules.penalty, turn)
            bonus = rules.points if rules.penalty == "points" else 0
            p = play.player
            s.scores[p] += bonus
            turn = Turn(p, "challenge-bonus", play.rack, bonus, s.scores[p], play.notation)
            # before any settlement the play caused; the settlement totals follow the bonus
            s.history.insert(i + 1, turn)
            if bonus:
                for k in range(i + 2, len(s.history)):
                    t = s.history[k]
                    if t.player == p:
                        s.history[k] = replace(t, total=t.total + bonus)
                if s.is_over:
                    left = self.players_left
                    best = max(s.scores[q] for q in left)
                    s.winners = tuple(q for q in left if s.scores[q] == best)
            return Challenge(play, challenger, (), rules.penalty, turn)

    @property
    def open_play(self) -> Turn | None:
        """The play that :meth:`challenge` would challenge now, or None (see :attr:`can_challenge`)."""
        return self._s.history[self._last_turn_index()] if self.can_challenge else None

    def phonies(self) -> tuple[str, ...]:
        """The words of :attr:`open_play` that are not in the lexicon (what an engine that
        knows every word would challenge); () when there is no open play."""
        play = self.open_play
        if play is None:
            return ()
        return tuple(dict.fromkeys(w for w in play.words if w not in self.lexicon))

    # -- undo and notes -------------------------------------------------------------------
    @property
    def undo_steps(self) -> int:
        """How many steps :meth:`undo` can take back."""
        return len(self._undo)

    def last_turn_of(self, player: int) -> int:
        """Index in the history of ``player``'s last turn (settlements and challenge bonuses
        are not turns), or -1."""
        h = self._s.history
        for i in range(len(h) - 1, -1, -1):
            if h[i].player == player and h[i].kind not in ("settle", "challenge-bonus"):
                return i
        return -1

    def undo(self, player: int | None = None) -> tuple[Turn, ...]:
        """Take back the last step (a turn with the settlement it caused, or a challenge);
        with ``player``: every step back to and including that player's last turn.
        The game is then exactly as it was before (bag and random state included).
        Returns the history entries taken back, oldest first.  Raises GameError when
        there is nothing to take back."""
        if player is not None:
            if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.names):
                raise GameError(f"undo: expected a player index 0..{len(self.names) - 1}, got {player!r}")
            target = self.last_turn_of(player)
            if target < 0 or not self._undo:
                raise GameError(f"undo: expected a turn of player {player + 1} ({self.names[player]}) to take "
                                "back, got none")
        elif not self._undo:
            raise GameError("undo: expected a turn to take back, got none (the game has just started "
                            "or was read from a record without its steps)")
        else:
            target = None
        history = self._s.history
        while self._undo:
            self._restore(self._undo.pop())
            if target is None or len(self._s.history) <= target:
                break
        self._token = object()
        kept = len(self._s.history)
        for note in self._notes:
            note[0] = min(note[0], kept)
        return tuple(history[kept:])

    def add_note(self, text: str) -> None:
        """Keep a remark at the current place in the history (a GCG record writes it as a
        ``#note`` line after the turn before it)."""
        if not isinstance(text, str):
            raise GameError(f"note: expected text, got {type(text).__name__}")
        self._notes.append([len(self._s.history), " ".join(text.split())])

    @property
    def notes(self) -> tuple[tuple[int, str], ...]:
        """The remarks of :meth:`add_note` as (number of history entries before it, text)."""
        kept = len(self._s.history)
        return tuple((min(i, kept), text) for i, text in self._notes)

    # -- records --------------------------------------------------------------------------
    def set_rack(self, player: int, rack: str) -> None:
        """Give ``player`` exactly ``rack`` (for replaying records without a bag seed): the current
        rack goes back to the bag and the tiles are taken from the bag, or, when the bag
        lacks one, from another player's rack, who gets a random tile from the bag for it."""
        s = self._s
        rack = normalize_rack(self.rules, rack, where=f"rack of player {player + 1}")  # lowercase: the same tiles
        if s.racks[player] == rack:
            return
        rack_counts(self.rules, rack, where=f"rack of player {player + 1}")  # checks the size
        with self._atomic():
            s.seeded = False
            s.bag.extend(s.racks[player])
            s.racks[player] = ""
            for ch in rack:
                if ch in s.bag:
                    s.bag.remove(ch)
                    continue
                for other in range(len(self.names)):
                    if other != player and ch in s.racks[other] and s.bag:
                        rest = list(s.racks[other])
                        rest.remove(ch)
                        s.racks[other] = self.sort_rack(rest + self._draw(1))
                        break
                else:
                    raise GameError(f"rack {rack!r} of player {player + 1}: expected tiles that are not on the "
                                    f"board, got {ch!r} (none left)")
            s.racks[player] = self.sort_rack(rack)

    # -- turn machinery -----------------------------------------------------------------
    def _player(self, player: int | None) -> int:
        if player is None:
            return self._s.to_move
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.names):
            raise GameError(f"expected a player index 0..{len(self.names) - 1}, got {player!r}")
        if self._s.out[player]:
            raise GameError(f"player {player + 1} ({self.names[player]}) has already left the game")
        return player

    def _check_running(self) -> None:
        if self._s.is_over:
            raise GameError(f"the game is over ({self._s.end_reason}); expected a running game")

    def _end_turn(self, turn: Turn, kind: str, scoreless_before: int | None = None) -> None:
        """Record a turn of the player on turn, update the counters, check the end rules, move on.
        ``scoreless_before``: the scoreless count before the turn changed the position."""
        s = self._s
        if scoreless_before is None:
            scoreless_before = s.scoreless_count
        rules = self.rules
        s.history.append(turn)
        if kind != "timeout":
            s.timeouts[turn.player] = 0
        counts_as_pass = (
            kind in ("pass", "refused-play")
            or (kind == "swap" and not rules.swap.resets_pass_counter)
            or (kind == "timeout" and rules.timer.timeout_counts_as_pass)
        )
        s.pass_count = s.pass_count + 1 if counts_as_pass else 0
        s.scoreless_count = scoreless_before + 1 if kind in rules.end.scoreless_turn_kinds else 0
        end = rules.end
        active = len(self.players_left)
        if (end.all_pass_rounds and s.pass_count >= end.all_pass_rounds * active) or (
                end.consecutive_passes and s.pass_count >= end.consecutive_passes):
            self._finish("passes", rules.settlement.after_passes)
            return
        if end.scoreless_turns and s.scoreless_count >= end.scoreless_turns and (
                not end.scoreless_turns_bag_below or len(s.bag) < end.scoreless_turns_bag_below):
            self._finish("scoreless", rules.settlement.after_scoreless)
            return
        self._advance(turn.player)

    def _advance(self, p: int) -> None:
        """The next player after ``p`` who is still in the game is on turn."""
        s = self._s
        n = len(self.names)
        for _ in range(n):
            p = (p + 1) % n
            if not s.out[p]:
                s.to_move = p
                return

    def _leave(self, player: int, reason: str) -> None:
        s = self._s
        s.out[player] = True
        left = self.players_left
        if len(left) <= 1:
            s.is_over = True
            s.end_reason = reason
            s.winners = left
            return
        if s.to_move == player:
            self._advance(player)

    def _finish(self, reason: str, settlement: str, finisher: int | None = None) -> None:
        s = self._s
        values = self.rules.tile_values
        alphabet = self.rules.alphabet

        def rack_value(rack: str) -> int:
            return sum(0 if ch == "?" else values[alphabet.code(ch)] for ch in rack)

        left = self.players_left
        if settlement in ("play-out", "subtract-only"):
            for p in left:
                if p != finisher and s.racks[p]:
                    v = rack_value(s.racks[p])
                    s.scores[p] -= v
                    s.history.append(Turn(p, "settle", s.racks[p], -v, s.scores[p], tiles=s.racks[p],
                                          rack_owner=p))
            if settlement == "play-out" and finisher is not None:
                for p in left:
                    if p != finisher and s.racks[p]:
                        v = rack_value(s.racks[p])
                        s.scores[finisher] += v
                        s.history.append(Turn(finisher, "settle", s.racks[p], v, s.scores[finisher],
                                              tiles=s.racks[p], rack_owner=p))
        s.is_over = True
        s.end_reason = reason
        best = max(s.scores[p] for p in left)
        s.winners = tuple(p for p in left if s.scores[p] == best)


def _check_subset(small: Lexicon, big: Lexicon) -> None:
    """GameError unless every word of ``small`` is in ``big`` (remembered per pair of files)."""
    ok = _is_subset(small, big)
    if not ok:
        raise GameError(f"vocabulary {small!r}: expected a lexicon whose words are all in the game's "
                        f"lexicon {big!r}, got one with other words")

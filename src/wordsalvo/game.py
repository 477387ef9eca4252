"""A whole game: bag, racks, turns, end rules and rack settlement.

:class:`Game` plays one game of any rule set.  Everything that differs between
rule sets is read from the rule set's data (``rules.swap``, ``rules.end``,
``rules.settlement``, ``rules.players``, ``rules.timer``, ``rules.resign``,
``rules.strict``, ``rules.deal``; see :mod:`wordsalvo.rules_schema`), never
from its name.

The state and the rules of a turn
---------------------------------
A game's board, racks, bag, scores, counters and end live in one C game state
(:class:`~wordsalvo.gamestate.GameState`, ``csrc/ws_game.c``), and the rules of a
turn are the C state's: the draws, the counters, the end rules and the
settlement are written there once and shared with the engine's self-play (and
its simulator and endgame solver).  This class keeps what only Python needs:
checking moves and notation, the history, challenges, undo and notes.

The bag
-------
The bag starts as the rule set's tiles in file order and is drawn from with
``random.Random(seed)``'s numbers (the C state's copy of Python's generator):
each draw takes ``bag[rng.randrange(len(bag))]``
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

from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Iterator, Sequence

from .actions import Pass, Play, Swap
from .board import Board
from .display import Displayable
from .errors import GameError, IllegalMoveError, IllegalMoveReason, RulesError, WordSalvoError
from .gamestate import GameState, game_rules, letter_counts, play_move, snapshot
from .inputs import excerpt, is_whole, whole_arg
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

#: a game's seed has at most this many decimal digits (and a sign): the ``#seed`` of a GCG
#: record holds as many, so the record of any game reads back
SEED_DIGITS = 40
SEED_MAX = 10 ** SEED_DIGITS - 1

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
    """Everything that changes during a game (copied for atomic calls and undo).

    ``c`` is the C state: board, racks, bag, scores, player on turn, counters,
    time-outs, who left, the end and its settlement, and the bag's random stream.
    A copy shares the history list and keeps its length (``size``): the list only ever
    grows by appends in place (a change inside it copies it first, a restore takes the
    prefix), so a copy costs the same on turn 10,000 as on turn 1."""

    c: GameState
    history: list[Turn]
    #: the racks came from the seeded bag alone (False once a rack was set from a record)
    seeded: bool = True
    #: index in ``history`` of the play whose challenge was decided (it cannot be challenged again)
    challenged: int = -1
    #: a copy: the entries of ``history`` that are its own (-1: all of them)
    size: int = -1

    def copy(self) -> "_State":
        return _State(self.c.copy(), self.history, self.seeded, self.challenged,
                      len(self.history) if self.size < 0 else self.size)

    def own(self) -> "_State":
        """This copy made the live state: its own history list, its prefix of the shared one."""
        if self.size >= 0:
            self.history = self.history[:self.size]
            self.size = -1
        return self


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
        if is_whole(players):
            players = int(players)
        elif not isinstance(players, (list, tuple)):
            raise GameError(f"players: expected a number or a list of names, got {excerpt(players)}")
        count = players if isinstance(players, int) else len(players)
        if not rules.players.min <= count <= rules.players.max:  # before any name is made
            raise GameError(f"rule set {rules.name!r}: expected {rules.players.min}..{rules.players.max} players, "
                            f"got {count}")
        names = [f"Player{i + 1}" for i in range(players)] if isinstance(players, int) else [str(p) for p in players]
        bad = [n for n in names if not n or any(ch.isspace() for ch in n) or ":" in n]
        if bad or len(set(names)) != len(names):
            raise GameError(f"player names: expected distinct names without spaces or ':', got {excerpt(names)}")
        # at most SEED_DIGITS digits: what a record's #seed holds, so every game's record reads back
        seed = whole_arg(seed, "seed", GameError, low=-SEED_MAX, high=SEED_MAX,
                         expected=f"a whole number of at most {SEED_DIGITS} digits (and a sign)")
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
        #: the state before each step, for undo: (state, refused attempts)
        self._undo: list[tuple[_State, int]] = []
        #: remarks: [number of history entries before the note, text]
        self._notes: list[list] = []
        n = len(names)
        try:  # the C state deals the first racks ([deal])
            state = GameState(game_rules(rules, n), seed)
        except RulesError:
            raise GameError(f"rule set {rules.name!r}: the bag holds too few vowels or consonants "
                            f"for the first deal of {n} players") from None
        except WordSalvoError as e:
            raise GameError(f"seed: expected a whole number of at most 2048 bits, got {excerpt(seed)} ({e})") from None
        self._s = _State(state, [])
        self._letters = ("?",) + tuple(rules.alphabet.letters)  # by tile code
        #: the Position of the current state (made when asked for): (C state, version, position)
        self._pos: tuple | None = None

    # -- pickling ---------------------------------------------------------------------
    def __getstate__(self) -> dict:
        """Everything but the move generators (C working memory; rebuilt on unpickling).
        The lexicon pickles by path or language (see :class:`~wordsalvo.Lexicon`)."""
        state = dict(self.__dict__)
        del state["_gen"], state["_gens"], state["_pos"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._gen = MoveGenerator(self.lexicon, self.rules)
        self._gens = {}
        self._pos = None
        self._token = object()  # moves listed before pickling are checked again when played

    # -- the bag ----------------------------------------------------------------------
    def sort_rack(self, letters: str | list[str]) -> str:
        """``letters`` in the order racks are written: the alphabet's order, blanks (``?``) last."""
        return self.rules.alphabet.sort_rack(letters)

    def _letters_of(self, codes: bytes) -> str:
        """Tile codes (0 = blank) as rack letters."""
        letters = self._letters
        return "".join([letters[c] for c in codes])

    def _changed(self) -> None:
        """The state changed: moves made before are checked again, the position is made again."""
        self._token = object()
        self._pos = None

    def _position(self) -> Position:
        """The game's position (board, racks, scores in player order, player on turn,
        scoreless count), made from the C state when it changed; not to be changed."""
        c = self._s.c
        hit = self._pos
        if hit is not None and hit[0] is c and hit[1] == c.version:
            return hit[2]
        pos = snapshot(c, self.rules)
        self._pos = (c, c.version, pos)
        return pos

    # -- state ------------------------------------------------------------------------
    @contextmanager
    def _atomic(self) -> Iterator[None]:
        saved = (self._s.copy(), len(self.refused_attempts))
        steps = len(self._undo)
        self._changed()
        try:
            yield
        except BaseException:
            self._restore(saved)
            del self._undo[steps:]
            raise

    def _push_undo(self) -> None:
        """Remember the state before a step (see :meth:`undo`)."""
        self._undo.append((self._s.copy(), len(self.refused_attempts)))

    def _restore(self, saved: tuple) -> None:
        """Back to a state that :meth:`_push_undo` (or :meth:`_atomic`) saved."""
        state, attempts = saved  # the random stream is part of the state
        self._s = state.own()
        self._changed()
        del self.refused_attempts[attempts:]

    @property
    def board(self) -> Board:
        """A copy of the board."""
        return self._position().board.copy()

    @property
    def racks(self) -> list[str]:
        """Every player's rack, in player order (``?`` = blank)."""
        return list(self._position().racks)

    @property
    def rack(self) -> str:
        """The rack of the player on turn."""
        pos = self._position()
        return pos.racks[pos.to_move]

    @property
    def bag(self) -> list[str]:
        """The tiles in the bag, sorted (a copy)."""
        return list(self.sort_rack(self._letters_of(self._s.c.bag)))

    @property
    def bag_count(self) -> int:
        return self._s.c.bag_count

    @property
    def scores(self) -> list[int]:
        return list(self._s.c.scores)

    @property
    def to_move(self) -> int:
        """Index of the player on turn (meaningless once the game is over)."""
        return self._s.c.to_move

    @property
    def history(self) -> tuple[Turn, ...]:
        return tuple(self._s.history)

    @property
    def is_over(self) -> bool:
        return self._s.c.is_over

    @property
    def end_reason(self) -> str | None:
        """One of :data:`END_REASONS`, or None while the game runs."""
        return self._s.c.end_reason

    @property
    def winners(self) -> tuple[int, ...]:
        """Indices of the winners (several on a tie; empty while the game runs)."""
        return self._s.c.winners

    @property
    def players_left(self) -> tuple[int, ...]:
        """Players still in the game (not resigned, lost on time or eliminated)."""
        return self._s.c.players_left

    @property
    def is_seeded(self) -> bool:
        """True while every rack came from the seeded bag (a GCG record then carries ``#seed``)."""
        return self._s.seeded

    @property
    def pass_count(self) -> int:
        return self._s.c.pass_count

    @property
    def scoreless_count(self) -> int:
        return self._s.c.scoreless_count

    def position(self) -> Position:
        """The position for the player on turn: racks and scores rotated so theirs come first."""
        return self._position().rotated()

    def state(self) -> GameState:
        """A copy of the game's C state (:class:`~wordsalvo.gamestate.GameState`): board,
        racks, bag in draw order, scores, counters and the bag's random stream, for code
        that plays on in C (a simulation, an endgame search)."""
        return self._s.c.copy()

    def __repr__(self) -> str:
        names = self.names
        if self.is_over:
            won = " and ".join(names[w] for w in self.winners)
            state = f"over ({self.end_reason}{', ' + won + ' won' if won else ''})"
        else:
            state = f"{names[self.to_move]} to move"
        plays = [t for t in self._s.history if t.kind == "play"]
        last = f", last {names[plays[-1].player]} {plays[-1].notation} {plays[-1].score}" if plays else ""
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, self.scores))
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
        moves = self.generator(leaves, vocabulary).generate(self._s.c)
        moves._token = self._token
        return moves

    def best_move(self, by: str = "score", leaves=None, avoid_offensive: bool = False) -> Move | None:
        """The best placement by ``"score"`` or by ``"equity"`` (with ``leaves``, default:
        the rule set's shipped table), or None when there is none.

        ``avoid_offensive``: skip a move that forms a word of the language's offensive list
        (:mod:`wordsalvo.offensive`, main word or any cross word) and take the best that
        forms none (None when every placement forms one): what a hint should offer.

        The n best placements: :meth:`top`; the action an engine level takes:
        :meth:`engine_action`."""
        self._check_running()
        gen = self.generator(self._ranking_leaves(by, leaves))
        moves = gen.top(self._s.c, 1, by=by)
        moves._token = self._token
        if not len(moves):
            return None
        if avoid_offensive and self.offensive.is_offensive(moves[0]):
            return self._best_clean(gen, by)
        return moves[0]

    def engine_action(self, level: str, seed: int = 0, leaves=None):
        """The ACTION the engine of ``level`` (easy, medium, hard, expert, master, see
        :mod:`wordsalvo.engine.bot`) takes here: a :class:`~wordsalvo.actions.Play`, a
        :class:`~wordsalvo.actions.Swap` or a :class:`~wordsalvo.actions.Pass`, chosen with
        ``seed`` (``leaves``: its leave table, default the rule set's).  Every level avoids
        offensive words; :meth:`apply` carries the action out."""
        self._check_running()
        from .engine.bot import Bot

        return Bot(level, self.rules, lexicon=self.lexicon, leaves=leaves, seed=seed).choose(self)

    def top(self, n: int, by: str = "score", leaves=None) -> MoveList:
        """The ``n`` best placements (fewer when there are fewer) by ``"score"`` or by
        ``"equity"`` (with ``leaves``, default: the rule set's shipped table), best first:
        the first ``n`` of ``legal_moves(leaves).sorted(by)``, found without listing
        them all; :meth:`play` trusts them."""
        self._check_running()
        n = whole_arg(n, "n", GameError, low=1)
        moves = self.generator(self._ranking_leaves(by, leaves)).top(self._s.c, n, by=by)
        moves._token = self._token
        return moves

    def _ranking_leaves(self, by: str, leaves):
        """The leave table a ranking ``by`` score or equity uses: None by score; by equity
        ``leaves``, default the rule set's shipped table."""
        if by == "score":
            return None
        if by != "equity":
            raise GameError(f"by: expected 'score' or 'equity', got {by!r}")
        if leaves is None:
            from .leaves import Leaves

            return Leaves.default(self.rules)
        return leaves

    @property
    def offensive(self) -> OffensiveWords:
        """The offensive words of the lexicon's language, which engines and hints never play."""
        return OffensiveWords.default(self.lexicon.alphabet.name)

    def _best_clean(self, gen: MoveGenerator, by: str):
        """The best move that forms no offensive word (the best one does): the next few
        best first, then every move in order."""
        pos = self._s.c
        for moves in (gen.top(pos, _CLEAN_LOOKAHEAD, by=by), gen.generate(pos).sorted(by=by)):
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
        return self.generator(leaves).best_swap(self._position())

    def static_choice(self, by: str = "score", leaves=None, *, last_kind: str | None = None,
                      swap_ceiling: float | None = None, given=True):
        """The choice of the static player by ``"score"`` or by ``"equity"`` (with ``leaves``,
        default: the rule set's shipped table) for the player on turn, from the C state
        (:meth:`MoveGenerator.choose`, ``csrc/ws_action.h``): a
        :class:`~wordsalvo.actions.Choice` whose play :meth:`play` trusts.  The ``score``
        and ``equity`` engines are this choice (:mod:`wordsalvo.engine.bot`)."""
        self._check_running()
        gen = self.generator(self._ranking_leaves(by, leaves))
        return gen.choose(self._s.c, last_kind=last_kind, swap_ceiling=swap_ceiling, given=given, _token=self._token)

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
        pos = self._position()
        board = pos.board
        counts = rack_counts(self.rules, pos.racks[pos.to_move])
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
            try:
                return self._play_move(move)
            except BaseException:  # atomic: back to the state just saved (costs nothing otherwise)
                self._restore(self._undo.pop())
                raise
        result = self._check(move)  # reads only
        player = self._s.c.to_move
        rack = self.rack
        if not result.legal:
            if result.reasons == (IllegalMoveReason.INVALID_WORDS,):
                notation = self._notation(result)
                if self.strict:
                    with self._atomic():
                        self._push_undo()
                        turn = Turn(player, "refused-play", rack, 0, self._s.c.scores[player], notation,
                                    words=tuple(w.word for w in result.words), attempt_score=result.score)
                        self._s.c.refused()
                        self._end_turn(turn)
                        return turn
                if not self.challenges:
                    # the attempt is seen by the table; the game itself does not change
                    self.refused_attempts.append((player, notation, result.invalid_words))
            if not (self.challenges and result.reasons == (IllegalMoveReason.INVALID_WORDS,)):
                result.raise_if_illegal()  # with challenges a phony stands until it is challenged
        row, col, direction, tiles = result.placement
        checked = Move(row, col, direction, tiles, result.score, self._s.c.board, self.rules.alphabet,
                       words=tuple(result.words), rack_size=self.rules.rack_size)
        with self._atomic():
            self._push_undo()
            return self._play_move(checked, tuple(w.word for w in result.words))

    def _play_move(self, move: Move, words: tuple[str, ...] | None = None) -> Turn:
        """Play a legal, scored move of the player on turn: the C state places it, refills
        the rack, ends the turn or the game; the turn is recorded."""
        c = self._s.c
        player = c.to_move
        pos = self._position()
        rack = pos.racks[player]
        notation = move.notation
        if words is None:
            words = move.formed_words()
        total = c.scores[player] + move.score
        play_move(c, move)  # a move that does not fit: UnplaceableMoveError (an IllegalMoveError), no change
        self._changed()
        turn = Turn(player, "play", rack, move.score, total, notation, words=words)
        self._end_turn(turn)
        return turn

    def _notation(self, result: PlacementResult) -> str:
        row, col, direction, tiles = result.placement
        return format_notation(self._position().board, row, col, direction, tiles)

    def check_swap(self, tiles: str | None = None) -> str:
        """The tiles :meth:`swap` would put back (normalised: lowercase letters are tiles,
        ``?`` a blank; None: the whole rack), or GameError saying why it cannot; nothing
        changes.  A front end asks this before it asks the player to confirm."""
        self._check_running()
        sw = self.rules.swap
        rack = self.rack
        if tiles is None:
            tiles = rack
        if not isinstance(tiles, str):
            raise GameError(f"swap: expected the tiles as letters (e.g. 'AEI', '?' = blank), got {tiles!r}")
        tiles = normalize_rack(self.rules, tiles.strip(), where="swap")  # lowercase letters are tiles too
        if len(tiles) > len(rack):
            raise GameError(f"swap: expected at most the {len(rack)} tiles of the rack {rack!r}, got "
                            f"{len(tiles):,} ({excerpt(tiles)})")
        if not tiles:
            raise GameError("swap: expected at least one tile to swap, got none (use pass_turn to pass)")
        c = self._s.c
        problem = c.swap_check(letter_counts(self.rules, tiles))  # the rules of [swap] are the C state's
        if problem == "not-on-rack":
            missing = Counter(tiles) - Counter(rack)
            raise GameError(f"swap: expected tiles from the rack {rack!r}, got {tiles!r} "
                            f"({''.join(sorted(missing.elements()))} not on the rack)")
        if problem == "whole-rack":
            raise GameError(f"swap: rule set {self.rules.name!r} swaps the whole rack only: expected {rack!r}, "
                            f"got {tiles!r}")
        if problem == "bag-min":
            raise GameError(f"swap: the bag must hold at least {sw.min_bag} tiles, it holds {c.bag_count}")
        if problem == "bag-cover":
            raise GameError(f"swap: the bag must hold at least as many tiles as are swapped ({len(tiles)}), "
                            f"it holds {c.bag_count}")
        return tiles

    def swap(self, tiles: str | None = None) -> Turn:
        """Exchange ``tiles`` (letters, ``?`` for a blank; None: the whole rack).

        Allowed per ``[swap]``: while the bag holds at least ``min_bag`` tiles (and, with
        ``bag_must_cover_swap``, at least as many as are swapped); ``whole_rack`` rule
        sets swap the whole rack only.  Raises :class:`~wordsalvo.GameError` otherwise.
        """
        tiles = self.check_swap(tiles)
        rack = self.rack
        with self._atomic():
            self._push_undo()
            c = self._s.c
            player = c.to_move
            turn = Turn(player, "swap", rack, 0, c.scores[player], tiles=self.sort_rack(tiles))
            c.swap(letter_counts(self.rules, tiles))  # back into the bag in rack order, drawn per [swap]
            self._end_turn(turn)
            return turn

    def can_swap(self, n: int) -> bool:
        """Whether the player on turn may swap ``n`` tiles now (``[swap]``: the bag's
        minimum, ``bag_must_cover_swap``, ``whole_rack``; the C state's rule)."""
        n = whole_arg(n, "can_swap", GameError, expected="a number of tiles")
        return 0 <= n <= self.rules.rack_size and self._s.c.swap_allowed(n)

    def pass_turn(self) -> Turn:
        """Pass: the turn ends with no play."""
        self._check_running()
        with self._atomic():
            self._push_undo()
            return self._pass()

    def _pass(self, **fields) -> Turn:
        c = self._s.c
        player = c.to_move
        turn = Turn(player, "pass", self.rack, 0, c.scores[player], **fields)
        c.pass_turn()
        self._end_turn(turn)
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
            c = self._s.c
            player = c.to_move
            turn = Turn(player, "timeout", self.rack, 0, c.scores[player])
            c.timeout()
            self._end_turn(turn)
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
            c = self._s.c
            turn = Turn(player, "resign", self.racks[player], 0, c.scores[player])
            c.resign(player)
            self._end_turn(turn)
            return turn

    def abandon(self, player: int | None = None) -> Turn:
        """A player leaves an online game: a resignation when ``[resign]
        abandon_counts_as_resign``, else a time-out of their turn."""
        if self.rules.resign.abandon_counts_as_resign:
            return self.resign(player)
        player = self._player(player)
        if player != self._s.c.to_move:
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
        if not s.c.is_over:
            return s.c.to_move
        n = len(self.names)
        p = s.history[self._last_turn_index()].player
        left = s.c.players_left
        for k in range(1, n):
            q = (p + k) % n
            if q in left:
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
            before, attempts = self._undo[-1]  # the state before the play
            self._push_undo()
            if invalid:
                self._restore((before.copy(), attempts))
                player = play.player
                turn = Turn(player, "refused-play", play.rack, 0, self._s.c.scores[player], play.notation,
                            words=play.words, attempt_score=play.score, challenge="won")
                self._s.c.refused()
                self._end_turn(turn)
                return Challenge(play, challenger, invalid, rules.penalty, turn)
            s = self._s
            s.challenged = i
            if rules.penalty == "turn":
                turn = None if s.c.is_over else self._pass(notation=play.notation, challenge="lost")
                return Challenge(play, challenger, (), rules.penalty, turn)
            bonus = rules.points if rules.penalty == "points" else 0
            p = play.player
            s.c.add_score(p, bonus)  # the winners of a game over follow the scores
            turn = Turn(p, "challenge-bonus", play.rack, bonus, s.c.scores[p], play.notation)
            # before any settlement the play caused; the settlement totals follow the bonus
            s.history = list(s.history)  # a change inside the list: the copies keep theirs
            s.history.insert(i + 1, turn)
            if bonus:
                for k in range(i + 2, len(s.history)):
                    t = s.history[k]
                    if t.player == p:
                        s.history[k] = replace(t, total=t.total + bonus)
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
            player = whole_arg(player, "undo", GameError, low=0, high=len(self.names) - 1,
                               expected=f"a player index 0..{len(self.names) - 1}")
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
        player = whole_arg(player, "set_rack: player", GameError, low=0, high=len(self.names) - 1)
        rack = normalize_rack(self.rules, rack, where=f"rack of player {player + 1}")  # lowercase: the same tiles
        if self.racks[player] == rack:
            return
        rack_counts(self.rules, rack, where=f"rack of player {player + 1}")  # checks the size
        code = self.rules.alphabet._code  # type: ignore[attr-defined]
        with self._atomic():
            s = self._s
            c = s.c
            s.seeded = False
            c.return_rack(player)
            for ch in rack:
                t = 0 if ch == "?" else code[ch]
                if t in c.bag:
                    c.take_from_bag(player, t)
                    continue
                for other in range(len(self.names)):
                    if other != player and c.rack(other)[t] and c.bag_count:
                        c.give_tile(other, player, t)
                        c.draw(other, 1)  # a random tile of the bag for it
                        break
                else:
                    raise GameError(f"rack {rack!r} of player {player + 1}: expected tiles that are not on the "
                                    f"board, got {ch!r} (none left)")

    # -- turn machinery -----------------------------------------------------------------
    def _player(self, player: int | None) -> int:
        if player is None:
            return self._s.c.to_move
        player = whole_arg(player, "player", GameError, low=0, high=len(self.names) - 1,
                           expected=f"a player index 0..{len(self.names) - 1}")
        if player not in self._s.c.players_left:
            raise GameError(f"player {player + 1} ({self.names[player]}) has already left the game")
        return player

    def _check_running(self) -> None:
        if self._s.c.is_over:
            raise GameError(f"the game is over ({self._s.c.end_reason}); expected a running game")

    def _end_turn(self, turn: Turn) -> None:
        """Record a turn the C state has just taken (its counters, end rules and next
        player are the C state's), and the settlement when it ended the game."""
        s = self._s
        s.history.append(turn)
        self._changed()
        c = s.c
        if c.is_over:
            for p, owner, score, total in c.settlement:
                rack = self._letters_of(c.rack_codes(owner))
                s.history.append(Turn(p, "settle", rack, score, total, tiles=rack, rack_owner=owner))


def _check_subset(small: Lexicon, big: Lexicon) -> None:
    """GameError unless every word of ``small`` is in ``big`` (remembered per pair of files)."""
    ok = _is_subset(small, big)
    if not ok:
        raise GameError(f"vocabulary {small!r}: expected a lexicon whose words are all in the game's "
                        f"lexicon {big!r}, got one with other words")

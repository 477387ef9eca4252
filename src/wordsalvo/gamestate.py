"""The C game state: one state and one set of turn rules for Game, self-play, the
simulator and the endgame solver.

:class:`GameState` (``csrc/ws_game.c`` through Cython) holds a game's board, racks
as tile counts, the bag in draw order, scores, the player on turn, the pass and
scoreless counters, time-outs, who left, the end and its settlement, the game's
random stream (Python's Mersenne Twister in C) and a Zobrist hash.  Every turn
kind (play, swap, pass, refused play, time-out, resignation) is a C function with
an exact undo.  :class:`GameRules` is a rule set's ``[swap]``, ``[end]``,
``[settlement]``, ``[timer]`` and ``[deal]`` as the C state reads them, built here,
once, from a :class:`~wordsalvo.Rules` (:func:`game_rules`).

:class:`~wordsalvo.Game` plays on a GameState (the rules of a turn are written only
in C); :func:`state_from_position` makes one from a :class:`~wordsalvo.Position`
(the unseen tiles in the bag, or the bag given), :meth:`Game.state
<wordsalvo.Game.state>` copies a game's, and :func:`snapshot` is the other way: the
Position of a state, a new object nothing changes afterwards.  A turn is played only
here, in C: :func:`play_move` places a :class:`~wordsalvo.moves.Move` on a state and
:func:`after` gives the Position after a move (a Position has no turns of its own).
See ``docs/game-state.md`` for the C API.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict

from ._core import _engine
from .errors import PositionError, RulesError, UnplaceableMoveError
from .inputs import excerpt
from .leaves import _MULTI_PLAYER_TERMS, _TWO_PLAYER_TERMS
from .position import Position, normalize_rack
from .rules import Rules

__all__ = ["GameRules", "GameState", "game_rules", "rule_values", "state_from_position", "rack_letters",
           "letter_counts", "tile_codes", "snapshot", "play_move", "after"]

GameRules = _engine.GameRules
GameState = _engine.GameState

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 32
#: the GameRules of a Rules object by number of players (a request's position finds them
#: without building the key above)
_BY_RULES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def rule_values(rules: Rules) -> dict:
    """The rule values of :class:`GameRules` (everything but the tile set and the
    end-game terms) from a rule set's sections."""
    sw, end, st, timer, deal = rules.swap, rules.end, rules.settlement, rules.timer, rules.deal
    modes = _engine.SETTLEMENT_MODES
    kinds = 0
    for kind in end.scoreless_turn_kinds:
        kinds |= _engine.SCORELESS_BITS[kind]
    return {
        "first_vowels": deal.first_deal_min_vowels, "first_consonants": deal.first_deal_min_consonants,
        "swap_min_bag": sw.min_bag, "swap_whole_rack": int(sw.whole_rack),
        "swap_must_cover": int(sw.bag_must_cover_swap), "swap_draw_first": int(sw.draw_before_return),
        "swap_resets_pass": int(sw.resets_pass_counter),
        "rack_out": int(end.rack_out), "all_pass_rounds": end.all_pass_rounds,
        "consecutive_passes": end.consecutive_passes, "scoreless_turns": end.scoreless_turns,
        "scoreless_bag_below": end.scoreless_turns_bag_below, "scoreless_kinds": kinds,
        "timeout_counts_as_pass": int(timer.timeout_counts_as_pass), "timeout_loses": int(timer.on_timeout == "lose"),
        "eliminate_after": timer.eliminate_after_timeouts,
        "settle_out": modes[st.after_out], "settle_passes": modes[st.after_passes],
        "settle_scoreless": modes[st.after_scoreless],
    }


def game_rules(rules: Rules, players: int) -> GameRules:
    """The C rules of ``rules`` for a game of ``players`` (made once per distinct rule
    data: rule sets that differ only in their board share them; found by the Rules
    object first, which is immutable)."""
    if not isinstance(rules, Rules):
        raise RulesError(f"expected a Rules object, got {type(rules).__name__}")
    mine = _BY_RULES.get(rules)
    if mine is not None and players in mine:
        return mine[players]
    alphabet = rules.alphabet
    bag = bytes(0 if letter == "?" else alphabet.code(letter)
                for letter, (count, _v) in rules.tiles.items() for _ in range(count))
    vowels = 0
    for letter in rules.deal.vowels:
        if letter != "?" and letter in alphabet.letters:
            vowels |= 1 << alphabet.code(letter)
    values = rule_values(rules)
    terms = _TWO_PLAYER_TERMS if players <= 2 else _MULTI_PLAYER_TERMS
    values["keep_factor"], values["out_factor"], values["out_bonus"] = terms.get(rules.settlement.after_out,
                                                                                 (0.0, 0.0, 0.0))
    tile_values = tuple(rules.tile_values)
    key = (players, rules.rack_size, tile_values, bag, vowels, tuple(sorted(values.items())))
    made = _CACHE.get(key)
    if made is not None:
        _CACHE.move_to_end(key)
    else:
        made = GameRules(players, rules.rack_size, tile_values, bag, vowels, values)
        _CACHE[key] = made
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    _BY_RULES.setdefault(rules, {})[players] = made
    return made


def letter_counts(rules: Rules, letters) -> bytes:
    """33 counts by tile code of rack letters (``?`` = blank; no size check)."""
    counts = bytearray(33)
    for t in tile_codes(rules, letters):
        counts[t] += 1
    return bytes(counts)


def tile_codes(rules: Rules, letters) -> bytes:
    """The tile code of each rack letter, in the order given (``?`` = blank, code 0): a bag
    for :meth:`GameState.set_tiles`, a rack or swap for a turn record."""
    code = rules.alphabet._code  # type: ignore[attr-defined]
    return bytes(0 if ch == "?" else code[ch] for ch in letters)


def rack_letters(rules: Rules, codes: bytes) -> str:
    """Tile codes (0 = blank) as rack letters."""
    letters = rules.alphabet.letters
    return "".join("?" if c == 0 else letters[c - 1] for c in codes)


def state_from_position(pos, bag: str | None = None, seed: int = 0) -> GameState:
    """A GameState of a :class:`~wordsalvo.Position`: its board, every rack, scores,
    player on turn and scoreless count; the bag holds ``bag`` (rack letters) or, by
    default, the tiles nobody can see (the tile set less the board and every rack),
    in the alphabet's order.  The random stream is seeded with ``seed``.

    For a simulation: give the opponent's rack as "" and draw it from the bag
    (``state.return_rack(p); state.draw(p, 7)``); for an endgame: both racks, and the
    bag is empty when the position uses every tile.  PositionError when the position
    uses more of a tile than the set holds (``bag`` given: it is taken as it is)."""
    rules = pos.rules
    players = len(pos.racks)
    state = GameState(game_rules(rules, players))
    state.set_board(bytes(pos.board.tiles))
    racks = [pos.rack_counts(r) for r in pos.racks]
    if bag is None:
        state.set_tiles(racks, b"")
        over = state.set_bag_unseen()  # the tile set less the board and the racks, in rack order
        if over:
            letters = rules.alphabet.letters
            names = sorted("?" if t == 0 else letters[t - 1] for t in over)
            raise PositionError(f"the position uses more {', '.join(names)} than the {rules.name} tile set holds")
    else:
        bag = normalize_rack(rules, bag, where="bag")
        state.set_tiles(racks, tile_codes(rules, bag))
    state.set_scores(pos.scores)
    state.set_turn(pos.to_move, pos.scoreless_count, 0)
    state.seed(seed)
    return state


def snapshot(state: GameState, rules: Rules, opcodes: dict | None = None, rack: str | None = None) -> Position:
    """The :class:`~wordsalvo.Position` of ``state`` (board, every rack in rack order,
    scores, player on turn, scoreless count; ``opcodes`` for its CGP line): a new object
    made from the C state's parts, which are checked already.  ``rules``: the rule set the
    state's GameRules were made from; ``rack``: the rack on turn as its writer gave it (a
    record's), the same tiles as the state's in that order (PositionError otherwise)."""
    if not isinstance(state, GameState):
        raise PositionError(f"snapshot: expected a GameState, got {type(state).__name__}")
    if not isinstance(rules, Rules) or rules.alphabet.size != state.rules.alphabet_size:
        got = f"{rules.alphabet.size} letters" if isinstance(rules, Rules) else type(rules).__name__
        raise PositionError(f"snapshot: expected the Rules of the state ({state.rules.alphabet_size} letters), "
                            f"got {got}")
    racks = [rack_letters(rules, state.rack_codes(p)) for p in range(state.players)]
    if rack is not None:
        p = state.to_move
        rack = normalize_rack(rules, rack, where="snapshot: rack")
        if sorted(rack) != sorted(racks[p]):
            raise PositionError(f"snapshot: expected the tiles of rack {p + 1} ({racks[p]!r}) in any order, "
                                f"got {excerpt(rack)}")
        racks[p] = rack
    pos = Position._trusted(rules, state.board, racks, list(state.scores), state.scoreless_count, state.to_move)
    if opcodes:
        pos.opcodes = dict(opcodes)
    return pos


def play_move(state: GameState, move) -> None:
    """The player on turn of ``state`` plays ``move`` (a :class:`~wordsalvo.moves.Move`,
    trusted to be legal and scored): the C state places it, draws, applies the end rules and
    moves the turn on; ``state.undo()`` takes it back.  A move that does not fit raises
    :class:`~wordsalvo.errors.UnplaceableMoveError` naming the move and why, and changes
    nothing."""
    try:
        state.play(move.row, move.col, int(move.direction), bytes(move.tiles), move.score)
    except UnplaceableMoveError as e:
        letters = move._alphabet.letters
        rack = "".join("?" if t == 0 else letters[t - 1] for t in state.rack_codes(state.to_move))
        raise UnplaceableMoveError(f"{move.notation}: expected a move that fits the position (new tiles on "
                                   f"empty squares, from the rack {rack!r}), got one with "
                                   f"{str(e).removeprefix('play: ')}", e.reason) from None


def after(pos: Position, move, drawn: str | None = None, seed: int = 0) -> Position:
    """A new :class:`~wordsalvo.Position`: ``pos`` after its player on turn plays ``move``,
    played by the C game state (:func:`play_move`) and taken as a :func:`snapshot`; ``pos``
    is unchanged.

    ``drawn``: the tiles the player draws (rack letters; fewer than the tiles played: the
    bag held no more); None: the bag is the tiles nobody sees (:func:`state_from_position`)
    and the state draws from it with its random stream seeded ``seed``.  When the rack is
    empty and the bag too, the game ends there by the rule set's ``[end]``: the scores are
    the settled ones.

    The move is trusted to be legal and scored for ``pos``; what would corrupt a position
    (a new tile off the board or on a square that holds one, a tile not on the rack, no new
    tile) raises :class:`~wordsalvo.errors.UnplaceableMoveError` with its reason, drawn tiles
    the rack has no room for, or more than were played, PositionError."""
    if not isinstance(pos, Position):
        raise PositionError(f"after: expected a Position, got {type(pos).__name__}")
    tiles = getattr(move, "tiles", None)
    if tiles is None or not hasattr(move, "notation"):
        raise PositionError(f"after: expected a Move, got {type(move).__name__}")
    if drawn is not None:
        drawn = normalize_rack(pos.rules, drawn, where="drawn tiles")
        played = sum(1 for t in tiles if t)
        kept = len(pos.rack) - played
        if len(drawn) > played or kept + len(drawn) > pos.rules.rack_size:
            raise PositionError(f"drawn tiles {excerpt(drawn)}: expected at most {min(played, pos.rules.rack_size)} "
                                f"tiles (those {move.notation} played, a rack of at most {pos.rules.rack_size}), "
                                f"got {len(drawn)}")
    state = state_from_position(pos, bag=drawn, seed=seed)
    play_move(state, move)
    return snapshot(state, pos.rules, pos.opcodes)

"""Inference: which tiles did the opponent probably keep?

A player who made a play kept the rest of a rack the observer cannot see.  But the
play says something about that rest: a good player rarely plays ``8H AX`` for 20
points while holding the tiles of a 70-point bingo.  :func:`infer` turns that into a
distribution over the tiles kept, the way strong engines do:

* the **pool** is every tile the observer cannot see before the play: the tile set
  less the board and the observer's own rack (the bag and the mover's rack pooled);
* the mover's rack was the tiles played plus a **leave** ``L`` of ``k`` tiles from the
  pool (``k`` = rack size less the tiles played, or what the pool holds);
* for every such leave, the mover's best action by static equity (score plus the value
  of the tiles kept: :mod:`wordsalvo.leaves`; an exchange too) is found for the rack
  ``played + L``; the leave is **kept** when the play made is within ``margin`` points
  of equity of that best, i.e. a player choosing by equity could have made it;
* each kept leave is weighted by how many ways it can be drawn from the pool (the
  product of binomials of its letters), so the result is the distribution of the
  leave *given* that the mover chose (nearly) by equity.

For an exchange the observer sees only how many tiles went back: the whole rack is
unknown, every rack of the pool is tried, and it is kept when the mover's best action
is an exchange of that many tiles (or a play within the margin of an exchange); the
leave kept is the best exchange's leave for that rack.

When there are more leaves than ``limit``, ``limit`` racks are drawn at random from the
pool instead (each with its draw probability, so the weights are plain counts): the
answer is then a sample (``exhaustive`` False), deterministic for a ``seed``.  When no
leave is consistent with the play (the mover does not play by equity, or the margin is
too small), the result is empty and :meth:`Inference.draw_table` gives nothing: a
simulation then draws the opponent's rack uniformly, as without inference.

The racks are judged in C, all in one call with the GIL released (``csrc/ws_infer.h``:
the same generator searches, equity sums and comparisons); the enumeration, the sample
and the weights stay here.  ``_infer_python`` is the same inference with the loop in
Python, one search per call: the tests' oracle.

:func:`infer_game` infers from the last turn of a :class:`~wordsalvo.Game` made by the
player now on turn's opponent; :func:`~wordsalvo.simulate` takes the result as
``infer=`` and draws the opponent's kept tiles from it (``wordsalvo sim --infer``).
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..alphabet import BLANK_BIT
from ..board import Board
from ..constants import DIM, LETTER_MASK
from ..errors import WordSalvoError
from ..inputs import number_arg, whole_arg
from ..leaves import Leaves, endgame_terms
from ..lexicon.lexicon import Lexicon
from ..moves import MOVE_DTYPE, Move
from ..position import Position, rack_counts

__all__ = ["infer", "infer_game", "position_before", "Inference", "InferenceError", "DEFAULT_MARGIN", "DEFAULT_LIMIT"]

#: points of equity the play made may lose to the best and still count as the mover's choice
DEFAULT_MARGIN = 5.0
#: racks evaluated at most; more leaves than this: a random sample of this many racks
DEFAULT_LIMIT = 5000


class InferenceError(WordSalvoError):
    """The play cannot have come from the position given (tiles not in the pool ...)."""


@dataclass(frozen=True)
class Inference:
    """The leaves the mover may have kept, with their weights, most likely first.

    ``leaves``: ``(tiles kept, weight)`` pairs, the weights summing to 1 (empty: no
    leave was consistent with the play); ``played``: the tiles the play put down
    (``""`` for an exchange); ``exchanged``: how many tiles an exchange put back (0 for
    a play); ``racks``: racks evaluated; ``kept``: of those consistent with the play;
    ``exhaustive``: every leave was evaluated (not a sample); ``margin``: the equity
    margin used.
    """

    leaves: tuple[tuple[str, float], ...]
    played: str
    exchanged: int
    racks: int
    kept: int
    exhaustive: bool
    margin: float
    pool: int = 0
    _alphabet_letters: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.leaves)

    def letter_chances(self) -> dict[str, float]:
        """P(the kept tiles hold at least one of each letter), ``?`` for the blank."""
        out: Counter[str] = Counter()
        for tiles, w in self.leaves:
            for ch in set(tiles):
                out[ch] += w
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def draw_table(self) -> tuple[list[str], list[float]]:
        """The leaves and their cumulative weights, for a simulation's draw."""
        tiles = [t for t, _w in self.leaves]
        cum = list(itertools.accumulate(w for _t, w in self.leaves))
        return tiles, cum

    def table(self, top: int | None = 10) -> str:
        what = f"exchange of {self.exchanged}" if self.exchanged else f"play of {self.played or '-'}"
        lines = [f"inference from a {what}: {self.kept} of {self.racks} racks consistent "
                 f"({'every leave' if self.exhaustive else 'a sample'}, margin {self.margin:g})"]
        for tiles, w in self.leaves[: top if top is not None else len(self.leaves)]:
            lines.append(f"  {tiles or '-':<8} {100.0 * w:6.2f} %")
        if top is not None and len(self.leaves) > top:
            lines.append(f"  ... {len(self.leaves) - top} more")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        from html import escape
        rows = "".join(f"<tr><td><code>{escape(t or '-')}</code></td><td style='text-align:right'>"
                       f"{100.0 * w:.2f}&nbsp;%</td></tr>" for t, w in self.leaves[:20])
        head = escape(self.table(0).split("\n")[0])
        more = f"<p>… {len(self.leaves) - 20} more</p>" if len(self.leaves) > 20 else ""
        return f"<div><p>{head}</p><table><tr><th>kept</th><th>chance</th></tr>{rows}</table>{more}</div>"

    def to_dict(self) -> dict[str, Any]:
        return {"played": self.played, "exchanged": self.exchanged, "racks": self.racks, "kept": self.kept,
                "exhaustive": self.exhaustive, "margin": self.margin,
                "leaves": [[t, w] for t, w in self.leaves], "letters": self.letter_chances()}


def _pool(position: Position) -> Counter[str]:
    """Tiles the observer cannot see: the tile set less the board and every rack but the mover's."""
    c = Counter(position.rules.distribution())
    c.subtract(position._board_tiles())
    for i, r in enumerate(position.racks):
        if i != position.to_move:
            c.subtract(r)
    if any(v < 0 for v in c.values()):
        raise InferenceError("position: the board and the known racks hold more tiles than the tile set")
    return +c


def _multisets(pool: Counter[str], k: int):
    """Every multiset of k tiles from the pool, with its number of draws."""
    letters = sorted(pool)
    counts = [pool[ch] for ch in letters]
    suffix = list(itertools.accumulate(reversed(counts)))[::-1] + [0]

    def rec(i: int, left: int, parts: list[str], ways: int):
        if left == 0:
            yield "".join(parts), ways
            return
        if i == len(letters) or suffix[i] < left:
            return
        for n in range(min(left, counts[i]), -1, -1):
            parts.append(letters[i] * n)
            yield from rec(i + 1, left - n, parts, ways * math.comb(counts[i], n))
            parts.pop()

    yield from rec(0, k, [], 1)


def _count_multisets(pool: Counter[str], k: int) -> int:
    # number of distinct multisets of size k (polynomial product, truncated at k)
    poly = [1] + [0] * k
    for n in pool.values():
        new = [0] * (k + 1)
        for size, ways in enumerate(poly):
            if ways:
                for j in range(0, min(n, k - size) + 1):
                    new[size + j] += ways
        poly = new
    return poly[k]


def _sample(pool: Counter[str], k: int, limit: int, seed: int):
    """``limit`` random draws of k tiles from the pool, grouped: (leave, times drawn)."""
    rng = random.Random(seed)
    tiles = sorted(pool.elements())
    drawn: Counter[str] = Counter()
    for _ in range(limit):
        drawn["".join(sorted(rng.sample(tiles, k)))] += 1
    return sorted(drawn.items())


def infer(position: Position, play: Move | str | None = None, lexicon: Lexicon | None = None,
          leaves: Leaves | None = None, *, exchanged: int = 0, margin: float = DEFAULT_MARGIN,
          limit: int = DEFAULT_LIMIT, seed: int = 0) -> Inference:
    """The leaves the player on turn in ``position`` probably kept after ``play``.

    ``position``: the board, scores and known racks *before* the play, the mover on
    turn (its rack is ignored: it is what is inferred); ``play``: the play made (a
    Move or its notation, e.g. ``"8H WORD"``), or ``exchanged=N`` for an exchange of N
    tiles; ``lexicon``: default the rule set's embedded one; ``leaves``: the leave
    table of the mover's equity (default the shipped table); ``margin``: points of
    equity the play may lose to the best; ``limit``: racks evaluated at most (more:
    a random sample, ``seed``).  See the module docstring.  The racks are judged in C
    (csrc/ws_infer.h), all in one call.
    """
    return _infer(position, play, lexicon, leaves, exchanged, margin, limit, seed, _judge)


def _infer_python(position: Position, play: Move | str | None = None, lexicon: Lexicon | None = None,
                  leaves: Leaves | None = None, *, exchanged: int = 0, margin: float = DEFAULT_MARGIN,
                  limit: int = DEFAULT_LIMIT, seed: int = 0) -> Inference:
    """:func:`infer` with its rack loop in Python, one generator search per call: the
    oracle the C loop is tested against (the same result, leave for leave)."""
    return _infer(position, play, lexicon, leaves, exchanged, margin, limit, seed, _judge_python)


def _infer(position, play, lexicon, leaves, exchanged, margin, limit, seed, judge) -> Inference:
    """:func:`infer`, its rack loop ``judge`` (:func:`_judge` or :func:`_judge_python`)."""
    from ..movegen import MoveGenerator

    if not isinstance(position, Position):
        raise InferenceError(f"position: expected a Position, got {type(position).__name__}")
    rules = position.rules
    if (play is None) == (not exchanged):
        raise InferenceError("expected either a play or exchanged=N (a whole number of tiles >= 1), "
                             f"got play={play!r}, exchanged={exchanged!r}")
    exchanged = whole_arg(exchanged, "exchanged", InferenceError, low=0, high=rules.rack_size)
    number_arg(margin, "margin", InferenceError, low=0, expected="a finite number of points >= 0")
    limit = whole_arg(limit, "limit", InferenceError, low=1, high=10_000_000)
    if lexicon is None:
        lexicon = Lexicon.default(rules.alphabet.name)
    if not isinstance(lexicon, Lexicon):
        raise InferenceError(f"lexicon: expected a wordsalvo.Lexicon or None, got {type(lexicon).__name__}")
    if leaves is None:
        leaves = Leaves.default(rules)
    gen = MoveGenerator(lexicon, rules, leaves)
    gen._prepare_best(wordmap=True)  # thousands of searches: the word map pays at once
    pool = _pool(position)
    size = sum(pool.values())
    # the play's tiles, from a probe rack that certainly holds them
    played = ""
    move: Move | None = None
    if play is not None:
        if isinstance(play, str):
            move = _parse_play(position, play, lexicon)
        elif isinstance(play, Move):
            move = play
        else:
            raise InferenceError(f"play: expected a Move or a notation string, got {type(play).__name__}")
        played = move.rack_letters()
        need = Counter(played)
        short = [ch for ch in need if need[ch] > pool.get(ch, 0)]
        if short:
            raise InferenceError(f"play {move.notation!r}: its tiles {played!r} are not all unseen by the observer "
                                 f"(no {short[0]!r} left in the pool)")
    rest = pool.copy()
    rest.subtract(played)
    rest = +rest
    k = min(rules.rack_size - len(played), sum(rest.values())) if not exchanged else min(rules.rack_size, size)
    total = _count_multisets(rest, k)
    exhaustive = total <= limit
    items = _multisets(rest, k) if exhaustive else _sample(rest, k, limit, seed)
    letters_order = {"?": 0, **{c: i + 1 for i, c in enumerate(rules.alphabet.letters)}}
    kept: dict[str, float] = {}
    racks = 0
    for key, ways, n in judge(gen, position, move, played, exchanged, margin, items, letters_order):
        racks = n
        if key is not None:
            kept[key] = kept.get(key, 0.0) + float(ways)
    weight = sum(kept.values())
    ordered = sorted(kept.items(), key=lambda kv: (-kv[1], kv[0]))
    out = tuple((t, w / weight) for t, w in ordered) if weight > 0 else ()
    return Inference(out, played, exchanged, racks, len(kept), exhaustive, float(margin), size)


def _judge_python(gen, position: Position, move: Move | None, played: str, exchanged: int, margin: float, items,
                  letters_order: dict[str, int]):
    """The racks judged in Python, one search per call into the generator: for each leave
    in order, (the tiles kept as a key, or None when the rack is not consistent with the
    turn; its ways; racks judged so far)."""
    racks = 0
    for leave, ways in items:
        racks += 1
        rack = "".join(sorted(played + leave, key=letters_order.__getitem__))
        pos = position.with_rack(rack)
        best = gen.best(pos, by="equity")
        best_eq = best.equity if best is not None else -math.inf
        if not exchanged:
            actual_eq = _equity_of(gen, move)
            if best_eq > actual_eq + margin + 1e-6:  # a better play: no need to value the exchanges
                yield None, ways, racks
                continue
        swap = gen.best_swap(pos)
        swap_eq = swap.equity if swap is not None else -math.inf
        if exchanged:
            if swap is None or len(swap.tiles) != exchanged:
                # an exchange of that many tiles, within the margin of the best action?
                if swap is None or max(best_eq, swap_eq) > swap_eq + margin:
                    yield None, ways, racks
                    continue
                if len(swap.tiles) != exchanged:
                    yield None, ways, racks
                    continue
            elif best_eq > swap_eq + margin:
                yield None, ways, racks
                continue
            keep = swap.leave
        else:
            if swap_eq > actual_eq + margin + 1e-6:
                yield None, ways, racks
                continue
            keep = leave
        yield "".join(sorted(keep, key=letters_order.__getitem__)), ways, racks


def _judge(gen, position: Position, move: Move | None, played: str, exchanged: int, margin: float, items,
           letters_order: dict[str, int]):
    """:func:`_judge_python`'s answers from one call into C (csrc/ws_infer.h): the leaves
    as tile codes, the equity terms and the swap's rules of the mover's racks as
    MoveGenerator.best and best_swap take them from each rack's position."""
    from .._core import _engine

    items = list(items)
    if not items:
        return
    rules = gen.rules
    width = _engine.RACK_MAX
    end = bytes([_engine.INFER_END])
    symbols = ("?",) + tuple(rules.alphabet.letters)
    codes = {ord(ch): i for i, ch in enumerate(symbols)}
    rows = b"".join(leave.translate(codes).encode("latin-1").ljust(width, end) for leave, _w in items)

    def rack_of(leave: str) -> str:
        return "".join(sorted(played + leave, key=letters_order.__getitem__))

    # every rack holds as many tiles, so its position has the same bag and end-game flag:
    # the first rack's position gives them; in the end game going out is worth the tiles
    # unseen, which depend on the rack: each rack's own position gives that
    first = position.with_rack(rack_of(items[0][0]))
    endgame, out_value, keep_factor = endgame_terms(first, rules.tile_count)
    if endgame:
        out_value = [endgame_terms(position.with_rack(rack_of(leave)), rules.tile_count)[1] for leave, _w in items]
    sw = rules.swap
    score = move.score if move is not None else 0
    kept, kept_tiles = _engine.infer_racks(
        gen._gen, bytes(position.board.tiles), gen.leaves._table, endgame, out_value, keep_factor,
        first.bag_count(), sw.min_bag, sw.whole_rack, sw.bag_must_cover_swap, rack_counts(rules, played), score,
        exchanged, float(margin), rows)
    for i, (_leave, ways) in enumerate(items):
        if kept[i]:
            row = kept_tiles[i * width:(i + 1) * width]
            yield "".join(symbols[c] for c in row if c != _engine.INFER_END), ways, i + 1
        else:
            yield None, ways, i + 1


def _parse_play(position: Position, notation: str, lexicon: Lexicon) -> Move:
    """The Move of a notation, validated with a rack of exactly its tiles."""
    from ..notation import parse_notation
    from ..validate import validate_move

    _r, _c, _d, tiles = parse_notation(notation, position.board)
    letter = position.rules.alphabet.letter
    rack = "".join("?" if t & BLANK_BIT else letter(t & LETTER_MASK) for t in tiles if t)
    if len(rack) > position.rules.rack_size:
        raise InferenceError(f"play {notation!r}: {len(rack)} tiles, more than a rack of {position.rules.rack_size}")
    lexicon = lexicon if lexicon is not None else Lexicon.default(position.rules.alphabet.name)
    return validate_move(position.with_rack(rack, where="the tiles of the play"), notation, lexicon)


def _equity_of(gen, move: Move) -> float:
    """The static equity of ``move`` for the rack just loaded into ``gen`` (the float32 sum
    best(by='equity') makes)."""
    lv = gen._leave_values()
    records = np.array([move.to_record()], dtype=MOVE_DTYPE)
    return float(lv.equities(records)[0])


def position_before(position: Position, play: str) -> tuple[Position, Move]:
    """The position before the opponent's last play, from the position after it.

    ``position``: two players, the observer on turn (its rack given), the opponent's
    ``play`` already on the board; ``play``: its notation with the tiles it played
    through in parentheses (``8H WO(R)D``: every letter outside them was put down by the
    play).  Returns the position before it (the opponent on turn with an unknown rack,
    its score less the play's) and the play as a Move on that board."""
    from ..notation import _split_word, parse_coordinate

    if not isinstance(position, Position) or len(position.racks) != 2:
        raise InferenceError("position: expected a Position of two players")
    if not isinstance(play, str) or len(play.split()) != 2:
        raise InferenceError(f"play: expected a notation such as '8H WO(R)D', got {play!r}")
    coord, word = play.split()
    row, col, direction = parse_coordinate(coord)
    letters = _split_word(word, position.rules.alphabet, play)
    dr, dc = (0, 1) if int(direction) == 0 else (1, 0)
    tiles = bytes(position.board.tiles)
    removed: set[int] = set()
    for i, (code, through) in enumerate(letters):
        r, c = row + i * dr, col + i * dc
        if not (0 <= r < DIM and 0 <= c < DIM):
            raise InferenceError(f"play {play!r}: runs off the board")
        on_board = tiles[r * DIM + c]
        if on_board == 0:
            raise InferenceError(f"play {play!r}: square {i + 1} of the word is empty on the board given: "
                                 f"expected the position after the play")
        if (on_board & LETTER_MASK) != (code & LETTER_MASK):
            raise InferenceError(f"play {play!r}: letter {i + 1} does not match the board")
        if not through:
            removed.add(r * DIM + c)
    if not removed:
        raise InferenceError(f"play {play!r}: expected at least one tile put down (letters outside parentheses)")
    # the board before the play: a new board without the play's tiles (made, not changed: a
    # board is written by a turn only in the C game state)
    board = Board(position.rules.alphabet, bytes(0 if i in removed else t for i, t in enumerate(tiles)))
    me = position.to_move
    opp = 1 - me
    racks = ["", ""]
    racks[me] = position.racks[me]
    rules, opcodes = position.rules, dict(position.opcodes)
    move = _parse_play(Position(rules, board, racks, list(position.scores), 0, opcodes, to_move=opp), play, None)
    scores = list(position.scores)
    scores[opp] -= move.score  # the scores before the play
    return Position(rules, board, racks, scores, 0, opcodes, to_move=opp), move


def infer_game(game, lexicon: Lexicon | None = None, leaves: Leaves | None = None, *,
               margin: float = DEFAULT_MARGIN, limit: int = DEFAULT_LIMIT, seed: int = 0) -> Inference | None:
    """Inference from the last turn of the opponent of the player now on turn in ``game``
    (a :class:`~wordsalvo.Game`), seen from the player on turn; None when that turn was
    not a play or an exchange (a pass, a challenge, none yet), or the game has more than
    two players."""
    if not all(hasattr(game, name) for name in ("history", "undo", "position", "rack", "lexicon")):
        raise InferenceError(f"game: expected a wordsalvo.Game, got {type(game).__name__}")
    if len(game.scores) != 2 or game.is_over or not game.history:
        return None
    me = game.to_move
    last = game.history[-1]
    if last.player == me or last.kind not in ("play", "swap"):
        return None
    # the copy shares the lexicon (immutable): a deep copy would load it again from its
    # file and check its hash, 10-15 ms for CSW24, on every move of an inferring master
    before = copy.deepcopy(game, {id(game.lexicon): game.lexicon})
    before.undo()
    position = before.position()  # the mover on turn, first
    # the observer's rack is the one it holds now, less what it drew since: before the
    # opponent's turn it held exactly its current rack (the opponent's turn drew nothing for it)
    racks = list(position.racks)
    racks[0] = ""
    racks[1] = game.rack
    position = Position(position.rules, position.board, racks, position.scores, position.scoreless_count,
                        to_move=0)
    lexicon = lexicon if lexicon is not None else game.lexicon
    if last.kind == "swap":
        return infer(position, None, lexicon, leaves, exchanged=len(last.tiles), margin=margin, limit=limit,
                     seed=seed)
    return infer(position, last.notation, lexicon, leaves, margin=margin, limit=limit, seed=seed)

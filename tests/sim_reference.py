"""A slow Monte Carlo simulation in plain Python: the oracle of ``csrc/ws_sim.c``.

The same definition as :mod:`wordsalvo.engine.simulation`, written again without
the C state or the C simulator: the game is ``tests/reference_game.py``'s plain
Python turn rules (racks as strings, the bag a list drawn with
``random.Random``), each iteration seeded with ``random.Random(iteration +
(seed << 32))``; the opponent's rack is drawn from the unseen tiles; the rollout
player is :class:`~wordsalvo.engine.bot.Bot`'s ``equity`` choice written out
with :class:`~wordsalvo.MoveGenerator` (best equity, the best swap when the
play is worth less than the table's best value and the swap keeps more); the
value is the spread change plus the last leaves, and the win chance comes from
the model itself (not the C table).  Round robin only: every candidate, every
iteration.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from wordsalvo import Board, MoveGenerator, Position
from wordsalvo.actions import Pass, Play, Swap

from reference_game import ReferenceGame


def _game_from(pos: Position) -> ReferenceGame:
    """The mover's view of ``pos``: the opponent's rack (known or not) goes into the bag,
    the bag holds the unseen tiles in rack order (state_from_position, then return_rack)."""
    rules = pos.rules
    me = pos.to_move
    g = ReferenceGame.__new__(ReferenceGame)
    g.rules, g.n = rules, 2
    unseen = Counter(rules.distribution())
    unseen.subtract(pos._board_tiles())
    for r in pos.racks:
        unseen.subtract(r)
    g.bag = list(rules.alphabet.sort_rack(list(unseen.elements()))) + list(pos.racks[1 - me])
    g.rng = random.Random(0)
    g.racks = ["", ""]
    g.racks[me] = pos.racks[me]
    g.scores = list(pos.scores)
    g.board = bytearray(pos.board.tiles)
    g.to_move = me
    g.pass_count, g.scoreless = 0, pos.scoreless_count
    g.timeouts, g.out = [0, 0], [False, False]
    g.is_over, g.end_reason, g.winners, g.history = False, None, (), []
    return g


def _position(g: ReferenceGame) -> Position:
    board = Board(g.rules.alphabet)
    board.tiles = bytearray(g.board)
    return Position(g.rules, board, list(g.racks), list(g.scores), g.scoreless, to_move=g.to_move)


def _swap_allowed(g: ReferenceGame, n: int) -> bool:
    sw = g.rules.swap
    rack = g.racks[g.to_move]
    bag = len(g.bag)
    if n < 1 or n > len(rack) or (sw.whole_rack and n != len(rack)):
        return False
    return bag >= max(1, sw.min_bag) and not (sw.bag_must_cover_swap and bag < n)


def _choose(g: ReferenceGame, gen: MoveGenerator, ceiling: float):
    """Bot's equity player: (action, leave value of what it keeps)."""
    pos = _position(g)
    move = gen.best(pos, by="equity")
    swap = None
    rack = g.racks[g.to_move]
    if move is None or move.equity < ceiling:
        first = len(rack) if g.rules.swap.whole_rack else 1
        if rack and _swap_allowed(g, first):
            swap = gen.best_swap(pos)
            if swap is not None and not _swap_allowed(g, len(swap.tiles)):
                swap = None
    if move is not None and (swap is None or move.equity >= swap.equity):
        return Play(move), float(move.equity) - move.score
    if swap is not None:
        return Swap(swap.tiles), float(swap.equity)
    return Pass(), 0.0


def _apply(g: ReferenceGame, action) -> None:
    if isinstance(action, Play):
        m = action.move
        g.play(m.row, m.col, int(m.direction), m.tiles, m.score)
    elif isinstance(action, Swap):
        g.swap(action.tiles)
    else:
        g.simple("pass")


def reference_simulation(pos: Position, lexicon, leaves, model, candidates, plies: int, iterations: int,
                         seed: int) -> list[tuple[float, float]]:
    """(mean equity, mean win) of each candidate ``(action, leave value)``, round robin."""
    rules = pos.rules
    gen = MoveGenerator(lexicon, rules, leaves=leaves)
    root = _game_from(pos)
    me, opp = pos.to_move, 1 - pos.to_move
    spread0 = root.scores[me] - root.scores[opp]
    opp_count = min(rules.rack_size, len(root.bag))
    out = []
    for action, leave in candidates:
        eq_sum = win_sum = 0.0
        for it in range(iterations):
            g = copy.deepcopy(root)
            g.rng = random.Random(it + (seed << 32))
            g.racks[opp] = g.sort(g.draw(opp_count))
            leaves_of = {me: leave, opp: 0.0}
            _apply(g, action)
            for _ply in range(plies):
                if g.is_over:
                    break
                mover = g.to_move
                act, lv = _choose(g, gen, leaves.best_value)
                _apply(g, act)
                leaves_of[mover] = lv
            spread = g.scores[me] - g.scores[opp]
            if g.is_over:
                eq_sum += spread - spread0
                win_sum += 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0
                continue
            adjusted = spread + leaves_of[me] - leaves_of[opp]
            eq_sum += adjusted - spread0
            x = g.to_move
            unseen = len(g.bag) + len(g.racks[1 - x])
            p = model.probability(adjusted if x == me else -adjusted, unseen) if model is not None else 0.5
            win_sum += p if x == me else 1.0 - p
        out.append((eq_sum / iterations, win_sum / iterations))
    return out

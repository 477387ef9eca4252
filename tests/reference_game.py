"""The rules of a turn in plain Python: the oracle of the C game state.

This is wordsalvo.Game's bag, first deal, plays, swaps, passes, refused plays,
time-outs, resignations, counters, end rules and settlement as they were written
in Python before they moved to ``csrc/ws_game.c`` (racks as strings, the bag as a
list drawn with ``random.Random(seed)``).  It knows no words: plays come in as
placements with their score.  ``tests/test_game_state.py`` plays the same turns on
both and compares everything after each one.
"""

from __future__ import annotations

import random
from collections import Counter

from wordsalvo.alphabet import BLANK_BIT


class ReferenceGame:
    def __init__(self, rules, players: int, seed: int):
        self.rules = rules
        self.n = players
        self.bag = [letter for letter, (count, _v) in rules.tiles.items() for _ in range(count)]
        self.rng = random.Random(seed)
        self.racks = [""] * players
        self.scores = [0] * players
        self.board = bytearray(225)
        self.to_move = 0
        self.pass_count = 0
        self.scoreless = 0
        self.timeouts = [0] * players
        self.out = [False] * players
        self.is_over = False
        self.end_reason = None
        self.winners: tuple[int, ...] = ()
        #: (player, kind, score, total, rack_owner) of every entry
        self.history: list[tuple] = []
        self.first_deal()

    def sort(self, letters) -> str:
        return self.rules.alphabet.sort_rack(letters)

    # -- the bag ------------------------------------------------------------------------
    def draw_one(self, pool=None) -> str:
        bag = self.bag
        n = len(bag) if pool is None else len(pool)
        i = self.rng.randrange(n)
        if pool is not None:
            i = pool[i]
        bag[i], bag[-1] = bag[-1], bag[i]
        return bag.pop()

    def draw(self, n: int) -> list[str]:
        return [self.draw_one() for _ in range(min(n, len(self.bag)))]

    def first_deal(self) -> None:
        deal = self.rules.deal
        vowels = set(deal.vowels)
        for p in range(self.n):
            tiles: list[str] = []
            for want, is_kind in ((deal.first_deal_min_vowels, lambda t: t in vowels),
                                  (deal.first_deal_min_consonants, lambda t: t != "?" and t not in vowels)):
                for _ in range(want):
                    pool = [i for i, t in enumerate(self.bag) if is_kind(t)]
                    tiles.append(self.draw_one(pool))
            tiles += self.draw(self.rules.rack_size - len(tiles))
            self.racks[p] = self.sort(tiles)

    # -- turns --------------------------------------------------------------------------
    def left(self) -> tuple[int, ...]:
        return tuple(i for i, o in enumerate(self.out) if not o)

    def swap_allowed(self, tiles: str) -> bool:
        sw = self.rules.swap
        rack = self.racks[self.to_move]
        bag = len(self.bag)
        if not tiles or Counter(tiles) - Counter(rack):
            return False
        if sw.whole_rack and len(tiles) != len(rack):
            return False
        return bag >= sw.min_bag and not (sw.bag_must_cover_swap and bag < len(tiles))

    def play(self, row: int, col: int, direction: int, tiles, score: int) -> None:
        p = self.to_move
        left = list(self.racks[p])
        letters = self.rules.alphabet.letters
        dr, dc = (0, 1) if direction == 0 else (1, 0)
        r, c = row, col
        placed = 0
        for code in tiles:
            if code:
                self.board[r * 15 + c] = code
                left.remove("?" if code & BLANK_BIT else letters[(code & 0x7F) - 1])
                placed += 1
            r += dr
            c += dc
        before = self.scoreless
        drawn = self.draw(placed)
        self.racks[p] = self.sort(left + drawn) if drawn else "".join(left)
        self.scores[p] += score
        self.scoreless = 0 if score else self.scoreless + 1
        self.history.append((p, "play", score, self.scores[p], -1))
        if self.rules.end.rack_out and not self.bag and not self.racks[p]:
            self.finish("out", self.rules.settlement.after_out, finisher=p)
            return
        self.end_turn(p, "play" if score else "zero-score-play", before)

    def swap(self, tiles: str) -> None:
        p = self.to_move
        sw = self.rules.swap
        tiles = self.sort(tiles)
        if sw.draw_before_return:
            drawn = self.draw(len(tiles))
            self.bag.extend(tiles)
        else:
            self.bag.extend(tiles)
            drawn = self.draw(len(tiles))
        left = Counter(self.racks[p])
        left.subtract(tiles)
        self.racks[p] = self.sort(list(left.elements()) + drawn)
        self.history.append((p, "swap", 0, self.scores[p], -1))
        self.end_turn(p, "swap", self.scoreless)

    def simple(self, kind: str) -> None:
        """A pass or a refused play."""
        p = self.to_move
        self.history.append((p, kind, 0, self.scores[p], -1))
        self.end_turn(p, kind, self.scoreless)

    def timeout(self) -> None:
        t = self.rules.timer
        p = self.to_move
        self.history.append((p, "timeout", 0, self.scores[p], -1))
        if t.on_timeout == "lose":
            self.leave(p, "timeout")
            return
        self.timeouts[p] += 1
        self.end_turn(p, "timeout", self.scoreless)
        if t.eliminate_after_timeouts and not self.is_over and self.timeouts[p] >= t.eliminate_after_timeouts:
            self.leave(p, "elimination")

    def resign(self, p: int) -> None:
        self.history.append((p, "resign", 0, self.scores[p], -1))
        self.leave(p, "resign")

    def set_rack(self, player: int, rack: str) -> None:
        """Game.set_rack: the rack back to the bag, the tiles from the bag or another rack."""
        if self.racks[player] == rack:
            return
        self.bag.extend(self.racks[player])
        self.racks[player] = ""
        for ch in rack:
            if ch in self.bag:
                self.bag.remove(ch)
                continue
            for other in range(self.n):
                if other != player and ch in self.racks[other] and self.bag:
                    rest = list(self.racks[other])
                    rest.remove(ch)
                    self.racks[other] = self.sort(rest + self.draw(1))
                    break
            else:
                raise AssertionError(f"no {ch} left")
        self.racks[player] = self.sort(rack)

    # -- the end ------------------------------------------------------------------------
    def end_turn(self, p: int, kind: str, scoreless_before: int) -> None:
        rules = self.rules
        if kind != "timeout":
            self.timeouts[p] = 0
        counts_as_pass = (kind in ("pass", "refused-play") or (kind == "swap" and not rules.swap.resets_pass_counter)
                          or (kind == "timeout" and rules.timer.timeout_counts_as_pass))
        self.pass_count = self.pass_count + 1 if counts_as_pass else 0
        self.scoreless = scoreless_before + 1 if kind in rules.end.scoreless_turn_kinds else 0
        end = rules.end
        active = len(self.left())
        if (end.all_pass_rounds and self.pass_count >= end.all_pass_rounds * active) or (
                end.consecutive_passes and self.pass_count >= end.consecutive_passes):
            self.finish("passes", rules.settlement.after_passes)
            return
        if end.scoreless_turns and self.scoreless >= end.scoreless_turns and (
                not end.scoreless_turns_bag_below or len(self.bag) < end.scoreless_turns_bag_below):
            self.finish("scoreless", rules.settlement.after_scoreless)
            return
        self.advance(p)

    def advance(self, p: int) -> None:
        for _ in range(self.n):
            p = (p + 1) % self.n
            if not self.out[p]:
                self.to_move = p
                return

    def leave(self, p: int, reason: str) -> None:
        self.out[p] = True
        left = self.left()
        if len(left) <= 1:
            self.is_over = True
            self.end_reason = reason
            self.winners = left
            return
        if self.to_move == p:
            self.advance(p)

    def finish(self, reason: str, settlement: str, finisher: int | None = None) -> None:
        values = self.rules.tile_values
        alphabet = self.rules.alphabet

        def rack_value(rack: str) -> int:
            return sum(0 if ch == "?" else values[alphabet.code(ch)] for ch in rack)

        left = self.left()
        if settlement in ("play-out", "subtract-only"):
            for p in left:
                if p != finisher and self.racks[p]:
                    v = rack_value(self.racks[p])
                    self.scores[p] -= v
                    self.history.append((p, "settle", -v, self.scores[p], p))
            if settlement == "play-out" and finisher is not None:
                for p in left:
                    if p != finisher and self.racks[p]:
                        v = rack_value(self.racks[p])
                        self.scores[finisher] += v
                        self.history.append((finisher, "settle", v, self.scores[finisher], p))
        self.is_over = True
        self.end_reason = reason
        best = max(self.scores[p] for p in left)
        self.winners = tuple(p for p in left if self.scores[p] == best)

"""Shared helpers of the game tests: small lexicons, invariants, random policies."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from wordsalvo import Game, Rules
from wordsalvo.alphabet import BLANK_BIT
from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon

DATA = Path(__file__).parent / "data" / "game"
RULE_SETS = ["wordsalvo-en", "wordsalvo-nl", "classic-en", "turkish", "wordfeud-de", "woodword-de"]


def lexicon_for(rules: Rules, tmp_dir: Path, _cache: dict = {}) -> Lexicon:  # noqa: B006 - a cache
    """The default lexicon of the language; German (GPL, not embedded) from the tiny test list."""
    lang = rules.alphabet.name
    if lang in _cache:
        return _cache[lang]
    if lang == "de":
        dest = tmp_dir / "german-small.wsg"
        compile_lexicon(DATA / "german-small.txt", dest, alphabet="de")
        lex = Lexicon.load(dest)
    else:
        lex = Lexicon.default(lang)
    _cache[lang] = lex
    return lex


def tiles_in_play(game: Game) -> Counter:
    """Bag + every rack + board, as rack letters ('?' = blank)."""
    c = Counter(game.bag)
    for r in game.racks:
        c.update(r)
    alphabet = game.rules.alphabet
    for t in game.board.tiles:
        if t:
            c["?" if t & BLANK_BIT else alphabet.letter(t)] += 1
    return c


def snapshot(game: Game) -> tuple:
    """Everything observable about a game (for atomicity checks)."""
    return (bytes(game.board.tiles), tuple(game.racks), tuple(game.bag), tuple(game.scores), game.to_move,
            game.history, game.pass_count, game.scoreless_count, game.is_over, game.end_reason, game.winners,
            game.players_left, game._rng.getstate())


def random_turn(game: Game, rng: random.Random) -> None:
    """One turn of a random policy: best move, random move, swap, pass or (where it ends the turn) time-out."""
    rules = game.rules
    x = rng.random()
    can_swap = len(game.bag) >= max(rules.swap.min_bag, len(game.rack)) and game.rack
    if x < 0.08 and can_swap:
        if rules.swap.whole_rack:
            game.swap()
        else:
            k = rng.randint(1, len(game.rack))
            game.swap("".join(rng.sample(game.rack, k)))
        return
    if x < 0.12:
        game.pass_turn()
        return
    if x < 0.14 and rules.timer.on_timeout == "end-turn" and (rules.timer.per_move_seconds
                                                              or rules.timer.table_may_choose):
        game.timeout()
        return
    if x < 0.55:
        move = game.best_move()
    else:
        moves = game.legal_moves()
        move = moves[rng.randrange(len(moves))] if len(moves) else None
    if move is None:
        game.pass_turn()
    else:
        game.play(move)

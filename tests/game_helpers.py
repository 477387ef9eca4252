"""Shared helpers of the game tests: small lexicons, invariants, random policies."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import wordsalvo
from wordsalvo import Game, Rules
from wordsalvo.alphabet import BLANK_BIT
from wordsalvo.lexicon.lexicon import Lexicon, compile_lexicon

DATA = Path(__file__).parent / "data" / "game"
RULESETS = Path(wordsalvo.__file__).parent / "rulesets"
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
            game.players_left, game._s.c.rng_state())


def set_state(game: Game, racks=None, bag=None, scores=None, squares=None) -> None:
    """Put the game in a scripted state (tests only; tile conservation is not kept):
    racks and bag as letters ('?' = blank; the bag in draw order), scores, and
    ``squares``: {(row, col): letter} placed on the board (lowercase: a blank)."""
    from wordsalvo.gamestate import letter_counts

    c = game._s.c
    rules = game.rules
    if racks is not None or bag is not None:
        racks = list(racks) if racks is not None else game.racks
        bag = list(bag) if bag is not None else game._letters_of(c.bag)
        code = rules.alphabet._code
        c.set_tiles([letter_counts(rules, r) for r in racks], bytes(0 if ch == "?" else code[ch] for ch in bag))
    if scores is not None:
        c.set_scores(scores)
    if squares:
        tiles = bytearray(c.board)
        for (r, col), ch in squares.items():
            tiles[r * 15 + col] = rules.alphabet.code(ch.upper()) | (BLANK_BIT if ch.islower() else 0)
        c.set_board(bytes(tiles))
    game._changed()


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


def variant(tmp_path: Path, base: str, **sections) -> str:
    """A rule file: the preset ``base`` with ``section={key: toml value}`` replaced."""
    text = (RULESETS / f"{base}.toml").read_text("utf-8")
    for section, keys in sections.items():
        head = text.index(f"[{section}]")
        end = text.find("\n[", head + 1)
        end = len(text) if end < 0 else end
        body = text[head:end]
        for key, value in keys.items():
            line = f"{key} = {value}"
            body, n = re.subn(rf"(?m)^{key} = .*$", line, body)
            if not n:
                body = body.rstrip("\n") + f"\n{line}\n"
        text = text[:head] + body + text[end:]
    text = re.sub(r'(?m)^name = ".*"$', 'name = "variant"', text)
    path = tmp_path / f"variant-{len(list(tmp_path.iterdir()))}.toml"
    path.write_text(text, "utf-8")
    return str(path)


#: rule variants of classic-en (section -> {key: TOML value}) that reach every end, swap and
#: settlement branch (the self-play and game-state tests)
VARIANTS = {
    "swap-after-return": dict(swap={"draw_before_return": "false", "bag_must_cover_swap": "false", "min_bag": "1"}),
    "whole-rack": dict(swap={"whole_rack": "true", "resets_pass_counter": "false"}),
    "passes-end": dict(end={"all_pass_rounds": "1", "scoreless_turns": "0"}, swap={"resets_pass_counter": "false"},
                       settlement={"after_passes": '"play-out"'}),
    "consecutive": dict(end={"consecutive_passes": "3", "scoreless_turns": "0"}, swap={"resets_pass_counter": "false"}),
    "scoreless-bag": dict(end={"scoreless_turns": "3", "scoreless_turns_bag_below": "90",
                               "scoreless_turn_kinds": '["pass", "swap"]'},
                          settlement={"after_scoreless": '"none"'}),
    "subtract": dict(settlement={"after_out": '"subtract-only"'}),
    "no-settlement": dict(settlement={"after_out": '"none"'}),
    "no-rack-out": dict(end={"rack_out": "false", "scoreless_turns": "2"}),
    "first-deal": dict(deal={"first_deal_min_vowels": "3", "first_deal_min_consonants": "2"}),
}

"""The work behind each endpoint: plain functions of (engines, request) that return
JSON-ready data, run in the service's engine threads (:mod:`wordsalvo.serve.app`).
No web framework here: these are the library's calls, a request at a time."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..actions import Pass, Play
from ..analysis import analyze_game
from ..engine.bot import Bot
from ..engine.endgame import solve_endgame
from ..engine.pre_endgame import solve_pre_endgame
from ..engine.simulation import simulate
from ..errors import GameError, PositionError, ServeRequestError as RequestError
from ..formats.cgp import format_cgp
from ..formats.gcg import to_gcg
from ..formats.replay import replay
from ..game import Game
from ..gamestate import state_from_position
from ..moves import Swap
from ..render import report, svg
from ..table import PAGE_COMMANDS, Table, parse_command
from ..validate import preview_move
from .engines import Engines, move_dict

__all__ = ["moves", "best", "validate", "bot", "analyze", "sim", "endgame", "peg", "game_new", "game_turn"]

_bots = threading.local()


def _rack_position(engines: Engines, req):
    pos, lexicon = engines.position(req)
    if not pos.rack:
        raise PositionError("rack: expected the rack on turn (rack, racks, or the CGP's rack), got an empty rack")
    return pos, lexicon


def moves(engines: Engines, req) -> dict[str, Any]:
    pos, lexicon = _rack_position(engines, req)
    gen = engines.generator(lexicon, pos.rules, equity=req.by == "equity")
    if req.top is not None:
        listed = gen.top(pos, req.top, by=req.by)
    else:
        listed = gen.generate(pos).sorted(by=req.by)
    page = listed[req.offset:req.offset + req.limit]
    return {"rules": pos.rules.name, "rack": pos.rack, "by": req.by, "count": len(listed), "offset": req.offset,
            "limit": req.limit, "moves": [move_dict(m) for m in page]}


def best(engines: Engines, req) -> dict[str, Any]:
    pos, lexicon = _rack_position(engines, req)
    equity = req.by == "equity"
    gen = engines.generator(lexicon, pos.rules, equity=equity)
    # the static player of the engines (csrc/ws_action.h) on the position's state: its best
    # play and, by equity, the best exchange (always looked at) and which of them it takes
    choice = gen.choose(state_from_position(pos))
    out: dict[str, Any] = {"rules": pos.rules.name, "rack": pos.rack, "by": req.by,
                           "move": None if choice.play is None else move_dict(choice.play.move)}
    if equity:
        out["exchange"] = None if choice.swap is None else _swap_dict(choice.swap)
        out["choice"] = ("play" if isinstance(choice.action, Play)
                         else "exchange" if isinstance(choice.action, Swap) else "pass")
    return out


def validate(engines: Engines, req) -> dict[str, Any]:
    pos, lexicon = _rack_position(engines, req)
    result = preview_move(pos, req.move, lexicon)
    words = [{"word": w.word, "score": w.score, "main": w.is_main, "valid": w.word not in result.invalid_words}
             for w in result.words]
    out: dict[str, Any] = {"legal": result.legal, "move": req.move, "words": words}
    if result.legal:
        out.update(score=result.score, tiles_played=result.tiles_played, bingo_bonus=result.bingo_bonus,
                   star_bonus=result.star_bonus)
    else:
        out.update(reasons=[r.name.lower() for r in result.reasons], problems=list(result.problems),
                   invalid_words=list(result.invalid_words))
    return out


def _swap_dict(swap: Swap) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "exchange", "notation": f"-{swap.tiles}", "tiles": swap.tiles,
                         "leave": swap.leave, "score": 0}
    if swap.equity is not None:
        d["equity"] = round(float(swap.equity), 3)
    return d


def action_dict(action) -> dict[str, Any]:
    """A bot's action as JSON."""
    if isinstance(action, Play):
        d = {"kind": "play", **move_dict(action.move)}
    elif isinstance(action, Swap):
        d = _swap_dict(action)
    elif isinstance(action, Pass):
        d = {"kind": "pass", "notation": "pass", "score": 0}
    else:  # pragma: no cover - the bots return these three
        raise GameError(f"expected a play, an exchange or a pass, got {type(action).__name__}")
    if getattr(action, "equity", None) is not None:
        d["equity"] = round(float(action.equity), 3)
    return d


#: the bots an engine thread keeps (least recently used dropped first).  A bot holds no
#: table of its own: the lexicon, its level's vocabulary, the offensive list and the leave
#: table are loaded once a process and shared (``Leaves.default``), so a cached bot is a few
#: kilobytes and this count bounds the cache's memory too
BOTS_PER_THREAD = 64


def _bot(level: str | None, rating: float | None, game: Game, seed: int, seconds: float) -> Bot:
    """This thread's bot of a level for the game's rules (made once; reseeded and given this
    request's thinking time each time: the time is not part of the key, since each request's
    budget is what is left of it after its wait for a thread)."""
    cache = getattr(_bots, "cache", None)
    if cache is None:
        cache = _bots.cache = OrderedDict()
    key = (level, rating, game.rules.name, game.rules.layout, id(game.lexicon))
    player = cache.get(key)
    if player is None:
        if level is None and rating is None:
            level = "medium"
        player = Bot(level, game.rules, lexicon=game.lexicon, rating=rating, seconds=seconds)
        while len(cache) >= BOTS_PER_THREAD:
            cache.popitem(last=False)
        cache[key] = player
    else:
        cache.move_to_end(key)
    player.reset(seed)
    player.seconds = float(seconds)
    return player


def bot(engines: Engines, req, seconds: float) -> dict[str, Any]:
    if req.level is not None and req.rating is not None:
        raise GameError(f"expected a level or a rating, got both (level {req.level!r}, rating {req.rating:g})")
    game = engines.game(req.gcg, req.lexicon, req.rack)
    if game.is_over:
        raise GameError(f"the game is over ({game.end_reason}); expected a running game")
    player = _bot(req.level, req.rating, game, req.seed, seconds)
    action = player.choose(game)
    return {"player": game.to_move, "name": game.names[game.to_move], "rack": game.rack, "level": player.level,
            "action": action_dict(action)}


def analyze(engines: Engines, req, html: bool) -> Any:
    record, lexicon = engines.record(req.gcg, req.lexicon)
    rp = replay(record, lexicon=lexicon)
    analysis = analyze_game(rp, top=req.top, win=req.win, endgame=None, pre_endgame=None)
    if html:
        return report.html(analysis.report(), rp.rules)
    return {"analysis": analysis.to_dict(), "warnings": list(rp.warnings)}


def sim(engines: Engines, req, seconds: float) -> dict[str, Any]:
    if req.plies > engines.config.plies:
        raise RequestError(f"plies: expected at most {engines.config.plies} (the service's limits.plies), "
                           f"got {req.plies}")
    pos, lexicon = _rack_position(engines, req)
    if req.iterations is None and req.seconds is None:
        limit: dict[str, Any] = {"seconds": seconds}
    else:
        limit = {"iterations": req.iterations, "seconds": seconds if req.seconds is None else min(req.seconds,
                                                                                                  seconds)}
    result = simulate(pos, lexicon, plays=req.plays, moves=req.moves, plies=req.plies, sampling=req.sampling,
                      seed=req.seed, **limit)
    return _capped(result.to_dict(), req.seconds, seconds, "sim_seconds")


def endgame(engines: Engines, req, seconds: float) -> dict[str, Any]:
    pos, lexicon = engines.position(req)
    result = solve_endgame(pos, lexicon, seconds=seconds)
    return _capped(result.to_dict(), req.seconds, seconds, "endgame_seconds")


def _capped(out: dict[str, Any], asked: float | None, given: float, limit: str) -> dict[str, Any]:
    """The answer, saying so when the search got less time than the request asked."""
    if asked is not None and asked > given:
        out["capped"] = {"asked_seconds": asked, "seconds": round(given, 3),
                         "detail": f"seconds: asked {asked:g} s, searched at most {given:.3g} s (the service's "
                                   f"limits.{limit} and its budget of a request)"}
    return out


def peg(engines: Engines, req, seconds: float) -> dict[str, Any]:
    pos, lexicon = engines.position(req)
    result = solve_pre_endgame(pos, lexicon, seconds=seconds, candidates=req.candidates)
    return _capped(result.to_dict(), req.seconds, seconds, "endgame_seconds")


# -- the browser game -------------------------------------------------------------------
# The service owns the game: the whole state (the record with every rack and the bag's
# seed, the level) travels sealed in a token (serve/tokens.py); the person's answer
# carries only what a player at a table sees: the board, the person's own rack, the
# scores, the turns (an exchange as its number of tiles), and the whole record once the
# game is over (the end-of-game report shows every rack).
PERSON = 0


def _turn_dict(t) -> dict[str, Any]:
    """A turn as the person may see it: an exchange says how many tiles, not which."""
    d: dict[str, Any] = {"player": t.player, "kind": t.kind, "score": t.score, "total": t.total,
                         "words": list(t.words)}
    if t.kind == "swap":
        n = len(t.tiles)
        d.update(what=f"exchanged {n} tile{'s' if n != 1 else ''}", count=n)
    elif t.kind == "settle":
        d["what"] = f"({t.tiles})" if t.tiles else "settle"
    else:
        d["what"] = t.notation or t.kind
    return d


def _seen_action(action: dict | None) -> dict | None:
    """The engine's action as the person may see it (an exchange: how many tiles)."""
    if action is None or action["kind"] != "exchange":
        return action
    return {"kind": "exchange", "notation": f"exchanged {len(action['tiles'])}", "count": len(action["tiles"]),
            "score": 0}


def _public_cgp(game: Game) -> str:
    """The position as a CGP line with the person's rack only (every rack once it is over)."""
    fields = format_cgp(game.position()).split(" ")
    if not game.is_over:
        racks = fields[1].split("/")
        mine = (PERSON - game.to_move) % len(racks)  # the racks are listed from the player on turn
        fields[1] = "/".join(r if i == mine else "" for i, r in enumerate(racks))
    return " ".join(fields)


def _state(tokens, game: Game, level: str, note: str = "", bot_action: dict | None = None,
           hint: dict | None = None) -> dict[str, Any]:
    """What the page draws: the board, the person's rack, scores, turns, and the token to
    send back (the only state the page keeps)."""
    picture = svg.board(game.rules, bytes(game.position().board.tiles), size=600, title="the board")
    record = to_gcg(game)
    letters = game.rules.alphabet.letters
    out: dict[str, Any] = {
        "token": tokens.seal({"gcg": record, "level": level}),
        "svg": str(picture), "cgp": _public_cgp(game), "rules": game.rules.name, "level": level,
        "names": list(game.names), "scores": list(game.scores), "to_move": game.to_move,
        "rack": game.racks[PERSON], "bag": game.bag_count, "over": game.is_over,
        "end": game.end_reason, "winners": list(game.winners) if game.is_over else [],
        "values": {ch: int(v) for ch, v in zip(letters, game.rules.tile_values[1:])},
        "turns": [_turn_dict(t) for t in game.history],
        "note": note, "bot": _seen_action(bot_action), "can_undo": game.undo_steps > 0 and not game.is_over,
    }
    if game.is_over:
        out["gcg"] = record  # every rack: the end-of-game report shows them
    if hint is not None:
        out["hint"] = hint
    return out


def _table(game: Game, level: str, seconds: float) -> Table:
    """The page's table: the person at seat :data:`PERSON`, the engine of ``level`` at the
    other, its bots this thread's (given ``seconds`` to think); the engines' seeds are the
    table's rule (:func:`~wordsalvo.table.engine_seed`), the terminal's too."""
    levels: list[str | None] = [level] * len(game.names)
    levels[PERSON] = None

    def bots(lv: str) -> Bot:
        return _bot(lv, None, game, 0, seconds)  # reseeded by the table before each choice

    return Table(game, levels, bots=bots)


def _bot_moves(table: Table) -> dict | None:
    """The engine's turns until the person is on turn again (or the game ends): its last action."""
    done = table.engine_turns()
    return action_dict(done[-1][0]) if done else None


def game_new(engines: Engines, tokens, req, seed: int) -> dict[str, Any]:
    rules = engines.rules(req.rules)
    Bot(req.level, rules)  # a bad level is refused before the game starts
    names = [req.name, f"wordsalvo-{req.level}"]  # the person is player 1 and moves first
    if names[0] == names[1]:
        raise GameError("name: expected a name other than the engine's")
    game = Game(rules, players=names, seed=seed)
    return _state(tokens, game, req.level)


def game_turn(engines: Engines, tokens, req) -> dict[str, Any]:
    state = tokens.open(req.token)  # only what this service sealed: the record, its seed and level
    level = state["level"]
    game = engines.game(state["gcg"], None)
    if game.is_over:
        raise GameError(f"the game is over ({game.end_reason}); start a new one")
    command = parse_command(req.action, game.rules, PAGE_COMMANDS)  # the terminal's vocabulary
    table = _table(game, level, 1.0)
    note = ""
    if command.name == "undo":
        table.undo()
        return _state(tokens, game, level, note="took back your last turn")
    if game.to_move != PERSON:  # pragma: no cover - a sealed state always has the person on turn
        raise GameError("the game has the engine on turn")
    if command.name == "hint":
        return _state(tokens, game, level, hint=action_dict(table.hint()))
    turn = table.act(command)
    if command.name == "play":
        note = f"{turn.notation} scored {turn.score}"
    bot_action = _bot_moves(table)
    return _state(tokens, game, level, note=note, bot_action=bot_action)

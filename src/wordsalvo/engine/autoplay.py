"""Self-play: many seeded games between two engine players, on one core, all cores or a Dask cluster.

One game is a pure function of its inputs: :func:`play_game` takes an
:class:`AutoplaySpec` (rule set, lexicon and leave tables by path, the two
players, the seed) and the game's index, and returns a :class:`GameResult`
(plain data).  Game ``i`` uses the bag seed :func:`game_seed` ``(seed, i)`` and
seats alternate: in even games player 1 moves first, in odd games player 2.
Every engine choice is seeded from the same numbers, so the same ``seed``
gives the same games whether they run in one process, in ``jobs`` processes
or on a Dask cluster.

A game has one loop (:func:`_python_game`: the Bot of the seat on turn chooses,
:class:`~wordsalvo.Game` applies, a turn record is written, until the game ends); for
the ``score`` and ``equity`` players and the rated players of finite strength (``1200``,
``beta=0.1``) the C self-play loop runs the same loop at engine speed, and one function reads a :class:`GameResult` from the records of either.

Each worker process keeps its lexicons, leave tables and engines in a cache
(:func:`_worker_players`), so only the first game of a process pays for
loading them; lexicons and leave tables travel to workers by path, never as
megabytes of pickled data.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import time
from contextlib import closing
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..errors import WordSalvoError
from ..inputs import checked_path, whole_arg
from ..parallel import Interrupted, dask_map_unordered, interrupts_deferred, map_unordered
from ..stats import mean_interval, wilson_interval

__all__ = ["AutoplaySpec", "GameResult", "PlayerSummary", "AutoplaySummary", "play_game", "run_autoplay",
           "game_seed", "summarize"]


@dataclass(frozen=True)
class AutoplaySpec:
    """What every game of a run shares.  Everything here pickles small: files by path."""

    rules: str                      #: a preset name or a rule set file path
    players: tuple[str, str]        #: player kinds, e.g. ("equity", "score") or difficulty levels
    seed: int = 0
    lexicon: str | None = None      #: a compiled lexicon file; None = the rule set's embedded lexicon
    leaves: str | None = None       #: a leave table file; None = the rule set's shipped table
    board_seed: int | None = None   #: the random board of a rule set with random boards
    #: ``master``'s thinking time per move (None: the Bot's default) and whether it is CPU time
    seconds: float | None = None
    cpu_time: bool = False


@dataclass(frozen=True)
class GameResult:
    """One finished game, as plain data; every per-player field is in player order (p1, p2)."""

    index: int
    seed: int
    first: int                      #: 0 when player 1 moved first, 1 when player 2 did
    scores: tuple[int, int]
    turns: int                      #: turns played (settlement entries excluded)
    bingos: tuple[int, int]
    plays: tuple[int, int]          #: placements made
    points: tuple[int, int]         #: points from placements (before the settlement)
    end_reason: str
    gcg: str | None = None
    #: with ``trace``: (leave kept, the same player's next-turn points) while the bag held tiles
    trace: tuple[tuple[str, int], ...] | None = None
    #: with ``trace``: (player 0/1 on turn, their spread, tiles unseen to them) before every turn
    states: tuple[tuple[int, int, int], ...] | None = None
    #: with ``trace="racks"`` (leave training): (rack keys, returns) of every turn that began with a
    #: full rack while the bag held tiles; see :func:`rack_records`
    racks: tuple[Any, Any] | None = None
    #: a probe game's (leave training's cover): (rack keys, returns) of the probe racks valued
    #: with a play or a swap, as :func:`rack_records` gives them; see :func:`play_probe_game`
    probes: tuple[Any, Any] | None = None

    def outcome(self, player: int) -> float:
        """1 when ``player`` won, 0.5 for a draw, 0 for a loss."""
        a, b = self.scores[player], self.scores[1 - player]
        return 1.0 if a > b else 0.5 if a == b else 0.0

    @property
    def spread(self) -> int:
        """Player 1's score minus player 2's."""
        return self.scores[0] - self.scores[1]


def game_seed(seed: int, index: int) -> int:
    """The bag seed of game ``index`` of a run seeded ``seed`` (independent of how games are spread)."""
    digest = hashlib.blake2b(f"wordsalvo-autoplay:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


# -- worker side ---------------------------------------------------------------------------
_CACHE: dict = {}


def _worker_setup(spec: AutoplaySpec):
    """(rules, lexicon, players) for ``spec``, loaded once per process."""
    key = (spec.rules, spec.lexicon, spec.leaves, spec.board_seed, spec.players, spec.seconds, spec.cpu_time)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    from .bot import Bot
    from ..lexicon.lexicon import Lexicon
    from ..rules import Rules

    rules = Rules.from_spec(spec.rules, board_seed=spec.board_seed)
    lexicon = Lexicon.load(spec.lexicon) if spec.lexicon else Lexicon.default(rules.alphabet.name)
    leaves = None
    if spec.leaves:
        from ..leaves import Leaves

        leaves = Leaves.load(spec.leaves)
    bots = tuple(Bot(kind, rules, lexicon=lexicon, leaves=leaves, seconds=spec.seconds, cpu_time=spec.cpu_time)
                 for kind in spec.players)
    _CACHE.clear()  # one spec per process at a time: keep memory flat
    _CACHE[key] = (rules, lexicon, bots)
    return _CACHE[key]


def _engine(spec: AutoplaySpec, rules, lexicon, bots):
    """The C self-play loop of this process for ``spec`` (score, equity and rated players of
    finite strength), or None."""
    from .selfplay import SelfPlay, engine_supported

    key = ("engine", spec.rules, spec.lexicon, spec.leaves, spec.board_seed, spec.players)
    if key not in _CACHE:
        # each player's leave table, as its Bot has it (None: that player plays by score)
        _CACHE[key] = ((SelfPlay(rules, lexicon), tuple(b.leaves for b in bots), bots)
                       if engine_supported(spec.players, rules) else None)
    return _CACHE[key]


def play_game(spec: AutoplaySpec, index: int, want_gcg: bool = False, trace: bool | str = False) -> GameResult:
    """Play game ``index`` of ``spec`` to the end and return its result (a pure function of its inputs).

    With ``trace`` the result also holds, for leave training, every (leave kept, points the
    same player scored on their next turn) while the bag held tiles, and, for the
    win-probability model, every position's (player on turn, spread, tiles unseen);
    with ``trace="racks"`` (C loop only) the full racks and their returns instead
    (:func:`rack_records`).

    One loop plays every game: :func:`_python_game` (the seat on turn's Bot chooses, the
    :class:`~wordsalvo.Game` applies, each turn recorded) is its definition, and games
    between the ``score``, ``equity`` and rated players of finite strength without GCG
    run it in C (:mod:`wordsalvo.engine.selfplay`: the same turns, the same records, the
    same limit, the rated players' draws from their Bots' streams; ``tests/test_selfplay.py``
    and ``tests/test_selfplay_rated.py`` compare them game for game).  One function
    (:func:`_result`) reads the result from the records of either."""
    rules, lexicon, bots = _worker_setup(spec)
    if not want_gcg:
        engine = _engine(spec, rules, lexicon, bots)
        if engine is not None:
            return _engine_game(engine, spec, index, trace)
    if trace == "racks":
        raise WordSalvoError(f"rack traces: expected players the C self-play loop plays (score, equity, a rating) "
                             f"and no GCG, got {spec.players} (gcg: {want_gcg})")
    return _python_game(spec, index, want_gcg, trace)


def rack_key_bits(tile_codes: int) -> int:
    """Bits per tile of a rack key (:func:`rack_records`) for ``tile_codes`` tile codes (blank included)."""
    return max(1, tile_codes.bit_length())


def rack_records(records, rack_size: int, tile_codes: int):
    """(keys, returns) of the turns of a C self-play history that began with a full rack
    while the bag held tiles and played or swapped (leave training's observations).

    A key packs the rack's tile codes sorted ascending, ``code + 1`` in
    :func:`rack_key_bits` bits each, the lowest tile in the lowest bits; a return is the
    equity of the action taken (score plus the value of the leave kept, for a swap the
    leave's value) in exact 1/256 points (int64), so sums of returns do not depend on
    the order they are added in."""
    import numpy as np

    from .selfplay import PLAY, SWAP

    kind = records["kind"]
    ok = (((kind == PLAY) | (kind == SWAP)) & (records["rack_len"] == rack_size)
          & (records["bag_before"] > 0))
    r = records[ok]
    codes = np.sort(r["rack"][:, :rack_size].astype(np.int64), axis=1)
    bits = rack_key_bits(tile_codes)
    keys = ((codes + 1) << (bits * np.arange(rack_size, dtype=np.int64))).sum(axis=1)
    returns = np.rint(r["equity"].astype(np.float64) * 256.0).astype(np.int64)
    return keys, returns


def rack_keys(counts, tile_codes: int):
    """The rack keys (:func:`rack_records`) of racks or leaves given as tile counts by code (one
    row each, any number of tiles), int64: the one place that turns counts into keys."""
    import numpy as np

    counts = np.asarray(counts, dtype=np.int64).reshape(-1, tile_codes)
    n = len(counts)
    flat = counts.ravel()
    codes = np.repeat(np.tile(np.arange(tile_codes, dtype=np.int64), n), flat)  # sorted within each row
    row = np.repeat(np.repeat(np.arange(n, dtype=np.int64), tile_codes), flat)
    sizes = counts.sum(axis=1)
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    pos = np.arange(len(codes), dtype=np.int64) - start[row]
    keys = np.zeros(n, dtype=np.int64)
    np.add.at(keys, row, (codes + 1) << (rack_key_bits(tile_codes) * pos))
    return keys


def _seats(spec: AutoplaySpec, index: int) -> tuple[int, int, tuple[int, int]]:
    """(bag seed, first mover, seat -> player) of game ``index``: seats alternate."""
    first = index % 2
    return game_seed(spec.seed, index), first, (first, 1 - first)


def _engine_game(engine_and_leaves, spec: AutoplaySpec, index: int, trace: bool | str, force=None,
                 probe=None, probe_per_turn: int = 1) -> GameResult:
    """:func:`play_game` on the C self-play loop: :func:`_python_game`'s loop, in C
    (``csrc/ws_selfplay.c``: the same turns until the same end or turn limit, each recorded
    as a :data:`~wordsalvo.engine.selfplay.TURN_DTYPE` record) for the players it has."""
    seed, first, seats = _seats(spec, index)
    engine, leaves, bots = engine_and_leaves
    engine.set_players(tuple(spec.players[p] for p in seats), tuple(leaves[p] for p in seats))
    for p in range(2):  # the rated players draw from their Bot's stream, reset as _python_game resets it
        bots[p].reset(seed * 2 + p)
    game = engine.play(seed, tuple(bots[p].rng for p in seats), force, probe=probe, probe_per_turn=probe_per_turn)
    result = _result(engine.rules, index, seed, first, game.records, game.scores, game.end_reason, game.turns,
                     trace)
    if probe is None:
        return result
    import numpy as np

    from .selfplay import PLAY, SWAP

    kinds, equities = game.probes
    rules = engine.rules
    keys = rack_keys(np.asarray(probe)[:len(kinds)], len(rules.alphabet.letters) + 1)
    ok = (kinds == PLAY) | (kinds == SWAP)  # a pass has no return (as a turn's observation)
    returns = np.rint(equities[ok].astype(np.float64) * 256.0).astype(np.int64)
    return replace(result, probes=(keys[ok], returns))


def _python_game(spec: AutoplaySpec, index: int, want_gcg: bool = False, trace: bool | str = False) -> GameResult:
    """:func:`play_game` on :class:`~wordsalvo.Game` and :class:`~wordsalvo.engine.bot.Bot`:
    the one definition of an autoplay game.  While the game runs (at most
    :func:`~wordsalvo.engine.selfplay.turn_limit` turns) the seat on turn's Bot chooses and
    the game applies its choice, each turn recorded as the C loop records it; the result is
    read from those records by :func:`_result`, as the C loop's are."""
    import numpy as np

    from ..actions import Play, Swap
    from ..game import Game
    from ..gamestate import tile_codes
    from .selfplay import PASS, PLAY, SWAP, TURN_DTYPE, turn_limit

    rules, lexicon, bots = _worker_setup(spec)
    seed, first, seats = _seats(spec, index)
    names = [f"p{p + 1}-{spec.players[p]}" for p in seats]
    game = Game(rules, lexicon, players=names, seed=seed)
    for p in range(2):
        bots[p].reset(seed * 2 + p)
    limit = turn_limit(rules)
    records = np.zeros(limit + 2, dtype=TURN_DTYPE)
    def codes(letters: str) -> list[int]:  # rack order: letters by code, blanks last
        return sorted(tile_codes(rules, letters), key=lambda t: (t == 0, t))

    turns = 0
    while not game.is_over:
        if turns > limit:  # pragma: no cover - would be an engine or rules bug
            raise WordSalvoError(f"autoplay game {index}: no end after {turns} turns")
        seat = game.to_move
        rec = records[turns]
        rack = codes(game.rack)
        rec["player"], rec["bag_before"], rec["other_len"] = seat, game.bag_count, len(game.racks[1 - seat])
        rec["rack_len"], rec["rack"][:len(rack)] = len(rack), rack
        total = game.scores[seat]
        action = bots[seats[seat]].choose(game)
        rec["equity"] = action.equity or 0.0
        if isinstance(action, Play):
            rec["kind"], rec["move"], rec["score"] = PLAY, action.move.to_record(), action.move.score
            total += action.move.score
        elif isinstance(action, Swap):
            swapped = codes(action.tiles)
            rec["kind"], rec["tiles_len"], rec["tiles"][:len(swapped)] = SWAP, len(swapped), swapped
        else:
            rec["kind"] = PASS
        rec["total"] = total
        game.apply(action)
        turns += 1
    gcg = None
    if want_gcg:
        from ..formats.gcg import date_pragmas, to_gcg

        gcg = to_gcg(game, date_pragmas())  # when it was played: the ratings order games by it
    return _result(rules, index, seed, first, records[:turns], tuple(game.scores), game.end_reason or "", turns,
                   trace, gcg)


def _result(rules, index: int, seed: int, first: int, records, seat_scores, end_reason: str, turns: int,
            trace: bool | str, gcg: str | None = None) -> GameResult:
    """The :class:`GameResult` of one game from its turn records (seat 0 moved first; settlement
    records, the C loop's, are not turns): placements, their points and bingos per player,
    and with ``trace`` the leaves kept and the positions (see :func:`play_game`)."""
    from .selfplay import PLAY, SETTLE, SWAP, leave_after, swap_leave

    seats = (first, 1 - first)  # seat -> player
    size = rules.rack_size
    kind = records["kind"]
    player = records["player"]
    moves = records["move"]
    is_play = kind == PLAY
    bingos = [0, 0]
    plays = [0, 0]
    points = [0, 0]
    scores = [0, 0]
    for seat, p in enumerate(seats):
        mine = is_play & (player == seat)
        plays[p] = int(mine.sum())
        points[p] = int(moves["score"][mine].sum())
        bingos[p] = int((moves["tiles_played"][mine] >= size).sum())
        scores[p] = seat_scores[seat]
    counts = ((scores[0], scores[1]), turns, (bingos[0], bingos[1]), (plays[0], plays[1]), (points[0], points[1]))
    if trace == "racks":
        racks = rack_records(records, size, len(rules.alphabet.letters) + 1)
        return GameResult(index, seed, first, *counts, end_reason, racks=racks)
    leave_trace: list[tuple[str, int]] = []
    states: list[tuple[int, int, int]] = []
    if trace:
        actions = [r for r in records if r["kind"] != SETTLE]
        pending: list[str | None] = [None, None]
        totals = [0, 0]
        last = len(actions) - 1
        for i, r in enumerate(actions):
            seat = int(r["player"])
            p = seats[seat]
            states.append((p, totals[seat] - totals[1 - seat], int(r["bag_before"]) + int(r["other_len"])))
            gained = int(r["move"]["score"]) if r["kind"] == PLAY else 0
            totals[seat] = int(r["total"])
            if pending[p] is not None:
                leave_trace.append((pending[p], gained))
            pending[p] = None
            if r["kind"] == PLAY:
                bag_after = int(r["bag_before"]) - min(int(r["move"]["tiles_played"]), int(r["bag_before"]))
            else:
                bag_after = int(r["bag_before"])
            if bag_after > 0 and i < last:
                if r["kind"] == PLAY:
                    pending[p] = leave_after(rules, r) or None
                elif r["kind"] == SWAP:
                    pending[p] = swap_leave(rules, r) or None
    return GameResult(index, seed, first, *counts, end_reason, gcg,
                      tuple(leave_trace) if trace else None, tuple(states) if trace else None)


def _play_chunk(spec: AutoplaySpec, indices: Sequence[int], want_gcg: bool,
                trace: bool | str = False) -> list[GameResult]:
    return [play_game(spec, i, want_gcg, trace) for i in indices]


def play_forced_game(spec: AutoplaySpec, index: int, force) -> GameResult:
    """Game ``index`` of ``spec`` in the C loop with the full racks ``force`` (tile counts by
    code, one row a rack) forced onto the movers (:meth:`~wordsalvo.engine.selfplay.SelfPlay.play`),
    traced as ``trace="racks"``: leave training's forced games.  A pure function of its inputs."""
    rules, lexicon, bots = _worker_setup(spec)
    engine = _engine(spec, rules, lexicon, bots)
    if engine is None:
        raise WordSalvoError(f"forced racks: expected players the C self-play loop plays, got {spec.players}")
    return _engine_game(engine, spec, index, "racks", force)


def play_probe_game(spec: AutoplaySpec, index: int, probe, probe_per_turn: int) -> GameResult:
    """Game ``index`` of ``spec`` in the C loop, traced as ``trace="racks"``, that also values the
    full racks ``probe`` (tile counts by code, one row a rack), ``probe_per_turn`` a turn, in
    the movers' positions without changing the game
    (:meth:`~wordsalvo.engine.selfplay.SelfPlay.play`): leave training's cover games.  The
    result's ``probes`` holds the keys and returns of the probe racks valued.  A pure
    function of its inputs."""
    rules, lexicon, bots = _worker_setup(spec)
    engine = _engine(spec, rules, lexicon, bots)
    if engine is None:
        raise WordSalvoError(f"probe racks: expected players the C self-play loop plays, got {spec.players}")
    return _engine_game(engine, spec, index, "racks", probe=probe, probe_per_turn=probe_per_turn)


def _play_forced_chunk(spec: AutoplaySpec, items) -> list[GameResult]:
    return [play_forced_game(spec, i, force) for i, force in items]


def _play_probe_chunk(spec: AutoplaySpec, items, probe_per_turn: int) -> list[GameResult]:
    return [play_probe_game(spec, i, probe, probe_per_turn) for i, probe in items]


def _iter_chunks(run_chunk, spec: AutoplaySpec, count: int, chunks: Callable[[int], Iterator[list]],
                 extra: tuple, jobs: int, scheduler: str | None, pool: Any) -> Iterator[GameResult]:
    """``run_chunk(spec, chunk, *extra)`` over ``chunks(size)`` (the ``count`` items in
    chunks of ``size``, made as the queue drains), on ``jobs`` processes (``pool``: a
    :func:`game_pool`) or a Dask cluster (``pool``: its client, or None); the results as
    they finish.  The one way every batch of games is spread out."""
    if scheduler is not None:
        if importlib.util.find_spec("distributed") is None:
            raise WordSalvoError("--scheduler needs Dask distributed: pip install 'wordsalvo[dask]'")
        tasks = ((spec, c, *extra) for c in chunks(max(1, min(50, count // 64 or 1))))
        for chunk in dask_map_unordered(run_chunk, tasks, scheduler, client=pool):
            yield from chunk
        return
    if jobs == 1:
        for c in chunks(1):
            yield from run_chunk(spec, c, *extra)
        return
    tasks = ((spec, c, *extra) for c in chunks(max(1, min(50, count // (jobs * 8) or 1))))
    for chunk in map_unordered(run_chunk, tasks, jobs, _CONTEXT, preload=_PRELOAD, pool=pool, local=True):
        yield from chunk


def _iter_items(run_chunk, spec: AutoplaySpec, items: Sequence, extra: tuple, jobs: int, scheduler: str | None,
                pool: Any) -> Iterator[GameResult]:
    """:func:`_iter_chunks` over the games ``items``."""
    items = list(items)
    return _iter_chunks(run_chunk, spec, len(items),
                        lambda size: (items[i:i + size] for i in range(0, len(items), size)),
                        extra, jobs, scheduler, pool)


def iter_forced_games(spec: AutoplaySpec, items: Sequence, jobs: int = 1, scheduler: str | None = None,
                      pool: Any = None) -> Iterator[GameResult]:
    """Results of the forced games ``items`` ((game index, racks to force) each) as they
    finish, on ``jobs`` processes (``pool``: a :func:`game_pool`) or a Dask cluster
    (``pool``: a :func:`~wordsalvo.parallel.dask_client` of it, or None)."""
    return _iter_items(_play_forced_chunk, spec, items, (), jobs, scheduler, pool)


def iter_probe_games(spec: AutoplaySpec, items: Sequence, probe_per_turn: int, jobs: int = 1,
                     scheduler: str | None = None, pool: Any = None) -> Iterator[GameResult]:
    """Results of the cover games ``items`` ((game index, racks to probe) each;
    :func:`play_probe_game`) as they finish, on ``jobs`` processes (``pool``: a
    :func:`game_pool`) or a Dask cluster (``pool``: a :func:`~wordsalvo.parallel.dask_client`
    of it, or None)."""
    return _iter_items(_play_probe_chunk, spec, items, (probe_per_turn,), jobs, scheduler, pool)


# -- running many games -----------------------------------------------------------------------
def _chunks(indices: range, size: int) -> Iterator[list[int]]:
    """The games of ``indices`` in chunks of ``size``, made one at a time."""
    for i in range(indices.start, indices.stop, size):
        yield list(range(i, min(indices.stop, i + size)))


#: the most games one run plays: every result is kept for the summary (about 300 bytes
#: a game), so a run's memory stays under about a gigabyte
GAMES_MAX = 1_000_000


def iter_games(spec: AutoplaySpec, games: int, jobs: int = 1, scheduler: str | None = None,
               want_gcg: bool = False, start: int = 0, trace: bool | str = False,
               pool: Any = None) -> Iterator[GameResult]:
    """Results of games ``start .. start+games-1`` as they finish (in no fixed order with jobs > 1).

    ``jobs``: processes on this machine, this one included (it plays games too, while the
    ``jobs - 1`` workers start); ``scheduler``:
    the address of a Dask distributed scheduler (needs ``wordsalvo[dask]``); ``pool``: a
    :func:`game_pool` of ``jobs`` workers kept across calls (leave training's chunks), or
    with ``scheduler`` a :func:`~wordsalvo.parallel.dask_client` of it kept likewise.
    """
    games = whole_arg(games, "games", low=0, high=GAMES_MAX,
                      expected=f"a whole number 0..{GAMES_MAX:,} (a run keeps every result)")
    if jobs < 1:
        raise WordSalvoError(f"jobs: expected a whole number >= 1, got {jobs}")
    if jobs == 1 and scheduler is None:
        _worker_setup(spec)  # load once, fail early with a clear error
    indices = range(start, start + games)
    yield from _iter_chunks(_play_chunk, spec, games, lambda size: _chunks(indices, size), (want_gcg, trace), jobs,
                            scheduler, pool)


#: what the fork server imports once for every worker: the game loop and the engines
_PRELOAD = ("wordsalvo.engine.autoplay", "wordsalvo.engine.bot", "wordsalvo.engine.selfplay")
#: how game workers start
_CONTEXT = "forkserver" if sys.platform != "win32" else "spawn"


def game_pool(jobs: int):
    """A pool of ``jobs`` game workers for several :func:`iter_games` calls (a context manager)."""
    from ..parallel import worker_pool

    return worker_pool(jobs, _CONTEXT, _PRELOAD)


# -- summaries --------------------------------------------------------------------------------
@dataclass
class PlayerSummary:
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    win_rate: float = 0.0             #: (wins + draws / 2) / games
    win_rate_low: float = 0.0         #: 95 % Wilson interval
    win_rate_high: float = 1.0
    mean_score: float = 0.0
    mean_spread: float = 0.0
    spread_low: float = 0.0
    spread_high: float = 0.0
    bingos_per_game: float = 0.0
    points_per_turn: float = 0.0      #: placement points per turn taken (swaps and passes count as turns)


@dataclass
class AutoplaySummary:
    rules: str
    games: int
    seconds: float
    games_per_second: float
    mean_turns: float
    players: list[PlayerSummary] = field(default_factory=list)
    seed: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


def summarize(spec: AutoplaySpec, results: Iterable[GameResult], seconds: float) -> AutoplaySummary:
    """Win rates with 95 % intervals, mean score and spread, bingos and turns."""
    res = sorted(results, key=lambda r: r.index)
    n = len(res)
    players = []
    for p in range(2):
        s = PlayerSummary(f"p{p + 1}-{spec.players[p]}")
        spreads = []
        turns_taken = 0
        for r in res:
            mine, theirs = r.scores[p], r.scores[1 - p]
            s.wins += mine > theirs
            s.draws += mine == theirs
            s.losses += mine < theirs
            spreads.append(mine - theirs)
            s.mean_score += mine
            s.bingos_per_game += r.bingos[p]
            s.points_per_turn += r.points[p]
            # the first mover takes the extra turn of an odd total
            turns_taken += (r.turns + (1 if r.first == p else 0)) // 2
        if n:
            s.win_rate = (s.wins + s.draws / 2) / n
            s.win_rate_low, s.win_rate_high = wilson_interval(s.wins + s.draws / 2, n)
            s.mean_score /= n
            s.mean_spread, s.spread_low, s.spread_high = mean_interval(spreads)
            s.bingos_per_game /= n
            s.points_per_turn = s.points_per_turn / turns_taken if turns_taken else 0.0
        players.append(s)
    mean_turns = sum(r.turns for r in res) / n if n else 0.0
    return AutoplaySummary(spec.rules, n, seconds, n / seconds if seconds > 0 else 0.0, mean_turns, players,
                           spec.seed)


def run_autoplay(spec: AutoplaySpec, games: int, jobs: int = 1, scheduler: str | None = None,
                 gcg_dir: str | Path | None = None,
                 progress: Callable[[GameResult], None] | None = None) -> tuple[AutoplaySummary, list[GameResult]]:
    """Play ``games`` games and summarise them; with ``gcg_dir`` every game is written there
    as ``game-<index>.gcg`` (atomically).  Ctrl-C stops the workers at once and raises
    :class:`~wordsalvo.parallel.Interrupted` whose ``partial`` is ``(summary, results)`` of
    the games finished."""
    from ..inputs import write_atomic

    out_dir = checked_path(gcg_dir, WordSalvoError, "record folder") if gcg_dir is not None else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results = []
    try:
        with closing(iter_games(spec, games, jobs, scheduler, want_gcg=out_dir is not None)) as finished:
            for r in finished:
                with interrupts_deferred():  # a finished game is written whole, and counted
                    if out_dir is not None and r.gcg is not None:
                        write_atomic(out_dir / f"game-{r.index:06d}.gcg", r.gcg.encode("utf-8"))
                        r = GameResult(**{**asdict(r), "gcg": None})
                    results.append(r)
                if progress is not None:
                    progress(r)
    except KeyboardInterrupt:  # the workers are stopped (closing the iterator): the games finished so far
        results.sort(key=lambda r: r.index)
        raise Interrupted((summarize(spec, results, time.perf_counter() - started), results)) from None
    seconds = time.perf_counter() - started
    results.sort(key=lambda r: r.index)
    return summarize(spec, results, seconds), results

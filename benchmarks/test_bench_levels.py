"""Time of one engine move per level, embedded English lexicon, WordSalvo board (pytest-benchmark).

The positions are every turn of seeded games the expert plays against itself
(blank racks and late, crowded boards included); each level's bot is built and
warmed up first (its vocabulary is compiled once per process, and the first
best-move search of a lexicon builds its anagram keys once), then
``bot.choose(game)`` is timed on every position.

Run: ``pytest benchmarks/test_bench_levels.py --benchmark-only``; the median, p99
and maximum per level, wall-clock and CPU time: ``python benchmarks/test_bench_levels.py [games]``.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time

import pytest

import wordsalvo as ws
from wordsalvo.engine.bot import LEVELS, Bot

RULES = ws.Rules.preset("wordsalvo-en")
#: the levels that answer at once (master thinks for the time it is given)
QUICK_LEVELS = tuple(level for level in LEVELS if level != "master")


def positions(games: int = 4):
    """(game seed, turns) of every turn of ``games`` expert self-play games."""
    out = []
    expert = Bot("expert", RULES)
    for seed in range(games):
        game = ws.Game(RULES, seed=1000 + seed)
        turns = 0
        while not game.is_over:
            out.append((1000 + seed, turns))
            game.apply(expert.choose(game))
            turns += 1
    return out


def replayed(games: int = 4):
    """The games of :func:`positions` at every turn, as ready Game objects."""
    expert = Bot("expert", RULES)
    out = []
    for seed, turns in positions(games):
        game = ws.Game(RULES, seed=seed)
        for _ in range(turns):
            game.apply(expert.choose(game))
        out.append(game)
    return out


def ready_bot(level: str, game) -> Bot:
    bot = Bot(level, RULES, seed=1)
    bot.choose(game)  # warm-up: vocabulary generator and anagram keys
    return bot


@pytest.fixture(scope="module")
def games():
    return replayed(2)


@pytest.mark.parametrize("level", QUICK_LEVELS)
def test_bench_level_move(benchmark, level, games):
    bot = ready_bot(level, games[0])

    def all_positions():
        return [bot.choose(g) for g in games]

    actions = benchmark(all_positions)
    assert len(actions) == len(games)


def main(n_games: int) -> None:
    games = replayed(n_games)
    print(f"{len(games)} positions of {n_games} expert self-play games, wordsalvo-en, embedded lexicon; "
          f"{platform.machine()} {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}")
    print("wall: elapsed time; cpu: this process's CPU time (the same move on a machine shared with other "
          "jobs, without the time the process waited for a core)")
    for level in QUICK_LEVELS:
        bot = ready_bot(level, games[0])
        wall, cpu = [], []
        for g in games:
            t0, c0 = time.perf_counter(), time.process_time()
            bot.choose(g)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        parts = []
        for name, times in (("wall", wall), ("cpu", cpu)):
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            parts.append(f"{name} median {statistics.median(times) * 1e3:5.2f} p99 {p99 * 1e3:5.2f} "
                         f"max {times[-1] * 1e3:5.2f} ms")
        print(f"{level:>7}: " + "   ".join(parts))

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)

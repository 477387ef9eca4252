"""Fuzz the graph-file loader: mutate a small graph file in a loop for a given time.

Not collected by pytest (no ``test_`` prefix); run it by hand, best against the
debug build (``-O0 -g``, bounds checks, AddressSanitizer and UBSan), so that an
out-of-bounds read shows up as a report instead of silently passing::

    # a debug build in a separate copy of the repository, never in the main checkout
    git worktree add /tmp/ws-debug        # or: cp -r . /tmp/ws-debug
    cd /tmp/ws-debug && WORDSALVO_DEBUG=1 LD_PRELOAD=$(gcc -print-file-name=libasan.so) \\
        ASAN_OPTIONS=detect_leaks=0 python setup.py build_ext --inplace

    LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \\
        PYTHONPATH=/tmp/ws-debug/src python tests/fuzz/fuzz_graph_load.py --seconds 300

    # against the normal build
    python tests/fuzz/fuzz_graph_load.py --seconds 60 --seed 1

Each input is one of: a truncation, bit flips, random bytes over a range,
a duplicated/deleted/swapped stretch of nodes, a changed header field, or
random node words; half of the node mutations get their checksums (and the
header checksum) recomputed, so that they pass the checksum test and reach
the structural check of every arc and, when that accepts them, the code that
follows arcs (lookups, word listing, move generation).

Inputs go through ``Lexicon.from_bytes`` and, every fourth, through
``Lexicon.load`` of the file (the memory-mapped path).  Contract checked:
loading either raises ``wordsalvo.LexiconFormatError``
naming the input, or gives a lexicon on which lookups, the word listing and
the move generator run without crashing (they may raise a WordSalvoError).

Before each attempt the input is written to ``OUT/current.wsg``; when the
process dies (a segfault, a sanitizer report) that file is the reproducer.
Inputs that raise anything else are saved as ``OUT/fail-<n>.wsg`` with the
traceback in ``OUT/fail-<n>.txt``.  Exit status: 0 when nothing failed.
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
import time
import traceback
from pathlib import Path

from wordsalvo import Rules, WordSalvoError
from wordsalvo.lexicon import graphfile
from wordsalvo._core import _graph
from wordsalvo.alphabet import get_alphabet
from wordsalvo.errors import LexiconFormatError
from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo.movegen import MoveGenerator
from wordsalvo.position import Position

HEADER = graphfile.HEADER_SIZE
LETTERS = "AEIOURSTLNDCMPBGHKWYZQ"


def make_words(rng: random.Random, n: int) -> list[str]:
    words: set[str] = set()
    while len(words) < n:
        k = rng.choice((2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 8))
        words.add("".join(rng.choice(LETTERS[: 6 + rng.randrange(len(LETTERS) - 5)]) for _ in range(k)))
    return sorted(words)


def build_graph(words: list[str]) -> bytes:
    data, _stats = graphfile.compile_bytes(("\n".join(words) + "\n").encode(), get_alphabet("en"), _graph)
    return data


def fix_checksums(data: bytearray) -> None:
    """Recompute the node checksums and the header checksum of (possibly mutated) bytes."""
    if len(data) < HEADER:
        return
    n = (len(data) - HEADER) // 4
    nodes = memoryview(bytes(data[HEADER: HEADER + 4 * n])).cast("I")
    s, ws = _graph.checksum(nodes)
    struct.pack_into("<QQ", data, 40, s, ws)
    struct.pack_into("<I", data, 252, graphfile.fnv1a32(bytes(data[:252])))


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    b = bytearray(data)
    nodes = (len(b) - HEADER) // 4
    kind = rng.choice(("truncate", "flip", "flip", "garbage", "node", "node", "node", "stretch", "header", "append"))
    fix = False
    if (nodes < 4 or len(b) < HEADER) and kind in ("node", "stretch", "header"):
        kind = "flip"
    if not b:
        kind = "append"
    if kind == "truncate":
        cut = rng.randrange(len(b))
        b = b[:cut]
    elif kind == "flip":
        for _ in range(rng.choice((1, 1, 2, 4, 8))):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        fix = rng.random() < 0.5
    elif kind == "garbage":
        i = rng.randrange(len(b))
        k = min(len(b) - i, rng.choice((1, 4, 16, 64)))
        b[i: i + k] = bytes(rng.randrange(256) for _ in range(k))
        fix = rng.random() < 0.5
    elif kind == "node":
        # rewrite node words: random index / tile / flags, keeping the rest
        for _ in range(rng.choice((1, 1, 2, 3, 8))):
            j = rng.randrange(nodes)
            (v,) = struct.unpack_from("<I", b, HEADER + 4 * j)
            what = rng.randrange(5)
            if what == 0:
                v = (v & ~0xFFFFFF) | rng.randrange(nodes + 3)  # an index, sometimes just out of range
            elif what == 1:
                v = (v & 0x03FFFFFF) | (rng.randrange(34) << 26)  # a tile, sometimes > alphabet size
            elif what == 2:
                v ^= 1 << rng.choice((24, 25))  # end-of-list / accepts flags
            elif what == 3:
                v = (v & ~0xFFFFFF) | rng.choice((0, 1, 2, j, max(0, j - 1), nodes - 1))  # self/back loops
            else:
                v = rng.getrandbits(32)
            struct.pack_into("<I", b, HEADER + 4 * j, v)
        fix = rng.random() < 0.8
    elif kind == "stretch":
        i = HEADER + 4 * rng.randrange(nodes)
        k = 4 * rng.randrange(1, 9)
        op = rng.randrange(3)
        if op == 0:
            b[i:i] = b[i: i + k]  # duplicate
        elif op == 1:
            del b[i: i + k]  # delete
        else:
            j = HEADER + 4 * rng.randrange(nodes)
            chunk_i, chunk_j = bytes(b[i: i + 4]), bytes(b[j: j + 4])
            b[i: i + 4], b[j: j + 4] = chunk_j, chunk_i
        count = (len(b) - HEADER) // 4
        if rng.random() < 0.7:
            struct.pack_into("<I", b, 16, count)
        fix = rng.random() < 0.8
    elif kind == "header":
        field = rng.choice((8, 12, 16, 20, 24, 28, 32, 36, 88, 96, 100, 224))
        struct.pack_into("<I", b, field, rng.choice((0, 1, 2, 26, 27, 32, 33, 255, 2**31, 2**32 - 1,
                                                     rng.getrandbits(32))))
        fix = rng.random() < 0.9
    else:
        b += bytes(rng.randrange(256) for _ in range(rng.choice((1, 3, 4, 256))))
        fix = rng.random() < 0.5
    if fix:
        fix_checksums(b)
    return bytes(b), kind + ("+fixed" if fix else "")


def exercise(lex: Lexicon, gen_rules: Rules, words: list[str], rng: random.Random) -> None:
    """Everything that follows arcs; WordSalvoError is allowed, a crash is not."""
    for w in rng.sample(words, min(20, len(words))) + ["ZZZZZZZZZZZZZZZ", "QA"]:
        _ = w in lex
    lex._graph.dawg_words(2000)
    gen = MoveGenerator(lex, gen_rules)
    pos = Position.empty(gen_rules, rack="".join(rng.choice(LETTERS[:8]) for _ in range(6)) + "?")
    gen.generate(pos)
    ml = gen.top(pos, 3)
    if len(ml):
        # play the best move and generate again through its tiles
        m = ml[0]
        board = pos.board.copy()
        for r, c, code in m.squares():
            board[r, c] = code
        pos2 = Position(gen_rules, board, ["".join(rng.choice(LETTERS[:10]) for _ in range(5)) + "??", ""], [0, 0])
        gen.generate(pos2)
        gen.top(pos2, 5)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    ap.add_argument("--words", type=int, default=400, help="size of the generated word list (default 400)")
    ap.add_argument("--out", default="fuzz-out", help="folder for the current input and failures")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    words = make_words(rng, args.words)
    base = build_graph(words)
    rules = Rules.preset("classic-en")
    Lexicon.from_bytes(base)  # the unmutated graph must load
    print(f"seed {seed}: {len(words)} words, graph {len(base)} bytes; running {args.seconds:.0f} s", flush=True)
    t_end = time.monotonic() + args.seconds
    tried = loaded = failures = 0
    rejected: dict[str, int] = {}
    current = out / "current.wsg"
    while time.monotonic() < t_end:
        data, kind = mutate(base if rng.random() < 0.7 else mutate(base, rng)[0], rng)
        current.write_bytes(data)
        tried += 1
        try:
            from_file = tried % 4 == 0  # every 4th input through the memory-mapped file path
            name = str(current) if from_file else "<fuzz>"
            try:
                lex = Lexicon.load(current) if from_file else Lexicon.from_bytes(data, name=name)
            except LexiconFormatError as e:
                if name not in str(e):
                    raise AssertionError(f"message does not name the input: {e}") from None
                key = " ".join(w for w in e.problem.split(":")[0].split()[:3] if not w[0].isdigit() and w[0] != "'")
                rejected[key] = rejected.get(key, 0) + 1
                continue
            loaded += 1
            try:
                exercise(lex, rules, words, rng)
            except WordSalvoError:
                pass
        except Exception:  # noqa: BLE001 - anything else is a finding
            failures += 1
            (out / f"fail-{failures}.wsg").write_bytes(data)
            (out / f"fail-{failures}.txt").write_text(f"mutation {kind}, seed {seed}, try {tried}\n" + traceback.format_exc())
            print(f"FAIL {failures} ({kind}):\n{traceback.format_exc()}", file=sys.stderr, flush=True)
    print(f"{tried} inputs, {loaded} loaded (and exercised), {failures} failures", flush=True)
    for k, n in sorted(rejected.items(), key=lambda kv: -kv[1]):
        print(f"  {n:>7}  {k}")
    current.unlink(missing_ok=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

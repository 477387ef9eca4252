"""How much the word map could prune the best-move search: a measurement, not a test.

    python benchmarks/wordmap_spans.py --graph csw24.wsg --positions positions-public.cgp

For each position it replays the best-move search's shadow in Python (the same
anchors, boundaries, spans and bounds as ``shadow_bound`` in csrc/ws_movegen.c)
and counts, over the spans the shadow values and the anchors it would visit
(bound >= the best score, since the search visits anchors best bound first and
stops below the best score found):

* now: the bounds as the C search computes them (full-rack spans through 0-2
  board letters dropped when the rack spells no such word);
* word map: every span dropped when no subset of the rack of the span's size,
  with all the span's board letters, makes a word (``WordMap.exists``, blanks
  resolved at query time);
* lazy: only the spans whose bound reaches the best score need a word-map
  check (``*_above_best``), the cost of checking spans when their anchor comes up;
* exact: every span valued at the best move it really holds (from the full move
  list), what a generator that reads words out of a word map could reach; the
  words ``WordMap.span_words`` fits to those spans are checked against the move
  list (a span has fitting words exactly when it holds a move) and timed.

The replayed "now" count of visited anchors is checked against the C search's
own count (``best_stats``) to make sure the replay is the search.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from pathlib import Path

import wordsalvo as ws
from wordsalvo._core._engine import WordMap
from wordsalvo.lexicon.lexicon import Lexicon
from wordsalvo.movegen import MoveGenerator
from wordsalvo.formats.cgp import parse_cgp
from wordsalvo.position import Position

NONE = -(10**9)
QUESTIONS: list[tuple[bytes, int, bytes]] = []  # every lazy question, for --dump
SPANS: list[tuple] = []  # (bound, rack, pattern, cross, holds a move) of the current position
SPAN_DUMP: list[tuple] = []  # the spans above the best score of every position, for --dump


def sub_multisets(counts: dict[int, int], size: int):
    """Distinct sub-multisets of `size` tiles of a rack ({code: count}, 0 = blank)."""
    codes = sorted(counts)
    def rec(i, left):
        if left == 0:
            yield ()
            return
        if i == len(codes):
            return
        c = codes[i]
        for k in range(min(counts[c], left), -1, -1):
            for rest in rec(i + 1, left - k):
                yield (c,) * k + rest
    yield from rec(0, size)


def analyse(pos: Position, gen: MoveGenerator, wm: WordMap, rules) -> dict:
    tiles = pos.board.tiles
    rack = pos.rack_counts()
    gen._load(pos, None)
    rack_counts = {c: rack[c] for c in range(len(rack)) if rack[c]}
    rack_total = sum(rack)
    blanks = rack[0]
    rack_letters = 0
    for c in range(1, len(rack)):
        if rack[c]:
            rack_letters |= 1 << c
    values_desc = sorted((rules.tile_values[c] if c else 0 for c, k in rack_counts.items() for _ in range(k)), reverse=True)
    all_letters = ((1 << (rules.alphabet.size + 1)) - 1) & ~1
    usable = all_letters if blanks else rack_letters
    lmul, wmul, bonus = rules.letter_multipliers, rules.word_multipliers, rules.square_bonus
    bingo_tiles, bingo_bonus = rules.rack_size, rules.bingo_bonus

    # exact best score of every span, from the full list (one-tile moves count in both lines)
    exact: dict[tuple, int] = defaultdict(lambda: NONE)
    for m in gen.generate(pos).to_numpy():
        d, r, c, n = int(m["direction"]), int(m["row"]), int(m["col"]), int(m["length"])
        lane, start = (r, c) if d == 0 else (c, r)
        key = (d, lane, start, start + n - 1)
        exact[key] = max(exact[key], int(m["score"]))
        if m["tiles_played"] == 1:
            i = next(k for k in range(n) if m["tiles"][k])
            sr, sc = (r, c + i) if d == 0 else (r + i, c)
            pd = 1 - d
            plane, ppos = (sr, sc) if pd == 0 else (sc, sr)
            sq = (lambda p: plane * 15 + p) if pd == 0 else (lambda p: p * 15 + plane)
            a = ppos
            while a > 0 and tiles[sq(a - 1)]:
                a -= 1
            b = ppos
            while b < 14 and tiles[sq(b + 1)]:
                b += 1
            if b > a:
                k2 = (pd, plane, a, b)
                exact[k2] = max(exact[k2], int(m["score"]))

    wm_cache: dict[tuple, bool] = {}
    wm_cost: dict[tuple, int] = {}  # exists() calls each key needed
    span_list: list[tuple[int, tuple]] = []  # (bound, word-map key) of spans the search keeps now
    stats = defaultdict(int)

    def wm_possible(n: int, board_letters: list[int]) -> bool:
        key = (n, tuple(sorted(board_letters)))
        if key not in wm_cache:
            ok = False
            wm_cost[key] = 0
            for sub in sub_multisets(rack_counts, n):
                stats["wm_queries"] += 1
                wm_cost[key] += 1
                b = sub.count(0)
                if wm.exists(bytes([c for c in sub if c]) + bytes(board_letters), b):
                    ok = True
                    break
            wm_cache[key] = ok
        return wm_cache[key]

    anchors = []  # (bound_now, bound_wm, exact_best)
    for d in range(2):
        for lane in range(15):
            sq = (lambda p: lane * 15 + p) if d == 0 else (lambda p: p * 15 + lane)
            lt, lval, lcross, lhc, llm, lwm, lbase, lfit = [], [], [], [], [], [], [], []
            for p in range(15):
                s = sq(p)
                t = tiles[s]
                lt.append(t)
                lval.append(0 if (not t or t & 0x80) else rules.tile_values[t & 0x7F])
                if t:
                    cs, score = 0, 0
                else:
                    cs, score = gen._gen.cross_set(d, s)
                hc = cs & 1
                lhc.append(hc)
                lcross.append(cs & ~1)
                lm, w = (1, 1) if t else (lmul[s], wmul[s])
                llm.append(lm)
                lwm.append(w)
                lbase.append((score * w if hc else 0) + (0 if t else bonus[s]))
                fit = (cs & ~1) & rack_letters
                lfit.append(max((rules.tile_values[c] for c in range(1, 33) if fit >> c & 1), default=0))
            lt.append(0)

            def span_bound(newsq: list[int], board: list[int], board_sum: int) -> int:
                W = 1
                for p in newsq:
                    W *= lwm[p]
                terms = sorted(((llm[p] * (W + (lwm[p] if lhc[p] else 0)), lfit[p]) for p in newsq), reverse=True)
                bound = W * board_sum + sum(lbase[p] for p in newsq)
                used = [False] * len(values_desc)
                for coef, fit in terms:
                    for j, v in enumerate(values_desc):
                        if not used[j] and v <= fit:
                            used[j] = True
                            bound += coef * v
                            break
                if len(newsq) == bingo_tiles:
                    bound += bingo_bonus
                return bound

            def shadow(anchor: int, boundary: int):
                best_now = best_wm = best_exact = NONE
                for L in range(anchor, boundary, -1):
                    left = list(range(L, anchor + 1))
                    newl = [p for p in left if not lt[p]]
                    if not lt[L] and (not (lcross[L] & usable) or len(newl) > rack_total):
                        break
                    if L > 0 and lt[L - 1]:
                        continue
                    for R in range(anchor, 15):
                        newr = [p for p in range(anchor + 1, R + 1) if not lt[p]]
                        if R > anchor and not lt[R] and (not (lcross[R] & usable) or len(newl) + len(newr) > rack_total):
                            break
                        if lt[R + 1]:
                            continue
                        newsq = newl + newr
                        n = len(newsq)
                        if n == 0:
                            continue
                        if n == 1 and d == 1 and lhc[newsq[0]]:
                            continue  # a one-tile move with an across neighbour: listed across only
                        span = range(L, R + 1)
                        board = [lt[p] & 0x7F for p in span if lt[p]]
                        board_sum = sum(lval[p] for p in span if lt[p])
                        b = span_bound(newsq, board, board_sum)
                        stats["spans"] += 1
                        stats["spans_full_rack"] += n == bingo_tiles
                        now_ok = True
                        if n == bingo_tiles:
                            if len(board) == 0:
                                now_ok = wm.exists(bytes(c for c in range(1, 33) for _ in range(rack[c])), blanks)
                            elif len(board) <= 2 and blanks <= 1:
                                now_ok = wm_possible(n, board)
                        wm_ok = wm_possible(n, board)
                        ex = exact[(d, lane, L, R)]
                        stats["spans_dropped_now"] += not now_ok
                        stats["spans_dropped_wm"] += not wm_ok
                        stats["spans_dropped_wm_full_rack"] += (not wm_ok) and n == bingo_tiles
                        stats["spans_without_move"] += ex == NONE
                        if now_ok:
                            best_now = max(best_now, b)
                            span_list.append((b, (n, tuple(sorted(board)))))
                            pattern = [lt[p] & 0x7F for p in span]
                            cross = [lcross[p] if not lt[p] else 0 for p in span]
                            if len(pattern) >= 2:  # a lone tile's word is the perpendicular one
                                SPANS.append((b, rack, pattern, cross, ex != NONE))
                        if wm_ok:
                            best_wm = max(best_wm, b)
                        best_exact = max(best_exact, ex)
                return best_now, best_wm, best_exact

            if not any(lt[:15]) and not any(lhc):
                continue
            boundary = -1
            for p in range(15):
                if lt[p]:
                    if not lt[p + 1]:
                        anchors.append(shadow(p, boundary))
                        boundary = p + 1
                elif lhc[p] and (p == 0 or not lt[p - 1]) and not lt[p + 1]:
                    anchors.append(shadow(p, boundary))
                    boundary = p
    best = gen.best(pos)
    best_score = best.score if best is not None else NONE
    _, visited_c, _, _ = gen._gen.best_stats()
    stats["anchors"] = sum(1 for a in anchors if a[0] > NONE)
    stats["visited_now"] = sum(1 for a in anchors if a[0] > NONE and a[0] >= best_score)
    stats["visited_wm"] = sum(1 for a in anchors if a[1] > NONE and a[1] >= best_score)
    stats["visited_exact"] = sum(1 for a in anchors if a[2] > NONE and a[2] >= best_score)
    stats["visited_c"] = visited_c
    stats["wm_keys"] = len(wm_cache)
    above = {k for b, k in span_list if b >= best_score}
    stats["spans_above_best"] = sum(1 for b, _ in span_list if b >= best_score)
    stats["wm_keys_above_best"] = len(above)
    stats["wm_queries_above_best"] = sum(wm_cost[k] for k in above)
    # time of those questions asked of the C map (from Python: an upper bound)
    questions = [(n, bytes(board)) for n, board in above]
    times = []
    for _ in range(5):
        t = time.perf_counter()
        for n, board in questions:
            wm.subrack_exists(rack, n, board)
        times.append(time.perf_counter() - t)
    stats["lazy_check_us"] = round(statistics.median(times) * 1e6)
    # exact values of the spans whose bound reaches the best score: the words that fit
    # (checked against the move list: a span has fitting words iff it holds a move)
    above_spans = [sp for sp in SPANS if sp[0] >= best_score]
    SPAN_DUMP.extend(above_spans)
    for _, r, pattern, cross, holds in above_spans:
        if bool(wm.span_words(r, pattern, cross)) != holds:
            stats["span_words_disagree"] += 1
    times = []
    for _ in range(5):
        t = time.perf_counter()
        for _, r, pattern, cross, _ in above_spans:
            wm.span_words(r, pattern, cross)
        times.append(time.perf_counter() - t)
    stats["span_words_us"] = round(statistics.median(times) * 1e6)
    stats["span_words_found"] = sum(len(wm.span_words(r, p, c)) for _, r, p, c, _ in above_spans)
    SPANS.clear()
    QUESTIONS.extend((bytes(rack), n, board) for n, board in questions)
    stats["blanks"] = blanks
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", type=Path, required=True)
    ap.add_argument("--positions", type=Path, required=True)
    ap.add_argument("--rules", default="classic-en")
    ap.add_argument("--dump", type=Path, help="write the lazy questions (33 rack counts, n, 15 letters) and, beside them (.spans), "
                         "the spans above the best score (33 counts, length, 15 letters, 15 masks) for timing in C")
    args = ap.parse_args()
    rules = ws.Rules.preset(args.rules)
    lex = Lexicon.load(args.graph)
    wm = WordMap(lex._graph)
    gen = MoveGenerator(lex, rules, wordmap=False)  # the replay is of the search by the graph alone
    positions = [parse_cgp(l, rules=rules) for l in args.positions.read_text("utf-8").splitlines() if l.strip()]
    t = time.perf_counter()
    rows = [analyse(p, gen, wm, rules) for p in positions]
    if args.dump:
        args.dump.write_bytes(b"".join(r + bytes([n, len(t)]) + t.ljust(15, b"\0") for r, n, t in QUESTIONS))
        spans = args.dump.with_suffix(".spans")
        spans.write_bytes(b"".join(
            bytes(r) + bytes([len(p)]) + bytes(p).ljust(15, b"\0")
            + b"".join(c.to_bytes(8, "little") for c in cross + [0] * (15 - len(cross)))
            for _, r, p, cross, _ in SPAN_DUMP))
    mismatch = [i for i, r in enumerate(rows) if r["visited_now"] != r["visited_c"]]
    print(f"{args.positions.name}: {len(rows)} positions, word map {wm.nbytes / 1e6:.1f} MB built in "
          f"{wm.build_seconds * 1e3:.0f} ms; replay of the C search's visited-anchor count differs at "
          f"{len(mismatch)} positions {mismatch[:10]} ({time.perf_counter() - t:.0f} s)")
    print()
    print("| per position | total | median | mean |")
    print("|---|---:|---:|---:|")
    for key in ("anchors", "visited_c", "visited_now", "visited_wm", "visited_exact", "spans", "spans_full_rack",
                "spans_dropped_now", "spans_dropped_wm", "spans_dropped_wm_full_rack", "spans_without_move",
                "wm_keys", "wm_queries", "spans_above_best", "wm_keys_above_best", "wm_queries_above_best", "lazy_check_us", "span_words_us", "span_words_found", "span_words_disagree"):
        v = [r[key] for r in rows]
        print(f"| {key} | {sum(v)} | {statistics.median(v):g} | {statistics.mean(v):.1f} |")
    for b in (0, 1, 2):
        sub = [r for r in rows if r["blanks"] == b]
        if sub:
            print(f"\nracks with {b} blank(s): {len(sub)} positions; visited anchors now / word map / exact: "
                  f"{sum(r['visited_now'] for r in sub)} / {sum(r['visited_wm'] for r in sub)} / "
                  f"{sum(r['visited_exact'] for r in sub)}; word-map queries {sum(r['wm_queries'] for r in sub)}")


if __name__ == "__main__":
    main()

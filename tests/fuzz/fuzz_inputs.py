"""Fuzz every text and file format wordsalvo reads, each input in a watched subprocess.

Formats: ``cgp`` (CGP lines), ``notation`` (move notations given to validate),
``gcg`` (game records, through the engine's reader and the analysis reader),
``rules`` (rule set files), ``graph`` (compiled graph files), ``leaves`` (``.wsl``
leave tables), ``leavecsv`` (``leave,value`` CSV), ``winmodel`` (win-probability
model JSON), ``tiers`` (rating tiers TOML), ``ratings`` (results CSV), ``level`` (level
and rating texts, as ``Bot``, ``--level`` and the service's ``level`` take them), ``batch``
(folders of records for a batch analysis, run twice: the second run must skip all),
``serve`` (the HTTP service's JSON bodies, level and rating strings among them, posted
to every engine endpoint through an HTTP client in process) and ``scheduler`` (Dask
scheduler addresses; one in 20 is also probed against a local listener of the harness's
own that answers with fuzzed bytes, or never).  Input ``i`` of a
format is made from ``(seed, format, i)`` alone, so any input can be made again::

    python tests/fuzz/fuzz_inputs.py --seed 1 --count 200000            # every format
    python tests/fuzz/fuzz_inputs.py --seed 1 --count 5000 --formats cgp,gcg --jobs 2
    python tests/fuzz/fuzz_inputs.py --seed 1 --show cgp:1234           # print one input

Workers run batches of inputs; before each input a worker sends its index (and what it
has counted so far) to the parent as one fixed-size record on a pipe, so when a worker
dies (a segfault, a sanitizer abort, the OOM killer) the input that killed it is known:
it is counted as a crash, saved as a reproducer, and a new worker goes on with the next
input.  A record is smaller than the pipe's atomic write size, so the parent never reads
half of one, and the parent times progress with its own monotonic clock (when a record
arrives), so no clock is compared across processes.  A worker that makes no progress for
``--timeout`` seconds is stopped and its input run again alone, with twice the time; only
an input that stalls that run too is counted as a hang.

The contract checked on every input (anything else is a finding):

* the reader returns a value or raises a ``WordSalvoError`` subclass whose message is
  at most 4,000 characters (a *bare exception* is any other exception, a *long
  message* one over that);
* what a reader accepts is right (a *wrong result*): a CGP line written back reads as
  the same position; a notation ``validate`` accepts is among the generated moves at
  the same score; a generated move validates at the score it was listed with;
  ``best`` is ``max(generate)``; a GCG record replayed and written again replays to
  the same scores; an accepted rule file plays (generation agrees with ``best`` and
  ``validate`` on a rack); a graph that loads gives ``best = max(generate)``; a leave
  table or CSV, model or tiers file that loads, written back, reads the same; accepted
  results rate every player once (spellings merged); a batch gives one result per good
  record, each naming its own path, and a second run analyses nothing; an accepted level
  text is ASCII without spaces, reads back as the same player from its name, is what the
  command line reads too, and the bot it makes takes a legal action (a hang is a finding);
  the service answers a body 200 with a JSON object or 4xx with a problem detail, never 5xx;
  an accepted scheduler address is ``tcp://HOST:PORT`` with a port 1..65535 and is taken
  again as itself, and a local listener that is not a scheduler is refused.

``WORDSALVO_FUZZ_CRASH_AT=FORMAT:INDEX`` (or ``..._HANG_AT``) makes that input abort
(or stall) its worker, and ``WORDSALVO_FUZZ_SLOW_AT=FORMAT:INDEX:SECONDS`` makes it sleep
that long: the harness's own tests that crashes and hangs are caught and that a slow
input is not called a hang.

Findings go to ``OUT/findings.jsonl`` (format, index, kind, detail) and crash or hang
reproducers to ``OUT/<format>-<index>.input``.  Exit status 0 when nothing was found.
Runs without any fuzzing library (pure seeded mutation).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import struct
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
FORMATS = ("cgp", "notation", "gcg", "rules", "graph", "leaves", "leavecsv", "winmodel", "tiers", "ratings",
           "level", "batch", "serve", "scheduler")
#: share of --count per format (they add up to 1, so the counts add up to --count)
SHARES = {"cgp": 0.18, "notation": 0.18, "gcg": 0.10, "rules": 0.09, "graph": 0.08, "leaves": 0.06,
          "leavecsv": 0.06, "winmodel": 0.05, "tiers": 0.05, "ratings": 0.05, "level": 0.03, "batch": 0.01,
          "serve": 0.04, "scheduler": 0.02}
#: the bases of the level texts (named kinds, ratings at and past the table's ends, strength
#: parameters) and what loose readers took: underscores, other digits, spaces, nan, huge numbers
_LEVELS = ["easy", "medium", "hard", "expert", "master", "score", "equity", "1200", "-388", "1880", "1880.5",
           "-389", "900.25", "1.2e3", "+1200", "beta=0.2", "beta=-0.1", "beta=0", "beta=inf", "beta=10",
           "beta=-10", "beta=1e308", "beta=-1e308", "beta=1e-300", "beta=nan", "beta=-inf"]
_LEVEL_JUNK = ["_", "\u0661", "\uff11", "\u00b2", " ", "\t", "\n", "e", "E", "e999", ".", "-", "+", "inf", "nan",
               "beta=", "=", "0x", "\x00", "9" * 30, "1_200", "\u0663\u0660\u0660"]
MESSAGE_MAX = 4000
KINDS = ("crash", "hang", "bare exception", "long message", "wrong result")
#: what a worker counts, in this order after the index in each progress record
COUNTED = ("tried", "accepted", "rejected", "bare exception", "long message", "wrong result")
#: one progress record: the input about to run (``stop`` when the batch is done) and the counts
#: before it; 56 bytes, well under PIPE_BUF (at least 512 by POSIX), so each write is atomic
_PROGRESS = struct.Struct("<q6q")

# -- mutation ---------------------------------------------------------------------------
_HUGE = "9" * 4400
_JUNK = ["\x00", "\t", "\n", "\r", " ", "  ", ";", ";;", "/", "//", ",", ".", "-", "+", "?", "(", ")", "()",
         "#", ">", ":", "=", "[", "]", "{", "}", '"', "'", "\\", "0", "00", "1", "7", "9", "15", "16", "99",
         "-1", "255", "256", "65535", "65536", "2147483648", "4294967296", "18446744073709551616", _HUGE,
         "\u00b2", "\u0663", "\u2167", "\uff15", "\u0660", "\u00bd", "é", "ß", "İ", "ı", "Ç", "ﬁ", "\ufeff",
         "\u200b", "\U0001f600", "A", "Z", "a", "z", "Q", "?" * 3, "ABCDEFGHIJKLMNO", "x" * 300, "A" * 5000,
         "lex", "bb", "rs", "bseed", "stars", "rs turkish;", "rs classic-en;", "bb 50;", "stars 7,7;",
         "true", "false", "nan", "inf", "1e309", "-0", "0x10", "1_000"]


def mutate_text(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """Generic text mutations: spans deleted, duplicated, moved or replaced with junk,
    tokens swapped or repeated, case flipped, truncation."""
    s = text
    for _ in range(rounds if rounds is not None else rng.choice((1, 1, 1, 2, 2, 3, 5))):
        n = len(s)
        op = rng.randrange(11)
        i = rng.randrange(n + 1)
        j = min(n, i + rng.choice((1, 1, 2, 3, 5, 10, 40)))
        if op == 0 and n:
            s = s[:i] + s[j:]
        elif op == 1:
            s = s[:i] + s[i:j] * rng.choice((2, 3, 50)) + s[j:]
        elif op in (2, 3, 4):
            s = s[:i] + rng.choice(_JUNK) + s[(j if op == 2 else i):]
        elif op == 5 and n:
            tokens = s.split(" ")
            if len(tokens) > 1:
                a, b = rng.randrange(len(tokens)), rng.randrange(len(tokens))
                tokens[a], tokens[b] = tokens[b], tokens[a]
                s = " ".join(tokens)
        elif op == 6 and n:
            tokens = s.split(" ")
            k = rng.randrange(len(tokens))
            tokens.insert(k, tokens[rng.randrange(len(tokens))])
            s = " ".join(tokens)
        elif op == 7:
            s = s[:i] + s[i:j].swapcase() + s[j:]
        elif op == 8:
            s = s[:i]
        elif op == 9 and n:  # a digit run replaced by another number
            k = next((p for p in range(i, n) if s[p].isdigit()), None)
            if k is not None:
                e = k
                while e < n and s[e].isdigit():
                    e += 1
                s = s[:k] + rng.choice(["0", "1", "14", "15", "16", "100", "1000", "1001", "-5", _HUGE, "2²",
                                        "\u0663", "4294967295", str(rng.randrange(10**6))]) + s[e:]
        else:
            s = s + rng.choice(_JUNK)
    return s


def input_rng(seed: int, fmt: str, index: int) -> random.Random:
    h = hashlib.blake2b(f"{seed}:{fmt}:{index}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(h, "little"))


# -- the formats ------------------------------------------------------------------------
class Context:
    """What a worker builds once: lexicons, generators, base inputs."""

    def __init__(self) -> None:
        import wordsalvo as ws
        from wordsalvo import Game, Lexicon, MoveGenerator, Rules
        from wordsalvo.formats.gcg import to_gcg

        sys.path.insert(0, str(HERE))
        from fuzz_graph_load import build_graph, make_words  # the graph-file mutations

        self.ws = ws
        self.lex = {"en": Lexicon.default("en")}
        self.rules = {name: Rules.preset(name) for name in ws.rules.preset_names()}
        self.classic = self.rules["classic-en"]
        self.gen = MoveGenerator(self.lex["en"], self.classic)
        self.gens: dict[tuple, object] = {}
        self.cgp_lines = [ln for ln in (TESTS / "data" / "scowl-en" / "positions.cgp").read_text("utf-8").splitlines()
                          if ln.strip()][:300]
        from wordsalvo.formats.cgp import parse_cgp

        self.positions = [parse_cgp(ln, rules=self.classic) for ln in self.cgp_lines[:40]]
        self.position_moves = [None] * len(self.positions)  # notation -> score, made on first use
        # GCG records: seeded games on the English rule sets, the test data's records
        self.gcg = []
        for k, name in enumerate(("classic-en", "wordsalvo-en")):
            game = Game(self.rules[name], self.lex["en"], seed=100 + k)
            r = random.Random(k)
            while not game.is_over and len(game.history) < 40:
                if r.random() < 0.08 and len(game.bag) >= 7:
                    game.swap("".join(r.sample(game.rack, 1 + r.randrange(len(game.rack)))))
                elif r.random() < 0.05:
                    game.pass_turn()
                else:
                    moves = game.legal_moves()
                    if len(moves):
                        game.play(moves[r.randrange(min(len(moves), 5))])
                    else:
                        game.pass_turn()
            self.gcg.append(to_gcg(game))
        self.games = len(self.gcg)
        self.gcg += [p.read_text("utf-8", "replace") for p in sorted((TESTS / "data" / "gcg").glob("*.gcg"))]
        self.rule_texts = [(Path(ws.__file__).parent / "rulesets" / f"{n}.toml").read_text("utf-8")
                           for n in sorted(self.rules)]
        grng = random.Random(7)
        self.graph_words = make_words(grng, 400)
        self.graph = build_graph(self.graph_words)

    _extra = None

    def extra(self) -> dict:
        """The bases of the newer formats, made on first use."""
        if self._extra is None:
            import numpy as np

            from wordsalvo.leaves import Leaves

            text = (Path(self.ws.__file__).parent / "rulesets" / "classic-en.toml").read_text("utf-8")
            small = self.ws.Rules.from_toml(text.replace("rack_size = 7", "rack_size = 3").replace(
                'name = "classic-en"', 'name = "fuzz-rack3"'), source="<fuzz rack 3>")
            n = len(Leaves.zeros(small))
            table = Leaves.from_values(small, np.round(np.random.default_rng(3).normal(0, 5, n), 2))
            tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"wordsalvo-fuzz-{os.getpid()}"
            tmp.mkdir(exist_ok=True)
            table.save(tmp / "base.wsl")
            table.to_csv(tmp / "base.csv")
            model = (TESTS / "data" / "winprob-wordsalvo-en-test.json").read_text("utf-8")
            tiers = (Path(self.ws.__file__).parent / "data" / "tiers.toml").read_text("utf-8")
            results = ("date,player1,player2,score1,score2\n2026-01-01,Ann,Bob,400,350\n"
                       "2026-01-02,Bob,Cy,300,301\n2026-01-02,ann,José,290,290\n2026-01-09,Cy,Ann,410,200\n")
            short = []
            for k in range(3):
                g = self.ws.Game(self.rules["wordsalvo-en"], self.lex["en"], seed=200 + k)
                for _ in range(2):
                    m = g.best_move()
                    g.pass_turn() if m is None else g.play(m)
                from wordsalvo.formats.gcg import to_gcg

                short.append(to_gcg(g))
            self._extra = {"rules": small, "wsl": (tmp / "base.wsl").read_bytes(),
                           "csv": (tmp / "base.csv").read_text("utf-8"), "model": model, "tiers": tiers,
                           "results": results, "short": short, "tmp": tmp, "n": 0}
        return self._extra

    _level_game = None

    def level_game(self):
        """A wordsalvo-en game 12 turns in, for the players of the level texts."""
        if self._level_game is None:
            game = self.ws.Game(self.rules["wordsalvo-en"], self.lex["en"], seed=6)
            bot = self.ws.Bot("equity", game.rules)
            for _ in range(12):
                game.apply(bot.choose(game))
            self._level_game = game
        return self._level_game

    def scratch(self) -> Path:
        """A new empty folder for one input."""
        x = self.extra()
        x["n"] += 1
        d = x["tmp"] / f"in-{x['n']}"
        d.mkdir()
        return d

    _serve = None

    def serve_client(self):
        """An HTTP client of the service in this process (made on first use): one engine
        thread, small searches, a budget generous enough that only a runaway request
        meets it."""
        if self._serve is None:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                from fastapi.testclient import TestClient
            from wordsalvo.serve.app import create_app
            from wordsalvo.serve.config import ServeConfig

            config = ServeConfig(threads=1, seconds=30.0, queue_seconds=30.0, sim_seconds=0.05,
                                 endgame_seconds=0.05)
            self._serve = TestClient(create_app(config), raise_server_exceptions=False)
            self._serve.__enter__()
        return self._serve

    def moves_of(self, k: int) -> dict[str, int]:
        if self.position_moves[k] is None:
            self.position_moves[k] = {m.notation: m.score for m in self.gen.generate(self.positions[k])}
        return self.position_moves[k]

    def generator(self, lex, rules):
        key = (id(lex), rules.scoring_key)
        g = self.gens.get(key)
        if g is None:
            if len(self.gens) > 64:
                self.gens.clear()
            g = self.ws.MoveGenerator(lex, rules)
            self.gens[key] = g
        return g


class WrongResult(Exception):
    """An accepted input gave a wrong answer (a finding)."""


def check_moves(ctx: Context, gen, pos, rng: random.Random, sample: int = 12) -> None:
    """best = max(generate); a sample of generated moves validates at its listed score."""
    every = gen.generate(pos)
    best = gen.best(pos)
    top = max((m.score for m in every), default=None)
    if (best.score if best is not None else None) != top:
        raise WrongResult(f"best {best.notation if best else None} {best.score if best else None} != max(generate) {top}")
    if len(every):
        picks = {0, len(every) - 1} | {rng.randrange(len(every)) for _ in range(sample)}
        for i in picks:
            m = every[i]
            v = gen.validate(pos, m.notation)
            if v.score != m.score:
                raise WrongResult(f"{m.notation}: generated at {m.score}, validate says {v.score}")


def make_input(ctx: Context, fmt: str, rng: random.Random):
    if fmt == "cgp":
        if rng.random() < 0.03:
            return "".join(rng.choice(_JUNK) for _ in range(rng.randrange(1, 30)))
        return mutate_text(rng.choice(ctx.cgp_lines), rng)
    if fmt == "notation":
        k = rng.randrange(len(ctx.positions))
        moves = list(ctx.moves_of(k))
        base = rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(["8H AB", "H8 QI", "1A ZZZ"])
        return k, mutate_text(base, rng, rounds=rng.choice((0, 1, 1, 1, 2, 3)))
    if fmt == "gcg":
        base = rng.choice(ctx.gcg[:ctx.games] if rng.random() < 0.8 else ctx.gcg)
        lines = base.splitlines()
        for _ in range(rng.choice((0, 1, 1, 1, 2, 3))):
            if not lines:
                break
            i = rng.randrange(len(lines))
            op = rng.randrange(5)
            if op == 0:
                lines[i] = mutate_text(lines[i], rng, rounds=1)
            elif op == 1:
                del lines[i]
            elif op == 2:
                lines.insert(i, lines[rng.randrange(len(lines))])
            elif op == 3:
                lines[i:] = lines[i: i + rng.randrange(1, 4)] if rng.random() < 0.2 else lines[i:]
                lines[i] = mutate_text(lines[i], rng, rounds=3) if i < len(lines) else ""
            else:
                lines.insert(i, rng.choice(["#seed " + rng.choice(["1", _HUGE, "2²", "-3"]), "#stars 3,5 3,5",
                                            "#stars 3,5\u00b2", "#rules turkish", "#rules " + "x" * 300,
                                            "#player3 c C", "#strict maybe", ">x: ABC 8H AB +999999999999 1"]))
        return "\n".join(lines) + rng.choice(("\n", "", "\r\n"))
    if fmt == "rules":
        text = rng.choice(ctx.rule_texts)
        lines = text.splitlines()
        for _ in range(rng.choice((1, 1, 2, 3, 6))):
            i = rng.randrange(len(lines))
            op = rng.randrange(6)
            if op == 0:
                lines[i] = mutate_text(lines[i], rng)
            elif op == 1:
                del lines[i]
            elif op == 2 and "=" in lines[i]:
                key = lines[i].split("=")[0]
                lines[i] = key + "= " + rng.choice(["0", "-1", "1000", "1001", "100", "101", "7", "8", "true",
                                                    '"x"', "[]", "[1]", "[1, 100]", "[0, 100]", "[100, 100]",
                                                    "[255, 100]", '"' + "W " * 14 + 'W"', _HUGE, "1.5", "{}"])
            elif op == 3:  # the heaviest values the loader takes
                lines = [(ln.split("=")[0] + "= [" + ln.split("[")[1].split(",")[0] + ", 100]")
                         if "= [" in ln and ln[:1].isalpha() and len(ln.split("=")[0].strip().strip('"')) == 1
                         else "bingo_bonus = 1000" if ln.startswith("bingo_bonus") else ln for ln in lines]
                if rng.random() < 0.5:
                    lines = [" ".join("W" * 15) if len(ln.split()) == 15 and set(ln.split()) <= set("WwTD*.S")
                             else ln for ln in lines]
            elif op == 4:
                lines.insert(i, rng.choice(["[end]", "scoreless_turns = 0", "all_pass_rounds = 0",
                                            "consecutive_passes = 0", "rack_size = 8", "unknown = 1",
                                            'alphabet = "xx"', "centre = [15, 15]", "star_squares = [[3, 5], [3, 5]]",
                                            'random = "stars"', "random_star_count = 300"]))
            else:
                lines[i] = ""
        return "\n".join(lines) + "\n"
    if fmt == "graph":
        from fuzz_graph_load import mutate

        data, _kind = mutate(ctx.graph if rng.random() < 0.7 else mutate(ctx.graph, rng)[0], rng)
        return data
    x = ctx.extra() if fmt in FORMATS[5:] else None
    if fmt == "leaves":
        data = bytearray(x["wsl"])
        for _ in range(rng.choice((1, 1, 2, 4))):
            op = rng.randrange(6)
            i = rng.randrange(len(data) + 1)
            if op == 0 and i < len(data):
                data[i] = rng.randrange(256)
            elif op == 1:
                del data[i:]
            elif op == 2:
                data[i:i] = bytes(rng.randrange(256) for _ in range(rng.choice((1, 4, 100))))
            elif op == 3:  # a payload value, with the checksums made right again (the value checks)
                import struct as st

                from wordsalvo import leaves as lv

                if len(data) >= lv.HEADER_SIZE + 4:
                    k = lv.HEADER_SIZE + 4 * rng.randrange((len(data) - lv.HEADER_SIZE) // 4)
                    st.pack_into("<f", data, k, rng.choice([3.4e38, -3.4e38, float("nan"), float("inf"), 1e6,
                                                            1e6 + 64, -1e7, 0.0, 127.9]))
                    payload = bytes(data[lv.HEADER_SIZE:])
                    data[100:132] = hashlib.sha256(payload).digest()
                    data[252:256] = st.pack("<I", lv._fnv1a32(bytes(data[:252])))
            elif op == 4:
                data[i:i + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\x01\x00\x00\x00"])
            else:
                pass
        return bytes(data)
    if fmt == "leavecsv":
        lines = x["csv"].splitlines()
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            i = rng.randrange(len(lines))
            op = rng.randrange(5)
            if op == 0:
                lines[i] = mutate_text(lines[i], rng, rounds=1)
            elif op == 1:
                lines.insert(i, lines[rng.randrange(len(lines))])
            elif op == 2:
                lines[i] = lines[i].split(",")[0] + "," + rng.choice(_JUNK + ["1e6", "-1e6", "1000001", "3.4e38"])
            elif op == 3:
                lines.insert(i, rng.choice(['"' + "A" * 140_000 + '",1', "\ufeffleave,value", "A,1\x0bB,2", "a,1",
                                            "é,1", '"A,1', "", "A,1,2"]))
            else:
                del lines[i]
        prefix = "\ufeff" if rng.random() < 0.05 else ""
        return prefix + rng.choice(("\n", "\r\n")).join(lines) + "\n"
    if fmt == "winmodel":
        text = x["model"]
        if rng.random() < 0.3:
            key = rng.choice(['"coef"', '"version"', '"rules"', '"games"', '"positions"', '"seed"', '"format"'])
            value = rng.choice(['"12345"', "true", "1.0", "Infinity", "NaN", "-1", "9" * 5000, "[" * 2000,
                                "[1,2,3,4]", "[1,2,3,4,5,6]", '"../x"', '"turkish"', "null", "{}", "1e400"])
            text = text.replace(key + ":", key + ": " + value + ", " + key + "_was:", 1)
        return mutate_text(text, rng, rounds=rng.choice((0, 1, 1, 2)))
    if fmt == "tiers":
        lines = x["tiers"].splitlines()
        for _ in range(rng.choice((1, 1, 2, 3))):
            i = rng.randrange(len(lines))
            op = rng.randrange(4)
            if op == 0:
                lines[i] = mutate_text(lines[i], rng, rounds=1)
            elif op == 1:
                lines.insert(i, rng.choice(["tier = [1, 2]", 'tier = ["ab"]', "from = " + "9" * 5000,
                                            "from = nan", "from = inf", "from = 1e400", "[[tier]]", 'name = ""',
                                            'name = "\u001b[2J"', "from = 1500"]))
            elif op == 2 and lines[i].startswith("from"):
                lines[i] = "from = " + rng.choice(["0", "-1", "1e9", "1e10", "1.5", "3000", '"x"', "true"])
            else:
                del lines[i]
        return "\n".join(lines) + "\n"
    if fmt == "ratings":
        lines = x["results"].splitlines()
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            i = rng.randrange(len(lines))
            op = rng.randrange(4)
            if op == 0:
                lines[i] = mutate_text(lines[i], rng, rounds=1)
            elif op == 1:
                lines.insert(i, rng.choice(["2026-01-03,Ｂob,Ann,1,0", "2026-01-03,Ann,ANN,1,0",
                                            "2026-01-03,\x1b]0;t\x07,Ann,3,2", "2026-01-03,Ann,Bob,1_0,2",
                                            "2026-01-03,Ann,Bob,١٢,2", "2026-13-40,Ann,Bob,1,2",
                                            '2026-01-03,"' + "x" * 140_000 + '",Bob,1,2', "\ufeff"]))
            elif op == 2:
                lines.insert(i, lines[rng.randrange(len(lines))])
            else:
                del lines[i]
        return "\n".join(lines) + "\n"
    if fmt == "level":
        text = rng.choice(_LEVELS)
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            i = rng.randrange(len(text) + 1)
            op = rng.randrange(4)
            if op == 0:
                junk = rng.choice(_LEVEL_JUNK).encode().decode("unicode_escape")
                text = text[:i] + junk + text[i:]
            elif op == 1 and text:
                text = text[:i] + text[i + rng.randrange(1, 4):]
            elif op == 2:
                text = text[:i] + str(rng.choice((0, 1, 5, 9, 10, 99, 1e308))) + text[i:]
            else:
                text = mutate_text(text, rng, rounds=1)
        return text
    if fmt == "batch":
        files = {}
        for k in range(rng.choice((1, 2, 3))):
            name = rng.choice(["x.gcg", "x-2.gcg", "a/x.gcg", "b/x.gcg", "b/x-2.gcg", "é.gcg", "A.GCG", ".gcg",
                               "c/d/x.gcg", "x" * 200 + ".gcg"])
            text = rng.choice(x["short"])
            op = rng.randrange(6)
            if op == 0:
                text = mutate_text(text, rng, rounds=1)
            elif op == 1:
                text = ""
            elif op == 2:
                text = text.replace("Player1", rng.choice(["\x1b[2J", "Ann\u202e", "P" * 300]))
            files[name] = text
        return files
    if fmt == "serve":
        return serve_input(ctx, x, rng)
    if fmt == "scheduler":
        base = rng.choice(["tcp://127.0.0.1:8786", "localhost:8786", "tcp://[::1]:8786", "tcp://10.0.0.5:8786",
                           "tls://127.0.0.1:8786", "inproc://x", "ucx://h:1", "ws://h:80", "", "tcp://h:65535",
                           "tcp://scheduler.example.org:8786", "tcp://a-b.c:1"])
        address = mutate_text(base, rng, rounds=rng.choice((0, 1, 1, 2, 3)))
        if rng.random() >= 0.05:
            return address, None
        reply = rng.choice([b"", b"HTTP/1.1 400 Bad Request\r\n\r\n", b"\xff" * 8, b"\x00" * 8,
                            struct.pack("<Q", rng.randrange(1 << 64)), struct.pack("<Q", 16) + b"\x00" * 8,
                            bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))])
        return address, (rng.choice(["reply", "reply-and-close", "close", "silent"]), reply)
    raise ValueError(fmt)


def _probe_listener(behaviour: str, reply: bytes):
    """A local listener (127.0.0.1, a free port) that is not a Dask scheduler: on each
    connection it sends ``reply`` once anything arrives (then closes with
    ``reply-and-close``), closes at once (``close``) or says nothing (``silent``).
    Returns (port, stop)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.1)
    done = threading.Event()
    held = []

    def serve() -> None:
        while not done.is_set():
            try:
                conn = server.accept()[0]
            except OSError:
                continue
            held.append(conn)
            if behaviour == "close":
                conn.close()
                continue
            if behaviour.startswith("reply"):
                conn.settimeout(5)
                try:
                    if conn.recv(65536):
                        conn.sendall(reply)
                    if behaviour == "reply-and-close":
                        conn.close()
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def stop() -> None:
        done.set()
        thread.join()
        for c in held:
            c.close()
        server.close()

    return server.getsockname()[1], stop


# -- the HTTP service's JSON bodies -------------------------------------------------------
#: level strings the bodies start from (then mutated): the names, ratings, betas, and the
#: spellings the service must refuse (issue 38: "1_200", Arabic-Indic digits, beta=1e308)
_SERVE_LEVELS = ["easy", "medium", "hard", "expert", "master", "score", "equity", "rating=1500", "rating=900",
           "beta=2.5", "beta=0", "beta=1e308", "beta=-1", "beta=nan", "beta=inf", "1200", "1_200", "\u0661\u0662",
           "rating=1e400", "rating=-5", "Expert", " hard", "hard ", "", "rating=", "beta="]
_VALUES = [None, True, False, 0, -1, 1, 7, 1000, 10 ** 30, -(10 ** 30), 0.5, -0.0, 1e308, -1e308, 1e-320,
           float("nan"), float("inf"), float("-inf"), "", "x", "A" * 3000, "\x00", "\ud800", "é", [], [1], {},
           {"a": 1}, [[[]]], "8H AB", "classic-en", "turkish", "../etc/passwd"]
_SERVE_PATHS = ("/v1/moves", "/v1/best", "/v1/validate", "/v1/bot", "/v1/analyze", "/v1/sim", "/v1/endgame")


def serve_input(ctx: Context, x: dict, rng: random.Random) -> tuple[str, bytes]:
    """(path, body): a body of an endpoint, a field set to junk, a level mutated, or the
    JSON text itself mutated."""
    path = rng.choice(_SERVE_PATHS)
    line = rng.choice(ctx.cgp_lines)
    record = rng.choice(x["short"])
    bodies = {
        "/v1/moves": {"cgp": line, "by": rng.choice(("score", "equity")), "top": rng.choice((None, 1, 5)),
                      "offset": rng.choice((0, 3)), "limit": rng.choice((1, 20))},
        "/v1/best": {"cgp": line, "by": rng.choice(("score", "equity"))},
        "/v1/validate": {"cgp": line, "move": rng.choice(["8H AB", "H8 QI", "8D WORD", "1A ZZZ"])},
        "/v1/bot": {"gcg": record, "seed": rng.randrange(100),
                    **({"level": rng.choice(_SERVE_LEVELS)} if rng.random() < 0.7 else {"rating": rng.choice(_VALUES)})},
        "/v1/analyze": {"gcg": record, "top": 1},
        "/v1/sim": {"cgp": line, "plays": rng.choice((2, 3)), "plies": 1, "iterations": rng.choice((5, 20))},
        "/v1/endgame": {"cgp": line},
    }
    body: dict = {k: v for k, v in bodies[path].items() if v is not None}
    if path == "/v1/bot" and rng.random() < 0.5 and "level" in body:
        body["level"] = mutate_text(body["level"] or "hard", rng, rounds=rng.choice((1, 1, 2)))
    op = rng.randrange(10)
    if op < 3:  # a field set to junk, or a field added
        key = rng.choice(list(body) + ["rules", "lexicon", "rack", "racks", "board", "scores", "seconds", "level",
                                       "rating", "surprise"])
        body[key] = rng.choice(_VALUES)
    elif op < 5 and ("cgp" in body or "gcg" in body):  # the position or record mutated
        key = "cgp" if "cgp" in body else "gcg"
        body[key] = mutate_text(body[key], rng, rounds=rng.choice((1, 1, 2)))
    elif op == 5:
        body["board"] = [mutate_text("." * 15, rng, rounds=1) if rng.random() < 0.1 else "." * 15
                         for _ in range(rng.choice((15, 15, 14)))]
        body["rack"] = rng.choice(["AEINRST", "??", "", "QQQQQQQQ", "abc", "A" * 40])
        body.pop("cgp", None)
    text = json.dumps(body)  # NaN and Infinity as Python writes them: the service's parser must cope
    if op == 9:  # the JSON text itself mutated
        text = mutate_text(text, rng, rounds=rng.choice((1, 1, 2, 3)))
    return path, text.encode("utf-8", "surrogatepass")


def run_input(ctx: Context, fmt: str, item, rng: random.Random) -> None:
    """Feeds one input; raises WrongResult, a WordSalvoError (fine) or anything else (bare)."""
    ws = ctx.ws
    if fmt == "cgp":
        from wordsalvo.formats.cgp import format_cgp, parse_cgp

        pos = parse_cgp(item)
        again = parse_cgp(format_cgp(pos))
        if (again.racks, again.scores, again.scoreless_count, bytes(again.board.tiles), again.rules.scoring_key) != \
                (pos.racks, pos.scores, pos.scoreless_count, bytes(pos.board.tiles), pos.rules.scoring_key):
            raise WrongResult(f"written back as {format_cgp(pos)[:200]!r}, reads as another position")
        if rng.random() < 0.06 and pos.rules.alphabet.name == "en" and pos.rack:
            check_moves(ctx, ctx.generator(ctx.lex["en"], pos.rules), pos, rng, sample=4)
        return
    if fmt == "notation":
        k, text = item
        pos = ctx.positions[k]
        move = ctx.gen.validate(pos, text)
        listed = ctx.moves_of(k).get(move.notation)
        if listed != move.score:
            raise WrongResult(f"validate({text!r}) = {move.notation} {move.score}, generated at {listed}")
        return
    if fmt == "gcg":
        from wordsalvo.formats.gcg import from_gcg, parse_gcg, to_gcg
        from wordsalvo.formats.replay import replay

        failures = []
        try:
            game = from_gcg(item, lexicon=ctx.lex["en"]) if "#rules" not in item or any(
                f"#rules {n}" in item for n in ("classic-en", "wordsalvo-en")) else from_gcg(item)
            again = from_gcg(to_gcg(game), rules=game.rules, lexicon=game.lexicon)
            if again.scores != game.scores or len(again.history) != len(game.history):
                raise WrongResult(f"written back and read again: scores {again.scores} != {game.scores}")
        except ws.WordSalvoError as e:
            failures.append(e)
        try:
            record = parse_gcg(item)
            if record.rules_name() in ("classic-en", "wordsalvo-en"):
                replay(record, lexicon=ctx.lex["en"])
        except ws.WordSalvoError as e:
            failures.append(e)
        for e in failures:  # both readers ran; report the first refusal (checked by the caller)
            raise e
        return
    if fmt == "rules":
        rules = ws.Rules.from_toml(item, source="<fuzz>")
        if rules.alphabet.name == "en" and rng.random() < 0.5:
            gen = ctx.generator(ctx.lex["en"], rules)
            rack = "".join(rng.choice("AEINRSTLJUKEBOXQZ?") for _ in range(rules.rack_size))
            pos = ws.Position(rules, None, [rack[: rules.rack_size], ""], [0, 0])
            check_moves(ctx, gen, pos, rng, sample=4)
        return
    if fmt == "graph":
        from fuzz_graph_load import exercise

        lex = ws.Lexicon.from_bytes(item, name="<fuzz>")
        try:
            exercise(lex, ctx.classic, ctx.graph_words, rng)
        except ws.WordSalvoError:
            pass
        gen = ws.MoveGenerator(lex, ctx.classic)
        pos = ws.Position.empty(ctx.classic, rack="".join(rng.choice("AEIOURSTLNDC") for _ in range(6)) + "?")
        check_moves(ctx, gen, pos, rng, sample=4)
        return
    if fmt in ("leaves", "leavecsv"):
        from wordsalvo.leaves import VALUE_MAX, Leaves

        x = ctx.extra()
        d = ctx.scratch()
        try:
            path = d / ("t.wsl" if fmt == "leaves" else "t.csv")
            if fmt == "leaves":
                path.write_bytes(item)
                table = Leaves.load(path, x["rules"])
            else:
                path.write_text(item, "utf-8", errors="surrogatepass")
                table = Leaves.from_csv(path, x["rules"])
            import numpy as np

            if not np.all(np.abs(table.values) <= VALUE_MAX):
                raise WrongResult(f"a value over {VALUE_MAX:g} accepted")
            table.save(d / "again.wsl")
            table.to_csv(d / "again.csv")
            if Leaves.load(d / "again.wsl", x["rules"]) != table or Leaves.from_csv(d / "again.csv", x["rules"]) != table:
                raise WrongResult("written back, reads as another table")
        finally:
            _remove_tree(d)
        return
    if fmt == "winmodel":
        import json as js
        import math

        from wordsalvo.engine.winprob import WinModel

        d = ctx.scratch()
        try:
            (d / "m.json").write_text(item, "utf-8", errors="surrogatepass")
            m = WinModel.load(d / "m.json")
            p = m.probability(rng.randrange(-300, 300), rng.randrange(0, 100))
            if not (0.0 <= p <= 1.0) or not math.isfinite(p):
                raise WrongResult(f"probability {p}")
            if WinModel.from_dict(js.loads(js.dumps(m.to_dict()))) != m:
                raise WrongResult("written back, reads as another model")
        finally:
            _remove_tree(d)
        return
    if fmt == "tiers":
        from wordsalvo.ratings import load_tiers, tier_of

        d = ctx.scratch()
        try:
            (d / "t.toml").write_text(item, "utf-8", errors="surrogatepass")
            ladder = load_tiers(d / "t.toml")
            for r in (-1e9, 0.0, 1500.0, rng.uniform(-5000, 5000), 1e12):
                tier_of(r, ladder)
            if [t.lower for t in ladder] != sorted(t.lower for t in ladder) or len({t.name for t in ladder}) != len(ladder):
                raise WrongResult("tiers out of order or named twice")
        finally:
            _remove_tree(d)
        return
    if fmt == "ratings":
        from wordsalvo.formats.results import read_rated_games
        from wordsalvo.ratings import player_key, rate_games

        d = ctx.scratch()
        try:
            (d / "r.csv").write_text(item, "utf-8", errors="surrogatepass")
            games = read_rated_games([str(d / "r.csv")])
            table = rate_games(games, period="game")
            keys = {player_key(p) for g in games for p in g.players}
            if sorted(player_key(s.player) for s in table) != sorted(keys):
                raise WrongResult(f"{len(table)} standings for {len(keys)} players")
        finally:
            _remove_tree(d)
        return
    if fmt == "serve":
        return run_serve(ctx, item)
    if fmt == "level":
        import argparse
        import math

        from wordsalvo.commands._common import engine_level
        from wordsalvo.engine.bot import LEVELS, PLAYER_KINDS
        from wordsalvo.engine.strength import BETA_LIMIT, parse_level

        try:
            cli = engine_level(LEVELS)(item)
        except argparse.ArgumentTypeError:
            cli = None
        rated = parse_level(item, PLAYER_KINDS)  # a WordSalvoError: refused
        if not item.isascii() or any(ch.isspace() or ch == "_" for ch in item):
            raise WrongResult(f"a loose level text was taken: {item!r} -> {rated}")
        if rated is not None:
            if parse_level(rated.name, PLAYER_KINDS) != rated:
                raise WrongResult(f"{item!r} reads back as another player from its name {rated.name!r}")
            if not (math.isinf(rated.beta) or -BETA_LIMIT <= rated.beta <= BETA_LIMIT):
                raise WrongResult(f"{item!r}: beta {rated.beta!r} out of bounds")
        if rated is not None and rated.rating is not None and cli != rated.name:
            raise WrongResult(f"the command line reads {item!r} as {cli!r}, the library as {rated.name!r}")
        if cli is not None and rated is not None and rated.rating is None:
            raise WrongResult(f"the command line took a strength parameter: {item!r}")
        if rated is not None or rng.random() < 0.05:  # the player it makes plays a legal action
            game = ctx.level_game()
            bot = ws.Bot(item, game.rules, seed=rng.randrange(1 << 30), seconds=0)
            action = bot.choose(game)
            from wordsalvo.actions import Pass, Play, Swap

            if not isinstance(action, (Play, Swap, Pass)):
                raise WrongResult(f"{item!r} chose {action!r}, not an action")
            if isinstance(action, Play) and not any(m == action.move for m in game.legal_moves()):
                raise WrongResult(f"{item!r} chose a move that is not legal: {action}")
        return
    if fmt == "batch":
        from wordsalvo.commands.analyze import _collect, batch

        d = ctx.scratch()
        try:
            games = d / "games"
            for name, text in item.items():
                (games / name).parent.mkdir(parents=True, exist_ok=True)
                (games / name).write_text(text, "utf-8", errors="surrogatepass")
            paths = _collect([str(games)])
            options = {"winprob": str(TESTS / "data" / "winprob-wordsalvo-en-test.json"), "top": 1}
            import contextlib
            import io

            with contextlib.redirect_stderr(io.StringIO()):
                first = batch(paths, options, d / "out")
                second = batch(paths, options, d / "out")
            results = list((d / "out").glob("*.json"))
            if len(results) != first["analysed"] or first["analysed"] + first["failed"] != len(paths):
                raise WrongResult(f"{len(paths)} records, {first}, {len(results)} results")
            if second != {"analysed": 0, "skipped": first["analysed"], "failed": first["failed"]}:
                raise WrongResult(f"the second run: {second} after {first}")
            import json as js

            sources = sorted(js.loads(f.read_text("utf-8"))["source"]["path"] for f in results)
            if len(set(sources)) != len(sources):
                raise WrongResult("two results name one record")
            if first["failed"]:  # broken records reported and skipped, as they should be: a refusal
                raise ctx.ws.WordSalvoError(f"{first['failed']} of {len(paths)} records refused")
        finally:
            _remove_tree(d)
        return
    if fmt == "scheduler":
        import re

        from wordsalvo.parallel import check_scheduler, scheduler_address

        address, listener = item
        if listener is not None:  # a hostile listener: refused, whatever it says
            port, stop = _probe_listener(*listener)
            try:
                check_scheduler(f"tcp://127.0.0.1:{port}", seconds=0.5)
            finally:
                stop()
            raise WrongResult(f"a listener that {listener[0]}s {listener[1][:40]!r} was taken for a scheduler")
        checked = scheduler_address(address)
        m = re.fullmatch(r"tcp://(.+):([0-9]+)", checked)
        if m is None or not 1 <= int(m.group(2)) <= 65535 or scheduler_address(checked) != checked:
            raise WrongResult(f"{address!r} taken as {checked!r}")
        return
    raise ValueError(fmt)


def run_serve(ctx: Context, item: tuple[str, bytes]) -> None:
    """One body posted to the service in process (an HTTP client over ASGI): a 200 with a
    JSON object is an acceptance, a 4xx problem detail a refusal; a 5xx (a fault, or a
    request that ran past a generous budget or found every engine thread still busy) or a
    4xx that is not a problem detail is a finding."""
    client = ctx.serve_client()
    path, body = item
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    if r.status_code == 200:
        if not isinstance(r.json(), dict):
            raise WrongResult(f"{path} answered 200 with {r.text[:200]!r}")
        return
    if r.status_code >= 500 or not r.headers.get("content-type", "").startswith("application/problem+json"):
        raise WrongResult(f"{path} answered {r.status_code}: {r.text[:300]!r}")
    problem = r.json()
    if problem.get("status") != r.status_code or not str(problem.get("type", "")).startswith("urn:wordsalvo:problem:"):
        raise WrongResult(f"{path} answered {r.status_code} with a malformed problem {r.text[:300]!r}")
    if "Traceback" in str(problem.get("detail")):
        raise WrongResult(f"{path}: a traceback in the answer")
    raise ctx.ws.WordSalvoError(str(problem.get("detail")))  # a refusal; its length is checked by the caller


def _remove_tree(d: Path) -> None:
    import shutil

    shutil.rmtree(d, ignore_errors=True)


# -- the worker ---------------------------------------------------------------------------
def worker(fmt: str, seed: int, start: int, stop: int, progress_fd: int, findings: str) -> int:
    ctx = Context()
    ws = ctx.ws
    counts = dict.fromkeys(COUNTED, 0)
    out = open(findings, "a", encoding="utf-8")

    def report(index: int) -> None:  # one write of one whole record: the parent never sees half of it
        record = _PROGRESS.pack(index, *counts.values())
        if os.write(progress_fd, record) != len(record):
            raise OSError(f"short write of a progress record to fd {progress_fd}")

    # the harness's own check: make input FORMAT:INDEX crash or hang the worker
    crash_at = os.environ.get("WORDSALVO_FUZZ_CRASH_AT")
    hang_at = os.environ.get("WORDSALVO_FUZZ_HANG_AT")
    slow_at = os.environ.get("WORDSALVO_FUZZ_SLOW_AT", "").rpartition(":")[::2]  # FORMAT:INDEX:SECONDS
    slow_at = (slow_at[0], slow_at[1]) if slow_at[0] else None
    for i in range(start, stop):
        report(i)
        if crash_at == f"{fmt}:{i}":
            os.abort()
        if hang_at == f"{fmt}:{i}":
            time.sleep(3600)
        if slow_at and slow_at[0] == f"{fmt}:{i}":
            time.sleep(float(slow_at[1]))
        rng = input_rng(seed, fmt, i)
        kind = detail = None
        try:
            item = make_input(ctx, fmt, rng)
            run_input(ctx, fmt, item, rng)
            counts["accepted"] += 1
        except WrongResult as e:
            kind, detail = "wrong result", str(e)
        except ws.WordSalvoError as e:
            counts["rejected"] += 1
            if len(str(e)) > MESSAGE_MAX:
                kind, detail = "long message", f"{type(e).__name__} of {len(str(e)):,} characters: {str(e)[:300]}"
        except Exception:  # noqa: BLE001 - anything else is a finding
            kind, detail = "bare exception", traceback.format_exc(limit=6)[-3000:]
        counts["tried"] += 1
        if kind:
            counts[kind] += 1
            out.write(json.dumps({"format": fmt, "index": i, "kind": kind, "detail": detail}) + "\n")
            out.flush()
    out.close()
    if ctx._extra is not None:
        _remove_tree(ctx._extra["tmp"])
    report(stop)
    os.close(progress_fd)
    return 0


# -- the parent ---------------------------------------------------------------------------
class Batch:
    """One worker process running inputs ``start`` to ``stop`` of a format.

    Its progress arrives on a pipe; ``drain`` reads what is there without blocking and
    notes, on the parent's monotonic clock, when the worker last moved on.  Its standard
    output and error go to a file (a pipe nobody reads until the end would stall a worker
    that warns a lot).  ``confirm`` marks the run of a single suspected hang."""

    def __init__(self, fmt: str, start: int, stop: int, out: Path, seed: int, slot: int, *, confirm: bool = False):
        self.fmt, self.start, self.stop, self.confirm = fmt, start, stop, confirm
        self.index = start - 1  # the input the worker is on (start - 1: not started yet)
        self.counted = dict.fromkeys(COUNTED, 0)  # what it counted before that input
        self.findings = out / "findings.jsonl"
        self.log_path = out / f".worker-{slot}.log"
        self._buffer = b""
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", fmt, str(seed), str(start), str(stop),
               str(write_fd), str(self.findings)]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         pass_fds=(write_fd,))
        os.close(write_fd)  # the worker holds the only writing end: end of file means it is gone
        self.read_fd = read_fd
        self.moved = time.monotonic()

    def drain(self) -> None:
        """Read every whole record that has arrived; the last one says where the worker is."""
        while True:
            try:
                chunk = os.read(self.read_fd, 65536)
            except BlockingIOError:
                return
            if not chunk:
                return
            self._buffer += chunk
            whole = len(self._buffer) - len(self._buffer) % _PROGRESS.size
            if whole:
                values = _PROGRESS.unpack(self._buffer[whole - _PROGRESS.size: whole])
                self._buffer = self._buffer[whole:]
                self.index, self.counted = values[0], dict(zip(COUNTED, values[1:]))
                self.moved = time.monotonic()

    def stalled(self) -> float:
        """Seconds since the worker last moved on to another input (0 before its first one)."""
        return time.monotonic() - self.moved if self.index >= self.start else 0.0

    def close(self) -> str:
        """Wait for the process, read the last records, and return the tail of its log."""
        self.proc.wait()
        self.drain()
        os.close(self.read_fd)
        try:
            return self.log_path.read_text("utf-8", "replace")[-3000:]
        except OSError:
            return ""


def show(seed: int, spec: str) -> None:
    fmt, _, index = spec.partition(":")
    ctx = Context()
    item = make_input(ctx, fmt, input_rng(seed, fmt, int(index)))
    sys.stdout.write(repr(item) + "\n")


def save_reproducer(out: Path, seed: int, fmt: str, index: int) -> Path:
    ctx = Context()
    item = make_input(ctx, fmt, input_rng(seed, fmt, index))
    path = out / f"{fmt}-{index}.input"
    if isinstance(item, bytes):
        path.write_bytes(item)
    else:
        path.write_text(repr(item) + "\n", "utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    ap.add_argument("--count", type=int, default=10000, help="inputs in all, shared among the formats (default 10000)")
    ap.add_argument("--formats", default=",".join(FORMATS), help=f"comma-separated, of {', '.join(FORMATS)}")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="workers at once (default 2)")
    ap.add_argument("--batch", type=int, default=5000, help="inputs per worker process (default 5000)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds without progress that make a hang (default 60)")
    ap.add_argument("--out", default="fuzz-out", help="folder for findings and reproducers (default fuzz-out)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--show", metavar="FORMAT:INDEX", help="print one input and exit")
    ap.add_argument("--worker", nargs=6, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        fmt, seed, start, stop, progress_fd, findings = args.worker
        return worker(fmt, int(seed), int(start), int(stop), int(progress_fd), findings)
    seed = args.seed if args.seed is not None else int(time.time())
    if args.show:
        show(seed, args.show)
        return 0
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        ap.error(f"--formats: expected names from {', '.join(FORMATS)}, got {', '.join(bad) or 'none'}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "findings.jsonl").write_text("")
    share = sum(SHARES[f] for f in formats)
    todo: list[tuple[str, int, int]] = []
    per_format = {}
    for f in formats:
        n = max(1, round(args.count * SHARES[f] / share))
        per_format[f] = n
        todo += [(f, a, min(n, a + args.batch)) for a in range(0, n, args.batch)]
    rng = random.Random(seed)
    rng.shuffle(todo)  # formats interleaved, so a short run still covers each
    figures = {f: {"tried": 0, "accepted": 0, "rejected": 0, **{k: 0 for k in KINDS}} for f in formats}
    t0 = time.time()
    print(f"seed {seed}: {sum(per_format.values()):,} inputs ({', '.join(f'{f} {n:,}' for f, n in per_format.items())}), "
          f"{args.jobs} workers, batches of {args.batch}", flush=True)
    running: dict[int, Batch] = {}
    confirm: list[tuple[str, int]] = []  # suspected hangs, each to run again alone
    slots = list(range(args.jobs))
    last_report = time.time()
    while todo or confirm or running:
        while (todo or confirm) and slots:
            slot = slots.pop()
            if confirm:
                fmt, a = confirm.pop()
                running[slot] = Batch(fmt, a, a + 1, out, seed, slot, confirm=True)
            else:
                fmt, a, b = todo.pop()
                running[slot] = Batch(fmt, a, b, out, seed, slot)
        time.sleep(0.05)
        for slot, batch in list(running.items()):
            rc = batch.proc.poll()
            batch.drain()
            if rc is None:
                limit = args.timeout * (2 if batch.confirm else 1)
                if batch.stalled() > limit:
                    batch.proc.kill()
                    batch.close()
                    del running[slot]
                    slots.append(slot)
                    if batch.confirm:  # stalled again, alone and with twice the time: a hang
                        _finish_failed(batch, batch.index, "hang", out, seed, figures, todo,
                                       f"no progress for {limit:g} s, twice (the second time alone)")
                    else:  # count what came before, run the input again alone, then the rest
                        _count(figures[batch.fmt], batch.counted)
                        print(f"  {batch.fmt}:{batch.index} made no progress for {limit:g} s: "
                              "running it again alone", flush=True)
                        confirm.append((batch.fmt, batch.index))
                        if batch.index + 1 < batch.stop:
                            todo.append((batch.fmt, batch.index + 1, batch.stop))
                continue
            log = batch.close()
            del running[slot]
            slots.append(slot)
            if rc == 0 and batch.index >= batch.stop:
                _count(figures[batch.fmt], batch.counted)
                continue
            if batch.index < batch.start:  # died before its first input: the harness itself is broken
                sys.stderr.write(f"worker for {batch.fmt} failed to start (status {rc}):\n{log}\n")
                return 3
            _finish_failed(batch, batch.index, "crash", out, seed, figures, todo, f"status {rc}: {log[-2000:]}")
        if time.time() - last_report > 30:
            last_report = time.time()
            done = sum(v["tried"] for v in figures.values())
            print(f"  {done:,} inputs done, {time.time() - t0:.0f} s", flush=True)
    seconds = time.time() - t0
    findings = [json.loads(ln) for ln in (out / "findings.jsonl").read_text("utf-8").splitlines() if ln.strip()]
    for f in formats:
        v = figures[f]
        print(f"{f:>9}: {v['tried']:>9,} tried, {v['accepted']:>8,} accepted, {v['rejected']:>8,} rejected; "
              + ", ".join(f"{v[k]} {k}{'es' if k.endswith('sh') and v[k] != 1 else 's' if v[k] != 1 else ''}"
                          for k in KINDS))
    total = {k: sum(v[k] for v in figures.values()) for k in ("tried", "accepted", "rejected", *KINDS)}
    print(f"{'all':>9}: {total['tried']:>9,} tried in {seconds:.0f} s; "
          + ", ".join(f"{total[k]} {k}" for k in KINDS), flush=True)
    for item in findings[:20]:
        print(f"  {item['format']}:{item['index']} {item['kind']}: {item['detail'][:300]}")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "seed": seed, "count": args.count, "formats": figures, "total": total, "seconds": round(seconds),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d"), "jobs": args.jobs,
        }, indent=1) + "\n")
    for p in out.glob(".worker-*.log"):
        p.unlink()
    return 1 if any(total[k] for k in KINDS) else 0


def _count(fig: dict, counted: dict[str, int]) -> None:
    for k, v in counted.items():
        fig[k] += v


def _finish_failed(batch: Batch, index: int, kind: str, out: Path, seed: int, figures: dict, todo: list,
                   detail: str = "") -> None:
    """A worker died or hung at input ``index``: count it, save it, and queue the rest."""
    fig = figures[batch.fmt]
    _count(fig, batch.counted)  # the inputs before it, as the worker counted them
    fig["tried"] += 1
    fig[kind] += 1
    path = save_reproducer(out, seed, batch.fmt, index)
    with open(out / "findings.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps({"format": batch.fmt, "index": index, "kind": kind,
                            "detail": f"{detail} (reproducer {path})"}) + "\n")
    print(f"  {kind} at {batch.fmt}:{index} (reproducer {path})", flush=True)
    if index + 1 < batch.stop:
        todo.append((batch.fmt, index + 1, batch.stop))


if __name__ == "__main__":
    sys.exit(main())

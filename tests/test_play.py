"""``wordsalvo play``: scripted terminal sessions, whole games, the engine's levels.

Every session runs the real front end with a scripted ``input_fn`` and a
``StringIO`` as output, colour off.  Oracles: the game's own state after the
session (history, racks, scores), hand-checked scores from the rules, the
move generator's lists for ``hint`` and ``moves``, and a replay of the saved
GCG record.
"""

from __future__ import annotations

import io
import os
from collections import Counter
import subprocess
import sys
from pathlib import Path

import pytest
from game_helpers import set_state

from wordsalvo import Game, Rules
from wordsalvo.formats.gcg import from_gcg, to_gcg
from wordsalvo.cli import build_parser, main
from wordsalvo.commands import play
from wordsalvo.tui import engine_seed
from wordsalvo.tui import TerminalGame
from wordsalvo.actions import Play
from wordsalvo.engine.bot import LEVELS, Bot

#: the levels whose choice a seed replays exactly (master thinks for a time)
STATIC_LEVELS = tuple(level for level in LEVELS if level != "master")
from wordsalvo.render.terminal import changed_squares, render_board, render_preview, render_rack

# classic-en, bag seed 1: the first rack is ADEGORZ and 8D ZERDA scores 50
# (Z 10 on 2L = 20, E R D A = 1+1+2+1, the centre doubles: 25 x 2 = 50).
CLASSIC = ["--rules", "classic-en", "--game-seed", "1", "--color", "never"]


class Script:
    """An ``input_fn`` answering prompts from a list; the prompts and answers are
    written to the output like a terminal would show them.  A callable entry is
    called with the prompt to compute the answer.  The end of the list is EOF."""

    def __init__(self, lines, output: io.StringIO):
        self.lines = list(lines)
        self.output = output
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        answer = self.lines.pop(0)
        if callable(answer):
            answer = answer(prompt)
        self.output.write(f"{prompt}{answer}\n")
        return answer


def session(lines, *argv: str) -> tuple[int, str, Script]:
    """Run ``wordsalvo play ARGV`` through :func:`play.run` with scripted input."""
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    script = Script(lines, out)
    code = play.run(args, input_fn=script, output=out)
    return code, out.getvalue(), script


def terminal_game(lines, rules="classic-en", seed=1, level="medium", **kw) -> tuple[TerminalGame, io.StringIO, Script]:
    game = Game(Rules.preset(rules), players=["You", "Engine"], seed=seed, **kw)
    out = io.StringIO()
    script = Script(lines, out)
    return TerminalGame(game, [True, False], level, input_fn=script, output=out, seed=seed), out, script


def kinds(game: Game) -> list[str]:
    return [t.kind for t in game.history]


def flat(text: str) -> str:
    """The output with every run of white space one space (long lines wrap at 80 columns)."""
    return " ".join(text.split())


# -- moves: preview, confirm, cancel, illegal -----------------------------------------------
def test_preview_then_confirm_plays_the_move_and_the_engine_answers():
    tg, out, _ = terminal_game(["8D ZERDA", "", "quit"])
    assert tg.run() == 0
    text = out.getvalue()
    assert "words: ZERDA" in text
    assert "no score preview" in text  # classic-en: [display] tentative_score = false
    assert "You played 8D ZERDA for 50" in text
    h = tg.game.history
    assert [t.kind for t in h][0] == "play" and h[0].score == 50 and h[0].player == 0
    assert len(h) == 2 and h[1].player == 1  # the engine played its turn before the next prompt
    assert "Engine " in text.split("You played 8D ZERDA for 50", 1)[1]  # its turn shows on the next screen
    assert "Game left unfinished" in text


def test_preview_shows_words_and_score_where_the_rules_allow_it():
    # wordsalvo-en, seed 1, rack ADDFORW: 8D DOWAR = (D on 2W: 2, O 1, W on 2L: 8, A 1, R 1) x 2 = 26
    tg, out, _ = terminal_game(["8D DOWAR", "no", "quit"], rules="wordsalvo-en")
    tg.run()
    text = out.getvalue()
    assert "words: DOWAR 26" in text and "score: 26" in text
    assert "Cancelled." in text
    assert tg.game.history == ()  # cancelled: nothing happened


def test_illegal_move_lists_every_reason_and_asks_again():
    tg, out, script = terminal_game(["7A ZZ", "quit"])
    tg.run()
    text = out.getvalue()
    expected = tg.game.preview("7A ZZ").problems
    assert len(expected) == 3  # Z only once on the rack, centre not covered, phony ZZ
    for problem in expected:
        assert f"  - {problem}" in text
    assert "illegal move:" in text
    assert tg.game.history == ()
    assert script.prompts == ["You> ", "You> "]  # no confirmation for an illegal move: asked again


def test_lowercase_letters_are_blanks_and_the_screen_says_so():
    tg, out, _ = terminal_game(["8D zERDA", "quit"])  # one blank asked for, and there is none
    tg.run()
    assert "lowercase letters are blanks" in out.getvalue()
    assert tg.game.history == ()


def test_a_word_typed_all_in_lowercase_is_offered_in_capitals():
    code, text, script = session(["8d zerda", "", "quit"], *CLASSIC, "--player", "Ann", "--bot", "easy")
    assert code == 0
    said = flat(text)
    assert "note: lowercase letters are blanks, so '8d zerda' asks for a blank for every letter; " \
           "in capitals: 8D ZERDA" in said
    assert "Enter = play 8D ZERDA, n = cancel" in script.prompts[1]
    assert "Ann played 8D ZERDA for 50" in said


def test_a_lowercase_word_the_blanks_can_make_is_offered_both_ways():
    # rack QI?? and more: 8H QI in capitals (20 on the centre 2W) or 8H qi with two blanks (0)
    for answer, notation, score in (("", "8H QI", 22), ("b", "8H qi", 0)):
        tg, out, script = terminal_game(["8h qi", answer, "quit"])
        tg.game.set_rack(0, "QI??EST")
        tg.run()
        assert "Enter = play 8H QI, b = play 8h qi with blanks" in script.prompts[1]
        first = tg.game.history[0]
        assert (first.notation, first.score) == (notation, score)
    # only the blanks can make it: said so, and the blanks are offered
    tg, out, script = terminal_game(["8h qi", "", "quit"])
    tg.game.set_rack(0, "??ESTAR")
    tg.run()
    assert "8H QI is not possible; as typed, with blanks:" in flat(out.getvalue())
    assert tg.game.history[0].notation == "8H qi"


def test_help_promises_a_score_preview_only_where_the_rules_show_one():
    for rules, promised in (("classic-en", False), ("wordsalvo-en", True)):
        code, text, _ = session(["help", "quit"], "--rules", rules, "--game-seed", "1", "--color", "never")
        assert code == 0
        assert ("You first see the words and the score" in flat(text)) is promised
        if not promised:
            assert "the score once played: classic-en shows none before" in flat(text)
            assert "score: shown once played" in flat(session(["8D ZERDA", "n", "quit"], *CLASSIC)[1])


@pytest.mark.parametrize("line", ["foo", "20Z WORD", "8H", "8H W0RD", "swap 123", "moves x", "pass now", "\t", "Ω"])
def test_bad_input_never_crashes(line):
    tg, out, script = terminal_game([line, "quit"])
    assert tg.run() == 0
    assert tg.game.history == ()
    assert len(script.prompts) == 2
    assert "Traceback" not in out.getvalue()


# -- commands ---------------------------------------------------------------------------
def test_swap_some_tiles_and_the_whole_rack():
    tg, out, _ = terminal_game(["swap xyz", "swap aeg", "swap", "", "quit"])
    rack = tg.game.rack
    tg.run()
    g = tg.game
    text = flat(out.getvalue())
    assert "not possible: swap:" in text and "XY not on the rack" in text  # refused, asked again
    assert kinds(g)[0] == "swap" and g.history[0].tiles == "AEG" and g.history[0].rack == rack
    assert "You swapped AEG; new rack:" in text
    swaps = [t for t in g.history if t.player == 0]
    assert len(swaps) == 2 and len(swaps[1].tiles) == 7  # `swap` alone: the whole rack


def test_swap_alone_asks_first_like_a_move():
    code, text, script = session(["swap", "n", "swap", "pass", "swap", "", "quit"], *CLASSIC,
                                 "--player", "Ann", "--bot", "easy")
    assert code == 0
    said = flat(text)
    assert "swap: all 7 tiles (ADEGORZ) go back into the bag, 7 new ones come out" in said
    assert script.prompts[1].startswith("Enter = swap, n = cancel")
    assert "Cancelled." in said
    game = from_gcg(next(Path(os.environ["WORDSALVO_GAMES_DIR"]).glob("*.gcg")).read_text("utf-8"))
    # the second `swap` was answered by `pass` (another command instead), the third by Enter
    assert [t.kind for t in game.history if t.player == 0] == ["pass", "swap"]
    assert game.history[2].tiles and len(game.history[2].tiles) == 7


def test_swap_refused_when_the_bag_is_too_small():
    tg, out, _ = terminal_game(["swap", "quit"])
    set_state(tg.game, bag=tg.game.bag[:3])  # scripted state: 3 tiles left
    tg.run()
    assert "not possible: swap: the bag must hold at least 7" in out.getvalue()
    assert tg.game.history == ()


def test_pass():
    tg, out, _ = terminal_game(["pass", "quit"])
    tg.run()
    assert kinds(tg.game)[0] == "pass" and tg.game.history[1].player == 1
    assert "You passed" in out.getvalue()


def test_hint_and_moves_are_the_expert_engines_and_limited_per_game():
    tg, out, _ = terminal_game(["hint", "moves", "moves 3", "hint", "moves", "quit"])
    expert = Bot("expert", tg.game.rules).choose(tg.game)
    leaves = Bot("expert", tg.game.rules).leaves
    top = tg.game.legal_moves(leaves=leaves).top(10, by="equity")
    tg.run()
    text = out.getvalue()
    m = expert.move
    assert f"Hint (1 of 3): {m.notation} for {m.score}, equity {expert.equity:.1f}" in text
    assert f"The 10 best of {len(tg.game.legal_moves())} legal moves by equity (hint 2 of 3):" in text
    for i, mv in enumerate(top, 1):
        assert f"{i:>3}. {mv.notation:<24} {mv.score:>4} {float(mv.equity):>7.1f}" in text
    assert "The 3 best of" in text and "(hint 3 of 3)" in text
    assert text.count("No hints left: 3 per game (--hints), all used.") == 2
    assert tg.game.history == ()  # looking costs no turn
    notes = [n for _i, n in tg.game.notes]
    assert notes[0] == f"hint for You (1 of 3): {m.notation} for {m.score}, equity {expert.equity:.1f}"
    assert len(notes) == 3 and notes[2].startswith("hint for You (3 of 3): the 3 best moves")


def test_hints_never_suggest_an_offensive_word(monkeypatch):
    """`moves` and `hint` skip a move that forms a listed word; here the two best words
    of the opening stand in for offensive ones."""
    from wordsalvo.offensive import OffensiveWords

    tg, out, _ = terminal_game(["moves 3", "hint", "quit"])
    leaves = Bot("expert", tg.game.rules).leaves
    top = list(tg.game.legal_moves(leaves=leaves).sorted(by="equity"))
    banned = {top[0].word, next(m.word for m in top if m.word != top[0].word)}
    monkeypatch.setattr(OffensiveWords, "default", classmethod(lambda cls, lang: cls(lang, banned)))
    clean = [m for m in top if not set(m.formed_words()) & banned]
    tg.run()
    text = out.getvalue()
    for i, mv in enumerate(clean[:3], 1):
        assert f"{i:>3}. {mv.notation:<24} {mv.score:>4} {float(mv.equity):>7.1f}" in text
    assert not any(f"{m.notation:<24}" in text for m in top if m.word in banned)
    hint = text.split("Hint (2 of 3): ", 1)[1].split(" for ", 1)[0]
    assert hint.split(" ", 1)[1].replace("(", "").replace(")", "").upper() not in banned


def test_shuffle_changes_the_order_only():
    tg, out, _ = terminal_game(["shuffle", "shuffle", "board", "help", "quit"])
    rack = tg.game.rack
    tg.run()
    lines = [ln for ln in out.getvalue().splitlines() if ln.startswith("You> Your rack:") or ln.startswith("Your rack:")]
    shown = ["".join(tok[0] for tok in ln.split("Your rack:")[1].split()) for ln in lines]
    assert all(sorted(s) == sorted(rack) for s in shown)
    assert len(set(shown)) > 1
    assert "swap AEI" in out.getvalue()  # the help text
    assert tg.game.history == ()


def test_unseen_counts_the_bag_and_the_other_racks():
    tg, out, _ = terminal_game(["unseen", "quit"])
    tg.run()
    g = tg.game
    line = "Unseen (" + flat(out.getvalue()).split("Unseen (", 1)[1].split(" You>", 1)[0]
    assert f"Unseen ({g.bag_count + len(g.racks[1])}):" in line
    listed = {tok.split("x")[0]: int(tok.split("x")[1]) if "x" in tok else 1 for tok in line.split(": ", 1)[1].split()}
    assert listed == dict(Counter(g.bag + list(g.racks[1])))


def test_resign_asks_first_then_ends_the_game():
    tg, out, script = terminal_game(["resign", "n", "resign", "y"])
    assert tg.run() == 0
    g = tg.game
    text = out.getvalue()
    assert "Not resigned" in text
    assert g.is_over and g.end_reason == "resign" and g.winners == (1,)
    assert "Game over: You resigned." in text and "Engine wins" in text
    assert script.prompts[-1].startswith("Save the game record")  # offered; the end of the input skips it


def test_quit_and_end_of_input_end_cleanly():
    for lines in (["quit"], ["exit"], [], ["8D ZERDA"]):  # [] and an open confirmation: EOF
        tg, out, _ = terminal_game(lines)
        assert tg.run() == 0
        assert "Game left unfinished" in out.getvalue()
        assert not tg.game.is_over and tg.game.history == ()


# -- whole games ------------------------------------------------------------------------
def test_full_game_fed_the_engines_own_best_moves(tmp_path):
    """The human seat types the expert move every turn (or passes); the game runs to
    its end, and the saved record replays to the same game."""
    tg, out, script = terminal_game([], rules="wordsalvo-en", seed=5, level="hard")

    def answer(prompt):
        if prompt == "You> ":
            m = tg.game.best_move()
            return m.notation if m is not None else "pass"
        if prompt.startswith("Enter"):
            return ""
        if prompt.startswith("Save"):
            return str(tmp_path / "game")  # .gcg is added
        raise AssertionError(f"unexpected prompt {prompt!r}")

    script.lines = [answer] * 300
    assert tg.run() == 0
    g = tg.game
    text = out.getvalue()
    assert g.is_over and g.end_reason in ("out", "passes")
    assert "Game over:" in text
    settles = [t for t in g.history if t.kind == "settle"]
    for t in settles:
        assert f"{t.score:+d}" in text and f"({t.tiles})" in text
    final = text.split("Final scores:\n", 1)[1].splitlines()
    assert final[0].split() == ["You", str(g.scores[0])] and final[1].split() == ["Engine", str(g.scores[1])]
    winner = g.names[g.winners[0]] if len(g.winners) == 1 else None
    assert (f"{winner} win" in text) if winner else "A draw" in text
    saved = tmp_path / "game.gcg"
    assert f"Saved the record to {saved}" in flat(text)
    replay = from_gcg(saved.read_text("utf-8"))
    assert replay.scores == g.scores and replay.history == g.history
    mine = [t for t in g.history if t.player == 0 and t.kind == "play"]
    assert mine and all(f"You played {t.notation} for {t.score}" in text for t in mine)


def test_autoplay_plays_a_whole_game_and_saves_the_record(tmp_path):
    dest = tmp_path / "auto.gcg"
    code, text, _ = session([str(dest)], "--rules", "wordsalvo-en", "--seed", "4", "--game-seed", "9",
                            "--autoplay", "--level", "easy", "--color", "never")
    assert code == 0
    replay = from_gcg(dest.read_text("utf-8"))
    final = text.split("Final scores:\n", 1)[1].splitlines()
    assert replay.is_over and final[0].split() == ["Engine1", str(replay.scores[0])]
    assert "board seed 4, game seed 9" in text
    assert replay.rules.board_seed == 4
    plays = [t for t in replay.history if t.kind == "play"]
    assert len(plays) > 10
    for t in plays:
        assert f"played {t.notation} for {t.score}" in text


def _unsaved(text: str) -> str:
    """A session's output without the lines naming the file it was saved to."""
    return text.split("Game left unfinished", 1)[0]


def test_same_seeds_same_session():
    a = session(["hint", "8D ZERDA", "", "pass", "quit"], *CLASSIC, "--level", "easy")[1]
    b = session(["hint", "8D ZERDA", "", "pass", "quit"], *CLASSIC, "--level", "easy")[1]
    assert _unsaved(a) == _unsaved(b)


def test_three_players_and_a_name():
    code, text, _ = session(["pass", "quit"], *CLASSIC, "--players", "3", "--name", "Ann")
    assert code == 0
    assert "Ann passed" in text and "Engine1" in text and "Engine2" in text


# -- options ----------------------------------------------------------------------------
def test_random_board_is_reproducible_and_fixed_boards_refuse_a_seed(capsys):
    a = session(["quit"], "--rules", "wordsalvo-en", "--seed", "11", "--game-seed", "1", "--color", "never")[1]
    b = session(["quit"], "--rules", "wordsalvo-en", "--seed", "11", "--game-seed", "1", "--color", "never")[1]
    std = session(["quit"], "--rules", "wordsalvo-en", "--game-seed", "1", "--color", "never")[1]
    assert _unsaved(a) == _unsaved(b) and _unsaved(a) != _unsaved(std) and "board seed 11" in a
    assert main(["play", "--rules", "classic-en", "--seed", "3"]) == 2
    assert "has a fixed board: expected no --random or --seed, got --seed 3" in capsys.readouterr().err
    assert main(["play", "--rules", "woodword-de", "--random"]) == 2
    assert "got --random" in capsys.readouterr().err


def test_colour_always_and_never():
    coloured = session(["quit"], "--rules", "classic-en", "--game-seed", "1", "--color", "always")[1]
    plain = session(["quit"], *CLASSIC)[1]
    assert "\x1b[" in coloured and "\x1b[" not in plain


def test_missing_german_lexicon_names_the_fetch_command(tmp_path, monkeypatch, capsys):
    from wordsalvo.lexicon import lexicon

    monkeypatch.setenv("WORDSALVO_CACHE_DIR", str(tmp_path))
    monkeypatch.delitem(lexicon._DEFAULTS, "de", raising=False)
    assert main(["play", "--rules", "wordfeud-de"]) == 2
    assert "`wordsalvo lexicon fetch de`" in capsys.readouterr().err


def test_strict_mode_hides_phonies_in_the_preview_and_a_phony_costs_the_turn(tmp_path):
    from game_helpers import lexicon_for

    rules = Rules.preset("woodword-de")  # its table may choose strict mode
    game = Game(rules, lexicon_for(rules, tmp_path), players=["You", "Engine"], seed=2, strict=True)
    assert game.rack == "BDDEKTÜ"
    assert game.preview("8H BD").invalid_words == ("BD",)  # the oracle: BD is not a word
    out = io.StringIO()
    tg = TerminalGame(game, [True, False], "medium", input_fn=Script(["8H BD", "", "quit"], out), output=out)
    tg.run()
    text = flat(out.getvalue())
    preview = text.split("Enter = play it")[0]
    assert "words: BD 8" in preview and "score: 8" in preview and "phony" not in preview
    assert "strict mode: a word that is not in the dictionary costs your turn" in preview
    assert game.history[0].kind == "refused-play" and game.history[0].score == 0
    assert "You tried 8H BD: refused" in text and "the turn is lost" in text
    assert game.history[1].player == 1  # the engine moved on


def test_strict_option_needs_a_rule_set_that_allows_it(capsys):
    assert main(["play", "--rules", "classic-en", "--strict", "--game-seed", "1"]) == 2
    assert "no strict mode" in capsys.readouterr().err


# -- the engine's levels ----------------------------------------------------------------
def test_the_terminal_engine_is_the_bot_of_its_level():
    """The terminal game's engine seat makes exactly the choice of ``Bot(level)`` with the same seed
    (master's choice depends on the clock: it has its own tests in test_bot.py)."""
    script = iter(["pass"] * 3)
    for level in STATIC_LEVELS:
        game = Game(Rules.preset("wordsalvo-en"), players=["You", "Engine"], seed=5)
        twin = Game(Rules.preset("wordsalvo-en"), players=["You", "Engine"], seed=5)
        tg = TerminalGame(game, [True, False], level, input_fn=lambda _p: next(script), output=io.StringIO(), seed=4)
        game.pass_turn()
        twin.pass_turn()
        tg.engine_turn()
        expected = Bot(level, twin.rules, seed=engine_seed(5, 1, 1)).choose(twin)
        twin.apply(expected)
        assert [t.kind for t in game.history] == [t.kind for t in twin.history]
        assert game.board.tiles == twin.board.tiles and game.scores == twin.scores, level
        script = iter(["pass"] * 3)


def test_weaker_levels_score_less_and_every_engine_move_is_legal():
    totals = {}
    for level in STATIC_LEVELS:
        game = Game(Rules.preset("wordsalvo-en"), players=["A", "B"], seed=7)
        bots = [Bot(level, game.rules, seed=1), Bot(level, game.rules, seed=2)]
        while not game.is_over:
            game.apply(bots[game.to_move].choose(game))  # Game.play raises on an illegal move
        totals[level] = sum(t.score for t in game.history if t.kind == "play")
    assert totals["easy"] < totals["medium"] < totals["expert"]
    assert totals["hard"] > totals["easy"]


def test_play_runs_on_a_rule_set_without_a_leave_table(monkeypatch):
    """Rule sets with no shipped leave table still get every level (leaves count 0)."""
    from wordsalvo.errors import LeavesError
    from wordsalvo.leaves import Leaves

    def none_shipped(rules):
        raise LeavesError(f"no leave table is shipped for rule set {rules.name!r}")

    monkeypatch.setattr(Leaves, "default", classmethod(lambda cls, rules: none_shipped(rules)))
    rules = Rules.preset("wordsalvo-en")
    game = Game(rules, seed=2)
    for level in LEVELS:
        action = Bot(level, rules, seed=1).choose(game)
        assert isinstance(action, Play)
    best = game.best_move()
    assert Bot("expert", rules).choose(game).move.score == best.score


# -- drawing ----------------------------------------------------------------------------
def test_plain_board_tells_blanks_and_the_last_move_apart():
    game = Game(Rules.preset("classic-en"), seed=1)
    set_state(game, racks=["ADEGOR?", game.racks[1]])
    before = game.board.tiles
    game.play("8D zERDA")
    last = changed_squares(before, game.board.tiles)
    text = render_board(game.rules, game.board, last)
    row8 = text.splitlines()[8]
    assert "[z][E][R][D][A]" in row8
    assert " z  E  R  D  A " in render_board(game.rules, game.board)
    assert render_rack(game.rules, "AZ?") == "A1  Z10  ?0"
    assert "\x1b[" in render_board(game.rules, game.board, last, colour=True)


def test_preview_lines_for_a_legal_and_an_illegal_move():
    game = Game(Rules.preset("wordsalvo-en"), seed=1)  # rack ADDFORW
    assert render_preview(game.preview("8D DOWAR")) == ["words: DOWAR 26", "score: 26"]
    assert render_preview(game.preview("8D DOWAR"), show_score=False)[0] == "words: DOWAR"
    illegal = game.preview("1A WORD")
    # W on 1A (3L) 12, O 1, R 1, D on 1D (3W) 2: 16 x 3 = 48, shown even though the move is illegal
    assert render_preview(illegal) == ["words: WORD 48", "illegal move:", *[f"  - {p}" for p in illegal.problems]]
    # tiles the rack does not hold: said first, never scored ("words: ZZZ 40" came before)
    lines = render_preview(game.preview("8H ZZZ"))
    assert lines == ["illegal move:", "  - Z is not on the rack often enough: expected 3, rack has 0"]
    lines = render_preview(game.preview("1A ZZZ"))
    assert lines[:2] == ["illegal move:", "  - Z is not on the rack often enough: expected 3, rack has 0"]
    assert not any("words:" in line or "40" in line for line in lines)


# -- a real process ---------------------------------------------------------------------
def test_subprocess_game_reads_stdin_and_quits():
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.run(
        [sys.executable, "-m", "wordsalvo", "play", "--rules", "classic-en", "--game-seed", "1"],
        input="help\nhint\nbogus\n8D ZERDA\n\nquit\n", capture_output=True, text=True, timeout=60, env=env,
        cwd=Path(__file__).parent,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Hint (1 of 3): 8D ZERDA for 50" in proc.stdout
    assert "You played 8D ZERDA for 50" in proc.stdout
    assert "cannot read 'bogus' as a move" in proc.stdout
    assert "Game left unfinished after 2 turns" in proc.stdout
    assert "\x1b[" not in proc.stdout  # not a terminal: no colour


# -- pass-and-play, undo, challenges, saving --------------------------------------------
def people_game(lines, names=("Ann", "Bob"), rules="classic-en", seed=1, challenges=False, hints=3):
    game = Game(Rules.preset(rules), players=list(names), seed=seed, challenges=challenges)
    out = io.StringIO()
    script = Script(lines, out)
    tg = TerminalGame(game, [True] * len(names), input_fn=script, output=out, seed=seed, hints=hints)
    return tg, out, script


def test_pass_and_play_hides_each_rack_until_the_next_player_presses_enter():
    tg, out, script = people_game(["", "8D ZERDA", "", "", "pass", "", "quit"])
    ann, bob = tg.game.racks
    tg.run()
    text = out.getvalue()
    parts = text.split("Bob: press Enter to see your rack")
    assert len(parts) == 2
    before_bob = parts[0].rsplit("Ann> ", 1)[1]  # from Ann's last prompt to Bob's hand-over
    assert "rack:" not in before_bob.split("Ann played 8D ZERDA for 50", 1)[1]
    assert "Ann's rack: " + render_rack(tg.game.rules, ann) in text
    assert "Bob's rack: " + render_rack(tg.game.rules, bob) in parts[1]
    assert script.prompts[:2] == ["Ann: press Enter to see your rack (or undo, save, quit): ", "Ann> "]
    assert kinds(tg.game) == ["play", "pass"]


def test_undo_between_people_needs_the_other_players_agreement():
    # Bob asks on his turn, Ann (not Bob) is asked: she refuses, her move stands; then she
    # agrees: Ann is on turn again with her rack
    tg, out, script = people_game(["", "8D ZERDA", "", "undo", "n", "undo", "y", "", "quit"])
    rack = tg.game.rack
    tg.run()
    text = flat(out.getvalue())
    assert "Ann: Bob asks to take back Ann 8D ZERDA 50. Do you agree? (y = yes):" in text
    assert "Bob: take back" not in text and "Bob: Bob asks" not in text
    assert "Ann does not agree: nothing is taken back." in text
    assert "Taken back: Ann 8D ZERDA 50. Ann is on turn again." in text
    g = tg.game
    assert g.history == () and g.to_move == 0 and g.rack == rack
    assert script.prompts[-2] == "Ann: press Enter to see your rack (or undo, save, quit): "  # handed back
    assert g.notes[-1][1] == "takeback: Ann took back Ann 8D ZERDA 50"


def test_undo_against_the_engine_takes_back_both_moves_and_the_bag():
    tg, out, _ = terminal_game(["8D ZERDA", "", "undo", "undo", "quit"])
    bag, rack = tg.game.bag, tg.game.rack
    tg.run()
    g = tg.game
    assert g.history == () and g.bag == bag and g.rack == rack
    assert "Taken back: You 8D ZERDA 50; Engine " in flat(out.getvalue())
    assert "Nothing to take back: no person has moved yet." in out.getvalue()


def test_a_corrected_move_at_the_confirm_prompt_is_played():
    tg, out, _ = terminal_game(["8D ZERD", "8D ZERDA", "", "quit"])
    tg.run()
    g = tg.game
    assert g.history[0].notation == "8D ZERDA" and g.history[0].score == 50
    assert "Cancelled." not in out.getvalue()


def test_the_engine_challenges_a_phony_off_and_a_failed_challenge_costs_the_turn():
    game = Game(Rules.preset("classic-en"), players=["You", "Engine"], seed=1, challenges=True)
    out = io.StringIO()
    tg = TerminalGame(game, [True, False], "easy", input_fn=Script(["8D ZEDRA", "", "quit"], out), output=out)
    rack = game.rack
    tg.run()
    text = flat(out.getvalue())
    assert "phony" not in text.split("Enter = play it")[0]  # the preview does not tell
    assert game.history[0].kind == "refused-play" and game.history[0].challenge == "won"
    assert "Engine challenges your 8D ZEDRA: ZEDRA not in the dictionary. The play is taken back" in text
    assert game.racks[0] == rack and game.history[1].player == 1  # back on the rack; the engine moved
    # a valid engine play challenged: the challenger loses the turn (classic-en: penalty = turn)
    game2 = Game(Rules.preset("classic-en"), players=["Engine", "You"], seed=1, challenges=True)
    out2 = io.StringIO()
    tg2 = TerminalGame(game2, [False, True], "easy", input_fn=Script(["challenge", "quit"], out2), output=out2)
    tg2.run()
    g = game2
    assert [t.kind for t in g.history][:2] == ["play", "pass"] and g.history[1].challenge == "lost"
    assert "You challenge Engine's" in flat(out2.getvalue())
    assert "every word is in the dictionary, so You lose the turn" in flat(out2.getvalue())


def test_challenge_options_per_rule_set(capsys):
    assert main(["play", "--rules", "wordsalvo-en", "--challenge", "--game-seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "checks every word when it is played" in err and "classic-en, woodword-de" in err
    assert main(["play", "--rules", "woodword-de", "--challenge", "--strict"]) == 2
    assert "exclude each other" in capsys.readouterr().err
    tg, out, _ = terminal_game(["challenge", "quit"])
    tg.run()
    assert "played without challenges" in out.getvalue() and "--challenge" in out.getvalue()


def test_quit_saves_and_resume_continues_bag_and_all(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path / "saves"))
    code, text, _ = session(["8D ZERDA", "", "hint", "quit"], *CLASSIC, "--player", "Ann", "--bot", "hard",
                            "--hints", "2")
    assert code == 0
    saved = next((tmp_path / "saves").glob("classic-en-*.gcg"))
    assert f"Saved to {saved} (made the folder {saved.parent})" in flat(text)
    assert f"wordsalvo play --resume {saved}" in flat(text)
    record = saved.read_text("utf-8")
    assert "#engine Engine hard" in record and "#hints 2" in record and "#note hint for Ann (1 of 2): " in record
    # the resumed game is the game that would have gone on: same racks, same bag, same engine
    args = build_parser().parse_args(["play", "--resume", str(saved), "--color", "never"])
    out = io.StringIO()
    script = Script(["pass", "hint", "hint", "quit"], out)
    play.run(args, input_fn=script, output=out)
    text2 = flat(out.getvalue())
    assert "Resumed" in text2 and "Hint (2 of 2)" in text2 and "No hints left" in text2
    twin = Game(Rules.preset("classic-en"), players=["Ann", "Engine"], seed=1)
    twin.play("8D ZERDA")
    bot = Bot("hard", twin.rules)
    for _ in range(2):
        if twin.to_move == 1:
            bot.reset(engine_seed(1, len(twin.history), 1))
            twin.apply(bot.choose(twin))
        else:
            twin.pass_turn()
    bot.reset(engine_seed(1, len(twin.history), 1))
    twin.apply(bot.choose(twin))
    again = from_gcg(saved.read_text("utf-8"))
    assert again.history == twin.history and again.bag == twin.bag and again.racks == twin.racks


def test_a_game_with_the_largest_seeds_play_makes_resumes(tmp_path, monkeypatch):
    """play picks game and board seeds below 2**31 (ten digits): the saved record replays."""
    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path))
    code, _text, _ = session(["pass", "quit"], "--rules", "wordsalvo-en", "--random", "--seed", str(2**31 - 1),
                             "--game-seed", str(2**31 - 1), "--player", "Ann", "--bot", "easy")
    assert code == 0
    saved = next(tmp_path.glob("wordsalvo-en-*.gcg"))
    record = saved.read_text("utf-8")
    assert f"#seed {2**31 - 1}" in record and f"#board_seed {2**31 - 1}" in record
    game = from_gcg(record)
    assert game.seed == 2**31 - 1 and game.rules.board_seed == 2**31 - 1 and len(game.history) == 2
    args = build_parser().parse_args(["play", "--resume", str(saved), "--color", "never"])
    out = io.StringIO()
    assert play.run(args, input_fn=Script(["quit"], out), output=out) == 0
    assert "Resumed" in flat(out.getvalue())


def test_resume_reads_a_hand_edited_hint_count_strictly(tmp_path, capsys):
    (tmp_path / "g.gcg").write_text(to_gcg(Game(Rules.preset("classic-en"), players=["Ann", "Engine"], seed=3))
                                    + "#hints 5\u00b2\n", "utf-8")
    assert main(["play", "--resume", str(tmp_path / "g.gcg"), "--color", "never"]) == 2
    assert "expected '#hints N' with N a whole number" in capsys.readouterr().err


def test_resume_refuses_a_missing_file_and_options_the_file_decides(tmp_path, capsys):
    assert main(["play", "--resume", str(tmp_path / "nofile.gcg")]) == 2
    assert "--resume: no such file: " in capsys.readouterr().err
    (tmp_path / "g.gcg").write_text("#player1 A A\n#player2 B B\n", "utf-8")
    assert main(["play", "--resume", str(tmp_path / "g.gcg"), "--player", "Ann", "--game-seed", "2"]) == 2
    assert "expected none of --player/--bot, --game-seed" in capsys.readouterr().err


def test_save_asks_before_making_a_folder_and_survives_names_the_system_refuses(tmp_path):
    target = tmp_path / "new" / "deeper" / "game.gcg"
    long_name = "x" * 300
    tg, out, _ = terminal_game([f"save {target}", "n", f"save {target}", "y", f"save {tmp_path / long_name}",
                                "save a\x00b", "quit"])
    tg.run()
    text = flat(out.getvalue())
    assert f"The folder {target.parent} does not exist; make it? (y = yes):" in text
    assert "Not saved." in text and f"Saved to {target} (made the folder {target.parent})" in text
    assert "Not saved: cannot write" in text  # 300 bytes: the system refuses the name
    assert from_gcg(target.read_text("utf-8")).history == tg.game.history
    assert f"Saved to {target}" in text.rsplit("Game left unfinished", 1)[1]  # quit saved to the same file


def test_the_end_offer_asks_before_making_a_folder(tmp_path):
    tg, out, script = terminal_game(["resign", "y", str(tmp_path / "a" / "b"), "n", str(tmp_path / "c"), ])
    tg.run()
    assert "does not exist; make it?" in flat(" ".join(script.prompts))
    assert not (tmp_path / "a").exists() and (tmp_path / "c.gcg").exists()


def test_settlement_says_your_rack_not_yous():
    from wordsalvo.game import Turn
    from wordsalvo.render.terminal import describe_turn

    t = Turn(1, "settle", "AB", 18, 300, tiles="AB", rack_owner=0)
    assert describe_turn(t, ["You", "Engine"]) == "Engine +18 for your rack (AB)"
    assert describe_turn(t, ["Ann", "Engine"]) == "Engine +18 for Ann's rack (AB)"


# -- the clock: --move-time ------------------------------------------------------------------
class FakeClock:
    """A clock the script moves on: ``late(answer)`` is an answer typed after the time ran out."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def late(self, answer: str, seconds: float = 10.0**7):
        def typed(_prompt: str) -> str:
            self.now += seconds
            return answer
        return typed


def clocked_game(lines, rules: str, move_time: int, players=("You", "Engine"), lexicon=None):
    game = Game(Rules.preset(rules), lexicon, players=list(players), seed=2)
    out = io.StringIO()
    clock = FakeClock()
    script = Script([clock.late(ln[0]) if isinstance(ln, tuple) else ln for ln in lines], out)  # (late,)
    humans = [name != "Engine" for name in players]
    tg = TerminalGame(game, humans, "easy", input_fn=script, output=out, seed=2, move_time=move_time, clock=clock)
    return tg, out, clock


def test_running_out_of_time_ends_the_turn_where_the_rules_say_so():
    # wordsalvo-en: running out ends the turn; the engine is not timed and answers
    tg, out, _ = clocked_game([("pass",), "pass", "quit"], "wordsalvo-en", 30)
    tg.run()
    game = tg.game
    assert kinds(game)[:3] == ["timeout", kinds(game)[1], "pass"] and game.history[1].player == 1
    assert "Time is up (0:30 per move): You ran out of time." in flat(out.getvalue())
    assert "time per move: 0:30" in out.getvalue()


def test_running_out_of_time_loses_a_turkish_game():
    tg, out, _ = clocked_game([("8H WORD",)], "turkish", 86400)
    tg.run()
    game = tg.game
    assert game.is_over and game.end_reason == "timeout" and game.winners == (1,)
    assert "Time is up (24:00:00 per move): You ran out of time and leave the game." in flat(out.getvalue())


def test_three_time_outs_in_a_row_eliminate_a_woodword_player(tmp_path):
    from game_helpers import lexicon_for

    rules = Rules.preset("woodword-de")
    # a time-out, a pass (the count starts again), then three time-outs in a row
    tg, out, _ = clocked_game([("pass",), "pass", ("pass",), ("pass",), ("pass",)], "woodword-de", 120,
                              players=("Ann", "Engine"), lexicon=lexicon_for(rules, tmp_path))
    tg.run()
    game = tg.game
    assert [t.kind for t in game.history if t.player == 0] == ["timeout", "pass", "timeout", "timeout", "timeout"]
    assert game.is_over and game.end_reason == "elimination" and game.winners == (1,)
    text = flat(out.getvalue())
    assert "Time is up (2:00 per move): Ann ran out of time and leaves the game (3 time-outs in a row)." in text


def test_a_late_answer_at_the_confirmation_does_not_play_the_move():
    tg, out, _ = clocked_game(["8D DOWAR", ("",), "quit"], "wordsalvo-en", 60)
    tg.run()
    assert kinds(tg.game)[0] == "timeout"  # the move was typed in time, confirmed too late


def test_move_time_is_checked_against_the_rule_set_and_kept_on_resume(tmp_path, monkeypatch, capsys):
    assert main(["play", "--move-time", "30"]) == 2  # classic-en has no clock
    assert "--move-time: rule set 'classic-en' has no per-move clock" in capsys.readouterr().err
    assert main(["play", "--rules", "wordsalvo-en", "--move-time", "5"]) == 2
    assert "expected a time per move of 30 to 259200 seconds" in capsys.readouterr().err
    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path))
    code, text, _ = session(["quit"], "--rules", "wordsalvo-en", "--move-time", "45", "--game-seed", "3",
                            "--color", "never")
    assert code == 0 and "time per move: 0:45" in text
    saved = next(tmp_path.glob("*.gcg"))
    assert "#move-time 45\n" in saved.read_text("utf-8")
    code, text, _ = session(["help", "quit"], "--resume", str(saved), "--color", "never")
    assert code == 0 and "time per move: 0:45" in text and "The clock: 0:45 per move" in flat(text)
    assert main(["play", "--resume", str(saved), "--move-time", "60"]) == 2
    assert "expected none of --move-time" in capsys.readouterr().err


def test_play_keeps_the_rule_sets_own_clock_unless_told_otherwise(tmp_path, monkeypatch):
    """Issue 37, item 4: woodword-de gives 2 minutes a move and turkish 24 hours without
    --move-time; --move-time 0 plays without a clock, and a resumed game keeps either."""
    from game_helpers import DATA

    from wordsalvo.lexicon.lexicon import compile_lexicon

    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path))
    path = tmp_path / "de.wsg"
    compile_lexicon(DATA / "german-small.txt", path, alphabet="de")
    code, text, _ = session(["quit"], "--rules", "woodword-de", "--lexicon", str(path), "--game-seed", "3",
                            "--color", "never")
    assert code == 0 and "time per move: 2:00" in text
    saved = max(tmp_path.glob("*.gcg"), key=lambda f: f.stat().st_mtime)
    assert "#move-time 120\n" in saved.read_text("utf-8")
    code, text, _ = session(["quit"], "--rules", "turkish", "--game-seed", "3", "--color", "never")
    assert code == 0 and "time per move: 24:00:00" in text
    for f in tmp_path.glob("*.gcg"):
        f.unlink()
    code, text, _ = session(["quit"], "--rules", "turkish", "--move-time", "0", "--game-seed", "3", "--color", "never")
    assert code == 0 and "time per move" not in text
    saved = next(tmp_path.glob("*.gcg"))
    assert "#move-time 0\n" in saved.read_text("utf-8")
    code, text, _ = session(["quit"], "--resume", str(saved), "--color", "never")
    assert code == 0 and "time per move" not in text
    code, text, _ = session(["quit"], "--rules", "classic-en", "--game-seed", "3", "--color", "never")
    assert code == 0 and "time per move" not in text  # a rule set without a clock


def test_a_game_under_a_rule_set_file_resumes_with_that_file(tmp_path, monkeypatch, capsys):
    """Issue 37, item 2: the record of a game started with --rules FILE.toml names the file
    and its SHA-256; --resume reads the game with it (beside the record too, when moved) and
    refuses a changed file with a clear message."""
    import wordsalvo

    monkeypatch.setenv("WORDSALVO_GAMES_DIR", str(tmp_path / "games"))
    text = (Path(wordsalvo.__file__).parent / "rulesets" / "wordsalvo-en.toml").read_text("utf-8")
    rules_file = tmp_path / "mine.toml"
    rules_file.write_text(text.replace('name = "wordsalvo-en"', 'name = "house-rules"'), "utf-8")
    code, text_out, _ = session(["8D DOWAR", "", "quit"], "--rules", str(rules_file), "--game-seed", "2",
                                "--color", "never")
    assert code == 0, text_out
    saved = next((tmp_path / "games").glob("*.gcg"))
    record = saved.read_text("utf-8")
    assert "#rules house-rules\n" in record and f" {rules_file.resolve()}\n" in record
    code, again, _ = session(["quit"], "--resume", str(saved), "--color", "never")
    assert code == 0 and "house-rules" in again
    moved = tmp_path / "moved"
    moved.mkdir()
    saved = saved.rename(moved / saved.name)
    rules_file.rename(moved / "mine.toml")  # the folder moved with its rule set: found beside the record
    code, again, _ = session(["quit"], "--resume", str(saved), "--color", "never")
    assert code == 0 and "house-rules" in again
    (moved / "mine.toml").write_text(text.replace('name = "wordsalvo-en"', 'name = "house-rules"') + "\n# edited\n",
                                     "utf-8")
    assert main(["play", "--resume", str(saved)]) == 2
    err = capsys.readouterr().err
    assert "expected the rule set file the game was played with" in err and "changed since" in err


def test_help_fits_an_80_by_24_terminal_and_help_command_says_more():
    """`help` was 29 lines and scrolled off an 80x24 screen: now a few lines (the clock's
    line too, with --move-time), and `help COMMAND` gives the lines about one command."""
    tg, out, _ = terminal_game(["help", "help swap", "help undo", "help bogus", "quit"])
    assert tg.run() == 0
    chunks = out.getvalue().split("You> ")
    short, swap, undo, bogus = (c.rstrip("\n").split("\n")[1:] for c in chunks[-5:-1])  # after the echo
    assert len(short) <= 24 - 4 and all(len(line) < 80 for line in short)  # room for the clock and the prompt
    assert "--game-seed 1" in flat("\n".join(short)) and "help COMMAND" in flat("\n".join(short))
    assert "swap AEI" in short[0] + "\n".join(short)
    assert "put A, E and I back" in swap[0] and "the whole rack" in swap[1]
    assert "take back the last move a person made" in undo[0] and len(undo) <= 3
    assert "No command 'bogus'" in bogus[0] and "undo" in flat("\n".join(bogus))


def test_undo_asks_the_other_player_never_the_one_who_typed_it():
    """Ann typed undo after Bob's pass: Bob is asked, not Ann ("Ann: take back Bob ...?");
    at Bob's hand-over Bob asks to take back Ann's pass: Ann must agree, Bob alone cannot."""
    tg, out, script = people_game(["", "8D ZERDA", "", "", "pass", "", "undo", "y", "quit"])
    tg.run()
    text = flat(out.getvalue())
    assert "Bob: Ann asks to take back Bob pass. Do you agree? (y = yes):" in text
    assert "Ann: Ann asks" not in text and "Ann: take back" not in text
    assert [t.kind for t in tg.game.history] == ["play"] and tg.game.to_move == 1
    # at Bob's hand-over screen, Bob asks to take back Ann's pass: the question goes to Ann
    tg, out, script = people_game(["", "pass", "undo", "n", "quit"])
    tg.run()
    text = flat(out.getvalue())
    assert script.prompts[2].startswith("Bob: press Enter to see your rack")
    assert "Ann: Bob asks to take back Ann pass. Do you agree? (y = yes):" in text
    assert "Ann does not agree: nothing is taken back." in text and [t.kind for t in tg.game.history] == ["pass"]


def test_taken_back_says_you_are_on_turn_again():
    tg, out, _ = terminal_game(["8D ZERDA", "", "undo", "quit"])
    tg.run()
    assert "You are on turn again." in flat(out.getvalue()) and "You is" not in out.getvalue()


def test_the_screen_clears_the_scrollback_too(monkeypatch):
    """The hand-over screen erased the screen but not the terminal's scrollback (ESC [3J):
    scrolling up showed the previous player's rack."""
    game = Game(Rules.preset("classic-en"), players=["Ann", "Bob"], seed=1)
    out = io.StringIO()
    tg = TerminalGame(game, [True, True], input_fn=Script(["", "8D ZERDA", "", "quit"], out), output=out, seed=1,
                      redraw=True)
    tg.run()
    text = out.getvalue()
    handover = text.index("Hand the device to Bob")
    assert text.rfind("\x1b[2J", 0, handover) >= 0
    assert text.rfind("\x1b[3J", 0, handover) == text.rfind("\x1b[2J", 0, handover) + 4

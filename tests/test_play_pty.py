"""``wordsalvo play`` in a real pseudo-terminal of 80 x 24 (pexpect drives it, pyte
draws the screen as a terminal would).

Oracles: a mirror :class:`Game` with the same seed, seats and moves (the engine's
choices through the same :class:`Bot` and :func:`engine_seed`) says which
rack each screen must show and what the saved record must hold; every line the
program writes is measured with wcwidth (none may be wider than 80 columns) and
the board rows must stay on their screen rows; ``wordsalvo analyze`` reads the
finished record.
"""

from __future__ import annotations

import itertools
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from wordsalvo import Game, Rules
from wordsalvo.engine.bot import Bot
from wordsalvo.tui import engine_seed
from wordsalvo.errors import IllegalMoveReason
from wordsalvo.formats.gcg import from_gcg

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")
wcwidth = pytest.importorskip("wcwidth")

from pty_helpers import COLS, ROWS, Terminal  # noqa: E402 - after the skips

_SUBSCRIPTS = re.compile(r"[\u2080-\u20890-9\s]")


def rack_on_screen(term: Terminal, name: str) -> str:
    line = next(ln for ln in term.display() if ln.startswith(f"{name}'s rack:"))
    return "".join(sorted(_SUBSCRIPTS.sub("", line.split(":", 1)[1])))


def phony(game: Game) -> str:
    """A placement whose only fault is a word not in the dictionary (a legal move's new
    tiles in another order)."""
    for m in game.legal_moves().top(60):
        coord, word = m.notation.split(" ", 1)
        parts = re.findall(r"\([^)]*\)|.", word)
        new = [i for i, p in enumerate(parts) if not p.startswith("(")]
        if len(new) < 2 or any(parts[i].islower() for i in new):
            continue
        for order in itertools.islice(itertools.permutations([parts[i] for i in new]), 200):
            trial = list(parts)
            for i, ch in zip(new, order):
                trial[i] = ch
            notation = f"{coord} {''.join(trial)}"
            if game.preview(notation).reasons == (IllegalMoveReason.INVALID_WORDS,):
                return notation
    raise AssertionError("no phony found")  # pragma: no cover


class Table:
    """Plays the mirror's turns through the terminal."""

    def __init__(self, term: Terminal, game: Game, levels: list[str | None]):
        self.term = term
        self.game = game
        self.levels = levels
        self.bots = {i: Bot(lv, game.rules, lexicon=game.lexicon) for i, lv in enumerate(levels) if lv}
        self.viewer: int | None = None
        self.seen_handover = 0

    def engine(self) -> None:
        g = self.game
        p = g.to_move
        bot = self.bots[p]
        bot.reset(engine_seed(g.seed, len(g.history), p))
        g.apply(bot.choose(g))

    def engine_challenges(self) -> None:
        g = self.game
        if g.can_challenge and self.levels[g.challenger] and g.phonies():
            g.challenge()

    def handover(self, p: int) -> None:
        name = self.game.names[p]
        self.term.expect(f"{name}: press Enter to see your rack")
        self.term.check_fits()
        assert not any("rack:" in ln for ln in self.term.display()), "a rack on the hand-over screen"
        self.seen_handover += 1

    def prompt(self, p: int) -> None:
        """Hand-over (between people), then the player's prompt with the right rack."""
        g = self.game
        if self.viewer != p:
            self.handover(p)
            self.term.send("")
            self.viewer = p
        self.term.expect(f"{g.names[p]}> ")
        self.term.check_fits()
        assert rack_on_screen(self.term, g.names[p]) == "".join(sorted(g.rack))

    def move(self, notation: str) -> None:
        self.term.send(notation)
        self.term.expect("Enter = play it")
        self.term.send("")
        self.game.play(notation)

    def ordinary(self) -> None:
        """The player on turn plays the best move by score (or passes)."""
        g = self.game
        m = g.best_move()
        if m is None:
            self.term.send("pass")
            g.pass_turn()
        else:
            self.move(m.notation)

    def until(self, stop) -> None:
        """Turns until ``stop(game)`` or the end; engines and challenges as the front end does them."""
        g = self.game
        while not g.is_over and not stop(g):
            self.engine_challenges()
            if g.is_over:
                break
            p = g.to_move
            if self.levels[p]:
                self.engine()
                continue
            self.prompt(p)
            self.ordinary()

    def final_challenge(self) -> None:
        g = self.game
        self.engine_challenges()
        if g.can_challenge and not self.levels[g.challenger]:
            p = g.challenger
            if self.viewer != p:
                self.handover(p)
                self.term.send("")
            self.term.expect(f"{g.names[p]}: challenge")
            self.term.send("")


def test_pass_and_play_three_people_and_an_engine_saved_resumed_finished_analysed(tmp_path):
    games = tmp_path / "g"
    names = ["Ann", "Bob", "Cy", "Engine"]
    levels = [None, None, None, "medium"]
    args = ["--rules", "classic-en", "--game-seed", "7", "--challenge", "--hints", "1",
            "--player", "Ann", "--player", "Bob", "--player", "Cy", "--bot", "medium"]
    mirror = Game(Rules.preset("classic-en"), players=names, seed=7, challenges=True)
    term = Terminal(args, games)
    table = Table(term, mirror, levels)

    # Ann opens; Bob's hand-over screen: Bob asks to take Ann's move back, Ann and Cy agree (the
    # one who asked is never asked)
    table.prompt(0)
    first = mirror.best_move().notation
    table.move(first)
    table.handover(1)
    term.send("undo")
    for who in ("Ann", "Cy"):
        term.expect(f"{who}: Bob asks to take back Ann {first}")
        term.send("y")
    mirror.undo(0)
    table.viewer = None
    # Ann plays her second-best move instead
    table.prompt(0)
    table.move(mirror.legal_moves().top(2)[1].notation)
    # Bob plays a phony; Cy challenges it off and plays on
    table.prompt(1)
    fake = phony(mirror)
    table.move(fake)
    table.prompt(2)
    assert any("You may `challenge` Bob's" in ln for ln in term.display())
    term.send("challenge")
    result = mirror.challenge()
    assert result.phony and result.turn.kind == "refused-play"
    term.expect("Cy> ")
    said = " ".join(" ".join(ln.split()) for ln in term.display())
    assert "Cy challenges Bob's" in said and "The play is taken back and Bob loses the turn." in said
    # Cy asks for her one hint, then plays it
    term.send("hint")
    term.expect("Hint (1 of 1): ")
    table.ordinary()
    # ... until about half the bag is gone; then Ann quits: the game is saved
    table.until(lambda g: g.bag_count < 40)
    p = mirror.to_move
    while table.levels[p]:
        table.engine_challenges()
        table.engine()
        p = mirror.to_move
    table.prompt(p)
    term.send("quit")
    term.expect("wordsalvo play --resume")
    term.expect(".gcg")
    assert term.finish() == 0
    saved = Path(re.search(r"--resume\s+(\S+\.gcg)", term.raw.replace("\r\n", "\n")).group(1))
    assert saved.parent == games
    assert from_gcg(saved.read_text("utf-8")).history == mirror.history
    assert table.seen_handover >= 6

    # resumed: the same bag, the same engine, to the end
    term = Terminal(["--resume", str(saved)], games)
    table.term = term
    table.viewer = None
    term.expect("Resumed ")
    table.until(lambda g: False)
    table.final_challenge()
    term.expect("The finished game is saved")
    assert term.finish() == 0
    assert mirror.is_over
    record = from_gcg(saved.read_text("utf-8"))
    assert record.history == mirror.history and record.scores == mirror.scores and record.is_over
    text = saved.read_text("utf-8")
    assert "#challenge on" in text and "#engine Engine medium" in text and "#hints 1" in text
    assert f">Bob: {result.play.rack} {fake} " in text and f">Bob: {result.play.rack} -- " in text
    assert "#note hint for Cy (1 of 1): " in text and "#note takeback: Ann took back" in text

    # analysed
    proc = subprocess.run([sys.executable, "-m", "wordsalvo", "analyze", str(saved)], capture_output=True,
                          text=True, timeout=300, cwd=str(Path(__file__).parent))
    assert proc.returncode == 0, proc.stderr
    assert "analysis of a classic-en game (Ann, Bob, Cy, Engine)" in proc.stdout
    assert "/".join(map(str, mirror.scores)) in proc.stdout


@pytest.mark.parametrize("colour", ["auto", "never"])
def test_an_80_by_24_terminal_wraps_nothing(tmp_path, colour):
    """Four seats with long names, the panel full of turns, every screen measured."""
    names = ["Alexandrina", "Bartholomew", "Konstantinos"]
    levels = [None, None, None, "hard"]
    args = ["--rules", "wordsalvo-en", "--game-seed", "3", "--color", colour, "--hints", "0"]
    for n in names:
        args += ["--player", n]
    args += ["--bot", "hard"]
    mirror = Game(Rules.preset("wordsalvo-en"), players=[*names, "Engine"], seed=3)
    term = Terminal(args, tmp_path)
    table = Table(term, mirror, levels)
    table.until(lambda g: len(g.history) >= 14)
    p = mirror.to_move
    while table.levels[p]:
        table.engine()
        p = mirror.to_move
    table.prompt(p)
    shown = term.display()
    assert any("last turns:" in ln for ln in shown)
    if colour == "never":
        raw = term.raw.replace("\x1b[3J", "")  # the redraw erases the scrollback too
        assert "\x1b[3" not in raw and "\x1b[1;" not in raw  # no colour codes, only the redraw
    else:
        assert "\u2081" in "".join(shown)  # tile values on the board
    term.send("help")
    term.expect(f"{names[p]}> ")
    term.check_fits()
    term.send("quit")
    assert term.finish() == 0


def test_a_closed_terminal_and_ctrl_c_save_the_game(tmp_path):
    args = ["--rules", "classic-en", "--game-seed", "1", "--player", "Ann", "--bot", "easy"]
    term = Terminal(args, tmp_path)
    term.expect("Ann> ")
    term.send("8D ZERDA")
    term.expect("Enter = play it")
    term.send("")
    term.expect("Ann> ")
    term.child.kill(signal.SIGHUP)
    assert term.finish() == 0
    saved = list(tmp_path.glob("classic-en-*.gcg"))
    assert len(saved) == 1
    game = from_gcg(saved[0].read_text("utf-8"))
    assert game.history[0].notation == "8D ZERDA" and len(game.history) == 2 and not game.is_over

    term = Terminal(["--resume", str(saved[0])], tmp_path)
    term.expect("Ann> ")
    term.send("pass")
    term.expect("Ann> ")
    term.child.sendintr()  # Ctrl-C, through the terminal
    term.expect("Interrupted.")
    assert term.finish() == 0
    again = from_gcg(saved[0].read_text("utf-8"))
    assert [t.kind for t in again.history][2] == "pass" and len(again.history) == 4
    assert f"Saved to {saved[0]}" in " ".join(term.raw.split())


def test_an_opponents_swap_shows_how_many_tiles_never_which(tmp_path):
    """Ann swaps her whole rack; every screen Bob can see (his hand-over screen, his own
    turn, the undo question, Ann's hand-over screen after his pass) says 7 tiles; only
    Ann's own screen names them."""
    mirror = Game(Rules.preset("classic-en"), players=["Ann", "Bob"], seed=5)
    swapped = mirror.rack
    term = Terminal(["--player", "Ann", "--player", "Bob", "--game-seed", "5"], tmp_path)
    term.expect("Ann: press Enter to see your rack")
    term.send("")
    term.expect("Ann> ")
    term.send("swap")
    term.expect("Enter = swap, n = cancel")  # the whole rack: asked first
    term.send("")
    term.expect("Bob: press Enter to see your rack")
    assert "Ann swap 7" in term.said() and swapped not in term.said()
    term.send("undo")  # Bob asks to take Ann's swap back; Ann is asked, at Bob's screen: no tiles shown
    term.expect("Do you agree?")
    assert "Ann: Bob asks to take back Ann swap 7." in term.said() and swapped not in term.said()
    term.send("n")
    term.expect("Bob: press Enter to see your rack")
    term.send("")
    term.expect("Bob> ")
    assert "Ann swap 7" in term.said() and swapped not in term.said()
    term.send("pass")
    term.expect("Ann: press Enter to see your rack")  # Bob still holds the device
    assert "Ann swap 7" in term.said() and swapped not in term.said()
    term.send("")
    term.expect("Ann> ")
    assert f"Ann swap {swapped}" in term.said()  # her own swap, on her own screen
    term.send("quit")
    assert term.finish() == 0


def _first_screen(term: Terminal, prompt: str) -> list[str]:
    term.expect(prompt)
    term.check_fits()
    return term.display()


@pytest.mark.parametrize("args", [
    ["--rules", "wordsalvo-en", "--seed", "2147483647", "--game-seed", "2147483646"],  # ten-digit seeds
    ["--rules", "turkish", "--random", "--game-seed", "1999999999"],  # the three-line legend
    ["--rules", "wordsalvo-nl", "--game-seed", "1234567890"],
    ["--game-seed", "2147483647"],
], ids=["wordsalvo-en", "turkish", "wordsalvo-nl", "classic-en"])
def test_the_first_screen_shows_the_column_letters_at_80_by_24(tmp_path, args):
    term = Terminal(args, tmp_path)
    shown = _first_screen(term, "You> ")
    assert shown[0].startswith("     A  B  C  D  E  F  G  H  I  J  K  L  M  N  O"), shown
    assert any(ln.startswith("Your rack:") for ln in shown)
    seed = args[args.index("--game-seed") + 1]
    assert f"game seed {seed}" in term.said()  # the panel says it, on one line
    term.send("help")  # help says how to play the same game again
    term.expect("You> ")
    assert f"--game-seed {seed}" in " ".join(term.lines())
    term.send("quit")
    assert term.finish() == 0


def test_the_hand_over_screen_of_four_long_names_shows_the_column_letters(tmp_path):
    args = ["--rules", "wordsalvo-en", "--random", "--game-seed", "1999999999"]
    for name in ("Alexandrina", "Bartholomew", "Konstantinos", "Maximiliana"):
        args += ["--player", name]
    term = Terminal(args, tmp_path)
    shown = _first_screen(term, "Alexandrina: press Enter to see your rack")
    assert shown[0].startswith("     A  B  C"), shown
    term.send("quit")
    assert term.finish() == 0


def test_a_ten_point_tile_does_not_run_into_the_next_square(tmp_path):
    term = Terminal(["--game-seed", "1", "--player", "Ann", "--bot", "easy"], tmp_path)
    term.expect("Ann> ")
    term.send("8D ZERDA")  # Z is worth 10
    term.expect("Enter = play it")
    term.send("")
    term.expect("Ann> ")
    term.check_fits()
    row = next(ln for ln in term.display() if ln.startswith("  8 "))
    assert "Z\u2081\u2080 E\u2081" in row, row
    header = term.display()[0]
    assert header.index("E") - row.index("E\u2081") == header.index("A") - 4, (header, row)  # columns stay put
    term.send("quit")
    assert term.finish() == 0


def test_the_exit_message_keeps_the_resume_command_on_one_line(tmp_path):
    games = tmp_path / ("a-folder-with-a-long-name-" * 3) / "my games"  # and a space: quoted
    games.mkdir(parents=True)
    term = Terminal(["--game-seed", "1"], games)
    term.expect("You> ")
    term.send("save")
    term.expect("resume it with:")
    term.expect("You> ")
    term.send("quit")
    assert term.finish() == 0
    saved = next(games.glob("*.gcg"))
    command = f"wordsalvo play --resume '{saved}'"
    assert len(command) > COLS
    lines = term.lines()
    assert sum(ln.strip() == command for ln in lines) == 2, lines[-8:]  # after `save` and after `quit`


def _time_left(term: Terminal) -> str | None:
    prompt = next((ln for ln in reversed(term.display()) if ln.startswith("Ann> ")), "")
    m = re.search(r"(\d+:\d\d) left\s*$", prompt)
    return m.group(1) if m else None


def test_the_move_clock_counts_down_beside_what_is_typed_and_resume_keeps_it(tmp_path):
    args = ["--rules", "wordsalvo-en", "--move-time", "300", "--game-seed", "1", "--player", "Ann", "--bot", "easy"]
    mirror = Game(Rules.preset("wordsalvo-en"), players=["Ann", "Engine"], seed=1)
    move = mirror.best_move().notation
    term = Terminal(args, tmp_path)
    term.expect("Ann> ")
    term.expect(" left")  # the first second's tick
    first = _time_left(term)
    # the clock runs from the moment the rack shows: a loaded machine may draw the first tick late
    assert first is not None and (first.startswith("4:") or first == "5:00"), term.display()[-3:]
    assert any("time per move: 5:00" in ln for ln in term.display())
    term.child.send(move[:4])  # half a move typed ...
    term.expect(" left")  # ... while the clock ticks on
    term.expect(" left")
    assert _time_left(term) != first
    term.send(move[4:])  # ... and the rest: the line is whole
    term.expect("Enter = play it")
    words = mirror.preview(move).words
    assert f"words: {words[0].word}" in term.said()
    term.send("")
    mirror.play(move)
    term.expect("Ann> ")
    term.send("quit")
    assert term.finish() == 0
    saved = next(tmp_path.glob("*.gcg"))
    record = saved.read_text("utf-8")
    assert "#move-time 300\n" in record and from_gcg(record).history[0].notation == move
    assert "timeout" not in [t.kind for t in from_gcg(record).history]  # the engine answered in time

    term = Terminal(["--resume", str(saved)], tmp_path)
    term.expect("Ann> ")
    assert any("time per move: 5:00" in ln for ln in term.display())
    term.send("quit")
    assert term.finish() == 0


def test_running_out_of_time_in_the_terminal_ends_the_turn(tmp_path):
    from importlib import resources

    text = resources.files("wordsalvo.rulesets").joinpath("wordsalvo-en.toml").read_text("utf-8")
    assert "\nmin_seconds = 30\n" in text
    quick = tmp_path / "quick.toml"  # a table's own rule set that allows a short clock
    quick.write_text(text.replace("\nmin_seconds = 30\n", "\nmin_seconds = 1\n"), "utf-8")
    # 10 s, not 2: the keys must reach the prompt before the time runs out even on a loaded machine
    # (typed after it, they would be the next prompt's)
    term = Terminal(["--rules", str(quick), "--move-time", "10", "--game-seed", "1", "--player", "Ann",
                     "--bot", "easy"], tmp_path)
    term.expect("Ann> ")
    term.child.send("8H AB")  # typed, never sent: the time runs out
    term.expect("Time is up (0:10 per move): Ann ran out of time.")
    term.expect("Ann> ")  # the engine has moved; Ann's turn again, with nothing left of what she typed
    term.send("quit")
    assert term.finish() == 0
    record = next(tmp_path.glob("*.gcg")).read_text("utf-8")
    assert ">Ann: " in record and "(time) +0" in record
    after = re.sub(r"\x1b(\[[0-9;?]*[A-Za-z]|[78])", "", term.raw).split("Time is up", 1)[1]
    assert "8H AB" not in after  # what was typed is gone with the turn

"""Offensive words: engine levels and hints never play them (main word or cross word); people may."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import wordsalvo as ws
from wordsalvo.actions import Play
from wordsalvo.engine.bot import LEVELS, Bot
from wordsalvo.offensive import LANGUAGES, OffensiveWords

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules():
    return ws.Rules.preset("wordsalvo-en")


def hooked_game(rules):
    """A person played FUCK; the best move for SEDRAIT hooks it into FUCKS as a cross word."""
    game = ws.Game(rules, seed=1)
    game.set_rack(0, "FUCKAEI")
    game.play("8H FUCK")
    game.set_rack(1, "SEDRAIT")
    return game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shipped_lists_are_words_of_their_alphabet(lang):
    words = OffensiveWords.default(lang)
    assert len(words) > 100 and words.language == lang
    alphabet = ws.get_alphabet(lang)
    for w in words.words:
        assert alphabet.normalize(w)[0] == w and 2 <= len(w) <= 15
    assert (resources.files("wordsalvo") / "data" / "offensive" / "NOTICE.txt").is_file()


def test_lists_hold_the_slurs_and_not_the_ordinary_words():
    en, nl, de, tr = (OffensiveWords.default(lang) for lang in ("en", "nl", "de", "tr"))
    for w in ("LEZ", "NIGGER", "FUCKERS", "CUNT", "SPIC", "FAGGOT", "WETBACK"):
        assert w in en
    for w in ("ASS", "COCK", "TIT", "SPICY", "JAPES", "MONGER", "SHITAKE", "PENIS"):
        assert w not in en
    assert {"KLOOTZAK", "NIKKER", "KUT", "MOF"} <= nl.words and not {"NAAIEN", "DELEN", "NEGEREN", "POT"} & nl.words
    assert {"ARSCHLOCH", "FOTZE", "KANAKE", "HUREN"} <= de.words and not {"WICHSE", "MUFTI", "NACKT"} & de.words
    assert {"OROSPU", "SİKTİR", "İBNE"} <= tr.words
    assert not OffensiveWords.default("xx") and "FUCK" not in OffensiveWords.default("xx")


def test_shipped_lists_match_their_build():
    """build.py --check: the shipped files are what the rule makes from the committed sources."""
    out = subprocess.run([sys.executable, str(ROOT / "lexicon_build" / "offensive" / "build.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_people_may_play_offensive_words(rules):
    game = ws.Game(rules, seed=1)
    game.set_rack(0, "FUCKERS")
    assert "FUCKERS" in game.lexicon  # the lexicon keeps the words
    turn = game.play("8C FUCKERS")
    assert turn.words == ("FUCKERS",) and turn.score > 0


def test_best_move_avoids_main_and_cross_words(rules):
    game = ws.Game(rules, seed=1)
    game.set_rack(0, "FUCKERS")
    assert game.best_move().word == "FUCKERS"
    clean = game.best_move(avoid_offensive=True)
    assert not game.offensive.forms(clean)
    game = hooked_game(rules)
    best = game.best_move()
    assert "FUCKS" in best.formed_words() and game.offensive.forms(best) == ("FUCKS",)
    for by in ("score", "equity"):
        clean = game.best_move(by=by, avoid_offensive=True)
        assert clean is not None and not game.offensive.is_offensive(clean)
        # the best of those that form no offensive word
        every = game.legal_moves(leaves=ws.Leaves.default(rules)).sorted(by=by)
        assert clean.notation == game.offensive.first_clean(every).notation
    game.play(clean)  # a move of the game's generator, played as it is


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_avoids_offensive_words(rules, level):
    for game in (hooked_game(rules),):
        for seed in range(4):
            action = Bot(level, rules, seed=seed, seconds=0.05).choose(game)
            # a swap or a pass spells nothing (master's few iterations in 0.05 s on a loaded
            # machine may rate the swap best); a play must spell no offensive word
            assert not (isinstance(action, Play) and game.offensive.is_offensive(action.move)), (level, seed, action)
    game = ws.Game(rules, seed=1)
    game.set_rack(0, "FUCKERS")
    assert not game.offensive.is_offensive(game.engine_action(level).move)


def test_plain_engine_players_do_not_filter(rules):
    """score and equity are engine benchmarks: the best move, whatever it spells."""
    game = hooked_game(rules)
    for kind in ("score", "equity"):
        assert "FUCKS" in Bot(kind, rules).choose(game).move.formed_words()


def test_whole_games_of_the_levels_play_no_offensive_word(rules):
    offensive = OffensiveWords.default("en")
    for i, level in enumerate(LEVELS):
        game = ws.Game(rules, seed=40 + i)
        bots = [Bot(level, rules, seed=i, seconds=0.02), Bot(level, rules, seed=i + 10, seconds=0.02)]
        while not game.is_over:
            game.apply(bots[game.to_move].choose(game))
        for turn in game.history:
            assert not set(turn.words or ()) & offensive.words, (level, turn)


def _build_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("offensive_build", ROOT / "lexicon_build" / "offensive" / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("lang", ["en", "nl", "tr"])
def test_every_form_one_suffix_away_from_a_listed_word_is_listed(lang):
    """The forms check: a word of the language's list one suffix away from a listed word
    (JEW of JEWED, NEUKT of NEUKEN, PİÇİ of PİÇ) is listed too, unless curation.toml names it
    an ordinary word (not_forms, not_stems).  German is checked when build.py is given the
    German list (--de-words), which is never committed."""
    import tomllib

    build = _build_module()
    cur = tomllib.loads((ROOT / "lexicon_build" / "offensive" / "curation.toml").read_text("utf-8"))[lang]
    word_list = build.read_words(build.WORD_LISTS[lang])
    listed = OffensiveWords.default(lang).words
    assert build.inconsistencies(lang, cur, ws.get_alphabet(lang), listed, word_list) == []


def test_the_forms_check_finds_a_missing_stem():
    build = _build_module()
    cur = {"suffixes": ["ed", "ing"], "not_forms": [], "not_stems": []}
    words = {"JEW", "JEWED", "JEWING", "JEWS"}
    assert build.inconsistencies("en", cur, ws.get_alphabet("en"), {"JEWED", "JEWING"}, words) == [
        "en: JEW (of JEWED = JEW + ED) is a word of the list but not listed",
        "en: JEW (of JEWING = JEW + ING) is a word of the list but not listed"]


def test_jew_is_listed_with_its_forms_and_the_levels_do_not_play_it(rules):
    en = OffensiveWords.default("en")
    assert {"JEW", "JEWS", "JEWED", "JEWING", "BOLLOCK"} <= en.words
    game = ws.Game(rules, seed=2)
    game.set_rack(0, "JEWXKVQ")  # its words: EWK EX JEW KEX VEX WE, JEW the best
    assert game.best_move().word == "JEW"
    clean = game.best_move(avoid_offensive=True)
    assert clean is not None and clean.word != "JEW"
    for level in LEVELS:
        action = Bot(level, rules, seed=1).choose(game)
        move = getattr(action, "move", None)
        assert move is None or not en.forms(move), (level, move)

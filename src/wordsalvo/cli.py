"""The ``wordsalvo`` command line.

Each subcommand lives in a module of :mod:`wordsalvo.commands` that exposes
``register(subparsers)``; the module registers its parser and sets ``func``
(a callable taking the parsed arguments and returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .printable import printable
from .errors import WordSalvoError

#: subcommand modules, in the order ``--help`` lists them
COMMAND_MODULES = ("best", "moves", "validate", "lexicon", "board", "play", "analyze", "sim", "endgame", "peg", "autoplay", "leaves",
                   "winprob", "ratings", "serve")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the command ``only`` alone (a command's start
    then imports that command's module and what it needs, not every other one's)."""
    parser = argparse.ArgumentParser(
        prog="wordsalvo",
        description="Move generation, validation and games for crossword-style tile games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES if only is None else (only,):
        try:
            mod = importlib.import_module(f"wordsalvo.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"wordsalvo.commands.{name}":
                continue  # not written yet
            raise
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(given[0] if given and given[0] in COMMAND_MODULES else None)
    args = parser.parse_args(given)
    try:
        return int(args.func(args) or 0)
    except WordSalvoError as e:
        print(f"wordsalvo {args.command}: error: {printable(e, keep_newlines=True)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `wordsalvo moves ... | head`
        try:
            sys.stdout.close()
        except Exception:  # noqa: BLE001
            pass
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

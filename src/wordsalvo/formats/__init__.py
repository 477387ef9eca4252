"""Game records and positions as text: GCG (one reader, :func:`read_gcg`, with visitors and
builders), CGP, and the replay of a record on a board.

The public names below are imported from their modules on first use (PEP 562)::

    from wordsalvo.formats import read_gcg, GCGVisitor, GameBuilder, ReplayBuilder, HeaderBuilder
"""

from __future__ import annotations

import importlib

#: public name -> the module of this package that defines it
_EXPORTS = {
    # the one GCG reader and its visitors
    "read_gcg": "gcg_visitor", "read_header": "gcg_visitor", "record_bytes": "gcg_visitor",
    "GCGVisitor": "gcg_visitor", "GCGTurn": "gcg_visitor", "SKIP": "gcg_visitor",
    "HeaderBuilder": "gcg_visitor", "RecordBuilder": "gcg_visitor",
    "GameBuilder": "gcg", "ReplayBuilder": "replay", "RatedGameBuilder": "results",
    # what they read and make
    "parse_gcg": "gcg_record", "GCGRecord": "gcg_record", "GCGHeader": "gcg_record", "GCGEvent": "gcg_record",
    "GCGPlayer": "gcg_record", "GCGPragma": "gcg_record", "GCGError": "gcg_record",
    "from_gcg": "gcg", "to_gcg": "gcg", "game_record": "gcg", "date_pragmas": "gcg",
    "Replay": "replay", "ReplayTurn": "replay", "replay": "replay", "read_game": "replay",
    "parse_cgp": "cgp", "format_cgp": "cgp",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wordsalvo.formats' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

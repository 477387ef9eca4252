"""Game records and positions as text: GCG (one reader, :func:`read_gcg`, with visitors and
builders), CGP, and the replay of a record on a board.

The public names below are imported from their modules on first use (PEP 562)::

    from wordsalvo.formats import read_gcg, GCGVisitor, GameBuilder, ReplayBuilder, HeaderBuilder
"""

from __future__ import annotations

from .._lazy import lazy_names

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


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS, __all__)

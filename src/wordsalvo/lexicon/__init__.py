"""Lexicons: compiled word graphs (``lexicon.py``: load, ``word in lexicon``, compile), the
graph file format and the compiler's orchestration (``graphfile.py``), German and Turkish
lists built on the user's machine from a Hunspell dictionary (``fetch.py``, ``hunspell.py``)."""

from .lexicon import BUILT_ON_DEMAND, BuildStats, Lexicon, compile_lexicon

__all__ = ["Lexicon", "compile_lexicon", "BuildStats", "BUILT_ON_DEMAND"]

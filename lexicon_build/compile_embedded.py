"""Compiles the embedded lexicons (every manifest.toml with ``embed = true``).

Run by the package build (setup.py) right after the extensions are built:

    python lexicon_build/compile_embedded.py GRAPH_EXTENSION OUT_DIR

It loads the freshly built graph extension, ``alphabet.py`` and ``lexicon/graphfile.py``
(with ``constants.py``, ``errors.py`` and ``inputs.py``, which they import) by path (the package is not installed yet), compiles each list into
OUT_DIR/<output> and copies its licence notice next to it as <name>-NOTICE.txt.
A graph newer than its source, manifest and compiler is kept.

Then, for every manifest with ``levels = true``, the vocabularies of the weaker
engine levels (``lexicon/vocabulary.py``, loaded the same way) from the lexicon's
list and the language's frequency-ranked list into OUT_DIR/levels/<key>.wsg, so that
no start of the game builds them; vocabularies of older keys there are removed.
Every graph compiled here is loaded once with the full check (every arc, the
checksums and the word level): the package then loads its own graphs with the arc
and checksum checks alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look the module up while it runs
    spec.loader.exec_module(mod)
    return mod


def _build_package():
    """Stand-in packages over src/wordsalvo and src/wordsalvo/lexicon, so ``alphabet.py`` and
    ``lexicon/graphfile.py`` load with their relative imports (constants, errors, inputs,
    wording) and nothing else of the package (the real ``__init__`` files import the core)."""
    pkg = types.ModuleType("_wordsalvo_build")
    pkg.__path__ = [str(ROOT / "src" / "wordsalvo")]
    sys.modules[pkg.__name__] = pkg
    # the lexicon sub-package without its __init__ (which loads the whole Lexicon)
    sub = types.ModuleType("_wordsalvo_build.lexicon")
    sub.__path__ = [str(ROOT / "src" / "wordsalvo" / "lexicon")]
    sys.modules[sub.__name__] = sub
    return pkg


def compile_embedded(graph_so: Path, out_dir: Path) -> None:
    graph_mod = _load("_graph", graph_so)  # the init symbol is PyInit__graph
    _build_package()
    alphabet_mod = importlib.import_module("_wordsalvo_build.alphabet")
    graphfile = importlib.import_module("_wordsalvo_build.lexicon.graphfile")
    out_dir.mkdir(parents=True, exist_ok=True)
    keep: set[str] = set()
    for manifest in sorted((ROOT / "lexicon_build").glob("*/manifest.toml")):
        spec = tomllib.loads(manifest.read_text("utf-8"))
        if not spec.get("embed"):
            continue
        source = manifest.parent / spec["source"]
        dest = out_dir / spec["output"]
        if spec.get("notice"):
            notice = (manifest.parent / spec["notice"]).read_bytes()
            (out_dir / (Path(spec["output"]).stem + "-NOTICE.txt")).write_bytes(notice)
        newest_input = max(source.stat().st_mtime, manifest.stat().st_mtime, graph_so.stat().st_mtime)
        if not (dest.exists() and dest.stat().st_mtime >= newest_input):
            stats = graphfile.compile_file(source, dest, alphabet_mod.get_alphabet(spec["alphabet"]), graph_mod)
            expected = spec.get("word_count")
            if expected is not None and stats.words != expected:
                raise SystemExit(f"{manifest}: expected {expected} words, the build gave {stats.words}; "
                                 "update the manifest")
            print(f"compiled lexicon {dest.name}: {stats.words} words, {stats.file_size} bytes, {stats.seconds:.2f} s")
        check_words(dest, graph_mod, graphfile)
        if spec.get("levels"):
            keep |= compile_vocabularies(source, dest, alphabet_mod.get_alphabet(spec["alphabet"]), graph_mod,
                                         graphfile, out_dir / "levels")
    for old in (out_dir / "levels").glob("*.wsg"):
        if old.name not in keep:
            old.unlink()


def check_words(path: Path, graph_mod, graphfile) -> None:
    """The full load check of a graph (every arc, the checksums and the word level), once,
    here: the package loads its own graphs without the word level (Lexicon._load)."""
    data = path.read_bytes()
    header = graphfile.unpack_header(data[: graphfile.HEADER_SIZE], len(data))
    view = memoryview(data)[graphfile.HEADER_SIZE:].cast("I")
    g = graph_mod.Graph(data, view, header.alphabet_size, name=str(path), offset=graphfile.HEADER_SIZE,
                        checksums=(header.node_sum, header.node_weighted_sum))
    if (g.word_count, g.longest_word) != (header.word_count, header.longest_word):
        raise SystemExit(f"{path}: the header promises {header.word_count} words of at most {header.longest_word} "
                         f"letters, the graph holds {g.word_count} of at most {g.longest_word}")


def compile_vocabularies(source: Path, graph: Path, alphabet, graph_mod, graphfile, out: Path) -> set[str]:
    """The level vocabularies of one embedded lexicon (see the module docstring); returns
    the names of their files."""
    vocabulary = importlib.import_module("_wordsalvo_build.lexicon.vocabulary")
    data = graph.read_bytes()
    lexicon_sha = graphfile.unpack_header(data[: graphfile.HEADER_SIZE], len(data)).sha256
    lang = alphabet.name
    ranked_path = ROOT / "src" / "wordsalvo" / "data" / "levels" / f"{lang}.txt.gz"
    ranked, ranked_sha = vocabulary.ranked_list(ranked_path) if ranked_path.is_file() else (None, None)
    words = None
    names = set()
    out.mkdir(parents=True, exist_ok=True)
    for level in vocabulary.VOCABULARIES:
        name = vocabulary.vocabulary_key(lexicon_sha, level, lang, ranked_sha) + ".wsg"
        names.add(name)
        dest = out / name
        if dest.exists():
            check_words(dest, graph_mod, graphfile)
            continue  # the key names every input: an existing file is up to date
        if words is None:
            words = set(graphfile.read_source(source).decode("utf-8").split())
        chosen = vocabulary.vocabulary_words(level, lang, words.__contains__, lambda: iter(words), ranked)
        if chosen is None:
            continue
        blob, stats = graphfile.compile_bytes(("\n".join(chosen) + "\n").encode("utf-8"), alphabet, graph_mod,
                                              source=f"{lang} {level} vocabulary", output=str(dest))
        graphfile.write_atomic(dest, blob)
        check_words(dest, graph_mod, graphfile)
        print(f"compiled the {level} vocabulary of {graph.name}: {stats.words} words, {len(blob)} bytes")
    return names


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    compile_embedded(Path(sys.argv[1]), Path(sys.argv[2]))

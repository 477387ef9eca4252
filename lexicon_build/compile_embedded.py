"""Compiles the embedded lexicons (every manifest.toml with ``embed = true``).

Run by the package build (setup.py) right after the extensions are built:

    python lexicon_build/compile_embedded.py GRAPH_EXTENSION OUT_DIR

It loads the freshly built graph extension, ``alphabet.py`` and ``lexicon/graphfile.py``
(with ``constants.py``, ``errors.py`` and ``inputs.py``, which they import) by path (the package is not installed yet), compiles each list into
OUT_DIR/<output> and copies its licence notice next to it as <name>-NOTICE.txt.
A graph newer than its source, manifest and compiler is kept.
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
        if dest.exists() and dest.stat().st_mtime >= newest_input:
            continue
        stats = graphfile.compile_file(source, dest, alphabet_mod.get_alphabet(spec["alphabet"]), graph_mod)
        expected = spec.get("word_count")
        if expected is not None and stats.words != expected:
            raise SystemExit(f"{manifest}: expected {expected} words, the build gave {stats.words}; update the manifest")
        print(f"compiled lexicon {dest.name}: {stats.words} words, {stats.file_size} bytes, {stats.seconds:.2f} s")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    compile_embedded(Path(sys.argv[1]), Path(sys.argv[2]))

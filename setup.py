"""Extensions and build switches only; all metadata lives in pyproject.toml.

Switches (environment variables):
  WORDSALVO_DEBUG=1   -O0 -g, Cython bounds checks, -fsanitize=address,undefined
                      (run the tests with the ASan runtime preloaded, see README)
  WORDSALVO_NATIVE=1  -march=native (local benchmarks only: such a build dies with
                      SIGILL on older CPUs, so wheels never use it)

After the extensions are built, the embedded lexicons (lexicon_build/*/manifest.toml
with ``embed = true``) are compiled with the freshly built compiler into
wordsalvo/data/.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
DEBUG = os.environ.get("WORDSALVO_DEBUG", "") not in ("", "0")
NATIVE = os.environ.get("WORDSALVO_NATIVE", "") not in ("", "0")

if DEBUG:
    cflags = ["-O0", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
    ldflags = ["-fsanitize=address,undefined"]
else:
    cflags = ["-O3", "-fno-plt"]
    ldflags = []
if NATIVE:
    cflags.append("-march=native")
cflags += ["-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-unused-function"]

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}


def ext(name: str, pyx: str, csources: list[str]) -> Extension:
    return Extension(
        name,
        sources=[pyx] + [f"csrc/{c}" for c in csources],
        include_dirs=["csrc"],
        extra_compile_args=cflags,
        extra_link_args=ldflags,
        define_macros=[] if DEBUG else [("NDEBUG", "1")],
    )


extensions = [
    ext("wordsalvo._core._graph", "src/wordsalvo/_core/_graph.pyx", ["ws_graph.c", "ws_build.c"]),
    ext("wordsalvo._core._movegen", "src/wordsalvo/_core/_movegen.pyx", ["ws_graph.c", "ws_movegen.c"]),
]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


class BuildExtWithLexicons(build_ext):
    """build_ext, then compile the embedded lexicons with the compiler just built."""

    def run(self) -> None:
        super().run()
        graph_so = Path(self.get_ext_fullpath("wordsalvo._core._graph"))
        if getattr(self, "editable_mode", False) or self.inplace:
            out_dir = ROOT / "src" / "wordsalvo" / "data"
        else:
            out_dir = Path(self.build_lib) / "wordsalvo" / "data"
        graph_mod = _load("_graph", graph_so)  # the init symbol is PyInit__graph
        alphabet_mod = _load("_wordsalvo_build_alphabet", ROOT / "src" / "wordsalvo" / "alphabet.py")
        graphfile = _load("_wordsalvo_build_graphfile", ROOT / "src" / "wordsalvo" / "graphfile.py")
        for manifest in sorted((ROOT / "lexicon_build").glob("*/manifest.toml")):
            spec = tomllib.loads(manifest.read_text("utf-8"))
            if not spec.get("embed"):
                continue
            source = manifest.parent / spec["source"]
            dest = out_dir / spec["output"]
            if spec.get("notice"):
                # the licence notice travels with the graph built from the list
                out_dir.mkdir(parents=True, exist_ok=True)
                notice = (manifest.parent / spec["notice"]).read_bytes()
                (out_dir / (Path(spec["output"]).stem + "-NOTICE.txt")).write_bytes(notice)
            if dest.exists() and dest.stat().st_mtime >= max(source.stat().st_mtime, manifest.stat().st_mtime, graph_so.stat().st_mtime):
                continue
            stats = graphfile.compile_file(source, dest, alphabet_mod.get_alphabet(spec["alphabet"]), graph_mod)
            expected = spec.get("word_count")
            if expected is not None and stats.words != expected:
                raise SystemExit(
                    f"{manifest}: expected {expected} words, the build gave {stats.words}; update the manifest"
                )
            print(f"compiled lexicon {dest.name}: {stats.words} words, {stats.file_size} bytes, {stats.seconds:.2f} s")


setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False),
    cmdclass={"build_ext": BuildExtWithLexicons},
)

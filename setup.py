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

import os
import subprocess
import sys
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


def ext(name: str, pyx: str, csources: list[str], threads: bool = False) -> Extension:
    """``threads``: the C code starts POSIX threads (the simulator)."""
    pthread = ["-pthread"] if threads and os.name != "nt" else []
    return Extension(
        name,
        sources=[pyx] + [f"csrc/{c}" for c in csources],
        include_dirs=["csrc"],
        extra_compile_args=cflags + pthread,
        extra_link_args=ldflags + pthread,
        define_macros=[] if DEBUG else [("NDEBUG", "1")],
    )


extensions = [
    ext("wordsalvo._core._graph", "src/wordsalvo/_core/_graph.pyx", ["ws_graph.c", "ws_build.c", "ws_mem.c"]),
    ext("wordsalvo._core._engine", "src/wordsalvo/_core/_engine.pyx",
        ["ws_graph.c", "ws_leaves.c", "ws_movegen.c", "ws_wordmap.c", "ws_rng.c", "ws_game.c", "ws_action.c",
         "ws_rated.c", "ws_selfplay.c", "ws_sim.c", "ws_endgame.c", "ws_infer.c", "ws_mem.c"],
        threads=True),
    ext("wordsalvo._core._leaves", "src/wordsalvo/_core/_leaves.pyx", ["ws_leaves.c"]),
]


class BuildExtWithLexicons(build_ext):
    """build_ext, then compile the embedded lexicons with the compiler just built."""

    def run(self) -> None:
        super().run()
        graph_so = Path(self.get_ext_fullpath("wordsalvo._core._graph")).resolve()
        if getattr(self, "editable_mode", False) or self.inplace:
            out_dir = ROOT / "src" / "wordsalvo" / "data"
        else:
            out_dir = Path(self.build_lib).resolve() / "wordsalvo" / "data"
        script = ROOT / "lexicon_build" / "compile_embedded.py"
        env = dict(os.environ)
        if DEBUG:
            # a sanitizer build can only be loaded with the ASan runtime first in line
            libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
            env["LD_PRELOAD"] = libasan
            env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
        subprocess.run([sys.executable, str(script), str(graph_so), str(out_dir)], check=True, env=env)


setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False),
    cmdclass={"build_ext": BuildExtWithLexicons},
)

"""The package's imports run one way: no module imports, at any depth (lazy imports
and ``TYPE_CHECKING`` blocks included), a module that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import wordsalvo

PACKAGE = Path(wordsalvo.__file__).resolve().parent
NAME = "wordsalvo"


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the package modules it imports anywhere in its source (the package root excluded)."""
    modules = _modules(root)
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, is_package, node.level, node.module)
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target not in (module, NAME) and target.startswith(NAME + "."):
                    edges[module].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_walk_finds_a_cycle_when_there_is_one(tmp_path):
    pkg = tmp_path / NAME
    (pkg / "formats").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import A\n")
    (pkg / "a.py").write_text("A = 1\ndef f():\n    from .formats import b\n")
    (pkg / "formats" / "__init__.py").write_text("")
    (pkg / "formats" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n")
    (pkg / "c.py").write_text("import wordsalvo.a\n")
    edges = import_graph(pkg)
    assert edges[f"{NAME}.a"] == {f"{NAME}.formats", f"{NAME}.formats.b"}
    assert cycles(edges) == [[f"{NAME}.a", f"{NAME}.c", f"{NAME}.formats.b"]]


def test_no_import_cycle_in_the_package():
    found = cycles(import_graph(PACKAGE))
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("layer", ["formats", "commands", "render", "tui", "serve"])
def test_the_core_never_imports_the_layers_above_it(layer):
    """formats/, commands/, render/, tui/ (the terminal game) and serve/ (the HTTP service)
    import the core; the core
    imports none of them (the package's ``__init__``, the public facade, ``analysis``, which reads GCG
    text, ``autoplay``, which writes the games it plays as GCG, and the report page, which
    draws a record's board from its rule set, seed and star squares through formats'
    ``resolve_rules``, may import formats: they sit above the core; the commands, the
    terminal game and the service use every layer)."""
    edges = import_graph(PACKAGE)
    above = f"{NAME}.{layer}"
    allowed_users = {NAME, f"{NAME}.analysis", f"{NAME}.engine.autoplay", f"{NAME}.cli"} | (
        {f"{NAME}.render.report"} if layer == "formats" else set()) | {
        m for m in edges if m.startswith((f"{NAME}.commands", f"{NAME}.tui", f"{NAME}.serve"))}
    offenders = sorted(
        m for m, targets in edges.items()
        if not m.startswith(above) and m not in allowed_users
        and any(t == above or t.startswith(above + ".") for t in targets)
    )
    assert not offenders, f"modules below {layer}/ that import it: {offenders}"


def test_the_terminal_game_never_imports_the_commands():
    """tui/ is the session under ``wordsalvo play``: the command imports it, never the reverse."""
    edges = import_graph(PACKAGE)
    offenders = sorted(m for m, targets in edges.items() if m.startswith(f"{NAME}.tui")
                       and any(t.startswith(f"{NAME}.commands") for t in targets))
    assert not offenders, f"tui/ modules that import commands/: {offenders}"

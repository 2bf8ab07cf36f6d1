"""No two modules of ``engine/`` and ``bot/`` import each other, directly or through others.

The graph is read from the source with :mod:`ast`, not by importing it: an import inside a function (the
usual way a cycle is hidden) counts as much as one at the top, and so does one under ``TYPE_CHECKING``
(a cycle of types is still two modules that need each other). Relative imports are resolved against the
importing module's package; ``from pkg import name`` is an import of ``pkg.name`` when that is a module of
the tree, of ``pkg`` otherwise. Importing ``a.b.c`` is an edge to ``a.b.c`` only (Python also runs the
packages ``a`` and ``a.b`` first, but a package's ``__init__`` re-exporting its parts is not a cycle).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREES = ("engine", "bot")

ALLOWED_CYCLES: frozenset[frozenset[str]] = frozenset(
    {
        # removed when the race package is split (issue 22)
        frozenset(
            {
                "bot.exts.race._components",
                "bot.exts.race._flow",
                "bot.exts.race._lobby",
                "bot.exts.race._panel",
            }
        ),
    }
)
"""Rings of modules known to import each other, each named exactly (a ring that grows or shrinks fails)."""


def module_names(root: Path, trees: Iterable[str]) -> dict[str, Path]:
    """Every module of the trees by its dotted name (a package by its own name, from its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for tree in trees:
        for path in sorted((root / tree).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name a (possibly relative) ``from`` import names, seen from ``module``."""
    if level == 0:
        return target or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imports_of(module: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that ``module`` imports anywhere in its source (functions included)."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                if sub in known:
                    found.add(sub)
                elif base in known:
                    found.add(base)
    found.discard(module)
    return found


def import_graph(root: Path, trees: Iterable[str]) -> dict[str, set[str]]:
    """Each module of the trees and the modules of the trees it imports."""
    known = module_names(root, trees)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def rings(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def a_cycle(graph: Mapping[str, set[str]], ring: frozenset[str]) -> list[str]:
    """One shortest cycle through the ring's first module, as a path that ends where it starts."""
    start = min(ring)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node] & ring):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    raise AssertionError(f"{sorted(ring)} is not a ring")


def describe(graph: Mapping[str, set[str]], found: Iterable[frozenset[str]]) -> str:
    """Each ring as one of its cycles (``a -> b -> a``) and its members."""
    return "\n".join(
        f"{' -> '.join(a_cycle(graph, ring))}   (ring of {len(ring)}: {', '.join(sorted(ring))})"
        for ring in sorted(found, key=sorted)
    )


def test_no_two_modules_of_the_engine_or_the_bot_import_each_other() -> None:
    """Every import ring of engine/ and bot/ is one the allow-list names exactly; each is printed if not."""
    graph = import_graph(ROOT, TREES)
    found = set(rings(graph))
    unexpected = found - ALLOWED_CYCLES
    assert not unexpected, "modules that import each other:\n" + describe(graph, unexpected)
    gone = ALLOWED_CYCLES - found
    assert not gone, f"allowed rings that no longer exist (empty them from ALLOWED_CYCLES): {sorted(map(sorted, gone))}"


def test_the_walk_reads_every_module_of_both_trees() -> None:
    """The walk sees the engine's driver, a rule system, the services and the cogs (a walk that read nothing
    would find no cycle)."""
    graph = import_graph(ROOT, TREES)
    assert {"engine.race", "engine.flamme_rouge", "bot.services.lobby", "bot.exts.race._cog"} <= graph.keys()
    assert "engine.registry" in graph["engine.race"]
    assert len(graph) > 150 and sum(map(len, graph.values())) > 300


def _tree(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            {"pkg/__init__.py": "", "pkg/a.py": "import pkg.b\n", "pkg/b.py": "from pkg import a\n"},
            [["pkg.a", "pkg.b", "pkg.a"]],
            id="plain-and-from-module",
        ),
        pytest.param(
            {
                "pkg/__init__.py": "",
                "pkg/sub/__init__.py": "",
                "pkg/sub/a.py": "from ..c import thing\n",
                "pkg/c.py": "def f():\n    from .sub.a import other\n    return other\nthing = 1\n",
            },
            [["pkg.c", "pkg.sub.a", "pkg.c"]],
            id="relative-and-inside-a-function",
        ),
        pytest.param(
            {
                "pkg/__init__.py": "from . import a\n",
                "pkg/a.py": "from pkg import helper\n",
                "pkg/helper.py": "X = 1\n",
                "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import D\n",
                "pkg/d.py": "from pkg.e import E\n",
                "pkg/e.py": "import pkg.b\nE = 1\n",
            },
            [["pkg.b", "pkg.d", "pkg.e", "pkg.b"]],
            id="a-ring-of-three-through-type-checking",
        ),
        pytest.param(
            {"pkg/__init__.py": "X = 1\n", "pkg/a.py": "from pkg import X\n", "pkg/b.py": "from . import a\n"},
            [],
            id="a-package-and-its-modules-are-no-ring",
        ),
    ],
)
def test_the_walk_finds_rings_however_the_import_is_written(
    tmp_path: Path, files: dict[str, str], expected: list[list[str]]
) -> None:
    """A ring written with plain, ``from`` or relative imports, in a function or under TYPE_CHECKING, is found
    and printed as a cycle; a package re-exporting its parts is not a ring."""
    _tree(tmp_path, files)
    graph = import_graph(tmp_path, ["pkg"])
    assert [a_cycle(graph, ring) for ring in rings(graph)] == expected

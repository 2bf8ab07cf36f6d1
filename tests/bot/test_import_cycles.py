"""No two modules import each other, directly or through others: the import graph of ``engine/`` and
``bot/`` read with ``ast`` (every import counts, those inside functions and ``TYPE_CHECKING`` too)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot

ROOT = Path(bot.__file__).resolve().parents[1]
CHECKED = ("bot.exts.race", "bot.services.owed", "bot.services.dispatch", "bot.store.outbox", "bot.store.ledger")
"""Where no cycle may be (the race's Discord layer and the outbox). The lead widens this to every module
once the other branches' cycles (permissions/server_settings, tables/league_tables, engine race/record/
registry) are broken."""


def modules() -> dict[str, Path]:
    found = {}
    for top in ("bot", "engine"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports (``from pkg import mod`` is an import of ``pkg.mod``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in known:
                    found.add(target)
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_graph_sees_a_cycle_when_there_is_one() -> None:
    """The check itself: two modules importing each other through a third are found."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_race_discord_layer_and_the_outbox_import_no_cycle() -> None:
    """No module of the race's Discord layer or of the outbox is part of an import cycle."""
    found = [c for c in cycles(graph()) if any(m == p or m.startswith(p + ".") for m in c for p in CHECKED)]
    assert found == []


def test_the_race_package_is_read() -> None:
    """The graph holds the race's modules and their imports (an empty graph would prove nothing)."""
    edges = graph()
    assert "bot.exts.race._panel" in edges["bot.exts.race._delivery"]
    assert "bot.exts.race._delivery" in edges["bot.exts.race._intake"]

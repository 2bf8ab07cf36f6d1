"""The Wyścig package stands on the engine's interface alone: it never reaches for the race record."""

from __future__ import annotations

import ast
from pathlib import Path

import engine.wyscig

PACKAGE = Path(engine.wyscig.__file__).parent


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_no_module_of_the_rules_imports_the_record() -> None:
    """The rules check their own stage, options and setup without the record module (or the registry)."""
    for path in sorted(PACKAGE.glob("*.py")):
        found = {n for n in _imported(path) if n in {"engine.record", "engine.registry", "engine.race"}}
        assert not found, f"{path.name} imports {sorted(found)}"


def test_the_ruleset_is_a_thin_adapter() -> None:
    """ruleset.py only delegates: every method body is a single statement (a docstring aside)."""
    tree = ast.parse((PACKAGE / "ruleset.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "WyscigRuleset")
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            assert len(body) <= 2, f"{node.name} holds rules ({len(body)} statements)"

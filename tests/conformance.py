"""Helpers for the rules conformance suites: every D-number and worked example must be named by a test.

A conformance test names what it checks with the ``rules`` marker::

    @pytest.mark.rules("D14", "6.1", "example:X2")
    def test_minimum_speed_applies_before_the_ascent_cap() -> None: ...

Each rule system's suite has a completeness test that compares the D-numbers found in its rules
page (``docs/rules/<page>.md``) and its list of worked examples with the markers of its tests.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "docs" / "rules"

_MARKER = re.compile(r"mark\.rules\(([^)]*)\)", re.S)
_STRING = re.compile(r"""["']([^"']+)["']""")
_DECISION_ROW = re.compile(r"^\|\s*(D\d+)\s*\|", re.M)


def rules_document(name: str) -> str:
    """The text of ``docs/rules/<name>``, the project's own rules reference (its clone needs nothing beside it)."""
    return (RULES_DIR / name).read_text(encoding="utf-8")


def decisions_in(document: str) -> set[str]:
    """The D-numbers of a rules page's "Decisions at a glance" table."""
    return set(_DECISION_ROW.findall(document))


def markers_in(test_dir: Path) -> set[str]:
    """Every name given to a ``pytest.mark.rules(...)`` marker in the test files under ``test_dir``."""
    found: set[str] = set()
    for path in test_dir.rglob("test_*.py"):
        for args in _MARKER.findall(path.read_text(encoding="utf-8")):
            found.update(_STRING.findall(args))
    return found

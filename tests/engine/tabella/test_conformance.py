"""Completeness: every decision, worked example and ruling of the Tabella has a test that names it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conformance import ROOT, decisions_in, markers_in, rules_document

HERE = Path(__file__).parent
DOCUMENT = "tabella-del-destino.md"
WORKED_EXAMPLES = {f"example:{x}" for x in ("10.1", "10.2", "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8")}


def test_every_decision_of_the_rules_document_has_a_named_test() -> None:
    """D1-D31 all appear in a ``rules`` marker."""
    decisions = decisions_in(rules_document(DOCUMENT))
    assert len(decisions) == 31
    assert decisions - markers_in(HERE) == set()


def test_every_worked_example_has_a_named_test() -> None:
    """§10.1 and E1-E8 of §10.2 all appear in a ``rules`` marker."""
    text = rules_document(DOCUMENT)
    found = {f"example:{m}" for m in re.findall(r"\*\*(E\d+)[ .]", text)}
    assert found == WORKED_EXAMPLES - {"example:10.1", "example:10.2"}
    assert WORKED_EXAMPLES - markers_in(HERE) == set()


def test_every_tabella_ruling_has_a_named_test() -> None:
    """Each R-TDD-n of docs/rulings.md's Tabella section is tested."""
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = rulings.split("## Tabella del Destino", 1)[1].split("\n## ", 1)[0]
    ids = set(re.findall(r"\bR-TDD-\d+\b", section))
    assert ids, "the Tabella section lists its rulings"
    assert ids - markers_in(HERE) == set()


def test_every_rules_section_has_a_named_test() -> None:
    """§3 to §8: each numbered rules section is named by at least one test (§9 lists state, not rules)."""
    text = rules_document(DOCUMENT)
    sections = set(re.findall(r"^###? (\d+(?:\.\d+)?)\.? ", text, re.M)) - {"1", "2", "9", "10", "10.1", "10.2"}
    sections -= {s for s in sections if "." not in s and any(t.startswith(s + ".") for t in sections)}
    assert {"3", "5.3", "6.10", "8.3"} <= sections
    assert sections - markers_in(HERE) == set()

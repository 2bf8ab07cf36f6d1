"""Completeness: every decision, worked example and ruling of Mind Cycling is named by a test."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conformance import ROOT, decisions_in, markers_in, rules_document

HERE = Path(__file__).parent

WORKED_EXAMPLES = {
    # §11.1, from the seed
    "example:solo-scoring",
    "example:team-points",
    "example:movement-caps",
    # §11.2, constructed
    "example:fatigued-domestique",
    "example:wheel-and-relay",
    "example:bottle-pass",
}


def test_every_decision_and_worked_example_of_the_rules_has_a_named_test() -> None:
    """D1-D25 and the six worked examples each appear in a rules marker."""
    document = rules_document("mind-cycling.md")
    decisions = decisions_in(document)
    assert len(decisions) == 25
    assert document.count("**") > 0 and "11.2 Constructed examples" in document
    missing = (decisions | WORKED_EXAMPLES) - markers_in(HERE)
    assert not missing, f"no conformance test names: {sorted(missing)}"


def test_every_mind_cycling_ruling_has_a_test() -> None:
    """Each R-MC id in docs/rulings.md (our section) is named by a marker, and every marker id is written down."""
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = rulings.split("## Mind Cycling", 1)[1].split("\n## ", 1)[0]
    written = set(re.findall(r"\bR-MC-\d+\b", section))
    named = {m for m in markers_in(HERE) if m.startswith("R-MC-")}
    assert written, "no Mind Cycling ruling found"
    assert written == named

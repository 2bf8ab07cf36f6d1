"""Every decision D1-D27 and every worked example of flamme-rouge.md is named by a conformance test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conformance import ROOT, decisions_in, markers_in, rules_document

HERE = Path(__file__).parent

WORKED_EXAMPLES = {
    # 11.1 Dized examples
    "example:dized-movement",
    "example:dized-slipstream",
    "example:dized-exhaustion",
    "example:dized-ascent",
    "example:dized-cap",
    # 11.2 seed examples
    "example:seed-breakaway",
    "example:seed-attack",
    # 11.4 constructed examples
    "example:X1",
    "example:X2",
    "example:X3",
    "example:X4",
    "example:X5",
}
EXCLUDED = {
    "11.3": "the designer's Grand Tour time track; D11 makes the Grand Tour documentation only, "
    "not a required rule, so there is no time track to test (D11 itself is tested: the option is refused)",
}


@pytest.mark.rules("D11")
def test_every_decision_and_worked_example_has_a_named_test() -> None:
    """The D-numbers of the document and the listed examples all appear in rules markers."""
    doc = rules_document("flamme-rouge.md")
    decisions = decisions_in(doc)
    assert decisions == {f"D{n}" for n in range(1, 28)}
    named = markers_in(HERE)
    assert decisions - named == set()
    assert WORKED_EXAMPLES - named == set()
    assert set(EXCLUDED) == {"11.3"}


def test_the_worked_example_list_matches_the_document() -> None:
    """11.1 has five Dized bullets, 11.2 two seed bullets, 11.4 X1-X5."""
    doc = rules_document("flamme-rouge.md")
    section = doc.split("## 11. Worked examples", 1)[1]
    dized = section.split("### 11.2", 1)[0]
    seed = section.split("### 11.2", 1)[1].split("### 11.3", 1)[0]
    constructed = section.split("### 11.4", 1)[1]
    assert len(re.findall(r"^- \*\*", dized, re.M)) == 5
    assert len(re.findall(r"^- ", seed, re.M)) == 2
    assert set(re.findall(r"\*\*(X\d)", constructed)) == {"X1", "X2", "X3", "X4", "X5"}


def test_every_flamme_rouge_ruling_has_a_test() -> None:
    """Each R-FR id of docs/rulings.md is named by a test marker."""
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = rulings.split("## Flamme Rouge", 1)[1].split("\n## ", 1)[0]
    ids = set(re.findall(r"\*\*(R-FR-\d+)\*\*", section))
    assert ids and ids - markers_in(HERE) == set()

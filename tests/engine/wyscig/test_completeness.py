"""Every decision, worked example and ruling of Wyścig kolarski is named by a conformance test."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conformance import ROOT, decisions_in, markers_in, rules_document
from tests.engine.wyscig.helpers import RULES_DOCUMENT

HERE = Path(__file__).parent

WORKED_EXAMPLES = {
    "example:10.1-leader-47",  # §10.1: the leader plays 47 (48 leads; 47-45 peloton; 42 -> 5, 40 -> 7)
    "example:10.1-give-back",  # §10.1: B holds 6, leader 41, B plays 47 -> gives back 6
    "example:10.1-descents",  # §10.1: 50 + 1 descent = 52; 50 + 3 descents = 56
    "example:10.1-stage-times",  # §10.1: leader 57, peloton 60, 11 minutes -> 71
    "example:10.2",  # §10.2: leader 45, a chip-free 42 -> 3 chips
    "example:10.3",  # §10.3: the constructed climb example, steps 1-6
}


def test_every_decision_worked_example_and_ruling_has_a_test() -> None:
    """D1-D22, the six worked examples and every R-WK ruling appear in a rules marker."""
    document = rules_document(RULES_DOCUMENT)
    decisions = decisions_in(document)
    assert decisions == {f"D{n}" for n in range(1, 23)}
    assert document.count("### 10.") == 3  # 10.1 (four seed examples), 10.2, 10.3
    rulings = set(re.findall(r"\*\*(R-WK-\d+)\*\*", (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")))
    assert rulings
    missing = (decisions | WORKED_EXAMPLES | rulings) - markers_in(HERE)
    assert not missing, f"no conformance test names {sorted(missing)}"

"""Every rule system's record documentation holds a complete example record that replays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.record import parse_record
from engine.registry import RULESET_IDS
from tests.logged import logged_replay

DOCS = Path(__file__).resolve().parents[2] / "docs" / "race-record"
_JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.S)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_documented_example_record_replays(ruleset_id: str) -> None:
    """The doc's example records (JSON blocks with a `format` key) parse and replay without error."""
    text = (DOCS / f"{ruleset_id}.md").read_text(encoding="utf-8")
    records = [block for block in _JSON_BLOCK.findall(text) if '"format"' in block]
    assert records, f"docs/race-record/{ruleset_id}.md has no example record"
    for block in records:
        record = parse_record(json.loads(block))
        assert record.ruleset == ruleset_id
        race = logged_replay(record)
        assert len(race.events) == len(record.steps)

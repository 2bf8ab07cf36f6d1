"""The example record of docs/race-record/tabella.md replays."""

from __future__ import annotations

import json
import re

from engine.record import parse_record
from engine.tabella import RULESET
from tests.conformance import ROOT
from tests.logged import logged_replay


def _example() -> str:
    text = (ROOT / "docs" / "race-record" / "tabella.md").read_text(encoding="utf-8")
    found = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert found, "the doc has a JSON example"
    return found.group(1)


def test_the_documented_record_replays_to_a_finished_race() -> None:
    """The example replays, finishes with all three riders, and replays identically a second time."""
    record = parse_record(_example())
    race = logged_replay(record)
    result = race.result()
    assert result.finished and not result.provisional
    assert sorted(s.entrant for s in result.standings) == ["anna", "bot1", "luca"]
    events = race.events[0]
    # by hand, from the rules: Anna's Aggressiva start gives R 28 V 7; Luca's 1R into C1 (6,1): R 29, V 7
    start = next(e for e in events if e.kind == "td.start" and e.data["rider"] == "anna")
    assert (start.data["r"], start.data["v"]) == (28, 7)
    move = next(e for e in events if e.kind == "td.move" and e.data["rider"] == "luca")
    assert (move.data["r"], move.data["v"]) == (29, 7)
    assert [e.kind for e in events][-1] == "td.gazzetta"
    again = logged_replay(parse_record(_example()))
    assert json.dumps(RULESET.dump(again.state)) == json.dumps(RULESET.dump(race.state))

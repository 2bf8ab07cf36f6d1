"""The example record of ``docs/race-record/wyscig.md`` replays, and ends as its text says."""

from __future__ import annotations

import re

from engine.record import parse_record
from tests.conformance import ROOT
from tests.logged import logged_replay

DOC = ROOT / "docs" / "race-record" / "wyscig.md"


def test_the_documented_example_record_replays_to_the_documented_times() -> None:
    """Anna keeps the yellow token (57), Carla 64, Bob 67; the race is over after its one stage."""
    block = re.search(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    race = logged_replay(parse_record(block.group(1)))
    result = race.result()
    assert result.finished
    assert [(s.entrant, s.place, s.figures["total_time"]) for s in result.standings] == [
        ("anna", 1, 57),
        ("carla", 2, 64),
        ("bob", 3, 67),
    ]
    blocked = [e.data["entrant"] for step in race.events for e in step if e.kind == "wk.blocked"]
    assert blocked == ["bob", "carla"]

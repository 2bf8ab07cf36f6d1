"""The example record of docs/race-record/flamme_rouge.md replays to the outcome the page describes."""

from __future__ import annotations

import json
import re

from engine.record import parse_record
from tests.conformance import ROOT
from tests.logged import logged_replay


def test_the_documented_example_record_replays_and_ben_wins() -> None:
    """Extract the last JSON block of the page, replay it: Ben's Sprinteur 2 past the line beats Anna's Rouleur."""
    page = (ROOT / "docs" / "race-record" / "flamme_rouge.md").read_text(encoding="utf-8")
    record = json.loads(re.findall(r"```json\n(.*?)```", page, re.S)[-1])
    race = logged_replay(parse_record(json.dumps(record)))
    result = race.result()
    assert result.finished
    assert [s.entrant for s in result.standings] == ["ben", "anna"]
    s = race.state
    assert (s.rider("blue-s").square, s.rider("blue-s").past) == (23, 2)
    assert (s.rider("black-r").square, s.rider("black-r").past) == (22, 1)
    assert (s.rider("blue-r").square, s.rider("black-s").square) == (17, 16)
    tired = [rid for e in race.events[0] if e.kind == "fr.exhaustion" for rid in e.data["riders"]]
    assert sorted(tired) == ["black-r", "black-s", "blue-r"]

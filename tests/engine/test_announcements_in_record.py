"""A record keeps what a finished race published (the Gazzetta) and when: replay applies it, so the record
of a finished race replays to the standings its players were shown."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.race import Race, replay
from engine.record import RecordError, parse_record

DOC = Path(__file__).resolve().parents[2] / "docs" / "race-record" / "tabella.md"


def _gazzetta_race(hit: bool = True) -> dict[str, Any]:
    """The documented plan-mode race, its Gazzetta due the next morning, its draw fixed."""
    text = DOC.read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"format"' in b)
    record: dict[str, Any] = json.loads(block)
    record.pop("announcements", None)
    record["options"]["gazzetta_delay"] = "next_morning"
    record["setup"] = {"gazzetta_hit": hit}
    return record


def test_without_its_announcement_a_finished_race_is_provisional() -> None:
    """The Gazzetta is due the next morning and the record does not say it came out: provisional."""
    race = replay(parse_record(_gazzetta_race()))
    assert race.result().finished and race.result().provisional


def test_a_published_gazzetta_replays_to_the_final_standings() -> None:
    """Anna (V@m3 bibitone) and the bot (bibitone, V@s2) drank reinforced bottles; the Gazzetta hits, so
    both are ranked last and Luca, who drank none, wins (§6.10)."""
    record = _gazzetta_race()
    record["announcements"] = [{"kind": "gazzetta", "after_step": 1}]
    seen: list[Any] = []
    race = replay(parse_record(record), on_publish=lambda a, events: seen.append((a.kind, events)))
    result = race.result()
    assert result.finished and not result.provisional
    assert result.standings[0].entrant == "luca"
    assert {s.entrant for s in result.standings[1:]} == {"anna", "bot1"}
    assert [(kind, [e.kind for e in events]) for kind, events in seen] == [("gazzetta", ["td.gazzetta"])]


def test_the_full_kind_is_accepted_too() -> None:
    """``td.gazzetta`` names the same announcement as ``gazzetta``."""
    record = _gazzetta_race(hit=False)
    record["announcements"] = [{"kind": "td.gazzetta", "after_step": 1}]
    assert not replay(parse_record(record)).result().provisional


def test_a_race_that_publishes_writes_it_in_its_record() -> None:
    """Played to the end and published, the race's record lists the Gazzetta after its last step, and that
    record replays to the same final standings."""
    start = _gazzetta_race()
    steps = start.pop("steps")
    race = Race.from_record_start(parse_record(start))
    played = [race.play_step(steps[0]).orders]
    race.publish()
    record = race.record(played)
    assert [a.model_dump() for a in record.announcements or []] == [{"kind": "gazzetta", "after_step": 1}]
    again = replay(parse_record(record.to_json()))
    assert again.result() == race.result()


def test_a_race_that_did_not_publish_writes_no_announcements() -> None:
    """Records of races without announcements are written exactly as before (no ``announcements`` key)."""
    start = _gazzetta_race()
    steps = start.pop("steps")
    race = Race.from_record_start(parse_record(start))
    played = [race.play_step(steps[0]).orders]
    assert "announcements" not in json.loads(race.record(played).to_json())


@pytest.mark.parametrize(
    ("announcements", "message"),
    [
        ([{"kind": "gazzetta", "after_step": 0}], r"announcements\.0: 'gazzetta' cannot be published after step 0"),
        ([{"kind": "weather", "after_step": 1}], r"only 'gazzetta' is pending"),
        ([{"kind": "gazzetta", "after_step": 2}], r"announcements\.0: published after step 2, but the record has 1"),
        (
            [{"kind": "gazzetta", "after_step": 1}, {"kind": "gazzetta", "after_step": 1}],
            r"announcements\.1: 'gazzetta' cannot be published after step 1: nothing is pending",
        ),
    ],
)
def test_an_announcement_that_was_not_due_is_refused(announcements: list[Any], message: str) -> None:
    """An announcement before the race ends, of another kind, past the record's steps or twice is refused."""
    record = copy.deepcopy(_gazzetta_race())
    record["announcements"] = announcements
    with pytest.raises(RecordError, match=message):
        replay(parse_record(record))

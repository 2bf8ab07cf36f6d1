"""Wyścig: a record's setup stacks the hands and pile of a later stage (``stage_deals``), so a multi-stage
situation is one record."""

from __future__ import annotations

from typing import Any

import pytest

from engine.record import RecordError
from tests.engine.wyscig.helpers import record, run

SECOND = {2: {"hands": {"p1": [44, 40], "p2": [46, "descent"]}, "pile": [41]}}


def _two_stages(deals: dict[int, Any], steps: list[tuple[str, str]]) -> dict[str, Any]:
    stage_one = [("p1", "play 47"), ("p2", "play 45")]
    return record({"p1": "47", "p2": "45"}, "", stage_one + steps, stages=2, stage_deals=deals)


@pytest.mark.rules("R-WK-6")
def test_a_stacked_second_stage_is_dealt_as_written() -> None:
    """Stage 1: P1 leads 47, P2 stays within 2 with 45; nobody has a card left, P1 wins (57, P2 60).
    Stage 2 deals the stacked hands; P1, still leading, draws the pile's 41 at his first turn."""
    race = run(_two_stages(SECOND, []))
    view = race.ruleset.private_view(race.state, "p1")
    assert view["stage_number"] == 2 and view["turn"] == "p1"
    assert sorted(view["hand"]["speeds"]) == [40, 41, 44]
    assert race.ruleset.private_view(race.state, "p2")["hand"] == {"speeds": [46], "descents": 1}


@pytest.mark.rules("R-WK-6")
def test_the_stacked_second_stage_plays_to_the_hand_worked_times() -> None:
    """P1 leads 40; P2's 46 takes the yellow token (chip-free, above L); P2 has only a descent left and is
    skipped; P1 plays 44 (46 - 2, tolerated), then 41 (5 below: 5 minutes). P2 wins the stage: 57, P1 65;
    totals P2 60 + 57 = 117, P1 57 + 65 = 122."""
    steps = [("p1", "play 40"), ("p2", "play 46"), ("p1", "play 44"), ("p1", "play 41")]
    race = run(_two_stages(SECOND, steps))
    ends = [e.data for step in race.events for e in step if e.kind == "wk.stage_end"]
    assert [(d["stage"], d["winner"], d["times"]) for d in ends] == [
        (1, "p1", {"p1": 57, "p2": 60}),
        (2, "p2", {"p1": 65, "p2": 57}),
    ]
    result = race.result()
    assert result.finished
    assert [(s.entrant, s.place) for s in result.standings] == [("p2", 1), ("p1", 2)]


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        ({1: {"pile": [41]}}, r"setup\.stage_deals\.1: the stages after the first one played are 2 to 2"),
        ({3: {"pile": [41]}}, r"setup\.stage_deals\.3: the stages after the first one played are 2 to 2"),
        ({2: {"hands": {"zoe": [41]}}}, r"setup\.stage_deals\.2\.hands names 'zoe', who is not an entrant"),
        ({2: {"hands": {"p1": [50] * 9}}}, r"setup\.stage_deals\.2\.hands hold more cards than the deck has: 50"),
    ],
)
def test_a_stacked_deal_that_cannot_be_is_refused(deals: dict[int, Any], message: str) -> None:
    """A deal for the first stage or past the last, a stranger's hand, nine 50s: each refused by name."""
    with pytest.raises(RecordError, match=message):
        run(_two_stages(deals, []))

"""Mind Cycling: a setup may put only part of the field on the road (``only_listed``, R-MC-10)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.messages import OrderError
from engine.race import replay
from engine.record import RecordError, parse_record

CYCLISTS = [
    {"entrant": "anna", "number": 1, "row": 0, "lane": 1},
    {"entrant": "anna", "number": 4, "row": 0, "lane": 2},
    {"entrant": "bob", "number": 2, "row": -1, "lane": 1},
]


def _record(cyclists: list[dict[str, Any]], only_listed: bool = True) -> dict[str, Any]:
    return {
        "format": "gregario.race/1",
        "ruleset": "mind_cycling",
        "seed": 0,
        "stage": "short",
        "options": {"mode": "orders"},
        "entrants": [{"id": "anna", "name": "Anna"}, {"id": "bob", "name": "Bob"}],
        "setup": {"cyclists": cyclists, "only_listed": only_listed},
    }


@pytest.mark.rules("R-MC-10")
def test_only_the_listed_cyclists_race() -> None:
    """Anna's #1 and #4 and Bob's #2 are the whole field: no placement turns, round 1 at once, and Anna's
    #2 is not hers to order."""
    race = replay(parse_record(_record(CYCLISTS)))
    assert sorted(race.state.cyclists) == ["anna#1", "anna#4", "bob#2"]
    assert {d.entrant: d.kind for d in race.awaited()} == {"anna": "intents", "bob": "intents"}
    with pytest.raises(OrderError, match="your cyclists on the road: #1, #4"):
        race.validate("anna", "#2 move")


@pytest.mark.rules("R-MC-1", "R-MC-10")
def test_without_only_listed_the_others_still_go_through_the_grid() -> None:
    """The same setup without the flag: the unlisted cyclists are placed by the usual placement turns."""
    race = replay(parse_record(_record(CYCLISTS, only_listed=False)))
    assert len(race.state.cyclists) == 10 and race.awaited()[0].kind == "place"


@pytest.mark.rules("R-MC-10")
def test_a_team_with_nobody_listed_is_refused() -> None:
    """Bob would have no cyclist at all: the setup is refused by name."""
    with pytest.raises(RecordError, match=r"setup\.only_listed: bob would have no cyclist"):
        replay(parse_record(_record(CYCLISTS[:2])))

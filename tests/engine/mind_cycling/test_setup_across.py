"""Mind Cycling: a setup may hold cyclists already across the line, with their places, and section medals
already won (R-MC-8)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.race import replay
from engine.record import RecordError, parse_record

ON_ROAD = [
    {"entrant": "anna", "number": 2, "row": 5, "lane": 1},
    {"entrant": "anna", "number": 3, "row": 5, "lane": 2},
    {"entrant": "bob", "number": 1, "row": 4, "lane": 1},
    {"entrant": "bob", "number": 2, "row": 4, "lane": 2},
    {"entrant": "bob", "number": 3, "row": 4, "lane": 3},
]


def _record(cyclists: list[dict[str, Any]], **setup: Any) -> dict[str, Any]:
    return {
        "format": "gregario.race/1",
        "ruleset": "mind_cycling",
        "seed": 3,
        "stage": {"course": ["plains", "sprint", "mountain"], "strip_length": 3, "rocks": [], "supply_spaces": []},
        "options": {"team_size": 3, "mode": "orders"},
        "entrants": [{"id": "anna", "name": "Anna"}, {"id": "bob", "name": "Bob"}],
        "setup": {"cyclists": cyclists, **setup},
    }


@pytest.mark.rules("R-MC-8")
def test_a_cyclist_across_takes_no_order_and_keeps_its_place() -> None:
    """Anna's #1 crossed first: the round asks Anna only for #2 and #3; #1 holds place 1 and the Best
    Cyclist medal; Bob's #2 already won the sprint section, so Bob holds Best Sprinter."""
    record = _record([{"entrant": "anna", "number": 1, "place": 1}, *ON_ROAD], medals={"sprint": "bob#2"})
    race = replay(parse_record(record))
    anna = next(d for d in race.awaited() if d.entrant == "anna")
    numbered = {f.path[1] for f in anna.fields if len(f.path) == 3}
    assert numbered == {"2"}  # the first cyclist still to decide is #2; #1 is not asked
    assert not any(len(f.path) == 3 and f.path[1] == "1" for f in anna.fields)
    cyclists = {c["id"]: c for c in race.ruleset.public_view(race.state)["cyclists"]}
    assert (cyclists["anna#1"]["crossed"], cyclists["anna#1"]["place"]) == (True, 1)
    medals = {s.entrant: set(s.figures["medal_names"]) for s in race.result().standings}
    assert "best_cyclist" in medals["anna"] and "best_sprinter" in medals["bob"]


@pytest.mark.rules("R-MC-8")
@pytest.mark.parametrize(
    ("cyclists", "setup", "message"),
    [
        (
            [{"entrant": "anna", "number": 1, "place": 2}],
            {},
            r"setup\.cyclists: the places of the cyclists already across must be 1 to 1",
        ),
        (
            [{"entrant": "anna", "number": 1, "place": 1, "row": 3, "lane": 1}],
            {},
            r"setup\.cyclists\.0: a cyclist already across \(place\) has no row or lane",
        ),
        ([{"entrant": "anna", "number": 1}], {}, r"setup\.cyclists\.0: row and lane are needed"),
        ([], {"medals": {"mountain": "zoe#1"}}, r"setup\.medals\.mountain: no cyclist 'zoe#1' in this race"),
    ],
)
def test_an_impossible_finish_situation_is_refused(cyclists: list[Any], setup: dict[str, Any], message: str) -> None:
    """A gap in the places, a cyclist both across and on the road, no space at all, a stranger's medal."""
    with pytest.raises(RecordError, match=message):
        replay(parse_record(_record([*cyclists, *ON_ROAD], **setup)))

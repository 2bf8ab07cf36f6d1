"""Flamme Rouge: a setup may place riders already across the line, with the round and how far past
(R-FR-9)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.race import replay
from engine.record import RecordError, parse_record


def _record(riders: dict[str, Any], steps: list[Any], **options: Any) -> dict[str, Any]:
    return {
        "format": "gregario.race/1",
        "ruleset": "flamme_rouge",
        "seed": 5,
        "stage": {"profile": "S5 _16 F5"},
        "options": options,
        "entrants": [{"id": "anna", "name": "Anna"}, {"id": "ben", "name": "Ben"}],
        "setup": {"round": 3, "riders": riders},
        "steps": steps,
    }


RACING = {
    "black-r": {"square": 18, "deck": [5, 3, 4, 6, 7]},
    "blue-r": {"square": 19, "deck": [3, 3, 4, 4, 5]},
    "blue-s": {"square": 20, "deck": [2, 2, 3, 3, 9]},
}


@pytest.mark.rules("5.3", "D5", "R-FR-9")
def test_a_rider_already_across_plays_no_more_and_keeps_its_place() -> None:
    """Black's Sprinteur crossed in round 2, 2 past the line: in round 3 Anna plays only her Rouleur. The
    finish is square 22: Blue's Sprinteur (20, plays 2) and Rouleur (19, plays 3) reach 22, 1 past, lanes 1
    and 2; Black's Rouleur (18, plays 5) reaches 23, 2 past. Ranking by round, then distance past, then
    lane: black-s (round 2), black-r, blue-s, blue-r."""
    race = replay(parse_record(_record({"black-s": {"crossed": 2, "past": 2}, **RACING}, [])))
    assert {d.entrant: [f.path for f in d.fields] for d in race.awaited()}["anna"] == [["cards", "r"]]
    race = replay(
        parse_record(_record({"black-s": {"crossed": 2, "past": 2}, **RACING}, [{"anna": "r5", "ben": "r3 s2"}]))
    )
    assert race.finished
    places = {rider: place for s in race.result().standings for rider, place in s.figures["rider_places"].items()}
    assert places == {"black-s": 1, "black-r": 2, "blue-s": 3, "blue-r": 4}
    black = race.result().standings[0].figures
    assert black["crossed_round"] == {"black-s": 2, "black-r": 3} and black["past_line"] == {"black-s": 2, "black-r": 2}


@pytest.mark.rules("R-FR-9")
@pytest.mark.parametrize(
    ("across", "options", "message"),
    [
        (
            {"crossed": 3},
            {},
            r"setup\.riders\.black-s\.crossed: it crossed before round 3, the first one played, so at most 2",
        ),
        ({"past": 2}, {}, r"setup\.riders\.black-s\.past needs crossed"),
        ({"crossed": 1, "square": 10}, {}, r"setup\.riders\.black-s: a rider across the line has no square or lane"),
        ({"crossed": 1}, {"finish": "first"}, r"setup\.riders\.black-s\.crossed: with finish 'first'"),
    ],
)
def test_a_rider_across_that_cannot_be_is_refused(
    across: dict[str, Any], options: dict[str, Any], message: str
) -> None:
    """Crossed in the round being played, past without a round, a square too, or a first-across race."""
    with pytest.raises(RecordError, match=message):
        replay(parse_record(_record({"black-s": across, **RACING}, [], **options)))

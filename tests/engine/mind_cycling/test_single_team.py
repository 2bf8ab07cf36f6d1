"""Mind Cycling: a single entrant may race under the ordinary rules instead of the solo game (``solo:
false``, R-MC-9)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.record import parse_record
from tests.engine.random_orders import play_randomly
from tests.logged import LoggedRace


def _race(**options: Any) -> LoggedRace:
    record = {
        "format": "gregario.race/1",
        "ruleset": "mind_cycling",
        "seed": 3,
        "stage": "short",
        "options": options,
        "entrants": [{"id": "anna", "name": "Anna"}],
    }
    return LoggedRace.from_record_start(parse_record(record))


@pytest.mark.rules("D25", "R-MC-9")
def test_a_single_entrant_is_a_solo_race_by_default() -> None:
    """One entrant, no option: the solo game, always five cyclists (D25), whatever team_size says."""
    race = _race(team_size=3)
    assert race.state.solo and len(race.state.cyclists) == 5


@pytest.mark.rules("D21", "R-MC-9")
def test_solo_false_races_one_team_under_the_ordinary_rules() -> None:
    """With solo false, Anna fields her team_size of 3; the race ends when all 3 are across (fewer than
    12 cyclists), they take places 1-3 worth 12 + 11 + 10 = 33 team points, and Anna holds all four medals."""
    race = _race(team_size=3, solo=False)
    assert not race.state.solo and len(race.state.cyclists) == 3
    play_randomly(race, random.Random(1))
    result = race.result()
    assert result.finished
    (anna,) = result.standings
    assert sorted(anna.figures["places"].values()) == [1, 2, 3]
    assert anna.figures["team_points"] == 33
    assert set(anna.figures["medal_names"]) == {"best_cyclist", "best_sprinter", "best_climber", "best_team"}

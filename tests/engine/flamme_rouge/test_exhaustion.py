"""Exhaustion (§6.7, D18, D19): an empty square ahead costs a card; an empty lane does not."""

from __future__ import annotations

import pytest

from engine.flamme_rouge.cards import EXHAUSTION
from engine.flamme_rouge.exhaustion import take_exhaustion
from engine.flamme_rouge.movement import occupancy

from .helpers import placed, record, start


@pytest.mark.rules("6.7", "example:dized-exhaustion")
def test_only_riders_with_a_whole_empty_square_ahead_take_exhaustion() -> None:
    """Dized: the two rearmost and the leader take a card; red-r and blue-s behind an empty lane do not."""
    race = start(
        record(
            players=4,
            setup=placed(
                {
                    "black-r": (10, 1),
                    "green-s": (10, 2),
                    "red-r": (12, 1),
                    "blue-s": (12, 2),
                    "green-r": (13, 1),
                    "blue-r": (14, 1),
                    "red-s": (14, 2),
                    "black-s": (15, 1),
                }
            ),
        )
    )
    s = race.state
    got = {s.riders[i].id for i in take_exhaustion(occupancy(s), s.riders, s.track.finish)}
    assert got == {"black-r", "green-s", "black-s"}
    assert s.rider("black-s").recycled[-1] == EXHAUSTION and s.rider("black-s").exhaustion == 1


@pytest.mark.rules("D18")
def test_one_and_three_lane_squares_need_a_completely_empty_square_too() -> None:
    """Behind a 3-lane square holding one rider: no card. Behind an occupied 1-lane cobble: no card."""
    race = start(
        record(
            players=2,
            stage="S5 _4 P3 _3 C1 C1 _44 F5",  # 10-12 supply (3 lanes), 16-17 one-lane cobbles
            setup=placed({"black-r": 10, "black-s": (11, 1), "blue-r": 16, "blue-s": 17}),
        )
    )
    s = race.state
    got = {s.riders[i].id for i in take_exhaustion(occupancy(s), s.riders, s.track.finish)}
    assert got == {"black-s", "blue-s"}


@pytest.mark.rules("D19", "7.2")
def test_exhaustion_cards_never_run_out_and_bot_teams_never_take_them() -> None:
    """Six exhaustion cards already taken, a seventh comes; the Peloton leader alone in front takes none."""
    race = start(
        record(
            players=1,
            bots=["peloton"],
            setup={
                "riders": {
                    "black-r": {"square": 10, "exhaustion": 6},
                    "black-s": {"square": 30},
                    "blue-p1": {"square": 40},
                    "blue-p2": {"square": 41},
                }
            },
        )
    )
    s = race.state
    got = {s.riders[i].id for i in take_exhaustion(occupancy(s), s.riders, s.track.finish)}
    assert got == {"black-r", "black-s"}
    assert s.rider("black-r").recycled.count(EXHAUSTION) == 7


@pytest.mark.rules("6.7", "D19")
def test_a_rider_alone_in_front_at_two_end_phases_holds_two_exhaustion_cards() -> None:
    """Black-s alone on 30 takes a card at each of two end phases: two in its recycled pile, two counted."""
    race = start(record(players=1, setup=placed({"black-r": 10, "black-s": 30})))
    s = race.state
    for _ in range(2):
        take_exhaustion(occupancy(s), s.riders, s.track.finish)
    rider = s.rider("black-s")
    assert rider.exhaustion == 2
    assert rider.recycled.count(EXHAUSTION) == 2

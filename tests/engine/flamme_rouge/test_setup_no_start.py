"""Flamme Rouge: a test track whose first square is not a start square, raced from a setup that places every
rider (R-FR-10)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flamme_rouge import RULESET
from engine.flamme_rouge.track import from_profile
from engine.record import RecordError

from .helpers import at, play, record

CLIMB = "_6 u4 _6 F5"
"""Squares 1-6 flat, 7-10 ascent, 11-16 flat, 17-21 the finish area: no start square at all."""

PLACED = {
    "black-r": {"square": 3, "deck": [7, 3, 4, 5]},
    "blue-r": {"square": 2, "deck": [4, 3, 5, 6]},
    "black-s": {"square": 1, "deck": [2, 3, 4, 5]},
    "blue-s": {"square": 1, "deck": [9, 2, 3, 4]},
}


def _record(riders: dict[str, Any] | None, steps: list[Any], **kw: Any) -> dict[str, Any]:
    setup = None if riders is None else {"riders": riders}
    return record(players=2, stage={"profile": CLIMB}, setup=setup, steps=steps, **kw)


@pytest.mark.rules("R-FR-10", "D12")
def test_a_profile_without_a_start_area_numbers_its_squares_from_its_first_square() -> None:
    """No S squares: square 1 is the first flat square, the ascent is 7-10 and the finish line lies before 17."""
    track = from_profile(CLIMB)
    assert (track.start_squares, track.finish, track.last) == (0, 17, 21)
    assert track.terrain[1:22] == "______uuuu______FFFFF"


@pytest.mark.rules("R-FR-10", "6.2", "5.2", "6.6", "6.7")
def test_a_race_set_up_on_a_track_without_start_squares_plays_its_first_round_by_the_rules() -> None:
    """Every rider placed, so the race starts with the energy phase. Front to back: black-r (3) plays 7, but a
    move entering the ascent at 7 is at most 5: square 8. blue-r (2) plays 4: square 6. black-s and blue-s
    stand on 1 (lanes 1 and 2); black-s plays 2: square 3. blue-s plays 9 and has covered 5 squares (2-6)
    before the first ascent square, so it stops on 6, lane 2 beside blue-r. No slipstream: 3 is two squares
    behind 6, and the rider ahead of 6 is on the ascent. Each of the four has an empty square in front of it
    (4, 7, 9): four exhaustion cards."""
    race = play(_record(PLACED, []))
    assert race.state.phase == "energy" and race.state.round == 1
    assert at(race.state, "blue-s") == (1, 2)
    race = play(_record(PLACED, [{"anna": "r7 s2", "ben": "r4 s9"}]))
    s = race.state
    assert {rid: at(s, rid) for rid in PLACED} == {
        "black-r": (8, 1),
        "blue-r": (6, 1),
        "black-s": (3, 1),
        "blue-s": (6, 2),
    }
    assert {r.id: r.exhaustion for r in s.riders} == {"black-r": 1, "black-s": 1, "blue-r": 1, "blue-s": 1}


@pytest.mark.rules("R-FR-10", "D22")
def test_the_grid_does_not_limit_the_field_of_a_track_without_start_squares() -> None:
    """Two-rider teams: up to 6, as on any stage with room (the setup places the riders, not a grid)."""
    assert tuple(RULESET.player_limits({"profile": CLIMB}, {})) == (1, 6)


@pytest.mark.rules("R-FR-10")
@pytest.mark.parametrize(
    ("riders", "kw", "message"),
    [
        (
            {k: v for k, v in PLACED.items() if k != "blue-s"},
            {},
            r"^setup\.riders: the stage has no start squares \(its profile does not begin with S\), so the setup "
            r"must place every rider; not placed: blue-s$",
        ),
        (
            PLACED,
            {"bots": ["peloton"]},
            r"^setup\.riders: .*; not placed: green-p1, green-p2$",
        ),
        (
            None,
            {},
            r"^stage\.profile: the stage has no start squares \(its profile does not begin with S\); only a record "
            r"whose setup places every rider can race it$",
        ),
        (
            {"black-r": {"square": 3}, "black-s": {"square": 1}},
            {"options": {"riders_per_player": 1}},
            r"^setup\.owners: the stage has no start squares",
        ),
    ],
)
def test_a_track_without_start_squares_and_a_rider_left_unplaced_is_refused(
    riders: dict[str, Any] | None, kw: dict[str, Any], message: str
) -> None:
    """Blue's Sprinteur left out, a Peloton team left out, no setup at all, one-rider mode without owners."""
    with pytest.raises(RecordError, match=message) as refused:
        play(_record(riders, [], **kw))
    assert "\n" not in str(refused.value)

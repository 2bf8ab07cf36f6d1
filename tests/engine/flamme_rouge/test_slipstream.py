"""Slipstream (§6.6, D1-D3): packs close one-square gaps from the rear, square by square."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flamme_rouge.movement import occupancy
from engine.flamme_rouge.slipstream import slipstream

from .helpers import at, exhausted, kinds, placed, play, record, start


def shifts_after(positions: dict[str, Any], players: int, stage: str) -> tuple[Any, list[tuple[str, int, int]]]:
    """Place riders, run the slipstream step on that board; the state and the shifts (rider, from, to)."""
    race = start(record(players=players, stage=stage, setup=placed(positions)))
    s = race.state
    occ = occupancy(s)
    out = [(s.riders[i].id, a, b) for i, a, b in slipstream(occ, s.track, s.riders)]
    return s, out


@pytest.mark.rules("6.6", "D2", "example:dized-slipstream")
def test_a_chain_of_packs_closes_up_from_the_rear() -> None:
    """Dized: pack 1 is two squares back (stays); pack 2 joins pack 3, then that pack joins pack 4."""
    race = play(
        record(
            players=2,
            setup=placed(
                {"black-r": 7, "black-s": 9, "blue-r": 11, "blue-s": 12},
                {"black-r": [3, 4, 5, 6], "black-s": [4, 2, 3, 5], "blue-r": [4, 3, 5, 6], "blue-s": [5, 2, 3, 4]},
            ),
            steps=[{"anna": "r3 s4", "ben": "r4 s5"}],
        )
    )
    s = race.state
    # after movement: black-r 10 | black-s 13 | blue-r 15 | blue-s 17
    assert at(s, "black-r")[0] == 10
    assert (at(s, "black-s")[0], at(s, "blue-r")[0], at(s, "blue-s")[0]) == (15, 16, 17)
    shifts = [(d["rider"], d["from"], d["to"]) for d in kinds(race.events[0], "fr.slipstream")]
    assert shifts == [("black-s", 13, 14), ("blue-r", 15, 16), ("black-s", 14, 15)]


@pytest.mark.rules("6.2", "6.6", "example:dized-ascent")
def test_no_slipstream_for_or_from_riders_on_an_ascent_and_a_pack_splits_on_it() -> None:
    """Dized: red-s (flat) behind blue-r (ascent) stays; blue-r on the ascent stays; black-s goes, black-r stays."""
    s, shifts = shifts_after(
        {
            "red-s": 10,
            "blue-r": 12,
            "green-r": 14,
            "black-r": 21,
            "black-s": 22,
            "blue-s": 24,
            "red-r": 40,
            "green-s": 43,
        },
        players=4,
        stage="S5 _5 u4 _6 u1 _45 F5",  # ascents: 11-14 and 21
    )
    assert shifts == [("black-s", 22, 23)]
    assert at(s, "black-r")[0] == 21 and at(s, "red-s")[0] == 10 and at(s, "blue-r")[0] == 12


@pytest.mark.rules("D1", "example:X1")
def test_the_gap_square_may_be_an_ascent_only_the_two_riders_squares_count() -> None:
    """X1: A on 40 and B on 42 (flat), 41 an ascent: A moves onto 41; then A takes no exhaustion, B does."""
    race = play(
        record(
            players=1,
            stage="S5 _35 u1 _23 F5",  # 41 is an ascent
            setup=placed({"black-r": 37, "black-s": 38}, {"black-r": [3, 4, 5, 6], "black-s": [4, 2, 3, 5]}),
            steps=[{"anna": "r3 s4"}],
        )
    )
    s = race.state
    # movement: black-s 38 -> 42, black-r 37 -> 40; slipstream 40 -> 41
    assert at(s, "black-r")[0] == 41 and at(s, "black-s")[0] == 42
    assert exhausted(race.events[0]) == ["black-s"]


@pytest.mark.rules("D1", "D2", "example:X1")
def test_a_pack_splits_when_the_rider_ahead_has_slid_onto_an_ascent() -> None:
    """X1 variant: riders on 39 and 40, 41 empty (ascent), a rider on 42: 40 -> 41, 39 stays."""
    s, shifts = shifts_after(
        {"black-r": 39, "black-s": 40, "blue-r": 42, "blue-s": 10},
        players=2,
        stage="S5 _35 u1 _23 F5",
    )
    assert shifts == [("black-s", 40, 41)]
    assert at(s, "black-r")[0] == 39


@pytest.mark.rules("D2", "D1")
def test_sliding_riders_keep_their_lane_if_they_can_and_stay_if_no_lane_is_free() -> None:
    """Three riders on a 3-lane supply square slide onto a one-lane cobble: only the right-hand one fits."""
    s, shifts = shifts_after(
        {"black-r": (12, 1), "black-s": (12, 2), "blue-r": (12, 3), "blue-s": 14},
        players=2,
        stage="S5 _4 P3 C1 _50 F5",  # 10-12 supply, 13 a one-lane cobble
    )
    assert shifts == [("black-r", 12, 13)]
    assert at(s, "black-s") == (12, 2) and at(s, "blue-r") == (12, 3)


@pytest.mark.rules("D2", "5.2", "D1")
def test_a_rider_whose_lane_ends_slides_into_the_free_right_lane() -> None:
    """A lone rider in the third lane of a supply square slides onto a two-lane square's right lane."""
    s, shifts = shifts_after({"black-r": (12, 3), "black-s": 14}, players=1, stage="S5 _4 P3 _60 F5")
    assert shifts == [("black-r", 12, 13)]
    assert at(s, "black-r") == (13, 1)


@pytest.mark.rules("D2", "6.4")
def test_a_rider_left_behind_on_a_supply_square_follows_its_pack_once_the_gap_reopens() -> None:
    """The supply square's third rider finds no lane; the packs ahead close up and open a gap it then fills."""
    s, shifts = shifts_after(
        {"black-r": (12, 1), "black-s": (12, 2), "blue-r": (12, 3), "blue-s": 14, "green-r": 16, "green-s": 2},
        players=3,
        stage="S5 _4 P3 _60 F5",  # 10-12 supply (three lanes), 13 on flat (two lanes)
    )
    # 12 -> 13 (blue-r stays: no third lane), 14 -> 15, 13 -> 14, and 12 -> 13 for blue-r at last.
    assert shifts == [
        ("black-r", 12, 13),
        ("black-s", 12, 13),
        ("blue-s", 14, 15),
        ("black-r", 13, 14),
        ("black-s", 13, 14),
        ("blue-r", 12, 13),
    ]
    assert [at(s, r) for r in ("blue-r", "black-r", "black-s", "blue-s", "green-r")] == [
        (13, 1),
        (14, 1),
        (14, 2),
        (15, 1),
        (16, 1),
    ]


@pytest.mark.rules("D2")
def test_a_lone_rider_in_the_left_lane_keeps_the_left_lane_when_it_slides() -> None:
    """D2: its lane exists on the next square and is free, so it keeps it."""
    s, shifts = shifts_after({"black-r": (10, 2), "black-s": 12}, players=1, stage="S5 _60 F5")
    assert shifts == [("black-r", 10, 11)]
    assert at(s, "black-r") == (11, 2)


@pytest.mark.rules("6.5")
def test_no_slipstream_to_or_from_riders_on_cobbles() -> None:
    """A rider on a cobble does not slide; a rider behind a rider on a cobble does not either."""
    _s, shifts = shifts_after(
        {"black-r": 10, "black-s": 12, "blue-r": 20, "blue-s": 22},
        players=2,
        stage="S5 _4 C1 _9 C1 _40 F5",  # 10 and 22 are cobbles
    )
    assert shifts == []


@pytest.mark.rules("6.4")
def test_supply_zones_give_and_take_slipstream_normally() -> None:
    """A rider on a supply square slides up behind a rider on a supply square."""
    _s, shifts = shifts_after({"black-r": 10, "black-s": 12}, players=1, stage="S5 _4 P5 _51 F5")
    assert shifts == [("black-r", 10, 11)]


@pytest.mark.rules("D3", "6.7")
def test_the_finish_area_gives_no_slipstream_and_its_riders_take_no_exhaustion() -> None:
    """A rider before the line does not slide up to a rider past it, and takes exhaustion (74 is empty)."""
    race = play(
        record(
            players=2,
            stage="Avenue Corso Paseo",  # the line is after square 73
            setup=placed(
                {"black-s": 66, "black-r": 68, "blue-r": 30, "blue-s": 20},
                {"black-s": [9, 2, 3, 4], "black-r": [5, 3, 4, 6], "blue-r": [3, 4, 5, 6], "blue-s": [2, 3, 4, 5]},
            ),
            steps=[{"anna": "r5 s9", "ben": "r3 s2"}],
        )
    )
    s = race.state
    assert at(s, "black-s")[0] == 75 and s.rider("black-s").crossed == 1
    assert at(s, "black-r")[0] == 73
    assert kinds(race.events[0], "fr.slipstream") == []
    tired = exhausted(race.events[0])
    assert "black-r" in tired and "black-s" not in tired


def _slipstream_by_the_letter(occ: dict[int, list[int]], no_slip: list[bool], lanes: list[int]) -> list[Any]:
    """D2 exactly as written: find the rearmost square that slipstreams, shift it, start again from the rear."""
    shifts = []
    while True:
        for s in sorted(occ):
            if no_slip[s] or (s + 1) in occ or (s + 2) not in occ or no_slip[s + 2]:
                continue
            row, ahead = occ[s], [-1] * lanes[s + 1]
            occ[s + 1] = ahead
            for lane0, idx in enumerate(row):
                if idx < 0:
                    continue
                free = [lane0] if lane0 < len(ahead) and ahead[lane0] < 0 else [j for j, x in enumerate(ahead) if x < 0]
                if free:
                    ahead[free[0]], row[lane0] = idx, -1
                    shifts.append((idx, s, s + 1, free[0] + 1))
            if max(row) < 0:
                del occ[s]
            break
        else:
            return shifts


@pytest.mark.rules("D2")
@settings(max_examples=50, deadline=None)
@given(st.data())
def test_the_quick_scan_shifts_the_same_riders_as_starting_again_from_the_rear(data: st.DataObject) -> None:
    """On random boards (1-3 lanes, squares without slipstream), the engine's scan, which goes on from the
    square behind the last shift, makes exactly the shifts of D2's restart-from-the-rear algorithm."""
    n = 30
    lanes = [data.draw(st.integers(1, 3)) for _ in range(n + 3)]
    no_slip = [data.draw(st.booleans()) and data.draw(st.booleans()) for _ in range(n + 3)]
    track = SimpleNamespace(lanes=lanes, no_slip=no_slip)
    occ: dict[int, list[int]] = {}
    riders = []
    for square in data.draw(st.lists(st.integers(1, n), min_size=1, max_size=12)):
        row = occ.setdefault(square, [-1] * lanes[square])
        if -1 in row:
            lane0 = row.index(-1)
            row[lane0] = len(riders)
            riders.append(SimpleNamespace(square=square, lane=lane0 + 1))
    expected = _slipstream_by_the_letter({k: v[:] for k, v in occ.items()}, no_slip, lanes)
    got = slipstream(occ, track, riders)  # type: ignore[arg-type]
    assert [(i, a, b) for i, a, b, _ in expected] == got
    final = {i: (sq, lane) for i, _, sq, lane in expected}
    for i, where in final.items():
        assert (riders[i].square, riders[i].lane) == where

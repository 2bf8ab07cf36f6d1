"""Tamponamento, curvone and strettoia (rules §6.1, D17-D19)."""

from __future__ import annotations

import pytest

from .scenario import kinds, play, rider, scenario


@pytest.mark.rules("example:E3", "D17", "6.1")
def test_a_third_and_a_fourth_rider_into_the_a2_descent_each_cause_a_collision() -> None:
    """E3: X, Y, Z enter A2 (7,3); Z's entry hits Y (lowest effort) for 3 R, 1 V; W's entry hits W for 4 R, 1 V."""
    riders = {name: {"row": "A", "r": 20} for name in ("x", "y", "z", "w")}
    race = scenario(riders, round=2)
    events = play(
        race,
        {"x": "m2: 4R", "y": "m2: 2R", "z": "m2: 3R", "w": "m2: 1R"},
        times={"x": 1, "y": 2, "z": 3, "w": 4},
    )
    hits = kinds(events, "collision")
    assert [(e.data["newcomer"], e.data["victim"], e.data["group"]) for e in hits] == [("z", "y", 3), ("w", "w", 4)]
    # Y: 20 - 2 effort - 3 = 15 R; 5 + 0 bonus + 2 descent - 1 = 6 V
    assert (rider(race, "y").r, rider(race, "y").v) == (15, 6)
    # W: 20 - 1 - 4 = 15 R; 5 + 0 + 2 - 1 = 6 V
    assert (rider(race, "w").r, rider(race, "w").v) == (15, 6)
    # X (4 > 3: +1) and Z are untouched: 16 R 8 V, 17 R 7 V
    assert (rider(race, "x").r, rider(race, "x").v, rider(race, "z").r, rider(race, "z").v) == (16, 8, 17, 7)


@pytest.mark.rules("example:E4", "D17", "6.1")
def test_the_second_rider_into_the_c1_strettoia_causes_a_collision_of_two() -> None:
    """E4: C1 (6,1) holds one rider; the second arrival hits the lower effort for 2 R and 1 V."""
    race = scenario({"first": {"row": "C"}, "second": {"row": "C"}}, round=1)
    events = play(race, {"first": "m1: 3R", "second": "m1: 2R"}, times={"first": 1, "second": 2})
    (hit,) = kinds(events, "collision")
    assert (hit.data["victim"], hit.data["group"], hit.data["r_loss"], hit.data["v_loss"]) == ("second", 2, 2, 1)
    # 30 - 2 effort - 2 = 26 R; 5 + 1 (2 > 1) + 2 descent - 1 = 7 V
    assert (rider(race, "second").r, rider(race, "second").v) == (26, 7)


@pytest.mark.rules("D17")
def test_the_victim_is_the_lowest_effort_of_the_group_even_if_it_arrived_first() -> None:
    """The newcomer with effort 4 causes the collision; the rider already there with effort 1 suffers."""
    race = scenario({"early": {"row": "C"}, "late": {"row": "C"}}, round=1)
    events = play(race, {"early": "m1: 1R", "late": "m1: 4R"}, times={"early": 1, "late": 2})
    (hit,) = kinds(events, "collision")
    assert (hit.data["newcomer"], hit.data["victim"]) == ("late", "early")


@pytest.mark.rules("D17")
def test_a_tie_for_lowest_effort_hits_the_rider_lower_in_priority() -> None:
    """Equal efforts in a strettoia: the later order (lower priority) takes the damage."""
    race = scenario({"quick": {"row": "C"}, "slow": {"row": "C"}}, round=1)
    events = play(race, {"quick": "m1: 2R", "slow": "m1: 2R"}, times={"quick": 1, "slow": 5})
    assert kinds(events, "collision")[0].data["victim"] == "slow"


@pytest.mark.rules("example:E5", "D14", "D18", "6.1")
def test_a_collision_in_the_c2_curvone_does_double_damage_and_clamps_the_speed() -> None:
    """E5: 3 riders on the (0,7) climb: the victim (V 4 after terrain) loses 6 R, 6 V -> clamp, 8 R in all."""
    race = scenario({"a": {"row": "C", "r": 20}, "b": {"row": "C", "r": 20}, "vic": {"row": "C", "r": 20}}, round=2)
    events = play(race, {"a": "m2: 3R", "b": "m2: 2R", "vic": "m2: 1R"}, times={"a": 1, "b": 2, "vic": 3})
    (hit,) = kinds(events, "collision")
    assert (hit.data["victim"], hit.data["r_loss"], hit.data["v_loss"], hit.data["clamp"]) == ("vic", 6, 6, 2)
    # 20 - 1 effort = 19, -6 = 13, clamp of -2 costs 2 more = 11 (8 R lost to the crash)
    assert (rider(race, "vic").r, rider(race, "vic").v) == (11, 0)


@pytest.mark.rules("D18", "6.1")
def test_a_curvone_strettoia_holds_one_rider_and_doubles_the_damage() -> None:
    """A4 (0,1): the second arrival makes a group of 2: the victim loses 4 R and 6 V (climb, doubled)."""
    race = scenario({"one": {"row": "A", "v": 9}, "two": {"row": "A", "v": 9}}, round=4)
    events = play(race, {"one": "m4: 5R", "two": "m4: 2R"}, times={"one": 1, "two": 2})
    (hit,) = kinds(events, "collision")
    assert (hit.data["victim"], hit.data["group"], hit.data["r_loss"], hit.data["v_loss"]) == ("two", 2, 4, 6)
    # two: 30 - 2 = 28, -4 = 24 R; V 9 + 2 (2 > 0 and 2 > 1) - 2 climb = 9, -6 = 3
    assert (rider(race, "two").r, rider(race, "two").v) == (24, 3)


@pytest.mark.rules("6.1")
def test_two_riders_share_a_normal_cell_without_harm() -> None:
    """Two riders in A2 (7,3): no collision."""
    race = scenario({"a": {"row": "A"}, "b": {"row": "A"}}, round=2)
    assert kinds(play(race, {"a": "m2: 1R", "b": "m2: 1R"}), "collision") == []


@pytest.mark.rules("D19", "D22")
def test_a_rider_elbowed_into_a_full_cell_enters_it_and_collides() -> None:
    """Luca is pushed down from B2 into C2 where two riders already are: a collision of 3, on the curvone."""
    race = scenario(
        {
            "anna": {"row": "B", "v": 2},
            "luca": {"row": "B", "v": 9},
            "c1": {"row": "C", "v": 5},
            "c2": {"row": "C", "v": 5},
        },
        round=2,
    )
    events = play(
        race,
        {"anna": "m2: 1R ; G @Luca down", "luca": "m2: 3R", "c1": "m2: 4R", "c2": "m2: 5R"},
        times={"anna": 4, "luca": 1, "c1": 2, "c2": 3},
    )
    gomitata = kinds(events, "gomitata")[0]
    assert gomitata.data["success"] and rider(race, "luca").row == 2
    (hit,) = kinds(events, "collision")
    # C2 (0,7) curvone, climb: the group is c1, c2, luca; lowest effort is luca's 3
    assert (hit.data["newcomer"], hit.data["victim"], hit.data["group"], hit.data["r_loss"]) == ("luca", "luca", 3, 6)


@pytest.mark.rules("6.1")
def test_there_are_no_collisions_at_the_start_or_in_the_sprint() -> None:
    """Three Cavaliera starts, then three riders in the sprint: nobody is hit."""
    race = scenario({"a": {}, "b": {}, "c": {}})
    assert kinds(play(race, {"a": "start: C", "b": "start: C", "c": "start: C"}), "collision") == []
    race = scenario({"a": {"row": "C"}, "b": {"row": "C"}, "c": {"row": "C"}}, round=6)
    assert kinds(play(race, {"a": "s1: 1", "b": "s1: 1", "c": "s1: 1"}), "collision") == []


@pytest.mark.rules("D19", "D22", "D14")
def test_a_pusher_falling_into_a_full_curvone_enters_it_and_is_the_victim() -> None:
    """Anna's push on slower Luca fails: she falls, drops from B2 into C2 (two riders there) and crashes."""
    race = scenario(
        {"anna": {"row": "B", "v": 9}, "luca": {"row": "B", "v": 2}, "c1": {"row": "C"}, "c2": {"row": "C"}}, round=2
    )
    events = play(
        race,
        {"anna": "m2: 2R ; G @Luca down", "luca": "m2: 1R", "c1": "m2: 3R", "c2": "m2: 4R"},
        times={"anna": 1, "c1": 2, "c2": 3, "luca": 4},
    )
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "not faster"
    (hit,) = kinds(events, "collision")
    assert (hit.data["newcomer"], hit.data["victim"], hit.data["group"]) == ("anna", "anna", 3)
    # anna: 30 - 2 = 28 R, B2 (2,8): 2 > 2 no, climb: V 7; falls: 26 R, V 5; C2 (0,7) curvone climb,
    # group 3: -6 R (20), -6 V -> -1, clamped for 1 R: R 19, V 0
    assert (rider(race, "anna").r, rider(race, "anna").v, rider(race, "anna").row) == (19, 0, 2)
    assert (rider(race, "c1").r, rider(race, "c1").v, rider(race, "c2").r, rider(race, "c2").v) == (27, 4, 26, 4)


@pytest.mark.rules("D15", "D14", "D27")
def test_a_crash_bigger_than_the_resistenza_left_stops_at_zero_and_the_clamp_costs_nothing_more() -> None:
    """Vic (R 4) is hit in the C2 curvone for 6 R and 6 V: R 3 -> 0, V 4 -> 0, and it is exhausted at m2."""
    race = scenario({"a": {"row": "C", "r": 20}, "b": {"row": "C", "r": 20}, "vic": {"row": "C", "r": 4}}, round=2)
    play(race, {"a": "m2: 3R", "b": "m2: 2R", "vic": "m2: 1R"}, times={"a": 1, "b": 2, "vic": 3})
    vic = rider(race, "vic")
    assert (vic.r, vic.v, vic.status, vic.progress, vic.v_at_stop) == (0, 0, "exhausted", 2, 0)

"""Route moves m1-m5: effort, direction, effort bonus, terrain, clamp (rules §5.3, §6.8, §6.9)."""

from __future__ import annotations

import pytest

from engine.tabella.table import classic_table

from .scenario import kinds, play, rider, scenario


@pytest.mark.rules("example:E1", "5.3")
def test_a_cavaliera_rider_pushing_5_into_the_c1_descent_gains_three() -> None:
    """E1: 5R from row C pays 5, beats the 1 of (6,1) for +1, descends for +2: R 25, V 8."""
    race = scenario({"cava": {"row": "C"}, "other": {"row": "A"}}, round=1)
    play(race, {"cava": "m1: 5R", "other": "m1: 1R"})
    assert (rider(race, "cava").r, rider(race, "cava").v) == (25, 8)
    assert (rider(race, "cava").row, rider(race, "cava").pair) == (2, 1)


@pytest.mark.rules("example:E2", "5.3")
def test_an_aggressiva_rider_steering_down_into_the_b1_climb_loses_two() -> None:
    """E2: 1D from row A (R 28, V 7) pays 1, enters B1 (3,9) with no bonus and climbs: R 27, V 5."""
    race = scenario({"aggro": {"row": "A", "r": 28, "v": 7}, "other": {"row": "C"}}, round=1)
    play(race, {"aggro": "m1: 1D", "other": "m1: 1R"})
    assert (rider(race, "aggro").r, rider(race, "aggro").v, rider(race, "aggro").row) == (27, 5, 1)


@pytest.mark.rules("example:10.1", "5.3")
def test_the_seed_moves_3r_2s_1d_go_straight_up_and_down_paying_their_effort() -> None:
    """§10.1: 3R stays in the row, 2S goes up a row, 1d (lower case) goes down a row."""
    race = scenario({"dritto": {"row": "B"}, "sinistra": {"row": "B"}, "destra": {"row": "B"}}, round=1)
    play(race, {"dritto": "m1: 3R", "sinistra": "m1: 2S", "destra": "m1: 1d"})
    assert [rider(race, r).row for r in ("dritto", "sinistra", "destra")] == [1, 0, 2]
    assert [rider(race, r).r for r in ("dritto", "sinistra", "destra")] == [27, 28, 29]


@pytest.mark.rules("D12")
def test_steering_off_the_road_goes_straight_but_still_pays_the_effort() -> None:
    """2S from row A stays in row A, pays 2 and still advances one pair; 1D from C stays in C."""
    race = scenario({"top": {"row": "A"}, "bottom": {"row": "C"}}, round=1)
    events = play(race, {"top": "m1: 2S", "bottom": "m1: 1D"})
    top, bottom = rider(race, "top"), rider(race, "bottom")
    assert (top.row, top.pair, top.r) == (0, 1, 28)
    assert (bottom.row, bottom.pair, bottom.r) == (2, 1, 29)
    assert all(e.data["blocked"] for e in kinds(events, "move"))


@pytest.mark.rules("D13")
def test_the_effort_bonus_needs_a_strictly_greater_effort_and_never_exceeds_two() -> None:
    """Into B1 (3,9): effort 3 gets +0, effort 4 gets +1. Into C3 (3,0): effort 4 gets +2, not +3."""
    race = scenario({"three": {"row": "B"}, "four": {"row": "A"}}, round=1)
    play(race, {"three": "m1: 3R", "four": "m1: 4D"})
    # both enter B1, a climb (-2): 5 + 0 - 2 = 3 and 5 + 1 - 2 = 4
    assert (rider(race, "three").v, rider(race, "four").v) == (3, 4)
    race = scenario({"big": {"row": "C"}, "other": {"row": "A"}}, round=3)
    play(race, {"big": "m3: 4R", "other": "m3: 1R"})
    assert rider(race, "big").v == 5 + 2 + 2  # (3,0): 4 > 3 and 4 > 0 -> +2; descent +2


@pytest.mark.rules("D15", "6.9")
def test_an_effort_beyond_the_resistenza_left_takes_it_to_zero_and_still_counts() -> None:
    """With R 2, 5R into C3 (3,0) pays only 2 but earns the +2 bonus of effort 5; R stays at 0."""
    race = scenario({"tired": {"row": "C", "r": 2}, "other": {"row": "A"}}, round=3)
    play(race, {"tired": "m3: 5R", "other": "m3: 1R"})
    assert (rider(race, "tired").r, rider(race, "tired").v_at_stop) == (0, 5 + 2 + 2)
    assert rider(race, "tired").status == "exhausted"


@pytest.mark.rules("D11", "5.3")
def test_the_drink_comes_before_the_effort_is_paid() -> None:
    """R 3, V + 5R: drink to 7, pay 5, left with 2 — paying first would have emptied R before the drink."""
    race = scenario({"thirsty": {"row": "C", "r": 3}, "other": {"row": "A"}}, round=3)
    play(race, {"thirsty": "m3: 5R ; V", "other": "m3: 1R"})
    assert rider(race, "thirsty").r == 2


@pytest.mark.rules("D14", "6.8")
def test_a_climb_below_zero_speed_is_paid_in_resistenza_at_once() -> None:
    """V 1 entering B1 (3,9) with effort 1: 1 - 2 = -1, clamped to 0 for 1 R more."""
    race = scenario({"slow": {"row": "B", "v": 1, "r": 10}, "other": {"row": "C"}}, round=1)
    events = play(race, {"slow": "m1: 1R", "other": "m1: 1R"})
    assert (rider(race, "slow").v, rider(race, "slow").r) == (0, 10 - 1 - 1)
    assert next(e for e in kinds(events, "move") if e.data["rider"] == "slow").data["clamp"] == 1


@pytest.mark.rules("5.3")
def test_after_move_k_every_racing_rider_is_in_pair_k() -> None:
    """Riders differ only by row: after m1 all are in pair 1, after m2 in pair 2."""
    race = scenario({"a": {"row": "A"}, "b": {"row": "B"}, "c": {"row": "C"}}, round=1)
    play(race, {"a": "m1: 1D", "b": "m1: 2R", "c": "m1: 3S"})
    assert {rider(race, r).pair for r in "abc"} == {1}
    play(race, {"a": "m2: 1R", "b": "m2: 1R", "c": "m2: 1R"})
    assert {rider(race, r).pair for r in "abc"} == {2}


@pytest.mark.rules("5.3", "3", "D13")
def test_flat_road_neither_takes_nor_gives_velocita() -> None:
    """Into the flat B1 (4,4), 5R beats both digits for +2 and the flat adds nothing: V 5 becomes 7."""
    table = classic_table()
    table[1] = [4, 4, *table[1][2:]]  # B1 (4,4): flat (§3: equal digits)
    race = scenario({"piano": {"row": "B"}, "other": {"row": "C"}}, round=1, stage={"table": table, "rows": 1})
    play(race, {"piano": "m1: 5R", "other": "m1: 1R"})
    assert (rider(race, "piano").row, rider(race, "piano").pair) == (1, 1)
    assert (rider(race, "piano").r, rider(race, "piano").v) == (25, 7)

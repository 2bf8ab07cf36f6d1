"""The special moves V (and Bibitone), G, J, B, X, P and the stolen bottle (rules §6.2-§6.7, D20-D28)."""

from __future__ import annotations

import pytest

from engine.tabella import RULESET
from engine.tabella.table import classic_table

from .scenario import kinds, play, rider, scenario

# --- Vigorilla and bottles (§6.2, D20) ---------------------------------------------------------------


@pytest.mark.rules("D20", "6.2")
def test_a_vigorilla_gives_four_resistenza_even_above_thirty() -> None:
    """R has no upper limit: 30 + 4 = 34."""
    race = scenario({"anna": {"row": "C"}, "bob": {"row": "C"}}, round=6)
    play(race, {"anna": "s1: 0 ; V", "bob": "s1: 0"})
    assert (rider(race, "anna").r, rider(race, "anna").v, rider(race, "anna").own_bottle) == (34, 5, "drunk")
    assert not rider(race, "anna").doped


@pytest.mark.rules("D20", "6.2")
def test_a_bibitone_also_gives_three_velocita_and_the_doping_risk() -> None:
    """A reinforced bottle: +4 R, +3 V, and the drinker is marked for the Gazzetta."""
    race = scenario({"anna": {"row": "C", "bibitone": True}, "bob": {"row": "C"}}, round=6)
    events = play(race, {"anna": "s1: 0 ; V", "bob": "s1: 0"})
    assert (rider(race, "anna").r, rider(race, "anna").v, rider(race, "anna").doped) == (34, 8, True)
    assert kinds(events, "drink")[0].data["reinforced"] is True


@pytest.mark.rules("D20", "D28")
def test_a_vigorilla_without_a_full_bottle_in_hand_does_nothing_but_is_used_up() -> None:
    """The own bottle was stolen: V fails and cannot be tried again."""
    race = scenario({"anna": {"row": "C", "bottle": "stolen"}, "bob": {"row": "C"}}, round=6)
    events = play(race, {"anna": "s1: 0 ; V", "bob": "s1: 0"})
    assert rider(race, "anna").r == 30 and kinds(events, "drink_failed")
    assert "V" in rider(race, "anna").used


@pytest.mark.rules("D20", "D21")
def test_drinking_a_stolen_reinforced_bottle_with_v2_carries_the_doping_risk() -> None:
    """V2 drinks Bob's Bibitone: +4 R, +3 V, doped; Anna's own V is still unused."""
    stolen = {"owner": "bob", "reinforced": True}
    race = scenario({"anna": {"row": "C", "stolen": stolen}, "bob": {"row": "C", "bottle": "stolen"}}, round=6)
    play(race, {"anna": "s1: 0 ; V2", "bob": "s1: 0"})
    anna = rider(race, "anna")
    assert (anna.r, anna.v, anna.doped, anna.own_bottle) == (34, 8, True, "full")
    assert anna.stolen is not None and anna.stolen.status == "drunk"


@pytest.mark.rules("5.3", "D14", "D20")
def test_r_paid_for_a_clamp_is_not_refunded_by_a_later_drink() -> None:
    """A V 0 rider climbing pays 2 R for the clamp; the drink comes first in the round and changes nothing."""
    race = scenario({"anna": {"row": "B", "v": 0, "r": 10}, "bob": {"row": "A"}}, round=1)
    play(race, {"anna": "m1: 1R ; V", "bob": "m1: 1R"})
    # 10 + 4 drink - 1 effort = 13; B1 (3,9): +0, climb -2 -> clamp costs 2 -> 11
    assert (rider(race, "anna").r, rider(race, "anna").v) == (11, 0)


# --- Gomitata (§6.3, D22) -----------------------------------------------------------------------


@pytest.mark.rules("D22", "6.3")
def test_a_gomitata_on_a_faster_rider_in_the_same_cell_knocks_it_down_a_lane() -> None:
    """Anna (V 0 after B2's climb) elbows Luca (V 8) down: Luca falls -2 R -2 V into C2."""
    race = scenario({"anna": {"row": "B", "v": 2}, "luca": {"row": "B", "v": 9}}, round=2)
    events = play(race, {"anna": "m2: 1R ; G @Luca down", "luca": "m2: 3R"})
    luca = rider(race, "luca")
    # luca: 30 - 3 = 27 R, 9 + 1 - 2 = 8 V; falls: 25 R, 6 V; pushed down to C
    assert (luca.r, luca.v, luca.row) == (25, 6, 2)
    assert kinds(events, "gomitata")[0].data["success"] is True
    assert (rider(race, "anna").r, rider(race, "anna").row) == (29, 1)


@pytest.mark.rules("D22", "D28", "6.3")
def test_elbowing_a_rider_that_is_not_faster_makes_the_pusher_fall_and_change_lane() -> None:
    """Anna (V 7) pushes Luca (V 1): in vain, Anna falls -2 R -2 V and moves down herself."""
    race = scenario({"anna": {"row": "B", "v": 9}, "luca": {"row": "B", "v": 2}}, round=2)
    events = play(race, {"anna": "m2: 1R ; G @Luca down", "luca": "m2: 3R"})
    anna = rider(race, "anna")
    assert (anna.r, anna.v, anna.row) == (27, 5, 2)
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "not faster"
    assert (rider(race, "luca").r, rider(race, "luca").row) == (27, 1)


@pytest.mark.rules("D22", "6.3")
def test_a_rider_two_lanes_away_is_out_of_reach() -> None:
    """From A you cannot elbow a rider in C: Anna falls and drops to B."""
    race = scenario({"anna": {"row": "A", "v": 2}, "luca": {"row": "C", "v": 9}}, round=2)
    events = play(race, {"anna": "m2: 1R ; G @Luca down", "luca": "m2: 3R"})
    # anna: 29 R, A2 (7,3) descent: V 4; falls: 27 R, 2 V; moves down to B2
    assert (rider(race, "anna").r, rider(race, "anna").v, rider(race, "anna").row) == (27, 2, 1)
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "out of reach"


@pytest.mark.rules("D22", "6.3")
def test_a_push_off_the_road_is_in_vain() -> None:
    """Pushing a rider in row A upwards fails; the pusher falls and moves up into A."""
    race = scenario({"anna": {"row": "B", "v": 2}, "luca": {"row": "A", "v": 9}}, round=2)
    events = play(race, {"anna": "m2: 1R ; G @Luca up", "luca": "m2: 3R"})
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "would leave the road"
    assert (rider(race, "anna").row, rider(race, "luca").row, rider(race, "luca").r) == (0, 0, 27)


@pytest.mark.rules("D22")
def test_speeds_are_compared_when_the_gomitata_resolves_after_the_moves() -> None:
    """Equal at the start of m3, Luca's 4R gains more than Anna's 1R: the push now works."""
    race = scenario({"anna": {"row": "C"}, "luca": {"row": "C"}}, round=3)
    events = play(race, {"anna": "m3: 1R ; G @Luca up", "luca": "m3: 4R"})
    # C3 (3,0): anna +1 +2 = 8, luca +2 +2 = 9 -> success; luca falls to 24 R, 7 V, up to B3
    assert kinds(events, "gomitata")[0].data["success"] is True
    assert (rider(race, "luca").r, rider(race, "luca").v, rider(race, "luca").row) == (24, 7, 1)


@pytest.mark.rules("D22", "R-TDD-4", "5.4")
def test_in_the_sprint_a_gomitata_reaches_everyone_and_changes_no_lane() -> None:
    """Anna (V 3) elbows Luca (V 10) in s1: Luca falls -2 R -2 V and keeps his row; a direction is ignored."""
    race = scenario({"anna": {"row": "A", "v": 3}, "luca": {"row": "C", "v": 10}}, round=6)
    play(race, {"anna": "s1: 0 ; G @Luca down", "luca": "s1: 0"})
    assert (rider(race, "luca").r, rider(race, "luca").v, rider(race, "luca").row) == (28, 8, 2)
    assert race.steps[0]["anna"] == {"text": "s1: 0 ; G @Luca down"}


@pytest.mark.rules("D22", "D27")
def test_an_exhausted_rider_cannot_be_elbowed() -> None:
    """Luca stopped earlier: Anna's Gomitata has no target and she falls."""
    race = scenario(
        {
            "anna": {"row": "C", "v": 3},
            "luca": {"row": "C", "v": 10, "status": "exhausted", "r": 0},
            "bob": {"row": "C"},
        },
        round=6,
    )
    events = play(race, {"anna": "s1: 0 ; G @Luca", "bob": "s1: 0"})
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "not racing"
    assert (rider(race, "anna").r, rider(race, "anna").v, rider(race, "luca").v) == (28, 1, 10)


# --- Gancio di traino (§6.4, D23) -----------------------------------------------------------------


@pytest.mark.rules("D23", "6.4")
def test_a_gancio_in_the_same_cell_gives_a_free_next_move_and_steals_a_full_bottle() -> None:
    """Tom hooks Xena in C3: m4 costs him nothing, and her Bibitone is his (he alone is told it is one)."""
    race = scenario({"tom": {"row": "C"}, "xena": {"row": "C", "bibitone": True}}, round=3)
    events = play(race, {"tom": "m3: 1R ; J @Xena", "xena": "m3: 1R"})
    hook = kinds(events, "gancio")[0]
    assert hook.data["success"] and hook.data["stole"] and "reinforced" not in hook.data
    assert rider(race, "xena").own_bottle == "stolen"
    assert RULESET.private_view(race.state, "tom")["you"]["stolen_bottle"]["reinforced"] is True
    assert "reinforced" not in str(RULESET.public_view(race.state)["riders"])
    play(race, {"tom": "m4: 5R", "xena": "m4: 1R"})
    assert rider(race, "tom").r == 29  # only m3's effort was paid
    # the free move still counts its declared 5: V 8 after C3, then C4 (5,4): 5 > 4 -> +1, descent +2
    assert rider(race, "tom").v == 11
    play(race, {"tom": "m5: 1R ; V2", "xena": "m5: 1S"})
    assert rider(race, "tom").doped


@pytest.mark.rules("D23")
def test_a_gancio_on_a_rider_whose_bottle_is_empty_gives_only_the_free_effort() -> None:
    """Xena drank her bottle already: Tom gets the free move, no bottle."""
    race = scenario({"tom": {"row": "C"}, "xena": {"row": "C", "bottle": "drunk"}}, round=3)
    events = play(race, {"tom": "m3: 1R ; J @Xena", "xena": "m3: 1R"})
    assert kinds(events, "gancio")[0].data["stole"] is False
    assert rider(race, "tom").free_effort and rider(race, "tom").stolen is None


@pytest.mark.rules("D23", "D28")
def test_a_gancio_on_a_rider_in_another_cell_does_nothing_and_is_used_up() -> None:
    """Xena is in A3, Tom in C3: no free effort, no bottle, J gone."""
    race = scenario({"tom": {"row": "C"}, "xena": {"row": "A"}}, round=3)
    play(race, {"tom": "m3: 1R ; J @Xena", "xena": "m3: 1R"})
    tom = rider(race, "tom")
    assert (tom.free_effort, tom.stolen, "J" in tom.used, rider(race, "xena").own_bottle) == (False, None, True, "full")


@pytest.mark.rules("D23", "D11")
def test_the_gancio_is_checked_after_every_gomitata_of_the_move() -> None:
    """Eva elbows Xena out of B4 before Tom's hook resolves: the Gancio misses."""
    race = scenario({"eva": {"row": "A", "v": 1}, "tom": {"row": "B"}, "xena": {"row": "B", "v": 9}}, round=4)
    events = play(race, {"eva": "m4: 1R ; G @Xena down", "tom": "m4: 1R ; J @Xena", "xena": "m4: 1R"})
    assert kinds(events, "gomitata")[0].data["success"] is True
    assert kinds(events, "gancio")[0].data["success"] is False


# --- Bottigliata (§6.5, D24) ---------------------------------------------------------------------


@pytest.mark.rules("D24", "6.5")
def test_a_bottle_hits_for_three_in_the_same_cell_and_two_farther_away() -> None:
    """Same cell A2: -3 R. From C2 to A2: -2 R."""
    race = scenario({"anna": {"row": "A"}, "luca": {"row": "A"}}, round=2)
    play(race, {"anna": "m2: 1R ; B @Luca", "luca": "m2: 1R"})
    assert rider(race, "luca").r == 30 - 1 - 3
    race = scenario({"anna": {"row": "C"}, "luca": {"row": "A"}}, round=2)
    play(race, {"anna": "m2: 1R ; B @Luca", "luca": "m2: 1R"})
    assert rider(race, "luca").r == 30 - 1 - 2


@pytest.mark.rules("D24", "D10")
def test_at_the_start_a_bottle_always_hits_for_two() -> None:
    """Both start Cavaliera in row C: still 2, because nobody is in a cell yet."""
    race = scenario({"anna": {}, "luca": {}})
    play(race, {"anna": "start: C ; B @Luca", "luca": "start: C"})
    assert rider(race, "luca").r == 28


@pytest.mark.rules("D26", "D24", "6.7")
def test_standing_on_the_pedals_costs_two_more_against_a_bottle_only_in_that_round() -> None:
    """Luca plays P in s1: +2 V, and Anna's bottle costs him 4; Bob's bottle in s2 costs 2."""
    race = scenario({"anna": {"row": "C"}, "luca": {"row": "C"}, "bob": {"row": "C"}}, round=6)
    play(race, {"anna": "s1: 0 ; B @Luca", "luca": "s1: 0 ; P", "bob": "s1: 0"})
    assert (rider(race, "luca").r, rider(race, "luca").v) == (26, 7)
    play(race, {"anna": "s2: 0", "luca": "s2: 0", "bob": "s2: 0 ; B @Luca"})
    assert rider(race, "luca").r == 24


@pytest.mark.rules("D24", "D28")
def test_a_bottle_thrown_at_a_rider_no_longer_racing_is_lost() -> None:
    """Luca is exhausted: the bottle flies, hits nobody and is gone."""
    race = scenario(
        {"anna": {"row": "C"}, "luca": {"row": "C", "status": "exhausted", "r": 0}, "bob": {"row": "C"}}, round=6
    )
    events = play(race, {"anna": "s1: 0 ; B @Luca", "bob": "s1: 0"})
    assert kinds(events, "bottle_lost") and rider(race, "anna").own_bottle == "thrown"


@pytest.mark.rules("D24", "D20")
def test_throwing_an_undrunk_bottle_loses_its_drink() -> None:
    """B in s1 with a full bottle, then V in s2: nothing to drink."""
    race = scenario({"anna": {"row": "C"}, "luca": {"row": "C"}}, round=6)
    play(race, {"anna": "s1: 0 ; B @Luca", "luca": "s1: 0"})
    events = play(race, {"anna": "s2: 0 ; V", "luca": "s2: 0"})
    assert kinds(events, "drink_failed") and rider(race, "anna").r == 30


@pytest.mark.rules("D24", "D20")
def test_b2_throws_the_stolen_bottle_and_b_then_still_throws_the_own() -> None:
    """Two throws: B2 in s1 and B in s2, 2 R each."""
    riders = {"anna": {"row": "C", "stolen": {"owner": "luca"}}, "luca": {"row": "C", "bottle": "stolen"}}
    race = scenario(riders, round=6)
    play(race, {"anna": "s1: 0 ; B2 @Luca", "luca": "s1: 0"})
    play(race, {"anna": "s2: 0 ; B @Luca", "luca": "s2: 0"})
    assert rider(race, "luca").r == 26
    assert rider(race, "anna").stolen is not None and rider(race, "anna").stolen.status == "thrown"


@pytest.mark.rules("D20", "D28")
def test_a_rider_whose_bottle_was_stolen_has_nothing_to_throw() -> None:
    """B without the own bottle: no effect, and B is used up."""
    race = scenario({"anna": {"row": "C", "bottle": "stolen"}, "luca": {"row": "C"}}, round=6)
    events = play(race, {"anna": "s1: 0 ; B @Luca", "luca": "s1: 0"})
    assert kinds(events, "bottle_missing") and rider(race, "luca").r == 30 and "B" in rider(race, "anna").used


# --- Scia (§6.6, D25) -----------------------------------------------------------------------------


@pytest.mark.rules("example:E6", "D14", "D25", "D17", "6.6")
def test_e6_a_slow_rider_pays_every_clamp_then_takes_the_leaders_speed_in_the_scia() -> None:
    """E6: Q ends with R 2 and V 6 under the straight-move reading, R 2 and V 0 under the flat-terrain one."""
    for reading, expected in (("straight_move", (2, 6)), ("flat_terrain", (2, 0))):
        race = scenario({"q": {"row": "B", "r": 10, "v": 0}, "f": {"row": "B", "v": 7}}, round=3, scia_reading=reading)
        events = play(race, {"q": "m3: 1R ; X", "f": "m3: 3R"})
        assert rider(race, "f").v == 6
        assert (rider(race, "q").r, rider(race, "q").v) == expected, reading
        assert kinds(events, "collision")[0].data["victim"] == "q"


def _scia_table() -> list[list[int]]:
    """Rows 1-3 with a descent, a flat and a climb in pair 1 (§4.3: flat needs an explicit table)."""
    table = classic_table()
    table[0] = [5, 2, 2, 6, 3, 8, 3, 8, 3, 8]  # A1 (5,2) descent, A2 (2,6) climb
    table[1] = [4, 4, 3, 8, 3, 8, 3, 8, 3, 8]  # B1 (4,4) flat
    table[2] = [2, 6, 3, 8, 3, 8, 3, 8, 3, 8]  # C1 (2,6) climb
    return table


E7_CASES = [
    # (move, scia rider's row, leader's row, round, works with straight_move, works with flat_terrain)
    ("3S", "B", "A", 1, True, True),  # 3S into a descent pair (A1)
    ("3R", "B", "B", 1, True, True),  # 3R into a flat pair (B1)
    ("3R", "C", "C", 1, True, False),  # 3R into a climb pair (C1)
    ("3S", "C", "B", 1, False, True),  # 3S into a flat pair (B1)
    ("3S", "A", "A", 2, False, False),  # 3S from row A (ignored) into a climb pair (A2)
]


@pytest.mark.rules("example:E7", "D25", "D12", "6.6")
@pytest.mark.parametrize(("move", "row", "leader_row", "number", "straight", "flat"), E7_CASES)
def test_e7_when_the_scia_works_under_each_reading(
    move: str, row: str, leader_row: str, number: int, straight: bool, flat: bool
) -> None:
    """E7's table: each move and pair, under ``straight_move`` and ``flat_terrain``."""
    for reading, works in (("straight_move", straight), ("flat_terrain", flat)):
        race = scenario(
            {"x": {"row": row, "v": 0}, "f": {"row": leader_row, "v": 10}},
            round=number,
            stage={"table": _scia_table(), "rows": 1},
            scia_reading=reading,
        )
        label = f"m{number}"
        events = play(race, {"x": f"{label}: {move} ; X", "f": f"{label}: 1R"})
        assert kinds(events, "scia")[0].data["works"] is works, (move, reading)
        assert (rider(race, "x").v == rider(race, "f").v) is works


@pytest.mark.rules("D25")
def test_the_scia_alone_does_nothing_and_the_fastest_of_the_group_gains_two() -> None:
    """Alone in A2: no change. Fastest in A2 (descent): +2."""
    race = scenario({"x": {"row": "A"}, "f": {"row": "C"}}, round=2)
    play(race, {"x": "m2: 1R ; X", "f": "m2: 1R"})
    assert rider(race, "x").v == 5 + 0 + 2
    race = scenario({"x": {"row": "A", "v": 10}, "f": {"row": "A", "v": 2}}, round=2)
    play(race, {"x": "m2: 1R ; X", "f": "m2: 1R"})
    assert rider(race, "x").v == 10 + 2 + 2


# --- Mi alzo in piedi (§6.7) and where specials go (D9) ----------------------------------------------


@pytest.mark.rules("6.7", "D9", "D10")
def test_several_specials_in_one_round_resolve_in_the_rules_order() -> None:
    """At the start: P (+2 V) comes before Gomitate, so Anna (C, V 7) can no longer elbow Bob (B, V 6)."""
    race = scenario({"anna": {}, "bob": {}})
    events = play(race, {"anna": "start: C ; P ; G @Bob up ; B @Bob", "bob": "start: B"})
    assert [e.kind for e in events if e.kind in {"td.pedals", "td.gomitata", "td.bottigliata"}] == [
        "td.pedals",
        "td.gomitata",
        "td.bottigliata",
    ]
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "not faster"
    # Anna: V 5 + 2 = 7, falls to 5, R 28, moves up to B; Bob hit by the bottle: 29 - 2 = 27
    assert (rider(race, "anna").v, rider(race, "anna").r, rider(race, "anna").row) == (5, 28, 1)
    assert rider(race, "bob").r == 27


@pytest.mark.rules("D14", "D22", "6.8")
def test_a_gomitata_fall_below_zero_speed_is_paid_in_resistenza_at_once() -> None:
    """Anna (V 1) elbows slower Luca in s1: she falls -2 R, -2 V, and V -1 costs 1 R more: R 27, V 0."""
    race = scenario({"anna": {"row": "C", "v": 1}, "luca": {"row": "C", "v": 0}}, round=6)
    events = play(race, {"anna": "s1: 0 ; G @Luca", "luca": "s1: 0"})
    assert kinds(events, "gomitata")[0].data["clamp"] == 1
    assert (rider(race, "anna").r, rider(race, "anna").v) == (27, 0)


@pytest.mark.rules("D22", "6.3")
def test_elbowing_a_rider_of_equal_speed_is_in_vain() -> None:
    """V 6 against V 6: the target must be strictly faster, so the pusher falls to R 28, V 4."""
    race = scenario({"anna": {"row": "C", "v": 6}, "luca": {"row": "C", "v": 6}}, round=6)
    events = play(race, {"anna": "s1: 0 ; G @Luca", "luca": "s1: 0"})
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "not faster"
    assert (rider(race, "anna").r, rider(race, "anna").v, rider(race, "luca").r, rider(race, "luca").v) == (
        28,
        4,
        30,
        6,
    )


@pytest.mark.rules("D22", "D10", "5.2")
def test_at_the_start_reach_is_measured_from_the_row_an_earlier_push_left_the_target_in() -> None:
    """Cava1 pushes the Bersagliera up to row A; Cava2's push from row C then misses: out of reach, she falls."""
    race = scenario({"bers": {"v": 9}, "cava1": {}, "cava2": {}})
    events = play(
        race,
        {"bers": "start: B", "cava1": "start: C ; G @Bers up", "cava2": "start: C ; G @Bers up"},
        times={"bers": 1, "cava1": 2, "cava2": 3},
    )
    assert [str(e.data["reason"]) for e in kinds(events, "gomitata")] == ["", "out of reach"]
    # bers: V 9 + 1 = 10, R 29; falls: 8, 27; now in A. cava2: R 28, V 3, moves up to B.
    assert (rider(race, "bers").row, rider(race, "bers").r, rider(race, "bers").v) == (0, 27, 8)
    assert (rider(race, "cava2").row, rider(race, "cava2").r, rider(race, "cava2").v) == (1, 28, 3)
    assert (rider(race, "cava1").row, rider(race, "cava1").r, rider(race, "cava1").v) == (2, 30, 5)


@pytest.mark.rules("D25", "6.6")
def test_a_tie_for_the_highest_speed_in_the_scia_changes_nothing() -> None:
    """X and F both reach V 8 in the A2 descent: X is not strictly the fastest and takes no one's V: still 8."""
    race = scenario({"x": {"row": "A", "v": 6}, "f": {"row": "A", "v": 6}, "g": {"row": "C"}}, round=2)
    events = play(race, {"x": "m2: 1R ; X", "f": "m2: 1R", "g": "m2: 1R"})
    assert (rider(race, "x").v, rider(race, "f").v) == (8, 8)
    assert "X" in rider(race, "x").used and kinds(events, "scia")


@pytest.mark.rules("D24", "6.5")
def test_a_bottle_already_drunk_can_still_be_thrown() -> None:
    """ "You drank it first, right?": V in s1 (R 34), then B at Luca in s2 hits for 2."""
    race = scenario({"anna": {"row": "C"}, "luca": {"row": "C"}}, round=6)
    play(race, {"anna": "s1: 0 ; V", "luca": "s1: 0"})
    play(race, {"anna": "s2: 0 ; B @Luca", "luca": "s2: 0"})
    assert (rider(race, "anna").r, rider(race, "luca").r, rider(race, "anna").own_bottle) == (34, 28, "thrown")


@pytest.mark.rules("R-TDD-7")
def test_a_half_given_special_holds_the_plan_back_and_is_left_out_of_the_automatic_order() -> None:
    """A whole plan with a Gomitata given by its code alone is not complete; once its round, target and
    push are given it is; the automatic order drops the half-given one and plays the rest."""
    from engine.race import Race
    from engine.ruleset import Entrant

    race = Race.start("tabella", [Entrant(id="u1", name="Anna"), Entrant(id="u2", name="Ben")], 3)
    plan = {"start": "A", **{f"m{n}": {"effort": 2, "dir": "R"} for n in range(1, 6)}, "s1": 3, "s2": 1, "s3": 0}
    assert RULESET.validate(race.state, "u1", plan).complete
    half = RULESET.validate(race.state, "u1", {**plan, "special": {"code": "G"}})
    assert not half.complete and half.order["special"] == {"code": "G"}
    whole = {"special": {"code": "G", "round": "m2", "target": "u2", "dir": "up"}}
    done = RULESET.validate(race.state, "u1", whole, half.order)
    assert done.complete and done.order["specials"] == [{"code": "G", "round": "m2", "target": "u2", "dir": "up"}]
    automatic = RULESET.auto_order(race.state, "u1", half.order)
    assert "special" not in automatic and automatic["start"] == "A" and automatic["s1"] == 3
    assert RULESET.validate(race.state, "u1", automatic).complete

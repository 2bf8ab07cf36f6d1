"""The start, the sprint and exhaustion (rules §5.2, §5.4, §6.9; D10, D15, D16, D27)."""

from __future__ import annotations

import pytest

from .scenario import kinds, play, rider, scenario


@pytest.mark.rules("5.2", "D10", "4.4")
def test_the_three_starts_set_the_row_and_trade_resistenza_for_velocita() -> None:
    """Every rider starts at R 30, V 5 before pair 1; Aggressiva A: R 28 V 7; Bersagliera B: R 29 V 6."""
    race = scenario({"aggro": {}, "bers": {}, "cava": {}})
    assert {(r.r, r.v, r.pair, r.status) for r in race.state.riders} == {(30, 5, 0, "waiting")}
    play(race, {"aggro": "start: aggressiva", "bers": "start: B", "cava": "C"})
    got = {rid: (rider(race, rid).row, rider(race, rid).r, rider(race, rid).v) for rid in ("aggro", "bers", "cava")}
    assert got == {"aggro": (0, 28, 7), "bers": (1, 29, 6), "cava": (2, 30, 5)}


@pytest.mark.rules("D10", "D22", "5.2")
def test_at_the_start_a_gomitata_on_a_faster_start_in_the_next_row_moves_it() -> None:
    """Cavaliera elbows the Bersagliera up: it falls to R 27, V 4 and starts from row A, bonuses kept."""
    race = scenario({"cava": {}, "bers": {}})
    events = play(race, {"cava": "start: C ; G @Bers up", "bers": "start: B"})
    assert kinds(events, "gomitata")[0].data["success"] is True
    assert (rider(race, "bers").row, rider(race, "bers").r, rider(race, "bers").v) == (0, 27, 4)


@pytest.mark.rules("D10", "D22", "D28", "5.2")
def test_at_the_start_a_gomitata_needs_a_faster_start_not_only_a_higher_speed() -> None:
    """Bersagliera (V 6) pushes a Cavaliera that has V 9: in vain, the pusher falls and drops to row C."""
    race = scenario({"bers": {}, "cava": {"v": 9}})
    events = play(race, {"bers": "start: B ; G @Cava down", "cava": "start: C"})
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "did not choose a faster start"
    assert (rider(race, "bers").row, rider(race, "bers").r, rider(race, "bers").v) == (2, 27, 4)


@pytest.mark.rules("D10", "D22")
def test_at_the_start_row_a_is_out_of_reach_from_row_c() -> None:
    """Cavaliera cannot elbow the Aggressiva two rows up: it falls and moves to row B."""
    race = scenario({"cava": {}, "aggro": {}})
    events = play(race, {"cava": "start: C ; G @Aggro up", "aggro": "start: A"})
    assert str(kinds(events, "gomitata")[0].data["reason"]) == "out of reach"
    assert (rider(race, "cava").row, rider(race, "cava").r, rider(race, "cava").v) == (1, 28, 3)


@pytest.mark.rules("example:10.1", "5.4", "D16")
def test_the_sprint_4_1_2_turns_seven_resistenza_into_seven_velocita() -> None:
    """§10.1: spend 4, 1, 2 R in the three sprint rounds for +4, +1, +2 V."""
    race = scenario({"anna": {"row": "C"}, "bob": {"row": "C"}}, round=6)
    seen = []
    for label, n in (("s1", 4), ("s2", 1), ("s3", 2)):
        play(race, {"anna": f"{label}: {n}", "bob": f"{label}: 0"})
        seen.append((rider(race, "anna").r, rider(race, "anna").v))
    assert seen == [(26, 9), (25, 10), (23, 12)]


@pytest.mark.rules("D16")
def test_a_sprint_intensity_above_the_resistenza_left_is_reduced_to_it() -> None:
    """R 3 and intensity 10 in s3: pays 3, gains 3."""
    race = scenario({"anna": {"row": "C", "r": 3}, "bob": {"row": "C"}}, round=8)
    events = play(race, {"anna": "s3: 10", "bob": "s3: 0"})
    assert (rider(race, "anna").r, rider(race, "anna").v) == (0, 8)
    assert next(e for e in kinds(events, "sprint") if e.data["rider"] == "anna").data["paid"] == 3


@pytest.mark.rules("D27", "D16", "6.9")
def test_a_drink_in_the_round_saves_a_rider_at_zero_only_for_that_round() -> None:
    """R 1, s1: V and 5: drinks to 5, pays 5, R 0 but saved; s2 at R 0 without a drink: exhausted at progress 7."""
    race = scenario({"anna": {"row": "C", "r": 1}, "bob": {"row": "C"}}, round=6)
    play(race, {"anna": "s1: 5 ; V", "bob": "s1: 0"})
    assert (rider(race, "anna").status, rider(race, "anna").r, rider(race, "anna").v) == ("racing", 0, 10)
    events = play(race, {"anna": "s2: 0", "bob": "s2: 0"})
    anna = rider(race, "anna")
    assert (anna.status, anna.progress, anna.v_at_stop) == ("exhausted", 7, 10)
    assert kinds(events, "exhausted")[0].data["rider"] == "anna"


@pytest.mark.rules("D27")
def test_reaching_zero_in_the_last_sprint_is_not_running_out_prematurely() -> None:
    """All R spent in s3: a finisher, not exhausted."""
    race = scenario({"anna": {"row": "C", "r": 4}, "bob": {"row": "C"}}, round=8)
    play(race, {"anna": "s3: 4", "bob": "s3: 0"})
    assert rider(race, "anna").status == "racing" and race.result().standings[0].figures["status"] == "finished"


@pytest.mark.rules("D27", "6.9")
def test_an_exhausted_rider_stays_where_it_stopped_and_is_no_longer_asked() -> None:
    """Exhausted in m2 at B2: not awaited for m3, still at B2 with progress 2."""
    race = scenario({"anna": {"row": "B", "r": 1}, "bob": {"row": "A"}, "carl": {"row": "C"}}, round=2)
    play(race, {"anna": "m2: 1R", "bob": "m2: 1R", "carl": "m2: 1R"})
    anna = rider(race, "anna")
    assert (anna.status, anna.progress, anna.row, anna.pair) == ("exhausted", 2, 1, 2)
    assert {d.entrant for d in race.awaited()} == {"bob", "carl"}
    play(race, {"bob": "m3: 1R", "carl": "m3: 1R"})
    assert (rider(race, "anna").row, rider(race, "anna").pair) == (1, 2)


@pytest.mark.rules("D27", "D15")
def test_a_rider_that_reaches_zero_still_acts_to_the_end_of_the_round() -> None:
    """R 1, m1: 1R and B: the effort empties R, the bottle still flies; then the rider stops."""
    race = scenario({"anna": {"row": "C", "r": 1}, "luca": {"row": "A"}}, round=1)
    play(race, {"anna": "m1: 1R ; B @Luca", "luca": "m1: 1R"})
    assert rider(race, "luca").r == 30 - 1 - 2
    assert rider(race, "anna").status == "exhausted"


@pytest.mark.rules("D27", "D10")
def test_a_rider_at_zero_after_the_start_is_exhausted_at_progress_zero() -> None:
    """R 2 and an Aggressiva start: R 0 at the end of the start round, stopped at progress 0."""
    race = scenario({"anna": {"r": 2}, "bob": {}, "carl": {}})
    play(race, {"anna": "start: A", "bob": "start: C", "carl": "start: C"})
    assert (rider(race, "anna").status, rider(race, "anna").progress) == ("exhausted", 0)


@pytest.mark.rules("5.2", "4.4")
def test_after_the_start_the_riders_stand_on_their_rows_still_before_pair_1() -> None:
    """The start only picks the row: pair 1 is entered by the first route move, m1."""
    race = scenario({"aggro": {}, "cava": {}})
    play(race, {"aggro": "start: A", "cava": "start: C"})
    assert [(rider(race, rid).row, rider(race, rid).pair) for rid in ("aggro", "cava")] == [(0, 0), (2, 0)]

"""A round (§4, §6): movement order, wind, trains, wheel, relay, attack, bottles, feed zones, sections."""

from __future__ import annotations

import pytest

from .scenario import OPEN_COURSE, hold, kinds, of_kind, play, race, spot


def _start(events: list) -> dict:  # type: ignore[type-arg]
    return of_kind(events, "mc.round_start")[0].data


# --- order, wind, trains ---------------------------------------------------------------------------
@pytest.mark.rules("D10", "4.1")
def test_the_leader_moves_first_and_on_one_row_the_cyclist_on_the_left_goes_first() -> None:
    """Order: furthest first; on a row, lower lane first; fixed at the start of the round."""
    r = race([("a", 1, 10, 3), ("a", 2, 10, 1), ("b", 1, 12, 5), ("b", 2, 8, 2)])
    events = play(r, {"a": "#1 move 1\n#2 move 1", "b": "#1 move 1\n#2 move 1"})
    assert _start(events)["order"][:4] == ["b#1", "a#2", "a#1", "b#2"]
    moved = [e.data["cyclist"] for e in of_kind(events, "mc.move") if e.data["taken"]]
    assert moved == ["b#1", "a#2", "a#1", "b#2"]


@pytest.mark.rules("D10")
def test_a_cyclist_that_moves_is_not_re_ordered() -> None:
    """a#2 on row 10 rides past a#1 (row 12) waiting on its own row; a#1 still acted first."""
    r = race([("a", 1, 12, 1), ("a", 2, 10, 5)])
    events = play(r, {"a": "#1 move 0\n#2 move 4"})
    moves = [e.data["cyclist"] for e in of_kind(events, "mc.move")]
    assert moves.index("a#1") < moves.index("a#2")
    assert spot(r, "a#2") == (14, 5)


@pytest.mark.rules("4.2")
def test_a_cyclist_with_nobody_directly_in_front_rides_in_the_wind_and_a_rock_gives_no_shelter() -> None:
    """Sheltered only by a cyclist in the same lane on the next row; a rock ahead does not count."""
    stage = {**OPEN_COURSE, "rocks": [[10, 4]]}
    r = race([("a", 1, 11, 2), ("a", 2, 10, 2), ("a", 3, 9, 4), ("b", 1, 10, 3)], stage=stage)
    wind = _start(play(r, {"a": hold(r, "a"), "b": hold(r, "b")}))["in_wind"]
    assert "a#2" not in wind
    assert {"a#1", "a#3", "b#1"} <= set(wind)


@pytest.mark.rules("D13", "4.2")
def test_a_train_is_a_line_in_one_lane_on_consecutive_rows_and_diagonals_do_not_count() -> None:
    """Rows 10-12 in lane 3 form a train; a cyclist on row 9, lane 4 is not part of it."""
    r = race([("a", 1, 12, 3), ("b", 1, 11, 3), ("a", 2, 10, 3), ("b", 2, 9, 4), ("a", 3, 14, 3)])
    trains = _start(play(r, {"a": hold(r, "a"), "b": hold(r, "b")}))["trains"]
    assert trains == [["a#1", "b#1", "a#2"]]


# --- bottles, fatigue -------------------------------------------------------------------------------------
@pytest.mark.rules("D11", "D12", "6.4")
def test_a_bottle_pass_applies_before_fatigue_so_the_giver_is_fatigued_at_once_and_still_moves() -> None:
    """Blue #3 passes to black #1 directly behind: #3 turns black and rides 7 - 1 - 1 = 5; #1 turns blue."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black")])
    events = play(r, {"a": "#3 pass-bottle-to #1\n#3 move\n#1 move 0"})
    assert r.state.cyclists["a#3"].bottle is False
    assert r.state.cyclists["a#1"].bottle is True
    assert _start(events)["fatigued"] == ["a#3"]
    assert spot(r, "a#3") == (17, 2)
    assert kinds(events).index("mc.bottle_pass") < kinds(events).index("mc.round_start")


@pytest.mark.rules("D12", "D11")
def test_a_domestique_that_receives_a_bottle_is_not_fatigued_this_round() -> None:
    """Black domestique #4 gets #3's bottle: #4 is fresh this round, #3 is fatigued."""
    r = race([("a", 3, 12, 2), ("a", 4, 11, 2, "black")], team_size=4)
    events = play(r, {"a": "#3 pass-bottle-to #4"})
    assert _start(events)["fatigued"] == ["a#3"]


@pytest.mark.rules("D12", "6.4")
def test_a_bottle_goes_only_to_a_black_team_mate_directly_behind_checked_against_the_starting_bases() -> None:
    """Passing to a blue team-mate, or from a domestique that was black at the start, is ignored."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2)])
    events = play(r, {"a": "#3 pass-bottle-to #1"})
    assert of_kind(events, "mc.pass_ignored")
    assert r.state.cyclists["a#3"].bottle is True
    r = race([("a", 3, 13, 2), ("a", 4, 12, 2, "black"), ("a", 1, 11, 2, "black")], team_size=4)
    events = play(r, {"a": "#3 pass-bottle-to #4\n#4 pass-bottle-to #1"})
    assert [e.data["cyclist"] for e in of_kind(events, "mc.pass_ignored")] == ["a#4"]
    assert r.state.cyclists["a#4"].bottle is True and r.state.cyclists["a#1"].bottle is False
    r = race([("a", 3, 12, 2), ("a", 1, 10, 2, "black")])
    assert of_kind(play(r, {"a": "#3 pass-bottle-to #1"}), "mc.pass_ignored")


@pytest.mark.rules("example:bottle-pass", "D12", "D14")
def test_the_domestique_feeds_its_climber_in_the_mountains_who_attacks_ten_spaces() -> None:
    """#3 passes to #2 behind it on the climb: #3 rides 5 - 1 - 1 = 3; #2, sheltered, attacks 7 + 3 = 10."""
    r = race([("a", 3, 45, 2), ("a", 2, 44, 2, "black")])
    events = play(r, {"a": "#3 pass-bottle-to #2\n#3 move\n#2 attack"})
    assert spot(r, "a#3") == (48, 2)
    attack = of_kind(events, "mc.attack")[0].data
    assert attack["cyclist"] == "a#2" and attack["taken"] == 10
    assert spot(r, "a#2") == (54, 2)  # around #3 on row 48 by lane-seeking back to lane 2
    assert not r.state.cyclists["a#2"].bottle and not r.state.cyclists["a#3"].bottle
    assert "a#3" in _start(events)["fatigued"] and "a#2" not in _start(events)["in_wind"]


@pytest.mark.rules("example:fatigued-domestique", "D14", "D17", "6.5", "6.6")
def test_a_fatigued_domestique_refills_at_the_feed_zone_within_its_move_and_is_fresh_next_round() -> None:
    """Black #3 alone on the plains rides 5, turns blue on the supply space, then rides 6 next round."""
    stage = {**OPEN_COURSE, "supply_spaces": [[4, 1]]}
    r = race([("a", 3, 2, 1, "black"), ("a", 1, 3, 5)], stage=stage)
    events = play(r, {"a": "#3 move"})
    assert spot(r, "a#3") == (7, 1)
    assert r.state.cyclists["a#3"].bottle is True
    assert of_kind(events, "mc.refill")[0].data["row"] == 4
    events = play(r, {"a": "#3 move"})
    assert "a#3" not in _start(events)["fatigued"]
    assert spot(r, "a#3") == (13, 1)


@pytest.mark.rules("D17")
def test_only_domestiques_refill_ending_on_the_supply_counts_starting_on_it_does_not() -> None:
    """A black sprinter stays black; a domestique ending its move there refills; one leaving it does not."""
    stage = {**OPEN_COURSE, "supply_spaces": [[6, 1], [10, 3]]}
    r = race([("a", 1, 2, 1, "black"), ("a", 3, 7, 3, "black"), ("b", 3, 10, 5, "black")], stage=stage)
    play(r, {"a": "#1 move\n#3 move 3", "b": hold(r, "b")})
    assert spot(r, "a#1") == (6, 1) and not r.state.cyclists["a#1"].bottle
    assert spot(r, "a#3") == (10, 3) and r.state.cyclists["a#3"].bottle
    stage = {**OPEN_COURSE, "supply_spaces": [[5, 2]]}
    r = race([("a", 3, 5, 2, "black")], stage=stage)
    play(r, {"a": "#3 move"})
    assert not r.state.cyclists["a#3"].bottle


# --- wheel and relay --------------------------------------------------------------------------------------
@pytest.mark.rules("example:wheel-and-relay", "D10", "D15", "D16", "6.1", "6.2")
def test_the_train_rolls_on_a_rides_six_b_wheels_behind_it_and_c_relays_to_the_front() -> None:
    """Lane 3: A (row 12) rides 6 to row 18, B wheels to row 17, C relays to row 19."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3), ("a", 1, 10, 3)])
    events = play(r, {"a": "#3 move path=F,F,F,F,F,F\n#2 wheel\n#1 relay"})
    assert (spot(r, "a#3"), spot(r, "a#2"), spot(r, "a#1")) == ((18, 3), (17, 3), (19, 3))
    mine = [e.kind for e in events if e.data.get("cyclist") in ("a#1", "a#2", "a#3")]
    assert mine == ["mc.move", "mc.wheel", "mc.relay"]


@pytest.mark.rules("example:wheel-and-relay", "D23", "D10")
def test_a_relay_onto_an_occupied_space_falls_back_to_a_normal_move_at_the_relayers_own_place() -> None:
    """With B's #1 waiting on row 19, lane 3, C instead rides its 5 (sheltered sprinter) to row 15."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3), ("a", 1, 10, 3), ("b", 1, 19, 3)])
    events = play(r, {"a": "#3 move path=F,F,F,F,F,F\n#2 wheel\n#1 relay", "b": "#1 move 0"})
    assert spot(r, "a#1") == (15, 3)
    fallback = of_kind(events, "mc.fallback")[0].data
    assert fallback["cyclist"] == "a#1" and fallback["action"].key == "mc.action.relay"
    assert fallback["why"].key == "mc.why.relay_space" and fallback["why"].params == {
        "who": "A #3",
        "row": 19,
        "lane": 3,
    }


@pytest.mark.rules("D16")
def test_a_wheel_follows_the_leader_into_its_new_lane_and_stays_put_if_the_leader_did_not_move() -> None:
    """The wheeler ends directly behind the followed cyclist's current space, whatever its lane."""
    r = race([("a", 3, 10, 3), ("a", 1, 9, 3)])
    play(r, {"a": "#3 move path=FL,F,F\n#1 wheel"})
    assert spot(r, "a#1") == (12, 2)
    r = race([("a", 3, 10, 3), ("a", 1, 9, 3)])
    events = play(r, {"a": "#3 move 0\n#1 wheel"})
    assert spot(r, "a#1") == (9, 3) and of_kind(events, "mc.wheel")


@pytest.mark.rules("D15", "D16")
def test_a_wheel_ignores_the_maximum_and_several_riders_wheel_one_after_the_other() -> None:
    """The climber (its own maximum 5) wheels 6 rows behind the domestique; the sprinter wheels behind it."""
    r = race([("a", 3, 12, 1), ("a", 2, 11, 1), ("a", 1, 10, 1)])
    events = play(r, {"a": "#3 move 6\n#2 wheel\n#1 wheel"})
    assert (spot(r, "a#2"), spot(r, "a#1")) == ((17, 1), (16, 1))
    assert [e.data["cyclist"] for e in of_kind(events, "mc.wheel")] == ["a#2", "a#1"]


@pytest.mark.rules("D15", "D23")
def test_the_head_of_a_train_can_neither_wheel_nor_relay_and_moves_normally_instead() -> None:
    """A wheel intent with nobody in front falls back to a move of its maximum."""
    r = race([("a", 3, 12, 1), ("a", 2, 11, 1)])
    events = play(r, {"a": "#3 wheel lane=2\n#2 move 0"})
    assert of_kind(events, "mc.fallback")[0].data["cyclist"] == "a#3"
    assert spot(r, "a#3") == (18, 2)


@pytest.mark.rules("D15", "D23", "9.2")
def test_the_head_of_a_train_told_to_relay_moves_normally_and_the_report_says_why() -> None:
    """Nobody in front of #3: its relay becomes a move of its maximum, 7 - 1 in the wind, towards lane 2."""
    r = race([("a", 3, 12, 1), ("a", 2, 11, 1)])
    events = play(r, {"a": "#3 relay lane=2\n#2 move 0"})
    assert [(e.data["cyclist"], e.data["action"].key) for e in of_kind(events, "mc.fallback")] == [
        ("a#3", "mc.action.relay")
    ]
    assert spot(r, "a#3") == (18, 2)


@pytest.mark.rules("D16")
def test_a_wheel_needs_the_space_behind_the_leader_free() -> None:
    """b#2 sits right behind where a#3 ends: a#1 can't wheel and rides normally instead."""
    r = race([("a", 3, 10, 3), ("a", 1, 9, 3), ("b", 2, 14, 3)])
    events = play(r, {"a": "#3 move 5\n#1 wheel", "b": "#2 move 0"})
    # a#3 seeks lane 3 around b#2: rows 11, 12, 13, then FL to (14, 2), FR to (15, 3); behind it is b#2.
    assert spot(r, "a#3") == (15, 3)
    assert of_kind(events, "mc.fallback")[0].data["cyclist"] == "a#1"
    assert spot(r, "a#1") == (14, 2)  # its own 5, sheltered: rows 10-13, then FL around b#2


@pytest.mark.rules("6.2", "D16")
def test_only_the_front_four_of_a_train_may_relay() -> None:
    """The fifth cyclist of a train can't relay; the fourth can."""
    spots = [("a", 3, 15, 2), ("b", 3, 14, 2), ("a", 4, 13, 2), ("b", 4, 12, 2), ("a", 5, 11, 2)]
    r = race(spots, team_size=5)
    events = play(r, {"a": "#3 move 3\n#4 relay\n#5 relay", "b": "#3 wheel\n#4 wheel"})
    # a#3 to row 18; b#3 wheels to 17; a#4 relays to 19; b#4 wheels behind a#4 (row 18 is taken).
    assert spot(r, "a#4") == (19, 2)
    falls = of_kind(events, "mc.fallback")
    assert "a#5" in [e.data["cyclist"] for e in falls]
    assert any("front four" in e.message.text for e in falls)


@pytest.mark.rules("6.2", "D16")
def test_a_relay_in_front_of_a_leader_on_the_last_row_crosses_the_line() -> None:
    """The head stops on row 70; the cyclist behind relays over the line."""
    r = race([("a", 3, 68, 2), ("a", 1, 67, 2)])
    play(r, {"a": "#3 move 2\n#1 relay"})
    assert r.state.cyclists["a#1"].crossed and r.state.cyclists["a#1"].place == 1


@pytest.mark.rules("6.1", "6.6")
@pytest.mark.parametrize(
    ("spots", "text", "who", "why"),
    [
        ([("a", 3, 45, 1), ("a", 1, 44, 1)], "#3 move\n#1 wheel", "a#1", "mountains"),
        ([("a", 1, 10, 1), ("a", 3, 9, 1, "black")], "#1 move\n#3 wheel", "a#3", "fatigued"),
        ([("a", 1, 22, 1), ("a", 2, 21, 1)], "#1 attack\n#2 wheel", "a#2", "attacked"),
        ([("a", 3, 70, 1), ("a", 1, 69, 1), ("a", 2, 68, 1)], "#3 move\n#1 move 0\n#2 relay", "a#2", "crossed"),
    ],
)
def test_no_wheel_or_relay_for_a_sprinter_in_the_mountains_a_fatigued_domestique_behind_an_attacker_or_a_finisher(
    spots: list,
    text: str,
    who: str,
    why: str,  # type: ignore[type-arg]
) -> None:
    """Each excluded cyclist falls back to a normal move, and the report says why."""
    r = race(spots)
    events = play(r, {"a": text})
    falls = [e for e in of_kind(events, "mc.fallback") if e.data["cyclist"] == who]
    assert falls and why in falls[0].message.text


# --- attacks ---------------------------------------------------------------------------------------------
@pytest.mark.rules("D18", "6.3")
def test_a_blocked_attack_still_throws_the_bottle_and_still_stops_the_wheel_behind() -> None:
    """Boxed in, the sprinter attacks 0 steps: black base; the climber behind it may not wheel."""
    spots = [("a", 1, 22, 1), ("a", 2, 21, 1), ("b", 1, 23, 1), ("b", 2, 23, 2)]
    r = race(spots)
    events = play(r, {"a": "#1 attack\n#2 wheel", "b": "#1 move 0\n#2 move 0"})
    assert of_kind(events, "mc.attack")[0].data["taken"] == 0
    assert r.state.cyclists["a#1"].bottle is False
    assert of_kind(events, "mc.fallback")[0].data["cyclist"] == "a#2"


@pytest.mark.rules("D18")
def test_a_domestique_that_attacked_is_fatigued_from_the_next_round_and_no_feed_zone_refills_an_attack() -> None:
    """The attacker rides past a supply space still carrying its bottle, throws it, and is fatigued next round."""
    stage = {**OPEN_COURSE, "supply_spaces": [[7, 2]]}
    r = race([("a", 3, 5, 2)], stage=stage)
    play(r, {"a": "#3 attack"})
    assert spot(r, "a#3") == (14, 2) and r.state.cyclists["a#3"].bottle is False
    events = play(r, {"a": "#3 move"})
    assert "a#3" in _start(events)["fatigued"]


@pytest.mark.rules("D4", "D14", "D23", "6.3")
def test_an_attack_follows_the_path_it_was_given() -> None:
    """A climber attacking in the mountains steps FL, F, F: three of its 7 - 1 + 3, ending one lane left."""
    r = race([("a", 2, 45, 2)])
    events = play(r, {"a": "#2 attack path=FL,F,F"})
    assert of_kind(events, "mc.attack")[0].data["taken"] == 3
    assert spot(r, "a#2") == (48, 1)


@pytest.mark.rules("6.3", "D23")
def test_an_attack_outside_the_riders_own_section_is_a_normal_move_and_the_bottle_is_kept() -> None:
    """A climber on the plains can't attack: it rides its maximum and keeps its blue base."""
    r = race([("a", 2, 5, 2)])
    events = play(r, {"a": "#2 attack"})
    assert spot(r, "a#2") == (9, 2) and r.state.cyclists["a#2"].bottle
    assert of_kind(events, "mc.fallback")[0].data["action"].key == "mc.action.attack"


# --- the line, sections ----------------------------------------------------------------------------------
@pytest.mark.rules("D16", "D20", "7")
def test_a_relay_onto_the_last_row_stays_on_the_road() -> None:
    """A#3 rides to row 69; A#1 relays in front of it onto row 70, the last row: not beyond it, so not across."""
    r = race([("a", 3, 68, 2), ("a", 1, 67, 2)])
    play(r, {"a": "#3 move 1\n#1 relay"})
    assert (spot(r, "a#3"), spot(r, "a#1")) == ((69, 2), (70, 2))
    assert not r.state.cyclists["a#1"].crossed and r.state.finish_order == []


@pytest.mark.rules("D16", "D23")
def test_no_relay_onto_an_occupied_space_of_the_last_row() -> None:
    """B#1 waits on row 70, lane 2: A#1 can't relay there, and its own 5 go round A#3 and B#1 and over the line."""
    r = race([("a", 3, 68, 2), ("a", 1, 67, 2), ("b", 1, 70, 2)])
    events = play(r, {"a": "#3 move 1\n#1 relay", "b": "#1 move 0"})
    assert [(e.data["cyclist"], e.data["action"].key) for e in of_kind(events, "mc.fallback")] == [
        ("a#1", "mc.action.relay")
    ]
    # Lane-seeking towards lane 2: F to (68, 2), FL round A#3 to (69, 1), F to (70, 1), then over the line.
    assert [e.data["taken"] for e in of_kind(events, "mc.move_finish")] == [4]
    assert r.state.finish_order == ["a#1"] and spot(r, "b#1") == (70, 2)


@pytest.mark.rules("D19", "7")
def test_crossings_in_one_round_are_placed_in_movement_order() -> None:
    """The leader crosses first even though the one behind rides further past the line."""
    r = race([("b", 1, 69, 1), ("a", 3, 67, 1), ("a", 1, 66, 5)])
    play(r, {"a": "#3 move\n#1 move", "b": "#1 move"})
    assert r.state.finish_order[:2] == ["b#1", "a#3"]


@pytest.mark.rules("D20", "7")
def test_the_first_cyclist_past_the_sections_last_row_in_movement_order_takes_the_section_any_role() -> None:
    """A domestique leaving the sprint section first wins it, before the sprinter behind it."""
    r = race([("a", 3, 29, 1), ("b", 1, 28, 2)])
    events = play(r, {"a": "#3 move 2", "b": "#1 move 7"})
    assert r.state.section_winners["sprint"] == "a#3"
    assert [e.data["cyclist"] for e in of_kind(events, "mc.sprint_exit")] == ["a#3"]


@pytest.mark.rules("D20")
def test_a_wheel_out_of_the_section_counts_and_a_cyclist_still_in_it_does_not() -> None:
    """The leader stops on the section's last row; the wheeler behind stays in; nobody wins it yet."""
    r = race([("a", 3, 58, 1), ("a", 2, 57, 1)])
    play(r, {"a": "#3 move 2\n#2 wheel"})
    assert r.state.section_winners["mountain"] is None
    play(r, {"a": "#3 move 1\n#2 wheel"})
    assert r.state.section_winners["mountain"] == "a#3"

"""Review scenarios: rulings pinned to the numbers worked out by hand from the rules document.

Each test states its hand calculation in a comment, so a reader can check the expected spaces without
running the engine.
"""

from __future__ import annotations

import pytest

from engine.mind_cycling import RULESET

from .scenario import of_kind, play, race, spot

HOLD = "#1 move 0\n#2 move 0\n#3 move 0"


def _actors(events: list) -> list[str]:  # type: ignore[type-arg]
    """Who acted, in the order the round report tells it (moves, attacks, wheels, relays)."""
    acts = ("mc.move", "mc.attack", "mc.wheel", "mc.relay")
    return [e.data["cyclist"] for e in events if e.kind in acts]


@pytest.mark.rules("D10", "4.1")
def test_a_wheeler_moves_right_after_its_leader_before_a_rider_further_left_on_its_own_row() -> None:
    """a#2 (row 11, lane 3) wheels behind a#3 before b#1 (row 11, lane 1) moves, though b#1 is first on that row."""
    r = race([("a", 3, 12, 3), ("b", 1, 11, 1), ("a", 2, 11, 3)])
    events = play(r, {"a": "#3 move 3\n#2 wheel", "b": "#1 move 1"})
    assert _actors(events)[:3] == ["a#3", "a#2", "b#1"]
    # a#3: rows 13, 14, 15 in lane 3; a#2 ends directly behind it.
    assert spot(r, "a#3") == (15, 3) and spot(r, "a#2") == (14, 3)


@pytest.mark.rules("D10", "D23", "6.3")
def test_a_wheel_refused_behind_an_attacker_is_ridden_at_the_riders_own_place_after_the_rider_on_its_left() -> None:
    """a#3 attacks, so a#2 may not wheel: it moves after b#1 (lane 1 of its row), its own 5 as a sheltered climber."""
    r = race([("a", 3, 12, 3), ("b", 1, 11, 1), ("a", 2, 11, 3)])
    events = play(r, {"a": "#3 attack 3\n#2 wheel", "b": "#1 move 1"})
    assert _actors(events)[:3] == ["a#3", "b#1", "a#2"]
    # a#3 attacks 3 to row 15; a#2 (climber, plains, sheltered at the start): 5 steps, rows 12-16, lane 3.
    assert spot(r, "a#2") == (16, 3)
    assert of_kind(events, "mc.fallback")[0].data["cyclist"] == "a#2"


@pytest.mark.rules("D16", "6.2", "D23")
def test_after_a_relay_the_space_behind_the_relayer_is_the_heads_and_the_last_rider_cannot_wheel_into_it() -> None:
    """A rides 6 to row 18, B relays to 19, C's wheel (behind B = row 18) is taken: C rides its 5 to row 15."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3), ("a", 1, 10, 3)])
    events = play(r, {"a": "#3 move 6\n#2 relay\n#1 wheel"})
    assert (spot(r, "a#3"), spot(r, "a#2"), spot(r, "a#1")) == ((18, 3), (19, 3), (15, 3))
    assert [e.data["cyclist"] for e in of_kind(events, "mc.fallback")] == ["a#1"]


@pytest.mark.rules("D16", "6.2")
def test_a_relay_goes_in_front_of_the_head_in_the_lane_the_head_moved_to() -> None:
    """The head rides F, FR, F from (12, 3) to (15, 4); the relayer lands on (16, 4)."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3)])
    play(r, {"a": "#3 move path=F,FR,F\n#2 relay"})
    assert spot(r, "a#3") == (15, 4) and spot(r, "a#2") == (16, 4)


@pytest.mark.rules("D20", "6.2")
def test_a_relay_out_of_the_sprint_takes_the_section_from_the_head_that_stopped_on_its_last_row() -> None:
    """The head rides 2 to row 30 (the sprint's last row): still in; the climber relays to row 31 and is first out."""
    r = race([("a", 3, 28, 3), ("a", 2, 27, 3)])
    events = play(r, {"a": "#3 move 2\n#2 relay"})
    assert spot(r, "a#3") == (30, 3) and spot(r, "a#2") == (31, 3)
    assert r.state.section_winners["sprint"] == "a#2"
    assert [e.data["cyclist"] for e in of_kind(events, "mc.sprint_exit")] == ["a#2"]


@pytest.mark.rules("6.1", "D23")
def test_a_sprinter_in_the_mountains_refused_its_wheel_rides_its_three() -> None:
    """a#3 (domestique, climb, wind) rides 5 - 1 = 4 to row 49; the sprinter behind, sheltered, rides 3 to row 47."""
    r = race([("a", 3, 45, 1), ("a", 1, 44, 1)])
    play(r, {"a": "#3 move\n#1 wheel"})
    assert spot(r, "a#3") == (49, 1) and spot(r, "a#1") == (47, 1)


@pytest.mark.rules("6.3", "D14", "D23")
def test_the_climber_behind_an_attacking_sprinter_rides_its_own_three_in_the_sprint() -> None:
    """Sprinter in the sprint, in the wind: 7 - 1 + 3 = 9 from row 22 to 31; the climber behind rides 3 to row 24."""
    r = race([("a", 1, 22, 1), ("a", 2, 21, 1)])
    play(r, {"a": "#1 attack\n#2 wheel"})
    assert spot(r, "a#1") == (31, 1) and spot(r, "a#2") == (24, 1)


@pytest.mark.rules("7", "D19", "D23")
def test_a_rider_whose_train_leader_crossed_may_not_relay_and_rides_over_the_line_second() -> None:
    """a#3 crosses from row 70; a#2 (row 68) can't relay, seeks lane 1 around a#1: FR, FL, then F over the line."""
    r = race([("a", 3, 70, 1), ("a", 1, 69, 1), ("a", 2, 68, 1)])
    events = play(r, {"a": "#3 move\n#1 move 0\n#2 relay"})
    assert r.state.finish_order == ["a#3", "a#2"]
    assert of_kind(events, "mc.fallback")[0].data["cyclist"] == "a#2"
    moved = next(e.data for e in of_kind(events, "mc.move_finish") if e.data["cyclist"] == "a#2")
    assert moved["taken"] == 3 and moved["crossed"] is True


@pytest.mark.rules("example:fatigued-domestique", "6.6", "D23")
def test_a_fatigued_domestique_may_not_wheel_and_rides_its_six_sheltered() -> None:
    """Black #3 behind the sprinter: no wheel; sheltered on the plains 7 - 1 = 6, around the sprinter on row 14."""
    r = race([("a", 1, 10, 1), ("a", 3, 9, 1, "black")])
    events = play(r, {"a": "#1 move\n#3 wheel"})
    # a#1 in the wind: 5 - 1 = 4, to (14, 1). a#3 from (9, 1): rows 10-13 in lane 1, FR to (14, 2), FL to (15, 1).
    assert spot(r, "a#1") == (14, 1)
    assert spot(r, "a#3") == (15, 1)
    assert "fatigued" in of_kind(events, "mc.fallback")[0].message.text


MINI = {"course": ["sprint", "mountain", "plains"], "strip_length": 2, "rocks": [], "supply_spaces": []}
"""Sprint rows 1-2, mountain rows 3-4, plains rows 5-6; the line after row 6."""


@pytest.mark.rules("D21", "7")
def test_two_players_level_on_medals_without_best_team_are_ranked_by_team_points() -> None:
    """A: race and Best Team (2 medals); B (climb) and C (sprint) have one medal each: B's 24 points beat C's 19."""
    spots = [
        ("a", 3, 2, 3), ("b", 3, 2, 2), ("c", 3, 2, 1),
        ("a", 1, 1, 1), ("a", 2, 1, 2), ("b", 1, 1, 3),
        ("b", 2, 0, 1), ("c", 1, 0, 2), ("c", 2, 0, 3),
    ]  # fmt: skip
    r = race(spots, players=("a", "c", "b"), stage=MINI, park=False, options={"max_rounds": 3})
    # Round 1: c#3 steps from row 2 to 3, first out of the sprint.
    play(r, {"a": HOLD, "b": HOLD, "c": "#1 move 0\n#2 move 0\n#3 move 1"})
    # Round 2: b#3 rides 3 from row 2 to 5, first out of the climb; a#3 steps to row 3.
    play(r, {"a": "#1 move 0\n#2 move 0\n#3 move 1", "b": "#1 move 0\n#2 move 0\n#3 move 3", "c": HOLD})
    # Round 3: a#3 (climb, wind: 5 - 1 = 4) rides rows 4, 5, 6 and over the line. Then the round limit:
    # b#3 (row 5) 2nd, c#3 (row 3) 3rd, a#1, a#2, b#1 (row 1) 4th-6th, b#2, c#1, c#2 (row 0) 7th-9th.
    play(r, {"a": "#1 move 0\n#2 move 0\n#3 move 4", "b": HOLD, "c": HOLD})
    assert r.state.section_winners == {"sprint": "c#3", "mountain": "b#3"}
    result = RULESET.result(r.state)
    # A 12 + 9 + 8 = 29, B 11 + 7 + 6 = 24, C 10 + 5 + 4 = 19.
    assert [(s.entrant, s.place, s.figures["medals"], s.figures["team_points"]) for s in result.standings] == [
        ("a", 1, 2, 29),
        ("b", 2, 1, 24),
        ("c", 3, 1, 19),
    ]


ROCKY = {"course": ["plains"] * 3, "strip_length": 10, "rocks": [[7, 3], [9, 2]], "supply_spaces": []}
"""Rocks on (7, 3) and (9, 2) of an open 30-row plains course."""


@pytest.mark.rules("D23", "9.2", "3.1")
def test_lane_seeking_goes_around_rocks_and_a_path_into_a_rock_hands_over_to_lane_seeking() -> None:
    """From (5, 3), 5 steps in lane 3: F (6, 3), rock -> FL (7, 2), FR (8, 3), F (9, 3), F (10, 3)."""
    r = race([("a", 3, 5, 3)], stage=ROCKY)
    play(r, {"a": "#3 move 5 lane=3"})
    assert spot(r, "a#3") == (10, 3)
    r = race([("a", 3, 5, 3)], stage=ROCKY)
    # Path F, F, FL, F, F would end in lane 2; step 2 runs into the rock: seek lane 2 for the 4 steps left:
    # FL (7, 2), F (8, 2), rock on (9, 2) -> FL (9, 1), FR (10, 2).
    events = play(r, {"a": "#3 move path=F,F,FL,F,F"})
    assert of_kind(events, "mc.path_blocked")[0].data["n"] == 2
    assert spot(r, "a#3") == (10, 2)


@pytest.mark.rules("D4", "D23")
def test_a_rider_facing_a_rock_and_two_riders_stops_where_it_is() -> None:
    """Rock ahead on (7, 3), riders on (7, 2) and (7, 4): from (6, 3) no step is possible; the move ends at once."""
    r = race([("a", 3, 6, 3), ("b", 1, 7, 2), ("b", 2, 7, 4)], stage=ROCKY)
    events = play(r, {"a": "#3 move", "b": "#1 move 0\n#2 move 0"})
    assert spot(r, "a#3") == (6, 3)
    assert next(e for e in of_kind(events, "mc.move") if e.data["cyclist"] == "a#3").data["taken"] == 0


@pytest.mark.rules("D22")
def test_without_max_rounds_a_two_row_course_stops_after_round_two() -> None:
    """The default limit is the number of rows: riders holding still on a 2-row course are stopped after round 2."""
    stage = {"course": ["plains", "plains"], "strip_length": 1, "rocks": [], "supply_spaces": []}
    r = race([("a", 1, 0, 1), ("b", 1, -1, 1)], stage=stage, team_size=3)
    play(r, {"a": "#1 move 0\n#2 move 0\n#3 move 0", "b": "#1 move 0\n#2 move 0\n#3 move 0"})
    assert r.awaited() and not r.state.round_limit_reached
    play(r, {"a": "#1 move 0\n#2 move 0\n#3 move 0", "b": "#1 move 0\n#2 move 0\n#3 move 0"})
    assert not r.awaited() and r.state.round_limit_reached
    assert r.state.finish_order[:2] == ["a#1", "b#1"]  # row 0 before row -1; the parked riders further back

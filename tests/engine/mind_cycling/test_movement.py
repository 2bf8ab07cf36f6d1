"""Movement on the grid (§5) and the maximum of a move (§3.4, §5.2)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.messages import OrderError
from engine.mind_cycling import RULESET
from engine.mind_cycling.course import CAPS
from engine.mind_cycling.movement import base_maximum
from engine.ruleset import set_path

from .scenario import hold, of_kind, play, race, spot


@pytest.mark.rules("3.4")
def test_the_caps_table_is_the_seeds() -> None:
    """Sprinter 5/7/3, domestique 7/5/5, climber 5/3/7 on plains/sprint/mountain."""
    assert CAPS == {
        "sprinter": {"plains": 5, "sprint": 7, "mountain": 3},
        "domestique": {"plains": 7, "sprint": 5, "mountain": 5},
        "climber": {"plains": 5, "sprint": 3, "mountain": 7},
    }


@pytest.mark.rules("3.4", "4.3")
@pytest.mark.parametrize(
    ("number", "row", "expected_row"),
    [(1, 5, 9), (1, 22, 28), (1, 45, 47), (3, 5, 11), (3, 22, 26), (3, 45, 49), (2, 5, 9), (2, 22, 24), (2, 45, 51)],
)
def test_each_role_rides_its_cap_for_the_section_minus_one_in_the_wind(
    number: int, row: int, expected_row: int
) -> None:
    """A lone cyclist moving its maximum rides cap - 1 (wind) rows straight ahead."""
    r = race([("a", number, row, 3)])
    play(r, {"a": f"#{number} move", "b": hold(r, "b")})
    assert spot(r, f"a#{number}") == (expected_row, 3)


@pytest.mark.rules("example:movement-caps", "5.2")
def test_a_climber_alone_in_the_mountains_rides_six_and_attacking_nine_then_its_base_turns_black() -> None:
    """Climber in the mountain section, nobody in front: 7 - 1 = 6; attacking 6 + 3 = 9, then black."""
    r = race([("a", 2, 45, 3), ("a", 1, 20, 1)])
    play(r, {"a": "#2 move 10\n#1 move 0", "b": hold(r, "b")})
    assert spot(r, "a#2") == (51, 3)
    r = race([("a", 2, 45, 3), ("a", 1, 20, 1)])
    events = play(r, {"a": "#2 attack\n#1 move 0", "b": hold(r, "b")})
    assert spot(r, "a#2") == (54, 3)
    assert r.state.cyclists["a#2"].bottle is False
    assert of_kind(events, "mc.attack")[0].data["taken"] == 9


@pytest.mark.rules("D14", "5.2")
def test_wind_and_fatigue_stack_and_an_attack_adds_three_after_them() -> None:
    """A black domestique alone on the plains: 7 - 1 - 1 = 5; a blue one attacking: 7 - 1 + 3 = 9."""
    r = race([("a", 3, 5, 2, "black")])
    state = r.state
    c = state.cyclists["a#3"]
    assert base_maximum(state, c, wind=True, fatigued=True) == 5
    play(r, {"a": "#3 move", "b": hold(r, "b")})
    assert spot(r, "a#3") == (10, 2)
    r = race([("a", 3, 5, 2)])
    play(r, {"a": "#3 attack", "b": hold(r, "b")})
    assert spot(r, "a#3") == (14, 2)


@pytest.mark.rules("D14")
def test_the_lowest_maximum_is_two_a_sprinter_in_the_mountains_in_the_wind() -> None:
    """A sprinter alone in the mountains rides 3 - 1 = 2."""
    r = race([("a", 1, 45, 1)])
    play(r, {"a": "#1 move", "b": hold(r, "b")})
    assert spot(r, "a#1") == (47, 1)


@pytest.mark.rules("D4", "5.1")
def test_the_section_where_the_move_starts_sets_the_maximum_for_the_whole_move() -> None:
    """A climber on row 40 (plains) rides 5 - 1 = 4 into the climb; from row 41 it rides 7 - 1 = 6."""
    r = race([("a", 2, 40, 1), ("a", 1, 41, 5)])
    play(r, {"a": "#2 move\n#1 move 0", "b": hold(r, "b")})
    assert spot(r, "a#2") == (44, 1)
    r = race([("a", 2, 41, 1)])
    play(r, {"a": "#2 move", "b": hold(r, "b")})
    assert spot(r, "a#2") == (47, 1)


@pytest.mark.rules("D4", "5.1")
def test_a_cyclist_may_stop_early_and_steps_diagonally_between_two_occupied_spaces() -> None:
    """Only a step's destination matters: FR from (5,2) past riders on (6,2) and (5,3) is allowed."""
    r = race([("a", 3, 5, 2), ("b", 1, 6, 2), ("b", 2, 5, 3)], options={"mode": "live"})
    # b#1 leads and stays; a#3 started behind it, lets its wheel go, then acts before b#2 (lane 3).
    play(r, {"b": {"action": "move", "distance": 0}})
    play(r, {"a": "later"})
    assert r.awaited()[0].kind == "turn" and r.awaited()[0].entrant == "a"
    play(r, {"a": "move FR,F"})
    assert spot(r, "a#3") == (7, 3)


@pytest.mark.rules("D4", "9.3")
def test_no_step_enters_a_rock_an_occupied_space_or_leaves_the_road() -> None:
    """In live mode an impossible step is refused with the reason and the player asked again."""
    stage = {"course": ["plains"] * 3, "strip_length": 10, "rocks": [[7, 1]], "supply_spaces": []}
    r = race([("a", 3, 5, 1), ("b", 1, 9, 5)], stage=stage, options={"mode": "live"})
    play(r, {"b": {"action": "move", "distance": 0}})
    with pytest.raises(OrderError, match="leave the road"):
        r.validate("a", "move FL")
    with pytest.raises(OrderError, match="rock on row 7, lane 1"):
        r.validate("a", "move F,F")
    r2 = race([("a", 3, 5, 1), ("b", 1, 6, 1)], stage=stage, options={"mode": "live"})
    play(r2, {"b": {"action": "move", "distance": 0}})
    play(r2, {"a": "later"})
    with pytest.raises(OrderError, match="runs into B #1"):
        r2.validate("a", "move F")
    assert spot(r2, "a#3") == (5, 1)


@pytest.mark.rules("D4", "D19", "5.1")
def test_a_diagonal_step_from_the_last_row_crosses_the_line_and_the_rest_of_the_move_is_lost() -> None:
    """From row 70 a single FR step crosses; the cyclist leaves the road at once."""
    r = race([("a", 3, 70, 2), ("a", 1, 69, 3)])
    events = play(r, {"a": "#3 move path=FR\n#1 move 0", "b": hold(r, "b")})
    c = r.state.cyclists["a#3"]
    assert c.crossed and c.place == 1
    assert of_kind(events, "mc.crossed")[0].data["place"] == 1
    r = race([("a", 3, 69, 2)])
    events = play(r, {"a": "#3 move", "b": hold(r, "b")})
    assert of_kind(events, "mc.move_finish")[0].data["taken"] == 2  # a move over the line has its own sentence


@pytest.mark.rules("D19")
def test_a_cyclist_across_the_line_blocks_nobody_and_shelters_nobody() -> None:
    """b#1 rides through the space a#3 just left to cross second; next round nobody shelters b#2 there."""
    r = race([("a", 3, 70, 2), ("b", 1, 69, 2), ("b", 2, 68, 2)])
    play(r, {"a": "#3 move", "b": "#1 move 2"})
    assert r.state.cyclists["a#3"].place == 1
    assert r.state.cyclists["b#1"].place == 2
    events = play(r, {"b": "#2 move 0"})
    assert "b#2" in of_kind(events, "mc.round_start")[0].data["in_wind"]


@pytest.mark.rules("D4", "9.3")
def test_a_path_may_cross_the_line_only_with_its_last_step() -> None:
    """From row 68 'F,F,F' crosses with its third and last step; 'F,F,F,F' would go on past the line."""
    r = race([("a", 1, 68, 3)], options={"mode": "live"})
    assert r.validate("a", "move F,F,F")["path"] == ["F", "F", "F"]
    with pytest.raises(OrderError, match=r"step 3 \(F\).* crosses the finish line"):
        r.validate("a", "move F,F,F,F")


@pytest.mark.rules("D4", "9.3")
def test_a_path_may_ride_into_the_rightmost_lane_but_not_beyond_it() -> None:
    """From lane 4 of 5, 'FR' ends in lane 5; 'FR,FR' would leave the road with its second step."""
    r = race([("a", 1, 30, 4)], options={"mode": "live"})
    assert r.validate("a", "move FR")["path"] == ["FR"]
    with pytest.raises(OrderError, match=r"step 2 \(FR\).* leave the road"):
        r.validate("a", "move FR,FR")


@pytest.mark.rules("3.4", "6.6", "9.2")
def test_the_steps_offered_count_fatigue_only_for_a_domestique_without_its_bottle() -> None:
    """Both black: the domestique sheltered behind is offered 7 - 1 = 6 steps, the sprinter in the wind 5 - 1 = 4."""
    r = race([("a", 1, 13, 2, "black"), ("a", 3, 12, 2, "black")])
    partial: dict[str, Any] = {}
    for n in ("1", "2", "3"):  # a#2 waits far behind the start
        partial = RULESET.validate(r.state, "a", set_path(partial, ["intents", n, "action"], "move")).order
    fields = {tuple(f.path): f for f in RULESET.awaited(r.state, {"a": partial})[0].fields}
    assert fields[("intents", "1", "distance")].maximum == 4
    assert fields[("intents", "3", "distance")].maximum == 6

"""The course (§3.1): strips and sections, the finish line, lanes, rocks and supply spaces, presets."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.mind_cycling import RULESET
from engine.mind_cycling.course import Section, road_is_open, sections_of
from engine.mind_cycling.models import load_presets
from engine.ruleset import Entrant

from .scenario import OPEN_COURSE, race

PAIR = [Entrant(id="a", name="A"), Entrant(id="b", name="B")]


@pytest.mark.rules("D5", "3.1")
def test_the_default_course_has_seventy_rows_with_the_sprint_on_21_to_30_and_the_climb_on_41_to_60() -> None:
    """Default strips of 10 rows: plains, plains, sprint, plains, mountain, mountain, plains."""
    state = RULESET.new_race(None, {}, PAIR, seed=1)
    course = state.course
    assert course.last_row == 70
    assert course.medal_sprint == Section("sprint", 21, 30)
    assert course.medal_mountain == Section("mountain", 41, 60)
    assert [course.section_kind(r) for r in (1, 20, 21, 30, 31, 41, 60, 61, 70)] == [
        "plains",
        "plains",
        "sprint",
        "sprint",
        "plains",
        "mountain",
        "mountain",
        "plains",
        "plains",
    ]


@pytest.mark.rules("D5")
def test_rows_behind_the_start_line_belong_to_the_first_strips_section() -> None:
    """Row 0 and the rows behind it take the section of the first strip."""
    stage = {**OPEN_COURSE, "course": ["mountain", "plains"]}
    state = RULESET.new_race(stage, {}, PAIR, seed=1)
    assert state.course.section_kind(0) == "mountain"
    assert state.course.section_kind(-3) == "mountain"


@pytest.mark.rules("D5")
def test_two_mountain_strips_in_a_row_form_one_section() -> None:
    """Consecutive strips of one type merge into one section."""
    found = sections_of(["plains", "mountain", "mountain", "sprint"], 5)
    assert found == [Section("plains", 1, 5), Section("mountain", 6, 15), Section("sprint", 16, 20)]


@pytest.mark.rules("D1")
def test_the_road_has_five_lanes_by_default_and_the_lanes_option_changes_it() -> None:
    """Option lanes: default 5, allowed 3 to 6."""
    assert RULESET.new_race(None, {}, PAIR, seed=1).course.lanes == 5
    assert RULESET.new_race(None, {"lanes": 3}, PAIR, seed=1).course.lanes == 3
    with pytest.raises(ValidationError):
        RULESET.new_race(None, {"lanes": 7}, PAIR, seed=1)


@pytest.mark.rules("D6")
def test_six_rocks_and_two_supply_spaces_fall_in_the_climb_each_on_its_own_row() -> None:
    """By default 6 rocks then 2 supply spaces are placed at random in the medal mountain section, one per row."""
    for seed in (1, 2, 3):
        course = RULESET.new_race(None, {}, PAIR, seed=seed).course
        spaces = list(course.rocks) + list(course.supply)
        assert len(course.rocks) == 6 and len(course.supply) == 2
        assert all(41 <= row <= 60 for row, _ in spaces)
        assert len({row for row, _ in spaces}) == 8


@pytest.mark.rules("D6", "D7")
def test_numbers_of_rocks_go_to_the_first_climb_when_the_first_section_awards_the_medal() -> None:
    """With medal_section first, the random spaces go to the first mountain section."""
    stage = {"course": ["mountain", "plains", "mountain"], "strip_length": 10, "rocks": 3, "supply_spaces": 1}
    first = RULESET.new_race(stage, {"medal_section": "first"}, PAIR, seed=4).course
    last = RULESET.new_race(stage, {}, PAIR, seed=4).course
    assert all(1 <= r <= 10 for r, _ in first.rocks | first.supply)
    assert all(21 <= r <= 30 for r, _ in last.rocks | last.supply)


@pytest.mark.rules("D6")
def test_a_short_climb_takes_only_as_many_spaces_as_it_has_rows_rocks_first() -> None:
    """A 3-row climb with 6 rocks and 2 supply spaces gets 3 rocks and no supply space."""
    stage = {"course": ["plains", "mountain"], "strip_length": 3, "rocks": 6, "supply_spaces": 2}
    course = RULESET.new_race(stage, {}, PAIR, seed=9).course
    assert len(course.rocks) == 3 and not course.supply


@pytest.mark.rules("D6")
def test_a_course_without_a_climb_gets_no_random_rocks() -> None:
    """No mountain section: a number of rocks places none."""
    course = RULESET.new_race("sprinters", {}, PAIR, seed=9).course
    assert not course.rocks and not course.supply
    stage = {"course": ["plains", "sprint"], "strip_length": 10, "rocks": 6, "supply_spaces": 2}
    assert not RULESET.new_race(stage, {}, PAIR, seed=9).course.rocks


@pytest.mark.rules("D6")
def test_explicit_rocks_and_supply_spaces_are_placed_exactly_anywhere_on_the_course() -> None:
    """Explicit lists are taken as they are, even on the plains."""
    stage = {**OPEN_COURSE, "rocks": [[5, 1], [6, 2]], "supply_spaces": [[3, 4]]}
    course = RULESET.new_race(stage, {}, PAIR, seed=1).course
    assert course.rocks == {(5, 1), (6, 2)}
    assert course.supply == {(3, 4)}


@pytest.mark.rules("D6")
@pytest.mark.parametrize(
    ("rocks", "supply", "message"),
    [
        ([[71, 1]], [], "outside the course"),
        ([[5, 6]], [], "outside the course"),
        ([[5, 2]], [[5, 2]], "both a rock and a supply space"),
        ([[5, 1], [5, 2], [5, 3], [5, 4], [5, 5]], [], "close the road"),
        ([[5, 1], [5, 2], [5, 3], [6, 3], [6, 4], [6, 5]], [], "close the road"),
    ],
)
def test_a_course_whose_explicit_spaces_are_off_the_road_double_booked_or_closed_is_refused(
    rocks: list[list[int]], supply: list[list[int]], message: str
) -> None:
    """Outside the course, a rock on a supply space, or rocks that leave no way through are refused."""
    stage = {**OPEN_COURSE, "rocks": rocks, "supply_spaces": supply}
    with pytest.raises(ValueError, match=message):
        RULESET.new_race(stage, {}, PAIR, seed=1)


@pytest.mark.rules("D6", "D4")
def test_a_zigzag_gap_through_two_rows_of_rocks_keeps_the_road_open() -> None:
    """Row 5 open only in lane 1, row 6 only in lane 2: a diagonal step gets through."""
    rocks = {(5, 2), (5, 3), (5, 4), (5, 5), (6, 1), (6, 3), (6, 4), (6, 5)}
    assert road_is_open(rocks, 5, 10)
    assert not road_is_open(rocks | {(7, 1), (7, 2), (7, 3)}, 5, 10)


def test_the_presets_are_pinned() -> None:
    """The shipped courses, exactly."""
    presets = {name: (p.course, p.strip_length, p.rocks, p.supply_spaces) for name, p in load_presets().items()}
    assert presets == {
        "classic": (["plains", "plains", "sprint", "plains", "mountain", "mountain", "plains"], 10, 6, 2),
        "short": (["plains", "sprint", "mountain"], 10, 3, 1),
        "sprinters": (["plains", "sprint", "plains", "plains", "sprint"], 10, 0, 0),
        "alps": (["plains", "mountain", "plains", "sprint", "mountain", "mountain"], 10, 6, 2),
    }
    assert [p.name for p in RULESET.presets()] == ["classic", "short", "sprinters", "alps"]


@pytest.mark.rules("3.1", "8")
def test_the_classic_preset_is_the_solo_recommendation_all_three_sections_two_supplies_six_rocks() -> None:
    """The classic course has plains, sprint and mountain, 6 rocks and 2 supply spaces in the climb."""
    course = RULESET.new_race("classic", {}, [Entrant(id="s", name="S")], seed=5).course
    assert {"plains", "sprint", "mountain"} <= set(course.strips)
    assert len(course.rocks) == 6 and len(course.supply) == 2


def test_a_bad_stage_names_the_offending_field() -> None:
    """An unknown preset or a typo in the stage is refused with its name."""
    with pytest.raises(ValueError, match="unknown Mind Cycling course 'tourmalet'"):
        RULESET.new_race("tourmalet", {}, PAIR, seed=1)
    with pytest.raises(ValidationError, match="strip_lenght"):
        RULESET.new_race({"strip_lenght": 5}, {}, PAIR, seed=1)
    with pytest.raises(ValidationError, match="course"):
        RULESET.new_race({"course": ["cobbles"]}, {}, PAIR, seed=1)


def test_the_stage_board_draws_every_row_with_its_section_rocks_and_supply_spaces() -> None:
    """The stage board has one line per row between finish and start, rocks as ## and supplies as ++."""
    stage = {
        **OPEN_COURSE,
        "course": ["plains", "mountain"],
        "strip_length": 3,
        "rocks": [[5, 2]],
        "supply_spaces": [[4, 1]],
    }
    board = RULESET.stage_board(stage, {"lanes": 3})
    assert board.key == "mc.stage_board" and "## rock" in board.text  # the legend is the template's
    lines = board.text.splitlines()
    assert len(lines) == 9  # finish, six rows, start, legend
    assert lines[0] == "  FINISH " + "=" * 12 and lines[7] == "   START " + "-" * 12
    assert board.params["board"].splitlines() == lines[1:7]  # the rows; the words are the template's
    assert lines[2].split("|")[1] == "  .  ##   . "
    assert lines[3].split("|")[1] == " ++   .   . "
    assert lines[3].strip().startswith("4 M")


def test_a_race_can_be_set_up_on_an_explicit_open_course() -> None:
    """The scenario helper's course has no rocks and no supply spaces."""
    r = race([("a", 1, 5, 1)])
    assert not r.state.course.rocks and not r.state.course.supply


def test_the_stage_board_of_a_preset_tells_where_the_random_rocks_will_fall() -> None:
    """Random rocks depend on the race seed: the drawing names them instead of inventing a placement."""
    board = RULESET.stage_board("classic", {})
    assert "##" not in board.params["board"]
    assert board.key == "mc.stage_board_random"
    assert (board.params["rocks"], board.params["supply"], board.params["first"], board.params["last"]) == (
        6,
        2,
        41,
        60,
    )
    assert (
        board.text.splitlines()[-1] == "Placed at random by the race seed on rows 41 to 60: rocks 6, supply spaces 2."
    )


def test_a_preset_named_as_the_list_shows_it_with_its_label_is_found() -> None:
    """'classic [default]', copied from the list of courses, is the classic course; an unknown name is refused."""
    presets = {p.name: p for p in RULESET.presets()}
    assert presets["classic"].label is not None and presets["classic"].label.text == "default"
    assert all(p.label is None for name, p in presets.items() if name != "classic")
    assert RULESET.stage_data("classic [default]") == RULESET.stage_data("classic")
    with pytest.raises(ValueError, match="unknown Mind Cycling course 'nowhere \\[default\\]'"):
        RULESET.stage_data("nowhere [default]")

"""The finish, medals and standings (§7): team points, Best Team, the game winner, the round limit."""

from __future__ import annotations

import pytest

from engine.mind_cycling import RULESET
from engine.mind_cycling.scoring import points_for
from engine.ruleset import Entrant

from .scenario import OPEN_COURSE, hold, play, race


@pytest.mark.rules("example:team-points", "3.5")
def test_team_points_run_from_twelve_for_the_winner_to_one_for_twelfth() -> None:
    """1st = 12, 2nd = 11, ..., 12th = 1."""
    assert [points_for(p) for p in range(1, 13)] == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.rules("D21")
def test_thirteenth_and_later_score_nothing() -> None:
    """Places beyond 12 (and no place) give 0."""
    assert points_for(13) == 0 and points_for(30) == 0 and points_for(None) == 0


MINI = {"course": ["sprint", "mountain", "plains"], "strip_length": 2, "rocks": [], "supply_spaces": []}
"""Sprint rows 1-2, mountain rows 3-4, plains rows 5-6; rows 0 and behind belong to the sprint."""
GRID = [("a", 1, 0, 1), ("b", 1, 0, 2), ("a", 2, 0, 3), ("b", 3, 0, 4), ("a", 3, 0, 5), ("b", 2, -1, 1)]
HOLD = "#1 move 0\n#2 move 0\n#3 move 0"


def _three_rounds(last_b: str) -> object:
    """b#3 leaves the sprint first (round 1), a#1 the climb (round 2), a#1 crosses first (round 3)."""
    r = race(GRID, stage=MINI, park=False, options={"max_rounds": 3})
    play(r, {"a": "#1 move 2\n#2 move 0\n#3 move 0", "b": "#1 move 0\n#2 move 0\n#3 move 3"})
    assert r.state.section_winners == {"sprint": "b#3", "mountain": None}
    play(r, {"a": "#1 move 3\n#2 move 0\n#3 move 0", "b": HOLD})
    assert r.state.section_winners == {"sprint": "b#3", "mountain": "a#1"}
    play(r, {"a": "#1 move 2\n#2 move 0\n#3 move 0", "b": last_b})
    return r


@pytest.mark.rules("7", "D20", "D21", "D22")
def test_medals_go_to_players_and_the_most_medals_wins() -> None:
    """A wins the race, the climb and (29 to 28 points) the team: 3 medals to B's sprint."""
    r = _three_rounds(HOLD)
    result = RULESET.result(r.state)  # type: ignore[attr-defined]
    places = {k: c.place for k, c in r.state.cyclists.items()}  # type: ignore[attr-defined]
    # a#1 crossed; the rest by the round limit in movement order: b#3 (row 3), then row 0 left to right, then b#2.
    assert places == {"a#1": 1, "b#3": 2, "b#1": 3, "a#2": 4, "a#3": 5, "b#2": 6}
    assert [(s.entrant, s.place, s.figures["medals"], s.figures["team_points"]) for s in result.standings] == [
        ("a", 1, 3, 12 + 9 + 8),
        ("b", 2, 1, 11 + 10 + 7),
    ]
    assert result.standings[0].figures["medal_names"] == ["best_cyclist", "best_climber", "best_team"]


@pytest.mark.rules("7", "D21")
def test_a_tie_on_medals_goes_to_the_holder_of_best_team() -> None:
    """B's domestique and sprinter ride on in round 3: B takes Best Team (30 to 27); 2 medals each, B wins."""
    r = _three_rounds("#1 move 6\n#2 move 2\n#3 move 4")
    places = {k: c.place for k, c in r.state.cyclists.items()}  # type: ignore[attr-defined]
    # b#3 crosses 2nd; then b#1 (row 6), b#2 (row 1), a#2 and a#3 (row 0) by the round limit.
    assert places == {"a#1": 1, "b#3": 2, "b#1": 3, "b#2": 4, "a#2": 5, "a#3": 6}
    result = RULESET.result(r.state)  # type: ignore[attr-defined]
    assert [(s.entrant, s.place, s.figures["medals"], s.figures["team_points"]) for s in result.standings] == [
        ("b", 1, 2, 11 + 10 + 9),
        ("a", 2, 2, 12 + 8 + 7),
    ]


@pytest.mark.rules("D21")
def test_equal_points_give_best_team_to_the_team_whose_best_cyclist_finished_higher() -> None:
    """A places 1, 4, 6, 7 (34 points), B places 2, 3, 5, 8 (34 points): A's winner settles Best Team."""
    stage = {**OPEN_COURSE, "course": ["plains", "plains"]}
    spots = [
        ("a", 1, 20, 1), ("b", 1, 20, 2), ("b", 2, 20, 3), ("a", 2, 20, 4), ("b", 3, 20, 5),
        ("a", 3, 19, 1), ("a", 4, 19, 2), ("b", 4, 19, 3),
    ]  # fmt: skip
    r = race(spots, stage=stage, park=False, team_size=4, options={"max_rounds": 1})
    play(r, {"a": "#1 move 1\n#2 move 1\n#3 move 0\n#4 move 0", "b": "#1 move 1\n#2 move 1\n#3 move 0\n#4 move 0"})
    result = RULESET.result(r.state)
    a, b = (next(s for s in result.standings if s.entrant == e) for e in ("a", "b"))
    assert (a.figures["team_points"], b.figures["team_points"]) == (34, 34)
    assert a.figures["medal_names"] == ["best_cyclist", "best_team"]
    assert [s.entrant for s in result.standings] == ["a", "b"]


@pytest.mark.rules("D22", "R-MC-7")
def test_the_race_ends_when_the_twelfth_cyclist_crosses() -> None:
    """Three teams of five: as soon as 12 are across, the race is over; three are left unplaced."""
    players = ("a", "b", "c")
    spots = [(p, n, 70 - i, n) for i, p in enumerate(players) for n in range(1, 6)]
    r = race(spots, players=players, team_size=5, park=False)
    play(r, {p: "; ".join(f"#{n} move 1" for n in range(1, 6)) for p in players})
    # Team a (row 70) crosses; b moves up to row 70, c to row 69.
    assert len(r.state.finish_order) == 5 and r.awaited()
    play(r, {p: "; ".join(f"#{n} move 2" for n in range(1, 6)) for p in ("b", "c")})
    # b's five cross (10), then c#1 and c#2 (11, 12): the race stops there.
    assert r.state.finish_order[10:] == ["c#1", "c#2"]
    assert not r.awaited() and RULESET.result(r.state).finished
    assert sum(1 for c in r.state.cyclists.values() if c.place is None) == 3


@pytest.mark.rules("D22", "R-MC-6")
def test_the_round_limit_ends_the_race_and_the_riders_on_the_road_take_the_next_places_furthest_first() -> None:
    """max_rounds 1: nobody moves; places go by movement order and no section medal is awarded."""
    r = race([("a", 1, 10, 2), ("b", 1, 10, 1), ("a", 2, 12, 5)], options={"max_rounds": 1})
    play(r, {"a": "#1 move 0\n#2 move 0", "b": "#1 move 0"})
    result = RULESET.result(r.state)
    assert result.finished and r.state.round_limit_reached
    assert r.state.finish_order[:3] == ["a#2", "b#1", "a#1"]
    assert r.state.section_winners == {"sprint": None, "mountain": None}
    a = next(s for s in result.standings if s.entrant == "a")
    assert "best_cyclist" in a.figures["medal_names"]  # a#2, placed first on the road


@pytest.mark.rules("D22")
def test_the_default_round_limit_is_the_number_of_rows() -> None:
    """max_rounds defaults to the course's rows: 70 on the default course."""
    state = RULESET.new_race(None, {}, [Entrant(id="a", name="A"), Entrant(id="b", name="B")], seed=1)
    assert state.options["max_rounds"] is None and state.course.last_row == 70


@pytest.mark.rules("D7")
def test_with_two_sprints_the_last_awards_the_medal_by_default_and_the_first_on_request() -> None:
    """medal_section: last (default) or first."""
    stage = {"course": ["sprint", "plains", "sprint"], "strip_length": 5, "rocks": 0, "supply_spaces": 0}
    two = [Entrant(id="a", name="A"), Entrant(id="b", name="B")]
    last = RULESET.new_race(stage, {}, two, seed=1).course.medal_sprint
    first = RULESET.new_race(stage, {"medal_section": "first"}, two, seed=1).course.medal_sprint
    assert (last.first, last.last) == (11, 15)
    assert (first.first, first.last) == (1, 5)
    flat = {"course": ["plains"], "strip_length": 5, "rocks": 0, "supply_spaces": 0}
    state = RULESET.new_race(flat, {}, two, seed=1)
    assert state.course.medal_sprint is None and state.course.medal_mountain is None


@pytest.mark.rules("D7")
def test_leaving_the_first_sprint_wins_nothing_when_the_last_awards_the_medal() -> None:
    """Past row 5 of a sprint/plains/sprint course nobody has won the (last) sprint yet."""
    stage = {"course": ["sprint", "plains", "sprint", "plains"], "strip_length": 5, "rocks": [], "supply_spaces": []}
    r = race([("a", 1, 5, 1)], stage=stage)
    play(r, {"a": "#1 move 1"})
    assert r.state.section_winners["sprint"] is None
    r = race([("a", 1, 5, 1)], stage=stage, options={"medal_section": "first"})
    play(r, {"a": "#1 move 1"})
    assert r.state.section_winners["sprint"] == "a#1"


@pytest.mark.rules("D20", "R-MC-5")
def test_a_cyclist_set_up_past_the_sprint_takes_it_with_its_first_action() -> None:
    """a#1 starts on row 31, beyond the sprint (21-30): holding still, it is first out of the section."""
    r = race([("a", 1, 31, 1), ("b", 1, 29, 1)])
    play(r, {"a": "#1 move 0", "b": "#1 move 5"})
    assert r.state.section_winners["sprint"] == "a#1"


@pytest.mark.rules("D21")
def test_equal_points_give_best_team_to_the_later_listed_team_whose_best_cyclist_finished_first() -> None:
    """B places 1, 4, 6, 7 and A 2, 3, 5, 8 (34 points each): B's winner gives B Best Team, so B ranks first."""
    stage = {**OPEN_COURSE, "course": ["plains", "plains"]}
    spots = [
        ("b", 1, 20, 1), ("a", 1, 20, 2), ("a", 2, 20, 3), ("b", 2, 20, 4), ("a", 3, 20, 5),
        ("b", 3, 19, 1), ("b", 4, 19, 2), ("a", 4, 19, 3),
    ]  # fmt: skip
    r = race(spots, stage=stage, park=False, team_size=4, options={"max_rounds": 1})
    play(r, {"b": "#1 move 1\n#2 move 1\n#3 move 0\n#4 move 0", "a": "#1 move 1\n#2 move 1\n#3 move 0\n#4 move 0"})
    result = RULESET.result(r.state)
    a, b = (next(s for s in result.standings if s.entrant == e) for e in ("a", "b"))
    assert (a.figures["team_points"], b.figures["team_points"]) == (34, 34)
    assert b.figures["medal_names"] == ["best_cyclist", "best_team"]
    assert [s.entrant for s in result.standings] == ["b", "a"]


@pytest.mark.rules("D22")
def test_mid_race_the_cyclists_on_the_road_are_placed_in_movement_order() -> None:
    """A#1 on row 12 ahead of B#1 on row 10: provisionally first and second, and the standings say provisional."""
    r = race([("a", 1, 12, 1), ("b", 1, 10, 2)])
    result = RULESET.result(r.state)
    a, b = (next(s for s in result.standings if s.entrant == e) for e in ("a", "b"))
    assert (a.figures["places"]["a#1"], b.figures["places"]["b#1"]) == (1, 2)
    assert (a.figures["best_place"], b.figures["best_place"]) == (1, 2)
    assert (result.finished, result.provisional) == (False, True)


@pytest.mark.rules("D21", "D22")
def test_players_equal_on_medals_and_points_are_split_by_their_best_placed_cyclist() -> None:
    """Round limit, nobody moves: A places 1, 2, 4 (two medals); C 3, 7, 9 and B 5, 6, 8 score 20 each: C, then B."""
    stage = {**OPEN_COURSE, "course": ["plains", "plains"]}
    spots = [
        ("a", 1, 20, 1), ("a", 2, 20, 2), ("c", 1, 20, 3), ("a", 3, 20, 4), ("b", 1, 20, 5),
        ("b", 2, 19, 1), ("c", 2, 19, 2), ("b", 3, 19, 3), ("c", 3, 19, 4),
    ]  # fmt: skip
    r = race(spots, players=("a", "b", "c"), stage=stage, park=False, options={"max_rounds": 1})
    play(r, {p: "#1 move 0\n#2 move 0\n#3 move 0" for p in ("a", "b", "c")})
    result = RULESET.result(r.state)
    assert [(s.entrant, s.place, s.figures["medals"], s.figures["team_points"]) for s in result.standings] == [
        ("a", 1, 2, 32),
        ("c", 2, 0, 20),
        ("b", 3, 0, 20),
    ]


@pytest.mark.rules("D21", "D22")
def test_two_players_with_nobody_across_when_the_twelfth_crosses_share_fifth_place() -> None:
    """Four teams of three all cross in the first round; E and F, far behind, place nobody and share 5th."""
    players = ("a", "b", "c", "d", "e", "f")
    rows = [(70, lane) for lane in range(1, 6)] + [(69, lane) for lane in range(1, 6)] + [(68, 1), (68, 2)]
    spots = [(p, n, *rows[3 * i + n - 1]) for i, p in enumerate(players[:4]) for n in (1, 2, 3)]
    r = race(spots, players=players)
    play(r, {p: "#1 move 3\n#2 move 3\n#3 move 3" for p in players[:4]} | {p: hold(r, p) for p in ("e", "f")})
    result = RULESET.result(r.state)
    assert result.finished and len(r.state.finish_order) == 12
    assert [(s.entrant, s.place, s.figures["team_points"]) for s in result.standings][-2:] == [("e", 5, 0), ("f", 5, 0)]

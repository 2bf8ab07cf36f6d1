"""End of race and ranking (§8, D5, D25)."""

from __future__ import annotations

import pytest

from engine.flamme_rouge.ranking import result, rider_order

from .helpers import at, placed, play, record, start


@pytest.mark.rules("D5", "8", "example:X3")
def test_with_finish_all_riders_rank_by_round_then_distance_past_the_line_then_lane() -> None:
    """X3: C (round 14, 4 past), D (round 15, 2 past, right lane), E (round 15, 2 past, left lane), F (16)."""
    race = start(record(players=2))
    s = race.state
    crossings = {"black-r": (15, 2, 2), "black-s": (16, 1, 1), "blue-r": (14, 4, 1), "blue-s": (15, 2, 1)}
    for rid, (rnd, past, lane) in crossings.items():
        r = s.rider(rid)
        r.crossed, r.past, r.lane, r.off = rnd, past, lane, True
    assert [r.id for r in rider_order(s)] == ["blue-r", "blue-s", "black-r", "black-s"]


@pytest.mark.rules("D5", "8")
def test_a_crossed_rider_keeps_its_lane_until_the_end_phase_and_then_leaves_the_track() -> None:
    """A crosses onto 16 (right lane); B reaches 16 in the left lane; C aiming at 16 is blocked to 15."""
    rec = record(
        players=2,
        stage="S5 _10 F5",  # the line is after square 15; 16-20 finish, 2 lanes
        setup=placed(
            {"black-r": 13, "blue-r": 12, "black-s": 11, "blue-s": 3},
            {"black-r": [3, 3, 3, 3], "blue-r": [4, 4, 4, 4], "black-s": [5, 5, 5, 5], "blue-s": [2, 2, 2, 2]},
        ),
        steps=[{"anna": "r3 s5", "ben": "r4 s2"}],
    )
    race = play(rec)
    s = race.state
    assert (s.rider("black-r").square, s.rider("black-r").lane) == (16, 1)
    assert (s.rider("blue-r").square, s.rider("blue-r").lane) == (16, 2)
    assert at(s, "black-s") == (15, 1) and s.rider("black-s").crossed == 0
    assert s.rider("black-r").off and s.rider("blue-r").off
    assert s.phase == "energy"  # finish=all: the race goes on
    assert [d.entrant for d in race.awaited()] == ["anna", "ben"]


@pytest.mark.rules("D5", "8", "D25")
def test_with_finish_first_the_race_ends_after_the_first_crossing_and_ranks_by_road_position() -> None:
    """Finish=first: ranked by square then lane; a team is placed by its best rider."""
    rec = record(
        players=2,
        stage="S5 _10 F5",
        options={"finish": "first"},
        setup=placed(
            {"black-r": 13, "blue-r": 12, "black-s": 3, "blue-s": 11},
            {"black-r": [3, 3, 3, 3], "blue-r": [3, 3, 3, 3], "black-s": [2, 2, 2, 2], "blue-s": [5, 5, 5, 5]},
        ),
        steps=[{"anna": "r3 s2", "ben": "r3 s5"}],
    )
    race = play(rec)
    assert race.result().finished and race.awaited() == []
    order = [r.id for r in rider_order(race.state)]
    assert order == ["black-r", "blue-s", "blue-r", "black-s"]  # 16 (right), 16 (left), 15, 5
    standings = race.result().standings
    assert [(st.entrant, st.place) for st in standings] == [("anna", 1), ("ben", 2)]
    assert standings[0].riders == ["black-r", "black-s"]


@pytest.mark.rules("D5")
def test_with_finish_all_the_race_ends_when_every_rider_has_crossed() -> None:
    """Two rounds on a short stage: finished only once all four riders are over the line."""
    rec = record(
        players=2,
        stage="S5 _6 F5",
        setup=placed(
            {"black-r": 8, "blue-r": 7, "black-s": 3, "blue-s": 2},
            {
                "black-r": [7, 7, 7, 7, 7, 7, 7, 7],
                "blue-r": [7, 7, 7, 7, 7, 7, 7, 7],
                "black-s": [2, 2, 2, 2, 9, 9, 9, 9],
                "blue-s": [2, 2, 2, 2, 9, 9, 9, 9],
            },
        ),
        steps=[{"anna": "r7 s2", "ben": "r7 s2"}, {"anna": "s9", "ben": "s9"}],
    )
    race = play(rec)
    assert race.result().finished and race.awaited() == []
    assert [st.entrant for st in race.result().standings] == ["anna", "ben"]
    assert race.state.rider("black-s").crossed == 2


@pytest.mark.rules("D5", "R-FR-6")
def test_once_no_player_races_the_bot_teams_finish_their_race_in_the_same_step() -> None:
    """Anna's two riders cross in round 1; the Peloton, far behind, rides on until it crosses too."""
    rec = record(
        players=1,
        bots=["peloton"],
        stage="S5 _20 F5",
        setup={
            "riders": {
                "black-r": {"square": 24, "hand": [7, 7, 7, 7]},
                "black-s": {"square": 23, "hand": [9, 9, 9, 9]},
                "blue-p1": {"square": 8, "deck": [3, 3, 3, 3, 3, 3]},
                "blue-p2": {"square": 7},
            }
        },
        steps=[{"anna": "r7 s9"}],
    )
    race = play(rec)
    s = race.state
    assert race.result().finished and race.awaited() == []
    assert s.rider("blue-p1").crossed == 6 and s.rider("blue-p2").crossed == 7
    assert [st.entrant for st in race.result().standings] == ["anna", "peloton0"]


@pytest.mark.rules("D5", "8", "D25")
def test_mid_race_the_riders_still_racing_follow_the_crossed_ones_by_road_position() -> None:
    """Blue-r has crossed; black-r and black-s share 30 (right lane first) ahead of blue-s on 12: provisional."""
    s = start(record(players=2)).state
    blue_r = s.rider("blue-r")
    blue_r.crossed, blue_r.past, blue_r.lane, blue_r.off = 3, 1, 1, True
    for rid, (square, lane) in {"black-r": (30, 1), "black-s": (30, 2), "blue-s": (12, 1)}.items():
        s.rider(rid).square, s.rider(rid).lane = square, lane
    assert [r.id for r in rider_order(s)] == ["blue-r", "black-r", "black-s", "blue-s"]
    standings = result(s)
    assert [(st.entrant, st.place) for st in standings.standings] == [("ben", 1), ("anna", 2)]
    assert (standings.finished, standings.provisional) == (False, True)

"""Movement (§5.2, §6.1-6.4, §6.8): order, blocking, lanes, ascents, descents, supply zones, end of track."""

from __future__ import annotations

from typing import Any

import pytest

from engine.flamme_rouge.movement import move, occupancy

from .helpers import at, kinds, placed, play, record, start

HAND = {"r": [3, 4, 5, 6], "s": [2, 3, 4, 5]}


def one_round(
    positions: dict[str, Any],
    orders: dict[str, str],
    hands: dict[str, list[Any]] | None = None,
    stage: str = "S5 _60 F5",
    options: dict[str, Any] | None = None,
    bots: list[str] | None = None,
) -> Any:
    """Place the riders, give them hands, play one round with ``orders``; the finished race object."""
    all_hands = {rid: HAND[rid.split("-")[1]] for rid in positions if rid.split("-")[1] in HAND}
    all_hands.update(hands or {})
    players = len(orders)
    rec = record(
        players=players,
        bots=bots,
        stage=stage,
        options=options,
        setup=placed(positions, all_hands),
        steps=[orders],
    )
    return play(rec)


@pytest.mark.rules("5.2", "example:dized-movement")
def test_a_full_square_and_the_full_square_behind_it_stop_the_red_rouleur_three_squares_on() -> None:
    """Dized: blue Sprinteur takes the free left lane beside the black Rouleur; red is blocked back to 13."""
    race = one_round(
        {
            "black-r": 12,
            "black-s": (11, 1),
            "green-r": (11, 2),
            "blue-s": (10, 1),
            "red-r": (10, 2),
            "blue-r": 30,
            "green-s": 32,
            "red-s": 34,
        },
        {"anna": "r3 s3", "ben": "r3 s5", "carl": "r3 s3", "dana": "r5 s3"},
    )
    s = race.state
    assert at(s, "black-r") == (15, 1)
    assert (at(s, "black-s"), at(s, "green-r")) == ((14, 1), (14, 2))
    assert at(s, "blue-s") == (15, 2)  # 5 squares, left lane
    assert at(s, "red-r") == (13, 1)  # only 3 squares: 15 and 14 are full
    moves = {m["rider"]: m for m in kinds(race.events[0], "fr.move")}
    assert moves["red-r"]["blocked"] and moves["red-r"]["target"] == 15


@pytest.mark.rules("5.2")
def test_riders_move_from_the_front_and_the_right_lane_first() -> None:
    """Two riders on one square: the right-hand one moves first and takes the right lane of the target."""
    race = one_round(
        {"black-r": (10, 2), "blue-r": (10, 1), "black-s": 3, "blue-s": 2},
        {"anna": "r4 s2", "ben": "r4 s2"},
    )
    s = race.state
    order = [m["rider"] for m in kinds(race.events[0], "fr.move")]
    assert order == ["blue-r", "black-r", "black-s", "blue-s"]
    assert at(s, "blue-r") == (14, 1) and at(s, "black-r") == (14, 2)


@pytest.mark.rules("D17", "6.5")
def test_a_rider_arriving_later_takes_the_free_right_lane_beside_an_earlier_rider() -> None:
    """Lanes are never compacted: with lane 1 vacated, the left-lane rider stays left, the newcomer goes right."""
    race = start(record(players=1, setup=placed({"black-r": (15, 2), "black-s": 10})))
    s = race.state
    occ = occupancy(s)
    i = s.riders.index(s.rider("black-s"))
    assert move(occ, s.track, s.riders, i, 15) == (15, 1)
    assert at(s, "black-r") == (15, 2)


@pytest.mark.rules("D17", "5.2")
def test_a_rider_blocked_back_to_its_own_square_keeps_its_left_lane() -> None:
    """Squares 12 and 13 (one lane each) are taken: the rider on 11, lane 2, stays there in lane 2."""
    race = start(
        record(
            players=2,
            stage="S5 _5 _1 C1 C1 _50 F5",
            setup=placed({"blue-r": (11, 2), "black-r": 12, "black-s": 13, "blue-s": 30}),
        )
    )
    s = race.state
    occ = occupancy(s)
    i = s.riders.index(s.rider("blue-r"))
    assert move(occ, s.track, s.riders, i, 13) == (11, 2)
    assert occ[11] == [-1, i]


@pytest.mark.rules("6.2", "example:dized-cap")
def test_a_rider_that_has_moved_five_squares_cannot_enter_an_ascent() -> None:
    """Ascent 7 squares ahead, card 9: the move ends just before it (6 squares)."""
    race = one_round(
        {"black-s": 10, "black-r": 3},
        {"anna": "r3 s9"},
        stage="S5 _11 u5 _44 F5",  # ascent on squares 17-21
        hands={"black-s": [9, 2, 3, 4]},
    )
    assert at(race.state, "black-s")[0] == 16


@pytest.mark.rules("6.2")
def test_a_move_into_or_from_an_ascent_is_capped_at_five() -> None:
    """Ascent 3 squares ahead: 9 becomes 5. Starting on an ascent: 7 becomes 5."""
    race = one_round(
        {"black-s": 10, "black-r": 18},
        {"anna": "r7 s9"},
        stage="S5 _7 u10 _43 F5",  # ascent on squares 13-22
        hands={"black-s": [9, 2, 3, 4], "black-r": [7, 3, 4, 5]},
    )
    assert at(race.state, "black-s")[0] == 15
    assert at(race.state, "black-r")[0] == 23


@pytest.mark.rules("6.3")
def test_a_rider_starting_on_a_descent_moves_at_least_five() -> None:
    """A 3 from a descent square counts as 5; passing through a descent changes nothing."""
    race = one_round(
        {"black-r": 12, "black-s": 8},
        {"anna": "r3 s4"},
        stage="S5 _6 d3 _51 F5",  # descent on 12-14
        hands={"black-r": [3, 4, 5, 6], "black-s": [4, 2, 3, 5]},
    )
    assert at(race.state, "black-r")[0] == 17
    assert at(race.state, "black-s")[0] == 12


@pytest.mark.rules("6.4", "D16", "example:X5")
def test_exhaustion_cards_get_the_minimum_speed_of_supply_and_descent_squares() -> None:
    """X5: an exhaustion card from a supply square moves 4, from a descent square 5."""
    race = one_round(
        {"black-r": 8, "black-s": 20},
        {"anna": "r2 s2"},
        stage="S5 _2 P5 _7 d3 _43 F5",  # supply 8-12, descent 20-22
        hands={"black-r": ["E", 3, 4, 5], "black-s": ["E", 3, 4, 5]},
    )
    assert at(race.state, "black-r")[0] == 12
    assert at(race.state, "black-s")[0] == 25


@pytest.mark.rules("D16", "7.2", "example:X5")
def test_a_peloton_front_rider_on_a_descent_flipping_attack_moves_five() -> None:
    """X5: Attack! gives the front rider 2; from a descent square that is 5. The rear rider moves 9."""
    race = one_round(
        {"black-r": 2, "black-s": 3, "blue-p1": 20, "blue-p2": 19},
        {"anna": "r3 s2"},
        stage="S5 _14 d3 _38 F5",  # descent on 20-22
        bots=["peloton"],
        hands={"blue-p1": ["A"]},
    )
    s = race.state
    assert at(s, "blue-p1")[0] == 25
    assert at(s, "blue-p2")[0] == 28


@pytest.mark.rules("D14", "6.1")
def test_minimum_speed_comes_before_the_ascent_cap_and_blocking_comes_last() -> None:
    """From a descent, exhaustion 2 -> 5 (minimum), the ascent 4 ahead keeps it at 5, 15 is full -> 14."""
    race = one_round(
        {
            "black-r": 10,
            "black-s": (15, 1),
            "blue-s": (15, 2),
            "blue-r": 2,
            "green-r": 13,
            "green-s": 12,
        },
        {"anna": "r2 s2", "ben": "r3 s2", "carl": "r2 s3"},
        stage="S5 _4 d1 _3 u10 _37 F5",  # 10 descent, 14-23 ascent
        hands={
            "black-r": ["E", 3, 4, 5],
            "black-s": [2, 2, 2, 2],
            "blue-s": [2, 2, 2, 2],
            "green-r": ["E", 3, 4, 5],
            "green-s": [3, 3, 3, 3],
        },
    )
    s = race.state
    assert at(s, "black-s")[0] == 17 and at(s, "blue-s")[0] == 17  # on the ascent, 2 stays 2
    assert at(s, "green-r") == (15, 1) and at(s, "green-s") == (15, 2)
    assert at(s, "black-r") == (14, 1)
    move_ = next(m for m in kinds(race.events[0], "fr.move") if m["rider"] == "black-r")
    assert (move_["target"], move_["blocked"]) == (15, True)


@pytest.mark.rules("D15")
def test_the_minimum_speed_is_that_of_the_square_where_the_movement_phase_finds_the_rider() -> None:
    """Slipstreamed onto a descent square at the end of round 1, the Sprinteur starts round 2 there: 2 -> 5."""
    rec = record(
        players=1,
        stage="S5 _6 d1 _48 F5",  # square 12 is a descent
        setup={
            "riders": {
                "black-r": {"square": 10, "deck": [3, 4, 5, 6, 3, 4, 5, 6]},
                "black-s": {"square": 7, "deck": [4, 2, 3, 5, "E", 3, 3, 3]},
            }
        },
        steps=[{"anna": "r3 s4"}, {"anna": "r3 s2"}],
    )
    race = play(rec)
    assert kinds(race.events[0], "fr.slipstream") == [{"rider": "black-s", "from": 11, "to": 12, "lane": 1}]
    assert at(race.state, "black-s")[0] == 17
    assert at(race.state, "black-r")[0] == 16


@pytest.mark.rules("D4", "6.8", "example:X2")
def test_past_the_last_printed_square_the_finish_continues_virtually_and_b_wins() -> None:
    """X2 extend: A on 72 plays 6 -> 78 (5 past the line); B on 70 plays 9 -> virtual 79, 6 past: B wins."""
    race = one_round(
        {"black-r": 72, "blue-s": 70, "black-s": 2, "blue-r": 3},
        {"anna": "r6 s2", "ben": "r3 s9"},
        stage="Avenue Corso Paseo",
        hands={"black-r": [6, 3, 4, 5], "blue-s": [9, 2, 3, 4]},
        options={"finish": "first"},
    )
    s = race.state
    assert at(s, "black-r") == (78, 1) and s.rider("black-r").past == 5
    assert at(s, "blue-s") == (79, 1) and s.rider("blue-s").past == 6
    standings = race.result().standings
    assert [st.entrant for st in standings] == ["ben", "anna"]


@pytest.mark.rules("D4", "6.8", "example:X2")
def test_clipped_at_the_last_square_b_takes_the_left_lane_and_a_wins() -> None:
    """X2 clip: B's 79 becomes 78, where the left lane is free; A holds the right lane: A wins."""
    race = one_round(
        {"black-r": 72, "blue-s": 70, "black-s": 2, "blue-r": 3},
        {"anna": "r6 s2", "ben": "r3 s9"},
        stage="Avenue Corso Paseo",
        hands={"black-r": [6, 3, 4, 5], "blue-s": [9, 2, 3, 4]},
        options={"finish": "first", "finish_overflow": "clip"},
    )
    s = race.state
    assert at(s, "black-r") == (78, 1)
    assert at(s, "blue-s") == (78, 2)
    assert [st.entrant for st in race.result().standings] == ["anna", "ben"]


@pytest.mark.rules("D3", "6.2")
def test_a_summit_finish_caps_the_crossing_move_but_its_finish_squares_are_not_ascents() -> None:
    """La Haute Montagne ends u12 F4: from ascent square 72 a 9 becomes 5 (-> 77, 3 past the line)."""
    race = one_round(
        {"black-s": 72, "black-r": 40, "blue-r": 3, "blue-s": 2},
        {"anna": "r3 s9", "ben": "r3 s2"},
        stage="La Haute Montagne",
        hands={"black-s": [9, 2, 3, 4]},
        options={"finish": "first"},
    )
    s = race.state
    assert s.track.finish == 75 and not any(s.track.ascent[75:80])
    assert at(s, "black-s")[0] == 77 and s.rider("black-s").past == 3

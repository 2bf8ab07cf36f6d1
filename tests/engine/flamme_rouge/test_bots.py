"""The official bot teams (§7.2, §7.3, D20, D21): they submit nothing; their cards are flipped."""

from __future__ import annotations

import pytest

from .helpers import at, exhausted, placed, play, record, start


def peloton_round(positions: dict[str, int], peloton_deck: list[str | int], anna: str = "r3 s2") -> object:
    rec = record(
        players=1,
        bots=["peloton"],
        setup={
            "riders": {
                **placed(positions, {"black-r": [3, 4, 5, 6], "black-s": [2, 3, 4, 5]})["riders"],
                "blue-p1": {"square": positions["blue-p1"], "deck": peloton_deck},
                "blue-p2": {"square": positions["blue-p2"]},
            }
        },
        steps=[{"anna": anna}],
    )
    return play(rec)


@pytest.mark.rules("7.2", "example:seed-attack")
def test_peloton_attack_moves_the_front_rider_two_and_the_rear_rider_nine() -> None:
    """Seed: Attack! -> front 2, rear 9 (the rear one overtakes)."""
    race = peloton_round({"black-r": 2, "black-s": 3, "blue-p1": 20, "blue-p2": 19}, ["A", 5])
    s = race.state  # type: ignore[attr-defined]
    assert at(s, "blue-p1")[0] == 22 and at(s, "blue-p2")[0] == 28


@pytest.mark.rules("7.2", "D20")
def test_one_flipped_card_moves_both_peloton_riders_and_leaves_the_game() -> None:
    """A 6 moves both riders 6; the deck loses that card; nobody in the Peloton takes exhaustion."""
    race = peloton_round({"black-r": 2, "black-s": 3, "blue-p1": 20, "blue-p2": 19}, [6, 3])
    s = race.state  # type: ignore[attr-defined]
    assert at(s, "blue-p1")[0] == 26 and at(s, "blue-p2")[0] == 25
    assert s.rider("blue-p1").deck == (3,)
    assert not [rid for rid in exhausted(race.events[0]) if rid.startswith("blue")]  # type: ignore[attr-defined]


@pytest.mark.rules("D20")
def test_an_empty_peloton_deck_moves_both_riders_two() -> None:
    """No card left: both Peloton riders move 2."""
    race = peloton_round({"black-r": 2, "black-s": 3, "blue-p1": 20, "blue-p2": 17}, [])
    s = race.state  # type: ignore[attr-defined]
    assert at(s, "blue-p1")[0] == 22 and at(s, "blue-p2")[0] == 19


@pytest.mark.rules("D20")
def test_the_front_peloton_rider_is_the_one_that_moves_first_on_the_same_square_the_right_lane() -> None:
    """Both on square 20: the right-lane rider is the front one (Attack!: 2), the left one the rear (9)."""
    rec = record(
        players=1,
        bots=["peloton"],
        setup={
            "riders": {
                **placed({"black-r": 2, "black-s": 3}, {"black-r": [3, 4, 5, 6], "black-s": [2, 3, 4, 5]})["riders"],
                "blue-p1": {"square": 20, "lane": 2, "deck": ["A"]},
                "blue-p2": {"square": 20, "lane": 1},
            }
        },
        steps=[{"anna": "r3 s2"}],
    )
    s = play(rec).state
    assert at(s, "blue-p2")[0] == 22 and at(s, "blue-p1")[0] == 29


@pytest.mark.rules("D20", "D5")
def test_a_lone_racing_peloton_rider_is_the_rear_rider() -> None:
    """Its team-mate has crossed: Attack! moves the remaining Peloton rider 9."""
    rec = record(
        players=1,
        bots=["peloton"],
        stage="S5 _20 F5",  # the line is after square 25
        setup={
            "riders": {
                **placed({"black-r": 2, "black-s": 3}, {"black-r": [3, 3, 3, 3, 3, 3, 3, 3]})["riders"],
                "black-s": {"square": 3, "deck": [2, 2, 2, 2, 2, 2, 2, 2]},
                "blue-p1": {"square": 22, "deck": [5, "A"]},
                "blue-p2": {"square": 10},
            }
        },
        steps=[{"anna": "r3 s2"}, {"anna": "r3 s2"}],
    )
    race = play(rec)
    s = race.state
    assert s.rider("blue-p1").crossed == 1  # 22 + 5 = 27, past the line
    assert at(s, "blue-p2")[0] == 10 + 5 + 9


@pytest.mark.rules("7.3", "D21")
def test_muscle_riders_flip_a_card_each_the_muscle_card_is_five_and_an_empty_deck_moves_two() -> None:
    """Muscle Sprinteur flips its Muscle card (5); the Muscle Rouleur with no card moves 2; no exhaustion."""
    rec = record(
        players=1,
        bots=["muscle"],
        setup={
            "riders": {
                **placed({"black-r": 2, "black-s": 3}, {"black-r": [3, 4, 5, 6], "black-s": [2, 3, 4, 5]})["riders"],
                "blue-s": {"square": 20, "deck": ["M"]},
                "blue-r": {"square": 10, "deck": []},
            }
        },
        steps=[{"anna": "r3 s2"}],
    )
    race = play(rec)
    s = race.state
    assert at(s, "blue-s")[0] == 25 and at(s, "blue-r")[0] == 12
    assert s.rider("blue-s").deck == ()
    assert not [rid for rid in exhausted(race.events[0]) if rid.startswith("blue")]


@pytest.mark.rules("7.2", "7.3", "9.1")
def test_bot_teams_are_never_awaited_and_refuse_orders() -> None:
    """Only the player is awaited; an order for a bot team is refused."""
    race = start(record(players=1, bots=["peloton", "muscle"], options={"grid": "random"}))
    assert [d.entrant for d in race.awaited()] == ["anna"]
    with pytest.raises(Exception, match="bot team"):
        race.validate("peloton0", "r5")
    assert race.ruleset.auto_order(race.state, "peloton0", None, "peloton") == {}

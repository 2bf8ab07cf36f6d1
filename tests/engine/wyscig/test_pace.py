"""§5.1 and §5.2: a card against the leader's speed, on the flat and on a climb."""

from __future__ import annotations

import pytest

from engine.wyscig.pace import hint, judge
from tests.engine.wyscig.helpers import last_event, minutes, record, run, state

FLAT, CLIMB = False, True


@pytest.mark.rules("5.1", "D11")
def test_the_leader_sets_the_pace_whatever_he_plays() -> None:
    """The holder of the yellow token is never judged: his speed becomes L."""
    for speed in (39, 45, 56):
        assert judge(speed, 47, 0, True, FLAT).outcome == "pace"
        assert judge(speed, 47, 0, True, CLIMB).outcome == "pace"


@pytest.mark.rules("5.1")
@pytest.mark.parametrize(
    ("speed", "outcome", "taken"),
    [(48, "lead", 0), (47, "peloton", 0), (46, "peloton", 0), (45, "peloton", 0), (44, "penalty", 3)],
)
def test_a_chip_free_rider_on_the_flat(speed: int, outcome: str, taken: int) -> None:
    """Above L leads, within 2 km/h rides in the peloton, 3 or more below costs d minutes."""
    verdict = judge(speed, 47, 0, False, FLAT)
    assert (verdict.outcome, verdict.minutes) == (outcome, taken)


@pytest.mark.rules("5.1", "D12", "D13")
@pytest.mark.parametrize(
    ("speed", "outcome", "change"),
    [(50, "give_back", -3), (48, "give_back", -1), (47, "peloton", 0), (46, "penalty", 1), (45, "penalty", 2)],
)
def test_a_penalised_rider_on_the_flat(speed: int, outcome: str, change: int) -> None:
    """With 4 minutes against 47: above gives back, equal is nothing, any km/h below costs a minute."""
    verdict = judge(speed, 47, 4, False, FLAT)
    assert (verdict.outcome, verdict.minutes) == (outcome, change)


@pytest.mark.rules("5.2", "D9")
@pytest.mark.parametrize(
    ("speed", "held", "outcome", "change"),
    [
        (50, 0, "peloton", 0),
        (47, 0, "peloton", 0),
        (46, 0, "penalty", 1),
        (45, 0, "penalty", 2),
        (49, 5, "give_back", -2),
        (47, 5, "peloton", 0),
        (46, 5, "penalty", 1),
    ],
)
def test_on_a_climb_nobody_overtakes_and_there_is_no_tolerance(
    speed: int, held: int, outcome: str, change: int
) -> None:
    """The climb table of D9 against a leader's 47."""
    verdict = judge(speed, 47, held, False, CLIMB)
    assert (verdict.outcome, verdict.minutes) == (outcome, change)


@pytest.mark.rules("D12")
def test_the_excess_above_the_minutes_held_is_lost() -> None:
    """2 minutes held, 5 km/h above L: gives back 2, the other 3 km/h are lost."""
    verdict = judge(50, 45, 2, False, FLAT)
    assert (verdict.minutes, verdict.lost) == (-2, 3)


@pytest.mark.rules("example:10.1-leader-47", "D14", "5.1")
def test_seed_example_the_leader_plays_47() -> None:
    """Leader 47: 47 and 45 ride in the peloton, 42 costs 5 and 40 costs 7, then a 48 takes the yellow."""
    hands = {
        "p1": "47 39 39 39 39 39",
        "p2": "47 41 41 41 41 41",
        "p3": "45 43 43 43 43 43",
        "p4": "42 44 44 44 44 44",
        "p5": "40 46 46 46 46 46",
        "p6": "48 50 50 50 50 50",
    }
    steps = [("p1", "play 47"), ("p2", "play 47"), ("p3", "play 45"), ("p4", "play 42"), ("p5", "play 40")]
    race = run(record(hands, "39 39 39 41 41 41 43 43 43 44 44 44", steps))
    assert minutes(race) == {"p1": 0, "p2": 0, "p3": 0, "p4": 5, "p5": 7, "p6": 0}
    assert state(race).leader == "p1"
    race.play_step({"p6": "play 48"})
    assert state(race).leader == "p6"
    assert state(race).reference == 48
    assert last_event(race, "wk.lead")["entrant"] == "p6"


@pytest.mark.rules("example:10.1-leader-47")
@pytest.mark.parametrize(("speed", "taken"), [(46, 0), (44, 3), (43, 4), (42, 5), (40, 7)])
def test_seed_example_minutes_equal_the_difference(speed: int, taken: int) -> None:
    """Against 47 a chip-free rider loses as many minutes as the difference once it is more than 2."""
    assert judge(speed, 47, 0, False, FLAT).minutes == taken


@pytest.mark.rules("example:10.1-give-back", "D12")
def test_seed_example_b_gives_back_six_minutes() -> None:
    """B holds 6 minutes, the leader plays 41, B plays 47: all 6 minutes go back, B stays in the peloton."""
    hands = {"p1": "41 42 42 42 42 42", "p2": "47 43 43 43 43 43", "p3": "44 44 44 44 44 44"}
    race = run(record(hands, "39 " * 8, [("p1", "play 41"), ("p2", "play 47")], minutes={"p2": 6}))
    assert minutes(race)["p2"] == 0
    assert state(race).leader == "p1"
    assert state(race).reference == 41
    assert last_event(race, "wk.give_back")["minutes"] == 6


@pytest.mark.rules("example:10.2", "5.1")
def test_german_example_leader_45_and_only_a_42() -> None:
    """Leader's tempo 45; a chip-free rider who can only play 42 takes 3 penalty chips."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "42 41 40 40 40 40"}
    race = run(record(hands, "39 " * 6, [("p1", "play 45"), ("p2", "play 42")]))
    assert minutes(race)["p2"] == 3


@pytest.mark.rules("D11")
def test_the_leader_may_play_lower_and_later_riders_compare_with_it() -> None:
    """The leader drops from 47 to 41: L becomes 41 and a 39 is within the tolerance."""
    hands = {"p1": "47 41 44 44 44 44", "p2": "47 39 44 44 44 44"}
    race = run(record(hands, "50 " * 8, [("p1", "play 47"), ("p2", "play 47"), ("p1", "play 41"), ("p2", "play 39")]))
    assert state(race).reference == 41
    assert state(race).leader == "p1"
    assert minutes(race) == {"p1": 0, "p2": 0}


@pytest.mark.rules("D12")
def test_a_penalised_rider_takes_the_lead_only_once_chip_free() -> None:
    """3 minutes, plays 5 above: gives back 3 and stays behind; next lap, chip-free, a higher card leads."""
    hands = {"p1": "45 45 44 44 44 44", "p2": "50 46 44 44 44 44"}
    steps = [("p1", "play 45"), ("p2", "play 50"), ("p1", "play 45"), ("p2", "play 46")]
    race = run(record(hands, "39 " * 8, steps[:2], minutes={"p2": 3}))
    assert (state(race).leader, minutes(race)["p2"]) == ("p1", 0)
    assert last_event(race, "wk.give_back")["lost"] == 2
    for who, text in steps[2:]:
        race.play_step({who: text})
    assert state(race).leader == "p2"
    assert state(race).reference == 46


@pytest.mark.rules("D13")
def test_a_penalised_rider_may_play_one_below_and_pays_for_it() -> None:
    """With 2 minutes, a 44 against 45 is accepted and costs 1 more minute."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "44 41 41 41 41 41"}
    race = run(record(hands, "39 " * 6, [("p1", "play 45"), ("p2", "play 44")], minutes={"p2": 2}))
    assert minutes(race)["p2"] == 3


@pytest.mark.rules("D17")
def test_penalty_minutes_have_no_cap() -> None:
    """Past the 150 tokens in the box: 149 minutes plus 11 more make 160."""
    hands = {"p1": "50 50 50 50 50 50", "p2": "39 39 39 39 39 39"}
    race = run(record(hands, "45 " * 6, [("p1", "play 50"), ("p2", "play 39")], minutes={"p2": 149}))
    assert minutes(race)["p2"] == 160


@pytest.mark.rules("5.1", "5.2", "D8")
@pytest.mark.parametrize(
    ("card", "descents", "minutes", "is_leader", "on_climb", "key", "text", "taken"),
    [
        (47, 0, 0, True, FLAT, "wk.hint.pace", "47: set the pace", 0),
        (48, 0, 0, False, FLAT, "wk.hint.lead", "48: take the lead", 0),
        (45, 1, 0, False, FLAT, "wk.hint.lead", "45 +1 = 47: take the lead", 0),
        (46, 0, 0, False, FLAT, "wk.hint.peloton", "46: peloton", 0),
        (43, 0, 0, False, FLAT, "wk.hint.penalty", "43: +3 min", 3),
        (50, 0, 4, False, FLAT, "wk.hint.give_back", "50: −4 min", 4),
        (
            47,
            0,
            0,
            False,
            CLIMB,
            "wk.hint.climb_blocked",
            "47 (45 on the climb): peloton (no overtaking on the climb)",
            0,
        ),
        (44, 0, 0, False, CLIMB, "wk.hint.climb_penalty", "44 (42 on the climb): +2 min", 2),
        (43, 1, 0, False, CLIMB, "wk.hint.climb_penalty", "43 +1 = 45 (43 on the climb): +1 min", 1),
    ],
)
def test_a_card_button_says_what_playing_it_would_mean_against_a_leader_at_46(
    card: int, descents: int, minutes: int, is_leader: bool, on_climb: bool, key: str, text: str, taken: int
) -> None:
    """Against L 46: 48 takes the lead, 46 rides in the peloton, 43 costs 3 minutes, 50 gives 4 back."""
    speed = card + 2 * descents
    shown = hint(card, descents, judge(speed, 46, minutes, is_leader, on_climb), on_climb)
    assert (shown.key, shown.text) == (key, text)
    label = text.rsplit(": ", 1)[0].split(" (", 1)[0]  # the card and its descents; the climb has its own key
    climb = {"climb_speed": speed - 2} if on_climb else {}
    assert shown.params == {"card": card, "speed": speed, "label": label, "minutes": taken, **climb}

"""§4.1 and §5.2-5.3: the draw, climbs and how long they last, descents, the redeal of D16."""

from __future__ import annotations

import pytest

from engine.messages import OrderError
from engine.wyscig import RULESET
from tests.engine.wyscig.helpers import hand, kinds, last_event, minutes, played, record, run, state


@pytest.mark.rules("4.1")
def test_on_his_turn_a_player_draws_the_seventh_card_before_playing() -> None:
    """The leader's hand of 6 becomes 7 with the top card of the pile as his turn begins."""
    race = run(record({"p1": "45 45 45 45 45 45", "p2": "44 44 44 44 44 44"}, "50 41 41"))
    assert state(race).turn == "p1"
    assert hand(race, "p1") == [45, 45, 45, 45, 45, 45, 50]
    assert hand(race, "p2") == [44] * 6
    race.play_step({"p1": "play 50"})
    assert hand(race, "p2") == [41, 44, 44, 44, 44, 44, 44]


@pytest.mark.rules("D14")
def test_after_a_new_leader_every_later_rider_compares_with_his_speed() -> None:
    """47, then 48 takes the lead: a 46 is now 2 below (peloton) and a 45 is 3 below (3 minutes)."""
    hands = {"p1": "47 40 40 40 40 40", "p2": "48 41 41 41 41 41", "p3": "46 42 42 42 42 42", "p4": "45 43 43"}
    steps = [("p1", "play 47"), ("p2", "play 48"), ("p3", "play 46"), ("p4", "play 45")]
    race = run(record(hands, "39 " * 8, steps))
    assert state(race).leader == "p2"
    assert minutes(race) == {"p1": 0, "p2": 0, "p3": 0, "p4": 3}


@pytest.mark.rules("D6", "5.2")
def test_a_climb_drawn_is_laid_at_once_and_replaced_without_using_the_turn() -> None:
    """P2 turns up a climb: it lies in front of him, he draws again and still plays this turn."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "44 44 44 44 44 44"}
    race = run(record(hands, "39 c 48 39 39", [("p1", "play 45")]))
    s = state(race)
    assert s.turn == "p2"
    assert [c.owner for c in s.climbs] == ["p2"]
    assert hand(race, "p2") == [44, 44, 44, 44, 44, 44, 48]
    assert last_event(race, "wk.climb_laid")["entrant"] == "p2"


@pytest.mark.rules("example:10.3", "D7", "D9", "D12")
def test_constructed_example_a_climb_from_p2s_draw_until_his_next_turn() -> None:
    """§10.3 step by step: the climb blocks P2 and taxes P3, P4 gives back 2, it ends before P2 leads."""
    hands = {
        "p1": "45 43 40 40 40 40",
        "p2": "47 46 42 42 42 42",
        "p3": "44 41 41 41 41 41",
        "p4": "47 50 50 50 50 50",
    }
    pile = "39 c 39 39 39 39 39 39"
    race = run(record(hands, pile, [("p1", "play 45")], minutes={"p4": 3}))
    assert state(race).reference == 45
    race.play_step({"p2": "play 47"})
    assert (state(race).leader, state(race).reference, minutes(race)["p2"]) == ("p1", 45, 0)
    assert last_event(race, "wk.blocked")["entrant"] == "p2"
    race.play_step({"p3": "play 44"})
    assert minutes(race)["p3"] == 1
    race.play_step({"p4": "play 47"})
    assert minutes(race)["p4"] == 1
    assert state(race).leader == "p1"
    assert RULESET.public_view(state(race))["lap"]["text"] == "P2 47 (no overtaking) · P3 44 +1 min · P4 47 −2 min"
    race.play_step({"p1": "play 43"})
    assert state(race).reference == 43
    assert played(race)[-1]["on_climb"]  # P1's 43 was still on the climb
    assert state(race).turn == "p2"
    assert not state(race).on_climb  # the turn order reached P2: his climb is over before his card
    race.play_step({"p2": "play 46"})
    assert (state(race).leader, state(race).reference) == ("p2", 46)
    assert [p["on_climb"] for p in played(race)] == [False, True, True, True, True, False]


@pytest.mark.rules("D7")
def test_a_climb_drawn_as_a_descent_replacement_starts_after_the_card() -> None:
    """P2 plays 45 + 1 descent against 45 and leads; the climb he draws for the descent covers P3 only."""
    hands = {"p1": "45 41 41 41 41 41", "p2": "45 d 42 42 42 42", "p3": "48 43 43 43 43 43"}
    race = run(record(hands, "39 39 c 39 39 39 39", [("p1", "play 45"), ("p2", "play 45 +1")]))
    assert (state(race).leader, state(race).reference) == ("p2", 47)
    assert [c.owner for c in state(race).climbs] == ["p2"]
    race.play_step({"p3": "play 48"})
    assert state(race).leader == "p2"  # on the climb P3 cannot overtake
    race.play_step({"p1": "play 41"})
    assert minutes(race)["p1"] == 6
    assert state(race).turn == "p2"
    assert not state(race).climbs


@pytest.mark.rules("D7")
def test_the_leaders_opening_climb_covers_exactly_the_first_lap() -> None:
    """A climb in the leader's opening hand: every card of lap one is on it, his second card is not."""
    hands = {"p1": "c 45 44 44 44 44", "p2": "47 43 43 43 43 43"}
    race = run(record(hands, "39 " * 8, [("p1", "play 45"), ("p2", "play 47")]))
    assert state(race).leader == "p1"
    assert hand(race, "p1") == [39, 39, 39, 44, 44, 44, 44]  # replacement and two draws: no climb held
    race.play_step({"p1": "play 44"})
    race.play_step({"p2": "play 43"})
    assert [p["on_climb"] for p in played(race)] == [True, True, False, False]
    assert minutes(race)["p2"] == 0  # 43 against 44 on the flat is within the tolerance


@pytest.mark.rules("D7", "D5")
def test_another_players_opening_climb_lasts_until_his_second_turn() -> None:
    """P2's opening climb covers lap one and P1's second card, and ends as P2's second turn begins."""
    hands = {"p1": "45 45 40 40 40 40", "p2": "c 44 45 41 41 41", "p3": "43 45 42 42 42 42", "p4": "45 43 46 46"}
    steps = [("p1", "play 45"), ("p2", "play 44"), ("p3", "play 43"), ("p4", "play 45")]
    steps += [("p1", "play 45"), ("p2", "play 45"), ("p3", "play 45"), ("p4", "play 43")]
    race = run(record(hands, "39 39 39 39 39 39 39 39 40 40 40 40", steps))
    assert [p["on_climb"] for p in played(race)] == [True] * 5 + [False] * 3
    assert minutes(race) == {"p1": 0, "p2": 1, "p3": 2, "p4": 0}


@pytest.mark.rules("D7")
def test_overlapping_climbs_keep_the_road_climbing_until_the_last_ends() -> None:
    """Climbs from P2 (opening hand) and P1 (drawn on his 2nd turn): the road climbs while either holds."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "c 44 44 44 44 44"}
    pile = "39 39 39 c 39 39 39 39"
    steps = [("p1", "play 45"), ("p2", "play 44"), ("p1", "play 45"), ("p2", "play 44"), ("p1", "play 45")]
    race = run(record(hands, pile, steps))
    # P2's opening climb ends at his 2nd turn (4th card), but P1's, laid at his 2nd turn, still holds;
    # it ends at P1's 3rd turn (5th card).
    assert [p["on_climb"] for p in played(race)] == [True, True, True, True, False]
    assert [c.owner for c in state(race).climbs] == []


@pytest.mark.rules("D7", "D15")
def test_a_skipped_turn_still_ends_the_players_climb() -> None:
    """P2 is skipped with no speed card once the pile is out: reaching him ends his climb all the same."""
    hands = {"p1": "45 44", "p2": "46", "p3": "45 43"}
    steps = [("p1", "play 45"), ("p2", "play 46"), ("p3", "play 45"), ("p1", "play 44")]
    race = run(record(hands, "39 c d", steps))
    assert state(race).turn == "p3"
    assert not state(race).climbs
    assert "wk.skip" in kinds(race)
    race.play_step({"p3": "play 43"})
    assert minutes(race)["p3"] == 0  # 1 below on the flat: the climb had ended


@pytest.mark.rules("D8")
def test_the_climbs_minus_two_is_shown_but_never_computed() -> None:
    """On a climb a 47 reads "47 (45 on the climb)" and is still compared as 47."""
    hands = {"p1": "c 47 41 41 41 41", "p2": "47 42 42 42 42 42"}
    race = run(record(hands, "39 " * 8, [("p1", "play 47"), ("p2", "play 47")]))
    data = last_event(race, "wk.peloton")
    assert str(data["shown"]) == "47 (45 on the climb)"
    assert data["shown"].key == "wk.shown.climb_card"
    assert data["shown"].params == {"card": 47, "speed": 47, "climb_speed": 45}
    assert (data["speed"], minutes(race)["p2"]) == (47, 0)
    assert state(race).reference == 47


@pytest.mark.rules("example:10.1-descents", "5.3", "D10")
def test_descents_add_two_each_with_no_cap() -> None:
    """50 with one descent is 52; 50 with three descents is 56, beyond the German cap of 52."""
    hands = {"p1": "50 d d d d 41", "p2": "50 d 41 41 41 41"}
    race = run(record(hands, "39 " * 8, [("p1", "play 50 +3")]))
    assert state(race).reference == 56
    race.play_step({"p2": "play 50 +1"})
    assert played(race)[-1]["speed"] == 52
    assert minutes(race)["p2"] == 4


@pytest.mark.rules("5.3", "D10")
def test_one_replacement_is_drawn_for_each_descent_played() -> None:
    """After 50 + 2 descents the hand is topped up with two cards from the pile."""
    hands = {"p1": "50 d d 41 41 41", "p2": "44 44 44 44 44 44"}
    race = run(record(hands, "42 48 49 39 39", [("p1", "play 50 +2")]))
    assert hand(race, "p1") == [41, 41, 41, 42, 48, 49]
    assert state(race).player("p1").descents == 0


@pytest.mark.rules("D10")
def test_descents_are_played_only_on_your_own_turn() -> None:
    """P2 may not slip a descent in while it is P1's turn."""
    race = run(record({"p1": "45 45 45 45 45 45", "p2": "44 d 44 44 44 44"}, "39 39 39"))
    with pytest.raises(OrderError) as err:
        race.validate("p2", "play 44 +1")
    assert err.value.message.key == "wk.not_your_turn"


@pytest.mark.rules("D10", "D9")
def test_descents_on_a_climb_give_back_more_minutes_but_never_overtake() -> None:
    """4 minutes, 45 + 2 descents = 49 against 45 on a climb: all 4 go back, the leader stays."""
    hands = {"p1": "c 45 41 41 41 41", "p2": "45 d d 42 42 42", "p3": "50 d 43 43 43 43"}
    steps = [("p1", "play 45"), ("p2", "play 45 +2"), ("p3", "play 50 +1")]
    race = run(record(hands, "39 " * 8, steps, minutes={"p2": 4}))
    assert minutes(race) == {"p1": 0, "p2": 0, "p3": 0}
    assert state(race).leader == "p1"


@pytest.mark.rules("D16")
def test_a_hand_without_speed_cards_is_shown_discarded_and_redrawn() -> None:
    """P2 holds only descents and draws another: the hand is discarded and 6 + 1 new cards drawn."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "d d"}
    race = run(record(hands, "39 d 40 41 42 43 44 c 46 47 39 39", [("p1", "play 45")]))
    assert state(race).turn == "p2"
    assert last_event(race, "wk.redeal") == {"entrant": "p2", "name": "P2", "descents": 3, "count": 3}
    assert hand(race, "p2") == [40, 41, 42, 43, 44, 46, 47]
    assert state(race).player("p2").descents == 0
    assert [c.owner for c in state(race).climbs] == ["p2"]


@pytest.mark.rules("D7", "D6")
def test_a_climb_ending_and_a_new_climb_drawn_in_the_same_turn_are_two_climbs() -> None:
    """P2's first climb ends as his 2nd turn begins; the climb he then draws runs until his 3rd turn."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "46 46 44 44 44 44"}
    race = run(record(hands, "39 c 39 39 c 39 39 39 39", [("p1", "play 45"), ("p2", "play 46"), ("p1", "play 45")]))
    climbs = state(race).climbs
    assert [(c.owner, c.ends_at_turn) for c in climbs] == [("p2", 3)]
    assert [e for e in kinds(race) if e.startswith("wk.climb")] == ["wk.climb_laid", "wk.climb_ended", "wk.climb_laid"]
    race.play_step({"p2": "play 46"})
    assert state(race).leader == "p1"  # the new climb covers his own card: no overtaking


@pytest.mark.rules("D16", "D15")
def test_a_redeal_that_empties_the_pile_without_a_speed_card_skips_the_player() -> None:
    """P2 holds a descent, draws another and redraws only descents: the pile is out, so he is skipped."""
    hands = {"p1": "45 44", "p2": "d"}
    race = run(record(hands, "39 d d d", [("p1", "play 45")]))
    assert kinds(race)[-2:] == ["wk.redeal", "wk.skip"]
    assert state(race).turn == "p1"
    assert state(race).player("p2").hand_size == 0


@pytest.mark.rules("D16", "D7")
def test_a_redealt_hand_goes_to_the_discard_pile_and_its_climb_is_laid_during_the_turn() -> None:
    """P1's 45 and P2's three redealt descents make 4 discards; the climb P2 draws is no opening climb."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "d d"}
    race = run(record(hands, "39 d 40 41 42 43 44 c 46 47 39 39", [("p1", "play 45")]))
    assert state(race).discards == 1 + 3
    assert [(c.owner, c.ends_at_turn, c.opening) for c in state(race).climbs] == [("p2", 2, False)]


@pytest.mark.rules("5.3", "4.1")
def test_the_table_keeps_each_card_its_descents_and_the_speed_it_was_judged_against() -> None:
    """P1 sets 45; P2 plays 45 + 1 descent = 47 against 45 and leads: his last card reads 45 + 1 = 47."""
    hands = {"p1": "45 41 41 41 41 41", "p2": "45 d 42 42 42 42"}
    race = run(record(hands, "39 39 39 39", [("p1", "play 45"), ("p2", "play 45 +1")]))
    assert state(race).player("p2").last == {"card": 45, "descents": 1, "speed": 47}
    entry = state(race).played[-1]
    assert (entry["card"], entry["descents"], entry["speed"], entry["reference"]) == (45, 1, 47, 45)
    assert (entry["outcome"], state(race).leader, state(race).reference) == ("lead", "p2", 47)


@pytest.mark.rules("5.1", "D11", "D12", "D14")
def test_each_card_of_a_lap_is_announced_with_what_it_did() -> None:
    """47 sets the pace, 48 takes the yellow token, 46 rides in the peloton, 44 pays 4, 50 gives 2 of 3 back."""
    hands = {
        "p1": "47 41 41 41 41 41",
        "p2": "48 42 42 42 42 42",
        "p3": "46 43 43 43 43 43",
        "p4": "44 45 45 45 45 45",
        "p5": "50 49 49 49 49 49",
    }
    steps = [("p1", "play 47"), ("p2", "play 48"), ("p3", "play 46"), ("p4", "play 44"), ("p5", "play 50")]
    race = run(record(hands, "39 39 39 39 39 40 40 40 40 40", steps, minutes={"p5": 3}))
    announced = [
        (e.kind, e.data["entrant"], e.data["reference"], e.data["minutes"])
        for step in race.events
        for e in step
        if e.kind in {"wk.pace", "wk.lead", "wk.peloton", "wk.penalty", "wk.give_back", "wk.blocked"}
    ]
    assert announced == [
        ("wk.pace", "p1", None, 0),
        ("wk.lead", "p2", 47, 0),
        ("wk.peloton", "p3", 48, 0),
        ("wk.penalty", "p4", 48, 4),
        ("wk.give_back", "p5", 48, 2),
    ]
    assert minutes(race) == {"p1": 0, "p2": 0, "p3": 0, "p4": 4, "p5": 1}

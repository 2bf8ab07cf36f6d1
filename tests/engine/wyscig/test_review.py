"""Conformance scenarios added by the independent review: the cases the first suite did not pin down.

Every expected number here is worked out by hand from ``wyscig-kolarski.md`` (see each docstring).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.messages import OrderError
from engine.record import RecordError
from engine.ruleset import Entrant
from engine.wyscig import RULESET
from engine.wyscig.pace import judge
from tests.engine.wyscig.helpers import kinds, last_event, minutes, played, record, run, state


@pytest.mark.rules("D11", "4")
def test_a_stage_cannot_start_with_a_leader_who_has_no_card_to_play() -> None:
    """A leader with only a descent and no pile is refused: else P2, holding minutes, would take the token."""
    rec = record({"p1": "d", "p2": "45 44", "p3": "46 43"}, "", minutes={"p2": 3})
    with pytest.raises(RecordError, match="leader"):
        run(rec)


@pytest.mark.rules("D11", "D16")
def test_a_leader_without_a_speed_card_redraws_from_the_pile_before_the_first_card() -> None:
    """The leader's hand of descents is redrawn (D16) when the pile still holds speed cards: he plays first."""
    race = run(record({"p1": "d", "p2": "45 44"}, "d 41 42 43 44 45 46 47 48"))
    assert state(race).turn == "p1"
    assert sorted(state(race).player("p1").speeds) == [41, 42, 43, 44, 45, 46, 47]


@pytest.mark.rules("6")
def test_the_next_stage_is_led_by_the_winner_not_by_the_next_seat() -> None:
    """P1 led stage 1 and P3 took the yellow token: stage 2 starts with P3 (not P2, not P1)."""
    hands = {"p1": "45", "p2": "44", "p3": "46"}
    race = run(record(hands, "", [("p1", "play 45"), ("p2", "play 44"), ("p3", "play 46")], stages=2))
    s = state(race)
    assert (s.stage_number, s.leader, s.turn) == (2, "p3", "p3")
    assert s.player("p3").times == [57]
    assert s.player("p1").times == s.player("p2").times == [60]


@pytest.mark.rules("D7", "5.2")
def test_a_climb_drawn_after_the_card_covers_the_next_riders_only() -> None:
    """P2's descent replacement is a climb: his 47 led on the flat, P3's 49 is blocked, P1's 46 costs 1."""
    hands = {"p1": "45 46 40 40 40 40", "p2": "45 d 42 42 42 42", "p3": "49 43 43 43 43 43"}
    race = run(record(hands, "39 39 c 39 39 39 39", [("p1", "play 45"), ("p2", "play 45 +1")]))
    assert (state(race).leader, state(race).reference) == ("p2", 47)
    assert not played(race)[-1]["on_climb"]
    race.play_step({"p3": "play 49"})
    assert (state(race).leader, minutes(race)["p3"]) == ("p2", 0)
    race.play_step({"p1": "play 46"})
    assert minutes(race)["p1"] == 1  # 1 below on the flat would be free
    assert state(race).turn == "p2" and not state(race).on_climb


@pytest.mark.rules("D9", "D12")
def test_on_a_climb_a_penalised_rider_gives_back_at_most_what_he_holds() -> None:
    """2 minutes held, 50 against 45 on a climb: gives back 2, the other 3 km/h are lost, no lead."""
    verdict = judge(50, 45, 2, False, True)
    assert (verdict.outcome, verdict.minutes, verdict.lost) == ("give_back", -2, 3)


@pytest.mark.rules("5.1")
@pytest.mark.parametrize(("speed", "taken"), [(44, 1), (43, 2), (42, 3), (47, 0)])
def test_a_penalised_rider_has_no_tolerance_on_the_flat(speed: int, taken: int) -> None:
    """Holding 1 minute against 45: every km/h below costs one; a card above gives the one minute back."""
    verdict = judge(speed, 45, 1, False, False)
    assert verdict.minutes == (taken if speed < 45 else -1)


@pytest.mark.rules("4.2", "D15", "6")
def test_a_skipped_leader_keeps_l_and_can_still_lose_the_yellow_token() -> None:
    """P1 leads 41 with his last card and is skipped; L stays 41, so P2's 43 takes the token and wins the stage."""
    hands = {"p1": "41", "p2": "43 39", "p3": "40 42"}
    steps = [("p1", "play 41"), ("p2", "play 39"), ("p3", "play 40"), ("p2", "play 43"), ("p3", "play 42")]
    race = run(record(hands, "", steps))
    # P2: 39 vs 41 -> peloton (d=2); P3: 40 -> peloton (d=1); then P1 is skipped, L stays 41;
    # P2: 43 > 41 chip-free -> takes the lead! P3: 42 vs 43 -> peloton.  P2 ends in yellow.
    assert last_event(race, "wk.stage_end")["times"] == {"p1": 60, "p2": 57, "p3": 60}
    assert state(race).finished


@pytest.mark.rules("D19", "7")
def test_riders_sharing_first_place_are_both_named_at_the_race_end() -> None:
    """A 57+60+60 and B 60+57+60 (177, one win, 60 last) share first; C wins stage 3 on 63+63+57 = 183."""
    hands = {"a": "44", "b": "43", "c": "45"}
    rec = record(
        hands,
        "",
        [("c", "play 45"), ("a", "play 44"), ("b", "play 43")],
        leader="c",
        seats=["a", "b", "c"],
        stages=3,
        stage_number=3,
        earlier_times={"a": [57, 60], "b": [60, 57], "c": [63, 63]},
    )
    race = run(rec)
    standings = [(s.entrant, s.place, s.figures["total_time"]) for s in race.result().standings]
    assert standings == [("a", 1, 177), ("b", 1, 177), ("c", 3, 183)]
    end = last_event(race, "wk.race_end")
    assert end["winners"] == ["a", "b"]
    assert end["total"] == 177 and end["time"] == "2:57"  # a race time in hours and minutes
    assert kinds(race)[-1] == "wk.race_end"
    assert [m.text for step in race.events for e in step if e.kind == "wk.race_end" for m in [e.message]] == [
        "The race is over: A and B share first place in 2:57."
    ]
    # The names are joined by a message of their own, and ``count`` picks the plural form ("share").
    assert end["count"] == 2
    assert (end["name"].key, end["name"].params) == ("wk.names.and", {"names": "A", "last": "B"})


def _at_p2() -> Any:
    """P1 led 47; P2 holds 39, 43, 45, 48, 50 and two descents."""
    hands = {"p1": "47 45 44 42 41 40", "p2": "50 48 45 43 d d"}
    return run(record(hands, "39 39 39 39 39 39", [("p1", "play 47")]))


@pytest.mark.rules("8.1")
@pytest.mark.parametrize("order", [47, [47], None, 4.5])
def test_an_order_that_is_neither_an_object_nor_text_is_refused_kindly(order: Any) -> None:
    """A bare number or a list is not an order: the player is told what to send."""
    race = _at_p2()
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", order)
    assert err.value.message.key == "wk.not_an_order"
    assert "play 47" in err.value.message.text


@pytest.mark.rules("8.2")
@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("play", "wk.syntax_no_card", "Which speed card? Your hand is 39, 43, 45, 48, 50 and 2 descents"),
        ("play +2", "wk.syntax_no_card", "Which speed card?"),
        ("play 48 +", "wk.syntax_no_count", "how many descent cards"),
        ("play 48 49", "wk.syntax_two_cards", "one speed card"),
        ("play 48 -1", "wk.syntax", "I can't read"),
    ],
)
def test_text_syntax_errors_say_exactly_what_is_missing(text: str, key: str, words: str) -> None:
    """A play without a card, a + without a count, or two cards at once each get their own advice."""
    race = _at_p2()
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", text)
    assert err.value.message.key == key
    assert words in err.value.message.text


@pytest.mark.rules("8.2")
def test_play_glued_to_its_card_is_read_and_true_is_not_a_card() -> None:
    """`play48` is the 48 without descents; {"card": true} is refused instead of being read as a 1."""
    race = _at_p2()
    assert RULESET.validate(state(race), "p2", "play48").order == {"card": 48, "descents": 0}
    with pytest.raises(OrderError) as err:
        RULESET.validate(state(race), "p2", {"card": True})
    assert err.value.message.key == "wk.bad_field"
    assert err.value.message.params["problem"].key == "wk.problem.boolean"


@pytest.mark.rules("D22", "4.3")
def test_the_public_view_is_blind_to_the_hands_and_the_pile_order() -> None:
    """Two tables that differ only in secret cards (other values in hand, pile reversed) look the same."""
    entrants = [Entrant(id=f"e{i}", name=f"E{i}", bot="steady") for i in range(3)]
    s = RULESET.new_race({"stages": 2}, {}, entrants, 7)
    for _ in range(20):
        who = s.turn
        assert who is not None
        s, _ = RULESET.resolve(s, {who: RULESET.auto_order(s, who, None, "steady")})
    other = s.copy()
    for p in other.players.values():
        p.speeds = sorted(39 + (v - 39 + 5) % 12 for v in p.speeds)
    other.pile.reverse()
    assert other.pile != s.pile
    assert RULESET.private_view(other, "e0")["hand"] != RULESET.private_view(s, "e0")["hand"]
    assert RULESET.public_view(other) == RULESET.public_view(s)


@pytest.mark.rules("D12", "D18", "6")
def test_minutes_given_back_come_off_the_stage_time() -> None:
    """P2 holds 5; against 45 his 48 gives back 3; he ends the stage with 2 and records 62, P1 57, P3 60."""
    hands = {"p1": "45", "p2": "48", "p3": "43"}
    race = run(record(hands, "", [("p1", "play 45"), ("p2", "play 48"), ("p3", "play 43")], minutes={"p2": 5}))
    assert last_event(race, "wk.give_back")["minutes"] == 3
    assert last_event(race, "wk.stage_end")["times"] == {"p1": 57, "p2": 62, "p3": 60}

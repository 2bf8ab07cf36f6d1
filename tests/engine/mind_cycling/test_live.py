"""Live mode (§9.3): one step per action, bottle passes asked first, wheel/relay prompts after a move."""

from __future__ import annotations

import pytest

from engine.messages import OrderError

from .scenario import of_kind, play, race, spot

LIVE = {"mode": "live"}


@pytest.mark.rules("D3", "9.3")
def test_live_mode_asks_only_the_player_whose_cyclist_is_next() -> None:
    """b#1 leads, then a#1, then b#2: each step awaits that one player."""
    r = race([("b", 1, 12, 1), ("a", 1, 10, 2), ("b", 2, 8, 4)], options=LIVE)
    seen = []
    for _ in range(3):
        (decision,) = r.awaited()
        seen.append((decision.entrant, decision.kind))
        play(r, {decision.entrant: "move 1"})
    assert seen == [("b", "turn"), ("a", "turn"), ("b", "turn")]
    assert (spot(r, "b#1"), spot(r, "a#1"), spot(r, "b#2")) == ((13, 1), (11, 2), (9, 4))


@pytest.mark.rules("9.3", "D12")
def test_live_mode_asks_for_bottle_passes_first_all_at_once() -> None:
    """Players with a domestique able to pass answer before the round; 'pass' hands the bottle over."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black"), ("b", 3, 12, 4), ("b", 1, 11, 4, "black")], options=LIVE)
    decisions = r.awaited()
    assert [(d.entrant, d.kind) for d in decisions] == [("a", "passes"), ("b", "passes")]
    assert decisions[0].fields[0].path == ["passes", "3"]
    events = play(r, {"a": "pass", "b": "no pass"})
    assert r.state.cyclists["a#1"].bottle and not r.state.cyclists["a#3"].bottle
    assert not r.state.cyclists["b#1"].bottle
    assert [e.data["cyclist"] for e in of_kind(events, "mc.bottle_pass")] == ["a#3"]
    with pytest.raises(OrderError):
        r.validate("a", "pass")


@pytest.mark.rules("example:wheel-and-relay", "9.3", "D10", "R-MC-4")
def test_live_the_train_is_asked_to_wheel_then_relay_right_after_each_move() -> None:
    """A rides 6; B is asked and wheels; C is asked and relays to the front."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3), ("a", 1, 10, 3)], options=LIVE)
    play(r, {"a": "move F,F,F,F,F,F"})
    (decision,) = r.awaited()
    assert decision.kind == "wheel_or_relay"
    assert [c.value for c in decision.fields[0].choices] == ["wheel", "relay", "later"]
    play(r, {"a": "wheel"})
    assert r.awaited()[0].kind == "wheel_or_relay"
    play(r, {"a": "relay"})
    assert (spot(r, "a#3"), spot(r, "a#2"), spot(r, "a#1")) == ((18, 3), (17, 3), (19, 3))


@pytest.mark.rules("9.3", "D10", "D24")
def test_a_declined_prompt_lets_the_cyclist_act_later_at_its_own_place() -> None:
    """B answers 'later', then acts at its own place: before b#1, further right on the same row."""
    r = race([("a", 3, 12, 3), ("a", 2, 11, 3), ("b", 1, 11, 5)], options=LIVE)
    play(r, {"a": "move 2"})
    assert r.ruleset.auto_order(r.state, "a", None, None) == {"action": "later"}
    play(r, {"a": "later"})
    (decision,) = r.awaited()
    assert decision.kind == "turn" and decision.entrant == "a"  # a#2 (row 11, lane 3) before b#1 (lane 5)
    with pytest.raises(OrderError, match="only wheel right after"):
        r.validate("a", "wheel")
    play(r, {"a": "move 1"})
    assert spot(r, "a#2") == (12, 3)
    assert r.awaited()[0].entrant == "b"


@pytest.mark.rules("9.3", "6.3")
def test_live_attacks_are_checked_when_asked() -> None:
    """A climber on the plains may not attack; the prompt offers only move."""
    r = race([("a", 2, 5, 2)], options=LIVE)
    (decision,) = r.awaited()
    assert [c.value for c in decision.fields[0].choices] == ["move"]
    with pytest.raises(OrderError, match="can't attack"):
        r.validate("a", "attack")
    with pytest.raises(OrderError, match="at most 4 this round, not 5"):
        r.validate("a", "move 5")


@pytest.mark.rules("D24", "9.4")
def test_an_absent_live_player_rides_its_maximum_and_passes_no_bottle() -> None:
    """Automatic: no pass, then a move of the maximum in its lane."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2, "black")], options=LIVE)
    assert r.absent_order("a")["passes"] == {"3": 0}
    play(r)
    assert r.absent_order("a") == {"action": "move", "auto": True}
    play(r)
    assert spot(r, "a#3") == (18, 2)


@pytest.mark.rules("R-MC-3")
def test_a_live_move_may_be_steps_and_a_lane_ridden_by_lane_seeking() -> None:
    """'move 4 lane=3' from (5,1): FR, FR, F, F to (9,3)."""
    r = race([("a", 3, 5, 1)], options=LIVE)
    play(r, {"a": "move 4 lane=3"})
    assert spot(r, "a#3") == (9, 3)


@pytest.mark.rules("R-MC-4", "6.6")
def test_no_prompt_for_a_cyclist_that_can_neither_wheel_nor_relay() -> None:
    """A fatigued domestique behind the leader is not asked; it simply acts at its own place."""
    r = race([("a", 1, 10, 1), ("a", 3, 9, 1, "black")], options=LIVE)
    play(r, {"a": "move 3"})
    (decision,) = r.awaited()
    assert decision.kind == "turn" and "#3" in decision.prompt.text


@pytest.mark.rules("D24")
def test_an_absent_live_player_keeps_the_steps_and_lane_it_had_chosen() -> None:
    """A partial turn (4 steps towards lane 2) is completed as a move with those choices."""
    r = race([("a", 3, 5, 1)], options=LIVE)
    partial = r.validate("a", {"distance": 4, "lane": 2})
    order = r.absent_order("a", partial)
    assert order == {"action": "move", "distance": 4, "lane": 2, "auto": True}
    play(r, {"a": order})
    assert spot(r, "a#3") == (9, 2)


@pytest.mark.rules("9.3", "6.3", "D14", "D18")
def test_a_live_attack_without_a_number_rides_the_maximum_plus_three_and_the_cyclist_behind_must_move() -> None:
    """A#3 alone in front on the plains rides 7 - 1 + 3 = 9, throws its bottle; A#1 behind it gets no prompt."""
    r = race([("a", 3, 12, 2), ("a", 1, 11, 2)], options=LIVE)
    play(r, {"a": "attack"})
    assert spot(r, "a#3") == (21, 2)
    assert not r.state.cyclists["a#3"].bottle
    (decision,) = r.awaited()
    assert decision.kind == "turn" and "#1" in decision.prompt.text


@pytest.mark.rules("9.3", "D12", "6.1")
def test_after_the_bottle_passes_the_round_starts_and_the_train_is_asked_to_wheel() -> None:
    """A keeps its bottle, A#3 rides 2; A#1 behind it is asked, wheels to row 13 and the event says so."""
    r = race([("a", 3, 12, 3), ("a", 1, 11, 3, "black")], options=LIVE)
    assert [d.kind for d in r.awaited()] == ["passes"]
    play(r, {"a": "no pass"})
    play(r, {"a": "move 2"})
    (decision,) = r.awaited()
    assert decision.kind == "wheel_or_relay"
    events = play(r, {"a": "wheel"})
    assert spot(r, "a#1") == (13, 3)
    assert [e.data["cyclist"] for e in of_kind(events, "mc.wheel")] == ["a#1"]


@pytest.mark.rules("9.3", "D16", "D19")
def test_a_live_relay_in_front_of_a_cyclist_on_the_last_row_crosses_the_line() -> None:
    """A#3 rides onto row 70, the last; A#1 behind it relays in front of it, over the line, and finishes first."""
    r = race([("a", 3, 69, 2), ("a", 1, 68, 2)], options=LIVE)
    play(r, {"a": "move 1"})
    assert spot(r, "a#3") == (70, 2)
    play(r, {"a": "relay"})
    assert r.state.cyclists["a#1"].crossed and r.state.finish_order == ["a#1"]
    assert r.state.cyclists["a#1"].place == 1


@pytest.mark.rules("9.3", "D20", "7")
def test_a_live_relay_out_of_the_sprint_section_wins_it() -> None:
    """A#3 rides to row 30, the sprint section's last; A#1 relays in front of it to row 31: first out, Best Sprinter."""
    r = race([("a", 3, 28, 2), ("a", 1, 27, 2)], options=LIVE)
    play(r, {"a": "move 2"})
    assert spot(r, "a#3") == (30, 2) and r.state.section_winners["sprint"] is None
    events = play(r, {"a": "relay"})
    assert spot(r, "a#1") == (31, 2)
    assert r.state.section_winners == {"sprint": "a#1", "mountain": None}
    assert [e.data["cyclist"] for e in of_kind(events, "mc.sprint_exit")] == ["a#1"]

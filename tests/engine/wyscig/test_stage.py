"""§3, §4.2 and §6: the deal, the end of a stage, stage times and the next stage."""

from __future__ import annotations

import pytest

from engine.ruleset import Entrant
from engine.wyscig import RULESET
from engine.wyscig.deck import deck_presets
from tests.engine.wyscig.helpers import hand, kinds, last_event, minutes, record, run, state
from tests.logged import LoggedRace


def _cards_in_play(race: LoggedRace) -> int:
    """Every card of the stage: hands, pile, climbs lying on the table, discards."""
    s = state(race)
    return sum(p.hand_size for p in s.players.values()) + len(s.pile) + len(s.climbs) + s.discards


@pytest.mark.rules("D5", "3")
def test_the_deal_goes_one_card_at_a_time_from_the_leader_and_opening_climbs_are_replaced() -> None:
    """Six each, alternately from the leader P2; P2 lays his climb and draws, then P1 does."""
    pile = "c 41 42 43 44 45 46 47 48 49 50 c 39 40 d 41 41 41"
    race = run(record({}, pile, seats=["p1", "p2"], leader="p2"))
    s = state(race)
    assert s.turn == "p2"
    assert hand(race, "p2") == [39, 42, 44, 46, 48, 50]
    assert s.player("p2").descents == 1  # his 7th card
    assert hand(race, "p1") == [40, 41, 43, 45, 47, 49]
    assert [(c.owner, c.opening) for c in s.climbs] == [("p2", True), ("p1", True)]
    assert len(s.pile) == 3


@pytest.mark.rules("D5", "D4")
def test_every_stage_is_a_fresh_deal_of_the_whole_deck() -> None:
    """Stage 2 starts with the whole 108-card deck: 6 cards each, the leader's 7th, the rest in the pile."""
    race = run(record({"p1": "45", "p2": "46"}, "", [("p1", "play 45"), ("p2", "play 46")], stages=2))
    s = state(race)
    assert (s.stage_number, s.leader, s.turn) == (2, "p2", "p2")
    assert sorted(p.hand_size for p in s.players.values()) == [6, 7]
    assert _cards_in_play(race) == 108
    assert s.played == []


@pytest.mark.rules("D15", "4.2")
def test_once_the_pile_is_out_play_goes_on_and_l_stays_while_the_leader_is_skipped() -> None:
    """The leader's 45 stands while he is skipped: 43 is still within 2, 42 costs 3, then the stage ends."""
    hands = {"p1": "45", "p2": "44 43 42 d"}
    steps = [("p1", "play 45"), ("p2", "play 44"), ("p2", "play 43"), ("p2", "play 42")]
    race = run(record(hands, "", steps))
    assert kinds(race).count("wk.skip") == 2
    assert state(race).reference == 45
    assert state(race).finished
    assert last_event(race, "wk.stage_end")["times"] == {"p1": 57, "p2": 63}


@pytest.mark.rules("D15")
def test_descents_alone_cannot_be_played_and_the_stage_ends_when_no_speed_card_is_left() -> None:
    """P2 leads with 46 and holds only a descent: he is skipped, the descent is discarded, P2 wins."""
    hands = {"p1": "45 44 43", "p2": "46 d"}
    race = run(record(hands, "", [("p1", "play 45"), ("p2", "play 46"), ("p1", "play 44")]))
    skip = last_event(race, "wk.skip")
    assert (skip["entrant"], skip["discarded"]) == ("p2", 1)
    assert state(race).turn == "p1"
    race.play_step({"p1": "play 43"})
    assert state(race).finished
    assert last_event(race, "wk.stage_end")["times"] == {"p1": 63, "p2": 57}
    assert RULESET.awaited(state(race)) == []


@pytest.mark.rules("example:10.1-stage-times", "6", "D11")
def test_seed_example_stage_times_57_60_and_71() -> None:
    """The yellow token records 57, the peloton 60, a rider with 11 minutes 71."""
    hands = {"p1": "45", "p2": "45", "p3": "45"}
    steps = [("p1", "play 45"), ("p2", "play 45"), ("p3", "play 45")]
    race = run(record(hands, "", steps, minutes={"p3": 11}))
    assert last_event(race, "wk.stage_end")["times"] == {"p1": 57, "p2": 60, "p3": 71}
    figures = {s.entrant: s.figures["total_time"] for s in race.result().standings}
    assert figures == {"p1": 57, "p2": 60, "p3": 71}


@pytest.mark.rules("D18", "6")
def test_minutes_are_recorded_at_the_stage_end_and_reset_for_the_next() -> None:
    """P2's 3 minutes go into his 63; stage 2 starts with everybody on 0 minutes, led by the winner."""
    hands = {"p1": "45", "p2": "42"}
    race = run(record(hands, "", [("p1", "play 45"), ("p2", "play 42")], stages=2))
    s = state(race)
    assert s.player("p2").times == [63]
    assert s.player("p1").times == [57]
    assert minutes(race) == {"p1": 0, "p2": 0}
    assert (s.stage_number, s.leader, s.turn) == (2, "p1", "p1")


@pytest.mark.rules("6")
def test_the_next_stage_is_led_by_the_stage_winner() -> None:
    """P2 took the yellow token in stage 1, so stage 2's first card is his."""
    race = run(record({"p1": "45", "p2": "46", "p3": "44"}, "", [("p1", "play 45"), ("p2", "play 46")], stages=3))
    race.play_step({"p3": "play 44"})
    assert (state(race).stage_number, state(race).turn, state(race).leader) == (2, "p2", "p2")


@pytest.mark.rules("R-WK-1")
def test_climbs_do_not_carry_over_into_the_next_stage() -> None:
    """A climb still in force when the cards run out is cleared: stage 2 starts on the flat."""
    hands = {"p1": "45", "p2": "44 d"}
    race = run(record(hands, "c", [("p1", "play 45")], stages=2))
    assert [(c.owner, c.opening) for c in state(race).climbs] == [("p1", False)]
    race.play_step({"p2": "play 44 +1"})
    s = state(race)
    assert s.stage_number == 2
    assert all(c.opening for c in s.climbs)  # only climbs from stage 2's own deal
    assert s.player("p2").times == [60]


@pytest.mark.rules("D4")
def test_seats_and_the_first_leader_are_drawn_from_the_seed_and_fixed_for_the_race() -> None:
    """The same seed gives the same seats and leader; different seeds give different draws."""
    people = [Entrant(id=f"e{i}", name=f"E{i}") for i in range(5)]
    draws = set()
    for seed in range(12):
        a = RULESET.new_race(None, {}, people, seed)
        b = RULESET.new_race(None, {}, people, seed)
        assert (a.seats, a.leader) == (b.seats, b.leader)
        assert a.turn == a.leader
        draws.add((tuple(a.seats), a.leader))
    assert len(draws) > 6
    assert len({leader for _, leader in draws}) > 2


@pytest.mark.rules("D4")
def test_turns_go_round_in_seat_order_from_the_leader() -> None:
    """Seated P3, P1, P2 with P1 leading: P1, then P2, then P3."""
    hands = {"p1": "45 45", "p2": "45 45", "p3": "45 45"}
    race = run(record(hands, "39 " * 8, seats=["p3", "p1", "p2"], leader="p1"))
    order = []
    for _ in range(4):
        order.append(state(race).turn)
        race.play_step({state(race).turn or "": "play 45"})
    assert order == ["p1", "p2", "p3", "p1"]


@pytest.mark.rules("D2")
def test_a_race_runs_for_the_number_of_stages_chosen() -> None:
    """Six stages by default; a one-stage race (a house rule) finishes after its first stage."""
    people = [Entrant(id="a", name="A"), Entrant(id="b", name="B")]
    assert RULESET.new_race(None, {}, people, 1).stages == 6
    assert RULESET.new_race({"stages": 21}, {}, people, 1).stages == 21
    for bad in (0, 22):
        with pytest.raises(ValueError, match="stages"):
            RULESET.new_race({"stages": bad}, {}, people, 1)
    race = run(record({"p1": "45", "p2": "45"}, "", [("p1", "play 45"), ("p2", "play 45")], stages=1))
    assert race.result().finished
    assert len(race.result().standings[0].figures["stage_times"]) == 1


@pytest.mark.rules("D1", "D3")
@pytest.mark.parametrize(("deck", "size"), [("itemised_108", 108), ("total_102", 102), ("classic_96", 96)])
def test_each_deck_preset_deals_its_own_number_of_cards(deck: str, size: int) -> None:
    """A shuffled stage holds exactly the preset's cards."""
    people = [Entrant(id="a", name="A"), Entrant(id="b", name="B")]
    s = RULESET.new_race({"deck": deck}, {}, people, 3)
    total = sum(p.hand_size for p in s.players.values()) + len(s.pile) + len(s.climbs)
    assert total == size == deck_presets()[deck].size


@pytest.mark.rules("R-WK-4", "D5")
def test_a_climb_replacing_an_opening_climb_is_an_opening_climb_too() -> None:
    """P2's opening climb is replaced by another climb: both last until P2's second turn."""
    hands = {"p1": "45 45 45 45 45 45", "p2": "c 44 44 44 44 44"}
    race = run(record(hands, "c 40 39 39 39 39 39"))
    assert [(c.owner, c.opening, c.ends_at_turn) for c in state(race).climbs] == [("p2", True, 2), ("p2", True, 2)]
    assert hand(race, "p2") == [40, 44, 44, 44, 44, 44]

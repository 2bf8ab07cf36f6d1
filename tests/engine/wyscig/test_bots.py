"""§8.1 D21 (the absent player's automatic card) and the bot strategies ``steady`` and ``attacker``."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ruleset import Entrant
from engine.wyscig import RULESET, bots
from engine.wyscig.pace import judge
from tests.engine.wyscig.helpers import minutes, record, run, state
from tests.logged import LoggedRace


def at(hands: dict[str, str], steps: list[tuple[str, str]], pile: str = "39 " * 6, **kw: object) -> LoggedRace:
    return run(record(hands, pile, steps, **kw))  # type: ignore[arg-type]


@pytest.mark.rules("D21")
def test_the_absent_leader_plays_his_lowest_card() -> None:
    """The leader's automatic card is simply his lowest, without descents."""
    race = at({"p1": "47 45 44 d d d", "p2": "44 44 44 44 44 44"}, [], pile="41 39")
    assert race.absent_order("p1") == {"card": 41, "descents": 0, "auto": True}


@pytest.mark.rules("D21")
def test_an_absent_chip_free_rider_plays_the_lowest_card_within_the_tolerance() -> None:
    """Against 47 the lowest card at or above 45 is his 45; the 39 and 44 would cost minutes."""
    race = at({"p1": "47 41 41 41 41 41", "p2": "50 48 45 44 d d"}, [("p1", "play 47")])
    assert race.absent_order("p2") == {"card": 45, "descents": 0, "auto": True}


@pytest.mark.rules("D21", "D9")
def test_on_a_climb_the_absent_riders_card_must_reach_l() -> None:
    """On a climb there is no tolerance: against 47 the lowest card at or above 47 is 48."""
    race = at({"p1": "c 47 41 41 41 41", "p2": "50 48 46 45 d d"}, [("p1", "play 47")])
    assert race.absent_order("p2") == {"card": 48, "descents": 0, "auto": True}


@pytest.mark.rules("D21")
def test_an_absent_penalised_rider_plays_the_lowest_card_at_or_above_l() -> None:
    """With minutes there is no tolerance: against 45, his 46 (not the 44)."""
    race = at({"p1": "45 41 41 41 41 41", "p2": "50 46 44 43 41 41"}, [("p1", "play 45")], minutes={"p2": 3})
    assert race.absent_order("p2") == {"card": 46, "descents": 0, "auto": True}


@pytest.mark.rules("D21")
def test_when_no_card_avoids_a_penalty_the_absent_rider_plays_his_highest() -> None:
    """Against 50, a hand of 41-44 (and a descent) all cost minutes: he plays 44, without the descent."""
    race = at({"p1": "50 41 41 41 41 41", "p2": "44 43 42 41 d 41"}, [("p1", "play 50")])
    order = race.absent_order("p2")
    assert order == {"card": 44, "descents": 0, "auto": True}
    race.play_step({"p2": order})
    assert minutes(race)["p2"] == 6


@pytest.mark.rules("D21", "R-WK-3")
def test_the_automatic_card_keeps_what_the_player_already_chose() -> None:
    """A card chosen before the deadline is kept; descents already chosen count towards the speed."""
    race = at({"p1": "47 41 41 41 41 41", "p2": "50 48 44 43 d d"}, [("p1", "play 47")])
    assert race.absent_order("p2", {"card": 50}) == {"card": 50, "descents": 0, "auto": True}
    assert race.absent_order("p2", {"descents": 1}) == {"card": 43, "descents": 1, "auto": True}  # 45 vs 47


def test_steady_stays_in_the_peloton_as_cheaply_as_it_can() -> None:
    """Against 47 steady plays 45 (no minutes, lowest such card), not a lead-taking 50."""
    race = at({"p1": "47 41 41 41 41 41", "p2": "50 48 45 44 d 39"}, [("p1", "play 47")])
    assert RULESET.auto_order(state(race), "p2", None, "steady") == {"card": 45, "descents": 0}


def test_steady_uses_descents_to_give_back_minutes() -> None:
    """4 minutes against 47 with 48 and two descents: 48 + 2 = 52 gives back all 4."""
    race = at({"p1": "47 41 41 41 41 41", "p2": "48 45 d d 41 41"}, [("p1", "play 47")], minutes={"p2": 4})
    assert RULESET.auto_order(state(race), "p2", None, "steady") == {"card": 48, "descents": 2}


def test_attacker_rides_steady_until_his_last_three_cards_then_takes_the_yellow_token() -> None:
    """Against 47: with cards in the pile, or four speed cards in hand, he rides in on 45; pile out and
    three speed cards left, he leads with 48 (the cheapest card above 47)."""
    pile_left = at({"p1": "47 41", "p2": "50 48 45 d"}, [("p1", "play 47")], pile="39 39")
    assert RULESET.auto_order(state(pile_left), "p2", None, "attacker") == {"card": 45, "descents": 0}
    four_cards = at({"p1": "47 41", "p2": "50 48 45 44 d"}, [("p1", "play 47")], pile="")
    assert RULESET.auto_order(state(four_cards), "p2", None, "attacker") == {"card": 45, "descents": 0}
    last_three = at({"p1": "47 41", "p2": "50 48 45 d"}, [("p1", "play 47")], pile="")
    assert RULESET.auto_order(state(last_three), "p2", None, "attacker") == {"card": 48, "descents": 0}


def test_attacker_adds_descents_to_take_the_lead() -> None:
    """Against 49 with at most a 48: 48 + 1 descent = 50 takes the yellow token."""
    race = at({"p1": "49 41 41", "p2": "48 45 d 41"}, [("p1", "play 49")], pile="")
    assert RULESET.auto_order(state(race), "p2", None, "attacker") == {"card": 48, "descents": 1}


def test_attacker_as_leader_defends_with_his_highest_card() -> None:
    """With his last three cards the attacking leader plays the top one, so that the others must beat it;
    with more in hand he plays his lowest like steady."""
    race = at({"p1": "47 45 50", "p2": "44 44 44"}, [], pile="")
    assert RULESET.auto_order(state(race), "p1", None, "attacker") == {"card": 50, "descents": 0}
    early = at({"p1": "47 45 50 41", "p2": "44 44 44"}, [], pile="")
    assert RULESET.auto_order(state(early), "p1", None, "attacker") == {"card": 41, "descents": 0}


def test_an_unknown_strategy_is_refused() -> None:
    """Only the strategies the rule system lists are accepted."""
    race = at({"p1": "47 45 50 41 41 41", "p2": "44 44 44 44 44 44"}, [])
    assert RULESET.strategies == ("steady", "attacker") and RULESET.default_strategy == "steady"
    with pytest.raises(ValueError, match="steady, attacker"):
        RULESET.auto_order(state(race), "p1", None, "reckless")


@pytest.mark.parametrize("strategy", ["steady", "attacker"])
def test_bots_finish_a_whole_race_with_legal_orders(strategy: str) -> None:
    """Four bots of one strategy ride a two-stage race to the end; every order validated on the way."""
    rec = record({}, "", seats=["p1", "p2", "p3", "p4"], bots={e: strategy for e in ["p1", "p2", "p3", "p4"]})
    del rec["setup"]["pile"], rec["setup"]["hands"]
    rec["stage"] = {"stages": 2}
    race = run(rec)
    race.play_bots_until_human()
    assert race.finished
    assert sorted(len(s.figures["stage_times"]) for s in race.result().standings) == [2, 2, 2, 2]


def test_a_stale_part_order_is_ignored_by_the_automatic_card() -> None:
    """A part-order naming a card no longer held does not block the automatic card."""
    race = at({"p1": "47 41 41 41 41 41", "p2": "50 48 45 44 d 39"}, [("p1", "play 47")])
    assert race.absent_order("p2", {"card": 42}) == {"card": 45, "descents": 0, "auto": True}


def _bot_turns(strategy: str, seed: int) -> list[tuple[Any, str, dict[str, int]]]:
    """Every (state before, entrant, order) of a one-stage race between four bots of ``strategy``."""
    entrants = [Entrant(id=f"e{i}", name=f"E{i}", bot=strategy) for i in range(4)]
    s = RULESET.new_race({"stages": 1}, {}, entrants, seed)
    turns = []
    while awaited := RULESET.awaited(s):
        who = awaited[0].entrant
        order = RULESET.auto_order(s, who, None, strategy)
        turns.append((s, who, order))
        s, _ = RULESET.resolve(s, {who: order})
    return turns


@pytest.mark.parametrize("seed", [3, 11])
def test_steady_never_takes_a_minute_it_could_have_avoided(seed: int) -> None:
    """Over a whole stage, each steady card costs the fewest minutes any card (with descents) could."""
    for s, who, order in _bot_turns("steady", seed):
        player = s.player(who)
        best = min(v.minutes for _, _, v in bots.options(s, player))
        speed = order["card"] + 2 * order["descents"]
        chosen = judge(speed, s.reference, player.minutes, who == s.leader, s.on_climb).minutes
        assert chosen == best, (who, order, s.reference)


@pytest.mark.parametrize("seed", [3, 11])
def test_attacker_takes_the_yellow_token_whenever_it_can_with_his_last_cards(seed: int) -> None:
    """Pile out and 3 speed cards or fewer: a chip-free attacker who can lead does; a leader plays his top card."""
    closing = 0
    for s, who, order in _bot_turns("attacker", seed):
        player = s.player(who)
        if s.pile or len(player.speeds) > bots.FINAL_CARDS:
            continue
        closing += 1
        if who == s.leader:
            assert order["card"] == max(player.speeds)
        elif any(v.outcome == "lead" for _, _, v in bots.options(s, player)):
            speed = order["card"] + 2 * order["descents"]
            assert judge(speed, s.reference, player.minutes, False, s.on_climb).outcome == "lead"
    assert closing > 8

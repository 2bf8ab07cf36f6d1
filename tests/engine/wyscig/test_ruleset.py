"""The interface contract for Wyścig: records, setup validation, purity of resolve, round trips, views."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.record import RecordError
from engine.registry import get_ruleset
from engine.ruleset import Entrant, set_path
from engine.wyscig import RULESET
from engine.wyscig.classification import WINNER_TIME
from engine.wyscig.deck import deck_presets
from engine.wyscig.state import RaceState
from tests.engine.wyscig.helpers import record, run, state
from tests.logged import LoggedRace


def people(n: int, bot: str | None = None) -> list[Entrant]:
    return [Entrant(id=f"e{i}", name=f"Rider {i}", bot=bot) for i in range(n)]


def test_the_registry_serves_wyscig() -> None:
    """``get_ruleset("wyscig")`` is this package's instance, with its catalogue."""
    assert get_ruleset("wyscig") is RULESET
    assert [p.name for p in RULESET.presets()] == ["itemised_108", "total_102", "classic_96"]
    assert "yellow token" in RULESET.summary().text
    assert "108 cards" in RULESET.stage_board("itemised_108", {}).text
    assert RULESET.default_entrants(people(2), {}) == people(2)


@pytest.mark.rules("D3")
def test_player_counts_follow_d3() -> None:
    """2-6 by default; 7 or 8 only with max_players raised and the 108-card deck."""
    with pytest.raises(ValueError, match="2 to 6"):
        RULESET.new_race(None, {}, people(7), 1)
    with pytest.raises(ValueError, match="2 to 6"):
        RULESET.new_race(None, {}, people(1), 1)
    assert len(RULESET.new_race(None, {"max_players": 8}, people(8), 1).seats) == 8
    with pytest.raises(ValueError, match="itemised_108"):
        RULESET.new_race({"deck": "classic_96"}, {"max_players": 7}, people(7), 1)
    with pytest.raises(ValueError, match="max_players"):
        RULESET.new_race(None, {"max_players": 9}, people(2), 1)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"stage": {"deck": "big_200"}}, "stage.deck"),
        ({"stage": {"stages": 0}}, "stage.stages"),
        ({"stage": "tour_de_pologne"}, "unknown Wyścig stage"),
        ({"options": {"sprint_cap": 52}}, "sprint_cap"),
        ({"setup": {"piles": []}}, "piles"),
        ({"setup": {"pile": [38]}}, "pile.0"),
        ({"setup": {"leader": "zz"}}, "not an entrant"),
        ({"setup": {"seats": ["p1", "p1"]}}, "every entrant exactly once"),
        ({"setup": {"minutes": {"p1": 3}, "leader": "p1"}}, "leader never holds"),
        ({"setup": {"hands": {"p1": [50] * 9}}}, "more cards than the deck"),
        ({"setup": {"stage_number": 3}}, "past the last stage"),
        ({"setup": {"stage_number": 2}}, "earlier_times"),
        ({"setup": {"stage_number": 2, "earlier_times": {"p1": [60], "p2": [60]}}}, "exactly one winner"),
        ({"setup": {"stage_number": 2, "earlier_times": {"p1": [57], "p2": [58]}}}, "57 .the winner., 60 or more"),
    ],
)
def test_a_bad_record_names_what_is_wrong(change: dict[str, Any], words: str) -> None:
    """Misspelt fields, impossible cards and inconsistent setups are refused with a pointed message."""
    rec = record({"p1": "45", "p2": "45"}, "", stages=2)
    rec["setup"] = {}
    for key, value in change.items():
        rec[key] = value
    with pytest.raises(RecordError, match=words):
        run(rec)


def test_one_decision_at_a_time_and_none_when_finished() -> None:
    """Sequential turns: one Decision, for the player whose turn it is; none after the last stage."""
    race = run(record({"p1": "45", "p2": "45"}, "", [("p1", "play 45")]))
    assert [d.entrant for d in race.awaited()] == ["p2"]
    race.play_step({"p2": "play 45"})
    assert race.awaited() == [] and race.finished


def test_resolve_never_touches_the_state_it_is_given() -> None:
    """The old state dumps the same after a resolve."""
    race = run(record({"p1": "45 d", "p2": "45"}, "c 40 41 42"))
    before = RULESET.dump(state(race))
    new, events = RULESET.resolve(state(race), {"p1": {"card": 45, "descents": 1}})
    assert RULESET.dump(state(race)) == before
    assert RULESET.dump(new) != before
    assert events


def test_a_race_survives_a_json_round_trip_mid_race_and_plays_on_identically() -> None:
    """Dump, JSON, load: the same state, the same RNG, and the same future (stage 2 is shuffled)."""
    race = LoggedRace.start("wyscig", people(3, "steady"), seed=99, stage={"stages": 2})
    for _ in range(40):
        race.play_step({})
    data = json.loads(json.dumps(RULESET.dump(race.state)))
    copy = RULESET.load(data)
    assert RULESET.dump(copy) == RULESET.dump(race.state)
    a, b = race.state, copy
    while RULESET.awaited(a):
        who = RULESET.awaited(a)[0].entrant
        order = RULESET.auto_order(a, who, None, "steady")
        a, ev_a = RULESET.resolve(a, {who: order})
        b, ev_b = RULESET.resolve(b, {who: order})
        assert [e.model_dump() for e in ev_a] == [e.model_dump() for e in ev_b]
    assert RULESET.dump(a) == RULESET.dump(b)


def test_a_whole_record_replays_to_the_same_end() -> None:
    """A bot race written to JSON replays in full to the same final state and standings."""
    race = LoggedRace.start(
        "wyscig", [*people(2, "steady"), Entrant(id="x", name="X", bot="attacker")], 5, {"stages": 2}
    )
    race.play_bots_until_human()
    again = run(json.loads(race.full_record.to_json()))
    assert RULESET.dump(again.state) == RULESET.dump(race.state)
    assert again.result() == race.result()


def _cards_accounted_for(s: RaceState) -> bool:
    """Mid-stage, every card of a shuffled deck is in a hand, the pile, a climb in force or the discards."""
    held = sum(p.hand_size for p in s.players.values())
    return held + len(s.pile) + len(s.climbs) + s.discards == deck_presets()[s.deck].size


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    n=st.integers(min_value=2, max_value=6),
    strategies=st.lists(st.sampled_from(["steady", "attacker", None]), min_size=6, max_size=6),
)
def test_any_race_is_played_to_the_end_within_the_rules(seed: int, n: int, strategies: list[str | None]) -> None:
    """Bots and absent players ride a one-stage race; every offered choice is legal, views are JSON."""
    entrants = [Entrant(id=f"e{i}", name=f"E{i}", bot=strategies[i] or "steady") for i in range(n)]
    s = RULESET.new_race({"stages": 1}, {}, entrants, seed)
    steps = 0
    while awaited := RULESET.awaited(s):
        [decision] = awaited
        who = decision.entrant
        assert s.player(s.leader).minutes == 0
        first = decision.fields[0].choices[0].value
        assert RULESET.validate(s, who, set_path({}, ["card"], first)).complete
        json.dumps(RULESET.public_view(s))
        json.dumps(RULESET.private_view(s, who))
        strategy = strategies[int(who[1:])]
        order = RULESET.auto_order(s, who, None, strategy)
        assert RULESET.validate(s, who, order).order == order
        s, events = RULESET.resolve(s, {who: order})
        json.dumps([e.model_dump(mode="json") for e in events])
        if not s.finished:
            assert _cards_accounted_for(s)
        steps += 1
    assert s.finished and steps > 10
    result = RULESET.result(s)
    assert result.finished and sorted(x.entrant for x in result.standings) == sorted(s.seats)
    times = [x.figures["stage_times"][0] for x in result.standings]
    assert times.count(WINNER_TIME) == 1 and all(t == WINNER_TIME or t >= 60 for t in times)
    assert result.standings[0].figures["stage_times"][0] == min(times)


def test_a_preset_is_found_by_its_name_as_listed_with_its_label() -> None:
    """'itemised_108 [default]', as `gregario stages` lists it, is the itemised_108 deck; so is ITEMISED_108."""
    listed = [f"{p.name} [{p.label}]" if p.label else p.name for p in RULESET.presets()]
    assert listed[0] == "itemised_108 [default]"
    for typed in (*listed, "ITEMISED_108", " classic_96 (default) "):
        assert RULESET.stage_data(typed)["deck"] == typed.split()[0].strip().lower()
    with pytest.raises(ValueError, match="unknown Wyścig stage"):
        RULESET.stage_data("itemised [default]")

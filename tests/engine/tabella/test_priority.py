"""The priority order: speed, resistance, order time, seeded draw (rules §5.1, D6, D7)."""

from __future__ import annotations

import time

import pytest

from engine.rng import Rng
from engine.tabella import RULESET
from engine.tabella.priority import priority_order, time_key
from engine.tabella.state import Rider

from .scenario import kinds, minute, play, rider, scenario


@pytest.mark.rules("5.1", "D6")
def test_the_earlier_order_enters_the_cell_first_when_speed_and_resistenza_are_equal() -> None:
    """Two riders into the C1 strettoia: the later order is the one that arrives second."""
    race = scenario({"early": {"row": "C"}, "late": {"row": "C"}}, round=1)
    events = play(race, {"early": "m1: 1R", "late": "m1: 4R"}, times={"early": 3, "late": 7})
    assert kinds(events, "collision")[0].data["newcomer"] == "late"
    race = scenario({"early": {"row": "C"}, "late": {"row": "C"}}, round=1)
    events = play(race, {"early": "m1: 1R", "late": "m1: 4R"}, times={"early": 9, "late": 7})
    assert kinds(events, "collision")[0].data["newcomer"] == "early"


@pytest.mark.rules("5.1")
def test_speed_comes_before_resistenza_and_resistenza_before_time() -> None:
    """V 6 beats V 5 with more R; with equal V, R 30 beats R 20 whatever the times."""
    riders = [
        Rider(id="fast", name="Fast", r=10, v=6, order_time=minute(9)),
        Rider(id="strong", name="Strong", r=30, v=5, order_time=minute(8)),
        Rider(id="early", name="Early", r=20, v=5, order_time=minute(1)),
    ]
    assert priority_order(riders, Rng(1)) == ["fast", "strong", "early"]


@pytest.mark.rules("D6", "R-TDD-2")
def test_an_order_without_a_receive_time_counts_after_every_timed_order() -> None:
    """No received_at: last among equals."""
    riders = [Rider(id="untimed", name="U"), Rider(id="timed", name="T", order_time=minute(59))]
    assert [priority_order(riders, Rng(s)) for s in range(5)] == [["timed", "untimed"]] * 5


@pytest.mark.rules("D6")
def test_resending_an_order_replaces_its_receive_time() -> None:
    """The time travels beside the order: the order played counts with the time it was received."""
    race = scenario({"anna": {}, "bob": {}})
    first = race.validate("anna", {"text": "start: A", "received_at": minute(1)})
    again = RULESET.validate(race.state, "anna", {"text": "start: B"}, previous=first)
    assert first == {"start": "A"} and again.order == {"start": "B"}
    race.play_step({"anna": {**again.order, "received_at": minute(5)}, "bob": {"start": "A"}})
    assert race.state.rider("anna").order_time == minute(5) and race.state.rider("bob").order_time is None


@pytest.mark.rules("D6", "D29")
def test_in_live_mode_the_final_ranking_uses_the_time_of_the_last_round_played() -> None:
    """Equal V and R after s3: Bob's s3 order came first, so Bob is ahead although Anna was first in s1."""
    race = scenario({"anna": {"row": "C"}, "bob": {"row": "C"}}, round=6)
    play(race, {"anna": "s1: 0", "bob": "s1: 0"}, times={"anna": 1, "bob": 2})
    play(race, {"anna": "s2: 0", "bob": "s2: 0"}, times={"anna": 1, "bob": 2})
    play(race, {"anna": "s3: 0", "bob": "s3: 0"}, times={"anna": 9, "bob": 8})
    assert [s.entrant for s in race.result().standings] == ["bob", "anna"]
    assert [s.place for s in race.result().standings] == [1, 2]


@pytest.mark.rules("D7")
def test_the_priority_list_is_fixed_at_the_start_of_the_round() -> None:
    """Anna drinks a Bibitone in m1 (V 5 -> 8) but Bob (V 6 at the start of m1) still enters C1 first."""
    race = scenario({"anna": {"row": "C", "bibitone": True}, "bob": {"row": "C", "v": 6}}, round=1)
    events = play(race, {"anna": "m1: 1R ; V", "bob": "m1: 1R"})
    hit = kinds(events, "collision")[0]
    assert hit.data["newcomer"] == "anna"
    # anna: 5 + 3 drink + 2 descent = 10 when she entered (bob 8), then hit (equal effort, lower priority): 9
    assert (hit.data["victim"], rider(race, "anna").v, rider(race, "bob").v) == ("anna", 9, 8)


@pytest.mark.rules("D7", "D5")
def test_a_full_tie_is_broken_by_a_draw_from_the_race_seed() -> None:
    """Same seed, same order; over many seeds both orders happen."""

    def first_in(seed: int) -> str:
        race = scenario({"anna": {"row": "C"}, "bob": {"row": "C"}}, round=1, seed=seed)
        events = play(race, {"anna": "m1: 2R", "bob": "m1: 2R"})
        return str(kinds(events, "round")[0].data["priority"][0])

    assert first_in(11) == first_in(11)
    assert {first_in(s) for s in range(12)} == {"anna", "bob"}


@pytest.mark.rules("D6", "R-TDD-2")
def test_receive_times_compare_as_instants_whatever_their_time_zone() -> None:
    """10:30 at +02:00 came before 09:00 UTC; two times without a zone still compare; no time comes last."""
    assert time_key("2026-03-01T10:30:00+02:00") < time_key("2026-03-01T09:00:00Z")
    assert time_key("2026-03-01T09:00:00") < time_key("2026-03-01T10:00:00")
    assert time_key("2026-03-01T09:00:00Z") < time_key(None)


@pytest.mark.rules("D6")
def test_a_receive_time_without_a_zone_counts_as_utc_whatever_the_machines_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a machine set to Tokyo time, 09:00 without a zone is 09:00 UTC: after 09:30 at +01:00 (08:30 UTC)."""
    monkeypatch.setenv("TZ", "JST-9")
    time.tzset()
    try:
        assert time_key("2026-03-01T09:00:00") == time_key("2026-03-01T09:00:00Z")
        assert time_key("2026-03-01T09:30:00+01:00") < time_key("2026-03-01T09:00:00")
    finally:
        monkeypatch.undo()
        time.tzset()

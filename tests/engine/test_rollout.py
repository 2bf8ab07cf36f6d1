"""Rollouts (engine.race.rollout): the same races as the full driver on the same seeds, without the record."""

from __future__ import annotations

from typing import Any

import pytest

from engine.race import Race, Rollout, StepPlayed, rollout
from engine.record import RecordError
from engine.registry import get_ruleset
from engine.ruleset import Entrant

# (system, seats, strategies cycled over the seats, options, stage, seeds): each system's default stage and
# a few variants, small enough for the suite.
SETTINGS: list[tuple[str, int, tuple[str, ...], dict[str, Any], Any, int]] = [
    ("flamme_rouge", 4, ("heuristic", "simple", "first"), {}, None, 12),
    ("flamme_rouge", 4, ("first",), {"grid": "random"}, "Firenze-Milano", 12),
    ("flamme_rouge", 2, ("heuristic",), {"breakaway": "on", "meteo": "random"}, None, 6),
    ("flamme_rouge", 1, ("simple",), {}, "Stage 9", 6),
    ("flamme_rouge", 5, ("heuristic", "first"), {"riders_per_player": 1, "finish": "first"}, None, 6),
    ("tabella", 4, ("cautious", "aggressive"), {"mode": "plan"}, None, 2),
    ("tabella", 3, ("cautious", "aggressive"), {"mode": "live", "gazzetta_delay": "immediate"}, None, 2),
    ("wyscig", 3, ("steady", "attacker"), {}, {"stages": 1}, 3),
    ("mind_cycling", 3, ("steady", "opportunist", "naive"), {"mode": "orders"}, None, 3),
    ("mind_cycling", 2, ("steady", "opportunist"), {"mode": "live"}, None, 3),
]
IDS = [f"{s[0]}-{n}" for n, s in enumerate(SETTINGS)]


def _entrants(
    system: str, seats: int, strategies: tuple[str, ...], options: dict[str, Any], seed: int
) -> list[Entrant]:
    people = [Entrant(id=f"p{i}", name=f"P{i}", bot=strategies[(i + seed) % len(strategies)]) for i in range(seats)]
    return get_ruleset(system).default_entrants(people, options)


def _full(system: str, entrants: list[Entrant], seed: int, stage: Any, options: dict[str, Any]) -> tuple[Race, list]:
    race = Race.start(system, entrants, seed, stage, options)
    events: list[list[dict[str, Any]]] = []

    def keep(step: StepPlayed) -> None:
        events.append([e.model_dump() for e in step.events])

    race.play_bots_until_human(keep)
    return race, events


@pytest.mark.parametrize("setting", SETTINGS, ids=IDS)
def test_a_rollout_ends_as_the_full_race_does(setting: tuple[Any, ...]) -> None:
    """On every seed the rollout plays the same steps to the same standings and the same final state."""
    system, seats, strategies, options, stage, seeds = setting
    ruleset = get_ruleset(system)
    for seed in range(1, seeds + 1):
        entrants = _entrants(system, seats, strategies, options, seed)
        race, _ = _full(system, entrants, seed, stage, options)
        played = rollout(system, entrants, seed, stage, options)
        assert played.finished and race.finished
        assert played.steps == race.played
        assert played.result().model_dump() == race.result().model_dump()
        assert ruleset.dump(played.state) == ruleset.dump(race.state)
        assert [e.model_dump() for e in played.publish()] == [e.model_dump() for e in race.publish()]
        assert played.result().model_dump() == race.result().model_dump()


@pytest.mark.parametrize("setting", SETTINGS, ids=IDS)
def test_a_rollout_that_asks_for_events_gets_the_full_races_events(setting: tuple[Any, ...]) -> None:
    """Asked for them, every step's events are those of the full driver; with every bot order checked, too."""
    system, seats, strategies, options, stage, seeds = setting
    for seed in range(1, min(seeds, 3) + 1):
        entrants = _entrants(system, seats, strategies, options, seed)
        _, events = _full(system, entrants, seed, stage, options)
        said: list[list[dict[str, Any]]] = []

        def keep(step: list[Any], into: list[list[dict[str, Any]]] = said) -> None:
            into.append([x.model_dump() for x in step])

        checked = rollout(system, entrants, seed, stage, options, check=True, on_events=keep)
        assert said == events
        assert checked.steps == len(events)


@pytest.mark.parametrize("setting", SETTINGS, ids=IDS)
def test_events_of_a_step_played_in_place_stay_as_they_were_told(setting: tuple[Any, ...]) -> None:
    """A rollout may play its steps on its own state (``Ruleset.advance``): the events a step handed out
    share nothing the later steps change, so dumped once the race is over they are still the full driver's."""
    system, seats, strategies, options, stage, seeds = setting
    for seed in range(1, min(seeds, 2) + 1):
        entrants = _entrants(system, seats, strategies, options, seed)
        _, events = _full(system, entrants, seed, stage, options)
        kept: list[list[Any]] = []
        rollout(system, entrants, seed, stage, options, on_events=kept.append)
        assert [[e.model_dump() for e in step] for step in kept] == events


def test_a_quiet_step_builds_no_event() -> None:
    """Without asking, a step hands back nothing, yet the race moves on as with its events."""
    ruleset = get_ruleset("flamme_rouge")
    entrants = _entrants("flamme_rouge", 3, ("heuristic",), {}, 1)
    quiet = Rollout.start("flamme_rouge", entrants, 7)
    loud = Rollout.start("flamme_rouge", entrants, 7)
    while not quiet.finished:
        assert quiet.step() == []
        assert loud.step(events=True)
        assert ruleset.dump(quiet.state) == ruleset.dump(loud.state)
    assert loud.finished


def test_a_seat_without_a_bot_stops_the_rollout() -> None:
    """A person's seat is never played for them: play() stops before it, step() refuses it."""
    entrants = [Entrant(id="me", name="Me"), Entrant(id="bot", name="Bot", bot="heuristic")]
    played = Rollout.start("flamme_rouge", get_ruleset("flamme_rouge").default_entrants(entrants, {}), 3)
    assert played.play() == 0
    with pytest.raises(RecordError, match="no order from me"):
        played.step()


def test_a_bad_stage_is_refused_as_a_race_refuses_it() -> None:
    """The error names the field exactly as Race.start does."""
    entrants = _entrants("flamme_rouge", 2, ("heuristic",), {}, 1)
    with pytest.raises(RecordError) as race_error:
        Race.start("flamme_rouge", entrants, 1, {"preset": "Nowhere"})
    with pytest.raises(RecordError) as rollout_error:
        Rollout.start("flamme_rouge", entrants, 1, {"preset": "Nowhere"})
    assert str(rollout_error.value) == str(race_error.value)

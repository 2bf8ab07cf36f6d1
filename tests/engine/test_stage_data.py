"""A preset copied into a race as explicit data races exactly as the preset named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.race import Race, StepPlayed
from engine.registry import available_rulesets, get_ruleset
from engine.ruleset import Entrant, Event

CASES = [(r.id, p.name) for r in available_rulesets() for p in r.presets()] + [
    (r.id, None) for r in available_rulesets()
]


def _events(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.kind, json.dumps(e.data, sort_keys=True, default=str)) for e in events]


def _dump(race: Race) -> dict[str, Any]:
    """The state dump; Flamme Rouge keeps the stage spec it was given, which the comparison leaves out."""
    data = dict(race.ruleset.dump(race.state))
    if race.ruleset.id == "flamme_rouge":
        data.pop("stage", None)
    return data


def _played(ruleset_id: str, stage: Any, entrants: list[Entrant], seed: int) -> tuple[Any, ...]:
    race = Race.start(ruleset_id, entrants, seed, stage=stage)
    steps: list[StepPlayed] = []
    race.play_bots_until_human(steps.append)
    return (
        _dump(race),
        _events(race.opening),
        [(json.dumps(s.orders, sort_keys=True), _events(s.events)) for s in steps],
        race.result().model_dump(),
    )


def _bots(ruleset_id: str, count: int) -> list[Entrant]:
    ruleset = get_ruleset(ruleset_id)
    return [Entrant(id=f"b{i}", name=f"Bot {i}", bot=ruleset.default_strategy) for i in range(1, count + 1)]


@pytest.mark.parametrize(("ruleset_id", "preset"), CASES)
def test_a_preset_copied_as_data_races_as_the_preset(ruleset_id: str, preset: str | None) -> None:
    """Bots race the copied stage and the named preset alike: same state, events, orders and result."""
    ruleset = get_ruleset(ruleset_id)
    data = ruleset.stage_data(preset)
    assert isinstance(data, dict)
    assert "preset" not in data
    json.dumps(data)  # a race row stores it as JSON
    low, high = ruleset.player_limits(preset, {})
    counts = sorted({max(low, 2) if high >= 2 else low, min(high, 6)})
    for count in counts:
        entrants = _bots(ruleset_id, count)
        assert _played(ruleset_id, data, entrants, 11) == _played(ruleset_id, preset, entrants, 11)


@pytest.mark.parametrize("ruleset_id", [r.id for r in available_rulesets()])
def test_explicit_stage_data_comes_back_as_it_is(ruleset_id: str) -> None:
    """Copying an already explicit stage changes nothing."""
    ruleset = get_ruleset(ruleset_id)
    for preset in ruleset.presets():
        data = ruleset.stage_data(preset.name)
        assert ruleset.stage_data(data) == data


@pytest.mark.parametrize("ruleset_id", [r.id for r in available_rulesets()])
def test_an_unknown_preset_is_refused(ruleset_id: str) -> None:
    """A preset name the system does not know cannot be copied."""
    with pytest.raises(ValueError):
        get_ruleset(ruleset_id).stage_data("no-such-stage-anywhere")

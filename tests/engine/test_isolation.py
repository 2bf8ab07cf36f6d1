"""Nothing the engine hands out is shared: not between races, not with the race's own state.

The bot will serve thousands of races from one process. Whatever ``awaited``, ``validate``, ``auto_order``,
``resolve``, the views and ``result`` return belongs to the caller, who may change it: a cached prompt
changed in one race must not show in the next, and an event's data changed by a front end must not change
the state the race goes on from.

Two identical races play in lockstep. In race A every returned object is changed in place, as deeply as
it can be (dicts cleared and refilled, lists grown, dataclass and model fields overwritten); race B must
still see exactly what A saw before the changes, and A's own state and its next answers must be unchanged.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
from typing import Any

import pytest
from pydantic import BaseModel

from engine.registry import get_ruleset
from engine.ruleset import Entrant, Ruleset
from tests.logged import LoggedRace

SPOILT = "spoilt"

# (rule system, players, options, stage): the phases and modes that build different objects.
SETTINGS: list[tuple[str, int, dict[str, Any], Any]] = [
    ("flamme_rouge", 2, {}, None),
    ("flamme_rouge", 3, {"riders_per_player": 1, "breakaway": "on", "meteo": "random"}, None),
    ("tabella", 3, {"mode": "live"}, None),
    ("tabella", 3, {"mode": "plan"}, None),
    ("wyscig", 3, {}, {"stages": 2}),
    ("mind_cycling", 2, {"mode": "live"}, "short"),
    ("mind_cycling", 2, {"mode": "orders"}, "short"),
]


def spoil(obj: Any, seen: set[int] | None = None) -> None:
    """Change ``obj`` and everything reachable from it in place, wherever Python lets us."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        for value in list(obj.values()):
            spoil(value, seen)
        keys = list(obj)
        for key in keys:
            obj[key] = SPOILT
        obj[SPOILT] = [SPOILT]
    elif isinstance(obj, list):
        for value in list(obj):
            spoil(value, seen)
        obj.append(SPOILT)
        if len(obj) > 1:
            obj[0] = SPOILT
    elif isinstance(obj, set):
        obj.add(SPOILT)
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            spoil(getattr(obj, name), seen)
            _overwrite(obj, name)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            spoil(getattr(obj, f.name), seen)
            _overwrite(obj, f.name)


def _overwrite(obj: Any, name: str) -> None:
    with contextlib.suppress(AttributeError, TypeError):  # frozen: nobody can change it, so sharing it is safe
        setattr(obj, name, SPOILT)


def as_json(obj: Any) -> str:
    """A canonical text of anything the interface returns."""
    if isinstance(obj, list):
        return "[" + ",".join(as_json(x) for x in obj) + "]"
    if isinstance(obj, tuple):
        return "(" + ",".join(as_json(x) for x in obj) + ")"
    if hasattr(obj, "model_dump"):
        return json.dumps(obj.model_dump(mode="json"), sort_keys=True)
    return json.dumps(obj, sort_keys=True)


def entrants(n: int) -> list[Entrant]:
    return [Entrant(id=f"p{i}", name=f"Player {i}") for i in range(1, n + 1)]


def handed_out(ruleset: Ruleset[Any], race: LoggedRace, strategy: str) -> tuple[list[Any], dict[str, Any]]:
    """Everything the interface hands out at this step (bar ``resolve``), and the orders to play."""
    state = race.state
    out: list[Any] = []
    decisions = ruleset.awaited(state)
    out += [decisions, ruleset.awaited(state, {}), ruleset.public_view(state), ruleset.result(state)]
    out += [ruleset.private_view(state, e.id) for e in race.header.entrants]
    orders: dict[str, Any] = {}
    for d in decisions:
        order = ruleset.auto_order(state, d.entrant, None, strategy)
        out.append(order)
        checked = ruleset.validate(state, d.entrant, copy.deepcopy(order), None)
        out.append(checked)
        out.append(ruleset.awaited(state, {d.entrant: copy.deepcopy(checked.order)}))
        orders[d.entrant] = copy.deepcopy(checked.order)
    return out, orders


@pytest.mark.parametrize(("ruleset_id", "players", "options", "stage"), SETTINGS)
def test_what_one_race_is_handed_can_be_changed_without_touching_any_race(
    ruleset_id: str, players: int, options: dict[str, Any], stage: Any
) -> None:
    """A player's front end scribbles over every answer of race A: race B and A's own state never notice."""
    ruleset = get_ruleset(ruleset_id)
    seats = entrants(players)
    a = LoggedRace.start(ruleset_id, seats, 5, stage=stage, options=options)
    b = LoggedRace.start(ruleset_id, seats, 5, stage=stage, options=options)
    assert as_json(a.opening) == as_json(b.opening)
    spoil(a.opening)
    for _ in range(60):
        if a.finished:
            break
        before = json.dumps(ruleset.dump(a.state), sort_keys=True)
        seen_a, orders = handed_out(ruleset, a, ruleset.default_strategy)
        text_a = as_json(seen_a)
        spoil(seen_a)
        assert json.dumps(ruleset.dump(a.state), sort_keys=True) == before, "A's state changed with its answers"
        again, _ = handed_out(ruleset, a, ruleset.default_strategy)
        assert as_json(again) == text_a, "A answers differently once its answers were changed"
        seen_b, _ = handed_out(ruleset, b, ruleset.default_strategy)
        assert as_json(seen_b) == text_a, "race B sees what race A changed"
        new_a, events_a = ruleset.resolve(a.state, copy.deepcopy(orders))
        after = json.dumps(ruleset.dump(new_a), sort_keys=True)
        text_events = as_json(events_a)
        spoil(events_a)
        assert json.dumps(ruleset.dump(a.state), sort_keys=True) == before, "resolve changed the state it was given"
        assert json.dumps(ruleset.dump(new_a), sort_keys=True) == after, "the new state shares its events' data"
        new_b, events_b = ruleset.resolve(b.state, copy.deepcopy(orders))
        assert as_json(events_b) == text_events, "race B's events show what race A changed"
        a.state, b.state = new_a, new_b
    assert a.finished or ruleset_id in {"wyscig", "mind_cycling"}  # long races: the first 60 steps suffice

"""Random legal orders, built the way a front end builds them: from a decision's fields and choices.

Used by the contract and property tests of every rule system. For each awaited human decision it picks
one of four ways a real order arrives: a bot's choice, the absent-player automatic order, a partly
given order completed automatically, or an order built field by field from the offered choices.
"""

from __future__ import annotations

import random
from typing import Any

from engine.ruleset import Decision, Order, set_path
from tests.logged import LoggedRace

MODES = ("bot", "auto", "partial", "fields")


def field_by_field(race: LoggedRace, decision: Decision, rnd: random.Random, max_parts: int = 40) -> Order | None:
    """An order built from the decision's choice and number fields; None if the fields cannot finish it."""
    partial: Order = {}
    who = decision.entrant
    for _ in range(max_parts):
        current = next(d for d in race.awaited({who: partial}) if d.entrant == who)
        if current.complete:
            return partial
        usable = [f for f in current.fields if f.kind in ("choice", "number") and (f.kind != "choice" or f.choices)]
        if not usable:
            return None
        field = usable[0]
        if field.kind == "choice":
            value: Any = rnd.choice(field.choices).value
        else:
            low = field.minimum if field.minimum is not None else 0
            high = field.maximum if field.maximum is not None else low
            value = rnd.randint(low, high)
        merged = set_path(partial, field.path, value)
        partial = race.ruleset.validate(race.state, who, merged, partial).order
    return None


def random_order(race: LoggedRace, decision: Decision, rnd: random.Random) -> Order:
    """One legal order for ``decision``, by a randomly chosen way of arriving."""
    who = decision.entrant
    mode = rnd.choice(MODES)
    if mode == "bot":
        return {**race.ruleset.auto_order(race.state, who, None, race.ruleset.default_strategy), "by": "bot"}
    if mode == "auto":
        return race.absent_order(who)
    built = field_by_field(race, decision, rnd, max_parts=1 if mode == "partial" else 40)
    if built is not None and mode == "fields":
        return built
    # A partly given order (or fields that stop short): the engine completes it, marked automatic.
    partial: Order = {}
    if mode == "partial":
        partial = _first_part(race, decision, rnd)
    return race.absent_order(who, partial or None)


def _first_part(race: LoggedRace, decision: Decision, rnd: random.Random) -> Order:
    for field in decision.fields:
        if field.kind == "choice" and field.choices:
            merged = set_path({}, field.path, rnd.choice(field.choices).value)
            validated = race.ruleset.validate(race.state, decision.entrant, merged, {})
            return validated.order
    return {}


def play_randomly(race: LoggedRace, rnd: random.Random, max_steps: int = 2000) -> None:
    """Play the race to its end (or ``max_steps``) with random legal orders for every human seat."""
    entrants = race.entrants
    for _ in range(max_steps):
        awaited = race.awaited()
        if not awaited:
            return
        orders = {d.entrant: random_order(race, d, rnd) for d in awaited if not entrants[d.entrant].is_bot}
        race.play_step(orders)

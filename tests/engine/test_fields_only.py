"""Whole races given from the offered fields alone, optional parts included: a panel with buttons and selects
needs no text box."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.registry import available_rulesets, get_ruleset
from engine.ruleset import Decision, Entrant, Order, set_path
from tests.logged import LoggedRace

RULESETS = [r.id for r in available_rulesets()]
SHORT: dict[str, dict[str, Any]] = {"wyscig": {"stages": 1}}


def race_of(ruleset_id: str, seed: int) -> LoggedRace:
    ruleset = get_ruleset(ruleset_id)
    low, high = ruleset.player_limits(SHORT.get(ruleset_id), {})
    humans = [Entrant(id=f"p{i}", name=f"Player {i}") for i in range(1, max(low, min(3, high)) + 1)]
    return LoggedRace.start(ruleset_id, ruleset.default_entrants(humans, {}), seed, stage=SHORT.get(ruleset_id))


def by_fields(race: LoggedRace, decision: Decision, rnd: random.Random, filled: set[str]) -> Order:
    """An order built only from choice and number fields, every field answered, optional ones too."""
    who = decision.entrant
    partial: Order = {}
    for _ in range(300):
        current = next(d for d in race.awaited({who: partial}) if d.entrant == who)
        offered = [f for f in current.fields if f.kind != "text"]
        if not offered:
            assert current.complete, f"{race.ruleset.id}: {current.prompt.text} needs text to finish"
            return partial
        field = offered[0]
        if field.kind == "choice":
            assert field.choices, f"{race.ruleset.id}: {field.label.text} offers no choice"
            value: Any = rnd.choice(field.choices).value
        else:
            low = field.minimum if field.minimum is not None else 0
            high = field.maximum if field.maximum is not None else low + 5
            value = rnd.randint(low, high)
        if not field.required:
            filled.add(".".join(p for p in field.path if not p.isdigit()))
        partial = race.ruleset.validate(race.state, who, set_path(partial, field.path, value), partial).order
    raise AssertionError(f"{race.ruleset.id}: the fields never finish the order of {who}")


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_race_is_given_from_the_fields_alone(ruleset_id: str, seed: int) -> None:
    """Every order of every seat, every optional part answered, from buttons and numbers only, to the finish."""
    race = race_of(ruleset_id, seed)
    rnd = random.Random(seed)
    filled: set[str] = set()
    for _ in range(3000):
        awaited = race.awaited()
        if not awaited and race.finished:
            break
        orders = {d.entrant: by_fields(race, d, rnd, filled) for d in awaited if not race.entrants[d.entrant].is_bot}
        race.play_step(orders)
    assert race.finished
    optional = {
        "flamme_rouge": set(),
        "mind_cycling": {"intents.distance", "intents.lane"},
        "tabella": {"bibitone", "special.code", "special.round", "special.target"},
        "wyscig": set(),
    }[ruleset_id]
    assert optional <= filled, sorted(optional - filled)


def parts(order: Any, prefix: str = "") -> set[str]:
    """The dotted names of an order's parts (numbers, like a cyclist's, left out; ``specials=G`` for a special)."""
    if isinstance(order, list):  # Tabella's specials: each entry's parts, and which special it is
        return {f"{prefix}={e['code']}" for e in order if isinstance(e, dict) and "code" in e}.union(
            *(parts(e, prefix) for e in order)
        )
    if not isinstance(order, dict):
        return set()
    out = set()
    for key, value in order.items():
        name = key if key.isdigit() else (f"{prefix}.{key}" if prefix else key)
        if key.isdigit():
            name = prefix
        else:
            out.add(name)
        out |= parts(value, name)
    return out


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_no_part_of_an_order_is_offered_only_as_text(ruleset_id: str) -> None:
    """Every part the bots' orders use (checked, as the engine keeps them) is also reached by the fields."""
    rnd = random.Random(7)
    by_bots: set[str] = set()
    by_panel: set[str] = set()
    for seed in (3, 4):
        race = race_of(ruleset_id, seed)
        for _ in range(3000):
            awaited = race.awaited()
            if not awaited and race.finished:
                break
            orders = {}
            for d in awaited:
                if race.entrants[d.entrant].is_bot:
                    continue
                for strategy in race.ruleset.strategies:
                    made = race.ruleset.auto_order(race.state, d.entrant, None, strategy)
                    by_bots |= parts(race.ruleset.validate(race.state, d.entrant, made, None).order)
                built = by_fields(race, d, rnd, set())
                by_panel |= parts(built)
                orders[d.entrant] = built
            race.play_step(orders)
    # A pending special is the fields' way to build "specials"; it never outlives a whole entry.
    by_panel -= {"special", "special.code", "special.round", "special.target", "special.dir"}
    assert by_bots <= by_panel, sorted(by_bots - by_panel)

"""message_keys() lists every key Mind Cycling says: in seeded races, and in its own source."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from engine.messages import Message, OrderError
from engine.mind_cycling import RULESET
from engine.race import Race
from engine.ruleset import Decision, Entrant, Result, set_path

PACKAGE = Path(__file__).parents[3] / "engine" / "mind_cycling"

BAD_ORDERS: list[Any] = [
    "",
    5,
    "#9 move",
    "#1 fly",
    "#1 move 99",
    "#1 move path=F,FL,FL,FL,FL,FL",
    "#1 move lane=x",
    "#1 move 3 zigzag",
    "#1 wheel 3",
    "#1 move; #1 attack",
    "#1",
    "#3 pass-bottle-to #1",
    "#3 pass #1 #2",
    "move",
    "attack 12",
    "wheel",
    "later",
    "fly",
    "pass",
    "no pass",
    "#2",
    "#1 #2",
    {"cyclist": 99},
    {"cyclist": "one"},
    {"intents": []},
    {"intents": {"1": "move"}},
    {"intents": {"1": {"action": "move", "speed": 3}}},
    {"intents": {"1": {"action": "fly"}}},
    {"intents": {"1": {"action": "wheel", "path": ["F"]}}},
    {"intents": {"1": {"action": "move", "distance": 11}}},
    {"intents": {"1": {"action": "move", "path": ["F", "F"], "distance": 3}}},
    {"intents": {"1": {"action": "move", "path": ["F"], "lane": 2}}},
    {"intents": {"1": {"action": "move", "path": ["Q"]}}},
    {"intents": {"1": {"action": "move", "lane": 9}}},
    {"intents": {"1": {"action": "move", "pass_to": 2}}},
    {"intents": {"3": {"action": "move", "pass_to": 3}}},
    {"intents": {}, "extra": 1},
    {"action": "wheel"},
    {"action": "move", "distance": 99},
    {"action": "attack"},
    {"action": "move", "path": ["FL", "FL", "FL", "FL", "FL", "FL"]},
    {"passes": {"1": 2}},
    {"passes": []},
    {"speed": 3},
]
"""Orders the rules refuse, in every phase (each is tried on every decision of the races below)."""

RACES: list[tuple[dict[str, Any], int, Any]] = [
    ({}, 3, None),
    ({"mode": "live"}, 3, None),
    ({}, 1, None),
    ({"mode": "live"}, 1, "short"),
    ({"team_size": 3, "lanes": 4, "medal_section": "first"}, 4, None),
    ({"mode": "live", "max_rounds": 6}, 2, "sprinters"),
    ({"max_rounds": 5}, 1, None),
    ({"solo": False}, 1, "alps"),
]
"""(options, entrants, stage): orders and live mode, solo, round limits (with and without a solo score)."""


def messages_in(value: Any) -> list[Message]:
    """Every message inside a decision, an event, a result or a list of them."""
    if isinstance(value, Message):
        return [value]
    if isinstance(value, Decision):
        found = [value.prompt, *value.info]
        for f in value.fields:
            found += [f.label, *([f.group] if f.group else [])]
            for c in f.choices:
                found += messages_in(c.label) + messages_in(c.hint)
        return found
    if isinstance(value, Result):
        found = [*value.notes, *(c.label for c in value.columns), *(w for c in value.columns for w in c.words.values())]
        for s in value.standings:
            found += messages_in(list(s.figures.values()))
        return found
    if isinstance(value, (list, tuple)):
        return [m for v in value for m in messages_in(v)]
    return []


def play(options: dict[str, Any], players: int, stage: Any, seed: int, said: set[str]) -> None:
    """A seeded race where the humans give orders field by field, leave them to the rules or to a bot, and
    first send a refused order; every key said along the way goes to ``said``."""
    rnd = random.Random(seed)
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=None if i < 2 else "opportunist") for i in range(players)]
    race = Race.start("mind_cycling", entrants, seed, stage=stage, options=options)
    said.update(e.kind for e in race.opening)
    for _ in range(800):
        if race.finished:
            break
        orders: dict[str, Any] = {}
        for d in race.awaited():
            said.update(m.key for m in messages_in(d))
            if race.entrants[d.entrant].bot is not None:
                continue
            for bad in rnd.sample(BAD_ORDERS, 4):
                try:
                    race.ruleset.validate(race.state, d.entrant, bad)
                except OrderError as exc:
                    said.add(exc.message.key)
            way = rnd.choice(("fields", "auto", "bot"))
            if way == "auto":
                orders[d.entrant] = race.absent_order(d.entrant)
            elif way == "bot":
                orders[d.entrant] = race.ruleset.auto_order(race.state, d.entrant, None, "steady")
            else:
                orders[d.entrant] = by_fields(race, d.entrant, rnd, said)
        for e in race.play_step(orders).events:
            said.update([e.kind, e.message.key])
        said.update(m.key for m in messages_in(race.result()))
    assert race.finished
    with pytest.raises(OrderError) as refused:
        race.ruleset.validate(race.state, "p0", "#1 move")
    said.add(refused.value.message.key)
    with pytest.raises(OrderError) as stranger:
        race.ruleset.validate(race.state, "nobody", "#1 move")
    said.add(stranger.value.message.key)


def by_fields(race: Race, who: str, rnd: random.Random, said: set[str]) -> dict[str, Any]:
    """An order built from the offered fields alone, optional parts included now and then."""
    partial: dict[str, Any] = {}
    for _ in range(60):
        current = next(d for d in race.awaited({who: partial}) if d.entrant == who)
        said.update(m.key for m in messages_in(current))
        usable = [f for f in current.fields if f.kind in ("choice", "number")]
        if not usable or (current.complete and rnd.random() < 0.4):
            break
        field = rnd.choice(usable)
        if field.kind == "choice":
            value: Any = rnd.choice(field.choices).value
        else:
            value = rnd.randint(field.minimum or 0, field.maximum or 0)
        partial = race.ruleset.validate(race.state, who, set_path(partial, field.path, value), partial).order
    if race.ruleset.validate(race.state, who, partial).complete:
        return partial
    return race.absent_order(who, partial)


def test_every_key_said_in_seeded_races_is_listed() -> None:
    """Prompts, fields, choices, info, refusals, events, columns, medals and notes of eight kinds of race."""
    said: set[str] = set()
    for n, (options, players, stage) in enumerate(RACES):
        for seed in (1, 2):
            play(options, players, stage, 10 * n + seed, said)
    for preset in RULESET.presets():
        said.update(m.key for m in messages_in([preset.summary, preset.label]))
        said.add(RULESET.stage_board(preset.name, {}).key)
    said.add(RULESET.stage_board({"rocks": 0, "supply_spaces": 0}, {}).key)
    said.add(RULESET.summary().key)
    keys = RULESET.message_keys()
    assert said - keys == set()
    assert all(k.startswith("mc.") for k in said)
    # The races say most of what the system can say (a key never said here is still listed by the scan below).
    assert len(said) >= 0.8 * len(keys), sorted(keys - said)


def literals() -> set[str]:
    """Every string literal in the package's source that starts with the ``mc.`` prefix."""
    found = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("mc."):
                found.add(node.value)
    return found


def test_every_key_written_in_the_source_is_listed_and_every_listed_key_is_written() -> None:
    """A key in the source but not in message_keys() would miss a translation; one listed but written
    nowhere is stale. The presets' summaries are the keys made from data (mc.preset.<name>)."""
    keys = RULESET.message_keys()
    written = {k for k in literals() if not k.endswith(".")}
    assert written - keys == set()
    made = {"mc.preset." + name for name in (p.name for p in RULESET.presets())}
    assert keys - written == made

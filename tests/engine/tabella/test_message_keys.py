"""Every key Tabella says is one it lists, so a translation catalogue can be checked for completeness."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from engine.messages import Message, OrderError
from engine.ruleset import Decision, Entrant, Order, set_path
from engine.tabella import RULESET
from engine.tabella.keys import MESSAGE_KEYS
from engine.tabella.presets import PRESETS
from engine.tabella.state import RaceState

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "tabella"

BAD_ORDERS: list[Order | str] = [
    "",
    "start: Z",
    "start: A · 9R 1R 1R 1R 1R · 0 0 0",
    "start: A · 1R 1R · 0",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 0",
    "start: A · 1R 1R 1R 1R 1R · 0 0 x",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 · V@zz",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 · V@m1 V@m2",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 · G@m1 @Nobody up",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 · G@m1 @P1",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 · J@s1 @P2",
    "start: A · 1R 1R 1R 1R 1R · 0 0 0 · bibitone",
    "start: A · 1RS 1R 1R 1R 1R · 0 0 0",
    "m1 3R",
    "hello there",
    {"start": "Z"},
    {"bibitone": "perhaps"},
    {"m1": {"effort": 9, "dir": "R"}},
    {"m1": {"effort": 2, "dir": "Q"}},
    {"m1": {"effort": 2, "way": "R"}},
    {"m1": "nonsense"},
    {"s1": -1},
    {"specials": "V@"},
    {"specials": 5},
    {"specials": [5]},
    {"specials": [{"code": "Q", "round": "m1"}]},
    {"specials": [{"code": "V", "round": "m1", "colour": "red"}]},
    {"specials": [{"code": "V", "round": "m1", "target": "P2"}]},
    {"specials": [{"code": "V", "round": "m1", "dir": "up"}]},
    {"specials": [{"code": "J", "round": "s2", "target": "P2"}]},
    {"specials": [{"code": "G", "round": "m1", "target": "P2"}]},
    {"specials": [{"code": "G", "round": "m1"}]},
    {"specials": [{"code": "B", "round": "m1", "target": "P1"}]},
    {"specials": [{"code": "X", "round": "m1", "bibitone": True}]},
    {"specials": [{"code": "V", "round": "m1"}, {"code": "V", "round": "m2"}]},
    {"specials": [{"code": "V"}]},
    {"special": {"code": "Q"}},
    {"special": 3},
    {"colour": "red"},
    {"text": 5},
    {"text": "start: A", "m1": "1R"},
]


SAID: list[Message] = []
"""Every message the races of this module said (nested ones included), for the English-words check."""


def _nested(message: Message) -> list[Message]:
    """``message`` and every message nested in its parameters (a parameter may be a message or a list)."""
    found = [message]
    for value in message.params.values():
        for part in value if isinstance(value, list) else [value]:
            if isinstance(part, Message):
                found += _nested(part)
    return found


def _keys_of(message: Message | str | None) -> set[str]:
    assert not isinstance(message, str), f"a plain string reached a player: {message!r}"
    if message is None:
        return set()
    said = _nested(message)
    SAID.extend(said)
    return {m.key for m in said}


def _decision_keys(decision: Decision) -> set[str]:
    keys = _keys_of(decision.prompt)
    for info in decision.info:
        keys |= _keys_of(info)
    for field in decision.fields:
        keys |= _keys_of(field.label) | _keys_of(field.group)
        for choice in field.choices:
            keys |= _keys_of(choice.label) | _keys_of(choice.hint)
    return keys


def _by_fields(state: RaceState, entrant: str, pick: random.Random, seen: set[str]) -> Order:
    """An order chosen from the offered fields alone, optional parts (specials, Bibitone) included."""
    partial: Order = {}
    for _ in range(80):
        decision = next(d for d in RULESET.awaited(state, {entrant: partial}) if d.entrant == entrant)
        seen |= _decision_keys(decision)
        offered = [f for f in decision.fields if f.path and f.kind != "text"]
        if decision.complete and (not offered or pick.random() < 0.3):
            return partial
        if not offered:
            break
        field = offered[0]
        assert field.kind != "choice" or field.choices, f"{field.path} offered with nothing to choose"
        value: Any = pick.choice(field.choices).value if field.kind == "choice" else pick.randint(0, 3)
        try:
            partial = RULESET.validate(state, entrant, set_path(partial, field.path, value), partial).order
        except OrderError as refused:  # a special the round cannot take: the rules say so
            seen |= _keys_of(refused.message)
            return partial if decision.complete else RULESET.auto_order(state, entrant, partial)
    return RULESET.auto_order(state, entrant, partial)


def _refusals(state: RaceState, entrant: str) -> set[str]:
    keys = set()
    for bad in BAD_ORDERS:
        try:
            RULESET.validate(state, entrant, bad)
        except OrderError as refused:
            keys |= _keys_of(refused.message)
    return keys


def _race(seed: int, options: dict[str, Any], stage: Any, seen: set[str], how: str) -> None:
    pick = random.Random(seed)
    entrants = [Entrant(id=f"p{i}", name=f"P{i}") for i in range(1, 6)]
    state, events = RULESET.open_race(stage, options, entrants, seed, None)
    while not state.over:
        orders: dict[str, Order] = {}
        for decision in RULESET.awaited(state):
            seen |= _decision_keys(decision) | _refusals(state, decision.entrant)
            rid = decision.entrant
            if how == "fields":
                orders[rid] = _by_fields(state, rid, pick, seen)
            elif how == "auto":
                orders[rid] = RULESET.auto_order(state, rid)
            elif how == "void":
                if rid == "p1":
                    orders[rid] = RULESET.auto_order(state, rid)
            else:
                orders[rid] = RULESET.auto_order(state, rid, None, pick.choice(RULESET.strategies))
        state, stepped = RULESET.resolve(state, orders)
        events += stepped
        result = RULESET.result(state)
        for note in result.notes:
            seen |= _keys_of(note)
        for column in result.columns:
            seen |= _keys_of(column.label)
            for word in column.words.values():
                seen |= _keys_of(word)
    if RULESET.pending_announcement(state) is not None:
        state, published = RULESET.publish(state)
        events += published
        for note in RULESET.result(state).notes:
            seen |= _keys_of(note)
    for event in events:
        seen |= {event.kind} | _keys_of(event.message)


def test_every_key_a_race_says_is_listed() -> None:
    """Bots, automatic orders, orders built from the fields, refusals, a void race: every key is listed."""
    seen: set[str] = set()
    races = [
        ({"mode": "plan"}, None, "bots"),
        ({"mode": "live", "gazzetta_probability": 1.0}, "classic-2", "bots"),
        ({"mode": "live", "gazzetta_delay": "immediate"}, {"table": "random", "rows": "random"}, "fields"),
        ({"mode": "plan", "scia_reading": "flat_terrain"}, "classic-5", "fields"),
        ({"mode": "live"}, "classic-8", "auto"),
        ({"mode": "plan"}, None, "void"),
    ]
    for seed in range(1, 5):
        for options, stage, how in races:
            _race(seed, options, stage, seen, how)
    seen |= _keys_of(RULESET.summary())
    for preset in RULESET.presets():
        seen |= _keys_of(preset.summary) | _keys_of(preset.label)
        seen |= _keys_of(RULESET.stage_board(preset.name, {}))
    unlisted = sorted(k for k in seen if k not in MESSAGE_KEYS)
    assert unlisted == []
    # The races reach far enough that a broken collection would show: refusals, events, fields, columns.
    assert len(seen) >= 100, sorted(MESSAGE_KEYS - seen)
    assert {"td.order.bad_start", "td.syntax.empty", "td.void", "td.gazzetta", "td.choice.special_v"} <= seen


def test_every_key_the_source_names_is_listed_and_nothing_else() -> None:
    """Each ``td.`` literal in the package's source is in message_keys(), and each listed key is in the source
    or in presets.json: a key added to the code and forgotten here, or left here once gone, fails."""
    literals = set()
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("td."):
                literals.add(node.value)
    from_data = {entry.summary.key for entry in PRESETS.values()}
    assert RULESET.message_keys() == MESSAGE_KEYS
    assert sorted(literals - MESSAGE_KEYS) == []
    assert sorted(MESSAGE_KEYS - literals - from_data) == []


@pytest.mark.parametrize("key", sorted(MESSAGE_KEYS))
def test_every_key_starts_with_the_system_prefix(key: str) -> None:
    """Tabella's keys all start with td., so no two systems share a key."""
    assert key.startswith("td.") and key.strip() == key

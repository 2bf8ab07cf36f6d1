"""Every key Tabella says is one it lists, so a translation catalogue can be checked for completeness."""

from __future__ import annotations

import ast
import random
import re
from functools import cache
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
    {"specials": [{"code": "G", "round": "m1", "target": "P2", "dir": "sideways"}]},
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


@cache
def _everything_said() -> tuple[frozenset[str], tuple[Message, ...]]:
    """The keys and the messages (nested ones included) of the module's races, presets and boards."""
    SAID.clear()
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
        seen |= _keys_of(preset.summary) | _keys_of(preset.label) | _keys_of(preset.title)
        seen |= _keys_of(RULESET.stage_board(preset.name, {}))
    return frozenset(seen), tuple(SAID)


def test_every_key_a_race_says_is_listed() -> None:
    """Bots, automatic orders, orders built from the fields, refusals, a void race: every key is listed."""
    seen, _ = _everything_said()
    unlisted = sorted(k for k in seen if k not in MESSAGE_KEYS)
    assert unlisted == []
    # The races reach far enough that a broken collection would show: refusals, events, fields, columns.
    assert len(seen) >= 100, sorted(MESSAGE_KEYS - seen)
    assert {"td.order.bad_start", "td.syntax.empty", "td.void", "td.gazzetta", "td.choice.special_v"} <= seen
    # Nested messages are collected too: a Gomitata's reason, a pair's terrain, a refusal's part of the order.
    assert {
        "td.gomitata.reason.not_faster",
        "td.terrain.climb",
        "td.part.move",
        "td.special.j",
        "td.order.you_wrote",
    } <= seen


NOTATION_PARAMS = {
    # players' display names and rider ids, as the race knows them
    "name": "a display name",
    "target_name": "a display name",
    "newcomer_name": "a display name",
    "victim_name": "a display name",
    "names": "display names, comma-separated",
    "rider": "a rider id",
    "target": "a rider id",
    "newcomer": "a rider id",
    "victim": "a rider id",
    "faller": "a rider id",
    "caught": "rider ids",
    "priority": "rider ids",
    # what the player wrote, quoted back in a refusal
    "value": "the player's own words",
    "part": "the player's own key",
    "after": "the player's own text",
    # the order syntax: round labels (start, m1-m5, s1-s3), codes, a plan or an example written in it
    "label": "a round label",
    "round": "a round label",
    "where": "a special at a round (G@m1) or an order's key",
    "plan_text": "a plan in the order syntax",
    "plan": "a plan in the order syntax",
    "order": "an order in the order syntax",
    "example": "an order in the order syntax",
    "missing": "round labels",
    "allowed": "round labels",
    "rounds": "round labels",
    # codes an event's data carry for front ends (never in the sentence)
    "terrain": "climb, flat or descent (the sentence shows the pair's own nested message)",
    "dir": "a direction code (S, D, R; up or down for a Gomitata)",
    "delay": "an option's value",
}
"""Parameters whose string values are names, the player's own words or the game's notation; any other
string parameter must hold no word (three letters or more), only codes like ``A3``, ``V2`` or ``m1``."""
_WORD = re.compile(r"[^\W\d_]{3,}")


def test_no_message_parameter_holds_english_words() -> None:
    """A translator words every sentence whole: no parameter outside names and notation holds a word of
    English; the words a sentence needs come as nested messages, which a translation renders in turn."""
    _, said = _everything_said()
    wordy: set[tuple[str, str, str]] = set()
    for message in said:
        for param, value in message.params.items():
            if param in NOTATION_PARAMS:
                continue
            for part in value if isinstance(value, list) else [value]:
                if isinstance(part, str) and _WORD.search(part):
                    wordy.add((message.key, param, part))
    assert sorted(wordy)[:20] == []
    assert len(said) > 10_000  # the races did run


def test_the_words_check_catches_an_english_reason() -> None:
    """The check would have caught the old Gomitata, whose reason was English words in a parameter."""
    assert _WORD.search("not faster") and _WORD.search("move 1") and _WORD.search("climb")
    assert not any(_WORD.search(code) for code in ("A3", "V2", "B2", "m1", "s3", "", "P@s3", "(3,1)"))


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


def test_a_gomitata_reason_reaches_json_as_a_message_a_front_end_translates() -> None:
    """A failed Gomitata's reason travels in the event's JSON as its own key, parameters and English text."""
    _, said = _everything_said()
    failed = next(m for m in said if m.key == "td.gomitata.fails")
    reason = failed.model_dump(mode="json")["params"]["reason"]
    assert reason["key"].startswith("td.gomitata.reason.") and reason["key"] in MESSAGE_KEYS
    assert f"but it fails ({reason['text']})" in failed.text

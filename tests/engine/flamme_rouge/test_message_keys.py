"""Every key Flamme Rouge may emit is in ``message_keys()``, so a translation catalogue can be checked for
completeness: the keys seen in whole races (events, prompts, labels, refusals, notes, columns, summaries) and
every ``fr.`` string written in the package's source."""

from __future__ import annotations

import ast
import random
from importlib import resources
from typing import Any

from engine.flamme_rouge import RULESET
from engine.messages import Message, OrderError
from engine.ruleset import Decision, Entrant, Event, Order, set_path

BAD_ORDERS: list[Any] = [
    "",
    "ciao bella",
    "r5 r6",
    "r99",
    "rq",
    "draw q",
    "place x 3",
    "place s 99",
    "place",
    "bid q",
    "bid r99",
    "bid",
    "rider blue z",
    "rider nobody r",
    "rider",
    7,
    {"text": 5},
    {"text": "r5", "cards": {}},
    {"cards": "r5"},
    {"cards": {"r": "five"}},
    {"place": "s3"},
    {"first": "q"},
]
"""Orders the rules refuse in one phase or another (each phase refuses the others' orders too)."""

RACES: list[tuple[str | None, dict[str, Any], int, list[str]]] = [
    (None, {}, 1, []),
    ("Stage 9", {"breakaway": "on", "meteo": "random"}, 2, ["heuristic"]),
    ("La Classicissima", {"riders_per_player": 1, "finish": "first"}, 3, ["simple", "heuristic"]),
    ("Stage 12", {"grid": "random", "show_deck_contents": True}, 3, []),
    ("Sprint de Montagne", {"breakaway": "on", "bots": ["muscle"]}, 2, []),
]
"""(stage, options, people, strategy bots): every phase, both rider modes, the bot teams, Meteo and Breakaway."""


def message_keys_of(value: Any, found: set[str]) -> None:
    """Every message key inside an interface object (messages, events, decisions, results)."""
    if isinstance(value, Message):
        found.add(value.key)
    elif isinstance(value, Event):
        found.update((value.kind, value.message.key))
    elif isinstance(value, Decision):
        found.add(value.prompt.key)
        for info in value.info:
            found.add(info.key)
        for field in value.fields:
            message_keys_of(field.label, found)
            message_keys_of(field.group, found)
            for choice in field.choices:
                message_keys_of(choice.label, found)
                message_keys_of(choice.hint, found)


def refusal_keys(state: Any, entrant: str, found: set[str]) -> None:
    for bad in BAD_ORDERS:
        try:
            RULESET.validate(state, entrant, bad)
        except OrderError as error:
            found.add(error.message.key)


def walk_parts(state: Any, entrant: str, rng: random.Random, found: set[str]) -> Order:
    """Choose every part of ``entrant``'s order from the offered fields, collecting each part's texts."""
    partial: Order = {}
    for _ in range(10):
        decision = next(d for d in RULESET.awaited(state, {entrant: partial}) if d.entrant == entrant)
        message_keys_of(decision, found)
        if decision.complete:
            return partial
        field = decision.fields[0]
        checked = RULESET.validate(state, entrant, set_path(partial, field.path, rng.choice(field.choices).value))
        partial = checked.order
        if checked.complete:
            return partial
    raise AssertionError("the decision never completed")


def play_collecting(stage: str | None, options: dict[str, Any], people: int, bots: list[str], seed: int) -> set[str]:
    """Play a race: people choose from the fields (every third order left to the absent-player rule), strategies
    play theirs, bad orders are tried at every step; returns every key seen."""
    found: set[str] = set()
    rng = random.Random(seed)
    humans = [Entrant(id=f"p{n}", name=f"P{n}") for n in range(people)]
    humans += [Entrant(id=f"b{n}", name=f"B{n}", bot=bot) for n, bot in enumerate(bots)]
    entrants = RULESET.default_entrants(humans, options)
    state, events = RULESET.start_race(stage, options, entrants, seed)
    for event in events:
        message_keys_of(event, found)
    seats = {e.id: e for e in entrants}
    for who in ("nobody", *(e.id for e in entrants if e.bot in ("peloton", "muscle"))):
        refusal_keys(state, who, found)
    for step in range(400):
        if RULESET.finished(state):
            break
        orders: dict[str, Order] = {}
        for decision in RULESET.awaited(state):
            who = decision.entrant
            message_keys_of(decision, found)
            refusal_keys(state, who, found)
            if seats[who].bot is not None:
                orders[who] = RULESET.auto_order(state, who, None, seats[who].bot)
            elif step % 3 == 2:
                orders[who] = RULESET.auto_order(state, who, None, None)
            else:
                orders[who] = walk_parts(state, who, rng, found)
        state, events = RULESET.resolve(state, orders)
        for event in events:
            message_keys_of(event, found)
    assert RULESET.finished(state)
    result = RULESET.result(state)
    for column in result.columns:
        found.add(column.label.key)
    for note in result.notes:
        found.add(note.key)
    return found


def test_every_key_a_race_emits_is_listed() -> None:
    """Whole races of every phase and variant, with refusals and absent players, emit only listed keys."""
    listed = RULESET.message_keys()
    seen: set[str] = set()
    for seed, (stage, options, people, bots) in enumerate(RACES, start=11):
        seen |= play_collecting(stage, options, people, bots, seed)
    message_keys_of(RULESET.summary(), seen)
    for preset in RULESET.presets():
        message_keys_of(preset.summary, seen)
        message_keys_of(preset.label, seen)
        message_keys_of(RULESET.stage_board(preset.name, {}), seen)
    assert sorted(seen - listed) == []
    assert all(key.startswith("fr.") for key in seen)
    # The races reach far: refusals, every phase's prompts, the Breakaway, the bot teams' cards.
    for key in ("fr.bad_text", "fr.not_entrant", "fr.bot_team", "fr.bid", "fr.breakaway", "fr.peloton_card"):
        assert key in seen, key


def source_strings() -> dict[str, set[str]]:
    """Every string literal starting with ``fr.`` in the package's modules, by module."""
    found: dict[str, set[str]] = {}
    package = resources.files("engine.flamme_rouge")
    for entry in package.iterdir():
        if entry.name.endswith(".py"):
            tree = ast.parse(entry.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("fr."):
                    found.setdefault(node.value, set()).add(entry.name)
    return found


def test_every_key_written_in_the_source_is_listed_and_every_listed_key_is_written() -> None:
    """The ``fr.`` strings of the source are exactly the listed keys (none forgotten, none left over)."""
    written = source_strings()
    listed = RULESET.message_keys()
    assert sorted(set(written) - listed) == []
    used = {key for key, modules in written.items() if modules - {"keys.py"}}
    assert sorted(listed - used) == []


def test_no_key_is_built_by_formatting() -> None:
    """No f-string or ``%``/``format`` builds a key: the scan above would not see it."""
    package = resources.files("engine.flamme_rouge")
    for entry in package.iterdir():
        if entry.name.endswith(".py"):
            tree = ast.parse(entry.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr) and node.values:
                    head = node.values[0]
                    assert not (isinstance(head, ast.Constant) and str(head.value).startswith("fr.")), entry.name

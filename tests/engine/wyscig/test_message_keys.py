"""Every key Wyścig may emit is in ``message_keys()``, so a translation catalogue can be checked for
completeness: the keys seen in whole races (events, prompts, labels, hints, info, refusals, notes, columns,
summaries) and every ``wk.`` string written in the package's source."""

from __future__ import annotations

import ast
from importlib import resources
from typing import Any

from engine.messages import Message, OrderError
from engine.ruleset import Decision, Entrant, Event, Result
from engine.wyscig import RULESET
from engine.wyscig.state import RaceState

BAD_ORDERS: list[Any] = [
    "",
    "ciao bella",
    "play",
    "play 47 +",
    "play 45 46",
    "play 38",
    "play 49 +9",
    {"card": 47, "descents": -1},
    {"text": 5},
    {"card": True},
    7,
    "hand",
]
"""Orders the rules refuse, each for its own reason (``hand`` answers with the hand, as a refusal does)."""

RACES: list[tuple[dict[str, Any], dict[str, Any], int]] = [
    ({"stages": 2}, {}, 3),
    ({"deck": "total_102", "stages": 1}, {}, 5),
    ({"deck": "classic_96", "stages": 1}, {}, 2),
    ({"deck": "itemised_108", "stages": 1}, {"max_players": 8}, 8),
]
"""(stage, options, players): every deck, from two players to eight."""


def keys_of(value: Any, found: set[str]) -> None:
    """Every message key inside an interface object (messages, events, decisions, results)."""
    if isinstance(value, Message):
        found.add(value.key)
    elif isinstance(value, Event):
        found.update((value.kind, value.message.key))
    elif isinstance(value, Decision):
        found.add(value.prompt.key)
        found.update(info.key for info in value.info)
        for field in value.fields:
            keys_of(field.label, found)
            keys_of(field.group, found)
            for choice in field.choices:
                keys_of(choice.label, found)
                keys_of(choice.hint, found)
    elif isinstance(value, Result):
        found.update(note.key for note in value.notes)
        found.update(column.label.key for column in value.columns)


def refusal_keys(state: RaceState, found: set[str]) -> None:
    """The keys of the refusals of bad orders: from the player whose turn it is, and from the others."""
    for entrant in state.seats:
        for bad in BAD_ORDERS:
            try:
                RULESET.validate(state, entrant, bad)
            except OrderError as error:
                found.add(error.message.key)
    try:
        RULESET.validate(state, "nobody", "play 47")
    except OrderError as error:
        found.add(error.message.key)
    for orders in ({}, {state.turn or "": {"descents": 0}}):
        try:
            RULESET.resolve(state, orders)
        except OrderError as error:
            found.add(error.message.key)


def play(stage: dict[str, Any], options: dict[str, Any], players: int, seed: int) -> set[str]:
    """A whole race: bots and absent players in turn, a partial order kept, bad orders tried on the way."""
    found: set[str] = set()
    entrants = [Entrant(id=f"p{i}", name=f"P{i}") for i in range(players)]
    state, events = RULESET.open_race(stage, options, entrants, seed, None)
    for e in events:
        keys_of(e, found)
    step = 0
    while not RULESET.finished(state):
        for decision in RULESET.awaited(state):
            keys_of(decision, found)
            if decision.fields and decision.fields[0].choices:
                partial = {decision.entrant: {"card": decision.fields[0].choices[-1].value}}
                for again in RULESET.awaited(state, partial):
                    keys_of(again, found)
        if step % 7 == 0:
            refusal_keys(state, found)
        entrant = state.turn
        assert entrant is not None
        strategy = [None, *RULESET.strategies][step % 3]
        order = RULESET.auto_order(state, entrant, None, strategy)
        state, events = RULESET.resolve(state, {entrant: RULESET.validate(state, entrant, order).order})
        for e in events:
            keys_of(e, found)
        keys_of(RULESET.result(state), found)
        step += 1
    refusal_keys(state, found)
    keys_of(RULESET.result(state), found)
    return found


def catalogue_keys() -> set[str]:
    found: set[str] = set()
    keys_of(RULESET.summary(), found)
    for preset in RULESET.presets():
        keys_of(preset.summary, found)
        keys_of(preset.label, found)
        keys_of(RULESET.stage_board(preset.name, {}), found)
    return found


def test_every_key_a_race_emits_is_listed() -> None:
    """Four seeded races on every deck, with bots, absent players and refused orders: nothing unlisted."""
    listed = RULESET.message_keys()
    seen = catalogue_keys()
    for n, (stage, options, players) in enumerate(RACES):
        seen |= play(stage, options, players, 11 + n)
    assert seen - listed == set()
    assert all(key.startswith("wk.") for key in seen)
    # The races reach well beyond the obvious: refusals, climbs, redeals and skips are among them.
    for key in ("wk.too_many_descents", "wk.not_your_turn", "wk.climb_laid", "wk.info.climb", "wk.race_end"):
        assert key in seen, key


def test_every_key_the_source_names_is_listed_and_nothing_else() -> None:
    """Every ``wk.`` string literal in the package is a listed key, and every listed key is written somewhere."""
    written: set[str] = set()
    package = resources.files("engine.wyscig")
    for source in package.iterdir():
        if not source.name.endswith(".py") or source.name == "keys.py":
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("wk."):
                written.add(node.value)
    listed = RULESET.message_keys()
    assert written - listed == set(), "written but not listed"
    assert listed - written == set(), "listed but never written"

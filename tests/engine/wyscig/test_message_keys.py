"""Every key Wyścig may emit is in ``message_keys()``, so a translation catalogue can be checked for
completeness: the keys seen in whole races (events, prompts, labels, hints, info, refusals, notes, columns,
summaries) and every ``wk.`` string written in the package's source."""

from __future__ import annotations

import ast
import re
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


NAMES = ["Anna Kowalska", "Bob", "Carla", "Dan", "Ewa Nowak", "Filip", "Gosia", "Henryk"]
"""The riders' display names: two hold a space, so a name passes as a name, never as English words."""


def keys_of(value: Any, found: set[str], messages: list[Message] | None = None) -> None:
    """Every message key inside an interface object (messages, events, decisions, results), the keys of the
    messages nested in a message's parameters included; ``messages`` collects every message met."""
    if isinstance(value, Message):
        found.add(value.key)
        if messages is not None:
            messages.append(value)
        for param in value.params.values():
            keys_of(param, found, messages)
    elif isinstance(value, (list, tuple)):
        for item in value:
            keys_of(item, found, messages)
    elif isinstance(value, Event):
        found.add(value.kind)
        keys_of(value.message, found, messages)
    elif isinstance(value, Decision):
        keys_of(value.prompt, found, messages)
        keys_of(value.info, found, messages)
        for field in value.fields:
            keys_of(field.label, found, messages)
            keys_of(field.group, found, messages)
            for choice in field.choices:
                keys_of(choice.label, found, messages)
                keys_of(choice.hint, found, messages)
    elif isinstance(value, Result):
        keys_of(value.notes, found, messages)
        keys_of([column.label for column in value.columns], found, messages)


def refusal_keys(state: RaceState, found: set[str], messages: list[Message] | None = None) -> None:
    """The keys of the refusals of bad orders: from the player whose turn it is, and from the others."""
    for entrant in state.seats:
        for bad in BAD_ORDERS:
            try:
                RULESET.validate(state, entrant, bad)
            except OrderError as error:
                keys_of(error.message, found, messages)
    try:
        RULESET.validate(state, "nobody", "play 47")
    except OrderError as error:
        keys_of(error.message, found, messages)
    for orders in ({}, {state.turn or "": {"descents": 0}}):
        try:
            RULESET.resolve(state, orders)
        except OrderError as error:
            keys_of(error.message, found, messages)


def play(
    stage: dict[str, Any], options: dict[str, Any], players: int, seed: int, messages: list[Message] | None = None
) -> set[str]:
    """A whole race: bots and absent players in turn, a partial order kept, bad orders tried on the way."""
    found: set[str] = set()
    entrants = [Entrant(id=f"p{i}", name=NAMES[i]) for i in range(players)]
    state, events = RULESET.open_race(stage, options, entrants, seed, None)
    for e in events:
        keys_of(e, found, messages)
    step = 0
    while not RULESET.finished(state):
        for decision in RULESET.awaited(state):
            keys_of(decision, found, messages)
            if decision.fields and decision.fields[0].choices:
                partial = {decision.entrant: {"card": decision.fields[0].choices[-1].value}}
                for again in RULESET.awaited(state, partial):
                    keys_of(again, found, messages)
        if step % 7 == 0:
            refusal_keys(state, found, messages)
        entrant = state.turn
        assert entrant is not None
        strategy = [None, *RULESET.strategies][step % 3]
        order = RULESET.auto_order(state, entrant, None, strategy)
        state, events = RULESET.resolve(state, {entrant: RULESET.validate(state, entrant, order).order})
        for e in events:
            keys_of(e, found, messages)
        keys_of(RULESET.result(state), found, messages)
        step += 1
    refusal_keys(state, found, messages)
    keys_of(RULESET.result(state), found, messages)
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


NOTATION = re.compile(r"^[0-9 ,.+=\-−—]*$|^\d+:\d\d$")
"""What a parameter that is not a name may hold: the game's own notation (``47``, ``50 +1 = 52``, ``39, 44``, ``—``)
or a race time in hours and minutes (``6:44``)."""
NAME_PARAMS = {"name", "leader", "last"}
"""Parameters holding one rider's display name (``leader`` in the info line; an id in an event's data)."""
NAMES_PARAMS = {"names"}
"""Parameters holding display names joined by ", " (the riders sharing first place, but the last)."""
INPUT_PARAMS = {"order", "field"}
"""Parameters quoting what the player sent (his text, a field name of his JSON order), shown as he wrote it."""


def english_params(message: Message, ids: set[str], names: set[str]) -> list[str]:
    """Every parameter of ``message`` (and of the messages nested in it) that holds words a translator cannot
    reach: a string that is neither notation, nor a rider's id or name, nor the player's own input."""
    found: list[str] = []

    def plain(value: Any, where: str, param: str) -> None:
        if isinstance(value, Message):
            found.extend(english_params(value, ids, names))
        elif isinstance(value, dict):
            for k, v in value.items():
                plain(v, f"{where}.{k}", str(k))
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                plain(v, f"{where}[{i}]", param)
        elif isinstance(value, str):
            if param in INPUT_PARAMS or NOTATION.match(value) or value in ids:
                return
            if param in NAME_PARAMS and value in names:
                return
            if param in NAMES_PARAMS and set(value.split(", ")) <= names:
                return
            if param == "deck" and value in RULESET_DECKS:
                return
            found.append(f"{message.key}: {where} = {value!r}")

    for param, value in message.params.items():
        plain(value, param, param)
    return found


RULESET_DECKS = {preset.name for preset in RULESET.presets()}


def test_no_message_parameter_holds_english_words() -> None:
    """Every parameter of every message four races emit (nested ones too) is a number, notation, a rider's name
    or id, the player's own input, or a nested message: never words a translator could not reach."""
    messages: list[Message] = []
    catalogue: set[str] = set()
    for preset in RULESET.presets():
        keys_of([preset.summary, preset.label, preset.title, RULESET.stage_board(preset.name, {})], catalogue, messages)
    keys_of(RULESET.summary(), catalogue, messages)
    seen: set[str] = set()
    for n, (stage, options, players) in enumerate(RACES):
        seen |= play(stage, options, players, 11 + n, messages)
    ids = {f"p{i}" for i in range(8)} | {"nobody"}  # "nobody" is the stranger whose order is refused
    names = set(NAMES)
    bad = [line for message in messages for line in english_params(message, ids, names)]
    assert bad == []
    # The races reach the nested words: a hand, a card played (with descents, on a climb), the lap line.
    for key in ("wk.cards.speeds", "wk.cards.speeds_descents", "wk.shown.card", "wk.shown.descents", "wk.lap.then"):
        assert key in seen, key


def test_english_words_in_a_parameter_are_caught() -> None:
    """The check itself: "2 descents" or "(leader)" in a string parameter is found; a name or notation is not."""
    ids, names = {"p0"}, {"Anna Kowalska"}
    ok = Message("wk.hand", {"hand": Message("wk.cards.speeds", {"speeds": "39, 44"}, "39, 44"), "example": 39}, "")
    assert english_params(ok, ids, names) == []
    named = Message("wk.info.stage", {"leader": "Anna Kowalska", "reference": "—"}, "")
    assert english_params(named, ids, names) == []
    worded = Message("wk.pace", {"shown": "47 + 2 descents = 51", "name": "Anna Kowalska"}, "")
    assert english_params(worded, ids, names) == ["wk.pace: shown = '47 + 2 descents = 51'"]
    nested = Message("wk.info.lap", {"lap": Message("wk.lap.then", {"lap": "Anna 47 (leader)"}, "")}, "")
    assert english_params(nested, ids, names) == ["wk.lap.then: lap = 'Anna 47 (leader)'"]
    not_a_name = Message("wk.pace", {"name": "no speed card"}, "")
    assert english_params(not_a_name, ids, names) == ["wk.pace: name = 'no speed card'"]

"""Every key Flamme Rouge may emit is in ``message_keys()``, so a translation catalogue can be checked for
completeness: the keys seen in whole races (events, prompts, labels, refusals, notes, columns, summaries) and
every ``fr.`` string written in the package's source."""

from __future__ import annotations

import ast
import random
import re
from functools import cache
from importlib import resources
from typing import Any

from engine.flamme_rouge import RULESET
from engine.messages import Message, OrderError, message_of
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


class Seen:
    """Every message met while playing: their keys (events' kinds too) and the messages themselves, nested
    ones included."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.messages: list[Message] = []


def message_keys_of(value: Any, seen: Seen) -> None:
    """Every message inside an interface object (messages, events, decisions, results), and every message nested
    in their parameters (a rider type, a terrain, a card's name)."""
    if isinstance(value, Message):
        seen.keys.add(value.key)
        seen.messages.append(value)
        for param in value.params.values():
            message_keys_of(param, seen)
    elif isinstance(value, list):
        for item in value:
            message_keys_of(item, seen)
    elif isinstance(value, Event):
        seen.keys.add(value.kind)
        message_keys_of(value.message, seen)
    elif isinstance(value, Decision):
        message_keys_of(value.prompt, seen)
        message_keys_of(value.info, seen)
        for field in value.fields:
            message_keys_of(field.label, seen)
            message_keys_of(field.group, seen)
            for choice in field.choices:
                message_keys_of(choice.label, seen)
                message_keys_of(choice.hint, seen)


def refusal_keys(state: Any, entrant: str, seen: Seen) -> None:
    for bad in BAD_ORDERS:
        try:
            RULESET.validate(state, entrant, bad)
        except OrderError as error:
            message_keys_of(error.message, seen)


def walk_parts(state: Any, entrant: str, rng: random.Random, seen: Seen) -> Order:
    """Choose every part of ``entrant``'s order from the offered fields, collecting each part's texts."""
    partial: Order = {}
    for _ in range(10):
        decision = next(d for d in RULESET.awaited(state, {entrant: partial}) if d.entrant == entrant)
        message_keys_of(decision, seen)
        if decision.complete:
            return partial
        field = decision.fields[0]
        checked = RULESET.validate(state, entrant, set_path(partial, field.path, rng.choice(field.choices).value))
        partial = checked.order
        if checked.complete:
            return partial
    raise AssertionError("the decision never completed")


def play_collecting(
    stage: str | None, options: dict[str, Any], people: int, bots: list[str], seed: int, seen: Seen
) -> None:
    """Play a race: people choose from the fields (every third order left to the absent-player rule), strategies
    play theirs, bad orders are tried at every step; every message met goes into ``seen``."""
    rng = random.Random(seed)
    humans = [Entrant(id=f"p{n}", name=f"P{n}") for n in range(people)]
    humans += [Entrant(id=f"b{n}", name=f"B{n}", bot=bot) for n, bot in enumerate(bots)]
    entrants = RULESET.default_entrants(humans, options)
    state, events = RULESET.start_race(stage, options, entrants, seed)
    message_keys_of(events, seen)
    seats = {e.id: e for e in entrants}
    for who in ("nobody", *(e.id for e in entrants if e.bot in ("peloton", "muscle"))):
        refusal_keys(state, who, seen)
    for step in range(400):
        if RULESET.finished(state):
            break
        orders: dict[str, Order] = {}
        for decision in RULESET.awaited(state):
            who = decision.entrant
            message_keys_of(decision, seen)
            refusal_keys(state, who, seen)
            if seats[who].bot is not None:
                orders[who] = RULESET.auto_order(state, who, None, seats[who].bot)
            elif step % 3 == 2:
                orders[who] = RULESET.auto_order(state, who, None, None)
            else:
                orders[who] = walk_parts(state, who, rng, seen)
        state, events = RULESET.resolve(state, orders)
        message_keys_of(events, seen)
    assert RULESET.finished(state)
    result = RULESET.result(state)
    for column in result.columns:
        message_keys_of(column.label, seen)
        message_keys_of(list(column.words.values()), seen)
    message_keys_of(result.notes, seen)


@cache
def everything_seen() -> Seen:
    """The messages of whole races of every phase and variant (with refusals and absent players), the rules
    summary, and every preset's summary, label and stage board."""
    seen = Seen()
    for seed, (stage, options, people, bots) in enumerate(RACES, start=11):
        play_collecting(stage, options, people, bots, seed, seen)
    message_keys_of(RULESET.summary(), seen)
    for preset in RULESET.presets():
        message_keys_of(preset.summary, seen)
        message_keys_of(preset.label, seen)
        message_keys_of(RULESET.stage_board(preset.name, {}), seen)
    return seen


def test_every_key_a_race_emits_is_listed() -> None:
    """Whole races of every phase and variant, with refusals and absent players, emit only listed keys (the
    words nested in other messages' parameters included)."""
    seen = everything_seen().keys
    assert sorted(seen - RULESET.message_keys()) == []
    assert all(key.startswith("fr.") for key in seen)
    # The races reach far: refusals, every phase's prompts, the Breakaway, the bot teams' cards, and the words
    # nested in parameters (rider types, terrains, colours, the special cards' names).
    reached = ("fr.bad_text", "fr.not_entrant", "fr.bot_team", "fr.bid", "fr.breakaway", "fr.peloton_card")
    nested = ("fr.rider.rouleur", "fr.rider.sprinteur", "fr.terrain.flat", "fr.colour.blue", "fr.card.attack")
    for key in (*reached, *nested):
        assert key in seen, key


_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_IDS = re.compile(r"^[a-z0-9-]+(, [a-z0-9-]+)*$")
NOTATION: dict[str, re.Pattern[str]] = {
    "rider": _ID,
    "entrant": _ID,
    "who": _ID,
    "riders": _ID,
    "names": _IDS,
    "free": _IDS,
    "hand": re.compile(r"^\d+(, \d+)*$"),
}
"""String parameters that hold the game's notation (rider ids ``blue-s``, entrant ids, a hand's values
``3, 4, 7``), by parameter name. Any other string parameter may hold only digits (a card's value ``5``)."""

VERBATIM: dict[str, set[str]] = {
    "fr.bad_text": {"word"},
    "fr.bad_rider": {"value"},
    "fr.bad_bid_rider": {"value"},
    "fr.info.rejected": {"card"},
    "fr.stage_board": {"name", "profile", "terrain", "lanes"},
}
"""Parameters shown as they are, by message key: what the player typed (echoed back), the stage's name and
its drawing in the stage board's own notation (whose legend is in the template)."""

DATA_LISTS = {"riders"}
"""List parameters that are event data only (the ids of ``fr.exhaustion``; its sentence reads ``names``). Any
other list is a list of messages, which a front end renders one by one and joins."""


def english_params(message: Message) -> list[str]:
    """The parameters of ``message`` whose strings hold words rather than notation or numbers, and its lists
    that are not lists of messages."""
    bad = []
    for name, value in message.params.items():
        if name in VERBATIM.get(message.key, ()):
            continue
        if isinstance(value, list) and name not in DATA_LISTS and not all(isinstance(v, Message) for v in value):
            bad.append(f"{message.key}: {name}={value!r}")
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and not (item.isdigit() or (name in NOTATION and NOTATION[name].match(item))):
                bad.append(f"{message.key}: {name}={item!r}")
    return bad


def test_no_message_parameter_is_english() -> None:
    """No message a race emits carries English words in a parameter: a word is a nested message of its own, so a
    translator reaches it; strings are numbers, ids, or what the player typed."""
    found = {bad for message in everything_seen().messages for bad in english_params(message)}
    assert sorted(found) == []


def test_the_check_of_parameters_catches_english() -> None:
    """A rider type, a terrain, a card's name or a hand line written in English is caught; ids and numbers pass."""
    assert english_params(message_of("fr.prompt.card", {"rider": "Rouleur"}, "")) != []
    assert english_params(message_of("fr.move", {"rider": "blue-r", "card": "Attack!"}, "")) != []
    assert english_params(message_of("fr.info.rider", {"terrain": "ascent"}, "")) != []
    assert english_params(message_of("fr.info.hand", {"cards": ["2 (exhaustion)", "5"]}, "")) != []
    assert english_params(message_of("fr.info.hand", {"cards": [2, 5]}, "")) != []  # a list of messages, or no list
    assert english_params(message_of("fr.not_your_rider", {"mine": "Rouleur, Sprinteur"}, "")) != []
    assert english_params(message_of("fr.rider_taken", {"rider": "blue-s", "free": "red-r, pink-s"}, "")) == []
    assert english_params(message_of("fr.bad_card", {"hand": "3, 4, 7"}, "")) == []
    assert english_params(message_of("fr.move", {"rider": "black-p1", "card": "9"}, "")) == []


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

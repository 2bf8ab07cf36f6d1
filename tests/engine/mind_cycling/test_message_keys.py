"""message_keys() lists every key Mind Cycling says: in seeded races, and in its own source."""

from __future__ import annotations

import ast
import random
import re
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


def nested(message: Message) -> list[Message]:
    """``message`` and every message nested in its parameters (a parameter may be a message or a list of them)."""
    found = [message]
    for value in message.params.values():
        for inner in value if isinstance(value, list) else [value]:
            if isinstance(inner, Message):
                found += nested(inner)
    return found


def messages_in(value: Any) -> list[Message]:
    """Every message inside a decision, an event, a result or a list of them, nested ones included."""
    return [n for m in _messages_in(value) for n in nested(m)]


def _messages_in(value: Any) -> list[Message]:
    if isinstance(value, Message):
        return [value]
    if isinstance(value, Decision):
        found = [value.prompt, *value.info]
        for f in value.fields:
            found += [f.label, *([f.group] if f.group else [])]
            for c in f.choices:
                found += _messages_in(c.label) + _messages_in(c.hint)
        return found
    if isinstance(value, Result):
        found = [*value.notes, *(c.label for c in value.columns), *(w for c in value.columns for w in c.words.values())]
        for s in value.standings:
            found += _messages_in(list(s.figures.values()))
        return found
    if isinstance(value, (list, tuple)):
        return [m for v in value for m in _messages_in(v)]
    return []


def play(options: dict[str, Any], players: int, stage: Any, seed: int, said: set[str], spoken: list[Message]) -> None:
    """A seeded race where the humans give orders field by field, leave them to the rules or to a bot, and
    first send a refused order; every key said along the way goes to ``said``, every message to ``spoken``."""
    rnd = random.Random(seed)
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", bot=None if i < 2 else "opportunist") for i in range(players)]
    race = Race.start("mind_cycling", entrants, seed, stage=stage, options=options)
    said.update(e.kind for e in race.opening)
    spoken += messages_in([e.message for e in race.opening])
    for _ in range(800):
        if race.finished:
            break
        orders: dict[str, Any] = {}
        for d in race.awaited():
            spoken += messages_in(d)
            said.update(m.key for m in messages_in(d))
            if race.entrants[d.entrant].bot is not None:
                continue
            for bad in rnd.sample(BAD_ORDERS, 4):
                try:
                    race.ruleset.validate(race.state, d.entrant, bad)
                except OrderError as exc:
                    spoken += nested(exc.message)
                    said.update(m.key for m in nested(exc.message))
            way = rnd.choice(("fields", "auto", "bot"))
            if way == "auto":
                orders[d.entrant] = race.absent_order(d.entrant)
            elif way == "bot":
                orders[d.entrant] = race.ruleset.auto_order(race.state, d.entrant, None, "steady")
            else:
                orders[d.entrant] = by_fields(race, d.entrant, rnd, said)
        for e in race.play_step(orders).events:
            spoken += nested(e.message)
            said.update([e.kind, *(m.key for m in nested(e.message))])
        spoken += messages_in(race.result())
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


@pytest.fixture(scope="module")
def races() -> tuple[set[str], list[Message]]:
    """The keys said and the messages spoken in two seeded races of each kind of :data:`RACES`."""
    said: set[str] = set()
    spoken: list[Message] = []
    for n, (options, players, stage) in enumerate(RACES):
        for seed in (1, 2):
            play(options, players, stage, 10 * n + seed, said, spoken)
    return said, spoken


def test_every_key_said_in_seeded_races_is_listed(races: tuple[set[str], list[Message]]) -> None:
    """Prompts, fields, choices, info, refusals, events, columns, medals and notes of eight kinds of race,
    and the messages nested in their parameters (a reason, an action's word, the part of a text order)."""
    said = set(races[0])
    for preset in RULESET.presets():
        said.update(m.key for m in messages_in([preset.summary, preset.label, preset.title]))
        said.add(RULESET.stage_board(preset.name, {}).key)
    said.add(RULESET.stage_board({"rocks": 0, "supply_spaces": 0}, {}).key)
    said.add(RULESET.summary().key)
    keys = RULESET.message_keys()
    assert said - keys == set()
    assert all(k.startswith("mc.") for k in said)
    # The races say most of what the system can say (a key never said here is still listed by the scan below).
    assert len(said) >= 0.8 * len(keys), sorted(keys - said)


NAMES = {"who", "giver", "receiver", "leader", "waiting", "board", "finish", "start"}
"""Parameters that hold names (``P1 #3``: a player's name and a cyclist's number) or the course's drawing
(its rows and its finish and start lines: marks only, checked below)."""

PLAYERS_WORDS = {
    ("mc.bad_action", "action"),
    ("mc.bad_word", "action"),
    ("mc.bad_word", "word"),
    ("mc.bad_cyclist", "token"),
    ("mc.bad_step", "step"),
    ("mc.bad_key", "keys"),
    ("mc.bad_intent_key", "keys"),
    ("mc.bad_order", "got"),
    ("mc.where.line", "line"),
    ("mc.where.cyclist", "name"),
}
"""(key, parameter): what the player wrote, quoted back to them as they wrote it."""

NOTATION = re.compile(r"[0-9#,;\s]*|p\d+#\d+|F|FL|FR")
"""The system's notation: numbers, ``#3``, lists of them, a cyclist's key ``p0#3`` and a path step."""


def english_params(message: Message) -> list[tuple[str, str, str]]:
    """(key, parameter, value) of each string parameter of ``message`` that may hold a word of English:
    not a name, not the player's own words, not notation."""
    found = []
    for name, value in message.params.items():
        for inner in value if isinstance(value, list) else [value]:
            if not isinstance(inner, str) or name in NAMES or (message.key, name) in PLAYERS_WORDS:
                continue
            if not NOTATION.fullmatch(inner):
                found.append((message.key, name, inner))
    return found


def test_no_message_parameter_holds_english_words(races: tuple[set[str], list[Message]]) -> None:
    """A reason, an action, a 'none' or a 'Line 2' travels as a message of its own, so a translator reaches it:
    the parameters of every message the races say (nested ones included) are names, numbers or notation."""
    said, spoken = races
    assert len(spoken) > 1000 and {"mc.fallback", "mc.where.line", "mc.action.wheel"} <= said
    assert sorted({found for m in spoken for found in english_params(m)}) == []


def test_the_stage_boards_words_are_in_their_templates_and_the_drawing_holds_none() -> None:
    """FINISH, START and the legend are the template's (a translator reaches them); the drawing is marks only."""
    boards = [RULESET.stage_board(p.name, {}) for p in RULESET.presets()]
    boards.append(RULESET.stage_board({"rocks": 0, "supply_spaces": 0}, {}))
    for board in boards:
        assert english_params(board) == []
        assert all(not re.search(r"[A-Za-z]{2,}", str(v)) for v in board.params.values()), board.key
        assert board.text.startswith("  FINISH ====") and "   START ----" in board.text


def test_the_check_for_english_words_catches_a_word_and_passes_notation() -> None:
    """A reason as a plain string is caught; a cyclist's key, a list of numbers and a name are not."""
    reason = Message("mc.fallback", {"who": "P1 #2", "cyclist": "p1#2", "why": "a fatigued domestique can't"}, "")
    assert english_params(reason) == [("mc.fallback", "why", "a fatigued domestique can't")]
    fine = Message("mc.x", {"road": "#1, #3", "to": "p0#3", "step": "FL", "n": 2, "order": ["p0#1", "p1#2"]}, "")
    assert english_params(fine) == []
    assert english_params(Message("mc.not_on_road", {"road": "none"}, "")) == [("mc.not_on_road", "road", "none")]


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

"""The light interface objects are built by position in a few factories: their field order is pinned here.

Calling a dataclass by keyword costs about twice as much, so the hot paths build messages, events and
decisions by position, but only through the factories beside the classes (``engine.messages``,
``engine.ruleset``) and Flamme Rouge's ``copy`` methods. Reordering a class's fields would silently swap
values there (a Decision's two adjacent booleans): this test fails first.
"""

from __future__ import annotations

import dataclasses

from engine.flamme_rouge.state import RaceState, Rider
from engine.messages import Message, event, message_of, msg
from engine.ruleset import (
    Choice,
    Decision,
    Event,
    InputField,
    Validated,
    choice,
    choice_field,
    decision,
    validated,
)


def names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


def test_the_field_order_the_factories_rely_on() -> None:
    """Message, Event, Choice, InputField, Decision, Validated, and Flamme Rouge's Rider and RaceState."""
    assert names(Message) == ["key", "params", "text"]
    assert names(Event) == ["kind", "data", "message"]
    assert names(Choice) == ["value", "label", "hint"]
    assert names(InputField) == ["path", "label", "kind", "choices", "minimum", "maximum", "required", "group"]
    assert names(Decision) == [
        "entrant",
        "kind",
        "prompt",
        "fields",
        "partial",
        "complete",
        "required",
        "example",
        "info",
    ]
    assert names(Validated) == ["order", "complete"]
    assert names(Rider) == [
        "id",
        "team",
        "kind",
        "owner",
        "bot",
        "deck",
        "recycled",
        "square",
        "lane",
        "exhaustion",
        "crossed",
        "past",
        "off",
        "breakaway",
    ]
    assert names(RaceState)[:16] == [
        "stage",
        "options",
        "entrants",
        "seed",
        "rng",
        "track",
        "large",
        "weather",
        "phase",
        "round",
        "turn_order",
        "riders",
        "bid_round",
        "cursor",
        "bids",
        "hands",
    ]
    assert names(RaceState)[16:] == ["teams", "fixed", "cache"]


def test_the_factories_put_each_value_in_its_field() -> None:
    """Each factory's result equals the object built by keyword."""
    prompt = msg("k", "Round {n}", n=3)
    assert prompt == Message(key="k", params={"n": 3}, text="Round 3")
    assert message_of("k", {"n": 3}, "Round 3") == prompt
    moved = msg("fr.move", "Round {n}", n=3)
    assert event("fr.move", "Round {n}", n=3) == Event(kind="fr.move", data={"n": 3}, message=moved)
    assert choice(5, prompt) == Choice(value=5, label=prompt, hint=None)
    assert choice_field(["cards", "r"], prompt, []) == InputField(
        path=["cards", "r"], label=prompt, kind="choice", choices=[]
    )
    assert decision("anna", "energy", prompt, [], {}, complete=True, example="r5", required=False) == Decision(
        entrant="anna", kind="energy", prompt=prompt, complete=True, required=False, example="r5"
    )
    assert validated({"card": 5}, False) == Validated(order={"card": 5}, complete=False)


def test_a_copied_rider_and_state_equal_their_originals() -> None:
    """copy() (by position) copies every field into its own place."""
    from engine.flamme_rouge import RULESET
    from engine.ruleset import Entrant

    state = RULESET.new_race(None, {}, [Entrant(id="a", name="A"), Entrant(id="b", name="B")], 4)
    for rider in state.riders:
        twin = rider.copy()
        assert [getattr(twin, n) for n in names(Rider)] == [getattr(rider, n) for n in names(Rider)]
    copy = state.copy()
    for n in names(RaceState):
        if n not in ("cache",):
            assert getattr(copy, n) == getattr(state, n), n


def test_the_one_event_factory_says_what_its_data_hold() -> None:
    """An event's message has the kind as key and the data as parameters, whatever the system."""

    made = event("wk.penalty", "{rider} loses {minutes} minutes.", rider="A", minutes=2)
    assert made == Event(
        kind="wk.penalty",
        data={"rider": "A", "minutes": 2},
        message=Message(key="wk.penalty", params={"rider": "A", "minutes": 2}, text="A loses 2 minutes."),
    )
    unhashable = event("mc.train", "Train of {cyclists}.", cyclists=["a", "b"])
    assert unhashable.message.text == "Train of ['a', 'b']." and unhashable.data == {"cyclists": ["a", "b"]}
    again = event("wk.penalty", "{rider} loses {minutes} minutes.", rider="A", minutes=2)
    assert again == made and again.data is not made.data, "each event owns its data"


def test_an_events_english_text_is_exactly_what_str_format_gives() -> None:
    """The compiled templates of event() say what str.format says: specs, conversions, quotes, braces, keywords."""

    cases: list[tuple[str, dict[str, object]]] = [
        ("{rider} plays {card} and moves from {from} to {to}.", {"rider": "a", "card": "5", "from": 3, "to": 8}),
        ("It's {who}'s \"turn\" {{not a field}} {n:>3} {v!r} a\\b", {"who": "ann", "n": 7, "v": "x"}),
        ("no field at all", {}),
        ("{x:{w}} nested", {"x": 3, "w": 4}),
        ("{names} take an exhaustion card.", {"names": "a, b", "riders": ["a", "b"]}),
    ]
    for text, data in cases:
        assert event("fr.x", text, **data).message.text == text.format(**data)


def test_one_kind_worded_by_case_keeps_its_kind_and_gets_the_wordings_key() -> None:
    """A Gancio that missed is still a td.gancio event, its sentence the key td.gancio.missed."""
    missed = event("td.gancio", "{rider} reaches for {target} and misses.", "td.gancio.missed", rider="A", target="B")
    assert missed.kind == "td.gancio" and missed.data == {"rider": "A", "target": "B"}
    assert missed.message == Message("td.gancio.missed", {"rider": "A", "target": "B"}, "A reaches for B and misses.")

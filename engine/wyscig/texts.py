"""The words a player reads outside events and refusals: the card buttons, the presets' summaries and
label, the stage board and the rules summary. Each is a :class:`~engine.messages.Message` (a stable ``wk.``
key, its parameters and the English text), so a translator reaches it; counted words use
:func:`~engine.messages.plural`.

Keys are written whole, as literals (never built by formatting), so that the test of
:func:`engine.wyscig.keys.message_keys` finds every one of them in the source.
"""

from __future__ import annotations

from typing import Any

from engine.messages import Message, message_of, plural
from engine.wyscig.deck import DeckPreset

# --- choice labels ---------------------------------------------------------------------------------------
_CARD_TEXTS = {v: str(v) for v in range(39, 51)}


def card_label(card: int) -> Message:
    """A speed card as its button shows it: its value (``47``); the hint beside it says what it would do."""
    return message_of("wk.label.card", {"card": card}, _CARD_TEXTS.get(card) or str(card))


def descents_label(count: int) -> Message:
    """A number of descent cards as its button shows it: what it adds ("No descent", "1 descent: +2 km/h")."""
    if count == 0:
        return message_of("wk.label.no_descent", {}, "No descent")
    return plural(
        "wk.label.descents", count, "{count} descent: +{plus} km/h", "{count} descents: +{plus} km/h", plus=2 * count
    )


# --- presets ---------------------------------------------------------------------------------------------
_PRESET_KEYS = {
    "itemised_108": "wk.preset.summary.itemised_108",
    "total_102": "wk.preset.summary.total_102",
    "classic_96": "wk.preset.summary.classic_96",
}
"""One summary per deck of D1; its English template is the deck's ``summary`` in ``data/decks.json``."""


def preset_summary(name: str, deck: DeckPreset, stages: int) -> Message:
    """A preset's line in a listing: the deck's size and make-up, the race's stages and the most players."""
    template = deck.summary
    return plural(
        _PRESET_KEYS[name],
        stages,
        template.replace("{count} stages", "{count} stage"),
        template,
        cards=deck.size,
        per_speed=deck.per_speed,
        low=deck.speed_values[0],
        high=deck.speed_values[-1],
        climbs=deck.climbs,
        descents=deck.descents,
        players=deck.max_players,
    )


_PRESET_TITLES = {
    "itemised_108": ("wk.preset.title.itemised_108", "Itemised deck, 108 cards"),
    "total_102": ("wk.preset.title.total_102", "Card-count deck, 102 cards"),
    "classic_96": ("wk.preset.title.classic_96", "German edition deck, 96 cards"),
}


def preset_title(name: str) -> Message | None:
    """A deck preset as players read its name (``itemised_108`` -> "Itemised deck, 108 cards")."""
    found = _PRESET_TITLES.get(name)
    return message_of(found[0], {}, found[1]) if found else None


def default_label() -> Message:
    """The label of the preset a race gets when nobody chooses, shown beside its name (``[default]``)."""
    return message_of("wk.preset.label.default", {}, "default")


# --- the stage board ---------------------------------------------------------------------------------------
_BOARD = "{count} {stages} · {deck}: {per_speed} of each speed {low}-{high}, {climbs} climbs, {descents} descents."


def stage_board(deck_name: str, deck: DeckPreset, stages: int) -> Message:
    """The ground of a race as text: how many stages, and the deck every stage is dealt from (D1, D2), by
    the name players read ("Itemised deck, 108 cards"; a deck without a title by its own name)."""
    return plural(
        "wk.stage_board",
        stages,
        _BOARD.replace("{stages}", "stage"),
        _BOARD.replace("{stages}", "stages"),
        deck=preset_title(deck_name) or deck_name,
        cards=deck.size,
        per_speed=deck.per_speed,
        low=deck.speed_values[0],
        high=deck.speed_values[-1],
        climbs=deck.climbs,
        descents=deck.descents,
    )


# --- the rules summary -------------------------------------------------------------------------------------
_SUMMARY = (
    "Wyścig kolarski: a card race over several stages. On your turn draw a 7th card and play one "
    "speed card (39-50 km/h), with any number of descents (+2 each). Beat the leader's speed while "
    "free of penalty minutes to take the yellow token; stay within 2 km/h to ride in the peloton; "
    "further behind costs a minute per km/h, which you win back by playing above the leader. "
    "A climb removes the tolerance and forbids overtaking. The yellow token wins the stage (57 min), "
    "the peloton records 60, the others 60 + minutes; the lowest total time wins."
)


def summary() -> Message:
    """The rules in a paragraph (``gregario rules``, ``/rules``)."""
    return message_of("wk.summary", {}, _SUMMARY)


# --- words inside other messages (nested messages: a translator reaches each) -------------------------------
def hand(speeds: list[int], descents: int) -> Message:
    """A hand the way a player reads it: ``39, 44, 47 and 2 descents`` (the ``hand`` of a refusal or info).

    The speed values are notation; the words around them are a key's own, one key per case."""
    values = ", ".join(str(v) for v in sorted(speeds))
    if speeds and descents:
        return plural(
            "wk.cards.speeds_descents",
            descents,
            "{speeds} and 1 descent",
            "{speeds} and {count} descents",
            speeds=values,
        )
    if speeds:
        return message_of("wk.cards.speeds", {"speeds": values}, values)
    if descents:
        return plural(
            "wk.cards.descents_only", descents, "no speed card and 1 descent", "no speed card and {count} descents"
        )
    return message_of("wk.cards.none", {}, "no speed card")


def not_dealt() -> Message:
    """The hand of somebody who holds no seat in the race (a refusal names it)."""
    return message_of("wk.cards.not_dealt", {}, "not dealt")


def shown(card: int, descents: int, speed: int, on_climb: bool) -> Message:
    """A card as the table sees it played: ``47``, ``47 + 2 descents = 51``, ``47 (45 on the climb)``.

    D8: on a climb the speed it counts as is shown, never computed, so it is a parameter (``climb_speed``)."""
    climb_speed = speed - 2
    if descents:
        if on_climb:
            return plural(
                "wk.shown.climb_descents",
                descents,
                "{card} + 1 descent = {speed} ({climb_speed} on the climb)",
                "{card} + {count} descents = {speed} ({climb_speed} on the climb)",
                card=card,
                speed=speed,
                climb_speed=climb_speed,
            )
        return plural(
            "wk.shown.descents",
            descents,
            "{card} + 1 descent = {speed}",
            "{card} + {count} descents = {speed}",
            card=card,
            speed=speed,
        )
    if on_climb:
        return message_of(
            "wk.shown.climb_card",
            {"card": card, "speed": speed, "climb_speed": climb_speed},
            f"{card} ({climb_speed} on the climb)",
        )
    return message_of("wk.shown.card", {"card": card, "speed": speed}, str(card))


def clock(minutes: int) -> str:
    """A race time kept in minutes as players read it: hours and minutes (``6:44``), the notation of
    docs/message-style.md; a plain parameter, the same in every language."""
    hours, rest = divmod(minutes, 60)
    return f"{hours}:{rest:02d}"


def lap_card(name: str, speed: int, outcome: str, blocked: bool, minutes: int) -> Message:
    """One card of the lap line: "Anna 47 (leader)", "Carla 42 +5 min", "Bob 46" (one key per outcome)."""
    params: dict[str, Any] = {"name": name, "speed": speed}
    if outcome == "give_back":
        params["minutes"] = -minutes
        return message_of("wk.lap.give_back", params, f"{name} {speed} −{-minutes} min")
    if blocked:
        return message_of("wk.lap.blocked", params, f"{name} {speed} (no overtaking)")
    if outcome == "pace":
        return message_of("wk.lap.pace", params, f"{name} {speed} (leader)")
    if outcome == "lead":
        return message_of("wk.lap.lead", params, f"{name} {speed} (takes the lead)")
    if outcome == "penalty":
        params["minutes"] = minutes
        return message_of("wk.lap.penalty", params, f"{name} {speed} +{minutes} min")
    return message_of("wk.lap.peloton", params, f"{name} {speed}")


def lap(cards: list[Message]) -> Message | None:
    """The lap line: its cards one after the other ("Anna 47 (leader) · Bob 46"), each pair a message
    (``wk.lap.then``) so that a translator chooses the separator; None before the first card."""
    if not cards:
        return None
    line = cards[0]
    for card in cards[1:]:
        line = message_of("wk.lap.then", {"before": line, "card": card}, f"{line} · {card}")
    return line


def names(shared: list[str]) -> Message:
    """The riders who share first place: "Anna and Bob", "Anna, Bob and Carla" (display names are notation)."""
    first = ", ".join(shared[:-1])
    return message_of("wk.names.and", {"names": first, "last": shared[-1]}, f"{first} and {shared[-1]}")


# --- what pydantic says of a field of an order (``wk.bad_field``'s ``problem``) ------------------------------
def field_problem(kind: str, text: str) -> Message:
    """A field of a JSON order pydantic refused: a key per kind of problem; the English is pydantic's own."""
    if kind == "extra_forbidden":
        return message_of("wk.problem.unknown_field", {}, text)
    if kind == "value_error":
        return message_of("wk.problem.boolean", {}, text)
    return message_of("wk.problem.number", {}, text)

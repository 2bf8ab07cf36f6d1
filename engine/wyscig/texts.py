"""The words a player reads outside events and refusals: the card buttons, the presets' summaries and
label, the stage board and the rules summary. Each is a :class:`~engine.messages.Message` (a stable ``wk.``
key, its parameters and the English text), so a translator reaches it; counted words use
:func:`~engine.messages.plural`.

Keys are written whole, as literals (never built by formatting), so that the test of
:func:`engine.wyscig.keys.message_keys` finds every one of them in the source.
"""

from __future__ import annotations

from engine.messages import Message, message_of, plural
from engine.wyscig.deck import DeckPreset

# --- choice labels ---------------------------------------------------------------------------------------
_CARD_TEXTS = {v: str(v) for v in range(39, 51)}


def card_label(card: int) -> Message:
    """A speed card as its button shows it: its value (``47``); the hint beside it says what it would do."""
    return message_of("wk.label.card", {"card": card}, _CARD_TEXTS.get(card) or str(card))


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


def default_label() -> Message:
    """The label of the preset a race gets when nobody chooses, shown beside its name (``[default]``)."""
    return message_of("wk.preset.label.default", {}, "default")


# --- the stage board ---------------------------------------------------------------------------------------
_BOARD = (
    "{count} {stages} with the {deck} deck ({cards} cards): {per_speed} of each speed {low}-{high}, "
    "{climbs} climbs, {descents} descents."
)


def stage_board(deck_name: str, deck: DeckPreset, stages: int) -> Message:
    """The ground of a race as text: how many stages, and the deck every stage is dealt from (D1, D2)."""
    return plural(
        "wk.stage_board",
        stages,
        _BOARD.replace("{stages}", "stage"),
        _BOARD.replace("{stages}", "stages"),
        deck=deck_name,
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

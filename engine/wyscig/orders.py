"""Orders: the text syntax of §8.2 (``play 47``, ``play 50 +2``) and checking a turn against the hand.

Every refusal names what is wrong in the player's terms and what to do instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from engine.messages import OrderError, plural
from engine.ruleset import Order, Validated
from engine.wyscig import texts
from engine.wyscig.deck import MAX_SPEED, MIN_SPEED
from engine.wyscig.models import CardPlay
from engine.wyscig.state import RaceState

_PLAY = re.compile(r"^\s*(?:play\s*)?(\d+)\s*(?:\+\s*(\d+))?\s*$", re.IGNORECASE)
_HAND = re.compile(r"^\s*hand\s*$", re.IGNORECASE)
_NO_CARD = re.compile(r"^\s*play\s*(?:\+\s*\d*)?\s*$", re.IGNORECASE)
_NO_COUNT = re.compile(r"^\s*(?:play\s+)?\d+\s*\+\s*$", re.IGNORECASE)
_TWO_CARDS = re.compile(r"^\s*(?:play\s+)?\d+(?:\s*,?\s+\d+)+\s*(?:\+\s*\d+)?\s*$", re.IGNORECASE)


def parse_text(state: RaceState, entrant: str, text: str) -> Order:
    """``play 47`` -> ``{"card": 47, "descents": 0}``; ``play 50 +2`` -> two descent cards."""
    if _HAND.match(text):
        player = state.player(entrant)
        raise OrderError.of(
            "wk.hand",
            "Your hand: {hand}. To play, write play {example}.",
            hand=texts.hand(player.speeds, player.descents),
            example=player.speeds[0] if player.speeds else 47,
        )
    if not text.strip():
        raise OrderError.of("wk.empty", "Choose a card to play: write play 47, or play 50 +2 to add two descent cards.")
    match = _PLAY.match(text)
    if not match:
        raise _syntax_error(state, entrant, text.strip())
    return {"card": int(match.group(1)), "descents": int(match.group(2) or 0)}


def _syntax_error(state: RaceState, entrant: str, text: str) -> OrderError:
    """The most specific advice for unreadable text: what is missing, or what is one too many."""
    if _NO_CARD.match(text):
        player = state.players.get(entrant)
        hand = texts.hand(player.speeds, player.descents) if player else texts.not_dealt()
        return OrderError.of(
            "wk.syntax_no_card",
            "Which speed card? Your hand is {hand}: write play 47, or play 50 +2 to add two descent cards.",
            hand=hand,
            order=text,
        )
    if _NO_COUNT.match(text):
        return OrderError.of(
            "wk.syntax_no_count",
            "Say how many descent cards after the +: play 50 +1 adds one descent card (+2 km/h).",
            order=text,
        )
    if _TWO_CARDS.match(text):
        return OrderError.of(
            "wk.syntax_two_cards",
            "You play one speed card per turn: write play 47 (descents go after a +, like play 50 +2).",
            order=text,
        )
    return OrderError.of(
        "wk.syntax",
        "I can't read \u201c{order}\u201d: write play 47, or play 50 +2 to add two descent cards.",
        order=text,
    )


def as_order(state: RaceState, entrant: str, order: Order | str) -> Order:
    """The order as a JSON object, text syntax parsed (the driver has taken the bookkeeping keys out)."""
    if type(order) is dict and "text" not in order:
        return dict(order)  # the usual JSON object, without the costlier checks below
    if isinstance(order, str):
        return parse_text(state, entrant, order)
    if not isinstance(order, Mapping):
        raise _not_an_order(order)
    if "text" in order:
        text = order["text"]
        if not isinstance(text, str):
            raise OrderError.of("wk.syntax_type", "A text order must be a string, like play 47.")
        return parse_text(state, entrant, text)
    return dict(order)


def _not_an_order(order: object) -> OrderError:
    """A bare number, list or null where an order belongs (a front end or record written by hand)."""
    return OrderError.of(
        "wk.not_an_order",
        "{order} is not an order: send the text play 47 (or play 50 +2), or an object like "
        '{{"card": 47, "descents": 0}}.',
        order=repr(order),
    )


def check_turn(state: RaceState, entrant: str) -> None:
    """Only the player whose turn it is may order (turns are sequential, §4)."""
    if state.finished or state.turn is None:
        raise OrderError.of("wk.finished", "The race is over: there is nothing left to play.")
    if entrant not in state.players:
        raise OrderError.of("wk.not_entrant", "{entrant} is not riding in this race.", entrant=entrant)
    if entrant != state.turn:
        raise OrderError.of(
            "wk.not_your_turn",
            "It's not your turn: {name} is to play.",
            name=state.player(state.turn).name,
            turn=state.turn,
        )


def check_order(
    state: RaceState, entrant: str, order: Order | str, previous: Order | None = None
) -> tuple[Order, bool]:
    """The merged, normalised order and whether it is complete; raises ``OrderError``."""
    if type(order) is not dict and not isinstance(order, (str, Mapping)):
        raise _not_an_order(order)
    text = order if isinstance(order, str) else order.get("text")
    if isinstance(text, str) and _HAND.match(text) and entrant in state.players:
        parse_text(state, entrant, text)  # `hand` answers at any time, not only on your turn (§8.1)
    check_turn(state, entrant)
    merged: dict[str, Any] = as_order(state, entrant, previous) if previous else {}
    merged.update(as_order(state, entrant, order))
    card, descents = _card_play(merged)
    player = state.player(entrant)
    if card is not None and card not in player.speeds:
        hand = texts.hand(player.speeds, player.descents)
        if not MIN_SPEED <= card <= MAX_SPEED:
            raise OrderError.of(
                "wk.no_such_card",
                "There is no {card} card: speed cards go from 39 to 50. Your hand is {hand}.",
                card=card,
                hand=hand,
            )
        raise OrderError.of("wk.card_not_in_hand", "You hold no {card}: your hand is {hand}.", card=card, hand=hand)
    if descents is not None:
        if descents < 0:
            raise OrderError.of(
                "wk.negative_descents", "You can't play {descents} descent cards: 0 or more.", descents=descents
            )
        if descents > player.descents:
            raise OrderError(
                plural(
                    "wk.too_many_descents",
                    player.descents,
                    "You hold 1 descent card: you can't add {descents}. Your hand is {hand}.",
                    "You hold {count} descent cards: you can't add {descents}. Your hand is {hand}.",
                    held=player.descents,
                    descents=descents,
                    hand=texts.hand(player.speeds, player.descents),
                )
            )
    normal: Order = {}
    if card is not None:
        normal["card"] = card
        normal["descents"] = descents or 0
    elif descents is not None:
        normal["descents"] = descents
    return normal, card is not None


_FIELDS = frozenset(CardPlay.model_fields)


def _card_play(merged: dict[str, Any]) -> tuple[int | None, int | None]:
    """The card and descents of an order object, as :class:`CardPlay` reads them; raises ``OrderError``.

    An object of plain integers (or nulls) under the model's own keys -- what every panel, bot and record
    sends -- is read directly: the model would accept it as it is. Anything else (a number as text, a
    float, an unknown key, ``true``) goes through the model, which accepts or names the problem."""
    card, descents = merged.get("card"), merged.get("descents")
    if (
        (card is None or type(card) is int)
        and (descents is None or type(descents) is int)
        and _FIELDS.issuperset(merged)
    ):
        return card, descents
    try:
        model = CardPlay.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "order"
        raise OrderError.of(
            "wk.bad_field",
            "The order's {field} is not right ({problem}): send a card and a number of descents, like play 50 +1.",
            field=field,
            problem=texts.field_problem(err["type"], err["msg"]),
        ) from exc
    return model.card, model.descents


def partial_of(state: RaceState, entrant: str, partial: Mapping[str, Order] | None) -> Order:
    """The entrant's part-order as validated so far (an unreadable one counts as nothing chosen)."""
    if not partial or entrant not in partial:
        return {}
    try:
        return check_order(state, entrant, partial[entrant])[0]
    except OrderError:
        return {}


def validate(state: RaceState, entrant: str, order: Order | str, previous: Order | None = None) -> Validated:
    """The order checked against the hand (merged with ``previous``), normalised, and whether it is whole."""
    normal, complete = check_order(state, entrant, order, previous)
    return Validated(order=normal, complete=complete)

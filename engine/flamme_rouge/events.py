"""Events and messages of this package, built straight from the plain JSON values made here.

The interface objects (:class:`~engine.messages.Message`, :class:`~engine.ruleset.Event`) are light slotted
dataclasses, built by position (cheaper than by keyword) through the factories beside them. The English
texts of the prompts, labels, placements, bids and Peloton cards that come back race after race are
formatted once and cached; every Message and Event is new, as it belongs to whoever it is handed to.
"""

from __future__ import annotations

from typing import Any

from engine.messages import Message, cached_msg, message_of
from engine.ruleset import Event, event_of, make_event


def message(key: str, text: str, **params: Any) -> Message:
    """A :class:`Message` (``text`` is a ``str.format`` template filled with ``params``)."""
    return message_of(key, params, text.format(**params))


shared_message = cached_msg
"""Prompts, labels and events that every race repeats: the text formatted once, the Message new."""


def event(kind: str, data: dict[str, Any], text: str, **params: Any) -> Event:
    """An :class:`Event` of ``kind`` whose message has the same key (its text cached: the same placements,
    bids and Peloton cards come back race after race)."""
    return make_event(kind, data, cached_msg(kind, text, **params))


fast_event = event_of
"""An :class:`Event` whose message parameters are its data and whose English text is already written (the
hot path: moves, slipstreams, exhaustion). The message key is the kind."""

"""Events and messages of this package, built straight from the plain JSON values made here.

The interface objects (:class:`~engine.messages.Message`, :class:`~engine.ruleset.Event`) are light slotted
dataclasses, built by position (cheaper than by keyword) through the factories beside them. The English
texts of the prompts, labels, placements, bids and Peloton cards that come back race after race are
formatted once and cached; every Message and Event is new, as it belongs to whoever it is handed to.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.messages import Message, message_of
from engine.ruleset import Event, make_event


def message(key: str, text: str, **params: Any) -> Message:
    """A :class:`Message` (``text`` is a ``str.format`` template filled with ``params``)."""
    return message_of(key, params, text.format(**params))


def shared_message(key: str, text: str, **params: Any) -> Message:
    """:func:`message` for prompts, labels and events that every race repeats: the English text is formatted
    once per key and parameters (``params`` must be hashable: names, numbers) and cached; the
    :class:`Message` itself is new each time, as it belongs to whoever it is handed to."""
    try:
        rendered = _rendered(key, text, tuple(params.items()))
    except TypeError:  # an unhashable parameter: formatted each time
        return message(key, text, **params)
    return message_of(key, params, rendered)


@lru_cache(maxsize=4096)
def _rendered(key: str, text: str, params: tuple[tuple[str, Any], ...]) -> str:
    return text.format(**dict(params))


def event(kind: str, data: dict[str, Any], text: str, **params: Any) -> Event:
    """An :class:`Event` of ``kind`` whose message has the same key (its text cached: the same placements,
    bids and Peloton cards come back race after race)."""
    return make_event(kind, data, shared_message(kind, text, **params))


def fast_event(kind: str, data: dict[str, Any], text: str) -> Event:
    """An :class:`Event` whose message parameters are its data and whose English ``text`` is already
    written (the hot path: moves, slipstreams, exhaustion). The message key is ``kind``."""
    return make_event(kind, data, message_of(kind, data, text))

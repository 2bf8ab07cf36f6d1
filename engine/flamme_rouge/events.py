"""Events and messages of this package, built straight from the plain JSON values made here.

The interface objects (:class:`~engine.messages.Message`, :class:`~engine.ruleset.Event`) are light slotted
dataclasses, built here by position (cheaper than by keyword); prompts, labels and the placements, bids and
Peloton cards that come back race after race are still built once and shared (nobody changes a Message once
made).
"""

from __future__ import annotations

from typing import Any

from engine.messages import Message
from engine.ruleset import Event


def message(key: str, text: str, **params: Any) -> Message:
    """A :class:`Message` (``text`` is a ``str.format`` template filled with ``params``)."""
    return Message(key, params, text.format(**params))


_SHARED: dict[tuple[Any, ...], Message] = {}


def shared_message(key: str, text: str, **params: Any) -> Message:
    """:func:`message`, built once and then shared: for prompts and labels, which every race repeats
    (``params`` must be hashable: names, numbers)."""
    k = (key, *params.items())
    try:
        got = _SHARED.get(k)
    except TypeError:  # an unhashable parameter: not shared
        return message(key, text, **params)
    if got is None:
        if len(_SHARED) > 4096:
            _SHARED.clear()
        got = _SHARED[k] = message(key, text, **params)
    return got


def event(kind: str, data: dict[str, Any], text: str, **params: Any) -> Event:
    """An :class:`Event` of ``kind`` whose message has the same key (a shared :class:`Message`: the same
    placements, bids and Peloton cards come back race after race)."""
    return Event(kind, data, shared_message(kind, text, **params))


def fast_event(kind: str, data: dict[str, Any], text: str) -> Event:
    """An :class:`Event` whose message parameters are its data and whose English ``text`` is already
    written (the hot path: moves, slipstreams, exhaustion). The message key is ``kind``."""
    return Event(kind, data, Message(kind, data, text))

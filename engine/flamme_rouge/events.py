"""Fast construction of the interface's pydantic objects for the hot path.

Events, messages and decisions are built here from plain JSON values made by this package, so having
pydantic validate them again (or even run ``model_construct``'s field loop) on every move of every round
would only cost time: the benchmark runs thousands of races. :func:`build` fills an instance's fields
directly; every field must be given.

Every instance of a class shares one ``__pydantic_fields_set__`` (the set of all its fields): pydantic only
ever adds a field name to it (``__setattr__``) or copies it (``model_copy``), and adding a name that is
already there changes nothing, so sharing it is safe and saves a set per object.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from engine.messages import Message
from engine.ruleset import Event

M = TypeVar("M", bound=BaseModel)
_new = object.__new__
_slots = BaseModel.__dict__
_set_fields = _slots["__pydantic_fields_set__"].__set__
_set_extra = _slots["__pydantic_extra__"].__set__
_set_private = _slots["__pydantic_private__"].__set__
_FIELDS: dict[type[BaseModel], set[str]] = {}
_MESSAGE_FIELDS = {"key", "params", "text"}
_EVENT_FIELDS = {"kind", "data", "message"}


def build(cls: type[M], values: dict[str, Any]) -> M:
    """An instance of ``cls`` holding ``values`` (all of its fields), without validation."""
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = set(cls.model_fields)
    obj: M = _new(cls)
    obj.__dict__.update(values)  # a little cheaper than replacing __dict__
    _set_fields(obj, fields)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def message(key: str, text: str, **params: Any) -> Message:
    """A :class:`Message` (``text`` is a ``str.format`` template filled with ``params``)."""
    return build(Message, {"key": key, "params": params, "text": text.format(**params)})


_SHARED: dict[tuple[Any, ...], Message] = {}


def shared_message(key: str, text: str, **params: Any) -> Message:
    """:func:`message`, built once and then shared: for prompts and labels, which every race repeats
    (``params`` must be hashable: names, numbers). Building a pydantic object costs far more than a lookup,
    and nobody changes a Message once made."""
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
    return build(Event, {"kind": kind, "data": data, "message": shared_message(kind, text, **params)})


def fast_event(kind: str, data: dict[str, Any], text: str) -> Event:
    """An :class:`Event` whose message parameters are its data and whose English ``text`` is already
    written (the hot path: moves, slipstreams, exhaustion). The message key is ``kind``."""
    msg: Message = _new(Message)
    msg.__dict__.update(key=kind, params=data, text=text)
    _set_fields(msg, _MESSAGE_FIELDS)
    _set_extra(msg, None)
    _set_private(msg, None)
    ev: Event = _new(Event)
    ev.__dict__.update(kind=kind, data=data, message=msg)
    _set_fields(ev, _EVENT_FIELDS)
    _set_extra(ev, None)
    _set_private(ev, None)
    return ev

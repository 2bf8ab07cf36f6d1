"""Typed messages: what the engine says, as a key with parameters plus an English rendering.

The engine never builds sentences the bot must parse. Every refusal, prompt and event carries a
stable ``key`` and its ``params``; the bot's translation function renders the key in the player's
language and falls back to ``text``, the English rendering the engine always provides.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter

_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(cls: type[Any]) -> TypeAdapter[Any]:
    """The pydantic adapter that serialises ``cls`` (built once per class)."""
    got = _ADAPTERS.get(cls)
    if got is None:
        got = _ADAPTERS[cls] = TypeAdapter(cls)
    return got


class Light:
    """Base of the light interface objects (slotted dataclasses, not pydantic models).

    A race builds hundreds of messages, events and decisions; a pydantic model costs several thousand
    instructions each, a slotted dataclass a few hundred. They are built by the engine from values it
    made itself (mypy checks the types), and serialised exactly as the pydantic models were:
    :meth:`model_dump` and :meth:`model_dump_json` go through a pydantic ``TypeAdapter`` of the
    dataclass, so the JSON shape is unchanged, and pydantic models may hold them as fields.
    """

    __slots__ = ()

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """The object as a dict, as ``BaseModel.model_dump`` gives it (same keyword arguments)."""
        data: dict[str, Any] = _adapter(type(self)).dump_python(self, **kwargs)
        return data

    def model_dump_json(self, **kwargs: Any) -> str:
        """The object as JSON text, as ``BaseModel.model_dump_json`` gives it."""
        return _adapter(type(self)).dump_json(self, **kwargs).decode()


@dataclass(slots=True)
class Message(Light):
    """A translatable sentence: a stable key, its parameters, and its English text.

    Every field is required. The engine builds hundreds of these a race, by position (calling a class with
    keyword arguments costs about twice as much), but only in the factories beside it (:func:`msg`,
    :func:`message_of`), whose field order a test pins."""

    key: str
    params: dict[str, Any]
    text: str

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        """A message nested in another's parameters reads as its English text in the English rendering
        (a front end renders it in the reader's language instead: ``bot.i18n.t``)."""
        return format(self.text, spec)


class Phrases(list[Message]):
    """Several messages given as one parameter (the riders a collision stopped, the reasons a move was
    refused): English reads them joined by commas; a front end renders each in the reader's language and
    joins them the same way. Serialised as a plain list of messages."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(", ".join(m.text for m in self), spec)

    def __str__(self) -> str:
        return ", ".join(m.text for m in self)


def phrases(messages: list[Message]) -> Phrases:
    """Messages as one parameter of another message (see :class:`Phrases`)."""
    return Phrases(messages)


def message_of(key: str, params: dict[str, Any], text: str) -> Message:
    """A :class:`Message` whose English ``text`` is already written, built by position (the field order is
    pinned by a test): the hot path of a rule system that writes its texts itself."""
    return Message(key, params, text)


def cached_msg(key: str, text: str, **params: Any) -> Message:
    """:func:`msg` for the sentences every race repeats (prompts, labels, common events): the English text
    is formatted once per key and parameters and cached (``params`` hashable: names, numbers); the
    :class:`Message` itself is new each time, as it belongs to whoever it is handed to."""
    try:
        rendered = _rendered(key, text, tuple(params.items()))
    except TypeError:  # an unhashable parameter: formatted each time
        rendered = text.format(**params)
    return Message(key, params, rendered)


@lru_cache(maxsize=4096)
def _rendered(key: str, text: str, params: tuple[tuple[str, Any], ...]) -> str:
    return text.format(**dict(params))


def msg(key: str, text: str, **params: Any) -> Message:
    """Build a message whose English text is ``text`` formatted with ``params``.

    ``text`` is a ``str.format`` template so that translators see the same placeholders.
    """
    return Message(key, params, text.format(**params))


@dataclass(slots=True)
class Event(Light):
    """Something that happened while resolving a step: typed data plus its English message.

    Rule systems fill ``data``; ``kind`` is stable and starts with the system's prefix (``fr.``, ``td.``,
    ``wk.``, ``mc.``). Every field is required; built by :func:`event` (a test pins the field order).
    """

    kind: str
    data: dict[str, Any]
    message: Message


def event(kind: str, text: str, worded_as: str | None = None, /, **data: Any) -> Event:
    """The one way a rule system builds an :class:`Event`: its message has the key ``kind``, the event's
    ``data`` as parameters, and ``text`` (a ``str.format`` template of them) as its English rendering.

    One factory, so every event reads the same to a front end and a translator: whatever the message
    says is in the data. A race builds hundreds of events: each template is compiled once into an f-string
    (:func:`_renderer`), so the English text costs what a hand-written f-string costs (caching the text per
    data cost more than it saved: Flamme Rouge's moves rarely repeat exactly). The Event and its Message
    are new each time.

    The optional ``worded_as`` (third, by position) gives the message a key of its own where one kind
    (what happened, stable for front ends) is worded by case (a Gancio that missed, stole or only
    hooked): each wording is then a key a translator reaches.
    """
    return Event(kind, data, Message(worded_as or kind, data, _renderer(text)(data)))


def event_of(kind: str, data: dict[str, Any], text: str) -> Event:
    """:func:`event` for a rule system's hottest events, whose English ``text`` the caller has already
    written from ``data`` (an f-string of the same template): no keyword arguments to pack, no template to
    look up. The Event and its Message are built exactly as :func:`event` builds them (``data`` is both the
    event's data and the message's parameters); byte-identical output is the caller's to keep (Flamme Rouge's
    benchmark compares its events with a baseline's)."""
    return Event(kind, data, Message(kind, data, text))


def plural(key: str, count: int, one: str, other: str, /, **params: Any) -> Message:
    """A counted sentence (``1 card``, ``3 cards``): English picks ``one`` or ``other`` by ``count``.

    The message's parameters hold ``count``, which a translation catalogue reads to pick its own plural
    form (a catalogue entry may be ``{"one": ..., "few": ..., "many": ..., "other": ...}``, the CLDR plural
    categories of its language), so no text ever says "1 cards" or "card(s)".
    """
    params = {"count": count, **params}
    return Message(key, params, (one if count == 1 else other).format(**params))


@lru_cache(maxsize=1024)
def _renderer(text: str) -> Callable[[dict[str, Any]], str]:
    """``text.format_map`` as a compiled function of the data: ``"{rider} moves to {to:>2}"`` becomes
    ``f"{d['rider']} moves to {d['to']:>2}"``. A template whose fields are not plain names (``{a.b}``,
    ``{0}``, a nested ``{x:{w}}``) keeps ``str.format_map``."""
    parts: list[str] = []
    names: list[str] = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is None:
            continue
        if not name.isidentifier() or "{" in (spec or "") or "\\" in (spec or ""):
            return text.format_map
        parts.append(f"{{_{len(names)}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}")
        names.append(name)
    body = "".join(parts)
    lines = [f"    _{i} = d[{name!r}]" for i, name in enumerate(names)]
    source = "def render(d):\n" + "\n".join(lines) + ("\n" if lines else "") + f"    return f{body!r}\n"
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # built from the template's own field names, quoted by repr
    render: Callable[[dict[str, Any]], str] = namespace["render"]
    return render


def join_values(values: list[Any] | tuple[Any, ...]) -> str:
    """Render a list of values the way players read them: ``3, 4, 4, 7`` (or ``nothing``)."""
    return ", ".join(str(v) for v in values) if values else "nothing"


class OrderError(ValueError):
    """An order the rules refuse; carries the typed message the player will read."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.text)
        self.message = message
        self.entrant: str | None = None
        """Set by the race driver: whose order it was."""

    @classmethod
    def of(cls, key: str, text: str, **params: Any) -> OrderError:
        """Shorthand: ``raise OrderError.of("fr.card_not_in_hand", "You can't play {card}...", card=9)``."""
        return cls(msg(key, text, **params))

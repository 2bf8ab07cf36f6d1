"""Typed messages: what the engine says, as a key with parameters plus an English rendering.

The engine never builds sentences the bot must parse. Every refusal, prompt and event carries a
stable ``key`` and its ``params``; the bot's translation function renders the key in the player's
language and falls back to ``text``, the English rendering the engine always provides.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Message(BaseModel):
    """A translatable sentence: a stable key, its parameters, and its English text."""

    key: str
    params: dict[str, Any] = Field(default_factory=dict)
    text: str

    def __str__(self) -> str:
        return self.text


def msg(key: str, text: str, **params: Any) -> Message:
    """Build a message whose English text is ``text`` formatted with ``params``.

    ``text`` is a ``str.format`` template so that translators see the same placeholders.
    """
    return Message(key=key, params=params, text=text.format(**params))


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

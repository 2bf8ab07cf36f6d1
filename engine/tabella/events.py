"""Typed events of a Tabella race: a stable kind, JSON data, and the English sentence."""

from __future__ import annotations

from typing import Any

from engine.messages import msg
from engine.ruleset import Event


def event(kind: str, text: str, **data: Any) -> Event:
    """An event ``td.<kind>`` whose message is ``text`` formatted with ``data``."""
    return Event(kind=f"td.{kind}", data=data, message=msg(f"td.{kind}", text, **data))

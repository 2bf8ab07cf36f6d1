"""Building the typed events of a race (kinds start with ``wk.``)."""

from __future__ import annotations

from typing import Any

from engine.messages import msg
from engine.ruleset import Event


def event(kind: str, text: str, **data: Any) -> Event:
    """An event whose data are also the parameters of its English message."""
    return Event(kind=kind, data=data, message=msg(kind, text, **data))

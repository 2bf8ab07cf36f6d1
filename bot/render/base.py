"""What every rule system's renderer provides; :mod:`bot.render.registry` maps ruleset ids to them.

A renderer draws from the public view (``ruleset.public_view(state)``) and the step's events only, so
a picture can never show a hand, a deck's order or a plan. Stage previews draw from the stage data.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from PIL import Image

from engine.ruleset import PROGRESS_KEY, Event

EventLike = Event | Mapping[str, Any]
"""An engine event, or its JSON form (``{"kind": ..., "data": ...}``) as a race record holds it."""


def event_data(events: Iterable[EventLike]) -> list[tuple[str, dict[str, Any]]]:
    """``(kind, data)`` of each event, whichever form it came in."""
    out: list[tuple[str, dict[str, Any]]] = []
    for e in events:
        if isinstance(e, Event):
            out.append((e.kind, e.data))
        else:
            out.append((str(e.get("kind", "")), dict(e.get("data") or {})))
    return out


def event_lines(events: Iterable[EventLike], locale: str) -> list[str]:
    """Each engine event's message in ``locale`` (events given as JSON carry no message and are skipped)."""
    from bot.i18n import t

    return [t(e.message, locale) for e in events if isinstance(e, Event)]


def round_of(view: Mapping[str, Any]) -> Any:
    """The round a picture is about: its progress marker's number (the one counter players see; a round
    post gives the marker of the round it tells), else the view's own round."""
    marker = view.get(PROGRESS_KEY)
    if isinstance(marker, Mapping) and marker.get("number") is not None:
        return marker["number"]
    return view.get("round", 0)


class SystemRenderer(ABC):
    """The pictures of one rule system. Stateless; one instance per system."""

    ruleset_id: ClassVar[str]

    @abstractmethod
    def board(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> Image.Image:
        """The race now: the board with every rider, and the step's events made visible."""

    @abstractmethod
    def preview(self, stage: Mapping[str, Any] | str | None, options: Mapping[str, Any], locale: str) -> Image.Image:
        """A stage before the race: the course without riders."""

    @abstractmethod
    def describe(
        self, view: Mapping[str, Any], events: Sequence[EventLike], locale: str, names: Mapping[str, str]
    ) -> str:
        """The same information as :meth:`board`, as text for screen readers (alt text)."""

    def riders(
        self, view: Mapping[str, Any], names: Mapping[str, str], locale: str, short: bool = False
    ) -> dict[str, str]:
        """Each rider id of the view that is not an entrant's own id, by the name players read ("Anna's
        Rouleur"; ``short``: within its entrant's own line, "Rouleur"): events, standings and panels name
        riders with it. None by default (one rider per entrant, who is named by the entrant's name)."""
        return {}

    def identity(self, view: Mapping[str, Any], entrant: str, locale: str) -> str | None:
        """Who the entrant is on the picture (their colour and tokens), said first on their own panel;
        ``None`` where the picture names players by name alone."""
        return None

    def accent(self, view: Mapping[str, Any], entrant: str) -> tuple[int, int, int] | None:
        """The entrant's colour on the picture (their panel's accent); ``None`` where the picture gives
        players no colour of their own (the panel then takes the race's)."""
        return None

    def frame_key(self, view: Mapping[str, Any]) -> Hashable:
        """Steps with the same key make one frame of the race's animation (a round by default)."""
        return view.get("round")

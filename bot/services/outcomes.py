"""What the services take and give back: plain data the Discord layer renders, and typed refusals.

A refusal carries an engine-style :class:`~engine.messages.Message` (a stable key from
``bot/i18n/en.json``, its parameters and the English text), which ``bot.i18n.t`` renders in the player's
language. A refused call changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.messages import Message, message_of
from engine.ruleset import Result


class Refusal(Exception):
    """A request the service turns down, with the message the player reads."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.text)
        self.message = message

    @property
    def key(self) -> str:
        return self.message.key

    @classmethod
    def of(cls, key: str, **params: Any) -> Refusal:
        """A refusal whose English text is ``key``'s template in ``bot/i18n/en.json``."""
        from bot.i18n import t

        return cls(message_of(key, params, t(key, "en", **params)))


def closed(status: str) -> Refusal:
    """The refusal for acting on a race that is no longer open to it, by its status."""
    return Refusal.of(
        {
            "lobby": "race.not_started",
            "running": "race.already_started",
            "finished": "race.already_finished",
            "cancelled": "race.already_cancelled",
        }.get(status, "race.already_finished")
    )


@dataclass(frozen=True)
class MemberRef:
    """A person on a server as the Discord layer sees them (ids are Discord snowflakes)."""

    server_id: int
    user_id: int
    name: str
    locale: str | None = None


@dataclass(frozen=True)
class SeatView:
    entrant: str
    name: str
    user_id: int | None
    bot: str | None
    left_at_step: int | None = None
    """The step during which the member left the race under way (a bot rides the seat from it); None: riding."""


@dataclass(frozen=True)
class RaceView:
    """A race as the lobby and the race posts show it."""

    race_id: int
    server_id: int
    channel_id: int
    opener_id: int
    ruleset: str
    status: str
    pace: str
    pace_seconds: int
    step: int
    seats: list[SeatView]
    awaiting: list[str] = field(default_factory=list)
    most_seats: int = 0
    """How many seats the race may have on its stage with its options (the engine's player limits)."""


@dataclass(frozen=True)
class OrderReceipt:
    """An order as recorded (committed before this is returned): exactly what the step will use."""

    race_id: int
    step: int
    entrant: str
    order: dict[str, Any]
    complete: bool
    received_at: datetime
    changed: bool
    """True when it replaced an order this entrant had already sent in this step."""
    ready: bool = False
    """True when this order was the step's last awaited one: the step resolves now (the answer need not
    read anything more to say so)."""


@dataclass(frozen=True)
class PanelView:
    """A player's private panel for the current step (the Discord layer renders it as a DM)."""

    race_id: int
    step: int
    entrant: str
    decision: dict[str, Any] | None
    """The engine's decision as data (prompt, fields and choices, ``complete``); None: nothing asked now."""
    view: dict[str, Any]
    order: dict[str, Any] | None
    """What the player has sent in this step so far."""
    sent: bool = False
    """Whether ``order`` counts for the step (the player pressed Send or typed it); a draft built on the
    panel does not until then."""


@dataclass(frozen=True)
class RaceStarted:
    race_id: int
    events: list[dict[str, Any]]
    """The opening events (the first deal, the start line...)."""
    awaiting: list[str]
    deadline: datetime | None
    progress: dict[str, Any] | None = None
    """The public progress marker at the start (which lap the first turn is in)."""


@dataclass(frozen=True)
class StepResolved:
    race_id: int
    step: int
    orders: dict[str, Any]
    """The step as recorded: entrant -> order (``by: bot``, ``auto: true`` for an absent player)."""
    events: list[dict[str, Any]]
    awaiting: list[str]
    """Who the next step waits for (empty once the race is finished)."""
    deadline: datetime | None
    progress: dict[str, Any] | None = None
    """The public progress marker right after this step (None: not known; the race's marker now is used)."""


@dataclass(frozen=True)
class RaceFinished:
    race_id: int
    result: Result
    """The engine's result as the last step left it (provisional while news is held back)."""
    announcement_due: datetime | None


@dataclass(frozen=True)
class AnnouncementPublished:
    race_id: int
    kind: str
    events: list[dict[str, Any]]
    result: Result
    """The final result, the news published."""


@dataclass(frozen=True)
class ReminderDue:
    """The one quiet reminder of a step, for those who have not ordered yet."""

    race_id: int
    step: int
    entrants: list[str]
    user_ids: list[int]
    deadline: datetime


@dataclass(frozen=True)
class RaceCancelled:
    race_id: int
    reason: str
    """``cancelled`` (by a person) or ``lobby_timeout``."""


Happening = RaceStarted | StepResolved | RaceFinished | AnnouncementPublished | ReminderDue | RaceCancelled
"""Something the Discord layer posts."""

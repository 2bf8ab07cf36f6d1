"""A race that keeps its steps and events, as a front end does (the driver keeps neither): for tests.

``LoggedRace`` is :class:`engine.race.Race` plus the record's ``steps`` and each step's ``events``, appended
by ``play_step`` and ``play_bots_until_human``; ``full_record`` is the record so far.
``logged_replay`` replays a record into one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.race import Race, StepPlayed, replay
from engine.record import RaceRecord
from engine.ruleset import Decision, Event, Order


@dataclass
class LoggedRace(Race):
    """A race with its steps and events kept."""

    steps: list[dict[str, Order | str]] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)

    def play_step(self, orders: Mapping[str, Order | str], awaited: list[Decision] | None = None) -> StepPlayed:
        played = super().play_step(orders, awaited)
        self._log(played)
        return played

    def play_bots_until_human(self, on_step: Callable[[StepPlayed], object] | None = None) -> int:
        def log(played: StepPlayed) -> None:
            self._log(played)
            if on_step is not None:
                on_step(played)

        return super().play_bots_until_human(log)

    def _log(self, played: StepPlayed) -> None:
        self.steps.append(played.orders)
        self.events.append(played.events)

    @property
    def full_record(self) -> RaceRecord:
        """The record of the race so far."""
        return self.record(self.steps)


def logged_replay(record: RaceRecord) -> LoggedRace:
    """``engine.race.replay`` of ``record``, its steps and events kept."""
    played: list[StepPlayed] = []
    race = replay(record, lambda n, step: played.append(step))
    out = LoggedRace(ruleset=race.ruleset, header=race.header, state=race.state, opening=race.opening)
    out.steps = [p.orders for p in played]
    out.events = [p.events for p in played]
    return out


__all__ = ["LoggedRace", "logged_replay"]

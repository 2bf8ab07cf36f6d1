"""One round being resolved: the riders' intentions, the priority list and what happened so far.

Intentions (efforts, directions, specials) and round-only facts (who played P, who drank, who has
entered a cell yet) live here, not in the race state: they mean nothing once the round is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.messages import Event, Message, event, msg
from engine.tabella.state import RaceState, Rider
from engine.tabella.table import Course, Pair


@dataclass
class Intent:
    """What one rider planned for this round."""

    start: str = "C"
    effort: int = 1
    dir: str = "R"
    intensity: int = 0
    specials: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class RoundContext:
    """The round number, the state being changed and the round's bookkeeping."""

    state: RaceState
    number: int
    intents: dict[str, Intent]
    priority: list[str]
    course: Course
    events: list[Event] = field(default_factory=list)
    played_p: set[str] = field(default_factory=set)
    drank: set[str] = field(default_factory=set)
    entered: set[str] = field(default_factory=set)
    sideways_ignored: set[str] = field(default_factory=set)

    @property
    def on_route(self) -> bool:
        return 1 <= self.number <= 5

    @property
    def in_sprint(self) -> bool:
        return self.number >= 6

    def rider(self, rider_id: str) -> Rider:
        return self.state.rider(rider_id)

    def pair_of(self, rider: Rider) -> Pair:
        assert rider.row is not None
        return self.course.pair(rider.row, self.number)

    def rank(self, rider_id: str) -> int:
        """Position in this round's priority list (0 = first)."""
        return self.priority.index(rider_id)

    def say(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(event(kind, text, **data))

    def say_as(self, kind: str, key: str, text: str, **data: Any) -> None:
        """An event of ``kind`` whose message has its own ``key``: one kind (what happened, stable for front
        ends) worded by case (a Gancio that missed, stole or only hooked), each wording a key of its own."""
        self.events.append(event(kind, text, key, **data))

    # --- the basic effects every rule uses ----------------------------------------------------
    def lose_r(self, rider: Rider, amount: int) -> int:
        """D15: R never goes below 0; returns what was actually paid."""
        paid = min(max(amount, 0), rider.r)
        rider.r -= paid
        return paid

    def change_v(self, rider: Rider, delta: int) -> int:
        """Change V; D14: a negative V is clamped to 0 at once, paying the difference in R.

        Returns the R paid for the clamp (0 when there was nothing to clamp)."""
        rider.v += delta
        if rider.v >= 0:
            return 0
        debt = -rider.v
        rider.v = 0
        return self.lose_r(rider, debt)

    def fall(self, rider: Rider) -> int:
        """A Gomitata fall (§6.3): -2 R, -2 V, then the clamp (D22). Returns the R paid for the clamp."""
        self.lose_r(rider, 2)
        return self.change_v(rider, -2)


def clamp_text(clamp: int) -> Message | str:
    """``, V below 0 costs 2 R more`` when a fall or a collision drove V below 0 (D14), else nothing."""
    return msg("td.clamp", ", V below 0 costs {clamp} R more", clamp=clamp) if clamp else ""

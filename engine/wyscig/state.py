"""The race state: plain dataclasses (fast to copy) that round-trip through JSON (§9).

Everything a replay needs lives here, the generator state included, so ``load(dump(s))`` carries on
exactly like ``s``.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from engine.wyscig.deck import Card


@dataclass
class Player:
    """One seat: the secret hand and the public counters."""

    id: str
    name: str
    speeds: list[int] = field(default_factory=list)
    """Speed cards in hand, kept sorted (secret)."""
    descents: int = 0
    """Descent cards in hand (secret)."""
    minutes: int = 0
    """Penalty minutes held in the current stage."""
    turns: int = 0
    """Turns this player has had in the current stage, skipped ones included (D7 counts them)."""
    times: list[int] = field(default_factory=list)
    """Recorded time of every finished stage (57, 60 or 60 + minutes)."""
    penalties: list[int] = field(default_factory=list)
    """Penalty minutes recorded in every finished stage."""
    last: dict[str, Any] | None = None
    """The last card played this stage: ``{"card", "descents", "speed"}``."""

    @property
    def hand_size(self) -> int:
        return len(self.speeds) + self.descents

    @property
    def total(self) -> int:
        return sum(self.times)


@dataclass
class Climb:
    """A climb in force in front of its owner (§5.2, D7)."""

    owner: str
    ends_at_turn: int
    """It ends at the start of its owner's turn with this number (his turns counted from 1)."""
    opening: bool = False
    """Laid from the opening hand (ends at his second turn) rather than during a turn."""


@dataclass
class RaceState:
    """A whole race of Wyścig kolarski."""

    deck: str
    stages: int
    seats: list[str]
    """Seat order (D4): fixed for the race; turns go round in this order."""
    players: dict[str, Player]
    rng: int
    stage_number: int = 1
    leader: str = ""
    reference: int | None = None
    """L: the speed most recently played by the holder of the yellow token (None before his first card)."""
    turn: str | None = None
    """Whose turn it is now; None once the race is finished."""
    pile: list[Card] = field(default_factory=list)
    """The face-down draw pile, top first (secret)."""
    discards: int = 0
    """Cards discarded this stage (played cards and discarded hands)."""
    climbs: list[Climb] = field(default_factory=list)
    played: list[dict[str, Any]] = field(default_factory=list)
    """This stage's cards in the order played: who, card, descents, speed, climb, verdict, minutes."""
    stage_results: list[dict[str, Any]] = field(default_factory=list)
    """One entry per finished stage: its winner, times and ranking (D20)."""
    finished: bool = False
    stacked: dict[str, dict[str, Any]] = field(default_factory=dict)
    """A record's stacked deals of later stages, by stage number (``{"pile": [...] | None, "hands": {...}}``);
    never changed, only read when that stage starts."""

    @property
    def on_climb(self) -> bool:
        """The road is on a climb while at least one climb is in force (D7)."""
        return bool(self.climbs)

    def player(self, entrant: str) -> Player:
        return self.players[entrant]

    def next_seat(self, entrant: str) -> str:
        i = self.seats.index(entrant)
        return self.seats[(i + 1) % len(self.seats)]

    def from_leader(self) -> list[str]:
        """Seat order starting with the leader (dealing, opening climbs, the first lap)."""
        i = self.seats.index(self.leader)
        return self.seats[i:] + self.seats[:i]

    def copy(self) -> RaceState:
        """An independent copy for ``resolve`` (which never mutates its input).

        Written out instead of ``deepcopy`` (five times faster, and this runs every turn). The dicts in
        ``played``, ``stage_results`` and ``Player.last`` are never mutated once stored, so they are shared.
        """
        players = {
            e: replace(p, speeds=list(p.speeds), times=list(p.times), penalties=list(p.penalties))
            for e, p in self.players.items()
        }
        return replace(
            self,
            seats=list(self.seats),
            players=players,
            pile=list(self.pile),
            climbs=[replace(c) for c in self.climbs],
            played=list(self.played),
            stage_results=list(self.stage_results),
        )


def dump_state(state: RaceState) -> dict[str, Any]:
    """The state as JSON data."""
    data = asdict(state)
    data["seats"] = list(state.seats)
    data["players"] = [asdict(state.players[s]) for s in state.seats]
    return data


def load_state(data: dict[str, Any]) -> RaceState:
    """The state back from :func:`dump_state` (the input is not modified)."""
    raw = copy.deepcopy(dict(data))
    players = {p["id"]: Player(**p) for p in raw.pop("players")}
    climbs = [Climb(**c) for c in raw.pop("climbs")]
    return RaceState(players=players, climbs=climbs, **raw)

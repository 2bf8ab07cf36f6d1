"""The race state: plain dataclasses (fast to copy) that round-trip through JSON (§9).

Everything a replay needs lives here, the generator state included, so ``load(dump(s))`` carries on
exactly like ``s``. Each class's field list is written once, in the class: a field's ``metadata`` says
how it is copied (``copy``), written (``dump``) and read back (``load``) when that is not "shared" and
"as is", and :func:`copy_of`, :func:`dump_fields` and :func:`load_fields` follow the fields.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from typing import Any, TypeVar

from engine.wyscig.deck import Card

T = TypeVar("T")

LIST: dict[str, Any] = {"copy": list}
"""A list of values shared between copies (numbers, names, dicts never mutated once stored): a new list."""


def copy_of(obj: T, plan: tuple[tuple[str, Callable[[Any], Any]], ...]) -> T:
    """A copy of ``obj`` sharing every field but those of ``plan`` (name, how to copy).

    Faster than ``dataclasses.replace`` (no ``__init__``), and this runs every turn."""
    new = object.__new__(type(obj))
    values = obj.__dict__.copy()
    for name, how in plan:
        values[name] = how(values[name])
    new.__dict__ = values
    return new


def copy_plan(cls: type[Any]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """The fields of ``cls`` a copy must not share, read from their ``copy`` metadata."""
    return tuple((f.name, f.metadata["copy"]) for f in fields(cls) if "copy" in f.metadata)


def dump_fields(obj: Any) -> dict[str, Any]:
    """Every field as JSON data, in field order: a deep plain copy, or its ``dump`` metadata's
    ``how(obj, value)`` (which may read other fields, like the seat order)."""
    return {f.name: _dump(f)(obj, getattr(obj, f.name)) for f in fields(obj)}


def load_fields(cls: type[T], data: dict[str, Any]) -> T:
    """An object of ``cls`` back from :func:`dump_fields` (``data`` is not modified)."""
    given = {f.name: f for f in fields(cls) if f.name in data}  # type: ignore[arg-type]
    return cls(**{name: f.metadata.get("load", copy.deepcopy)(data[name]) for name, f in given.items()})


def _dump(f: Field[Any]) -> Callable[[Any, Any], Any]:
    how: Callable[[Any, Any], Any] = f.metadata.get("dump", _plain)
    return how


def _plain(obj: Any, value: Any) -> Any:
    return copy.deepcopy(value)


@dataclass
class Player:
    """One seat: the secret hand and the public counters."""

    id: str
    name: str
    speeds: list[int] = field(default_factory=list, metadata=LIST)
    """Speed cards in hand, kept sorted (secret)."""
    descents: int = 0
    """Descent cards in hand (secret)."""
    minutes: int = 0
    """Penalty minutes held in the current stage."""
    turns: int = 0
    """Turns this player has had in the current stage, skipped ones included (D7 counts them)."""
    times: list[int] = field(default_factory=list, metadata=LIST)
    """Recorded time of every finished stage (57, 60 or 60 + minutes)."""
    penalties: list[int] = field(default_factory=list, metadata=LIST)
    """Penalty minutes recorded in every finished stage."""
    last: dict[str, Any] | None = None
    """The last card played this stage: ``{"card", "descents", "speed"}``."""

    def copy(self) -> Player:
        """An independent copy (``last`` is never mutated once stored: shared)."""
        return copy_of(self, _PLAYER_COPY)

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

    def copy(self) -> Climb:
        return copy_of(self, ())


def _copy_players(players: dict[str, Player]) -> dict[str, Player]:
    """Every player copied as :func:`copy_of` copies one, spelled out (a step copies them all)."""
    plan = _PLAYER_COPY
    new = object.__new__
    out = {}
    for e, p in players.items():
        twin = new(Player)
        values = p.__dict__.copy()
        for name, how in plan:
            values[name] = how(values[name])
        twin.__dict__ = values
        out[e] = twin
    return out


def _dump_players(state: RaceState, players: dict[str, Player]) -> list[dict[str, Any]]:
    return [dump_fields(players[e]) for e in state.seats]


def _load_players(data: list[dict[str, Any]]) -> dict[str, Player]:
    return {p["id"]: load_fields(Player, p) for p in data}


def _copy_climbs(climbs: list[Climb]) -> list[Climb]:
    return [c.copy() for c in climbs]


def _dump_climbs(state: RaceState, climbs: list[Climb]) -> list[dict[str, Any]]:
    return [dump_fields(c) for c in climbs]


def _load_climbs(data: list[dict[str, Any]]) -> list[Climb]:
    return [load_fields(Climb, c) for c in data]


@dataclass
class RaceState:
    """A whole race of Wyścig kolarski."""

    deck: str
    stages: int
    seats: list[str] = field(metadata=LIST)
    """Seat order (D4): fixed for the race; turns go round in this order."""
    players: dict[str, Player] = field(metadata={"copy": _copy_players, "dump": _dump_players, "load": _load_players})
    """Every seat's player by entrant id (written as a list in seat order)."""
    rng: int
    stage_number: int = 1
    leader: str = ""
    reference: int | None = None
    """L: the speed most recently played by the holder of the yellow token (None before his first card)."""
    turn: str | None = None
    """Whose turn it is now; None once the race is finished."""
    pile: list[Card] = field(default_factory=list, metadata=LIST)
    """The face-down draw pile, top first (secret)."""
    discards: int = 0
    """Cards discarded this stage (played cards and discarded hands)."""
    climbs: list[Climb] = field(
        default_factory=list, metadata={"copy": _copy_climbs, "dump": _dump_climbs, "load": _load_climbs}
    )
    played: list[dict[str, Any]] = field(default_factory=list, metadata=LIST)
    """This stage's cards in the order played: who, card, descents, speed, climb, verdict, minutes."""
    stage_results: list[dict[str, Any]] = field(default_factory=list, metadata=LIST)
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
        """An independent copy for ``resolve`` (which never mutates its input), driven by the fields'
        ``copy`` metadata. The dicts in ``played``, ``stage_results`` and ``Player.last`` are never mutated
        once stored, and ``stacked`` never changes, so they are shared."""
        return copy_of(self, _STATE_COPY)


_PLAYER_COPY = copy_plan(Player)
_STATE_COPY = copy_plan(RaceState)


def dump_state(state: RaceState) -> dict[str, Any]:
    """The state as JSON data."""
    return dump_fields(state)


def load_state(data: dict[str, Any]) -> RaceState:
    """The state back from :func:`dump_state` (the input is not modified)."""
    return load_fields(RaceState, data)

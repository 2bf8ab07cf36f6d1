"""The race state: plain dataclasses and lists (cheap to copy in ``resolve``), JSON through dump/load.

The track is derived data: it is rebuilt from the stage, the rider count (D13) and the weather (D10)
when a state is loaded, and shared (immutable) between the copies of a state.

Each class's field list is written once, in the class: its fields' metadata (``copy``: :data:`SHARE`,
:data:`EACH`...; ``dump``; ``load``) say how ``copy``, ``to_json`` and ``from_json`` treat them, and those
three are driven by the fields (``copy`` is built when the module loads as one call by position, as fast as
a hand-written one: a copy runs at every step).
A field added to a class is copied, dumped and loaded without another edit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from typing import Any, TypeVar

from engine.flamme_rouge.track import Track

ROULEUR, SPRINTEUR, PELOTON_RIDER = "r", "s", "p"
TYPE_NAMES = {ROULEUR: "Rouleur", SPRINTEUR: "Sprinteur", PELOTON_RIDER: "Peloton rider"}
COLOURS: tuple[str, ...] = ("black", "blue", "green", "red", "pink", "white")
PELOTON, MUSCLE = "peloton", "muscle"
BOT_TEAMS = (PELOTON, MUSCLE)

CHOOSE, BID, PLACE, ENERGY, DONE = "choose", "bid", "place", "energy", "done"

T = TypeVar("T")
Drawn = tuple[list[int], tuple[int, ...], tuple[int, ...]]
"""A drawn hand with the deck and recycled pile it leaves."""

# How copy() treats a field (metadata "copy"): the copy holds the same object (values, tuples, and what
# the code never changes in place), a copy of each item, a copy of each list value, or a fresh empty dict.
SHARE, EACH, LISTS, FRESH = "share", "each", "lists", "fresh"


DERIVED = {"copy": SHARE, "dump": False}
"""The metadata of derived data the copies share: never dumped (``from_json`` is given it or starts it empty)."""
DERIVED_FRESH = {"copy": FRESH, "dump": False}
"""The metadata of derived data of one exact state: never dumped, a copy starts it empty."""


def _field_copy(f: Field[Any]) -> str:
    """The expression that copies field ``f`` of ``self`` (see the metadata above)."""
    how = f.metadata.get("copy", SHARE)
    return {
        SHARE: f"self.{f.name}",
        EACH: f"[x.copy() for x in self.{f.name}]",
        LISTS: f"{{k: v[:] for k, v in self.{f.name}.items()}}",
        FRESH: "{}",
    }[how]


def _copier(cls: type[T]) -> Callable[[T], T]:
    """``cls.copy`` built from its fields: one call by position (``cls(self.a, self.b, ...)``)."""
    args = ", ".join(_field_copy(f) for f in fields(cls))  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"cls": cls}
    exec(f"def copy(self):\n    return cls({args})", namespace)  # the code is built from the class's own field names
    built: Callable[[T], T] = namespace["copy"]
    built.__doc__ = cls.copy.__doc__  # type: ignore[attr-defined]
    built.__qualname__ = f"{cls.__name__}.copy"
    return built


def _plain(value: Any) -> Any:
    """``value`` as plain JSON data of its own (tuples become lists; nested pieces their ``to_json``)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    to_json = getattr(value, "to_json", None)
    return to_json() if to_json is not None else value


def _to_json(obj: Any) -> dict[str, Any]:
    """Every dumped field of ``obj``, in the class's order, as plain JSON data."""
    return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj) if f.metadata.get("dump", True)}


def _from_json(cls: type[T], data: dict[str, Any], given: dict[str, Any]) -> T:
    """A ``cls`` from :func:`_to_json`'s data: each dumped field through its ``load`` (default: a plain copy),
    the derived ones from ``given`` or their defaults."""
    values = dict(given)
    for f in fields(cls):  # type: ignore[arg-type]
        if f.metadata.get("dump", True):
            values[f.name] = f.metadata.get("load", _plain)(data[f.name])
    return cls(**values)


@dataclass(slots=True)
class Rider:
    """One rider: where it is, its cards, and how its race went."""

    id: str
    """``<colour>-<type>``: ``blue-r``, ``blue-s``; the Peloton's riders are ``<colour>-p1``/``-p2``."""
    team: str
    kind: str
    owner: str
    """The entrant that plays it ("" while nobody has chosen it, one-rider mode)."""
    bot: str
    """"" for a rider a player (or a strategy) plays, else ``peloton`` / ``muscle`` (they submit nothing)."""
    deck: tuple[int, ...] = field(metadata={"load": tuple})
    """The face-down deck, top first. The Peloton's shared deck lives on its ``p1`` rider.

    ``deck`` and ``recycled`` are tuples, shared by the copies of a state: code that changes a pile
    assigns a new one (``rider.deck = rider.deck[1:]``); nothing can change one in place."""
    recycled: tuple[int, ...] = field(default=(), metadata={"load": tuple})
    square: int = 0
    """0 = not placed yet."""
    lane: int = 0
    exhaustion: int = 0
    """Exhaustion cards taken during the race (end phases and Breakaway)."""
    crossed: int = 0
    """The round in which it crossed the finish line; 0 while racing."""
    past: int = 0
    """Its distance past the line when it crossed (the first finish square = 1)."""
    off: bool = False
    """It has left the track (``finish="all"``, after the end phase of its crossing round, D5)."""
    breakaway: bool = False

    def copy(self) -> Rider:
        """A copy whose deck and recycled pile are shared until one of them is replaced (copy on write)."""
        raise AssertionError("built from the fields by _copier below")

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rider:
        return _from_json(cls, data, {})

    @property
    def racing(self) -> bool:
        return self.crossed == 0

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.kind]


@dataclass(slots=True)
class RaceState:
    """Everything a race is at one moment. See ``docs/race-record/flamme_rouge.md`` for the dump."""

    stage: dict[str, Any]
    options: dict[str, Any]
    entrants: list[dict[str, Any]]
    seed: int
    rng: int
    track: Track = field(metadata={"dump": False})
    """Derived: shared by the copies, rebuilt by ``from_json`` from the stage, the rider count and the weather."""
    large: bool
    """D13: more than 8 riders."""
    weather: list[str]
    """D10: the token of each straight tile, in track order (``clear``, ``crosswind``...)."""
    phase: str
    round: int
    """The race round being decided (1 = the first energy phase)."""
    turn_order: list[str]
    riders: list[Rider] = field(metadata={"copy": EACH, "load": lambda v: [Rider.from_json(r) for r in v]})
    bid_round: int = 1
    cursor: int = 0
    """Sequential phases: the index in ``turn_order`` of the entrant whose turn it is."""
    bids: dict[str, list[Any]] = field(default_factory=dict, metadata={"copy": LISTS})
    """Breakaway: entrant -> [rider id, round-1 card, round-2 card] (cards known once revealed)."""
    hands: dict[tuple[int, int], tuple[list[int], tuple[int, ...], tuple[int, ...]]] = field(
        default_factory=dict, metadata=DERIVED
    )
    """A cache of drawn hands, (rider index, size) -> (hand, deck, recycled); derived, never dumped. A copy
    shares it (same decks until the copy changes; ``resolve`` gives its copy a fresh one then)."""
    teams: dict[str, dict[str, int]] = field(default_factory=dict, metadata=DERIVED)
    """Each entrant's riders by type letter -> index; derived, shared by the copies of a state (riders and
    owners do not change once the riders are chosen; the code that changes them resets it)."""
    fixed: dict[Any, Any] = field(default_factory=dict, metadata=DERIVED)
    """Derived data that holds for the whole race (each entrant's bot kind, the Peloton's deck holder):
    shared by the copies of a state like ``teams``; never dumped."""
    cache: dict[Any, Any] = field(default_factory=dict, metadata=DERIVED_FRESH)
    """Other derived data of this exact state (the awaited decisions, the racing riders, the drawn hands); never
    dumped or copied. Code that changes a state in place (only ``resolve``, on its own copy) clears it."""

    def copy(self) -> RaceState:
        """A copy safe to change: riders and mutable containers are copied, the track is shared."""
        raise AssertionError("built from the fields by _copier below")

    def to_json(self) -> dict[str, Any]:
        """The dumped fields (everything but the derived data), as JSON data."""
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any], track: Track) -> RaceState:
        """The state back from :meth:`to_json`, with its ``track`` rebuilt by the caller."""
        return _from_json(cls, data, {"track": track})

    # --- lookups ---------------------------------------------------------------------------------
    def bot_kinds(self) -> dict[str, str]:
        """Every entrant's :meth:`bot_kind` (cached for the race: the entrants never change)."""
        got: dict[str, str] | None = self.fixed.get("kinds")
        if got is None:
            got = self.fixed["kinds"] = {e["id"]: self.bot_kind(e["id"]) for e in self.entrants}
        return got

    def bot_kind(self, entrant: str) -> str:
        """``peloton`` / ``muscle`` for an official bot team's entrant, else ""."""
        for e in self.entrants:
            if e["id"] == entrant:
                bot = e.get("bot") or ""
                return bot if bot in BOT_TEAMS else ""
        return ""

    def team(self, entrant: str) -> dict[str, int]:
        """The entrant's own (non-bot) riders: type letter -> rider index (cached)."""
        got = self.teams.get(entrant)
        if got is None:
            got = {r.kind: i for i, r in enumerate(self.riders) if r.owner == entrant and not r.bot}
            self.teams[entrant] = got
        return got

    def riders_of(self, entrant: str) -> list[Rider]:
        return [r for r in self.riders if r.owner == entrant]

    def rider(self, rider_id: str) -> Rider:
        for r in self.riders:
            if r.id == rider_id:
                return r
        raise KeyError(rider_id)

    def on_track(self) -> list[Rider]:
        return [r for r in self.riders if r.square > 0 and not r.off]


Rider.copy = _copier(Rider)  # type: ignore[method-assign,assignment]
RaceState.copy = _copier(RaceState)  # type: ignore[method-assign,assignment]

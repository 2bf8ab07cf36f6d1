"""The race state: plain dataclasses and lists (cheap to copy in ``resolve``), JSON through dump/load.

The track is derived data: it is rebuilt from the stage, the rider count (D13) and the weather (D10)
when a state is loaded, and shared (immutable) between the copies of a state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.flamme_rouge.track import Track

ROULEUR, SPRINTEUR, PELOTON_RIDER = "r", "s", "p"
TYPE_NAMES = {ROULEUR: "Rouleur", SPRINTEUR: "Sprinteur", PELOTON_RIDER: "Peloton rider"}
COLOURS: tuple[str, ...] = ("black", "blue", "green", "red", "pink", "white")
PELOTON, MUSCLE = "peloton", "muscle"
BOT_TEAMS = (PELOTON, MUSCLE)

CHOOSE, BID, PLACE, ENERGY, DONE = "choose", "bid", "place", "energy", "done"


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
    deck: tuple[int, ...]
    """The face-down deck, top first. The Peloton's shared deck lives on its ``p1`` rider.

    ``deck`` and ``recycled`` are tuples, shared by the copies of a state: code that changes a pile
    assigns a new one (``rider.deck = rider.deck[1:]``); nothing can change one in place."""
    recycled: tuple[int, ...] = ()
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
        return Rider(
            self.id,
            self.team,
            self.kind,
            self.owner,
            self.bot,
            self.deck,
            self.recycled,
            self.square,
            self.lane,
            self.exhaustion,
            self.crossed,
            self.past,
            self.off,
            self.breakaway,
        )

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
    track: Track
    large: bool
    """D13: more than 8 riders."""
    weather: list[str]
    """D10: the token of each straight tile, in track order (``clear``, ``crosswind``...)."""
    phase: str
    round: int
    """The race round being decided (1 = the first energy phase)."""
    turn_order: list[str]
    riders: list[Rider]
    bid_round: int = 1
    cursor: int = 0
    """Sequential phases: the index in ``turn_order`` of the entrant whose turn it is."""
    bids: dict[str, list[Any]] = field(default_factory=dict)
    """Breakaway: entrant -> [rider id, round-1 card, round-2 card] (cards known once revealed)."""
    hands: dict[tuple[int, int], tuple[list[int], tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)
    """A cache of drawn hands, (rider index, size) -> (hand, deck, recycled); derived, never dumped or copied."""
    teams: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each entrant's riders by type letter -> index; derived, shared by the copies of a state (riders and
    owners do not change once the riders are chosen; the code that changes them resets it)."""
    fixed: dict[Any, Any] = field(default_factory=dict)
    """Derived data that holds for the whole race (each entrant's bot kind, the Peloton's deck holder):
    shared by the copies of a state like ``teams``; never dumped."""
    cache: dict[Any, Any] = field(default_factory=dict)
    """Other derived data of this exact state (the awaited decisions, the racing riders, the drawn hands); never
    dumped or copied. Code that changes a state in place (only ``resolve``, on its own copy) clears it."""

    def copy(self) -> RaceState:
        """A copy safe to change: riders and mutable containers are copied, the track is shared."""
        return RaceState(
            self.stage,
            self.options,
            self.entrants,
            self.seed,
            self.rng,
            self.track,
            self.large,
            self.weather,
            self.phase,
            self.round,
            self.turn_order,
            [r.copy() for r in self.riders],
            self.bid_round,
            self.cursor,
            {k: v[:] for k, v in self.bids.items()},
            self.hands,  # same decks until the copy changes; resolve gives it a fresh cache then
            self.teams,
            self.fixed,
        )

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


def dump_rider(r: Rider) -> dict[str, Any]:
    return {
        "id": r.id,
        "team": r.team,
        "kind": r.kind,
        "owner": r.owner,
        "bot": r.bot,
        "deck": list(r.deck),
        "recycled": list(r.recycled),
        "square": r.square,
        "lane": r.lane,
        "exhaustion": r.exhaustion,
        "crossed": r.crossed,
        "past": r.past,
        "off": r.off,
        "breakaway": r.breakaway,
    }


def load_rider(d: dict[str, Any]) -> Rider:
    return Rider(
        id=d["id"],
        team=d["team"],
        kind=d["kind"],
        owner=d["owner"],
        bot=d["bot"],
        deck=tuple(d["deck"]),
        recycled=tuple(d["recycled"]),
        square=d["square"],
        lane=d["lane"],
        exhaustion=d["exhaustion"],
        crossed=d["crossed"],
        past=d["past"],
        off=d["off"],
        breakaway=d["breakaway"],
    )

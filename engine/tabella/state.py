"""The race state: plain dataclasses that round-trip through JSON (rules §9).

Hot-path code (bots simulate many rounds) works on these directly; ``to_data``/``from_data`` are the
only serialisation. Per-round intentions (efforts, directions, P played, drinks) are not state: they
live in the round being resolved.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from engine.tabella.table import Course

ROUNDS = ("start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3")
"""Round labels by number: 0 = start, 1-5 = route moves, 6-8 = sprint moves."""
ROUTE_ROUNDS = range(1, 6)
SPRINT_ROUNDS = range(6, 9)
LAST_ROUND = 8

Status = Literal["waiting", "racing", "exhausted", "dns"]
BottleStatus = Literal["full", "drunk", "thrown", "stolen"]


def round_label(number: int) -> str:
    return ROUNDS[number]


@dataclass
class StolenBottle:
    """Another rider's bottle, taken with a Gancio (D20); it keeps its reinforced flag."""

    owner: str
    reinforced: bool
    status: Literal["full", "drunk", "thrown"] = "full"


@dataclass
class Rider:
    """One player's rider and everything the rules track about it (§9)."""

    id: str
    name: str
    status: Status = "waiting"
    r: int = 30
    v: int = 5
    row: int | None = None
    """0 = A, 1 = B, 2 = C; None before the start."""
    pair: int = 0
    """0 = before pair 1; 1-5 on the route (the sprint keeps 5)."""
    start: str | None = None
    progress: int | None = None
    v_at_stop: int | None = None
    order_time: str | None = None
    own_bottle: BottleStatus = "full"
    reinforced: bool = False
    stolen: StolenBottle | None = None
    used: list[str] = field(default_factory=list)
    doped: bool = False
    free_effort: bool = False

    @property
    def racing(self) -> bool:
        return self.status == "racing"


@dataclass
class RaceState:
    """A whole race: the course, the riders, the round to play next and the random stream."""

    seed: int
    options: dict[str, Any]
    table: list[list[int]]
    table_source: str
    first_row: int
    riders: list[Rider]
    bots: dict[str, str | None]
    rng: int
    round: int = 0
    """The next round to resolve (0-8); 9 once the race is over."""
    void: bool = False
    gazzetta_hit: bool | None = None
    gazzetta_forced: bool | None = None
    gazzetta_published: bool = False

    @property
    def mode(self) -> str:
        return str(self.options["mode"])

    @property
    def course(self) -> Course:
        return Course.of(self.table, self.first_row)

    @property
    def over(self) -> bool:
        """No more rounds to play: void, past ``s3``, or nobody left racing once the start is played."""
        if self.void or self.round > LAST_ROUND:
            return True
        return self.round > 0 and not any(r.racing for r in self.riders)

    def rider(self, rider_id: str) -> Rider:
        for r in self.riders:
            if r.id == rider_id:
                return r
        raise KeyError(rider_id)

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> RaceState:
        riders = []
        for raw in data["riders"]:
            values = dict(raw)
            stolen = values.pop("stolen")
            rider = Rider(**values)
            rider.stolen = StolenBottle(**stolen) if stolen is not None else None
            rider.used = list(rider.used)
            riders.append(rider)
        rest = {k: v for k, v in data.items() if k != "riders"}
        rest["table"] = [list(row) for row in rest["table"]]
        rest["options"] = dict(rest["options"])
        rest["bots"] = dict(rest["bots"])
        return cls(riders=riders, **rest)

"""The race state: plain dataclasses that round-trip through JSON (rules §9).

Hot-path code (bots simulate many rounds) works on these directly; ``to_data``/``from_data`` are the
only serialisation and ``copy`` the only copy. The dataclass fields are the one list of what a state holds:
``copy``, ``to_data`` and ``from_data`` walk them, so a field added to a class is copied, dumped and loaded
without another line. Per-round intentions (efforts, directions, P played, drinks) are not state: they
live in the round being resolved.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TypeVar, get_args, get_type_hints

from engine.tabella.table import Course

ROUNDS = ("start", "m1", "m2", "m3", "m4", "m5", "s1", "s2", "s3")
"""Round labels by number: 0 = start, 1-5 = route moves, 6-8 = sprint moves."""
ROUTE_ROUNDS = range(1, 6)
SPRINT_ROUNDS = range(6, 9)
LAST_ROUND = 8
MIN_PLAYERS, MAX_PLAYERS = 2, 20  # D2: riders in a race, one per player

Status = Literal["waiting", "racing", "exhausted", "dns"]
BottleStatus = Literal["full", "drunk", "thrown", "stolen"]


def round_label(number: int) -> str:
    return ROUNDS[number]


def _copied(value: Any) -> Any:
    """A deep copy of plain state data: lists and dicts are copied, nested states by their own ``copy``,
    everything else (numbers, strings, booleans, None) is immutable and shared."""
    kind = type(value)
    if kind is list:
        return [_copied(v) for v in value]
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, Data):
        return value.copy()
    return value


_D = TypeVar("_D", bound="Data")


class Data:
    """A state class whose dataclass fields drive :meth:`copy` and :meth:`from_data` (``to_data`` is
    :func:`dataclasses.asdict`)."""

    def copy(self: _D) -> _D:
        """A copy safe to change: every list, dict and nested state is copied."""
        new = object.__new__(type(self))
        new.__dict__ = {k: _copied(v) for k, v in self.__dict__.items()}
        return new

    def to_data(self) -> dict[str, Any]:
        """The object as plain JSON data."""
        data: dict[str, Any] = asdict(self)  # type: ignore[call-overload]
        return data

    @classmethod
    def from_data(cls: type[_D], data: dict[str, Any]) -> _D:
        """The object from :meth:`to_data`'s output (the input is not kept: lists and dicts are copied)."""
        values = {}
        for name, nested in _nested(cls).items():
            raw = data[name]
            if nested is None or raw is None:
                values[name] = _plain(raw)
            elif type(raw) in (list, tuple):
                values[name] = [nested.from_data(item) for item in raw]
            else:
                values[name] = nested.from_data(raw)
        return cls(**values)


def _plain(value: Any) -> Any:
    """JSON data as the state holds it: lists (tuples read as lists) and dicts copied."""
    if type(value) in (list, tuple):
        return [_plain(v) for v in value]
    if type(value) is dict:
        return {k: _plain(v) for k, v in value.items()}
    return value


_NESTED: dict[type[Any], dict[str, type[Data] | None]] = {}


def _nested(cls: type[Any]) -> dict[str, type[Data] | None]:
    """Each field of ``cls`` and the state class it holds (alone, in a list or optional), or None."""
    found = _NESTED.get(cls)
    if found is None:
        hints = get_type_hints(cls)
        found = {}
        for f in fields(cls):
            args = get_args(hints[f.name])
            inner = [a for a in (hints[f.name], *args) if isinstance(a, type) and issubclass(a, Data)]
            found[f.name] = inner[0] if inner else None
        _NESTED[cls] = found
    return found


@dataclass
class StolenBottle(Data):
    """Another rider's bottle, taken with a Gancio (D20); it keeps its reinforced flag."""

    owner: str
    reinforced: bool
    status: Literal["full", "drunk", "thrown"] = "full"


@dataclass
class Rider(Data):
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
class RaceState(Data):
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

"""The race state: plain dataclasses that round-trip through JSON (``to_json`` / ``from_json``).

The round context (wind, fatigue, trains and movement order, §4.2) is fixed at the start of a round
and kept only while a round is being played step by step (live mode, D3).

Each class lists its fields once, as dataclass fields whose metadata (:func:`copied`) says how each is
copied and, where its JSON differs, dumped and loaded; a field without metadata holds an immutable value
(a number, a name), shared by the copies. ``copy``, ``to_json`` and ``from_json`` follow that one list,
so a field added to a state cannot be forgotten by one of them (``tests/engine/test_state_fields.py``).
A copy runs at every step: the plans are built once per class, and a copy is one dict comprehension over
its plan rather than ``copy.deepcopy``, which took a quarter of a bot race's time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.mind_cycling.course import Course

T = TypeVar("T")
Copier = Callable[[Any], Any]


def _list(value: list[Any]) -> list[Any]:
    return list(value)


def _dict(value: dict[Any, Any]) -> dict[Any, Any]:
    return dict(value)


def _optional_dict(value: dict[Any, Any] | None) -> dict[Any, Any] | None:
    return None if value is None else dict(value)


def _dict_of_lists(value: dict[Any, list[Any]]) -> dict[Any, list[Any]]:
    return {k: list(v) for k, v in value.items()}


def _options(value: dict[str, Any]) -> dict[str, Any]:
    """The race options: scalars, or a list of names (``placement_order``)."""
    return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}


def copied(how: Copier | None, dump: Copier | None = None, load: Copier | None = None) -> dict[str, Copier | None]:
    """The metadata of a field copied by ``how`` (``None``: shared, being immutable), dumped to JSON by
    ``dump`` and loaded by ``load`` (by default both as ``how`` copies it)."""
    return {"copy": how, "dump": dump or how, "load": load or how}


LIST = copied(_list)
DICT = copied(_dict)


def _plans(cls: type[Any]) -> tuple[tuple[tuple[str, Copier | None], ...], ...]:
    """(name, copier) pairs for copy, dump and load, in field order; ``None``: the value as it is."""
    fields = dataclasses.fields(cls)
    return tuple(tuple((f.name, f.metadata.get(part)) for f in fields) for part in ("copy", "dump", "load"))


def copy_of(obj: T, plan: tuple[tuple[str, Copier | None], ...]) -> T:
    """A new ``type(obj)`` whose fields are ``obj``'s, each copied as ``plan`` says (no ``__init__`` call)."""
    new = object.__new__(type(obj))
    values = new.__dict__  # its own (key-sharing, compact) dict: a race holds many cyclists
    values.update(obj.__dict__)
    for name, how in plan:
        if how is not None:
            values[name] = how(values[name])
    return new


def dump_of(obj: Any, plan: tuple[tuple[str, Copier | None], ...]) -> dict[str, Any]:
    """``obj``'s fields as JSON data, in field order, each dumped as ``plan`` says."""
    src = obj.__dict__
    return {name: src[name] if how is None else how(src[name]) for name, how in plan}


def load_of(cls: type[T], data: Mapping[str, Any], plan: tuple[tuple[str, Copier | None], ...]) -> T:
    """A ``cls`` from :func:`dump_of`'s data; a field missing from ``data`` takes its default."""
    return cls(**{name: data[name] if how is None else how(data[name]) for name, how in plan if name in data})


ROLES_BY_NUMBER = {1: "sprinter", 2: "climber"}
"""D2: #1 sprinter, #2 climber, #3 and later domestiques."""


def role_of(number: int) -> str:
    return ROLES_BY_NUMBER.get(number, "domestique")


def cyclist_key(entrant: str, number: int) -> str:
    return f"{entrant}#{number}"


@dataclass
class Cyclist:
    """One cyclist: its team, role, space and base (blue = carries a bottle)."""

    key: str
    entrant: str
    number: int
    role: str
    row: int = 0
    lane: int = 0
    bottle: bool = True  # D8: every cyclist starts with a blue base
    placed: bool = False
    crossed: bool = False
    place: int | None = None
    finish_round: int | None = None

    @property
    def on_road(self) -> bool:
        return self.placed and not self.crossed

    def copy(self) -> Cyclist:
        """A copy (every field is immutable, so nothing is shared that could change)."""
        return copy_of(self, _CYCLIST[0])


@dataclass
class RoundContext:
    """What §4.2 fixes at the start of a round, plus the progress of the round."""

    order: list[str] = field(metadata=LIST)
    wind: list[str] = field(metadata=LIST)
    fatigued: list[str] = field(metadata=LIST)
    front: dict[str, str] = field(metadata=DICT)
    """cyclist -> the cyclist that started the round directly in front of it, in its train."""
    train: dict[str, list[str]] = field(metadata=copied(_dict_of_lists))
    """cyclist -> its train at the start of the round, head first (only cyclists in a train)."""
    start_rows: dict[str, int] = field(metadata=DICT)
    acted: list[str] = field(metadata=LIST, default_factory=list)
    attacked: list[str] = field(metadata=LIST, default_factory=list)
    crossed: list[str] = field(metadata=LIST, default_factory=list)
    declined: list[str] = field(metadata=LIST, default_factory=list)
    prompt: str | None = None
    """Live mode: the cyclist being asked whether to wheel or relay now."""

    def copy(self) -> RoundContext:
        """A copy that shares no list or dict with this context."""
        return copy_of(self, _CONTEXT[0])

    def to_json(self) -> dict[str, Any]:
        return dump_of(self, _CONTEXT[1])

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundContext:
        return load_of(cls, data, _CONTEXT[2])

    def behind(self, key: str) -> str | None:
        """The cyclist that started the round directly behind ``key`` in its train."""
        for follower, leader in self.front.items():
            if leader == key:
                return follower
        return None


def _cyclists(value: dict[str, Cyclist]) -> dict[str, Cyclist]:
    return {k: c.copy() for k, c in value.items()}


def _dump_cyclists(value: dict[str, Cyclist]) -> list[dict[str, Any]]:
    return [dump_of(c, _CYCLIST[1]) for c in value.values()]


def _load_cyclists(value: list[dict[str, Any]]) -> dict[str, Cyclist]:
    return {c["key"]: load_of(Cyclist, c, _CYCLIST[2]) for c in value}


def _context(value: RoundContext | None) -> RoundContext | None:
    return None if value is None else value.copy()


def _dump_context(value: RoundContext | None) -> dict[str, Any] | None:
    return None if value is None else value.to_json()


def _load_context(value: Mapping[str, Any] | None) -> RoundContext | None:
    return RoundContext.from_json(value) if value else None


def _dump_course(value: Course) -> dict[str, Any]:
    return value.to_json()


def _load_course(value: Mapping[str, Any]) -> Course:
    return Course.from_json(dict(value))


@dataclass
class RaceState:
    """Everything a Mind Cycling race is: course, cyclists, phase and round, results so far."""

    course: Course = field(metadata=copied(None, _dump_course, _load_course))
    """Built once at the start and never changed: shared by the copies."""
    options: dict[str, Any] = field(metadata=copied(_options))
    entrants: list[str] = field(metadata=LIST)
    names: dict[str, str] = field(metadata=DICT)
    solo: bool
    team_size: int
    cyclists: dict[str, Cyclist] = field(metadata=copied(_cyclists, _dump_cyclists, _load_cyclists))
    phase: str
    """``place`` (grid placement), ``passes`` (live: bottle passes), ``round``, ``done``."""
    placement_order: list[str] = field(metadata=LIST)
    placement_turn: int = 0
    round: int = 1
    ctx: RoundContext | None = field(metadata=copied(_context, _dump_context, _load_context), default=None)
    finish_order: list[str] = field(metadata=LIST, default_factory=list)
    section_winners: dict[str, str | None] = field(metadata=DICT, default_factory=dict)
    round_limit_reached: bool = False
    solo_score: dict[str, int] | None = field(metadata=copied(_optional_dict), default=None)

    def copy(self) -> RaceState:
        """A copy that shares nothing mutable with this state (the course is immutable and shared)."""
        return copy_of(self, _STATE[0])

    def team(self, entrant: str) -> list[Cyclist]:
        return [c for c in self.cyclists.values() if c.entrant == entrant]

    def label(self, key: str) -> str:
        """How players read a cyclist in a sentence: ``Anna #3``, its player's name and its number (D2: the
        number says the role). No English word in it, so a translated sentence can carry it as it is."""
        c = self.cyclists[key]
        return f"{self.names.get(c.entrant, c.entrant)} #{c.number}"

    def where(self) -> dict[tuple[int, int], Cyclist]:
        """The cyclists on the road by their space, as :meth:`at` finds them (the first in the state's order
        should two share one): one pass for the many look-ups of a move, a round's start or a plan, while
        nobody moves."""
        found: dict[tuple[int, int], Cyclist] = {}
        for c in self.cyclists.values():
            if c.placed and not c.crossed:
                found.setdefault((c.row, c.lane), c)
        return found

    def at(self, row: int, lane: int) -> Cyclist | None:
        """The cyclist on the road on (row, lane), if any."""
        for c in self.cyclists.values():
            if c.row == row and c.lane == lane and c.placed and not c.crossed:  # cheapest test first
                return c
        return None

    def to_json(self) -> dict[str, Any]:
        return dump_of(self, _STATE[1])

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RaceState:
        return load_of(cls, data, _STATE[2])


_CYCLIST = _plans(Cyclist)
_CONTEXT = _plans(RoundContext)
_STATE = _plans(RaceState)

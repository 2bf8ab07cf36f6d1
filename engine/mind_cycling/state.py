"""The race state: plain dataclasses that round-trip through JSON (``to_json`` / ``from_json``).

The round context (wind, fatigue, trains and movement order, §4.2) is fixed at the start of a round
and kept only while a round is being played step by step (live mode, D3).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.mind_cycling.course import Course

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


@dataclass
class RoundContext:
    """What §4.2 fixes at the start of a round, plus the progress of the round."""

    order: list[str]
    wind: list[str]
    fatigued: list[str]
    front: dict[str, str]
    """cyclist -> the cyclist that started the round directly in front of it, in its train."""
    train: dict[str, list[str]]
    """cyclist -> its train at the start of the round, head first (only cyclists in a train)."""
    start_rows: dict[str, int]
    acted: list[str] = field(default_factory=list)
    attacked: list[str] = field(default_factory=list)
    crossed: list[str] = field(default_factory=list)
    declined: list[str] = field(default_factory=list)
    prompt: str | None = None
    """Live mode: the cyclist being asked whether to wheel or relay now."""

    def behind(self, key: str) -> str | None:
        """The cyclist that started the round directly behind ``key`` in its train."""
        for follower, leader in self.front.items():
            if leader == key:
                return follower
        return None


@dataclass
class RaceState:
    """Everything a Mind Cycling race is: course, cyclists, phase and round, results so far."""

    course: Course
    options: dict[str, Any]
    entrants: list[str]
    names: dict[str, str]
    solo: bool
    team_size: int
    cyclists: dict[str, Cyclist]
    phase: str
    """``place`` (grid placement), ``passes`` (live: bottle passes), ``round``, ``done``."""
    placement_order: list[str]
    placement_turn: int = 0
    round: int = 1
    ctx: RoundContext | None = None
    finish_order: list[str] = field(default_factory=list)
    section_winners: dict[str, str | None] = field(default_factory=dict)
    round_limit_reached: bool = False
    solo_score: dict[str, int] | None = None

    def copy(self) -> RaceState:
        """A copy that shares nothing mutable with this state (the course is immutable and shared).

        Written out instead of ``copy.deepcopy``, which took a quarter of a bot race's time.
        """
        ctx = self.ctx
        return RaceState(
            course=self.course,
            options=copy.deepcopy(self.options),
            entrants=list(self.entrants),
            names=dict(self.names),
            solo=self.solo,
            team_size=self.team_size,
            cyclists={k: dataclasses.replace(c) for k, c in self.cyclists.items()},
            phase=self.phase,
            placement_order=list(self.placement_order),
            placement_turn=self.placement_turn,
            round=self.round,
            ctx=None
            if ctx is None
            else RoundContext(
                order=list(ctx.order),
                wind=list(ctx.wind),
                fatigued=list(ctx.fatigued),
                front=dict(ctx.front),
                train={k: list(v) for k, v in ctx.train.items()},
                start_rows=dict(ctx.start_rows),
                acted=list(ctx.acted),
                attacked=list(ctx.attacked),
                crossed=list(ctx.crossed),
                declined=list(ctx.declined),
                prompt=ctx.prompt,
            ),
            finish_order=list(self.finish_order),
            section_winners=dict(self.section_winners),
            round_limit_reached=self.round_limit_reached,
            solo_score=dict(self.solo_score) if self.solo_score is not None else None,
        )

    def team(self, entrant: str) -> list[Cyclist]:
        return [c for c in self.cyclists.values() if c.entrant == entrant]

    def label(self, key: str) -> str:
        """How players read a cyclist: ``Anna's #3 (domestique)``."""
        c = self.cyclists[key]
        return f"{self.names.get(c.entrant, c.entrant)}'s #{c.number} ({c.role})"

    def at(self, row: int, lane: int) -> Cyclist | None:
        """The cyclist on the road on (row, lane), if any."""
        for c in self.cyclists.values():
            if c.row == row and c.lane == lane and c.placed and not c.crossed:  # cheapest test first
                return c
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "course": self.course.to_json(),
            "options": copy.deepcopy(self.options),
            "entrants": list(self.entrants),
            "names": dict(self.names),
            "solo": self.solo,
            "team_size": self.team_size,
            "cyclists": [asdict(c) for c in self.cyclists.values()],
            "phase": self.phase,
            "placement_order": list(self.placement_order),
            "placement_turn": self.placement_turn,
            "round": self.round,
            "ctx": asdict(self.ctx) if self.ctx else None,
            "finish_order": list(self.finish_order),
            "section_winners": dict(self.section_winners),
            "round_limit_reached": self.round_limit_reached,
            "solo_score": dict(self.solo_score) if self.solo_score is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RaceState:
        ctx = data.get("ctx")
        return cls(
            course=Course.from_json(data["course"]),
            options=copy.deepcopy(dict(data["options"])),
            entrants=list(data["entrants"]),
            names=dict(data["names"]),
            solo=bool(data["solo"]),
            team_size=int(data["team_size"]),
            cyclists={c["key"]: Cyclist(**c) for c in data["cyclists"]},
            phase=str(data["phase"]),
            placement_order=list(data["placement_order"]),
            placement_turn=int(data["placement_turn"]),
            round=int(data["round"]),
            ctx=RoundContext(**copy.deepcopy(ctx)) if ctx else None,
            finish_order=list(data["finish_order"]),
            section_winners=dict(data["section_winners"]),
            round_limit_reached=bool(data["round_limit_reached"]),
            solo_score=dict(data["solo_score"]) if data.get("solo_score") is not None else None,
        )

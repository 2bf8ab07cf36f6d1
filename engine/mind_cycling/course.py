"""The course: strips of plains, sprint and mountain, sections, the finish line, rocks and supply spaces.

Rows are numbered 1.. from the start line; rows 0, -1, ... behind it belong to the first strip's
section (D5). The finish line lies just after the last row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.mind_cycling.models import Space, Stage
from engine.rng import Rng

CAPS: dict[str, dict[str, int]] = {
    # §3.4 [SEED]: maximum movement by role and section.
    "sprinter": {"plains": 5, "sprint": 7, "mountain": 3},
    "domestique": {"plains": 7, "sprint": 5, "mountain": 5},
    "climber": {"plains": 5, "sprint": 3, "mountain": 7},
}

OWN_SECTION = {"sprinter": "sprint", "domestique": "plains", "climber": "mountain"}
"""§6.3: where each role may launch an attack."""


@dataclass(frozen=True)
class Section:
    """A maximal run of strips of one type (D5)."""

    kind: str
    first: int
    last: int


@dataclass(frozen=True)
class Course:
    """The course as the rules see it; immutable and rebuilt from its JSON form."""

    strips: tuple[str, ...]
    strip_length: int
    lanes: int
    rocks: frozenset[Space]
    supply: frozenset[Space]
    medal_sprint: Section | None
    medal_mountain: Section | None

    @cached_property
    def last_row(self) -> int:
        """The last row before the finish line (worked out once: every step of every move reads it)."""
        return len(self.strips) * self.strip_length

    @cached_property
    def _kinds(self) -> tuple[str, ...]:
        """:meth:`section_kind` of rows 0 to :attr:`last_row`, worked out once per course."""
        return tuple(self._kind_of(row) for row in range(self.last_row + 1))

    def section_kind(self, row: int) -> str:
        """The section type of ``row``; rows behind the start belong to the first strip (D5)."""
        if 0 <= row <= self.last_row:
            return self._kinds[row]
        return self._kind_of(row)

    def _kind_of(self, row: int) -> str:
        if row < 1:
            return self.strips[0]
        index = min((row - 1) // self.strip_length, len(self.strips) - 1)
        return self.strips[index]

    def sections(self) -> list[Section]:
        return sections_of(self.strips, self.strip_length)

    def to_json(self) -> dict[str, Any]:
        return {
            "strips": list(self.strips),
            "strip_length": self.strip_length,
            "lanes": self.lanes,
            "rocks": sorted([r, la] for r, la in self.rocks),
            "supply_spaces": sorted([r, la] for r, la in self.supply),
            "medal_sprint": _section_json(self.medal_sprint),
            "medal_mountain": _section_json(self.medal_mountain),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Course:
        return cls(
            strips=tuple(data["strips"]),
            strip_length=int(data["strip_length"]),
            lanes=int(data["lanes"]),
            rocks=frozenset((int(r), int(la)) for r, la in data["rocks"]),
            supply=frozenset((int(r), int(la)) for r, la in data["supply_spaces"]),
            medal_sprint=_section_from(data["medal_sprint"]),
            medal_mountain=_section_from(data["medal_mountain"]),
        )


def _section_json(section: Section | None) -> dict[str, Any] | None:
    return None if section is None else {"kind": section.kind, "first": section.first, "last": section.last}


def _section_from(data: dict[str, Any] | None) -> Section | None:
    return None if data is None else Section(str(data["kind"]), int(data["first"]), int(data["last"]))


def sections_of(strips: tuple[str, ...] | list[str], strip_length: int) -> list[Section]:
    """The sections of a course: consecutive strips of one type form one section (D5)."""
    found: list[Section] = []
    for i, kind in enumerate(strips):
        first, last = i * strip_length + 1, (i + 1) * strip_length
        if found and found[-1].kind == kind:
            found[-1] = Section(kind, found[-1].first, last)
        else:
            found.append(Section(kind, first, last))
    return found


def medal_section(strips: list[str], strip_length: int, kind: str, which: str) -> Section | None:
    """D7: the sprint (mountain) section that awards the medal: the last one, or the first."""
    runs = [s for s in sections_of(strips, strip_length) if s.kind == kind]
    if not runs:
        return None
    return runs[-1] if which == "last" else runs[0]


def build_course(stage: Stage, lanes: int, medal_which: str, seed: int) -> Course:
    """The course of a race: D6 placement of rocks and supply spaces, and the checks on explicit lists."""
    strips: list[str] = list(stage.course)
    length = stage.strip_length
    last_row = len(strips) * length
    sprint = medal_section(strips, length, "sprint", medal_which)
    mountain = medal_section(strips, length, "mountain", medal_which)

    explicit_rocks = _explicit(stage.rocks, "rocks", last_row, lanes)
    explicit_supply = _explicit(stage.supply_spaces, "supply_spaces", last_row, lanes)
    if explicit_rocks is not None and explicit_supply is not None:
        both = sorted(explicit_rocks & explicit_supply)
        if both:
            raise ValueError(f"space {_space(both[0])} holds both a rock and a supply space")

    # D6: a number = that many spaces at random in the medal mountain section, one per row, rocks first.
    rng = Rng.from_seed(seed, "course")
    free_rows = list(range(mountain.first, mountain.last + 1)) if mountain else []
    rng.shuffle(free_rows)
    used_rows = {r for r, _ in (explicit_rocks or set()) | (explicit_supply or set())}
    free_rows = [r for r in free_rows if r not in used_rows]
    rocks = explicit_rocks if explicit_rocks is not None else _random(rng, free_rows, int(stage.rocks), lanes)  # type: ignore[arg-type]
    supply = (
        explicit_supply if explicit_supply is not None else _random(rng, free_rows, int(stage.supply_spaces), lanes)  # type: ignore[arg-type]
    )
    if explicit_rocks is not None and not road_is_open(rocks, lanes, last_row):
        raise ValueError("the rocks close the road: no cyclist could reach the finish line")
    return Course(tuple(strips), length, lanes, frozenset(rocks), frozenset(supply), sprint, mountain)


def _space(space: Space) -> str:
    return f"(row {space[0]}, lane {space[1]})"


def _explicit(value: int | list[Space], name: str, last_row: int, lanes: int) -> set[Space] | None:
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"{name}: the number of spaces can't be negative ({value})")
        return None
    spaces: set[Space] = set()
    for row, lane in value:
        if not 1 <= row <= last_row or not 1 <= lane <= lanes:
            raise ValueError(
                f"{name}: space {_space((row, lane))} is outside the course (rows 1-{last_row}, lanes 1-{lanes})"
            )
        spaces.add((row, lane))
    return spaces


def _random(rng: Rng, free_rows: list[int], count: int, lanes: int) -> set[Space]:
    """Take up to ``count`` rows from ``free_rows`` (consumed), one space per row at a random lane."""
    placed: set[Space] = set()
    while count > 0 and free_rows:
        row = free_rows.pop()
        placed.add((row, rng.randbelow(lanes) + 1))
        count -= 1
    return placed


def road_is_open(rocks: set[Space] | frozenset[Space], lanes: int, last_row: int) -> bool:
    """D6: is there a chain of steps (F, FL, FR) over free spaces from row 1 to the finish line?"""
    reach = {lane for lane in range(1, lanes + 1) if (1, lane) not in rocks}
    for row in range(2, last_row + 1):
        reach = {
            lane
            for lane in range(1, lanes + 1)
            if (row, lane) not in rocks and any(lane + d in reach for d in (-1, 0, 1))
        }
        if not reach:
            return False
    return bool(reach)


def preview_course(stage: Stage, lanes: int, medal_which: str) -> Course:
    """The course a stage shows before a race: rocks and supply spaces given as a count are placed from the
    race seed, so only the explicitly placed ones appear (the text board and the preview picture share it)."""
    explicit = stage.model_copy(
        update={
            "rocks": stage.rocks if isinstance(stage.rocks, list) else 0,
            "supply_spaces": stage.supply_spaces if isinstance(stage.supply_spaces, list) else 0,
        }
    )
    return build_course(explicit, lanes, medal_which, 0)

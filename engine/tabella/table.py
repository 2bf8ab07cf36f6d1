"""The Tabella del Destino and the course read from it (rules §3, §4.2, §4.3).

The course is three consecutive rows of a 10x10 table of digits, read two digits at a time: each
row gives five pairs, and a pair's digits decide its terrain and whether it is a curvone or a
strettoia. Everything here is derived from the table and the first row, so the state stores only those.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.messages import Message, cached_msg, msg
from engine.rng import Rng

Terrain = Literal["climb", "descent", "flat"]
ROW_NAMES = ("A", "B", "C")
TABLE_SIZE = 10
PAIRS = 5


class TableFile(BaseModel):
    """The data file of a named table: a 10x10 grid of digits 0-9 and where it comes from."""

    model_config = ConfigDict(extra="forbid")

    name: str
    source: str
    rows: list[list[int]] = Field(min_length=TABLE_SIZE, max_length=TABLE_SIZE)

    @field_validator("rows")
    @classmethod
    def _ten_digits_per_row(cls, rows: list[list[int]]) -> list[list[int]]:
        return check_table(rows)


def check_table(rows: list[list[int]]) -> list[list[int]]:
    """A table must be 10 rows of 10 digits 0-9 (D3); raise ValueError naming the bad spot."""
    if len(rows) != TABLE_SIZE:
        raise ValueError(f"the table must have 10 rows, this one has {len(rows)}")
    for i, row in enumerate(rows, start=1):
        if len(row) != TABLE_SIZE:
            raise ValueError(f"row {i} of the table must have 10 digits, it has {len(row)}")
        for j, digit in enumerate(row, start=1):
            if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= 9:
                raise ValueError(f"row {i}, column {j} of the table must be a digit 0-9, not {digit!r}")
    return rows


@cache
def _classic() -> TableFile:
    text = resources.files("engine.tabella").joinpath("classic_table.json").read_text(encoding="utf-8")
    return TableFile.model_validate(json.loads(text))


def classic_table() -> list[list[int]]:
    """The Project Aon table of §4.3 (a fresh copy)."""
    return [list(row) for row in _classic().rows]


def random_table(rng: Rng) -> list[list[int]]:
    """A balanced random table (D3): each digit 0-9 exactly 10 times, shuffled with the race seed (D5)."""
    digits = [d for d in range(10) for _ in range(TABLE_SIZE)]
    rng.shuffle(digits)
    return [digits[i * TABLE_SIZE : (i + 1) * TABLE_SIZE] for i in range(TABLE_SIZE)]


@dataclass(frozen=True)
class Pair:
    """One cell of the course: two digits, their terrain and their special kinds."""

    a: int
    b: int

    @property
    def terrain(self) -> Terrain:
        """Climb if the second digit is higher, descent if lower, flat if equal (§3; zero counts as zero)."""
        if self.b > self.a:
            return "climb"
        if self.b < self.a:
            return "descent"
        return "flat"

    @property
    def curvone(self) -> bool:
        """D18: a pair is a curvone if either digit is 0."""
        return 0 in (self.a, self.b)

    @property
    def strettoia(self) -> bool:
        """D18: a pair is a strettoia if either digit is 1."""
        return 1 in (self.a, self.b)

    @property
    def capacity(self) -> int:
        """D17: two riders share a cell freely, one only in a strettoia."""
        return 1 if self.strettoia else 2

    def describe(self) -> Message:
        """The pair as a move reads it, ``(3,1) flat, strettoia``: a message per case (the terrain a nested
        message of its own), so a translator words the terrain and the features too."""
        key, text = _PAIR_TEXTS[(self.curvone, self.strettoia)]
        terrain = cached_msg(TERRAIN_KEYS[self.terrain], self.terrain)
        return msg(key, text, a=self.a, b=self.b, terrain=terrain)


TERRAIN_KEYS = {"climb": "td.terrain.climb", "descent": "td.terrain.descent", "flat": "td.terrain.flat"}
"""The message key of each terrain's word (the word itself is its English text)."""
_PAIR_TEXTS = {
    (False, False): ("td.pair", "({a},{b}) {terrain}"),
    (True, False): ("td.pair.curvone", "({a},{b}) {terrain}, curvone"),
    (False, True): ("td.pair.strettoia", "({a},{b}) {terrain}, strettoia"),
    (True, True): ("td.pair.curvone_strettoia", "({a},{b}) {terrain}, curvone + strettoia"),
}
"""(curvone, strettoia) -> the pair's message key and English text (D18)."""


@dataclass(frozen=True)
class Course:
    """Rows A, B, C (indices 0-2) of the course, each with pairs 1-5 (indices 0-4)."""

    table_rows: tuple[tuple[int, ...], ...]
    first_row: int

    @classmethod
    def of(cls, table: list[list[int]], first_row: int) -> Course:
        """D4: rows ``first_row`` .. ``first_row``+2 of the table (1-based, 1-8, no wrap-around)."""
        if not 1 <= first_row <= TABLE_SIZE - 2:
            raise ValueError(f"the first row must be 1 to 8, not {first_row}")
        rows = tuple(tuple(table[first_row - 1 + i]) for i in range(3))
        return cls(table_rows=rows, first_row=first_row)

    def pair(self, row: int, pair: int) -> Pair:
        """The pair number ``pair`` (1-5) of row ``row`` (0 = A, 1 = B, 2 = C)."""
        digits = self.table_rows[row]
        return Pair(digits[2 * pair - 2], digits[2 * pair - 1])

    def drawn_rows(self) -> list[tuple[str, int, str]]:
        """The course's three rows, A on top: the row's letter, its number in the table, its digit pairs."""
        out = []
        for r, name in enumerate(ROW_NAMES):
            digits = self.table_rows[r]
            pairs = "  ".join(f"{digits[2 * i]}{digits[2 * i + 1]}" for i in range(PAIRS))
            out.append((name, self.first_row + r, pairs))
        return out


def cell_name(row: int, pair: int) -> str:
    """``B3`` for row index 1, pair 3."""
    return f"{ROW_NAMES[row]}{pair}"

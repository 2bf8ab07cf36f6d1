"""The track: squares with a terrain and 1-3 lanes, built from tile letters, a terrain profile or a preset.

Squares are numbered 1, 2, ... from the first square of the start tile (rules "Terms"), or of a test track's
first square when its profile has no start area (R-FR-10: raced only from a setup placing every rider). Every per-square
table of :class:`Track` is indexed by that number (index 0 is unused) and runs :data:`VIRTUAL` squares past
the last printed one, so that the hot movement loop never checks bounds: with ``finish_overflow="extend"``
those squares are the virtual finish area (D4); with ``"clip"`` no move reaches them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

START, FLAT, ASCENT, DESCENT, SUPPLY, COBBLE, FINISH = "S", "_", "u", "d", "P", "C", "F"
TERRAIN_NAMES = {
    START: "start",
    FLAT: "flat",
    ASCENT: "ascent",
    DESCENT: "descent",
    SUPPLY: "supply",
    COBBLE: "cobbles",
    FINISH: "finish",
}
VIRTUAL = 24
"""Virtual squares kept past the last printed square (a racing rider moves at most 9 from before the line)."""

ASCENT_CAP = 5
MAX_VALUE = 9
"""The highest movement value a card gives (a 9; Attack!'s rear rider)."""
MIN_SPEED = {DESCENT: 5, SUPPLY: 4}
"""6.3, 6.4: the minimum speed of a move that starts on the square."""


class TileSide(BaseModel):
    """One side of a physical tile: its squares' terrain and lane counts."""

    model_config = ConfigDict(extra="forbid")

    terrain: str = Field(pattern=r"^[S_udFPC]+$")
    lanes: list[int]
    kind: str = Field(pattern=r"^(start|straight|curve|finish|short)$")


class TileBox(BaseModel):
    """Every tile side the rules document lists (§3.2), and the ones that cannot be used."""

    model_config = ConfigDict(extra="forbid")

    tiles: dict[str, TileSide]
    unusable: dict[str, str]


class StageVersion(BaseModel):
    """A stage card: its tile string and the run-lengths the rules document gives for it."""

    model_config = ConfigDict(extra="forbid")

    origin: str
    """Where the data comes from and how well it is checked (for maintainers: players read ``source``)."""
    tiles: str
    profile: str
    label: Literal["origin unverified", "unverified"] | None = None
    """The status a listing shows beside the name (a ``fr.preset.label.*`` message)."""


class StageEntry(StageVersion):
    """A catalogue stage; Peloton stages carry their 5-6-player version in ``large`` (D13)."""

    name: str
    source: Literal["intro", "base", "extra", "tour2017", "peloton"]
    """The box or event the stage comes from, as a preset's summary names it."""
    large: StageVersion | None = None


class Catalogue(BaseModel):
    """The stage catalogue of §3.3 (data file ``data/stages.json``)."""

    model_config = ConfigDict(extra="forbid")

    default: str
    stages: list[StageEntry]


def _read(name: str) -> str:
    return resources.files("engine.flamme_rouge").joinpath("data").joinpath(name).read_text(encoding="utf-8")


@cache
def tile_box() -> TileBox:
    """The tiles of §3.2, validated."""
    return TileBox.model_validate(json.loads(_read("tiles.json")))


@cache
def catalogue() -> Catalogue:
    """The stages of §3.3, validated."""
    return Catalogue.model_validate(json.loads(_read("stages.json")))


_LABEL_SUFFIX = re.compile(r"\s*(\[[^\[\]]*\]|\([^()]*\))\s*$")
"""A status label written after a name, as a listing shows it: ``Sprint de Montagne [origin unverified]``."""


@cache
def find_preset(name: str) -> StageEntry | None:
    """A catalogue stage by name (case and dashes are forgiven), also as a listing shows it: followed by its
    label in brackets (``Sprint de Montagne [origin unverified]``, in any language)."""

    def key(s: str) -> str:
        return re.sub(r"[\s\-–']+", " ", s).strip().casefold()

    for wanted in (key(name), key(_LABEL_SUFFIX.sub("", name))):
        for stage in catalogue().stages:
            if key(stage.name) == wanted:
                return stage
    return None


_TILE_TOKEN = re.compile(r"_[1-9]|[a-vA-V1-9]")


def split_tiles(text: str) -> list[str]:
    """A tile string as its tokens: ``"_123g"`` -> ``["_1", "2", "3", "g"]``."""
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TILE_TOKEN.match(text, pos)
        if m is None:
            tiles = " ".join(tile_box().tiles)
            raise ValueError(
                f"tile string {text!r}: {text[pos]!r} at position {pos + 1} is not a tile letter; tiles are {tiles}"
            )
        tokens.append(m.group())
        pos = m.end()
    return tokens


def physical_tile(token: str) -> str:
    """The physical tile of a side: ``c``/``C`` -> ``c``, ``3``/``_3`` -> ``3``."""
    return token.lstrip("_").lower()


_PROFILE_TOKEN = re.compile(r"^([S_udFPC])(?:\[(\d)L\][×x](\d+)|(\d+))$")


def parse_profile(text: str) -> list[tuple[str, int]]:
    """A terrain profile (§3.3 notation) as ``(terrain, lanes)`` per square.

    ``_17`` = 17 flat squares with 2 lanes; ``P5`` = 5 supply squares (3 lanes); ``C1``/``C2`` = one cobbled
    square with 1/2 lanes; ``_[3L]×6`` = 6 flat squares with 3 lanes.
    """
    squares: list[tuple[str, int]] = []
    for token in text.split():
        m = _PROFILE_TOKEN.match(token)
        if m is None:
            raise ValueError(f"terrain profile: {token!r} is not a run like '_12', 'u5', 'P5', 'C1' or '_[3L]×6'")
        terrain = m.group(1)
        if m.group(2) is not None:
            lanes, count = int(m.group(2)), int(m.group(3))
        elif terrain == COBBLE:
            lanes, count = int(m.group(4)), 1
        else:
            lanes, count = (3 if terrain == SUPPLY else 2), int(m.group(4))
        if not 1 <= lanes <= 3:
            raise ValueError(f"terrain profile: {token!r} has {lanes} lanes; a square has 1 to 3 lanes")
        if count < 1:
            raise ValueError(f"terrain profile: {token!r} has no squares")
        squares.extend([(terrain, lanes)] * count)
    return squares


def profile_of(squares: list[tuple[str, int]]) -> str:
    """The §3.3 notation of a list of squares (the inverse of :func:`parse_profile`)."""
    out: list[str] = []
    i = 0
    while i < len(squares):
        terrain, lanes = squares[i]
        j = i
        while j < len(squares) and squares[j] == (terrain, lanes):
            j += 1
        n = j - i
        if terrain == COBBLE:
            out.extend([f"C{lanes}"] * n)
        elif lanes == (3 if terrain == SUPPLY else 2):
            out.append(f"{terrain}{n}")
        else:
            out.append(f"{terrain}[{lanes}L]×{n}")
        i = j
    return " ".join(out)


@dataclass(frozen=True, slots=True)
class Track:
    """A built track. Tables are indexed by square number (1-based) and include the virtual squares.

    ``tile`` gives, per square, the index of its tile (or of its run for a profile stage), which Meteo
    uses (D10); ``straight`` lists the indexes of the tiles that can hold a weather token.
    """

    name: str
    terrain: str
    """One character per square, index 0 = ``" "`` so that ``terrain[n]`` is square n."""
    lanes: tuple[int, ...]
    tile: tuple[int, ...]
    tokens: tuple[str, ...]
    """The tile letters in order (empty for a profile stage)."""
    straight: tuple[int, ...]
    start_squares: int
    """The S squares (the start area). 0 for a test track whose profile begins without one (R-FR-10): it has
    no grid, so a race on it needs a setup placing every rider (``start.check_start_area``)."""
    finish: int
    """The first finish-area square; the finish line is just before it."""
    last: int
    """The last printed square."""
    no_slip: tuple[bool, ...]
    ascent: tuple[bool, ...]
    min_speed: tuple[int, ...]
    next_ascent: tuple[int, ...]
    """Per square: the first ascent square at or after it (a huge number if none): the ascent rule's scan."""
    wind: tuple[str, ...]
    """Per square: "" or the Meteo token of its tile ("crosswind", "tailwind", "headwind")."""
    targets: tuple[tuple[int, ...], ...]
    """Per square, per movement value 0..:data:`MAX_VALUE`: the square a move from it aims at before blocking
    and before D4's clip (:func:`aim`); worked out once per track, as every move of every race reads it."""
    plans: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """What a strategy works out from a square and a hand alone, kept for the track's life (filled by
    ``strategies.heuristic_card``, every rider of every round asks it): a pure function of the key and the
    fields above but ``no_slip`` and ``wind``, so the weather's copies of a track share it."""

    def squares(self) -> list[tuple[str, int]]:
        """The printed squares as ``(terrain, lanes)``."""
        return [(self.terrain[n], self.lanes[n]) for n in range(1, self.last + 1)]

    def profile(self) -> str:
        return profile_of(self.squares())

    def with_weather(self, tokens_per_tile: dict[int, str]) -> Track:
        """The same track with Meteo tokens on some tiles (crosswind removes slipstream there, D10)."""
        wind = tuple(tokens_per_tile.get(t, "") if t >= 0 else "" for t in self.tile)
        no_slip = tuple(ns or w == "crosswind" for ns, w in zip(self.no_slip, wind, strict=True))
        return Track(
            name=self.name,
            terrain=self.terrain,
            lanes=self.lanes,
            tile=self.tile,
            tokens=self.tokens,
            straight=self.straight,
            start_squares=self.start_squares,
            finish=self.finish,
            last=self.last,
            no_slip=no_slip,
            ascent=self.ascent,
            min_speed=self.min_speed,
            next_ascent=self.next_ascent,
            wind=wind,
            targets=self.targets,  # the weather moves no target
            plans=self.plans,  # nor a plan (they never read no_slip)
        )


def _assemble(
    name: str, squares: list[tuple[str, int]], tile: list[int], tokens: list[str], straight: list[int]
) -> Track:
    terrain = "".join(t for t, _ in squares)
    m = re.match(r"S*", terrain)
    assert m is not None  # S* matches the empty string
    start_squares = m.end()
    if "S" in terrain[start_squares:]:
        raise ValueError("start squares (S) may only form the leading run of a stage")
    f = terrain.find(FINISH)
    if f < 0 or terrain[f:] != FINISH * (len(terrain) - f):
        raise ValueError("a stage must end with its finish area (F squares) and have no F before it")
    if f <= start_squares:
        raise ValueError("a stage needs at least one square between the start area and the finish area")
    last = len(squares)
    last_lanes = squares[-1][1]
    full = [(" ", 0), *squares] + [(FINISH, last_lanes)] * VIRTUAL  # D4: virtual finish squares
    tiles = [-1, *tile] + [-1] * VIRTUAL
    min_speed = tuple(MIN_SPEED.get(t, 0) for t, _ in full)
    next_ascent = _next_ascent([t for t, _ in full])
    return Track(
        name=name,
        terrain="".join(t for t, _ in full),
        lanes=tuple(n for _, n in full),
        tile=tuple(tiles),
        tokens=tuple(tokens),
        straight=tuple(straight),
        start_squares=start_squares,
        finish=f + 1,
        last=last,
        # 6.2, 6.5, D3: no slipstream for or from ascents, cobbles and the finish area.
        no_slip=tuple(t in (ASCENT, COBBLE, FINISH) for t, _ in full),
        # D3: finish-area squares are never ascents.
        ascent=tuple(t == ASCENT for t, _ in full),
        min_speed=min_speed,
        next_ascent=next_ascent,
        wind=("",) * len(full),
        targets=tuple(
            tuple(aim(min_speed[n], next_ascent[n] - n, n, v) for v in range(MAX_VALUE + 1)) for n in range(len(full))
        ),
    )


def aim(minimum: int, ascent_in: int, start: int, value: int) -> int:
    """6.1 (D14): the square a move of ``value`` from ``start`` aims at before blocking, on a square of minimum
    speed ``minimum`` (D15, D16) with the first ascent square ``ascent_in`` squares on: the minimum speed
    first, then the ascent rule (6.2). :attr:`Track.targets` holds it for every square and value."""
    v = value
    if v < minimum:
        v = minimum
    if ascent_in <= v:  # 6.2: the first ascent square within reach
        v = ascent_in - 1 if ascent_in > ASCENT_CAP else min(v, ASCENT_CAP)
    return start + v


def _next_ascent(terrain: list[str]) -> tuple[int, ...]:
    out = [1 << 30] * len(terrain)
    nxt = 1 << 30
    for n in range(len(terrain) - 1, -1, -1):
        if terrain[n] == ASCENT:
            nxt = n
        out[n] = nxt
    return tuple(out)


@cache
def from_tiles(text: str, name: str = "") -> Track:
    """A track from a tile string (D12: starts with a start tile, ends with a finish tile, each physical
    tile at most once)."""
    box = tile_box()
    tokens = split_tiles(text)
    if not tokens:
        raise ValueError("a tile string needs at least a start tile and a finish tile")
    seen: dict[str, str] = {}
    squares: list[tuple[str, int]] = []
    tile: list[int] = []
    straight: list[int] = []
    for i, token in enumerate(tokens):
        phys = physical_tile(token)
        if phys in box.unusable and token == phys:
            raise ValueError(f"tile {token!r} cannot be used: {box.unusable[phys]}")
        if phys in seen:
            raise ValueError(f"tile {phys!r} is used twice ({seen[phys]!r} and {token!r}); each tile exists once")
        seen[phys] = token
        side = box.tiles[token]
        kind = side.kind
        if i == 0 and kind != "start":
            raise ValueError(f"a stage starts with a start tile (a, A, 1, _1), not {token!r}")
        if i == len(tokens) - 1 and kind != "finish":
            raise ValueError(f"a stage ends with a finish tile (u, U, v, V), not {token!r}")
        if 0 < i < len(tokens) - 1 and kind in ("start", "finish"):
            raise ValueError(f"tile {token!r} is a start or finish tile and can only open or close a stage")
        if kind == "straight":  # D10: the tiles that can hold a weather token
            straight.append(i)
        for t, n in zip(side.terrain, side.lanes, strict=True):
            squares.append((t, n))
            tile.append(i)
    return _assemble(name or text, squares, tile, tokens, straight)


@cache
def from_profile(text: str, name: str = "") -> Track:
    """A track from a terrain profile (D12). Each run is a "tile" for Meteo; flat runs of 6+ squares can
    hold a drawn token (D12). A profile may begin without start squares: a test track (R-FR-10)."""
    squares = parse_profile(text)
    tile: list[int] = []
    straight: list[int] = []
    run = -1
    prev: tuple[str, int] | None = None
    runs: list[tuple[str, int]] = []
    for sq in squares:
        if sq != prev:
            run += 1
            runs.append((sq[0], 0))
            prev = sq
        runs[run] = (sq[0], runs[run][1] + 1)
        tile.append(run)
    for i, (terrain, count) in enumerate(runs):
        if terrain == FLAT and count >= 6:
            straight.append(i)
    return _assemble(name or text, squares, tile, [], straight)


def riders_make_it_large(riders: int) -> bool:
    """D13: more than 8 riders (bots included) use the 5-6-player version or the 3-lane start tile."""
    return riders > 8


def large_base_tiles(text: str) -> str:
    """D13: a base stage with more than 8 riders gets the Peloton 3-lane start tile (a -> _1, A -> 1)."""
    tokens = split_tiles(text)
    if tokens and tokens[0] in ("a", "A"):
        tokens[0] = "_1" if tokens[0] == "a" else "1"
    return "".join(tokens)

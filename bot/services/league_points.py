"""League points per place, per rule system: the defaults and a server's own tables.

Points come from the place an entrant holds in the engine's generic result (``Standing.place``), never
from a rule system's own figures: each rule system orders its standings itself (Mind Cycling by medals,
then team points, then the best-placed cyclist; Wyścig by general classification), and the league only
looks a place up in the table keyed by the rule system's id. Tied entrants share a place and so earn
the same points.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.league_tables import LeaguePoints

MAX_PLACES = 30
"""The longest table an admin may set (more places than any race seats)."""
MAX_POINTS = 1000


@dataclass(frozen=True)
class PointsTable:
    """Points for places 1, 2, 3... (``points``), and ``rest`` for every place below them."""

    points: tuple[int, ...]
    rest: int = 0

    def for_place(self, place: int) -> int:
        if place < 1:
            return 0
        return self.points[place - 1] if place <= len(self.points) else self.rest

    def describe(self) -> str:
        listed = ", ".join(str(p) for p in self.points)
        return f"{listed}; {self.rest}" if self.rest else listed


TOP_TEN = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)

DEFAULTS: dict[str, PointsTable] = {
    "flamme_rouge": PointsTable(TOP_TEN),  # by finishing place
    "wyscig": PointsTable(TOP_TEN),  # by general classification place (the engine's standings)
    "tabella": PointsTable((10, 8, 5, 3, 2, 1), rest=1),  # its own scoring: 1 from sixth down
    "mind_cycling": PointsTable(tuple(range(12, 0, -1))),  # its standings: medals first, then team points
}
"""The defaults of issue 18, keyed by rule system id."""


def default_table(ruleset: str) -> PointsTable:
    return DEFAULTS.get(ruleset, PointsTable(TOP_TEN))


async def table_for(session: AsyncSession, server_id: int, ruleset: str) -> PointsTable:
    """The server's own table for the rule system, or the default."""
    row = await session.get(LeaguePoints, (server_id, ruleset))
    if row is None:
        return default_table(ruleset)
    return PointsTable(tuple(int(p) for p in row.points), int(row.rest))


def parse_table(text: str) -> PointsTable | None:
    """``"25, 18, 15"`` or ``"10 8 5 3 2 1; 1"`` (after ``;``: points for every place below). ``None`` if
    the text is not a list of whole numbers from 0 to :data:`MAX_POINTS`, at most :data:`MAX_PLACES` long."""
    listed, _, rest_text = text.partition(";")
    parts = [p for p in listed.replace(",", " ").split() if p]
    rest_parts = rest_text.replace(",", " ").split()
    if not parts or len(parts) > MAX_PLACES or len(rest_parts) > 1:
        return None
    try:
        points = tuple(int(p) for p in parts)
        rest = int(rest_parts[0]) if rest_parts else 0
    except ValueError:
        return None
    if any(not 0 <= p <= MAX_POINTS for p in (*points, rest)):
        return None
    return PointsTable(points, rest)

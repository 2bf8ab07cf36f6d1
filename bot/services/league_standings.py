"""Reading the league: a season's standings per rule system, a rider's profile, the export rows.

Standings order (docs/league.md): more points; then more wins; then more second places, more third
places, and so on down the places; players equal on all of these share the rank (listed by name).
Members and bot strategies are ranked apart. The standings read the players' tallies of one season and
rule system (``league_tallies``, kept with every credit; one short row per player), the profile one
player's lines on one server (index ``server_id, player, finished_at``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services.context import Context
from bot.services.league import open_season
from bot.services.outcomes import Refusal
from bot.store.league_tables import LeagueRating, LeagueResult, LeagueSeason, LeagueTally

RECENT = 5
"""Races listed on a profile."""


def kind_of(player: str) -> str:
    """``member``, ``bot`` or ``forgotten`` (an anonymised member)."""
    if player.startswith("bot:"):
        return "bot"
    if player.startswith("x"):
        return "forgotten"
    return "member"


@dataclass(frozen=True)
class StandingLine:
    rank: int
    player: str
    name: str | None
    races: int
    points: int
    places: tuple[int, ...]
    """How many times the player finished 1st, 2nd, 3rd... (index 0 = wins)."""
    provisional: bool
    """Some of the points are provisional (a result awaiting its announcement)."""
    rating: float | None
    trend: float | None

    @property
    def kind(self) -> str:
        return kind_of(self.player)

    @property
    def wins(self) -> int:
        return self.places[0] if self.places else 0

    def place_count(self, place: int) -> int:
        return self.places[place - 1] if 0 < place <= len(self.places) else 0


@dataclass(frozen=True)
class Standings:
    season: int | None
    season_open: bool
    ruleset: str
    members: list[StandingLine]
    bots: list[StandingLine]


def order_key(points: int, places: tuple[int, ...], depth: int) -> tuple[int, ...]:
    """The tie-break key: points, then wins, second places, third places... (bigger is better)."""
    padded = places + (0,) * (depth - len(places))
    return (points, *padded)


def rank(lines: list[dict[str, Any]]) -> list[StandingLine]:
    """Rank one group (members or bots) by :func:`order_key`; equal keys share the rank."""
    depth = max((len(line["places"]) for line in lines), default=0)
    ordered = sorted(
        lines,
        key=lambda line: (
            tuple(-v for v in order_key(line["points"], line["places"], depth)),
            (line["name"] or "").casefold(),
            line["player"],
        ),
    )
    ranked: list[StandingLine] = []
    previous: tuple[int, ...] | None = None
    for position, line in enumerate(ordered, start=1):
        key = order_key(line["points"], line["places"], depth)
        number = ranked[-1].rank if key == previous and ranked else position
        previous = key
        ranked.append(StandingLine(rank=number, **line))
    return ranked


async def find_season(session: AsyncSession, server_id: int, number: int | None) -> LeagueSeason | None:
    """Season ``number``, or (``None``) the open season, else the last one."""
    if number is None:
        season = await open_season(session, server_id)
        if season is not None:
            return season
        query = select(LeagueSeason).where(col(LeagueSeason.server_id) == server_id)
        query = query.order_by(col(LeagueSeason.number).desc()).limit(1)
    else:
        query = select(LeagueSeason).where(col(LeagueSeason.server_id) == server_id, col(LeagueSeason.number) == number)
    return (await session.execute(query)).scalars().first()


async def standings(ctx: Context, server_id: int, ruleset: str, season: int | None = None) -> Standings:
    """The standings of one rule system in a season (default: the open one, else the last)."""
    async with ctx.db.sessions() as session:
        found = await find_season(session, server_id, season)
        if found is None:
            if season is not None:
                raise Refusal.of("league.unknown_season", number=season)
            return Standings(None, False, ruleset, [], [])
        assert found.id is not None
        lines = await _lines(session, server_id, found.id, ruleset)
    members = rank([line for line in lines if kind_of(line["player"]) != "bot"])
    bots = rank([line for line in lines if kind_of(line["player"]) == "bot"])
    return Standings(found.number, found.ended_at is None, ruleset, members, bots)


async def _lines(session: AsyncSession, server_id: int, season_id: int, ruleset: str) -> list[dict[str, Any]]:
    tallies = await session.execute(
        select(
            col(LeagueTally.player),
            col(LeagueTally.name),
            col(LeagueTally.races),
            col(LeagueTally.points),
            col(LeagueTally.places),
            col(LeagueTally.provisional),
        ).where(col(LeagueTally.season_id) == season_id, col(LeagueTally.ruleset) == ruleset)
    )
    rated = await session.execute(
        select(col(LeagueRating.player), col(LeagueRating.mu), col(LeagueRating.sigma), col(LeagueRating.trend)).where(
            col(LeagueRating.server_id) == server_id, col(LeagueRating.ruleset) == ruleset
        )
    )  # the server's ratings in this rule system (a few hundred rows; no long IN list to bind)
    ratings = {str(p): (float(mu) - 3 * float(sigma), float(trend)) for p, mu, sigma, trend in rated.all()}
    out = []
    for player, name, races, points, places, provisional in tallies.all():
        if races <= 0:
            continue
        rating = ratings.get(player)
        out.append(
            {
                "player": player,
                "name": player.removeprefix("bot:") if kind_of(player) == "bot" else name,
                "races": int(races),
                "points": int(points),
                "places": tuple(int(n) for n in places),
                "provisional": provisional > 0,
                "rating": None if rating is None else rating[0],
                "trend": None if rating is None else rating[1],
            }
        )
    return out


# --- profile ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RecentRace:
    race_id: int
    ruleset: str
    stage: str
    place: int
    points: int
    provisional: bool
    finished_at: datetime


@dataclass(frozen=True)
class RatingLine:
    ruleset: str
    rating: float
    trend: float
    races: int


@dataclass(frozen=True)
class Profile:
    """A member's league on one server, over every season."""

    name: str | None
    races: int
    wins: int
    podiums: int
    points: int
    ratings: list[RatingLine]
    best_stage: tuple[str, str, float, int] | None
    """(rule system, stage, average place, races there): the lowest average place, more races first on a tie."""
    recent: list[RecentRace]


async def profile(ctx: Context, server_id: int, user_id: int) -> Profile | None:
    """The member's profile, or ``None`` when they have no league race on this server."""
    player = f"u{user_id}"
    where = (col(LeagueResult.server_id) == server_id, col(LeagueResult.player) == player)
    async with ctx.db.sessions() as session:
        races, wins, podiums, points = (
            await session.execute(
                select(
                    func.count(),
                    func.sum(case((col(LeagueResult.place) == 1, 1), else_=0)),
                    func.sum(case((col(LeagueResult.place) <= 3, 1), else_=0)),
                    func.sum(col(LeagueResult.points)),
                ).where(*where)
            )
        ).one()
        if not races:
            return None
        recent_rows = (
            (
                await session.execute(
                    select(LeagueResult)
                    .where(*where)
                    .order_by(col(LeagueResult.finished_at).desc(), col(LeagueResult.id).desc())
                    .limit(RECENT)
                )
            )
            .scalars()
            .all()
        )
        average = func.avg(col(LeagueResult.place))
        best = (
            await session.execute(
                select(col(LeagueResult.ruleset), col(LeagueResult.stage), average, func.count())
                .where(*where)
                .group_by(col(LeagueResult.ruleset), col(LeagueResult.stage))
                .order_by(average, func.count().desc(), col(LeagueResult.stage))
                .limit(1)
            )
        ).first()
        ratings = (
            await session.execute(
                select(LeagueRating)
                .where(col(LeagueRating.server_id) == server_id, col(LeagueRating.player) == player)
                .order_by(col(LeagueRating.ruleset))
            )
        ).scalars()
        rating_lines = [RatingLine(r.ruleset, r.mu - 3 * r.sigma, r.trend, r.races) for r in ratings]
    return Profile(
        name=recent_rows[0].name if recent_rows else None,
        races=int(races),
        wins=int(wins or 0),
        podiums=int(podiums or 0),
        points=int(points or 0),
        ratings=rating_lines,
        best_stage=None if best is None else (str(best[0]), str(best[1]), float(best[2]), int(best[3])),
        recent=[
            RecentRace(r.race_id, r.ruleset, r.stage, r.place, r.points, r.provisional, r.finished_at)
            for r in recent_rows
        ],
    )


# --- export -----------------------------------------------------------------------------------------
async def season_rulesets(ctx: Context, server_id: int, season: int | None) -> tuple[int | None, list[str]]:
    """The season's number and the rule systems raced in it."""
    async with ctx.db.sessions() as session:
        found = await find_season(session, server_id, season)
        if found is None:
            if season is not None:
                raise Refusal.of("league.unknown_season", number=season)
            return None, []
        rows = await session.execute(
            select(col(LeagueResult.ruleset)).where(col(LeagueResult.season_id) == found.id).distinct()
        )
        return found.number, sorted(str(r) for r in rows.scalars())


async def export_rows(ctx: Context, server_id: int, season: int | None) -> list[dict[str, Any]]:
    """The season's standings of every rule system raced in it, as rows for
    :func:`bot.services.league.export_csv` (members, then bots; a forgotten member has no name)."""
    number, rulesets = await season_rulesets(ctx, server_id, season)
    rows: list[dict[str, Any]] = []
    for ruleset in rulesets:
        table = await standings(ctx, server_id, ruleset, number)
        for group, lines in (("members", table.members), ("bots", table.bots)):
            for line in lines:
                rows.append(
                    {
                        "season": number,
                        "rule_system": ruleset,
                        "group": group,
                        "rank": line.rank,
                        "name": line.name or "",
                        "races": line.races,
                        "points": line.points,
                        "wins": line.wins,
                        "second_places": line.place_count(2),
                        "third_places": line.place_count(3),
                        "provisional": "yes" if line.provisional else "no",
                        "rating": "" if line.rating is None else f"{line.rating:.2f}",
                        "rating_trend": "" if line.trend is None else f"{line.trend:+.2f}",
                    }
                )
    return rows

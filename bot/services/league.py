"""The league: seasons, crediting finished races, points tables, forgetting a member, the export.

``credit_race`` is called once when a race finishes and again when its held-back announcement is
published (the race services do both, one marked line each); it is idempotent. A multiplayer race (two
seats or more, bots included) credits every entrant in the server's open season, opening season 1 (or
the next) when none is open; a provisional result (Tabella before its Gazzetta) is credited as
provisional, corrected when the final result is in, and the correction is returned and kept
(:func:`corrections`) so it can be announced. Ratings move only on final results (a provisional place
may still change; a rating cannot be taken back cleanly). A solo race earns no points and no rating: it
feeds the best-results board of its stage (fewest steps to the end). See docs/league.md.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services import league_ratings, stepping
from bot.services.context import Context
from bot.services.league_points import PointsTable, table_for
from bot.services.outcomes import Refusal
from bot.store.league_tables import (
    LeagueForgotten,
    LeaguePoints,
    LeagueRating,
    LeagueResult,
    LeagueSeason,
    LeagueSoloBest,
    LeagueTally,
)
from bot.store.tables import RaceRow, ResultRow, Seat, Server

_log = logging.getLogger(__name__)

ATTEMPTS = 3
"""Tries when a concurrent credit of the same race (or a season opened meanwhile) wins an insert, or
PostgreSQL breaks a lock cycle."""


@dataclass(frozen=True)
class CreditLine:
    entrant: str
    player: str
    name: str | None
    place: int
    points: int
    provisional: bool


@dataclass(frozen=True)
class PointsChange:
    """A provisional line corrected by the final result (to announce with the Gazzetta)."""

    entrant: str
    name: str | None
    place_before: int
    place_after: int
    points_before: int
    points_after: int


@dataclass(frozen=True)
class LeagueCredit:
    """What crediting a race did. ``status``: ``credited`` (first time), ``corrected`` (a provisional
    result made final), ``unchanged`` (already credited as it stands), ``solo`` (no points; best results
    board), ``not_finished`` (nothing to credit)."""

    race_id: int
    status: str
    season: int | None = None
    provisional: bool = False
    lines: tuple[CreditLine, ...] = ()
    changes: tuple[PointsChange, ...] = field(default_factory=tuple)


def player_key(seat: Seat) -> str:
    """``u<user id>`` for a member, ``bot:<strategy>`` for a bot (each strategy is one player)."""
    if seat.user_id is not None:
        return f"u{seat.user_id}"
    if seat.bot:
        return f"bot:{seat.bot}"
    return f"e:{seat.entrant}"


def stage_label(stage: Any) -> str:
    """The stage a race ran on, as the league names it: a preset's name, ``default`` for the rule
    system's own, or ``custom-<hash>`` for an unnamed custom stage (the same stage gets the same label)."""
    if stage is None:
        return "default"
    if isinstance(stage, str):
        return stage
    if isinstance(stage, dict) and isinstance(stage.get("name"), str):
        return str(stage["name"])
    digest = hashlib.sha1(json.dumps(stage, sort_keys=True, default=str).encode()).hexdigest()[:8]
    return f"custom-{digest}"


# --- crediting ---------------------------------------------------------------------------------------
async def credit_race(ctx: Context, race_id: int) -> LeagueCredit:
    """Credit a finished race in the league (idempotent; see the module's docstring)."""
    for attempt in range(ATTEMPTS):
        try:
            async with ctx.db.sessions() as session, session.begin():
                return await _credit(ctx, session, race_id)
        except DBAPIError as error:  # a concurrent credit won an insert, or PostgreSQL broke a lock cycle
            retry = isinstance(error, IntegrityError) or "deadlock" in str(error).lower()
            if not retry or attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


async def _credit(ctx: Context, session: AsyncSession, race_id: int) -> LeagueCredit:
    race = await session.get(RaceRow, race_id)
    result = await session.get(ResultRow, race_id)
    if race is None or result is None or race.status != "finished":
        return LeagueCredit(race_id, "not_finished")
    seats = list(
        (await session.execute(select(Seat).where(col(Seat.race_id) == race_id).order_by(col(Seat.position))))
        .scalars()
        .all()
    )
    now = ctx.clock.now()
    if len(seats) < 2:
        return await _solo(session, race, seats, now)
    places = {str(s["entrant"]): int(s["place"]) for s in result.standings}
    provisional = bool(result.provisional)
    existing = list(
        (await session.execute(select(LeagueResult).where(col(LeagueResult.race_id) == race_id))).scalars().all()
    )
    if existing and not any(r.provisional for r in existing):
        return await _view(session, race_id, "unchanged", existing)
    table = await table_for(session, race.server_id, race.ruleset)
    changes: list[PointsChange] = []
    if not existing:
        season = await _open_season(session, race.server_id, now)
        assert season.id is not None
        for seat in seats:
            if seat.entrant not in places:
                continue  # not in the standings (did not start): nothing to credit
            place = places[seat.entrant]
            points = table.for_place(place)
            row = LeagueResult(
                season_id=season.id,
                server_id=race.server_id,
                race_id=race_id,
                ruleset=race.ruleset,
                stage=stage_label(stepping.stage_label(race.ruleset, race.stage, race.stage_name)),
                entrant=seat.entrant,
                player=player_key(seat),
                name=seat.name,
                place=place,
                points=points,
                provisional=provisional,
                provisional_place=place if provisional else None,
                provisional_points=points if provisional else None,
                finished_at=race.finished_at or now,
            )
            session.add(row)
            existing.append(row)
        await _tally(ctx, session, existing, sign=1)
        status = "credited"
    elif provisional:
        return await _view(session, race_id, "unchanged", existing)
    else:
        await _tally(ctx, session, existing, sign=-1)  # take the provisional lines out, put the final ones in
        changes = _correct(existing, places, table)
        await _tally(ctx, session, existing, sign=1)
        status = "corrected"
    await session.flush()
    if not provisional:
        await _rate(ctx, session, race, existing)
    view = await _view(session, race_id, status, existing)
    return LeagueCredit(race_id, status, view.season, provisional, view.lines, tuple(changes))


def _correct(rows: list[LeagueResult], places: dict[str, int], table: PointsTable) -> list[PointsChange]:
    changes = []
    for row in rows:
        place = places.get(row.entrant, row.place)
        points = table.for_place(place)
        if (place, points) != (row.place, row.points):
            changes.append(PointsChange(row.entrant, row.name, row.place, place, row.points, points))
        row.place, row.points, row.provisional = place, points, False
    return changes


async def _tally(ctx: Context, session: AsyncSession, rows: list[LeagueResult], sign: int) -> None:
    """Add (``sign`` 1) or take out (-1) the lines' place, points and provisional mark from the players'
    tallies of their season and rule system (rows locked on PostgreSQL; SQLite's writer lock serialises)."""
    if not rows:
        return
    season_id, ruleset = rows[0].season_id, rows[0].ruleset
    players = sorted({r.player for r in rows})
    query = (
        select(LeagueTally)
        .where(
            col(LeagueTally.season_id) == season_id,
            col(LeagueTally.ruleset) == ruleset,
            col(LeagueTally.player).in_(players),
        )
        .order_by(col(LeagueTally.player))  # rows locked in one order: two credits never deadlock
    )
    if ctx.db.is_postgres:
        query = query.with_for_update()
    tallies = {t.player: t for t in (await session.execute(query)).scalars()}
    for row in rows:
        tally = tallies.get(row.player)
        if tally is None:
            tally = LeagueTally(season_id=season_id, ruleset=ruleset, player=row.player, server_id=row.server_id)
            session.add(tally)
            tallies[row.player] = tally
        places = list(tally.places) + [0] * max(0, row.place - len(tally.places))
        places[row.place - 1] += sign
        while places and places[-1] == 0:
            places.pop()
        tally.places = places  # a new list, so the JSON column is seen as changed
        tally.races += sign
        tally.points += sign * row.points
        tally.provisional += sign * int(row.provisional)
        if sign > 0:
            tally.name = row.name


async def _view(session: AsyncSession, race_id: int, status: str, rows: list[LeagueResult]) -> LeagueCredit:
    season = await session.get(LeagueSeason, rows[0].season_id) if rows else None
    ordered = sorted(rows, key=lambda r: (r.place, r.entrant))
    lines = tuple(CreditLine(r.entrant, r.player, r.name, r.place, r.points, r.provisional) for r in ordered)
    provisional = any(r.provisional for r in rows)
    return LeagueCredit(race_id, status, season.number if season else None, provisional, lines)


async def _open_season(session: AsyncSession, server_id: int, now: datetime) -> LeagueSeason:
    """The server's open season, or a new one numbered after the last (season 1 on a new server)."""
    season = await open_season(session, server_id)
    if season is not None:
        return season
    last = (
        await session.execute(select(func.max(LeagueSeason.number)).where(col(LeagueSeason.server_id) == server_id))
    ).scalar()
    season = LeagueSeason(server_id=server_id, number=int(last or 0) + 1, started_at=now)
    session.add(season)
    await session.flush()  # a concurrent opening fails here on (server, number); the credit retries
    return season


async def open_season(session: AsyncSession, server_id: int) -> LeagueSeason | None:
    rows = await session.execute(
        select(LeagueSeason)
        .where(col(LeagueSeason.server_id) == server_id, col(LeagueSeason.ended_at).is_(None))
        .order_by(col(LeagueSeason.number).desc())
        .limit(1)
    )
    return rows.scalars().first()


async def _rate(ctx: Context, session: AsyncSession, race: RaceRow, rows: list[LeagueResult]) -> None:
    """Move the ratings once per race (a compare-and-set on ``rated`` keeps a second caller out)."""
    claimed = await session.execute(
        update(LeagueResult)
        .where(col(LeagueResult.race_id) == race.id, col(LeagueResult.rated).is_(False))
        .values(rated=True)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount == 0:  # type: ignore[attr-defined]
        return
    best: dict[str, int] = {}
    for row in rows:  # a strategy seated twice is one player: its best-placed seat counts
        best[row.player] = min(best.get(row.player, row.place), row.place)
    if len(best) < 2:
        return
    players = sorted(best)
    query = (
        select(LeagueRating)
        .where(
            col(LeagueRating.server_id) == race.server_id,
            col(LeagueRating.ruleset) == race.ruleset,
            col(LeagueRating.player).in_(players),
        )
        .order_by(col(LeagueRating.player))  # rows locked in one order
    )
    if ctx.db.is_postgres:
        query = query.with_for_update()
    known = {r.player: r for r in (await session.execute(query)).scalars()}
    before = [
        league_ratings.Skill(known[p].mu, known[p].sigma) if p in known else league_ratings.initial() for p in players
    ]
    after = league_ratings.rate(before, [best[p] for p in players])
    now = ctx.clock.now()
    for player, old, new in zip(players, before, after, strict=True):
        rating = known.get(player)
        if rating is None:
            rating = LeagueRating(server_id=race.server_id, ruleset=race.ruleset, player=player, mu=0, sigma=0)
            session.add(rating)
        rating.mu, rating.sigma, rating.races = new.mu, new.sigma, rating.races + 1
        rating.trend, rating.updated_at = new.shown - old.shown, now
        for row in rows:
            if row.player == player:
                row.rated, row.rating_before, row.rating_after = True, old.shown, new.shown


async def _solo(session: AsyncSession, race: RaceRow, seats: list[Seat], now: datetime) -> LeagueCredit:
    """A solo ride: no points, no rating; the member's best (fewest steps) on the stage is kept."""
    assert race.id is not None
    if not seats or seats[0].user_id is None:
        return LeagueCredit(race.id, "solo")
    seat = seats[0]
    steps = max(race.step - 1, 0)  # the step awaited after the last one resolved
    label = stage_label(stepping.stage_label(race.ruleset, race.stage, race.stage_name))
    key = (race.server_id, race.ruleset, label, player_key(seat))
    best = await session.get(LeagueSoloBest, key)
    if best is None:
        session.add(
            LeagueSoloBest(
                server_id=key[0],
                ruleset=key[1],
                stage=key[2],
                player=key[3],
                name=seat.name,
                steps=steps,
                race_id=race.id,
                achieved_at=race.finished_at or now,
            )
        )
    elif steps < best.steps:
        best.steps, best.race_id, best.name, best.achieved_at = steps, race.id, seat.name, race.finished_at or now
    return LeagueCredit(race.id, "solo")


async def points_for_race(ctx: Context, race_id: int) -> dict[str, int]:
    """The league points each entrant earned in the race (entrant id -> points); empty if not credited."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(col(LeagueResult.entrant), col(LeagueResult.points)).where(col(LeagueResult.race_id) == race_id)
        )
        return {str(e): int(p) for e, p in rows.all()}


async def corrections(ctx: Context, race_id: int) -> list[PointsChange]:
    """The lines a published announcement changed (provisional place or points differ from the final)."""
    async with ctx.db.sessions() as session:
        rows = (
            await session.execute(
                select(LeagueResult).where(
                    col(LeagueResult.race_id) == race_id,
                    col(LeagueResult.provisional).is_(False),
                    col(LeagueResult.provisional_points).is_not(None),
                )
            )
        ).scalars()
        return [
            PointsChange(
                r.entrant, r.name, r.provisional_place or r.place, r.place, r.provisional_points or 0, r.points
            )
            for r in rows
            if (r.provisional_place, r.provisional_points) != (r.place, r.points)
        ]


async def solo_bests(ctx: Context, server_id: int, ruleset: str, stage: str, limit: int = 10) -> list[LeagueSoloBest]:
    """The best solo rides on a stage, fewest steps first (the earlier ride keeps a tie)."""
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(LeagueSoloBest)
            .where(
                col(LeagueSoloBest.server_id) == server_id,
                col(LeagueSoloBest.ruleset) == ruleset,
                col(LeagueSoloBest.stage) == stage,
            )
            .order_by(col(LeagueSoloBest.steps), col(LeagueSoloBest.achieved_at))
            .limit(limit)
        )
        return list(rows.scalars())


# --- seasons and points tables (admins) ---------------------------------------------------------------
async def _ensure_server(session: AsyncSession, server_id: int, now: datetime) -> None:
    if await session.get(Server, server_id) is None:
        session.add(Server(id=server_id, created_at=now))
        await session.flush()


async def start_season(ctx: Context, server_id: int) -> int:
    """Open the next season; refused while one is open. Returns its number."""
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        await _ensure_server(session, server_id, now)
        season = await open_season(session, server_id)
        if season is not None:
            raise Refusal.of("league.season_already_open", number=season.number)
        return (await _open_season(session, server_id, now)).number


async def end_season(ctx: Context, server_id: int) -> int:
    """End the open season; refused when none is open. Returns its number."""
    async with ctx.db.sessions() as session, session.begin():
        season = await open_season(session, server_id)
        if season is None:
            raise Refusal.of("league.no_open_season")
        season.ended_at = ctx.clock.now()
        return season.number


async def set_points(ctx: Context, server_id: int, ruleset: str, table: PointsTable | None) -> PointsTable:
    """Set the server's points table for a rule system (``None``: back to the default). Races already
    credited keep their points; the new table counts from the next race."""
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        await _ensure_server(session, server_id, now)
        row = await session.get(LeaguePoints, (server_id, ruleset))
        if table is None:
            if row is not None:
                await session.delete(row)
            await session.flush()
            return await table_for(session, server_id, ruleset)
        if row is None:
            session.add(
                LeaguePoints(
                    server_id=server_id, ruleset=ruleset, points=list(table.points), rest=table.rest, updated_at=now
                )
            )
        else:
            row.points, row.rest, row.updated_at = list(table.points), table.rest, now
        return table


async def points_table(ctx: Context, server_id: int, ruleset: str) -> PointsTable:
    async with ctx.db.sessions() as session:
        return await table_for(session, server_id, ruleset)


# --- forget-me --------------------------------------------------------------------------------------
async def forget_member(ctx: Context, server_id: int, user_id: int) -> int:
    """Anonymise the member's league lines, ratings and solo bests on this server: they become the
    player ``x<n>`` with no name, and nothing links ``x<n>`` back to them. Returns the lines changed
    (0: nothing to forget). Race posts and race records are not edited. A race finished later counts
    under the member's name again."""
    player = f"u{user_id}"
    async with ctx.db.sessions() as session, session.begin():
        found = 0
        for query in (
            select(func.count()).where(col(LeagueResult.server_id) == server_id, col(LeagueResult.player) == player),
            select(func.count()).where(col(LeagueRating.server_id) == server_id, col(LeagueRating.player) == player),
            select(func.count()).where(
                col(LeagueSoloBest.server_id) == server_id, col(LeagueSoloBest.player) == player
            ),
        ):
            found += int((await session.execute(query)).scalar() or 0)
        if not found:
            return 0
        forgotten = LeagueForgotten(server_id=server_id, forgotten_at=ctx.clock.now())
        session.add(forgotten)
        await session.flush()
        anonymous = f"x{forgotten.id}"
        for statement in (
            update(LeagueResult)
            .where(col(LeagueResult.server_id) == server_id, col(LeagueResult.player) == player)
            .values(player=anonymous, name=None),
            update(LeagueSoloBest)
            .where(col(LeagueSoloBest.server_id) == server_id, col(LeagueSoloBest.player) == player)
            .values(player=anonymous, name=None),
            update(LeagueRating)
            .where(col(LeagueRating.server_id) == server_id, col(LeagueRating.player) == player)
            .values(player=anonymous),
            update(LeagueTally)
            .where(col(LeagueTally.server_id) == server_id, col(LeagueTally.player) == player)
            .values(player=anonymous, name=None),
        ):
            await session.execute(statement.execution_options(synchronize_session=False))
        return found


# --- export -----------------------------------------------------------------------------------------
EXPORT_COLUMNS = (
    "season",
    "rule_system",
    "group",
    "rank",
    "name",
    "races",
    "points",
    "wins",
    "second_places",
    "third_places",
    "provisional",
    "rating",
    "rating_trend",
)


def export_csv(rows: list[dict[str, Any]]) -> str:
    """The season's standings as CSV text (one line per player per rule system; no user ids)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=EXPORT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


async def credit_safely(ctx: Context, race_id: int) -> LeagueCredit | None:
    """:func:`credit_race` for the race services' finish and publish paths: a league failure is logged
    and never stops the race's own posts (a later call credits the race; crediting is idempotent)."""
    try:
        return await credit_race(ctx, race_id)
    except Exception:
        _log.exception("could not credit race %s in the league", race_id)
        return None


async def credit_missed(ctx: Context) -> list[LeagueCredit]:
    """At start-up: credit this process's finished multiplayer races that a crash left uncredited, and
    correct those whose announcement was published but whose lines are still provisional."""
    seats = select(func.count()).where(col(Seat.race_id) == RaceRow.id).scalar_subquery()
    credited = select(col(LeagueResult.id)).where(col(LeagueResult.race_id) == RaceRow.id).exists()
    stale = (
        select(col(LeagueResult.id))
        .join(ResultRow, col(ResultRow.race_id) == col(LeagueResult.race_id))
        .where(
            col(LeagueResult.race_id) == RaceRow.id,
            col(LeagueResult.provisional).is_(True),
            col(ResultRow.provisional).is_(False),
        )
        .exists()
    )
    async with ctx.db.sessions() as session:
        rows = await session.execute(
            select(col(RaceRow.id)).where(
                col(RaceRow.status) == "finished",
                col(RaceRow.owner) == ctx.owner,
                ((seats >= 2) & ~credited) | stale,
            )
        )
        missed = [int(r) for r in rows.scalars() if r is not None]
    return [credit for race_id in missed if (credit := await credit_safely(ctx, race_id)) is not None]

"""Finished races written straight into the database, so league tests choose every place by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.services.context import Context
from bot.store.tables import RaceRow, ResultRow, Seat, Server

SERVER = 1000
START = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


async def finished_race(
    ctx: Context,
    places: list[tuple[str, int]],
    *,
    ruleset: str = "flamme_rouge",
    server_id: int = SERVER,
    provisional: bool = False,
    stage: Any = None,
    steps: int = 12,
    minutes: int = 0,
    ids: dict[str, int] | None = None,
) -> int:
    """A finished race whose entrants (``"Anna"`` -> member, ``"bot:pack"`` -> a bot) took ``places``.
    Members' user ids come from a fixed name list so the same name is the same member everywhere."""
    now = START + timedelta(minutes=minutes)
    async with ctx.db.sessions() as session, session.begin():
        if await session.get(Server, server_id) is None:
            session.add(Server(id=server_id, created_at=now))
            await session.flush()
        race = RaceRow(
            server_id=server_id,
            channel_id=1,
            opener_id=1,
            owner="main",
            ruleset=ruleset,
            stage=stage,
            status="finished",
            pace="fast",
            pace_seconds=60,
            step=steps + 1,
            created_at=now,
            finished_at=now,
        )
        session.add(race)
        await session.flush()
        assert race.id is not None
        standings = []
        for position, (who, place) in enumerate(places):
            if who.startswith("bot:"):
                entrant = f"bot{position}"
                session.add(
                    Seat(race_id=race.id, position=position, entrant=entrant, name=who[4:].title(), bot=who[4:])
                )
            else:
                user = ids[who] if ids and who in ids else user_id(who)
                entrant = f"u{user}"
                session.add(Seat(race_id=race.id, position=position, entrant=entrant, name=who, user_id=user))
            standings.append({"entrant": entrant, "riders": [], "place": place, "figures": {}})
        session.add(ResultRow(race_id=race.id, provisional=provisional, standings=standings, recorded_at=now))
        return race.id


NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def user_id(name: str) -> int:
    return 100 + NAMES.index(name)


async def set_result(
    ctx: Context, race_id: int, places: list[tuple[str, int]], provisional: bool, ids: dict[str, int] | None = None
) -> None:
    """Rewrite a race's result (what publishing its announcement does), places by member name."""
    async with ctx.db.sessions() as session, session.begin():
        row = await session.get(ResultRow, race_id)
        assert row is not None
        row.standings = [
            {"entrant": f"u{ids[who] if ids else user_id(who)}", "riders": [], "place": place, "figures": {}}
            for who, place in places
        ]
        row.provisional = provisional

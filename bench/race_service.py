"""Race service benchmark: 1,000 races in progress in the database, orders and resolutions timed.

    python bench/race_service.py                       # SQLite (a temporary file)
    python bench/race_service.py --url postgresql+asyncpg://postgres@127.0.0.1:55432/gregario_test
    (eval "$(.ci/postgres.sh)"; python bench/race_service.py --url "$GREGARIO_TEST_DATABASE_URL")

It opens and starts ``--races`` races (a mix of the four rule systems, two or three people and a bot
each), then for ``--rounds`` rounds picks ``--sample`` races, sends every awaited person's order
(timing ``submit_order``: the rules' check and the commit) and resolves the step (timing
``resolve_if_ready``: reading, the engine in its worker process, and the commit). Orders are stored by
a process that does not own the races, so the two are timed apart. It then plays one race of each
system to the end and counts the rows and bytes it left, and prints:

- submit and resolve p50/p95 (ms);
- rows and bytes per finished race, per system (bytes = the rows' values as JSON; on PostgreSQL also
  ``pg_column_size``);
- memory the bot process holds per race in progress (tracemalloc, after gc; the races live in the
  database, so this should be about nothing) and database bytes per race in progress;
- the longest loop stall seen by a lag probe during the timed rounds (wall clock; and the most CPU the
  loop's own thread used in one probe interval, which separates our code from a busy machine).

The humans' orders are chosen by the engine's strategies, outside the timings.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select, text
from sqlmodel import col

from bot.services import lobby, orders, resolution
from bot.services.clock import ManualClock
from bot.services.context import Context
from bot.services.lag import LagProbe
from bot.services.outcomes import MemberRef, StepResolved
from bot.services.paces import parse_pace
from bot.services.workers import Workers
from bot.store import migrate, tables
from bot.store.database import connect
from engine.registry import get_ruleset

MIX: list[tuple[str, int, dict[str, Any], Any]] = [
    ("flamme_rouge", 2, {}, None),
    ("tabella", 3, {"mode": "live"}, None),
    ("wyscig", 2, {}, {"stages": 1}),
    ("mind_cycling", 2, {}, "short"),
]
RACE_TABLES = [
    tables.RaceRow,
    tables.Seat,
    tables.OrderRow,
    tables.StepEvents,
    tables.AnnouncementRow,
    tables.ResultRow,
    tables.PostedMessage,
    tables.Job,
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def open_race(ctx: Context, n: int, ruleset: str, humans: int, options: dict[str, Any], stage: Any) -> int:
    server = 10_000 + n % 50
    users = [n * 10 + i for i in range(1, humans + 1)]
    view = await lobby.open_lobby(
        ctx, MemberRef(server, users[0], f"P{users[0]}"), 1, ruleset, options=options, stage=stage
    )
    for user in users[1:]:
        await lobby.join(ctx, view.race_id, MemberRef(server, user, f"P{user}"))
    await lobby.add_bot(ctx, view.race_id, users[0])
    await lobby.start(ctx, view.race_id, users[0], seed=n)
    return view.race_id


def choose(ruleset: str, state: dict[str, Any], entrants: list[str]) -> list[dict[str, Any]]:
    """The people's choices (the engine's default strategy), in the players' own process."""
    rules = get_ruleset(ruleset)
    loaded = rules.load(state)
    out = []
    for entrant in entrants:
        order = rules.auto_order(loaded, entrant, None, rules.default_strategy)
        out.append({k: v for k, v in order.items() if k not in ("by", "auto", "received_at")})
    return out


PLAYERS = Workers(1)
"""The people think in a process of their own, so their thinking never shows as the bot's loop stall."""


async def human_orders(ctx: Context, race_id: int) -> list[tuple[int, dict[str, Any]]]:
    """(user id, order) for every awaited person, chosen by the engine's default strategy."""
    async with ctx.db.sessions() as session:
        race = await session.get(tables.RaceRow, race_id)
        seats = (await session.execute(select(tables.Seat).where(col(tables.Seat.race_id) == race_id))).scalars()
        users = {s.entrant: s.user_id for s in seats if s.user_id is not None}
    assert race is not None
    if race.status != "running":
        return []
    people = [e for e in race.awaiting or [] if e in users]
    chosen = await PLAYERS.run(choose, race.ruleset, race.state or {}, people)
    return [(users[e], order) for e, order in zip(people, chosen, strict=True)]


async def footprint(ctx: Context, race_id: int) -> tuple[int, int, int | None]:
    """Rows, JSON bytes and (PostgreSQL) stored bytes of one race across every table."""
    rows = size = 0
    stored: int | None = 0 if ctx.db.is_postgres else None
    async with ctx.db.sessions() as session:
        for table in RACE_TABLES:
            key = table.id if table is tables.RaceRow else table.race_id  # type: ignore[attr-defined]
            found = (await session.execute(select(table).where(key == race_id))).scalars().all()
            rows += len(found)
            for row in found:
                size += len(json.dumps(row.model_dump(mode="json"), separators=(",", ":")))
            if stored is not None:
                name = table.__tablename__
                column = "id" if table is tables.RaceRow else "race_id"
                got = await session.execute(
                    text(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {name} t WHERE {column} = :r"),
                    {"r": race_id},
                )
                stored += int(got.scalar_one())
    return rows, size, stored


async def db_bytes(ctx: Context) -> int:
    if ctx.db.is_postgres:
        async with ctx.db.sessions() as session:
            return int((await session.execute(text("SELECT pg_database_size(current_database())"))).scalar_one())
    async with ctx.db.engine.connect() as conn:  # the database's pages, wherever they are (file or log)
        pages = (await conn.exec_driver_sql("PRAGMA page_count")).scalar_one()
        size = (await conn.exec_driver_sql("PRAGMA page_size")).scalar_one()
    return int(pages) * int(size)


async def main(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp())
    path = None
    url = args.url
    if not url:
        path = tmp / "bench.sqlite3"
        url = f"sqlite+aiosqlite:///{path}"
    db = connect(url, pool_size=10)
    if db.is_postgres:  # start from empty tables
        async with db.engine.begin() as conn:
            await conn.run_sync(tables.metadata.drop_all)
            await conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    await migrate.upgrade(db)
    workers = Workers(args.workers)
    await workers.start()
    await PLAYERS.start()
    clock = ManualClock()
    owner = Context(db=db, clock=clock, workers=workers, owner="main", default_pace=parse_pace("fast"))
    front = Context(db=connect(url), clock=clock, owner="front")  # stores orders, resolves nothing
    print(f"database: {db.engine.dialect.name}; engine workers: {args.workers}; races: {args.races}")

    empty = await db_bytes(owner)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    started = time.perf_counter()
    race_ids = []
    for n in range(args.races):
        ruleset, humans, options, stage = MIX[n % len(MIX)]
        race_ids.append(await open_race(owner, n, ruleset, humans, options, stage))
    await owner.idle()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    print(f"opened and started {args.races} races in {time.perf_counter() - started:.1f} s")
    print(f"memory held by the bot process per race in progress: {held / args.races:.0f} bytes (tracemalloc, after gc)")
    print(f"database bytes per race in progress: {(await db_bytes(owner) - empty) / args.races:.0f}")

    rng = random.Random(1)
    submits: list[float] = []
    resolves: list[float] = []
    per_step: list[float] = []
    async with LagProbe() as probe:
        for _ in range(args.rounds):
            for race_id in rng.sample(race_ids, args.sample):
                for user, order in await human_orders(owner, race_id):
                    t0 = time.perf_counter()
                    await orders.submit_order(front, race_id, user, order)
                    submits.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                happened = await resolution.resolve_if_ready(owner, race_id)
                steps = sum(1 for h in happened if isinstance(h, StepResolved))
                if steps:
                    resolves.append(time.perf_counter() - t0)
                    per_step.append(resolves[-1] / steps)
    p50, p95 = pct(submits, 0.5), pct(submits, 0.95)
    print(f"submit (check + commit): p50 {p50:.1f} ms, p95 {p95:.1f} ms ({len(submits)} orders)")
    print(
        f"resolve (read + engine worker + commit, following bot steps included): p50 {pct(resolves, 0.5):.1f} ms, "
        f"p95 {pct(resolves, 0.95):.1f} ms ({len(resolves)} resolutions); "
        f"per step resolved: p50 {pct(per_step, 0.5):.1f} ms, p95 {pct(per_step, 0.95):.1f} ms"
    )
    print(
        f"longest loop stall: {probe.longest * 1000:.1f} ms wall; "
        f"most loop-thread CPU in one {probe.interval * 1000:.0f} ms probe interval: {probe.busiest * 1000:.1f} ms"
    )

    print("per finished race (two or three people and a bot):")
    for n, (ruleset, humans, options, stage) in enumerate(MIX):
        race_id = await open_race(owner, 900_000 + n, ruleset, humans, options, stage)
        steps = 0
        while True:
            pending = await human_orders(owner, race_id)
            if not pending:
                break
            for user, order in pending:
                await orders.submit_order(owner, race_id, user, order)
            await owner.idle()
            steps += 1
        async with owner.db.sessions() as session:
            last = (
                await session.execute(
                    select(func.max(tables.StepEvents.step)).where(col(tables.StepEvents.race_id) == race_id)
                )
            ).scalar()
        rows, size, stored = await footprint(owner, race_id)
        extra = f", {stored / 1024:.0f} KiB stored (pg_column_size)" if stored is not None else ""
        print(f"  {ruleset:13} {last} steps: {rows} rows, {size / 1024:.0f} KiB as JSON{extra}")

    await front.db.close()
    workers.close()
    PLAYERS.close()
    await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sample", type=int, default=200, help="races played per round")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--url", help="database URL (default: a temporary SQLite file)")
    asyncio.run(main(parser.parse_args()))

"""League benchmark: 100,000 credited results across 1,000 members and 50 servers; standings and profile timed.

    python bench/league.py                      # SQLite (a temporary file)
    eval "$(bash .ci/postgres.sh)"; python bench/league.py --url "$GREGARIO_TEST_DATABASE_URL"

It migrates a fresh database (on PostgreSQL a new database beside the one named, dropped afterwards),
fills it through bulk inserts (not through ``credit_race``: its tallies are computed here the same way)
with ``--results`` league lines: races of four entrants (three members
and a bot strategy, or four members), servers sized unevenly (server k holds a share proportional to
1/k, so the largest has about a fifth), members mostly racing on their home server, two seasons per
server (the first ended), the four rule systems, and the ratings rows that go with them. It then runs
``ANALYZE`` (as a live database's autovacuum or a periodic ``ANALYZE`` would), opens a NEW connection
pool and times, on the largest server, through the services the commands call:

- ``league_standings.standings`` of its most raced rule system in the open season, and
- ``league_standings.profile`` of its most active member:

the first call on the new pool (cold: a fresh connection, opened and timed apart just before, with no
prepared statement and SQLite's page cache empty; the operating system's file cache is whatever the
fill left) and p50/p95 over ``--repeat`` calls.
Target: p95 under 50 ms (wall clock). The CPU time of this process per call is printed too: on a busy
shared machine it separates our work from waiting for a core (on PostgreSQL the server's own work is
not in it).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, text
from sqlalchemy.engine import make_url

from bot.services import league_ratings, league_standings
from bot.services.clock import ManualClock
from bot.services.context import Context
from bot.store import migrate
from bot.store.database import Database, connect
from bot.store.league_tables import LeagueRating, LeagueResult, LeagueSeason, LeagueTally
from bot.store.tables import RaceRow, Server

RULESETS = ("flamme_rouge", "tabella", "wyscig", "mind_cycling")
WEIGHTS = (0.4, 0.25, 0.2, 0.15)
POINTS = (25, 18, 15, 12)
STAGES = ("default", "Col", "Avenue", "Classicissima", "Mur")
STRATEGIES = ("pack", "heuristic", "simple", "muscle")
CHUNK = 5000
START = datetime(2026, 1, 1, tzinfo=UTC)


def plan(results: int, members: int, servers: int, seed: int) -> dict[str, Any]:
    """Who raced where: servers sized 1/k, members with a home server, races of four entrants."""
    rng = random.Random(seed)
    weights = [1 / k for k in range(1, servers + 1)]
    total = sum(weights)
    races_per_server = [round(results / 4 * w / total) for w in weights]
    member_ids = list(range(10_000, 10_000 + members))
    homes: dict[int, list[int]] = {s: [] for s in range(servers)}
    for n, member in enumerate(member_ids):  # members spread like the races, at least 4 per server
        server = n % servers if n < servers * 4 else rng.choices(range(servers), weights)[0]
        homes[server].append(member)
    return {"rng": rng, "races": races_per_server, "homes": homes, "members": member_ids}


async def fill(db: Database, args: argparse.Namespace) -> dict[str, Any]:
    shape = plan(args.results, args.members, args.servers, args.seed)
    rng: random.Random = shape["rng"]
    server_ids = [1_000_000 + s for s in range(args.servers)]
    lines: list[dict[str, Any]] = []
    races: list[dict[str, Any]] = []
    seasons: list[dict[str, Any]] = []
    ratings: dict[tuple[int, str, str], int] = Counter()
    race_id = 0
    for s, server in enumerate(server_ids):
        seasons += [
            {"id": 2 * s + 1, "server_id": server, "number": 1, "started_at": START, "ended_at": START},
            {"id": 2 * s + 2, "server_id": server, "number": 2, "started_at": START, "ended_at": None},
        ]
        home = shape["homes"][s]
        for r in range(shape["races"][s]):
            race_id += 1
            ruleset = rng.choices(RULESETS, WEIGHTS)[0]
            when = START + timedelta(minutes=race_id)
            races.append(
                {
                    "id": race_id,
                    "server_id": server,
                    "channel_id": 1,
                    "opener_id": 1,
                    "owner": "main",
                    "ruleset": ruleset,
                    "options": {},
                    "status": "finished",
                    "pace": "fast",
                    "pace_seconds": 60,
                    "step": 20,
                    "orders_rev": 20,
                    "created_at": when,
                    "finished_at": when,
                }
            )
            # Mostly home members; now and then a guest from anywhere.
            pool = home if len(home) >= 4 and rng.random() < 0.9 else shape["members"]
            entrants = [f"u{m}" for m in rng.sample(pool, 4 if rng.random() < 0.5 else 3)]
            if len(entrants) == 3:
                entrants.append(f"bot:{rng.choice(STRATEGIES)}")
            rng.shuffle(entrants)
            for place, player in enumerate(entrants, start=1):
                ratings[(server, ruleset, player)] += 1
                lines.append(
                    {
                        "season_id": 2 * s + (2 if r % 3 else 1),
                        "server_id": server,
                        "race_id": race_id,
                        "ruleset": ruleset,
                        "stage": rng.choice(STAGES),
                        "entrant": player if player.startswith("u") else f"bot{place}",
                        "player": player,
                        "name": f"Rider {player[1:]}" if player.startswith("u") else None,
                        "place": place,
                        "points": POINTS[place - 1],
                        "provisional": False,
                        "rated": True,
                        "rating_before": 0.0,
                        "rating_after": 0.0,
                        "finished_at": when,
                    }
                )
    async with db.sessions() as session, session.begin():
        await session.execute(insert(Server), [{"id": s, "created_at": START} for s in server_ids])
        await session.execute(insert(LeagueSeason), seasons)
        for i in range(0, len(races), CHUNK):
            await session.execute(insert(RaceRow), races[i : i + CHUNK])
        for i in range(0, len(lines), CHUNK):
            await session.execute(insert(LeagueResult), lines[i : i + CHUNK])
        skill = league_ratings.initial()
        rows = [
            {
                "server_id": server,
                "ruleset": ruleset,
                "player": player,
                "mu": skill.mu + rng.uniform(-5, 5),
                "sigma": skill.sigma * rng.uniform(0.3, 1),
                "races": count,
                "trend": rng.uniform(-1, 1),
                "updated_at": START,
            }
            for (server, ruleset, player), count in ratings.items()
        ]
        for i in range(0, len(rows), CHUNK):
            await session.execute(insert(LeagueRating), rows[i : i + CHUNK])
        tallies = tally(lines)
        for i in range(0, len(tallies), CHUNK):
            await session.execute(insert(LeagueTally), tallies[i : i + CHUNK])
        if db.is_postgres:  # ids were given explicitly: move the sequences past them
            for table in ("races", "league_seasons"):
                await session.execute(
                    text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
                )
    largest = server_ids[0]
    on_largest = [line for line in lines if line["server_id"] == largest]
    busiest_ruleset = Counter(line["ruleset"] for line in on_largest if line["season_id"] == 2).most_common(1)[0][0]
    busiest_member = Counter(line["player"] for line in on_largest if line["player"].startswith("u")).most_common(1)
    return {
        "results": len(lines),
        "races": len(races),
        "members": len({line["player"] for line in lines if line["player"].startswith("u")}),
        "servers": len(server_ids),
        "largest": largest,
        "largest_results": len(on_largest),
        "ruleset": busiest_ruleset,
        "member": int(busiest_member[0][0][1:]),
        "member_results": busiest_member[0][1],
    }


def tally(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players' running totals per season and rule system, as ``credit_race`` keeps them."""
    kept: dict[tuple[int, str, str], dict[str, Any]] = {}
    for line in lines:
        key = (line["season_id"], line["ruleset"], line["player"])
        row = kept.setdefault(
            key,
            {
                "season_id": key[0],
                "ruleset": key[1],
                "player": key[2],
                "server_id": line["server_id"],
                "name": None,
                "races": 0,
                "points": 0,
                "places": [0, 0, 0, 0],
                "provisional": 0,
            },
        )
        row["name"] = line["name"]
        row["races"] += 1
        row["points"] += line["points"]
        row["places"][line["place"] - 1] += 1
    return list(kept.values())


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(call: Any, repeat: int) -> tuple[float, list[float], list[float]]:
    """The first call's wall time, then each call's wall time and this process's CPU time (ms)."""
    start = time.perf_counter()
    await call()
    cold = (time.perf_counter() - start) * 1000
    warm, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        await call()
        warm.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return cold, warm, cpu


async def run(url: str, args: argparse.Namespace) -> None:
    db = connect(url)
    await migrate.upgrade(db)
    started = time.perf_counter()
    shape = await fill(db, args)
    filled = time.perf_counter() - started
    async with db.engine.begin() as conn:
        await conn.execute(text("ANALYZE"))
    await db.close()

    db = connect(url)  # a new pool: the first call below connects and prepares everything afresh
    ctx = Context(db=db, clock=ManualClock())
    server, ruleset, member = shape["largest"], shape["ruleset"], shape["member"]
    table = await league_standings.standings(ctx, server, ruleset)  # checked below, outside the timings
    await db.close()
    db = connect(url)
    ctx = Context(db=db, clock=ManualClock())
    started = time.perf_counter()
    async with db.engine.connect() as conn:  # open the pool's connection: connecting is timed apart
        await conn.execute(text("SELECT 1"))
    connecting = (time.perf_counter() - started) * 1000
    s_cold, s_warm, s_cpu = await timed(lambda: league_standings.standings(ctx, server, ruleset), args.repeat)
    p_cold, p_warm, p_cpu = await timed(lambda: league_standings.profile(ctx, server, member), args.repeat)
    await db.close()

    kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(
        f"{kind}: {shape['results']:,} results, {shape['races']:,} races, {shape['members']:,} members, "
        f"{shape['servers']} servers (filled in {filled:.1f} s)"
    )
    print(
        f"largest server: {shape['largest_results']:,} results; standings of {ruleset} in the open season: "
        f"{len(table.members)} members + {len(table.bots)} bot strategies; profile of a member with "
        f"{shape['member_results']} results; opening the new pool's connection took {connecting:.2f} ms"
    )
    for name, cold, warm, cpu in (("standings", s_cold, s_warm, s_cpu), ("profile", p_cold, p_warm, p_cpu)):
        verdict = "p95 ok" if p(warm, 0.95) < 50 else "p95 OVER the 50 ms target"
        verdict += ", cold ok" if cold < 50 else ", cold OVER 50 ms"
        print(
            f"  {name:9}: cold {cold:7.2f} ms | p50 {statistics.median(warm):6.2f} ms | "
            f"p95 {p(warm, 0.95):6.2f} ms | max {max(warm):6.2f} ms over {len(warm)} ({verdict}); "
            f"CPU of this process p50 {statistics.median(cpu):5.2f} ms"
        )


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    parsed = make_url(url)
    conn = await asyncpg.connect(
        host=parsed.host, port=parsed.port, user=parsed.username, password=parsed.password, database=parsed.database
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a PostgreSQL server URL (a new database is made beside it); default SQLite")
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=1_000)
    parser.add_argument("--servers", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    if args.url and args.url.startswith(("postgres", "postgresql")):
        name = f"gregario_bench_league_{uuid.uuid4().hex[:8]}"
        base = make_url(args.url.replace("+asyncpg", ""))
        await _admin(base.render_as_string(hide_password=False), f'CREATE DATABASE "{name}"')
        try:
            await run(
                base.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False), args
            )
        finally:
            await _admin(base.render_as_string(hide_password=False), f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        with tempfile.TemporaryDirectory() as folder:
            await run(args.url or f"sqlite+aiosqlite:///{folder}/league.sqlite3", args)


if __name__ == "__main__":
    asyncio.run(main())

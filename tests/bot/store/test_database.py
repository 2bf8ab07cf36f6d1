"""SQLite's transactions: a session that writes takes the writer's lock as it begins; one that only reads
never queues for it (WAL: it reads its snapshot while a writer holds the lock)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from bot.store.database import connect


async def test_a_reading_session_does_not_wait_for_a_writer_and_a_writing_one_does(tmp_path: Path) -> None:
    db = connect(f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}")
    try:
        async with db.sessions() as session, session.begin():
            await session.execute(text("CREATE TABLE t (n INTEGER)"))
            await session.execute(text("INSERT INTO t VALUES (1)"))
        holding, release = asyncio.Event(), asyncio.Event()

        async def writer() -> None:
            async with db.sessions() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (2)"))
                holding.set()
                await release.wait()

        held = asyncio.create_task(writer())
        await holding.wait()
        async with db.sessions() as session:  # reads: its snapshot, before the writer's row
            seen = (await asyncio.wait_for(session.execute(text("SELECT n FROM t")), 2)).scalars().all()
        assert seen == [1]

        async def second_writer() -> None:
            async with db.sessions() as session, session.begin():
                await session.execute(text("INSERT INTO t VALUES (3)"))

        queued = asyncio.create_task(second_writer())
        await asyncio.sleep(0.3)
        assert not queued.done(), "a second writer waits for the first one's lock from its start"
        release.set()
        await asyncio.wait_for(asyncio.gather(held, queued), 10)
        async with db.sessions() as session:
            assert sorted((await session.execute(text("SELECT n FROM t"))).scalars().all()) == [1, 2, 3]
    finally:
        await db.close()

"""`gregario run` stopped as an operator stops it (SIGTERM) or as a crash does (SIGKILL): nothing is left behind."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

from bot.services.context import Context
from bot.store.database import connect
from tests.bot.exts.race.process import children_of, gregario_run, group_members, logged_errors
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild

ONE_WORKER = {"GREGARIO_ENGINE_WORKERS": "1"}


async def _until(predicate: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.1)
    raise AssertionError(what)


async def test_sigterm_mid_race_stops_cleanly_and_a_restart_resumes_the_race(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """SIGTERM during a race: exit 0 within 10 s, no process of the bot's left, the SQLite log merged
    into the file; a new `gregario run` carries the race on to its final post."""
    fake = fake_discord
    database = tmp_path / "races.sqlite3"
    url = f"sqlite+aiosqlite:///{database}"
    reader = Context(db=connect(url))
    try:
        async with gregario_run(fake, guild, tmp_path, url, **ONE_WORKER) as process:
            lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply()
            await (await carla.click(lobby, "Join")).acknowledged()
            await (await alice.click(lobby, "Start")).acknowledged()
            race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
            table = Table(fake, reader, race_id, {f"u{alice.id}": alice, f"u{carla.id}": carla})
            await table.started()
            status, step, humans = await table.state()
            await table.order(humans[0], step)
            await _until(lambda: children_of(process.pid), 20, "no engine worker was started")
            process.send_signal(signal.SIGTERM)
            started = time.monotonic()
            code = await asyncio.wait_for(process.wait(), 10)
            assert code == 0 and time.monotonic() - started < 10
            await _until(lambda: not group_members(process.pid), 10, f"left behind: {group_members(process.pid)}")
        wal = tmp_path / "races.sqlite3-wal"
        assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log was merged into the database"
        assert (await table.state())[0] == "running"
        async with gregario_run(fake, guild, tmp_path, url, **ONE_WORKER):
            for _ in range(300):
                status, now, humans = await table.state()
                if status != "running":
                    break
                for entrant in humans:
                    await table.order(entrant, now)
                await table.wait_step_after(now)
            assert status == "finished"
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
        log = (tmp_path / "gregario-run.log").read_text()
        assert "SIGTERM received: stopping" in log
        assert logged_errors(tmp_path) == []
    finally:
        await reader.db.close()


async def test_the_engine_worker_dies_with_a_killed_bot(
    fake_discord: FakeDiscord, guild: Guild, tmp_path: Path
) -> None:
    """SIGKILL leaves nobody to shut the worker down: it dies on its own within a few seconds, and so
    does multiprocessing's resource tracker."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    async with gregario_run(fake_discord, guild, tmp_path, url, **ONE_WORKER) as process:
        await _until(lambda: children_of(process.pid), 20, "no engine worker was started")
        assert len(group_members(process.pid)) >= 2  # the bot and its worker (and the resource tracker)
        process.send_signal(signal.SIGKILL)
        await process.wait()
        await _until(lambda: not group_members(process.pid), 10, f"left behind: {group_members(process.pid)}")


async def test_ctrl_c_stops_the_bot_cleanly_too(fake_discord: FakeDiscord, guild: Guild, tmp_path: Path) -> None:
    """SIGINT (Ctrl-C in a terminal) is the same clean stop as SIGTERM: exit 0, nothing left behind."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    async with gregario_run(fake_discord, guild, tmp_path, url, **ONE_WORKER) as process:
        await _until(lambda: children_of(process.pid), 20, "no engine worker was started")
        process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(process.wait(), 10) == 0
        await _until(lambda: not group_members(process.pid), 10, f"left behind: {group_members(process.pid)}")
    assert "SIGINT received: stopping" in (tmp_path / "gregario-run.log").read_text()
    assert logged_errors(tmp_path) == []

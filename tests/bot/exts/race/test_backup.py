"""`gregario db backup` during a race: the database is lost, the backup is put in its place, and the race goes on."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path

from bot.services.context import Context
from bot.store.database import connect
from tests.bot.exts.race.process import SOURCE, gregario_run, logged_errors
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild


async def _backup(database: Path, target: Path) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "db",
        "backup",
        str(target),
        "--url",
        f"sqlite:///{database}",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_a_backup_taken_during_a_race_restores_and_the_race_resumes(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """Mid-race, with the bot running, `gregario db backup` copies the database; the bot stops and the
    database files are lost; the backup, copied in their place, carries the race to its final post."""
    fake = fake_discord
    live = tmp_path / "live"
    live.mkdir()
    database = live / "races.sqlite3"
    url = f"sqlite+aiosqlite:///{database}"
    copy = tmp_path / "backup.sqlite3"
    async with gregario_run(fake, guild, tmp_path, url) as process:
        lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply()
        await (await carla.click(lobby, "Join")).acknowledged()
        await (await alice.click(lobby, "Start")).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        reader = Context(db=connect(url))
        table = Table(fake, reader, race_id, {f"u{alice.id}": alice, f"u{carla.id}": carla})
        try:
            await table.started()
            status, step, humans = await table.state()
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
            await table.all_told()
            _status, at_backup, waiting = await table.state()
            for entrant in waiting:
                await table.panel(entrant, at_backup)  # the panels of the step backed up are out
            assert (live / "races.sqlite3-wal").exists(), "the bot is running: recent changes sit in the log"
            code, said = await _backup(database, copy)
            assert code == 0, said
        finally:
            await reader.db.close()
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 15) == 0
    shutil.rmtree(live)  # the disk is lost
    live.mkdir()
    shutil.copy(copy, database)
    reader = Context(db=connect(url))
    table.ctx = reader
    try:
        assert (await table.state())[:2] == ("running", at_backup)
        async with gregario_run(fake, guild, tmp_path, url):
            for _ in range(300):
                status, now, humans = await table.state()
                if status != "running":
                    break
                for entrant in humans:
                    await table.order(entrant, now)
                await table.wait_step_after(now)
            assert status == "finished"
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
    finally:
        await reader.db.close()
    assert logged_errors(tmp_path) == []

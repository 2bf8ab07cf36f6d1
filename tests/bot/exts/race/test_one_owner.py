"""One `gregario run` per database: a second one refuses to start and names the first; a clean stop frees it."""

from __future__ import annotations

import asyncio
import signal
import socket
from pathlib import Path

from tests.bot.exts.race.process import gregario_run, logged_errors, run_env, start_run
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.world import Guild


async def test_a_second_process_on_the_same_database_is_refused(
    fake_discord: FakeDiscord, guild: Guild, tmp_path: Path, database_url: str
) -> None:
    """The second `gregario run` exits 2 with one line naming the first (host, pid, since), never reaching
    Discord; once the first stops cleanly, a new one starts."""
    fake = fake_discord
    async with gregario_run(fake, guild, tmp_path, database_url) as first:
        sessions = len(fake.sessions)
        second = await start_run(tmp_path, run_env(fake, guild, database_url), "second.log")
        code = await asyncio.wait_for(second.wait(), 60)
        said = (tmp_path / "second.log").read_text().strip().splitlines()
        assert code == 2, said
        assert len(said) == 1, said
        assert f"process {first.pid} on {socket.gethostname()}, since " in said[0]
        assert "Stop it first" in said[0]
        assert len(fake.sessions) == sessions, "the refused process never connected to Discord"
        assert first.returncode is None
        first.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(first.wait(), 10) == 0
    async with gregario_run(fake, guild, tmp_path, database_url, log_name="third.log") as third:
        assert third.returncode is None
    assert logged_errors(tmp_path) == [] and logged_errors(tmp_path, "third.log") == []

"""PostgreSQL stops for 30 seconds in the middle of a race run by a real `gregario run`, then comes back.

The test starts a throwaway PostgreSQL server of its own (as ``.ci/postgres.sh`` does, on a free port),
so it can stop it without disturbing anyone; it is skipped where PostgreSQL's server programs are not
installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.i18n import t
from bot.services.context import Context
from bot.store.database import connect
from tests.bot.exts.race.process import gregario_run, logged_errors
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild

BIN = (
    next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)
    if Path("/usr/lib/postgresql").is_dir()
    else None
)
OUTAGE_SECONDS = 30.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


class Server:
    """A PostgreSQL server of the test's own, in a data folder the ``postgres`` user owns."""

    def __init__(self, port: int) -> None:
        assert BIN is not None
        self.port = port
        self.data = Path(f"/tmp/gregario-pg-outage-{port}")
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{port}/gregario_outage"

    def _as_postgres(self, command: str) -> None:
        argv = ["su", "postgres", "-s", "/bin/bash", "-c", command] if os.getuid() == 0 else ["bash", "-c", command]
        subprocess.run(argv, check=True, cwd="/", capture_output=True, timeout=120)

    def init(self) -> None:
        shutil.rmtree(self.data, ignore_errors=True)
        self.data.mkdir()
        if os.getuid() == 0:
            shutil.chown(self.data, "postgres")
        self._as_postgres(f"'{BIN}/initdb' -D '{self.data}' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8")
        self.start()
        self._as_postgres(f"'{BIN}/createdb' -h 127.0.0.1 -p {self.port} -U postgres gregario_outage")

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k '{self.data}'"
        self._as_postgres(f"'{BIN}/pg_ctl' -D '{self.data}' -l '{self.data}/server.log' -w -o \"{options}\" start")

    def stop(self) -> None:
        self._as_postgres(f"'{BIN}/pg_ctl' -D '{self.data}' -m fast -w stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.stop()
        shutil.rmtree(self.data, ignore_errors=True)


@pytest.fixture
def postgres() -> Iterator[Server]:
    if BIN is None or not (BIN / "pg_ctl").exists():
        pytest.skip("PostgreSQL's server programs are not installed (see .ci/postgres.sh)")
    server = Server(_free_port())
    try:
        server.init()
    except subprocess.CalledProcessError as exc:
        server.remove()
        pytest.skip(f"could not start a PostgreSQL server of the test's own: {exc.stderr!r}")
    yield server
    server.remove()


async def test_a_race_survives_postgresql_stopping_for_30_seconds(
    fake_discord: FakeDiscord,
    guild: Guild,
    alice: DiscordUser,
    carla: DiscordUser,
    tmp_path: Path,
    postgres: Server,
) -> None:
    """PostgreSQL stops while the race waits for Carla, past her deadline. Meanwhile Alice's click and
    command are told to try again; once PostgreSQL is back the deadline runs (Carla gets her automatic
    order) and the race finishes. The outage is a WARNING and a recovery line, not a traceback."""
    fake = fake_discord
    reader = Context(db=connect(postgres.url))
    carla_entrant, alice_entrant = f"u{carla.id}", f"u{alice.id}"
    try:
        async with gregario_run(fake, guild, tmp_path, postgres.url, GREGARIO_DEFAULT_PACE="30s"):
            lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply(timeout=10)
            await (await carla.click(lobby, "Join")).acknowledged()
            await (await alice.click(lobby, "Start")).acknowledged(timeout=10)
            race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
            table = Table(fake, reader, race_id, {alice_entrant: alice, carla_entrant: carla})
            await table.started()
            while True:  # to a step that awaits both
                status, step, humans = await table.state()
                assert status == "running"
                if set(humans) == {alice_entrant, carla_entrant}:
                    break
                for entrant in humans:
                    await table.order(entrant, step)
                await table.wait_step_after(step)
            panel = await table.order(alice_entrant, step)
            await table.panel(carla_entrant, step)
            await table.all_told()
            await reader.db.close()  # the test's own connections would only fail meanwhile
            postgres.stop()
            stopped = time.monotonic()
            # Alice changes her mind and opens another race: both are told to try again, in time.
            for handle in (
                await alice.click(panel, "Change"),
                await alice.slash("race new", ruleset="mind_cycling", stage="short"),
            ):
                started = time.monotonic()
                answer = await handle.reply(timeout=3)
                assert time.monotonic() - started < 3
                assert answer.text == t("error.database_unreachable", None)
            await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped)))
            postgres.start()
            back = time.monotonic()
            # The deadline fell during the outage (30 s pace): it runs once the scheduler reaches the database.
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(Exception):
                    status, now, _ = await table.state()
                    if status != "running" or now > step:
                        break
                assert time.monotonic() < deadline, "the overdue deadline never ran"
                await asyncio.sleep(0.2)
            resolved_after = time.monotonic() - back
            for _ in range(300):
                status, now, humans = await table.state()
                if status != "running":
                    break
                for entrant in humans:
                    await table.order(entrant, now)
                await table.wait_step_after(now)
            assert status == "finished"
            await fake.wait_until(lambda: finals(alice), 15, lambda: "no final post")
    finally:
        await reader.db.close()
    log = (tmp_path / "gregario-run.log").read_text()
    assert f"step {step}: automatic orders for {carla_entrant}" in log
    assert "the scheduler cannot reach the database" in log and "the scheduler works again" in log
    assert log.count("the scheduler cannot reach the database") == 1
    assert logged_errors(tmp_path) == []
    assert resolved_after < 15

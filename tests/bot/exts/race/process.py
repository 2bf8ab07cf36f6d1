"""`gregario run` in a process of its own, pointed at the test's fake Discord by its settings alone.

The restart tests start the real command on the race's database file, as an operator would after a
crash, and kill it with SIGKILL (nothing flushed, no goodbye). Its log goes to a file beside the
database, so a full pipe can never stall it; :func:`logged_errors` reads the ERROR lines and
tracebacks back, for the test to fail on them as the in-process fixture does on ERROR records.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import bot
from tests.fakediscord.server import API, FakeDiscord
from tests.fakediscord.world import Guild

READY_SECONDS = 20.0
SOURCE = Path(bot.__file__).resolve().parents[1]
"""The tree the test imports the bot from: the process runs the same code, wherever it is installed."""


def run_env(fake: FakeDiscord, guild: Guild, database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a `gregario run` pointed at ``fake`` (``extra``: more GREGARIO_* settings)."""
    return {
        **os.environ,
        "GREGARIO_TOKEN": fake.token,
        "GREGARIO_API_BASE_URL": f"https://127.0.0.1:{fake.port}{API}",
        "GREGARIO_CA_FILE": str(fake.cert),
        "GREGARIO_TEST_GUILD_ID": str(guild.id),
        "GREGARIO_DATABASE_URL": database_url,
        "GREGARIO_ENGINE_WORKERS": "0",
        "PYTHONPATH": os.pathsep.join(p for p in (str(SOURCE), os.environ.get("PYTHONPATH", "")) if p),
        **extra,
    }


async def start_run(
    folder: Path, env: dict[str, str], log_name: str = "gregario-run.log"
) -> asyncio.subprocess.Process:
    """Start `gregario run` in a session of its own (its process group holds it, its workers and
    multiprocessing's helpers, for a test to look for leftovers); its output goes to ``log_name``."""
    with open(folder / log_name, "ab") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=folder, env=env, stdout=log, stderr=log, start_new_session=True
        )


async def start_gregario(
    fake: FakeDiscord,
    guild: Guild,
    folder: Path,
    database_url: str,
    log_name: str = "gregario-run.log",
    env: dict[str, str] | None = None,
    ready_seconds: float = READY_SECONDS,
) -> asyncio.subprocess.Process:
    """Start `gregario run` (``env``: more settings, e.g. ``GREGARIO_DEFAULT_PACE``) and wait until it is
    connected and its commands synced; it is killed if it never connects (the soak restarts it itself)."""
    sessions = len(fake.sessions)
    process = await start_run(folder, run_env(fake, guild, database_url, **(env or {})), log_name)
    try:
        connected = lambda: len(fake.sessions) > sessions and fake.commands  # noqa: E731
        await fake.wait_until(connected, ready_seconds, lambda: "gregario run never connected")
    except BaseException:
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
        await process.wait()
        raise
    return process


@contextlib.asynccontextmanager
async def gregario_run(
    fake: FakeDiscord,
    guild: Guild,
    folder: Path,
    database_url: str,
    log_name: str = "gregario-run.log",
    **settings: str,
) -> AsyncIterator[asyncio.subprocess.Process]:
    """A `gregario run` process, connected and its commands synced; killed after (``settings``: more
    GREGARIO_* variables, e.g. ``GREGARIO_ENGINE_WORKERS="1"``)."""
    sessions = len(fake.sessions)
    process = await start_run(folder, run_env(fake, guild, database_url, **settings), log_name)
    try:
        connected = lambda: len(fake.sessions) > sessions and fake.commands  # noqa: E731
        await fake.wait_until(
            lambda: connected() or process.returncode is not None, READY_SECONDS, lambda: "gregario run never connected"
        )
        assert process.returncode is None, f"gregario run stopped at start-up ({process.returncode}): see {log_name}"
        await fake.settle(0.3, 5)
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)  # a crash: nothing is flushed, nothing is said goodbye
        await process.wait()


def logged_errors(folder: Path, log_name: str = "gregario-run.log") -> list[str]:
    """The ERROR (and worse) lines and tracebacks the processes logged."""
    path = folder / log_name
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]


def group_members(group: int) -> list[tuple[int, str]]:
    """The live processes (pid, name) of process group ``group`` (zombies, already dead, left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == group:
            found.append((int(entry.name), name))
    return found


def children_of(pid: int) -> list[int]:
    """The live child processes of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found

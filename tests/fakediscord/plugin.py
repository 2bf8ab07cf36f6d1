"""pytest plugin: a fake Discord per test, the real bot logged in to it, and people to act.

Fixtures: ``fake_discord`` (the server with a guild ``Gregario Test`` and channels #general, #races),
``guild``, ``races`` (the #races channel), ``alice``, ``bob``, ``carla`` (members, acting in #races),
``bot_settings`` and ``gregario`` (the bot from ``bot.create_bot`` logged in, synced and READY).

Teardown fails the test on any ERROR log record from discord.py or the bot, on any route the fake does
not implement, on any protocol problem and on any attempt to resolve a host other than Discord's.
A test that provokes errors on purpose marks itself ``@pytest.mark.allow_log_errors`` and reads them
from the ``log_errors`` fixture.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from tests.fakediscord.network import make_certificate
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild

ClientT = TypeVar("ClientT", bound="discord.Client")

if TYPE_CHECKING:
    import discord

    from bot.app import Gregario
    from bot.settings import Settings

WATCHED_LOGGERS = ("discord", "bot")
READY_TIMEOUT = 5.0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_log_errors: the test provokes ERROR log records on purpose")
    # discord.py imports audioop for voice, which Gregario never uses.
    config.addinivalue_line("filterwarnings", "ignore:'audioop' is deprecated:DeprecationWarning")


class ErrorRecords(logging.Handler):
    """Collects ERROR (and worse) records of discord.py and the bot."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="session")
def fake_discord_certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_certificate(tmp_path_factory.mktemp("fake-discord-tls"))


@pytest.fixture
def log_errors() -> Iterator[ErrorRecords]:
    handler = ErrorRecords()
    loggers = [logging.getLogger(name) for name in WATCHED_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        if logger.level == logging.NOTSET or logger.level > logging.ERROR:
            logger.setLevel(logging.INFO)
    yield handler
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


@pytest.fixture
async def fake_discord(
    request: pytest.FixtureRequest, fake_discord_certificate: tuple[Path, Path], log_errors: ErrorRecords
) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(*fake_discord_certificate)
    owner = fake.create_user("Olga")
    fake.create_guild("Gregario Test", owner)
    await fake.start()
    yield fake
    await fake.stop()
    failures: list[str] = []
    if fake.unknown_routes:
        failures.append(f"the bot called routes the fake does not implement: {fake.unknown_routes}")
    if fake.problems:
        failures.append(f"protocol problems: {fake.problems}")
    if fake.refused_hosts:
        failures.append(f"the bot tried to reach other hosts: {fake.refused_hosts}")
    if log_errors.records and request.node.get_closest_marker("allow_log_errors") is None:
        lines = [
            f"{r.name}: {r.getMessage()}" + (f" ({r.exc_info[1]!r})" if r.exc_info else "") for r in log_errors.records
        ]
        failures.append("ERROR log records:\n  " + "\n  ".join(lines))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


@pytest.fixture
def guild(fake_discord: FakeDiscord) -> Guild:
    return fake_discord.guilds[0]


@pytest.fixture
def races(guild: Guild) -> Channel:
    return guild.channel("races")


def _member(fake: FakeDiscord, guild: Guild, channel: Channel, name: str) -> DiscordUser:
    user = fake.create_user(name)
    fake.add_member(guild, user)
    return DiscordUser(fake, user, channel)


@pytest.fixture
def alice(fake_discord: FakeDiscord, guild: Guild, races: Channel) -> DiscordUser:
    return _member(fake_discord, guild, races, "Alice")


@pytest.fixture
def bob(fake_discord: FakeDiscord, guild: Guild, races: Channel) -> DiscordUser:
    return _member(fake_discord, guild, races, "Bob")


@pytest.fixture
def carla(fake_discord: FakeDiscord, guild: Guild, races: Channel) -> DiscordUser:
    return _member(fake_discord, guild, races, "Carla")


@pytest.fixture
def bot_settings(fake_discord: FakeDiscord, guild: Guild, tmp_path: Path) -> Settings:
    """Settings for a developer's bot: the fake's token, commands synced to the test guild, races in a
    SQLite file of the test's own, the engine in the bot's loop (no worker process to start)."""
    from bot.settings import Settings

    return Settings(
        _env_file=None,
        token=fake_discord.token,
        test_guild_id=guild.id,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}",
        engine_workers=0,
    )


@contextlib.asynccontextmanager
async def running_client(fake: FakeDiscord, client: ClientT, token: str | None = None) -> AsyncIterator[ClientT]:
    """Any discord.py client built with ``connector=fake.connector()``: logged in, READY, closed after."""
    connection: asyncio.Task[None] | None = None
    try:
        await client.login(token or fake.token)
        connection = asyncio.create_task(client.connect(reconnect=True))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({connection, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if connection in done:
                connection.result()  # raises what stopped the client
            raise AssertionError(f"the client was not READY after {READY_TIMEOUT} s")
        yield client
    finally:
        await client.close()
        if connection is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(connection, 5)


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, settings: Settings, **client_kwargs: Any) -> AsyncIterator[Gregario]:
    """The real bot from ``bot.create_bot``, logged in to ``fake`` (commands synced) and READY."""
    from bot import create_bot

    client_kwargs.setdefault("guild_ready_timeout", 0.05)
    bot = create_bot(settings, connector=fake.connector(), **client_kwargs)
    assert settings.token is not None
    async with running_client(fake, bot, settings.token.get_secret_value()) as started:
        yield started


@pytest.fixture
async def gregario(fake_discord: FakeDiscord, bot_settings: Settings) -> AsyncIterator[Gregario]:
    async with running_bot(fake_discord, bot_settings) as bot:
        yield bot

"""The bot as a whole: extensions load, commands are unique, sync goes where settings say."""

from __future__ import annotations

import ast
import logging
from collections import Counter
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from bot.app import Gregario
from bot.exts import EXTENSIONS
from bot.settings import Settings
from engine.ruleset import Ruleset
from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.plugin import running_bot

EXTS = Path(__file__).resolve().parents[2] / "bot" / "exts"


def _local(folder: Path) -> dict[str, Any]:
    """Races in the test's own SQLite file, the engine in the bot's loop."""
    return {"database_url": f"sqlite+aiosqlite:///{folder / 'races.sqlite3'}", "engine_workers": 0}


def _offline_settings() -> Settings:
    return Settings(_env_file=None, token=None, sync_commands=False)


def test_every_feature_package_is_an_extension() -> None:
    """Each package under bot/exts/ is found and loaded at start-up."""
    packages = sorted(p.name for p in EXTS.iterdir() if (p / "__init__.py").exists() and not p.name.startswith("_"))
    assert sorted(e.rsplit(".", 1)[1] for e in EXTENSIONS) == packages
    assert {"bot.exts.rules", "bot.exts.stages"} <= set(EXTENSIONS)


def test_an_extension_init_only_loads_its_cog() -> None:
    """A feature's __init__ holds imports and ``setup`` only; the work lives in private modules."""
    for name in EXTENSIONS:
        tree = ast.parse((EXTS / name.rsplit(".", 1)[1] / "__init__.py").read_text())
        defined = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)]
        assert defined == ["setup"], f"{name} defines {defined}"


async def test_every_extension_loads_and_no_two_commands_share_a_name() -> None:
    """All extensions load into one bot and every command name (with its parents) is unique."""
    bot = create_bot(_offline_settings())
    try:
        for name in EXTENSIONS:
            await bot.load_extension(name)
        assert set(bot.extensions) == set(EXTENSIONS)
        names = Counter(c.qualified_name for c in bot.tree.walk_commands())
        assert names and max(names.values()) == 1, names
        assert {"rules", "stages"} <= set(names)
    finally:
        await bot.close()


async def test_create_bot_passes_client_options_through() -> None:
    """create_bot gives discord.py what tests pass (connector, guild_ready_timeout) and keeps settings."""
    settings = _offline_settings()
    bot = create_bot(settings, guild_ready_timeout=0.5, intents=discord.Intents.none())
    try:
        assert isinstance(bot, Gregario) and bot.settings is settings
        assert bot._connection.guild_ready_timeout == 0.5
        assert bot.intents.value == 0
    finally:
        await bot.close()


async def test_without_a_test_guild_commands_sync_globally(
    fake_discord: FakeDiscord, alice: DiscordUser, ruleset: Ruleset[Any], tmp_path: Path
) -> None:
    """With no test guild the commands are registered globally and work in any server."""
    settings = Settings(_env_file=None, token=fake_discord.token, test_guild_id=None, **_local(tmp_path))
    async with running_bot(fake_discord, settings) as bot:
        assert {c.guild_id for c in fake_discord.commands} == {None}
        assert {"rules", "stages"} <= {c.name for c in fake_discord.commands}
        assert {c.name for c in bot.synced} == {c.name for c in fake_discord.commands}
        reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
        assert reply.embeds


async def test_with_sync_off_nothing_is_registered(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """sync_commands=false starts the bot without touching the registered commands."""
    settings = Settings(_env_file=None, token=fake_discord.token, sync_commands=False, **_local(tmp_path))
    async with running_bot(fake_discord, settings):
        assert not [r for r in fake_discord.requests if r.method == "PUT"]
        assert fake_discord.commands == []


async def test_a_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    """Discord refuses a bad token at login; discord.py raises LoginFailure."""
    settings = Settings(_env_file=None, token="not-the-token")
    with pytest.raises(discord.LoginFailure):
        async with running_bot(fake_discord, settings):
            pass


async def test_commands_answer_in_dms(
    fake_discord: FakeDiscord, alice: DiscordUser, ruleset: Ruleset[Any], tmp_path: Path
) -> None:
    """Global commands also work in a DM with the bot."""
    settings = Settings(_env_file=None, token=fake_discord.token, **_local(tmp_path))
    async with running_bot(fake_discord, settings):
        dm = fake_discord.dm_channel(alice.user)
        reply = await (await alice.slash("stages", ruleset=ruleset.name, channel=dm)).reply()
        assert reply.channel is dm and reply.embeds


async def test_start_up_logs_who_the_bot_is_and_its_invite_link(
    fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """One line, "Logged in as NAME — invite: URL", the URL built from the application id with both scopes
    and the permissions the README lists (view, send, send in threads, create public threads, embed, attach,
    read history)."""
    settings = Settings(_env_file=None, token=fake_discord.token, sync_commands=False, **_local(tmp_path))
    with caplog.at_level(logging.INFO, logger="bot.app"):
        async with running_bot(fake_discord, settings):
            pass
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Logged in as")]
    # 1024 view + 2048 send + 16384 embed + 32768 attach + 65536 history + 2**38 send in threads
    # + 2**35 create public threads (a race's thread)
    permissions = 1024 + 2048 + 16384 + 32768 + 65536 + 2**38 + 2**35
    assert lines == [
        f"Logged in as Gregario — invite: https://discord.com/oauth2/authorize?client_id={fake_discord.application_id}"
        f"&scope=bot+applications.commands&permissions={permissions}"
    ]


def test_the_readme_gives_the_permissions_and_scopes_the_invite_uses() -> None:
    """README's "Putting the bot on a server" states the same permission integer, in words too, and scopes."""
    from bot.app import PERMISSIONS, SCOPES

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = " ".join(readme.split("## Putting the bot on a server", 1)[1].split("\n## ", 1)[0].split())
    assert f"`{PERMISSIONS.value}`" in section
    words = {"View Channels": "view_channel", "Send Messages": "send_messages", "Embed Links": "embed_links"}
    words |= {"Send Messages in Threads": "send_messages_in_threads", "Attach Files": "attach_files"}
    words |= {"Read Message History": "read_message_history", "Create Public Threads": "create_public_threads"}
    assert discord.Permissions(**dict.fromkeys(words.values(), True)) == PERMISSIONS
    assert all(name in section for name in words)
    assert all(f"`{scope}`" in section for scope in SCOPES)

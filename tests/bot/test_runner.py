"""`gregario bot` without a token explains how to get one and stops, without loading discord.py."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.runner import run, serve
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_no_token_explains_how_to_get_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Exit code 2, and stderr says where the token comes from, where it goes, and what works without it."""
    assert run(Settings(_env_file=None, token=None)) == 2
    err = capsys.readouterr().err
    assert "developer portal" in err and "Bot" in err and "Reset Token" in err
    assert "GREGARIO_TOKEN=" in err and ".env" in err
    assert "gregario play" in err


def test_no_token_loads_no_discord_and_connects_nowhere(tmp_path: Path) -> None:
    """In a fresh interpreter with no token, run() returns 2 and discord.py was never imported."""
    code = "import sys; from bot.runner import run; r = run(); print(r, 'discord' in sys.modules)"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["2", "False"], done.stderr


def test_importing_bot_stays_light() -> None:
    """`import bot` (what the CLI does) loads neither discord.py nor aiohttp."""
    code = (
        "import sys, bot, bot.settings, bot.runner; "
        "print(sorted(m for m in ('discord', 'aiohttp') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


def test_invalid_settings_are_reported_not_raised(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken setting in the environment gives exit code 2 and names the variable."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREGARIO_TEST_GUILD_ID", "my-server")
    assert run() == 2
    assert "GREGARIO_TEST_GUILD_ID=my-server" in capsys.readouterr().err


async def test_serve_runs_the_bot_until_it_is_closed(fake_discord: Any, bot_settings: Settings) -> None:
    """serve() logs in, syncs and connects; closing the bot ends it with exit code 0."""
    from bot import create_bot

    bot = create_bot(bot_settings, connector=fake_discord.connector(), guild_ready_timeout=0.05)
    serving = asyncio.create_task(serve(bot, fake_discord.token))
    await asyncio.wait_for(bot.wait_until_ready(), 5)
    assert {c.name for c in fake_discord.commands} == {"race", "rules", "stages"}
    await bot.close()
    assert await asyncio.wait_for(serving, 5) == 0


async def test_serve_explains_a_refused_token(
    fake_discord: Any, bot_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """A token Discord refuses gives exit code 2 and says to reset it."""
    from bot import create_bot

    bot = create_bot(bot_settings, connector=fake_discord.connector())
    assert await serve(bot, "stolen-and-revoked") == 2
    assert "Reset Token" in capsys.readouterr().err


async def test_serve_explains_a_refused_intent(
    fake_discord: Any, bot_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    """A privileged intent the portal has not enabled gives exit code 2 and says where to enable it."""
    import discord

    from bot import create_bot

    bot = create_bot(
        bot_settings, connector=fake_discord.connector(), intents=discord.Intents.all(), guild_ready_timeout=0.05
    )
    assert await serve(bot, fake_discord.token) == 2
    assert "Privileged Gateway Intents" in capsys.readouterr().err

"""`gregario bot` without a token explains how to get one and stops, without loading discord.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.runner import run
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
    """A broken setting in the environment gives exit code 2 and names the setting."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREGARIO_REMINDER_AT", "2")
    assert run() == 2
    assert "reminder_at" in capsys.readouterr().err

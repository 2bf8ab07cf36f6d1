"""Settings come from the environment and .env, and .env.example documents every one of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No developer's GREGARIO_* variables or .env leak into these tests."""
    import os

    for name in list(os.environ):
        if name.startswith("GREGARIO_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_defaults_need_no_configuration() -> None:
    """With nothing set, there is no token, a SQLite file and 15-minute rounds."""
    settings = Settings()
    assert settings.token is None
    assert settings.database_url.startswith("sqlite")
    assert settings.round_deadline_minutes == 15
    assert settings.test_guild_id is None
    assert settings.sync_commands is True


def test_the_token_comes_from_gregario_token_or_discord_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """GREGARIO_TOKEN is read, DISCORD_TOKEN too, and the first wins."""
    monkeypatch.setenv("DISCORD_TOKEN", "from-discord")
    assert Settings().token is not None and Settings().token.get_secret_value() == "from-discord"  # type: ignore[union-attr]
    monkeypatch.setenv("GREGARIO_TOKEN", "from-gregario")
    assert Settings().token.get_secret_value() == "from-gregario"  # type: ignore[union-attr]


def test_the_token_never_shows_in_reprs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A logged settings object does not leak the token."""
    monkeypatch.setenv("GREGARIO_TOKEN", "very-secret")
    assert "very-secret" not in repr(Settings())


def test_a_dot_env_file_is_read_and_blank_values_mean_unset(tmp_path: Path) -> None:
    """.env in the working folder sets values; an empty token or guild line means none."""
    (tmp_path / ".env").write_text(
        "GREGARIO_TOKEN=\nGREGARIO_TEST_GUILD_ID=\nGREGARIO_ROUND_DEADLINE_MINUTES=30\nGREGARIO_LOG_LEVEL=DEBUG\n"
    )
    settings = Settings()
    assert settings.token is None and settings.test_guild_id is None
    assert settings.round_deadline_minutes == 30 and settings.log_level == "DEBUG"


def test_bad_values_name_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline that is not a number is refused with the setting's name."""
    monkeypatch.setenv("GREGARIO_ROUND_DEADLINE_MINUTES", "soon")
    with pytest.raises(ValidationError, match="round_deadline_minutes"):
        Settings()


def test_env_example_documents_every_setting_with_its_default() -> None:
    """Every setting appears in .env.example with its default value and a comment above it."""
    text = (ROOT / ".env.example").read_text()
    lines = dict(re.findall(r"^(GREGARIO_[A-Z_]+)=(.*)$", text, re.M))
    defaults = Settings.model_fields
    assert set(lines) == {f"GREGARIO_{name.upper()}" for name in defaults}
    for name, field in defaults.items():
        value = lines[f"GREGARIO_{name.upper()}"]
        default = field.default
        expected = "" if default is None else str(default).lower() if isinstance(default, bool) else str(default)
        assert value == expected, f"{name}: .env.example says {value!r}, the default is {expected!r}"
        assert re.search(rf"^#.*\n(#.*\n)*GREGARIO_{name.upper()}=", text, re.M), f"{name} has no comment"

"""Every setting of the bot process, read once from the environment and ``.env``.

Per-server settings (language, deadlines chosen by admins) live in the database; this module holds
only what the process needs to start. Each field is documented in ``.env.example``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """The process configuration: ``GREGARIO_*`` variables (the token also as ``DISCORD_TOKEN``)."""

    model_config = SettingsConfigDict(
        env_prefix="GREGARIO_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        validate_by_name=True,
    )

    token: SecretStr | None = Field(default=None, validation_alias=AliasChoices("GREGARIO_TOKEN", "DISCORD_TOKEN"))
    """The bot token from the Discord developer portal; None = not configured."""

    database_url: str = "sqlite+aiosqlite:///gregario.sqlite3"
    """Where races are stored: a SQLite file by default, PostgreSQL by URL (``postgresql+asyncpg://...``)."""

    default_pace: str = "fast"
    """How long players have per decision unless the race says: live, fast, daily, or e.g. 30m, 6h, 2d."""

    engine_workers: int = Field(default=1, ge=0, le=32)
    """Worker processes for the heavy engine work (bot planning, resolution); 0 runs it in the bot's loop."""

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    round_deadline_minutes: int = Field(default=15, ge=1, le=7 * 24 * 60)
    """How long players have to order in a round, unless a server sets its own."""

    reminder_at: float = Field(default=0.75, gt=0, lt=1)
    """When the quiet reminder goes out, as a fraction of the round deadline."""

    lobby_timeout_minutes: int = Field(default=60, ge=1, le=7 * 24 * 60)
    """How long an unstarted lobby stays open before it is cancelled."""

    test_guild_id: int | None = None
    """A server to sync commands to instantly while developing; None = sync globally."""

    sync_commands: bool = True
    """Sync the slash commands with Discord at start-up."""

    @field_validator("token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        """An empty ``GREGARIO_TOKEN=`` line in ``.env`` means no token, not an empty one."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("default_pace")
    @classmethod
    def _known_pace(cls, value: str) -> str:
        from bot.services.paces import parse_pace

        parse_pace(value)  # raises a ValueError naming the accepted paces
        return value

    @field_validator("test_guild_id", mode="before")
    @classmethod
    def _blank_guild_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

"""Every setting of the bot process, read once from the environment and ``.env``.

This module holds only what the process needs to start; each field is documented in ``.env.example``.
Settings come back here with the code that reads them (nothing is declared ahead of its use).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]
LOG_LEVELS = get_args(LogLevel)

API_PATH = "/api/v10"
DISCORD_API = "https://discord.com" + API_PATH
"""Where discord.py sends its HTTP requests unless told otherwise."""


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

    lobby_timeout_minutes: int = Field(default=60, ge=1, le=7 * 24 * 60)
    """How long an unstarted lobby stays open before it is cancelled."""

    log_level: LogLevel = "INFO"
    """How much the bot logs; any case is accepted (``debug`` = ``DEBUG``)."""

    log_drivers: bool = False
    """At DEBUG, also log the database drivers' and discord.py's wire traffic (off: tens of thousands of
    lines a race, holding what players see in their DMs). Tokens are masked either way."""

    api_base_url: str = DISCORD_API
    """Discord's HTTP API: change it only to go through a proxy or to reach a stand-in for Discord."""

    ca_file: str | None = None
    """A PEM file of extra certificate authorities to trust for the API and the gateway (a stand-in for
    Discord with its own certificate, e.g. the test suite's fake). TLS is always verified."""

    test_guild_id: int | None = None
    """A server to sync commands to instantly while developing; None = sync globally."""

    sync_commands: bool = True
    """Sync the slash commands with Discord at start-up."""

    shard_count: int | None = Field(default=None, ge=1, le=4096)
    """How many shards the bot runs on in all (every process the same); None = as many as Discord says
    (one process holding every shard)."""

    shards: str | None = None
    """This process's shards, ``first-last`` (``0-3``) or one (``2``), of :attr:`shard_count`; None = all.
    Several processes on one PostgreSQL each take a range of their own (docs/scaling.md)."""

    requests_per_second: int = Field(default=45, ge=1, le=50)
    """This process's pace of REST requests counted by Discord's global limit (50 a second for the token,
    interactions' answers exempt): a margin below it by default; with several processes on one token, give
    each its share (45 / N). Past it requests wait, a player's panel first (:mod:`bot.pacing`)."""

    loop_stall_seconds: float = Field(default=1.0, gt=0, le=60)
    """A WARNING when the event loop was held this long (every race, click and the gateway waited)."""

    @field_validator("token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        """An empty ``GREGARIO_TOKEN=`` line in ``.env`` means no token, not an empty one."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level_in_any_case(cls, value: object) -> object:
        """``GREGARIO_LOG_LEVEL=debug`` means DEBUG: people type log levels in every case."""
        if isinstance(value, str) and value.strip().upper() in LOG_LEVELS:
            return value.strip().upper()
        return value

    @field_validator("api_base_url")
    @classmethod
    def _api_base_url_is_http(cls, value: str) -> str:
        """An http(s) URL, without its trailing slash (discord.py appends each route's path)."""
        if not value.startswith(("https://", "http://")):
            raise ValueError("must be an http:// or https:// URL, e.g. https://discord.com/api/v10")
        if not value.rstrip("/").endswith(API_PATH):
            raise ValueError(
                f"must end with {API_PATH}, the API version this bot speaks, e.g. https://discord.com{API_PATH}"
            )
        return value.rstrip("/")

    @field_validator("default_pace")
    @classmethod
    def _known_pace(cls, value: str) -> str:
        from bot.services.paces import parse_pace

        parse_pace(value)  # raises a ValueError naming the accepted paces
        return value

    @field_validator("ca_file", mode="before")
    @classmethod
    def _blank_ca_file_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("ca_file")
    @classmethod
    def _ca_file_exists(cls, value: str | None) -> str | None:
        """A PEM file holding at least one certificate (an empty or garbled file would fail at the first
        TLS handshake, with a traceback blaming Discord)."""
        import ssl
        from pathlib import Path

        if value is None:
            return value
        if not Path(value).is_file():
            raise ValueError(f"no such file: {value} (a PEM file of certificate authorities)")
        try:
            ssl.create_default_context().load_verify_locations(cafile=value)
        except (ssl.SSLError, ValueError, OSError):
            raise ValueError(f"{value} holds no PEM certificate (-----BEGIN CERTIFICATE-----)") from None
        return value

    @field_validator("database_url")
    @classmethod
    def _supported_database(cls, value: str) -> str:
        """SQLite or PostgreSQL, the two databases Gregario is tested on."""
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        from bot.store.database import normalise_url

        hint = "use sqlite:///FILE or postgresql://USER:PASSWORD@HOST:PORT/NAME"
        try:
            driver = make_url(normalise_url(value)).drivername
        except (ArgumentError, ValueError):
            raise ValueError(f"not a database URL: {hint}") from None
        if driver not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
            raise ValueError(
                f"Gregario stores races in SQLite or PostgreSQL (aiosqlite, asyncpg), not {driver}: {hint}"
            )
        return value

    def gateway_url(self) -> str | None:
        """The gateway that goes with :attr:`api_base_url`: Discord's own (None) for Discord's API, else
        ``wss://`` on the same host and port as the API (a stand-in serves both)."""
        from urllib.parse import urlsplit

        if self.api_base_url == DISCORD_API:
            return None
        parts = urlsplit(self.api_base_url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/"

    @field_validator("shards", "shard_count", mode="before")
    @classmethod
    def _blank_shards_are_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("shards")
    @classmethod
    def _shard_range(cls, value: str | None) -> str | None:
        if value is None:
            return None
        first, _, last = value.strip().partition("-")
        if not first.strip().isdigit() or (last and not last.strip().isdigit()):
            raise ValueError("give a shard range as first-last (e.g. 0-3) or one shard (e.g. 2)")
        low, high = int(first), int(last or first)
        if high < low:
            raise ValueError("the range's last shard comes before its first")
        return f"{low}-{high}"

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        if self.shards is not None:
            if self.shard_count is None:
                raise ValueError("GREGARIO_SHARDS needs GREGARIO_SHARD_COUNT (every process must agree on it)")
            if self.shard_ids()[-1] >= self.shard_count:
                raise ValueError(f"GREGARIO_SHARDS={self.shards} goes past GREGARIO_SHARD_COUNT={self.shard_count}")
        return self

    def shard_ids(self) -> list[int]:
        """This process's shards (empty: all of them, however many Discord says)."""
        if self.shards is None:
            return []
        low, high = (int(n) for n in self.shards.split("-"))
        return list(range(low, high + 1))

    def owner(self) -> str:
        """Who this process is to the races (``Context.owner``, its lease's name): ``main`` for the one
        process holding every shard, else its range (``shards 0-1 of 4``)."""
        if self.shards is None:
            return "main"
        return f"shards {self.shards} of {self.shard_count}"

    @field_validator("test_guild_id", mode="before")
    @classmethod
    def _blank_guild_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value


def describe_settings_error(invalid: ValidationError) -> str:
    """At most two lines naming each bad variable as the user wrote it and what it accepts."""
    lines = []
    for error in invalid.errors():
        field = str(error["loc"][0]) if error["loc"] else ""
        name = field.upper()
        variable = name if name.startswith(("GREGARIO_", "DISCORD_")) else f"GREGARIO_{name}" if field else "a setting"
        given = error.get("input")
        if field == "database_url" and isinstance(given, str):
            from bot.store.database import safe_url

            given = safe_url(given)  # never a password on the screen
        shown = f"={given}" if isinstance(given, str | int | float) and field != "token" else ""
        message = error["msg"].removeprefix("Value error, ")
        lines.append(f"{variable}{shown}: {message}")
    if len(lines) > 2:
        lines = [lines[0], f"(and {len(lines) - 1} more settings that are not valid)"]
    return "\n".join(lines)

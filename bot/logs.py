"""What ``gregario run`` logs, and what it never does.

INFO is for the operator: one line per race event (:mod:`bot.services.journal`), per outage and per
recovery. DEBUG adds the bot's own workings; the database drivers' chatter (aiosqlite logs every call)
and discord.py's wire traffic (gateway payloads, HTTP bodies) stay at INFO unless
``GREGARIO_LOG_DRIVERS=1`` asks for them. Whatever the level, every record passes :class:`Redact`:
the bot token and interaction tokens (each a credential for 15 minutes) are masked; the bot itself
never logs an order, a hand or a plan.
"""

from __future__ import annotations

import logging
import re

from bot.settings import Settings

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

DRIVERS = ("aiosqlite", "asyncpg", "sqlalchemy", "alembic")
"""Database libraries: their DEBUG lines are every statement and every call."""
WIRE = ("discord.gateway", "discord.http", "discord.webhook", "discord.state", "discord.client")
"""discord.py's protocol logs: at DEBUG they hold whole payloads (interactions with their tokens,
members, message contents)."""

_TOKENS = re.compile(
    r"(?P<route>/(?:interactions/\d+|webhooks/\d+))/(?P<token>[A-Za-z0-9_.\-]{20,})"  # REST paths
    r"|(?P<key>['\"]token['\"]\s*:\s*['\"])(?P<value>[^'\"]+)"  # a "token" field in a payload
)
MASK = "***"


class Redact(logging.Filter):
    """Masks the bot token and interaction tokens in every record (its message and its arguments)."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return _TOKENS.sub(
            lambda m: f"{m['route']}/{MASK}" if m["route"] else f"{m['key']}{MASK}",
            text,
        )

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        scrubbed = self.scrub(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, None
        if record.exc_info and record.exc_info[1] is not None:
            formatted = logging.Formatter().formatException(record.exc_info)
            record.exc_text = self.scrub(formatted)
        return True


def configure(settings: Settings) -> None:
    """Set up the process's log on stderr for ``settings`` (level, quiet drivers, redaction)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    secrets = [settings.token.get_secret_value()] if settings.token is not None else []
    handler.addFilter(Redact(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    level = logging.getLevelName(settings.log_level)
    root.setLevel(level)
    if settings.log_level != "DEBUG":  # discord.py's, alembic's and the drivers' chatter only when debugging
        for chatty in ("discord", *DRIVERS):
            logging.getLogger(chatty).setLevel(max(logging.WARNING, level))
    elif not settings.log_drivers:
        for name in DRIVERS:  # every statement, every call; their INFO is chatter too (mappers, migrations)
            logging.getLogger(name).setLevel(logging.WARNING)
        for name in WIRE:  # whole payloads
            logging.getLogger(name).setLevel(logging.INFO)

"""The process log masks credentials wherever they appear, and keeps the drivers quiet unless asked."""

from __future__ import annotations

import logging

import pytest

from bot.logs import MASK, Redact, configure
from bot.settings import Settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"
INTERACTION = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OmFiY2RlZg"


def _scrubbed(message: str, *args: object) -> str:
    record = logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, message, args or None, None)
    Redact([TOKEN]).filter(record)
    return record.getMessage()


def test_the_bot_token_is_masked_in_the_message_and_its_arguments() -> None:
    """The token, whether in the format string or an argument, never reaches the log."""
    assert _scrubbed("Authorization: Bot %s", TOKEN) == f"Authorization: Bot {MASK}"
    assert TOKEN not in _scrubbed(f"identify {{'token': '{TOKEN}'}}")


def test_interaction_tokens_are_masked_in_routes_and_payloads() -> None:
    """A callback URL, a followup webhook and a gateway payload's "token" field lose their token."""
    url = f"POST https://discord.com/api/v10/interactions/123456789/{INTERACTION}/callback has returned 204"
    assert _scrubbed(url) == f"POST https://discord.com/api/v10/interactions/123456789/{MASK}/callback has returned 204"
    assert INTERACTION not in _scrubbed(f"PATCH /webhooks/42/{INTERACTION}/messages/@original")
    assert _scrubbed("event %s", {"id": "1", "token": INTERACTION}) == f"event {{'id': '1', 'token': '{MASK}'}}"


@pytest.mark.parametrize(("drivers", "level"), [(False, logging.WARNING), (True, logging.NOTSET)])
def test_at_debug_the_drivers_speak_only_when_asked(drivers: bool, level: int) -> None:
    """GREGARIO_LOG_LEVEL=DEBUG leaves aiosqlite and SQLAlchemy at WARNING unless GREGARIO_LOG_DRIVERS is set."""
    names = ("aiosqlite", "sqlalchemy", "asyncpg", "discord.gateway", "discord.http")
    saved = {name: logging.getLogger(name).level for name in names}
    root = logging.getLogger()
    handlers, root_level = list(root.handlers), root.level
    try:
        for name in names:
            logging.getLogger(name).setLevel(logging.NOTSET)
        configure(Settings(_env_file=None, log_level="DEBUG", log_drivers=drivers))
        assert logging.getLogger("aiosqlite").level == level
        assert logging.getLogger("discord.http").level == (logging.NOTSET if drivers else logging.INFO)
    finally:
        for name, old in saved.items():
            logging.getLogger(name).setLevel(old)
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(root_level)

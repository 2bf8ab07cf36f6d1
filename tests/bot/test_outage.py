"""The database goes away mid-race: clicks and commands are told to try again in time, and nothing changes."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import exc as sa

from bot.app import Gregario
from bot.i18n import t
from bot.services import orders
from bot.store.database import Database
from tests.bot.exts.race.table import Table, picks_on
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser

TRY_AGAIN = t("error.database_unreachable", None)


@contextlib.contextmanager
def database_down(db: Database) -> Iterator[Callable[[], None]]:
    """Every new session fails as if PostgreSQL refused the connection, until the returned function is called."""
    real = db.sessions
    down = True

    def sessions(*args: Any, **kwargs: Any) -> Any:
        if down:
            raise sa.OperationalError("SELECT 1", {}, ConnectionRefusedError(111, "Connect call failed"))
        return real(*args, **kwargs)

    def back() -> None:
        nonlocal down
        down = False

    db.sessions = sessions  # type: ignore[assignment]
    try:
        yield back
    finally:
        db.sessions = real


def _answer_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.errors" and r.levelno >= logging.WARNING]


async def test_a_click_and_a_command_during_an_outage_are_told_to_try_again(
    fake_discord: FakeDiscord,
    gregario: Gregario,
    alice: DiscordUser,
    carla: DiscordUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Alice clicks her panel and opens a race while the database is down: both read "try again in a
    minute" within Discord's 3 seconds, each logs one WARNING line, and Alice's order is not stored."""
    assert gregario.runtime is not None
    ctx = gregario.runtime.ctx
    lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply()
    await (await carla.click(lobby, "Join")).acknowledged()
    await (await alice.click(lobby, "Start")).acknowledged()
    race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
    table = Table(fake_discord, ctx, race_id, {f"u{alice.id}": alice, f"u{carla.id}": carla})
    await table.started()
    _status, step, humans = await table.state()
    entrant = humans[0]
    player = table.players[entrant]
    panel = await table.panel(entrant, step)
    await table.all_told()  # the Start click's own work is over
    before = await orders.panel(ctx, race_id, player.id)
    choice = picks_on(panel)[0]
    caplog.set_level(logging.WARNING, logger="bot.errors")
    with database_down(ctx.db) as back:
        started = time.monotonic()
        if choice.get("type") == 2:
            handle = await player.click(panel, choice["label"])
        else:
            handle = await player.choose(panel, choice["options"][0]["label"], placeholder=choice.get("placeholder"))
        answer = await handle.reply(timeout=3)
        assert time.monotonic() - started < 3
        assert answer.text == TRY_AGAIN and answer.ephemeral_for is not None
        opened = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply(timeout=3)
        assert opened.text == TRY_AGAIN and opened.ephemeral_for is not None
        back()
    warnings = _answer_warnings(caplog)
    assert [r.levelname for r in warnings] == ["WARNING", "WARNING"]
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in warnings)
    assert "component gr:" in warnings[0].getMessage() and "/race new" in warnings[1].getMessage()
    after = await orders.panel(ctx, race_id, player.id)
    assert (after.step, after.order) == (before.step, before.order), "the click changed nothing"
    assert fake_discord.problems == []


async def test_a_stopping_bot_answers_new_clicks_and_commands_kindly(
    fake_discord: FakeDiscord, gregario: Gregario, alice: DiscordUser
) -> None:
    """Once the bot has begun to stop, a command is answered "I'm restarting" rather than started."""
    await gregario.gate.close(0)
    answer = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply(timeout=3)
    assert answer.text == t("error.stopping", None)

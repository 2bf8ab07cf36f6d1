"""A click is answered within Discord's 3 seconds while another connection holds the SQLite lock: it is
deferred, its work waits for the lock, and what the player picked is stored and shown (or, past the
database's own timeout, the player is told to try again and nothing is stored)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import Gregario
from bot.i18n import t
from bot.services import orders
from bot.settings import Settings
from bot.store import database
from tests.bot.exts.race.table import Table, picks_on
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import INTERACTION_DEADLINE, FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Message

HELD = INTERACTION_DEADLINE + 1.5
"""How long the other connection keeps the lock: longer than Discord waits for an answer."""


@contextlib.contextmanager
def locked(settings: Settings) -> Iterator[sqlite3.Connection]:
    """Another connection (a second tool on the file) holding the database's write lock."""
    path = database.sqlite_path(settings.database_url)
    assert path is not None
    other = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield other
        assert other.in_transaction, "the lock was held to the end"
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


async def _race(bot: Gregario, fake: FakeDiscord, alice: DiscordUser) -> tuple[Table, Message]:
    lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short", bots=1)).reply()
    await (await alice.click(lobby, "Start")).acknowledged()
    assert bot.runtime is not None
    race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
    table = Table(fake, bot.runtime.ctx, race_id, {f"u{alice.id}": alice})
    await table.started()
    await table.all_told()
    _status, step, _humans = await table.state()
    return table, await table.panel(f"u{alice.id}", step)


async def test_a_pick_while_the_database_is_locked_is_deferred_in_time_then_stored_and_shown(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bot_settings: Settings
) -> None:
    """Alice picks while another connection holds the lock for longer than Discord waits: the click is
    deferred (type 6) in time, and once the lock is released her pick is stored and her panel shows it."""
    table, panel = await _race(gregario, fake_discord, alice)
    before = panel.text
    first = picks_on(panel)[0]
    with locked(bot_settings):
        handle = await alice.press(panel, first["custom_id"], values=["0"] if first.get("type") == 3 else None)
        assert await handle.acknowledged(INTERACTION_DEADLINE) == 6, "a late answer is deferred, not dropped"
        await asyncio.sleep(HELD - INTERACTION_DEADLINE)
    await fake_discord.wait_until(lambda: panel.text != before or None, 15, lambda: "the panel never showed the pick")
    stored = await orders.panel(table.ctx, table.race_id, alice.id)
    assert stored.order, "the pick made while the database was locked is stored"
    assert fake_discord.problems == []


async def test_a_click_locked_out_past_the_databases_timeout_is_told_to_try_again_and_stores_nothing(
    fake_discord: FakeDiscord, alice: DiscordUser, bot_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the lock held past SQLite's busy timeout, Alice's pick is answered (a follow-up, privately):
    she reads "try again", nothing is stored, and the same pick works once the lock is gone."""
    monkeypatch.setattr(database, "SQLITE_BUSY_TIMEOUT_MS", 2_000)
    async with running_bot(fake_discord, bot_settings) as bot:
        table, panel = await _race(bot, fake_discord, alice)
        first = picks_on(panel)[0]
        values = ["0"] if first.get("type") == 3 else None
        with locked(bot_settings):
            handle = await alice.press(panel, first["custom_id"], values=values)
            [told] = await handle.followups(1, 10)
        assert told.text == t("error.database_unreachable", "en-US")
        assert told.ephemeral_for == alice.id
        assert not (await orders.panel(table.ctx, table.race_id, alice.id)).order, "nothing was stored"
        again = await alice.press(panel, first["custom_id"], values=values)
        assert await again.acknowledged() == 7
        assert (await orders.panel(table.ctx, table.race_id, alice.id)).order
    assert fake_discord.problems == []


async def test_type_my_order_deferred_by_a_slow_database_asks_to_press_again(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A form cannot be opened once a click is deferred: Type my order whose read takes longer than Discord
    waits (a slow database) answers in time and says to press it again, which then opens the form."""
    _table, panel = await _race(gregario, fake_discord, alice)
    quick = orders.panel

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(HELD)
        return await quick(*args, **kwargs)

    monkeypatch.setattr(orders, "panel", slow)
    handle = await alice.click(panel, "Type my order")
    assert await handle.acknowledged(INTERACTION_DEADLINE) == 6
    [told] = await handle.followups(1, 15)
    assert told.text == t("error.too_slow_for_form", "en-US")
    monkeypatch.setattr(orders, "panel", quick)
    assert await (await alice.click(panel, "Type my order")).modal()
    assert fake_discord.problems == []


async def test_type_my_order_opens_its_form_while_another_connection_writes(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bot_settings: Settings
) -> None:
    """Type my order only reads, and a read does not wait for a writer's lock (WAL, a deferred transaction):
    pressed while another connection holds the lock for longer than Discord waits, it opens its form at once."""
    _table, panel = await _race(gregario, fake_discord, alice)
    with locked(bot_settings):
        assert await (await alice.click(panel, "Type my order")).modal()
    assert fake_discord.problems == []


def test_the_lock_helper_really_locks(tmp_path: Path) -> None:
    """The test's other connection does hold the write lock (a writer with no wait is refused)."""
    settings = Settings(_env_file=None, database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with contextlib.closing(sqlite3.connect(tmp_path / "x.sqlite3")) as made:
        made.execute("CREATE TABLE t (x)")
    with (
        locked(settings),
        contextlib.closing(sqlite3.connect(tmp_path / "x.sqlite3", timeout=0)) as writer,
        pytest.raises(sqlite3.OperationalError, match="locked"),
    ):
        writer.execute("BEGIN IMMEDIATE")

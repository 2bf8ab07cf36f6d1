"""An operator restores an older backup under a real `gregario run`: the bot notices at start that the races
went back, says so in the race's channel, marks the posts and panels of the lost moment undone, sends fresh
panels with a fresh deadline, and the race goes on to its end (issue 25)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import sqlite3
from pathlib import Path

import pytest

from bot.exts.race import _restore
from bot.i18n import t
from bot.services import boards, orders
from bot.services.context import Context
from bot.settings import Settings
from bot.store.database import connect, sqlite_path
from tests.bot.exts.race.process import gregario_run, logged_errors
from tests.bot.exts.race.table import Table, finals, picks_on, step_of
from tests.bot.exts.race.test_backup import _backup
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild, Message

UNDONE = t("race.undone.post", "en-US")
HISTORY = "/channels/{channel_id}/messages"


def _bot_posts(fake: FakeDiscord, channel_id: int) -> list[Message]:
    """The bot's own posts in a channel and in the race threads opened from it (not answers to
    interactions), oldest first: a race's posts go to its thread."""
    channel = fake.channels[channel_id]
    threads = [c for c in fake.channels.values() if c.parent is channel]
    messages = sorted([*channel.messages, *(m for t in threads for m in t.messages)], key=lambda m: m.id)
    return [m for m in messages if m.author.id == fake.bot_user.id and m.interaction is None]


@pytest.mark.rules("R-SVC-6")
async def test_a_restored_older_backup_is_noticed_told_and_the_lost_moment_marked_undone(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """Backup at a step, one more step played, then the older backup restored: at the restart the channel
    reads that race #1 is back at that round, the round post made after the backup says it was undone, the
    panels of the step that no longer exists lose their buttons and say why (a click on one as it was is
    answered as out of date), each player gets a fresh live panel for the step with a
    later deadline, and the race is played to its final post."""
    fake = fake_discord
    live = tmp_path / "live"
    live.mkdir()
    database = live / "races.sqlite3"
    url = f"sqlite+aiosqlite:///{database}"
    copy = tmp_path / "backup.sqlite3"
    players = {f"u{alice.id}": alice, f"u{carla.id}": carla}
    async with gregario_run(fake, guild, tmp_path, url) as process:
        lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply()
        await (await carla.click(lobby, "Join")).acknowledged()
        await (await alice.click(lobby, "Start")).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        channel_id = lobby.channel.id
        reader = Context(db=connect(url))
        table = Table(fake, reader, race_id, players)
        try:
            await table.started()
            _status, step, humans = await table.state()
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
            await table.all_told()
            _status, backed_up, waiting = await table.state()
            for entrant in waiting:
                await table.panel(entrant, backed_up)
            deadline_then = await boards.deadline(reader, race_id, backed_up)
            assert deadline_then is not None
            code, said = await _backup(database, copy)
            assert code == 0, said
            posts_then = {m.id for m in _bot_posts(fake, channel_id)}
            # The moment the backup will not have: the step backed up is played and told.
            for entrant in waiting:
                await table.order(entrant, backed_up)
            await table.wait_step_after(backed_up)
            await table.all_told()
            _status, later, awaited_later = await table.state()
            assert later == backed_up + 1 and awaited_later
            lost = {entrant: await table.panel(entrant, later) for entrant in awaited_later}
            lost_panels = list(lost.values())
        finally:
            await reader.db.close()
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 15) == 0
    lost_posts = [m for m in _bot_posts(fake, channel_id) if m.id not in posts_then]
    assert lost_posts, "the step played after the backup was posted"
    dms_before = {e: len(u.dms()) for e, u in players.items()}

    shutil.rmtree(live)  # the operator restores the older copy
    live.mkdir()
    shutil.copy(copy, database)
    reader = Context(db=connect(url))
    table.ctx = reader
    try:
        assert (await table.state())[:2] == ("running", backed_up)
        async with gregario_run(fake, guild, tmp_path, url):
            resumed = await fake.wait_until(
                lambda: next((m for m in _bot_posts(fake, channel_id) if "is back at" in m.text), None),
                20,
                lambda: "the channel was never told the race resumed",
            )
            assert f"race #{race_id}** is back at" in resumed.text
            assert "I was restored from an earlier copy of my database" in resumed.text
            for post in lost_posts:
                await fake.wait_until(
                    lambda post=post: post.text.startswith(UNDONE) or None, 10, lambda post=post: f"not undone: {post}"
                )
                assert post.items() == [], "an undone post keeps no buttons"
            for panel in lost_panels:
                assert panel.text == t("race.undone.panel", "en-US", race=race_id)
                assert panel.items() == []
            kept = [m for m in _bot_posts(fake, channel_id) if m.id in posts_then]
            assert kept and not any(m.text.startswith(UNDONE) for m in kept), "posts before the backup stand"
            # Clicked as it was before it was marked undone (a screen not caught up), a lost panel's button is
            # answered as out of date, with where the current panel is.
            someone, panel = next(iter(lost.items()))
            answer = await (await players[someone].click_earlier(panel, "Type my order")).reply()
            assert answer.text == t("interaction.stale_panel", "en-US")
            # A fresh panel for the step the race is at again, in a new DM, and a later deadline.
            for entrant in waiting:
                user = players[entrant]
                fresh = await fake.wait_until(
                    lambda user=user, entrant=entrant: next(
                        (m for m in user.dms()[dms_before[entrant] :] if step_of(m) == backed_up and picks_on(m)), None
                    ),
                    10,
                    lambda: "no fresh panel",
                )
                assert fresh.id > max(p.id for p in lost_panels)
            deadline_now = await boards.deadline(reader, race_id, backed_up)
            assert deadline_now is not None and deadline_now > deadline_then
            for _ in range(300):
                status, now, humans = await table.state()
                if status != "running":
                    break
                for entrant in humans:
                    await table.order(entrant, now)
                await table.wait_step_after(now)
            assert status == "finished"
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
            assert [m for m in _bot_posts(fake, channel_id) if "is back at" in m.text] == [resumed], "told once"
    finally:
        await reader.db.close()
    assert logged_errors(tmp_path) == []


async def test_a_plain_restart_tells_nothing_and_undoes_nothing(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """Stopped and started again on the same database, the bot finds nothing of a later moment: no notice,
    no post or panel marked undone."""
    fake = fake_discord
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    players = {f"u{alice.id}": alice, f"u{carla.id}": carla}
    async with gregario_run(fake, guild, tmp_path, url) as process:
        lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply()
        await (await carla.click(lobby, "Join")).acknowledged()
        await (await alice.click(lobby, "Start")).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        reader = Context(db=connect(url))
        table = Table(fake, reader, race_id, players)
        try:
            await table.started()
            _status, step, humans = await table.state()
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
            await table.all_told()
        finally:
            await reader.db.close()
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 15) == 0
    seen = len(fake.requests)
    async with gregario_run(fake, guild, tmp_path, url):
        await fake.wait_until(
            lambda: (
                any(r.route == "/channels/{channel_id}/messages" and r.method == "GET" for r in fake.requests[seen:])
                or None
            ),
            20,
            lambda: "the bot never looked at the channel's history",
        )
        await fake.settle(0.5, 10)
    texts = [m.text for m in _bot_posts(fake, lobby.channel.id)] + [m.text for u in players.values() for m in u.dms()]
    assert not any("is back at" in x or x.startswith(UNDONE) or "no longer exists" in x for x in texts)
    assert logged_errors(tmp_path) == []


async def test_a_live_panel_of_a_step_the_race_has_not_reached_says_its_moment_no_longer_exists(
    fake_discord: FakeDiscord, alice: DiscordUser, bot_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the start could not look at Discord (so a lost panel kept its buttons), a click on a panel of a step
    the restored race has not reached is answered that its moment no longer exists, and records nothing."""
    path = sqlite_path(bot_settings.database_url)
    assert path is not None
    copy = path.with_name("copy.sqlite3")
    async with running_bot(fake_discord, bot_settings) as bot:
        lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short", bots=1)).reply()
        await (await alice.click(lobby, "Start")).acknowledged()
        assert bot.runtime is not None
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        table = Table(fake_discord, bot.runtime.ctx, race_id, {f"u{alice.id}": alice})
        await table.started()
        await table.all_told()
        _status, backed_up, _humans = await table.state()
        with contextlib.closing(sqlite3.connect(path)) as source, contextlib.closing(sqlite3.connect(copy)) as target:
            source.backup(target)
        await table.order(f"u{alice.id}", backed_up)
        await table.wait_step_after(backed_up)
        await table.all_told()
        _status, later, _humans = await table.state()
        lost = await table.panel(f"u{alice.id}", later)
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        path.with_name(name).unlink(missing_ok=True)
    shutil.copy(copy, path)

    async def blind(_client: object, _ctx: object) -> None:
        return None

    monkeypatch.setattr(_restore, "look", blind)
    async with running_bot(fake_discord, bot_settings) as bot:
        assert bot.runtime is not None
        table.ctx = bot.runtime.ctx
        assert (await table.state())[1] == backed_up
        answer = await (await alice.click(lost, "Type my order")).reply()
        assert answer.text == t("order.undone", "en-US", race=race_id)
        assert answer.ephemeral_for == alice.id
        assert not (await orders.panel(table.ctx, race_id, alice.id)).order

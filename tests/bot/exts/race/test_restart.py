"""`gregario run` in its own process against the fake Discord: a crash mid-round loses no order."""

from __future__ import annotations

import contextlib
from pathlib import Path

from bot.services.context import Context
from bot.store import ledger
from bot.store.database import connect
from bot.store.ledger import PostKind
from engine.race import replay
from engine.record import parse_record
from tests.bot.exts.race.process import gregario_run, logged_errors
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild


async def test_a_crash_between_two_orders_keeps_both(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """Alice orders, the bot process dies, a new one starts on the same database; Carla orders on the old
    panel and the race finishes with Alice's order as she sent it."""
    fake = fake_discord
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    ctx = Context(db=connect(url))
    try:
        async with contextlib.AsyncExitStack() as first:
            await first.enter_async_context(gregario_run(fake, guild, tmp_path, url))
            lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply()
            await (await carla.click(lobby, "Join")).acknowledged()
            await (await alice.click(lobby, "Start")).acknowledged()
            race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
            table = Table(fake, ctx, race_id, {f"u{alice.id}": alice, f"u{carla.id}": carla})
            await table.started()
            while True:
                status, step, humans = await table.state()
                assert status == "running"
                if len(humans) >= 2:
                    break
                for entrant in humans:
                    await table.order(entrant, step)
                await table.wait_step_after(step)
            first_to_order, other = humans[0], humans[1]
            await table.order(first_to_order, step)
            await table.panel(other, step)  # the old process sent it
        # The process is gone (killed); a new one starts on the same database file.
        async with gregario_run(fake, guild, tmp_path, url):
            await table.order(other, step)  # a click on a panel the first process sent
            await table.wait_step_after(step)
            for _ in range(300):
                status, now, humans = await table.state()
                if status != "running":
                    break
                for entrant in humans:
                    await table.order(entrant, now)
                await table.wait_step_after(now)
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
            final = finals(alice)[0]
            attachment = next(a for a in final.attachments if a.filename == f"race-{race_id}.json")
            record = parse_record((await alice.download(attachment.url)).decode())
        assert first_to_order in record.steps[step - 1] and other in record.steps[step - 1]
        assert not record.steps[step - 1][first_to_order].get("auto"), "the order sent before the crash was kept"
        names = {e.id: e.name for e in record.entrants}
        for standing in replay(record).result().standings:
            assert f"{standing.place}. {names[standing.entrant]}" in final.text
        assert logged_errors(tmp_path) == []
    finally:
        await ctx.db.close()


async def test_a_crash_right_after_the_thread_is_opened_opens_no_second_thread(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, tmp_path: Path
) -> None:
    """The bot process dies as Discord opens the race's thread, before the bot learns its id; the next
    process finds the thread again (it has the lobby message's id) instead of opening another, and the
    race's posts go there."""
    fake = fake_discord
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    ctx = Context(db=connect(url))
    try:
        async with gregario_run(fake, guild, tmp_path, url) as process:
            lobby = await (await alice.slash("race new", ruleset="flamme_rouge", stage="Sprint de Montagne")).reply()
            hook = fake.kill_after("POST", "/channels/{channel_id}/messages/{message_id}/threads", process.pid)
            await (await alice.click(lobby, "Start")).acknowledged()
            await fake.wait_until(lambda: hook.spent, 20, lambda: "the thread was never opened")
            await process.wait()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        assert [t.id for t in guild.threads] == [lobby.id], "the thread exists; the bot never learnt its id"
        async with ctx.db.sessions() as session:
            stored = await ledger.posts_of(session, race_id, 0)
        assert not [p for p in stored if p.kind is PostKind.THREAD], "its id was not stored before the crash"
        async with gregario_run(fake, guild, tmp_path, url):
            table = Table(fake, ctx, race_id, {f"u{alice.id}": alice})
            await table.started()
            await table.all_told()
            told = await table.post_of(0)
        assert [t.id for t in guild.threads] == [lobby.id], "no second thread"
        assert told is not None and told in fake.channels[lobby.id].messages, "the start post is in the thread"
        async with ctx.db.sessions() as session:
            stored = await ledger.posts_of(session, race_id, 0)
        assert [p.channel_id for p in stored if p.kind is PostKind.THREAD] == [lobby.id]
        assert [m.id for m in alice.read() if m.ephemeral_for is None] == [lobby.id], "nothing else in the channel"
        assert logged_errors(tmp_path) == []
    finally:
        await ctx.db.close()

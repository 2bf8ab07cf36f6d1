"""`gregario run` in its own process against the fake Discord: a crash mid-round loses no order."""

from __future__ import annotations

import contextlib
from pathlib import Path

from bot.services.context import Context
from bot.store.database import connect
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

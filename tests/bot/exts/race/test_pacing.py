"""The bot keeps under Discord's global limit by itself: a race played against a fake that answers a
global 429 past 4 requests a second, with the bot paced at 3, gets no 429 at all."""

from __future__ import annotations

from bot.settings import Settings
from tests.bot.exts.race.table import Table
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser


async def test_a_race_paced_below_the_global_limit_meets_no_429(
    fake_discord: FakeDiscord, bot_settings: Settings, alice: DiscordUser, bob: DiscordUser
) -> None:
    """Two players and a bot through three steps of Flamme Rouge: each step owes closes, panels and a
    post at once (more than 4 requests); the bot holds them back rather than meeting the limit, and
    every panel and post still arrives."""
    fake = fake_discord
    fake.global_rate_limit = (4, 1.0)
    settings = bot_settings.model_copy(update={"requests_per_second": 3})
    async with running_bot(fake, settings) as bot:
        opened = await alice.slash("race new", ruleset="Flamme Rouge", stage="Sprint de Montagne", bots=1)
        lobby = await opened.reply()
        await (await bob.click(lobby, "Join")).acknowledged()
        await (await alice.click(lobby, "Start")).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        assert bot.runtime is not None
        table = Table(fake, bot.runtime.ctx, race_id, {f"u{u.id}": u for u in (alice, bob)})
        await table.started()
        for _ in range(3):
            status, step, humans = await table.state()
            assert status == "running"
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
        await table.all_told()
        assert bot.pacer.waited > 0, "the steps' requests met the pace"
    assert fake.globally_limited == 0
    assert all(r.status != 429 for r in fake.requests)

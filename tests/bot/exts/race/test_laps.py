"""Turn-by-turn lap messages (Wyścig) told after a restart: every turn goes into the message of its own lap."""

from __future__ import annotations

from typing import Any

from bot.services import boards, records, resolution
from bot.services.context import Context
from bot.settings import Settings
from bot.store.database import connect
from bot.store.ledger import PostKind
from engine.race import replay
from tests.bot.exts.race.table import Table, lap_of, laps_after, race_reads, told_in, turn_texts
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser


async def test_a_lap_ended_while_the_bot_was_down_is_closed_in_its_own_message(
    fake_discord: FakeDiscord, bot_settings: Settings, alice: DiscordUser
) -> None:
    """Turns resolved while no bot posted them (a stop right after each resolution) cross from one lap into
    the next; the bot that starts next tells each turn in its own lap's message and closes the old lap."""
    fake = fake_discord
    async with running_bot(fake, bot_settings) as bot:
        assert bot.runtime is not None
        lobby = await (await alice.slash("race new", ruleset="wyscig", stage='{"stages": 1}', bots=2)).reply()
        await (await alice.click(lobby, "Start")).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        table = Table(fake, bot.runtime.ctx, race_id, {f"u{alice.id}": alice})
        await table.started()
        await table.panel(f"u{alice.id}", (await table.state())[1])
        await table.all_told()
    told_before = {p.step for p in await boards.posts_of(table.ctx, race_id) if p.kind == "step"}

    # No bot runs: the deadlines fall and the steps resolve (Alice's turns automatic), nothing is posted.
    ctx = Context(db=connect(bot_settings.database_url))
    try:
        record = await records.race_record(ctx, race_id)
        start_lap = lap_of(replay(record))
        for _ in range(40):
            step = (await table.state())[1]
            await resolution.resolve(ctx, race_id, step, force=True)
            status, now, _humans = await table.state()
            assert status == "running"
            laps = await laps_after(ctx, race_id)
            if laps[now - 2] != start_lap:
                break  # the last turn resolved is the next lap's: the backlog crosses the boundary
        else:
            raise AssertionError("the backlog never crossed into the next lap")
    finally:
        await ctx.db.close()
    backlog = sorted(set(range(1, now)) - told_before)
    assert {laps[s - 1] for s in backlog} == {start_lap, laps[now - 2]}, "the backlog holds turns of two laps"

    async with running_bot(fake, bot_settings) as bot:
        assert bot.runtime is not None
        table.ctx = bot.runtime.ctx
        await table.delivered()
        stored = await boards.posts_of(bot.runtime.ctx, race_id)
        said = await turn_texts(bot.runtime.ctx, race_id, list(range(1, now)))
    seen = {m.id: m for m in race_reads(alice)}
    by_message: dict[int, list[int]] = {}
    for post in stored:
        if post.kind == "step" and post.step:
            by_message.setdefault(post.message_id, []).append(post.step)
    assert set().union(*map(set, by_message.values())) == set(range(1, now)), "every turn told once"
    lap_posts = {p.message_id: p.lap for p in stored if p.kind is PostKind.LAP}
    for message_id, steps in by_message.items():
        # A turn's lap is the marker's before it (after the step before).
        assert {laps[s - 1] for s in steps} == {lap_posts[message_id]}, f"one lap per message: {steps}"
        text = seen[message_id].text
        assert all(told_in(text, said[s]) for s in steps), "every turn of the lap is in its message"
        others = [line for s in set(range(1, now)) - set(steps) for line in said[s]]
        assert not any(line in text for line in others if not any(line in said[s] for s in steps)), "no other lap"
    last_of_old = max(s for s in range(1, now) if laps[s - 1] == start_lap)
    closed_at: Any = [p.step for p in stored if p.kind is PostKind.LAP_DONE and p.lap == laps[now - 2]]
    assert closed_at == [last_of_old], "the old lap is closed at its own last turn"

"""What the bot owes Discord survives a stop: the outbox delivers it after a restart, once, in order."""

from __future__ import annotations

import discord
from discord.http import handle_message_parameters
from sqlalchemy import delete, update

from bot.services import boards, records, resolution
from bot.services.context import Context
from bot.settings import Settings
from bot.store import outbox
from bot.store.database import connect
from bot.store.ledger import PostKind
from bot.store.outbox import OwedKind
from bot.store.tables import OutboxRow, PostedMessage
from engine.race import replay
from engine.record import parse_record
from tests.bot.exts.race.table import SEND, Table, finals, pick, picks_on, race_reads, sendable
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser


async def _start(fake: FakeDiscord, alice: DiscordUser, bot: object, ruleset: str, stage: str) -> Table:
    lobby = await (await alice.slash("race new", ruleset=ruleset, stage=stage, bots=1)).reply()
    await (await alice.click(lobby, "Start")).acknowledged()
    runtime = getattr(bot, "runtime")  # noqa: B009
    race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
    table = Table(fake, runtime.ctx, race_id, {f"u{alice.id}": alice})
    await table.started()
    await table.all_told()
    return table


async def test_a_race_finished_while_nothing_was_posted_gets_its_final_post_after_a_restart(
    fake_discord: FakeDiscord, bot_settings: Settings, alice: DiscordUser
) -> None:
    """The bot stops; the rest of the race resolves (deadlines) and commits with nothing delivered, as
    after a crash right after the last step. The next start posts every step in order, the final post
    with its record and league points, and the lobby says the race is over."""
    fake = fake_discord
    async with running_bot(fake, bot_settings) as bot:
        table = await _start(fake, alice, bot, "flamme_rouge", "Sprint de Montagne")
        race_id = table.race_id
    lobby_id = alice.read()[0].id
    ctx = Context(db=connect(bot_settings.database_url))
    try:
        for _ in range(300):
            status, step, _humans = await _state(ctx, race_id)
            if status != "running":
                break
            await resolution.resolve(ctx, race_id, step, force=True)
        assert status == "finished"
        async with ctx.db.sessions() as session:
            owed = await outbox.rows_of(session, race_id, pending=True)
        assert [r.owed.kind for r in owed if r.owed.kind is OwedKind.FINAL_POST], "the final post is owed"
        assert not finals(alice), "nothing was posted while the bot was down"
        untold = set(range(1, step))
    finally:
        await ctx.db.close()

    async with running_bot(fake, bot_settings) as bot:
        assert bot.runtime is not None
        # every step is told first, each with its picture: a backlog of a whole race
        await fake.wait_until(lambda: finals(alice), 60, lambda: "no final post after the restart")
        table.ctx = bot.runtime.ctx
        await table.delivered()  # the lobby's edit and the thread's archive come after the final post
        stored = await boards.posts_of(table.ctx, race_id)
        async with table.ctx.db.sessions() as session:
            left = await outbox.rows_of(session, race_id, pending=True)
        assert left == [], "everything owed was delivered"
        assert await records.replays_to_stored_result(table.ctx, race_id)
    (final,) = finals(alice)
    attachment = next(a for a in final.attachments if a.filename == f"race-{race_id}.json")
    record = parse_record((await alice.download(attachment.url)).decode())
    names = {e.id: e.name for e in record.entrants}
    for standing in replay(record).result().standings:
        assert f"{standing.place}. {names[standing.entrant]}" in final.text
    assert "League points:" in final.text, "the league credited the race before its post"
    seen = [m for m in race_reads(alice) if not m.ephemeral]  # the channel and the race's thread
    # A round may take several steps (Flamme Rouge's placing), so posts are matched to steps by the ledger.
    step_of = {p.message_id: p.step for p in stored if p.kind is PostKind.STEP}
    told = [step_of[m.id] for m in seen if step_of.get(m.id) in untold]
    assert sorted(told) == sorted(untold) and told == sorted(told), "every step told once, in order"
    heads = [m.text.splitlines()[0] for m in seen if m.id in step_of]
    assert all("Round " in h and "step" not in h for h in heads[1:]), "headlines read the round, never the step"
    assert seen.index(final) > max(i for i, m in enumerate(seen) if m.id in step_of and m.id != lobby_id)
    lobby = next(m for m in seen if m.id == lobby_id)
    assert "This race is over" in lobby.text, "the lobby was edited after the finish"
    assert len([p for p in stored if p.kind is PostKind.FINAL]) == 1


async def _state(ctx: Context, race_id: int) -> tuple[str, int, list[str]]:
    from bot.services import lobby

    view = await lobby.view(ctx, race_id)
    return view.status, view.step, list(view.awaiting)


async def test_a_dm_panel_whose_answer_was_lost_is_not_sent_twice_after_a_restart(
    fake_discord: FakeDiscord, bot_settings: Settings, alice: DiscordUser
) -> None:
    """The panel went out but its id never came back (the row still owed, no ledger entry): the next start
    sends it again with the same nonce and Discord answers with the DM already there. An older second copy
    of the panel, recorded too, is closed with it when the step resolves."""
    fake = fake_discord
    async with running_bot(fake, bot_settings) as bot:
        table = await _start(fake, alice, bot, "wyscig", '{"stages": 1}')
        _status, step, _ = await table.state()
        panel = await table.panel(f"u{alice.id}", step)
        await fake.settle(0.2, 5)
        dms_before = [m.id for m in alice.dms()]
        # An older version's duplicate: a second DM of the same panel, recorded as a panel of this step.
        with handle_message_parameters(flags=discord.MessageFlags(components_v2=True)) as params:
            assert params.payload is not None
            params.payload["components"] = panel.components
            copy_id = int((await bot.http.send_message(panel.channel.id, params=params))["id"])
        assert bot.runtime is not None
        async with bot.runtime.ctx.db.sessions() as session, session.begin():
            session.add(
                PostedMessage(
                    race_id=table.race_id,
                    step=step,
                    kind=PostKind.PANEL.value,
                    member=alice.id,
                    channel_id=panel.channel.id,
                    message_id=copy_id,
                    posted_at=bot.runtime.ctx.clock.now(),
                )
            )
    db = connect(bot_settings.database_url)
    async with db.sessions() as session, session.begin():
        await session.execute(
            delete(PostedMessage).where(
                PostedMessage.message_id == panel.id  # type: ignore[arg-type]
            )
        )
        await session.execute(
            update(OutboxRow)
            .where(
                OutboxRow.kind == OwedKind.OPEN_PANEL.value,  # type: ignore[arg-type]
                OutboxRow.step == step,  # type: ignore[arg-type]
            )
            .values(done_at=None, delivered=False, message_id=None, claimed_until=None)
        )
    await db.close()
    async with running_bot(fake, bot_settings) as bot:
        assert bot.runtime is not None
        table.ctx = bot.runtime.ctx
        await fake.settle(0.5, 5)
        stored = [p for p in await boards.posts_of(table.ctx, table.race_id, step) if p.kind is PostKind.PANEL]
        assert sorted(p.message_id for p in stored) == sorted([panel.id, copy_id]), "the same DM, its id stored again"
        assert [m.id for m in alice.dms()] == [*dms_before, copy_id], "no new DM"
        for _ in range(20):  # Alice orders on the panel the first bot sent, and sends it from its review
            if (await table.state())[1] != step:
                break
            if sendable(panel):
                await (await alice.click(panel, SEND)).acknowledged()
                continue
            if not picks_on(panel):
                break
            await pick(alice, panel)
        await table.wait_step_after(step)
        await fake.settle(0.3, 5)
    for message in alice.dms():
        if message.id in (panel.id, copy_id):
            assert "Your order was played as you sent it." in message.text, message.text
            assert not message.items(), "both copies closed to a receipt without components"

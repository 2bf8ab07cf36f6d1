"""A race in its own thread, end to end against the fake: the lobby stays in the channel, the race's posts
go to a thread opened from it; the fallback without thread permission; the server's choice of the
channel; a cancellation told to the players; Rematch pressed twice at once opens one lobby."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from bot.app import Gregario
from bot.services import lobby as lobbies
from bot.services import orders
from bot.store.ledger import PostKind
from bot.store.tables import RaceRow
from engine.registry import get_ruleset
from tests.bot.exts.race.table import Table, finals, picks_on, sendable
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import CREATE_PUBLIC_THREADS, Channel, Message

STAGE = "Sprint de Montagne"
NO_THREAD = "I may not open threads in this channel"


def _race_id(lobby: Message) -> int:
    return int(lobby.items()[0]["custom_id"].split(":")[2])


def _public(user: DiscordUser, channel: Channel | None = None) -> list[Message]:
    return [m for m in user.read(channel) if m.ephemeral_for is None]


async def _open(user: DiscordUser, gregario: Gregario, fake: FakeDiscord, **options: Any) -> tuple[Message, Table]:
    """A Flamme Rouge lobby with a bot, started; the race's start post told."""
    lobby = await (await user.slash("race new", ruleset="flamme_rouge", stage=STAGE, bots=1, **options)).reply()
    await (await user.click(lobby, "Start")).acknowledged()
    assert gregario.runtime is not None
    table = Table(fake, gregario.runtime.ctx, _race_id(lobby), {f"u{user.id}": user})
    await table.started()
    await table.all_told()
    return lobby, table


async def _started_post(table: Table) -> Message:
    post = await table.post_of(0)
    assert post is not None, "the start post is stored"
    return post


def _live_panels(user: DiscordUser) -> list[Message]:
    return [m for m in user.dms() if picks_on(m) or sendable(m)]


async def test_two_races_in_one_channel_each_live_in_their_own_thread(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser, carla: DiscordUser
) -> None:
    """Alice's and Bob's races run at once in #races: each start post is in the race's own thread, named
    after the race and opened from its lobby; the channel holds the two lobbies only, each linking to its
    thread; Carla, who rides in neither, follows Alice's thread; only people are listed as awaited."""
    fake = fake_discord
    first, first_table = await _open(alice, gregario, fake)
    second, second_table = await _open(bob, gregario, fake)
    one, two = fake.channels[first.id], fake.channels[second.id]
    assert one.is_thread and two.is_thread and one.parent is two.parent is fake.guilds[0].channel("races")
    assert one.name == f"Flamme Rouge #{first_table.race_id} · {STAGE}"
    assert two.name == f"Flamme Rouge #{second_table.race_id} · {STAGE}"
    assert (await _started_post(first_table)) in one.messages, "Alice's start post is in her race's thread"
    assert (await _started_post(second_table)) in two.messages, "Bob's start post is in his race's thread"
    assert [m.id for m in _public(alice)] == [first.id, second.id], "the channel keeps the two lobbies only"
    for lobby, thread in ((first, one), (second, two)):
        header = next(m for m in _public(alice) if m.id == lobby.id)
        assert f"<#{thread.id}>" in header.text, "the lobby links to its race's thread"
    bots = [seat.name for seat in (await lobbies.view(first_table.ctx, first_table.race_id)).seats if seat.bot]
    waiting = [line for m in one.messages for line in m.text.splitlines() if line.startswith("Waiting for:")]
    assert waiting and all("Alice" in line for line in waiting), f"Alice is awaited: {waiting}"
    assert not [line for line in waiting if any(name in line for name in bots)], "a bot is never listed as awaited"
    assert [m.id for m in _public(carla, one)] == [m.id for m in one.messages], "a spectator reads the thread"
    await carla.say("allez Alice!", channel=one)
    assert carla.user.id in one.thread_members, "and may take part in it without riding"


async def test_a_race_cancelled_mid_race_tells_its_players_and_closes_their_panels(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser
) -> None:
    """Alice cancels her race while her panel is live: her panel loses its buttons, a DM tells her the race
    is cancelled, the thread says so and is archived; Bob's race in the same channel goes on."""
    fake = fake_discord
    first, first_table = await _open(alice, gregario, fake)
    second, _second_table = await _open(bob, gregario, fake)
    await fake.wait_until(lambda: _live_panels(alice), 10, lambda: "Alice never got her panel")
    await (await alice.slash("race cancel", race=first_table.race_id)).reply()
    told = lambda: [m for m in alice.dms() if "was cancelled" in m.text and not m.items()]  # noqa: E731
    await fake.wait_until(lambda: len(told()) >= 2, 10, lambda: f"Alice was not told: {[m.text for m in alice.dms()]}")
    assert _live_panels(alice) == [], "no panel of the cancelled race keeps live components"
    thread = fake.channels[first.id]
    await fake.wait_until(lambda: thread.archived, 10, lambda: "the cancelled race's thread is archived")
    assert "was cancelled" in thread.messages[-1].text, "the thread says the race was cancelled"
    assert not fake.channels[second.id].archived, "Bob's race goes on in its thread"
    header = next(m for m in _public(alice) if m.id == first.id)
    assert "cancelled" in header.text


async def test_without_thread_permission_the_race_is_posted_in_the_channel(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, races: Channel
) -> None:
    """The bot may not open threads in #races: the race is posted there and the lobby says so, once."""
    races.bot_denied = CREATE_PUBLIC_THREADS
    lobby, table = await _open(alice, gregario, fake_discord)
    assert fake_discord.guilds[0].threads == [], "no thread was made"
    assert (await _started_post(table)) in races.messages, "the start post is in the channel"
    header = next(m for m in _public(alice) if m.id == lobby.id)
    assert header.text.count(NO_THREAD) == 1
    assert [m.id for m in _public(alice) if NO_THREAD in m.text] == [lobby.id], "said once, in the lobby"
    stored = await _posts_of(table, PostKind.THREAD_REFUSED)
    assert stored, "the refusal is remembered: the race's later posts go to the channel too"


async def test_an_admin_keeps_the_races_in_the_channel(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, races: Channel
) -> None:
    """``/settings race_posts channel``: no thread, the race is posted in the channel, nothing to excuse."""
    await (await alice.slash("settings", setting="race_posts", value="channel")).reply()
    lobby, table = await _open(alice, gregario, fake_discord)
    assert fake_discord.guilds[0].threads == []
    assert (await _started_post(table)) in races.messages
    assert NO_THREAD not in next(m for m in _public(alice) if m.id == lobby.id).text


async def _posts_of(table: Table, kind: PostKind) -> list[Any]:
    from bot.services import boards

    return [p for p in await boards.posts_of(table.ctx, table.race_id) if p.kind == kind]


async def test_two_rematch_presses_at_once_open_one_lobby(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser, races: Channel
) -> None:
    """A Tabella race in plan mode (one step) finishes; Alice and Bob press Rematch at the same moment:
    one lobby, with both seated, in the channel; the other press is told where it is. A press on the final
    post's copy in the thread opens nothing more."""
    fake = fake_discord
    lobby = await (await alice.slash("race new", ruleset="tabella")).reply()
    await (await bob.click(lobby, "Join")).acknowledged()
    await (await alice.click(lobby, "Start")).acknowledged()
    assert gregario.runtime is not None
    ctx = gregario.runtime.ctx
    race_id = _race_id(lobby)
    table = Table(fake, ctx, race_id, {f"u{alice.id}": alice, f"u{bob.id}": bob})
    await table.started()
    rules = get_ruleset("tabella")
    _status, step, humans = await table.state()
    async with ctx.db.sessions() as session:
        row = await session.get(RaceRow, race_id)
        assert row is not None and row.state is not None
        state = rules.load(row.state)
    for entrant in humans:  # what each would write in the plan form: the rules' own plan for the seat
        plan = {k: v for k, v in rules.auto_order(state, entrant, None, rules.default_strategy).items()}
        plan = {k: v for k, v in plan.items() if k not in ("by", "auto", "received_at")}
        await orders.submit_order(ctx, race_id, int(entrant[1:]), plan, step=step)
    await fake.wait_until(lambda: finals(alice), 20, lambda: "no final post")
    final = finals(alice)[0]
    before = len(_public(alice))
    pressed = await asyncio.gather(alice.click(final, "Rematch"), bob.click(final, "Rematch"))
    replies = [await handle.reply() for handle in pressed]
    async with ctx.db.sessions() as session:
        rematches = list((await session.execute(select(RaceRow).where(col(RaceRow.rematch_of) == race_id))).scalars())
    assert len(rematches) == 1, "one lobby for the race"
    fresh = await lobbies.view(ctx, rematches[0].id)
    assert {s.user_id for s in fresh.seats} == {alice.id, bob.id}, "both are seated in it"
    public = [r for r in replies if r.ephemeral_for is None]
    private = [r for r in replies if r.ephemeral_for is not None]
    assert len(public) == 1 and f"race #{fresh.race_id}" in public[0].text, "one press posts the lobby"
    assert len(private) == 1 and f"race #{fresh.race_id}" in private[0].text, "the other is told where it is"
    thread = fake.channels[lobby.id]
    copy = [m for m in thread.messages if "Rematch" in m.buttons]
    assert copy, "the final post is also in the race's thread"
    again = await (await alice.click(copy[-1], "Rematch")).reply()
    assert again.ephemeral_for is not None and f"race #{fresh.race_id}" in again.text
    await fake.settle()
    assert len(_public(alice)) == before + 1, "one new lobby in the channel, whatever was pressed"

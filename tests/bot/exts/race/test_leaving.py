"""/race leave during a race: a bot rides the seat, the next post says so, the record marks the seat's orders
automatic from that step, and the race finishes without waiting for the one who left (R-SVC-5)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.app import Gregario
from bot.progress import counter
from bot.services import owed
from tests.bot.exts.race.table import Table, finals, race_reads
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser


async def _race_with(
    gregario: Gregario, fake: FakeDiscord, alice: DiscordUser, bob: DiscordUser, **options: Any
) -> Table:
    lobby = await (await alice.slash("race new", **options)).reply()
    await (await bob.click(lobby, "Join")).acknowledged()
    await (await alice.click(lobby, "Start")).acknowledged()
    assert gregario.runtime is not None
    race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
    table = Table(fake, gregario.runtime.ctx, race_id, {f"u{alice.id}": alice, f"u{bob.id}": bob})
    await table.started()
    return table


async def _leave_then_ride_out(table: Table, alice: DiscordUser, bob: DiscordUser) -> tuple[int, int]:
    """Alice rides until Bob is awaited, Bob leaves, Alice rides to the line; the step he left in and how
    many DMs he had then."""
    me, him = f"u{alice.id}", f"u{bob.id}"
    for _ in range(200):
        status, step, humans = await table.state()
        assert status == "running"
        if him in humans:
            break
        await table.order(me, step)
        await table.wait_step_after(step)
    else:
        raise AssertionError("Bob was never awaited")
    await table.panel(him, step)  # his panel came; he leaves instead of answering
    answer = await (await bob.slash("race leave")).reply()
    when = counter(await owed.progress_before(table.ctx, table.race_id, step), "en")  # the round, not the step
    assert when.startswith(("Round ", "Stage ")), when
    assert answer.ephemeral_for == bob.id and f"A bot rides your seat from {when};" in answer.text
    dms_then = len(bob.dms())
    for _ in range(400):
        status, now, humans = await table.state()
        if status != "running":
            break
        assert him not in humans, "nobody waits for a member who left"
        if me in humans:
            await table.order(me, now)
        await table.wait_step_after(now)
    assert (await table.state())[0] == "finished"
    return step, dms_then


async def _record(fake: FakeDiscord, alice: DiscordUser) -> dict[str, Any]:
    final = await fake.wait_until(lambda: (finals(alice) or [None])[-1], 10, lambda: "no final post")
    attachment = next(a for a in final.attachments if a.filename.startswith("race-"))
    loaded: dict[str, Any] = json.loads(await alice.download(attachment.url))
    return loaded


@pytest.mark.rules("R-SVC-5")
@pytest.mark.parametrize(
    "options",
    [
        {"ruleset": "flamme_rouge", "options": "grid=random finish=first"},
        {"ruleset": "wyscig", "stage": '{"stages": 1}'},
    ],
    ids=["simultaneous", "sequential"],
)
async def test_a_player_who_leaves_mid_race_is_ridden_for_by_a_bot_to_the_line(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser, options: dict[str, Any]
) -> None:
    """Bob leaves while the race waits for him: the step resolves without him, the post of that step says he
    left, he gets no more panels, his orders from then on are automatic in the record, and the race ends."""
    table = await _race_with(gregario, fake_discord, alice, bob, **options)
    step, dms_then = await _leave_then_ride_out(table, alice, bob)
    record = await _record(fake_discord, alice)
    told = [m.text for m in race_reads(alice) if m.ephemeral_for is None]  # the race's thread and its channel
    when = counter(await owed.progress_before(table.ctx, table.race_id, step), "en")  # the round, not the step
    assert any(f"Bob left the race; a bot rides in their place from {when}." in text for text in told)
    assert sum("left the race" in text for text in told) == 1, "told once, in the next post"
    assert len(bob.dms()) == dms_then, "no panel or reminder for Bob after he left"
    header = next(m for m in alice.read() if m.ephemeral_for is None and "race #" in m.text and "Bob" in m.text)
    await fake_discord.wait_until(lambda: "race is over" in header.text, 10, lambda: header.text)
    assert f"Bob · left ({when}), a bot rides" in header.text, "the race's header in the channel says it"
    him = f"u{bob.id}"
    mine = [(n, s[him]) for n, s in enumerate(record["steps"], start=1) if him in s]
    assert mine and all(order.get("auto") is True for n, order in mine if n >= step)
    assert any(n >= step for n, _ in mine), "the record holds his seat's automatic orders after he left"
    assert all(not order.get("auto") for n, order in mine if n < step), "before he left he rode himself"


@pytest.mark.rules("R-SVC-5")
async def test_a_player_who_left_cannot_take_the_seat_back(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser
) -> None:
    """After leaving, Bob's race is no longer his: /race orders and /race leave for it are refused in one line."""
    table = await _race_with(gregario, fake_discord, alice, bob, ruleset="mind_cycling", stage="short")
    await (await bob.slash("race leave")).reply()
    orders = await (await bob.slash("race orders", race=table.race_id)).reply()
    assert orders.ephemeral_for == bob.id and f"You left race #{table.race_id}" in orders.text
    again = await (await bob.slash("race leave", race=table.race_id)).reply()
    assert f"You left race #{table.race_id}" in again.text
    mine = await (await bob.slash("race status")).reply()
    assert "not in any race" in mine.text, "a race one left is no longer listed as one's own"

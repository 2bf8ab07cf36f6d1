"""Every click and form gets an answer: the ones nothing handles hear that their panel is out of date.

Against the fake Discord with the real bot: a click that raced its panel's closing (a custom id the message
no longer has, which discord.py drops), a button the bot does not know, a form whose modal is gone, and
buttons of a race cancelled or deleted are each answered once, ephemerally, within Discord's 3 seconds; a
normal click is answered exactly once (never a second answer, 40060 "already acknowledged").
"""

from __future__ import annotations

import asyncio

from sqlalchemy import delete
from sqlmodel import col

from bot.app import Gregario
from bot.i18n import t
from bot.store.tables import RaceRow
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser, InteractionHandle
from tests.fakediscord.world import Message

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
STALE_PANEL = t("interaction.stale_panel", "en-US")
STALE_FORM = t("interaction.stale_form", "en-US")


def _picks(message: Message) -> list[str]:
    """The labels of a panel's choice buttons (``gr:b:``), live ones only."""
    return [c["label"] for c in message.items() if c.get("custom_id", "").startswith("gr:b:") and not c.get("disabled")]


async def _panel_of_a_started_race(fake: FakeDiscord, alice: DiscordUser) -> Message:
    """Alice opens a Flamme Rouge race with a bot and starts it; her first DM panel."""
    lobby = await (await alice.slash("race new", ruleset="flamme_rouge", bots=1, stage="Sprint de Montagne")).reply()
    await (await alice.click(lobby, "Start")).acknowledged()
    [panel] = await alice.wait_for(lambda m: bool(_picks(m)), dm=True, what="a panel")
    return panel


async def _answered_once(fake: FakeDiscord, handle: InteractionHandle) -> Message:
    """The interaction's one answer; a moment later still only one callback, and no refused one."""
    kind = await handle.acknowledged()
    await asyncio.sleep(0.3)
    await fake.settle()
    record = handle.record
    calls = [r for r in fake.requests if r.route == CALLBACK and f"/interactions/{record.id}/" in r.path]
    assert [c.status for c in calls] == [200], f"one accepted answer, not {[c.status for c in calls]}"
    assert record.followups == []
    assert kind in (4, 7), f"a message or an update, not response type {kind}"
    return await handle.reply()


async def _ephemeral_answer(fake: FakeDiscord, handle: InteractionHandle, alice: DiscordUser) -> Message:
    reply = await _answered_once(fake, handle)
    assert handle.record.response_type == 4 and reply.ephemeral_for == alice.id, "only the clicker reads it"
    return reply


async def test_a_click_that_raced_its_panels_closing_hears_the_panel_is_out_of_date(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice places her riders; her screen still shows a square button the panel no longer has, and her
    click on it is told the panel is out of date instead of "This interaction failed"."""
    panel = await _panel_of_a_started_race(fake_discord, alice)
    for _ in range(10):
        if "Send my order" in panel.buttons:
            await (await alice.click(panel, "Send my order")).acknowledged()
            continue
        if not _picks(panel):
            break
        await (await alice.click(panel, _picks(panel)[0])).acknowledged()
    assert not _picks(panel), f"the panel closed once both riders were placed: {panel!r}"
    shown_before = panel.earlier_items()
    now = {c.get("custom_id") for c in panel.items()}
    stale = next(
        c for c in reversed(shown_before) if c.get("custom_id", "").startswith("gr:b:") and c["custom_id"] not in now
    )
    reply = await _ephemeral_answer(fake_discord, await alice.click_earlier(panel, stale["label"]), alice)
    assert reply.text == STALE_PANEL


async def test_a_button_the_bot_does_not_know_is_answered(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, races: object
) -> None:
    """A button left by an older version of the bot (a custom id no view or template knows) is answered."""
    old = fake_discord.post_as_bot(
        alice.channel,  # type: ignore[arg-type]
        {
            "content": "An old panel",
            "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Old", "custom_id": "v0:7:x"}]}],
        },
    )
    reply = await _ephemeral_answer(fake_discord, await alice.click(old, "Old"), alice)
    assert reply.text == STALE_PANEL


async def test_a_form_whose_modal_is_gone_is_answered(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """A typed order submitted after its form was forgotten (a restart while it was open) is answered."""
    form = {
        "custom_id": "0f0e0d0c0b0a09080706050403020100",
        "title": "Your order",
        "components": [{"type": 1, "components": [{"type": 4, "custom_id": "order", "label": "Order", "style": 2}]}],
    }
    reply = await _ephemeral_answer(fake_discord, await alice.submit(form, {"Order": "R3 S4"}), alice)
    assert reply.text == STALE_FORM


async def test_a_button_of_a_cancelled_race_says_so_and_what_to_do(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice cancels her running race and presses a button of its panel: she reads that the race was
    cancelled and that she can open a new one, once and privately."""
    panel = await _panel_of_a_started_race(fake_discord, alice)
    await (await alice.slash("race cancel", race=1)).reply()
    reply = await _ephemeral_answer(fake_discord, await alice.click(panel, _picks(panel)[0]), alice)
    assert reply.text == t("race.already_cancelled", "en-US")


async def test_a_button_of_a_deleted_race_hears_the_panel_is_out_of_date(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """The race behind Alice's panel is gone from the database: her click hears the panel is out of date,
    not a race number to check."""
    panel = await _panel_of_a_started_race(fake_discord, alice)
    assert gregario.runtime is not None
    async with gregario.runtime.ctx.db.sessions() as session, session.begin():
        await session.execute(delete(RaceRow).where(col(RaceRow.id) == 1))
    reply = await _ephemeral_answer(fake_discord, await alice.click(panel, _picks(panel)[0]), alice)
    assert reply.text == STALE_PANEL


async def test_a_normal_click_is_answered_exactly_once(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """Alice picks her first rider: the panel itself answers (an update), and the fallback stays silent."""
    panel = await _panel_of_a_started_race(fake_discord, alice)
    first = _picks(panel)[0]
    handle = await alice.click(panel, first)
    await _answered_once(fake_discord, handle)
    assert handle.record.response_type == 7, "the panel was updated in place"
    assert STALE_PANEL not in [m.text for m in alice.read()]
    assert not [r for r in fake_discord.requests if r.status == 400], "no request refused (40060 or other)"

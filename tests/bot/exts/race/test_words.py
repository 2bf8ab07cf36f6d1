"""Players read names, never codes (issue 23): a race of each rule system on the fake Discord, with several
players, a bot, an absent player and a changed order, and every text any of them could read scanned for
internal codes (:mod:`tests.scan`)."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.services import owed, records
from bot.services.clock import ManualClock
from bot.settings import Settings
from engine.race import replay
from tests.bot.exts.race.table import SEND, Table, finals, pick, picks_on, sendable
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel
from tests.scan import counters, counts, discord_texts, scan

SHORT = {
    "flamme_rouge": "Sprint de Montagne",
    "tabella": None,
    "wyscig": '{"deck": "itemised_108", "stages": 1}',
    "mind_cycling": "short",
}
RACES = [*SHORT, "tabella-live"]
"""A race of each system, and Tabella's live mode too (a round per step: its counter names each move)."""
OPTIONS = {"tabella-live": "mode=live"}
IDENTITY = {
    "flamme_rouge": "You ride **",
    "tabella": "Your token on the picture is **",
    "mind_cycling": "on the picture: your cyclists are",
}
"""How each system's panel says who the player is on the picture (Wyścig's picture names players by name)."""


async def _race_ids(table: Table) -> list[str]:
    """The race's entrant and rider ids (the codes no player should read)."""
    record = await records.race_record(table.ctx, table.race_id)
    race = replay(record)
    ids = {e.id for e in record.entrants}
    for standing in race.result().standings:
        ids.update(standing.riders)
    return sorted(ids)


async def _order(table: Table, entrant: str, step: int, *, change: bool) -> bool:
    """The entrant orders; with ``change`` (while others are still to order, so the step stays open) they
    press Change and pick again. Whether they changed."""
    panel = await table.order(entrant, step)
    if not change or "Change" not in panel.buttons:
        return False
    await (await table.players[entrant].click(panel, "Change")).acknowledged()
    for _attempt in range(20):
        if sendable(panel):
            await (await table.players[entrant].click(panel, SEND)).acknowledged()
            break
        if not picks_on(panel):
            break
        await pick(table.players[entrant], panel, last=True)
    return True


@pytest.mark.parametrize("race", RACES)
async def test_every_word_of_a_race_is_a_name(
    fake_discord: FakeDiscord,
    bot_settings: Settings,
    races: Channel,
    alice: DiscordUser,
    bob: DiscordUser,
    carla: DiscordUser,
    race: str,
) -> None:
    """Alice, Bob, Carla (absent at first) and a bot race; Alice changes an order; nothing anyone reads
    holds a path, an id, an underscore name, a repr or None."""
    fake = fake_discord
    clock = ManualClock(datetime.now(UTC) - timedelta(days=3, minutes=1))
    async with running_bot(fake, bot_settings, clock=clock) as bot:
        assert bot.runtime is not None
        ruleset = race.split("-")[0]
        stage = {"stage": SHORT[ruleset]} if SHORT[ruleset] else {}
        if race in OPTIONS:
            stage["options"] = OPTIONS[race]
        lobby_message = await (await alice.slash("race new", ruleset=ruleset, pace="fast", **stage)).reply()
        for who in (bob, carla):
            await (await who.click(lobby_message, "Join")).acknowledged()
        await (await alice.click(lobby_message, "Add bot")).acknowledged()
        race_id = int(lobby_message.items()[0]["custom_id"].split(":")[2])
        table = Table(fake, bot.runtime.ctx, race_id, {f"u{u.id}": u for u in (alice, bob, carla)})
        await (await alice.slash("race status")).reply()
        await (await alice.click(lobby_message, "Start")).acknowledged()
        await table.started()
        status, step, humans = await table.state()
        absent = f"u{carla.id}" if f"u{carla.id}" in humans else humans[-1]
        changed = False
        for entrant in humans:
            if entrant != absent:
                changed = await _order(table, entrant, step, change=not changed and len(humans) > 2) or changed
        await table.panel(absent, step)
        clock.advance(days=3)
        await table.wait_step_after(step)
        for _ in range(400):
            status, step, humans = await table.state()
            if status != "running":
                break
            if not humans:
                await table.wait_step_after(step)
                continue
            for entrant in humans:
                first = entrant == humans[0] and len(humans) >= 2
                changed = await _order(table, entrant, step, change=not changed and first) or changed
            await table.wait_step_after(step)
        else:
            raise AssertionError("the race did not finish")
        await fake.wait_until(lambda: finals(alice), 8, lambda: "no final post")
        await (await alice.slash("race status")).reply()
        await (await alice.slash("league standings", ruleset=ruleset)).reply()
        await (await alice.slash("league rider", member=alice)).reply()
        await fake.settle(0.2, 5)
        ids = await _race_ids(table)
    texts = discord_texts(fake)
    if os.environ.get("GREGARIO_SCAN_DUMP"):  # read what the players read: a file per system
        Path(os.environ["GREGARIO_SCAN_DUMP"], f"{race}.txt").write_text(
            "\n\n".join(f"--- {where}\n{text}" for where, text in texts), encoding="utf-8"
        )
    findings = scan(texts, ids) + counters(texts)
    print(f"\n{race}: {len(findings)} findings {counts(findings)}")
    for finding in findings:
        print(f"  {finding}")
    assert changed or ruleset == "wyscig"
    said = "\n".join(text for _where, text in texts)
    if race == "tabella-live":  # the counter names each move in words, on the posts and the panels
        assert "· Move 3**" in said and "· Sprint 1" in said, "Tabella's live rounds named by the counter"
    if ruleset in IDENTITY:  # each panel says first who the player is on the picture
        panels = [text for where, text in texts if where.startswith("DM ")]
        assert any(IDENTITY[ruleset] in text for text in panels), f"no identity line on {ruleset}'s panels"
    if ruleset == "wyscig":  # its times in hours and minutes, never a count of minutes
        assert re.search(r"Total time \d+:\d\d", said) and "(min)" not in said
    assert not findings, f"{len(findings)} codes players read: {counts(findings)}"


async def test_a_summarised_round_post_offers_the_full_log(
    fake_discord: FakeDiscord, bot_settings: Settings, alice: DiscordUser
) -> None:
    """Alice and eleven bots race a Tabella plan: the post summarises the step and its Full log button
    answers Alice privately with every event, over as many messages as it takes, in names."""
    fake = fake_discord
    async with running_bot(fake, bot_settings) as bot:
        assert bot.runtime is not None
        lobby_message = await (await alice.slash("race new", ruleset="tabella", bots=11)).reply()
        race_id = int(lobby_message.items()[0]["custom_id"].split(":")[2])
        table = Table(fake, bot.runtime.ctx, race_id, {f"u{alice.id}": alice})
        await (await alice.click(lobby_message, "Start")).acknowledged()
        await table.started()
        _status, step, _humans = await table.state()
        await table.order(f"u{alice.id}", step)
        await table.wait_step_after(step)
        await table.all_told()
        post = await table.post_of(step)
        assert post is not None and "Full log" in post.buttons, post
        assert "more events." in post.text, "the post summarises rather than cuts"
        handle = await alice.click(post, "Full log")
        first = await handle.reply()
        told = (await owed.turns(table.ctx, race_id, [step]))[0].events
        events = [e for e in told if e.get("message")]
        pages = [first]
        while sum(m.text.count("• ") for m in pages) < len(events):
            pages = [first, *await handle.followups(len(pages))]
        assert all(m.ephemeral_for == alice.user.id and len(m.text) <= 2000 for m in pages)
        assert sum(m.text.count("• ") for m in pages) == len(events), "every event, once"
        ids = await _race_ids(table)
    assert not scan([("full log", m.text) for m in pages], ids)

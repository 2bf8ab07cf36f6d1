"""A whole race of each rule system on the fake Discord, with everything a real table brings: a player
with closed DMs, an absent player, a stranger, a stale button, a changed order and a restart.

The race begins in a bot inside the test (its clock moved by the test, for the absent player's
deadline); in the middle of a round that bot stops and a real `gregario run` process starts on the same
database file, and the race finishes there. A Tabella race's Gazzetta, due the next morning, is
published by a bot started afterwards with its clock moved to that morning."""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.services import boards, records
from bot.services.clock import ManualClock
from bot.services.context import Context
from bot.services.queries import iso, step_orders
from bot.settings import Settings
from bot.store.database import connect
from bot.store.ledger import PostKind
from engine.race import replay
from engine.record import parse_record
from engine.ruleset import PROGRESS_KEY
from tests.bot.exts.race.process import gregario_run, logged_errors
from tests.bot.exts.race.table import SEND, Table, finals, pick, picks_on, race_reads, sendable, step_of
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild

OPTIONS = {"tabella": "mode=live"}
"""Tabella in live mode (one move a step) so the race has steps to restart in; plan mode is one step."""
SHORT = {
    "flamme_rouge": "Sprint de Montagne",
    "tabella": None,
    "wyscig": '{"deck": "itemised_108", "stages": 1}',
    "mind_cycling": "short",
}
VIEW_ONLY = str(1 << 10 | 1 << 11)
"""A member who may see and post in the channel, without Manage Server."""
FIGURES: dict[str, dict[str, Any]] = {}


def _figures(
    fake: FakeDiscord, since: int, channel: Channel, people: list[DiscordUser], laps: frozenset[int] = frozenset()
) -> dict[str, int]:
    """The bot's requests since ``since``, in the issue's categories (interaction responses are free): posts
    in the race's channel and in its thread apart, edits of the lap messages ``laps`` (ids, in the thread)
    apart from the other edits (the lobby's, in the channel), the thread's opening and archiving; a create
    sent again with a nonce already answered is a retry, not a post."""
    dms = {fake.dm_channel(p.user).id for p in people}
    threads = {str(c.id) for c in fake.channels.values() if c.parent is channel}
    found = dict.fromkeys(
        (
            "channel posts",
            "thread posts",
            "panel DMs",
            "panel closes",
            "reminders",
            "trail deletes",
            "closing lines",
            "channel edits",
            "lap edits",
            "thread opens",
            "thread archives",
            "failed DMs",
            "nonce retries",
            "history reads",
            "other",
        ),
        0,
    )
    nonces: set[tuple[str, str]] = set()
    for r in fake.requests[since:]:
        target = r.path.split("/channels/")[1].split("/")[0] if "/channels/" in r.path else ""
        content = str(r.body.get("content", "")) if isinstance(r.body, dict) else ""
        if r.route.startswith(("/interactions", "/webhooks", "/attachments")):
            continue
        if r.method == "GET":
            found["history reads"] += 1  # a look back over what was delivered (a restore's), never a delivery
            continue
        nonce = str(r.body.get("nonce") or "") if isinstance(r.body, dict) and r.method == "POST" else ""
        if nonce and r.status < 400:
            if (target, nonce) in nonces:
                # A create delivered again after a stop cut it short: Discord answers with the message
                # made the first time (the fake too), so it is no second post.
                found["nonce retries"] += 1
                continue
            nonces.add((target, nonce))
        if target in threads and r.method == "PATCH" and r.route == "/channels/{channel_id}":
            found["thread archives"] += 1
        elif target in threads and r.method == "PATCH" and r.path.rstrip("/").split("/")[-1] in map(str, laps):
            found["lap edits"] += 1
        elif target in threads and r.method == "POST" and r.route == "/channels/{channel_id}/messages":
            found["thread posts"] += 1
        elif target == str(channel.id) and r.method == "POST" and r.route.endswith("/threads"):
            found["thread opens"] += 1
        elif target == str(channel.id) and r.route.startswith("/channels/{channel_id}/messages"):
            found["channel posts" if r.method == "POST" else "channel edits"] += 1
        elif target.isdigit() and int(target) in dms:
            if r.status >= 400:
                found["failed DMs"] += 1
            elif r.method == "PATCH":
                found["panel closes"] += 1
            elif r.method == "DELETE":
                found["trail deletes"] += 1
            elif " is over" in content:
                found["closing lines"] += 1
            elif "waiting for your order" in content:
                found["reminders"] += 1
            else:
                found["panel DMs"] += 1
        else:
            found["other"] += 1
    return found


def _stranger(fake: FakeDiscord, guild: Guild, races: Channel) -> DiscordUser:
    user = fake.create_user("Dave")
    fake.add_member(guild, user).permissions = VIEW_ONLY
    return DiscordUser(fake, user, races)


async def _lap(table: Table) -> tuple[Any, Any] | None:
    """Which lap of turns the race is in (None: a system that plays every seat at once)."""
    public = await boards.public_view(table.ctx, table.race_id)
    marker = (public or {}).get(PROGRESS_KEY) or {}
    return None if marker.get("lap") is None else (marker.get("number"), marker.get("lap"))


async def _stored(table: Table, step: int, entrant: str) -> dict[str, Any]:
    async with table.ctx.db.sessions() as session:
        found = (await step_orders(session, table.race_id, step))[entrant]
        return {"body": dict(found.body), "received_at": found.received_at}


@pytest.mark.parametrize("ruleset", list(SHORT))
async def test_a_table_races_to_the_final_post(
    fake_discord: FakeDiscord,
    bot_settings: Settings,
    guild: Guild,
    races: Channel,
    alice: DiscordUser,
    bob: DiscordUser,
    carla: DiscordUser,
    ruleset: str,
    tmp_path: Path,
) -> None:
    """Alice, Bob (DMs closed) and Carla race to the result; Dave's clicks are refused; mid-round the bot
    stops and a `gregario run` process takes the race over on the same database file."""
    fake = fake_discord
    dave = _stranger(fake, guild, races)
    # The test's bot counts time from three days ago, so that after the absent player's deadline its
    # time is just behind the real time the `gregario run` process keeps: no deadline of the steps it
    # opened is overdue there, and every order's time comes after the ones before.
    clock = ManualClock(datetime.now(UTC) - timedelta(days=3, minutes=1))
    bob.close_dms()
    database_url = bot_settings.database_url
    reader = Context(db=connect(database_url))
    async with contextlib.AsyncExitStack() as first:
        first.push_async_callback(reader.db.close)
        second_stack = contextlib.AsyncExitStack()
        first.push_async_callback(second_stack.aclose)
        bot = await second_stack.enter_async_context(running_bot(fake, bot_settings, clock=clock))
        assert bot.runtime is not None
        ctx = bot.runtime.ctx
        stage: dict[str, Any] = {"stage": SHORT[ruleset]} if SHORT[ruleset] else {}
        if ruleset in OPTIONS:
            stage["options"] = OPTIONS[ruleset]
        lobby_message = await (await alice.slash("race new", ruleset=ruleset, **stage)).reply()
        for who in (bob, carla):
            await (await who.click(lobby_message, "Join")).acknowledged()
        assert all(name in lobby_message.text for name in ("Alice", "Bob", "Carla")), lobby_message.text
        assert "Bob · DMs closed" in lobby_message.text and "Carla · DMs closed" not in lobby_message.text
        assert len(lobby_message.history) >= 2, "the lobby is edited as seats fill, never posted again"

        refusal = await (await dave.click(lobby_message, "Start")).reply()
        assert refusal.ephemeral_for is not None and "Only the person who opened this race" in refusal.text

        race_id = int(lobby_message.items()[0]["custom_id"].split(":")[2])
        table = Table(fake, ctx, race_id, {f"u{u.id}": u for u in (alice, bob, carla)}, closed={f"u{bob.id}"})
        await (await alice.click(lobby_message, "Start")).acknowledged()

        # Step 1: everyone awaited orders but one, who is absent until the deadline.
        start_requests = len(fake.requests)
        await table.started()
        status, step, humans = await table.state()
        absent = next((e for e in humans if e == f"u{carla.id}"), humans[0])
        for entrant in humans:
            if entrant != absent:
                await table.order(entrant, step)
        await table.panel(absent, step)  # their panel came; they just do not answer
        clock.advance(days=3)
        await table.wait_step_after(step)
        name = table.players[absent].name
        step_one = await table.post_of(1)
        for _wait in range(250):
            if step_one is not None:
                break
            await fake.settle()
            step_one = await table.post_of(1)
        assert step_one is not None, "no post for step 1"

        # Dave clicks Open my orders on a round post (in the race's thread): not his race.
        if any(c.get("custom_id", "").startswith("gr:o:") for m in race_reads(alice) for c in m.items()):
            post = next(
                m
                for m in reversed(race_reads(alice))
                if any(c.get("custom_id", "").startswith("gr:o:") for c in m.items())
            )
            answer = await (await dave.click(post, "Open my orders")).reply()
            assert "You're not riding in this race" in answer.text

        changed: tuple[int, str, dict[str, Any]] | None = None
        stale_checked = False
        restarted: dict[str, Any] | None = None
        for _ in range(400):
            status, step, humans = await table.state()
            if status != "running":
                break
            if not humans:
                await table.wait_step_after(step)
                continue
            open_dm = [e for e in humans if e not in table.closed]
            if changed is None and len(humans) >= 2 and open_dm:
                # An order changed before the step resolves.
                who = open_dm[0]
                panel = await table.order(who, step)
                if "Change" in panel.buttons:
                    first_order = await _stored(table, step, who)
                    await (await table.players[who].click(panel, "Change")).acknowledged()
                    for _attempt in range(20):
                        if sendable(panel):  # the changed order is reviewed, then sent
                            await (await table.players[who].click(panel, SEND)).acknowledged()
                            break
                        if not picks_on(panel):
                            break
                        await pick(table.players[who], panel, last=True)
                    else:
                        raise AssertionError(f"the changed order never completed: {panel.text}")
                    after = await _stored(table, step, who)
                    changed = (step, who, after["body"])
                    assert "Your order" in panel.text
                    if after["body"] == first_order["body"]:
                        changed = None  # only one legal choice: nothing to change here
                    continue
            if restarted is None and open_dm and (len(humans) >= 2 or await _lap(table) is not None):
                # The bot stops in the middle of a round: between two orders of the same step, or, turn
                # by turn, between two turns of a lap; a `gregario run` process takes over.
                who = open_dm[0]
                lap = await _lap(table)
                await table.order(who, step)
                kept = await _stored(table, step, who)
                if len(humans) < 2:
                    await table.wait_step_after(step)
                    status, _now, waiting = await table.state()
                    if status != "running" or not waiting or await _lap(table) != lap:
                        continue  # that turn ended the lap: the restart waits for one inside a lap
                restarted = {"step": step, "entrant": who, **kept}
                await fake.settle(0.2, 5)  # the next panels are out: the players click what the old bot sent
                await second_stack.aclose()
                await second_stack.enter_async_context(gregario_run(fake, guild, tmp_path, database_url))
                table.ctx = reader
                continue
            if not stale_checked and f"u{bob.id}" in table.ephemerals:
                old = table.ephemerals[f"u{bob.id}"]
                shown = step_of(old)  # a panel's components name its step; a confirmation may have none
                old_step = shown if shown is not None else step
                if old_step < step and old.items():
                    label = next(c["label"] for c in old.items() if c.get("type") == 2)
                    answer = await (await bob.click(old, label)).reply()
                    assert "Use your latest panel" in answer.text, answer.text
                    stale_checked = True
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
        else:
            raise AssertionError("the race did not finish")
        await fake.wait_until(lambda: finals(alice), 8, lambda: f"no final post: {race_reads(alice)[-2:]!r}")
        final = finals(alice)[0]
        attachment = next(a for a in final.attachments if a.filename == f"race-{race_id}.json")
        record = parse_record((await alice.download(attachment.url)).decode())
        assert "Rematch" in final.buttons
        news = "provisional" in final.text
        if news:
            # Tabella's Gazzetta, due the next morning: the process stops, and a bot whose time is two days
            # on starts, finds the news overdue and posts it with the record.
            await second_stack.aclose()
            clock.set(datetime.now(UTC) + timedelta(days=2))
            await second_stack.enter_async_context(running_bot(fake, bot_settings, clock=clock))
            await fake.wait_until(lambda: len(finals(alice)) >= 2, 8, lambda: "no Gazzetta post")
            final = finals(alice)[1]
            attachment = next(a for a in final.attachments if a.filename == f"race-{race_id}.json")
            assert "provisional" not in final.text

        # Every order kept: the one sent before the restart, the changed one.
        assert restarted is not None, "the race was taken over by a `gregario run` process mid-round"
        kept = record.steps[restarted["step"] - 1][restarted["entrant"]]
        assert {k: v for k, v in kept.items() if k not in ("received_at", "by", "auto")} == restarted["body"]
        assert not kept.get("auto") and kept["received_at"] == iso(restarted["received_at"])
        if changed is not None:
            played = record.steps[changed[0] - 1][changed[1]]
            assert {k: v for k, v in played.items() if k not in ("received_at", "by", "auto")} == changed[2]
        assert stale_checked or ruleset == "wyscig"

        # The absent player got the automatic order at the deadline, and the post said so; only where
        # the rules let an entrant send nothing (Tabella's plan: they do not start) is there none.
        absent_order = record.steps[0].get(absent)
        if absent_order is not None:
            assert absent_order.get("auto") is True
            assert f"Automatic orders: {name}" in step_one.text
        else:
            assert ruleset == "tabella" and "Automatic orders" not in step_one.text

        # The record replays to the standings in the final post.
        replayed = replay(record).result()
        names = {e.id: e.name for e in record.entrants}
        for standing in replayed.standings:
            assert f"{standing.place}. {names[standing.entrant]}" in final.text
        assert await records.replays_to_stored_result(table.ctx, race_id)

        # An order after the race is over.
        if f"u{bob.id}" in table.ephemerals and table.ephemerals[f"u{bob.id}"].items():
            old = table.ephemerals[f"u{bob.id}"]
            label = next(c["label"] for c in old.items() if c.get("type") == 2)
            answer = await (await bob.click(old, label)).reply()
            assert "This race is over" in answer.text or "Use your latest panel" in answer.text

        # Requests per step, counted at the fake from the Start click to the thread archived after the
        # final post (and after the news).
        thread = fake.channels[lobby_message.id]
        await fake.wait_until(lambda: thread.archived, 10, lambda: "the race's thread is archived once all is told")
        stored = await boards.posts_of(table.ctx, race_id)
        laps = frozenset(p.message_id for p in stored if p.kind is PostKind.LAP)
        figures = _figures(fake, start_requests, races, [alice, bob, carla], laps)
        panels = [p for p in stored if p.kind is PostKind.PANEL]
        steps = len(record.steps)
        told = {p.message_id for p in stored if p.kind == "step"}
        assert len([p for p in stored if p.kind == "step"]) == steps + 1, "every resolution is told"
        if ruleset == "wyscig":
            assert laps and len(told) == len(laps) + 1, "turn by turn: the start, then one message per lap"
            assert len(laps) < steps / 2
            assert figures["lap edits"] >= steps - len(laps), "each later turn of a lap edits its message"
        else:
            assert not laps and len(told) == steps + 1, "one post per resolution"
        expected = len(told) + 1 + (1 if news else 0)
        assert figures["thread posts"] == expected, (
            "in the race's thread: one post per resolution or lap, plus the start, the result's copy, the news"
        )
        assert figures["channel posts"] == 1, "in the channel: the result (the lobby is the Start's answer)"
        assert figures["thread opens"] == 1, "the race's thread opened once"
        assert figures["thread archives"] == (2 if news else 1), "archived at the end (and after the news)"
        assert figures["panel DMs"] == len(panels), "one DM per awaited player with open DMs per decision"
        assert figures["panel closes"] == len(panels), "each panel closed once"
        # A closed panel is a one-line receipt without components (R-DC-6); only the newest of each player
        # stays, beside their welcome and the race's closing line.
        panel_ids = {p.message_id for p in panels}

        def closed_line(user: DiscordUser) -> bool:
            return bool(user.dms()) and "is over" in user.dms()[-1].text

        # The closing lines are owed after the final post (the outbox keeps the race's order): wait for them.
        await fake.wait_until(
            lambda: all(closed_line(u) for u in (alice, carla)), 8, lambda: f"no closing line: {carla.dms()[-1:]!r}"
        )
        for user in (alice, carla):
            kept = [m for m in user.dms() if m.id in panel_ids]
            assert len(kept) == 1, [m.text for m in kept]
            assert not kept[0].items() and "\n" not in kept[0].text, kept[0].text
            assert "is over" in user.dms()[-1].text and "https://discord.com/channels/" in user.dms()[-1].text
        if absent not in table.closed and absent_order is not None:
            # The absent player's first receipt (deleted since: the trail keeps the newest) told the automatic order.
            first = next(m for m in fake.dm_channel(table.players[absent].user).messages if m.id in panel_ids)
            assert "the rules played for you" in first.text, first.text
        assert figures["failed DMs"] == 0, "a player known to have closed DMs is not tried again"
        assert logged_errors(tmp_path) == [], "the `gregario run` process logged no error"
        per_step = {k: round(v / steps, 2) for k, v in figures.items()}
        print(f"\nrequests for {ruleset}: {steps} steps, totals {json.dumps(figures)}, per step {json.dumps(per_step)}")

"""Two `gregario run` processes on one PostgreSQL, each with its own shard of two, against a fake serving
two shards: races in servers on both shards finish, DMs come through the process of shard 0, every
acknowledged order is in its record and no message is made twice; the process of shard 1 SIGKILLed
mid-race, the other adopts its race once its lease is known dead and finishes it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store.database import normalise_url
from engine.record import parse_record
from tests.bot.exts.race.process import logged_errors, run_env, start_run
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild, Message

PANEL_ITEM = re.compile(r"^gr:(?P<what>[a-z]):(?P<race>\d+):(?P<step>\d+)")
RACE = {
    "ruleset": "Flamme Rouge",
    "bots": 1,
    "stage": "Avenue Corso Paseo",
    "options": "riders_per_player=1 finish=first",
}
META = ("received_at", "by", "auto")


async def _start(fake: FakeDiscord, guild: Guild, folder: Path, url: str, shard: int) -> asyncio.subprocess.Process:
    """`gregario run` holding shard ``shard`` of 2, connected (its shard's session READY at the fake)."""
    env = run_env(fake, guild, url, GREGARIO_SHARD_COUNT="2", GREGARIO_SHARDS=str(shard), GREGARIO_DEFAULT_PACE="30s")
    env.pop("GREGARIO_TEST_GUILD_ID")  # two servers: the commands are synced globally
    before = sum(1 for s in fake.sessions if s.shard == shard)
    process = await start_run(folder, env, f"shard-{shard}.log")
    await fake.wait_until(
        lambda: sum(1 for s in fake.sessions if s.shard == shard) > before or process.returncode is not None,
        30,
        lambda: f"the process of shard {shard} never connected",
    )
    assert process.returncode is None, (folder / f"shard-{shard}.log").read_text()
    await fake.wait_until(lambda: fake.commands, 30, lambda: "no commands synced")
    return process


def _panel(fake: FakeDiscord, person: DiscordUser, race: int) -> tuple[Message, int] | None:
    for message in reversed(fake.dm_channel(person.user).messages):
        for item in message.items():
            found = PANEL_ITEM.match(str(item.get("custom_id", "")))
            if found and int(found["race"]) == race:
                if any(not c.get("disabled") for c in message.items()):
                    return message, int(found["step"])
                return None
    return None


class Table:
    """The players, what the fake acknowledged and what the database held right after."""

    def __init__(self, fake: FakeDiscord, engine: AsyncEngine) -> None:
        self.fake, self.engine = fake, engine
        self.acked: dict[tuple[int, int, str], dict[str, Any]] = {}
        self.done: set[int] = set()

    async def status(self, race: int) -> tuple[str, int, str]:
        async with self.engine.connect() as conn:
            row = (await conn.execute(text("SELECT status, step, owner FROM races WHERE id = :r"), {"r": race})).one()
        return str(row[0]), int(row[1]), str(row[2])

    async def order(self, race: int, step: int, entrant: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    text("SELECT body FROM orders WHERE race_id = :r AND step = :s AND entrant = :e"),
                    {"r": race, "s": step, "e": entrant},
                )
            ).one_or_none()
        if row is None:
            return None
        return dict(json.loads(row[0]) if isinstance(row[0], str) else row[0])

    async def play(self, person: DiscordUser, race: int, rng: random.Random) -> None:
        """Picks whatever is enabled, then Send; an unanswered click (its process died) is made again."""
        while race not in self.done:
            found = _panel(self.fake, person, race)
            if found is None:
                await asyncio.sleep(0.2)
                continue
            panel, step = found
            items = [c for c in panel.items() if not c.get("disabled")]
            send = [c for c in items if str(c.get("custom_id", "")).startswith("gr:v:")]
            picks = [c for c in items if str(c.get("custom_id", "")).startswith(("gr:b:", "gr:s:"))]
            item = send[0] if send else rng.choice(picks) if picks else None
            if item is None:
                await asyncio.sleep(0.2)
                continue
            await asyncio.sleep(rng.uniform(0.05, 0.3))
            values = [rng.choice(item.get("options") or [{"value": "0"}])["value"]] if item.get("type") == 3 else None
            with contextlib.suppress(AssertionError):
                handle = await person.press(panel, str(item["custom_id"]), values)
                if await handle.acknowledged(timeout=5) == 7 and item in send:
                    body = await self.order(race, step, f"u{person.id}")
                    assert body is not None, f"race {race} step {step}: acknowledged, not in the database"
                    self.acked[(race, step, f"u{person.id}")] = body


async def _open(opener: DiscordUser, other: DiscordUser, channel: Channel) -> int:
    lobby = await (await opener.slash("race new", channel=channel, **RACE)).reply(timeout=15)
    race = int(str(lobby.items()[0]["custom_id"]).split(":")[2])
    await (await other.click(lobby, "Join")).acknowledged(timeout=10)
    await (await opener.click(lobby, "Start")).acknowledged(timeout=10)
    return race


def _twice(fake: FakeDiscord, channels: list[Channel]) -> list[str]:
    """Logical deliveries made twice: two creates with one enforced nonce are one (Discord returns the
    first), so a message twice is two messages with the same first line and nonce, or none."""
    nonces = {message.id: nonce for (_c, nonce), (message, _w) in fake._nonces.items()}
    seen: Counter[tuple[str, str]] = Counter()
    for channel in channels:
        for message in channel.messages:
            if message.author is not fake.bot_user or message.interaction is not None:
                continue
            original = message.history[0] if message.history else message.payload()
            first = str(original.get("content") or "").split("\n")[0]
            seen[(channel.name, f"{first} ({nonces.get(message.id)})")] += 1
    return [f"{n} times in {where}: {first[:80]}" for (where, first), n in seen.items() if n > 1]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # several processes: PostgreSQL
async def test_two_processes_with_a_shard_each_finish_their_races_and_one_survives_the_other(
    fake_discord: FakeDiscord, tmp_path: Path, database_url: str
) -> None:
    fake = fake_discord
    fake.shard_count = 2
    owner = fake.guilds[0].owner
    zero = fake.create_guild("Shard Zero", owner, shard=0)
    one = fake.create_guild("Shard One", owner, shard=1)
    people = []
    for guild, names in ((zero, ("Alice", "Bob")), (one, ("Carla", "Dario"))):
        for name in names:
            user = fake.create_user(name)
            fake.add_member(guild, user)
            people.append(DiscordUser(fake, user, guild.channel("races")))
    alice, bob, carla, dario = people
    first = await _start(fake, zero, tmp_path, database_url, 0)
    second = await _start(fake, zero, tmp_path, database_url, 1)
    engine = create_async_engine(normalise_url(database_url))
    table = Table(fake, engine)
    rng = random.Random(27)
    try:
        r0 = await _open(alice, bob, zero.channel("races"))
        r1 = await _open(carla, dario, one.channel("races"))
        assert (await table.status(r0))[2] == "shards 0-0 of 2"
        assert (await table.status(r1))[2] == "shards 1-1 of 2", "the race belongs to its server's shard"
        players = [
            asyncio.create_task(table.play(p, race, random.Random(rng.random())))
            for p, race in ((alice, r0), (bob, r0), (carla, r1), (dario, r1))
        ]
        async with asyncio.timeout(120):
            while (await table.status(r1))[1] < 3:
                await asyncio.sleep(0.2)
        resolved_by_second = (tmp_path / "shard-1.log").read_text()
        assert re.search(rf"race {r1} \(server \d+\) step 1: resolved", resolved_by_second), "shard 1 resolves its race"
        second.send_signal(signal.SIGKILL)  # mid-race: nothing flushed, its lease left behind
        await second.wait()
        async with asyncio.timeout(240):
            while True:
                statuses = [await table.status(r) for r in (r0, r1)]
                for race, (status, _step, _owner) in zip((r0, r1), statuses, strict=True):
                    if status == "finished":
                        table.done.add(race)
                if len(table.done) == 2:
                    break
                await asyncio.sleep(0.3)
        await asyncio.gather(*players)
        assert (await table.status(r1))[2] == "shards 0-0 of 2", "the survivor adopted the dead process's race"
        survivor = (tmp_path / "shard-0.log").read_text()
        assert f"took over 1 races of shards 1-1 of 2, which is gone: [{r1}]" in survivor
        await fake.settle(0.5, 20)
        async with asyncio.timeout(30):
            while not all(
                any(a.filename == f"race-{r}.json" for m in g.channel("races").messages for a in m.attachments)
                for r, g in ((r0, zero), (r1, one))
            ):
                await asyncio.sleep(0.2)
    finally:
        for process in (first, second):
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.wait(), 30)
        await engine.dispose()

    # DMs (every panel click) reach the process of shard 0 only; guild events their server's shard.
    for session in fake.sessions:
        for frame in session.frames:
            if frame["t"] == "INTERACTION_CREATE":
                guild_id = frame["d"].get("guild_id")
                assert session.shard == fake.gateway.shard_of(guild_id), frame["d"].get("data")
    lost = []
    for race, guild in ((r0, zero), (r1, one)):
        final = next(
            m for m in guild.channel("races").messages for a in m.attachments if a.filename == f"race-{race}.json"
        )
        record = parse_record(next(a for a in final.attachments if a.filename == f"race-{race}.json").content.decode())
        for (r, step, entrant), body in table.acked.items():
            if r != race:
                continue
            played = record.steps[step - 1].get(entrant)
            if not isinstance(played, dict) or {k: v for k, v in played.items() if k not in META} != body:
                lost.append(f"race {race} step {step} {entrant}: acknowledged {body}, the record has {played}")
    assert table.acked and not lost
    channels = [zero.channel("races"), one.channel("races"), *(fake.dm_channel(p.user) for p in people)]
    assert _twice(fake, channels) == []
    assert logged_errors(tmp_path, "shard-0.log") == [] and logged_errors(tmp_path, "shard-1.log") == []

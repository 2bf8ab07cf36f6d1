"""What a `gregario run` process logs during whole races: at INFO one line per race event, at DEBUG the
bot's workings, and at no level a token or a player's hidden hand or order."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from bot.services.context import Context
from bot.store.database import connect
from bot.store.tables import OrderRow, RaceRow
from engine.registry import get_ruleset
from tests.bot.exts.race.process import gregario_run, logged_errors
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild

STAGES = {"wyscig": '{"deck": "itemised_108", "stages": 1}', "mind_cycling": "short"}


async def _open(alice: DiscordUser, carla: DiscordUser, ruleset: str) -> int:
    lobby = await (await alice.slash("race new", ruleset=ruleset, stage=STAGES[ruleset])).reply(timeout=10)
    await (await carla.click(lobby, "Join")).acknowledged()
    await (await alice.click(lobby, "Start")).acknowledged(timeout=10)
    return int(lobby.items()[0]["custom_id"].split(":")[2])


def _hidden(ruleset: str, state: dict[str, Any], entrant: str) -> list[Any]:
    """What the entrant's private view shows that the public view does not (a hand, a deck...): its lists
    and objects (a lone name or number is no secret, and is in many a public line)."""
    rules = get_ruleset(ruleset)
    loaded = rules.load(state)
    public, private = rules.public_view(loaded), rules.private_view(loaded, entrant)
    found: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict | list) and value:
            found.append(value)
        if isinstance(value, dict):
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for key, value in private.items():
        if public.get(key) != value:
            walk(value)
    return found


def _spellings(value: Any) -> set[str]:
    """How a value could be written in a log line: Python's repr and JSON, when long enough to be telling."""
    shown = {repr(value), json.dumps(value), json.dumps(value, separators=(",", ":"))}
    return {s for s in shown if len(s) >= 12}


async def test_a_race_at_debug_logs_no_token_hand_or_order(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """A whole Wyścig race at DEBUG: the log shows the bot's workings but neither the bot token, nor an
    interaction token, nor a hand from a private view, nor an order a player sent."""
    fake = fake_discord
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    reader = Context(db=connect(url))
    secrets: set[str] = set()
    try:
        async with gregario_run(fake, guild, tmp_path, url, GREGARIO_LOG_LEVEL="DEBUG"):
            race_id = await _open(alice, carla, "wyscig")
            table = Table(fake, reader, race_id, {f"u{alice.id}": alice, f"u{carla.id}": carla})
            await table.started()
            for _ in range(400):
                status, step, humans = await table.state()
                if status != "running":
                    break
                async with reader.db.sessions() as session:
                    race = await session.get(RaceRow, race_id)
                    assert race is not None and race.state is not None
                    for entrant in table.players:
                        for value in _hidden("wyscig", race.state, entrant):
                            secrets |= _spellings(value)
                for entrant in humans:
                    await table.order(entrant, step)
                await table.wait_step_after(step)
            assert status == "finished"
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
        async with reader.db.sessions() as session:
            rows = await session.execute(
                select(OrderRow).where(col(OrderRow.race_id) == race_id, col(OrderRow.entrant).in_(table.players))
            )
            orders = [row.body for row in rows.scalars()]
    finally:
        await reader.db.close()
    assert orders and secrets, "the race had orders and hands to hide"
    for body in orders:
        secrets |= _spellings(body)
    log = (tmp_path / "gregario-run.log").read_text()
    assert " DEBUG " in log and "race " in log, "the log was at DEBUG"
    tokens = [i.token for i in fake.interactions.values()]
    assert len(tokens) > 10
    assert fake.token not in log
    assert [t for t in tokens if t in log] == []
    assert sorted(s for s in secrets if s in log) == []
    assert logged_errors(tmp_path) == []
    assert len(log.splitlines()) < 5000, "no driver chatter"


async def test_a_race_at_info_logs_one_line_per_race_event(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, carla: DiscordUser, tmp_path: Path
) -> None:
    """At INFO: the lobby opened, the start, each step resolved once with its duration, the deadline Carla
    let pass and her automatic order, the finish; and a second lobby's cancellation."""
    fake = fake_discord
    url = f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"
    reader = Context(db=connect(url))
    carla_entrant = f"u{carla.id}"
    try:
        async with gregario_run(fake, guild, tmp_path, url, GREGARIO_DEFAULT_PACE="30s"):
            race_id = await _open(alice, carla, "mind_cycling")
            table = Table(fake, reader, race_id, {f"u{alice.id}": alice, carla_entrant: carla})
            await table.started()
            let_pass: int | None = None
            for _ in range(400):
                status, step, humans = await table.state()
                if status != "running":
                    break
                playing = humans
                if let_pass is None and carla_entrant in humans:
                    let_pass, playing = step, [e for e in humans if e != carla_entrant]
                for entrant in playing:
                    await table.order(entrant, step)
                if step == let_pass:
                    await _wait_step(table, step, 90)  # the 30 s deadline, and the scheduler's poll
                else:
                    await table.wait_step_after(step)
            assert status == "finished" and let_pass is not None
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
            lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short")).reply(timeout=10)
            cancelled_id = int(lobby.items()[0]["custom_id"].split(":")[2])
            await (await alice.click(lobby, "Cancel")).acknowledged()
            await fake.settle(0.3, 5)
        async with reader.db.sessions() as session:
            race = await session.get(RaceRow, race_id)
            assert race is not None
            steps, server = race.step - 1, race.server_id
    finally:
        await reader.db.close()
    lines = [
        line for line in (tmp_path / "gregario-run.log").read_text().splitlines() if " bot.services.journal: " in line
    ]
    mine = [line.split(": ", 1)[1] for line in lines if f"race {race_id} (server {server})" in line]
    assert mine[0] == f"race {race_id} (server {server}): lobby opened for mind_cycling by user {alice.id}"
    assert mine[1] == f"race {race_id} (server {server}): started with 2 entrants (0 bots)"
    resolved = [m for m in mine if re.search(r"step \d+: resolved in \d+\.\d\d s$", m)]
    assert [int(re.search(r"step (\d+):", m).group(1)) for m in resolved] == list(range(1, steps + 1))  # type: ignore[union-attr]
    assert f"race {race_id} (server {server}) step {let_pass}: deadline reached" in mine
    assert f"race {race_id} (server {server}) step {let_pass}: automatic orders for {carla_entrant}" in mine
    assert sum("deadline reached" in m for m in mine) == 1
    assert mine[-1].startswith(f"race {race_id} (server {server}): finished at step {steps} (")
    assert any(f"race {cancelled_id} (server {server}): cancelled" in line for line in lines)
    assert logged_errors(tmp_path) == []


async def _wait_step(table: Table, step: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, now, _ = await table.state()
        if status != "running" or now > step:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"step {step} never resolved at its deadline")

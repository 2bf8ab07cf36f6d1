"""The crash-safety soak in the suite: a `gregario run` process killed a dozen times, owing nothing after.

Four races (one of each rule system) on a SQLite file, people ordering on their panels at random
moments, a 30-second pace; at least ten SIGKILLs in about two and a half minutes, at random and right
after a post is created, a panel is sent, a click is acknowledged and a race's last step is committed.
Set ``GREGARIO_SOAK_SEED`` to replay a failed run's choices (the seed is in the failure); bench/soak.py
runs the same soak longer, on PostgreSQL too, with Discord's faults.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.bot.exts.race.soak import MOMENTS, Plan, Soak, _within, seed_from_environment, soak
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.world import Channel, Guild


async def test_a_bot_killed_at_every_moment_delivers_everything_once(
    fake_discord_certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    """Every race ends with its final post and record, nothing is posted twice, every acknowledged order
    is played, every record replays to its standings and nothing is logged as an error, after a dozen
    SIGKILLs at the worst moments."""
    seed = seed_from_environment()
    fake = FakeDiscord(*fake_discord_certificate)
    guild = fake.create_guild("Gregario Test", fake.create_user("Olga"))
    await fake.start()
    try:
        plan = Plan(seed=seed, kills=11, races=4, kill_seconds=110.0, finish_seconds=120.0)
        report = await soak(fake, guild, tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}", plan)
    finally:
        await fake.stop()
    summary = report.summary()
    print(f"\n{summary}")
    assert len(report.kills) >= 10, summary
    assert {k.moment for k in report.kills} == set(MOMENTS), f"every moment was hit at least once\n{summary}"
    assert report.acked and report.steps > 0, summary
    assert report.ok, f"GREGARIO_SOAK_SEED={seed}\n{summary}\nkills:\n{report.kill_log()}"


async def test_the_soak_counts_two_creates_of_one_delivery_not_an_edit(
    fake_discord: FakeDiscord, guild: Guild, tmp_path: Path
) -> None:
    """A panel created twice in one DM is a message twice; a post edited into the next step's words and
    that step's own post are not; nor are a final post and its copy in the race's thread, each with its
    own nonce; a partial order is within the order that completed it."""
    fake = fake_discord
    run = Soak(fake, guild, tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}", Plan(seed=1))
    try:
        races, dm = guild.channel("races"), fake.dm_channel(run.people[0].user)
        panel = {"content": "**Flamme Rouge · race #1 · step 3**\nPick a card"}
        fake.post_as_bot(dm, panel)
        lap = fake.post_as_bot(races, {"content": "**Wyścig kolarski · race #2 · step 3**"})
        fake._edit(lap, {"content": "**Wyścig kolarski · race #2 · step 4**\nthe next turn"}, [])
        fake.post_as_bot(races, {"content": "**Wyścig kolarski · race #2 · step 4**"})
        assert run._deliveries()[1] == []
        fake.post_as_bot(dm, panel)
        assert run._deliveries()[1] == ["2 times in dm-Alice: '**Flamme Rouge · race #1 · step 3**'"]
        # A final post in the channel and its copy in the race's thread, each with its nonce: two deliveries.
        lobby = fake.post_as_bot(races, {"content": "**Mind Cycling** · race #3"})
        thread = Channel(id=lobby.id, name="Mind Cycling #3 · short", guild=guild, parent=races)
        fake.channels[thread.id] = thread
        guild.threads.append(thread)
        final = {"content": "**Mind Cycling · race #3 · result**"}
        for where, nonce in ((thread, "c0123"), (races, "g3-final_post-0")):
            fake._nonces[(where.id, nonce)] = (fake.post_as_bot(where, final), time.monotonic())
        counted, twice = run._deliveries()
        assert twice == ["2 times in dm-Alice: '**Flamme Rouge · race #1 · step 3**'"], twice
        assert counted["thread"] == 1 and counted["channel"] == 4, counted
        fake.post_as_bot(thread, final)  # the thread's copy created again, without a nonce, and again
        fake.post_as_bot(thread, final)
        assert sorted(run._deliveries()[1]) == [
            "2 times in Mind Cycling #3 · short: '**Mind Cycling · race #3 · result**'",
            "2 times in dm-Alice: '**Flamme Rouge · race #1 · step 3**'",
        ]
    finally:
        await run.store.close()
    assert _within({"card": 3}, {"card": 3, "descents": 1}) and not _within({"card": 3}, {"card": 4})

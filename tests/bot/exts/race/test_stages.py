"""A Wyścig race over several stages told in the channel (R-DC-7): each finished stage but the last gets
one summary post, after its last lap and before the next stage's first lap, with the general
classification as it stood then, in the system's own figures; the last stage gets the final post."""

from __future__ import annotations

import asyncio
import re

from bot.app import Gregario
from bot.services import boards, records
from bot.store import outbox
from bot.store.ledger import PostKind
from engine.race import replay
from tests.bot.exts.race.table import Table, finals, laps_after, race_reads
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser

STAGES = 3
LINE = re.compile(
    r"^\d+\. (?P<name>.+?) · Total time (?P<total>\d+:\d\d) · Stage wins \d+ · "
    r"Stage times (?P<times>[\d: ]+?)(?: ·|$)"
)
"""A standing's line, as the general classification's columns label its figures."""


def _minutes(clock: str) -> int:
    """A race time as players read it (hours and minutes, ``1:04``) in minutes."""
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


SUMMARY = re.compile(r"^\*\*Wyścig kolarski · race #\d+ · (?P<counter>[^*]+) is over\.\*\* The standings so far:")


async def test_each_finished_stage_but_the_last_gets_a_summary_in_its_place(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, bob: DiscordUser
) -> None:
    fake = fake_discord
    lobby = await (
        await alice.slash("race new", ruleset="wyscig", stage=f'{{"deck": "classic_96", "stages": {STAGES}}}', bots=2)
    ).reply()
    await (await bob.click(lobby, "Join")).acknowledged()
    race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
    assert gregario.runtime is not None
    people = {f"u{p.id}": p for p in (alice, bob)}
    table = Table(fake, gregario.runtime.ctx, race_id, people)
    await (await alice.click(lobby, "Start")).acknowledged()
    await table.started()
    for _ in range(3000):
        status, step, humans = await table.state()
        if status != "running":
            break
        for entrant in humans:
            await table.order(entrant, step)
        await table.wait_step_after(step)
    else:
        raise AssertionError("the race did not finish")
    await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
    for _wait in range(200):  # everything owed is delivered
        async with table.ctx.db.sessions() as session:
            pending = await outbox.rows_of(session, race_id, pending=True)
        if not pending:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"still owed: {pending}")

    record = await records.race_record(table.ctx, race_id)
    final_state = replay(record)
    names = {e.id: e.name for e in record.entrants}
    stored = await boards.posts_of(table.ctx, race_id)
    channel = [m for m in race_reads(alice) if m.author is fake.bot_user and m.ephemeral_for is None]  # and thread
    where = {m.id: i for i, m in enumerate(channel)}
    summaries = [m for m in channel if SUMMARY.match(m.text)]
    assert len(summaries) == STAGES - 1, [m.text.splitlines()[0] for m in summaries]
    stage_rows = sorted((p for p in stored if p.kind is PostKind.STAGE), key=lambda p: p.step)
    assert [p.message_id for p in stage_rows] == [m.id for m in summaries], "one stored summary per post, in order"

    # Each summary sits between its stage's last lap message and the next stage's first: the lap messages
    # are the record's turns grouped by the stage they were played in (a turn's lap is the marker's after
    # the step before it: "<stage>:<lap>").
    laps_of = await laps_after(table.ctx, race_id)
    stage_of_step = {step: int(laps_of[step - 1].split(":")[0]) for step in range(1, len(record.steps) + 1)}
    laps = [p for p in stored if p.kind is PostKind.LAP]
    final = finals(alice)[0]
    for number, summary in enumerate(summaries, start=1):
        head = SUMMARY.match(summary.text)
        assert head is not None and head["counter"] == f"Stage {number}", summary.text
        before = [where[p.message_id] for p in laps if stage_of_step[p.step] == number]
        after = [where[p.message_id] for p in laps if stage_of_step[p.step] == number + 1]
        assert before and after, f"stage {number} and the next have lap messages"
        assert max(before) < where[summary.id] < min(after), f"stage {number}'s summary between the two stages"
        assert not summary.items(), "a summary asks nothing"
    assert where[summaries[-1].id] < where[final.id], "the last stage has the final post, after the summaries"
    assert not any(SUMMARY.match(m.text) for m in channel[where[final.id] :]), "no summary for the last stage"

    # The standings as they stood after each stage: the general classification's total time of the stages
    # raced so far, in its order, from the stage times the finished race recorded.
    times = {s.entrant: list(s.figures["stage_times"]) for s in final_state.result().standings}
    assert all(len(ts) == STAGES for ts in times.values())
    entrant_of = {name: entrant for entrant, name in names.items()}
    for number, summary in enumerate(summaries, start=1):
        lines = [LINE.match(line) for line in summary.text.splitlines()[1:]]
        assert all(lines) and len(lines) == len(times), summary.text
        order = [entrant_of[m["name"]] for m in lines if m]
        assert sorted(order) == sorted(times), summary.text
        totals = {e: sum(ts[:number]) for e, ts in times.items()}
        shown = [_minutes(m["total"]) for m in lines if m]
        assert shown == [totals[e] for e in order], f"stage {number}: the totals of the stages so far: {summary.text}"
        assert shown == sorted(shown), f"stage {number}: ordered by total time so far: {summary.text}"
        for entrant, m in zip(order, lines, strict=True):
            assert m is not None and [_minutes(x) for x in m["times"].split()] == times[entrant][:number], m.group(0)

"""Lobbies: seats taken and given up, bots seated by the opener, the start fixing everything, cancelling."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.services import lobby
from bot.services.outcomes import RaceStarted, Refusal, StepResolved
from bot.store.tables import Member, RaceRow, Server, StepEvents
from tests.bot.services.conftest import CHANNEL, SERVER, Harness, member


async def test_riders_join_and_leave_and_the_opener_seats_bots(harness: Harness) -> None:
    """Anna opens, Bruno joins then leaves, Carla joins, Anna seats a bot and removes it again."""
    ctx = harness.ctx
    assert ctx is not None
    view = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig")
    assert [s.entrant for s in view.seats] == ["u1"] and view.status == "lobby" and view.pace == "fast"
    await lobby.join(ctx, view.race_id, member(2, "Bruno"))
    view = await lobby.leave(ctx, view.race_id, 2)
    view = await lobby.join(ctx, view.race_id, member(3, "Carla"))
    view = await lobby.add_bot(ctx, view.race_id, 1, "attacker")
    assert [(s.entrant, s.bot) for s in view.seats] == [("u1", None), ("u3", None), ("bot1", "attacker")]
    view = await lobby.remove_bot(ctx, view.race_id, 1, "bot1")
    assert [s.entrant for s in view.seats] == ["u1", "u3"]


async def test_lobby_mistakes_are_refused_with_a_reason(harness: Harness) -> None:
    """Joining twice, leaving a race one is not in, a stranger seating a bot and an unknown bot are refused."""
    ctx = harness.ctx
    assert ctx is not None
    view = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig")
    refusals = []
    for attempt in (
        lobby.join(ctx, view.race_id, member(1, "Anna")),
        lobby.leave(ctx, view.race_id, 7),
        lobby.leave(ctx, view.race_id, 1),
        lobby.add_bot(ctx, view.race_id, 2),
        lobby.add_bot(ctx, view.race_id, 1, "nosuch"),
        lobby.start(ctx, view.race_id, 2),
        lobby.join(ctx, 999, member(2)),
    ):
        with pytest.raises(Refusal) as refused:
            await attempt
        refusals.append(refused.value.key)
    assert refusals == [
        "lobby.already_in",
        "lobby.not_in",
        "lobby.opener_leaves",
        "lobby.not_opener",
        "lobby.unknown_bot",
        "lobby.not_opener",
        "race.not_found",
    ]
    assert [s.entrant for s in (await lobby.view(ctx, view.race_id)).seats] == ["u1"]


async def test_a_full_lobby_turns_the_next_rider_away(harness: Harness) -> None:
    """Wyścig seats six by default (D3): the seventh rider is told the race is full."""
    ctx = harness.ctx
    assert ctx is not None
    view = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig")
    for user in range(2, 7):
        await lobby.join(ctx, view.race_id, member(user))
    with pytest.raises(Refusal) as refused:
        await lobby.join(ctx, view.race_id, member(7))
    assert refused.value.key == "lobby.full" and refused.value.message.params == {"count": 6}


async def test_the_108_card_deck_seats_eight(harness: Harness) -> None:
    """With the 108-card deck and max_players 8 (D3) the ninth rider is the one turned away."""
    ctx = harness.ctx
    assert ctx is not None
    view = await lobby.open_lobby(
        ctx, member(1, "Anna"), CHANNEL, "wyscig", stage={"deck": "itemised_108"}, options={"max_players": 8}
    )
    for user in range(2, 9):
        await lobby.join(ctx, view.race_id, member(user))
    with pytest.raises(Refusal) as refused:
        await lobby.join(ctx, view.race_id, member(9))
    assert refused.value.message.params == {"count": 8}


async def test_starting_fixes_the_seats_draws_the_seed_and_stores_the_opening(harness: Harness) -> None:
    """At the start the seed is drawn, step 0's events are stored and the first step is opened."""
    ctx = harness.ctx
    assert ctx is not None
    view = await lobby.open_lobby(ctx, member(1, "Anna", "fr"), CHANNEL, "mind_cycling", stage="short")
    await lobby.join(ctx, view.race_id, member(2, "Bruno", "pl"))
    happened = await lobby.start(ctx, view.race_id, 1)
    assert isinstance(happened[0], RaceStarted)
    row = await harness.race(view.race_id)
    assert row.status == "running" and row.seed is not None and row.step >= 1 and row.state is not None
    assert row.awaiting and set(row.awaiting) <= {"u1", "u2"}
    with pytest.raises(Refusal) as again:
        await lobby.join(ctx, view.race_id, member(3))
    assert again.value.key == "race.already_started"
    async with ctx.db.sessions() as session:
        opening = await session.get(StepEvents, (view.race_id, 0))
        locales = await session.execute(select(col(Member.user_id), col(Member.locale)).order_by(col(Member.user_id)))
    assert opening is not None
    assert locales.all() == [(1, "fr"), (2, "pl")]


async def test_a_race_that_starts_with_a_bot_to_play_chains_its_steps_at_once(harness: Harness) -> None:
    """When the bot rides first in Wyścig, its turns resolve at once until a person must decide."""
    ctx = harness.ctx
    assert ctx is not None
    for seed in range(1, 40):
        view = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig", stage={"stages": 1})
        await lobby.add_bot(ctx, view.race_id, 1)
        await lobby.add_bot(ctx, view.race_id, 1)
        happened = await lobby.start(ctx, view.race_id, 1, seed=seed)
        if any(isinstance(h, StepResolved) for h in happened):
            break
    else:
        raise AssertionError("no seed put a bot first")
    row = await harness.race(view.race_id)
    assert row.awaiting == ["u1"] and row.step > 1


async def test_the_opener_cancels_a_running_race(harness: Harness) -> None:
    """Anna cancels mid-race: no further order is taken and the deadline does nothing."""
    ctx = harness.ctx
    assert ctx is not None and harness.scheduler is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, options={"mode": "live"})
    with pytest.raises(Refusal):
        await lobby.cancel(ctx, race_id, 2)
    await lobby.cancel(ctx, race_id, 1)
    assert (await harness.race(race_id)).status == "cancelled"
    harness.clock.advance(hours=1)
    assert await harness.scheduler.run_due() == []


async def test_the_first_lobbies_of_a_new_server_opened_at_once_all_open(harness: Harness) -> None:
    """Ten members open lobbies at the same moment in a server the bot has never seen (ten channels of a new
    server, or two processes): the server row is created once and no opening fails on it (PostgreSQL
    refused the second insert before)."""
    assert harness.ctx is not None
    ctx = harness.ctx
    views = await asyncio.gather(
        *(lobby.open_lobby(ctx, member(10 + n, f"Rider {n}"), CHANNEL + n, "wyscig") for n in range(10))
    )
    assert len({v.race_id for v in views}) == 10
    await lobby.join(ctx, views[0].race_id, member(99, "Zed"))
    async with ctx.db.sessions() as session:
        servers = (await session.execute(select(Server))).scalars().all()
        members = (await session.execute(select(Member))).scalars().all()
    assert [s.id for s in servers] == [SERVER]
    assert len(members) == 11


async def test_two_rematch_presses_at_once_open_one_lobby(harness: Harness) -> None:
    """Anna and Rider 2 press Rematch on the same finished race at the same moment: one lobby (the
    database's uniqueness decides, not memory), both seated, the same bot; a third press changes nothing."""
    ctx = harness.ctx
    assert ctx is not None
    race_id, _ = await harness.open_and_start("tabella", humans=2, bots=1)
    await harness.play_out(race_id)
    assert (await harness.race(race_id)).status == "finished"
    (first, opened_first), (second, opened_second) = await asyncio.gather(
        lobby.rematch(ctx, race_id, member(1, "Anna")), lobby.rematch(ctx, race_id, member(2))
    )
    assert sorted([opened_first, opened_second]) == [False, True], "one press opens it, the other joins it"
    assert first.race_id == second.race_id
    again, opened = await lobby.rematch(ctx, race_id, member(2))
    assert (again.race_id, opened) == (first.race_id, False)
    async with ctx.db.sessions() as session:
        found = (await session.execute(select(RaceRow).where(col(RaceRow.rematch_of) == race_id))).scalars().all()
    assert [r.id for r in found] == [first.race_id]
    seats = await harness.seats(first.race_id)
    assert {s.user_id for s in seats.values() if s.user_id} == {1, 2}
    assert len([s for s in seats.values() if s.bot]) == len(
        [s for s in (await harness.seats(race_id)).values() if s.bot]
    )
    with pytest.raises(Refusal):
        await lobby.rematch(ctx, race_id, member(9))  # not a rider of the race

"""Lobbies: open one, join, leave, seat or unseat bots, start, cancel.

Only the race's opener (or a server manager, as the Discord layer decides) may seat bots, start and
cancel. Starting fixes the seats, draws the seed, stores the opening events and opens the first step.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.bots import bot_name
from bot.services import boards, journal, owed, resolution, server_settings, stepping, variants
from bot.services.context import Context
from bot.services.outcomes import Happening, MemberRef, RaceCancelled, RaceStarted, RaceView, Refusal, closed
from bot.services.paces import Pace, parse_pace
from bot.services.queries import Loaded, load
from bot.store.tables import Job, Member, RaceRow, Seat, Server, StepEvents


def _insert_new(session: AsyncSession, table: Any) -> Any:
    """``INSERT ... ON CONFLICT DO NOTHING`` in the session's dialect: a row two transactions (two clicks,
    two processes) add at once is added once, and neither fails."""
    from sqlalchemy.dialects import postgresql, sqlite

    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table).on_conflict_do_nothing()


async def remember(session: AsyncSession, member: MemberRef, now: datetime) -> None:
    """Create the server and the member if new; refresh the member's name and locale (for DMs). Safe when
    another transaction creates them at the same moment (the first commands in a new server, at once)."""
    if await session.get(Server, member.server_id) is None:
        await session.execute(_insert_new(session, Server).values(id=member.server_id, created_at=now))
    row = (
        await session.execute(
            select(Member).where(col(Member.server_id) == member.server_id, col(Member.user_id) == member.user_id)
        )
    ).scalar_one_or_none()
    if row is None:
        await session.execute(
            _insert_new(session, Member).values(
                server_id=member.server_id, user_id=member.user_id, name=member.name, locale=member.locale, seen_at=now
            )
        )
    else:
        row.name, row.seen_at = member.name, now
        if member.locale:
            row.locale = member.locale


async def open_lobby(
    ctx: Context,
    opener: MemberRef,
    channel_id: int,
    ruleset: str,
    *,
    stage: Any = None,
    options: dict[str, Any] | None = None,
    pace: Pace | None = None,
    bots: int = 0,
    stage_name: str | None = None,
    rematch_of: int | None = None,
    others: Sequence[MemberRef] = (),
    bot_seats: Sequence[str] = (),
) -> RaceView:
    """A new lobby in ``channel_id`` with its opener seated and ``bots`` bots of the rule system's default
    strategy; it is cancelled if nobody starts it in time. ``stage_name`` names a server's saved stage whose
    data ``stage`` is, so players read its name (a preset is named by itself). The options, the stage and the
    number of seats are checked before anything is written, and the lobby is written in one transaction: a
    refused lobby leaves nothing behind. A rematch (``rematch_of``) seats ``others`` and bots of
    ``bot_seats``'s strategies too, in the same transaction; a second lobby for the same race fails on the
    database's uniqueness (``IntegrityError``)."""
    if ruleset not in stepping.ruleset_ids():
        raise Refusal.of("race.unknown_ruleset", value=ruleset, names=", ".join(stepping.ruleset_ids()))
    options = variants.check_options(ruleset, options or {})
    variants.check_stage(ruleset, stage)
    most = variants.most_seats(ruleset, stage, options)
    if 1 + bots + len(others) + len(bot_seats) > most:
        raise Refusal.of("lobby.too_many_bots", count=most, bots=most - 1)
    _strategies, strategy = stepping.strategies(ruleset)
    if pace is None:  # i17: the server's default pace (/settings) when the opener names none, else the bot's
        chosen = (await server_settings.get_settings(ctx, opener.server_id)).default_pace
        pace = parse_pace(chosen) if chosen else ctx.default_pace
    now = ctx.clock.now()
    stage, shown = stepping.stage_copy(ruleset, stage)  # the race keeps its own copy of a preset's data
    if shown is None and stage_name is not None:
        shown = stage_name
    async with ctx.db.sessions() as session, session.begin():
        await remember(session, opener, now)
        race = RaceRow(
            server_id=opener.server_id,
            channel_id=channel_id,
            opener_id=opener.user_id,
            owner=ctx.owner,
            ruleset=ruleset,
            stage=stage,
            stage_name=shown,
            options=options,
            pace=pace.name,
            pace_seconds=pace.seconds,
            created_at=now,
            rematch_of=rematch_of,
        )
        session.add(race)
        await session.flush()
        assert race.id is not None
        session.add(
            Seat(race_id=race.id, position=0, entrant=f"u{opener.user_id}", name=opener.name, user_id=opener.user_id)
        )
        for number in range(1, bots + 1):
            session.add(_bot_seat(race.id, number, number, strategy))
        position = bots + 1
        for other in others:
            await remember(session, other, now)
            entrant = f"u{other.user_id}"
            session.add(
                Seat(race_id=race.id, position=position, entrant=entrant, name=other.name, user_id=other.user_id)
            )
            position += 1
        for number, chosen in enumerate(bot_seats, bots + 1):
            session.add(_bot_seat(race.id, position, number, chosen))
            position += 1
        due = now + timedelta(seconds=ctx.lobby_timeout_seconds)
        session.add(Job(race_id=race.id, kind=resolution.LOBBY_TIMEOUT, step=0, owner=ctx.owner, due_at=due))
        await session.flush()
        shown_view = (await load(session, race.id)).view()
    journal.opened(shown_view.race_id, opener.server_id, ruleset, opener.user_id)
    return shown_view


async def _lobby(session: AsyncSession, race_id: int) -> Loaded:
    loaded = await load(session, race_id)
    if loaded.race.status != "lobby":
        raise closed(loaded.race.status)
    return loaded


def _may_manage(loaded: Loaded, user_id: int, manager: bool) -> None:
    if not manager and loaded.race.opener_id != user_id:
        raise Refusal.of("lobby.not_opener")


async def _next_position(session: AsyncSession, race_id: int) -> int:
    top = await session.execute(select(func.max(Seat.position)).where(col(Seat.race_id) == race_id))
    value = top.scalar()
    return 0 if value is None else int(value) + 1


async def join(ctx: Context, race_id: int, member: MemberRef, *, edit_lobby: bool = False) -> RaceView:
    """Take a seat in the lobby (``edit_lobby``: the lobby message is owed an edit, as no click edits it)."""
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        loaded = await _lobby(session, race_id)
        if loaded.seat_of(member.user_id) is not None:
            raise Refusal.of("lobby.already_in")
        _check_room(loaded)
        await remember(session, member, now)
        position = await _next_position(session, race_id)
        entrant = f"u{member.user_id}"
        session.add(Seat(race_id=race_id, position=position, entrant=entrant, name=member.name, user_id=member.user_id))
        await session.flush()
        if edit_lobby:
            owed.lobby_changed(session, race_id, "joined", now)
        return (await load(session, race_id)).view()


def _check_room(loaded: Loaded) -> None:
    _low, high = stepping.player_limits(loaded.race.ruleset, loaded.race.stage, loaded.race.options)
    if len(loaded.seats) >= high:
        raise Refusal.of("lobby.full", count=high)


async def leave(ctx: Context, race_id: int, user_id: int, *, edit_lobby: bool = False) -> RaceView:
    """Give up one's seat in the lobby (the opener cancels instead). ``edit_lobby``: the lobby message is
    owed an edit (left by command; a click on Leave answers by editing the lobby itself)."""
    async with ctx.db.sessions() as session, session.begin():
        loaded = await _lobby(session, race_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise Refusal.of("lobby.not_in")
        if loaded.race.opener_id == user_id:
            raise Refusal.of("lobby.opener_leaves")
        await session.delete(seat)
        await session.flush()
        if edit_lobby:
            owed.lobby_changed(session, race_id, "left", ctx.clock.now())
        return (await load(session, race_id)).view()


async def add_bot(
    ctx: Context, race_id: int, by: int, strategy: str | None = None, *, manager: bool = False
) -> RaceView:
    """Seat a bot (the rule system's default strategy unless one is named)."""
    async with ctx.db.sessions() as session, session.begin():
        loaded = await _lobby(session, race_id)
        _may_manage(loaded, by, manager)
        strategies, default = stepping.strategies(loaded.race.ruleset)
        strategy = strategy or default
        if strategy not in strategies:
            raise Refusal.of(
                "lobby.unknown_bot",
                value=strategy,
                names=", ".join(strategies),
            )
        _check_room(loaded)
        taken = {s.entrant for s in loaded.seats}
        number = next(n for n in range(1, 1000) if f"bot{n}" not in taken)
        position = await _next_position(session, race_id)
        session.add(_bot_seat(race_id, position, number, strategy))
        await session.flush()
        return (await load(session, race_id)).view()


def _bot_seat(race_id: int, position: int, number: int, strategy: str) -> Seat:
    """The seat of bot number ``number`` (``bot<n>``), named by :func:`bot.bots.bot_name`."""
    return Seat(
        race_id=race_id,
        position=position,
        entrant=f"bot{number}",
        name=bot_name(number),
        bot=strategy,
    )


async def remove_bot(ctx: Context, race_id: int, by: int, entrant: str, *, manager: bool = False) -> RaceView:
    """Take a bot's seat away."""
    async with ctx.db.sessions() as session, session.begin():
        loaded = await _lobby(session, race_id)
        _may_manage(loaded, by, manager)
        seat = next((s for s in loaded.seats if s.entrant == entrant and s.bot is not None), None)
        if seat is None:
            raise Refusal.of("lobby.no_such_bot", value=entrant)
        await session.delete(seat)
        await session.flush()
        return (await load(session, race_id)).view()


async def start(
    ctx: Context, race_id: int, by: int, *, manager: bool = False, seed: int | None = None
) -> list[Happening]:
    """Start the race: seats fixed (the rule system's default bot seats added when nobody seated a bot),
    seed drawn, opening events stored, first step opened (and resolved at once if only bots are awaited)."""
    async with ctx.db.sessions() as session:
        loaded = await _lobby(session, race_id)
        _may_manage(loaded, by, manager)
    race = loaded.race
    entrants = stepping.seats_at_start(race.ruleset, [(s.entrant, s.name, s.bot) for s in loaded.seats], race.options)
    seed = seed if seed is not None else secrets.randbelow(2**31)
    spec = stepping.Spec(race.ruleset, tuple(entrants), seed, race.stage, dict(race.options))
    try:
        opened = await ctx.workers.run(stepping.start, spec)
    except stepping.StartError as exc:
        raise Refusal.of("lobby.cannot_start", reason=str(exc)) from None
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        moved = await session.execute(
            update(RaceRow)
            .where(col(RaceRow.id) == race_id, col(RaceRow.status) == "lobby")
            .values(
                status="running",
                seed=seed,
                step=1,
                state=opened.state,
                state_format=opened.state_format,
                awaiting=[] if opened.next.finished else opened.next.entrants,
                started_at=now,
            )
        )
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            raise closed("running")
        known = {s.entrant for s in loaded.seats}
        for position, (entrant, name, bot) in enumerate(entrants):
            if entrant not in known:
                session.add(Seat(race_id=race_id, position=position, entrant=entrant, name=name, bot=bot))
            else:
                await session.execute(
                    update(Seat)
                    .where(col(Seat.race_id) == race_id, col(Seat.entrant) == entrant)
                    .values(position=position)
                )
        session.add(StepEvents(race_id=race_id, step=0, events=opened.events, resolved_at=now))
        await session.execute(delete(Job).where(col(Job.race_id) == race_id, col(Job.kind) == resolution.LOBBY_TIMEOUT))
        await session.flush()
        fresh = await load(session, race_id)
        happened, deadline = await resolution.open_step(ctx, session, fresh, 1, opened.next, now)
        owed.race_started(session, fresh, opened.next, deadline, now)  # what Discord is owed
    journal.started(race_id, race.server_id, len(entrants), sum(1 for *_, bot in entrants if bot))
    started: list[Happening] = [
        RaceStarted(race_id, opened.events, opened.next.entrants, deadline, opened.next.progress),
        *happened,
    ]
    return started + await resolution.resolve_if_ready(ctx, race_id)


async def cancel(
    ctx: Context, race_id: int, by: int | None, *, manager: bool = False, reason: str = "cancelled"
) -> RaceCancelled:
    """Cancel a lobby or a running race (``by=None``: the scheduler's lobby timeout)."""
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        loaded = await load(session, race_id)
        if by is not None:
            _may_manage(loaded, by, manager)
        if loaded.race.status not in ("lobby", "running"):
            raise closed(loaded.race.status)
        under_way = loaded.race.status == "running"  # read before the update below refreshes the row
        moved = await session.execute(
            update(RaceRow)
            .where(
                col(RaceRow.id) == race_id,
                col(RaceRow.status) == loaded.race.status,
                col(RaceRow.step) == loaded.race.step,
            )
            .values(status="cancelled", finished_at=now, awaiting=[])
        )
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            raise Refusal.of("race.busy")
        await session.execute(delete(Job).where(col(Job.race_id) == race_id))
        owed.lobby_changed(session, race_id, reason, now)
        if under_way:  # the players are told, their panels closed, the thread archived
            owed.race_cancelled(session, loaded, now)
    journal.cancelled(race_id, loaded.race.server_id, reason)
    return RaceCancelled(race_id, reason)


async def _rematch_lobby(ctx: Context, race_id: int) -> int | None:
    async with ctx.db.sessions() as session:
        found = await session.execute(select(col(RaceRow.id)).where(col(RaceRow.rematch_of) == race_id))
        return found.scalar_one_or_none()


async def rematch(ctx: Context, race_id: int, member: MemberRef) -> tuple[RaceView, bool]:
    """Rematch of a finished race: the first press opens one lobby with the same seats (the presser opens
    it), every later press joins that lobby (True: this press opened it). One lobby per race however the
    presses race, in one process or two: ``races.rematch_of`` is unique, so the losing insert fails and
    its presser joins the winner's lobby."""
    async with ctx.db.sessions() as session:
        old = await load(session, race_id)
    if old.seat_of(member.user_id) is None:
        raise Refusal.of("order.not_seated")
    if await _rematch_lobby(ctx, race_id) is None:
        race = old.race
        others = [
            MemberRef(member.server_id, s.user_id, s.name)
            for s in old.seats
            if s.user_id is not None and s.user_id != member.user_id and s.bot is None
        ]
        stage, stage_name = await boards.stage_again(ctx, race_id)
        try:
            fresh = await open_lobby(
                ctx,
                member,
                race.channel_id,
                race.ruleset,
                stage=stage,
                stage_name=stage_name,
                pace=Pace(race.pace, race.pace_seconds),
                rematch_of=race_id,
                others=others,
                bot_seats=[s.bot for s in old.seats if s.bot is not None],
            )
            return fresh, True
        except IntegrityError:
            pass  # another press opened it meanwhile: join it
    found = await _rematch_lobby(ctx, race_id)
    if found is None:
        raise Refusal.of("race.busy")
    current = await view(ctx, found)
    if any(s.user_id == member.user_id for s in current.seats):
        return current, False
    return await join(ctx, found, member, edit_lobby=True), False


async def view(ctx: Context, race_id: int) -> RaceView:
    """The race as it stands."""
    async with ctx.db.sessions() as session:
        return (await load(session, race_id)).view()

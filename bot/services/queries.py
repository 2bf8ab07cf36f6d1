"""Reads the services share: a race with its seats, as rows and as the engine's :class:`Spec`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.services.outcomes import RaceView, Refusal, SeatView
from bot.services.stepping import Spec, Stored, player_limits
from bot.store.tables import OrderRow, RaceRow, Seat


@dataclass
class Loaded:
    race: RaceRow
    seats: list[Seat]

    @property
    def spec(self) -> Spec:
        assert self.race.seed is not None, "a race has a seed once started"
        return Spec(
            ruleset=self.race.ruleset,
            entrants=tuple((s.entrant, s.name, s.bot) for s in self.seats),
            seed=self.race.seed,
            stage=self.race.stage,
            options=dict(self.race.options),
        )

    @property
    def gone(self) -> tuple[str, ...]:
        """The entrants whose member left the race under way: nobody waits for them any more."""
        return tuple(s.entrant for s in self.seats if s.left_at_step is not None)

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def view(self) -> RaceView:
        r = self.race
        assert r.id is not None
        return RaceView(
            race_id=r.id,
            server_id=r.server_id,
            channel_id=r.channel_id,
            opener_id=r.opener_id,
            ruleset=r.ruleset,
            status=r.status,
            pace=r.pace,
            pace_seconds=r.pace_seconds,
            step=r.step,
            seats=[SeatView(s.entrant, s.name, s.user_id, s.bot, s.left_at_step) for s in self.seats],
            awaiting=[e for e in r.awaiting or [] if e not in self.gone],
            most_seats=player_limits(r.ruleset, r.stage, r.options)[1],
        )


async def load(session: AsyncSession, race_id: int) -> Loaded:
    """The race and its seats, or a refusal saying there is no such race."""
    race = await session.get(RaceRow, race_id)
    if race is None:
        raise Refusal.of("race.not_found", race=race_id)
    rows = await session.execute(select(Seat).where(col(Seat.race_id) == race_id).order_by(col(Seat.position)))
    return Loaded(race, list(rows.scalars()))


async def step_orders(session: AsyncSession, race_id: int, step: int) -> dict[str, OrderRow]:
    rows = await session.execute(select(OrderRow).where(col(OrderRow.race_id) == race_id, col(OrderRow.step) == step))
    return {o.entrant: o for o in rows.scalars()}


def utc(when: datetime) -> datetime:
    """A time read back from the database, in UTC (SQLite hands back naive times)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def stored(order: OrderRow) -> Stored:
    return Stored(dict(order.body), order.complete, order.by, iso(order.received_at))


def iso(when: datetime) -> str:
    return utc(when).isoformat().replace("+00:00", "Z")


def rowcount(result: object) -> int:
    """How many rows an UPDATE touched (the compare-and-set's answer)."""
    return int(getattr(result, "rowcount", 0))


async def bump_orders(session: AsyncSession, race_id: int, step: int, rev: int) -> bool:
    """The guard of every change to a step's orders: move ``orders_rev`` on, only if the race is still running
    at ``step`` with ``rev`` (a resolution computed from older orders then does not commit). False: another
    order or the resolution came first."""
    bumped = await session.execute(
        update(RaceRow)
        .where(
            col(RaceRow.id) == race_id,
            col(RaceRow.step) == step,
            col(RaceRow.orders_rev) == rev,
            col(RaceRow.status) == "running",
        )
        .values(orders_rev=rev + 1)
    )
    return rowcount(bumped) == 1

"""The tables of Gregario's database, one class each (SQLModel over SQLAlchemy).

A race row holds everything needed to carry on after a restart: its rule system, the stage copied in
(a preset renamed later does not change a race in progress), options, seed, status, pace, the number
of the step it awaits now (``step``, the compare-and-set guard of every resolution) and the engine's
state dump with its format. The record of a race is rebuilt from ``seats`` and ``orders``; ``step_events``
keep what each step told; ``jobs`` are the scheduler's deadlines, reminders, announcements and lobby
timeouts. Times are UTC.

The migrations in ``bot/store/migrations`` create exactly these tables; a test compares them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlmodel import Field, SQLModel

from bot.store.schema import metadata as metadata  # re-exported: migrations and tests read ``tables.metadata``
from bot.store.schema import time_column as _time


def _race_fk(primary_key: bool = False) -> Any:
    return Field(
        sa_column=Column(Integer, ForeignKey("races.id", ondelete="CASCADE"), nullable=False, primary_key=primary_key)
    )


class Server(SQLModel, table=True):
    """A Discord server (guild) that has used the bot."""

    __tablename__ = "servers"

    id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    created_at: datetime = _time()


class Member(SQLModel, table=True):
    """A person on a server, with the locale Discord last reported for them (for DMs without an interaction)."""

    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("server_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    server_id: int = Field(sa_column=Column(BigInteger, ForeignKey("servers.id", ondelete="CASCADE"), nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    name: str
    locale: str | None = None
    seen_at: datetime = _time()


class RaceRow(SQLModel, table=True):
    """A race, from its lobby to its result."""

    __tablename__ = "races"
    __table_args__ = (
        Index(None, "status", "owner"),
        Index(None, "server_id", "status"),
        UniqueConstraint("rematch_of"),
    )

    id: int | None = Field(default=None, primary_key=True)
    server_id: int = Field(sa_column=Column(BigInteger, ForeignKey("servers.id", ondelete="CASCADE"), nullable=False))
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    opener_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    """The member who opened the lobby (may start, cancel and seat bots)."""
    owner: str
    """The process that resolves this race's steps, posts and runs its deadlines (its server's shard)."""
    ruleset: str
    stage: Any = Field(default=None, sa_column=Column(JSON, nullable=True))
    """The stage copied into the race: a preset's (or the default stage's) explicit data, so a preset
    changed in a later release never changes how the race replays."""
    stage_name: str | None = None
    """The preset the race was opened on, for display and the league (None: the default or a custom stage)."""
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    status: str = "lobby"
    """``lobby``, ``running``, ``finished`` or ``cancelled``."""
    pace: str
    """``live``, ``fast``, ``daily`` or ``custom``."""
    pace_seconds: int
    step: int = 0
    """The step awaited now (1 = the first); 0 before the start. Every resolution is a compare-and-set on it."""
    awaiting: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    """The entrants the current step waits for (bots included), so readiness is a query, not an engine call."""
    orders_rev: int = 0
    """Bumped by every stored order, so a resolution computed from older orders does not commit."""
    state: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    state_format: str | None = None
    created_at: datetime = _time()
    started_at: datetime | None = _time(nullable=True)
    finished_at: datetime | None = _time(nullable=True)
    rematch_of: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("races.id", ondelete="SET NULL"), nullable=True)
    )
    """The finished race this lobby is the rematch of: unique, so two Rematch presses open one lobby (the
    second insert fails in the database and joins the first, whichever process took them)."""


class Seat(SQLModel, table=True):
    """A seat of a race: a member, or a bot named by its strategy. Fixed at the start."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("race_id", "entrant"), UniqueConstraint("race_id", "user_id"))

    id: int | None = Field(default=None, primary_key=True)
    race_id: int = _race_fk()
    position: int
    entrant: str
    """The entrant id the engine knows (``u<user id>`` for a member, ``bot<n>`` for a bot)."""
    name: str
    user_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    bot: str | None = None
    left_at_step: int | None = None
    """The step during which the member left the race under way (``/race leave``): from it on, every order
    of the seat they did not complete is the automatic one, played at once (R-SVC-5). None: still riding."""


class OrderRow(SQLModel, table=True):
    """An entrant's order for one step, as recorded: by a player, by a bot, or automatic for an absent player."""

    __tablename__ = "orders"
    __table_args__ = (UniqueConstraint("race_id", "step", "entrant"),)

    id: int | None = Field(default=None, primary_key=True)
    race_id: int = _race_fk()
    step: int
    entrant: str
    body: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    """The order without bookkeeping keys (``by``, ``auto``, ``received_at`` are columns)."""
    complete: bool = True
    by: str = "player"
    """``player``, ``bot`` or ``auto`` (completed by the rules for an absent player)."""
    received_at: datetime = _time()


class StepEvents(SQLModel, table=True):
    """What one step told (step 0: the opening of the race)."""

    __tablename__ = "step_events"

    race_id: int = _race_fk(primary_key=True)
    step: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    events: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    resolved_at: datetime = _time()


class AnnouncementRow(SQLModel, table=True):
    """News a finished race holds back (Tabella's Gazzetta), when it is due and what it said."""

    __tablename__ = "announcements"
    __table_args__ = (UniqueConstraint("race_id", "kind"),)

    id: int | None = Field(default=None, primary_key=True)
    race_id: int = _race_fk()
    kind: str
    due_at: datetime = _time()
    published_at: datetime | None = _time(nullable=True)
    events: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class ResultRow(SQLModel, table=True):
    """The standings of a finished race (provisional until its announcement is published)."""

    __tablename__ = "results"

    race_id: int = _race_fk(primary_key=True)
    provisional: bool = False
    standings: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime = _time()


class PostedMessage(SQLModel, table=True):
    """A message the bot posted for a race (the ledger): what it is (``kind``, a
    :class:`bot.store.ledger.PostKind`), for which step and member, and its Discord ids. Laps of turns
    keep their lap key in ``lap``. Read and written through :mod:`bot.store.ledger`."""

    __tablename__ = "posted_messages"
    __table_args__ = (Index(None, "race_id", "step"),)

    id: int | None = Field(default=None, primary_key=True)
    race_id: int = _race_fk()
    step: int
    kind: str = Field(sa_column=Column(String, nullable=False))
    member: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    """The member the message is for (a DM panel, closed DMs); None: the race's channel."""
    lap: str | None = None
    """A lap message's lap key ("<number>:<lap>"), or, where a lap closed, the key of the lap that comes next."""
    channel_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    message_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    posted_at: datetime = _time()


class OutboxRow(SQLModel, table=True):
    """Something the bot owes to Discord for a race, written in the transaction of the change that causes
    it and delivered once by the dispatcher (:mod:`bot.services.dispatch`), oldest first per race.

    ``kind`` is a :class:`bot.store.outbox.OwedKind`; ``payload`` holds only what rendering needs beyond
    the database (which step, who was awaited, the result as it stood), never rendered text, so a row
    delivered after a restart reads as it would have. ``claimed_by``/``claimed_until`` are a lease: while
    one dispatcher delivers a race's oldest row, no other delivers anything of that race."""

    __tablename__ = "outbox"
    __table_args__ = (Index(None, "race_id", "done_at"), Index(None, "done_at", "id"))

    id: int | None = Field(default=None, primary_key=True)
    race_id: int = _race_fk()
    kind: str = Field(sa_column=Column(String, nullable=False))
    step: int = 0
    recipient: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    """The member a DM goes to; None: the race's channel."""
    nonce: str = Field(sa_column=Column(String(25), nullable=False))
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = _time()
    done_at: datetime | None = _time(nullable=True)
    """Delivered or given up: nothing more to do (``delivered`` says which)."""
    delivered: bool = False
    outcome: str | None = None
    """Why a row was given up on, or how it ended when not by a message (``dms_closed``, ``moot``)."""
    channel_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    attempts: int = 0
    retry_at: datetime | None = _time(nullable=True)
    """A transient failure: not before then."""
    claimed_by: str | None = None
    claimed_until: datetime | None = _time(nullable=True)


class Job(SQLModel, table=True):
    """Something the scheduler must do at ``due_at``: a deadline, a reminder, an announcement, a lobby timeout.

    A job is deleted once it is moot (its step resolved, its race started or cancelled); ``done_at`` marks
    one that ran (a reminder is marked done before it is sent, so it goes out at most once). Any process
    runs a due job, whoever ``owner`` is: ``claimed_by``/``claimed_until`` are the lease of the process
    running it (one at a time; a claim of a process that died lapses and another takes the job)."""

    __tablename__ = "jobs"
    __table_args__ = (
        UniqueConstraint("race_id", "kind", "step"),
        Index(None, "owner", "done_at", "due_at"),
        Index(None, "done_at", "due_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    race_id: int = _race_fk()
    kind: str
    step: int
    owner: str
    due_at: datetime = _time()
    done_at: datetime | None = _time(nullable=True)
    claimed_by: str | None = None
    claimed_until: datetime | None = _time(nullable=True)


# --- i17: server admins (saved stages and per-server settings) ------------------------------------


class ServerSettingsRow(SQLModel, table=True):
    """A server's settings that differ from their defaults (``bot.services.server_settings`` declares
    them all once, with their defaults; a setting put back to its default is removed from ``values``)."""

    __tablename__ = "server_settings"

    server_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    values: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    updated_at: datetime = _time()


class SavedStage(SQLModel, table=True):
    """A stage an admin designed and saved for their server, in one rule system's own terms.

    A race copies the stage data into its own row, so editing or deleting a saved stage never changes
    a race under way."""

    __tablename__ = "saved_stages"
    __table_args__ = (UniqueConstraint("server_id", "ruleset", "folded"),)

    id: int | None = Field(default=None, primary_key=True)
    server_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    ruleset: str
    name: str
    folded: str
    """``name`` case-folded with spaces collapsed: two stages of one rule system never differ only by case."""
    stage: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    """Rule variants that belong with the ground (Flamme Rouge's Meteo, Mind Cycling's lanes), checked by the
    rule system's options model; a race opened on the stage starts from them."""
    created_by: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = _time()
    updated_at: datetime = _time()


# --- i25: one process at a time ------------------------------------------------------------------


class ProcessLease(SQLModel, table=True):
    """Who runs the races of this database (``name``: the owner, ``main`` for one process): a process
    holds the lease while it runs, renews it with a heartbeat, and releases it when it stops; a lease
    past ``expires_at`` (its holder died or lost the database) may be taken over."""

    __tablename__ = "process_leases"

    name: str = Field(primary_key=True)
    holder: str
    """A random id of the holding process (pids repeat, across hosts and restarts)."""
    host: str
    pid: int
    since: datetime = _time()
    heartbeat_at: datetime = _time()
    expires_at: datetime = _time()

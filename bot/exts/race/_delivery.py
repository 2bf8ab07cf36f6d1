"""Delivery: an outbox row becomes one Discord call (or a few edits), rendered now from stored data.

:class:`Deliverer` is what :class:`bot.services.dispatch.Dispatcher` calls for each row. It renders in
the reader's language (the channel's for public posts, each player's own for their DMs) from the
database and the row's payload, so a row delivered after a restart reads as it would have. Every create
carries the row's nonce with ``enforce_nonce``; edits are idempotent. Discord's answers become a
:class:`~bot.store.outbox.Delivery` (message ids and ledger entries) or a
:class:`~bot.services.dispatch.DeliveryFailed` (5xx and network errors are transient; a 404 on an edit,
closed DMs or any other refusal are permanent and recorded).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import logging
from typing import Any, Literal

import aiohttp
import discord

from bot import pacing
from bot.catalogue import MESSAGE_LIMIT
from bot.exts.race import _audience, _layout, _lobby, _panel, _posts
from bot.exts.race._components import PanelButton, RematchButton
from bot.exts.race._text import clip, counter, events_text, stamp, standings_text, told, told_whole
from bot.i18n import t
from bot.render.files import board_file, result_file
from bot.services import boards, league, orders, owed, posts, resolution, server_settings
from bot.services.context import Context
from bot.services.dispatch import DeliveryFailed
from bot.services.outcomes import RaceView, Refusal
from bot.services.owed import Closing, Final, Told, Turn
from bot.store.ledger import NewPost, Post, PostKind
from bot.store.outbox import Delivery, NewOwed, Owed, OwedKind, rank
from engine.registry import get_ruleset
from engine.ruleset import PROGRESS_KEY

_log = logging.getLogger(__name__)

LOG_MARGIN = 200
"""A round post whose events come this close to its room offers the Full log (its headline and tail vary)."""

MOOT = Delivery(outcome="moot")
"""Nothing to deliver any more (a panel for a step already resolved, a post already made)."""


def lap_key(marker: dict[str, Any]) -> str:
    """Which lap a progress marker is in: its number (round or stage) and its lap."""
    return f"{marker.get('number')}:{marker.get('lap')}"


async def lobby_content(client: discord.Client, ctx: Context, race: RaceView) -> tuple[str, discord.ui.View]:
    """The lobby, a public message: in the channel's language, whoever clicked. Once the race started it
    is the race's header: the round, the leader and the link to the race's thread."""
    stage = await boards.stage_of(ctx, race.race_id)
    locale = await _audience.channel_locale(client, ctx, race)
    left = {s.left_at_step for s in race.seats if s.left_at_step is not None}
    markers = {step: await owed.progress_before(ctx, race.race_id, step) for step in left}
    header = None
    if race.status != "lobby":
        place = await owed.place(ctx, race)
        now = await owed.standing(ctx, race.race_id)
        leader = _audience.names(race).get(now.leader) if now is not None and now.leader else None
        header = _lobby.Header(place.thread_id, place.refused, now.marker if now else None, leader)
    return _lobby.render(race, stage, locale, await owed.closed_dms(ctx, race.race_id), markers, header)


THREAD_NAME_LIMIT = 100
"""Discord's longest thread name."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A race's thread stays open a week without posts (a daily race's round); the bot archives it at the end."""
LOBBY_WAITS = 3
"""Times the thread's opening waits for its lobby message to be recorded (retried after 1, 2, 4 s)."""
THREAD_ALREADY_CREATED = 160004
"""Discord's code for a message that already started a thread."""
THREAD_ARCHIVED = 50083
"""Discord's code for an operation on an archived thread (archiving it again)."""


def copy_nonce(nonce: str) -> str:
    """The nonce of a post's copy in the race's thread (the final post): another message, another nonce."""
    return "c" + hashlib.sha256(nonce.encode()).hexdigest()[:24]


async def _copies(files: list[discord.File]) -> list[bytes]:
    """The bytes of files to send twice (a ``discord.File`` is read by the first send)."""
    read = []
    for file in files:
        file.fp.seek(0)
        read.append(file.fp.read())
    return read


def closed_panel(race: RaceView, step: int, closing: Closing, locale: str | None) -> discord.ui.LayoutView:
    """A resolved step's panel as it stays in the player's DMs: a one-line receipt with no components
    (R-DC-6): the step's title and what was played (an order the rules completed at the deadline told as
    automatic, in the labels of the decision that was asked). The next decision comes as a new message."""
    played = closing.played
    if played is not None and played.auto:
        said = t("race.panel.automatic", locale, order=told(closing.asked, locale) or "…")
    elif played is not None:
        said = t("race.panel.played", locale)
    else:
        said = t("race.panel.closed", locale)
    text = clip(f"**{_audience.title(race, locale, closing.before)}** · {said}", MESSAGE_LIMIT)
    return _layout.receipt(text, accent=_layout.race_accent(race.race_id))


def _header_edit(step: int, last: bool) -> list[NewOwed]:
    """The lobby's edit a told step owes (the header's round and leader), except the start's and the last
    step's, which the race's start and end owe already."""
    return [NewOwed(OwedKind.LOBBY_EDIT, 0, None, {"why": "step"})] if step and not last else []


class Deliverer:
    """Delivers outbox rows for one bot (the dispatcher's ``deliver``)."""

    def __init__(self, client: discord.Client, ctx: Context) -> None:
        self.client = client
        self.ctx = ctx
        self.riders = _audience.Riders(ctx)

    async def __call__(self, row: Owed) -> Delivery:
        try:
            with pacing.urgency(rank(row.kind)):  # past the bot's pace, a panel waits least
                return await self._deliver(row)
        except discord.NotFound as exc:
            raise DeliveryFailed(f"not found ({exc.code})", permanent=True) from None
        except discord.DiscordServerError as exc:
            raise DeliveryFailed(f"Discord {exc.status}", permanent=False) from None
        except discord.HTTPException as exc:
            raise DeliveryFailed(f"Discord {exc.status} ({exc.code})", permanent=exc.status != 429) from None
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            raise DeliveryFailed(f"network: {type(exc).__name__}", permanent=False) from None
        except Refusal as refusal:  # the race is gone
            raise DeliveryFailed(f"refused: {refusal.key}", permanent=True) from None

    async def _deliver(self, row: Owed) -> Delivery:
        kind = row.kind
        if kind not in (OwedKind.CLOSE_PANEL, OwedKind.LOBBY_EDIT):  # a create (or may be): its nonce
            row = dataclasses.replace(row, nonce=await owed.nonce_of(self.ctx, row))
        if kind in (OwedKind.OPEN_PANEL, OwedKind.REOPEN_PANEL):
            return await self._open_panel(row)
        if kind is OwedKind.RESUMED:
            return await self._resumed(row)
        if kind is OwedKind.CLOSE_PANEL:
            return await self._close_panels(row)
        if kind in (OwedKind.STEP_POST, OwedKind.LAP_TURN):
            return await self._tell(row)
        if kind in (OwedKind.FINAL_POST, OwedKind.NEWS_POST):
            return await self._final_post(row)
        if kind is OwedKind.LOBBY_EDIT:
            return await self._edit_lobby(row)
        if kind is OwedKind.REMINDER:
            return await self._remind(row)
        if kind is OwedKind.CLOSING_LINE:
            return await self._closing_line(row)
        if kind is OwedKind.STAGE_POST:
            return await self._stage_post(row)
        if kind is OwedKind.OPEN_THREAD:
            return await self._open_thread(row)
        if kind is OwedKind.ARCHIVE_THREAD:
            return await self._archive_thread(row)
        if kind is OwedKind.RACE_CANCELLED:
            return await self._cancelled(row)
        raise DeliveryFailed(f"unknown kind {kind}", permanent=True)

    # --- the lobby ------------------------------------------------------------------------------------
    async def _edit_lobby(self, row: Owed) -> Delivery:
        """Bring the lobby message up to date (seats, DMs closed, running/finished/cancelled). A later
        edit owed for the race makes this one moot: it shows the race as it is then (a backlog of steps
        told after a restart edits the header once, not once per step, Discord's edit limit spared)."""
        stored = [p for p in await owed.posts(self.ctx, row.race_id, 0) if p.kind is PostKind.LOBBY]
        if not stored or await owed.superseded(self.ctx, row):
            return MOOT
        race = await owed.view(self.ctx, row.race_id)
        content, view = await lobby_content(self.client, self.ctx, race)
        await _posts.edit(self.client, stored[0].channel_id, stored[0].message_id, content, view)
        return Delivery(stored[0].channel_id, stored[0].message_id)

    async def _resumed(self, row: Owed) -> Delivery:
        """After a restore: the race's channel told that the race resumed from an earlier point, the round
        it is at now, and until when the players may send their orders again (R-SVC-6)."""
        race = await owed.view(self.ctx, row.race_id)
        if race.status != "running" or race.step != row.step:
            return MOOT  # moved on (or ended) since: what it says is no longer so
        locale = await _audience.channel_locale(self.client, self.ctx, race)
        marker = await owed.progress_before(self.ctx, race.race_id, row.step)
        deadline = await boards.deadline(self.ctx, race.race_id, row.step)
        lines = [
            t(
                "race.resumed",
                locale,
                ruleset=get_ruleset(race.ruleset).name,
                race=race.race_id,
                counter=counter(marker, locale),
            )
        ]
        if deadline is not None:
            lines.append(t("race.panel.deadline", locale, when=stamp(deadline)))
        where = (await owed.place(self.ctx, race)).posts_to  # the race's thread, or its channel
        message_id = await _posts.send(self.client, where, "\n".join(lines), nonce=row.nonce)
        return Delivery(where, message_id, posts=[NewPost(row.step, PostKind.RESUMED, where, message_id)])

    # --- the race's thread -----------------------------------------------------------------------------
    async def _open_thread(self, row: Owed) -> Delivery:
        """Open the race's public thread from its lobby message, named after the race, where its posts go.

        Crash-safe without a nonce: Discord gives a thread started from a message the message's id, and a
        message starts one thread only (160004), so a delivery cut off after the thread was made (its id
        never stored) finds the thread again as the lobby message's id rather than making a second one.
        Where the bot may not open threads (403) the race is posted in the channel, which the lobby says
        once; a server that chose the channel in ``/settings`` gets no thread and no such line."""
        stored = await owed.posts(self.ctx, row.race_id, 0)
        if any(p.kind in (PostKind.THREAD, PostKind.THREAD_REFUSED) for p in stored):
            return MOOT
        lobby = next((p for p in stored if p.kind is PostKind.LOBBY), None)
        if lobby is None and row.attempts < LOBBY_WAITS:
            # Start pressed before the lobby's answer was recorded (the soak's people are that quick):
            # the race's posts wait a few seconds for it rather than go to the channel for good.
            raise DeliveryFailed("the lobby message is not recorded yet", permanent=False)
        if lobby is None:
            return MOOT  # no lobby message to start it from (lost in a crash): the race is posted in its channel
        race = await owed.view(self.ctx, row.race_id)
        if (await server_settings.get_settings(self.ctx, race.server_id)).race_posts == "channel":
            return Delivery(outcome="channel")
        locale = await _audience.channel_locale(self.client, self.ctx, race)
        stage = _lobby.stage_name(await boards.stage_of(self.ctx, race.race_id), race.ruleset, locale)
        ruleset = get_ruleset(race.ruleset).name
        name = clip(t("race.thread.name", locale, ruleset=ruleset, race=race.race_id, stage=stage), THREAD_NAME_LIMIT)
        try:
            data: Any = await self.client.http.start_thread_with_message(
                lobby.channel_id, lobby.message_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            thread_id = int(data["id"])
        except discord.Forbidden as exc:
            _log.info(
                "race %s: may not open a thread in %s (%s); posting in the channel",
                race.race_id,
                lobby.channel_id,
                exc.code,
            )
            return Delivery(outcome="threads_refused", posts=[NewPost(0, PostKind.THREAD_REFUSED, 0, 0)])
        except discord.HTTPException as exc:
            if exc.code != THREAD_ALREADY_CREATED:
                raise
            thread_id = lobby.message_id  # made before a crash cut the answer off: it has the message's id
        return Delivery(thread_id, thread_id, posts=[NewPost(0, PostKind.THREAD, thread_id, thread_id)])

    async def _archive_thread(self, row: Owed) -> Delivery:
        """Archive the race's thread once the race ended (a cancelled race says so in it first). Archiving
        an archived thread (a delivery cut off after the archive) counts as done."""
        race = await owed.view(self.ctx, row.race_id)
        place = await owed.place(self.ctx, race)
        if place.thread_id is None:
            return MOOT
        if row.payload.get("why") == "cancelled":
            locale = await _audience.channel_locale(self.client, self.ctx, race)
            text = t("race.thread.cancelled", locale, ruleset=get_ruleset(race.ruleset).name, race=race.race_id)
            await _posts.send(self.client, place.thread_id, text, nonce=row.nonce)
        try:
            await self.client.http.edit_channel(place.thread_id, archived=True)
        except discord.Forbidden as exc:  # no Manage Threads: Discord archives it after a week without posts
            _log.info("race %s: may not archive its thread (%s)", race.race_id, exc.code)
            return Delivery(outcome="archive_refused")
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
        return Delivery(place.thread_id, place.thread_id)

    async def _cancelled(self, row: Owed) -> Delivery:
        """A seated player told by DM that the race was cancelled; the panels they had open for the step
        it stopped at lose their components and say so (a closed DM is recorded, not an error)."""
        user = row.recipient
        assert user is not None
        race = await owed.view(self.ctx, row.race_id)
        locale = (await posts.locales(self.ctx, race.server_id, [user])).get(user)
        text = t("race.dm.cancelled", locale, ruleset=get_ruleset(race.ruleset).name, race=race.race_id)
        live = [
            p
            for p in await owed.posts(self.ctx, row.race_id, row.step)
            if p.kind is PostKind.PANEL and p.member == user
        ]
        if live:
            marker = await owed.progress_before(self.ctx, race.race_id, row.step)
            closed = clip(_audience.title(race, locale, marker) + "\n" + text, MESSAGE_LIMIT)
            for post in live:
                try:
                    receipt = _layout.receipt(closed, accent=_layout.race_accent(race.race_id))
                    await _posts.edit(self.client, post.channel_id, post.message_id, None, receipt)
                except discord.NotFound:
                    _log.info("race %s: a panel of step %s is gone; nothing to close", race.race_id, row.step)
        if user in await owed.closed_dms(self.ctx, row.race_id):
            return Delivery(outcome="dms_closed")
        try:
            channel_id = await _posts.dm_channel(self.client, user)
            message_id = await _posts.send(self.client, channel_id, text, nonce=row.nonce)
        except discord.Forbidden as exc:
            if not _audience.closed_dms_error(exc):
                raise
            return Delivery(outcome="dms_closed")
        return Delivery(channel_id, message_id)

    # --- panels ---------------------------------------------------------------------------------------
    async def _open_panel(self, row: Owed) -> Delivery:
        """A player's DM panel for the step just opened (a closed DM is recorded, not an error)."""
        user = row.recipient
        assert user is not None
        frame = await boards.panel_frame(self.ctx, row.race_id, row.step)
        if resolution.late(frame.race.pace_seconds, frame.deadline, self.ctx.clock.now()):
            await resolution.fair_deadline(self.ctx, row.race_id, row.step)  # the player gets the whole pace
            frame = await boards.panel_frame(self.ctx, row.race_id, row.step)
        race = frame.race
        if race.status != "running" or user in await owed.closed_dms(self.ctx, row.race_id):
            return Delivery(outcome="moot" if race.status != "running" else "dms_closed")
        try:
            panel = await orders.panel(self.ctx, race.race_id, user)
        except Refusal:
            return MOOT
        if panel.step != row.step or panel.decision is None:
            return MOOT  # resolved meanwhile, or nothing to decide
        locale = (await posts.locales(self.ctx, race.server_id, [user])).get(user)
        layout = _panel.render(
            panel,
            title=_audience.title(race, locale, frame.progress),
            locale=locale,
            deadline=frame.deadline,
            accent=_layout.race_accent(race.race_id),
        )
        try:
            channel_id = await _posts.dm_channel(self.client, user)
            message_id = await _posts.send(self.client, channel_id, None, view=layout, nonce=row.nonce)
        except discord.Forbidden as exc:
            if not _audience.closed_dms_error(exc):
                raise
            _log.info("race %s: %s has closed DMs; they order through Open my orders", race.race_id, user)
            return Delivery(
                outcome="dms_closed",
                posts=[NewPost(0, PostKind.DMS_CLOSED, 0, 0, member=user)],
                then=[NewOwed(OwedKind.LOBBY_EDIT, 0, None, {"why": "dms_closed"})],
            )
        return Delivery(channel_id, message_id, posts=[NewPost(row.step, PostKind.PANEL, channel_id, message_id, user)])

    async def _close_panels(self, row: Owed) -> Delivery:
        """Close every panel message recorded for the resolved step and this player (two, if an older
        version sent the panel twice): each becomes a one-line receipt without components, in the player's
        language. The trail stays short: the player's receipt of the step before and this step's reminder
        are deleted, so their DMs hold one receipt per race beside the live panel (R-DC-6)."""
        user = row.recipient
        assert user is not None
        stored = await owed.posts(self.ctx, row.race_id)
        mine = [p for p in stored if p.member == user]
        panels = [p for p in mine if p.kind is PostKind.PANEL and p.step == row.step]
        if not panels:
            return MOOT
        race = await owed.view(self.ctx, row.race_id)
        closing = await owed.closing(self.ctx, row.race_id, row.step, user)
        if closing is None:
            return MOOT
        locale = (await posts.locales(self.ctx, race.server_id, [user])).get(user)
        receipt = closed_panel(race, row.step, closing, locale)
        for post in panels:
            try:
                await _posts.edit(self.client, post.channel_id, post.message_id, None, receipt)
            except discord.NotFound:
                _log.info("race %s: a panel of step %s is gone; nothing to close", race.race_id, row.step)
        earlier = [p.step for p in mine if p.kind is PostKind.PANEL and p.step < row.step]
        stale = [
            p
            for p in mine
            if (p.kind is PostKind.PANEL and earlier and p.step == max(earlier))
            or (p.kind is PostKind.REMINDER and p.step == row.step)
        ]
        for post in stale:
            await _posts.delete(self.client, post.channel_id, post.message_id)
        return Delivery(panels[-1].channel_id, panels[-1].message_id)

    async def _closing_line(self, row: Owed) -> Delivery:
        """A player's last DM of the race: their place and a link to the final post (after it: the row
        comes after the final post's)."""
        user = row.recipient
        assert user is not None
        race = await owed.view(self.ctx, row.race_id)
        if user in await owed.closed_dms(self.ctx, row.race_id):
            return Delivery(outcome="dms_closed")
        final = [p for p in await owed.posts(self.ctx, row.race_id, 0) if p.kind is PostKind.FINAL]
        if not final:
            return MOOT
        link = f"https://discord.com/channels/{race.server_id}/{final[0].channel_id}/{final[0].message_id}"
        locale = (await posts.locales(self.ctx, race.server_id, [user])).get(user)
        ruleset = get_ruleset(race.ruleset).name
        place, of = row.payload.get("place"), row.payload.get("of")
        if place is not None and of:
            text = t("race.dm.closing", locale, race=race.race_id, ruleset=ruleset, place=place, of=of, link=link)
        else:
            text = t("race.dm.closing_unplaced", locale, race=race.race_id, ruleset=ruleset, link=link)
        try:
            channel_id = await _posts.dm_channel(self.client, user)
            message_id = await _posts.send(self.client, channel_id, text, nonce=row.nonce)
        except discord.Forbidden as exc:
            if not _audience.closed_dms_error(exc):
                raise
            return Delivery(outcome="dms_closed")
        return Delivery(channel_id, message_id)

    async def _remind(self, row: Owed) -> Delivery:
        user = row.recipient
        assert user is not None
        race = await owed.view(self.ctx, row.race_id)
        deadline = owed.reminder_deadline(row)
        if deadline is None or user in await owed.closed_dms(self.ctx, row.race_id):
            return MOOT
        locale = (await posts.locales(self.ctx, race.server_id, [user])).get(user)
        text = t("race.reminder", locale, race=race.race_id, when=f"<t:{int(deadline.timestamp())}:R>")
        try:
            channel_id = await _posts.dm_channel(self.client, user)
            message_id = await _posts.send(self.client, channel_id, text, nonce=row.nonce)
        except discord.Forbidden as exc:
            if not _audience.closed_dms_error(exc):
                raise
            _log.info("race %s: reminder not delivered to %s (DMs closed)", race.race_id, user)
            return Delivery(outcome="dms_closed")
        return Delivery(
            channel_id, message_id, posts=[NewPost(row.step, PostKind.REMINDER, channel_id, message_id, user)]
        )

    # --- steps told -----------------------------------------------------------------------------------
    async def _board(
        self,
        race: RaceView,
        view: dict[str, Any] | None,
        locale: str | None,
        events: list[dict[str, Any]] | None = None,
        names: dict[str, str] | None = None,
    ) -> discord.File | None:
        """The board, with the step's events drawn on it (the moves its legend names)."""
        if view is None:
            return None
        try:
            shown = names if names is not None else _audience.names(race)
            return await board_file(race.ruleset, view, events or [], locale=locale or "en", names=shown)
        except Exception:
            _log.warning("race %s: the board picture failed; the post goes out without it", race.race_id, exc_info=True)
            return None

    def _turn_lines(
        self,
        race: RaceView,
        turn: Turn,
        room: int,
        locale: str | None,
        names: dict[str, str],
        before: dict[str, Any] | None,
    ) -> list[str]:
        """A resolved step as a post tells it: headline (the counter of the round it played, ``before``),
        events (riders by their names), who was automatic (within ``room``)."""
        key = "race.post.headline" if turn.step else "race.post.started"
        ruleset = get_ruleset(race.ruleset).name
        head = t(key, locale, ruleset=ruleset, race=race.race_id, counter=counter(before, locale))
        automatic = [names.get(e, e) for e, played in turn.played.items() if played.auto]
        auto = [t("race.post.automatic", locale, names=", ".join(automatic))] if automatic else []
        # A member who left during this step: one line, from the seats (R-SVC-5).
        auto += [
            t("race.post.left", locale, name=s.name, counter=counter(before, locale))
            for s in race.seats
            if s.left_at_step == turn.step
        ]
        body = events_text(turn.events, locale, room - len(head) - sum(len(x) + 1 for x in auto) - 1, names)
        return [head, *([body] if body else []), *auto]

    def _waiting(self, told: Told, locale: str | None) -> list[str]:
        """Who the next step awaited, and by when (bots answer at once: never listed as awaited)."""
        tail = []
        bots = {s.entrant for s in told.race.seats if s.bot is not None}
        awaited = [e for e in told.awaiting if e not in bots]
        if awaited:
            names = _audience.names(told.race)
            tail.append(t("race.post.waiting", locale, names=", ".join(names.get(e, e) for e in awaited)))
            if told.deadline is not None:
                tail.append(t("race.panel.deadline", locale, when=stamp(told.deadline)))
        return tail

    async def _open_orders(self, told: Told, locale: str | None) -> list[discord.ui.Item[Any]]:
        """Open my orders, while a player with closed DMs is awaited."""
        race = told.race
        closed = await owed.closed_dms(self.ctx, race.race_id)
        seats = {s.entrant: s.user_id for s in race.seats}
        if not any(seats.get(e) in closed for e in told.awaiting):
            return []
        label = t("race.button.open_orders", locale)
        return [PanelButton("o", race.race_id, told.turn.step + 1, label, style=discord.ButtonStyle.primary)]

    async def _tell(self, row: Owed) -> Delivery:
        """One channel post per resolution (step 0: the start): headline, events, who was automatic, who
        is awaited, the board, and Open my orders while a player with closed DMs is awaited. A turn of a
        sequential system goes into its lap's message instead (:meth:`_lap_turn`)."""
        stored = await owed.posts(self.ctx, row.race_id)
        if any(p.kind is PostKind.STEP and p.step == row.step for p in stored):
            return MOOT  # told already (an older version's post)
        told = await owed.told(self.ctx, row)
        race = told.race
        board: dict[str, Any] | None = None
        marker = told.progress
        if marker is None:  # owed by a version before the outbox: the board after the step says where it was
            board = await owed.board_after(self.ctx, race.race_id, row.step)
            marker = (board or {}).get(PROGRESS_KEY) or {}
        locale = await _audience.channel_locale(self.client, self.ctx, race)
        if row.kind is OwedKind.LAP_TURN or (told.progress is None and row.step and marker.get("lap") is not None):
            return await self._lap_turn(row, told, marker, stored, locale)
        if board is None:
            board = await owed.board_after(self.ctx, race.race_id, row.step)
        names = await self.riders.names(race, locale)
        tail = self._waiting(told, locale)
        room = MESSAGE_LIMIT - sum(len(x) + 1 for x in tail)
        lines = self._turn_lines(race, told.turn, room, locale, names, told.before)
        content = clip("\n".join([*lines, *tail]), MESSAGE_LIMIT)
        buttons = await self._open_orders(told, locale)
        if not told_whole(told.turn.events, locale, room - LOG_MARGIN, names):
            # The post summarised: the whole log one click away.
            buttons.append(PanelButton("e", race.race_id, row.step, t("race.button.full_log", locale)))
        # The picture is titled with the round the post tells (its moves drawn), as the headline is.
        shown = {**board, PROGRESS_KEY: told.before} if board is not None and told.before else board
        picture = await self._board(race, shown, locale, told.turn.events, names)
        layout = _layout.post(content, accent=_layout.race_accent(race.race_id), picture=picture, buttons=buttons)
        where = owed.place_of(race, stored).posts_to  # the race's thread, or its channel
        message_id = await _posts.send(
            self.client, where, None, view=layout, files=[picture] if picture else [], nonce=row.nonce
        )
        entries = [NewPost(row.step, PostKind.STEP, where, message_id)]
        if marker.get("lap") is not None:
            # The first lap starts after the start post: remember which lap the next turn belongs to.
            entries.append(NewPost(row.step, PostKind.LAP_DONE, 0, message_id, lap=lap_key(marker)))
        return Delivery(where, message_id, posts=entries, then=_header_edit(row.step, told.last))

    async def _lap_turn(
        self, row: Owed, told: Told, marker: dict[str, Any], stored: list[Post], locale: str | None
    ) -> Delivery:
        """A turn of a sequential system: appended to its lap's message (edited), or the first of a new
        lap (posted). The turn's own marker (after it) tells whether the lap is complete: once its lap (or
        stage) number moves on, the message is closed and the next turn starts a new one. Nothing is kept
        in memory: the lap's message (a ``LAP`` entry at its first step, with its key), which steps it
        tells (their ``STEP`` entries carry its message id) and where a lap closed (``LAP_DONE``, with the
        next lap's key, at its last step) are all in the ledger, so a restart continues editing the same
        message. The board picture comes with the edit that closes the lap (R-DC-7: the lap's picture, not
        every turn's); the edits before it change the text only."""
        race, step = told.race, row.step
        laps = [p for p in stored if p.kind is PostKind.LAP]
        done = [p for p in stored if p.kind is PostKind.LAP_DONE]
        latest_done = max(done, key=lambda p: p.step) if done else None
        current = laps[-1] if laps and (latest_done is None or latest_done.step < laps[-1].step) else None
        now = lap_key(marker)
        pending = (latest_done.lap or now) if latest_done is not None else now
        key = (current.lap or now) if current is not None else pending
        closing = now != key or told.last  # the race's last turn closes its lap
        tail = self._waiting(told, locale)
        buttons = await self._open_orders(told, locale)
        turns = [told.turn]
        if current is not None:
            earlier = [p.step for p in stored if p.kind is PostKind.STEP and p.message_id == current.message_id]
            turns = [*await owed.turns(self.ctx, race.race_id, earlier), told.turn]
        room = (MESSAGE_LIMIT - sum(len(x) + 1 for x in tail)) // len(turns)
        names = await self.riders.names(race, locale)
        lines: list[str] = []
        told_lap: dict[str, Any] | None = None  # the marker of the lap's first turn: the lap this message tells
        for turn in turns:
            before = told.before if turn.step == step else await owed.progress_before(self.ctx, race.race_id, turn.step)
            told_lap = before if told_lap is None else told_lap
            said = self._turn_lines(race, turn, room, locale, names, before)
            lines.extend(said if not lines or said[0] not in lines else said[1:])  # one headline per lap
        content = clip("\n".join([*lines, *tail]), MESSAGE_LIMIT)
        picture = None
        if closing:  # the board comes with the lap's closing edit: the lap's picture, not every turn's
            board = await owed.board_after(self.ctx, race.race_id, step)
            # Titled with the lap the message tells, by the counter of its headline (not the lap after it).
            shown = {**board, PROGRESS_KEY: told_lap} if board is not None and told_lap else board
            picture = await self._board(race, shown, locale, told.turn.events, names)
        entries: list[NewPost] = []
        layout = _layout.post(content, accent=_layout.race_accent(race.race_id), picture=picture, buttons=buttons)
        files = [picture] if picture else []
        if current is None:
            channel_id = owed.place_of(race, stored).posts_to  # the race's thread, or its channel
            message_id = await _posts.send(self.client, channel_id, None, view=layout, files=files, nonce=row.nonce)
            entries.append(NewPost(step, PostKind.LAP, channel_id, message_id, lap=key))
        else:
            channel_id, message_id = current.channel_id, current.message_id
            await _posts.edit(self.client, channel_id, message_id, None, layout, files=files)
        entries.append(NewPost(step, PostKind.STEP, channel_id, message_id))
        if closing:
            entries.append(NewPost(step, PostKind.LAP_DONE, 0, message_id, lap=now))
        then = _header_edit(step, told.last) if closing else []
        return Delivery(channel_id, message_id, posts=entries, then=then)

    async def _stage_post(self, row: Owed) -> Delivery:
        """A stage's summary once its last lap is told: the standings as they stand after it, in the
        system's own figures (the general classification of a Wyścig race)."""
        stored = await owed.posts(self.ctx, row.race_id, row.step)
        if any(p.kind is PostKind.STAGE for p in stored):
            return MOOT
        race = await owed.view(self.ctx, row.race_id)
        locale = await _audience.channel_locale(self.client, self.ctx, race)
        names = await self.riders.names(race, locale)
        result = await owed.result_after(self.ctx, race.race_id, row.step)
        standings = [s.model_dump(mode="json") for s in result.standings]
        columns = [c.model_dump(mode="json") for c in result.columns]
        marker = dict(row.payload.get("marker") or {})
        head = t(
            "race.post.stage_over",
            locale,
            ruleset=get_ruleset(race.ruleset).name,
            race=race.race_id,
            counter=counter(marker, locale),
        )
        content = clip("\n".join([head, standings_text(standings, names, locale, columns)]), MESSAGE_LIMIT)
        layout = _layout.post(content, accent=_layout.race_accent(race.race_id))
        where = (await owed.place(self.ctx, race)).posts_to  # the race's thread, or its channel
        message_id = await _posts.send(self.client, where, None, view=layout, nonce=row.nonce)
        return Delivery(where, message_id, posts=[NewPost(row.step, PostKind.STAGE, where, message_id)])

    # --- the result -----------------------------------------------------------------------------------
    async def _final_post(self, row: Owed) -> Delivery:
        """The result (or the held-back news with the final result), the record attached, the league's
        points, Rematch. The league credits the race first (idempotent), so the points are there."""
        kind = PostKind.NEWS if row.kind is OwedKind.NEWS_POST else PostKind.FINAL
        stored = await owed.posts(self.ctx, row.race_id)
        if any(p.kind is kind for p in stored):
            return MOOT
        await league.credit_safely(self.ctx, row.race_id)
        final = await owed.final(self.ctx, row)
        race = final.race
        ruleset = get_ruleset(race.ruleset)
        locale = await _audience.channel_locale(self.client, self.ctx, race)
        names = await self.riders.names(race, locale)
        standings = [s.model_dump(mode="json") for s in final.result.standings]
        columns = [c.model_dump(mode="json") for c in final.result.columns]
        table = standings_text(standings, names, locale, columns)
        heading = "race.news.title" if final.news else "race.final.title"
        lines = [t(heading, locale, ruleset=ruleset.name, race=race.race_id)]
        if final.events:
            lines.append(events_text(final.events, locale, 600, names))
        lines.append(table)
        if final.result.provisional and not final.news:
            lines.append(t("race.final.provisional", locale))
        lines.extend(await self._league_lines(race, final, names, locale))
        content = clip("\n".join(lines), MESSAGE_LIMIT)
        record = final.record.to_json().encode("utf-8")
        files = [discord.File(io.BytesIO(record), filename=f"race-{race.race_id}.json")]
        try:
            card = await result_file(
                race.ruleset, final.result, ruleset.name, description=table, locale=locale, names=names
            )
            files.insert(0, card)
        except Exception:
            _log.warning("race %s: the result card failed; the post goes out without it", race.race_id, exc_info=True)
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(race.race_id, t("race.button.rematch", locale)))
        place = owed.place_of(race, stored)
        if final.news:  # the Gazzetta is the race's news: in its thread (the channel's if it has none)
            where = place.posts_to
            message_id = await _posts.send(self.client, where, content, view=view, files=files, nonce=row.nonce)
            return Delivery(where, message_id, posts=[NewPost(0, kind, where, message_id)])
        # The final post, in the thread and in the channel (the one links point to), each with its nonce.
        entries = []
        if place.thread_id is not None:
            sent = await _copies(files)
            names_of = [f.filename for f in files]
            copy = [discord.File(io.BytesIO(b), filename=n) for b, n in zip(sent, names_of, strict=True)]
            copy_id = await _posts.send(
                self.client, place.thread_id, content, view=view, files=copy, nonce=copy_nonce(row.nonce)
            )
            entries.append(NewPost(0, PostKind.FINAL_COPY, place.thread_id, copy_id))
            files = [discord.File(io.BytesIO(b), filename=n) for b, n in zip(sent, names_of, strict=True)]
        message_id = await _posts.send(self.client, race.channel_id, content, view=view, files=files, nonce=row.nonce)
        entries.append(NewPost(0, kind, race.channel_id, message_id))
        return Delivery(race.channel_id, message_id, posts=entries)

    async def _league_lines(self, race: RaceView, final: Final, names: dict[str, str], locale: str | None) -> list[str]:
        """What the race earned in the server's league, or, on the news post, the points it corrected. A
        league failure never holds the post back."""
        try:
            if final.news:
                changes = await league.corrections(self.ctx, race.race_id)
                if not changes:
                    return []
                items = ", ".join(
                    t(
                        "race.news.league_change",
                        locale,
                        name=names.get(c.entrant, c.name or c.entrant),
                        before=c.points_before,
                        after=c.points_after,
                    )
                    for c in changes
                )
                return [t("race.news.league_changes", locale, changes=items)]
            points = await league.points_for_race(self.ctx, race.race_id)
        except Exception:
            _log.warning("race %s: league points unavailable for the post", race.race_id, exc_info=True)
            return []
        if not points:
            return []
        order = [seat.entrant for seat in race.seats if seat.entrant in points]
        items = ", ".join(t("race.final.league_item", locale, name=names.get(e, e), points=points[e]) for e in order)
        return [t("race.final.league", locale, points=items)]

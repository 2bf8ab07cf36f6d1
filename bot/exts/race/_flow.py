"""The race flow on Discord: interactions become service calls; what the services report becomes posts.

:class:`Flow` is the services' sink (step resolved, race finished, reminder, announcement, lobby
timed out) and the target of every persistent component. Everything it shows comes from the
services' plain data and the engine's decisions, messages and results: nothing branches on the rule
system. Work for one race is serialised by a lock, so a panel's confirmation never lands after the
round post that closed it.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from datetime import datetime
from typing import Any

import discord

from bot.catalogue import MESSAGE_LIMIT
from bot.exts.race import _form, _lobby, _panel, _posts
from bot.exts.race._components import PanelButton, RematchButton
from bot.exts.race._text import clip, counter, events_text, log_pages, stamp, standings_text, told_whole
from bot.i18n import DEFAULT_LOCALE, t
from bot.render.files import board_file, result_file
from bot.render.registry import rider_names
from bot.services import boards, league, lobby, orders, posts, records, server_settings
from bot.services.context import Context
from bot.services.outcomes import (
    AnnouncementPublished,
    Happening,
    MemberRef,
    PanelView,
    RaceCancelled,
    RaceFinished,
    RaceStarted,
    RaceView,
    Refusal,
    ReminderDue,
    StepResolved,
)
from bot.services.permissions import may_manage
from engine.registry import get_ruleset
from engine.ruleset import PROGRESS_KEY, Result

_log = logging.getLogger(__name__)

CLOSED_DMS = (50007, 50278)
"""Discord's codes for "Cannot send messages to this user" (DMs closed, or no shared server)."""


def member_ref(interaction: discord.Interaction[Any]) -> MemberRef:
    user = interaction.user
    return MemberRef(
        server_id=interaction.guild_id or 0,
        user_id=user.id,
        name=getattr(user, "display_name", user.name),
        locale=str(interaction.locale),
    )


LOG_MARGIN = 200
"""A round post whose events come this close to its room offers the Full log (its headline and tail vary)."""

LAP = "lap:"
"""The stored kind of a lap message (turns of a sequential system), followed by its lap key."""
LAP_DONE = "lapx:"
"""The stored kind marking a lap complete at its last step, followed by the key of the lap that comes next."""


def _lap_key(marker: dict[str, Any]) -> str:
    """Which lap a progress marker is in: its number (round or stage) and its lap."""
    return f"{marker.get('number')}:{marker.get('lap')}"


def _pending(done: Any, fallback: str) -> str:
    """The lap the next turn belongs to: the one the last completed lap (or the start) handed on to."""
    return str(done.kind[len(LAP_DONE) :]) if done is not None else fallback


class Flow:
    """The Discord side of the race services for one bot."""

    def __init__(self, client: discord.Client, ctx: Context) -> None:
        self.client = client
        self.ctx = ctx
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._riders: dict[int, dict[str, str]] = {}
        self._before: dict[tuple[int, int], dict[str, Any]] = {}
        """The progress marker before each (race, step): the counter its panel and post show."""
        """Each race's rider names by rider id ("Anna's Rouleur"), learnt from its public view once."""

    # --- helpers -------------------------------------------------------------------------------------
    async def _refuse(self, interaction: discord.Interaction[Any], refusal: Refusal) -> None:
        text = clip(t(refusal.message, str(interaction.locale)), MESSAGE_LIMIT)
        if refusal.key == "race.not_found" and interaction.type != discord.InteractionType.application_command:
            # A button of a race that is gone: the way forward is the current panel, not a race number.
            text = t("interaction.stale_panel", str(interaction.locale))
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _manager(self, interaction: discord.Interaction[Any], opener_id: int | None = None) -> bool:
        member = interaction.user
        return await may_manage(
            self.ctx,
            server_id=interaction.guild_id or 0,
            user_id=member.id,
            role_ids=[r.id for r in getattr(member, "roles", [])],
            manage_guild=interaction.guild_id is not None and interaction.permissions.manage_guild,
            opener_id=opener_id,
        )

    async def channel_locale(self, race: RaceView) -> str:
        """The language of what everyone in the race's channel reads (the lobby, round, lap and final
        posts): the language an admin chose in ``/settings``, else the server's preferred locale as
        Discord gives it (``Guild.preferred_locale``, a community server's setting), else English. Each
        player's own panels follow their own locale instead."""
        chosen = (await server_settings.get_settings(self.ctx, race.server_id)).language
        if chosen != server_settings.DEFAULTS.language:
            return chosen
        guild = self.client.get_guild(race.server_id)
        preferred = getattr(guild, "preferred_locale", None)
        return str(preferred) if preferred else DEFAULT_LOCALE

    async def closed_dms(self, race_id: int) -> set[int]:
        return {int(p.kind[4:]) for p in await boards.posts_of(self.ctx, race_id, 0) if p.kind.startswith("nodm")}

    async def _title(self, race: RaceView, locale: str | None, step: int | None = None) -> str:
        name = get_ruleset(race.ruleset).name
        marker = await self._marker_before(race, step if step is not None else race.step)
        return t("race.panel.title", locale, ruleset=name, race=race.race_id, counter=counter(marker, locale))

    async def _marker_before(self, race: RaceView, step: int) -> dict[str, Any]:
        """The progress marker players saw while ``step`` was open: the one counter (round, stage, lap) its
        panel and its post show, as the picture does. Kept per step once known (a post stores the marker
        after its step); else the open step's is the public view's, an earlier one's the record's."""
        key = (race.race_id, step)
        if key not in self._before:
            if step == race.step and race.status == "running":
                self._before[key] = ((await boards.public_view(self.ctx, race.race_id)) or {}).get(PROGRESS_KEY) or {}
            else:
                found = await boards.progress_after(self.ctx, race.race_id, [max(step - 1, 0)])
                self._before[key] = found.get(max(step - 1, 0)) or {}
        return self._before[key]

    def _names(self, race: RaceView) -> dict[str, str]:
        """What players read for each entrant and rider id: seat names, and riders by player and kind."""
        return {**{s.entrant: s.name for s in race.seats}, **self._riders.get(race.race_id, {})}

    async def _learn_riders(self, race: RaceView) -> None:
        """Name the race's riders once it runs (their ids never change), in the channel's language."""
        if race.race_id in self._riders or race.status == "lobby":
            return
        view = await boards.public_view(self.ctx, race.race_id)
        seats = {s.entrant: s.name for s in race.seats}
        named = rider_names(race.ruleset, view, seats, await self.channel_locale(race))
        self._riders[race.race_id] = {k: v for k, v in named.items() if k not in seats}

    async def _lobby_text(self, race: RaceView) -> tuple[str, discord.ui.View]:
        """The lobby, a public message: in the channel's language, whoever clicked."""
        stage = await boards.stage_of(self.ctx, race.race_id)
        return _lobby.render(race, stage, await self.channel_locale(race), await self.closed_dms(race.race_id))

    async def _edit_lobby(self, race: RaceView) -> None:
        """Bring the lobby message up to date (seats, DMs closed, running/finished)."""
        stored = [p for p in await boards.posts_of(self.ctx, race.race_id, 0) if p.kind == "lobby"]
        if not stored:
            return
        content, view = await self._lobby_text(race)
        try:
            await _posts.edit(self.client, stored[0].channel_id, stored[0].message_id, content, view)
        except discord.HTTPException as exc:
            _log.warning("could not edit the lobby of race %s: %s", race.race_id, exc)

    # --- the sink --------------------------------------------------------------------------------------
    async def happen(self, happening: Happening) -> None:
        """Post what the services report (the context's sink): serialised per race."""
        async with self._locks[happening.race_id]:
            try:
                await self._happen(happening)
            except discord.HTTPException:
                _log.exception("could not post %s for race %s", type(happening).__name__, happening.race_id)

    async def catch_up(self) -> None:
        """After a start: post the resolved steps no post tells yet (the process stopped in between),
        with the same nonce as before, so a post that did go out is not posted twice."""
        untold = await boards.untold_steps(self.ctx)
        for race_id in dict.fromkeys(r for r, *_ in untold):
            async with self._locks[race_id]:
                try:
                    await self._tell_late(race_id, [s for r, s, *_ in untold if r == race_id])
                except discord.HTTPException:
                    _log.exception("could not post the steps of race %s told late", race_id)

    async def _tell_late(self, race_id: int, steps: list[int]) -> None:
        """Tell these resolved steps of a race, oldest first, from what the database holds: after a
        restart, or when the news of a step reaches this process after a later step's (two tasks
        resolved them). Each is told with its own progress marker (the record replayed), so a lap that
        ended meanwhile is closed in its own message and the next lap's turns start the next one."""
        marker = ((await boards.public_view(self.ctx, race_id)) or {}).get(PROGRESS_KEY) or {}
        markers: dict[int, dict[str, Any] | None] = {}
        if marker.get("lap") is not None:  # only a race told lap by lap needs the markers of the past
            markers = await boards.progress_after(self.ctx, race_id, steps)
        race = await lobby.view(self.ctx, race_id)
        for step, events, played in await boards.told_steps(self.ctx, race_id, steps):
            current = race.step == step + 1 and race.status == "running"
            awaiting = race.awaiting if current else []
            deadline = await boards.deadline(self.ctx, race_id, step + 1) if current else None
            if step == 0:
                await self._happen(RaceStarted(race_id, events, awaiting, deadline, markers.get(step)))
            else:
                await self._happen(StepResolved(race_id, step, played, events, awaiting, deadline, markers.get(step)))

    async def happen_all(self, happenings: list[Happening]) -> None:
        for happening in happenings:
            await self.happen(happening)

    async def _happen(self, h: Happening) -> None:
        race = await lobby.view(self.ctx, h.race_id)
        await self._learn_riders(race)
        if isinstance(h, RaceStarted):
            await self._round_post(race, h)
            await self._edit_lobby(race)
        elif isinstance(h, StepResolved):
            earlier = [s for s in await posts.unposted_steps(self.ctx, h.race_id) if s < h.step]
            if earlier:  # told in order: a step resolved by another task may come before it
                await self._tell_late(h.race_id, earlier)
                race = await lobby.view(self.ctx, h.race_id)
            await self._round_post(race, h)
        elif isinstance(h, RaceFinished):
            await self._final_post(race, h.standings, h.provisional, "final", columns=h.columns)
            await self._edit_lobby(race)
        elif isinstance(h, AnnouncementPublished):
            await self._final_post(race, h.standings, False, "news", h.events, columns=h.columns)
        elif isinstance(h, ReminderDue):
            await self._remind(race, h)
        elif isinstance(h, RaceCancelled):
            await self._edit_lobby(race)

    async def _open_panels(self, race: RaceView, step: int, awaiting: list[str], deadline: datetime | None) -> None:
        """One DM per awaited player: their panel for this step (closed DMs are marked, not errors)."""
        humans = {s.entrant: s.user_id for s in race.seats if s.user_id is not None and s.bot is None}
        users = [humans[e] for e in awaiting if e in humans]
        closed = await self.closed_dms(race.race_id)
        sent = {p.kind for p in await boards.posts_of(self.ctx, race.race_id, step)}
        # Those with closed DMs order through Open my orders; a panel already sent is not sent again.
        users = [u for u in users if u not in closed and f"p{u}" not in sent]
        locales = await posts.locales(self.ctx, race.server_id, users)
        marked = False
        for user_id in users:
            try:
                panel = await orders.panel(self.ctx, race.race_id, user_id)
            except Refusal:
                continue
            if panel.step != step or panel.decision is None:
                continue
            locale = locales.get(user_id)
            content, view = _panel.render(
                panel, title=await self._title(race, locale, step), locale=locale, deadline=deadline
            )
            try:
                channel_id = await _posts.dm_channel(self.client, user_id)
                message_id = await _posts.send(self.client, channel_id, content, view=view)
            except discord.Forbidden as exc:
                if exc.code not in CLOSED_DMS:
                    raise
                _log.info("race %s: %s has closed DMs; they order through Open my orders", race.race_id, user_id)
                marked = await posts.record_post(self.ctx, race.race_id, 0, f"nodm{user_id}", 0, 0) or marked
                continue
            await posts.record_post(self.ctx, race.race_id, step, f"p{user_id}", channel_id, message_id)
        if marked:
            await self._edit_lobby(race)

    async def welcome(self, race: RaceView, user_id: int, locale: str | None) -> None:
        """A DM when a player takes a seat: where their panels will come. A closed DM is found here,
        before the start, so the lobby can say so and the player knows to use Open my orders."""
        text = t("race.dm.welcome", locale, race=race.race_id, ruleset=get_ruleset(race.ruleset).name)
        try:
            await _posts.send(self.client, await _posts.dm_channel(self.client, user_id), text)
        except discord.Forbidden as exc:
            if exc.code not in CLOSED_DMS:
                raise
            _log.info("race %s: %s has closed DMs; they order through Open my orders", race.race_id, user_id)
            await posts.record_post(self.ctx, race.race_id, 0, f"nodm{user_id}", 0, 0)

    async def _close_panels(self, race: RaceView, h: StepResolved) -> None:
        """Close the resolved step's panels, one edit each, in each player's language: the panel says the
        step is resolved and what was played, and keeps its components, disabled: the confirmation's
        Change for an order the player completed, else the choices they were offered (the decision
        asked when the step opened, read back from the record)."""
        by_user = {s.user_id: s for s in race.seats if s.user_id is not None}
        panels = [p for p in await boards.posts_of(self.ctx, race.race_id, h.step) if p.kind.startswith("p")]
        if not panels:
            return
        seats = {p.message_id: by_user.get(int(p.kind[1:])) for p in panels}
        bodies: dict[str, dict[str, Any]] = {}
        unfinished: list[str] = []
        for seat in seats.values():
            if seat is None:
                continue
            played = h.orders.get(seat.entrant)
            meta = ("by", "auto", "received_at")
            sent = played if isinstance(played, dict) else {}
            bodies[seat.entrant] = {k: v for k, v in sent.items() if k not in meta}
            if not isinstance(played, dict) or played.get("auto"):
                unfinished.append(seat.entrant)
        asked: dict[str, dict[str, Any] | None] = {}
        if unfinished:
            try:
                asked = await boards.decisions_before(
                    self.ctx, race.race_id, h.step, unfinished, {e: bodies.get(e) or {} for e in unfinished}
                )
            except Exception:
                _log.warning("race %s: the closed panels show no choices", race.race_id, exc_info=True)
        locales = await posts.locales(self.ctx, race.server_id, [int(p.kind[1:]) for p in panels])
        for post in panels:
            seat = seats[post.message_id]
            entrant = seat.entrant if seat is not None else ""
            locale = locales.get(seat.user_id) if seat is not None and seat.user_id is not None else None
            body = bodies.get(entrant) or {}
            if entrant in unfinished:
                shown = PanelView(race.race_id, h.step, entrant, asked.get(entrant), {}, None)
            else:
                shown = PanelView(race.race_id, h.step, entrant, None, {}, body or None)
            content, view = _panel.render(
                shown,
                title=await self._title(race, locale, h.step),
                locale=locale,
                deadline=None,
                closed=True,
                played=body,
            )
            try:
                await _posts.edit(self.client, post.channel_id, post.message_id, content, view)
            except discord.HTTPException as exc:
                _log.warning("could not close a panel of race %s: %s", race.race_id, exc)

    async def _board(
        self,
        race: RaceView,
        view: dict[str, Any] | None,
        locale: str | None,
        events: list[dict[str, Any]] | None = None,
    ) -> discord.File | None:
        """The board now, with the step's events drawn on it (the moves its legend names)."""
        if view is None:
            return None
        try:
            return await board_file(race.ruleset, view, events or [], locale=locale or "en", names=self._names(race))
        except Exception:
            _log.warning("race %s: the board picture failed; the post goes out without it", race.race_id, exc_info=True)
            return None

    def _turn_lines(
        self,
        race: RaceView,
        step: int,
        events: list[dict[str, Any]],
        played: dict[str, Any],
        room: int,
        locale: str | None,
        marker: dict[str, Any] | None = None,
    ) -> list[str]:
        """A resolved step as a post tells it: headline (the counter of the round it played), events, who
        was automatic (within ``room``)."""
        names = self._names(race)
        key = "race.post.headline" if step else "race.post.started"
        head = t(
            key, locale, ruleset=get_ruleset(race.ruleset).name, race=race.race_id, counter=counter(marker, locale)
        )
        automatic = [names.get(e, e) for e, o in played.items() if isinstance(o, dict) and o.get("auto")]
        auto = [t("race.post.automatic", locale, names=", ".join(automatic))] if automatic else []
        body = events_text(events, locale, room - len(head) - sum(len(x) + 1 for x in auto) - 1, names)
        return [head, *([body] if body else []), *auto]

    def _waiting(self, race: RaceView, h: StepResolved | RaceStarted, locale: str | None) -> list[str]:
        """Who is awaited now, and by when (bots answer at once: never listed as awaited)."""
        tail = []
        bots = {s.entrant for s in race.seats if s.bot is not None}
        awaited = [e for e in h.awaiting if e not in bots]
        if awaited and race.status == "running":
            names = self._names(race)
            tail.append(t("race.post.waiting", locale, names=", ".join(names.get(e, e) for e in awaited)))
            if h.deadline is not None:
                tail.append(t("race.panel.deadline", locale, when=stamp(h.deadline)))
        return tail

    async def _open_orders(
        self, race: RaceView, h: StepResolved | RaceStarted, step: int, locale: str | None
    ) -> discord.ui.View | None:
        """Open my orders, while a player with closed DMs is awaited."""
        closed = await self.closed_dms(race.race_id)
        seats = {s.entrant: s.user_id for s in race.seats}
        if race.status != "running" or not any(seats.get(e) in closed for e in h.awaiting):
            return None
        view = discord.ui.View(timeout=None)
        label = t("race.button.open_orders", locale)
        view.add_item(PanelButton("o", race.race_id, step + 1, label, style=discord.ButtonStyle.primary))
        return view

    async def _round_post(self, race: RaceView, h: StepResolved | RaceStarted) -> None:
        """One channel post per resolution (step 0: the start): headline, events, who was automatic,
        who is awaited, the board, and Open my orders while a player with closed DMs is awaited. The
        resolved step's panels are closed and the next step's sent first, so a DM found closed now
        already gets its button. When the view's progress marker has a lap (a system played turn by
        turn), the turns go into one message per lap instead (:meth:`_lap_post`)."""
        step = h.step if isinstance(h, StepResolved) else 0
        orders_played = h.orders if isinstance(h, StepResolved) else {}
        if step not in await posts.unposted_steps(self.ctx, race.race_id):
            return  # told already: before a restart, or late from the database (:meth:`_tell_late`)
        if isinstance(h, StepResolved):
            await self._close_panels(race, h)
        if race.status == "running":
            await self._open_panels(race, step + 1, h.awaiting, h.deadline)
        public = await boards.public_view(self.ctx, race.race_id)
        # The step's own marker (after it): a chain of steps, or a backlog told after a restart, is told
        # step by step even though the race has moved on since.
        marker = h.progress if h.progress is not None else (public or {}).get(PROGRESS_KEY) or {}
        locale = await self.channel_locale(race)
        if step and marker.get("lap") is not None:
            await self._lap_post(race, h, step, marker, public, locale)
            return
        tail = self._waiting(race, h, locale)
        room = MESSAGE_LIMIT - sum(len(x) + 1 for x in tail)
        before = await self._marker_before(race, step) if step else None
        self._before[(race.race_id, step + 1)] = marker
        lines = self._turn_lines(race, step, h.events, orders_played, room, locale, before)
        content = clip("\n".join([*lines, *tail]), MESSAGE_LIMIT)
        view = await self._open_orders(race, h, step, locale)
        if not told_whole(h.events, locale, room - LOG_MARGIN, self._names(race)):
            view = view or discord.ui.View(timeout=None)  # the post summarised: the whole log one click away
            view.add_item(PanelButton("e", race.race_id, step, t("race.button.full_log", locale)))
        # The picture is titled with the round the post tells (its moves drawn), as the headline is.
        told = {**public, PROGRESS_KEY: before} if public is not None and before else public
        picture = await self._board(race, told, locale, h.events)
        message_id = await _posts.send(
            self.client,
            race.channel_id,
            content,
            view=view,
            files=[picture] if picture else [],
            nonce=posts.nonce(race.race_id, step),
        )
        await posts.record_post(self.ctx, race.race_id, step, "step", race.channel_id, message_id)
        if marker.get("lap") is not None:
            # The first lap starts after the start post: remember which lap the next turn belongs to.
            await posts.record_post(self.ctx, race.race_id, step, f"{LAP_DONE}{_lap_key(marker)}", 0, message_id)

    async def _lap_post(
        self,
        race: RaceView,
        h: StepResolved | RaceStarted,
        step: int,
        marker: dict[str, Any],
        public: dict[str, Any] | None,
        locale: str | None,
    ) -> None:
        """A turn of a sequential system: appended to its lap's message (edited), or the first of a new
        lap (posted). The turn's own marker (after it) tells whether the lap is complete: once its lap (or
        stage) number moves on, the message is closed and the next turn starts a new one. Nothing is kept
        in memory: the lap message ("lap:<number>:<lap>", stored at its first step), which steps it tells
        (their "step" posts carry its message id) and where a lap closed ("lapx:<next lap>", stored at
        its last step) are all in posted_messages, so a restart continues editing the same message. The
        board picture comes with the lap's first turn and is refreshed on the edit that closes the lap;
        the edits in between change the text only."""
        stored = await boards.posts_of(self.ctx, race.race_id)
        laps = [p for p in stored if p.kind.startswith(LAP)]
        done = [p for p in stored if p.kind.startswith(LAP_DONE)]
        latest_done = max(done, key=lambda p: p.step) if done else None
        current = laps[-1] if laps and (latest_done is None or latest_done.step < laps[-1].step) else None
        now = _lap_key(marker)
        last = race.status != "running" and step >= race.step - 1  # the race's last turn closes its lap
        closing = now != (current.kind[len(LAP) :] if current else _pending(latest_done, now)) or last
        tail = self._waiting(race, h, locale)
        view = await self._open_orders(race, h, step, locale)
        played = h.orders if isinstance(h, StepResolved) else {}
        if current is None:
            key = _pending(latest_done, now)
            turns = [(step, h.events, played)]
        else:
            key = current.kind[len(LAP) :]
            told = [p.step for p in stored if p.kind == "step" and p.message_id == current.message_id]
            turns = [*await boards.told_steps(self.ctx, race.race_id, told), (step, h.events, played)]
        room = (MESSAGE_LIMIT - sum(len(x) + 1 for x in tail)) // len(turns)
        befores = {s: await self._marker_before(race, s) for s, _events, _played in turns}
        self._before[(race.race_id, step + 1)] = marker
        lines: list[str] = []
        for s, events, orders_played in turns:
            turn = self._turn_lines(race, s, events, orders_played, room, locale, befores[s])
            lines.extend(turn if not lines or turn[0] not in lines else turn[1:])  # one headline per lap
        content = clip("\n".join([*lines, *tail]), MESSAGE_LIMIT)
        closing = closing or now != key
        picture = await self._board(race, public, locale, h.events) if current is None or closing else None
        if current is None:
            message_id = await _posts.send(
                self.client,
                race.channel_id,
                content,
                view=view,
                files=[picture] if picture else [],
                nonce=posts.nonce(race.race_id, step, "lap"),
            )
            await posts.record_post(self.ctx, race.race_id, step, f"{LAP}{key}", race.channel_id, message_id)
        else:
            message_id = current.message_id
            await _posts.edit(
                self.client, current.channel_id, message_id, content, view, files=[picture] if picture else []
            )
        await posts.record_post(self.ctx, race.race_id, step, "step", race.channel_id, message_id)
        if closing:
            await posts.record_post(self.ctx, race.race_id, step, f"{LAP_DONE}{now}", 0, message_id)

    async def _final_post(
        self,
        race: RaceView,
        standings: list[dict[str, Any]],
        provisional: bool,
        kind: str,
        events: list[dict[str, Any]] | None = None,
        *,
        columns: list[dict[str, Any]] | None = None,
    ) -> None:
        names = self._names(race)
        ruleset = get_ruleset(race.ruleset)
        locale = await self.channel_locale(race)
        title = "race.news.title" if kind == "news" else "race.final.title"
        lines = [t(title, locale, ruleset=ruleset.name, race=race.race_id)]
        if events:
            lines.append(events_text(events, locale, 600))
        lines.append(standings_text(standings, names, locale, columns))
        if provisional:
            lines.append(t("race.final.provisional", locale))
        lines.extend(await self._league_lines(race, kind, names, locale))
        content = clip("\n".join(lines), MESSAGE_LIMIT)
        record = await records.race_record(self.ctx, race.race_id)
        files = [discord.File(io.BytesIO(record.to_json().encode("utf-8")), filename=f"race-{race.race_id}.json")]
        result = Result.model_validate(
            {"finished": True, "provisional": provisional, "standings": standings, "columns": columns or []}
        )
        try:
            card = await result_file(
                race.ruleset,
                result,
                ruleset.name,
                description=standings_text(standings, names, locale, columns),
                locale=locale,
                names=names,
            )
            files.insert(0, card)
        except Exception:
            _log.warning("race %s: the result card failed; the post goes out without it", race.race_id, exc_info=True)
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(race.race_id, t("race.button.rematch", locale)))
        if any(p.kind == kind for p in await boards.posts_of(self.ctx, race.race_id)):
            return
        message_id = await _posts.send(
            self.client, race.channel_id, content, view=view, files=files, nonce=posts.nonce(race.race_id, 0, kind)
        )
        await posts.record_post(self.ctx, race.race_id, 0, kind, race.channel_id, message_id)

    async def _league_lines(self, race: RaceView, kind: str, names: dict[str, str], locale: str | None) -> list[str]:
        """What the race earned in the server's league (the race service credited it before this post), or,
        on the Gazzetta's post, the points it corrected. A league failure never holds the post back."""
        try:
            if kind == "news":
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

    async def _remind(self, race: RaceView, h: ReminderDue) -> None:
        locales = await posts.locales(self.ctx, race.server_id, h.user_ids)
        closed = await self.closed_dms(race.race_id)
        for user_id in h.user_ids:
            if user_id in closed:
                continue
            text = t(
                "race.reminder", locales.get(user_id), race=race.race_id, when=f"<t:{int(h.deadline.timestamp())}:R>"
            )
            try:
                await _posts.send(self.client, await _posts.dm_channel(self.client, user_id), text)
            except discord.Forbidden:
                _log.info("race %s: reminder not delivered to %s (DMs closed)", race.race_id, user_id)

    # --- lobby buttons -----------------------------------------------------------------------------------
    async def lobby_action(self, interaction: discord.Interaction[Any], race_id: int, action: str) -> None:
        me = member_ref(interaction)
        locale = str(interaction.locale)
        try:
            current = await lobby.view(self.ctx, race_id)
            manager = await self._manager(interaction)
            if action == "join":
                race = await lobby.join(self.ctx, race_id, me)
                await self.welcome(race, me.user_id, locale)
            elif action == "leave":
                race = await lobby.leave(self.ctx, race_id, me.user_id)
            elif action == "bot":
                race = await lobby.add_bot(self.ctx, race_id, me.user_id, manager=manager)
            elif action == "cancel":
                await lobby.cancel(self.ctx, race_id, me.user_id, manager=manager)
                race = await lobby.view(self.ctx, race_id)
            elif action == "start":
                if not manager and current.opener_id != me.user_id:
                    raise Refusal.of("lobby.not_opener")
                await interaction.response.defer()
                happened = await lobby.start(self.ctx, race_id, me.user_id, manager=manager)
                race = await lobby.view(self.ctx, race_id)
                content, view = await self._lobby_text(race)
                await interaction.edit_original_response(content=content, view=view)
                await self.happen_all(happened)
                return
            else:
                return
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        content, view = await self._lobby_text(race)
        await interaction.response.edit_message(content=content, view=view)

    # --- panels ------------------------------------------------------------------------------------------
    async def _panel_answer(
        self,
        interaction: discord.Interaction[Any],
        panel: PanelView,
        *,
        mode: str = "p",
        page: tuple[int, int] | None = None,
    ) -> tuple[str, discord.ui.View]:
        race = await lobby.view(self.ctx, panel.race_id)
        locale = str(interaction.locale)
        deadline = await boards.deadline(self.ctx, panel.race_id, panel.step)
        return _panel.render(
            panel,
            title=await self._title(race, locale, panel.step),
            locale=locale,
            deadline=deadline,
            mode=mode,
            page=page,
        )

    async def _current(self, interaction: discord.Interaction[Any], race_id: int, step: int, fresh: bool) -> PanelView:
        panel = await orders.panel(self.ctx, race_id, interaction.user.id, change=fresh)
        if panel.step != step:
            raise Refusal.of("order.stale", step=step, current=panel.step)
        if panel.decision is None:
            raise Refusal.of("order.not_awaited")
        return panel

    async def pick(
        self,
        interaction: discord.Interaction[Any],
        race_id: int,
        step: int,
        mode: str,
        field: int,
        values: list[int],
        digest: str = "",
    ) -> None:
        """A button or select on a panel: the value goes in at its field's path, as a draft; the panel
        shows the next part or the review (:mod:`bot.exts.race._form`, issue 23)."""
        async with self._locks[race_id]:
            try:
                await posts.touch_member(self.ctx, member_ref(interaction))
                receipt = await self._form_pick(interaction, race_id, step, mode, field, values, digest)
            except Refusal as refusal:
                await self._refuse(interaction, refusal)
                return
            await self._confirm(interaction, race_id, receipt.step, edit=True)

    # --- the panel as a form (issue 23): kept together for the intake module -----------------------------
    async def _form_pick(
        self,
        interaction: discord.Interaction[Any],
        race_id: int,
        step: int,
        mode: str,
        field: int,
        values: list[int],
        digest: str,
    ) -> Any:
        user = interaction.user.id
        stored = await self._current(interaction, race_id, step, fresh=False)
        base = stored.order or {}
        if mode == "f":
            fields = list(((await orders.panel(self.ctx, race_id, user, asking={})).decision or {}).get("fields") or [])
            base = {}
        elif mode.startswith("e"):
            parts = _form.parts(stored.decision)
            fields = [parts[int(mode[1:])]] if int(mode[1:]) < len(parts) else []
        else:
            fields = list((stored.decision or {}).get("fields") or [])
        sign = _form.part_digest if mode.startswith("e") else _form.field_digest
        if field >= len(fields) or sign(fields[field]) != digest:
            raise Refusal.of("interaction.stale_panel")
        locale = str(interaction.locale)
        pick = (
            _panel.part_pick(fields[field], locale) if mode.startswith("e") else _panel.pick_of(fields[field], locale)
        )
        if not values or any(v >= len(pick.options) for v in values):
            raise Refusal.of("interaction.stale_panel")
        chosen = [pick.options[v][0] for v in values]
        value: Any = chosen[0] if len(chosen) == 1 else chosen
        if mode.startswith("e"):
            try:
                changed = _form.with_part(base, pick.path, value)
                return await orders.submit_order(self.ctx, race_id, user, changed, step=step, draft=True, replace=True)
            except Refusal:  # the later parts no longer fit: ask them again from the changed part
                again = _form.up_to(stored.decision, int(mode[1:]), value)
                return await orders.submit_order(self.ctx, race_id, user, again, step=step, draft=True, replace=True)
        order = _panel.order_for(pick, chosen, base)
        return await orders.submit_order(self.ctx, race_id, user, order, step=step, draft=True, replace=mode == "f")

    async def _form_checked(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, digest: str
    ) -> PanelView:
        """The stored panel, if it still holds the order the clicked screen showed."""
        panel = await self._current(interaction, race_id, step, fresh=False)
        if _form.order_digest(panel.order) != digest:
            raise Refusal.of("interaction.stale_panel")
        return panel

    async def back(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, mode: str, digest: str
    ) -> None:
        """Back: one part back (the draft loses its last part), or from a part asked again to the review."""
        async with self._locks[race_id]:
            try:
                panel = await self._form_checked(interaction, race_id, step, digest)
                if mode == "p":
                    order = _form.back(panel.decision, panel.order)
                    user = interaction.user.id
                    await orders.submit_order(self.ctx, race_id, user, order, step=step, draft=True, replace=True)
            except Refusal as refusal:
                await self._refuse(interaction, refusal)
                return
            await self._confirm(interaction, race_id, step, edit=True)

    async def send(self, interaction: discord.Interaction[Any], race_id: int, step: int, digest: str) -> None:
        """Send my order: the draft the review showed counts for the step."""
        async with self._locks[race_id]:
            try:
                panel = await self._form_checked(interaction, race_id, step, digest)
                if not panel.order:
                    raise Refusal.of("interaction.stale_panel")
                user = interaction.user.id
                receipt = await orders.submit_order(self.ctx, race_id, user, panel.order, step=step, replace=True)
            except Refusal as refusal:
                await self._refuse(interaction, refusal)
                return
            await self._confirm(interaction, race_id, receipt.step, edit=True)

    async def edit_part(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, digest: str, index: int
    ) -> None:
        """The review's "change a part": that part asked again, with its field's choices."""
        try:
            panel = await self._form_checked(interaction, race_id, step, digest)
            if index >= len(_form.parts(panel.decision)):
                raise Refusal.of("interaction.stale_panel")
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        content, view = await self._panel_answer(interaction, panel, mode=f"e{index}")
        await interaction.response.edit_message(content=content, view=view)

    async def _confirm(self, interaction: discord.Interaction[Any], race_id: int, step: int, *, edit: bool) -> None:
        try:
            panel = await orders.panel(self.ctx, race_id, interaction.user.id)
        except Refusal:
            panel = None
        if panel is None or panel.step != step:
            content = t("race.panel.resolving", str(interaction.locale))
            view: discord.ui.View | None = None
        else:
            content, view = await self._panel_answer(interaction, panel)
        if edit:
            await interaction.response.edit_message(content=content, view=view)
        else:
            await interaction.response.send_message(content, view=view or discord.utils.MISSING, ephemeral=True)

    async def change(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        """Change: the whole order asked again from its first part (what was stored stays until a pick)."""
        try:
            await self._current(interaction, race_id, step, fresh=False)
            panel = await orders.panel(self.ctx, race_id, interaction.user.id, asking={})
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        content, view = await self._panel_answer(interaction, panel, mode="f")
        await interaction.response.edit_message(content=content, view=view)

    async def turn_page(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, mode: str, field: int, page: int
    ) -> None:
        try:
            panel = await self._current(interaction, race_id, step, fresh=False)
            if mode == "f":
                panel = await orders.panel(self.ctx, race_id, interaction.user.id, asking={})
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        shown, at = ("p", (-1, page)) if mode == "r" else (mode, (field, page))
        content, view = await self._panel_answer(interaction, panel, mode=shown, page=at)
        await interaction.response.edit_message(content=content, view=view)

    async def full_log(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        """Full log: every event of a step a round post summarised, privately, over as many messages as needed."""
        locale = str(interaction.locale)
        race = await lobby.view(self.ctx, race_id)
        await self._learn_riders(race)
        told = await boards.told_steps(self.ctx, race_id, [step])
        pages = log_pages(told[0][1] if told else [], locale, self._names(race), MESSAGE_LIMIT)
        await interaction.response.send_message(pages[0] if pages else t("race.post.no_log", locale), ephemeral=True)
        for page in pages[1:]:
            await interaction.followup.send(page, ephemeral=True)

    async def open_orders(self, interaction: discord.Interaction[Any], race_id: int, step: int | None) -> None:
        """The player's panel, ephemerally (Open my orders, /race orders)."""
        try:
            await posts.touch_member(self.ctx, member_ref(interaction))
            panel = await orders.panel(self.ctx, race_id, interaction.user.id)
            if panel.decision is None:
                raise Refusal.of("order.not_awaited")
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        content, view = await self._panel_answer(interaction, panel)
        await interaction.response.send_message(content, view=view, ephemeral=True)

    async def type_order(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        try:
            panel = await self._current(interaction, race_id, step, fresh=False)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        await interaction.response.send_modal(TypedOrder(self, panel, str(interaction.locale)))

    async def typed(self, interaction: discord.Interaction[Any], panel: PanelView, text: str) -> None:
        async with self._locks[panel.race_id]:
            try:
                receipt = await orders.submit_order(self.ctx, panel.race_id, interaction.user.id, text, step=panel.step)
            except Refusal as refusal:
                await self._refuse(interaction, refusal)
                return
            await self._confirm(interaction, panel.race_id, receipt.step, edit=False)

    # --- rematch -----------------------------------------------------------------------------------------
    async def rematch(self, interaction: discord.Interaction[Any], race_id: int) -> None:
        """A new lobby with the same seats: the clicker opens it, the others are seated again."""
        me = member_ref(interaction)
        try:
            old = await lobby.view(self.ctx, race_id)
            if all(s.user_id != me.user_id for s in old.seats):
                raise Refusal.of("order.not_seated")
            stage = await boards.stage_of(self.ctx, race_id)
            from bot.services.paces import parse_pace

            fresh = await lobby.open_lobby(
                self.ctx, me, old.channel_id, old.ruleset, stage=stage, pace=parse_pace(old.pace) if old.pace else None
            )
            for seat in old.seats:
                if seat.user_id is not None and seat.user_id != me.user_id:
                    other = MemberRef(me.server_id, seat.user_id, seat.name)
                    fresh = await lobby.join(self.ctx, fresh.race_id, other)
                elif seat.bot is not None:
                    fresh = await lobby.add_bot(self.ctx, fresh.race_id, me.user_id, seat.bot, manager=True)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
            return
        await self.post_lobby(interaction, fresh)

    async def post_lobby(self, interaction: discord.Interaction[Any], race: RaceView) -> None:
        """Answer with the lobby (public) and remember its message to edit it later."""
        await self.welcome(race, interaction.user.id, str(interaction.locale))
        content, view = await self._lobby_text(race)
        await interaction.response.send_message(content, view=view)
        message = await interaction.original_response()
        await posts.record_post(self.ctx, race.race_id, 0, "lobby", message.channel.id, message.id)


class TypedOrder(discord.ui.Modal):
    """Type my order: one paragraph in the rule system's text syntax."""

    def __init__(self, flow: Flow, panel: PanelView, locale: str) -> None:
        super().__init__(title=clip(t("race.modal.title", locale), 45), timeout=600)
        self.flow, self.panel = flow, panel
        example = (panel.decision or {}).get("example")
        self.order: discord.ui.TextInput[TypedOrder] = discord.ui.TextInput(
            label=clip(t("race.modal.field", locale), 45),
            style=discord.TextStyle.paragraph,
            placeholder=clip(str(example), 100) if example else None,
            max_length=1000,
        )
        self.add_item(self.order)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await self.flow.typed(interaction, self.panel, self.order.value)

"""Intake: an interaction becomes a service call and its reply (lobby buttons, panel picks, typed
orders, Open my orders, rematch). What the services owe Discord afterwards is written to the outbox in
their transactions and delivered by :mod:`._delivery`; intake only answers the person who acted.

Nothing is serialised in memory: a confirmation that lands after its panel was closed (the last order
resolved the step meanwhile, here or in another process) is closed again through the same interaction,
so a resolved step never keeps a live panel.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import discord

from bot.catalogue import MESSAGE_LIMIT
from bot.errors import answered
from bot.exts.race import _audience, _form, _layout, _panel, _posts
from bot.exts.race._delivery import closed_panel, lobby_content
from bot.exts.race._text import clip, log_pages
from bot.i18n import t
from bot.promptly import sent_message
from bot.services import boards, lobby, orders, owed, posts, resolution
from bot.services.context import Context
from bot.services.outcomes import OrderReceipt, PanelView, RaceView, Refusal
from bot.services.permissions import may_manage
from bot.store.ledger import PostKind
from engine.registry import get_ruleset

_log = logging.getLogger(__name__)


def welcome_nonce(race_id: int, user_id: int) -> str:
    """The welcome DM's nonce (at most 25 characters): a join clicked twice welcomes once."""
    return "gw" + hashlib.sha256(f"{race_id}:{user_id}".encode()).hexdigest()[:23]


def lobby_nonce(race_id: int) -> str:
    """The nonce of a lobby the bot posts itself (a rematch pressed in a thread): posted once."""
    return "gl" + hashlib.sha256(f"lobby:{race_id}".encode()).hexdigest()[:23]


class Intake:
    """The race's interactions for one bot (the target of every persistent component)."""

    def __init__(self, client: discord.Client, ctx: Context) -> None:
        self.client = client
        self.ctx = ctx
        self.riders = _audience.Riders(ctx)

    # --- helpers -------------------------------------------------------------------------------------
    async def refuse(self, interaction: discord.Interaction[Any], refusal: Refusal) -> None:
        text = clip(t(refusal.message, str(interaction.locale)), MESSAGE_LIMIT)
        if refusal.key == "race.not_found" and interaction.type != discord.InteractionType.application_command:
            # A button of a race that is gone: the way forward is the current panel, not a race number.
            text = t("interaction.stale_panel", str(interaction.locale))
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def manager(self, interaction: discord.Interaction[Any], opener_id: int | None = None) -> bool:
        member = interaction.user
        return await may_manage(
            self.ctx,
            server_id=interaction.guild_id or 0,
            user_id=member.id,
            role_ids=[r.id for r in getattr(member, "roles", [])],
            manage_guild=interaction.guild_id is not None and interaction.permissions.manage_guild,
            opener_id=opener_id,
        )

    async def welcome(self, race: RaceView, user_id: int, locale: str | None) -> None:
        """A DM when a player takes a seat: where their panels will come. A closed DM is found here,
        before the start, so the lobby can say so and the player knows to use Open my orders."""
        text = t("race.dm.welcome", locale, race=race.race_id, ruleset=get_ruleset(race.ruleset).name)
        try:
            channel_id = await _posts.dm_channel(self.client, user_id)
            await _posts.send(self.client, channel_id, text, nonce=welcome_nonce(race.race_id, user_id))
        except discord.Forbidden as exc:
            if not _audience.closed_dms_error(exc):
                raise
            _log.info("race %s: %s has closed DMs; they order through Open my orders", race.race_id, user_id)
            await posts.record_post(self.ctx, race.race_id, 0, PostKind.DMS_CLOSED, 0, 0, member=user_id)

    # --- lobby buttons -------------------------------------------------------------------------------
    async def lobby_action(self, interaction: discord.Interaction[Any], race_id: int, action: str) -> None:
        me = _audience.member_ref(interaction)
        locale = str(interaction.locale)
        try:
            current = await lobby.view(self.ctx, race_id)
            manager = await self.manager(interaction)
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
                # The lobby becomes the race's header by the edit the start owes (after its thread is
                # opened, so it links to it): an edit here could land after that one and undo it.
                await lobby.start(self.ctx, race_id, me.user_id, manager=manager)
                return
            else:
                return
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        content, view = await lobby_content(self.client, self.ctx, race)
        await interaction.response.edit_message(content=content, view=view)

    # --- panels --------------------------------------------------------------------------------------
    async def _panel_answer(
        self,
        interaction: discord.Interaction[Any],
        panel: PanelView,
        *,
        mode: str = "p",
        page: tuple[int, int] | None = None,
    ) -> discord.ui.LayoutView:
        frame = await boards.panel_frame(self.ctx, panel.race_id, panel.step)
        locale = str(interaction.locale)
        return _panel.render(
            panel,
            title=_audience.title(frame.race, locale, frame.progress),
            locale=locale,
            deadline=frame.deadline,
            mode=mode,
            page=page,
            accent=_layout.race_accent(panel.race_id),
        )

    async def _current(self, interaction: discord.Interaction[Any], race_id: int, step: int, fresh: bool) -> PanelView:
        panel = await orders.panel(self.ctx, race_id, interaction.user.id, change=fresh)
        if panel.step < step:  # a panel of a step the race has not reached: made before a restore
            raise Refusal.of("order.undone", race=race_id)
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
        shows the next part or the review (:mod:`bot.exts.race._form`, R-DC-1)."""
        try:
            await posts.touch_member(self.ctx, _audience.member_ref(interaction))
            receipt = await self._form_pick(interaction, race_id, step, mode, field, values, digest)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        await self._confirm(interaction, race_id, receipt.step, edit=True)
        await self._close_if_resolved(interaction, race_id, receipt.step)

    # --- the panel as a form (R-DC-1) ----------------------------------------------------------------
    async def _form_pick(
        self,
        interaction: discord.Interaction[Any],
        race_id: int,
        step: int,
        mode: str,
        field: int,
        values: list[int],
        digest: str,
    ) -> OrderReceipt:
        """The pick stored as a draft. ``mode`` is the screen clicked: ``p`` the stored order's next part,
        ``f`` the whole order asked again (Change: a pick replaces what was stored), ``e<n>`` part ``n``
        asked again from the review. The field's digest must be the clicked one's (else: stale)."""
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
        try:
            panel = await self._form_checked(interaction, race_id, step, digest)
            if mode == "p":
                order = _form.back(panel.decision, panel.order)
                user = interaction.user.id
                await orders.submit_order(self.ctx, race_id, user, order, step=step, draft=True, replace=True)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        await self._confirm(interaction, race_id, step, edit=True)

    async def send(self, interaction: discord.Interaction[Any], race_id: int, step: int, digest: str) -> None:
        """Send my order: the draft the review showed counts for the step (it may resolve it)."""
        try:
            user = interaction.user.id
            # The stored draft only (no panel asked of the rules): the answer comes first.
            order = await orders.draft(self.ctx, race_id, user, step)
            if not order or _form.order_digest(order) != digest:
                raise Refusal.of("interaction.stale_panel")
            receipt = await orders.submit_order(self.ctx, race_id, user, order, step=step, replace=True)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        await self._confirm(interaction, race_id, receipt.step, edit=True, ready=receipt.ready)
        await self._close_if_resolved(interaction, race_id, receipt.step)

    async def edit_part(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, digest: str, index: int
    ) -> None:
        """The review's "change a part": that part asked again, with its field's choices."""
        try:
            panel = await self._form_checked(interaction, race_id, step, digest)
            if index >= len(_form.parts(panel.decision)):
                raise Refusal.of("interaction.stale_panel")
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        layout = await self._panel_answer(interaction, panel, mode=f"e{index}")
        await interaction.response.edit_message(content=None, view=layout)

    async def _confirm(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, *, edit: bool, ready: bool = False
    ) -> None:
        """Answer an order or a pick with the panel as it now stands. ``ready``: the order just stored was
        the step's last awaited one, so the answer is the resolving line at once, before anything else is
        read or rendered (the step resolves meanwhile, and Discord wants an answer within 3 s)."""
        panel: PanelView | None = None
        if not ready:
            try:
                panel = await orders.panel(self.ctx, race_id, interaction.user.id)
            except Refusal:
                panel = None
        if panel is None or panel.step != step or await resolution.ready(self.ctx, race_id, step):
            resolving = t("race.panel.resolving", str(interaction.locale))
            layout = _layout.receipt(resolving, accent=_layout.race_accent(race_id))
        else:
            layout = await self._panel_answer(interaction, panel)
        if edit:
            await interaction.response.edit_message(content=None, view=layout)
        else:
            await interaction.response.send_message(view=layout, ephemeral=True)

    async def _close_if_resolved(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        """The step resolved while the confirmation was on its way (its panel may have been closed before
        the confirmation landed): close this panel again, through the interaction, as delivery closes it."""
        race = await lobby.view(self.ctx, race_id)
        if race.step == step and race.status == "running":
            return  # still open: its close is owed to the outbox, delivered after this answer
        message = interaction.message
        user = interaction.user.id
        panels = {
            p.message_id
            for p in await owed.posts(self.ctx, race_id, step)
            if p.kind is PostKind.PANEL and p.member == user
        }
        if message is None or message.id not in panels:
            return  # an ephemeral panel (Open my orders) is not closed by delivery either
        closing = await owed.closing(self.ctx, race_id, step, interaction.user.id)
        if closing is None:
            return
        receipt = closed_panel(race, step, closing, str(interaction.locale))
        try:
            await interaction.edit_original_response(content=None, view=receipt)
        except discord.HTTPException as exc:
            _log.info("race %s: a confirmation overtaken by its step could not be closed: %s", race_id, exc)

    async def change(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        """Change: the whole order asked again from its first part (what was stored stays until a pick)."""
        try:
            await self._current(interaction, race_id, step, fresh=False)
            panel = await orders.panel(self.ctx, race_id, interaction.user.id, asking={})
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        layout = await self._panel_answer(interaction, panel, mode="f")
        await interaction.response.edit_message(content=None, view=layout)

    async def turn_page(
        self, interaction: discord.Interaction[Any], race_id: int, step: int, mode: str, field: int, page: int
    ) -> None:
        """Another page of a field's choices (``f``: of the whole order asked again; ``r``: the review's
        page of optional parts)."""
        try:
            panel = await self._current(interaction, race_id, step, fresh=False)
            if mode == "f":
                panel = await orders.panel(self.ctx, race_id, interaction.user.id, asking={})
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        shown, at = ("p", (-1, page)) if mode == "r" else (mode, (field, page))
        layout = await self._panel_answer(interaction, panel, mode=shown, page=at)
        await interaction.response.edit_message(content=None, view=layout)

    async def full_log(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        """Full log: every event of a step a round post summarised, privately, over as many messages as needed."""
        locale = str(interaction.locale)
        try:
            race = await lobby.view(self.ctx, race_id)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        names = await self.riders.names(race, locale)
        told = await owed.turns(self.ctx, race_id, [step])
        pages = log_pages(told[0].events if told else [], locale, names, MESSAGE_LIMIT)
        await interaction.response.send_message(pages[0] if pages else t("race.post.no_log", locale), ephemeral=True)
        for page in pages[1:]:
            await interaction.followup.send(page, ephemeral=True)

    async def open_orders(self, interaction: discord.Interaction[Any], race_id: int, step: int | None) -> None:
        """The player's panel, ephemerally (Open my orders, /race orders)."""
        try:
            await posts.touch_member(self.ctx, _audience.member_ref(interaction))
            panel = await orders.panel(self.ctx, race_id, interaction.user.id)
            if panel.decision is None:
                raise Refusal.of("order.not_awaited")
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        layout = await self._panel_answer(interaction, panel)
        await interaction.response.send_message(view=layout, ephemeral=True)

    async def type_order(self, interaction: discord.Interaction[Any], race_id: int, step: int) -> None:
        try:
            panel = await self._current(interaction, race_id, step, fresh=False)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        await interaction.response.send_modal(TypedOrder(self, panel, str(interaction.locale)))

    async def typed(self, interaction: discord.Interaction[Any], panel: PanelView, text: str) -> None:
        try:
            receipt = await orders.submit_order(self.ctx, panel.race_id, interaction.user.id, text, step=panel.step)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        await self._confirm(interaction, panel.race_id, receipt.step, edit=False, ready=receipt.ready)

    # --- rematch -------------------------------------------------------------------------------------
    async def rematch(self, interaction: discord.Interaction[Any], race_id: int) -> None:
        """Rematch: the first press opens one new lobby with the same seats (the presser opens it), in the
        race's channel even when pressed on the final post's copy in the thread; a later press, by anyone
        who rode, is told where that lobby is (and seated there if they had left it)."""
        me = _audience.member_ref(interaction)
        try:
            fresh, opened = await lobby.rematch(self.ctx, race_id, me)
        except Refusal as refusal:
            await self.refuse(interaction, refusal)
            return
        locale = str(interaction.locale)
        if opened and interaction.channel_id == fresh.channel_id:
            await self.post_lobby(interaction, fresh)
            return
        if opened:  # pressed in the race's thread: the lobby goes to the channel, the answer is private
            await self.welcome(fresh, interaction.user.id, locale)
            content, view = await lobby_content(self.client, self.ctx, fresh)
            message_id = await _posts.send(
                self.client, fresh.channel_id, content, view=view, nonce=lobby_nonce(fresh.race_id)
            )
            await posts.record_post(self.ctx, fresh.race_id, 0, PostKind.LOBBY, fresh.channel_id, message_id)
        text = t("race.rematch.joined", locale, race=fresh.race_id, channel=f"<#{fresh.channel_id}>")
        await interaction.response.send_message(text, ephemeral=True)

    async def post_lobby(self, interaction: discord.Interaction[Any], race: RaceView) -> None:
        """Answer with the lobby (public) and remember its message to edit it later."""
        await self.welcome(race, interaction.user.id, str(interaction.locale))
        content, view = await lobby_content(self.client, self.ctx, race)
        await interaction.response.send_message(content, view=view)
        message = await sent_message(interaction)  # a Rematch deferred as slow: its follow-up
        await posts.record_post(self.ctx, race.race_id, 0, PostKind.LOBBY, message.channel.id, message.id)


class TypedOrder(discord.ui.Modal):
    """Type my order: one paragraph in the rule system's text syntax."""

    def __init__(self, intake: Intake, panel: PanelView, locale: str) -> None:
        super().__init__(title=clip(t("race.modal.title", locale), 45), timeout=600)
        self.intake, self.panel = intake, panel
        example = (panel.decision or {}).get("example")
        self.order: discord.ui.TextInput[TypedOrder] = discord.ui.TextInput(
            label=clip(t("race.modal.field", locale), 45),
            style=discord.TextStyle.paragraph,
            placeholder=clip(str(example), 100) if example else None,
            max_length=1000,
        )
        self.add_item(self.order)

    @answered
    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await self.intake.typed(interaction, self.panel, self.order.value)

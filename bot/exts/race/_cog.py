"""The /race commands: thin, each one a service call and a rendering (interactions in :mod:`._intake`)."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import catalogue
from bot.errors import UserError
from bot.exts.race._audience import member_ref
from bot.exts.race._intake import Intake
from bot.exts.race._lobby import stage_name
from bot.exts.race._text import clip, counter, stamp
from bot.i18n import t
from bot.options import RulesetParam
from bot.render.files import board_file
from bot.services import boards, leaving, lobby, owed, permissions, stages, variants
from bot.services.outcomes import Refusal
from bot.services.paces import parse_pace
from bot.translator import text
from engine.registry import get_ruleset
from engine.ruleset import PROGRESS_KEY

PACES = [
    app_commands.Choice(name=text("command.choice.pace.live"), value="live"),
    app_commands.Choice(name=text("command.choice.pace.fast"), value="fast"),
    app_commands.Choice(name=text("command.choice.pace.daily"), value="daily"),
]
MAX_BOTS = 11
CHOICE_STATUS = {
    "lobby": "race.choice_status.lobby",
    "running": "race.choice_status.running",
    "finished": "race.choice_status.finished",
    "cancelled": "race.choice_status.cancelled",
}
"""A race's status as the race picker names it (the stored status is a code)."""
STATUS_KEYS = {
    "lobby": "race.status.lobby",
    "running": "race.status.running",
    "finished": "race.status.finished",
    "cancelled": "race.status.cancelled",
}


parse_options = variants.parse_pairs
"""``name=value`` pairs as ``/race new`` reads them (kept under this name for the tests that import it)."""


def _intake(bot: commands.Bot) -> Intake:
    intake: Intake = getattr(bot, "race_intake")  # noqa: B009 - set by the app before extensions load
    return intake


class RaceCog(commands.Cog):
    """Opens lobbies and answers the race's commands; posts and panels come from the outbox's delivery."""

    race = app_commands.Group(name="race", description=text("command.race"), guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def intake(self) -> Intake:
        return _intake(self.bot)

    @race.command(name="new", description=text("command.race.new"))
    @app_commands.describe(
        ruleset=text("command.race.new.ruleset"),
        stage=text("command.race.new.stage"),
        pace=text("command.race.new.pace"),
        bots=text("command.race.new.bots"),
        options=text("command.race.new.options"),
    )
    @app_commands.choices(pace=PACES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        ruleset: RulesetParam,
        stage: str | None = None,
        pace: app_commands.Choice[str] | None = None,
        bots: app_commands.Range[int, 0, MAX_BOTS] = 0,
        options: str | None = None,
    ) -> None:
        ctx = self.intake.ctx
        server_id = interaction.guild_id
        chosen: Any = None
        saved_name: str | None = None
        ground_options: dict[str, Any] = {}
        try:
            if server_id is not None:  # who may open races, and where (the server's settings)
                await permissions.check_may_open(
                    ctx,
                    server_id=server_id,
                    channel_id=interaction.channel_id or 0,
                    user_id=interaction.user.id,
                    role_ids=[r.id for r in getattr(interaction.user, "roles", [])],
                    manage_guild=interaction.permissions.manage_guild,
                )
            typed = variants.parse_pairs(options)
            if stage and stage.lstrip().startswith("{"):
                chosen = variants.parse_stage(stage)
            elif stage:  # a preset, or one of this server's saved stages with the variants saved with it
                chosen = await stages.resolve_stage(ctx, server_id, ruleset.id, stage)
                ground_options = await stages.resolve_options(ctx, server_id, ruleset.id, stage)
                if isinstance(chosen, dict) and server_id is not None:  # a saved stage: players read its name
                    saved_name = (await stages.get(ctx, server_id, ruleset.id, stage)).name
            # Checked whole, then written in one transaction: a refused lobby leaves nothing behind.
            race = await lobby.open_lobby(
                ctx,
                member_ref(interaction),
                interaction.channel_id or 0,
                ruleset.id,
                stage=chosen,
                options={**ground_options, **typed},
                pace=parse_pace(pace.value) if pace else None,
                bots=bots,
                stage_name=saved_name,
            )
        except Refusal as refusal:
            raise UserError(refusal.key, **refusal.message.params) from None
        await self.intake.post_lobby(interaction, race)

    @new.autocomplete("stage")
    async def _stages(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        ruleset = _ruleset_of(interaction)
        if ruleset is None:
            return []
        found = await stages.stage_choices(self.intake.ctx, interaction.guild_id, ruleset.id, current)
        titles = {p.name: catalogue.preset_title(p, str(interaction.locale)) for p in ruleset.presets()}
        return [app_commands.Choice(name=titles.get(c.value, c.name)[:100], value=c.value[:100]) for c in found]

    @new.autocomplete("options")
    async def _options(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        ruleset = _ruleset_of(interaction)
        if ruleset is None:
            return []
        done, _, typing = current.rpartition(" ")
        locale = str(interaction.locale)
        found = []
        for name, field in ruleset.options_model.model_fields.items():
            if not name.startswith(typing.partition("=")[0]):
                continue
            default = field.default if field.default is not None else ""
            pair = f"{name}={json.dumps(default) if not isinstance(default, str) else default}"
            value = f"{done} {pair}".strip()
            # Shown in words ("Riders per player: 2"); the pairs typed so far and this one are what is sent.
            label = catalogue.option_label(name, locale)
            said = catalogue.option_value(field.default, locale) if field.default is not None else None
            shown = t("race.option_choice", locale, name=label, value=said) if said is not None else label
            found.append(app_commands.Choice(name=clip(shown, 100), value=clip(value, 100)))
        return found[: catalogue.CHOICE_LIMIT]

    async def _pick(self, interaction: discord.Interaction[Any], race: int | None) -> int:
        """The race a command is about: the one given, or the only one the member is in."""
        if race is not None:
            return race
        mine = await boards.member_races(self.intake.ctx, interaction.guild_id or 0, interaction.user.id)
        if len(mine) == 1:
            return mine[0].race_id
        if not mine:
            raise UserError("race.none_for_you")
        raise UserError("race.pick_one", races=", ".join(f"#{r.race_id}" for r in mine[:10]))

    @race.command(name="status", description=text("command.race.status"))
    @app_commands.describe(race=text("command.race.race"))
    async def status(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        locale = str(interaction.locale)
        try:
            view = await lobby.view(self.intake.ctx, await self._pick(interaction, race))
        except Refusal as refusal:
            raise UserError(refusal.key, **refusal.message.params) from None
        names = {s.entrant: s.name for s in view.seats if s.bot is None}
        marker = ((await boards.public_view(self.intake.ctx, view.race_id)) or {}).get(PROGRESS_KEY)
        lines = [
            t("race.lobby.title", locale, ruleset=get_ruleset(view.ruleset).name, race=view.race_id),
            t(STATUS_KEYS.get(view.status, "race.status.finished"), locale, counter=counter(marker, locale)),
        ]
        waiting = [names[e] for e in view.awaiting if e in names]  # bots answer at once: never awaited
        if view.status == "running" and waiting:
            due = await boards.deadline(self.intake.ctx, view.race_id, view.step)
            lines.append(t("race.post.waiting", locale, names=", ".join(waiting)))
            if due is not None:
                lines.append(t("race.panel.deadline", locale, when=stamp(due)))
        await interaction.response.send_message(clip("\n".join(lines), 2000), ephemeral=True)

    @race.command(name="board", description=text("command.race.board"))
    @app_commands.describe(race=text("command.race.race"))
    async def board(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        race_id = await self._pick(interaction, race)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            view = await lobby.view(self.intake.ctx, race_id)
            public = await boards.public_view(self.intake.ctx, race_id)
        except Refusal as refusal:
            raise UserError(refusal.key, **refusal.message.params) from None
        if public is None:
            raise UserError("race.not_started")
        names = {s.entrant: s.name for s in view.seats}
        picture = await board_file(view.ruleset, public, [], locale=str(interaction.locale), names=names)
        stage = stage_name(await boards.stage_of(self.intake.ctx, race_id), view.ruleset, str(interaction.locale))
        marker = counter(public.get(PROGRESS_KEY), str(interaction.locale))
        caption = t("race.board.caption", str(interaction.locale), race=race_id, counter=marker, stage=stage)
        await interaction.followup.send(caption, file=picture, ephemeral=True)

    @race.command(name="orders", description=text("command.race.orders"))
    @app_commands.describe(race=text("command.race.race"))
    async def orders(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        await self.intake.open_orders(interaction, await self._pick(interaction, race), None)

    @race.command(name="leave", description=text("command.race.leave"))
    @app_commands.describe(race=text("command.race.race"))
    async def leave(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        try:
            left = await leaving.leave(self.intake.ctx, await self._pick(interaction, race), interaction.user.id)
        except Refusal as refusal:
            raise UserError(refusal.key, **refusal.message.params) from None
        locale, view = str(interaction.locale), left.race
        if left.from_step is None:  # from the lobby: the seat went
            answer = t("race.left", locale, race=view.race_id)
        elif view.status == "cancelled":
            answer = t("race.left_last", locale, race=view.race_id)
        else:  # under way: a bot rides the seat; the next post says so (the step may have resolved already)
            marker = await owed.progress_before(self.intake.ctx, view.race_id, left.from_step)
            answer = t("race.left_running", locale, race=view.race_id, counter=counter(marker, locale))
        await interaction.response.send_message(answer, ephemeral=True)  # answered first: resolving takes time
        # The lobby's edit was owed with the leave; the step the member was awaited in may resolve now.
        await self.intake.ctx.publish(await leaving.ride_on(self.intake.ctx, left))

    @race.command(name="cancel", description=text("command.race.cancel"))
    @app_commands.describe(race=text("command.race.race"))
    async def cancel(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        race_id = await self._pick(interaction, race)
        try:
            manager = await self.intake.manager(interaction)
            # The lobby's edit is owed to the outbox with the cancellation.
            await lobby.cancel(self.intake.ctx, race_id, interaction.user.id, manager=manager)
        except Refusal as refusal:
            raise UserError(refusal.key, **refusal.message.params) from None
        await interaction.response.send_message(t("race.cancelled", str(interaction.locale), race=race_id))

    @status.autocomplete("race")
    @board.autocomplete("race")
    @orders.autocomplete("race")
    @leave.autocomplete("race")
    @cancel.autocomplete("race")
    async def _races(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
        mine = await boards.member_races(self.intake.ctx, interaction.guild_id or 0, interaction.user.id)
        locale = str(interaction.locale)
        return [
            app_commands.Choice(
                name=clip(
                    t(
                        "race.choice",
                        locale,
                        race=r.race_id,
                        ruleset=get_ruleset(r.ruleset).name,
                        status=t(CHOICE_STATUS.get(r.status, "race.choice_status.finished"), locale),
                    ),
                    100,
                ),
                value=r.race_id,
            )
            for r in mine
            if current.strip("#") in str(r.race_id)
        ][: catalogue.CHOICE_LIMIT]


def _ruleset_of(interaction: discord.Interaction[Any]) -> Any:
    ruleset_id = getattr(interaction.namespace, "ruleset", None)
    if not ruleset_id:
        return None
    try:
        return get_ruleset(str(ruleset_id))
    except (KeyError, ImportError, AttributeError):
        return None

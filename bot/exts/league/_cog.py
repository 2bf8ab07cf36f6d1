"""The /league commands: the cog parses, calls :mod:`bot.services.league` / ``league_standings`` and renders.

The services come from the bot's race runtime (``bot.runtime.ctx``, a :class:`bot.services.runtime.Runtime`
started by the Discord layer); without one the commands say the league is not available.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.exts.league._render import (
    PAGE_SIZE,
    pages,
    points_text,
    profile_embed,
    solo_embed,
    standings_embed,
)
from bot.i18n import t
from bot.options import RulesetParam
from bot.services import league, league_standings, permissions
from bot.services.context import Context
from bot.services.league_points import parse_table
from bot.services.outcomes import Refusal
from bot.translator import text
from bot.ui import View

SeasonParam = app_commands.Range[int, 1, 100_000]
RESET_WORDS = ("default", "reset")
TIMEOUT = 600.0
"""How long the page buttons of a standings message answer (seconds)."""


def refused(refusal: Refusal) -> UserError:
    """A service's refusal as the error the command tree answers kindly."""
    return UserError(refusal.key, **refusal.message.params)


def services(bot: commands.Bot) -> Context:
    runtime = getattr(bot, "runtime", None)
    ctx = getattr(runtime, "ctx", None)
    if not isinstance(ctx, Context):
        raise UserError("league.unavailable")
    return ctx


def server_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise UserError("error.server_only")
    return interaction.guild_id


class StandingsPages(View):
    """Previous / Next buttons over the members' standings (the bots' list is on every page)."""

    def __init__(self, standings: league_standings.Standings, ruleset_name: str, locale: str) -> None:
        super().__init__(timeout=TIMEOUT)
        self.standings, self.ruleset_name, self.locale = standings, ruleset_name, locale
        self.page, self.count = 0, pages(standings)
        self.previous = discord.ui.Button[StandingsPages](
            label=t("league.previous_page", locale), style=discord.ButtonStyle.secondary
        )
        self.next = discord.ui.Button[StandingsPages](
            label=t("league.next_page", locale), style=discord.ButtonStyle.secondary
        )
        self.previous.callback = self._back  # type: ignore[method-assign]
        self.next.callback = self._forward  # type: ignore[method-assign]
        self.add_item(self.previous)
        self.add_item(self.next)
        self._update_buttons()

    def embed(self) -> discord.Embed:
        return standings_embed(self.standings, self.ruleset_name, self.page, self.locale)

    def _update_buttons(self) -> None:
        self.previous.disabled = self.page == 0
        self.next.disabled = self.page >= self.count - 1

    async def _turn(self, interaction: discord.Interaction[Any], by: int) -> None:
        self.page = min(max(self.page + by, 0), self.count - 1)
        self._update_buttons()
        await interaction.response.edit_message(embed=self.embed(), view=self)

    async def _back(self, interaction: discord.Interaction[Any]) -> None:
        await self._turn(interaction, -1)

    async def _forward(self, interaction: discord.Interaction[Any]) -> None:
        await self._turn(interaction, 1)


@app_commands.guild_only()
class LeagueCog(commands.GroupCog, group_name="league", group_description=text("command.league")):
    """The server's league."""

    season = app_commands.Group(name="season", description=text("command.league.season"))

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def _admin(self, interaction: discord.Interaction[Any]) -> None:
        ctx = services(self.bot)
        user = interaction.user
        roles = [r.id for r in getattr(user, "roles", [])]
        allowed = await permissions.may_manage(
            ctx,
            server_id=server_of(interaction),
            user_id=user.id,
            role_ids=roles,
            manage_guild=interaction.permissions.manage_guild,
        )
        if not allowed:
            raise UserError("league.admins_only")

    @app_commands.command(name="standings", description=text("command.league.standings"))
    @app_commands.describe(ruleset=text("command.league.ruleset"), season=text("command.league.season_number"))
    async def standings(
        self, interaction: discord.Interaction[Any], ruleset: RulesetParam, season: SeasonParam | None = None
    ) -> None:
        locale = str(interaction.locale)
        try:
            table = await league_standings.standings(services(self.bot), server_of(interaction), ruleset.id, season)
        except Refusal as refusal:
            raise refused(refusal) from None
        if not table.members and not table.bots:
            raise UserError("league.no_results", ruleset=ruleset.name)
        view = StandingsPages(table, ruleset.name, locale)
        if view.count > 1:
            await interaction.response.send_message(embed=view.embed(), view=view)
        else:
            await interaction.response.send_message(embed=view.embed())

    @app_commands.command(name="rider", description=text("command.league.rider"))
    @app_commands.describe(member=text("command.league.member"))
    async def rider(self, interaction: discord.Interaction[Any], member: discord.User | None = None) -> None:
        locale = str(interaction.locale)
        who = member or interaction.user
        profile = await league_standings.profile(services(self.bot), server_of(interaction), who.id)
        if profile is None:
            raise UserError("league.no_profile", name=who.display_name)
        await interaction.response.send_message(embed=profile_embed(profile, who.display_name, locale))

    @season.command(name="start", description=text("command.league.season.start"))
    async def season_start(self, interaction: discord.Interaction[Any]) -> None:
        await self._admin(interaction)
        try:
            number = await league.start_season(services(self.bot), server_of(interaction))
        except Refusal as refusal:
            raise refused(refusal) from None
        await interaction.response.send_message(t("league.season_started", str(interaction.locale), number=number))

    @season.command(name="end", description=text("command.league.season.end"))
    async def season_end(self, interaction: discord.Interaction[Any]) -> None:
        await self._admin(interaction)
        try:
            number = await league.end_season(services(self.bot), server_of(interaction))
        except Refusal as refusal:
            raise refused(refusal) from None
        await interaction.response.send_message(t("league.season_ended", str(interaction.locale), number=number))

    @app_commands.command(name="points", description=text("command.league.points"))
    @app_commands.describe(ruleset=text("command.league.ruleset"), table=text("command.league.points.table"))
    async def points(
        self, interaction: discord.Interaction[Any], ruleset: RulesetParam, table: str | None = None
    ) -> None:
        locale = str(interaction.locale)
        ctx, server = services(self.bot), server_of(interaction)
        await self._admin(interaction)
        if table is None:
            current = await league.points_table(ctx, server, ruleset.id)
            await interaction.response.send_message(
                t("league.points_now", locale, ruleset=ruleset.name, table=points_text(current, locale)), ephemeral=True
            )
            return
        if table.strip().casefold() in RESET_WORDS:
            chosen = await league.set_points(ctx, server, ruleset.id, None)
        else:
            parsed = parse_table(table)
            if parsed is None:
                raise UserError("league.bad_points", value=table[:100])
            chosen = await league.set_points(ctx, server, ruleset.id, parsed)
        await interaction.response.send_message(
            t("league.points_set", locale, ruleset=ruleset.name, table=points_text(chosen, locale))
        )

    @app_commands.command(name="export", description=text("command.league.export"))
    @app_commands.describe(season=text("command.league.season_number"))
    async def export(self, interaction: discord.Interaction[Any], season: SeasonParam | None = None) -> None:
        locale = str(interaction.locale)
        try:
            rows = await league_standings.export_rows(services(self.bot), server_of(interaction), season)
        except Refusal as refusal:
            raise refused(refusal) from None
        if not rows:
            raise UserError("league.nothing_to_export")
        number = rows[0]["season"]
        data = league.export_csv(rows).encode("utf-8")
        file = discord.File(io.BytesIO(data), filename=f"league-season-{number}.csv")
        await interaction.response.send_message(t("league.exported", locale, number=number), file=file)

    @app_commands.command(name="solo", description=text("command.league.solo"))
    @app_commands.describe(ruleset=text("command.league.ruleset"), stage=text("command.league.solo.stage"))
    async def solo(self, interaction: discord.Interaction[Any], ruleset: RulesetParam, stage: str = "default") -> None:
        locale = str(interaction.locale)
        bests = await league.solo_bests(services(self.bot), server_of(interaction), ruleset.id, stage)
        if not bests:
            raise UserError("league.no_solo", stage=stage[:100], ruleset=ruleset.name)
        await interaction.response.send_message(embed=solo_embed(bests, ruleset.name, stage, locale))

    @app_commands.command(name="forget-me", description=text("command.league.forget_me"))
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        locale = str(interaction.locale)
        changed = await league.forget_member(services(self.bot), server_of(interaction), interaction.user.id)
        key = "league.forgotten" if changed else "league.nothing_to_forget"
        await interaction.response.send_message(t(key, locale), ephemeral=True)


__all__ = ["PAGE_SIZE", "LeagueCog"]

"""The /stage commands: new, list, show, edit, delete, export, import and analyse a server's stages.

A stage is written in its rule system's own terms: the fields of the system's stage model (Flamme
Rouge ``tiles`` or ``profile``; Tabella ``table`` and ``rows``; Wyścig ``deck`` and ``stages``; Mind
Cycling ``course``, ``strip_length``, ``rocks``, ``supply_spaces``), typed into a modal built from the
model itself, so nothing here knows which system it edits. Every command passes the one permission
check first (:mod:`bot.services.permissions`).
"""

from __future__ import annotations

import io
import json
import logging
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import catalogue
from bot.bots import style
from bot.exts import _admin
from bot.exts.race._text import say
from bot.i18n import t
from bot.options import RulesetParam
from bot.render.files import preview_file
from bot.services import analysis, stages
from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.standings import column_label
from bot.translator import text
from engine.registry import get_ruleset
from engine.ruleset import Ruleset

_log = logging.getLogger(__name__)

MODAL_FIELDS = 5
"""Discord's limit on a modal's inputs: the stage model's fields (at most 4 today), then the variants."""
BOARD_LIMIT = 1024 - len("```\n\n```")
ANALYSIS_RACES = 200
"""How many all-bot races ``/stage analyse`` runs unless told otherwise."""


FIELD_WORDS: dict[tuple[str, str], tuple[str, str]] = {
    ("flamme_rouge", "preset"): ("stage.field.fr_preset", "stage.help.fr_preset"),
    ("flamme_rouge", "tiles"): ("stage.field.fr_tiles", "stage.help.fr_tiles"),
    ("flamme_rouge", "profile"): ("stage.field.fr_profile", "stage.help.fr_profile"),
    ("flamme_rouge", "name"): ("stage.field.fr_name", "stage.help.fr_name"),
    ("tabella", "table"): ("stage.field.td_table", "stage.help.td_table"),
    ("tabella", "rows"): ("stage.field.td_rows", "stage.help.td_rows"),
    ("wyscig", "deck"): ("stage.field.wk_deck", "stage.help.wk_deck"),
    ("wyscig", "stages"): ("stage.field.wk_stages", "stage.help.wk_stages"),
    ("mind_cycling", "course"): ("stage.field.mc_course", "stage.help.mc_course"),
    ("mind_cycling", "strip_length"): ("stage.field.mc_strip_length", "stage.help.mc_strip_length"),
    ("mind_cycling", "rocks"): ("stage.field.mc_rocks", "stage.help.mc_rocks"),
    ("mind_cycling", "supply_spaces"): ("stage.field.mc_supply_spaces", "stage.help.mc_supply_spaces"),
}
"""Each stage field's label and help line as an admin reads them (the field's own name is the key the
stage's JSON uses, shown nowhere else); a field added to a stage model without words here falls back to
its name and its type."""


def _field_words(ruleset_id: str, field_name: str, locale: str | None) -> tuple[str, str]:
    keys = FIELD_WORDS.get((ruleset_id, field_name))
    if keys is None:
        return field_name, stages.field_help(ruleset_id, field_name)
    return t(keys[0], locale), t(keys[1], locale)


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _compact(value: Any) -> str:
    """A variant's value as ``name=value`` text reads it back (JSON without spaces)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class StageModal(discord.ui.Modal):
    """One text input per field of the rule system's stage model, prefilled when editing."""

    def __init__(
        self,
        cog: StageCog,
        ruleset: Ruleset[Any],
        name: str,
        current: dict[str, Any] | None,
        options: dict[str, Any] | None = None,
        locale: str | None = None,
    ) -> None:
        title = t("stage.modal_title", locale, ruleset=ruleset.name, name=name)
        super().__init__(title=title[:45], timeout=900)
        self.cog, self.ruleset, self.name, self.editing = cog, ruleset, name, current is not None
        self.inputs: dict[str, discord.ui.TextInput[StageModal]] = {}
        for field_name in stages.fields_of(ruleset.id)[:MODAL_FIELDS]:
            shown = _value_text(current[field_name]) if current and field_name in current else None
            label, help_line = _field_words(ruleset.id, field_name, locale)
            box: discord.ui.TextInput[StageModal] = discord.ui.TextInput(
                label=label[:45],
                placeholder=help_line[:100],
                default=shown[:4000] if shown else None,
                required=False,
                max_length=4000,
                style=discord.TextStyle.paragraph,
            )
            self.inputs[field_name] = box
            self.add_item(box)
        self.options: discord.ui.TextInput[StageModal] | None = None
        if len(self.inputs) < MODAL_FIELDS:
            self.options = discord.ui.TextInput(
                label=t("stage.field.options", locale)[:45],
                placeholder=t("stage.help.options", locale)[:100],
                default=" ".join(f"{k}={_compact(v)}" for k, v in (options or {}).items())[:4000] or None,
                required=False,
                max_length=4000,
                style=discord.TextStyle.paragraph,
            )
            self.add_item(self.options)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        ctx = await _admin.require_manager(interaction)
        assert interaction.guild is not None
        try:
            data = stages.parse_fields(self.ruleset.id, {k: box.value for k, box in self.inputs.items()})
            options = stages.parse_options(self.options.value if self.options is not None else "")
            if self.editing:
                info = await stages.edit(ctx, interaction.guild.id, self.ruleset.id, self.name, data, options)
            else:
                by = interaction.user.id
                info = await stages.create(ctx, interaction.guild.id, self.ruleset.id, self.name, data, by, options)
        except Refusal as refusal:
            raise _admin.refused(refusal) from None
        key = "stage.edited" if self.editing else "stage.saved"
        view = StageActions(self.cog, self.ruleset, info.name, str(interaction.locale))
        await self.cog.send_stage(interaction, info, t(key, str(interaction.locale), name=info.name), view=view)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, /) -> None:  # type: ignore[override]
        from bot import errors

        await errors.report(interaction, error)


class StageActions(discord.ui.View):
    """Under a stage just saved: change it again, or see how it plays (each click passes the permission check)."""

    def __init__(self, cog: StageCog, ruleset: Ruleset[Any], name: str, locale: str) -> None:
        super().__init__(timeout=900)
        self.cog, self.ruleset, self.name = cog, ruleset, name
        edit: discord.ui.Button[StageActions] = discord.ui.Button(label=t("stage.button_edit", locale))
        analyse: discord.ui.Button[StageActions] = discord.ui.Button(label=t("stage.button_analyse", locale))
        edit.callback = self.edit  # type: ignore[method-assign]
        analyse.callback = self.analyse  # type: ignore[method-assign]
        self.add_item(edit)
        self.add_item(analyse)

    async def edit(self, interaction: discord.Interaction[Any]) -> None:
        ctx = await _admin.require_manager(interaction)
        info = await self.cog.saved(ctx, interaction, self.ruleset, self.name)
        await interaction.response.send_modal(
            StageModal(self.cog, self.ruleset, info.name, info.stage, info.options, str(interaction.locale))
        )

    async def analyse(self, interaction: discord.Interaction[Any]) -> None:
        ctx = await _admin.require_manager(interaction)
        info = await self.cog.saved(ctx, interaction, self.ruleset, self.name)
        await self.cog.run_analysis(interaction, self.ruleset, info, None)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, item: Any, /) -> None:
        from bot import errors

        await errors.report(interaction, error)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class StageCog(commands.GroupCog, group_name="stage", group_description=text("command.stage")):
    """A server's own stages, for those allowed to manage Gregario."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.analyser = analysis.Analyser()
        self.analysis_races = ANALYSIS_RACES
        super().__init__()

    async def cog_unload(self) -> None:
        self.analyser.close()
        await _admin.close(self.bot)

    # --- showing -----------------------------------------------------------------------------------
    async def send_stage(
        self,
        interaction: discord.Interaction[Any],
        info: stages.StageInfo,
        content: str,
        view: discord.ui.View | None = None,
    ) -> None:
        """A stage's summary (its fields, its board) and its preview picture, drawn off the event loop."""
        locale = str(interaction.locale)
        rules = get_ruleset(info.ruleset)
        board = t(rules.stage_board(info.stage, info.options), locale)
        embed = discord.Embed(title=info.name[:256], description=t("stage.summary", locale, ruleset=rules.name))
        for key, value in info.stage.items():
            label = _field_words(info.ruleset, key, locale)[0]
            embed.add_field(name=label[:256], value=f"`{_value_text(value)[:1000]}`", inline=False)
        if info.options:
            variants = " ".join(f"{k}={_compact(v)}" for k, v in info.options.items())
            embed.add_field(name=t("stage.field.options", locale), value=f"`{variants[:1000]}`", inline=False)
        if len(board) <= BOARD_LIMIT:
            embed.add_field(name=t("stages.board", locale), value=f"```\n{board}\n```", inline=False)
        files: list[discord.File] = []
        filename = catalogue.board_filename(rules, info.name).removesuffix(".txt") + ".png"
        try:
            picture = await preview_file(
                rules.id, info.stage, info.options, description=board, locale=locale, filename=filename
            )
            files.append(picture)
            embed.set_image(url=f"attachment://{picture.filename}")
        except Exception:
            _log.exception("saved stage preview failed: %s %s", rules.id, info.name)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if interaction.response.is_done():
            await interaction.followup.send(content, embed=embed, files=files, **extra)
        else:
            await interaction.response.send_message(content, embed=embed, files=files, **extra)

    # --- commands ----------------------------------------------------------------------------------
    @app_commands.command(name="new", description=text("command.stage.new"))
    @app_commands.describe(ruleset=text("command.stage.ruleset"), name=text("command.stage.name"))
    async def new(self, interaction: discord.Interaction[Any], ruleset: RulesetParam, name: str) -> None:
        await _admin.require_manager(interaction)
        await interaction.response.send_modal(StageModal(self, ruleset, name, None, None, str(interaction.locale)))

    @app_commands.command(name="edit", description=text("command.stage.edit"))
    @app_commands.describe(ruleset=text("command.stage.ruleset"), name=text("command.stage.name"))
    async def edit(self, interaction: discord.Interaction[Any], ruleset: RulesetParam, name: str) -> None:
        ctx = await _admin.require_manager(interaction)
        info = await self._get(ctx, interaction, ruleset, name)
        await interaction.response.send_modal(
            StageModal(self, ruleset, info.name, info.stage, info.options, str(interaction.locale))
        )

    @app_commands.command(name="show", description=text("command.stage.show"))
    @app_commands.describe(ruleset=text("command.stage.ruleset"), name=text("command.stage.name"))
    async def show(self, interaction: discord.Interaction[Any], ruleset: RulesetParam, name: str) -> None:
        ctx = await _admin.require_manager(interaction)
        info = await self._get(ctx, interaction, ruleset, name)
        await self.send_stage(interaction, info, "")

    @app_commands.command(name="list", description=text("command.stage.list"))
    @app_commands.describe(ruleset=text("command.stage.ruleset_any"))
    async def list_(self, interaction: discord.Interaction[Any], ruleset: RulesetParam | None = None) -> None:
        ctx = await _admin.require_manager(interaction)
        assert interaction.guild is not None
        locale = str(interaction.locale)
        found = await stages.listed(ctx, interaction.guild.id, ruleset.id if ruleset else None)
        embed = discord.Embed(title=t("stage.list_title", locale))
        if not found:
            embed.description = t("stage.list_empty", locale)
        for info in found[: catalogue.CHOICE_LIMIT]:
            summary = ", ".join(f"{k} {_value_text(v)}" for k, v in info.stage.items())
            embed.add_field(name=f"{info.name} · {get_ruleset(info.ruleset).name}"[:256], value=summary[:1024] or "—")
        if len(found) > catalogue.CHOICE_LIMIT:
            embed.set_footer(text=t("stages.more", locale, count=len(found) - catalogue.CHOICE_LIMIT))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="delete", description=text("command.stage.delete"))
    @app_commands.describe(ruleset=text("command.stage.ruleset"), name=text("command.stage.name"))
    async def delete(self, interaction: discord.Interaction[Any], ruleset: RulesetParam, name: str) -> None:
        ctx = await _admin.require_manager(interaction)
        assert interaction.guild is not None
        try:
            info = await stages.delete(ctx, interaction.guild.id, ruleset.id, name)
        except Refusal as refusal:
            raise _admin.refused(refusal) from None
        await interaction.response.send_message(t("stage.deleted", str(interaction.locale), name=info.name))

    @app_commands.command(name="export", description=text("command.stage.export"))
    @app_commands.describe(ruleset=text("command.stage.ruleset"), name=text("command.stage.name"))
    async def export(self, interaction: discord.Interaction[Any], ruleset: RulesetParam, name: str) -> None:
        ctx = await _admin.require_manager(interaction)
        info = await self._get(ctx, interaction, ruleset, name)
        filename = catalogue.board_filename(ruleset, info.name).removesuffix(".txt") + ".json"
        file = discord.File(io.BytesIO(stages.export(info)), filename=filename)
        await interaction.response.send_message(
            t("stage.exported", str(interaction.locale), name=info.name), file=file, ephemeral=True
        )

    @app_commands.command(name="import", description=text("command.stage.import"))
    @app_commands.describe(file=text("command.stage.file"), name=text("command.stage.rename"))
    async def import_(
        self, interaction: discord.Interaction[Any], file: discord.Attachment, name: str | None = None
    ) -> None:
        ctx = await _admin.require_manager(interaction)
        assert interaction.guild is not None
        if file.size > stages.FILE_LIMIT:  # told by Discord: refused before anything is downloaded
            raise _admin.refused(Refusal.of("stage.file_too_big", limit=stages.FILE_LIMIT // 1024))
        # Ephemeral: a refusal (the first followup fills this deferred answer) is for the admin alone,
        # and so is the summary of what was imported.
        await interaction.response.defer(ephemeral=True, thinking=True)
        content = await file.read()
        try:
            info = await stages.import_file(ctx, interaction.guild.id, content, interaction.user.id, name)
        except Refusal as refusal:
            raise _admin.refused(refusal) from None
        await self.send_stage(interaction, info, t("stage.imported", str(interaction.locale), name=info.name))

    @app_commands.command(name="analyse", description=text("command.stage.analyse"))
    @app_commands.describe(
        ruleset=text("command.stage.ruleset"),
        name=text("command.stage.name"),
        seed=text("command.stage.seed"),
    )
    async def analyse(
        self,
        interaction: discord.Interaction[Any],
        ruleset: RulesetParam,
        name: str,
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
    ) -> None:
        ctx = await _admin.require_manager(interaction)
        info = await self._get(ctx, interaction, ruleset, name)
        await self.run_analysis(interaction, ruleset, info, seed)

    async def run_analysis(
        self, interaction: discord.Interaction[Any], ruleset: Ruleset[Any], info: stages.StageInfo, seed: int | None
    ) -> None:
        """Deferred at once (Discord waits 3 seconds), queued behind this server's analysis, then followed up."""
        assert interaction.guild is not None
        locale = str(interaction.locale)
        queued = self.analyser.busy(interaction.guild.id)
        await interaction.response.defer(thinking=True)
        if queued:
            await interaction.followup.send(t("stage.analysis_queued", locale), ephemeral=True)
        seed = seed if seed is not None else secrets.randbelow(2**31)
        found = await self.analyser.run(
            interaction.guild.id, ruleset.id, info.stage, self.analysis_races, seed, info.options
        )
        headings = (
            t("stage.analysis_seat", locale),
            t("stage.analysis_strategy", locale),
            t("stage.analysis_decided", locale),
        )
        words = {s: style(s, locale) for s in found.wins_by_strategy}
        chart = await _off_loop_chart(found, f"{ruleset.name} · {info.name}", headings, words)
        embed = _analysis_embed(found, ruleset, info.name, locale)
        embed.set_image(url="attachment://analysis.png")
        await interaction.followup.send(
            embed=embed,
            file=discord.File(io.BytesIO(chart), filename="analysis.png", description=_analysis_alt(found, locale)),
        )

    # --- autocomplete ------------------------------------------------------------------------------
    @show.autocomplete("name")
    @edit.autocomplete("name")
    @delete.autocomplete("name")
    @export.autocomplete("name")
    @analyse.autocomplete("name")
    async def saved_names(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        """This server's saved stages of the rule system chosen in the same command."""
        ruleset_id = getattr(interaction.namespace, "ruleset", None)
        if not ruleset_id or interaction.guild is None:
            return []
        ctx = await _admin.context(self.bot)
        try:
            found = await stages.listed(ctx, interaction.guild.id, str(ruleset_id))
        except Refusal:
            return []
        wanted = stages.fold(current)
        return [
            app_commands.Choice(name=s.name[:100], value=s.name[:100]) for s in found if wanted in stages.fold(s.name)
        ][: catalogue.CHOICE_LIMIT]

    async def saved(
        self, ctx: Context, interaction: discord.Interaction[Any], ruleset: Ruleset[Any], name: str
    ) -> stages.StageInfo:
        """This server's stage ``name``, or the refusal listing its stages."""
        return await self._get(ctx, interaction, ruleset, name)

    async def _get(
        self, ctx: Context, interaction: discord.Interaction[Any], ruleset: Ruleset[Any], name: str
    ) -> stages.StageInfo:
        assert interaction.guild is not None
        try:
            return await stages.get(ctx, interaction.guild.id, ruleset.id, name)
        except Refusal as refusal:
            raise _admin.refused(refusal) from None


async def _off_loop_chart(
    found: analysis.Analysis, title: str, headings: tuple[str, str, str], strategies: dict[str, str]
) -> bytes:
    import asyncio

    return await asyncio.get_running_loop().run_in_executor(
        None, analysis.chart_png, found, title, headings, strategies
    )


def _percent(value: float) -> str:
    return f"{value:.0%}"


def _analysis_embed(found: analysis.Analysis, ruleset: Ruleset[Any], name: str, locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("stage.analysis_title", locale, name=name)[:256],
        description=t(
            "stage.analysis_summary",
            locale,
            races=found.races,
            finished=found.finished,
            ruleset=ruleset.name,
            steps=found.average_steps,
            seed=found.seed,
        ),
    )
    decided = ", ".join(
        f"{10 * k}-{10 * k + 10}%: {_percent(v / max(found.finished, 1))}" for k, v in found.decided_at.items()
    )
    embed.add_field(name=t("stage.analysis_decided", locale), value=decided or "—", inline=False)
    embed.add_field(
        name=t("stage.analysis_strategy", locale),
        value="\n".join(f"{style(s, locale)}: {_percent(v)}" for s, v in found.wins_by_strategy.items())[:1024] or "—",
    )
    embed.add_field(
        name=t("stage.analysis_seat", locale),
        value="\n".join(f"{p}: {_percent(v)}" for p, v in found.wins_by_seat.items())[:1024] or "—",
    )
    # Figures under their columns' headings; a figure no column shows is bookkeeping, left out.
    headings = {c["key"]: column_label(c, locale) for c in found.columns}
    figures = [f"{headings[k]}: {v:g}" for k, v in found.figures.items() if k in headings]
    if figures:
        embed.add_field(name=t("stage.analysis_figures", locale), value="\n".join(figures)[:1024], inline=False)
    # Each frequent event by what it says (one example), never its kind's key.
    events = [
        t("stage.analysis_event", locale, count=f"{v:g}", example=say(found.examples[k], locale))
        for k, v in found.events.items()
        if k in found.examples
    ]
    if events:
        embed.add_field(name=t("stage.analysis_events", locale), value="\n".join(events)[:1024], inline=False)
    return embed


def _analysis_alt(found: analysis.Analysis, locale: str) -> str:
    seats = ", ".join(f"{p}: {_percent(v)}" for p, v in found.wins_by_seat.items())
    strategies = ", ".join(f"{style(s, locale)}: {_percent(v)}" for s, v in found.wins_by_strategy.items())
    return t("stage.analysis_alt", locale, seats=seats, strategies=strategies)[:1024]

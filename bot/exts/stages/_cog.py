"""The /stages command: the cog renders; presets and boards come from the engine via ``bot.catalogue``."""

from __future__ import annotations

import io
import logging
from pathlib import PurePath
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import catalogue
from bot.errors import UserError
from bot.exts import _admin
from bot.i18n import t
from bot.options import RulesetParam
from bot.render.files import preview_file
from bot.services import stages as saved_stages
from bot.services.outcomes import Refusal
from bot.translator import text
from engine.messages import Message
from engine.registry import get_ruleset
from engine.ruleset import Preset

FIELD_VALUE_LIMIT = 1024
BOARD_PREVIEW_LIMIT = FIELD_VALUE_LIMIT - len("```\n\n```")
"""A board that fits in an embed field is also shown there; the attachment always has it whole."""


_log = logging.getLogger(__name__)


NAMES_LIMIT = 1500
"""Room for the list of stage names in a refusal (a message holds 2,000 characters)."""

STAGE_ECHO_LIMIT = 100
"""How much of an unknown stage name the refusal repeats (the user typed it; the names list matters more)."""

EMBED_BUDGET = 6000 - 400
"""Discord's 6,000 characters per embed, less room for the title and footer."""


def _add_preset_fields(embed: discord.Embed, presets: list[Preset], locale: str) -> int:
    """One field per preset while Discord's limits allow (25 fields, 6,000 characters); how many fit."""
    budget = EMBED_BUDGET
    for count, preset in enumerate(presets[: catalogue.CHOICE_LIMIT]):
        label = t(preset.label, locale) if preset.label else ""
        title = catalogue.preset_title(preset, locale)
        name = (f"{title} · {label}" if label else title)[:256]
        value = t(preset.summary, locale)[:FIELD_VALUE_LIMIT] or "—"
        if len(name) + len(value) > budget:
            return count
        budget -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=False)
    return min(len(presets), catalogue.CHOICE_LIMIT)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class StagesCog(commands.Cog):
    """Lists the stages a rule system ships with and draws one of them."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="stages", description=text("command.stages"))
    @app_commands.describe(ruleset=text("command.stages.ruleset"), stage=text("command.stages.stage"))
    async def stages(
        self, interaction: discord.Interaction[Any], ruleset: RulesetParam, stage: str | None = None
    ) -> None:
        locale = str(interaction.locale)
        presets = ruleset.presets()
        if stage is None:
            embed = discord.Embed(
                title=t("stages.list_title", locale, ruleset=ruleset.name),
                description=None if presets else t("stages.none", locale, ruleset=ruleset.name),
            )
            shown = _add_preset_fields(embed, presets, locale)
            if shown < len(presets):
                embed.set_footer(text=t("stages.more", locale, count=len(presets) - shown))
            elif presets:
                embed.set_footer(text=t("stages.list_footer", locale))
            await interaction.response.send_message(embed=embed)
            return

        chosen = catalogue.find_preset(ruleset, stage, locale)
        shown_stage: Any = chosen.name if chosen is not None else None
        shown_options: dict[str, Any] = {}
        if chosen is None and interaction.guild is not None:
            # i17: this server's saved stages are shown too (their data, not a preset name).
            saved = await _saved_stage(self.bot, interaction.guild.id, ruleset.id, stage)
            if saved is not None:
                said = {"ruleset": ruleset.name}
                summary = Message("stage.summary", said, t("stage.summary", "en", **said))
                chosen = Preset(name=saved.name, summary=summary)
                shown_stage, shown_options = saved.stage, saved.options
        if chosen is None:
            names = _shorten(", ".join(p.name for p in presets) or "—", NAMES_LIMIT)
            echoed = _shorten(stage, STAGE_ECHO_LIMIT)
            raise UserError("stages.unknown_stage", stage=echoed, ruleset=ruleset.name, names=names)
        board = t(ruleset.stage_board(shown_stage, shown_options), locale)
        embed = discord.Embed(
            title=catalogue.preset_title(chosen, locale)[:256], description=_shorten(t(chosen.summary, locale), 4096)
        )
        if chosen.label:
            embed.add_field(name=t("stages.label", locale), value=t(chosen.label, locale))
        if len(board) <= BOARD_PREVIEW_LIMIT:
            embed.add_field(name=t("stages.board", locale), value=f"```\n{board}\n```", inline=False)
        text_name = catalogue.board_filename(ruleset, chosen.name)
        files = [discord.File(io.BytesIO(board.encode("utf-8")), filename=text_name)]
        picture = await self._preview(ruleset.id, shown_stage, locale, board, text_name, shown_options)
        if picture is not None:
            # The picture shows in the embed; its alt text and the text file carry the same board.
            files.append(picture)
            embed.set_image(url=f"attachment://{picture.filename}")
            embed.set_footer(text=t("stages.picture_footer", locale, ruleset=ruleset.name))
        else:
            embed.set_footer(text=t("stages.board_footer", locale, ruleset=ruleset.name))
        await interaction.response.send_message(embed=embed, files=files)

    @staticmethod
    async def _preview(
        ruleset_id: str, stage: Any, locale: str, board: str, text_name: str, options: dict[str, Any] | None = None
    ) -> discord.File | None:
        """The stage's picture, drawn off the event loop; ``None`` (the text board still goes out) if
        drawing fails, so a picture problem never costs the player the answer."""
        try:
            return await preview_file(
                ruleset_id,
                stage,
                options,
                description=board,
                locale=locale,
                filename=PurePath(text_name).with_suffix(".png").name,
            )
        except Exception:
            _log.exception("stage preview failed: %s %s", ruleset_id, stage)
            return None

    @stages.autocomplete("stage")
    async def stage_names(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        """The presets of the rule system chosen in the same command (and, on a server, its saved stages),
        filtered by what is typed."""
        ruleset_id = getattr(interaction.namespace, "ruleset", None)
        if not ruleset_id:
            return []
        try:
            ruleset = get_ruleset(str(ruleset_id))
        except (KeyError, ImportError, AttributeError):
            return []
        if interaction.guild is not None:  # i17: presets and this server's saved stages
            ctx = await _admin.context(self.bot)
            found = await saved_stages.stage_choices(ctx, interaction.guild.id, ruleset.id, current)
            titles = {p.name: catalogue.preset_title(p, str(interaction.locale)) for p in ruleset.presets()}
            return [app_commands.Choice(name=titles.get(c.value, c.name)[:100], value=c.value[:100]) for c in found]
        return [
            app_commands.Choice(name=catalogue.preset_title(p, str(interaction.locale))[:100], value=p.name[:100])
            for p in catalogue.matching_presets(ruleset, current)
        ]


async def _saved_stage(bot: commands.Bot, server_id: int, ruleset_id: str, name: str) -> saved_stages.StageInfo | None:
    """This server's saved stage called ``name``, if any (``/stages`` shows it like a preset)."""
    ctx = await _admin.context(bot)
    try:
        return await saved_stages.get(ctx, server_id, ruleset_id, name)
    except Refusal:
        return None

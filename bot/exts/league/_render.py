"""League embeds: the standings page, a rider's profile, a points table. Text only through ``t``."""

from __future__ import annotations

import math

import discord

from bot.bots import style
from bot.catalogue import stage_title
from bot.i18n import t
from bot.services.league_points import PointsTable
from bot.services.league_standings import Profile, StandingLine, Standings
from bot.store.league_tables import LeagueSoloBest
from engine.registry import get_ruleset

PAGE_SIZE = 10
"""Members per standings page."""
BOTS_SHOWN = 10
FIELD_LIMIT = 1024


def pages(standings: Standings) -> int:
    return max(1, math.ceil(len(standings.members) / PAGE_SIZE))


def display_name(line: StandingLine, locale: str) -> str:
    """A member's name, a bot strategy's, or the anonymous name of a forgotten member."""
    if line.kind == "bot":
        return t("league.bot_name", locale, strategy=style(line.name, locale))
    if line.kind == "forgotten" or not line.name:
        return t("league.forgotten_name", locale)
    return discord.utils.escape_markdown(line.name)


RATING_BASE = 1000
RATING_SCALE = 40
"""The rating players read: ``1000 + 40 × ordinal`` (openskill's ``mu - 3 sigma``), a whole number on the
familiar scale of chess ratings: a newcomer reads 1000, one ordinal point is 40 (docs/league.md)."""


def shown_rating(ordinal: float) -> int:
    """An openskill ordinal on the scale players read (``0`` -> ``1000``)."""
    return round(RATING_BASE + RATING_SCALE * ordinal)


def rating_text(rating: float | None, trend: float | None, locale: str) -> str:
    if rating is None:
        return t("league.unrated", locale)
    moved = round(RATING_SCALE * trend) if trend is not None else 0
    if moved == 0:
        return t("league.rating_flat", locale, rating=shown_rating(rating))
    key = "league.rating_up" if moved > 0 else "league.rating_down"
    return t(key, locale, rating=shown_rating(rating), trend=abs(moved))


def stage_shown(ruleset_id: str, stage: str, locale: str) -> str:
    """A league stage label as players read it: the rule system's own stage and presets by their titles, a
    stage without a name (``custom-1a2b3c4d``) as "a stage of its own"."""
    if stage == "default":
        return stage_title(ruleset_id, None, locale)
    if stage.startswith("custom-"):
        return t("race.lobby.own_stage", locale)
    try:
        return stage_title(ruleset_id, stage, locale)
    except (KeyError, ImportError, AttributeError):
        return stage


def line_text(line: StandingLine, locale: str) -> str:
    key = "league.standing_line_provisional" if line.provisional else "league.standing_line"
    return t(
        key,
        locale,
        rank=line.rank,
        name=display_name(line, locale),
        points=line.points,
        wins=t("league.count.wins", locale, count=line.wins),
        races=t("league.count.races", locale, count=line.races),
        rating=rating_text(line.rating, line.trend, locale),
    )


def _fit(lines: list[str], limit: int) -> str:
    out: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out) or "—"


def standings_embed(standings: Standings, ruleset_name: str, page: int, locale: str) -> discord.Embed:
    key = "league.standings_title" if standings.season_open else "league.standings_title_ended"
    embed = discord.Embed(title=t(key, locale, ruleset=ruleset_name, season=standings.season))
    shown = standings.members[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    embed.description = (
        _fit([line_text(line, locale) for line in shown], 4000) if shown else t("league.no_members", locale)
    )
    if standings.bots:
        embed.add_field(
            name=t("league.bots_title", locale),
            value=_fit([line_text(line, locale) for line in standings.bots[:BOTS_SHOWN]], FIELD_LIMIT),
            inline=False,
        )
    footer = t("league.standings_footer", locale, page=page + 1, pages=pages(standings))
    if any(line.provisional for line in [*standings.members, *standings.bots]):
        note = t("league.provisional_note", locale)
        footer = f"{footer} · {note}"
    embed.set_footer(text=footer)
    return embed


def _ruleset_name(ruleset_id: str) -> str:
    try:
        return get_ruleset(ruleset_id).name
    except (KeyError, ImportError, AttributeError):
        return ruleset_id


def profile_embed(profile: Profile, name: str, locale: str) -> discord.Embed:
    embed = discord.Embed(title=t("league.profile_title", locale, name=discord.utils.escape_markdown(name)))
    embed.add_field(name=t("league.races", locale), value=str(profile.races))
    embed.add_field(name=t("league.wins", locale), value=str(profile.wins))
    embed.add_field(name=t("league.podiums", locale), value=str(profile.podiums))
    embed.add_field(name=t("league.points", locale), value=str(profile.points))
    if profile.ratings:
        ratings = [
            t(
                "league.profile_rating",
                locale,
                ruleset=_ruleset_name(r.ruleset),
                rating=rating_text(r.rating, r.trend, locale),
                races=t("league.count.rated_races", locale, count=r.races),
            )
            for r in profile.ratings
        ]
        embed.add_field(name=t("league.rating", locale), value=_fit(ratings, FIELD_LIMIT), inline=False)
    if profile.best_stage is not None:
        ruleset, stage, average, races = profile.best_stage
        embed.add_field(
            name=t("league.best_stage", locale),
            value=t(
                "league.best_stage_value",
                locale,
                stage=stage_shown(ruleset, stage, locale),
                ruleset=_ruleset_name(ruleset),
                average=f"{average:.1f}",
                races=t("league.count.races", locale, count=races),
            ),
            inline=False,
        )
    recent = [
        t(
            "league.recent_line_provisional" if r.provisional else "league.recent_line",
            locale,
            ruleset=_ruleset_name(r.ruleset),
            stage=stage_shown(r.ruleset, r.stage, locale),
            place=r.place,
            points=r.points,
            when=f"<t:{int(r.finished_at.timestamp())}:R>",
        )
        for r in profile.recent
    ]
    if recent:
        embed.add_field(name=t("league.recent", locale), value=_fit(recent, FIELD_LIMIT), inline=False)
    return embed


def points_text(table: PointsTable, locale: str) -> str:
    listed = ", ".join(str(p) for p in table.points)
    return t("league.points_table", locale, points=listed, rest=table.rest)


def solo_embed(bests: list[LeagueSoloBest], ruleset_name: str, stage: str, locale: str) -> discord.Embed:
    """The best solo rides on a stage, fewest steps first."""
    lines = [
        t(
            "league.solo_line",
            locale,
            rank=n,
            name=discord.utils.escape_markdown(best.name) if best.name else t("league.forgotten_name", locale),
            steps=best.steps,
            when=f"<t:{int(best.achieved_at.timestamp())}:R>",
        )
        for n, best in enumerate(bests, start=1)
    ]
    embed = discord.Embed(title=t("league.solo_title", locale, stage=stage[:100], ruleset=ruleset_name))
    embed.description = _fit(lines, 4000)
    return embed

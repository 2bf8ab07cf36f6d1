"""/race new follows the server: its saved stages, the channels races may run in, and the league's points."""

from __future__ import annotations

from typing import Any

from bot.app import Gregario
from bot.exts.stage._cog import _field_words
from bot.services import boards, server_settings
from tests.fakediscord import DiscordUser, FakeDiscord, Guild


async def _save_stage(admin: DiscordUser, ruleset: str, name: str, typed: dict[str, str]) -> None:
    """Save a stage through /stage new, its fields typed by the labels an admin reads."""
    modal = await (await admin.slash("stage new", ruleset=ruleset, name=name)).modal()
    await (await admin.submit(modal, {_field_words(ruleset, k, "en-US")[0]: v for k, v in typed.items()})).reply()


async def test_race_new_offers_and_opens_the_servers_saved_stage(gregario: Gregario, alice: DiscordUser) -> None:
    """An admin's saved Tabella stage is suggested by /race new and the race copies its ground."""
    await _save_stage(alice, "tabella", "Ridge", {"table": "classic", "rows": "3"})
    suggested = await alice.autocomplete("race new", "stage", "rid", ruleset="tabella")
    assert ("Ridge", "Ridge") in suggested
    lobby = await (await alice.slash("race new", ruleset="tabella", stage="Ridge")).reply()
    assert "Alice" in lobby.text
    assert gregario.runtime is not None
    stage: Any = await boards.stage_of(gregario.runtime.ctx, 1)
    assert stage == {"table": "classic", "rows": 3}


async def test_an_unknown_stage_is_refused_naming_the_saved_ones(gregario: Gregario, alice: DiscordUser) -> None:
    """A stage nobody saved gets a short refusal that lists the presets and the server's own stages."""
    await _save_stage(alice, "tabella", "Ridge", {"table": "classic", "rows": "3"})
    reply = await (await alice.slash("race new", ruleset="tabella", stage="Nowhere")).reply()
    assert reply.ephemeral and "Nowhere" in reply.text and "Ridge" in reply.text


async def test_race_new_is_refused_outside_the_servers_race_channels(
    gregario: Gregario, fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """With races kept to #races, /race new elsewhere is refused and opens nothing; in #races it opens."""
    assert gregario.runtime is not None
    races = guild.channel("races")
    elsewhere = guild.channel("general")
    await server_settings.change(gregario.runtime.ctx, guild.id, "race_channels", f"<#{races.id}>")
    refused = await (await alice.slash("race new", ruleset="wyscig", channel=elsewhere)).reply()
    assert refused.ephemeral and str(races.id) in refused.text
    assert await boards.member_races(gregario.runtime.ctx, guild.id, alice.id) == []
    opened = await (await alice.slash("race new", ruleset="wyscig", channel=races)).reply()
    assert not opened.ephemeral and "Alice" in opened.text

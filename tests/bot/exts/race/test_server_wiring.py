"""/race new follows the server: its saved stages, the channels races may run in, and the league's points."""

from __future__ import annotations

from bot.app import Gregario
from bot.exts.league._render import stage_shown
from bot.exts.stage._cog import _field_words
from bot.services import boards, league, server_settings, stepping
from bot.store.tables import RaceRow
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
    assert await boards.stage_again(gregario.runtime.ctx, 1) == ({"table": "classic", "rows": 3}, "Ridge")


async def test_a_race_on_a_saved_stage_is_told_by_the_stages_name(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """The lobby, the race's header and /race board's caption name the saved stage "Ridge", never "a stage of
    its own"; the league files the race under that name, and a rematch runs on the same copy, named alike."""
    await _save_stage(alice, "tabella", "Ridge", {"table": "classic", "rows": "3"})
    lobby = await (await alice.slash("race new", ruleset="tabella", stage="ridge", bots=1)).reply()
    assert "Stage: Ridge ·" in lobby.text, lobby.text
    await (await alice.click(lobby, "Start")).acknowledged()
    await fake_discord.wait_until(lambda: "Start" not in lobby.buttons, 8, lambda: lobby.text)
    assert "Stage: Ridge ·" in lobby.text and "of its own" not in lobby.text, lobby.text
    board = await (await alice.slash("race board")).reply()
    assert "· Ridge ·" in board.text, board.text
    assert gregario.runtime is not None
    ctx = gregario.runtime.ctx
    assert await boards.stage_of(ctx, 1) == "Ridge"
    async with ctx.db.sessions() as session:
        race = await session.get(RaceRow, 1)
    assert race is not None
    assert league.stage_label(stepping.stage_label(race.ruleset, race.stage, race.stage_name)) == "Ridge"
    assert stage_shown("tabella", "Ridge", "en") == "Ridge"


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

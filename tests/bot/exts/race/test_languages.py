"""The posts everyone reads in the race's channel speak the server's language; each player's DMs speak theirs.

Only English ships, so a test-only catalogue stands in for another language: every English template
marked with the language's code, which shows which catalogue each message came from."""

from __future__ import annotations

import pytest

import bot.i18n
from bot.services import server_settings
from bot.settings import Settings
from tests.bot.exts.race.table import Table, finals, race_reads, threads_of
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Guild

ENGLISH = bot.i18n.catalog("en")


def _mark(locale: str, template: bot.i18n.Template) -> bot.i18n.Template:
    """A template marked with the language's code (each plural form of a counted sentence)."""
    if isinstance(template, dict):
        return {form: f"[{locale}] {text}" for form, text in template.items()}
    return f"[{locale}] {template}"


def _marked(locale: str) -> dict[str, bot.i18n.Template]:
    if locale in ("en", "en-US", "en-GB"):
        return ENGLISH
    if locale in ("fr", "de"):
        return {key: _mark(locale, template) for key, template in ENGLISH.items()}
    return {}


@pytest.fixture
def marked_catalogues(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.i18n, "catalog", _marked)


async def _race_to_the_end(fake: FakeDiscord, settings: Settings, alice: DiscordUser, mark: str) -> None:
    async with running_bot(fake, settings) as gregario:
        assert gregario.runtime is not None
        lobby = await (await alice.slash("race new", ruleset="mind_cycling", stage="short", bots=1)).reply()
        await (await alice.click(lobby, f"{mark}Start")).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        table = Table(fake, gregario.runtime.ctx, race_id, {f"u{alice.id}": alice})
        await table.started()
        for _ in range(200):
            status, step, humans = await table.state()
            if status != "running":
                break
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
        await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
        await fake.settle(0.2, 5)


@pytest.mark.usefixtures("marked_catalogues")
async def test_channel_posts_follow_the_servers_preferred_locale(
    fake_discord: FakeDiscord, bot_settings: Settings, guild: Guild, alice: DiscordUser
) -> None:
    """On a server whose community language is French, the lobby, every round post and the final post come
    from the French catalogue, while Alice (English) gets her panels in English."""
    guild.locale = "fr"
    await _race_to_the_end(fake_discord, bot_settings, alice, "[fr] ")
    channel = [m for m in race_reads(alice) if not m.ephemeral_for]  # the channel and the race's thread
    assert len(channel) >= 3, "the lobby, round posts and the final post"
    assert all(m.text.startswith("[fr] ") for m in channel), [m.text[:40] for m in channel if "[fr]" not in m.text]
    assert [thread.name[:5] for thread in threads_of(alice)] == ["[fr] "], "the race's thread is named in French"
    assert finals(alice)[0].buttons == [f"[fr] {ENGLISH['race.button.rematch']}"]
    assert alice.dms() and not any("[fr]" in m.text for m in alice.dms()), "DMs speak the player's language"
    assert any(m.items() or m.earlier_items() for m in alice.dms()), "her panels came (receipts since)"


@pytest.mark.usefixtures("marked_catalogues")
async def test_the_language_an_admin_chose_comes_before_the_servers_locale(
    fake_discord: FakeDiscord, bot_settings: Settings, guild: Guild, alice: DiscordUser
) -> None:
    """An admin set German in /settings: the channel posts are German although Discord says French."""
    from bot.services.context import Context
    from bot.store.database import connect

    guild.locale = "fr"
    async with running_bot(fake_discord, bot_settings):
        pass  # the database exists
    ctx = Context(db=connect(bot_settings.database_url))
    try:
        await server_settings.change(ctx, guild.id, "language", "de")
    finally:
        await ctx.db.close()
    await _race_to_the_end(fake_discord, bot_settings, alice, "[de] ")
    channel = [m for m in race_reads(alice) if not m.ephemeral_for]  # the channel and the race's thread
    assert channel and all(m.text.startswith("[de] ") for m in channel), [m.text[:40] for m in channel]
    assert [thread.name[:5] for thread in threads_of(alice)] == ["[de] "], "the race's thread is named in German"

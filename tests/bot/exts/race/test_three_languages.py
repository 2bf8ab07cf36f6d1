"""A race with an Italian, a Polish and a Bulgarian member on a server set to Italian: each reads their
panels, DMs and private replies in their own language, everyone reads the channel and thread posts in
Italian, the command list is localised, and the race's record replays to the result the posts told."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from bot.i18n import catalog, t
from bot.services import records, server_settings
from bot.services.context import Context
from bot.settings import Settings
from bot.store.database import connect
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild, Message

LANGUAGES = ("en", "it", "pl", "bg")
MEMBERS = {"Giulia": "it", "Kasia": "pl", "Boyan": "bg"}
"""Each member's Discord locale."""

STAGES: dict[str, dict[str, Any]] = {
    "flamme_rouge": {"stage": "Sprint de Montagne"},
    "wyscig": {"stage": '{"deck": "itemised_108", "stages": 1}'},
}


def _words(template: Any) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    return {w.lower() for text in texts for w in re.findall(r"[^\W\d_]{4,}", re.sub(r"\{[^{}]*\}", " ", text))}


@cache
def signatures() -> dict[str, set[str]]:
    """The words of each catalogue that no other catalogue has: a text holding one reads in that language."""
    words = {lang: set().union(*map(_words, catalog(lang).values())) for lang in LANGUAGES}
    return {lang: words[lang] - set().union(*(words[o] for o in LANGUAGES if o != lang)) for lang in LANGUAGES}


def languages_of(text: str) -> set[str]:
    """The languages whose own words ``text`` holds (a link's words are an address, in no language)."""
    found = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", re.sub(r"https?://\S+", " ", text))}
    return {lang for lang, own in signatures().items() if found & own}


def _reads_in(message: Message, language: str) -> bool:
    """Whether the message, and each earlier version of it, reads in ``language`` and in no other."""
    return languages_of(message.text + " " + " ".join(message.buttons)) == {language}


@pytest.mark.parametrize("ruleset_id", list(STAGES))
async def test_each_member_reads_their_language_and_the_channel_reads_italian(
    fake_discord: FakeDiscord, bot_settings: Settings, guild: Guild, races: Channel, ruleset_id: str
) -> None:
    """The server's Discord locale is English, an admin chose Italian in /settings: the lobby (though Kasia,
    Polish, opened it), the round posts and the final post are Italian; Giulia's, Kasia's and Boyan's DMs and
    private replies are in Italian, Polish and Bulgarian, and so is the answer to a command they ask."""
    fake = fake_discord
    guild.locale = "en-US"
    people: dict[str, DiscordUser] = {}
    for name, locale in MEMBERS.items():
        user = fake.create_user(name, locale=locale)
        fake.add_member(guild, user)
        people[name] = DiscordUser(fake, user, races)
    giulia, kasia, boyan = people.values()
    async with running_bot(fake, bot_settings):
        pass  # the database exists
    admin = Context(db=connect(bot_settings.database_url))
    try:
        await server_settings.change(admin, guild.id, "language", "it")
    finally:
        await admin.db.close()

    async with running_bot(fake, bot_settings) as gregario:
        assert gregario.runtime is not None
        ctx = gregario.runtime.ctx
        # The command list: every command named and described in the three languages, /race as "corsa",
        # "wyścig" and "състезание".
        for command in fake.commands:
            for field in ("name_localizations", "description_localizations"):
                assert {"it", "pl", "bg"} <= set(command.data.get(field) or {}), (command.name, field)
        race = next(c for c in fake.commands if c.name == "race")
        assert race.data["name_localizations"] == {"it": "corsa", "pl": "wyścig", "bg": "състезание"}
        # Kasia (Polish) opens the race: the lobby is the channel's, so Italian.
        lobby = await (await kasia.slash("race new", ruleset=ruleset_id, **STAGES[ruleset_id])).reply()
        for who in (giulia, boyan):
            await (await who.click(lobby, t("race.button.join", "it"))).acknowledged()
        # An answer to a command is the asker's: Boyan asks for the rules and reads them in Bulgarian.
        rules = await (await boyan.slash("rules", ruleset=ruleset_id)).reply()
        assert languages_of(rules.text) == {"bg"}, rules.text[:200]
        await (await kasia.click(lobby, t("race.button.start", "it"))).acknowledged()
        race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
        entrants = {f"u{u.id}": u for u in people.values()}
        table = Table(
            fake,
            ctx,
            race_id,
            entrants,
            locales={f"u{u.id}": MEMBERS[u.name] for u in people.values()},
            channel_locale="it",
        )
        await table.started()
        for _ in range(400):
            status, step, humans = await table.state()
            if status != "running":
                break
            for entrant in humans:
                await table.order(entrant, step)
            await table.wait_step_after(step)
        else:
            raise AssertionError("the race did not finish")
        await fake.wait_until(lambda: finals(giulia), 10, lambda: "no final post")
        await fake.settle(0.2, 5)

        # Everyone's posts: the lobby (now the header), the round posts and the final post.
        public = [
            (channel, m)
            for channel in fake.channels.values()
            if channel.recipient is None
            for m in channel.messages
            if m.ephemeral_for is None and not m.deleted and m.author.bot and (m.text or m.buttons) and m.id != rules.id
        ]
        assert len(public) >= 3, "the lobby, the round posts, the final post"
        wrong = [m.text[:80] for _, m in public if not _reads_in(m, "it")]
        assert not wrong, wrong
        for name, person in people.items():
            dms = [m for m in person.dms() if m.text or m.buttons]
            assert dms, f"{name} got panels"
            wrong = [(name, m.text[:80]) for m in dms if not _reads_in(m, MEMBERS[name])]
            assert not wrong, wrong
            replies = [
                m
                for channel in fake.channels.values()
                for m in channel.messages
                if m.ephemeral_for == person.id and (m.text or m.buttons)
            ]
            wrong = [(name, m.text[:80]) for m in replies if not _reads_in(m, MEMBERS[name])]
            assert not wrong, wrong

        # The record replays to the stored result (the standings the final post told).
        assert await records.replays_to_stored_result(ctx, race_id)

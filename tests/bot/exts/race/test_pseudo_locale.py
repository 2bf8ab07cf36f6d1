"""A whole race of each rule system read in a pseudo-locale (every catalogue text in accented look-alike
letters, and longer): nothing anyone reads comes out in plain English letters (a text that bypassed the
translation function), as a key, or as a template that did not fit (the engine's English fallback), and
every message stays within Discord's limits (the fake refuses what Discord would)."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pytest
from PIL import ImageDraw

from bot import bots
from bot.i18n import t
from bot.settings import Settings
from engine.registry import get_ruleset
from tests.bot import pseudo
from tests.bot.exts.race.table import Table, finals
from tests.fakediscord.plugin import running_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser
from tests.fakediscord.world import Channel, Guild

SHORT: dict[str, dict[str, Any]] = {
    "flamme_rouge": {"stage": "Sprint de Montagne"},
    "tabella": {"options": "mode=live"},
    "wyscig": {"stage": '{"deck": "itemised_108", "stages": 1}'},
    "mind_cycling": {"stage": "short"},
}
"""Short races (Tabella live, so its round posts and panels are many)."""

NAMES = {"Alice", "Bob", "Dave", *bots.NAMES, "Peloton", "Muscle"}
"""Names, read as written in every language: the members', the bots' (Flamme Rouge's bot teams are the
seats the rules name Peloton and Muscle; a seat's name is kept in the race record)."""


class Drawn:
    """Every text drawn on a picture (boards, legends, result cards), from the render threads too."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.lock = threading.Lock()

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = ImageDraw.ImageDraw.text

        def text(draw: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
            with self.lock:
                self.texts.append(str(text))
            original(draw, xy, text, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)


VIEW_ONLY = str(1 << 10 | 1 << 11)
"""A member who may see and post in the channel, without Manage Server (Dave, whose click is refused)."""


def _member(fake: FakeDiscord, guild: Guild, channel: Channel, name: str) -> DiscordUser:
    user = fake.create_user(name, locale=pseudo.LOCALE)
    member = fake.add_member(guild, user)
    if name == "Dave":
        member.permissions = VIEW_ONLY
    return DiscordUser(fake, user, channel)


def _allowed(ruleset_id: str) -> set[str]:
    """The words that are names in every language: the members', the rule systems', the stage's."""
    words = set(NAMES)
    for name in ("flamme_rouge", "tabella", "wyscig", "mind_cycling"):
        words |= set(pseudo.plain_words(get_ruleset(name).name))
    words |= set(pseudo.plain_words(str(SHORT[ruleset_id].get("stage", ""))))
    return words | NOTATION.get(ruleset_id, set())


NOTATION = {"tabella": {"start"}}
"""Notation read as written in every language: Tabella's round labels are its order syntax's field names
(``start: A``, ``m1: 3R``...), which players type, so the round counter and the echoed order show them."""


@pytest.mark.parametrize("ruleset_id", list(SHORT))
async def test_a_whole_race_in_the_pseudo_locale_has_no_untranslated_text(
    fake_discord: FakeDiscord,
    bot_settings: Settings,
    guild: Guild,
    races: Channel,
    ruleset_id: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Alice opens and races, Bob (DMs closed) orders through Open my orders, Dave's click is refused,
    /rules is asked: every text of it, posts, panels, refusals, thread names and pictures, is pseudo."""
    fake = fake_discord
    pseudo.install(monkeypatch)
    drawn = Drawn()
    drawn.install(monkeypatch)
    guild.locale = pseudo.LOCALE
    alice, bob, dave = (_member(fake, guild, races, name) for name in ("Alice", "Bob", "Dave"))
    bob.close_dms()
    since = len(fake.requests)

    def label(key: str) -> str:
        return t(key, pseudo.LOCALE)

    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        async with running_bot(fake, bot_settings) as gregario:
            assert gregario.runtime is not None
            await (await alice.slash("rules", ruleset=ruleset_id)).reply()
            lobby = await (await alice.slash("race new", ruleset=ruleset_id, **SHORT[ruleset_id])).reply()
            await (await bob.click(lobby, label("race.button.join"))).acknowledged()
            refusal = await (await dave.click(lobby, label("race.button.start"))).reply()
            assert refusal.ephemeral_for == dave.id
            await (await alice.click(lobby, label("race.button.start"))).acknowledged()
            race_id = int(lobby.items()[0]["custom_id"].split(":")[2])
            players = {f"u{u.id}": u for u in (alice, bob)}
            table = Table(
                fake,
                gregario.runtime.ctx,
                race_id,
                players,
                closed={f"u{bob.id}"},
                locales=dict.fromkeys(players, pseudo.LOCALE),
                channel_locale=pseudo.LOCALE,
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
            await fake.wait_until(lambda: finals(alice), 10, lambda: "no final post")
            await fake.settle(0.2, 5)
    misfits = [r.getMessage() for r in caplog.records if r.name == "bot.i18n"]
    assert not misfits, misfits[:3]

    sent = [r for r in fake.requests[since:] if "/applications/" not in r.path and r.status < 400]
    texts = [text for r in sent for text in pseudo.texts_of(r.body)]
    assert len(texts) > 30 and drawn.texts, "the race's posts, panels and pictures were read"
    allowed = _allowed(ruleset_id)
    leaks = sorted(
        {(word, text[:120]) for text in texts + drawn.texts for word in pseudo.plain_words(text) if word not in allowed}
    )
    assert not leaks, leaks
    failed = [r for r in fake.requests[since:] if r.status >= 400 and "/channels/" in r.path and r.status != 403]
    assert not [(r.route, r.status, r.answer) for r in failed if r.status == 400], "a message beyond Discord's limits"

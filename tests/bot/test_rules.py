"""/rules end to end: a user asks for a rule system's summary and gets its guide by DM."""

from __future__ import annotations

from typing import Any

from bot import catalogue
from bot.i18n import t
from engine import registry
from engine.ruleset import Ruleset
from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.plugin import running_bot


def _words(text: str) -> str:
    return " ".join(text.split())


async def test_rules_shows_the_summary_with_a_guide_button(
    gregario: Any, alice: DiscordUser, bob: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """/rules answers in the channel with the rule system's name, summary and a guide button."""
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    assert reply.embeds[0]["title"] == ruleset.name
    assert _words(t(ruleset.summary()))[:200] in _words(reply.text)
    low, high = ruleset.player_limits(None, {})
    players = str(low) if low == high else f"{low} to {high}"
    assert f"Players: {players}" in reply.text
    assert reply.buttons == ["Send me the guide"]
    assert reply in bob.read(), "the summary is public"


async def test_every_rule_system_is_offered_as_a_choice(
    fake_discord: FakeDiscord, gregario: Any, rulesets: list[Ruleset[Any]]
) -> None:
    """The ruleset option lists every installed rule system by name."""
    rules = next(c for c in fake_discord.commands if c.name == "rules")
    option = rules.data["options"][0]
    assert option["name"] == "ruleset" and option["required"] is True
    assert [(c["name"], c["value"]) for c in option["choices"]] == [(r.name, r.id) for r in rulesets]


async def test_the_guide_button_sends_the_whole_guide_by_dm(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """Clicking the button DMs the full guide (in several messages if long) and says so privately."""
    fake_discord.channel_rate_limit = (5, 5.0)  # Discord's pace per channel
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    click = await alice.click(reply, "Send me the guide")
    note = await click.reply()
    assert note.ephemeral and note.ephemeral_for == alice.id
    assert note.content == f"I sent you the {ruleset.name} guide by DM."
    guide = catalogue.guide(ruleset)
    assert guide is not None
    dms = alice.dms()
    assert all(len(m.content) <= 2000 for m in dms)
    assert _words("\n\n".join(m.content for m in dms)) == _words(guide)
    assert fake_discord.rate_limited == [], "the guide fits in Discord's per-channel pace"


async def test_closed_dms_get_the_guide_in_the_channel_for_their_eyes_only(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, bob: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """When Discord refuses the DM (50007), the guide comes as ephemeral replies with a note."""
    alice.close_dms()
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    click = await alice.click(reply, "Send me the guide")
    note = await click.reply()
    assert "your DMs are closed" in note.content and note.ephemeral_for == alice.id
    guide = catalogue.guide(ruleset)
    assert guide is not None
    pieces = catalogue.chunks(guide)
    followups = await click.followups(len(pieces))
    assert all(m.ephemeral_for == alice.id for m in followups)
    assert _words("\n\n".join(m.content for m in followups)) == _words(guide)
    assert alice.dms() == []
    assert not any(m.ephemeral for m in bob.read()), "Bob sees none of Alice's private replies"
    refused = [r for r in fake_discord.requests if r.route == "/channels/{channel_id}/messages" and r.status == 403]
    assert len(refused) == 1


async def test_anyone_who_sees_the_summary_can_ask_for_the_guide(
    gregario: Any, alice: DiscordUser, bob: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """Bob clicks the button under Alice's /rules: the guide goes to Bob, not Alice."""
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    await (await bob.click(reply, "Send me the guide")).reply()
    assert bob.dms() and alice.dms() == []


async def test_the_guide_button_still_works_after_a_restart(
    fake_discord: FakeDiscord, bot_settings: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A /rules message posted before a restart keeps a working button (its custom id carries the system)."""
    async with running_bot(fake_discord, bot_settings):
        reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    async with running_bot(fake_discord, bot_settings):
        await (await alice.click(reply, "Send me the guide")).reply()
    assert alice.dms()
    assert len(fake_discord.sessions) == 2


async def test_every_rule_systems_guide_reaches_the_player(
    gregario: Any, alice: DiscordUser, rulesets: list[Ruleset[Any]]
) -> None:
    """For each installed rule system, /rules then the button DMs that system's whole guide."""
    assert {r.id for r in rulesets} <= set(registry.RULESET_IDS), "only real rule systems are offered"
    for ruleset in rulesets:
        before = len(alice.dms())
        reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
        await (await alice.click(reply, "Send me the guide")).reply()
        guide = catalogue.guide(ruleset)
        assert guide is not None
        sent = alice.dms()[before:]
        assert _words("\n\n".join(m.content for m in sent)) == _words(guide), ruleset.id


async def test_a_rule_system_without_a_guide_shows_no_button(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any], monkeypatch: Any
) -> None:
    """Until a guide is written, /rules shows the summary alone."""
    monkeypatch.setattr(catalogue, "guide", lambda ruleset: None)
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    assert reply.buttons == [] and "footer" not in reply.embeds[0]

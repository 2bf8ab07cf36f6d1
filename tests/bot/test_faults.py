"""Discord misbehaves; the bot retries, recovers or tells the player, and never crashes."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot import catalogue
from engine import registry
from engine.ruleset import Ruleset
from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.plugin import ErrorRecords, running_bot

CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"


def _attempts(fake: FakeDiscord, route: str) -> list[Any]:
    return [r for r in fake.requests if r.route == route and r.method == "POST"]


async def _ask_for_guide(user: DiscordUser, ruleset: Ruleset[Any]) -> Any:
    reply = await (await user.slash("rules", ruleset=ruleset.name)).reply()
    return await (await user.click(reply, "Send me the guide")).reply(timeout=5)


async def test_a_rate_limited_dm_is_retried_after_retry_after(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A 429 on the DM waits retry_after seconds, then the whole guide arrives."""
    fake_discord.fail("POST", CHANNEL_MESSAGES, 429, retry_after=0.3)
    note = await _ask_for_guide(alice, ruleset)
    assert note.content.startswith("I sent you")
    attempts = _attempts(fake_discord, CHANNEL_MESSAGES)
    assert [a.status for a in attempts[:2]] == [429, 200]
    assert attempts[1].at - attempts[0].at >= 0.3
    guide = catalogue.guide(ruleset)
    assert guide is not None and len(alice.dms()) == len(catalogue.chunks(guide))


async def test_a_server_error_on_a_dm_is_retried(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """One 500 on the DM is retried (discord.py waits a second) and the guide still arrives."""
    fake_discord.fail("POST", CHANNEL_MESSAGES, 500)
    note = await _ask_for_guide(alice, ruleset)
    assert note.content.startswith("I sent you")
    assert [a.status for a in _attempts(fake_discord, CHANNEL_MESSAGES)[:2]] == [500, 200]
    assert alice.dms()


async def test_discord_unavailable_is_explained_to_the_player(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any], caplog: Any
) -> None:
    """A 503 on the DM (not retried) gets a kind 'try again' instead of silence."""
    fake_discord.fail("POST", CHANNEL_MESSAGES, 503)
    with caplog.at_level(logging.WARNING, logger="bot.errors"):
        note = await _ask_for_guide(alice, ruleset)
    assert note.content == "Discord had a hiccup. Try again in a moment."
    assert note.ephemeral_for == alice.id
    assert any("503" in r.getMessage() for r in caplog.records if r.name == "bot.errors")
    assert alice.dms() == []


async def test_a_rate_limited_interaction_answer_is_retried(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A 429 on the interaction callback is retried within Discord's 3 seconds."""
    fake_discord.fail("POST", CALLBACK, 429, retry_after=0.2)
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    assert reply.embeds[0]["title"] == ruleset.name
    assert [a.status for a in _attempts(fake_discord, CALLBACK)] == [429, 200]


async def test_a_server_error_on_an_interaction_answer_is_retried(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A 500 on the interaction callback is retried and the player gets the answer."""
    fake_discord.fail("POST", CALLBACK, 500)
    reply = await (await alice.slash("stages", ruleset=ruleset.name)).reply(timeout=5)
    assert reply.embeds[0]["fields"]
    assert [a.status for a in _attempts(fake_discord, CALLBACK)] == [500, 200]


async def test_a_rate_limited_command_sync_is_retried_at_start_up(
    fake_discord: FakeDiscord, bot_settings: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A 429 while syncing commands at start-up delays the sync; the commands still get registered."""
    fake_discord.fail("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", 429, retry_after=0.1)
    async with running_bot(fake_discord, bot_settings) as bot:
        assert {c.name for c in bot.synced} == {"race", "rules", "stages"}
        reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
        assert reply.embeds


async def test_the_bot_resumes_after_a_gateway_disconnect(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """The gateway drops; the bot RESUMEs its session and answers a command made during the outage."""
    before = await fake_discord.drop_gateway(code=4000)
    handle = await alice.slash("rules", ruleset=ruleset.name)  # buffered while the bot is away
    reply = await handle.reply(timeout=5)
    assert reply.embeds[0]["title"] == ruleset.name
    session = fake_discord.current_session()
    assert session is before and session.resumes == 1
    resume = [op for op in fake_discord.gateway_ops if op["op"] == 6]
    assert len(resume) == 1 and resume[0]["d"]["session_id"] == session.session_id
    assert [op["op"] for op in fake_discord.gateway_ops].count(2) == 1, "no second IDENTIFY"


async def test_a_failed_resume_identifies_again(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """When Discord forgets the session, the bot identifies anew and keeps answering.

    discord.py waits 5 s before identifying again (its ``before_identify_hook``), so this test is slow.
    """
    await fake_discord.drop_gateway(code=4000, forget_session=True)
    await fake_discord.wait_until(
        lambda: len(fake_discord.sessions) == 2, 8, lambda: f"no new session; gateway ops: {fake_discord.gateway_ops}"
    )
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply(timeout=5)
    assert reply.embeds
    assert [op["op"] for op in fake_discord.gateway_ops].count(2) == 2


@pytest.mark.allow_log_errors
async def test_a_crash_in_a_command_gets_an_apology_and_a_log(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, log_errors: ErrorRecords
) -> None:
    """An unexpected exception is logged with its traceback; the player reads a short apology."""

    @gregario.tree.command(name="boom", description="Always fails.")
    async def boom(interaction: Any) -> None:
        raise RuntimeError("kaput")

    await gregario.sync_commands()
    reply = await (await alice.slash("boom")).reply()
    assert reply.content.startswith("Something went wrong on my side.")
    assert reply.ephemeral_for == alice.id
    assert [(r.name, repr(r.exc_info[1]) if r.exc_info else None) for r in log_errors.records] == [
        ("bot.errors", "RuntimeError('kaput')")
    ]


async def test_the_bot_resumes_when_discord_asks_it_to_reconnect(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """Gateway op 7 RECONNECT: the bot reconnects, RESUMEs the same session and keeps answering."""
    session = await fake_discord.request_reconnect()
    await fake_discord.wait_until(lambda: session.resumes == 1, 5, lambda: f"no RESUME: {fake_discord.gateway_ops}")
    reply = await (await alice.slash("rules", ruleset=ruleset.name)).reply()
    assert reply.embeds and [op["op"] for op in fake_discord.gateway_ops].count(2) == 1


@pytest.mark.allow_log_errors
async def test_an_interaction_answered_too_late_is_logged_not_crashed(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, monkeypatch: Any, caplog: Any
) -> None:
    """Past Discord's answer deadline the interaction is gone (10062): the bot logs it and carries on."""
    import asyncio

    from tests.fakediscord import server

    monkeypatch.setattr(server, "INTERACTION_DEADLINE", 0.1)

    @gregario.tree.command(name="slow", description="Takes too long.")
    async def slow(interaction: Any) -> None:
        await asyncio.sleep(0.2)
        await interaction.response.send_message("finally")

    await gregario.sync_commands()
    with caplog.at_level(logging.WARNING, logger="bot.errors"):
        handle = await alice.slash("slow")
        await fake_discord.wait_until(
            lambda: any("could not tell the player" in r.getMessage() for r in caplog.records), 3, lambda: "no warning"
        )
    assert handle.record.response_type is None and alice.read() == []
    assert fake_discord.problems == [f"interaction {handle.record.id} answered after 0.1 s"] * 2
    fake_discord.problems.clear()  # expected here
    reply = await (await alice.slash("stages", ruleset=registry.available_rulesets()[0].name)).reply()
    assert reply.embeds, "the bot still answers"

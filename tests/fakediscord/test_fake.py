"""The fake Discord's own guarantees: it fails loudly, keeps traffic local and enforces Discord's limits."""

from __future__ import annotations

import textwrap
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.network import LoopbackResolver, RefusedHost


async def test_the_resolver_refuses_every_host_but_discords() -> None:
    """Only Discord's names resolve, and only to 127.0.0.1 on the fake's port."""
    resolver = LoopbackResolver(port=4321)
    [found] = await resolver.resolve("discord.com", 443)
    assert (found["host"], found["port"]) == ("127.0.0.1", 4321)
    with pytest.raises(RefusedHost):
        await resolver.resolve("example.com", 443)
    assert resolver.refused == ["example.com"]


async def test_a_client_session_on_the_fake_connector_cannot_leave_the_machine(fake_discord: FakeDiscord) -> None:
    """A request to another host fails at resolution and is recorded."""
    async with aiohttp.ClientSession(connector=fake_discord.connector()) as session:
        with pytest.raises(aiohttp.ClientConnectorError):
            await session.get("https://example.com/")
    assert fake_discord.refused_hosts == ["example.com"]
    fake_discord.resolvers.clear()  # this test expected it; don't fail teardown


async def test_an_unimplemented_route_answers_404_and_is_recorded(fake_discord: FakeDiscord, gregario: Any) -> None:
    """A route the fake does not serve raises NotFound in the bot and is listed for teardown."""
    route = discord.http.Route("GET", "/guilds/{guild_id}/audit-logs", guild_id=fake_discord.guilds[0].id)
    with pytest.raises(discord.NotFound, match="does not implement"):
        await gregario.http.request(route)
    assert fake_discord.unknown_routes == [f"GET /api/v10/guilds/{fake_discord.guilds[0].id}/audit-logs"]
    fake_discord.unknown_routes.clear()


async def test_messages_over_discords_limits_are_refused(fake_discord: FakeDiscord, gregario: Any) -> None:
    """26 embed fields or 2001 characters get 400 Invalid Form Body, as from Discord."""
    channel = gregario.get_channel(fake_discord.guilds[0].channel("races").id)
    embed = discord.Embed(title="Too many")
    for n in range(26):
        embed.add_field(name=str(n), value="x")
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embed=embed)
    assert refused.value.code == 50035 and "26 fields" in refused.value.text
    with pytest.raises(discord.HTTPException, match="2001 characters"):
        await channel.send("x" * 2001)


async def test_people_can_only_do_what_discord_lets_them(gregario: Any, alice: DiscordUser) -> None:
    """Unregistered commands, unknown options and missing buttons fail with what is really there."""
    with pytest.raises(AssertionError, match=r"/league is not registered.*\['race', 'rules', 'stages'\]"):
        await alice.slash("league")
    with pytest.raises(AssertionError, match="has no option 'colour'"):
        await alice.slash("stages", colour="red")
    with pytest.raises(AssertionError, match="without its required options"):
        await alice.slash("rules")


async def test_waiting_in_vain_says_what_was_seen(gregario: Any, alice: DiscordUser) -> None:
    """A wait that times out names what the user saw instead."""
    await alice.say("hello there")
    with pytest.raises(AssertionError, match=r"never saw a podium.*hello there"):
        await alice.wait_for(lambda m: "podium" in m.text, timeout=0.1, what="a podium")


def test_teardown_fails_a_test_on_unknown_routes_and_error_logs(pytester: pytest.Pytester) -> None:
    """The plugin turns an unimplemented route and a discord.py ERROR record into test failures."""
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(
        textwrap.dedent(
            """
            import logging
            import discord

            async def test_unknown_route(fake_discord, gregario):
                route = discord.http.Route("GET", "/guilds/1/audit-logs")
                try:
                    await gregario.http.request(route)
                except discord.NotFound:
                    pass

            async def test_error_record(fake_discord):
                logging.getLogger("discord.client").error("boom")
            """
        )
    )
    result = pytester.runpytest("-p", "tests.fakediscord.plugin", "-p", "tests.bot.conftest")
    result.assert_outcomes(passed=2, errors=2)
    result.stdout.fnmatch_lines(["*does not implement*audit-logs*", "ERROR log records:", "  discord.client: boom"])


async def test_an_opt_in_channel_rate_limit_answers_429(fake_discord: FakeDiscord, gregario: Any) -> None:
    """With 2 messages per 0.3 s allowed, a third post waits for the window and the fake notes it."""
    fake_discord.channel_rate_limit = (2, 0.3)
    channel = gregario.get_channel(fake_discord.guilds[0].channel("races").id)
    for n in range(3):
        await channel.send(f"post {n}")
    statuses = [r.status for r in fake_discord.requests if r.route == "/channels/{channel_id}/messages"]
    assert statuses == [200, 200, 429, 200]
    assert fake_discord.rate_limited == ["races"]


async def test_history_members_and_channels_can_be_fetched(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser
) -> None:
    """channel.history (before/after), fetch_member and fetch_channels read the world."""
    guild = gregario.get_guild(fake_discord.guilds[0].id)
    channel = guild.get_channel(fake_discord.guilds[0].channel("races").id)
    sent = [await channel.send(f"m{n}") for n in range(5)]
    assert [m.content async for m in channel.history(limit=3)] == ["m4", "m3", "m2"]
    assert [m.content async for m in channel.history(before=sent[2])] == ["m1", "m0"]
    assert [m.content async for m in channel.history(after=sent[2])] == ["m3", "m4"]
    assert (await guild.fetch_member(alice.id)).display_name == "Alice"
    assert [c.name for c in await guild.fetch_channels()] == ["general", "races"]

"""The fake Discord's own guarantees: it fails loudly, keeps traffic local and enforces Discord's limits."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.network import LoopbackResolver, RefusedHost
from tests.fakediscord.server import API


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
    with pytest.raises(AssertionError, match=r"/nonesuch is not registered.*'rules'.*'stages'"):
        await alice.slash("nonesuch")
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


async def _post(fake: FakeDiscord, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """A message create as a bot sends it, without discord.py's own retries in between."""
    async with (
        aiohttp.ClientSession(connector=fake.connector()) as session,
        session.post(
            f"https://discord.com{API}/channels/{channel_id}/messages",
            json=body,
            headers={"Authorization": f"Bot {fake.token}"},
        ) as response,
    ):
        answer: dict[str, Any] = await response.json()
        return answer


async def _sleeper() -> asyncio.subprocess.Process:
    """A process standing in for the bot, for a hook to kill."""
    return await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(60)")


async def test_a_repeated_nonce_returns_the_message_already_created(fake_discord: FakeDiscord) -> None:
    """The same nonce with enforce_nonce in the same channel posts once; without enforce_nonce, twice."""
    races = fake_discord.guilds[0].channel("races")
    body = {"content": "round 3", "nonce": "r7s3", "enforce_nonce": True}
    first, again = await _post(fake_discord, races.id, body), await _post(fake_discord, races.id, body)
    assert first["id"] == again["id"] and len(races.messages) == 1
    await _post(fake_discord, races.id, {"content": "round 3", "nonce": "r7s3"})
    assert len(races.messages) == 2, "a nonce without enforce_nonce does not stop a second post"
    other = fake_discord.guilds[0].channel("general")
    elsewhere = await _post(fake_discord, other.id, body)
    assert elsewhere["id"] != first["id"], "a nonce is remembered per channel"


async def test_kill_after_a_dm_create_kills_before_the_answer(fake_discord: FakeDiscord, alice: DiscordUser) -> None:
    """The DM is created, then the process dies and the sender never reads the answer; the channel's posts
    are left alone, and a retry with the same nonce finds the message the dead process created."""
    process = await _sleeper()
    hook = fake_discord.kill_after("POST", "/channels/{channel_id}/messages", process.pid, dm=True)
    races = fake_discord.guilds[0].channel("races")
    await _post(fake_discord, races.id, {"content": "not a DM"})
    assert process.returncode is None and not hook.hits, "a channel post is not a DM create"
    dm = fake_discord.dm_channel(alice.user)
    body = {"content": "your panel", "nonce": "p1", "enforce_nonce": True}
    with pytest.raises(aiohttp.ClientError):
        await _post(fake_discord, dm.id, body)
    assert await asyncio.wait_for(process.wait(), 5) == -9
    assert [m.content for m in alice.dms()] == ["your panel"], "the create was done before the kill"
    assert hook.hits and hook.hits[0].answer["id"] == str(alice.dms()[0].id)
    retried = await _post(fake_discord, dm.id, body)
    assert retried["id"] == str(alice.dms()[0].id) and len(alice.dms()) == 1, "one hook kills once"


async def test_kill_after_a_click_is_acknowledged(fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser) -> None:
    """A hook on the interaction callback acts after the answer is applied (the click is acknowledged in
    Discord) and before the bot reads it; ``when`` narrows it to the interaction wanted. (Here the answer
    does go out: an in-process bot whose answer is dropped logs the error.)"""
    seen: list[int | None] = []
    hook = fake_discord.on_request(
        "POST",
        "/interactions/{interaction_id}/{token}/callback",
        lambda r: seen.append(r.interaction.response_type if r.interaction else 0),
        when=lambda r: r.interaction is not None and r.interaction.user is alice.user,
    )
    handle = await alice.slash("rules", ruleset="Flamme Rouge")
    assert await handle.acknowledged() in (4, 5)
    assert seen == [handle.record.response_type] and hook.spent


async def test_hooks_skip_requests_that_failed(fake_discord: FakeDiscord) -> None:
    """A 429 is not "served": the hook waits for the create that succeeds."""
    races = fake_discord.guilds[0].channel("races")
    fake_discord.fail("POST", "/channels/{channel_id}/messages", 429, retry_after=0.01)
    hook = fake_discord.on_request("POST", "/channels/{channel_id}/messages", lambda r: None, dm=False)
    await _post(fake_discord, races.id, {"content": "first try"})
    assert not hook.hits
    answer = await _post(fake_discord, races.id, {"content": "second try"})
    assert [r.answer["id"] for r in hook.hits] == [answer["id"]]


async def test_ready_names_the_gateway_as_the_bot_reached_it(fake_discord: FakeDiscord) -> None:
    """A process that reaches the fake at 127.0.0.1 is told to RESUME there (it resolves no Discord name)."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"wss://127.0.0.1:{fake_discord.port}/", ssl=False) as ws,
    ):
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": 0, "properties": {}}})
        ready = await ws.receive_json()
    assert ready["t"] == "READY"
    assert ready["d"]["resume_gateway_url"] == f"wss://127.0.0.1:{fake_discord.port}"

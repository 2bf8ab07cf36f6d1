"""The fake Discord's own guarantees: it fails loudly, keeps traffic local and enforces Discord's limits."""

from __future__ import annotations

import asyncio
import io
import sys
import textwrap
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.network import LoopbackResolver, RefusedHost
from tests.fakediscord.plugin import running_client
from tests.fakediscord.server import API
from tests.fakediscord.world import COMPONENTS_V2, CREATE_PUBLIC_THREADS, HAS_THREAD


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


async def test_an_opt_in_channel_rate_limit_answers_429(fake_discord: FakeDiscord) -> None:
    """With 2 messages per 5 s allowed, a third post at once is refused with a 429 and the fake notes it;
    its answer says when to try again and that the limit is the route's, not the token's."""
    fake_discord.channel_rate_limit = (2, 5.0)
    races = fake_discord.guilds[0].channel("races")
    for n in range(2):
        await _post(fake_discord, races.id, {"content": f"post {n}"})
    refused = await _post(fake_discord, races.id, {"content": "post 2"})
    assert refused["global"] is False and 0 < refused["retry_after"] <= 5.0
    assert [r.status for r in fake_discord.requests] == [200, 200, 429]
    assert fake_discord.rate_limited == ["races"] and len(races.messages) == 2


async def test_the_channel_limit_is_told_in_headers_so_discord_py_waits(
    fake_discord: FakeDiscord, gregario: Any
) -> None:
    """Every post's answer carries the bucket's headers, as Discord's do: discord.py waits for the window
    when the bucket is spent and never meets the 429."""
    fake_discord.channel_rate_limit = (2, 0.3)
    channel = gregario.get_channel(fake_discord.guilds[0].channel("races").id)
    for n in range(3):
        await channel.send(f"post {n}")
    statuses = [r.status for r in fake_discord.requests if r.route == "/channels/{channel_id}/messages"]
    assert statuses == [200, 200, 200]
    assert fake_discord.rate_limited == []


async def test_an_opt_in_global_rate_limit_answers_a_global_429_but_not_to_interactions(
    fake_discord: FakeDiscord,
) -> None:
    """Past the token's limit every route but the interactions' gets a global 429 (discord.py then holds
    all its requests); interaction callbacks and webhooks are not counted, as on Discord."""
    fake_discord.global_rate_limit = (3, 5.0)
    races = fake_discord.guilds[0].channel("races")
    answers = [await _post(fake_discord, races.id, {"content": f"post {n}"}) for n in range(4)]
    assert [r.status for r in fake_discord.requests] == [200, 200, 200, 429]
    assert answers[-1]["global"] is True and fake_discord.globally_limited == 1
    async with (
        aiohttp.ClientSession(connector=fake_discord.connector()) as session,
        session.post(f"https://discord.com{API}/interactions/1/nothing/callback", json={"type": 1}) as response,
    ):
        assert response.status != 429


async def test_guild_events_go_to_their_shard_and_dms_to_shard_0(fake_discord: FakeDiscord) -> None:
    """With two shards, each shard's READY lists its guilds ((id >> 22) % 2) and a guild's messages reach
    only its shard; a DM's reach shard 0; an IDENTIFY with too few shards is closed with 4011 (sharding required)."""
    fake_discord.shard_count = 2
    owner = fake_discord.guilds[0].owner
    odd = fake_discord.create_guild("Odd", owner, shard=1)
    even = fake_discord.create_guild("Even", owner, shard=0)
    assert [fake_discord.gateway.shard_of(g.id) for g in (odd, even)] == [1, 0]
    intents = (1 << 9) | (1 << 12)  # guild messages and DMs
    async with aiohttp.ClientSession() as session:
        url = f"wss://127.0.0.1:{fake_discord.port}/"
        async with session.ws_connect(url, ssl=False) as wrong:
            await wrong.receive_json()
            await wrong.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": 0, "shard": [0, 1]}})
            closed = await wrong.receive()
            assert closed.data == 4011
        async with session.ws_connect(url, ssl=False) as zero, session.ws_connect(url, ssl=False) as one:
            for shard, ws in enumerate((zero, one)):
                await ws.receive_json()
                await ws.send_json(
                    {"op": 2, "d": {"token": fake_discord.token, "intents": intents, "shard": [shard, 2]}}
                )
            ready = [await ws.receive_json() for ws in (zero, one)]
            assert [r["d"]["shard"] for r in ready] == [[0, 2], [1, 2]]
            names = [{g["id"] for g in r["d"]["guilds"]} for r in ready]
            assert str(odd.id) in names[1] and str(odd.id) not in names[0]
            assert str(even.id) in names[0] and str(even.id) not in names[1]
            created = [
                [(await ws.receive_json())["d"]["name"] for _ in range(len(n))]
                for ws, n in zip((zero, one), names, strict=True)
            ]
            assert "Odd" in created[1] and "Even" in created[0]
            await fake_discord.post_as(owner, odd.channel("races"), "on shard one")
            heard = await one.receive_json()
            assert heard["t"] == "MESSAGE_CREATE" and heard["d"]["guild_id"] == str(odd.id)
            await fake_discord.post_as(owner, fake_discord.dm_channel(owner), "a DM")
            heard = await zero.receive_json()
            assert heard["t"] == "MESSAGE_CREATE" and "guild_id" not in heard["d"]


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


# --- threads -------------------------------------------------------------------------------------------


@pytest.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A tiny discord.py client (not Gregario) logged in to the fake."""
    tiny = discord.Client(
        intents=discord.Intents.default(), connector=fake_discord.connector(), guild_ready_timeout=0.05
    )
    async with running_client(fake_discord, tiny) as started:
        yield started


def _races(fake: FakeDiscord, client: discord.Client) -> discord.TextChannel:
    channel = client.get_channel(fake.guilds[0].channel("races").id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_thread_is_started_from_a_message_and_posted_in(
    fake_discord: FakeDiscord, client: discord.Client, alice: DiscordUser
) -> None:
    """A public thread takes its message's id, is announced (THREAD_CREATE), holds its own posts, and a
    message starts one thread only (160004)."""
    lobby = await _races(fake_discord, client).send("Flamme Rouge #12 · lobby")
    created: list[discord.Thread] = []
    client.event(_collect("on_thread_create", created))
    thread = await lobby.create_thread(name="Flamme Rouge #12 · Ronde van Wevelgem", auto_archive_duration=60)
    assert (thread.id, thread.parent_id, thread.type) == (lobby.id, lobby.channel.id, discord.ChannelType.public_thread)
    assert thread.owner_id == client.user.id and thread.member_count == 1 and not thread.archived  # type: ignore[union-attr]
    await thread.send("Round 1: Alice's Rouleur breaks away")
    await fake_discord.settle()
    assert [t.id for t in created] == [thread.id] and client.get_channel(thread.id) is not None
    world = fake_discord.channels[thread.id]
    assert world.is_thread and world.parent is fake_discord.guilds[0].channel("races")
    assert [m.text for m in alice.read(world)] == ["Round 1: Alice's Rouleur breaks away"]
    assert [m.text for m in alice.read()] == ["Flamme Rouge #12 · lobby"], "the channel keeps the lobby only"
    starter = alice.read()[0]
    assert starter.thread is world and starter.flags & HAS_THREAD
    assert fake_discord.request_counts().get("POST thread/messages") == 1
    with pytest.raises(discord.HTTPException) as again:
        await lobby.create_thread(name="Twice")
    assert again.value.code == 160004
    with pytest.raises(discord.HTTPException, match="1 to 100 characters"):
        await (await _races(fake_discord, client).send("another")).create_thread(name="x" * 101)


def _collect(name: str, into: list[Any]) -> Any:
    async def handler(item: Any, *rest: Any) -> None:
        into.append(rest[-1] if rest else item)

    handler.__name__ = name
    return handler


async def test_an_archived_thread_unarchives_on_a_post_unless_locked(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    """Archiving announces THREAD_UPDATE; a post reopens an archived thread, a locked one refuses it (160005),
    and a message in an archived thread cannot be edited (50083)."""
    thread = await (await _races(fake_discord, client).send("lobby")).create_thread(name="Race #3")
    round_post = await thread.send("Round 1")
    updated: list[discord.Thread] = []
    client.event(_collect("on_thread_update", updated))
    thread = await thread.edit(archived=True)
    world = fake_discord.channels[thread.id]
    assert thread.archived and world.archived and not world.locked
    with pytest.raises(discord.HTTPException) as archived:
        await round_post.edit(content="Round 1, edited")
    assert archived.value.code == 50083
    await thread.send("Round 2")
    assert not world.archived, "a post reopens the thread, as on Discord"
    thread = await thread.edit(archived=True, locked=True)
    assert world.archived and world.locked
    with pytest.raises(discord.HTTPException) as locked:
        await thread.send("Round 3")
    assert locked.value.code == 160005
    with pytest.raises(discord.HTTPException) as still:
        await thread.edit(name="Renamed")
    assert still.value.code == 50083, "an archived thread is edited only by unarchiving it in the same request"
    await fake_discord.settle()
    assert [t.archived for t in updated][:1] == [True]


async def test_without_create_public_threads_the_bot_is_refused_and_told_in_interactions(
    fake_discord: FakeDiscord, client: discord.Client, alice: DiscordUser
) -> None:
    """A channel where the bot may not create threads answers 403 / 50013, and interactions there carry
    app_permissions without Create Public Threads (what a bot checks before trying)."""
    races = fake_discord.guilds[0].channel("races")
    races.bot_denied = CREATE_PUBLIC_THREADS
    seen: list[discord.Interaction[Any]] = []

    class Probe(discord.ui.View):
        @discord.ui.button(label="Start", custom_id="probe:start")
        async def start(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
            seen.append(interaction)
            await interaction.response.send_message("noted", ephemeral=True)

    lobby = await _races(fake_discord, client).send("lobby", view=Probe())
    with pytest.raises(discord.Forbidden) as refused:
        await lobby.create_thread(name="Race #4")
    assert refused.value.code == 50013
    await (await alice.click(alice.read()[0], "Start")).reply()
    assert not seen[0].app_permissions.create_public_threads and seen[0].app_permissions.send_messages


async def test_a_click_in_a_thread_reaches_the_client_and_threads_survive_a_restart(
    fake_discord: FakeDiscord, client: discord.Client, alice: DiscordUser
) -> None:
    """A button on a thread's post is clicked there (the interaction's channel is the thread), and a client
    that logs in later finds the active thread in GUILD_CREATE."""
    thread = await (await _races(fake_discord, client).send("lobby")).create_thread(name="Race #5")
    where: list[Any] = []

    class Post(discord.ui.View):
        @discord.ui.button(label="Open my orders", custom_id="probe:orders")
        async def orders(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
            where.append(interaction.channel)
            await interaction.response.send_message("Your panel", ephemeral=True)

    await thread.send("Round 1", view=Post())
    world = fake_discord.channels[thread.id]
    reply = await (await alice.click(alice.read(world)[0], "Open my orders")).reply()
    assert reply.ephemeral_for == alice.id and isinstance(where[0], discord.Thread) and where[0].id == thread.id
    later = discord.Client(
        intents=discord.Intents.default(), connector=fake_discord.connector(), guild_ready_timeout=0.05
    )
    async with running_client(fake_discord, later):
        found = later.get_guild(fake_discord.guilds[0].id)
        assert found is not None and found.get_thread(thread.id) is not None


# --- layout components (components v2) ---------------------------------------------------------------


class Table(discord.ui.LayoutView):
    """A round post laid out like a game table: a container in the race's colour, text, the board, buttons."""

    def __init__(self, clicks: list[str]) -> None:
        super().__init__(timeout=None)
        join = Clicked(clicks, label="Join", custom_id="table:join")
        orders = Clicked(clicks, label="Open my orders", custom_id="table:orders")
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("**Round 7** · Bob's Sprinteur breaks away"),
                discord.ui.Separator(),
                discord.ui.MediaGallery(
                    discord.MediaGalleryItem("attachment://board.png", description="The board: Bob on 31")
                ),
                discord.ui.Section(discord.ui.TextDisplay("Anna 47 · Bob 46"), accessory=join),
                discord.ui.ActionRow(orders),
                accent_colour=discord.Colour(0xC0392B),
            )
        )


class Clicked(discord.ui.Button[Any]):
    """A button that notes its custom id when clicked."""

    def __init__(self, clicks: list[str], *, label: str, custom_id: str) -> None:
        super().__init__(label=label, custom_id=custom_id)
        self.clicks = clicks

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        self.clicks.append(str(self.custom_id))
        await interaction.response.send_message("ok", ephemeral=True)


async def test_a_layout_is_stored_read_and_clicked_like_discord_shows_it(
    fake_discord: FakeDiscord, client: discord.Client, alice: DiscordUser
) -> None:
    """A LayoutView post (IS_COMPONENTS_V2) keeps its tree: its text displays are its text, its buttons are
    found inside the container and the section, the gallery shows the uploaded board, and clicks work."""
    clicks: list[str] = []
    sent = await _races(fake_discord, client).send(
        view=Table(clicks), file=discord.File(io.BytesIO(b"\x89PNG board"), filename="board.png")
    )
    assert sent.flags.components_v2
    [post] = alice.read()
    assert post.layout and post.content == "" and post.embeds == []
    assert post.text == "**Round 7** · Bob's Sprinteur breaks away\nAnna 47 · Bob 46"
    assert post.buttons == ["Join", "Open my orders"]
    [(url, alt)] = post.gallery
    assert alt == "The board: Bob on 31" and await alice.download(url) == b"\x89PNG board"
    await (await alice.click(post, "Join")).reply()
    await (await alice.click(post, "Open my orders")).reply()
    assert clicks == ["table:join", "table:orders"]


def _v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": COMPONENTS_V2, "components": list(components), **extra}


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def _button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        pytest.param(
            _v2(
                {
                    "type": 17,
                    "components": [_row(*(_button(f"b{r}{n}") for n in range(5))) for r in range(6)] + [_text("x")] * 4,
                }
            ),
            "41 components in total",
            id="41-components-nested-included",
        ),
        pytest.param(
            _v2(_text("x" * 2500), {"type": 17, "components": [_text("y" * 1501)]}),
            "4001 characters",
            id="text-over-4000",
        ),
        pytest.param(_v2(_text("Round 1"), content="Round 1"), "cannot have content or embeds", id="content-with-v2"),
        pytest.param(
            _v2(_text("Round 1"), embeds=[{"title": "Round 1"}]), "cannot have content or embeds", id="embeds-with-v2"
        ),
        pytest.param(_v2(_row(_button("x" * 101))), "1 to 100 characters", id="custom-id-over-100"),
        pytest.param(
            _v2(_row(_button("same")), {"type": 17, "components": [_row(_button("same"))]}),
            "used twice",
            id="custom-id-twice",
        ),
        pytest.param(
            {"components": [{"type": 17, "components": [_text("Round 1")]}]},
            "needs the IS_COMPONENTS_V2",
            id="container-without-flag",
        ),
        pytest.param(
            _v2({"type": 17, "components": [{"type": 17, "components": [_text("a")]}]}),
            "cannot be placed in a container",
            id="container-in-container",
        ),
        pytest.param(
            _v2({"type": 12, "items": [{"media": {"url": "https://example.com/b.png"}}] * 11}),
            "1 to 10 items",
            id="gallery-of-11",
        ),
        pytest.param(
            _v2({"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}),
            "names no attachment",
            id="unknown-attachment",
        ),
        pytest.param(
            _v2({"type": 9, "components": [_text("a")] * 4, "accessory": _button("s")}),
            "1 to 3 text displays",
            id="section-of-4",
        ),
        pytest.param(
            _v2({"type": 9, "components": [_text("a")]}), "needs an accessory", id="section-without-accessory"
        ),
        pytest.param(
            _v2({"type": 12, "items": [{"media": {"url": "https://example.com/b.png"}, "description": "d" * 1025}]}),
            "1024",
            id="alt-text-over-1024",
        ),
    ],
)
async def test_layouts_over_discords_limits_are_refused(
    fake_discord: FakeDiscord, client: discord.Client, body: dict[str, Any], refusal: str
) -> None:
    """Each limit of Discord's component reference answers 400 Invalid Form Body, naming the problem."""
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=_races(fake_discord, client).id)
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.request(route, json=body)
    assert refused.value.status == 400 and refused.value.code == 50035 and refusal in refused.value.text
    assert fake_discord.guilds[0].channel("races").messages == [], "nothing was posted"


async def test_the_largest_layout_discord_takes_is_accepted_and_keeps_the_flag_on_edits(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    """40 components and 4000 characters pass; an edit cannot add content to a layout, nor drop its flag."""
    rows = [_row(*(_button(f"b{r}{n}") for n in range(5))) for r in range(5)]  # 30 components
    body = _v2(
        {"type": 17, "components": [*rows, _text("x" * 2000)]},
        _text("y" * 1000),
        _text("z" * 1000),
        *[{"type": 14}] * 6,
    )
    channel = _races(fake_discord, client)
    created = await client.http.request(
        discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id), json=body
    )
    edit = discord.http.Route(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel.id, message_id=created["id"]
    )
    with pytest.raises(discord.HTTPException, match="cannot have content"):
        await client.http.request(edit, json={"content": "plain again", "flags": 0})
    stored = fake_discord.guilds[0].channel("races").messages[0]
    assert stored.layout and stored.content == "" and len(stored.items()) == 25, "the refused edit changed nothing"


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

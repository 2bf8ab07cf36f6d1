"""The fake Discord's own guarantees: it fails loudly, keeps traffic local and enforces Discord's limits."""

from __future__ import annotations

import io
import textwrap
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.network import LoopbackResolver, RefusedHost
from tests.fakediscord.plugin import running_client
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

"""Contract tests: each Discord feature the bot relies on, pinned against discord.py and the fake.

A discord.py upgrade that changes one of these assumptions fails here, by name, before it breaks a
race. Each test runs a tiny client with just the feature. Faults (429, 5xx, gateway RESUME, closed DMs)
are pinned with the real bot in test_faults.py; persistent buttons across a restart in test_rules.py.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import DiscordUser, FakeDiscord, Guild
from tests.fakediscord.plugin import running_client

Setup = Callable[[commands.Bot], Awaitable[None]]


class TinyBot(commands.Bot):
    """A bare discord.py bot whose ``setup`` adds the feature under test, synced to the test guild."""

    def __init__(self, fake: FakeDiscord, guild: Guild, setup: Setup) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            connector=fake.connector(),
            guild_ready_timeout=0.05,
        )
        self._feature = setup
        self._guild = discord.Object(guild.id)

    async def setup_hook(self) -> None:
        await self._feature(self)
        self.tree.copy_global_to(guild=self._guild)
        await self.tree.sync(guild=self._guild)


@asynccontextmanager
async def tiny(fake: FakeDiscord, guild: Guild, setup: Setup) -> AsyncIterator[TinyBot]:
    async with running_client(fake, TinyBot(fake, guild, setup)) as bot:
        yield bot


async def test_choices_are_registered_and_the_chosen_value_arrives(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """A choice option registers its choices; the user picks by name, the command gets the value."""

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="colour", description="Pick a colour.")
        @app_commands.choices(
            colour=[app_commands.Choice(name="Red", value="r"), app_commands.Choice(name="Blue", value="b")]
        )
        async def colour(interaction: discord.Interaction, colour: app_commands.Choice[str]) -> None:
            await interaction.response.send_message(f"got {colour.value}")

    async with tiny(fake_discord, guild, setup):
        option = fake_discord.find_command("colour", alice._where(None)).data["options"][0]
        assert option["choices"] == [{"name": "Red", "value": "r"}, {"name": "Blue", "value": "b"}]
        assert (await (await alice.slash("colour", colour="Red")).reply()).content == "got r"
        with pytest.raises(AssertionError, match="not among the choices"):
            await alice.slash("colour", colour="Green")


async def test_autocomplete_sees_the_other_options_raw_values(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """The autocomplete callback reads the other filled options in interaction.namespace."""

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="pair", description="Two options.")
        async def pair(interaction: discord.Interaction, first: str, second: str) -> None:
            await interaction.response.send_message(f"{first}/{second}")

        @pair.autocomplete("second")
        async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"{interaction.namespace.first}-{current}", value="v")]

        assert pair._params["second"].autocomplete is not None

    async with tiny(fake_discord, guild, setup):
        option = fake_discord.find_command("pair", alice._where(None)).data["options"][1]
        assert option["autocomplete"] is True
        assert await alice.autocomplete("pair", "second", "ty", first="one") == [("one-ty", "v")]


async def test_ephemeral_replies_are_flagged_and_private(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, bob: DiscordUser
) -> None:
    """send_message(ephemeral=True) sets flag 64: only the user who asked sees it."""

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="secret", description="Whisper.")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("psst", ephemeral=True)

    async with tiny(fake_discord, guild, setup):
        reply = await (await alice.slash("secret")).reply()
        assert reply.flags & 64 and reply in alice.read() and reply not in bob.read()


async def test_a_thinking_defer_is_filled_by_the_first_followup(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """defer(thinking=True) then followup.send: the first followup fills the deferred message."""

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="slow", description="Think first.")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("done", ephemeral=True)
            await interaction.followup.send("and more", ephemeral=True)

    async with tiny(fake_discord, guild, setup):
        handle = await alice.slash("slow")
        assert await handle.acknowledged() == 5
        reply = await handle.reply()
        assert reply.content == "done" and reply.ephemeral
        assert [m.content for m in await handle.followups(1)] == ["and more"]


async def test_dynamic_items_answer_by_custom_id_on_messages_they_never_sent(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, races: Any
) -> None:
    """A DynamicItem's template matches a button on a message from before the client started."""

    class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"count:(?P<n>\d+)"):
        def __init__(self, n: int) -> None:
            super().__init__(discord.ui.Button(label=str(n), custom_id=f"count:{n}"))
            self.n = n

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> Counter:
            return cls(int(match["n"]))

        async def callback(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"counted {self.n + 1}")

    async def setup(bot: commands.Bot) -> None:
        bot.add_dynamic_items(Counter)

    old = fake_discord.post_as_bot(
        races,
        {
            "content": "tap",
            "components": [
                {"type": 1, "components": [{"type": 2, "style": 1, "label": "41", "custom_id": "count:41"}]}
            ],
        },
    )
    async with tiny(fake_discord, guild, setup):
        assert (await (await alice.click(old, "41")).reply()).content == "counted 42"


async def test_files_from_memory_become_downloadable_attachments(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """discord.File(BytesIO) uploads as multipart; an edit with attachments=[] removes it."""

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="file", description="Send a file.")
        async def file(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("here", file=discord.File(io.BytesIO(b"race-42"), "race.json"))
            assert interaction.channel is not None and isinstance(interaction.channel, discord.TextChannel)
            sent = await interaction.channel.send(
                files=[discord.File(io.BytesIO(b"one"), "a.txt"), discord.File(io.BytesIO(b"two"), "b.txt")]
            )
            await sent.edit(attachments=[sent.attachments[1]])

    async with tiny(fake_discord, guild, setup):
        reply = await (await alice.slash("file")).reply()
        assert await alice.download(reply.attachments[0].url) == b"race-42"
        second = await alice.wait_for(lambda m: m.edited_at is not None and not m.content, what="the edited files")
        assert [a.filename for a in second[0].attachments] == ["b.txt"]
        assert await alice.download(second[0].attachments[0].url) == b"two"


async def test_a_closed_dm_raises_forbidden_with_code_50007(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """user.send to someone with closed DMs raises discord.Forbidden whose code is 50007."""
    alice.close_dms()
    seen: list[tuple[int, int]] = []

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="dm", description="DM me.")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send("hello")
            except discord.Forbidden as refused:
                seen.append((refused.status, refused.code))
            await interaction.response.send_message("tried", ephemeral=True)

    async with tiny(fake_discord, guild, setup):
        await (await alice.slash("dm")).reply()
    assert seen == [(403, 50007)]


async def test_rest_retries_429_and_500_but_raises_503(fake_discord: FakeDiscord, guild: Guild) -> None:
    """The HTTP client sleeps retry_after on 429, retries 500, and raises DiscordServerError on 503."""
    channel_id = guild.channel("races").id

    async def setup(bot: commands.Bot) -> None:
        return None

    async with tiny(fake_discord, guild, setup) as bot:
        channel = bot.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        fake_discord.fail("POST", "/channels/{channel_id}/messages", 429, retry_after=0.05)
        assert (await channel.send("after a 429")).content == "after a 429"
        fake_discord.fail("POST", "/channels/{channel_id}/messages", 503)
        with pytest.raises(discord.DiscordServerError):
            await channel.send("lost")
    statuses = [r.status for r in fake_discord.requests if r.route == "/channels/{channel_id}/messages"]
    assert statuses == [429, 200, 503]


async def test_the_interaction_locale_reads_as_a_plain_language_tag(
    fake_discord: FakeDiscord, guild: Guild, races: Any
) -> None:
    """str(interaction.locale) is 'fr' for a French client: what bot.i18n.t expects."""
    seen: list[str] = []
    pierre = DiscordUser(fake_discord, fake_discord.create_user("Pierre", locale="fr"), races)
    fake_discord.add_member(guild, pierre.user)

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="hello", description="Hello.")
        async def hello(interaction: discord.Interaction) -> None:
            seen.append(str(interaction.locale))
            await interaction.response.send_message("salut")

    async with tiny(fake_discord, guild, setup):
        await (await pierre.slash("hello")).reply()
    assert seen == ["fr"]


async def test_a_modal_submission_reaches_on_submit(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """A command opens a modal; the text typed arrives in on_submit."""

    class Plan(discord.ui.Modal, title="Write my plan"):
        plan: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Plan", style=discord.TextStyle.paragraph)

        async def on_submit(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"plan: {self.plan.value}", ephemeral=True)

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="plan", description="Open the plan form.")
        async def plan(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Plan())

    async with tiny(fake_discord, guild, setup):
        modal = await (await alice.slash("plan")).modal()
        assert modal["title"] == "Write my plan"
        with pytest.raises(AssertionError, match="no field"):
            await alice.submit(modal, {"Plan": "x", "Other": "y"})
        reply = await (await alice.submit(modal, {"Plan": "A 3R 2S"})).reply()
        assert reply.content == "plan: A 3R 2S"


async def test_a_select_choice_arrives_and_update_message_edits_in_place(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """Choosing in a select calls its callback with the values; edit_message updates that message."""

    class Picker(discord.ui.View):
        @discord.ui.select(
            placeholder="Card", options=[discord.SelectOption(label=str(n), value=f"c{n}") for n in (3, 4, 7)]
        )
        async def card(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
            await interaction.response.edit_message(content=f"played {select.values}", view=None)

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="pick", description="Pick a card.")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=Picker())

    async with tiny(fake_discord, guild, setup):
        panel = await (await alice.slash("pick")).reply()
        with pytest.raises(AssertionError, match="no option"):
            await alice.choose(panel, "9")
        updated = await (await alice.choose(panel, "7")).reply()
        assert updated is panel and panel.content == "played ['c7']" and panel.components == []


async def test_subcommands_and_groups_receive_their_options(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, bob: DiscordUser
) -> None:
    """/league season show week:3 and /league join who:@Bob reach the right callbacks with typed values."""

    async def setup(bot: commands.Bot) -> None:
        league = app_commands.Group(name="league", description="The league.")
        season = app_commands.Group(name="season", description="Seasons.", parent=league)

        @season.command(name="show", description="Show a week.")
        async def show(interaction: discord.Interaction, week: app_commands.Range[int, 1, 10]) -> None:
            await interaction.response.send_message(f"week {week + 1 - 1}")

        @league.command(name="join", description="Join someone.")
        async def join(interaction: discord.Interaction, who: discord.User) -> None:
            await interaction.response.send_message(f"joined {who.display_name}")

        bot.tree.add_command(league)

    async with tiny(fake_discord, guild, setup):
        assert (await (await alice.slash("league season show", week=3)).reply()).content == "week 3"
        assert (await (await alice.slash("league join", who=bob)).reply()).content == "joined Bob"
        with pytest.raises(AssertionError, match=r"only accepts 1\.\.10"):
            await alice.slash("league season show", week=11)
        with pytest.raises(AssertionError, match="needs a subcommand"):
            await alice.slash("league")


async def test_a_deferred_component_update_then_edit_changes_the_panel(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, bob: DiscordUser
) -> None:
    """A button defers (type 6) then edits the original: the panel message itself changes."""

    class Panel(discord.ui.View):
        @discord.ui.button(label="Confirm")
        async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
            await interaction.response.defer()
            button.disabled = True
            await interaction.edit_original_response(content="confirmed", view=self)

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="panel", description="A panel.")
        async def panel(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ready?", view=Panel())

    async with tiny(fake_discord, guild, setup):
        message = await (await alice.slash("panel")).reply()
        handle = await alice.click(message, "Confirm")
        assert await handle.acknowledged() == 6
        await alice.wait_for(lambda m: m.content == "confirmed", what="the confirmed panel")
        with pytest.raises(AssertionError, match="disabled"):
            await bob.click(message, "Confirm")
        assert message.history[0]["content"] == "ready?"


async def test_a_message_sent_to_a_channel_can_be_edited_and_deleted_later(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """Board posts are edited through the channel (PATCH), never through an old interaction token."""
    channel_id = guild.channel("races").id

    async def setup(bot: commands.Bot) -> None:
        return None

    async with tiny(fake_discord, guild, setup) as bot:
        channel = bot.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        board = await channel.send(embed=discord.Embed(title="Round 1"))
        await board.edit(embed=discord.Embed(title="Round 2"))
        seen = await alice.wait_for(lambda m: m.embeds and m.embeds[0]["title"] == "Round 2", what="round 2")
        assert seen[0].history[0]["embeds"][0]["title"] == "Round 1"
        gone = await channel.send("temporary")
        await gone.delete()
        assert [m.text for m in alice.read()] == ["Round 2"]


async def test_a_member_message_reaches_the_bot(fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser) -> None:
    """A user's message arrives as MESSAGE_CREATE with its author and channel."""
    received: list[tuple[str, str]] = []

    async def setup(bot: commands.Bot) -> None:
        async def on_message(message: discord.Message) -> None:
            received.append((message.author.name, message.channel.name))  # type: ignore[union-attr]

        bot.add_listener(on_message)

    async with tiny(fake_discord, guild, setup):
        await alice.say("hello")
        await fake_discord.wait_until(lambda: received, 2, lambda: "the bot never saw the message")
    assert received == [("alice", "races")]


async def test_an_old_interaction_token_cannot_edit_its_message(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """After 15 minutes an ephemeral panel can't be edited through its token (401 / 50027): open a fresh one."""
    kept: list[discord.Interaction] = []

    async def setup(bot: commands.Bot) -> None:
        @bot.tree.command(name="panel", description="A private panel.")
        async def panel(interaction: discord.Interaction) -> None:
            kept.append(interaction)
            await interaction.response.send_message("your orders", ephemeral=True)

    async with tiny(fake_discord, guild, setup):
        await (await alice.slash("panel")).reply()
        fake_discord.expire_tokens()
        with pytest.raises(discord.HTTPException) as refused:
            await kept[0].edit_original_response(content="too late")
    assert (refused.value.status, refused.value.code) == (401, 50027)


async def test_an_auto_sharded_bot_connects_and_answers(fake_discord: FakeDiscord, alice: DiscordUser) -> None:
    """The sharded client (the way past one process) asks /gateway/bot, identifies shard 0 and answers."""
    bot = commands.AutoShardedBot(
        command_prefix="!",
        intents=discord.Intents.default(),
        connector=fake_discord.connector(),
        guild_ready_timeout=0.05,
    )

    @bot.tree.command(name="ping", description="Ping.")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong from shard {interaction.guild.shard_id}")  # type: ignore[union-attr]

    async with running_client(fake_discord, bot):
        await bot.tree.sync()
        assert (await (await alice.slash("ping")).reply()).content == "pong from shard 0"
    assert any(r.route == "/gateway/bot" for r in fake_discord.requests)
    identify = next(op for op in fake_discord.gateway_ops if op["op"] == 2)
    assert identify["d"]["shard"] == [0, 1]


async def test_without_the_message_content_intent_others_text_is_hidden(
    fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser
) -> None:
    """A bot without MESSAGE_CONTENT sees that a member wrote, not what (unless it is mentioned)."""
    received: list[str] = []

    async def setup(bot: commands.Bot) -> None:
        async def on_message(message: discord.Message) -> None:
            received.append(message.content)

        bot.add_listener(on_message)

    async with tiny(fake_discord, guild, setup):
        await alice.say("secret plan")
        await alice.say(f"<@{fake_discord.bot_user.id}> hello")
        await fake_discord.wait_until(lambda: len(received) == 2, 2, lambda: f"the bot saw {received}")
    assert received == ["", f"<@{fake_discord.bot_user.id}> hello"]


async def test_asking_for_a_privileged_intent_the_portal_has_not_enabled_fails(fake_discord: FakeDiscord) -> None:
    """Requesting members or message content without enabling them raises PrivilegedIntentsRequired."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.all(), connector=fake_discord.connector())
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with running_client(fake_discord, bot):
            pass


async def test_gregario_asks_for_no_privileged_intent(fake_discord: FakeDiscord, gregario: Any) -> None:
    """The bot runs on a fresh application: it needs no privileged intent enabled on the portal."""
    identify = next(op for op in fake_discord.gateway_ops if op["op"] == 2)
    assert identify["d"]["intents"] & (1 << 1 | 1 << 8 | 1 << 15) == 0

"""The Discord client: loads every feature extension, installs the error handler, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, pacing
from bot.exts import EXTENSIONS
from bot.exts.race import _restore
from bot.exts.race._delivery import Deliverer
from bot.exts.race._intake import Intake
from bot.gate import Gate
from bot.services.clock import Clock
from bot.services.context import Context
from bot.services.dispatch import Dispatcher
from bot.services.outcomes import Happening
from bot.services.runtime import Runtime
from bot.settings import Settings
from bot.translator import CatalogTranslator

_log = logging.getLogger(__name__)

STOP_SECONDS = 3.0
"""How long a stopping bot waits for the interactions in flight, and then for background race work."""

SCOPES = ("bot", "applications.commands")
"""The OAuth2 scopes of the invite: the bot user, and its slash commands."""

PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
"""What the bot asks for in a server (the README lists them in words; the integer is ``PERMISSIONS.value``):
see the channel, post in it and in its threads, open a race's public thread from its lobby, with embeds and
files (race pictures, race records), and read the messages it answers. Today's commands answer through
interactions, which need none of these."""


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with :data:`SCOPES` and :data:`PERMISSIONS`."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


class GregarioTree(app_commands.CommandTree["Gregario"]):
    """The command tree; its one error handler answers players kindly and logs the rest."""

    async def on_error(self, interaction: discord.Interaction[Gregario], error: app_commands.AppCommandError) -> None:
        await errors.report(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction[Gregario], /) -> bool:
        """A stopping bot starts no command: the player reads "try again in a minute"."""
        if not self.client.gate.open:
            raise errors.Stopping()
        return True

    async def _call(self, interaction: discord.Interaction[Gregario]) -> None:
        with self.client.gate.entered():  # counted, so a clean stop waits for it
            await super()._call(interaction)


class Gregario(commands.AutoShardedBot):
    """Gregario's bot. Features live in ``bot/exts/<feature>/`` and are loaded at start-up.

    Sharded: as many shards as Discord says (or ``GREGARIO_SHARD_COUNT``), all of them in this process
    unless ``GREGARIO_SHARDS`` names a range (several processes on one PostgreSQL, docs/scaling.md).
    Nothing here keeps what another process would need: any process stores an order and answers a click,
    whatever shard it came on; the races' owner resolves them; any process delivers the outbox."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, **client_kwargs: Any) -> None:
        client_kwargs.setdefault("command_prefix", commands.when_mentioned)
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault("help_command", None)
        client_kwargs.setdefault("tree_cls", GregarioTree)
        client_kwargs.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False))
        client_kwargs.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids():
            client_kwargs.setdefault("shard_ids", settings.shard_ids())
        super().__init__(**client_kwargs)
        self.pacer = pacing.Pacer(settings.requests_per_second)
        """The pace of this process's counted requests, most urgent first."""
        pacing.install(self.http, self.pacer)
        self.settings = settings
        self.synced: list[app_commands.AppCommand] = []
        """What the last sync registered (empty when sync is off)."""
        self.clock = clock
        """The race services' clock (tests inject a manual one); None = the real time."""
        self.runtime: Runtime | None = None
        self.gate = Gate()
        """Interactions in flight; closed first when the bot stops."""
        self.race_intake: Intake
        """Interactions -> services -> replies (the components and commands call it)."""
        self.dispatcher: Dispatcher | None = None
        """Delivers what the services owe Discord (the outbox), in order per race, once."""
        self._delivering: asyncio.Task[None] | None = None
        self.looked_back: _restore.Looked | None = None
        """What the start found of a restored database (None: nothing): its lost messages are marked
        undone once connected, before anything is delivered."""

    async def _sink(self, _happening: Happening) -> None:
        # The rows a happening owes were committed with it (and woke the dispatcher); this is a nudge.
        if self.dispatcher is not None:
            self.dispatcher.wake()

    async def _deliver_when_ready(self, dispatcher: Dispatcher) -> None:
        """Once connected: deliver every row still owed (from before a restart too), then keep delivering."""
        await self.wait_until_ready()
        if self.looked_back is not None and self.runtime is not None:
            await _restore.mark_undone(self, self.runtime.ctx, self.looked_back)
        dispatcher.start()

    async def _look_back(self, ctx: Context) -> None:
        """Before the races resume: does Discord show moments the database no longer has (a restore)?"""
        self.looked_back = await _restore.look(self, ctx)

    async def setup_hook(self) -> None:
        """Runs once, after login: say who the bot is and how to invite it, load the features, sync."""
        if self.user is not None and self.application_id is not None:
            _log.info("Logged in as %s — invite: %s", self.user.display_name, invite_url(self.application_id))
        await self.tree.set_translator(CatalogTranslator())
        # The race services first (migrate, recover), so the race extension finds them.
        self.runtime, _recovered = await Runtime.start(
            self.settings,
            self._sink,
            owner=self.settings.owner(),
            clock=self.clock,
            check=self._look_back,
        )
        self.race_intake = Intake(self, self.runtime.ctx)
        self.dispatcher = Dispatcher(self.runtime.ctx, Deliverer(self, self.runtime.ctx))
        self.runtime.dispatcher = self.dispatcher
        self._delivering = asyncio.create_task(self._deliver_when_ready(self.dispatcher))
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def close(self) -> None:
        """Take no new interaction and let those in flight end (bounded), stop the race services (what
        they owe is delivered while still connected, bounded), then disconnect."""
        if not await self.gate.close(STOP_SECONDS):
            _log.warning("%d interactions still running at the stop; abandoned", self.gate.in_flight)
        if self._delivering is not None and not self._delivering.done():
            self._delivering.cancel()  # never connected: what is owed stays in the outbox for the next start
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivering
            if self.runtime is not None:
                self.runtime.dispatcher = None
        if self.runtime is not None:
            runtime, self.runtime = self.runtime, None
            await runtime.close(STOP_SECONDS)
        if not hasattr(self, "_AutoShardedClient__queue"):
            # discord.py 2.7 makes the queue its close() writes to only when the shards launch: a bot closed
            # before it connected (a refused token, a database gone at start-up, a test) would fail there.
            self._AutoShardedClient__queue: asyncio.PriorityQueue[Any] = asyncio.PriorityQueue()
        await super().close()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the slash commands: on the test server when one is set (instant), else globally."""
        guild_id = self.settings.test_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
        else:
            self.synced = await self.tree.sync()
        _log.info("synced %d commands%s", len(self.synced), f" to server {guild_id}" if guild_id else " globally")
        return self.synced


def create_bot(settings: Settings | None = None, **client_kwargs: Any) -> Gregario:
    """An unstarted bot; see :func:`bot.create_bot`."""
    return Gregario(settings if settings is not None else Settings(), **client_kwargs)

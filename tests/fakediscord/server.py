"""The fake Discord: an aiohttp server on 127.0.0.1 serving the REST routes and the gateway the bot uses.

It drives the real, unmodified discord.py client. Every request is recorded; a route it does not
implement answers 404 and is listed in :attr:`FakeDiscord.unknown_routes`, which the pytest plugin turns
into a test failure. Faults (429, 5xx, a dropped gateway, closed DMs) are injected per route.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from tests.fakediscord import limits
from tests.fakediscord.answers import DiscordError, json_response
from tests.fakediscord.faults import Fault, Faults, Hook, Hooks, RequestAction, kill_process
from tests.fakediscord.gateway import DIRECT_MESSAGES, GUILD_MESSAGES, MESSAGE_CONTENT, Gateway, GatewaySession
from tests.fakediscord.network import LoopbackResolver, make_connector, server_ssl_context
from tests.fakediscord.world import (
    COMPONENTS_V2,
    CREATE_PUBLIC_THREADS,
    EPHEMERAL,
    HAS_THREAD,
    LOADING,
    SEND_MESSAGES_IN_THREADS,
    Attachment,
    Channel,
    Command,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
    iso_now,
    snowflake,
    walk_components,
)

API = "/api/v10"
POLL_INTERVAL = 0.02
SETTLE_QUIET = 0.015
"""Seconds without any bot request before a person acts (see :meth:`FakeDiscord.settle`)."""
INTERACTION_DEADLINE = 3.0
"""Seconds the bot has to answer an interaction (Discord's rule)."""

BODY: web.RequestKey[Any] = web.RequestKey("body", object)
FILES: web.RequestKey[list[tuple[str, bytes, str | None]]] = web.RequestKey("files", list)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class RecordedRequest:
    method: str
    path: str
    route: str
    """The route template (``/channels/{channel_id}/messages``), or the raw path when unknown."""
    query: dict[str, str]
    body: Any
    files: list[str]
    status: int = 0
    at: float = field(default_factory=time.monotonic)
    dm: bool | None = None
    """For a channel route: whether the channel is a DM (None: not a channel route)."""
    interaction: Interaction | None = None
    """For an interaction callback: the interaction it answers."""
    answer: Any = None
    """The JSON the fake answered (a created message's payload, say), once served."""


NONCE_SECONDS = 300.0
"""How long Discord remembers an enforced nonce (a few minutes)."""


class FakeDiscord:
    """A small Discord on 127.0.0.1 for one test: the world, the REST API and the gateway."""

    def __init__(self, cert: Path, key: Path, token: str = "fake-token") -> None:
        self.cert, self.key = cert, key
        self.token = token
        self.bot_user = User(id=snowflake(), name="Gregario", bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.uploads: list[Attachment] = []
        """Files people attached to slash-command options (``DiscordUser.slash(..., file=Upload(...))``)."""
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.commands: list[Command] = []
        self.interactions: dict[int, Interaction] = {}
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        self.problems: list[str] = []
        """Protocol violations by the client (bad gateway op, unknown interaction...): a test failure."""
        self.faults = Faults()
        self.hooks = Hooks()
        """Actions run after a request is served and before its answer leaves (:meth:`kill_after`)."""
        self.privileged_intents = 0
        """Privileged intents enabled for the application on the developer portal (none by default)."""
        self.channel_rate_limit: tuple[int, float] | None = None
        """Opt-in: (messages, seconds) the bot may post per channel, like Discord's ~5 per 5 s."""
        self.rate_limited: list[str] = []
        """Channels where the bot hit ``channel_rate_limit`` (a 429), in order."""
        self.global_rate_limit: tuple[int, float] | None = None
        """Opt-in: (requests, seconds) the bot's token may make across every route but interactions',
        like Discord's 50 a second; past it a global 429 (``"global": true``)."""
        self.globally_limited = 0
        """Global 429s the fake answered."""
        self._recent: list[float] = []
        self.shard_count = 1
        """Shards the fake asks for (``GET /gateway/bot``) and accepts at IDENTIFY: a guild's events go to
        shard ``(guild_id >> 22) % shard_count``, DMs to shard 0."""
        self._posts: dict[int, list[float]] = {}
        self._nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        """Messages created with ``enforce_nonce``: (channel, nonce) -> (message, when)."""
        self.gateway = Gateway(self)
        self.changed = asyncio.Condition()
        self.port = 0
        self._in_flight = 0
        self._last_activity = 0.0
        self.resolvers: list[LoopbackResolver] = []
        self._runner: web.AppRunner | None = None

    # --- lifecycle --------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=server_ssl_context(self.cert, self.key))
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for session in self.sessions:
            if session.ws is not None and not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def connector(self) -> aiohttp.TCPConnector:
        """A connector that reaches only this fake (call inside the running loop)."""
        resolver = LoopbackResolver(self.port)
        self.resolvers.append(resolver)
        return make_connector(resolver)

    @property
    def refused_hosts(self) -> list[str]:
        return [host for resolver in self.resolvers for host in resolver.refused]

    # --- the world --------------------------------------------------------------------------------
    def create_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> User:
        user = User(id=snowflake(), name=name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def create_guild(
        self, name: str, owner: User, channels: tuple[str, ...] = ("general", "races"), *, shard: int | None = None
    ) -> Guild:
        """A server with the bot and its owner as members (add others with :meth:`add_member`); ``shard``:
        one whose events go to that shard (its id's timestamp chosen for it)."""
        guild_id = snowflake()
        if shard is not None:
            stamp = guild_id >> 22
            guild_id = ((stamp + (shard - stamp) % self.shard_count) << 22) | (guild_id & 0x3FFFFF)
        guild = Guild(id=guild_id, name=name, owner=owner)
        for position, channel_name in enumerate(channels):
            channel = Channel(id=snowflake(), name=channel_name, guild=guild, position=position)
            guild.channels.append(channel)
            self.channels[channel.id] = channel
        guild.members[self.bot_user.id] = Member(self.bot_user)
        guild.members[owner.id] = Member(owner)
        self.guilds.append(guild)
        return guild

    def add_member(self, guild: Guild, user: User) -> Member:
        member = Member(user)
        guild.members[user.id] = member
        return member

    async def create_role(self, guild: Guild, name: str) -> Role:
        """A new role in ``guild`` (the bot hears GUILD_ROLE_CREATE, as when an admin adds one)."""
        role = Role(id=snowflake(), name=name, position=len(guild.roles) + 1)
        guild.roles.append(role)
        await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def upload(self, channel: Channel, filename: str, content: bytes, content_type: str | None = None) -> Attachment:
        """A file a person attaches to a command option: on the CDN, ready for the bot to download."""
        attachment = Attachment(
            id=snowflake(), channel_id=channel.id, filename=filename, content=content, content_type=content_type
        )
        self.uploads.append(attachment)
        return attachment

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created like POST /users/@me/channels does)."""
        for channel in self.channels.values():
            if channel.recipient is user:
                return channel
        channel = Channel(id=snowflake(), name=f"dm-{user.name}", recipient=user)
        self.channels[channel.id] = channel
        return channel

    def close_dms(self, user: User) -> None:
        """``user`` closes their DMs: the bot's messages to them fail with 403 / 50007."""
        user.dms_open = False

    async def notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def wait_until(self, check: Callable[[], Any], timeout: float, describe: Callable[[], str]) -> Any:
        """Wait until ``check()`` returns something truthy; fail with ``describe()`` after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        async with self.changed:
            while True:
                found = check()
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout:g} s: {describe()}")
                with contextlib.suppress(TimeoutError):
                    # Woken by every change in the world; polls too, for conditions outside it.
                    await asyncio.wait_for(self.changed.wait(), min(left, POLL_INTERVAL))

    # --- faults -----------------------------------------------------------------------------------
    def fail(
        self,
        method: str,
        route: str,
        status: int,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        code: int = 0,
        message: str = "",
    ) -> Fault:
        """The next ``times`` ``method route`` requests get ``status`` (429 carries ``retry_after``)."""
        return self.faults.add(Fault(method.upper(), route, status, times, retry_after, code, message))

    def on_request(
        self,
        method: str,
        route: str,
        action: RequestAction,
        *,
        dm: bool | None = None,
        when: Callable[[RecordedRequest], bool] | None = None,
        times: int = 1,
        drop_answer: bool = False,
    ) -> Hook:
        """Run ``action(request)`` once the next ``times`` matching requests are served (done, 2xx) and
        before their answer leaves; ``drop_answer``: then close the connection without answering.

        ``dm`` narrows a channel route to DMs (True) or guild channels (False); ``when`` to the requests
        it accepts (it sees the served :class:`RecordedRequest`, its body, ``answer`` and ``interaction``).
        """
        return self.hooks.add(Hook(method.upper(), route, action, dm, when, times, drop_answer))

    def kill_after(
        self,
        method: str,
        route: str,
        pid: int,
        *,
        dm: bool | None = None,
        when: Callable[[RecordedRequest], bool] | None = None,
        times: int = 1,
    ) -> Hook:
        """A crash at the worst moment: the next matching request is performed (the message exists, the
        click is acknowledged), then process ``pid`` gets SIGKILL and the answer never reaches it."""
        return self.on_request(
            method, route, lambda _: kill_process(pid), dm=dm, when=when, times=times, drop_answer=True
        )

    async def drop_gateway(self, code: int = 4000, *, forget_session: bool = False) -> GatewaySession:
        """Close the bot's gateway connection as Discord does on a hiccup; the bot should RESUME.

        ``forget_session``: Discord no longer knows the session, so the RESUME gets INVALID_SESSION
        and the bot must IDENTIFY again.
        """
        return await self.gateway.drop(code, forget_session=forget_session)

    async def request_reconnect(self) -> GatewaySession:
        """Send op 7 RECONNECT, as Discord does before moving a session; the bot should RESUME."""
        return await self.gateway.request_reconnect()

    # --- gateway ----------------------------------------------------------------------------------
    @property
    def sessions(self) -> list[GatewaySession]:
        return self.gateway.sessions

    @property
    def gateway_ops(self) -> list[dict[str, Any]]:
        return self.gateway.ops

    def current_session(self) -> GatewaySession:
        return self.gateway.current_session()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the bot (buffered while it is disconnected, replayed on RESUME)."""
        await self.gateway.dispatch(event, data)

    # --- REST plumbing ----------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await handler(request)
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            return await self._answer(request, handler)
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()

    async def settle(self, quiet: float = SETTLE_QUIET, timeout: float = 2.0) -> None:
        """Wait until the bot has had a moment with no request in flight.

        discord.py registers a view or a modal only after reading Discord's answer to the request that
        sent it; a person never clicks within microseconds, so actions wait for that moment too.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._in_flight == 0 and time.monotonic() - self._last_activity >= quiet:
                return
            await asyncio.sleep(quiet / 2)

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        route = canonical.removeprefix(API)
        body: Any = None
        files: list[str] = []
        if request.body_exists:
            if request.content_type == "application/json":
                body = await request.json()
            elif request.content_type.startswith("multipart/"):
                body, stored = await self._read_multipart(request)
                request[FILES] = stored
                files = [name for name, _, _ in stored]
        request[BODY] = body
        record = RecordedRequest(request.method, request.path, route, dict(request.query), body, files)
        record.dm = self._is_dm(request.path)
        if route == "/interactions/{interaction_id}/{token}/callback":
            record.interaction = self.interactions.get(int(request.match_info["interaction_id"]))
        self.requests.append(record)
        fault = self.faults.take(request.method, route)
        if fault is None and request.path.startswith(API) and not route.startswith(("/interactions", "/webhooks")):
            fault = self._over_global_limit()
        try:
            if fault is not None:
                response: web.StreamResponse = self.faults.response(fault)
            elif route.startswith("/{tail"):
                self.unknown_routes.append(f"{request.method} {request.path}")
                response = json_response(
                    {"message": f"the fake Discord does not implement {request.method} {request.path}", "code": 0}, 404
                )
            elif (
                request.path.startswith(API)
                and not route.startswith(("/interactions", "/webhooks"))
                and request.headers.get("Authorization") != f"Bot {self.token}"
            ):
                raise DiscordError(401, 0, "401: Unauthorized")
            else:
                response = await handler(request)
        except DiscordError as error:
            response = json_response({"message": error.message, "code": error.code}, error.status)
        record.status = response.status
        if isinstance(response, web.Response) and response.content_type == "application/json" and response.body:
            with contextlib.suppress(
                ValueError, TypeError, RecursionError
            ):  # a member's file on the CDN may be anything
                record.answer = json.loads(response.body)  # type: ignore[arg-type]
        hook = self.hooks.take(record) if 200 <= record.status < 300 else None
        if hook is not None:
            await hook.run(record)
            if hook.drop_answer and request.transport is not None:
                # The answer never leaves: the connection closes under the request (aiohttp ignores the
                # write that follows), as when the process that sent it died meanwhile.
                request.transport.abort()
        await self.notify()
        return response

    def _is_dm(self, path: str) -> bool | None:
        """Whether a ``/channels/{id}`` path names a DM channel (None: not a channel route)."""
        if "/channels/" not in path:
            return None
        channel = path.split("/channels/")[1].split("/")[0]
        if not channel.isdigit() or int(channel) not in self.channels:
            return None
        return self.channels[int(channel)].recipient is not None

    @staticmethod
    async def _read_multipart(request: web.Request) -> tuple[Any, list[tuple[str, bytes, str | None]]]:
        reader = await request.multipart()
        body: Any = None
        stored: list[tuple[str, bytes, str | None]] = []
        while True:
            part = await reader.next()
            if part is None:
                break
            assert isinstance(part, aiohttp.BodyPartReader)
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                content = await part.read(decode=False)
                stored.append((part.filename or "file", bytes(content), part.headers.get("Content-Type")))
        return body, stored

    def _routes(self, app: web.Application) -> None:
        add = app.router.add_route
        app.router.add_get("/", self.gateway.handle)
        add("GET", API + "/gateway", self._get_gateway)
        add("GET", API + "/gateway/bot", self._get_gateway_bot)
        add("GET", API + "/users/@me", self._get_me)
        add("GET", API + "/users/{user_id}", self._get_user)
        add("GET", API + "/oauth2/applications/@me", self._get_application)
        add("GET", API + "/applications/{application_id}/commands", self._get_commands)
        add("PUT", API + "/applications/{application_id}/commands", self._put_commands)
        add("GET", API + "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands)
        add("PUT", API + "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands)
        add("POST", API + "/interactions/{interaction_id}/{token}/callback", self._callback)
        add("POST", API + "/webhooks/{application_id}/{token}", self._followup)
        add("GET", API + "/webhooks/{application_id}/{token}/messages/{message_id}", self._get_webhook_message)
        add("PATCH", API + "/webhooks/{application_id}/{token}/messages/{message_id}", self._edit_webhook_message)
        add("DELETE", API + "/webhooks/{application_id}/{token}/messages/{message_id}", self._delete_webhook_message)
        add("POST", API + "/users/@me/channels", self._open_dm)
        add("GET", API + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        add("GET", API + "/guilds/{guild_id}/channels", self._get_guild_channels)
        add("GET", API + "/channels/{channel_id}", self._get_channel)
        add("PATCH", API + "/channels/{channel_id}", self._edit_channel)
        add("POST", API + "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread)
        add("GET", API + "/channels/{channel_id}/messages", self._get_messages)
        add("POST", API + "/channels/{channel_id}/messages", self._post_message)
        add("GET", API + "/channels/{channel_id}/messages/{message_id}", self._get_message)
        add("PATCH", API + "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        add("DELETE", API + "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        add("POST", API + "/channels/{channel_id}/typing", self._typing)
        add("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self._download)
        add("*", "/{tail:.*}", self._unknown)

    async def _unknown(self, request: web.Request) -> web.StreamResponse:  # pragma: no cover - middleware answers
        return json_response({"message": "unknown route"}, 404)

    # --- REST: identity and commands ---------------------------------------------------------------
    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": "wss://gateway.discord.gg"})

    async def _get_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        # The gateway as the bot reached the API (gateway.discord.gg's stand-in, or 127.0.0.1:<port> for a
        # `gregario run` process, which resolves no Discord name): an AutoShardedBot connects there.
        return json_response({"url": f"wss://{request.host}", "shards": self.shard_count, "session_start_limit": limit})

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        return json_response(self.bot_user.payload())

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.StreamResponse:
        owner = next(iter(g.owner for g in self.guilds), self.bot_user)
        return json_response(
            {
                "id": str(self.application_id),
                "name": "Gregario",
                "description": "Cycling board-game races",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "rpc_origins": [],
            }
        )

    def _guild_arg(self, request: web.Request) -> int | None:
        raw = request.match_info.get("guild_id")
        return int(raw) if raw is not None else None

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        guild_id = self._guild_arg(request)
        return json_response([c.payload() for c in self.commands if c.guild_id == guild_id])

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["application_id"] != str(self.application_id):
            raise DiscordError(403, 50001, "Missing Access")
        guild_id = self._guild_arg(request)
        body = request[BODY]
        names: set[tuple[int, str]] = set()
        created: list[Command] = []
        for data in body:
            problem = limits.command_problem(data)
            if problem:
                raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")
            key = (int(data.get("type", 1)), data["name"])
            if key in names:
                raise DiscordError(400, 50035, f"Invalid Form Body: duplicate command name {data['name']!r}")
            names.add(key)
            created.append(Command(snowflake(), self.application_id, guild_id, data))
        self.commands = [c for c in self.commands if c.guild_id != guild_id] + created
        return json_response([c.payload() for c in created])

    # --- REST: interactions ------------------------------------------------------------------------
    def _interaction(self, interaction_id: str, token: str) -> Interaction:
        interaction = self.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        return interaction

    def _by_token(self, application_id: str, token: str) -> Interaction:
        if application_id != str(self.application_id):
            raise DiscordError(404, 10015, "Unknown Webhook")
        for interaction in self.interactions.values():
            if interaction.token == token:
                if interaction.expired:
                    raise DiscordError(401, 50027, "Invalid Webhook Token")
                return interaction
        raise DiscordError(404, 10015, "Unknown Webhook")

    def expire_tokens(self) -> None:
        """Fifteen minutes pass: every interaction token so far stops working (401 / 50027)."""
        for interaction in self.interactions.values():
            interaction.expired = True

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        interaction = self._interaction(request.match_info["interaction_id"], request.match_info["token"])
        if time.monotonic() - interaction.created > INTERACTION_DEADLINE:
            self.problems.append(f"interaction {interaction.id} answered after {INTERACTION_DEADLINE} s")
            raise DiscordError(404, 10062, "Unknown interaction")
        if interaction.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = request[BODY]
        kind = int(body["type"])
        data = body.get("data") or {}
        message: Message | None = None
        if kind == 4:
            message = self._new_message(interaction.channel, data, request.get(FILES, []), interaction=interaction)
            interaction.original = message
        elif kind == 5:
            flags = LOADING | (int(data.get("flags", 0)) & EPHEMERAL)
            message = self._new_message(
                interaction.channel, {"flags": flags}, [], interaction=interaction, allow_empty=True
            )
            interaction.original = message
            interaction.deferred_ephemeral = bool(flags & EPHEMERAL)
        elif kind == 6:
            if interaction.kind not in (3, 5):
                raise DiscordError(400, 50035, "Invalid Form Body: DEFERRED_UPDATE_MESSAGE is for components")
            interaction.original = interaction.message  # "@original" is now the component's message
        elif kind == 7:
            if interaction.message is None:
                raise DiscordError(400, 50035, "Invalid Form Body: UPDATE_MESSAGE needs a component's message")
            self._edit(interaction.message, data, request.get(FILES, []))
            message = interaction.original = interaction.message
        elif kind == 8:
            if interaction.kind != 4:
                raise DiscordError(400, 50035, "Invalid Form Body: autocomplete results answer autocomplete")
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise DiscordError(400, 50035, "Invalid Form Body: more than 25 choices")
            interaction.choices = choices
        elif kind == 9:
            problem = limits.modal_problem(data)
            if problem:
                raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")
            interaction.modal = data
        else:
            raise DiscordError(400, 50035, f"Invalid Form Body: interaction response type {kind}")
        interaction.response_type = kind
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.kind,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": bool(message and message.loading),
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
        }
        if message is not None:
            answer["resource"] = {"type": kind, "message": message.payload()}
        elif kind in (6, 8, 9):
            answer["resource"] = {"type": kind}
        if message is not None and not message.ephemeral and kind in (4, 5):
            await self._announce("MESSAGE_CREATE", message)
        elif message is not None and kind == 7 and not message.ephemeral:
            await self._announce("MESSAGE_UPDATE", message)
        return json_response(answer)

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        interaction = self._by_token(request.match_info["application_id"], request.match_info["token"])
        if not interaction.acknowledged:
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = dict(request[BODY] or {})
        original = interaction.original
        if original is not None and original.loading and interaction.response_type == 5:
            # The first followup after a "thinking" defer fills the deferred message (Discord's behaviour).
            body["flags"] = int(body.get("flags", 0)) & ~LOADING | (EPHEMERAL if interaction.deferred_ephemeral else 0)
            self._edit(original, body, request.get(FILES, []), replace_flags=True)
            message = original
        else:
            message = self._new_message(interaction.channel, body, request.get(FILES, []), interaction=interaction)
            interaction.followups.append(message)
        if not message.ephemeral:
            await self._announce("MESSAGE_CREATE", message)
        return json_response(message.payload())

    def _webhook_message(self, request: web.Request) -> tuple[Interaction, Message]:
        interaction = self._by_token(request.match_info["application_id"], request.match_info["token"])
        wanted = request.match_info["message_id"]
        if wanted == "@original":
            if interaction.original is None:
                raise DiscordError(404, 10008, "Unknown Message")
            return interaction, interaction.original
        for message in [interaction.original, *interaction.followups]:
            if message is not None and str(message.id) == wanted:
                return interaction, message
        raise DiscordError(404, 10008, "Unknown Message")

    async def _get_webhook_message(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._webhook_message(request)[1].payload())

    async def _edit_webhook_message(self, request: web.Request) -> web.StreamResponse:
        _, message = self._webhook_message(request)
        body = dict(request[BODY] or {})
        if message.loading:
            body["flags"] = message.flags & EPHEMERAL
            self._edit(message, body, request.get(FILES, []), replace_flags=True)
        else:
            self._edit(message, body, request.get(FILES, []))
        if not message.ephemeral:
            await self._announce("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def _delete_webhook_message(self, request: web.Request) -> web.StreamResponse:
        _, message = self._webhook_message(request)
        message.deleted = True
        return web.Response(status=204)

    # --- REST: channels and messages ---------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel: Channel, message_id: str) -> Message:
        for message in channel.messages:
            if str(message.id) == message_id and not message.deleted and message.ephemeral_for is None:
                return message
        raise DiscordError(404, 10008, "Unknown Message")

    async def _open_dm(self, request: web.Request) -> web.StreamResponse:
        user = self.users.get(int(request[BODY]["recipient_id"]))
        if user is None:
            raise DiscordError(400, 50035, "Invalid Form Body: unknown recipient")
        return json_response(self.dm_channel(user).payload())

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._channel(request).payload())

    # --- REST: threads -----------------------------------------------------------------------------
    async def _start_thread(self, request: web.Request) -> web.StreamResponse:
        """Start a public thread from a message: the thread has the message's id, one per message."""
        channel = self._channel(request)
        if channel.guild is None or channel.parent is not None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if channel.bot_denied & CREATE_PUBLIC_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        message = self._message(channel, request.match_info["message_id"])
        if message.thread is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body = request[BODY] or {}
        problem = limits.thread_name_problem(body) or (None if body.get("name") else "a thread needs a name")
        if problem:
            raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")
        thread = Channel(
            id=message.id,
            name=body["name"],
            guild=channel.guild,
            parent=channel,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            thread_members={self.bot_user.id},
        )
        self.channels[thread.id] = thread
        channel.guild.threads.append(thread)
        message.thread = thread
        message.flags |= HAS_THREAD
        member = {"id": str(thread.id), "user_id": str(self.bot_user.id), "join_timestamp": iso_now(), "flags": 0}
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True, "member": member})
        await self._announce("MESSAGE_UPDATE", message)
        return json_response({**thread.payload(), "member": member})

    async def _edit_channel(self, request: web.Request) -> web.StreamResponse:
        """Rename, archive or lock a thread (the fake edits threads only)."""
        channel = self._channel(request)
        if channel.parent is None:
            self.unknown_routes.append(f"PATCH {request.path} (the fake edits threads only)")
            raise DiscordError(404, 0, "the fake Discord edits threads only")
        body = request[BODY] or {}
        unknown = sorted(set(body) - {"name", "archived", "locked", "auto_archive_duration", "rate_limit_per_user"})
        if unknown:
            raise DiscordError(400, 50035, f"Invalid Form Body: the fake does not edit a thread's {unknown}")
        problem = limits.thread_name_problem(body)
        if problem:
            raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")
        if channel.archived and body.get("archived") is not False:
            raise DiscordError(400, 50083, "Thread is archived")  # unarchive it in the same request
        if "name" in body:
            channel.name = body["name"]
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "auto_archive_duration" in body:
            channel.auto_archive_duration = int(body["auto_archive_duration"])
        if "archived" in body and bool(body["archived"]) != channel.archived:
            channel.archived = bool(body["archived"])
            channel.archive_timestamp = iso_now()
        await self.dispatch("THREAD_UPDATE", channel.payload())
        return json_response(channel.payload())

    async def _open_thread_for_post(self, thread: Channel) -> None:
        """A post in a thread: refused without Send Messages in Threads, or when the thread is locked and
        archived; an archived thread is unarchived by the post, as Discord does."""
        assert thread.parent is not None
        if (thread.parent.bot_denied | thread.bot_denied) & SEND_MESSAGES_IN_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        if thread.archived:
            if thread.locked:
                raise DiscordError(400, 160005, "Thread is locked")
            thread.archived = False
            thread.archive_timestamp = iso_now()
            await self.dispatch("THREAD_UPDATE", thread.payload())

    @staticmethod
    def _check_not_archived(channel: Channel) -> None:
        if channel.parent is not None and channel.archived:
            raise DiscordError(400, 50083, "Tried to perform an operation on an archived thread")

    async def _get_messages(self, request: web.Request) -> web.StreamResponse:
        """Channel history, newest first, with ``limit`` and ``before``/``after`` like Discord."""
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", "50")), 100)
        visible = [m for m in channel.messages if not m.deleted and m.ephemeral_for is None]
        if "around" in request.query:
            raise DiscordError(400, 50035, "Invalid Form Body: the fake does not implement history 'around'")
        if "after" in request.query:
            after = int(request.query["after"])
            newer = [m for m in visible if m.id > after][:limit]
            return json_response([m.payload() for m in reversed(newer)])
        if "before" in request.query:
            before = int(request.query["before"])
            visible = [m for m in visible if m.id < before]
        return json_response([m.payload() for m in reversed(visible[-limit:])])

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    async def _get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        return json_response([c.payload() for c in self._guild(request).channels])

    def _guild(self, request: web.Request) -> Guild:
        guild = next((g for g in self.guilds if str(g.id) == request.match_info["guild_id"]), None)
        if guild is None or self.bot_user.id not in guild.members:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    def _over_global_limit(self) -> Fault | None:
        """A global 429 if this request breaks ``global_rate_limit`` (interactions are exempt, as on Discord)."""
        if self.global_rate_limit is None:
            return None
        count, per = self.global_rate_limit
        now = time.monotonic()
        recent = self._recent
        while recent and now - recent[0] >= per:
            recent.pop(0)
        if len(recent) >= count:
            self.globally_limited += 1
            return Fault("*", "", 429, retry_after=round(per - (now - recent[0]), 3), scope="global")
        recent.append(now)
        return None

    def _rate_limited(self, channel: Channel) -> float | None:
        """Seconds to wait if posting in ``channel`` now breaks the per-channel limit, if one is set."""
        if self.channel_rate_limit is None:
            return None
        count, per = self.channel_rate_limit
        now = time.monotonic()
        recent = [at for at in self._posts.get(channel.id, []) if now - at < per]
        if len(recent) >= count:
            self._posts[channel.id] = recent
            return per - (now - recent[0])
        self._posts[channel.id] = [*recent, now]
        return None

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        if channel.recipient is not None and not channel.recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        if channel.parent is not None:
            await self._open_thread_for_post(channel)
        body = request[BODY] or {}
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None:
            # Like Discord: the same nonce in the same channel within a few minutes returns the message
            # already created instead of posting a second one.
            seen = self._nonces.get((channel.id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < NONCE_SECONDS:
                return json_response(seen[0].payload())
        wait = self._rate_limited(channel)
        if wait is not None:
            self.rate_limited.append(channel.name)
            return self.faults.response(Fault("POST", "", 429, retry_after=round(wait, 3), scope="user"))
        message = self._new_message(channel, body, request.get(FILES, []))
        if nonce is not None:
            self._nonces[(channel.id, str(nonce))] = (message, time.monotonic())
        await self._announce("MESSAGE_CREATE", message)
        response = json_response(message.payload())
        self._rate_limit_headers(response, channel)
        return response

    def _rate_limit_headers(self, response: web.Response, channel: Channel) -> None:
        """The per-channel bucket's headers, as Discord sends them on every answer of a limited route: the
        client waits before it would break the limit instead of learning it from a 429."""
        if self.channel_rate_limit is None:
            return
        count, per = self.channel_rate_limit
        recent = self._posts.get(channel.id, [])
        reset_after = per - (time.monotonic() - recent[0]) if recent else per
        response.headers["X-RateLimit-Limit"] = str(count)
        response.headers["X-RateLimit-Remaining"] = str(max(count - len(recent), 0))
        response.headers["X-RateLimit-Reset-After"] = f"{max(reset_after, 0.0):.3f}"
        response.headers["X-RateLimit-Bucket"] = "fake-channel-messages"

    def request_counts(self, since: int = 0) -> dict[str, int]:
        """How many requests the bot made since ``requests[since]``, by ``"METHOD route"`` (DM channels
        and threads told apart: ``POST dm/messages``, ``PATCH dm/messages/{message_id}``,
        ``POST thread/messages``), for the requests-per-step figures."""
        counts: dict[str, int] = {}
        for record in self.requests[since:]:
            key = f"{record.method} {record.route}"
            channel = record.path.split("/channels/")[1].split("/")[0] if "/channels/" in record.path else ""
            known = self.channels.get(int(channel)) if channel.isdigit() else None
            if known is not None and (known.recipient is not None or known.parent is not None):
                where = "dm" if known.recipient is not None else "thread"
                key = f"{record.method} {where}{record.route.removeprefix('/channels/{channel_id}')}"
            counts[key] = counts.get(key, 0) + 1
        return counts

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        return json_response(self._message(channel, request.match_info["message_id"]).payload())

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        message = self._message(channel, request.match_info["message_id"])
        if message.author is not self.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(message, request[BODY] or {}, request.get(FILES, []))
        await self._announce("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        message = self._message(channel, request.match_info["message_id"])
        self._check_not_archived(channel)
        message.deleted = True
        await self.dispatch(
            "MESSAGE_DELETE", {"id": str(message.id), "channel_id": str(channel.id), **self._guild_key(channel)}
        )
        return web.Response(status=204)

    async def _typing(self, request: web.Request) -> web.StreamResponse:
        self._channel(request)
        return web.Response(status=204)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        for upload in self.uploads:
            if str(upload.id) == request.match_info["attachment_id"]:
                return web.Response(body=upload.content, content_type=upload.content_type or "application/octet-stream")
        for channel in self.channels.values():
            for message in channel.messages:
                for attachment in message.attachments:
                    if str(attachment.id) == request.match_info["attachment_id"]:
                        return web.Response(
                            body=attachment.content, content_type=attachment.content_type or "application/octet-stream"
                        )
        raise DiscordError(404, 0, "404: Not Found")

    # --- message bookkeeping -----------------------------------------------------------------------
    @staticmethod
    def _guild_key(channel: Channel) -> dict[str, str]:
        return {"guild_id": str(channel.guild.id)} if channel.guild is not None else {}

    async def _announce(self, event: str, message: Message) -> None:
        """Tell the bot about a message like Discord does (guild messages and DMs; never ephemerals)."""
        if message.ephemeral_for is not None or not self.sessions:
            return
        guild = message.channel.guild
        intents = self.gateway.session_of(event, {"guild_id": guild.id if guild is not None else None}).intents
        if not intents & (DIRECT_MESSAGES if message.channel.is_dm else GUILD_MESSAGES):
            return
        data = message.payload()
        mentioned = f"<@{self.bot_user.id}>" in message.content
        if message.author is not self.bot_user and not (
            intents & MESSAGE_CONTENT or message.channel.is_dm or mentioned
        ):
            # Without the privileged MESSAGE_CONTENT intent a bot reads no one else's message text.
            data.update(content="", embeds=[], attachments=[], components=[])
        if message.channel.guild is not None:
            member = message.channel.guild.members.get(message.author.id)
            if member is not None:
                data["member"] = {k: v for k, v in member.payload().items() if k != "user"}
        await self.dispatch(event, data)

    def _attachments(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: list[tuple[str, bytes, str | None]],
        ephemeral: bool,
        existing: list[Attachment],
    ) -> list[Attachment]:
        """The attachments a create/edit payload asks for: kept existing ones plus the uploaded files."""
        kept: list[Attachment] = []
        listed = body.get("attachments")
        if listed is None:
            kept = list(existing)
        descriptions: dict[int, dict[str, Any]] = {}
        for entry in listed or []:
            known = next((a for a in existing if str(a.id) == str(entry.get("id"))), None)
            if known is not None:
                kept.append(known)
            else:
                descriptions[int(entry["id"])] = entry
        for index, (name, content, content_type) in enumerate(files):
            meta = descriptions.get(index, {})
            kept.append(
                Attachment(
                    id=snowflake(),
                    channel_id=channel.id,
                    filename=meta.get("filename", name),
                    content=content,
                    content_type=content_type,
                    description=meta.get("description"),
                    ephemeral=ephemeral,
                )
            )
        return kept

    def _new_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: list[tuple[str, bytes, str | None]],
        interaction: Interaction | None = None,
        allow_empty: bool = False,
    ) -> Message:
        flags = int(body.get("flags") or 0)
        ephemeral = bool(flags & EPHEMERAL)
        if ephemeral and interaction is None:
            raise DiscordError(400, 50035, "Invalid Form Body: only interaction responses can be ephemeral")
        message = Message(
            id=snowflake(),
            channel=channel,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            ephemeral_for=interaction.user.id if ephemeral and interaction is not None else None,
            interaction=interaction,
        )
        message.attachments = self._attachments(channel, body, files, ephemeral, [])
        problem = limits.message_problem(message, allow_empty=allow_empty) or self._resolve_media(message)
        if problem:
            raise DiscordError(400, 50006 if "empty" in problem else 50035, f"Invalid Form Body: {problem}")
        channel.messages.append(message)
        return message

    @staticmethod
    def _resolve_media(message: Message) -> str | None:
        """Point a layout's ``attachment://<filename>`` media at the message's uploaded file (its CDN url), as
        Discord does; a name that is not among the attachments is an error."""
        for component in walk_components(message.components):
            media = [component] if component.get("type") == 11 else list(component.get("items") or [])
            if component.get("type") == 13:
                media = [{"media": component.get("file") or {}}]
            for item in media:
                url = str((item.get("media") or {}).get("url", ""))
                if not url.startswith("attachment://"):
                    continue
                name = url.removeprefix("attachment://")
                found = next((a for a in message.attachments if a.filename == name), None)
                if found is None:
                    return f"{url} names no attachment of the message"
                item["media"] = {
                    **item["media"],
                    "url": found.url,
                    "proxy_url": found.url,
                    "attachment_id": str(found.id),
                }
        return None

    def _edit(
        self,
        message: Message,
        body: dict[str, Any],
        files: list[tuple[str, bytes, str | None]],
        replace_flags: bool = False,
    ) -> None:
        self._check_not_archived(message.channel)
        before = message.payload()
        kept = (message.content, message.embeds, message.components, message.flags, message.attachments)
        if int(body.get("flags") or 0) & COMPONENTS_V2:
            message.flags |= COMPONENTS_V2  # it can be set by an edit, never taken away
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if replace_flags and "flags" in body:
            message.flags = int(body["flags"])
        message.attachments = self._attachments(message.channel, body, files, message.ephemeral, message.attachments)
        problem = limits.message_problem(message, allow_empty=False) or self._resolve_media(message)
        if problem:
            # A refused edit changes nothing, as on Discord.
            message.content, message.embeds, message.components = kept[0], kept[1], kept[2]
            message.flags, message.attachments = kept[3], kept[4]
            raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")
        message.history.append(before)
        message.edited_at = iso_now()

    # --- users act ---------------------------------------------------------------------------------
    def interaction_payload(self, interaction: Interaction) -> dict[str, Any]:
        """The INTERACTION_CREATE payload of ``interaction``, as Discord builds it."""
        channel = interaction.channel
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": interaction.kind,
            "data": interaction.data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "token": interaction.token,
            "version": 1,
            "locale": interaction.user.locale,
            "app_permissions": "0" if channel.guild is None else str(((1 << 50) - 1) & ~self._bot_denied(channel)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild.id)} if channel.guild else {},
            "context": 0 if channel.guild is not None else 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.guild is not None:
            member = channel.guild.members.get(interaction.user.id)
            if member is None:
                raise AssertionError(f"{interaction.user.name} is not a member of {channel.guild.name}")
            payload["guild_id"] = str(channel.guild.id)
            payload["guild_locale"] = channel.guild.locale
            payload["member"] = {**member.payload(), "permissions": member.permissions}
        else:
            payload["user"] = interaction.user.payload()
        if interaction.message is not None:
            payload["message"] = interaction.message.payload()
        return payload

    @staticmethod
    def _bot_denied(channel: Channel) -> int:
        """The permissions the bot lacks in ``channel`` (a thread inherits its channel's)."""
        return channel.bot_denied | (channel.parent.bot_denied if channel.parent is not None else 0)

    async def interact(
        self, user: User, channel: Channel, kind: int, data: dict[str, Any], message: Message | None = None
    ) -> Interaction:
        """``user`` makes an interaction in ``channel``; the bot receives INTERACTION_CREATE."""
        interaction = Interaction(
            id=snowflake(),
            token=secrets.token_urlsafe(24),
            kind=kind,
            user=user,
            channel=channel,
            application_id=self.application_id,
            data=data,
            message=message,
        )
        self.interactions[interaction.id] = interaction
        await self.dispatch("INTERACTION_CREATE", self.interaction_payload(interaction))
        return interaction

    def post_as_bot(self, channel: Channel, body: dict[str, Any]) -> Message:
        """A message the bot posted earlier (before a restart, say), put straight into the world."""
        message = self._new_message(channel, body, [])
        return message

    async def post_as(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` writes ``content`` in ``channel`` (in a thread: they join it); the bot receives MESSAGE_CREATE."""
        if channel.parent is not None:
            if channel.archived and channel.locked:
                raise AssertionError(f"{user.name} cannot post in the locked, archived thread {channel.name!r}")
            channel.thread_members.add(user.id)
            channel.archived = False
        message = Message(id=snowflake(), channel=channel, author=user, content=content)
        channel.messages.append(message)
        await self._announce("MESSAGE_CREATE", message)
        await self.notify()
        return message

    def find_command(self, name: str, channel: Channel) -> Command:
        """The registered chat command ``name`` a user can see in ``channel`` (guild ones first)."""
        guild_id = channel.guild.id if channel.guild is not None else None
        for command in self.commands:
            if command.name == name and command.guild_id is not None and command.guild_id == guild_id:
                return command
        for command in self.commands:
            if command.name == name and command.guild_id is None:
                return command
        visible = sorted({c.name for c in self.commands if c.guild_id in (None, guild_id)})
        raise AssertionError(f"/{name} is not registered where {channel.name} is; registered: {visible}")

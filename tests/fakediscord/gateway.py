"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME with replay.

Every event is numbered in its session and kept, so a bot that RESUMEs after a disconnect receives
what it missed, as from Discord.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
"""Intents an application must enable on the developer portal before a bot may ask for them."""


@dataclass
class GatewaySession:
    session_id: str
    seq: int = 0
    frames: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    resumes: int = 0
    intents: int = 0
    """The intents the bot identified with: which events and message fields it receives."""
    shard: int = 0
    """The shard this session serves (IDENTIFY's ``shard: [id, count]``; 0 when the bot does not shard)."""


class Gateway:
    """The fake's gateway: sessions, their numbered events, and the ops the bot sent."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: list[GatewaySession] = []
        self.ops: list[dict[str, Any]] = []
        """Every payload the bot sent on the gateway, in order (heartbeats, IDENTIFY, RESUME...)."""

    async def drop(self, code: int = 4000, *, forget_session: bool = False) -> GatewaySession:
        """Close the bot's gateway connection as Discord does on a hiccup; the bot should RESUME.

        ``forget_session``: Discord no longer knows the session, so the RESUME gets INVALID_SESSION
        and the bot must IDENTIFY again.
        """
        session = self.current_session()
        assert session.ws is not None, "the bot is not connected to the gateway"
        ws, session.ws = session.ws, None
        if forget_session:
            session.session_id = "forgotten-" + session.session_id
        await ws.close(code=code, message=b"fake disconnect")
        return session

    async def request_reconnect(self) -> GatewaySession:
        """Send op 7 RECONNECT, as Discord does before moving a session; the bot should RESUME."""
        session = self.current_session()
        assert session.ws is not None, "the bot is not connected to the gateway"
        await session.ws.send_str(json.dumps({"op": 7, "d": None, "s": None, "t": None}))
        return session

    def current_session(self) -> GatewaySession:
        assert self.sessions, "the bot never identified on the gateway"
        return self.sessions[-1]

    def shard_of(self, guild_id: int | str | None) -> int:
        """The shard Discord sends a guild's events on, ``(guild_id >> 22) % shards``; DMs (no guild) on 0."""
        if guild_id is None:
            return 0
        return (int(guild_id) >> 22) % self.fake.shard_count

    def session_for(self, shard: int) -> GatewaySession:
        """The newest session of ``shard`` (the one a RESUME continues), else the newest of all."""
        for session in reversed(self.sessions):
            if session.shard == shard:
                return session
        return self.current_session()

    def session_of(self, event: str, data: dict[str, Any]) -> GatewaySession:
        """The session an event goes to: its guild's shard (GUILD_CREATE names the guild by ``id``)."""
        guild_id = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        return self.session_for(self.shard_of(guild_id))

    async def dispatch(self, event: str, data: dict[str, Any], session: GatewaySession | None = None) -> None:
        """Send a gateway event to the bot (buffered while it is disconnected, replayed on RESUME), on the
        session of its shard (``session``: that one)."""
        if session is None:
            session = self.session_of(event, data) if self.fake.shard_count > 1 else self.current_session()
        async with session.lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.frames.append(frame)
            if session.ws is not None and not session.ws.closed:
                await session.ws.send_str(json.dumps(frame))

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        async for frame in ws:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                self.fake.problems.append(f"gateway frame of type {frame.type} (expected JSON text)")
                continue
            payload = json.loads(frame.data)
            self.ops.append(payload)
            op, data = payload.get("op"), payload.get("d")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                await self._identify(ws, data, request.host)
            elif op == 6:
                await self._resume(ws, data)
            elif op == 8:
                await self._request_members(data)
            elif op == 3:
                continue  # presence updates change nothing the tests read
            else:
                self.fake.problems.append(f"gateway op {op} is not implemented by the fake: {payload}")
            await self.fake.notify()
        for session in self.sessions:
            if session.ws is ws:
                session.ws = None
        await self.fake.notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any], host: str) -> None:
        if data.get("token") != self.fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        refused = intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents
        if refused:
            # What Discord does when the portal has not enabled a privileged intent the bot asks for.
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard, count = (data.get("shard") or [0, 1])[:2]
        if int(count) != self.fake.shard_count or not 0 <= int(shard) < int(count):
            # Discord: 4010 Invalid shard; 4011 Sharding required (more guilds than one shard may hold).
            code = 4011 if int(count) < self.fake.shard_count else 4010
            await ws.close(code=code, message=b"Invalid shard." if code == 4010 else b"Sharding required.")
            return
        session = GatewaySession(session_id=secrets.token_hex(16), ws=ws, intents=intents, shard=int(shard))
        self.sessions.append(session)
        guilds = [
            g for g in self.fake.guilds if self.fake.bot_user.id in g.members and self.shard_of(g.id) == session.shard
        ]
        await self.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.fake.bot_user.payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.session_id,
                # Where to RESUME: the gateway as the bot reached it (gateway.discord.gg through the
                # test's connector; 127.0.0.1:<port> for a `gregario run` process, which resolves no name).
                "resume_gateway_url": f"wss://{host}",
                "application": {"id": str(self.fake.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "shard": [session.shard, self.fake.shard_count],
            },
            session,
        )
        for guild in guilds:
            await self.dispatch("GUILD_CREATE", guild.payload(), session)

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        if session is None or data.get("token") != self.fake.token:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return
        async with session.lock:
            session.ws = ws
            session.resumes += 1
            for frame in session.frames:
                if frame["s"] > (data.get("seq") or 0):
                    await ws.send_str(json.dumps(frame))
        await self.dispatch("RESUMED", {}, session)

    async def _request_members(self, data: dict[str, Any]) -> None:
        guild = next((g for g in self.fake.guilds if str(g.id) == str(data.get("guild_id"))), None)
        if guild is None:
            self.fake.problems.append(f"REQUEST_GUILD_MEMBERS for an unknown guild: {data}")
            return
        await self.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
            },
        )

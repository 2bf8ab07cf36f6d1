"""What the fake Discord knows: users, guilds, channels, messages, commands and interactions.

Each object renders itself as the JSON payload Discord would send (``payload()``); the keys discord.py
requires are the ones its gateway and HTTP layers read (the tests of tests/bot show which).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = str((1 << 50) - 1)
EPHEMERAL = 1 << 6
LOADING = 1 << 7

_counter = itertools.count(1)


def snowflake() -> int:
    """A new Discord id: ``(ms since the Discord epoch) << 22 | n``."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    """False: the bot's DMs to this user fail with 403 / 50007, as when a member closes their DMs."""
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 31) | (1 << 16))
"""What a plain member may do: view channels, send messages, read history, use application commands."""


@dataclass
class Role:
    """A role of a guild (members hold role ids in :attr:`Member.roles`)."""

    id: int
    name: str
    position: int = 1
    permissions: str = "0"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": self.permissions,
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    permissions: str = ALL_PERMISSIONS
    """The member's permissions in the channel of an interaction (``member.permissions``); every
    permission by default (the test guild's members are admins); :data:`MEMBER_PERMISSIONS` for a plain member."""

    def payload(self) -> dict[str, Any]:
        return {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
        }


@dataclass
class Attachment:
    id: int
    channel_id: int
    filename: str
    content: bytes
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/attachments/{self.channel_id}/{self.id}/{self.filename}"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.content),
            "url": self.url,
            "proxy_url": self.url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "ephemeral": self.ephemeral,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


@dataclass
class Message:
    """A message as stored by the fake. Tests read it through :class:`tests.fakediscord.users.Seen`."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: int | None = None
    """The only user who sees this ephemeral message (None: everyone in the channel)."""
    interaction: Interaction | None = None
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    """Earlier versions (payloads) of this message, oldest first."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Everything a person reads in the message: content, then each embed's text."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for item in embed.get("fields") or []:
                parts.append(f"{item.get('name')}: {item.get('value')}")
            if (embed.get("footer") or {}).get("text"):
                parts.append(embed["footer"]["text"])
        return "\n".join(parts)

    def items(self) -> list[dict[str, Any]]:
        """Every interactive component, row by row."""
        return [child for row in self.components for child in row.get("components") or []]

    @property
    def buttons(self) -> list[str]:
        """The labels of the message's buttons, as a person sees them."""
        return [str(c.get("label") or c.get("emoji", {}).get("name") or "") for c in self.items() if c.get("type") == 2]

    def __repr__(self) -> str:
        who = f" ephemeral for {self.ephemeral_for}" if self.ephemeral_for else ""
        files = f" files={[a.filename for a in self.attachments]}" if self.attachments else ""
        return f"<Message {self.id} in {self.channel.name}{who}: {self.text[:80]!r} buttons={self.buttons}{files}>"

    def visible_to(self, user: User) -> bool:
        return not self.deleted and (self.ephemeral_for is None or self.ephemeral_for == user.id)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": 20 if self.interaction is not None and self.interaction.kind == 2 else 0,
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.payload() for a in self.attachments],
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "flags": self.flags,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.interaction is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.kind,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
            if self.interaction.kind != 2:
                data["application_id"] = str(self.interaction.application_id)
        return data


@dataclass
class Channel:
    id: int
    name: str
    guild: Guild | None = None
    recipient: User | None = None
    """The user of a DM channel (the other side is the bot)."""
    messages: list[Message] = field(default_factory=list)
    position: int = 0

    @property
    def is_dm(self) -> bool:
        return self.guild is None

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": str(self.messages[-1].id) if self.messages else None,
            }
        assert self.guild is not None
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }


@dataclass
class Guild:
    id: int
    name: str
    owner: User
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    locale: str = "en-US"
    roles: list[Role] = field(default_factory=list)
    """Roles besides @everyone."""

    def channel(self, name: str) -> Channel:
        for channel in self.channels:
            if channel.name == name.lstrip("#"):
                return channel
        raise LookupError(f"guild {self.name!r} has no channel #{name}; it has {[c.name for c in self.channels]}")

    def everyone_role(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": "@everyone",
            "permissions": ALL_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "roles": [self.everyone_role(), *(r.payload() for r in self.roles)],
            "channels": [c.payload() for c in self.channels],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso_now(),
            "features": [],
            "emojis": [],
            "stickers": [],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "afk_timeout": 300,
        }


@dataclass
class Command:
    """An application command as the bot registered it (global when ``guild_id`` is None)."""

    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def payload(self) -> dict[str, Any]:
        body = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **self.data,
        }
        body.update(id=str(self.id), application_id=str(self.application_id), version=str(self.id))
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        return body


@dataclass
class Interaction:
    """An interaction a user made, and everything the bot answered to it."""

    id: int
    token: str
    kind: int
    """2 slash command, 3 component, 4 autocomplete, 5 modal submit."""
    user: User
    channel: Channel
    application_id: int
    data: dict[str, Any]
    message: Message | None = None
    """The message whose component was used (component interactions)."""
    created: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    deferred_ephemeral: bool = False
    expired: bool = False
    """Its token is older than 15 minutes: followups and edits through it fail."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

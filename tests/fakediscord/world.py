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
HAS_THREAD = 1 << 5
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
"""IS_COMPONENTS_V2: the message is laid out by its components alone (no content, no embeds)."""
PUBLIC_THREAD = 11
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
INTERACTIVE = frozenset({2, 3, 5, 6, 7, 8})
"""Component types a person can use: button, the selects."""

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


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a message, depth first in reading order: action rows and their items, containers
    and their children, sections, their text displays and then their accessory."""
    found: list[dict[str, Any]] = []
    for component in components:
        found.append(component)
        found += walk_components(list(component.get("components") or []))
        if isinstance(component.get("accessory"), dict):
            found.append(component["accessory"])
    return found


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
    thread: Channel | None = None
    """The thread started from this message (it has the message's id)."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Everything a person reads in the message: content, each embed's text, then each text display
        of a layout (components v2) in reading order."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for item in embed.get("fields") or []:
                parts.append(f"{item.get('name')}: {item.get('value')}")
            if (embed.get("footer") or {}).get("text"):
                parts.append(embed["footer"]["text"])
        parts += [c["content"] for c in walk_components(self.components) if c.get("type") == 10 and c.get("content")]
        return "\n".join(parts)

    def items(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects) in reading order, nested ones included (in a
        container, in an action row, as a section's accessory)."""
        return [c for c in walk_components(self.components) if c.get("type") in INTERACTIVE]

    def earlier_items(self) -> list[dict[str, Any]]:
        """The interactive components of every earlier version of the message, oldest first: what a screen
        that had not caught up with an edit could still show (a panel closed since was a panel before)."""
        versions = [walk_components(v.get("components") or []) for v in self.history]
        return [c for version in versions for c in version if c.get("type") in INTERACTIVE]

    @property
    def gallery(self) -> list[tuple[str, str]]:
        """Each media gallery item and thumbnail of a layout as (url, alt text)."""
        found: list[tuple[str, str]] = []
        for c in walk_components(self.components):
            media = [c] if c.get("type") == 11 else c.get("items") or [] if c.get("type") == 12 else []
            found += [(str((m.get("media") or {}).get("url", "")), str(m.get("description") or "")) for m in media]
        return found

    @property
    def layout(self) -> bool:
        """The message is laid out with components v2 (IS_COMPONENTS_V2)."""
        return bool(self.flags & COMPONENTS_V2)

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
        if self.thread is not None:
            data["thread"] = self.thread.payload()
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
    parent: Channel | None = None
    """A thread's channel (threads are type 11, public, started from a message of ``parent``)."""
    owner_id: int = 0
    """Who started the thread."""
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=iso_now)
    created_at: str = field(default_factory=iso_now)
    thread_members: set[int] = field(default_factory=set)
    """Users who joined the thread (its starter, and whoever posts in it)."""
    bot_denied: int = 0
    """Permissions the bot lacks in this channel (bits, e.g. :data:`CREATE_PUBLIC_THREADS`): the requests
    that need one are refused with 403 / 50013, and interactions here carry ``app_permissions`` without it."""

    @property
    def is_dm(self) -> bool:
        return self.guild is None

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

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
        if self.parent is not None:
            return self._thread_payload()
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

    def _thread_payload(self) -> dict[str, Any]:
        """A public thread as Discord sends it (the keys ``discord.threads.Thread`` reads)."""
        assert self.guild is not None and self.parent is not None
        sent = [m for m in self.messages if m.ephemeral_for is None]
        return {
            "id": str(self.id),
            "type": PUBLIC_THREAD,
            "guild_id": str(self.guild.id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": str(sent[-1].id) if sent else None,
            "message_count": len([m for m in sent if not m.deleted]),
            "total_message_sent": len(sent),
            "member_count": len(self.thread_members),
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": self.archive_timestamp,
                "locked": self.locked,
                "create_timestamp": self.created_at,
            },
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
    threads: list[Channel] = field(default_factory=list)
    """Threads started in the guild's channels (active ones are sent in GUILD_CREATE)."""

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
            "threads": [t.payload() for t in self.threads if not t.archived],
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

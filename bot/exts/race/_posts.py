"""Posting and editing race messages outside interactions, through discord.py's HTTP client.

Every create the outbox owes goes out with its row's nonce, which discord.py 2.7 sends with
``enforce_nonce: true`` (``handle_message_parameters``): Discord returns the message already posted with
that nonce instead of posting it twice (a restart between the post and storing its id). Components are
persistent (:mod:`._components`), so no view is stored.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any
from weakref import WeakKeyDictionary

import discord
from discord.http import handle_message_parameters


async def send(
    client: discord.Client,
    channel_id: int,
    content: str | None,
    *,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
    files: Sequence[discord.File] = (),
    nonce: str | None = None,
) -> int:
    """Post a message and return its id (a ``LayoutView`` carries all of its text: no ``content``)."""
    with handle_message_parameters(
        content=content if content is not None else discord.utils.MISSING,
        view=view if view is not None else discord.utils.MISSING,
        files=list(files) if files else discord.utils.MISSING,
        nonce=nonce,
        allowed_mentions=discord.AllowedMentions.none(),
    ) as params:
        data: Any = await client.http.send_message(channel_id, params=params)
    return int(data["id"])


async def edit(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    content: str | None,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
    *,
    files: Sequence[discord.File] = (),
) -> None:
    """Replace a message's text and components (``view=None`` removes them); ``files``, if any, replace its
    attachments (none given: the attachments stay as they are). ``content`` None clears it (a layout holds
    its own text: a plain message edited into a layout loses its content)."""
    with handle_message_parameters(
        content=content,
        view=view,
        attachments=list(files) if files else discord.utils.MISSING,
        allowed_mentions=discord.AllowedMentions.none(),
    ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def delete(client: discord.Client, channel_id: int, message_id: int) -> None:
    """Delete a message; one already gone is no error (a delete delivered twice deletes once)."""
    with contextlib.suppress(discord.NotFound):
        await client.http.delete_message(channel_id, message_id)


_DM_CHANNELS: WeakKeyDictionary[discord.Client, dict[int, int]] = WeakKeyDictionary()
"""Per client: user id -> the id of the DM channel with them (it never changes)."""


async def dm_channel(client: discord.Client, user_id: int) -> int:
    """The DM channel with a user, opened once a process: discord.py keeps only its latest 128 private
    channels, and opening one again is a request Discord's global limit counts (one for every panel, once
    more than 128 people race)."""
    known = _DM_CHANNELS.setdefault(client, {})
    channel_id = known.get(user_id)
    if channel_id is None:
        channel_id = (await client.create_dm(discord.Object(id=user_id))).id
        if len(known) >= 100_000:  # a bound, not a policy: the next panel of each opens it again
            known.clear()
        known[user_id] = channel_id
    return channel_id

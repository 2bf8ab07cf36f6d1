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


async def dm_channel(client: discord.Client, user_id: int) -> int:
    """The DM channel with a user (opened once; discord.py keeps it)."""
    channel = await client.create_dm(discord.Object(id=user_id))
    return channel.id

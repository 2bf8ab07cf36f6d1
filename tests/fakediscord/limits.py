"""Discord's size limits, checked on everything the bot sends, so a message Discord would refuse fails here.

Each function returns a description of the first problem found, or None.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.fakediscord.world import Message

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _embed_problem(embed: dict[str, Any]) -> str | None:
    sizes = {
        "title": (len(embed.get("title") or ""), 256),
        "description": (len(embed.get("description") or ""), 4096),
        "footer": (len((embed.get("footer") or {}).get("text") or ""), 2048),
        "author": (len((embed.get("author") or {}).get("name") or ""), 256),
    }
    for name, (size, limit) in sizes.items():
        if size > limit:
            return f"embed {name} has {size} characters (limit {limit})"
    fields = embed.get("fields") or []
    if len(fields) > 25:
        return f"embed has {len(fields)} fields (limit 25)"
    for item in fields:
        if not item.get("name") or not item.get("value"):
            return f"embed field {item} needs a name and a value"
        if len(item["name"]) > 256 or len(item["value"]) > 1024:
            return f"embed field {item['name'][:40]!r} is too long (name 256, value 1024)"
    return None


def embed_size(embed: dict[str, Any]) -> int:
    fields = embed.get("fields") or []
    return (
        len(embed.get("title") or "")
        + len(embed.get("description") or "")
        + len((embed.get("footer") or {}).get("text") or "")
        + len((embed.get("author") or {}).get("name") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    )


def _component_problem(rows: list[dict[str, Any]]) -> str | None:
    if len(rows) > 5:
        return f"{len(rows)} action rows (limit 5)"
    for row in rows:
        if row.get("type") != 1:
            return f"top-level component of type {row.get('type')} (this fake knows action rows)"
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            return f"an action row with {len(children)} components (1 to 5)"
        for child in children:
            custom_id = child.get("custom_id")
            if child.get("type") == 2 and child.get("style") != 5 and not custom_id:
                return "a button without a custom id"
            if custom_id is not None and len(custom_id) > 100:
                return f"custom id {custom_id[:30]!r}... is longer than 100 characters"
            if len(child.get("label") or "") > 80:
                return f"label {child['label'][:30]!r}... is longer than 80 characters"
            if child.get("type") == 3 and not 1 <= len(child.get("options") or []) <= 25:
                return "a select menu needs 1 to 25 options"
            if child.get("type") != 2 and len(children) > 1:
                return "a select menu must be alone in its action row"
    return None


def message_problem(message: Message, allow_empty: bool) -> str | None:
    """Why Discord would refuse ``message``, or None."""
    if len(message.content) > 2000:
        return f"content has {len(message.content)} characters (limit 2000)"
    if len(message.embeds) > 10:
        return f"{len(message.embeds)} embeds (limit 10)"
    for embed in message.embeds:
        problem = _embed_problem(embed)
        if problem:
            return problem
    total = sum(embed_size(e) for e in message.embeds)
    if total > 6000:
        return f"embeds total {total} characters (limit 6000)"
    problem = _component_problem(message.components)
    if problem:
        return problem
    if len(message.attachments) > 10:
        return f"{len(message.attachments)} attachments (limit 10)"
    if not allow_empty and not (message.content or message.embeds or message.attachments or message.components):
        return "Cannot send an empty message"
    return None


def command_problem(data: dict[str, Any]) -> str | None:
    """Why Discord would refuse the command registration ``data``, or None."""
    name = data.get("name", "")
    if not COMMAND_NAME.match(name) or (data.get("type", 1) == 1 and name != name.lower()):
        return f"command name {name!r} is not a valid slash command name"
    if data.get("type", 1) == 1 and not 1 <= len(data.get("description") or "") <= 100:
        return f"/{name} needs a description of 1 to 100 characters"
    return _options_problem(name, data.get("options") or [])


def _options_problem(where: str, options: list[dict[str, Any]]) -> str | None:
    if len(options) > 25:
        return f"/{where} has {len(options)} options (limit 25)"
    seen_optional = False
    for option in options:
        name = option.get("name", "")
        if not COMMAND_NAME.match(name) or name != name.lower():
            return f"/{where} option {name!r} is not a valid name"
        if not 1 <= len(option.get("description") or "") <= 100:
            return f"/{where} option {name} needs a description of 1 to 100 characters"
        if len(option.get("choices") or []) > 25:
            return f"/{where} option {name} has more than 25 choices"
        if option.get("choices") and option.get("autocomplete"):
            return f"/{where} option {name} cannot have both choices and autocomplete"
        if option.get("type") in (1, 2):
            problem = _options_problem(f"{where} {name}", option.get("options") or [])
            if problem:
                return problem
            continue
        if option.get("required"):
            if seen_optional:
                return f"/{where}: required option {name} comes after an optional one"
        else:
            seen_optional = True
    return None


def modal_problem(data: dict[str, Any]) -> str | None:
    """Why Discord would refuse the modal ``data``, or None."""
    title = data.get("title") or ""
    if not 1 <= len(title) <= 45:
        return f"modal title {title!r} must have 1 to 45 characters"
    if not data.get("custom_id"):
        return "a modal needs a custom id"
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        return f"a modal needs 1 to 5 components (got {len(rows)})"
    return None

"""Discord's size limits, checked on everything the bot sends, so a message Discord would refuse fails here.

Each function returns a description of the first problem found, or None.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tests.fakediscord.world import walk_components

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


LAYOUT_TYPES = {
    9: "section",
    10: "text display",
    11: "thumbnail",
    12: "media gallery",
    13: "file",
    14: "separator",
    17: "container",
}
"""Components v2 (discord.py's ``LayoutView``): only in a message flagged IS_COMPONENTS_V2."""
TOP_LEVEL_V2 = {1, 9, 10, 12, 13, 14, 17}
IN_CONTAINER = {1, 9, 10, 12, 13, 14}
MOST_COMPONENTS_V2 = 40
"""Components in a v2 message, nested ones included (media gallery items are not components)."""
MOST_TEXT_V2 = 4000
"""Characters across every text display of a v2 message."""
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def _row_problem(row: dict[str, Any]) -> str | None:
    """An action row: 1 to 5 buttons, or one select alone."""
    children = row.get("components") or []
    if not 1 <= len(children) <= 5:
        return f"an action row with {len(children)} components (1 to 5)"
    for child in children:
        if child.get("type") not in (2, 3, 5, 6, 7, 8):
            return f"an action row holds buttons and selects, not a component of type {child.get('type')}"
        problem = _interactive_problem(child)
        if problem:
            return problem
        if child.get("type") != 2 and len(children) > 1:
            return "a select menu must be alone in its action row"
    return None


def _interactive_problem(child: dict[str, Any]) -> str | None:
    custom_id = child.get("custom_id")
    if child.get("type") == 2 and child.get("style") not in (5, 6) and not custom_id:
        return "a button without a custom id"
    if custom_id is not None and not 1 <= len(custom_id) <= 100:
        return f"custom id {str(custom_id)[:30]!r}... must have 1 to 100 characters"
    if len(child.get("label") or "") > 80:
        return f"label {child['label'][:30]!r}... is longer than 80 characters"
    if child.get("style") == 5 and len(child.get("url") or "") > 512:
        return "a link button's url is longer than 512 characters"
    if child.get("type") == 3 and not 1 <= len(child.get("options") or []) <= 25:
        return "a select menu needs 1 to 25 options"
    return None


def _media_problem(media: dict[str, Any], what: str) -> str | None:
    if not (media.get("media") or {}).get("url"):
        return f"a {what} needs media with a url"
    if len(media.get("description") or "") > 1024:
        return f"a {what}'s description (alt text) is longer than 1024 characters"
    return None


def _layout_problem(component: dict[str, Any], allowed: set[int], where: str) -> str | None:
    """One v2 component and what it holds, by Discord's component reference."""
    kind = component.get("type")
    if kind not in allowed:
        return f"a component of type {kind} cannot be placed {where}"
    if kind == 1:
        return _row_problem(component)
    if kind == 9:
        texts = component.get("components") or []
        if not 1 <= len(texts) <= 3 or any(t.get("type") != 10 for t in texts):
            return "a section holds 1 to 3 text displays"
        accessory = component.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
            return "a section needs an accessory: a button or a thumbnail"
        return _interactive_problem(accessory) if accessory["type"] == 2 else _media_problem(accessory, "thumbnail")
    if kind == 10 and not isinstance(component.get("content"), str):
        return "a text display needs its content"
    if kind == 12:
        items = component.get("items") or []
        if not 1 <= len(items) <= 10:
            return f"a media gallery holds 1 to 10 items, not {len(items)}"
        for item in items:
            problem = _media_problem(item, "media gallery item")
            if problem:
                return problem
    if kind == 13 and not str((component.get("file") or {}).get("url", "")).startswith("attachment://"):
        return "a file component names an attachment (attachment://<filename>)"
    if kind == 14 and component.get("spacing", 1) not in (1, 2):
        return "a separator's spacing is 1 (small) or 2 (large)"
    if kind == 17:
        colour = component.get("accent_color")
        if colour is not None and not 0 <= int(colour) <= 0xFFFFFF:
            return f"accent colour {colour} is not an RGB value"
        for child in component.get("components") or []:
            problem = _layout_problem(child, IN_CONTAINER, "in a container")
            if problem:
                return problem
    return None


def _component_problem(rows: list[dict[str, Any]], layout: bool) -> str | None:
    if layout:
        for component in rows:
            problem = _layout_problem(component, TOP_LEVEL_V2, "at the top of a message")
            if problem:
                return problem
        every = walk_components(rows)
        if len(every) > MOST_COMPONENTS_V2:
            return f"{len(every)} components in total (limit {MOST_COMPONENTS_V2}, nested ones included)"
        text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
        if text > MOST_TEXT_V2:
            return f"text displays total {text} characters (limit {MOST_TEXT_V2})"
    else:
        if len(rows) > 5:
            return f"{len(rows)} action rows (limit 5)"
        for row in rows:
            if row.get("type") in LAYOUT_TYPES:
                return f"a {LAYOUT_TYPES[row['type']]} needs the IS_COMPONENTS_V2 message flag"
            if row.get("type") != 1:
                return f"top-level component of type {row.get('type')} (action rows only without IS_COMPONENTS_V2)"
            problem = _row_problem(row)
            if problem:
                return problem
        every = walk_components(rows)
    ids = [c["custom_id"] for c in every if c.get("custom_id") is not None]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        return f"custom ids must be unique in a message: {doubled[0]!r} is used twice"
    return None


def thread_name_problem(body: dict[str, Any]) -> str | None:
    """Why Discord would refuse a thread's ``name`` / ``auto_archive_duration``, or None."""
    if "name" in body and not 1 <= len(body.get("name") or "") <= 100:
        return "a thread name has 1 to 100 characters"
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        return f"auto_archive_duration is one of {ARCHIVE_DURATIONS} minutes, not {duration}"
    slow = body.get("rate_limit_per_user")
    if slow is not None and not 0 <= int(slow) <= 21600:
        return "rate_limit_per_user is 0 to 21600 seconds"
    return None


def message_problem(message: Message, allow_empty: bool) -> str | None:
    """Why Discord would refuse ``message``, or None."""
    if message.layout and (message.content or message.embeds):
        return "a message with the IS_COMPONENTS_V2 flag cannot have content or embeds"
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
    problem = _component_problem(message.components, message.layout)
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

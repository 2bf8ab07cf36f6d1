"""Bounds on what a member can send: text lengths and JSON nesting, checked before anything is parsed.

A member types options, a stage as JSON, a stage modal's fields, or attaches a stage file. Python's
``json`` recurses once per bracket and raises ``RecursionError`` somewhere near a thousand levels, and a
long text costs time and a post that echoes it; so every such input is measured first and refused in one
line naming the limit. Nothing a rule system accepts comes near these bounds (a stage nests three levels).
"""

from __future__ import annotations

import json
from typing import Any

from bot.services.outcomes import Refusal
from engine.messages import Message, message_of

JSON_DEPTH = 16
"""The deepest nesting of brackets read (a Tabella table, the deepest stage, is a list of lists: 2)."""
TEXT_LIMIT = 1000
"""The longest options or stage text ``/race new`` reads (a stage typed as JSON is a few dozen characters)."""
VALUE_LIMIT = 200
"""The longest single ``name=value`` pair read (Flamme Rouge's longest tile string is under 100)."""
SETTING_LIMIT = 400
"""The longest value ``/settings`` reads (its form's field holds as much)."""


def phrase(key: str, **params: Any) -> Message:
    """A phrase of a refusal (nested as a parameter), rendered in the reader's language by ``t``."""
    from bot.i18n import t

    return message_of(key, params, t(key, "en", **params))


def check_length(text: str, limit: int, what: Message | str) -> str:
    """``text`` if it has at most ``limit`` characters; a refusal naming ``what`` and the limit otherwise."""
    if len(text) > limit:
        raise Refusal.of("input.too_long", what=what, length=len(text), limit=limit)
    return text


def depth(text: str) -> int:
    """How deeply the brackets of JSON ``text`` nest, outside strings: a linear scan with no recursion."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def loads(text: str | bytes, limit: int = JSON_DEPTH) -> Any:
    """``json.loads`` that refuses, before parsing, a text nested deeper than ``limit`` (one line, a
    :class:`Refusal`); other malformed JSON raises ``json.JSONDecodeError`` (or ``UnicodeDecodeError`` for
    bytes) as ``json.loads`` does, for the caller to word."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    # No more opening brackets than the limit cannot nest deeper: the character scan is for the rest.
    if text.count("[") + text.count("{") > limit and depth(text) > limit:
        raise Refusal.of("input.too_deep", limit=limit)
    return json.loads(text)

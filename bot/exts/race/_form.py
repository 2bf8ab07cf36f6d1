"""A panel as a form: the parts of an order, Back, a changed part, and the identity a custom id carries.

Everything here reads the engine's decision as data (its ``fields`` and its ``asked`` parts, see
:func:`bot.services.stepping.asked_fields`), never the rule system's name. An order's *parts* are the
values the decision's fields asked, in the order they were asked; a value no field asked (a list the
rules built from parts, like Tabella's specials) is a part of its own, whose last element goes first
when the player goes back.

Custom ids carry a short digest of what a control acts on (the field's path and choices, or the order a
review shows), so a click from a screen that is no longer current is refused as out of date instead of
being read as the control that now sits at the same position.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.ruleset import ORDER_META_KEYS, set_path

DIGEST_LENGTH = 6


def digest(value: Any) -> str:
    """A short, stable fingerprint of JSON data (six hex digits): enough to tell two screens apart."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2s(text.encode("utf-8"), digest_size=8).hexdigest()[:DIGEST_LENGTH]


def field_digest(field: dict[str, Any] | None) -> str:
    """What makes a field the field it is: where its value goes, its kind, its legal values."""
    if field is None:
        return digest(None)
    values = [c.get("value") for c in field.get("choices") or []]
    return digest([field.get("path"), field.get("kind"), values, field.get("minimum"), field.get("maximum")])


def order_digest(order: dict[str, Any] | None) -> str:
    """The fingerprint of the order a review showed (Send and Back act on exactly that order)."""
    return digest({k: v for k, v in (order or {}).items() if k not in ORDER_META_KEYS})


def asked(decision: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The parts of the order so far, each the field that asked it with its ``value``."""
    return list((decision or {}).get("asked") or [])


def parts(decision: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The parts of the order so far, named: each asked field with, beside its own choices, those the
    decision's field at the same path offers now (a text field names the values it holds, like the
    specials of a Tabella plan, which were asked before they existed)."""
    current = {tuple(f.get("path") or []): f.get("choices") or [] for f in (decision or {}).get("fields") or []}
    out = []
    for part in asked(decision):
        extra = current.get(tuple(part.get("path") or []))
        out.append({**part, "choices": [*(part.get("choices") or []), *extra]} if extra else part)
    return out


def part_digest(part: dict[str, Any]) -> str:
    """A part asked again is that field holding that value: a click after either changed is refused."""
    return digest([field_digest(part), part.get("value")])


def _leaves(order: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found: list[tuple[tuple[str, ...], Any]] = []
    for key, value in order.items():
        if key in ORDER_META_KEYS and not prefix:
            continue
        if isinstance(value, dict) and value:
            found += _leaves(value, (*prefix, str(key)))
        else:
            found.append(((*prefix, str(key)), value))
    return found


def _without(order: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """``order`` without the value at ``path`` (dicts left empty go too)."""
    out: dict[str, Any] = {}
    for key, value in order.items():
        if key != path[0]:
            out[key] = value
        elif len(path) > 1 and isinstance(value, dict):
            rest = _without(value, path[1:])
            if rest:
                out[key] = rest
    return out


def back(decision: dict[str, Any] | None, order: dict[str, Any] | None) -> dict[str, Any]:
    """The order one part back: the last element of a list the rules built (when the order ends with one),
    else the value of the part asked last."""
    order = dict(order or {})
    leaves = _leaves(order)
    paths = {tuple(f.get("path") or []) for f in asked(decision)}
    if leaves:
        path, value = leaves[-1]
        if path not in paths and isinstance(value, list):
            return set_path(order, list(path), value[:-1]) if len(value) > 1 else _without(order, path)
    parts = asked(decision)
    if parts:
        return _without(order, tuple(parts[-1].get("path") or []))
    return _without(order, leaves[-1][0]) if leaves else {}


def with_part(order: dict[str, Any] | None, path: list[str], value: Any) -> dict[str, Any]:
    """``order`` with one part changed in place (the later parts kept, for the rules to check)."""
    return set_path(dict(order or {}), path, value)


def up_to(decision: dict[str, Any] | None, index: int, value: Any) -> dict[str, Any]:
    """The parts asked before part ``index``, then that part with ``value``: the order to ask the rest
    again from, when a changed part no longer fits the parts after it."""
    parts = asked(decision)
    order: dict[str, Any] = {}
    for part in parts[:index]:
        order = set_path(order, list(part.get("path") or []), part.get("value"))
    return set_path(order, list(parts[index].get("path") or []), value)

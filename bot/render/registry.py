"""The renderers by ruleset id: the one place the pictures dispatch on the rule system (like
``engine/registry.py`` for the rules). Each module exposes its instance as ``RENDERER``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from bot.render.base import SystemRenderer
from engine.registry import RULESET_IDS, UnknownRuleset

RENDERER_MODULES: dict[str, str] = {rid: f"bot.render.{rid}" for rid in RULESET_IDS}
_cache: dict[str, SystemRenderer] = {}


def renderer(ruleset_id: str) -> SystemRenderer:
    """The renderer of ``ruleset_id`` (imported on first use)."""
    if ruleset_id not in RENDERER_MODULES:
        raise UnknownRuleset(ruleset_id)
    if ruleset_id not in _cache:
        _cache[ruleset_id] = importlib.import_module(RENDERER_MODULES[ruleset_id]).RENDERER
    return _cache[ruleset_id]


def rider_names(
    ruleset_id: str, view: Mapping[str, Any] | None, names: Mapping[str, str], locale: str, short: bool = False
) -> dict[str, str]:
    """Every name players read for the race's entrants and riders: ``names`` (entrant id -> name) and each
    rider id of the public ``view`` by its player and kind ("Anna's Rouleur"; ``short``, inside its
    entrant's own line of the standings: "Rouleur"), so no text says ``red-r``."""
    found = dict(names)
    if view:
        found.update(renderer(ruleset_id).riders(view, names, locale, short))
    return found


def identity(view: Mapping[str, Any] | None, entrant: str, locale: str) -> str | None:
    """Who ``entrant`` is on the race's picture (colour, tokens), from a view that names its rule system."""
    ruleset_id = (view or {}).get("ruleset")
    if not isinstance(ruleset_id, str) or ruleset_id not in RENDERER_MODULES:
        return None
    return renderer(ruleset_id).identity(view or {}, entrant, locale)


def accent(view: Mapping[str, Any] | None, entrant: str) -> tuple[int, int, int] | None:
    """The entrant's colour on the race's picture (None: none of their own), from a view that names its system."""
    ruleset_id = (view or {}).get("ruleset")
    if not isinstance(ruleset_id, str) or ruleset_id not in RENDERER_MODULES:
        return None
    return renderer(ruleset_id).accent(view or {}, entrant)

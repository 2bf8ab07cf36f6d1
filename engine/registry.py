"""The ruleset registry: every rule system by id, imported only when first asked for.

The four ids are fixed here so that the record format, the CLI and the bot can list them without
importing four rule systems at start-up.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.ruleset import Ruleset

RULESET_IDS: tuple[str, ...] = ("flamme_rouge", "tabella", "wyscig", "mind_cycling")
"""Every rule system, in the order menus show them."""

_MODULES = {rid: f"engine.{rid}" for rid in RULESET_IDS}
_cache: dict[str, Ruleset[Any]] = {}


class UnknownRuleset(KeyError):
    """A ruleset id that is not one of :data:`RULESET_IDS`."""

    def __str__(self) -> str:
        return f"unknown rule system {self.args[0]!r}; choose one of: {', '.join(RULESET_IDS)}"


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The rule system ``ruleset_id`` (each package exposes its instance as ``RULESET``)."""
    if ruleset_id not in _MODULES:
        raise UnknownRuleset(ruleset_id)
    got = _cache.get(ruleset_id)
    if got is None:
        # An import error or a package without RULESET is a bug to see, not an unknown rule system.
        module = importlib.import_module(_MODULES[ruleset_id])
        got = _cache[ruleset_id] = module.RULESET
    return got


def available_rulesets() -> list[Ruleset[Any]]:
    """Every rule system, in menu order. A rule system that fails to import raises: it is never silently
    left out of the menus."""
    return [get_ruleset(rid) for rid in RULESET_IDS]

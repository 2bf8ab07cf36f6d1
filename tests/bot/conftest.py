"""Fixtures for the bot's tests (the fake Discord's fixtures come from tests/fakediscord/plugin.py).

Until a real rule system is merged, a small sample one (tests/bot/sample_ruleset) is registered so
the commands have something to show; as soon as ``available_rulesets()`` finds a real one, only the
real ones are used.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ruleset import Ruleset

SAMPLE_ID = "sample"


def _register_sample_if_no_real_ruleset() -> None:
    if registry.available_rulesets():
        return
    registry.RULESET_IDS = (*registry.RULESET_IDS, SAMPLE_ID)
    registry._MODULES[SAMPLE_ID] = "tests.bot.sample_ruleset"


_register_sample_if_no_real_ruleset()


@pytest.fixture
def rulesets() -> list[Ruleset[Any]]:
    """Every rule system the bot offers (at least one)."""
    found = registry.available_rulesets()
    assert found, "no rule system is installed"
    return found


@pytest.fixture
def ruleset(rulesets: list[Ruleset[Any]]) -> Ruleset[Any]:
    """A rule system with a guide and presets (the first such, in menu order)."""
    from bot import catalogue

    for candidate in rulesets:
        if catalogue.guide(candidate) is not None and candidate.presets():
            return candidate
    raise AssertionError(f"no rule system has both a guide and presets: {[r.id for r in rulesets]}")

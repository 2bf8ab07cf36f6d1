"""Fixtures for the bot's tests (the fake Discord's fixtures come from tests/fakediscord/plugin.py).

The commands are tested against the real rule systems the engine registry finds.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ruleset import Ruleset


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


from tests.bot.databases import check_postgres_ran, count_collected, database_url  # noqa: E402, F401


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    count_collected(items)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for problem in check_postgres_ran(session):
        session.config.get_terminal_writer().line(f"ERROR: {problem}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

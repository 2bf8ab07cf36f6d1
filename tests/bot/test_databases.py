"""The CI guard: database tests must have run on PostgreSQL when CI provides it, and CI must provide it."""

from __future__ import annotations

import pytest

from tests.bot import databases


def _problems(monkeypatch: pytest.MonkeyPatch, url: str, ci: str | None, collected: int, ran: int) -> list[str]:
    monkeypatch.setattr(databases, "PG_URL", url)
    monkeypatch.setitem(databases.ran, "collected", collected)
    monkeypatch.setitem(databases.ran, "postgresql", ran)
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    return list(databases.check_postgres_ran(None))  # type: ignore[arg-type]


def test_ci_without_a_postgresql_url_fails_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """On CI, database tests collected but no GREGARIO_TEST_DATABASE_URL: the session fails, saying why."""
    (problem,) = _problems(monkeypatch, "", "true", collected=10, ran=0)
    assert "GREGARIO_TEST_DATABASE_URL is not" in problem


def test_a_postgresql_url_with_no_postgresql_run_fails_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """The URL is set but every PostgreSQL test was skipped or deselected: the session fails."""
    (problem,) = _problems(monkeypatch, "postgresql+asyncpg://x@127.0.0.1/x", None, collected=10, ran=0)
    assert "no database test ran on PostgreSQL" in problem


def test_runs_on_postgresql_or_no_database_tests_pass_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL runs happened, or no database test was selected, or a developer's plain run: no complaint."""
    assert _problems(monkeypatch, "postgresql+asyncpg://x@127.0.0.1/x", "true", collected=10, ran=4) == []
    assert _problems(monkeypatch, "", "true", collected=0, ran=0) == []
    assert _problems(monkeypatch, "", None, collected=10, ran=0) == []

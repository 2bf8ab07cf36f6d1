"""Test databases: a SQLite file always, and a fresh PostgreSQL database per test when
``GREGARIO_TEST_DATABASE_URL`` names a server (CI starts one with ``.ci/postgres.sh``).

Every database test takes the ``database_url`` fixture, parametrised ``sqlite`` / ``postgresql``.
When the variable is set, the session fails if no PostgreSQL test ran; when ``CI`` is set, it
fails if the variable is missing, so CI cannot quietly test SQLite alone.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("GREGARIO_TEST_DATABASE_URL", "").strip()
BACKENDS = ["sqlite", "postgresql"]
ran = {"postgresql": 0, "collected": 0}


async def _admin(sql: str) -> None:
    import asyncpg

    url = make_url(PG_URL)
    conn = await asyncpg.connect(
        host=url.host, port=url.port, user=url.username, password=url.password, database=url.database
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database: a SQLite file, or a new PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'gregario.sqlite3'}"
        return
    if not PG_URL:
        pytest.skip("GREGARIO_TEST_DATABASE_URL is not set (CI sets it; see .ci/postgres.sh)")
    name = f"gregario_{uuid.uuid4().hex[:12]}"
    await _admin(f'CREATE DATABASE "{name}"')
    ran["postgresql"] += 1
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def count_collected(items: list[pytest.Item]) -> None:
    ran["collected"] = sum(1 for item in items if "[postgresql" in item.nodeid)


def check_postgres_ran(session: pytest.Session) -> Iterator[str]:
    """Why the session must fail, if it must."""
    if not ran["collected"]:
        return
    if not PG_URL and os.environ.get("CI"):
        yield "CI is set but GREGARIO_TEST_DATABASE_URL is not: the database tests ran on SQLite only"
    elif PG_URL and ran["postgresql"] == 0:
        yield "GREGARIO_TEST_DATABASE_URL is set but no database test ran on PostgreSQL"

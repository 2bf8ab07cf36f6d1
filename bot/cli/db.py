"""``gregario db upgrade`` and ``gregario db check``: the database's tables, for operators.

``upgrade`` applies the migrations the database lacks (exit 0). ``check`` prints where the database
stands and exits 0 when it is current, 1 when it needs ``gregario db upgrade``. Either exits 2 with one
line when the database cannot be reached or its URL is wrong.
"""

from __future__ import annotations

import asyncio
import sys

from bot.settings import Settings


def db_command(action: str, url: str | None = None) -> int:
    url = url or Settings().database_url
    try:
        return asyncio.run(_run(action, url))
    except Exception as exc:  # any failure to reach or read the database: one line, no traceback
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"gregario db {action}: cannot use the database at {_safe(url)}: {reason}", file=sys.stderr)
        return 2


async def _run(action: str, url: str) -> int:
    from bot.store import migrate
    from bot.store.database import connect

    db = connect(url)
    try:
        if action == "upgrade":
            before = await migrate.status(db)
            after = await migrate.upgrade(db)
            if before.current == after.current:
                print(f"The database is already current (revision {after.current}).")
            else:
                print(f"The database was upgraded from {before.current or 'empty'} to revision {after.current}.")
            return 0
        status = await migrate.status(db)
        if status.up_to_date:
            print(f"The database is current (revision {status.current}).")
            return 0
        print(
            f"The database is at revision {status.current or 'none (empty)'}, this version needs {status.head}: "
            "run `gregario db upgrade`."
        )
        return 1
    finally:
        await db.close()


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the configured URL"

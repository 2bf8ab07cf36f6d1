"""Start-up checks of ``gregario run``, in the order an operator fixes them: the settings (read and
validated by :class:`bot.settings.Settings`), then the database (reachable, current, writable, not used
by another process), and only then Discord.

Each failure is one or two lines naming the setting or the database and the fix, never a traceback:
a bot that logs in to Discord and then blames Discord for a database that is down sends its operator
the wrong way.
"""

from __future__ import annotations

from pathlib import Path

from bot.services.lease import Lease, LeaseHeld
from bot.services.supervision import reason
from bot.settings import Settings
from bot.store import migrate
from bot.store.database import connect, normalise_url, safe_url, sqlite_path, unreachable

SQLITE_HEADER = b"SQLite format 3\x00"


class StartupError(Exception):
    """Why the bot cannot start, in at most two lines for the operator."""


def check_sqlite_file(path: Path) -> None:
    """A SQLite database file can be made or opened at ``path``: its folder exists, and a file there is
    a SQLite database (or empty)."""
    variable = "GREGARIO_DATABASE_URL"
    if not path.parent.is_dir():
        raise StartupError(
            f"{variable}: the folder {path.parent} does not exist. Create it, or point {variable} at a file "
            "in a folder that exists."
        )
    if path.is_dir():
        raise StartupError(f"{variable}: {path} is a folder; give a file name, e.g. {path / 'gregario.sqlite3'}.")
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
        if header != SQLITE_HEADER:
            raise StartupError(
                f"{variable}: {path} is not a SQLite database. Point {variable} at the bot's database, "
                "or at a new file name to start an empty one."
            )


async def database(settings: Settings) -> Lease:
    """Open the database, bring its tables up to date and take its lease (the first write: the check
    that it is writable). Returns the lease, holding its own connection; raises :class:`StartupError`."""
    url = normalise_url(settings.database_url)
    path = sqlite_path(url)
    if path is not None:
        check_sqlite_file(path)
    db = connect(url, pool_size=1)
    try:
        await migrate.upgrade(db)
        lease = Lease(db, settings.owner())
        await lease.acquire()
    except LeaseHeld as held:
        await db.close()
        raise StartupError(
            f"Another gregario run uses this database for {settings.owner()}: {held.holder}. Stop it first, or give "
            "this one other shards (GREGARIO_SHARDS, docs/scaling.md)."
        ) from None
    except Exception as error:
        await db.close()
        raise StartupError(describe_database_error(error, url)) from None
    return lease


def describe_database_error(error: BaseException, url: str) -> str:
    """One or two lines for an operator: what is wrong with the database at ``url`` and what to do."""
    shown = safe_url(url)
    why = reason(error)
    text = str(getattr(error, "orig", None) or error)
    path = sqlite_path(url)
    if path is not None:
        if "not a database" in text:
            return f"GREGARIO_DATABASE_URL: {path} is not a SQLite database (or it is damaged): {why}."
        if "readonly" in text or "read-only" in text:
            return f"The database {path} is read-only: let the bot's user write to it and to its folder."
        if "unable to open" in text:
            return f"Cannot open the database {path}: check that the bot's user may read and write its folder."
    names = {type(e).__name__ for e in _chain(error)}
    if names & {"InvalidPasswordError", "InvalidAuthorizationSpecificationError"}:
        return (
            f"The database at {shown} refused the login ({why}): check the user and password in GREGARIO_DATABASE_URL."
        )
    if "InvalidCatalogNameError" in names:
        return f"The database at {shown} does not exist ({why}): create it (createdb), or fix GREGARIO_DATABASE_URL."
    if unreachable(error):
        return (
            f"Cannot reach the database at {shown} ({why}): is the database server running there? "
            "Check GREGARIO_DATABASE_URL."
        )
    return f"Cannot use the database at {shown}: {why}."


def _chain(error: BaseException) -> list[BaseException]:
    found: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in found:
        found.append(current)
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else (current.__cause__ or current.__context__)
    return found

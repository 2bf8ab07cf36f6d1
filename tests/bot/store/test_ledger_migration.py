"""Migration 0006 types the post ledger: the old string kinds ("p<user>", "nodm<user>", "lap:<key>",
"lapx:<key>") become a kind, a member and a lap key, and nothing else about the rows changes."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text

from bot.store import ledger, migrate, outbox
from bot.store.database import connect
from bot.store.ledger import Post, PostKind
from bot.store.outbox import OwedKind

OLD_ROWS = [
    (0, "lobby", 2000, 11),
    (0, "step", 2000, 12),
    (0, "lapx:1:1", 0, 12),
    (1, "p1577516461834895380", 3000, 13),
    (1, "lap:1:1", 2000, 14),
    (1, "step", 2000, 14),
    (2, "step", 2000, 14),
    (2, "lapx:1:2", 0, 14),
    (0, "nodm42", 0, 0),
    (9, "final", 2000, 15),
    (9, "news", 2000, 16),
]


async def test_old_ledger_rows_are_carried_over_typed(database_url: str) -> None:
    """A database at 0005 holding old-style posts reads, after the upgrade, as the same posts typed."""
    db = connect(database_url)
    try:
        await migrate.upgrade(db, "0005")
        now = datetime(2026, 5, 1, tzinfo=UTC)
        async with db.engine.begin() as conn:
            await conn.execute(text("INSERT INTO servers (id, created_at) VALUES (1000, :now)"), {"now": now})
            await conn.execute(
                text(
                    "INSERT INTO races (id, server_id, channel_id, opener_id, owner, ruleset, options, status, pace,"
                    " pace_seconds, step, orders_rev, created_at) VALUES (1, 1000, 2000, 1, 'main', 'wyscig', '{}',"
                    " 'running', 'fast', 60, 3, 0, :now)"
                ),
                {"now": now},
            )
            for step, kind, channel, message in OLD_ROWS:
                await conn.execute(
                    text(
                        "INSERT INTO posted_messages (race_id, step, kind, channel_id, message_id, posted_at)"
                        " VALUES (1, :step, :kind, :channel, :message, :now)"
                    ),
                    {"step": step, "kind": kind, "channel": channel, "message": message, "now": now},
                )
        status = await migrate.upgrade(db)
        assert status.up_to_date
        async with db.sessions() as session:
            posts = await ledger.posts_of(session, 1)
            closed = await ledger.closed_dms(session, 1)
            told = await ledger.told(session, 1)
        assert posts == [
            Post(1, 0, PostKind.LOBBY, None, None, 2000, 11),
            Post(1, 0, PostKind.STEP, None, None, 2000, 12),
            Post(1, 0, PostKind.LAP_DONE, None, "1:1", 0, 12),
            Post(1, 1, PostKind.PANEL, 1577516461834895380, None, 3000, 13),
            Post(1, 1, PostKind.LAP, None, "1:1", 2000, 14),
            Post(1, 1, PostKind.STEP, None, None, 2000, 14),
            Post(1, 2, PostKind.STEP, None, None, 2000, 14),
            Post(1, 2, PostKind.LAP_DONE, None, "1:2", 0, 14),
            Post(1, 0, PostKind.DMS_CLOSED, 42, None, 0, 0),
            Post(1, 9, PostKind.FINAL, None, None, 2000, 15),
            Post(1, 9, PostKind.NEWS, None, None, 2000, 16),
        ]
        assert closed == {42} and told == {0, 1, 2}
    finally:
        await db.close()


async def test_what_an_older_version_still_owed_becomes_outbox_rows(database_url: str) -> None:
    """A finished race whose last step and final post were never posted (the old version kept them in
    memory and stopped) owes them after the upgrade; a race fully told owes nothing."""
    db = connect(database_url)
    try:
        await migrate.upgrade(db, "0005")
        now = datetime(2026, 5, 1, tzinfo=UTC)
        async with db.engine.begin() as conn:
            await conn.execute(text("INSERT INTO servers (id, created_at) VALUES (1000, :now)"), {"now": now})
            for race_id in (1, 2):
                await conn.execute(
                    text(
                        "INSERT INTO races (id, server_id, channel_id, opener_id, owner, ruleset, options, status,"
                        " pace, pace_seconds, step, orders_rev, created_at) VALUES (:race, 1000, 2000, 1, 'main',"
                        " 'tabella', '{}', 'finished', 'fast', 60, 3, 0, :now)"
                    ),
                    {"race": race_id, "now": now},
                )
                for step in (0, 1, 2):
                    await conn.execute(
                        text(
                            "INSERT INTO step_events (race_id, step, events, resolved_at) VALUES (:r, :s, '[]', :now)"
                        ),
                        {"r": race_id, "s": step, "now": now},
                    )
            told = [(1, 0, "step"), (1, 1, "step"), (2, 0, "step"), (2, 1, "step"), (2, 2, "step"), (2, 0, "final")]
            for race_id, step, kind in told:
                await conn.execute(
                    text(
                        "INSERT INTO posted_messages (race_id, step, kind, channel_id, message_id, posted_at)"
                        " VALUES (:r, :s, :k, 2000, 1, :now)"
                    ),
                    {"r": race_id, "s": step, "k": kind, "now": now},
                )
        await migrate.upgrade(db)
        async with db.sessions() as session:
            owed = await outbox.rows_of(session, pending=True)
        assert [(r.owed.race_id, r.owed.kind, r.owed.step) for r in owed] == [
            (1, OwedKind.STEP_POST, 2),
            (1, OwedKind.FINAL_POST, 0),
            (1, OwedKind.LOBBY_EDIT, 0),
        ]
        assert owed[0].owed.nonce == "g1-step-2", "the nonce the older version posted it with"
    finally:
        await db.close()


def test_the_old_kinds_parse_and_unparse() -> None:
    """Each old kind maps to its typed form and back (the downgrade writes the old strings again)."""
    import importlib

    m = importlib.import_module("bot.store.migrations.versions.0006_outbox")
    for _step, kind, _channel, _message in OLD_ROWS:
        assert m.untyped(*m.typed(kind)) == kind
    assert m.typed("p12") == ("panel", 12, None) and m.typed("lapx:3:1") == ("lap_done", None, "3:1")

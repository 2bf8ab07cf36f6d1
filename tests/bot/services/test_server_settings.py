"""Server settings: declared once with defaults, stored per server, read by the next race."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.services import lobby, permissions, resolution, server_settings
from bot.services.outcomes import RaceFinished, Refusal
from bot.services.queries import utc
from bot.store.tables import Job
from tests.bot.services.conftest import CHANNEL, SERVER, Harness, member


async def test_a_server_that_never_changed_anything_has_the_defaults(harness: Harness) -> None:
    """Every setting reads as its declared default until an admin changes it."""
    assert harness.ctx is not None
    found = await server_settings.get_settings(harness.ctx, SERVER)
    assert found == server_settings.ServerSettings()
    assert found.timezone == "UTC" and found.race_channels == () and found.manager_role is None


async def test_each_setting_is_changed_from_an_admins_text_and_reset_by_an_empty_value(harness: Harness) -> None:
    """Pace, reminder, choices, channels, role, language and time zone each read an admin's words."""
    ctx = harness.ctx
    assert ctx is not None
    for name, text, expected in [
        ("default_pace", "DAILY", "daily"),
        ("default_pace", "90m", "90m"),
        ("reminder", "50%", 50),
        ("reminder", "off", 0),
        ("auto_moves", "Bot", "bot"),
        ("race_openers", "managers", "managers"),
        ("race_channels", "<#123456789012345678> <#223456789012345678>", (123456789012345678, 223456789012345678)),
        ("manager_role", "<@&323456789012345678>", 323456789012345678),
        ("language", "pl", "pl"),
        ("timezone", "europe/warsaw", "Europe/Warsaw"),
    ]:
        changed = await server_settings.change(ctx, SERVER, name, text)
        assert getattr(changed, name) == expected, name
        assert getattr(await server_settings.get_settings(ctx, SERVER), name) == expected, name
    back = await server_settings.change(ctx, SERVER, "timezone", "")
    assert back.timezone == "UTC"
    assert (await server_settings.get_settings(ctx, SERVER)).language == "pl"


@pytest.mark.parametrize(
    ("name", "text", "key"),
    [
        ("default_pace", "slowly", "settings.bad_pace"),
        ("default_pace", "10s", "settings.bad_pace"),
        ("reminder", "120", "settings.bad_reminder"),
        ("auto_moves", "skip", "settings.bad_choice"),
        ("race_channels", "#races", "settings.bad_channels"),
        ("manager_role", "<@&123456789012345678> <@&223456789012345678>", "settings.bad_role"),
        ("language", "klingon", "settings.bad_choice"),
        ("timezone", "Mars/Olympus", "settings.bad_timezone"),
        ("colour", "red", "settings.unknown"),
    ],
)
async def test_a_refused_value_says_why_and_changes_nothing(harness: Harness, name: str, text: str, key: str) -> None:
    """A value the setting does not accept is refused with its key, and the stored settings stay as they were."""
    ctx = harness.ctx
    assert ctx is not None
    before = await server_settings.change(ctx, SERVER, "language", "de")
    with pytest.raises(Refusal) as refused:
        await server_settings.change(ctx, SERVER, name, text)
    assert refused.value.key == key
    assert (text if name != "colour" else name) in refused.value.message.text
    assert await server_settings.get_settings(ctx, SERVER) == before


async def test_servers_keep_their_own_settings(harness: Harness) -> None:
    """One server's time zone is not another's."""
    ctx = harness.ctx
    assert ctx is not None
    await server_settings.change(ctx, SERVER, "timezone", "Asia/Tokyo")
    assert (await server_settings.get_settings(ctx, SERVER + 1)).timezone == "UTC"


@pytest.mark.rules("R-ADM-3")
async def test_the_next_race_takes_the_servers_default_pace(harness: Harness) -> None:
    """A lobby opened without a pace gets the bot's default, then the server's once an admin sets one."""
    ctx = harness.ctx
    assert ctx is not None
    first = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig")
    assert first.pace == "fast"
    await server_settings.change(ctx, SERVER, "default_pace", "daily")
    second = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig")
    assert second.pace == "daily"
    assert (await harness.race(second.race_id)).pace_seconds == 24 * 3600
    assert (await harness.race(first.race_id)).pace_seconds == 15 * 60


async def test_managers_are_the_opener_manage_server_or_the_named_role(harness: Harness) -> None:
    """The permission check: the race's opener, Manage Server, or the role named in the settings; no one else."""
    ctx = harness.ctx
    assert ctx is not None
    role = 323456789012345678

    async def may(user: int, roles: list[int], manage: bool, opener: int | None = None) -> bool:
        return await permissions.may_manage(
            ctx, server_id=SERVER, user_id=user, role_ids=roles, manage_guild=manage, opener_id=opener
        )

    assert await may(5, [], True)
    assert not await may(5, [role], False)
    assert await may(5, [], False, opener=5)
    assert not await may(5, [], False, opener=6)
    await server_settings.change(ctx, SERVER, "manager_role", str(role))
    assert await may(5, [111, role], False)
    assert not await may(5, [111], False)
    assert not await permissions.may_manage(
        ctx, server_id=SERVER + 1, user_id=5, role_ids=[role], manage_guild=False
    ), "the role is named on one server only"


async def test_who_may_open_races_and_where_follows_the_settings(harness: Harness) -> None:
    """Race channels and race openers, read at each opening: a change applies to the next race."""
    ctx = harness.ctx
    assert ctx is not None

    async def attempt(channel: int, manage: bool) -> str:
        try:
            await permissions.check_may_open(
                ctx, server_id=SERVER, channel_id=channel, user_id=5, role_ids=[], manage_guild=manage
            )
        except Refusal as refusal:
            return refusal.key
        return "ok"

    assert await attempt(CHANNEL, False) == "ok"
    await server_settings.change(ctx, SERVER, "race_channels", "<#123456789012345678>")
    assert await attempt(CHANNEL, True) == "settings.wrong_channel"
    assert await attempt(123456789012345678, False) == "ok"
    await server_settings.change(ctx, SERVER, "race_openers", "managers")
    assert await attempt(123456789012345678, False) == "settings.managers_open"
    assert await attempt(123456789012345678, True) == "ok"


@pytest.mark.rules("R-SVC-1")
def test_the_next_morning_is_counted_in_the_servers_time_zone() -> None:
    """Finished 23:30 UTC on 1 May = 01:30 on 2 May in Warsaw (UTC+2): due 3 May 09:00 there, 07:00 UTC."""
    finished = datetime(2026, 5, 1, 23, 30, tzinfo=UTC)
    assert resolution.announcement_due("next_morning", 9, finished, "Europe/Warsaw") == datetime(
        2026, 5, 3, 7, 0, tzinfo=UTC
    )
    assert resolution.announcement_due("next_morning", 9, finished) == datetime(2026, 5, 2, 9, 0, tzinfo=UTC)


async def test_a_servers_time_zone_sets_its_gazzettas_morning(harness: Harness) -> None:
    """A Tabella race on a New York server (UTC-4 in May) ending on 1 May: its Gazzetta at 09:00 New York time."""
    assert harness.ctx is not None
    await server_settings.change(harness.ctx, SERVER, "timezone", "America/New_York")
    race_id, _ = await harness.open_and_start("tabella", humans=3, options={"gazzetta_probability": 1.0})
    await harness.order_all(race_id)
    (finished,) = [h for h in harness.posted if isinstance(h, RaceFinished)]
    assert harness.clock.now().date() == datetime(2026, 5, 1).date()
    assert finished.announcement_due == datetime(2026, 5, 2, 13, 0, tzinfo=UTC)


async def _reminders(harness: Harness, race_id: int) -> list[datetime]:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        rows = await session.execute(
            select(Job).where(col(Job.race_id) == race_id, col(Job.kind) == resolution.REMINDER)
        )
        return [utc(job.due_at) for job in rows.scalars()]


async def test_the_reminder_goes_out_when_the_server_says_or_not_at_all(harness: Harness) -> None:
    """Three quarters of the deadline by default; half of it at 50 %; no reminder when it is off."""
    assert harness.ctx is not None
    start = harness.clock.now()
    fast = 15 * 60
    first, _ = await harness.open_and_start("wyscig", humans=2)
    assert await _reminders(harness, first) == [start + timedelta(seconds=fast * 0.75)]
    await server_settings.change(harness.ctx, SERVER, "reminder", "50")
    second, _ = await harness.open_and_start("wyscig", humans=2)
    assert await _reminders(harness, second) == [start + timedelta(seconds=fast * 0.5)]
    await server_settings.change(harness.ctx, SERVER, "reminder", "off")
    third, _ = await harness.open_and_start("wyscig", humans=2)
    assert await _reminders(harness, third) == []

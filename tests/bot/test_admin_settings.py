"""/settings end to end: every setting with its value and default, a change that the next race takes, refusals."""

from __future__ import annotations

from typing import Any

from bot.exts import _admin
from bot.services import lobby, server_settings
from bot.services.outcomes import MemberRef
from tests.fakediscord import DiscordUser, Guild
from tests.fakediscord.world import MEMBER_PERMISSIONS


async def test_settings_show_every_value_with_its_default(gregario: Any, alice: DiscordUser) -> None:
    """One embed, one field per declared setting, each saying its value and its default."""
    reply = await (await alice.slash("settings")).reply()
    fields = reply.embeds[0]["fields"]
    assert len(fields) == len(server_settings.SETTINGS)
    assert [f["name"] for f in fields][:2] == ["Default pace", "Reminder"]
    assert all("(default: " in f["value"] for f in fields)
    assert {"name": "Time zone", "value": "UTC (default: UTC)", "inline": False} in fields
    assert reply.ephemeral


async def test_a_settings_change_takes_effect_in_the_next_race(
    gregario: Any, guild: Guild, alice: DiscordUser, races: Any
) -> None:
    """A race opened before the change keeps its pace; the next one takes the server's new default."""
    ctx = await _admin.context(gregario)
    opener = MemberRef(guild.id, alice.id, "Alice")
    before = await lobby.open_lobby(ctx, opener, races.id, "wyscig")
    changed = await (await alice.slash("settings", setting="default_pace", value="daily")).reply()
    assert "applies from the next race" in changed.content
    pace_field = next(f for f in changed.embeds[0]["fields"] if f["name"].startswith("Default pace"))
    assert pace_field["value"] == "daily (default: the bot's default)"
    after = await lobby.open_lobby(ctx, opener, races.id, "wyscig")
    assert (before.pace, after.pace) == ("fast", "daily")
    await (await alice.slash("settings", setting="default_pace")).reply()
    assert (await lobby.open_lobby(ctx, opener, races.id, "wyscig")).pace == "fast"


async def test_a_wrong_value_is_refused_with_what_is_accepted(gregario: Any, guild: Guild, alice: DiscordUser) -> None:
    """An unknown time zone is refused with examples, and the setting keeps its value."""
    await (await alice.slash("settings", setting="timezone", value="Europe/Rome")).reply()
    refused = await (await alice.slash("settings", setting="timezone", value="Europe/Atlantis")).reply()
    assert "Europe/Atlantis is not a time zone" in refused.content and refused.ephemeral
    ctx = await _admin.context(gregario)
    assert (await server_settings.get_settings(ctx, guild.id)).timezone == "Europe/Rome"


async def test_a_member_without_permission_cannot_see_or_change_settings(
    gregario: Any, guild: Guild, alice: DiscordUser, bob: DiscordUser
) -> None:
    """Bob, without Manage Server, is refused by the bot itself, and nothing changes."""
    guild.members[bob.id].permissions = MEMBER_PERMISSIONS
    refused = await (await bob.slash("settings", setting="race_openers", value="managers")).reply()
    assert "Manage Server" in refused.content
    ctx = await _admin.context(gregario)
    assert (await server_settings.get_settings(ctx, guild.id)).race_openers == "everyone"


async def test_admin_commands_are_hidden_from_members_by_default(gregario: Any, fake_discord: Any) -> None:
    """Discord shows /stage and /settings only to members with Manage Server, unless an owner changes that."""
    registered = {c.name: c.data for c in fake_discord.commands}
    manage_guild = 1 << 5
    assert int(registered["settings"]["default_member_permissions"]) == manage_guild
    assert int(registered["stage"]["default_member_permissions"]) == manage_guild


async def test_an_admin_changes_a_setting_from_the_menu(gregario: Any, guild: Guild, alice: DiscordUser) -> None:
    """Pick "Time zone" in the menu: a form prefilled with its value opens; the new value is saved and shown."""
    shown = await (await alice.slash("settings")).reply()
    modal = await (await alice.choose(shown, "Time zone")).modal()
    assert _prefilled(modal) == "UTC"
    saved = await (await alice.submit(modal, {"New value": "Asia/Tokyo"})).reply()
    assert "Saved: Time zone" in saved.content
    assert {"name": "Time zone ✎", "value": "Asia/Tokyo (default: UTC)", "inline": False} in saved.embeds[0]["fields"]
    ctx = await _admin.context(gregario)
    assert (await server_settings.get_settings(ctx, guild.id)).timezone == "Asia/Tokyo"
    refused = await (
        await alice.submit(await (await alice.choose(saved, "Reminder")).modal(), {"New value": "99"})
    ).reply()
    assert "99 is not a reminder time" in refused.content
    assert (await server_settings.get_settings(ctx, guild.id)).reminder == 75


async def test_a_member_without_permission_cannot_use_the_menu(
    gregario: Any, guild: Guild, alice: DiscordUser, bob: DiscordUser
) -> None:
    """Even holding the admin's menu, Bob is refused when he picks a setting."""
    shown = await (await alice.slash("settings")).reply()
    shown.ephemeral_for = None  # as if Bob could see it (an owner showed him the command, say)
    guild.members[bob.id].permissions = MEMBER_PERMISSIONS
    refused = await (await bob.choose(shown, "Language")).reply()
    assert "Manage Server" in refused.content


def _prefilled(modal: dict[str, Any]) -> str:
    for row in modal["components"]:
        for item in row.get("components") or [row.get("component") or {}]:
            return str(item.get("value") or "")
    return ""

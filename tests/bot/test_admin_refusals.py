"""Admins' mistakes are refused privately and change nothing: stage files too big or nested too deep, stage
forms and settings with a bad value, each in a line that names it, with nothing logged above INFO."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from bot.exts import _admin
from bot.services import server_settings, stages
from tests.fakediscord import DiscordUser, FakeDiscord, Guild

pytestmark = pytest.mark.rules("R-DC-8")


def _loud(records: list[logging.LogRecord]) -> list[str]:
    return [
        f"{r.name} {r.levelname}: {r.getMessage()}"
        for r in records
        if r.levelno > logging.INFO and r.name.split(".")[0] in ("bot", "discord")
    ]


def _one_private_line(reply: Any, user: DiscordUser) -> str:
    assert reply.ephemeral_for == user.id, f"a refusal is private: {reply.text!r}"
    assert "\n" not in reply.text.strip(), f"one line: {reply.text!r}"
    assert "Something went wrong" not in reply.text
    return str(reply.text)


def _stage_file(stage: Any) -> bytes:
    body = json.loads(stages.export(stages.StageInfo("Deep", "wyscig", {"deck": "classic_96"}, 1)))
    return json.dumps({**body, "stage": stage}).encode()


async def test_a_stage_file_nested_too_deep_is_refused_in_one_private_line(
    gregario: Any, fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """A file whose stage holds 5,000 brackets inside each other: refused by its depth before it is parsed
    (no RecursionError, no apology), and nothing is saved or posted."""
    caplog.set_level(logging.INFO)
    public = len([m for m in alice.read() if m.ephemeral_for is None])
    content = _stage_file({"deck": "classic_96"}).replace(
        b'"classic_96"}', b'"classic_96", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}", 1
    )
    reply = await (await alice.slash("stage import", file=("deep.json", content))).reply()
    text = _one_private_line(reply, alice)
    assert "nested more than 16 levels" in text
    assert await stages.listed(await _admin.context(gregario), guild.id) == []
    assert len([m for m in alice.read() if m.ephemeral_for is None]) == public, "nothing is posted"
    assert _loud(caplog.records) == []


async def test_a_stage_file_too_big_is_refused_before_it_is_downloaded(
    gregario: Any, fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """A 100 KB file: Discord gives its size, so it is refused without fetching it, privately, in one line."""
    caplog.set_level(logging.INFO)
    content = _stage_file({"deck": "classic_96"}) + b" " * 100_000
    reply = await (await alice.slash("stage import", file=("big.json", content))).reply()
    text = _one_private_line(reply, alice)
    assert "too big" in text and "64 KB" in text
    assert not [r for r in fake_discord.requests if r.route.startswith("/attachments/")], "the file was not fetched"
    assert await stages.listed(await _admin.context(gregario), guild.id) == []
    assert _loud(caplog.records) == []


async def test_a_stage_file_with_a_wrong_field_is_refused_privately(
    gregario: Any, guild: Guild, alice: DiscordUser
) -> None:
    """A stage of 40 stages is refused with its field; only the admin reads it."""
    reply = await (await alice.slash("stage import", file=("bad.json", _stage_file({"stages": 40})))).reply()
    assert reply.ephemeral_for == alice.id and "stages" in reply.text and "Nothing was saved" in reply.text
    assert await stages.listed(await _admin.context(gregario), guild.id) == []


async def test_a_stage_form_field_nested_too_deep_is_refused_in_one_line(
    gregario: Any, guild: Guild, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """Mind Cycling's rocks typed as 1,500 brackets inside each other (the form takes 4,000 characters)."""
    caplog.set_level(logging.INFO)
    modal = await (await alice.slash("stage new", ruleset="mind_cycling", name="Deep")).modal()
    reply = await (await alice.submit(modal, {"Rocks": "[" * 1500 + "]" * 1500})).reply()
    assert "nested more than 16 levels" in _one_private_line(reply, alice)
    assert await stages.listed(await _admin.context(gregario), guild.id) == []
    assert _loud(caplog.records) == []


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ({"Number of stages": "many"}, "stages"),
        ({"Deck": "tarot"}, "deck"),
        ({"Deck": "classic_96", "Variants (optional)": "max_players=3 max_players=4"}, "max_players twice"),
        ({"Deck": "classic_96", "Variants (optional)": "speed=9"}, "speed"),
    ],
)
async def test_a_stage_form_with_a_bad_value_names_it(
    gregario: Any, guild: Guild, alice: DiscordUser, typed: dict[str, str], named: str
) -> None:
    """/stage new for Wyścig with a bad number, an unknown deck, an option given twice or unknown: the
    refusal is private and names the field; nothing is saved."""
    modal = await (await alice.slash("stage new", ruleset="wyscig", name="Mine")).modal()
    reply = await (await alice.submit(modal, typed)).reply()
    assert reply.ephemeral_for == alice.id and named in reply.text, reply.text
    assert await stages.listed(await _admin.context(gregario), guild.id) == []


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("default_pace", "whenever"),
        ("reminder", "120"),
        ("auto_moves", "maybe"),
        ("race_openers", "nobody"),
        ("race_channels", "the big one"),
        ("manager_role", "bosses"),
        ("language", "klingon"),
        ("timezone", "Mars/Olympus"),
    ],
)
async def test_every_setting_refuses_a_bad_value_naming_it(
    gregario: Any, guild: Guild, alice: DiscordUser, setting: str, value: str
) -> None:
    """Each setting's refusal repeats the value typed, privately, in one line, and stores nothing."""
    reply = await (await alice.slash("settings", setting=setting, value=value)).reply()
    assert value in _one_private_line(reply, alice)
    ctx = await _admin.context(gregario)
    assert await server_settings.get_settings(ctx, guild.id) == server_settings.DEFAULTS


async def test_an_oversize_setting_value_is_refused_by_its_length(
    gregario: Any, guild: Guild, alice: DiscordUser
) -> None:
    """A 5,000-character time zone: the refusal names the setting and the limit, not the text."""
    reply = await (await alice.slash("settings", setting="timezone", value="x" * 5000)).reply()
    text = _one_private_line(reply, alice)
    assert "Time zone is 5000 characters long" in text and "400" in text and "xxxxxxxxxx" not in text

"""/race new refuses a mistake in one short private line that names it: nothing is created, nothing is posted,
nothing is logged above INFO."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.app import Gregario
from bot.store.tables import RaceRow, Seat
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import DiscordUser

pytestmark = pytest.mark.rules("R-DC-8")


async def _counts(gregario: Gregario, fake: FakeDiscord) -> tuple[int, int, int]:
    """Races and seats in the database, public messages in the server's channels."""
    assert gregario.runtime is not None
    async with gregario.runtime.ctx.db.sessions() as session:
        races = (await session.execute(select(func.count()).select_from(RaceRow))).scalar_one()
        seats = (await session.execute(select(func.count()).select_from(Seat))).scalar_one()
    public = sum(1 for g in fake.guilds for c in g.channels for m in c.messages if m.ephemeral_for is None)
    return races, seats, public


def _loud(records: list[logging.LogRecord]) -> list[str]:
    return [
        f"{r.name} {r.levelname}: {r.getMessage()}"
        for r in records
        if r.levelno > logging.INFO and r.name.split(".")[0] in ("bot", "discord")
    ]


async def refused(
    gregario: Gregario, fake: FakeDiscord, user: DiscordUser, caplog: pytest.LogCaptureFixture, **options: Any
) -> str:
    """The answer to ``/race new`` with ``options``, checked to be a refusal that changed nothing."""
    caplog.set_level(logging.INFO)
    before, seen = await _counts(gregario, fake), len(caplog.records)
    reply = await (await user.slash("race new", **options)).reply()
    await fake.settle()
    assert reply.ephemeral_for == user.id, "a refusal is private"
    assert "\n" not in reply.text.strip() and len(reply.text) <= 300, f"one short line: {reply.text!r}"
    assert "Something went wrong" not in reply.text
    assert await _counts(gregario, fake) == before, "no race, no seat, no post"
    assert _loud(caplog.records[seen:]) == [], "nothing is logged above INFO"
    return reply.text


async def test_an_unknown_option_is_named_with_the_options_there_are(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """foo=bar: Flamme Rouge has no option foo, and the refusal lists the ones it has."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="flamme_rouge", options="foo=bar")
    assert "no option foo" in text and "grid" in text and "meteo" in text


async def test_a_value_outside_the_choices_is_named_with_the_choices(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """grid=sideways: the grid is chosen or random."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="flamme_rouge", options="grid=sideways")
    assert "grid can't be sideways" in text and "choose, random" in text


async def test_a_number_out_of_range_is_named_with_the_range(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """lanes=-5 in Mind Cycling: the road has 3 to 6 lanes."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="mind_cycling", options="lanes=-5")
    assert "lanes can't be -5" in text and "from 3 to 6" in text


async def test_an_option_given_twice_is_refused_rather_than_one_silently_winning(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """finish=all finish=first: which one was meant? Both values are repeated back."""
    text = await refused(
        gregario, fake_discord, alice, caplog, ruleset="flamme_rouge", options="finish=all, finish=first"
    )
    assert "finish twice" in text and "all" in text and "first" in text


async def test_an_oversize_option_text_is_refused_by_its_length(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """A 6,000-character value: the refusal gives the length and the limit, not the text."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="flamme_rouge", options="finish=" + "x" * 6000)
    assert "6007 characters" in text and "1000" in text and "xxxxxxxxxx" not in text


async def test_a_long_single_value_is_refused_by_its_own_length(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """One pair of 500 characters, inside the text's limit: the option is named with its limit."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="flamme_rouge", options="meteo=" + "w" * 494)
    assert "The option meteo is 500 characters long" in text and "200" in text


async def test_a_stage_typed_as_json_with_a_value_out_of_range_names_the_stage_field(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """{"stages": 999999}: a Wyścig race has 1 to 21 stages."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="wyscig", stage='{"stages": 999999}')
    assert "stages can't be 999999" in text and "from 1 to 21" in text


async def test_a_stage_nested_too_deep_is_refused_before_it_is_read(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """A stage of 400 brackets inside each other (fits the text limit): refused by its depth, no RecursionError."""
    text = await refused(
        gregario, fake_discord, alice, caplog, ruleset="wyscig", stage='{"stages": ' + "[" * 400 + "]" * 400 + "}"
    )
    assert "nested more than 16 levels" in text


async def test_a_stage_field_the_system_does_not_have_is_named_with_its_fields(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """{"laps": 3} for Wyścig: its stage is a deck and a number of stages."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="wyscig", stage='{"laps": 3}')
    assert "no laps" in text and "deck, stages" in text


async def test_too_many_bots_leave_no_invisible_lobby(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser, caplog: pytest.LogCaptureFixture
) -> None:
    """bots=11 in a six-seat race: refused with the seats there are, and /race status finds no race."""
    text = await refused(gregario, fake_discord, alice, caplog, ruleset="wyscig", bots=11)
    assert "at most 6 seats" in text and "5 bots" in text
    status = await (await alice.slash("race status")).reply()
    assert "not in any race" in status.text


async def test_a_good_race_still_opens_with_its_bots_seated_at_once(
    gregario: Gregario, fake_discord: FakeDiscord, alice: DiscordUser
) -> None:
    """The refusals change nothing for a race that fits: bots=5 fills the six seats in one go."""
    lobby = await (await alice.slash("race new", ruleset="wyscig", bots=5, options="max_players=6")).reply()
    assert lobby.ephemeral_for is None and "(6/6)" in lobby.text

"""The one error handler: what players read for each kind of failure."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands

from bot.errors import UserError, explain
from engine.messages import OrderError
from tests.fakediscord import DiscordUser, FakeDiscord


def _invoke_error(error: Exception) -> app_commands.CommandInvokeError:
    wrapped = app_commands.CommandInvokeError(SimpleNamespace(name="race"), error)  # type: ignore[arg-type]
    wrapped.__cause__ = error
    return wrapped


def test_a_refusal_reads_as_its_catalog_message() -> None:
    """A UserError raised in a command is rendered from the catalog with its parameters."""
    error = _invoke_error(UserError("rules.no_guide", ruleset="Tabella del Destino"))
    assert (
        explain(error, "en-US")
        == "The Tabella del Destino guide isn't written yet. The summary above has the essentials."
    )


def test_an_engine_refusal_reads_as_the_engines_message() -> None:
    """An OrderError from the engine reaches the player in the engine's words."""
    error = OrderError.of("fr.card_not_in_hand", "You can't play {card}: your hand is {hand}.", card=9, hand="3, 4")
    assert explain(_invoke_error(error), "en") == "You can't play 9: your hand is 3, 4."


def test_missing_permissions_name_the_permission() -> None:
    """An admin-only command tells a player which permission they lack."""
    assert explain(app_commands.MissingPermissions(["manage_guild"]), "en") == (
        "You need the manage_guild permission for this. Ask a server admin."
    )


def test_a_cooldown_says_when_to_try_again() -> None:
    """A cooldown gives the seconds to wait."""
    cooldown = app_commands.CommandOnCooldown(app_commands.Cooldown(1, 10), retry_after=4.4)
    assert explain(cooldown, "en") == "Slow down a little: try again in 4 s."


def test_a_bug_is_logged_and_the_player_gets_an_apology(caplog: pytest.LogCaptureFixture) -> None:
    """Anything unexpected is logged with its traceback; the player reads no technical detail."""
    with caplog.at_level(logging.ERROR, logger="bot.errors"):
        text = explain(_invoke_error(ZeroDivisionError("division by zero")), "en")
    assert text.startswith("Something went wrong on my side.") and "division" not in text
    assert [r.exc_info[0] for r in caplog.records if r.exc_info] == [ZeroDivisionError]


async def test_a_button_for_an_unknown_rule_system_is_refused_kindly(
    fake_discord: FakeDiscord, gregario: Any, alice: DiscordUser, races: Any
) -> None:
    """A stale guide button (a rule system since removed) answers privately with the systems there are."""
    stale = fake_discord.post_as_bot(
        races,
        {
            "content": "Old rules",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Send me the guide", "custom_id": "gregario:guide:croquet"}
                    ],
                }
            ],
        },
    )
    reply = await (await alice.click(stale, "Send me the guide")).reply()
    assert reply.ephemeral_for == alice.id
    assert reply.content.startswith("There is no rule system called 'croquet'. Pick one of: ")
    assert alice.dms() == []


@pytest.mark.allow_log_errors
async def test_a_failing_button_in_a_bot_view_gets_the_same_apology(
    gregario: Any, alice: DiscordUser, races: Any
) -> None:
    """Views built on bot.ui.View route their failures to the one error handler."""
    import discord

    from bot.ui import View

    class Broken(View):
        @discord.ui.button(label="Break")
        async def smash(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
            raise RuntimeError("smashed")

    channel = gregario.get_channel(races.id)
    sent = await channel.send("fragile", view=Broken())
    message = next(m for m in alice.read() if m.id == sent.id)
    reply = await (await alice.click(message, "Break")).reply()
    assert reply.content.startswith("Something went wrong on my side.") and reply.ephemeral_for == alice.id


@pytest.mark.allow_log_errors
async def test_a_failing_modal_gets_the_same_apology(gregario: Any, alice: DiscordUser) -> None:
    """Modals built on bot.ui.Modal route their failures to the one error handler."""
    import discord

    from bot.ui import Modal

    class Plan(Modal, title="Write my plan"):
        plan: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Plan")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            raise RuntimeError("unreadable plan")

    @gregario.tree.command(name="plan", description="Open the plan form.")
    async def plan(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Plan())

    await gregario.sync_commands()
    modal = await (await alice.slash("plan")).modal()
    reply = await (await alice.submit(modal, {"Plan": "A 3R"})).reply()
    assert reply.content.startswith("Something went wrong on my side.") and reply.ephemeral_for == alice.id


def test_a_refusal_longer_than_a_message_is_cut_with_a_visible_mark() -> None:
    """Whatever a refusal repeats back, the player's text fits Discord's 2,000 characters and shows the cut."""
    error = _invoke_error(UserError("stages.unknown_stage", stage="y" * 5000, ruleset="Flamme Rouge", names="A, B"))
    text = explain(error, "en")
    assert len(text) == 2000 and text.endswith("…")
    assert text.startswith("There is no stage called 'yyy")

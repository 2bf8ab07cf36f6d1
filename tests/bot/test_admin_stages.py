"""/stage end to end: an admin designs, edits, shares and deletes stages of each rule system, races run on
them; members without the permission are refused; a bad file changes nothing; analyses repeat for a seed."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.exts import _admin
from bot.exts.stage._cog import _field_words
from bot.i18n import t
from bot.services import lobby, stages
from bot.services.clock import ManualClock
from bot.services.outcomes import MemberRef
from engine.registry import get_ruleset
from tests.bot.services.conftest import Harness
from tests.fakediscord import DiscordUser, FakeDiscord, Guild
from tests.fakediscord.world import MEMBER_PERMISSIONS
from tests.scan import discord_texts, scan

DESIGNS: dict[str, tuple[dict[str, str], dict[str, str], dict[str, Any]]] = {
    # rule system: (what the admin types first, what they change it to, the stage saved at the end)
    "flamme_rouge": (
        {"tiles": "abcdefghijklmnopqrstu", "options": "meteo=random"},
        {"tiles": "abcdefghijklmnopqrsTU"},
        {"tiles": "abcdefghijklmnopqrsTU"},
    ),
    "tabella": (
        {"table": "classic", "rows": "random"},
        {"table": "classic", "rows": "2"},
        {"table": "classic", "rows": 2},
    ),
    "wyscig": (
        {"deck": "itemised_108", "stages": "3"},
        {"deck": "classic_96", "stages": "1"},
        {"deck": "classic_96", "stages": 1},
    ),
    "mind_cycling": (
        {"course": "plains, mountain", "strip_length": "8", "rocks": "2", "supply_spaces": "1", "options": "lanes=4"},
        {"course": "plains sprint", "strip_length": "6", "rocks": "1", "supply_spaces": "1"},
        {"course": ["plains", "sprint"], "strip_length": 6, "rocks": 1, "supply_spaces": 1},
    ),
}
VARIANTS = {"flamme_rouge": {"meteo": "random"}, "mind_cycling": {"lanes": 4}}
"""The variants typed with the first design, kept through the edit, the file and into the race."""


@pytest.fixture
def plain(fake_discord: FakeDiscord, guild: Guild, bob: DiscordUser) -> DiscordUser:
    """Bob, a member without Manage Server."""
    guild.members[bob.id].permissions = MEMBER_PERMISSIONS
    return bob


def _modal_values(modal: dict[str, Any]) -> dict[str, str]:
    values = {}
    for row in modal["components"]:
        for item in row.get("components") or [row.get("component") or {}]:
            values[item.get("label") or row.get("label")] = item.get("value") or ""
    return values


def _label(ruleset: str, field: str) -> str:
    """The label an admin reads for a stage field (the modal names fields in words, never their keys)."""
    return t("stage.field.options") if field == "options" else _field_words(ruleset, field, "en-US")[0]


def _labelled(ruleset: str, typed: dict[str, Any]) -> dict[str, Any]:
    return {_label(ruleset, k): v for k, v in typed.items()}


async def _design(admin: DiscordUser, command: str, ruleset: str, name: str, typed: dict[str, str]) -> Any:
    modal = await (await admin.slash(f"stage {command}", ruleset=ruleset, name=name)).modal()
    return await admin.submit(modal, _labelled(ruleset, typed)), modal


@pytest.mark.parametrize("ruleset_id", list(DESIGNS))
async def test_the_stage_form_names_fields_and_values_in_words(
    gregario: Any, fake_discord: FakeDiscord, alice: DiscordUser, ruleset_id: str
) -> None:
    """/stage new's title, labels and help lines read as an admin's words: no key, no preset code, no option
    key (``itemised_108``, ``show_deck_contents``)."""
    await (await alice.slash("stage new", ruleset=ruleset_id, name="Words")).modal()
    texts = [(where, text) for where, text in discord_texts(fake_discord) if where.startswith("modal")]
    assert len(texts) >= 3, texts
    findings = scan(texts)
    assert not findings, "\n".join(map(str, findings))


async def test_a_deck_is_written_as_players_read_it(gregario: Any, guild: Guild, alice: DiscordUser) -> None:
    """The deck help names a deck by its title, and that title is what the field reads (its code too)."""
    answer, modal = await _design(
        alice, "new", "wyscig", "Long Tour", {"deck": "card-count deck, 102 cards", "stages": "2"}
    )
    assert "Itemised deck, 108 cards" in json.dumps(modal, ensure_ascii=False), "the help names a deck by its title"
    assert "Saved Long Tour" in (await answer.reply()).content
    ctx = await _admin.context(gregario)
    assert await stages.resolve_stage(ctx, guild.id, "wyscig", "long tour") == {"deck": "total_102", "stages": 2}
    assert stages.parse_fields("wyscig", {"deck": "Talia szczegółowa, 108 kart"}) == {"deck": "itemised_108"}


async def test_race_options_are_suggested_in_words(gregario: Any, alice: DiscordUser) -> None:
    """/race new's options suggest each variant by its name and value in words; what is sent stays the
    pairs typed so far and the one picked (the syntax the options read)."""
    found = await alice.autocomplete("race new", "options", "meteo=random ri", ruleset="flamme_rouge")
    assert found == [("Riders per player: 2", "meteo=random riders_per_player=2")]
    every = await alice.autocomplete("race new", "options", "", ruleset="tabella")
    assert ("When the Gazzetta comes out: next morning", "gazzetta_delay=next_morning") in every
    for ruleset_id in DESIGNS:
        shown = await alice.autocomplete("race new", "options", "", ruleset=ruleset_id)
        assert shown and not scan([("autocomplete", name) for name, _value in shown]), shown


@pytest.mark.parametrize("ruleset_id", list(DESIGNS))
async def test_an_admin_designs_edits_exports_imports_and_deletes_a_stage_and_a_race_runs_on_it(
    gregario: Any, guild: Guild, alice: DiscordUser, ruleset_id: str, tmp_path: Path
) -> None:
    """The full life of a stage of each rule system, ending with a race on the imported stage."""
    first, changed, final = DESIGNS[ruleset_id]
    answer, modal = await _design(alice, "new", ruleset_id, "Home Loop", first)
    assert set(_modal_values(modal)) == {_label(ruleset_id, f) for f in [*stages.fields_of(ruleset_id), "options"]}
    assert not any("_" in label for label in _modal_values(modal)), "labels in words, never the stage's keys"
    saved = await answer.reply()
    assert "Saved Home Loop" in saved.content
    picture = next(a for a in saved.attachments if a.filename.endswith(".png"))
    assert Image.open(io.BytesIO(await alice.download(picture.url))).format == "PNG"

    answer, modal = await _design(alice, "edit", ruleset_id, "home loop", changed)
    assert _modal_values(modal)[_label(ruleset_id, next(iter(first)))] != "", "the edit modal shows the stage as it is"
    assert "Saved your changes" in (await answer.reply()).content

    exported = await (await alice.slash("stage export", ruleset=ruleset_id, name="Home Loop")).reply()
    content = await alice.download(exported.attachments[0].url)
    assert json.loads(content)["stage"] == final
    assert json.loads(content)["options"] == VARIANTS.get(ruleset_id, {})

    deleted = await (await alice.slash("stage delete", ruleset=ruleset_id, name="Home Loop")).reply()
    assert "Deleted Home Loop" in deleted.content
    listed = await (await alice.slash("stage list")).reply()
    assert "No saved stages" in (listed.embeds[0].get("description") or "")

    imported = await (await alice.slash("stage import", file=("home-loop.json", content))).reply()
    assert "Imported Home Loop" in imported.content
    shown = await (await alice.slash("stage show", ruleset=ruleset_id, name="Home Loop")).reply()
    assert shown.embeds[0]["title"] == "Home Loop"

    ctx = await _admin.context(gregario)
    stage = await stages.resolve_stage(ctx, guild.id, ruleset_id, "home loop")
    options = await stages.resolve_options(ctx, guild.id, ruleset_id, "home loop")
    assert (stage, options) == (final, VARIANTS.get(ruleset_id, {}))
    # The race copies the stage, so it runs in a database of its own, away from the bot's running services.
    harness = Harness(f"sqlite+aiosqlite:///{tmp_path / 'race.sqlite3'}", ManualClock())
    race_ctx = await harness.boot()
    try:
        opener = MemberRef(guild.id, alice.id, "Alice")
        view = await lobby.open_lobby(race_ctx, opener, 1, ruleset_id, stage=stage, options=options)
        await lobby.add_bot(race_ctx, view.race_id, alice.id)
        await lobby.start(race_ctx, view.race_id, alice.id, seed=5)
        await race_ctx.idle()
        await harness.play_out(view.race_id)
        race = await harness.race(view.race_id)
        assert race.status == "finished" and race.stage == final and race.options == options
    finally:
        await harness.shutdown()


async def test_a_member_without_permission_is_refused_even_when_discord_shows_the_command(
    gregario: Any, fake_discord: FakeDiscord, guild: Guild, alice: DiscordUser, plain: DiscordUser
) -> None:
    """Bob sees /stage (an owner could show it to everyone) but the bot refuses him, saying what is missing."""
    for command, options in [
        ("stage new", {"ruleset": "wyscig", "name": "Mine"}),
        ("stage list", {}),
        ("stage import", {"file": ("x.json", b"{}")}),
    ]:
        refused = await (await plain.slash(command, **options)).reply()
        assert "Manage Server" in refused.content and refused.ephemeral, command
    ctx = await _admin.context(gregario)
    assert await stages.listed(ctx, guild.id) == []

    marshal = await fake_discord.create_role(guild, "Race Marshal")
    await (await alice.slash("settings", setting="manager_role", value=f"<@&{marshal.id}>")).reply()
    refused = await (await plain.slash("stage list")).reply()
    assert f"<@&{marshal.id}>" in refused.content, "the refusal names the role to ask for"
    guild.members[plain.id].roles.append(marshal.id)
    allowed = await (await plain.slash("stage new", ruleset="wyscig", name="Mine")).modal()
    assert allowed["title"].startswith("Wy")


async def test_a_malformed_import_changes_nothing(gregario: Any, guild: Guild, alice: DiscordUser) -> None:
    """A file with a wrong field is refused with the field and its reason; the server's stages stay as they were."""
    await (await alice.submit(*(await _pair(alice, "wyscig", "Keep", {"deck": "total_102", "stages": "2"})))).reply()
    good = json.loads(stages.export(stages.StageInfo("Other", "wyscig", {"deck": "classic_96"}, 1)))
    for broken, reason in [
        ({**good, "stage": {"deck": "classic_96", "stages": 40}}, "stages: Input should be less than or equal to 21"),
        ({**good, "ruleset": "chess"}, "chess is not a rule system"),
        ({k: v for k, v in good.items() if k != "name"}, "name: Field required"),
    ]:
        answer = await (await alice.slash("stage import", file=("bad.json", json.dumps(broken).encode()))).reply()
        assert reason in answer.content and "Nothing was saved" in answer.content
    answer = await (await alice.slash("stage import", file=("bad.json", b"\xff not json"))).reply()
    assert "isn't valid JSON" in answer.content
    ctx = await _admin.context(gregario)
    assert [(s.name, s.stage) for s in await stages.listed(ctx, guild.id)] == [
        ("Keep", {"deck": "total_102", "stages": 2})
    ]


async def _pair(
    admin: DiscordUser, ruleset: str, name: str, typed: dict[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    return await (await admin.slash("stage new", ruleset=ruleset, name=name)).modal(), _labelled(ruleset, typed)


async def test_a_stage_the_rules_refuse_says_what_is_wrong_and_saves_nothing(
    gregario: Any, guild: Guild, alice: DiscordUser
) -> None:
    """A tile letter that is no tile is named with its place; nothing is saved."""
    modal, _ = await _pair(alice, "flamme_rouge", "Broken", {})
    answer = await (await alice.submit(modal, _labelled("flamme_rouge", {"tiles": "abx"}))).reply()
    assert "'x' at position 3 is not a tile letter" in answer.content and answer.ephemeral
    ctx = await _admin.context(gregario)
    assert await stages.listed(ctx, guild.id) == []


async def test_saved_stages_are_offered_for_the_servers_own_commands(gregario: Any, alice: DiscordUser) -> None:
    """The stage name autocomplete of /stage show lists this server's saved stages of the chosen rule system."""
    await (await alice.submit(*(await _pair(alice, "tabella", "Ridge", {"table": "classic", "rows": "3"})))).reply()
    await (await alice.submit(*(await _pair(alice, "tabella", "Valley", {"table": "random"})))).reply()
    await (await alice.slash("stage list")).reply()
    assert await alice.autocomplete("stage show", "name", "rid", ruleset="tabella") == [("Ridge", "Ridge")]
    assert await alice.autocomplete("stage show", "name", "", ruleset="wyscig") == []


async def test_an_analysis_answers_in_time_and_repeats_for_a_seed(gregario: Any, alice: DiscordUser) -> None:
    """/stage analyse acknowledges at once, then follows up with the figures and a chart; a seed repeats them."""
    gregario.get_cog("StageCog").analysis_races = 12
    saved = await (
        await alice.submit(*(await _pair(alice, "wyscig", "Sprint", {"deck": "classic_96", "stages": "1"})))
    ).reply()
    assert "Saved Sprint" in saved.text, "the stage is saved before it is analysed"
    embeds = []
    for _ in range(2):
        began = time.monotonic()
        handle = await alice.slash("stage analyse", ruleset="wyscig", name="Sprint", seed=42)
        assert await handle.acknowledged(timeout=3.0) == 5
        assert time.monotonic() - began < 3.0, "Discord drops an interaction not answered within 3 seconds"
        answer = await handle.reply(timeout=60)
        assert answer.embeds[0]["title"] == "How Sprint plays"
        chart = answer.attachments[0]
        assert chart.filename == "analysis.png" and "Win rate by starting position" in (chart.description or "")
        embeds.append(answer.embeds[0])
    assert embeds[0] == embeds[1]
    assert "12 of 12" in embeds[0]["description"] and "seed 42" in embeds[0]["description"]


async def test_a_saved_stage_offers_edit_and_analyse(gregario: Any, alice: DiscordUser, plain: DiscordUser) -> None:
    """Under the saved stage, Edit reopens the modal with its fields and Analyse follows up with the figures;
    a member without permission clicking them is refused."""
    gregario.get_cog("StageCog").analysis_races = 6
    saved = await (
        await alice.submit(*(await _pair(alice, "tabella", "Ridge", {"table": "classic", "rows": "3"})))
    ).reply()
    modal = await (await alice.click(saved, "Edit")).modal()
    assert _modal_values(modal)[_label("tabella", "rows")] == "3"
    refused = await (await plain.click(saved, "Analyse")).reply()
    assert "Manage Server" in refused.content
    analysed = await (await alice.click(saved, "Analyse")).reply(timeout=60)
    assert analysed.embeds[0]["title"] == "How Ridge plays"


async def test_stages_offers_and_draws_the_servers_saved_stages(
    gregario: Any, alice: DiscordUser, plain: DiscordUser
) -> None:
    """Once saved, a stage is suggested by /stages next to the presets and anyone on the server sees its board."""
    await (
        await alice.submit(*(await _pair(alice, "wyscig", "Two Days", {"deck": "classic_96", "stages": "2"})))
    ).reply()
    await (await alice.slash("stage list")).reply()
    assert ("Two Days", "Two Days") in await plain.autocomplete("stages", "stage", "two", ruleset="wyscig")
    reply = await (await plain.slash("stages", ruleset="wyscig", stage="two days")).reply()
    assert reply.embeds[0]["title"] == "Two Days"
    board = await plain.download(reply.attachments[0].url)
    drawn = get_ruleset("wyscig").stage_board({"deck": "classic_96", "stages": 2}, {})
    assert board.decode("utf-8") == t(drawn)
    assert reply.attachments[1].filename.endswith(".png")

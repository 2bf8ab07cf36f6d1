"""/stages end to end: a rule system's presets, autocomplete, and a stage's board as a picture and a file."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot import catalogue
from bot.i18n import t
from engine.messages import Message
from engine.ruleset import Preset, Ruleset
from tests.fakediscord import DiscordUser


async def test_stages_lists_every_preset(gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]) -> None:
    """Without a stage, /stages lists the presets with their summaries."""
    reply = await (await alice.slash("stages", ruleset=ruleset.name)).reply()
    fields = reply.embeds[0]["fields"]
    presets = ruleset.presets()[:25]
    assert [f["name"].split(" · ")[0] for f in fields] == [p.name for p in presets]
    assert [f["value"] for f in fields] == [t(p.summary)[:1024] or "—" for p in presets]


async def test_stage_autocomplete_offers_the_chosen_systems_presets(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """Typing in the stage option suggests that rule system's presets containing what was typed."""
    everything = await alice.autocomplete("stages", "stage", "", ruleset=ruleset.name)
    assert [name for name, _ in everything] == [p.name for p in ruleset.presets()][:25]
    first = ruleset.presets()[0].name
    typed = first[1:4]
    narrowed = await alice.autocomplete("stages", "stage", typed.upper(), ruleset=ruleset.name)
    assert (first, first) in narrowed
    assert all(typed.casefold() in name.casefold() for name, _ in narrowed)


async def test_stage_autocomplete_waits_for_the_rule_system(gregario: Any, alice: DiscordUser) -> None:
    """Before a rule system is chosen there is nothing to suggest."""
    assert await alice.autocomplete("stages", "stage", "a") == []


def picture_name(ruleset: Ruleset[Any], stage: str) -> str:
    return catalogue.board_filename(ruleset, stage).removesuffix(".txt") + ".png"


async def test_a_stage_comes_with_its_board_attached(gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]) -> None:
    """/stages with a stage shows its summary and attaches the board as a text file to download."""
    preset = ruleset.presets()[0]
    reply = await (await alice.slash("stages", ruleset=ruleset.name, stage=preset.name.upper())).reply()
    assert reply.embeds[0]["title"] == catalogue.preset_title(preset), "the preset by its title"
    assert [a.filename for a in reply.attachments] == [
        catalogue.board_filename(ruleset, preset.name),
        picture_name(ruleset, preset.name),
    ]
    downloaded = await alice.download(reply.attachments[0].url)
    assert downloaded.decode("utf-8") == t(ruleset.stage_board(preset.name, {}))


async def test_a_stage_shows_its_preview_picture_with_the_board_as_alt_text(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """The embed shows the stage's picture; screen readers get the text board as its description."""
    preset = ruleset.presets()[0]
    reply = await (await alice.slash("stages", ruleset=ruleset.name, stage=preset.name)).reply()
    picture = reply.attachments[1]
    assert reply.embeds[0]["image"]["url"] == f"attachment://{picture.filename}"
    image = Image.open(io.BytesIO(await alice.download(picture.url)))
    assert image.format == "PNG"
    assert 600 <= image.width <= 900
    assert picture.description == t(ruleset.stage_board(preset.name, {}))[:1024]
    assert "picture" in reply.embeds[0]["footer"]["text"]


async def test_every_preset_of_every_rule_system_comes_with_its_picture(
    gregario: Any, alice: DiscordUser, rulesets: list[Ruleset[Any]]
) -> None:
    """Each preset's answer shows a PNG picture of the stage in its embed."""
    for ruleset in rulesets:
        for preset in ruleset.presets():
            reply = await (await alice.slash("stages", ruleset=ruleset.name, stage=preset.name)).reply()
            picture = reply.attachments[1]
            assert reply.embeds[0]["image"]["url"] == f"attachment://{picture.filename}", (ruleset.id, preset.name)
            image = Image.open(io.BytesIO(await alice.download(picture.url)))
            assert image.format == "PNG", (ruleset.id, preset.name)


@pytest.mark.allow_log_errors
async def test_a_preview_that_fails_to_draw_still_sends_the_text_board(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any], monkeypatch: Any
) -> None:
    """If the picture cannot be drawn, the player still gets the board as text and no error."""

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("no ink")

    monkeypatch.setattr("bot.render.files.preview_png", broken)
    preset = ruleset.presets()[0]
    reply = await (await alice.slash("stages", ruleset=ruleset.name, stage=preset.name)).reply()
    assert [a.filename for a in reply.attachments] == [catalogue.board_filename(ruleset, preset.name)]
    assert "image" not in reply.embeds[0]
    assert (await alice.download(reply.attachments[0].url)).decode() == t(ruleset.stage_board(preset.name, {}))


async def test_an_unknown_stage_is_refused_privately_with_the_names(
    gregario: Any, alice: DiscordUser, bob: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A stage that does not exist gets a private refusal listing the real ones."""
    reply = await (await alice.slash("stages", ruleset=ruleset.name, stage="Atlantis")).reply()
    assert reply.ephemeral_for == alice.id
    assert "There is no stage called 'Atlantis'" in reply.content
    assert all(p.name in reply.content for p in ruleset.presets())
    assert reply not in bob.read()


async def test_a_board_too_long_for_the_embed_is_only_attached(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any], monkeypatch: Any
) -> None:
    """A board over Discord's 1024-character field limit is not previewed, only attached whole."""
    for size, previewed in ((1016, True), (1017, False), (5000, False)):
        board = "\n".join(["=" * 99] * (size // 100)) + "#" * (size - 100 * (size // 100) + 1)
        board = board[:size]
        drawn = Message("test.board", {}, board)
        monkeypatch.setattr(type(ruleset), "stage_board", lambda self, stage, options, drawn=drawn: drawn)
        preset = ruleset.presets()[0]
        reply = await (await alice.slash("stages", ruleset=ruleset.name, stage=preset.name)).reply()
        assert any(f["name"] == "Board" for f in reply.embeds[0].get("fields", [])) is previewed, size
        assert (await alice.download(reply.attachments[0].url)).decode() == board


async def test_a_long_stage_list_stays_within_discords_embed_limits(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any], monkeypatch: Any
) -> None:
    """30 presets with long summaries: as many as fit are listed, and the footer says how many more."""
    long = Message("test.summary", {}, "Long summary. " * 70)
    official = Message("test.label", {}, "official")
    many = [Preset(name=f"Stage {n:02}", summary=long, label=official) for n in range(30)]
    monkeypatch.setattr(type(ruleset), "presets", lambda self: many)
    reply = await (await alice.slash("stages", ruleset=ruleset.name)).reply()
    fields = reply.embeds[0]["fields"]
    assert 0 < len(fields) < 25
    assert [f["name"] for f in fields] == [f"Stage {n:02} · official" for n in range(len(fields))]
    assert (
        reply.embeds[0]["footer"]["text"]
        == f"{30 - len(fields)} more not shown: type in the stage option to find them."
    )


async def test_every_preset_of_every_rule_system_can_be_shown(
    gregario: Any, alice: DiscordUser, rulesets: list[Ruleset[Any]]
) -> None:
    """Each installed rule system lists its presets, and each preset's board arrives whole."""
    for ruleset in rulesets:
        listing = await (await alice.slash("stages", ruleset=ruleset.name)).reply()
        assert listing.embeds[0]["title"] == f"{ruleset.name} stages"
        for preset in ruleset.presets():
            reply = await (await alice.slash("stages", ruleset=ruleset.name, stage=preset.name)).reply()
            assert reply.embeds[0]["title"] == catalogue.preset_title(preset), (ruleset.id, preset.name)
            board = await alice.download(reply.attachments[0].url)
            assert board.decode("utf-8") == t(ruleset.stage_board(preset.name, {})), (ruleset.id, preset.name)


async def test_an_unknown_stage_name_of_1900_characters_still_gets_a_refusal_within_discords_limit(
    gregario: Any, alice: DiscordUser, ruleset: Ruleset[Any]
) -> None:
    """A pasted wall of text as the stage: the refusal arrives (not "This interaction failed"), at most 2,000
    characters, still naming the problem and ending in a visible cut."""
    reply = await (await alice.slash("stages", ruleset=ruleset.name, stage="x" * 1900)).reply()
    assert reply.ephemeral_for == alice.id
    assert reply.content.startswith("There is no stage called 'xxx")
    assert len(reply.content) <= 2000
    assert "…" in reply.content

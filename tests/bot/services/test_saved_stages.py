"""Saved stages: checked by the rule system itself, per server, shared as files, copied into races."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.services import lobby, stages
from bot.services.outcomes import Refusal
from bot.store.tables import SavedStage
from engine.registry import get_ruleset
from tests.bot.services.conftest import CHANNEL, SERVER, Harness, member

GOOD: dict[str, dict[str, Any]] = {
    "flamme_rouge": {"tiles": "ab" + "cdefghijklmnopqrstu"},
    "tabella": {"table": "classic", "rows": 2},
    "wyscig": {"deck": "classic_96", "stages": 2},
    "mind_cycling": {"course": ["plains", "mountain", "sprint"], "strip_length": 8, "rocks": 3, "supply_spaces": 1},
}


async def _count(harness: Harness) -> int:
    assert harness.ctx is not None
    async with harness.ctx.db.sessions() as session:
        return int((await session.execute(select(func.count()).select_from(SavedStage))).scalar_one())


def test_fields_come_from_each_rule_systems_own_stage_model() -> None:
    """The fields an admin fills are the rule system's terms, with the values its model allows."""
    assert stages.fields_of("flamme_rouge") == ["preset", "tiles", "profile", "name"]
    assert stages.fields_of("tabella") == ["table", "rows"]
    assert stages.fields_of("wyscig") == ["deck", "stages"]
    assert stages.fields_of("mind_cycling") == ["course", "strip_length", "rocks", "supply_spaces"]
    assert stages.field_help("wyscig", "deck") == "itemised_108 | total_102 | classic_96"
    assert stages.field_help("wyscig", "stages") == "1-21"
    assert "plains | sprint | mountain" in stages.field_help("mind_cycling", "course")


def test_an_admins_text_becomes_stage_data() -> None:
    """Numbers and lists are read as such, words in a list field become a list, text fields stay text."""
    typed = {"course": "plains, sprint mountain", "strip_length": "8", "rocks": ""}
    assert stages.parse_fields("mind_cycling", typed) == {"course": ["plains", "sprint", "mountain"], "strip_length": 8}
    assert stages.parse_fields("flamme_rouge", {"tiles": "12345"}) == {"tiles": "12345"}
    assert stages.parse_fields("tabella", {"table": "classic", "rows": "3"}) == {"table": "classic", "rows": 3}


@pytest.mark.parametrize(
    ("ruleset", "data", "expected"),
    [
        ("flamme_rouge", {"tiles": "abx"}, "'x' at position 3 is not a tile letter; tiles are a A b B"),
        ("flamme_rouge", {"profile": "qq"}, "'qq' is not a run"),
        ("flamme_rouge", {"tiles": "ab", "profile": "_12"}, "exactly one of"),
        ("tabella", {"table": "round"}, "table: unknown table 'round'; choose 'classic' or 'random'"),
        ("wyscig", {"deck": "nope"}, "deck: Input should be 'itemised_108', 'total_102' or 'classic_96'"),
        ("wyscig", {"stages": 30}, "stages: Input should be less than or equal to 21 (you gave 30)"),
        ("mind_cycling", {"course": ["plains", "hills"]}, "course.1: Input should be 'plains', 'sprint' or 'mountain'"),
        ("mind_cycling", {"lanes": 4}, "lanes: not a field of this stage; they are course, strip_length"),
    ],
)
def test_a_stage_the_rules_refuse_says_what_is_wrong_and_where(ruleset: str, data: Any, expected: str) -> None:
    """The rule system's own checks name the field and what it accepts."""
    with pytest.raises(Refusal) as refused:
        stages.check_stage(ruleset, data)
    assert refused.value.key == "stage.invalid"
    assert expected in refused.value.message.text


async def test_an_admin_saves_edits_and_deletes_a_stage_of_each_rule_system(harness: Harness) -> None:
    """Create, read, edit and delete go through the rule system's checks; a refused edit keeps the old stage."""
    ctx = harness.ctx
    assert ctx is not None
    for ruleset, data in GOOD.items():
        saved = await stages.create(ctx, SERVER, ruleset, "  My   Stage ", data, by=1)
        assert saved.name == "My Stage" and saved.stage == {**stages.check_stage(ruleset, data)}
        assert (await stages.get(ctx, SERVER, ruleset, "my stage")).stage == saved.stage
        with pytest.raises(Refusal) as again:
            await stages.create(ctx, SERVER, ruleset, "MY STAGE", data, by=1)
        assert again.value.key == "stage.exists"
    with pytest.raises(Refusal):
        await stages.edit(ctx, SERVER, "wyscig", "my stage", {"stages": 0})
    assert (await stages.get(ctx, SERVER, "wyscig", "My Stage")).stage == {"deck": "classic_96", "stages": 2}
    edited = await stages.edit(ctx, SERVER, "wyscig", "my stage", {"deck": "total_102", "stages": 3})
    assert edited.stage == {"deck": "total_102", "stages": 3}
    assert [s.ruleset for s in await stages.listed(ctx, SERVER)] == sorted(GOOD)
    await stages.delete(ctx, SERVER, "wyscig", "My Stage")
    with pytest.raises(Refusal) as gone:
        await stages.get(ctx, SERVER, "wyscig", "My Stage")
    assert gone.value.key == "stage.unknown"
    assert await _count(harness) == 3


async def test_a_stage_may_not_take_a_presets_name(harness: Harness) -> None:
    """A saved stage never hides a ready-made one."""
    assert harness.ctx is not None
    with pytest.raises(Refusal) as refused:
        await stages.create(harness.ctx, SERVER, "tabella", "Classic", GOOD["tabella"], by=1)
    assert refused.value.key == "stage.name_is_preset"


async def test_each_server_sees_only_its_own_stages(harness: Harness) -> None:
    """Another server's autocomplete and lookups do not see this server's stage."""
    ctx = harness.ctx
    assert ctx is not None
    await stages.create(ctx, SERVER, "tabella", "Ridge", GOOD["tabella"], by=1)
    mine = await stages.stage_choices(ctx, SERVER, "tabella", "rid")
    theirs = await stages.stage_choices(ctx, SERVER + 1, "tabella", "rid")
    assert [(c.name, c.saved) for c in mine] == [("Ridge", True)]
    assert theirs == []
    presets = await stages.stage_choices(ctx, SERVER + 1, "tabella", "")
    assert [c.name for c in presets] == [p.name for p in get_ruleset("tabella").presets()][:25]
    assert await stages.resolve_stage(ctx, SERVER, "tabella", "ridge") == {"table": "classic", "rows": 2}
    assert await stages.resolve_stage(ctx, SERVER, "tabella", "CLASSIC") == "classic"
    with pytest.raises(Refusal):
        await stages.resolve_stage(ctx, SERVER + 1, "tabella", "Ridge")


async def test_a_stage_travels_by_file_to_another_server(harness: Harness) -> None:
    """Export on one server, import on another: the same stage under the same name."""
    ctx = harness.ctx
    assert ctx is not None
    saved = await stages.create(ctx, SERVER, "mind_cycling", "Alpine", GOOD["mind_cycling"], by=1)
    content = stages.export(saved)
    assert json.loads(content)["format"] == "gregario-stage"
    imported = await stages.import_file(ctx, SERVER + 1, content, by=2)
    assert (imported.name, imported.ruleset, imported.stage) == ("Alpine", "mind_cycling", saved.stage)
    renamed = await stages.import_file(ctx, SERVER + 1, content, by=2, name="Alpine 2")
    assert renamed.name == "Alpine 2"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{not json", "isn't valid JSON"),
        (b"[1, 2]", "one JSON object"),
        (b'{"format": "gregario-stage", "version": 1, "ruleset": "wyscig", "name": "X"}', "stage: Field required"),
        (
            b'{"format": "gregario-stage", "version": 1, "ruleset": "wyscig", "name": "X", "stage": {"stages": 99}}',
            "stages: Input should be less than or equal to 21 (you gave 99)",
        ),
        (b'{"format": "gregario-stage", "version": 2, "ruleset": "wyscig", "name": "X", "stage": {}}', "version:"),
        (
            b'{"format": "gregario-stage", "version": 1, "ruleset": "chess", "name": "X", "stage": {}}',
            "chess is not a rule system",
        ),
    ],
)
async def test_a_malformed_file_is_refused_with_the_field_and_nothing_is_saved(
    harness: Harness, content: bytes, expected: str
) -> None:
    """The refusal names the exact field and reason; the server's stages are unchanged."""
    assert harness.ctx is not None
    with pytest.raises(Refusal) as refused:
        await stages.import_file(harness.ctx, SERVER, content, by=1)
    assert expected in refused.value.message.text
    assert await _count(harness) == 0


async def test_a_race_keeps_its_copy_when_the_stage_is_edited_or_deleted(harness: Harness) -> None:
    """A race opened on a saved stage runs on the stage as it was when the race opened."""
    ctx = harness.ctx
    assert ctx is not None
    await stages.create(ctx, SERVER, "wyscig", "Short Tour", {"deck": "classic_96", "stages": 1}, by=1)
    stage = await stages.resolve_stage(ctx, SERVER, "wyscig", "short tour")
    view = await lobby.open_lobby(ctx, member(1, "Anna"), CHANNEL, "wyscig", stage=stage)
    await stages.edit(ctx, SERVER, "wyscig", "Short Tour", {"deck": "itemised_108", "stages": 5})
    await stages.delete(ctx, SERVER, "wyscig", "Short Tour")
    await lobby.join(ctx, view.race_id, member(2, "Bruno"))
    await lobby.start(ctx, view.race_id, 1, seed=3)
    assert (await harness.race(view.race_id)).stage == {"deck": "classic_96", "stages": 1}
    steps = await harness.play_out(view.race_id)
    row = await harness.race(view.race_id)
    assert row.status == "finished" and steps > 0


def test_variants_that_belong_with_the_ground_are_read_and_checked_by_the_rules() -> None:
    """Meteo or lanes are written name=value and checked by the rule system's options model, naming the variant."""
    assert stages.parse_options("meteo=random lanes=4, finish=first") == {
        "meteo": "random",
        "lanes": 4,
        "finish": "first",
    }
    assert stages.parse_options('{"meteo": "random"}') == {"meteo": "random"}
    with pytest.raises(Refusal) as unreadable:
        stages.parse_options("meteo")
    assert unreadable.value.key == "stage.bad_options" and "'meteo' is not name=value" in unreadable.value.message.text
    with pytest.raises(Refusal) as too_many:
        stages.check_stage("mind_cycling", GOOD["mind_cycling"], {"lanes": 7})
    assert "options.lanes: Input should be less than or equal to 6 (you gave 7)" in too_many.value.message.text
    with pytest.raises(Refusal) as unknown:
        stages.check_stage("flamme_rouge", GOOD["flamme_rouge"], {"rain": "heavy"})
    assert "options.rain: not a variant of this stage; they are finish, finish_overflow" in unknown.value.message.text


async def test_a_stage_keeps_its_variants_through_a_file_and_gives_them_to_races(harness: Harness) -> None:
    """Saved with Meteo, exported, imported elsewhere: the variants come along and a race starts from them."""
    ctx = harness.ctx
    assert ctx is not None
    saved = await stages.create(ctx, SERVER, "flamme_rouge", "Windy", GOOD["flamme_rouge"], 1, {"meteo": "random"})
    assert saved.options == {"meteo": "random"}
    imported = await stages.import_file(ctx, SERVER + 1, stages.export(saved), by=2)
    assert imported.options == {"meteo": "random"}
    assert await stages.resolve_options(ctx, SERVER + 1, "flamme_rouge", "windy") == {"meteo": "random"}
    preset = get_ruleset("flamme_rouge").presets()[0].name
    assert await stages.resolve_options(ctx, SERVER + 1, "flamme_rouge", preset) == {}

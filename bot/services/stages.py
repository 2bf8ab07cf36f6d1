"""Saved stages: the stages a server's admins design, per rule system, in each system's own terms.

A stage is checked by the rule system itself: its ``stage_model`` (the fields and the values they
accept) and a trial ``new_race`` (what only a built course reveals: a tile letter that is no tile, a
terrain run that does not parse). The refusal names the field and repeats the engine's reason. A race
copies the stage data when it opens, so editing or deleting a saved stage never changes a race under
way. Each server sees its own stages; another server gets one only through an exported file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import select
from sqlmodel import col

from bot.catalogue import preset_title
from bot.services import bounds, variants
from bot.services.context import Context
from bot.services.outcomes import Refusal
from bot.services.server_settings import LANGUAGES
from bot.store.tables import SavedStage
from engine.messages import OrderError
from engine.registry import RULESET_IDS, get_ruleset
from engine.ruleset import Entrant, Ruleset

NAME_LIMIT = 80
"""A stage name's length (Discord shows 100 characters of an autocomplete choice)."""
CHOICE_LIMIT = 25
EXPORT_FORMAT = "gregario-stage"
EXPORT_VERSION = 1
FILE_LIMIT = 64 * 1024
"""An imported file's size limit in bytes (a stage is a few hundred)."""


@dataclass(frozen=True)
class StageChoice:
    """One autocomplete suggestion: a preset or one of this server's saved stages."""

    name: str
    value: str
    saved: bool


@dataclass(frozen=True)
class StageInfo:
    """A saved stage as the commands show it."""

    name: str
    ruleset: str
    stage: dict[str, Any]
    created_by: int
    options: dict[str, Any] = field(default_factory=dict)


def fold(name: str) -> str:
    """A name compared without case or repeated spaces."""
    return " ".join(name.casefold().split())


def _rules(ruleset_id: str) -> Ruleset[Any]:
    if ruleset_id not in RULESET_IDS:
        raise Refusal.of("stage.unknown_ruleset", value=ruleset_id, names=", ".join(RULESET_IDS))
    return get_ruleset(ruleset_id)


def fields_of(ruleset_id: str) -> list[str]:
    """The fields of the rule system's stage, in its own terms (``tiles``, ``table``, ``deck``, ``course``...)."""
    fields = _rules(ruleset_id).stage_model.model_fields
    # A field marked ``"editor": False`` is data a race copies in (a Peloton stage's large tiles), not a
    # field an admin fills: a Discord modal has room for five fields only.
    return [
        n
        for n, f in fields.items()
        if not (isinstance(f.json_schema_extra, dict) and f.json_schema_extra.get("editor") is False)
    ]


def field_help(ruleset_id: str, name: str) -> str:
    """A field's accepted values as the stage model states them (a list of choices where it has one)."""
    schema = _rules(ruleset_id).stage_model.model_json_schema()
    return _describe(schema.get("properties", {}).get(name, {}), schema.get("$defs", {}))


def _describe(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    if "$ref" in prop:
        return _describe(defs.get(str(prop["$ref"]).split("/")[-1], {}), defs)
    if "enum" in prop:
        return " | ".join(str(v) for v in prop["enum"])
    if "const" in prop:
        return str(prop["const"])
    options = prop.get("anyOf") or prop.get("oneOf")
    if options:
        return " or ".join(_describe(o, defs) for o in options if o.get("type") != "null")
    kind = prop.get("type", "value")
    if kind == "array":
        return f"list of {_describe(prop.get('items', {}), defs)}"
    low, high = prop.get("minimum"), prop.get("maximum")
    if kind == "integer" and low is not None and high is not None:
        return f"{low}-{high}"
    return str(kind)


def _only_text(prop: Mapping[str, Any]) -> bool:
    options = prop.get("anyOf") or [prop]
    kinds = {o.get("type") for o in options if o.get("type") != "null"}
    return kinds == {"string"} and "enum" not in prop


def parse_fields(ruleset_id: str, texts: Mapping[str, str]) -> dict[str, Any]:
    """An admin's text per field to stage data: JSON where it parses (numbers, lists), a list for
    ``a, b, c`` where the field takes a list, the text itself otherwise; empty fields are left out."""
    schema = _rules(ruleset_id).stage_model.model_json_schema()
    props = schema.get("properties", {})
    data: dict[str, Any] = {}
    for name, text in texts.items():
        text = text.strip()
        if not text:
            continue
        prop = props.get(name, {})
        if _only_text(prop):
            data[name] = text
            continue
        titled = _preset_named(ruleset_id, prop, text)
        if titled is not None:  # a value written as players read it: a preset's title ("Itemised deck, 108 cards")
            data[name] = titled
            continue
        try:
            data[name] = bounds.loads(text)
        except json.JSONDecodeError:
            described = _describe(prop, schema.get("$defs", {}))
            words = set(described.replace(" or ", " | ").split(" | "))
            takes_list = described.startswith("list of") or " or list of" in described
            split = takes_list and text not in words
            data[name] = [p.strip() for p in text.replace(",", " ").split()] if split else text
    return data


def _preset_named(ruleset_id: str, prop: Mapping[str, Any], text: str) -> str | None:
    """The preset whose title (in any language the bot speaks) is ``text``, where the field takes that
    preset's name among its values (Wyścig's deck): so the help may name the values as players read them."""
    allowed = prop.get("enum") or []
    for preset in _rules(ruleset_id).presets():
        titled = preset.name in allowed and preset.title is not None
        if titled and any(fold(preset_title(preset, lang)) == fold(text) for lang in LANGUAGES):
            return preset.name
    return None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def option_names(ruleset_id: str) -> list[str]:
    """The rule system's variants a saved stage may carry (its options model's fields)."""
    return list(_rules(ruleset_id).options_model.model_fields)


def parse_options(text: str) -> dict[str, Any]:
    """An admin's options: a JSON object, or ``name=value`` pairs (values read as JSON where they parse)."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            found = bounds.loads(text)
        except json.JSONDecodeError as exc:
            raise Refusal.of("stage.bad_options", reason=str(exc)) from None
        if not isinstance(found, dict):
            raise Refusal.of("stage.bad_options", reason="not an object")
        return found
    options: dict[str, Any] = {}
    for pair in text.split():
        key, sep, value = pair.rstrip(",;").partition("=")
        if not sep or not key:
            raise Refusal.of("stage.bad_options", reason=f"{pair!r} is not name=value")
        if key in options:
            raise Refusal.of(
                "race.option_twice", name=key, first=variants.shown(options[key]), second=variants.shown(value)
            )
        try:
            options[key] = bounds.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def check_options(ruleset_id: str, options: Any) -> dict[str, Any]:
    """``options`` as the rule system's variants (only those given are kept); a refusal naming the field."""
    rules = _rules(ruleset_id)
    if not isinstance(options, dict):
        raise Refusal.of("stage.invalid", ruleset=rules.name, problems="options: must be a set of name=value pairs")
    try:
        rules.options_model.model_validate(options)
    except ValidationError as exc:
        allowed = ", ".join(option_names(ruleset_id))
        raise Refusal.of(
            "stage.invalid", ruleset=rules.name, problems=_problems(exc, ruleset_id, "options", allowed)
        ) from None
    return dict(options)


def check_stage(ruleset_id: str, data: Any, options: Any = None) -> dict[str, Any]:
    """``data`` as the rule system's stage, normalised; a :class:`Refusal` naming the field otherwise.
    ``options`` (checked with :func:`check_options` first) take part in the trial race."""
    rules = _rules(ruleset_id)
    chosen = check_options(ruleset_id, options or {})
    if not isinstance(data, dict):
        raise Refusal.of("stage.not_an_object", ruleset=rules.name)
    try:
        model = rules.stage_model.model_validate(data)
    except ValidationError as exc:
        raise Refusal.of("stage.invalid", ruleset=rules.name, problems=_problems(exc, ruleset_id)) from None
    stage = model.model_dump(mode="json", exclude_none=True)
    try:
        fewest = rules.player_limits(stage, chosen).minimum
        humans = [Entrant(id=f"p{i}", name=f"Player {i}") for i in range(1, max(fewest, 1) + 1)]
        rules.new_race(stage, chosen, rules.default_entrants(humans, chosen), 1)
    except ValidationError as exc:
        raise Refusal.of("stage.invalid", ruleset=rules.name, problems=_problems(exc, ruleset_id)) from None
    except (ValueError, OrderError) as exc:
        reason = exc.message.text if isinstance(exc, OrderError) else str(exc)
        raise Refusal.of("stage.invalid", ruleset=rules.name, problems=reason) from None
    return stage


def _problems(exc: ValidationError, ruleset_id: str, prefix: str = "", allowed: str | None = None) -> str:
    allowed = allowed or ", ".join(fields_of(ruleset_id))
    lines = []
    for error in exc.errors()[:6]:
        parts = [prefix] if prefix else []
        parts += [str(p) for p in error["loc"] if not str(p).startswith(("literal[", "list[", "int", "str"))]
        where = ".".join(parts)
        if error["type"] == "extra_forbidden":
            lines.append(f"{where}: not a {'variant' if prefix else 'field'} of this stage; they are {allowed}")
        elif where:
            lines.append(f"{where}: {error['msg']} (you gave {_shown(error.get('input'))})")
        else:
            lines.append(str(error["msg"]).removeprefix("Value error, "))
    return "\n".join(dict.fromkeys(lines))


def _check_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned or len(cleaned) > NAME_LIMIT:
        raise Refusal.of("stage.bad_name", limit=NAME_LIMIT)
    return cleaned


async def _find(session: Any, server_id: int, ruleset_id: str, name: str) -> SavedStage | None:
    query = select(SavedStage).where(
        col(SavedStage.server_id) == server_id,
        col(SavedStage.ruleset) == ruleset_id,
        col(SavedStage.folded) == fold(name),
    )
    found: SavedStage | None = (await session.execute(query)).scalar_one_or_none()
    return found


def _info(row: SavedStage) -> StageInfo:
    return StageInfo(row.name, row.ruleset, dict(row.stage), row.created_by, dict(row.options or {}))


async def create(
    ctx: Context, server_id: int, ruleset_id: str, name: str, data: Any, by: int, options: Any = None
) -> StageInfo:
    """Save a new stage (checked by the rule system, with its variants); a used or preset name is refused."""
    rules = _rules(ruleset_id)
    name = _check_name(name)
    if any(fold(p.name) == fold(name) for p in rules.presets()):
        raise Refusal.of("stage.name_is_preset", name=name, ruleset=rules.name)
    stage = check_stage(ruleset_id, data, options)
    chosen = check_options(ruleset_id, options or {})
    now = ctx.clock.now()
    async with ctx.db.sessions() as session, session.begin():
        if await _find(session, server_id, ruleset_id, name) is not None:
            raise Refusal.of("stage.exists", name=name, ruleset=rules.name)
        row = SavedStage(
            server_id=server_id,
            ruleset=ruleset_id,
            name=name,
            folded=fold(name),
            stage=stage,
            options=chosen,
            created_by=by,
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        await session.flush()
        return _info(row)


async def get(ctx: Context, server_id: int, ruleset_id: str, name: str) -> StageInfo:
    """This server's stage called ``name``; a refusal listing its stages otherwise."""
    async with ctx.db.sessions() as session:
        row = await _find(session, server_id, ruleset_id, name)
        info = _info(row) if row is not None else None
    if info is None:  # the names are listed once this session is closed (SQLite holds one writer)
        raise await _unknown(ctx, server_id, ruleset_id, name)
    return info


async def _unknown(ctx: Context, server_id: int, ruleset_id: str, name: str) -> Refusal:
    names = [s.name for s in await listed(ctx, server_id, ruleset_id)]
    return Refusal.of(
        "stage.unknown", name=name[:100], ruleset=_rules(ruleset_id).name, names=", ".join(names)[:1500] or "—"
    )


async def edit(ctx: Context, server_id: int, ruleset_id: str, name: str, data: Any, options: Any = None) -> StageInfo:
    """Replace a saved stage's data and variants (checked first: a refused edit leaves the stage as it was)."""
    stage = check_stage(ruleset_id, data, options)
    chosen = check_options(ruleset_id, options or {})
    info: StageInfo | None = None
    async with ctx.db.sessions() as session, session.begin():
        row = await _find(session, server_id, ruleset_id, name)
        if row is not None:
            row.stage, row.options, row.updated_at = stage, chosen, ctx.clock.now()
            info = _info(row)
    if info is None:
        raise await _unknown(ctx, server_id, ruleset_id, name)
    return info


async def delete(ctx: Context, server_id: int, ruleset_id: str, name: str) -> StageInfo:
    """Delete a saved stage (races already opened on it keep their own copy)."""
    info: StageInfo | None = None
    async with ctx.db.sessions() as session, session.begin():
        row = await _find(session, server_id, ruleset_id, name)
        if row is not None:
            info = _info(row)
            await session.delete(row)
    if info is None:
        raise await _unknown(ctx, server_id, ruleset_id, name)
    return info


async def listed(ctx: Context, server_id: int, ruleset_id: str | None = None) -> list[StageInfo]:
    """This server's saved stages (of one rule system, or all), by rule system then name."""
    query = select(SavedStage).where(col(SavedStage.server_id) == server_id)
    if ruleset_id is not None:
        query = query.where(col(SavedStage.ruleset) == ruleset_id)
    async with ctx.db.sessions() as session:
        rows = (await session.execute(query.order_by(col(SavedStage.ruleset), col(SavedStage.folded)))).scalars()
        return [_info(r) for r in rows]


# --- files -----------------------------------------------------------------------------------------


class StageFile(BaseModel):
    """An exported stage: what another server imports."""

    model_config = ConfigDict(extra="forbid")

    format: str = Field(pattern=f"^{EXPORT_FORMAT}$")
    version: int = Field(ge=EXPORT_VERSION, le=EXPORT_VERSION)
    ruleset: str
    name: str = Field(min_length=1, max_length=NAME_LIMIT)
    stage: dict[str, Any]
    options: dict[str, Any] = Field(default_factory=dict)


def export(info: StageInfo) -> bytes:
    """A stage as a JSON file another server can import."""
    body = StageFile(
        format=EXPORT_FORMAT,
        version=EXPORT_VERSION,
        ruleset=info.ruleset,
        name=info.name,
        stage=info.stage,
        options=info.options,
    )
    return (json.dumps(body.model_dump(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def read_file(content: bytes) -> StageFile:
    """An exported file read back; a refusal naming the exact field and reason otherwise."""
    if len(content) > FILE_LIMIT:
        raise Refusal.of("stage.file_too_big", limit=FILE_LIMIT // 1024)
    try:
        data = bounds.loads(content)  # its depth is checked before it is parsed
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Refusal.of("stage.file_not_json", reason=str(exc)) from None
    if not isinstance(data, dict):
        raise Refusal.of("stage.file_invalid", problems="the file must hold one JSON object")
    try:
        return StageFile.model_validate(data)
    except ValidationError as exc:
        lines = [f"{'.'.join(str(p) for p in e['loc']) or 'file'}: {e['msg']}" for e in exc.errors()[:6]]
        raise Refusal.of("stage.file_invalid", problems="\n".join(lines)) from None


async def import_file(ctx: Context, server_id: int, content: bytes, by: int, name: str | None = None) -> StageInfo:
    """Save the stage of an exported file (under ``name`` if given): checked whole before anything is stored."""
    read = read_file(content)
    try:
        return await create(ctx, server_id, read.ruleset, name or read.name, read.stage, by, read.options)
    except Refusal as refusal:
        if refusal.key == "stage.invalid":
            problems = str(refusal.message.params["problems"])
            where = "" if problems.startswith("options.") else "stage: "
            raise Refusal.of("stage.file_invalid", problems=f"{where}{problems}") from None
        if refusal.key == "stage.unknown_ruleset":
            raise Refusal.of("stage.file_invalid", problems=f"ruleset: {refusal.message.text}") from None
        raise


# --- for /race new and /stages ---------------------------------------------------------------------


async def stage_choices(ctx: Context, server_id: int | None, ruleset_id: str, typed: str) -> list[StageChoice]:
    """The presets and this server's saved stages whose names contain ``typed`` (those starting with it
    first), at most 25: what a stage option's autocomplete offers."""
    rules = _rules(ruleset_id)
    wanted = fold(typed)
    found = [StageChoice(p.name, p.name, False) for p in rules.presets() if wanted in fold(p.name)]
    if server_id is not None:
        found += [StageChoice(s.name, s.name, True) for s in await listed(ctx, server_id, ruleset_id)]
        found = [c for c in found if wanted in fold(c.name)]
    found.sort(key=lambda c: not fold(c.name).startswith(wanted))
    return found[:CHOICE_LIMIT]


async def resolve_stage(ctx: Context, server_id: int | None, ruleset_id: str, name: str) -> str | dict[str, Any]:
    """What a race copies for the stage called ``name``: a preset's name, or a saved stage's data."""
    rules = _rules(ruleset_id)
    preset = next((p for p in rules.presets() if fold(p.name) == fold(name)), None)
    if preset is not None:
        return preset.name
    if server_id is not None:
        async with ctx.db.sessions() as session:
            row = await _find(session, server_id, ruleset_id, name)
            saved = dict(row.stage) if row is not None else None
        if saved is not None:
            return saved
    presets = ", ".join(p.name for p in rules.presets())
    mine = ", ".join(s.name for s in await listed(ctx, server_id, ruleset_id)) if server_id is not None else ""
    raise Refusal.of(
        "stage.unknown", name=name[:100], ruleset=rules.name, names=(", ".join(x for x in (presets, mine) if x))[:1500]
    )


async def resolve_options(ctx: Context, server_id: int | None, ruleset_id: str, name: str) -> dict[str, Any]:
    """The variants a race on the stage called ``name`` starts from: a saved stage's, none for a preset."""
    stage = await resolve_stage(ctx, server_id, ruleset_id, name)
    if isinstance(stage, str) or server_id is None:
        return {}
    return (await get(ctx, server_id, ruleset_id, name)).options

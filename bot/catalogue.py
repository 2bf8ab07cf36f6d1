"""What the bot shows about the rule systems: guides, presets, stage boards. No Discord types here.

The engine registry is the source of truth; this module only looks things up and cuts text to the
sizes Discord accepts.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from bot.i18n import t
from engine.registry import available_rulesets
from engine.ruleset import Preset, Ruleset

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content, in characters."""

CHOICE_LIMIT = 25
"""Discord's limit on choices in an autocomplete answer (and fields in an embed)."""


def rulesets() -> list[Ruleset[Any]]:
    """Every rule system installed, in menu order."""
    return available_rulesets()


def guide(ruleset: Ruleset[Any], locale: str = "en") -> str | None:
    """The player's guide shipped with the rule system, in ``locale`` when it has one (else English)."""
    return ruleset.guide(locale)


FENCE = "```"


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` cut into messages of at most ``limit`` characters, between paragraphs when possible.

    A code block cut in two is closed at the end of one message and reopened in the next, so each
    message renders on its own.
    """
    room = limit - 2 * (len(FENCE) + 1)
    pieces: list[str] = []
    current = ""
    for paragraph in _paragraphs(text.strip(), room):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if len(candidate) <= room:
            current = candidate
        else:
            pieces.append(current)
            current = paragraph
    if current:
        pieces.append(current)
    return _balance_fences(pieces)


def _balance_fences(pieces: list[str]) -> list[str]:
    balanced: list[str] = []
    reopen = False
    for piece in pieces:
        if reopen:
            piece = f"{FENCE}\n{piece}"
        reopen = piece.count(FENCE) % 2 == 1
        balanced.append(f"{piece}\n{FENCE}" if reopen else piece)
    return balanced


def _paragraphs(text: str, limit: int) -> list[str]:
    """Paragraphs no longer than ``limit`` (long ones cut between lines, then hard)."""
    found: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        if len(paragraph) <= limit:
            found.append(paragraph)
            continue
        line_block = ""
        for line in paragraph.split("\n"):
            while len(line) > limit:
                if line_block:
                    found.append(line_block)
                    line_block = ""
                cut = _hard_cut(line, limit)
                found.append(line[:cut])
                line = line[cut:]
            candidate = f"{line_block}\n{line}" if line_block else line
            if len(candidate) <= limit:
                line_block = candidate
            else:
                found.append(line_block)
                line_block = line
        if line_block:
            found.append(line_block)
    return [p for p in found if p.strip()]


def _hard_cut(line: str, limit: int) -> int:
    """Where to cut a line too long for one message: at the last space, never inside a ``` fence."""
    space = line.rfind(" ", 0, limit)
    cut = space + 1 if space > limit // 2 else limit
    while 0 < cut < len(line) and line[cut - 1] == "`" == line[cut]:
        cut -= 1
    return cut if cut > 0 else limit


OPTION_NAMES = {
    "finish": "option.name.finish",
    "finish_overflow": "option.name.finish_overflow",
    "grid": "option.name.grid",
    "breakaway": "option.name.breakaway",
    "meteo": "option.name.meteo",
    "riders_per_player": "option.name.riders_per_player",
    "show_deck_contents": "option.name.show_deck_contents",
    "bots": "option.name.bots",
    "mode": "option.name.mode",
    "gazzetta_probability": "option.name.gazzetta_probability",
    "gazzetta_delay": "option.name.gazzetta_delay",
    "scia_reading": "option.name.scia_reading",
    "max_players": "option.name.max_players",
    "lanes": "option.name.lanes",
    "team_size": "option.name.team_size",
    "medal_section": "option.name.medal_section",
    "placement_order": "option.name.placement_order",
    "max_rounds": "option.name.max_rounds",
    "solo": "option.name.solo",
}
"""Each rule variant's name as players read it, by its key (the key stays the options' typed syntax)."""
OPTION_VALUES = {
    "all": "option.value.all",
    "first": "option.value.first",
    "extend": "option.value.extend",
    "clip": "option.value.clip",
    "choose": "option.value.choose",
    "random": "option.value.random",
    "off": "option.value.off",
    "on": "option.value.on",
    "plan": "option.value.plan",
    "live": "option.value.live",
    "next_morning": "option.value.next_morning",
    "immediate": "option.value.immediate",
    "straight_move": "option.value.straight_move",
    "flat_terrain": "option.value.flat_terrain",
    "orders": "option.value.orders",
    "last": "option.value.last",
    "true": "option.value.true",
    "false": "option.value.false",
}
"""A variant's word values (and yes/no) as players read them, by the value the options take."""


def option_label(name: str, locale: str | None) -> str:
    """A rule variant's name as a player reads it ("Riders per player"), never its key (``riders_per_player``);
    a variant without words falls back to its key with spaces."""
    key = OPTION_NAMES.get(name)
    return t(key, locale) if key is not None else name.replace("_", " ")


def option_value(value: Any, locale: str | None) -> str:
    """A variant's value as a player reads it ("next morning", "yes"): a word the catalogue knows, else the
    value itself (a number), JSON for a list."""
    code = json.dumps(value) if isinstance(value, bool) else value
    if isinstance(code, str):
        key = OPTION_VALUES.get(code)
        return t(key, locale) if key is not None else code.replace("_", " ")
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else str(value)


def find_preset(ruleset: Ruleset[Any], name: str, locale: str = "en") -> Preset | None:
    """The preset called ``name`` (ignoring case and surrounding spaces), if any; also written as a listing
    shows it, followed by its label (``Sprint de Montagne [origin unverified]``, ``... · origin unverified``,
    in ``locale`` or in English)."""
    wanted = _fold(name)
    for preset in ruleset.presets():
        listed = {preset.name, preset_title(preset, locale), preset_title(preset)}
        if preset.label:
            for label in {t(preset.label, locale), t(preset.label)}:
                listed |= {f"{preset.name} [{label}]", f"{preset.name} · {label}"}
        if wanted in {_fold(text) for text in listed}:
            return preset
    return None


def preset_title(preset: Preset, locale: str | None = "en") -> str:
    """How a player reads a preset's name: its title where the name is a code (``itemised_108`` ->
    "Itemised deck, 108 cards"), else the name itself."""
    return t(preset.title, locale) if preset.title is not None else preset.name


def stage_title(ruleset_id: str, stage: Any, locale: str | None = "en") -> str:
    """How a player reads the stage a race runs on (lobby, captions): a preset by its title, the default
    stage (``None``) by its preset's title, a stage of its own by its name, or as "a stage of its own"."""
    from engine.registry import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    presets = ruleset.presets()
    if isinstance(stage, str):
        found = next((p for p in presets if p.name == stage), None)
        return preset_title(found, locale) if found is not None else stage
    try:
        data = ruleset.stage_data(stage)
        found = next((p for p in presets if ruleset.stage_data(p.name) == data), None)
    except ValueError:
        found = None
    if found is not None:
        return preset_title(found, locale)
    if isinstance(stage, dict) and isinstance(stage.get("name"), str):
        return str(stage["name"])
    return t("race.lobby.own_stage", locale)


def matching_presets(ruleset: Ruleset[Any], typed: str) -> list[Preset]:
    """Presets whose name contains what the player typed so far, those starting with it first."""
    wanted = _fold(typed)
    presets = [p for p in ruleset.presets() if wanted in _fold(p.name)]
    presets.sort(key=lambda p: not _fold(p.name).startswith(wanted))
    return presets[:CHOICE_LIMIT]


def board_filename(ruleset: Ruleset[Any], stage: str) -> str:
    """A safe attachment name for a stage board: ``flamme_rouge-la-classicissima.txt``."""
    ascii_name = unicodedata.normalize("NFKD", stage).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "stage"
    return f"{ruleset.id}-{slug}.txt"


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())

"""The engine's English templates by message key, read from its source, so a catalogue's engine entries can be
held to the same placeholders as the English they translate.

The engine writes each message's English where it builds it (``msg``, ``cached_msg``, ``event``, ``plural``,
``OrderError.of`` and the systems' helpers around them, called with the key and the text first, or a
``(key, text)`` pair in a table of words); this walks the source for those literals.
A key whose text is chosen by a condition or written as an f-string (``message_of``) is not a literal the walk
can pair with its key; the most frequent of those in a race are read here by hand (:data:`WRITTEN_BY_CASE`),
and a test renders whole races through the catalogues so a template that does not fit its message fails.
"""

from __future__ import annotations

import ast
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine import race
from engine.keys import message_keys

ENGINE = Path(race.__file__).resolve().parent
Template = str | dict[str, str]


def _text(node: ast.AST | None, constants: dict[str, str] | None = None) -> str | None:
    if isinstance(node, ast.Name) and constants:
        return constants.get(node.id)
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _constants(tree: ast.Module) -> dict[str, str]:
    """A module's texts kept in constants (``_MOVED = "{rider} moves..."``), so a call naming one is read."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            text = _text(node.value)
            if text is not None:
                found.update({t.id: text for t in targets if isinstance(t, ast.Name)})
    return {**WRITTEN_BY_CASE, **found}


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


WRITTEN_BY_CASE: dict[str, Template] = {
    # Preset titles read from the presets' data files, and a label built with message_of
    "td.preset_title.classic": "Classic table",
    "td.preset_title.random": "Random table",
    "td.preset_title.classic_rows": "Classic table, rows {first}-{last}",
    "wk.label.no_descent": "No descent",
    # Flamme Rouge: the round's events and the words of the hand and the board
    "fr.exhaustion": {"one": "{names} takes an exhaustion card.", "other": "{names} take an exhaustion card."},
    "fr.info.hand": "{rider}'s hand: {cards}",
    "fr.label.exhaustion_card": "{card} (exhaustion)",
    "fr.nothing": "nothing",
    "fr.rider.first": "first rider",
    "fr.label.team_rider": "{colour} {rider}",
    "fr.terrain.start": "start",
    "fr.terrain.flat": "flat",
    "fr.terrain.ascent": "ascent",
    "fr.terrain.descent": "descent",
    "fr.terrain.supply": "supply",
    "fr.terrain.cobbles": "cobbles",
    "fr.terrain.finish": "finish",
    # Tabella: the Gancio by case, the terrain words
    "td.gancio.missed": "{name} reaches for {target_name}'s saddle with the Gancio, but {target_name} is not in the "
    "same cell.",
    "td.gancio.stole": "{name} hooks on to {target_name}: next move is free, and {target_name}'s Vigorilla changes "
    "hands.",
    "td.gancio.hooked": "{name} hooks on to {target_name}: next move is free (no full bottle to steal).",
    "td.terrain.climb": "climb",
    "td.terrain.descent": "descent",
    "td.terrain.flat": "flat",
    "td.gazzetta.caught": {
        "one": "GAZZETTA DELLO SPORT — Doping inquiry! {names} drank the Bibitone and is ranked last.",
        "other": "GAZZETTA DELLO SPORT — Doping inquiry! {names} drank the Bibitone and are ranked last.",
    },
    "td.gazzetta.nobody": "GAZZETTA DELLO SPORT — A doping inquiry makes the front page, but nobody in this race drank "
    "a Bibitone.",
    "td.gazzetta.clean": "GAZZETTA DELLO SPORT — No doping story on the front page today: the results stand.",
    "td.gomitata.fails": "{name} throws a Gomitata at {target_name}, but it fails ({reason}): {name} falls, -2 R, -2 V"
    "{clamp_text}{move_text}.",
    "td.gomitata.falls": "{name} elbows {target_name}, who falls: -2 R, -2 V{clamp_text}{move_text}.",
    "td.void": {
        "one": "Only {count} rider started: the race is void and awards no points.",
        "other": "Only {count} riders started: the race is void and awards no points.",
    },
    # Wyścig kolarski: the lap line and the stage's start
    "wk.lap.pace": "{name} {speed} (leader)",
    "wk.lap.lead": "{name} {speed} (takes the lead)",
    "wk.lap.penalty": "{name} {speed} +{minutes} min",
    "wk.lap.give_back": "{name} {speed} −{minutes} min",
    "wk.lap.blocked": "{name} {speed} (no overtaking)",
    "wk.redeal": {
        "one": "{name} holds no speed card (1 descent): the hand is discarded and redrawn.",
        "other": "{name} holds no speed card ({count} descents): the hand is discarded and redrawn.",
    },
    "wk.cards.none": "no speed card",
    "wk.cards.not_dealt": "not dealt",
    "wk.shown.climb_card": "{card} ({climb_speed} on the climb)",
    "wk.stage_start": {
        "one": "Stage {stage} of {stages}: {name} leads with the yellow token; 1 card in the pile.",
        "other": "Stage {stage} of {stages}: {name} leads with the yellow token; {count} cards in the pile.",
    },
    # Mind Cycling: the moves of a round
    "mc.round_start": {
        "one": "Round {round}: {count} cyclist on the road; {wind} in the wind.",
        "other": "Round {round}: {count} cyclists on the road; {wind} in the wind.",
    },
    "mc.move": "{who} moves from row {from_row}, lane {from_lane} to row {row}, lane {lane} (steps: {taken} of "
    "{steps}).",
    "mc.attack": "{who} attacks from row {from_row}, lane {from_lane} to row {row}, lane {lane} (steps: {taken} of "
    "{steps}).",
    "mc.move_finish": "{who} moves from row {from_row}, lane {from_lane} over the finish line (steps: {taken} of "
    "{steps}).",
    "mc.attack_finish": "{who} attacks from row {from_row}, lane {from_lane} over the finish line (steps: {taken} "
    "of {steps}).",
    "mc.wheel": "{who} wheels to row {row}, lane {lane}.",
    "mc.keep_bottle": "keep",
    "mc.none": "none",
    "mc.relay": "{who} relays to row {row}, lane {lane}.",
    "mc.sprint_exit": "{who} is the first out of the sprint section.",
    "mc.mountain_exit": "{who} is the first out of the mountain section.",
}
"""Engine texts written by case, read from the source by hand (the walk cannot pair them with their keys)."""


@cache
def english_templates() -> dict[str, Template]:
    """Each engine key whose English template is a literal in the source: a template, or ``one``/``other``."""
    keys = message_keys()
    found: dict[str, Template] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                args = node.args
                name = _name(node.func)
                if name not in {"event", "plural"} and len(args) >= 2:
                    key, text = _text(args[0]), _text(args[1], constants)
                    if key in keys and text is not None:
                        found.setdefault(key, text)
                    elif name == "column" and len(args) >= 3:  # column(id, key, heading, ...)
                        key, text = _text(args[1]), _text(args[2], constants)
                        if key in keys and text is not None:
                            found.setdefault(key, text)
                elif name == "event" and len(args) >= 2:
                    kind, text = _text(args[0]), _text(args[1], constants)
                    key = _text(args[2]) if len(args) >= 3 else kind
                    if key in keys and text is not None:
                        found.setdefault(key, text)
                elif name == "plural" and len(args) >= 4:
                    key, one, other = _text(args[0]), _text(args[2]), _text(args[3])
                    if key in keys and one is not None and other is not None:
                        found.setdefault(key, {"one": one, "other": other})
            elif isinstance(node, ast.Dict):  # a table of templates by key (``{"fr.move": _MOVED, ...}``)
                for key_node, value_node in zip(node.keys, node.values, strict=True):
                    key, text = _text(key_node), _text(value_node, constants)
                    if key in keys and text is not None:
                        found.setdefault(key, text)
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
                key, text = _text(node.elts[0]), _text(node.elts[1])
                if key in keys and text is not None:
                    found.setdefault(key, text)
    return {**WRITTEN_BY_CASE, **built_from_data(), **found}


def built_from_data() -> dict[str, Template]:
    """Engine texts the source builds from constants, data files or the guide (the stage boards' legends,
    the presets' summaries, the rules summaries), read from the same constants and files the engine reads."""
    from engine.flamme_rouge import texts as fr_texts
    from engine.mind_cycling import texts as mc_texts
    from engine.mind_cycling import views as mc_views
    from engine.tabella import views as td_views
    from engine.wyscig import texts as wk_texts

    def data(package: str, name: str) -> Any:
        return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))

    found: dict[str, Template] = {
        "fr.summary": fr_texts._summary_text(),
        "fr.label.card": "{card}",
        "fr.label.start_square": "square {square}",
        "fr.stage_board": {
            "one": fr_texts._BOARD.replace("{squares}", "square"),
            "other": fr_texts._BOARD.replace("{squares}", "squares"),
        },
        "mc.summary": mc_texts.SUMMARY.text,
        "mc.preset.default": mc_texts.DEFAULT_LABEL.text,
        "td.board.course": "{board}\n" + td_views.LEGEND,
        "wk.summary": wk_texts._SUMMARY,
        "wk.label.card": "{card}",
        "wk.cards.speeds": "{speeds}",
        "wk.shown.card": "{card}",
        "wk.lap.peloton": "{name} {speed}",
        "wk.lap.then": "{before} · {card}",
        "wk.names.and": "{names} and {last}",
        "wk.preset.label.default": wk_texts.default_label().text,
        # What pydantic says of a field (its own English, the message's text; a catalogue says it in a phrase)
        "wk.problem.unknown_field": "Extra inputs are not permitted",
        "wk.problem.boolean": "Value error, a number is needed, not true or false",
        "wk.problem.number": "Input should be a valid integer",
        "wk.stage_board": {
            "one": wk_texts._BOARD.replace("{stages}", "stage"),
            "other": wk_texts._BOARD.replace("{stages}", "stages"),
        },
    }
    for key, one, other in fr_texts._SUMMARIES.values():
        found[key] = {"one": one, "other": other}
    for key, frame in [("mc.stage_board", "")] + [
        (f"mc.stage_board_random{suffix}", "\nPlaced at random by the race seed on rows {first} to {last}: " + what)
        for suffix, what in [
            ("", "rocks {rocks}, supply spaces {supply}."),
            ("_rocks", "rocks {rocks}."),
            ("_supply", "supply spaces {supply}."),
        ]
    ]:
        found[key] = mc_views.FRAME + mc_views.LEGEND + frame
    for name, preset in data("engine.mind_cycling", "data/presets.json").items():
        found[mc_texts.preset_key(name)] = preset["summary"]
    for preset in data("engine.tabella", "presets.json").values():
        found.setdefault(preset["summary"]["key"], preset["summary"]["text"])
    for name, deck in data("engine.wyscig", "data/decks.json").items():
        summary = deck["summary"]
        one = summary.replace("{count} stages", "{count} stage")
        found[wk_texts._PRESET_KEYS[name]] = {"one": one, "other": summary}
    return found

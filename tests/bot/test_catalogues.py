"""The Italian, Polish and Bulgarian catalogues say everything the English one says, in the games' own words."""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import re
import string
from importlib import resources
from typing import Any

import discord
import pytest
from babel import Locale

from bot import create_bot
from bot.exts import EXTENSIONS
from bot.i18n import catalog, t
from bot.settings import Settings
from bot.translator import CatalogTranslator
from engine.keys import message_keys
from engine.messages import Message
from engine.registry import available_rulesets
from engine.ruleset import Entrant
from tests.bot.engine_texts import english_templates
from tests.engine.random_orders import random_order
from tests.logged import LoggedRace

LANGUAGES = ("it", "pl", "bg")

SAME_AS_ENGLISH: dict[str, set[str]] = {
    # Texts that are the same words in the language as in English, on purpose: the rider types of Flamme
    # Rouge (kept in Latin letters outside Bulgarian), the Tabella's Italian terms (R and V, Resistenza and
    # Velocità, in its figures), "bot", words Polish shares with English ("start", "sprinter"), the "+min" column's
    # and the minutes' abbreviation ("7 min"), the Wyścig picture's title (its name and the counter), and Italian
    # words English borrowed. Texts with no letters besides their placeholders (numbers, symbols) are allowed
    # without being listed.
    "it": {
        "render.fr.type.rouleur",
        "render.fr.type.sprinteur",
        "render.tb.curvone",
        "render.tb.strettoia",
        "render.fr.weather",
        "render.wk.col.minutes",
        "render.wk.title",
        "standings.minutes",
        "league.bot_name",
        "race.lobby.bot",
        "render.tb.figures",
        "race.panel.no",
        "command.name.file",
        "option.value.false",
    },
    "pl": {
        "render.fr.type.rouleur",
        "render.fr.type.sprinteur",
        "render.tb.curvone",
        "render.tb.strettoia",
        "render.wk.col.minutes",
        "render.wk.title",
        "standings.minutes",
        "render.tb.figures",
        "race.lobby.bot",
        "league.bot_name",
        "render.terrain.start",
        "render.tb.start",
        "race.button.start",
        "render.mc.sprinter",
        "command.name.solo",
    },
    "bg": {"render.tb.curvone", "render.tb.strettoia", "render.tb.figures", "render.wk.title"},
}

GLOSSARY_EXEMPT = {"mc.bad_intent_key"}
"""Texts that name an order's JSON fields (``lane``, ``path``...), which stay English in every language."""

GLOSSARY_EXEMPT_IN = {"it": {"fr.preset.summary.peloton"}}
"""Texts exempt in one language: Flamme Rouge's Peloton expansion keeps its title in Italian (the peloton of the
game's words is "gruppo"; Polish and Bulgarian name the expansion with their own word, Peleton and Пелотон)."""

EXPECTED_PLURAL_FORMS = {
    # Counts that select each CLDR category, written out so a change in Babel's rules shows here.
    "pl": {1: "one", 3: "few", 5: "many", 22: "few"},
    "bg": {1: "one", 2: "other"},
    "it": {1: "one", 2: "other"},
}

_BOT_ENGLISH = catalog("en")
_ENGINE_ENGLISH = english_templates()
_ENGLISH: dict[str, str | dict[str, str]] = {**_ENGINE_ENGLISH, **_BOT_ENGLISH}
"""What each catalogue translates: the bot's catalogue and the engine's templates (the engine's own English)."""

SAME_IN_EVERY_LANGUAGE = {
    # Engine texts a catalogue leaves out on purpose, as their English is already every language's text (the
    # engine's English is the fallback): the Tabella's Italian terms and codes, rider type names, symbols.
    "fr.field.card",
    "fr.group.rider",
    "fr.label.rouleur",
    "fr.label.sprinteur",
    "fr.rider.rouleur",
    "fr.rider.sprinteur",
    "td.choice.dir_d",
    "td.choice.dir_r",
    "td.choice.dir_s",
    "td.choice.effort",
    "td.choice.rider",
    "td.choice.special_b",
    "td.choice.special_g",
    "td.choice.special_j",
    "td.choice.special_p",
    "td.choice.special_v",
    "td.choice.special_x",
    "td.choice.start_a",
    "td.choice.start_b",
    "td.choice.start_c",
    "td.group.special",
    "td.pair",
    "td.pair.curvone",
    "td.pair.strettoia",
    "td.pair.curvone_strettoia",
    "td.special.b",
    "td.special.g",
    "td.special.j",
    "td.special.p",
    "td.special.v",
    "td.special.x",
    "td.start.aggressiva",
    "td.start.bersagliera",
    "td.start.cavaliera",
    "td.choice.round_move",
    "td.choice.round_sprint",
    "td.info.rider",
    "td.info.rider_placed",
    "wk.hint.give_back",
    "wk.hint.penalty",
    # Words the language shares with English: Italian "No" and "Round" (the Regolamento's own word),
    # Polish "start" and "sprinter", Flamme Rouge's Attack! card as the Bulgarian rules name it.
    "td.choice.no",
    "td.round",
    "mc.cyclist.sprinter",
    "td.choice.round_start",
    "td.field.start",
    "td.part.start",
    "fr.terrain.start",
    "fr.card.attack",
    "td.column.gazzetta",
    "td.column.resistenza",
    "td.column.velocita",
}
KINDS_WORDED_BY_CASE = {"td.drink", "td.gancio", "td.gazzetta", "td.gomitata", "td.scia"}
"""Event kinds the engine lists among its keys whose message always has a key of its own by case
(``td.gancio.stole``, ``td.gazzetta.clean``...): no text is ever keyed by the kind itself."""

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_CODE = re.compile(r"`[^`]*`|/[a-z_]+( [a-z_]+)*|\b\w+:<[^>]*>|\b\w+=\w+")


def _forms(template: str | dict[str, str]) -> list[str]:
    return list(template.values()) if isinstance(template, dict) else [template]


def _fields(text: str) -> set[tuple[str, str | None, str | None]]:
    """Each replacement field of a template: its name (with attribute or index), conversion and format."""
    parsed = string.Formatter().parse(text)
    return {(name, conversion, spec) for _, name, spec, conversion in parsed if name is not None}


def _glossary() -> dict[str, dict[str, dict[str, Any]]]:
    data: dict[str, dict[str, dict[str, Any]]] = json.loads(
        resources.files("bot.i18n").joinpath("glossary.json").read_text(encoding="utf-8")
    )
    return data


def _prose(text: str) -> str:
    """A text without what stays as written in every language: placeholders, code, commands, option syntax."""
    return _CODE.sub(" ", _PLACEHOLDER.sub(" ", re.sub(r"\{\{.*?\}\}", " ", text)))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_english_key_is_in_the_catalogue_with_the_same_placeholders(language: str) -> None:
    """A reader in another language gets every sentence, with every value the English one shows."""
    translated = catalog(language)
    bot_keys = set(translated) & set(_BOT_ENGLISH)
    assert bot_keys == set(_BOT_ENGLISH), set(_BOT_ENGLISH) - bot_keys
    assert set(translated) - bot_keys <= set(_ENGINE_ENGLISH), set(translated) - bot_keys - set(_ENGINE_ENGLISH)
    for key, english in _ENGLISH.items():
        if key not in translated:
            continue
        wanted = set().union(*(_fields(f) for f in _forms(english)))
        forms = _forms(translated[key])
        assert isinstance(translated[key], dict) == isinstance(english, dict), key
        assert set().union(*(_fields(f) for f in forms)) == wanted, key
        assert all(_fields(f) <= wanted for f in forms), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_counted_sentences_have_every_form_the_language_needs(language: str) -> None:
    """Polish needs one, few, many and other; Italian one, many and other; Bulgarian one and other."""
    needed = set(Locale.parse(language).plural_form.tags) | {"other"}
    counted = [key for key, value in _ENGLISH.items() if isinstance(value, dict)]
    assert counted
    for key in counted:
        if key not in catalog(language):
            continue
        forms = catalog(language)[key]
        assert isinstance(forms, dict) and set(forms) == needed, (key, forms)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_plural_form_is_the_one_its_count_selects(language: str) -> None:
    """1 etap, 3 etapy, 5 etapów, 22 etapy: t picks the form Babel's rule names for the count."""
    for key, english in _ENGLISH.items():
        if not isinstance(english, dict) or key not in catalog(language):
            continue
        forms = catalog(language)[key]
        assert isinstance(forms, dict)
        params = {name: 7 for text in forms.values() for name, _, _ in _fields(text) if name != "count"}
        seen = set()
        for count, category in EXPECTED_PLURAL_FORMS[language].items():
            assert Locale.parse(language).plural_form(count) == category
            text = t(key, language, count=count, **params)
            assert text == forms[category].format(count=count, **params)
            seen.add(re.sub(r"\d+", "#", text))  # the numbers aside (a board's legend has digits of its own)
        # As many different texts as the selected forms differ (Italian says "1 round", "2 round").
        distinct = {forms[category] for category in EXPECTED_PLURAL_FORMS[language].values()}
        assert len(seen) == len(distinct), (key, seen)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_is_left_in_english(language: str) -> None:
    """Every text is translated but the allowlisted terms and the texts that are only numbers and symbols."""
    left = []
    for key, english in _ENGLISH.items():
        if key not in catalog(language):
            continue
        for category, text in english.items() if isinstance(english, dict) else [("", english)]:
            translated = catalog(language)[key]
            mine = translated.get(category, "") if isinstance(translated, dict) else translated
            has_words = re.search(r"[^\W\d_]", _PLACEHOLDER.sub("", text))
            if mine == text and has_words and key not in SAME_AS_ENGLISH[language]:
                left.append(key)
    assert not left
    for key in SAME_AS_ENGLISH[language]:
        assert catalog(language)[key] == _ENGLISH[key], f"{key} is translated now: take it off the allowlist"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_uses_its_glossary(language: str) -> None:
    """A text whose English names a game term names it with the glossary's word (inflected by its stem)."""
    glossary = _glossary()[language]
    misses = []
    for key, english in _ENGLISH.items():
        if key not in catalog(language) or key in GLOSSARY_EXEMPT | GLOSSARY_EXEMPT_IN.get(language, set()):
            continue
        translated = catalog(language)[key]
        for category, text in english.items() if isinstance(english, dict) else [("", english)]:
            mine = translated.get(category, translated["other"]) if isinstance(translated, dict) else translated
            for term, entry in glossary.items():
                if re.search(rf"\b{re.escape(term)}(s|es|ed|ing)?\b", _prose(text), re.IGNORECASE):
                    prose = _prose(mine).lower()
                    misses += [(key, term, stem) for stem in entry["stems"] if stem.lower() not in prose]
    assert not misses


def test_the_glossaries_keep_the_tabella_terms_italian() -> None:
    """Resistenza, Vigorilla, Gomitata... are the same word in every language's glossary."""
    glossaries = _glossary()
    for term in ("Resistenza", "Velocità", "Vigorilla", "Gomitata", "Gancio di traino", "Scia", "Gazzetta"):
        assert {glossaries[language][term]["term"] for language in LANGUAGES} == {term}


def _payload_descriptions(payload: dict[str, Any], path: str = "") -> list[tuple[str, str, dict[str, str]]]:
    """Every description of a command payload with its localisations: the command's, its options', down."""
    here = f"{path} {payload['name']}".strip()
    found = [(here, payload["description"], payload.get("description_localizations") or {})]
    for option in payload.get("options") or []:
        found += _payload_descriptions(option, here)
    return found


def _payload_names(payload: dict[str, Any], path: str = "") -> list[tuple[str, str, dict[str, str], list[Any]]]:
    """Every name of a command payload (the command's, its subcommands' and options', down) with its
    localisations and its siblings' payloads (names must differ among siblings in each language)."""
    here = f"{path} {payload['name']}".strip()
    options = payload.get("options") or []
    found = [(f"{here} {o['name']}", o["name"], o.get("name_localizations") or {}, options) for o in options]
    for option in options:
        found += _payload_names(option, here)
    return found


_NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a slash command's or option's name, in any language (letters of any script)."""


async def test_every_command_option_and_choice_is_described_in_each_language() -> None:
    """Discord shows /race, /stage, /league... and their options by name and description in Italian, Polish
    and Bulgarian, and their choices by name (rule systems keep theirs)."""
    bot = create_bot(Settings(_env_file=None, token=None, sync_commands=False))
    try:
        for name in EXTENSIONS:
            await bot.load_extension(name)
        translator = CatalogTranslator()
        descriptions: list[tuple[str, str, dict[str, str]]] = []
        names: list[tuple[str, str, dict[str, str], list[Any]]] = []
        keyed_choices: list[tuple[str, dict[str, str]]] = []
        unkeyed: set[str] = set()
        payloads = [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
        for payload in payloads:
            descriptions += _payload_descriptions(payload)
            names += [(payload["name"], payload["name"], payload.get("name_localizations") or {}, payloads)]
            names += _payload_names(payload)
        for command in bot.tree.walk_commands():
            for parameter in getattr(command, "_params", {}).values():
                for choice in getattr(parameter, "choices", None) or []:
                    if choice._locale_name.extras.get("key"):
                        localised = (await choice.get_translated_payload(translator)).get("name_localizations", {})
                        keyed_choices.append((f"{command.qualified_name} {parameter.name} {choice.name}", localised))
                    else:
                        unkeyed.add(choice.name)
        assert len(descriptions) > 60 and len(names) == len(descriptions)
        for where, english, localised in descriptions:
            for language in LANGUAGES:
                text = localised.get(discord.Locale(language).value)
                assert text and text != english and len(text) <= 100, (where, language, text)
        for where, english, localised, siblings in names:
            for language in LANGUAGES:
                text = localised.get(discord.Locale(language).value)
                assert text and _NAME.match(text) and text == text.lower(), (where, language, text)
                same = [o for o in siblings if (o.get("name_localizations") or {}).get(language) == text]
                assert len(same) <= 1, (where, language, text)
                if text == english:
                    assert f"command.name.{english}" in SAME_AS_ENGLISH[language], (where, language)
        assert len(keyed_choices) >= 11, "the paces and the settings"
        for where, localised in keyed_choices:
            assert {discord.Locale(language).value for language in LANGUAGES} <= set(localised), where
        assert unkeyed == {r.name for r in available_rulesets()}, "only the rule systems keep their names"
    finally:
        await bot.close()


def test_the_engine_templates_are_read_for_most_keys() -> None:
    """The engine's English is found for most of its keys (the rest are written as ready texts)."""
    assert set(_ENGINE_ENGLISH) <= message_keys()
    assert len(_ENGINE_ENGLISH) >= 0.75 * len(message_keys())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_template_is_translated_or_the_same_in_every_language(language: str) -> None:
    """Each engine text with a template is in the catalogue, but for names and terms no language changes."""
    missing = set(_ENGINE_ENGLISH) - set(catalog(language))
    assert missing <= SAME_IN_EVERY_LANGUAGE, sorted(missing - SAME_IN_EVERY_LANGUAGE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_key_is_translated(language: str) -> None:
    """Every key the engine may say, template read or not (summaries, stage boards, labels), is in the catalogue,
    but for the names and terms no language changes and the kinds that are never a message's key."""
    missing = message_keys() - set(catalog(language)) - SAME_IN_EVERY_LANGUAGE - KINDS_WORDED_BY_CASE
    assert not missing, sorted(missing)


def _messages(value: Any) -> list[Message]:
    """Every engine message inside an event, a decision, or anything made of them."""
    if isinstance(value, Message):
        return [value, *(m for v in value.params.values() for m in _messages(v))]
    if isinstance(value, dict):
        return [m for v in value.values() for m in _messages(v)]
    if isinstance(value, list | tuple):
        return [m for v in value for m in _messages(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [m for f in dataclasses.fields(value) for m in _messages(getattr(value, f.name))]
    return []


RACES = [("flamme_rouge", 3, {}), ("tabella", 3, {}), ("wyscig", 3, {}), ("mind_cycling", 2, {"mode": "live"})]


@pytest.mark.parametrize(("ruleset_id", "players", "options"), RACES)
def test_a_whole_race_reads_in_each_language_with_no_template_failing(
    ruleset_id: str, players: int, options: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """Every prompt, choice and event of a random race renders from each catalogue (no fallback for a bad fit)."""
    entrants = [Entrant(id=f"h{i}", name=f"H{i}") for i in range(players)]
    race = LoggedRace.start(ruleset_id, entrants, 7, options=options)
    seen: list[Message] = []
    rnd = random.Random(7)
    for _ in range(5000):
        awaited = race.awaited()
        if not awaited:
            break
        seen += _messages(awaited)
        race.play_step({d.entrant: random_order(race, d, rnd) for d in awaited})
    seen += _messages(race.events)
    assert not race.awaited() and seen
    assert not {m.key for m in seen} & KINDS_WORDED_BY_CASE
    for language in LANGUAGES:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="bot.i18n"):
            rendered = [t(m, language) for m in seen]
        assert not caplog.records, caplog.records[0].getMessage()
        translated = [m for m, text in zip(seen, rendered, strict=True) if m.key in catalog(language)]
        assert translated and all(text for text in rendered)

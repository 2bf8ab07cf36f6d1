"""Every sentence a player reads goes through t(), and every key the bot uses exists in English."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import catalog, t
from engine.messages import Message, msg

ROOT = Path(__file__).resolve().parents[2]
KEY_CALL = re.compile(r"""\b(?:t|text|UserError)\(\s*["']([a-z_]+\.[a-z_.]+)["']""")


def test_a_key_renders_with_its_parameters() -> None:
    """A catalog key is formatted with the parameters given."""
    assert t("rules.guide_sent", ruleset="Flamme Rouge") == "I sent you the Flamme Rouge guide by DM."


def test_a_discord_locale_without_a_catalog_falls_back_to_english() -> None:
    """fr, pt-BR and unknown locales read English until their catalog exists."""
    for locale in ("fr", "pt-BR", "en-US", None):
        assert t("rules.guide_button", locale) == "Send me the guide"


def test_an_unknown_key_is_a_programming_error() -> None:
    """A key missing from the English catalog raises, so a typo fails in tests."""
    with pytest.raises(KeyError, match=r"no\.such_key"):
        t("no.such_key")


def test_an_engine_message_without_a_catalog_entry_reads_as_its_text() -> None:
    """Engine messages fall back to the English text the engine wrote."""
    message = msg("fr.card_not_in_hand", "You can't play {card}: your hand is {hand}.", card=9, hand="3, 4, 7")
    assert t(message, "de") == "You can't play 9: your hand is 3, 4, 7."


def test_an_engine_message_uses_the_catalog_when_it_has_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog entry for an engine key wins over the engine's text, with the message's params."""
    french = {"fr.card_not_in_hand": "Tu ne peux pas jouer {card}."}
    monkeypatch.setattr("bot.i18n.catalog", lambda locale: french if locale == "fr" else {})
    message = msg("fr.card_not_in_hand", "You can't play {card}.", card=9)
    assert t(message, "fr") == "Tu ne peux pas jouer 9."
    assert t(message, "en") == "You can't play 9."


def test_every_key_the_bot_uses_is_in_the_english_catalog() -> None:
    """Each t("...") / UserError("...") key in bot/ exists in bot/i18n/en.json."""
    used = {key for path in (ROOT / "bot").rglob("*.py") for key in KEY_CALL.findall(path.read_text())}
    assert used, "the scan found no keys at all"
    assert used <= set(catalog("en")), sorted(used - set(catalog("en")))


def test_every_english_entry_is_used() -> None:
    """No dead entries: each English key is used somewhere in bot/."""
    source = "\n".join(p.read_text() for p in (ROOT / "bot").rglob("*.py"))
    unused = [key for key in catalog("en") if f'"{key}"' not in source]
    assert unused == []


def test_the_catalog_is_a_flat_map_of_strings() -> None:
    """en.json maps dotted keys to templates (a counted sentence: to its plural forms)."""
    from bot.i18n import _is_template

    data = json.loads((ROOT / "bot" / "i18n" / "en.json").read_text())
    assert all(re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", k) and _is_template(v) for k, v in data.items())


def test_translations_never_fall_back_to_english() -> None:
    """For command descriptions a missing translation is None (Discord then shows the English)."""
    from bot.i18n import translation

    assert translation("command.rules", "fr") is None
    assert translation("command.rules", "en-US") is None


async def test_command_descriptions_are_synced_with_their_translations(
    fake_discord: Any, gregario: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalog for French gives the commands French descriptions on Discord; English stays the default."""
    french = {"command.rules": "Comment se joue un système de règles.", "command.rules.ruleset": "Le système."}
    english = catalog("en")
    monkeypatch.setattr(
        "bot.i18n.catalog", lambda locale: french if locale == "fr" else english if locale == "en" else {}
    )
    await gregario.sync_commands()
    rules = next(c for c in fake_discord.commands if c.name == "rules")
    assert rules.data["description"] == "How a rule system plays, and its guide by DM."
    assert rules.data["description_localizations"] == {"fr": "Comment se joue un système de règles."}
    assert rules.data["options"][0]["description_localizations"] == {"fr": "Le système."}


def test_a_counted_engine_sentence_takes_each_languages_plural_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """Polish says 1 karta, 3 karty, 5 kart: the catalog's forms are chosen by Polish rules, not English ones."""
    from engine.messages import plural

    polish = {
        "wk.cards_left": {
            "one": "{count} karta",
            "few": "{count} karty",
            "many": "{count} kart",
            "other": "{count} karty",
        }
    }
    monkeypatch.setattr("bot.i18n.catalog", lambda locale: polish if locale == "pl" else {})
    said = [t(plural("wk.cards_left", n, "{count} card", "{count} cards"), "pl") for n in (1, 3, 5, 22)]
    assert said == ["1 karta", "3 karty", "5 kart", "22 karty"]
    assert [t(plural("wk.cards_left", n, "{count} card", "{count} cards"), "en") for n in (1, 0, 2)] == [
        "1 card",
        "0 cards",
        "2 cards",
    ]


def test_a_plural_entry_needs_its_other_form() -> None:
    """A catalog entry of plural forms without 'other' would leave some counts without words: refused."""
    from bot.i18n import _is_template

    assert _is_template({"one": "{count} card", "other": "{count} cards"})
    assert not _is_template({"one": "{count} card"})
    assert not _is_template({"other": 3})


def test_words_nested_in_a_sentence_are_translated_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal whose reason is a message of its own reads wholly in French, from the object or its JSON."""
    from engine.messages import event, phrases

    french = {
        "mc.ride_refused": "{cyclist} ne peut pas rouler : {why}.",
        "mc.why.blocked": "la route est bloquée",
        "mc.why.tired": "trop fatigué",
    }
    monkeypatch.setattr("bot.i18n.catalog", lambda locale: french if locale == "fr" else {})
    blocked = msg("mc.why.blocked", "the road is blocked")
    tired = msg("mc.why.tired", "too tired")
    refused = msg("mc.ride_refused", "{cyclist} cannot ride: {why}.", cyclist="#3", why=blocked)
    assert refused.text == "#3 cannot ride: the road is blocked."
    assert t(refused, "fr") == "#3 ne peut pas rouler : la route est bloquée."
    both = event("mc.ride_refused", "{cyclist} cannot ride: {why}.", cyclist="#3", why=phrases([blocked, tired]))
    assert both.message.text == "#3 cannot ride: the road is blocked, too tired."
    stored = both.model_dump()  # as the bot keeps and reads events: plain JSON
    assert stored["data"]["why"][0] == {"key": "mc.why.blocked", "params": {}, "text": "the road is blocked"}
    as_read = Message(stored["message"]["key"], stored["message"]["params"], stored["message"]["text"])
    assert t(as_read, "fr") == "#3 ne peut pas rouler : la route est bloquée, trop fatigué."
    assert t(as_read, "en") == "#3 cannot ride: the road is blocked, too tired."

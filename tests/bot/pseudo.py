"""A pseudo-locale: every catalogue text turned into look-alike accented letters and made longer, so that a
whole race read in it shows at once any text that did not come through the one translation function (it
reads as plain English letters), any key or broken template, and any text that grows past Discord's limits.

The transformation keeps what a translator keeps: placeholders, code and commands players type, Discord's
markup (timestamps, mentions), links. The vehicle is a locale Discord knows and no catalogue ships
(``fr``), so the bot treats it as any member's or server's language; :func:`install` makes ``bot.i18n`` read
the pseudo catalogue for it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

import bot.i18n
from bot.i18n import catalog as _shipped
from tests.bot.engine_texts import english_templates

LOCALE = "fr"
"""The pseudo-locale's vehicle: a Discord locale (with Babel's French plural rules: one, many, other)."""

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOOK_ALIKE = "àƀçđéƒĝĥîĵķĺɱñöþǫŕšŧûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŦÛṼŴẊÝŽ"
_TO_PSEUDO = str.maketrans(_PLAIN, _LOOK_ALIKE)
_VOWELS = "àéîöûýÀÉÎÖÛÝ"

_KEPT = re.compile(
    r"\{\{|\}\}"  # escaped braces
    r"|\{[^{}]*\}"  # a placeholder
    r"|`[^`]*`"  # code: what players type (order syntax, commands with options)
    r"|<[^<>\s]*>"  # Discord's markup: <t:...:R>, <@id>, <#id>
    r"|https?://\S+"
    r"|(?<![\w/])/[a-z_]+(?: [a-z_]+)*"  # a slash command: /race new
    r"|\b\w+=\w+"  # an option as typed: lane=2
)
"""What the transformation leaves as it is (each match), as a translator leaves it."""


def _longer(word: re.Match[str]) -> str:
    """A word a little longer, its first vowel doubled, as many languages run longer than English."""
    text = word.group(0)
    for i, letter in enumerate(text):
        if letter in _VOWELS:
            return text[: i + 1] + letter + text[i + 1 :]
    return text


def pseudo_text(template: str) -> str:
    """``template`` with the letters of its words in look-alikes and each word of 3+ letters longer."""
    out: list[str] = []
    position = 0
    for kept in _KEPT.finditer(template):
        out.append(_words(template[position : kept.start()]))
        out.append(kept.group(0))
        position = kept.end()
    out.append(_words(template[position:]))
    return "".join(out)


def _words(text: str) -> str:
    return re.sub(r"[^\W\d_]{3,}", _longer, text.translate(_TO_PSEUDO))


def pseudo_template(template: bot.i18n.Template) -> bot.i18n.Template:
    """A catalogue entry in the pseudo-locale; a counted sentence gets French's forms (one, many, other)."""
    if isinstance(template, str):
        return pseudo_text(template)
    other = pseudo_text(template["other"])
    return {"one": pseudo_text(template.get("one", template["other"])), "many": other, "other": other}


@cache
def pseudo_catalogue() -> dict[str, bot.i18n.Template]:
    """Every English text there is to translate (the bot's catalogue and the engine's templates)."""
    english: dict[str, bot.i18n.Template] = {**english_templates(), **_english()}
    return {key: pseudo_template(template) for key, template in english.items()}


def _english() -> dict[str, bot.i18n.Template]:
    return _shipped("en")


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``bot.i18n`` read the pseudo catalogue for :data:`LOCALE` (the shipped catalogues otherwise)."""

    def catalog(locale: str) -> dict[str, bot.i18n.Template]:
        return pseudo_catalogue() if locale == LOCALE else _shipped(locale)

    monkeypatch.setattr(bot.i18n, "catalog", catalog)


_NOT_PROSE = re.compile(
    r"`[^`]*`|<[^<>\s]*>|https?://\S+|\brace-\d+\.\w+\b|\b[\w.-]+\.(?:png|gif|json|webp)\b"
    r"|(?<![\w/])/[a-z_]+(?: [a-z_]+)*|\b\w+=\w+"
)
_ENGLISH_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])")
"""A run of two or more plain letters that is a whole word: what no pseudo text contains."""


def plain_words(text: str) -> list[str]:
    """The words of ``text`` in plain (untransformed) letters, code, markup and file names aside."""
    return _ENGLISH_WORD.findall(_NOT_PROSE.sub(" ", text))


def texts_of(value: Any, key: str = "") -> list[str]:
    """Every text a person reads in a request body sent to Discord: contents, embeds, components' labels and
    placeholders, text displays, select options, modal titles and fields, thread names, alt texts (never a
    custom id, an option's value, a URL or a file name)."""
    read = {"content", "title", "description", "label", "placeholder", "text", "name", "value"}
    # An attachment's description is its alt text; its filename is skipped with the ids.
    if isinstance(value, dict):
        found: list[str] = []
        options = value.get("type") in (3, 5, 6, 7, 8)  # a select: its options' values are ids
        for k, v in value.items():
            if k in ("custom_id", "url", "proxy_url", "filename", "id", "nonce", "allowed_mentions"):
                continue
            if k == "value" and (options or "label" in value):
                continue
            found += texts_of(v, k)
        return found
    if isinstance(value, list):
        return [text for item in value for text in texts_of(item, key)]
    return [value] if isinstance(value, str) and key in read and value else []

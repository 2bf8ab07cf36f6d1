"""Every sentence a player reads goes through :func:`t`, so the bot can speak other languages.

Catalogs are flat JSON files (``en.json``, later ``fr.json``...) shipped in this package: a dotted key
to a ``str.format`` template, or, for a counted sentence, to its plural forms by CLDR category
(``{"one": "{count} card", "other": "{count} cards"}``; Babel knows each language's rule). English is
the reference catalog; a key missing in another language falls back to English. Engine
:class:`~engine.messages.Message` objects render the same way: their key is looked up in the catalogs
and, when no catalog knows it, the engine's own English ``text`` is used. The style of every message is
set in ``docs/message-style.md``.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale, UnknownLocaleError

from engine.messages import Message

Template = str | dict[str, str]
"""A catalog entry: a template, or a counted sentence's templates by plural category."""

DEFAULT_LOCALE = "en"

_log = logging.getLogger(__name__)


@cache
def catalog(locale: str) -> dict[str, Template]:
    """The catalog of ``locale`` (a bare language like ``en``); empty when there is none."""
    name = f"{locale}.json"
    source = resources.files(__name__).joinpath(name)
    if not source.is_file():
        return {}
    data = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(_is_template(v) for v in data.values()):
        raise ValueError(f"bot/i18n/{name} must map keys to strings (or plural forms with an 'other')")
    return data


def _is_template(value: Any) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, dict) and "other" in value and all(isinstance(v, str) for v in value.values())


def _plural_form(forms: dict[str, str], locale: str, count: Any) -> str:
    """The form of ``forms`` that ``count`` takes in ``locale`` (CLDR rules, through Babel); ``other``
    when the language or the count is unknown."""
    try:
        category = Locale.parse(locale.replace("-", "_")).plural_form(count)
    except (UnknownLocaleError, ValueError, TypeError):
        category = "other"
    return forms.get(category, forms["other"])


def _candidates(locale: str | None) -> list[str]:
    """Where to look for a key: ``pt-BR`` -> ``pt-BR``, ``pt``, then English."""
    found: list[str] = []
    if locale:
        text = str(locale).replace("_", "-")
        found.append(text)
        found.append(text.split("-")[0].lower())
    found.append(DEFAULT_LOCALE)
    return list(dict.fromkeys(found))


def translation(key: str, locale: str) -> str | None:
    """``key``'s template in ``locale`` itself (or its bare language), without falling back to English.

    Discord shows the English default when a translation is missing, so this is what command names
    and descriptions need.
    """
    for candidate in _candidates(locale)[:-1]:
        if candidate == DEFAULT_LOCALE:
            return None
        template = catalog(candidate).get(key)
        if isinstance(template, str):
            return template
    return None


def _template(key: str, locale: str | None, params: dict[str, Any]) -> str | None:
    """``key``'s template in the first catalog that has it; a counted sentence's form chosen by the
    ``count`` parameter under that catalog's language."""
    for candidate in _candidates(locale):
        template = catalog(candidate).get(key)
        if isinstance(template, dict):
            return _plural_form(template, candidate, params.get("count"))
        if template is not None:
            return template
    return None


def t(key: str | Message, locale: str | None = DEFAULT_LOCALE, **params: Any) -> str:
    """The player-facing text of ``key`` in ``locale`` (a Discord locale such as ``en-US`` works).

    ``key`` is a catalog key (a missing English key is a programming error: ``KeyError``) or an engine
    ``Message``, whose own params are used (``params`` add to them) and whose English text is the
    fallback when no catalog knows its key.
    """
    if isinstance(key, Message):
        merged = {name: _nested(value, locale) for name, value in {**key.params, **params}.items()}
        template = _template(key.key, locale, merged)
        if template is None:
            return key.text
        return _format(template, merged, fallback=key.text)
    template = _template(key, locale, params)
    if template is None:
        raise KeyError(f"no message {key!r} in the English catalog (bot/i18n/en.json)")
    return _format(template, params, fallback=None)


def _is_message(value: Any) -> bool:
    """A message as an event's or a decision's JSON holds it: ``{"key", "params", "text"}``."""
    return isinstance(value, dict) and isinstance(value.get("key"), str) and isinstance(value.get("text"), str)


def _nested(value: Any, locale: str | None) -> Any:
    """A message parameter ready for a template: a nested message (object or JSON) in ``locale``, a list of
    them joined by commas (as the engine's English joins them); anything else as it is."""
    if isinstance(value, Message):
        return t(value, locale)
    if _is_message(value):
        return t(Message(value["key"], dict(value.get("params") or {}), value["text"]), locale)
    if isinstance(value, list) and value and all(isinstance(v, Message) or _is_message(v) for v in value):
        return ", ".join(_nested(v, locale) for v in value)
    return value


def _format(template: str, params: dict[str, Any], fallback: str | None) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        if fallback is not None:
            _log.warning("message template %r does not fit its params %s; using the fallback", template, params)
            return fallback
        raise


def named(message: Message, locale: str | None, names: Mapping[str, str]) -> str:
    """``message`` in ``locale`` with every rider id it holds read as the rider's name (``red-r`` ->
    "carol's Rouleur"): in its parameters (a name, a list of them, a nested message, a list joined into
    one text) and in the engine's English text, the fallback. The engine says ids, so its English stays
    deterministic and its records unchanged; naming is the front end's."""
    # An id that is a plain word ("you", the terminal's player) could be a word of the sentence: left as is.
    ids = tuple(sorted((i for i in names if i and not i.isalpha()), key=len, reverse=True))
    if not ids:
        return t(message, locale)
    pattern = _ids_pattern(ids)
    return t(_renamed(message, pattern, names), locale)


@cache
def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w#-])(?:" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")


def _renamed(value: Any, pattern: re.Pattern[str], names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return pattern.sub(lambda m: names[m.group(0)], value)
    if isinstance(value, Message):
        params = {k: _renamed(v, pattern, names) for k, v in value.params.items()}
        return Message(value.key, params, _renamed(value.text, pattern, names))
    if _is_message(value):
        return _renamed(Message(value["key"], dict(value.get("params") or {}), value["text"]), pattern, names)
    if isinstance(value, list):
        return [_renamed(v, pattern, names) for v in value]
    return value

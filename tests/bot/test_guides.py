"""The four player's guides in Italian, Polish and Bulgarian: each says what the English one says (same
sections, same order syntax, same figures), /rules sends each reader the guide in their language, and Flamme
Rouge's rules summary (the guide's first section) is the catalogue's."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from bot import catalogue
from bot.i18n import catalog, t
from engine.registry import get_ruleset
from tests.bot.test_catalogue import _guide_problems
from tests.bot.test_catalogues import _glossary, _prose
from tests.fakediscord import DiscordUser, FakeDiscord
from tests.fakediscord.world import Channel, Guild

LANGUAGES = ("it", "pl", "bg")
_FENCE = re.compile(r"```.*?```", re.DOTALL)


def _guide(ruleset: Any, language: str) -> str:
    text = ruleset.guide(language)
    assert text is not None
    return text


def _outline(text: str) -> dict[str, Any]:
    """What a faithful translation keeps: the heading levels, the list items and fenced blocks, the inline
    code (order syntax players type, board symbols) and the figures, numbers in running text included."""
    prose = _FENCE.sub(" ", text)
    return {
        "headings": [line.split(" ", 1)[0] for line in text.splitlines() if line.startswith("#")],
        "items": sum(1 for line in prose.splitlines() if re.match(r"\s*(- |\d+\. )", line)),
        "fences": len(_FENCE.findall(text)),
        "code": Counter(re.findall(r"`[^`]+`", prose)),
        "numbers": Counter(re.findall(r"\d+", re.sub(r"`[^`]+`", " ", prose))),
    }


SYSTEMS = ("flamme_rouge", "tabella", "wyscig", "mind_cycling")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_each_guide_is_translated_with_everything_the_english_one_says(ruleset_id: str, language: str) -> None:
    """Same sections, list items and examples; every order a player may type and every figure kept."""
    ruleset = get_ruleset(ruleset_id)
    english, translated = _guide(ruleset, "en"), _guide(ruleset, language)
    assert translated != english and translated == _guide(ruleset, f"{language}-{language.upper()}")
    mine, theirs = _outline(translated), _outline(english)
    assert mine == theirs, {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
    assert _guide_problems(translated) == [], "no tables, no hard-wrapped paragraphs"
    assert all(len(piece) <= catalogue.MESSAGE_LIMIT for piece in catalogue.chunks(translated))


def _paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n|\n(?=- |\d+\. )", text) if p.strip()]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_each_guide_uses_its_glossary(ruleset_id: str, language: str) -> None:
    """Paragraph by paragraph, a game term of the English guide is the glossary's word in the translation (a
    term of another system aside: Flamme Rouge's recycled pile is not Wyścig's talon)."""
    ruleset = get_ruleset(ruleset_id)
    english, translated = _paragraphs(_guide(ruleset, "en")), _paragraphs(_guide(ruleset, language))
    assert len(english) == len(translated)
    glossary = {
        term: entry
        for term, entry in _glossary()[language].items()
        if entry["system"] in ("all", ruleset.name) or ruleset.name in entry["system"]
    }
    misses = []
    for theirs, mine in zip(english, translated, strict=True):
        for term, entry in glossary.items():
            if re.search(rf"\b{re.escape(term)}(s|es|ed|ing)?\b", _prose(theirs), re.IGNORECASE):
                prose = _prose(mine).lower()
                misses += [(term, stem, mine[:60]) for stem in entry["stems"] if stem.lower() not in prose]
    assert not misses


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_flamme_rouge_summary_is_the_translated_guide_s_first_section(language: str) -> None:
    """/rules shows the summary, the guide repeats it: one text, so they never drift apart."""
    guide = _guide(get_ruleset("flamme_rouge"), language)
    first = guide.split("\n## ", 2)[1].split("\n", 1)[1].strip()
    assert catalog(language)["fr.summary"] == first


@pytest.mark.parametrize(("language", "ruleset_id"), [("it", "tabella"), ("pl", "wyscig"), ("bg", "flamme_rouge")])
async def test_the_guide_button_sends_each_reader_the_guide_in_their_language(
    fake_discord: FakeDiscord, gregario: Any, guild: Guild, races: Channel, language: str, ruleset_id: str
) -> None:
    """An Italian asks for Tabella del Destino, a Pole for Wyścig kolarski, a Bulgarian for Flamme Rouge: each
    gets /rules and the guide by DM in their own language."""
    ruleset = get_ruleset(ruleset_id)
    user = fake_discord.create_user("Reader", locale=language)
    fake_discord.add_member(guild, user)
    reader = DiscordUser(fake_discord, user, races)
    reply = await (await reader.slash("rules", ruleset=ruleset.name)).reply()
    assert reply.buttons == [t("rules.guide_button", language)]
    note = await (await reader.click(reply, t("rules.guide_button", language))).reply()
    assert note.content == t("rules.guide_sent", language, ruleset=ruleset.name)
    sent = " ".join("\n\n".join(m.content for m in reader.dms()).split())
    assert sent == " ".join(_guide(ruleset, language).split())
    assert all(len(m.content) <= 2000 for m in reader.dms())
    assert catalogue.guide(ruleset, language) == _guide(ruleset, language)

"""Guides cut to Discord's sizes, presets found by name, safe file names for boards."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import catalogue
from engine.ruleset import Ruleset


def _words(text: str) -> list[str]:
    return text.replace("```", "").split()


def test_a_short_text_is_one_message() -> None:
    """Text under the limit stays whole."""
    assert catalogue.chunks("# Guide\n\nPlay a card.") == ["# Guide\n\nPlay a card."]


def test_long_text_breaks_between_paragraphs() -> None:
    """Paragraphs are kept together when they fit."""
    text = "\n\n".join(["a" * 900, "b" * 900, "c" * 900])
    assert catalogue.chunks(text, 2000) == ["a" * 900 + "\n\n" + "b" * 900, "c" * 900]


def test_a_code_block_cut_in_two_is_closed_and_reopened() -> None:
    """Each message of a split code block has balanced fences."""
    text = "Intro\n\n```\n" + "\n\n".join(["row " * 20] * 6) + "\n```\n\nAfter"
    pieces = catalogue.chunks(text, 300)
    assert len(pieces) >= 2
    assert all(p.count("```") % 2 == 0 and len(p) <= 300 for p in pieces)
    assert pieces[1].startswith("```\n")


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", " ", "\n", "#", "```"]), max_size=300).map("".join),
    st.integers(min_value=20, max_value=200),
)
def test_chunks_respect_the_limit_and_lose_no_word(text: str, limit: int) -> None:
    """Every piece fits the limit, has balanced code fences, and together they hold the same words."""
    pieces = catalogue.chunks(text, limit)
    assert all(0 < len(p) <= limit and p.count("```") % 2 == 0 for p in pieces)
    assert "".join(_words(" ".join(pieces))) == "".join(_words(text))


def test_presets_are_found_ignoring_case_and_spaces(ruleset: Ruleset[Any]) -> None:
    """ "  LA  classicissima " finds "La Classicissima"."""
    preset = ruleset.presets()[0]
    shouted = "  " + "  ".join(preset.name.upper().split()) + " "
    assert catalogue.find_preset(ruleset, shouted) == preset
    assert catalogue.find_preset(ruleset, "no such stage at all") is None


def test_board_file_names_are_ascii_slugs(ruleset: Ruleset[Any]) -> None:
    """Accents and punctuation disappear from attachment names."""
    assert catalogue.board_filename(ruleset, "Côte d'Azur!") == f"{ruleset.id}-cote-d-azur.txt"
    assert catalogue.board_filename(ruleset, "???") == f"{ruleset.id}-stage.txt"


def test_every_installed_rule_system_has_a_guide(rulesets: list[Ruleset[Any]]) -> None:
    """The /rules button needs engine/<id>/guide.md for every rule system."""
    assert [r.id for r in rulesets if catalogue.guide(r) is None] == []

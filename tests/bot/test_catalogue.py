"""Guides cut to Discord's sizes, presets found by name, safe file names for boards."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import catalogue
from engine.registry import available_rulesets
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
    # Fences are exactly three backticks, as in the guides: a run of four or more backticks is no Markdown a
    # guide holds, and a run longer than a message can only be cut inside (its leftover backticks regroup).
    st.lists(st.sampled_from(["a", "b", " ", "\n", "#", "```"]), max_size=300)
    .map("".join)
    .filter(lambda t: "````" not in t),
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


def test_a_preset_is_found_by_its_name_as_a_listing_shows_it_with_its_label() -> None:
    """'Sprint de Montagne [origin unverified]' (the terminal's listing) and '... · origin unverified' (/stages)
    find the preset; a label the preset does not carry does not."""
    from engine.registry import get_ruleset

    ruleset = get_ruleset("flamme_rouge")
    preset = next(p for p in ruleset.presets() if p.name == "Sprint de Montagne")
    for written in ("Sprint de Montagne [origin unverified]", "sprint de montagne · Origin Unverified"):
        assert catalogue.find_preset(ruleset, written) == preset
    assert catalogue.find_preset(ruleset, "Sprint de Montagne [default]") is None


def test_board_file_names_are_ascii_slugs(ruleset: Ruleset[Any]) -> None:
    """Accents and punctuation disappear from attachment names."""
    assert catalogue.board_filename(ruleset, "Côte d'Azur!") == f"{ruleset.id}-cote-d-azur.txt"
    assert catalogue.board_filename(ruleset, "???") == f"{ruleset.id}-stage.txt"


def test_every_installed_rule_system_has_a_guide(rulesets: list[Ruleset[Any]]) -> None:
    """The /rules button needs engine/<id>/guide.md for every rule system."""
    assert [r.id for r in rulesets if catalogue.guide(r) is None] == []


def _guide_problems(text: str) -> list[str]:
    """Lines of a guide that Discord would show badly: table rows (raw pipes) and paragraphs hard-wrapped
    onto several lines (ragged on a phone). Code blocks are left as they are."""
    problems = []
    lines = text.splitlines()
    fenced = False
    for n, line in enumerate(lines):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or not line.strip():
            continue
        if line.lstrip().startswith("|"):
            problems.append(f"line {n + 1}: a table row: {line[:60]}")
        following = lines[n + 1] if n + 1 < len(lines) else ""
        starts_block = (
            not following.strip()
            or following.startswith(("#", "```", "- ", "* "))
            or following[:3].rstrip(" ").rstrip(".").isdigit()
        )
        if not line.startswith("#") and not starts_block:
            problems.append(f"line {n + 1}: the paragraph goes on on the next line: {following[:60]}")
    return problems


def test_the_guide_checker_finds_tables_and_hard_wraps() -> None:
    """The check below is not blind: it flags a table and a paragraph broken over two lines."""
    assert len(_guide_problems("| a | b |\n|---|---|")) >= 2
    assert _guide_problems("One sentence broken\nin two.") != []
    assert _guide_problems("# Title\nOne line.\n\n- an item\n- another\n1. a step\n\n```\nrow | row\nrow\n```") == []


def test_every_guide_reads_well_on_discord(rulesets: list[Ruleset[Any]]) -> None:
    """No Markdown tables and no hard-wrapped paragraphs in the guides /rules sends, and every piece fits."""
    for ruleset in rulesets:
        text = catalogue.guide(ruleset)
        assert text is not None, ruleset.id
        assert _guide_problems(text) == [], ruleset.id
        assert all(len(piece) <= catalogue.MESSAGE_LIMIT for piece in catalogue.chunks(text))


def test_every_rule_variant_and_word_value_has_words() -> None:
    """Each option of each rule system, and each word its values take, reads in words (the suggestions of
    /race new name them so): a new variant without words here fails."""
    for ruleset in available_rulesets():
        schema = ruleset.options_model.model_json_schema()
        for name, prop in schema["properties"].items():
            assert name in catalogue.OPTION_NAMES, (ruleset.id, name)
            for part in [prop, *prop.get("anyOf", [])]:
                for value in part.get("enum", []):
                    if isinstance(value, str):
                        assert value in catalogue.OPTION_VALUES, (ruleset.id, name, value)
    assert catalogue.option_label("riders_per_player", "it") == "Corridori per giocatore"
    assert (
        catalogue.option_value(True, "en"),
        catalogue.option_value("next_morning", "pl"),
        catalogue.option_value(2, "en"),
    ) == (
        "yes",
        "następnego ranka",
        "2",
    )

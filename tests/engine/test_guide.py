"""Every rule system's guide comes through the interface, in the reader's language when it exists."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.registry import available_rulesets


def test_every_system_has_an_english_guide_that_other_languages_fall_back_to() -> None:
    """Asked in German or Brazilian Portuguese (no system has those guides), a system gives its English one."""
    for ruleset in available_rulesets():
        english = ruleset.guide()
        assert english and english.startswith("#"), ruleset.id
        assert ruleset.guide("de") == english and ruleset.guide("pt-BR") == english


def test_a_guide_in_the_readers_language_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package with guide.pl.md answers Polish readers (pl and pl-PL) with it, and others in English."""
    package = tmp_path / "toy_system"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "guide.md").write_text("# Toy\nEnglish.")
    (package / "guide.pl.md").write_text("# Zabawka\nPo polsku.")
    (package / "ruleset.py").write_text(
        "from engine.registry import get_ruleset\n"
        "Toy = type(get_ruleset('flamme_rouge'))\n"
        "class ToyRuleset(Toy):\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module: Any = importlib.import_module("toy_system.ruleset")
    try:
        toy = module.ToyRuleset()
        assert toy.guide("pl") == "# Zabawka\nPo polsku." == toy.guide("pl-PL")
        assert toy.guide("de") == "# Toy\nEnglish." == toy.guide()
    finally:
        for name in [n for n in sys.modules if n.startswith("toy_system")]:
            del sys.modules[name]

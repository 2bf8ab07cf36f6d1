"""The engine lists every key it may say, one prefix per system, so a catalogue can be checked complete.

Each system's own test plays its races and scans its source against its list; this one holds the four
lists to the common scheme and to what the interface shows outside a race."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from engine import race
from engine.keys import message_keys
from engine.messages import Message
from engine.registry import RULESET_IDS, get_ruleset

PREFIXES = {"flamme_rouge": "fr.", "tabella": "td.", "wyscig": "wk.", "mind_cycling": "mc."}
ENGINE = Path(race.__file__).resolve().parent


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_each_system_says_its_keys_under_its_own_prefix(ruleset_id: str) -> None:
    """Flamme Rouge says fr.…, Tabella td.…, Wyścig wk.…, Mind Cycling mc.…; no key is shared."""
    keys = get_ruleset(ruleset_id).message_keys()
    assert keys and all(k.startswith(PREFIXES[ruleset_id]) for k in keys)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_summaries_boards_and_presets_are_listed_messages(ruleset_id: str) -> None:
    """What /rules and /stages show is a message a translator reaches, under a listed key."""
    ruleset = get_ruleset(ruleset_id)
    shown: list[Any] = [ruleset.summary()]
    for preset in ruleset.presets():
        shown += [preset.summary, ruleset.stage_board(preset.name, {})]
        if preset.label is not None:
            shown.append(preset.label)
    assert all(isinstance(m, Message) for m in shown)
    assert {m.key for m in shown} <= ruleset.message_keys()


def test_the_engines_list_is_the_union_and_covers_the_drivers_own_keys() -> None:
    """The driver's refusals (incomplete order, bad time) are listed beside the four systems' keys."""
    keys = message_keys()
    assert keys >= race.MESSAGE_KEYS
    for ruleset_id in RULESET_IDS:
        assert get_ruleset(ruleset_id).message_keys() <= keys
    named = {
        node.value
        for path in ENGINE.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("order.")
    }
    assert named and named <= keys
